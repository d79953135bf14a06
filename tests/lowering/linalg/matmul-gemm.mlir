// RUN: linalg
// Gemm: alpha·A'·B' + beta·C, the transposes in the contraction's
// indexing maps (transB reads B as (d0, d1, d2) -> (d1, d2)).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<16xf32>) -> ("y": tensor<4x16xf32>) {
  %y = "onnx.Gemm"(%a, %b, %c) {alpha = 0.5, beta = 2.0, transB = 1} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK: #map3 = affine_map<(d0, d1) -> (d1)>
// CHECK: #map4 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<16x8xf32> {llvm.noalias}, %arg2: memref<16xf32> {llvm.noalias}, %arg3: memref<4x16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>,
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<16xf32>) outs(%{{\w+}} : tensor<4x16xf32>)
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<16x8xf32>, %arg4: memref<16xf32>, %arg5: memref<4x16xf32>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<16x8xf32>, memref<16xf32>, memref<4x16xf32>, index, index) -> ()
