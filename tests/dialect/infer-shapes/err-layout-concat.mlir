// RUN: infer-shapes
// ERROR: infer-shapes: node "concat" (Concat-13): dim 1 of input 1: 3 and 4 differ
// Concat's inputs agree on every dim but the axis ("All input tensors must
// have the same shape, except for the dimension size of the axis to
// concatenate on").
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "layout"(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> () {
  %y = "onnx.Concat"(%a, %b) {axis = 0} : (tensor<2x3xf32>, tensor<2x4xf32>) -> !onnx.unknown loc("concat")
  onnx.return
}
