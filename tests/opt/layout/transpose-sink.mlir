// RUN: opt --rules=layout,algebraic
// Transposes sink through elementwise ops towards each other, where
// transpose-transpose (algebraic) cancels them: Transpose(Relu(Transpose(x)))
// is Relu(x); past a reduction a transpose moves fewer bytes (the reduced
// axes are mapped through the permutation). Not rewritten: an Add of a
// transpose and a value that is not one (sinking needs both operands
// transposed alike, or a constant one).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<16x32xf32>, %y: tensor<32x16xf32>, %z: tensor<8x16x32xf32>) -> ("relu": tensor<16x32xf32>, "sum": tensor<1x16x8xf32>, "mixed": tensor<32x16xf32>) {
  %t = "onnx.Transpose"(%x) {perm = [1, 0]} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  %r = "onnx.Relu"(%t) : (tensor<32x16xf32>) -> tensor<32x16xf32>
  %relu = "onnx.Transpose"(%r) {perm = [1, 0]} : (tensor<32x16xf32>) -> tensor<16x32xf32>
  %tz = "onnx.Transpose"(%z) {perm = [2, 1, 0]} : (tensor<8x16x32xf32>) -> tensor<32x16x8xf32>
  %axes = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %sum = "onnx.ReduceSum"(%tz, %axes) : (tensor<32x16x8xf32>, tensor<1xi64>) -> tensor<1x16x8xf32>
  %ty = "onnx.Transpose"(%y) {perm = [1, 0]} : (tensor<32x16xf32>) -> tensor<16x32xf32>
  %mixed0 = "onnx.Add"(%x, %ty) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %mixed = "onnx.Transpose"(%mixed0) {perm = [1, 0]} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  onnx.return %relu, %sum, %mixed
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<16x32xf32>, %y: tensor<32x16xf32>, %z: tensor<8x16x32xf32>) -> ("relu": tensor<16x32xf32>, "sum": tensor<1x16x8xf32>, "mixed": tensor<32x16xf32>) {
// CHECK-NEXT:   %ty = "onnx.Transpose"(%y) {perm = [1, 0]} : (tensor<32x16xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:   %mixed0 = "onnx.Add"(%x, %ty) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:   %mixed = "onnx.Transpose"(%mixed0) {perm = [1, 0]} : (tensor<16x32xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:   %0 = "onnx.Relu"(%x) : (tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.ReduceSum"(%z, %1) : (tensor<8x16x32xf32>, tensor<1xi64>) -> tensor<8x16x1xf32>
// CHECK-NEXT:   %3 = "onnx.Transpose"(%2) {perm = [2, 1, 0]} : (tensor<8x16x1xf32>) -> tensor<1x16x8xf32>
// CHECK-NEXT:   onnx.return %0, %3, %mixed
// CHECK-NEXT: }
