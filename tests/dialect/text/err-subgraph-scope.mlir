// RUN: print
// ERROR: 10:17: use of undefined value %t
// A subgraph's values are not visible outside it, nor in a sibling branch.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2xf32>) -> () {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    %t = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    onnx.return %t
  }} : (tensor<i1>) -> tensor<2xf32>
  onnx.return
}
