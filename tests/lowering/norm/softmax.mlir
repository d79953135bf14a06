// RUN: linalg
// Softmax along the last axis: the row max and the sum of exp(x - max)
// are reductions into [rows] tensors, the result one parallel generic
// reading x and both statistics (exp as the f32 polynomial of math.rs,
// pinned in math/polynomials.mlir).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>) -> ("y": tensor<4x8xf32>) {
  %y = "onnx.Softmax"(%x) {axis = -1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<4x8xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<4x8xf32>) outs(%{{\w+}} : tensor<4xf32>) attrs
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p3} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<4x8xf32>) outs(%{{\w+}} : tensor<4xf32>) attrs
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<4x8xf32>) {
// CHECK: call @k0(%arg2, %arg3, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<4x8xf32>, index, index) -> ()
