// RUN: infer-shapes
// Symbolic shape values (dynamic shapes, docs/codegen.md): a Shape of a
// tensor with dim_params is a value of symbolic entries that Gather, Slice,
// Concat and Unsqueeze carry into the shape operands of Reshape and
// Expand; a division the op requires to be exact (Reshape's -1, Split's
// equal parts, DepthToSpace/SpaceToDepth's blocks) that is no polynomial
// gives a quotient atom "div(A,B)" (checked to divide at run time; Split's
// num_outputs allows uneven chunks: halves are "tdiv" atoms, ceil and floor); a
// TopK `K` or Range bound whose length is a dim_param may be 1.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "symbolic"(%q: tensor<"B"x"S"x"H"xf32>, %k: tensor<"L"xi64>, %lim: tensor<"M"xi64>, %img: tensor<"N"x"C"x"Y"x"X"xf32>) -> () {
  %shape = "onnx.Shape"(%q) : (tensor<"B"x"S"x"H"xf32>) -> !onnx.unknown
  %bs = "onnx.Shape"(%q) {end = 2} : (tensor<"B"x"S"x"H"xf32>) -> !onnx.unknown
  %heads = "onnx.Constant"() {value = dense<[3, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %target = "onnx.Concat"(%bs, %heads) {axis = 0} : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %split = "onnx.Reshape"(%q, %target) : (tensor<"B"x"S"x"H"xf32>, !onnx.unknown) -> !onnx.unknown
  %dims = "onnx.Shape"(%split) : (!onnx.unknown) -> !onnx.unknown
  %three = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %head_size = "onnx.Gather"(%dims, %three) {axis = 0} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %zero_axis = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %head_vec = "onnx.Unsqueeze"(%head_size, %zero_axis) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %expand_shape = "onnx.Concat"(%bs, %one, %head_vec) {axis = 0} : (!onnx.unknown, tensor<1xi64>, !onnx.unknown) -> !onnx.unknown
  %col = "onnx.Slice"(%q, %zero_axis, %one, %zero_axis) : (tensor<"B"x"S"x"H"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %expanded = "onnx.Expand"(%col, %shape) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %minus_one = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %merge_shape = "onnx.Concat"(%bs, %minus_one) {axis = 0} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %merged = "onnx.Reshape"(%split, %merge_shape) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %slab = "onnx.Slice"(%merged, %zero_axis, %one, %zero_axis) : (!onnx.unknown, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %kv = "onnx.Expand"(%slab, %expand_shape) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %a, %b = "onnx.Split"(%q) {axis = 2, num_outputs = 2} : (tensor<"B"x"S"x"H"xf32>) -> (!onnx.unknown, !onnx.unknown)
  %d2s = "onnx.DepthToSpace"(%img) {blocksize = 2} : (tensor<"N"x"C"x"Y"x"X"xf32>) -> !onnx.unknown
  %s2d = "onnx.SpaceToDepth"(%img) {blocksize = 2} : (tensor<"N"x"C"x"Y"x"X"xf32>) -> !onnx.unknown
  %values, %indices = "onnx.TopK"(%q, %k) {axis = -1} : (tensor<"B"x"S"x"H"xf32>, tensor<"L"xi64>) -> (!onnx.unknown, !onnx.unknown)
  %start = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %step = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %range = "onnx.Range"(%start, %lim, %step) : (tensor<i64>, tensor<"M"xi64>, tensor<i64>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "symbolic"(%q: tensor<"B"x"S"x"H"xf32>, %k: tensor<"L"xi64>, %lim: tensor<"M"xi64>, %img: tensor<"N"x"C"x"Y"x"X"xf32>) -> () {
// CHECK-NEXT:   %shape = "onnx.Shape"(%q) : (tensor<"B"x"S"x"H"xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %bs = "onnx.Shape"(%q) {end = 2} : (tensor<"B"x"S"x"H"xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %heads = "onnx.Constant"() {value = dense<[3, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %target = "onnx.Concat"(%bs, %heads) {axis = 0} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %split = "onnx.Reshape"(%q, %target) : (tensor<"B"x"S"x"H"xf32>, tensor<4xi64>) -> tensor<"B"x"S"x3x"div(\"H\",3)"xf32>
// CHECK-NEXT:   %dims = "onnx.Shape"(%split) : (tensor<"B"x"S"x3x"div(\"H\",3)"xf32>) -> tensor<4xi64>
// CHECK-NEXT:   %three = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %head_size = "onnx.Gather"(%dims, %three) {axis = 0} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %zero_axis = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %head_vec = "onnx.Unsqueeze"(%head_size, %zero_axis) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %expand_shape = "onnx.Concat"(%bs, %one, %head_vec) {axis = 0} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %col = "onnx.Slice"(%q, %zero_axis, %one, %zero_axis) : (tensor<"B"x"S"x"H"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x"S"x"H"xf32>
// CHECK-NEXT:   %expanded = "onnx.Expand"(%col, %shape) : (tensor<1x"S"x"H"xf32>, tensor<3xi64>) -> tensor<"B"x"S"x"H"xf32>
// CHECK-NEXT:   %minus_one = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %merge_shape = "onnx.Concat"(%bs, %minus_one) {axis = 0} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %merged = "onnx.Reshape"(%split, %merge_shape) : (tensor<"B"x"S"x3x"div(\"H\",3)"xf32>, tensor<3xi64>) -> tensor<"B"x"S"x(3*"div(\"H\",3)")xf32>
// CHECK-NEXT:   %slab = "onnx.Slice"(%merged, %zero_axis, %one, %zero_axis) : (tensor<"B"x"S"x(3*"div(\"H\",3)")xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x"S"x(3*"div(\"H\",3)")xf32>
// CHECK-NEXT:   %kv = "onnx.Expand"(%slab, %expand_shape) : (tensor<1x"S"x(3*"div(\"H\",3)")xf32>, tensor<4xi64>) -> tensor<"B"x"S"x"S"x"bcast(\"div(\\\"H\\\",3)\",(3*\"div(\\\"H\\\",3)\"))"xf32>
// CHECK-NEXT:   %a, %b = "onnx.Split"(%q) {axis = 2, num_outputs = 2} : (tensor<"B"x"S"x"H"xf32>) -> (tensor<"B"x"S"x"tdiv((\"H\"+1),2)"xf32>, tensor<"B"x"S"x"tdiv(\"H\",2)"xf32>)
// CHECK-NEXT:   %d2s = "onnx.DepthToSpace"(%img) {blocksize = 2} : (tensor<"N"x"C"x"Y"x"X"xf32>) -> tensor<"N"x"div(\"C\",4)"x(2*"Y")x(2*"X")xf32>
// CHECK-NEXT:   %s2d = "onnx.SpaceToDepth"(%img) {blocksize = 2} : (tensor<"N"x"C"x"Y"x"X"xf32>) -> tensor<"N"x(4*"C")x"div(\"Y\",2)"x"div(\"X\",2)"xf32>
// CHECK-NEXT:   %values, %indices = "onnx.TopK"(%q, %k) {axis = -1} : (tensor<"B"x"S"x"H"xf32>, tensor<"L"xi64>) -> (tensor<"B"x"S"x?xf32>, tensor<"B"x"S"x?xi64>)
// CHECK-NEXT:   %start = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %step = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %range = "onnx.Range"(%start, %lim, %step) : (tensor<i64>, tensor<"M"xi64>, tensor<i64>) -> tensor<?xi64>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
