// RUN: decompose,verify
// Einsum as diagonals (Where on an eye mask, ReduceSum), sums over labels
// of one operand, a batched MatMul of the two operands arranged as
// [batch…, M, K] × [batch…, K, N], and a final Transpose.
onnx.model {ir_version = 10, opset_imports = {"" = 12}}
onnx.graph "g"(%x: tensor<5x2x3xf32>, %y: tensor<5x3x4xf32>, %d: tensor<3x5x5xf32>, %v: tensor<5xf32>, %m: tensor<3x4xf32>) -> ("bmm": tensor<5x2x4xf32>, "diag": tensor<3x5xf32>, "inner": tensor<f32>, "transpose": tensor<4x3xf32>, "sum": tensor<3xf32>) {
  %bmm = "onnx.Einsum"(%x, %y) {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %diag = "onnx.Einsum"(%d) {equation = "...ii ->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  %inner = "onnx.Einsum"(%v, %v) {equation = "i,i"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  %transpose = "onnx.Einsum"(%m) {equation = "ij->ji"} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %sum = "onnx.Einsum"(%m) {equation = "ij->i"} : (tensor<3x4xf32>) -> tensor<3xf32>
  onnx.return %bmm, %diag, %inner, %transpose, %sum
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 12}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<5x2x3xf32>, %y: tensor<5x3x4xf32>, %d: tensor<3x5x5xf32>, %v: tensor<5xf32>, %m: tensor<3x4xf32>) -> ("bmm": tensor<5x2x4xf32>, "diag": tensor<3x5xf32>, "inner": tensor<f32>, "transpose": tensor<4x3xf32>, "sum": tensor<3xf32>) {
// CHECK-NEXT:   %bmm = "onnx.MatMul"(%x, %y) : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[[[true, false, false, false, false], [false, true, false, false, false], [false, false, true, false, false], [false, false, false, true, false], [false, false, false, false, true]]]> : tensor<1x5x5xi1>} : () -> tensor<1x5x5xi1>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Where"(%0, %d, %1) : (tensor<1x5x5xi1>, tensor<3x5x5xf32>, tensor<f32>) -> tensor<3x5x5xf32>
// CHECK-NEXT:   %diag = "onnx.ReduceSum"(%2) {keepdims = 0, axes = [2]} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %4 = "onnx.Reshape"(%v, %3) : (tensor<5xf32>, tensor<2xi64>) -> tensor<1x5xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[5, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %6 = "onnx.Reshape"(%v, %5) : (tensor<5xf32>, tensor<2xi64>) -> tensor<5x1xf32>
// CHECK-NEXT:   %7 = "onnx.MatMul"(%4, %6) : (tensor<1x5xf32>, tensor<5x1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %inner = "onnx.Reshape"(%7, %8) : (tensor<1x1xf32>, tensor<0xi64>) -> tensor<f32>
// CHECK-NEXT:   %transpose = "onnx.Transpose"(%m) {perm = [1, 0]} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %sum = "onnx.ReduceSum"(%m) {keepdims = 0, axes = [1]} : (tensor<3x4xf32>) -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %bmm, %diag, %inner, %transpose, %sum
// CHECK-NEXT: }
