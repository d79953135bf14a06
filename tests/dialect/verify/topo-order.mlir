// RUN: verify
// ERROR: 10:21: use of undefined value %r
// Rule topo-order: a subgraph may not use the result of the op holding it.
// The text form cannot express a use before its definition: the parser
// rejects it, as here, before the verifier sees the model (the rule itself
// is tested on IR edited directly, in dialects/onnx/src/verify/tests.rs).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2xf32>) -> ("r": tensor<2xf32>) {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    %t = "onnx.Neg"(%r) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    onnx.return %x
  }} : (tensor<i1>) -> tensor<2xf32>
  onnx.return %r
}
