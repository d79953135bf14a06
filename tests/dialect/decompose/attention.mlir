// RUN: decompose,verify
// Attention-23 with 4-D inputs, a boolean mask and a causal mask becomes
// scale · MatMul, the additive bias (Where on the mask plus the causal
// constant), Softmax with the fully-masked-row guard, and MatMul with V.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x3x4xf32>, %v: tensor<1x2x3x4xf32>, %mask: tensor<3x3xi1>) -> ("y": tensor<1x2x3x4xf32>) {
  %y = "onnx.Attention"(%q, %k, %v, %mask) {is_causal = 1} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<3x3xi1>) -> tensor<1x2x3x4xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x3x4xf32>, %v: tensor<1x2x3x4xf32>, %mask: tensor<3x3xi1>) -> ("y": tensor<1x2x3x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %1 = "onnx.Mul"(%q, %0) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %2 = "onnx.Mul"(%k, %0) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %3 = "onnx.Transpose"(%2) {perm = [0, 1, 3, 2]} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
// CHECK-NEXT:   %4 = "onnx.MatMul"(%1, %3) : (tensor<1x2x3x4xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %7 = "onnx.Where"(%mask, %5, %6) : (tensor<3x3xi1>, tensor<f32>, tensor<f32>) -> tensor<3x3xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[[0.0, -inf, -inf], [0.0, 0.0, -inf], [0.0, 0.0, 0.0]]> : tensor<3x3xf32>} : () -> tensor<3x3xf32>
// CHECK-NEXT:   %9 = "onnx.Add"(%7, %8) : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:   %10 = "onnx.Add"(%4, %9) : (tensor<1x2x3x3xf32>, tensor<3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %11 = "onnx.Softmax"(%10) {axis = -1} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %13 = "onnx.ReduceMax"(%9, %12) {keepdims = 1} : (tensor<3x3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %15 = "onnx.Equal"(%13, %14) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xi1>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %17 = "onnx.Where"(%15, %16, %11) : (tensor<3x1xi1>, tensor<f32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%17, %v) : (tensor<1x2x3x3xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
