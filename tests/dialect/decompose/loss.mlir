// RUN: decompose,verify
// NegativeLogLikelihoodLoss with weights and ignore_index: GatherElements
// of the (in-range) target on axis 1, weighted, summed and divided by the
// weights' sum; SoftmaxCrossEntropyLoss is the same on LogSoftmax, whose
// result is also its log_prob output.
onnx.model {ir_version = 10, opset_imports = {"" = 13}}
onnx.graph "g"(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>) -> ("nll": tensor<f32>, "sce": tensor<3x2xf32>, "log_prob": tensor<3x5x2xf32>) {
  %nll = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) {ignore_index = -1} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<f32>
  %sce, %log_prob = "onnx.SoftmaxCrossEntropyLoss"(%x, %t) {reduction = "none"} : (tensor<3x5x2xf32>, tensor<3x2xi64>) -> (tensor<3x2xf32>, tensor<3x5x2xf32>)
  onnx.return %nll, %sce, %log_prob
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 13}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>) -> ("nll": tensor<f32>, "sce": tensor<3x2xf32>, "log_prob": tensor<3x5x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %1 = "onnx.Equal"(%t, %0) : (tensor<3x2xi64>, tensor<i64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %3 = "onnx.Where"(%1, %2, %t) : (tensor<3x2xi1>, tensor<i64>, tensor<3x2xi64>) -> tensor<3x2xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Unsqueeze"(%3, %4) : (tensor<3x2xi64>, tensor<1xi64>) -> tensor<3x1x2xi64>
// CHECK-NEXT:   %6 = "onnx.GatherElements"(%x, %5) {axis = 1} : (tensor<3x5x2xf32>, tensor<3x1x2xi64>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %8 = "onnx.Squeeze"(%6, %7) : (tensor<3x1x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %9 = "onnx.Neg"(%8) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %10 = "onnx.Gather"(%w, %3) {axis = 0} : (tensor<5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %12 = "onnx.Where"(%1, %11, %10) : (tensor<3x2xi1>, tensor<f32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %13 = "onnx.Mul"(%9, %12) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %15 = "onnx.ReduceSum"(%13, %14) {keepdims = 0} : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<f32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %17 = "onnx.ReduceSum"(%12, %16) {keepdims = 0} : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<f32>
// CHECK-NEXT:   %nll = "onnx.Div"(%15, %17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %log_prob = "onnx.LogSoftmax"(%x) {axis = 1} : (tensor<3x5x2xf32>) -> tensor<3x5x2xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.Unsqueeze"(%t, %18) : (tensor<3x2xi64>, tensor<1xi64>) -> tensor<3x1x2xi64>
// CHECK-NEXT:   %20 = "onnx.GatherElements"(%log_prob, %19) {axis = 1} : (tensor<3x5x2xf32>, tensor<3x1x2xi64>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %22 = "onnx.Squeeze"(%20, %21) : (tensor<3x1x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %sce = "onnx.Neg"(%22) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   onnx.return %nll, %sce, %log_prob
// CHECK-NEXT: }
