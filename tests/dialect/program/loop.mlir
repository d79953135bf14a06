// RUN: infer-shapes,partition
// A Loop whose trip count is known at run time only is a control-flow
// step; its body is a block of its own whose segment reads the outer %w
// as an explicit input, next to the loop-carried %a.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%n: tensor<i64>, %x: tensor<2xf32>, %w: tensor<2xf32>) -> ("acc": tensor<2xf32>) {
  %acc = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) -> ("c_out": tensor<i1>, "a_out": tensor<2xf32>) {
    %m = "onnx.Mul"(%a, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %a_out = "onnx.Neg"(%m) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %c, %a_out
  }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %acc
}

// CHECK: program(%n: tensor<i64>, %x: tensor<2xf32>, %w: tensor<2xf32>) {
// CHECK-NEXT:   %acc = Loop-21 (%n, _, %x) body(%i, %c, %a) {
// CHECK-NEXT:     %a_out = segment 0 (%a, %w)
// CHECK-NEXT:     yield %c, %a_out
// CHECK-NEXT:   }
// CHECK-NEXT:   return %acc
// CHECK-NEXT: }
// CHECK-NEXT: segment 0 (%a: tensor<2xf32>, %w: tensor<2xf32>) -> (%a_out: tensor<2xf32>) {
// CHECK-NEXT:   Mul-14, Neg-13
// CHECK-NEXT: }
