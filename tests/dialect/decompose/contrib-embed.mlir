// RUN: decompose,verify
// EmbedLayerNormalization with segments and a mask: three Gathers added
// (positions 0..S), LayerNormalization, the mask's ReduceSum as mask_index.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%ids: tensor<2x4xi32>, %seg: tensor<2x4xi32>, %mask: tensor<2x4xi32>) -> ("y": tensor<2x4x8xf32>, "mi": tensor<2xi32>, "sum": tensor<2x4x8xf32>) {
  %word = "onnx.Constant"() {value = dense<1.0> : tensor<10x8xf32>} : () -> tensor<10x8xf32>
  %pos = "onnx.Constant"() {value = dense<1.0> : tensor<6x8xf32>} : () -> tensor<6x8xf32>
  %segt = "onnx.Constant"() {value = dense<1.0> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %g = "onnx.Constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %b = "onnx.Constant"() {value = dense<0.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %y, %mi, %sum = "ms.EmbedLayerNormalization"(%ids, %seg, %word, %pos, %segt, %g, %b, %mask) {epsilon = 1e-5} : (tensor<2x4xi32>, tensor<2x4xi32>, tensor<10x8xf32>, tensor<6x8xf32>, tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x4xi32>) -> (tensor<2x4x8xf32>, tensor<2xi32>, tensor<2x4x8xf32>)
  onnx.return %y, %mi, %sum
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%ids: tensor<2x4xi32>, %seg: tensor<2x4xi32>, %mask: tensor<2x4xi32>) -> ("y": tensor<2x4x8xf32>, "mi": tensor<2xi32>, "sum": tensor<2x4x8xf32>) {
// CHECK-NEXT:   %word = "onnx.Constant"() {value = dense<1.0> : tensor<10x8xf32>} : () -> tensor<10x8xf32>
// CHECK-NEXT:   %pos = "onnx.Constant"() {value = dense<1.0> : tensor<6x8xf32>} : () -> tensor<6x8xf32>
// CHECK-NEXT:   %segt = "onnx.Constant"() {value = dense<1.0> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
// CHECK-NEXT:   %g = "onnx.Constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
// CHECK-NEXT:   %b = "onnx.Constant"() {value = dense<0.0> : tensor<8xf32>} : () -> tensor<8xf32>
// CHECK-NEXT:   %0 = "onnx.Gather"(%word, %ids) {axis = 0} : (tensor<10x8xf32>, tensor<2x4xi32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Unsqueeze"(%1, %2) : (tensor<4xi64>, tensor<1xi64>) -> tensor<1x4xi64>
// CHECK-NEXT:   %4 = "onnx.Gather"(%pos, %3) {axis = 0} : (tensor<6x8xf32>, tensor<1x4xi64>) -> tensor<1x4x8xf32>
// CHECK-NEXT:   %5 = "onnx.Add"(%0, %4) : (tensor<2x4x8xf32>, tensor<1x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %6 = "onnx.Gather"(%segt, %seg) {axis = 0} : (tensor<2x8xf32>, tensor<2x4xi32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %sum = "onnx.Add"(%5, %6) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %y = "onnx.LayerNormalization"(%sum, %g, %b) {axis = 2, epsilon = 1e-5} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %7 = "onnx.Cast"(%mask) {to = 7} : (tensor<2x4xi32>) -> tensor<2x4xi64>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %9 = "onnx.ReduceSum"(%7, %8) {keepdims = 0} : (tensor<2x4xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %mi = "onnx.Cast"(%9) {to = 6} : (tensor<2xi64>) -> tensor<2xi32>
// CHECK-NEXT:   onnx.return %y, %mi, %sum
// CHECK-NEXT: }
