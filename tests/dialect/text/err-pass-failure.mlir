// RUN: infer-shapes
// A pass failure is an error too; the message names the pass and the node.
// ERROR: infer-shapes: node "add" (Add-14): shapes [2] and [3] do not broadcast
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<2xf32>, %b: tensor<3xf32>) -> () {
  %y = "onnx.Add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.unknown loc("add")
  onnx.return
}
