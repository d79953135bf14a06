// RUN: linalg
// Expand reads broadcast dims at index 0 and Tile wrapped indices
// (i mod d), both through the input's indexing map.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x1xf32>) -> ("e": tensor<2x3x4xf32>, "t": tensor<6x2xf32>) {
  %shape = "onnx.Constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %e = "onnx.Expand"(%x, %shape) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %reps = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %t = "onnx.Tile"(%x, %reps) : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<6x2xf32>
  onnx.return %e, %t
}

// CHECK: #map = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK: #map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #map2 = affine_map<(d0, d1) -> (d0 mod 3, 0)>
// CHECK: #map3 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3x1xf32> {llvm.noalias}, %arg1: memref<3xi64> {llvm.noalias}, %arg2: memref<2x3x4xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<3x1xf32>) outs(%{{\w+}} :
// CHECK-LABEL: func.func @k1(%arg0: memref<3x1xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<6x2xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<3x1xf32>) outs(%{{\w+}} : tensor<6x2xf32>) {
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x1xf32>, %arg3: memref<2x3x4xf32>, %arg4: memref<6x2xf32>, %arg5: memref<3xi64>,
// CHECK: call @k0(%arg2, %arg5, %arg3, %{{\w+}}, %{{\w+}}) : (memref<3x1xf32>, memref<3xi64>, memref<2x3x4xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg6, %arg4, %{{\w+}}, %{{\w+}}) : (memref<3x1xf32>, memref<2xi64>, memref<6x2xf32>, index, index) -> ()
