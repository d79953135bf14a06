// RUN: infer-shapes
// ERROR: infer-shapes: node "lstm" (LSTM-14): dim 1 of 'R' is 28 but must be 4 * hidden_size = 20
// LSTM's R is [directions, 4 * hidden_size, hidden_size].
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "rnn"(%x: tensor<3x1x2xf32>, %w: tensor<1x28x2xf32>, %r: tensor<1x28x7xf32>) -> () {
  %y = "onnx.LSTM"(%x, %w, %r) {hidden_size = 5} : (tensor<3x1x2xf32>, tensor<1x28x2xf32>, tensor<1x28x7xf32>) -> !onnx.unknown loc("lstm")
  onnx.return
}
