// RUN: decompose,verify
// Gradient by reverse-mode differentiation (decompose/gradient.rs): the
// adjoint of y = sum-seeded ones flows back through Sigmoid, MatMul, Relu,
// a broadcasting Mul (summed back to [3]) and Sub; `w` is held constant
// (zs), and `b` reaches y by two paths whose contributions add up.
onnx.model {ir_version = 10, opset_imports = {"" = 17, "ai.onnx.preview.training" = 1}}
onnx.graph "g"(%x: tensor<2x3xf32>, %b: tensor<3xf32>, %w: tensor<3x2xf32>) -> ("y": tensor<2x2xf32>, "dx": tensor<2x3xf32>, "db": tensor<3xf32>) {
  %m = "onnx.Mul"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %s = "onnx.Sub"(%m, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = "onnx.Relu"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = "onnx.MatMul"(%r, %w) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %y = "onnx.Sigmoid"(%p) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %dx, %db = "onnx_training.Gradient"(%x, %b, %w) {xs = ["x", "b"], y = "y", zs = ["w"]} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  onnx.return %y, %dx, %db
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17, "ai.onnx.preview.training" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3xf32>, %b: tensor<3xf32>, %w: tensor<3x2xf32>) -> ("y": tensor<2x2xf32>, "dx": tensor<2x3xf32>, "db": tensor<3xf32>) {
// CHECK-NEXT:   %m = "onnx.Mul"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %s = "onnx.Sub"(%m, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %r = "onnx.Relu"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %p = "onnx.MatMul"(%r, %w) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %y = "onnx.Sigmoid"(%p) : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Sub"(%1, %y) : (tensor<f32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %3 = "onnx.Mul"(%y, %2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %4 = "onnx.Mul"(%0, %3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %5 = "onnx.Transpose"(%w) {perm = [1, 0]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %6 = "onnx.Transpose"(%r) {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %7 = "onnx.MatMul"(%4, %5) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %8 = "onnx.MatMul"(%6, %4) : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %10 = "onnx.Greater"(%s, %9) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:   %11 = "onnx.Where"(%10, %7, %9) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %12 = "onnx.Neg"(%11) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.ReduceSum"(%12, %13) {keepdims = 1} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %16 = "onnx.Reshape"(%14, %15) : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %dx = "onnx.Mul"(%11, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %17 = "onnx.Mul"(%11, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.ReduceSum"(%17, %18) {keepdims = 1} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %21 = "onnx.Reshape"(%19, %20) : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %db = "onnx.Add"(%16, %21) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %y, %dx, %db
// CHECK-NEXT: }
