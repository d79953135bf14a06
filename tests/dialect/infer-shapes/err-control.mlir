// RUN: infer-shapes
// ERROR: infer-shapes: node "if" (If-21): output 0 is tensor<3xf32> in then_branch but tensor<3xi64> in else_branch
// If's branches agree on the element type of each output.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "control"(%cond: tensor<i1>, %x: tensor<3xf32>, %n: tensor<3xi64>) -> () {
  %r = "onnx.If"(%cond) {then_branch = onnx.graph "then"() -> ("t": tensor<3xf32>) {
    onnx.return %x
  }, else_branch = onnx.graph "else"() -> ("e": tensor<3xi64>) {
    onnx.return %n
  }} : (tensor<i1>) -> !onnx.unknown loc("if")
  onnx.return
}
