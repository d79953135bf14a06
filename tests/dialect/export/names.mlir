// RUN: export,verify
// Unnamed values get fresh names that no value or output of the model has
// (here `_0` is taken, so the first fresh name is `_1`). Names that ONNX
// scoping allows are kept: sibling branches reuse each other's names, a
// subgraph input shadows an outer name it does not use, and a subgraph may
// use the name of the op that holds it, defined only after the op.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%_0: tensor<2xf32>, %c: tensor<i1>, %n: tensor<i64>) -> ("r": tensor<2xf32>, "l": tensor<2xf32>) {
  %0 = "onnx.Neg"(%_0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "onnx.Abs"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    %r = "onnx.Neg"(%1) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %r
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    %r = "onnx.Abs"(%1) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %r
  }} : (tensor<i1>) -> tensor<2xf32>
  %l = "onnx.Loop"(%n, none, %r) {body = onnx.graph "body"(%i: tensor<i64>, %cond: tensor<i1>, %_0: tensor<2xf32>) -> ("cond": tensor<i1>, "x": tensor<2xf32>) {
    %2 = "onnx.Neg"(%_0) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %cond, %2
  }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %r, %l
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%_0: tensor<2xf32>, %c: tensor<i1>, %n: tensor<i64>) -> ("r": tensor<2xf32>, "l": tensor<2xf32>) {
// CHECK-NEXT:   %_1 = "onnx.Neg"(%_0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %_2 = "onnx.Abs"(%_1) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
// CHECK-NEXT:     %r = "onnx.Neg"(%_2) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %o = "onnx.Identity"(%r) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %o
// CHECK-NEXT:   }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
// CHECK-NEXT:     %r = "onnx.Abs"(%_2) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %o = "onnx.Identity"(%r) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %o
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<2xf32>
// CHECK-NEXT:   %l = "onnx.Loop"(%n, none, %r) {body = onnx.graph "body"(%i: tensor<i64>, %cond: tensor<i1>, %_0: tensor<2xf32>) -> ("cond": tensor<i1>, "x": tensor<2xf32>) {
// CHECK-NEXT:     %x = "onnx.Neg"(%_0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %cond, %x
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %r, %l
// CHECK-NEXT: }
