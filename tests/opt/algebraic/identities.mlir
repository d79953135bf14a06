// RUN: opt --rules=algebraic
// Identities vanish (x + 0, 1 · x, x / 1, x ^ 1, −(−x)) when they keep x's
// type. Not rewritten: x · 2, and x + 0 where the zero broadcasts x to a
// bigger shape (add-zero's same_type guard).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> ("y": tensor<2x3xf32>, "twice": tensor<2x3xf32>, "wide": tensor<2x3xf32>) {
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%x, %zero) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %b = "onnx.Mul"(%one, %a) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = "onnx.Div"(%b, %one) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %d = "onnx.Pow"(%c, %one) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %e = "onnx.Neg"(%d) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = "onnx.Neg"(%e) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %twice = "onnx.Mul"(%x, %two) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %zeros = "onnx.Constant"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %wide = "onnx.Add"(%v, %zeros) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  onnx.return %y, %twice, %wide
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> ("y": tensor<2x3xf32>, "twice": tensor<2x3xf32>, "wide": tensor<2x3xf32>) {
// CHECK-NEXT:   %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %twice = "onnx.Mul"(%x, %two) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %zeros = "onnx.Constant"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-NEXT:   %wide = "onnx.Add"(%v, %zeros) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %x, %twice, %wide
// CHECK-NEXT: }
