// RUN: infer-shapes
// Sequences and optionals (ops/sequence.rs): a sequence's element type is
// the union of what can be in it; its length, where the ops that built it
// say, is a known value (SequenceLength), which ConcatFromSequence uses.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "sequence"(%a: tensor<"N"x3xf32>, %b: tensor<"N"x5xf32>, %c: tensor<"N"x3xf32>, %x: tensor<"N"x6xf32>, %pos: tensor<i64>, %maybe: !onnx.opt<tensor<"N"x3xf32>>) -> () {
  %same = "onnx.SequenceConstruct"(%a, %c) : (tensor<"N"x3xf32>, tensor<"N"x3xf32>) -> !onnx.unknown
  %mixed = "onnx.SequenceConstruct"(%a, %b) : (tensor<"N"x3xf32>, tensor<"N"x5xf32>) -> !onnx.unknown
  %empty = "onnx.SequenceEmpty"() {dtype = 7} : () -> !onnx.unknown
  %grown = "onnx.SequenceInsert"(%same, %c) : (!onnx.unknown, tensor<"N"x3xf32>) -> !onnx.unknown
  %shrunk = "onnx.SequenceErase"(%grown, %pos) : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %at = "onnx.SequenceAt"(%mixed, %pos) : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %len = "onnx.SequenceLength"(%grown) : (!onnx.unknown) -> !onnx.unknown
  %stacked = "onnx.ConcatFromSequence"(%grown) {axis = 1, new_axis = 1} : (!onnx.unknown) -> !onnx.unknown
  %joined = "onnx.ConcatFromSequence"(%same) {axis = 0} : (!onnx.unknown) -> !onnx.unknown
  %pieces = "onnx.SplitToSequence"(%x) {axis = 1, keepdims = 0} : (tensor<"N"x6xf32>) -> !onnx.unknown
  %split = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %parts = "onnx.SplitToSequence"(%x, %split) {axis = 1} : (tensor<"N"x6xf32>, tensor<2xi64>) -> !onnx.unknown
  %halves = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %even = "onnx.SplitToSequence"(%x, %halves) {axis = 1} : (tensor<"N"x6xf32>, tensor<i64>) -> !onnx.unknown
  %count = "onnx.SequenceLength"(%even) : (!onnx.unknown) -> !onnx.unknown
  %mapped = "onnx.SequenceMap"(%mixed) {body = onnx.graph "map"(%t: !onnx.unknown) -> ("r": !onnx.unknown) {
    %r = "onnx.Shape"(%t) : (!onnx.unknown) -> !onnx.unknown
    onnx.return %r
  }} : (!onnx.unknown) -> !onnx.unknown
  %wrapped = "onnx.Optional"(%a) : (tensor<"N"x3xf32>) -> !onnx.unknown
  %none = "onnx.Optional"() {type = !onnx.seq<tensor<2xi64>>} : () -> !onnx.unknown
  %value = "onnx.OptionalGetElement"(%maybe) : (!onnx.opt<tensor<"N"x3xf32>>) -> !onnx.unknown
  %has = "onnx.OptionalHasElement"(%none) : (!onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "sequence"(%a: tensor<"N"x3xf32>, %b: tensor<"N"x5xf32>, %c: tensor<"N"x3xf32>, %x: tensor<"N"x6xf32>, %pos: tensor<i64>, %maybe: !onnx.opt<tensor<"N"x3xf32>>) -> () {
// CHECK-NEXT:   %same = "onnx.SequenceConstruct"(%a, %c) : (tensor<"N"x3xf32>, tensor<"N"x3xf32>) -> !onnx.seq<tensor<"N"x3xf32>>
// CHECK-NEXT:   %mixed = "onnx.SequenceConstruct"(%a, %b) : (tensor<"N"x3xf32>, tensor<"N"x5xf32>) -> !onnx.seq<tensor<"N"x?xf32>>
// CHECK-NEXT:   %empty = "onnx.SequenceEmpty"() {dtype = 7} : () -> !onnx.seq<tensor<*xi64>>
// CHECK-NEXT:   %grown = "onnx.SequenceInsert"(%same, %c) : (!onnx.seq<tensor<"N"x3xf32>>, tensor<"N"x3xf32>) -> !onnx.seq<tensor<"N"x3xf32>>
// CHECK-NEXT:   %shrunk = "onnx.SequenceErase"(%grown, %pos) : (!onnx.seq<tensor<"N"x3xf32>>, tensor<i64>) -> !onnx.seq<tensor<"N"x3xf32>>
// CHECK-NEXT:   %at = "onnx.SequenceAt"(%mixed, %pos) : (!onnx.seq<tensor<"N"x?xf32>>, tensor<i64>) -> tensor<"N"x?xf32>
// CHECK-NEXT:   %len = "onnx.SequenceLength"(%grown) : (!onnx.seq<tensor<"N"x3xf32>>) -> tensor<i64>
// CHECK-NEXT:   %stacked = "onnx.ConcatFromSequence"(%grown) {axis = 1, new_axis = 1} : (!onnx.seq<tensor<"N"x3xf32>>) -> tensor<"N"x3x3xf32>
// CHECK-NEXT:   %joined = "onnx.ConcatFromSequence"(%same) {axis = 0} : (!onnx.seq<tensor<"N"x3xf32>>) -> tensor<(2*"N")x3xf32>
// CHECK-NEXT:   %pieces = "onnx.SplitToSequence"(%x) {axis = 1, keepdims = 0} : (tensor<"N"x6xf32>) -> !onnx.seq<tensor<"N"xf32>>
// CHECK-NEXT:   %split = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %parts = "onnx.SplitToSequence"(%x, %split) {axis = 1} : (tensor<"N"x6xf32>, tensor<2xi64>) -> !onnx.seq<tensor<"N"x?xf32>>
// CHECK-NEXT:   %halves = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %even = "onnx.SplitToSequence"(%x, %halves) {axis = 1} : (tensor<"N"x6xf32>, tensor<i64>) -> !onnx.seq<tensor<"N"x3xf32>>
// CHECK-NEXT:   %count = "onnx.SequenceLength"(%even) : (!onnx.seq<tensor<"N"x3xf32>>) -> tensor<i64>
// CHECK-NEXT:   %mapped = "onnx.SequenceMap"(%mixed) {body = onnx.graph "map"(%t: tensor<"N"x?xf32>) -> ("r": tensor<2xi64>) {
// CHECK-NEXT:     %r = "onnx.Shape"(%t) : (tensor<"N"x?xf32>) -> tensor<2xi64>
// CHECK-NEXT:     onnx.return %r
// CHECK-NEXT:   }} : (!onnx.seq<tensor<"N"x?xf32>>) -> !onnx.seq<tensor<2xi64>>
// CHECK-NEXT:   %wrapped = "onnx.Optional"(%a) : (tensor<"N"x3xf32>) -> !onnx.opt<tensor<"N"x3xf32>>
// CHECK-NEXT:   %none = "onnx.Optional"() {type = !onnx.seq<tensor<2xi64>>} : () -> !onnx.opt<!onnx.seq<tensor<2xi64>>>
// CHECK-NEXT:   %value = "onnx.OptionalGetElement"(%maybe) : (!onnx.opt<tensor<"N"x3xf32>>) -> tensor<"N"x3xf32>
// CHECK-NEXT:   %has = "onnx.OptionalHasElement"(%none) : (!onnx.opt<!onnx.seq<tensor<2xi64>>>) -> tensor<i1>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
