// RUN: fold-shapes
// Range over a known dim (position ids of a sequence) becomes the constant
// [0, 1, ..., n-1], and so does arithmetic on it.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%tokens: tensor<1x5xi64>) -> ("positions": tensor<5xi64>, "doubled": tensor<5xi64>) {
  %shape = "onnx.Shape"(%tokens) : (tensor<1x5xi64>) -> tensor<2xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %len = "onnx.Gather"(%shape, %one) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %positions = "onnx.Range"(%zero, %len, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %doubled = "onnx.Mul"(%positions, %two) : (tensor<5xi64>, tensor<i64>) -> tensor<5xi64>
  onnx.return %positions, %doubled
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%tokens: tensor<1x5xi64>) -> ("positions": tensor<5xi64>, "doubled": tensor<5xi64>) {
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %len = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %positions = "onnx.Constant"() {value = dense<[0, 1, 2, 3, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %doubled = "onnx.Constant"() {value = dense<[0, 2, 4, 6, 8]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   onnx.return %positions, %doubled
// CHECK-NEXT: }
