// RUN: infer-shapes
// Losses (ops/loss.rs): a scalar for "mean" and "sum", the target's shape
// for "none"; SoftmaxCrossEntropyLoss also returns the log-probabilities.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "loss"(%scores: tensor<"N"x5x"D"xf32>, %target: tensor<"N"x"D"xi64>, %w: tensor<5xf32>, %flat: tensor<"N"x5xf32>, %labels: tensor<"N"xi32>) -> () {
  %mean = "onnx.NegativeLogLikelihoodLoss"(%scores, %target) : (tensor<"N"x5x"D"xf32>, tensor<"N"x"D"xi64>) -> !onnx.unknown
  %each = "onnx.NegativeLogLikelihoodLoss"(%scores, %target, %w) {reduction = "none", ignore_index = 0} : (tensor<"N"x5x"D"xf32>, tensor<"N"x"D"xi64>, tensor<5xf32>) -> !onnx.unknown
  %sum, %log_prob = "onnx.SoftmaxCrossEntropyLoss"(%flat, %labels) {reduction = "sum"} : (tensor<"N"x5xf32>, tensor<"N"xi32>) -> (!onnx.unknown, !onnx.unknown)
  %per_item = "onnx.SoftmaxCrossEntropyLoss"(%scores, %target, %w) {reduction = "none"} : (tensor<"N"x5x"D"xf32>, tensor<"N"x"D"xi64>, tensor<5xf32>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "loss"(%scores: tensor<"N"x5x"D"xf32>, %target: tensor<"N"x"D"xi64>, %w: tensor<5xf32>, %flat: tensor<"N"x5xf32>, %labels: tensor<"N"xi32>) -> () {
// CHECK-NEXT:   %mean = "onnx.NegativeLogLikelihoodLoss"(%scores, %target) : (tensor<"N"x5x"D"xf32>, tensor<"N"x"D"xi64>) -> tensor<f32>
// CHECK-NEXT:   %each = "onnx.NegativeLogLikelihoodLoss"(%scores, %target, %w) {reduction = "none", ignore_index = 0} : (tensor<"N"x5x"D"xf32>, tensor<"N"x"D"xi64>, tensor<5xf32>) -> tensor<"N"x"D"xf32>
// CHECK-NEXT:   %sum, %log_prob = "onnx.SoftmaxCrossEntropyLoss"(%flat, %labels) {reduction = "sum"} : (tensor<"N"x5xf32>, tensor<"N"xi32>) -> (tensor<f32>, tensor<"N"x5xf32>)
// CHECK-NEXT:   %per_item = "onnx.SoftmaxCrossEntropyLoss"(%scores, %target, %w) {reduction = "none"} : (tensor<"N"x5x"D"xf32>, tensor<"N"x"D"xi64>, tensor<5xf32>) -> tensor<"N"x"D"xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
