// RUN: fold-shapes
// With a symbolic batch, only what is static folds: the Gather of dim 1
// (always 128) becomes a constant, while the Shape itself, the batch dim
// and the Concat that uses it stay ops, their values known only
// symbolically; the Reshape still gets its symbolic result type.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"batch"x128x4xf32>) -> ("y": !onnx.unknown, "width": tensor<i64>) {
  %shape = "onnx.Shape"(%x) : (tensor<"batch"x128x4xf32>) -> tensor<3xi64>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %batch = "onnx.Gather"(%shape, %zero) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %width = "onnx.Gather"(%shape, %one) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %axes = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %batch1 = "onnx.Unsqueeze"(%batch, %axes) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %rest = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %target = "onnx.Concat"(%batch1, %rest) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = "onnx.Reshape"(%x, %target) : (tensor<"batch"x128x4xf32>, tensor<2xi64>) -> !onnx.unknown
  onnx.return %y, %width
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"batch"x128x4xf32>) -> ("y": tensor<"batch"x512xf32>, "width": tensor<i64>) {
// CHECK-NEXT:   %shape = "onnx.Shape"(%x) : (tensor<"batch"x128x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %batch = "onnx.Gather"(%shape, %zero) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %width = "onnx.Constant"() {value = dense<128> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %axes = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %batch1 = "onnx.Unsqueeze"(%batch, %axes) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %rest = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %target = "onnx.Concat"(%batch1, %rest) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%x, %target) : (tensor<"batch"x128x4xf32>, tensor<2xi64>) -> tensor<"batch"x512xf32>
// CHECK-NEXT:   onnx.return %y, %width
// CHECK-NEXT: }
