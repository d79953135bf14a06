// RUN: linalg
// The model function (omlc_model) carves each intermediate out of the
// workspace (memref.view at its planned offset) and calls the kernels in
// order; two identical kernels (the same product on the same shapes)
// share one function: both calls are to @k0.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> ("y": tensor<4x8xf32>) {
  %a = "onnx.MatMul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = "onnx.MatMul"(%a, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x8xf32> {llvm.noalias}, %arg2: memref<4x8xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: linalg.matmul {omlc.root} ins(%{{\w+}}, %{{\w+}} : tensor<4x8xf32>, tensor<8x8xf32>) outs(%{{\w+}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<128xi8>, %arg2: memref<4x8xf32>, %arg3: memref<8x8xf32>, %arg4: memref<4x8xf32>) {
// CHECK: memref.view %arg1[%{{\w+}}][] {operandSegmentSizes = array<i32: 1, 1, 0>} : memref<128xi8> to memref<4x8xf32>
// CHECK: call @k0(%arg2, %arg3, %{{\w+}}, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>, index, index) -> ()
// CHECK: call @k0(%{{\w+}}, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>, index, index) -> ()
