// RUN: infer-shapes
// ERROR: infer-shapes: node "draw" (Multinomial-7): the input must be [batch, classes], got shape [10]
// Multinomial's input is a [batch, classes] matrix.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "random"(%x: tensor<10xf32>) -> () {
  %y = "onnx.Multinomial"(%x) : (tensor<10xf32>) -> !onnx.unknown loc("draw")
  onnx.return
}
