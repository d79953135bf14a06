// RUN: decompose,dce,verify
// Scan-9+ with a static length: one copy of the body per step, the scan
// input sliced by Gather along its axis (backwards when reversed), the
// state carried, the scan output stacked with Unsqueeze + Concat along
// its output axis; the body reads the outer %w directly.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%init: tensor<2xf32>, %xs: tensor<2x3xf32>, %w: tensor<2xf32>) -> ("final": tensor<2xf32>, "stacked": tensor<2x3xf32>) {
  %final, %stacked = "onnx.Scan"(%init, %xs) {body = onnx.graph "step"(%s: tensor<2xf32>, %x: tensor<2xf32>) -> ("s_out": tensor<2xf32>, "y": tensor<2xf32>) {
    %s_out = "onnx.Add"(%s, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %y = "onnx.Mul"(%s_out, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.return %s_out, %y
  }, num_scan_inputs = 1, scan_input_axes = [1], scan_input_directions = [1], scan_output_axes = [-1]} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  onnx.return %final, %stacked
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%init: tensor<2xf32>, %xs: tensor<2x3xf32>, %w: tensor<2xf32>) -> ("final": tensor<2xf32>, "stacked": tensor<2x3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %1 = "onnx.Gather"(%xs, %0) {axis = 1} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NEXT:   %2 = "onnx.Add"(%init, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %3 = "onnx.Mul"(%2, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Gather"(%xs, %4) {axis = 1} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NEXT:   %6 = "onnx.Add"(%2, %5) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %7 = "onnx.Mul"(%6, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %9 = "onnx.Gather"(%xs, %8) {axis = 1} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NEXT:   %final = "onnx.Add"(%6, %9) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %10 = "onnx.Mul"(%final, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%3, %11) : (tensor<2xf32>, tensor<1xi64>) -> tensor<2x1xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Unsqueeze"(%7, %13) : (tensor<2xf32>, tensor<1xi64>) -> tensor<2x1xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %16 = "onnx.Unsqueeze"(%10, %15) : (tensor<2xf32>, tensor<1xi64>) -> tensor<2x1xf32>
// CHECK-NEXT:   %stacked = "onnx.Concat"(%12, %14, %16) {axis = 1} : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %final, %stacked
// CHECK-NEXT: }
