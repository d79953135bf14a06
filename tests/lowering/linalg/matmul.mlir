// RUN: linalg
// A 2-D MatMul is linalg.matmul on a zero fill (the kernel's root), its
// bias and activation elementwise epilogues updating it in place; a
// batched, broadcast MatMul is a contraction generic (batch, m, n, k).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %p: tensor<2x4x8xf32>) -> ("y": tensor<4x16xf32>, "z": tensor<2x4x16xf32>) {
  %m = "onnx.MatMul"(%x, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = "onnx.Add"(%m, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %y = "onnx.Relu"(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %z = "onnx.MatMul"(%p, %w) : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  onnx.return %y, %z
}

// CHECK: #map = affine_map<(d0, d1) -> (d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<16xf32> {llvm.noalias}, %arg3: memref<4x16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.matmul {omlc.root} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{\w+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<16xf32>) outs(%{{\w+}} : tensor<4x16xf32>) attrs
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<2x4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<2x4x16xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK: linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<8x16xf32>, %arg4: memref<16xf32>, %arg5: memref<2x4x8xf32>,
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<8x16xf32>, memref<16xf32>, memref<4x16xf32>, index, index) -> ()
// CHECK: call @k1(%arg5, %arg3, %arg7, %{{\w+}}, %{{\w+}}) : (memref<2x4x8xf32>, memref<8x16xf32>, memref<2x4x16xf32>, index, index) -> ()
