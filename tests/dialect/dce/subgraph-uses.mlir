// RUN: dce
// A value used only inside the subgraph of a live op is live (here %scale,
// read by the branch); dead ops inside subgraphs go too.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<3xf32>) -> ("r": tensor<3xf32>) {
  %scale = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %dead = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("t": tensor<3xf32>) {
    %t = "onnx.Mul"(%x, %scale) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %waste = "onnx.Mul"(%x, %dead) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("e": tensor<3xf32>) {
    onnx.return %x
  }} : (tensor<i1>) -> tensor<3xf32>
  onnx.return %r
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%c: tensor<i1>, %x: tensor<3xf32>) -> ("r": tensor<3xf32>) {
// CHECK-NEXT:   %scale = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("t": tensor<3xf32>) {
// CHECK-NEXT:     %t = "onnx.Mul"(%x, %scale) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:     onnx.return %t
// CHECK-NEXT:   }, else_branch = onnx.graph "else"() -> ("e": tensor<3xf32>) {
// CHECK-NEXT:     onnx.return %x
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %r
// CHECK-NEXT: }
