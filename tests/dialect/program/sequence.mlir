// RUN: infer-shapes,partition
// A sequence between dense ops: the dense op before it forms segment 0,
// the sequence ops run on the host, and the op after SequenceAt is
// segment 1, whose input comes from a host step: its unknown dim gets a
// fresh dim_param. The constant position is materialized for the host;
// the constant the Add uses is copied into segment 1.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2x3xf32>, %y: tensor<4x3xf32>, %p: tensor<i64>) -> ("out": !onnx.unknown, "n": !onnx.unknown, "e": !onnx.unknown) {
  %r = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = "onnx.SequenceConstruct"(%r, %y) : (tensor<2x3xf32>, tensor<4x3xf32>) -> !onnx.unknown
  %at = "onnx.SequenceAt"(%s, %p) : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %out = "onnx.Add"(%at, %one) : (!onnx.unknown, tensor<f32>) -> !onnx.unknown
  %n = "onnx.SequenceLength"(%s) : (!onnx.unknown) -> !onnx.unknown
  %pos = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %e = "onnx.SequenceErase"(%s, %pos) : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  onnx.return %out, %n, %e
}

// CHECK: program(%x: tensor<2x3xf32>, %y: tensor<4x3xf32>, %p: tensor<i64>) {
// CHECK-NEXT:   %pos = const tensor<i64>
// CHECK-NEXT:   %r = segment 0 (%x)
// CHECK-NEXT:   %s = host SequenceConstruct-11 (%r, %y)
// CHECK-NEXT:   %at = host SequenceAt-11 (%s, %p)
// CHECK-NEXT:   %out = segment 1 (%at)
// CHECK-NEXT:   %n = host SequenceLength-11 (%s)
// CHECK-NEXT:   %e = host SequenceErase-11 (%s, %pos)
// CHECK-NEXT:   return %out, %n, %e
// CHECK-NEXT: }
// CHECK-NEXT: segment 0 (%x: tensor<2x3xf32>) -> (%r: tensor<2x3xf32>) {
// CHECK-NEXT:   Relu-14
// CHECK-NEXT: }
// CHECK-NEXT: segment 1 (%at: tensor<"?at.0"x3xf32>) -> (%out: tensor<"?at.0"x3xf32>) {
// CHECK-NEXT:   Constant-21, Add-14
// CHECK-NEXT: }
