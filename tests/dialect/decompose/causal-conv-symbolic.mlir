// RUN: decompose
// CausalConvWithState over a symbolic length: the zeros' length and the
// state's start are read with Shape (the state is the padded input's last
// kernel_size - 1 steps); channels and kernel are static, so the
// convolution is a grouped Conv.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%x: tensor<1x2x"L"xf32>, %w: tensor<2x1x3xf32>) -> ("y": tensor<1x2x"L"xf32>, "state": tensor<1x2x2xf32>) {
  %y, %state = "onnx.CausalConvWithState"(%x, %w) : (tensor<1x2x"L"xf32>, tensor<2x1x3xf32>) -> (tensor<1x2x"L"xf32>, tensor<1x2x2xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x2x"L"xf32>, %w: tensor<2x1x3xf32>) -> ("y": tensor<1x2x"L"xf32>, "state": tensor<1x2x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Sub"(%0, %1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %4 = "onnx.Concat"(%3, %2) {axis = 0} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %5 = "onnx.ConstantOfShape"(%4) {value = dense<[0.0]> : tensor<1xf32>} : (tensor<3xi64>) -> tensor<1x2x2xf32>
// CHECK-NEXT:   %6 = "onnx.Concat"(%5, %x) {axis = 2} : (tensor<1x2x2xf32>, tensor<1x2x"L"xf32>) -> tensor<1x2x("L"+2)xf32>
// CHECK-NEXT:   %y = "onnx.Conv"(%6, %w, none) {group = 2, kernel_shape = [3]} : (tensor<1x2x("L"+2)xf32>, tensor<2x1x3xf32>, none) -> tensor<1x2x"L"xf32>
// CHECK-NEXT:   %7 = "onnx.Shape"(%6) {start = 2, end = 3} : (tensor<1x2x("L"+2)xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %8 = "onnx.Sub"(%7, %2) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %state = "onnx.Slice"(%6, %8, %7, %9) : (tensor<1x2x("L"+2)xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x2xf32>
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
