// RUN: decompose
// The sliding window of Attention-25 (each query sees keys at most
// left_window_size before it) is a constant band bias, 0 inside and -inf
// outside.
onnx.model {ir_version = 10, opset_imports = {"" = 25}}
onnx.graph "g"(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x3x4xf32>, %v: tensor<1x2x3x4xf32>) -> ("y": tensor<1x2x3x4xf32>) {
  %y = "onnx.Attention"(%q, %k, %v) {left_window_size = 1} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 25}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x3x4xf32>, %v: tensor<1x2x3x4xf32>) -> ("y": tensor<1x2x3x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %1 = "onnx.Mul"(%q, %0) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %2 = "onnx.Mul"(%k, %0) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %3 = "onnx.Transpose"(%2) {perm = [0, 1, 3, 2]} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
// CHECK-NEXT:   %4 = "onnx.MatMul"(%1, %3) : (tensor<1x2x3x4xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [-inf, 0.0, 0.0]]> : tensor<3x3xf32>} : () -> tensor<3x3xf32>
// CHECK-NEXT:   %6 = "onnx.Add"(%4, %5) : (tensor<1x2x3x3xf32>, tensor<3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %7 = "onnx.Softmax"(%6) {axis = -1} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %9 = "onnx.ReduceMax"(%5, %8) {keepdims = 1} : (tensor<3x3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %11 = "onnx.Equal"(%9, %10) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xi1>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %13 = "onnx.Where"(%11, %12, %7) : (tensor<3x1xi1>, tensor<f32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%13, %v) : (tensor<1x2x3x3xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
