// RUN: fold-shapes
// The exporters' shape arithmetic: Shape -> Gather -> Unsqueeze -> Concat
// feeding a Reshape. With static input dims inference knows every integer
// result, so each op of the chain becomes a Constant of that value, keeping
// its result's name and type; the Reshape, whose result is not an integer
// tensor, stays (now with a constant target). The dead chain is dce's job.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3x4xf32>) -> ("y": tensor<2x12xf32>) {
  %shape = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64> loc("shape")
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %batch = "onnx.Gather"(%shape, %zero) {axis = 0} : (tensor<3xi64>, tensor<i64>) -> tensor<i64> loc("gather")
  %axes = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %batch1 = "onnx.Unsqueeze"(%batch, %axes) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64> loc("unsqueeze")
  %rest = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %target = "onnx.Concat"(%batch1, %rest) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64> loc("concat")
  %y = "onnx.Reshape"(%x, %target) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32> loc("reshape")
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x4xf32>) -> ("y": tensor<2x12xf32>) {
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64> loc("shape")
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %batch = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64> loc("gather")
// CHECK-NEXT:   %axes = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %batch1 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64> loc("unsqueeze")
// CHECK-NEXT:   %rest = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %target = "onnx.Constant"() {value = dense<[2, -1]> : tensor<2xi64>} : () -> tensor<2xi64> loc("concat")
// CHECK-NEXT:   %y = "onnx.Reshape"(%x, %target) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32> loc("reshape")
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
