// RUN: decompose,verify
// Einsum with symbolic sizes: the shapes the operands are reshaped to are
// built from their run-time sizes (Shape slices, multiplied for a group of
// labels: `("J"*"K")`), a diagonal of a symbolic size compares two iotas,
// and a label contracted over sizes that agree at run time only (`"K"`
// and `"L"`) is left to the MatMul's check. Sizes that must agree now (a
// diagonal of "N" by "M") keep the op whole.
onnx.model {ir_version = 10, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<"B"x"I"x"K"xf32>, %y: tensor<"B"x"L"x"M"xf32>, %d: tensor<3x"N"x"N"xf32>, %p: tensor<"I"x"J"x"K"xf32>, %q: tensor<"J"x"K"x"M"xf32>, %r: tensor<"N"x"M"xf32>) -> ("bmm": tensor<"B"x"I"x"M"xf32>, "diag": tensor<3x"N"xf32>, "pair": tensor<"I"x"M"xf32>, "kept": tensor<?xf32>) {
  %bmm = "onnx.Einsum"(%x, %y) {equation = "bij,bjk->bik"} : (tensor<"B"x"I"x"K"xf32>, tensor<"B"x"L"x"M"xf32>) -> tensor<"B"x"I"x"M"xf32>
  %diag = "onnx.Einsum"(%d) {equation = "...ii->...i"} : (tensor<3x"N"x"N"xf32>) -> tensor<3x"N"xf32>
  %pair = "onnx.Einsum"(%p, %q) {equation = "ijk,jkl->il"} : (tensor<"I"x"J"x"K"xf32>, tensor<"J"x"K"x"M"xf32>) -> tensor<"I"x"M"xf32>
  %kept = "onnx.Einsum"(%r) {equation = "ii->i"} : (tensor<"N"x"M"xf32>) -> tensor<?xf32>
  onnx.return %bmm, %diag, %pair, %kept
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 18}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"B"x"I"x"K"xf32>, %y: tensor<"B"x"L"x"M"xf32>, %d: tensor<3x"N"x"N"xf32>, %p: tensor<"I"x"J"x"K"xf32>, %q: tensor<"J"x"K"x"M"xf32>, %r: tensor<"N"x"M"xf32>) -> ("bmm": tensor<"B"x"I"x"M"xf32>, "diag": tensor<3x"N"xf32>, "pair": tensor<"I"x"M"xf32>, "kept": tensor<"bcast(\"M\",\"N\")"xf32>) {
// CHECK-NEXT:   %bmm = "onnx.MatMul"(%x, %y) : (tensor<"B"x"I"x"K"xf32>, tensor<"B"x"L"x"M"xf32>) -> tensor<"B"x"I"x"M"xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %1 = "onnx.Shape"(%d) {start = 1, end = 2} : (tensor<3x"N"x"N"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Expand"(%0, %1) : (tensor<i64>, tensor<1xi64>) -> tensor<"N"xi64>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %4 = "onnx.CumSum"(%2, %3) {exclusive = 1} : (tensor<"N"xi64>, tensor<i64>) -> tensor<"N"xi64>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %6 = "onnx.Shape"(%d) {start = 1, end = 2} : (tensor<3x"N"x"N"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %8 = "onnx.Concat"(%5, %6, %7) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %9 = "onnx.Reshape"(%4, %8) : (tensor<"N"xi64>, tensor<3xi64>) -> tensor<1x"N"x1xi64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %11 = "onnx.Shape"(%d) {start = 1, end = 2} : (tensor<3x"N"x"N"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Concat"(%10, %11) {axis = 0} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %13 = "onnx.Reshape"(%4, %12) : (tensor<"N"xi64>, tensor<3xi64>) -> tensor<1x1x"N"xi64>
// CHECK-NEXT:   %14 = "onnx.Equal"(%9, %13) : (tensor<1x"N"x1xi64>, tensor<1x1x"N"xi64>) -> tensor<1x"N"x"N"xi1>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %16 = "onnx.Where"(%14, %d, %15) : (tensor<1x"N"x"N"xi1>, tensor<3x"N"x"N"xf32>, tensor<f32>) -> tensor<3x"N"x"N"xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %diag = "onnx.ReduceSum"(%16, %17) {keepdims = 0} : (tensor<3x"N"x"N"xf32>, tensor<1xi64>) -> tensor<3x"N"xf32>
// CHECK-NEXT:   %18 = "onnx.Shape"(%p) {start = 0, end = 1} : (tensor<"I"x"J"x"K"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.Shape"(%p) {start = 1, end = 2} : (tensor<"I"x"J"x"K"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %20 = "onnx.Shape"(%p) {start = 2, end = 3} : (tensor<"I"x"J"x"K"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %21 = "onnx.Mul"(%19, %20) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %22 = "onnx.Concat"(%18, %21) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %23 = "onnx.Reshape"(%p, %22) : (tensor<"I"x"J"x"K"xf32>, tensor<2xi64>) -> tensor<"I"x("J"*"K")xf32>
// CHECK-NEXT:   %24 = "onnx.Shape"(%q) {start = 0, end = 1} : (tensor<"J"x"K"x"M"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<"J"x"K"x"M"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %26 = "onnx.Mul"(%24, %25) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %27 = "onnx.Shape"(%q) {start = 2, end = 3} : (tensor<"J"x"K"x"M"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %28 = "onnx.Concat"(%26, %27) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %29 = "onnx.Reshape"(%q, %28) : (tensor<"J"x"K"x"M"xf32>, tensor<2xi64>) -> tensor<("J"*"K")x"M"xf32>
// CHECK-NEXT:   %pair = "onnx.MatMul"(%23, %29) : (tensor<"I"x("J"*"K")xf32>, tensor<("J"*"K")x"M"xf32>) -> tensor<"I"x"M"xf32>
// CHECK-NEXT:   %kept = "onnx.Einsum"(%r) {equation = "ii->i"} : (tensor<"N"x"M"xf32>) -> tensor<"bcast(\"M\",\"N\")"xf32>
// CHECK-NEXT:   onnx.return %bmm, %diag, %pair, %kept
// CHECK-NEXT: }
