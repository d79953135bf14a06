// RUN: opt --rules=algebraic
// Work moves onto constants, which fold: (x · 2) · 3 is x · 6, x·A + x·B
// is x·(A + B) (one product instead of two). Not rewritten: x / 4 (the
// x · 0.25 that div-const offers costs the same, one pass over x), and an
// integer division (div-const is for floats: 1/c is no integer).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x2xf32>, %n: tensor<2xi64>) -> ("q": tensor<2x2xf32>, "s": tensor<2x2xf32>, "p": tensor<2x2xf32>, "iq": tensor<2xi64>) {
  %four = "onnx.Constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %q = "onnx.Div"(%x, %four) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %m = "onnx.Mul"(%x, %two) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  %s = "onnx.Mul"(%m, %three) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  %a = "onnx.Constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %b = "onnx.Constant"() {value = dense<[[0.5, 0.5], [0.5, 0.5]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %xa = "onnx.MatMul"(%x, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %xb = "onnx.MatMul"(%x, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %p = "onnx.Add"(%xa, %xb) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %ifour = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %iq = "onnx.Div"(%n, %ifour) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  onnx.return %q, %s, %p, %iq
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x2xf32>, %n: tensor<2xi64>) -> ("q": tensor<2x2xf32>, "s": tensor<2x2xf32>, "p": tensor<2x2xf32>, "iq": tensor<2xi64>) {
// CHECK-NEXT:   %four = "onnx.Constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %q = "onnx.Div"(%x, %four) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %ifour = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %iq = "onnx.Div"(%n, %ifour) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %1 = "onnx.Mul"(%x, %0) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[[1.5, 2.5], [3.5, 4.5]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %3 = "onnx.MatMul"(%x, %2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   onnx.return %q, %1, %3, %iq
// CHECK-NEXT: }
