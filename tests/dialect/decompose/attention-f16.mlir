// RUN: decompose
// A variant the expansion does not handle (half-precision attention) stays
// as it is, for the lowering to refuse by node, op type and opset.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%q: tensor<1x2x3x4xf16>, %k: tensor<1x2x3x4xf16>, %v: tensor<1x2x3x4xf16>) -> ("y": tensor<1x2x3x4xf16>) {
  %y = "onnx.Attention"(%q, %k, %v) : (tensor<1x2x3x4xf16>, tensor<1x2x3x4xf16>, tensor<1x2x3x4xf16>) -> tensor<1x2x3x4xf16>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x3x4xf16>, %k: tensor<1x2x3x4xf16>, %v: tensor<1x2x3x4xf16>) -> ("y": tensor<1x2x3x4xf16>) {
// CHECK-NEXT:   %y = "onnx.Attention"(%q, %k, %v) : (tensor<1x2x3x4xf16>, tensor<1x2x3x4xf16>, tensor<1x2x3x4xf16>) -> tensor<1x2x3x4xf16>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
