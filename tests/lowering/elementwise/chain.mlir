// RUN: linalg
// A run of elementwise ops is one linalg.generic over the output's loops
// whose body computes the whole run per element (no intermediate is
// stored); the bias broadcasts through its indexing map (d0, d1) -> (d1).
// (Sigmoid's exp is the polynomial of math/polynomials.mlir, pinned
// there; here only by its first fma.)
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> ("y": tensor<4x8xf32>) {
  %a = "onnx.Add"(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %s = "onnx.Sigmoid"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "onnx.Mul"(%a, %s) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: memref<4x8xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.negf %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<8xf32>, %arg4: memref<4x8xf32>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<8xf32>, memref<4x8xf32>, index, index) -> ()
