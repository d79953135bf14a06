// RUN: dce
// A loop body reading outer values keeps them alive (%step); an If whose
// result nobody uses goes with its branches and the outer values only they
// read (%offset).
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<3xf32>) -> ("acc": tensor<3xf32>) {
  %step = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %offset = "onnx.Constant"() {value = dense<5.0> : tensor<f32>} : () -> tensor<f32>
  %acc = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %cond: tensor<i1>, %a: tensor<3xf32>) -> ("cond_out": tensor<i1>, "a_out": tensor<3xf32>) {
    %a_out = "onnx.Add"(%a, %step) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    onnx.return %cond, %a_out
  }} : (tensor<i64>, none, tensor<3xf32>) -> tensor<3xf32>
  %unused = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("t": tensor<3xf32>) {
    %t = "onnx.Add"(%x, %offset) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("e": tensor<3xf32>) {
    onnx.return %x
  }} : (tensor<i1>) -> tensor<3xf32>
  onnx.return %acc
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<3xf32>) -> ("acc": tensor<3xf32>) {
// CHECK-NEXT:   %step = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %acc = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %cond: tensor<i1>, %a: tensor<3xf32>) -> ("cond_out": tensor<i1>, "a_out": tensor<3xf32>) {
// CHECK-NEXT:     %a_out = "onnx.Add"(%a, %step) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:     onnx.return %cond, %a_out
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %acc
// CHECK-NEXT: }
