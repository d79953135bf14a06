// RUN: fold-shapes
// Folding reaches into subgraphs: each branch's shape arithmetic on an
// outer value folds, while the If, whose branches give different values,
// stays.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2x3xf32>) -> ("r": tensor<i64>) {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("n": tensor<i64>) {
    %n = "onnx.Size"(%x) : (tensor<2x3xf32>) -> tensor<i64>
    onnx.return %n
  }, else_branch = onnx.graph "else"() -> ("m": tensor<i64>) {
    %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
    %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %m = "onnx.Gather"(%s, %zero) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
    onnx.return %m
  }} : (tensor<i1>) -> tensor<i64>
  onnx.return %r
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%c: tensor<i1>, %x: tensor<2x3xf32>) -> ("r": tensor<i64>) {
// CHECK-NEXT:   %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("n": tensor<i64>) {
// CHECK-NEXT:     %n = "onnx.Constant"() {value = dense<6> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:     onnx.return %n
// CHECK-NEXT:   }, else_branch = onnx.graph "else"() -> ("m": tensor<i64>) {
// CHECK-NEXT:     %s = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:     %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:     %m = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:     onnx.return %m
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<i64>
// CHECK-NEXT:   onnx.return %r
// CHECK-NEXT: }
