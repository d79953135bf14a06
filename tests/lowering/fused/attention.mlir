// RUN: linalg
// FusedAttention(Q, Kt, V, Mask): one kernel whose producers are the
// scores contraction, the scaled and masked scores and the softmax's row
// statistics, and whose root is the contraction with V (exp: see
// math/polynomials.mlir).
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x6xf32>, %v: tensor<2x6x8xf32>, %m: tensor<4x6xf32>) -> ("y": tensor<2x4x8xf32>) {
  %y = "omlc.FusedAttention"(%q, %kt, %v, %m) {scale = 0.35} : (tensor<2x4x8xf32>, tensor<2x8x6xf32>, tensor<2x6x8xf32>, tensor<4x6xf32>) -> tensor<2x4x8xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK: #map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #map4 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK: #map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<2x4x8xf32> {llvm.noalias}, %arg1: memref<2x8x6xf32> {llvm.noalias}, %arg2: memref<2x6x8xf32> {llvm.noalias}, %arg3: memref<4x6xf32>
// CHECK: tensor.empty() : tensor<2x4x6xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: tensor.empty() : tensor<2x4x6xf32>
// CHECK: linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4x6xf32>,
// CHECK: arith.constant 3.500000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<2x4x6xf32>
// CHECK: tensor.empty() : tensor<2x4xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p3} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{\w+}} : tensor<2x4x6xf32>) outs(%{{\w+}} :
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<2x4x6xf32>
// CHECK: linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4x6xf32>,
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<2x4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p6} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{\w+}} : tensor<2x4x6xf32>) outs(%{{\w+}} :
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4x6xf32>,
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p9} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x4x8xf32>, %arg3: memref<2x8x6xf32>, %arg4: memref<2x6x8xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %arg6, %{{\w+}}, %{{\w+}}) : (memref<2x4x8xf32>, memref<2x8x6xf32>, memref<2x6x8xf32>, memref<4x6xf32>, memref<2x4x8xf32>,
