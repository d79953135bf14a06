// RUN: linalg
// LayerNormalization over the last axis: the mean and variance are
// reductions into [rows] tensors, the result one parallel generic
// (x - mean) / sqrt(var + eps) * scale + bias.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> ("y": tensor<4x8xf32>) {
  %y = "onnx.LayerNormalization"(%x, %s, %b) {axis = -1, epsilon = 1.0e-05} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK: #map2 = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: memref<8xf32> {llvm.noalias}, %arg3: memref<4x8xf32>
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<4x8xf32>) outs(%{{\w+}} : tensor<4xf32>) attrs
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p2} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}},
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 9.99999974E-6 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.rsqrt %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<8xf32>, %arg4: memref<8xf32>, %arg5: memref<4x8xf32>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<8xf32>, memref<8xf32>, memref<4x8xf32>, index, index) -> ()
