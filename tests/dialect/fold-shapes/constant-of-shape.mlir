// RUN: fold-shapes
// ConstantOfShape of a known shape folds when it makes a small integer (or
// bool) tensor; a float fill is data, not shape arithmetic, and stays.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3xf32>) -> ("ones": tensor<2x3xi64>, "mask": tensor<2x3xi1>, "zeros": tensor<2x3xf32>) {
  %shape = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %ones = "onnx.ConstantOfShape"(%shape) {value = dense<[1]> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<2x3xi64>
  %mask = "onnx.ConstantOfShape"(%shape) {value = dense<[true]> : tensor<1xi1>} : (tensor<2xi64>) -> tensor<2x3xi1>
  %zeros = "onnx.ConstantOfShape"(%shape) : (tensor<2xi64>) -> tensor<2x3xf32>
  onnx.return %ones, %mask, %zeros
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3xf32>) -> ("ones": tensor<2x3xi64>, "mask": tensor<2x3xi1>, "zeros": tensor<2x3xf32>) {
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %ones = "onnx.Constant"() {value = dense<1> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
// CHECK-NEXT:   %mask = "onnx.Constant"() {value = dense<true> : tensor<2x3xi1>} : () -> tensor<2x3xi1>
// CHECK-NEXT:   %zeros = "onnx.ConstantOfShape"(%shape) : (tensor<2xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %ones, %mask, %zeros
// CHECK-NEXT: }
