// RUN: infer-shapes
// Control flow (ops/control.rs): If gives the union of its branches (a dim
// they disagree on becomes unknown); Loop carries its values to a fixpoint
// (an accumulator that grows by one row per iteration gets an unknown
// first dim) and stacks its scan outputs on a leading trip-count dim,
// known when the loop has no condition; Scan slices its scan inputs along
// their axes and stacks the body's scan outputs.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "control"(%cond: tensor<i1>, %x: tensor<"N"x3xf32>, %y: tensor<"N"x4xf32>, %row: tensor<1x3xf32>, %xs: tensor<5x"N"x3xf32>, %init: tensor<"N"x3xf32>) -> () {
  %either = "onnx.If"(%cond) {then_branch = onnx.graph "then"() -> ("t": !onnx.unknown) {
    %t = "onnx.Relu"(%x) : (tensor<"N"x3xf32>) -> !onnx.unknown
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("e": !onnx.unknown) {
    %e = "onnx.Neg"(%y) : (tensor<"N"x4xf32>) -> !onnx.unknown
    onnx.return %e
  }} : (tensor<i1>) -> !onnx.unknown
  %trips = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %final, %grown, %rows = "onnx.Loop"(%trips, none, %x, %row) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %acc: !onnx.unknown, %stack: !onnx.unknown) -> ("c_out": !onnx.unknown, "acc_out": !onnx.unknown, "stack_out": !onnx.unknown, "scan": !onnx.unknown) {
    %c_out = "onnx.Identity"(%c) : (tensor<i1>) -> !onnx.unknown
    %acc_out = "onnx.Add"(%acc, %x) : (!onnx.unknown, tensor<"N"x3xf32>) -> !onnx.unknown
    %stack_out = "onnx.Concat"(%stack, %row) {axis = 0} : (!onnx.unknown, tensor<1x3xf32>) -> !onnx.unknown
    %scan = "onnx.ReduceSum"(%acc_out) {keepdims = 0} : (!onnx.unknown) -> !onnx.unknown
    onnx.return %c_out, %acc_out, %stack_out, %scan
  }} : (tensor<i64>, none, tensor<"N"x3xf32>, tensor<1x3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %state, %ys = "onnx.Scan"(%init, %xs) {body = onnx.graph "step"(%s: !onnx.unknown, %slice: !onnx.unknown) -> ("s_out": !onnx.unknown, "y": !onnx.unknown) {
    %s_out = "onnx.Add"(%s, %slice) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
    %y = "onnx.Transpose"(%s_out) : (!onnx.unknown) -> !onnx.unknown
    onnx.return %s_out, %y
  }, num_scan_inputs = 1, scan_output_axes = [1]} : (tensor<"N"x3xf32>, tensor<5x"N"x3xf32>) -> (!onnx.unknown, !onnx.unknown)
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "control"(%cond: tensor<i1>, %x: tensor<"N"x3xf32>, %y: tensor<"N"x4xf32>, %row: tensor<1x3xf32>, %xs: tensor<5x"N"x3xf32>, %init: tensor<"N"x3xf32>) -> () {
// CHECK-NEXT:   %either = "onnx.If"(%cond) {then_branch = onnx.graph "then"() -> ("t": tensor<"N"x3xf32>) {
// CHECK-NEXT:     %t = "onnx.Relu"(%x) : (tensor<"N"x3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT:     onnx.return %t
// CHECK-NEXT:   }, else_branch = onnx.graph "else"() -> ("e": tensor<"N"x4xf32>) {
// CHECK-NEXT:     %e = "onnx.Neg"(%y) : (tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
// CHECK-NEXT:     onnx.return %e
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<"N"x?xf32>
// CHECK-NEXT:   %trips = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %final, %grown, %rows = "onnx.Loop"(%trips, none, %x, %row) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<"N"x3xf32>, %stack: tensor<?x3xf32>) -> ("c_out": tensor<i1>, "acc_out": tensor<"N"x3xf32>, "stack_out": tensor<?x3xf32>, "scan": tensor<f32>) {
// CHECK-NEXT:     %c_out = "onnx.Identity"(%c) : (tensor<i1>) -> tensor<i1>
// CHECK-NEXT:     %acc_out = "onnx.Add"(%acc, %x) : (tensor<"N"x3xf32>, tensor<"N"x3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT:     %stack_out = "onnx.Concat"(%stack, %row) {axis = 0} : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:     %scan = "onnx.ReduceSum"(%acc_out) {keepdims = 0} : (tensor<"N"x3xf32>) -> tensor<f32>
// CHECK-NEXT:     onnx.return %c_out, %acc_out, %stack_out, %scan
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<"N"x3xf32>, tensor<1x3xf32>) -> (tensor<"N"x3xf32>, tensor<?x3xf32>, tensor<4xf32>)
// CHECK-NEXT:   %state, %ys = "onnx.Scan"(%init, %xs) {body = onnx.graph "step"(%s: tensor<"N"x3xf32>, %slice: tensor<"N"x3xf32>) -> ("s_out": tensor<"N"x3xf32>, "y": tensor<3x"N"xf32>) {
// CHECK-NEXT:     %s_out = "onnx.Add"(%s, %slice) : (tensor<"N"x3xf32>, tensor<"N"x3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT:     %y = "onnx.Transpose"(%s_out) : (tensor<"N"x3xf32>) -> tensor<3x"N"xf32>
// CHECK-NEXT:     onnx.return %s_out, %y
// CHECK-NEXT:   }, num_scan_inputs = 1, scan_output_axes = [1]} : (tensor<"N"x3xf32>, tensor<5x"N"x3xf32>) -> (tensor<"N"x3xf32>, tensor<3x5x"N"xf32>)
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
