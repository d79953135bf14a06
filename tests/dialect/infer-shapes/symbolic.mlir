// RUN: infer-shapes
// Symbolic shape values (dynamic shapes, docs/codegen.md): a Shape of a
// tensor with dim_params is a value of symbolic entries that Gather, Slice,
// Concat and Unsqueeze carry into the shape operands of Reshape and
// Expand; a division the op requires to be exact (Reshape's -1, Split's
// equal parts, DepthToSpace/SpaceToDepth's blocks) that is no polynomial
// gives a quotient atom "div(A,B)" (checked to divide at run time); a
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
