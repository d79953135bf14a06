// RUN: infer-shapes
// ERROR: infer-shapes: node "insert" (SequenceInsert-11): inserts a tensor<3xi64> into a sequence of tensor<3xf32>
// SequenceInsert inserts a tensor of the sequence's element type.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "sequence"(%a: tensor<3xf32>, %i: tensor<3xi64>) -> () {
  %s = "onnx.SequenceConstruct"(%a) : (tensor<3xf32>) -> !onnx.unknown
  %t = "onnx.SequenceInsert"(%s, %i) : (!onnx.unknown, tensor<3xi64>) -> !onnx.unknown loc("insert")
  onnx.return
}
