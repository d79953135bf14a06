// RUN: linalg
// A reduction is a reduction generic into a temporary without the
// reduced dims, then a generic over the output applying Mean's ÷N.
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<4x8xf32>) -> ("mean": tensor<4x1xf32>, "max": tensor<8xf32>) {
  %axes = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %axes0 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %max = "onnx.ReduceMax"(%x, %axes0) {keepdims = 0} : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<8xf32>
  onnx.return %mean, %max
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK: #map2 = affine_map<(d0, d1) -> (d1)>
// CHECK: #map3 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<4x1xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<4x8xf32>) outs(%{{\w+}} : tensor<4xf32>) attrs
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4xf32>) outs(%{{\w+}} : tensor<4x1xf32>) attrs =
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<8xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: tensor.empty() : tensor<8xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%{{\w+}} : tensor<4x8xf32>) outs(%{{\w+}} : tensor<8xf32>) attrs
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<8xf32>) outs(%{{\w+}} : tensor<8xf32>) attrs =  {omlc.root}
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<4x1xf32>, %arg4: memref<8xf32>, %arg5: memref<1xi64>, %arg6:
// CHECK: call @k0(%arg2, %arg5, %arg3, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<1xi64>, memref<4x1xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg6, %arg4, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<1xi64>, memref<8xf32>, index, index) -> ()
