// RUN: fold-shapes,dce,verify
// fold-shapes then dce: the shape chain of a Reshape disappears, leaving
// the folded target as the only constant, and the model still verifies.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3x4xf32>) -> ("y": tensor<6x4xf32>) {
  %shape = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %start = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %last = "onnx.Slice"(%shape, %start, %end) : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %rest = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %target = "onnx.Concat"(%rest, %last) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = "onnx.Reshape"(%x, %target) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x4xf32>) -> ("y": tensor<6x4xf32>) {
// CHECK-NEXT:   %target = "onnx.Constant"() {value = dense<[-1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%x, %target) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
