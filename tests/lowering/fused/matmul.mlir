// RUN: linalg
// FusedMatMul(a, b, c) with an activation and FusedGemm: the product
// (omlc.root) with its bias and activation as epilogues (omlc.epilogue).
// (GELU's erf is the polynomial of math/polynomials.mlir.)
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<2x4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %a: tensor<4x8xf32>) -> ("y": tensor<2x4x16xf32>, "g": tensor<4x16xf32>) {
  %y = "omlc.FusedMatMul"(%x, %w, %b) {activation = "Gelu"} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  %g = "omlc.FusedGemm"(%a, %w, %b) {activation = "LeakyRelu", activation_params = [0.1]} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  onnx.return %y, %g
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK: #map3 = affine_map<(d0, d1, d2) -> (d2)>
// CHECK: #map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #map5 = affine_map<(d0, d1) -> (d1)>
// CHECK: #map6 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<2x4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<16xf32> {llvm.noalias}, %arg3: memref<2x4x16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<16xf32>) outs(%{{\w+}} :
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.707106769 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<16xf32> {llvm.noalias}, %arg3: memref<4x16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.matmul {omlc.root} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{\w+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<16xf32>) outs(%{{\w+}} : tensor<4x16xf32>)
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x4x8xf32>, %arg3: memref<8x16xf32>, %arg4: memref<16xf32>, %arg5: memref<4x8xf32>,
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<2x4x8xf32>, memref<8x16xf32>, memref<16xf32>, memref<2x4x16xf32>, index, index) -> ()
// CHECK: call @k1(%arg5, %arg3, %arg4, %arg7, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<8x16xf32>, memref<16xf32>, memref<4x16xf32>, index, index) -> ()
