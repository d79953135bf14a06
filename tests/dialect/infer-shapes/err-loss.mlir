// RUN: infer-shapes
// ERROR: infer-shapes: node "nll" (NegativeLogLikelihoodLoss-13): dim 1 of the target is 7 but must be 6
// The target is the input without its class dim: [N, D1, ...].
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "loss"(%x: tensor<3x5x6xf32>, %t: tensor<3x7xi64>) -> () {
  %y = "onnx.NegativeLogLikelihoodLoss"(%x, %t) : (tensor<3x5x6xf32>, tensor<3x7xi64>) -> !onnx.unknown loc("nll")
  onnx.return
}
