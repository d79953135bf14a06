// RUN: verify,roundtrip
// Names are scoped like the IR spec scopes them: sibling branches may reuse
// each other's names, a subgraph *input* may shadow an outer name (inside
// the body, %x is the body's own input), and a subgraph may reuse the name
// of the op that holds it, which is defined only after the op.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2xf32>, %n: tensor<i64>) -> ("r": tensor<2xf32>, "l": tensor<2xf32>) {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    %r = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %r
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    %r = "onnx.Abs"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %r
  }} : (tensor<i1>) -> tensor<2xf32>
  %l = "onnx.Loop"(%n, none, %r) {body = onnx.graph "body"(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>) -> ("cond": tensor<i1>, "x": tensor<2xf32>) {
    %y = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %cond, %y
  }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %r, %l
}
// CHECK-LABEL: %r = "onnx.If"(%c)
// CHECK-NEXT: %r = "onnx.Neg"(%x)
// CHECK-LABEL: %l = "onnx.Loop"(%n, none, %r)
// CHECK-SAME: (%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>)
// CHECK-NEXT: %y = "onnx.Neg"(%x)
