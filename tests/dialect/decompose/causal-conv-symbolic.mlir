// RUN: decompose
// CausalConvWithState over a symbolic length: the expansion needs the
// length statically (the state is the padded input's last steps), so the
// op stays as it is.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%x: tensor<1x2x"L"xf32>, %w: tensor<2x1x3xf32>) -> ("y": tensor<1x2x"L"xf32>, "state": tensor<1x2x2xf32>) {
  %y, %state = "onnx.CausalConvWithState"(%x, %w) : (tensor<1x2x"L"xf32>, tensor<2x1x3xf32>) -> (tensor<1x2x"L"xf32>, tensor<1x2x2xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x2x"L"xf32>, %w: tensor<2x1x3xf32>) -> ("y": tensor<1x2x"L"xf32>, "state": tensor<1x2x2xf32>) {
// CHECK-NEXT:   %y, %state = "onnx.CausalConvWithState"(%x, %w) : (tensor<1x2x"L"xf32>, tensor<2x1x3xf32>) -> (tensor<1x2x"L"xf32>, tensor<1x2x2xf32>)
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
