// RUN: opt --rules=multi
// Convolutions of one input with the same window and constant weights (an
// Inception block's branches): conv-merge adds one Conv on the weights
// stacked along the output channels, split again; as for the products
// (matmul-merge.mlir), the extraction keeps the separate convolutions.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x64x56x56xf32>) -> ("a": tensor<1x8x56x56xf32>, "b": tensor<1x8x56x56xf32>, "s": tensor<1x8x28x28xf32>) {
  %wa = "onnx.Constant"() {value = dense<0.01> : tensor<8x64x1x1xf32>} : () -> tensor<8x64x1x1xf32>
  %wb = "onnx.Constant"() {value = dense<0.02> : tensor<8x64x1x1xf32>} : () -> tensor<8x64x1x1xf32>
  %a = "onnx.Conv"(%x, %wa) : (tensor<1x64x56x56xf32>, tensor<8x64x1x1xf32>) -> tensor<1x8x56x56xf32>
  %b = "onnx.Conv"(%x, %wb) : (tensor<1x64x56x56xf32>, tensor<8x64x1x1xf32>) -> tensor<1x8x56x56xf32>
  %s = "onnx.Conv"(%x, %wa) {strides = [2, 2]} : (tensor<1x64x56x56xf32>, tensor<8x64x1x1xf32>) -> tensor<1x8x28x28xf32>
  onnx.return %a, %b, %s
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x64x56x56xf32>) -> ("a": tensor<1x8x56x56xf32>, "b": tensor<1x8x56x56xf32>, "s": tensor<1x8x28x28xf32>) {
// CHECK-NEXT:   %wa = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<8x64x1x1xf32>} : () -> tensor<8x64x1x1xf32>
// CHECK-NEXT:   %wb = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<8x64x1x1xf32>} : () -> tensor<8x64x1x1xf32>
// CHECK-NEXT:   %a = "onnx.Conv"(%x, %wa) : (tensor<1x64x56x56xf32>, tensor<8x64x1x1xf32>) -> tensor<1x8x56x56xf32>
// CHECK-NEXT:   %b = "onnx.Conv"(%x, %wb) : (tensor<1x64x56x56xf32>, tensor<8x64x1x1xf32>) -> tensor<1x8x56x56xf32>
// CHECK-NEXT:   %s = "onnx.Conv"(%x, %wa) {strides = [2, 2]} : (tensor<1x64x56x56xf32>, tensor<8x64x1x1xf32>) -> tensor<1x8x28x28xf32>
// CHECK-NEXT:   onnx.return %a, %b, %s
// CHECK-NEXT: }
