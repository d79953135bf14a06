// RUN: decompose
// Half-precision attention expands like f32 attention, every op of the
// expansion in f16 (each rounds its result to f16, as the reference does;
// the lowering computes each in f32).
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%q: tensor<1x2x3x4xf16>, %k: tensor<1x2x3x4xf16>, %v: tensor<1x2x3x4xf16>) -> ("y": tensor<1x2x3x4xf16>) {
  %y = "onnx.Attention"(%q, %k, %v) : (tensor<1x2x3x4xf16>, tensor<1x2x3x4xf16>, tensor<1x2x3x4xf16>) -> tensor<1x2x3x4xf16>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x3x4xf16>, %k: tensor<1x2x3x4xf16>, %v: tensor<1x2x3x4xf16>) -> ("y": tensor<1x2x3x4xf16>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0.70703125> : tensor<f16>} : () -> tensor<f16>
// CHECK-NEXT:   %1 = "onnx.Mul"(%q, %0) : (tensor<1x2x3x4xf16>, tensor<f16>) -> tensor<1x2x3x4xf16>
// CHECK-NEXT:   %2 = "onnx.Mul"(%k, %0) : (tensor<1x2x3x4xf16>, tensor<f16>) -> tensor<1x2x3x4xf16>
// CHECK-NEXT:   %3 = "onnx.Transpose"(%2) {perm = [0, 1, 3, 2]} : (tensor<1x2x3x4xf16>) -> tensor<1x2x4x3xf16>
// CHECK-NEXT:   %4 = "onnx.MatMul"(%1, %3) : (tensor<1x2x3x4xf16>, tensor<1x2x4x3xf16>) -> tensor<1x2x3x3xf16>
// CHECK-NEXT:   %5 = "onnx.Softmax"(%4) {axis = -1} : (tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16>
// CHECK-NEXT:   %y = "onnx.MatMul"(%5, %v) : (tensor<1x2x3x3xf16>, tensor<1x2x3x4xf16>) -> tensor<1x2x3x4xf16>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
