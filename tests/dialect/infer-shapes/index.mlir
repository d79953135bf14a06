// RUN: infer-shapes
// Indexing ops (ops/index.rs): gathers take the indices' shape, scatters the
// data's; OneHot inserts depth; data-dependent sizes (Compress, NonZero,
// Unique) are unknown unless the selecting input is a constant. Gather of a
// Shape moves the dim_param along (the reshape below is symbolic).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "index"(%x: tensor<"N"x5x4xf32>, %idx: tensor<2x3xi64>, %eidx: tensor<"N"x2x4xi64>, %ndidx: tensor<"N"x2xi64>, %upd: tensor<"N"x2x4xf32>, %labels: tensor<"B"xi64>, %cond: tensor<5xi1>, %lens: tensor<5xi64>, %seqs: tensor<7x5x4xf32>, %values: tensor<3xf32>, %depth: tensor<i64>, %nd_upd: tensor<"N"x4xf32>) -> () {
  %gathered = "onnx.Gather"(%x, %idx) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<2x3xi64>) -> !onnx.unknown
  %elements = "onnx.GatherElements"(%x, %eidx) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<"N"x2x4xi64>) -> !onnx.unknown
  %nd = "onnx.GatherND"(%x, %ndidx) : (tensor<"N"x5x4xf32>, tensor<"N"x2xi64>) -> !onnx.unknown
  %nd_batch = "onnx.GatherND"(%x, %ndidx) {batch_dims = 1} : (tensor<"N"x5x4xf32>, tensor<"N"x2xi64>) -> !onnx.unknown
  %scattered = "onnx.ScatterElements"(%x, %eidx, %upd) {axis = 1, reduction = "add"} : (tensor<"N"x5x4xf32>, tensor<"N"x2x4xi64>, tensor<"N"x2x4xf32>) -> !onnx.unknown
  %nd_scattered = "onnx.ScatterND"(%x, %ndidx, %nd_upd) : (tensor<"N"x5x4xf32>, tensor<"N"x2xi64>, tensor<"N"x4xf32>) -> !onnx.unknown
  %three = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %off_on = "onnx.Constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %onehot = "onnx.OneHot"(%labels, %three, %off_on) : (tensor<"B"xi64>, tensor<i64>, tensor<2xf32>) -> !onnx.unknown
  %onehot_first = "onnx.OneHot"(%labels, %depth, %off_on) {axis = 0} : (tensor<"B"xi64>, tensor<i64>, tensor<2xf32>) -> !onnx.unknown
  %compressed = "onnx.Compress"(%x, %cond) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<5xi1>) -> !onnx.unknown
  %picks = "onnx.Constant"() {value = dense<[true, false, true, true, false]> : tensor<5xi1>} : () -> tensor<5xi1>
  %compressed_known = "onnx.Compress"(%x, %picks) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<5xi1>) -> !onnx.unknown
  %flat_compressed = "onnx.Compress"(%values, %cond) : (tensor<3xf32>, tensor<5xi1>) -> !onnx.unknown
  %nonzero = "onnx.NonZero"(%x) : (tensor<"N"x5x4xf32>) -> !onnx.unknown
  %nonzero_known = "onnx.NonZero"(%picks) : (tensor<5xi1>) -> !onnx.unknown
  %u, %first, %inverse, %counts = "onnx.Unique"(%x) : (tensor<"N"x5x4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown)
  %ua, %fa, %ia, %ca = "onnx.Unique"(%x) {axis = 1, sorted = 0} : (tensor<"N"x5x4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown)
  %reversed = "onnx.ReverseSequence"(%seqs, %lens) {batch_axis = 1, time_axis = 0} : (tensor<7x5x4xf32>, tensor<5xi64>) -> !onnx.unknown
  %shape = "onnx.Shape"(%x) : (tensor<"N"x5x4xf32>) -> !onnx.unknown
  %order = "onnx.Constant"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %picked = "onnx.Gather"(%shape, %order) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %minus_one = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %target = "onnx.Concat"(%picked, %minus_one) {axis = 0} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %regrouped = "onnx.Reshape"(%x, %target) : (tensor<"N"x5x4xf32>, !onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "index"(%x: tensor<"N"x5x4xf32>, %idx: tensor<2x3xi64>, %eidx: tensor<"N"x2x4xi64>, %ndidx: tensor<"N"x2xi64>, %upd: tensor<"N"x2x4xf32>, %labels: tensor<"B"xi64>, %cond: tensor<5xi1>, %lens: tensor<5xi64>, %seqs: tensor<7x5x4xf32>, %values: tensor<3xf32>, %depth: tensor<i64>, %nd_upd: tensor<"N"x4xf32>) -> () {
// CHECK-NEXT:   %gathered = "onnx.Gather"(%x, %idx) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<2x3xi64>) -> tensor<"N"x2x3x4xf32>
// CHECK-NEXT:   %elements = "onnx.GatherElements"(%x, %eidx) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<"N"x2x4xi64>) -> tensor<"N"x2x4xf32>
// CHECK-NEXT:   %nd = "onnx.GatherND"(%x, %ndidx) : (tensor<"N"x5x4xf32>, tensor<"N"x2xi64>) -> tensor<"N"x4xf32>
// CHECK-NEXT:   %nd_batch = "onnx.GatherND"(%x, %ndidx) {batch_dims = 1} : (tensor<"N"x5x4xf32>, tensor<"N"x2xi64>) -> tensor<"N"xf32>
// CHECK-NEXT:   %scattered = "onnx.ScatterElements"(%x, %eidx, %upd) {axis = 1, reduction = "add"} : (tensor<"N"x5x4xf32>, tensor<"N"x2x4xi64>, tensor<"N"x2x4xf32>) -> tensor<"N"x5x4xf32>
// CHECK-NEXT:   %nd_scattered = "onnx.ScatterND"(%x, %ndidx, %nd_upd) : (tensor<"N"x5x4xf32>, tensor<"N"x2xi64>, tensor<"N"x4xf32>) -> tensor<"N"x5x4xf32>
// CHECK-NEXT:   %three = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %off_on = "onnx.Constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %onehot = "onnx.OneHot"(%labels, %three, %off_on) : (tensor<"B"xi64>, tensor<i64>, tensor<2xf32>) -> tensor<"B"x3xf32>
// CHECK-NEXT:   %onehot_first = "onnx.OneHot"(%labels, %depth, %off_on) {axis = 0} : (tensor<"B"xi64>, tensor<i64>, tensor<2xf32>) -> tensor<?x"B"xf32>
// CHECK-NEXT:   %compressed = "onnx.Compress"(%x, %cond) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<5xi1>) -> tensor<"N"x?x4xf32>
// CHECK-NEXT:   %picks = "onnx.Constant"() {value = dense<[true, false, true, true, false]> : tensor<5xi1>} : () -> tensor<5xi1>
// CHECK-NEXT:   %compressed_known = "onnx.Compress"(%x, %picks) {axis = 1} : (tensor<"N"x5x4xf32>, tensor<5xi1>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %flat_compressed = "onnx.Compress"(%values, %cond) : (tensor<3xf32>, tensor<5xi1>) -> tensor<?xf32>
// CHECK-NEXT:   %nonzero = "onnx.NonZero"(%x) : (tensor<"N"x5x4xf32>) -> tensor<3x?xi64>
// CHECK-NEXT:   %nonzero_known = "onnx.NonZero"(%picks) : (tensor<5xi1>) -> tensor<1x3xi64>
// CHECK-NEXT:   %u, %first, %inverse, %counts = "onnx.Unique"(%x) : (tensor<"N"x5x4xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<(20*"N")xi64>, tensor<?xi64>)
// CHECK-NEXT:   %ua, %fa, %ia, %ca = "onnx.Unique"(%x) {axis = 1, sorted = 0} : (tensor<"N"x5x4xf32>) -> (tensor<"N"x?x4xf32>, tensor<?xi64>, tensor<5xi64>, tensor<?xi64>)
// CHECK-NEXT:   %reversed = "onnx.ReverseSequence"(%seqs, %lens) {batch_axis = 1, time_axis = 0} : (tensor<7x5x4xf32>, tensor<5xi64>) -> tensor<7x5x4xf32>
// CHECK-NEXT:   %shape = "onnx.Shape"(%x) : (tensor<"N"x5x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %order = "onnx.Constant"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %picked = "onnx.Gather"(%shape, %order) : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %minus_one = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %target = "onnx.Concat"(%picked, %minus_one) {axis = 0} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %regrouped = "onnx.Reshape"(%x, %target) : (tensor<"N"x5x4xf32>, tensor<3xi64>) -> tensor<4x"N"x5xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
