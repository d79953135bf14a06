// RUN: infer-shapes,partition
// Sizes computed from tensor values (compiler/program, "sized" ops): the
// Pad's pads come from a graph input, so inference cannot size its
// result. The partitioner names each unknown dim with a symbol of its own
// ("?p.2"), runs a `sizes` step before the Pad's segment, and hands the
// segment the sizes as the shape of a carrier with no elements
// (`%p.sizes`), whose symbols size the Pad and, by inference, the ops
// after it (a pads tensor is known whole or not at all, so all four dims
// are measured). The static part before (the Relu of %x) is its own
// segment and keeps its static shape; the Range's constant operands are
// materialized for its sizes step.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<1x3x4x4xf32>, %pads: tensor<4xi64>, %n: tensor<i64>) -> ("s": !onnx.unknown, "r": !onnx.unknown) {
  %a = "onnx.Relu"(%x) : (tensor<1x3x4x4xf32>) -> !onnx.unknown
  %zeros = "onnx.Constant"() {value = dense<0> : tensor<4xi64>} : () -> tensor<4xi64>
  %all = "onnx.Concat"(%zeros, %pads) {axis = 0} : (tensor<4xi64>, tensor<4xi64>) -> !onnx.unknown
  %p = "onnx.Pad"(%a, %all) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %t = "onnx.Tanh"(%p) : (!onnx.unknown) -> !onnx.unknown
  %axis = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "onnx.ReduceSum"(%t, %axis) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %start = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %step = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %r = "onnx.Range"(%start, %n, %step) : (tensor<i64>, tensor<i64>, tensor<i64>) -> !onnx.unknown
  onnx.return %s, %r
}

// CHECK: program(%x: tensor<1x3x4x4xf32>, %pads: tensor<4xi64>, %n: tensor<i64>) {
// CHECK-NEXT:   %start = const tensor<i64>
// CHECK-NEXT:   %step = const tensor<i64>
// CHECK-NEXT:   %a, %all = segment 0 (%x, %pads)
// CHECK-NEXT:   %p.sizes = sizes of Pad-21 (%a, %all)
// CHECK-NEXT:   %s = segment 1 (%p.sizes, %a, %all)
// CHECK-NEXT:   %r.sizes = sizes of Range-11 (%start, %n, %step)
// CHECK-NEXT:   %r = segment 2 (%r.sizes, %n)
// CHECK-NEXT:   return %s, %r
// CHECK-NEXT: }
// CHECK-NEXT: segment 0 (%x: tensor<1x3x4x4xf32>, %pads: tensor<4xi64>) -> (%a: tensor<1x3x4x4xf32>, %all: tensor<8xi64>) {
// CHECK-NEXT:   Relu-14, Constant-21, Concat-13
// CHECK-NEXT: }
// CHECK-NEXT: segment 1 (%p.sizes: tensor<0x"?p.0"x"?p.1"x"?p.2"x"?p.3"xui8>, %a: tensor<1x3x4x4xf32>, %all: tensor<8xi64>) -> (%s: tensor<"?p.0"x"?p.1"x1x"?p.3"xf32>) {
// CHECK-NEXT:   Pad-21, Tanh-13, Constant-21, ReduceSum-13
// CHECK-NEXT: }
// CHECK-NEXT: segment 2 (%r.sizes: tensor<0x"?r.0"xui8>, %n: tensor<i64>) -> (%r: tensor<"?r.0"xi64>) {
// CHECK-NEXT:   Constant-21, Constant-21, Range-11
// CHECK-NEXT: }
