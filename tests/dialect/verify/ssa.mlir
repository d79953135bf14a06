// RUN: verify
// ERROR: verify: error[ssa]: unnamed node (Neg-13) in graph "then" result 0: "x" is already defined in the enclosing graph "g", as input 1 of graph "g"; a node output must not reuse a name visible from an enclosing graph
// The parser scopes names lexically; the verifier enforces the IR spec's
// SSA rule that a node output in a subgraph does not reuse a visible outer
// name.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2xf32>) -> ("r": tensor<2xf32>) {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    %x = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %x
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    onnx.return %x
  }} : (tensor<i1>) -> tensor<2xf32>
  onnx.return %r
}
