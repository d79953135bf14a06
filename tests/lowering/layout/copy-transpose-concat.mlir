// RUN: linalg
// Transpose reads the input through the inverse permutation; Concat
// copies each input into its slice of the output.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>) -> ("t": tensor<4x2x3xf32>, "c": tensor<2x8x4xf32>) {
  %t = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %c = "onnx.Concat"(%x, %y) {axis = 1} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  onnx.return %t, %c
}

// CHECK: #map = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK: #map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @k0(%arg0: memref<2x3x4xf32> {llvm.noalias}, %arg1: memref<4x2x3xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<2x3x4xf32>) outs(%{{\w+}} :
// CHECK-LABEL: func.func @k1(%arg0: memref<2x3x4xf32> {llvm.noalias}, %arg1: memref<2x5x4xf32> {llvm.noalias}, %arg2: memref<2x8x4xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: tensor.extract_slice %{{\w+}}[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<2x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<2x3x4xf32>) outs(%{{\w+}} :
// CHECK: tensor.insert_slice %{{\w+}} into %{{\w+}}[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<2x8x4xf32>
// CHECK: tensor.extract_slice %{{\w+}}[0, 3, 0] [2, 5, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<2x5x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<2x5x4xf32>) outs(%{{\w+}} :
// CHECK: tensor.insert_slice %{{\w+}} into %{{\w+}}[0, 3, 0] [2, 5, 4] [1, 1, 1] : tensor<2x5x4xf32> into tensor<2x8x4xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x3x4xf32>, %arg3: memref<2x5x4xf32>, %arg4: memref<4x2x3xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg4, %{{\w+}}, %{{\w+}}) : (memref<2x3x4xf32>, memref<4x2x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg3, %arg5, %{{\w+}}, %{{\w+}}) : (memref<2x3x4xf32>, memref<2x5x4xf32>, memref<2x8x4xf32>, index, index) -> ()
