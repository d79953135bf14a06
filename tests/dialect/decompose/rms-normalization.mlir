// RUN: decompose,verify
// RMSNormalization over the last two axes: x / sqrt(mean(x²) + epsilon) · scale.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%x: tensor<2x3x4xf32>, %scale: tensor<3x4xf32>) -> ("y": tensor<2x3x4xf32>) {
  %y = "onnx.RMSNormalization"(%x, %scale) {axis = -2} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x4xf32>, %scale: tensor<3x4xf32>) -> ("y": tensor<2x3x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Mul"(%x, %x) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %2 = "onnx.ReduceMean"(%0, %1) {keepdims = 1} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<1e-5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %4 = "onnx.Add"(%2, %3) : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
// CHECK-NEXT:   %5 = "onnx.Sqrt"(%4) : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK-NEXT:   %6 = "onnx.Div"(%x, %5) : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %y = "onnx.Mul"(%6, %scale) : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
