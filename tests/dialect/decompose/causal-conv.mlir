// RUN: decompose,verify
// CausalConvWithState with a past state, a bias and SiLU: the past in front
// of the input, a depthwise Conv (group = channels) without padding, x·σ(x),
// and the last kernel_size - 1 steps of the padded input as the new state.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%x: tensor<1x2x3xf32>, %w: tensor<2x1x3xf32>, %bias: tensor<2xf32>, %past: tensor<1x2x2xf32>) -> ("y": tensor<1x2x3xf32>, "state": tensor<1x2x2xf32>) {
  %y, %state = "onnx.CausalConvWithState"(%x, %w, %bias, %past) {activation = "silu"} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>, tensor<2xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x3xf32>, tensor<1x2x2xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x2x3xf32>, %w: tensor<2x1x3xf32>, %bias: tensor<2xf32>, %past: tensor<1x2x2xf32>) -> ("y": tensor<1x2x3xf32>, "state": tensor<1x2x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Sub"(%0, %1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Concat"(%past, %x) {axis = 2} : (tensor<1x2x2xf32>, tensor<1x2x3xf32>) -> tensor<1x2x5xf32>
// CHECK-NEXT:   %4 = "onnx.Conv"(%3, %w, %bias) {group = 2, kernel_shape = [3]} : (tensor<1x2x5xf32>, tensor<2x1x3xf32>, tensor<2xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT:   %5 = "onnx.Sigmoid"(%4) : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT:   %y = "onnx.Mul"(%4, %5) : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %7 = "onnx.Sub"(%6, %2) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %state = "onnx.Slice"(%3, %7, %6, %8) : (tensor<1x2x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x2xf32>
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
