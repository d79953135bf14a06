// RUN: infer-shapes
// ERROR: infer-shapes: node "concat" (StringConcat-20): shapes [2] and [3] do not broadcast
// StringConcat's inputs broadcast.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "text"(%a: tensor<2xstring>, %b: tensor<3xstring>) -> () {
  %y = "onnx.StringConcat"(%a, %b) : (tensor<2xstring>, tensor<3xstring>) -> !onnx.unknown loc("concat")
  onnx.return
}
