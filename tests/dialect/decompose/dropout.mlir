// RUN: decompose,verify
// Dropout at inference is the identity with an all-true mask: Dropout-22
// without training_mode, and with a constant false one; Dropout-7's mask
// has the input's type. Training mode given at run time stays.
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<2x3xf32>, %train: tensor<i1>) -> ("y": tensor<2x3xf32>, "y2": tensor<2x3xf32>, "mask2": tensor<2x3xi1>, "y3": tensor<2x3xf32>, "mask3": tensor<2x3xi1>) {
  %y = "onnx.Dropout"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %false = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %y2, %mask2 = "onnx.Dropout"(%x, none, %false) : (tensor<2x3xf32>, none, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  %y3, %mask3 = "onnx.Dropout"(%x, none, %train) : (tensor<2x3xf32>, none, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  onnx.return %y, %y2, %mask2, %y3, %mask3
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3xf32>, %train: tensor<i1>) -> ("y": tensor<2x3xf32>, "y2": tensor<2x3xf32>, "mask2": tensor<2x3xi1>, "y3": tensor<2x3xf32>, "mask3": tensor<2x3xi1>) {
// CHECK-NEXT:   %y = "onnx.Identity"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %false = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK-NEXT:   %y2 = "onnx.Identity"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %0 = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %mask2 = "onnx.ConstantOfShape"(%0) {value = dense<[true]> : tensor<1xi1>} : (tensor<2xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:   %y3, %mask3 = "onnx.Dropout"(%x, none, %train) : (tensor<2x3xf32>, none, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
// CHECK-NEXT:   onnx.return %y, %y2, %mask2, %y3, %mask3
// CHECK-NEXT: }
