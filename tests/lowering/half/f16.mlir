// RUN: linalg
// f16 ops compute in f32 and round each op's result once: extf, the op,
// truncf, for each op of the run; a MatMul accumulates in an f32
// temporary, rounded after the product.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>, %w: tensor<8x4xf16>) -> ("s": tensor<4x8xf16>, "p": tensor<4x4xf16>) {
  %a = "onnx.Add"(%x, %y) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %s = "onnx.Mul"(%a, %y) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %p = "onnx.MatMul"(%x, %w) : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  onnx.return %s, %p
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #map2 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK: #map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf16> {llvm.noalias}, %arg1: memref<4x8xf16> {llvm.noalias}, %arg2: memref<4x8xf16> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK: arith.extf %{{\w+}} : f16 to f32
// CHECK: arith.extf %{{\w+}} : f16 to f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.truncf %{{\w+}} : f32 to f16
// CHECK: arith.extf %{{\w+}} : f16 to f32
// CHECK: arith.extf %{{\w+}} : f16 to f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.truncf %{{\w+}} : f32 to f16
// CHECK-LABEL: func.func @k1(%arg0: memref<4x8xf16> {llvm.noalias}, %arg1: memref<8x4xf16> {llvm.noalias}, %arg2: memref<4x4xf16> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: tensor.empty() : tensor<4x4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf16>,
// CHECK: arith.extf %{{\w+}} : f16 to f32
// CHECK: arith.extf %{{\w+}} : f16 to f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4x4xf32>) outs(%{{\w+}} : tensor<4x4xf16>) attrs
// CHECK: arith.truncf %{{\w+}} : f32 to f16
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf16>, %arg3: memref<4x8xf16>, %arg4: memref<8x4xf16>, %arg5: memref<4x8xf16>,
// CHECK: call @k0(%arg2, %arg3, %arg5, %{{\w+}}, %{{\w+}}) : (memref<4x8xf16>, memref<4x8xf16>, memref<4x8xf16>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<4x8xf16>, memref<8x4xf16>, memref<4x4xf16>, index, index) -> ()
