// RUN: opt --rules=fusion
// Activations take one form (omlc.Activation, with their parameters) so
// that one rule per producer fuses them all: Conv + Clip(0, 6) (ReLU6) is
// a FusedConv with a Clip activation, Gemm + LeakyRelu a FusedGemm, and an
// activation of nothing fusible stays as written (an unfused
// omlc.Activation is no better than the op).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x16x32x32xf32>, %w: tensor<16x16x3x3xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> ("relu6": tensor<1x16x30x30xf32>, "leaky": tensor<4x16xf32>, "alone": tensor<4x8xf32>) {
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %six = "onnx.Constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %c = "onnx.Conv"(%x, %w) : (tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x30x30xf32>
  %relu6 = "onnx.Clip"(%c, %zero, %six) : (tensor<1x16x30x30xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16x30x30xf32>
  %g = "onnx.Gemm"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %leaky = "onnx.LeakyRelu"(%g) {alpha = 0.2} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %alone = "onnx.Sigmoid"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  onnx.return %relu6, %leaky, %alone
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x16x32x32xf32>, %w: tensor<16x16x3x3xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> ("relu6": tensor<1x16x30x30xf32>, "leaky": tensor<4x16xf32>, "alone": tensor<4x8xf32>) {
// CHECK-NEXT:   %alone = "onnx.Sigmoid"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %0 = "omlc.FusedConv"(%x, %w) {activation = "Clip", activation_params = [0.0, 6.0]} : (tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x30x30xf32>
// CHECK-NEXT:   %1 = "omlc.FusedGemm"(%a, %b) {activation = "LeakyRelu", activation_params = [0.2]} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   onnx.return %0, %1, %alone
// CHECK-NEXT: }
