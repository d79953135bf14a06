// RUN: verify
// ERROR: verify: error[control-flow]: node "if" (If-21): else_branch "else" has 2 outputs, but the If has 1 results
// Rule control-flow: If's branches yield one value per If result.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2xf32>) -> ("r": tensor<2xf32>) {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    onnx.return %x
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>, "p": tensor<2xf32>) {
    onnx.return %x, %x
  }} : (tensor<i1>) -> tensor<2xf32> loc("if")
  onnx.return %r
}
