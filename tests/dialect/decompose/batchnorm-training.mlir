// RUN: decompose,verify
// BatchNormalization in training mode normalizes by the batch statistics
// and moves the running ones towards them (decompose/norm.rs); the
// inference form stays for the lowering.
onnx.model {ir_version = 10, opset_imports = {"" = 15}}
onnx.graph "g"(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> ("y": tensor<2x3x4xf32>, "rm": tensor<3xf32>, "rv": tensor<3xf32>, "yi": tensor<2x3x4xf32>) {
  %y, %rm, %rv = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) {epsilon = 0.01, momentum = 0.8, training_mode = 1} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %yi = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  onnx.return %y, %rm, %rv, %yi
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 15}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> ("y": tensor<2x3x4xf32>, "rm": tensor<3xf32>, "rv": tensor<3xf32>, "yi": tensor<2x3x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.ReduceMean"(%x) {keepdims = 1, axes = [0, 2]} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:   %1 = "onnx.Sub"(%x, %0) : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %2 = "onnx.Mul"(%1, %1) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %3 = "onnx.ReduceMean"(%2) {keepdims = 1, axes = [0, 2]} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %5 = "onnx.Add"(%3, %4) : (tensor<1x3x1xf32>, tensor<f32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:   %6 = "onnx.Sqrt"(%5) : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:   %7 = "onnx.Div"(%1, %6) : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %9 = "onnx.Unsqueeze"(%s, %8) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Unsqueeze"(%b, %10) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %12 = "onnx.Mul"(%7, %9) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %y = "onnx.Add"(%12, %11) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Reshape"(%0, %13) : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0.8> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<0.19999999> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %17 = "onnx.Mul"(%m, %15) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:   %18 = "onnx.Mul"(%14, %16) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:   %rm = "onnx.Add"(%17, %18) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %20 = "onnx.Reshape"(%3, %19) : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<0.8> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<0.19999999> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %23 = "onnx.Mul"(%v, %21) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:   %24 = "onnx.Mul"(%20, %22) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:   %rv = "onnx.Add"(%23, %24) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %yi = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   onnx.return %y, %rm, %rv, %yi
// CHECK-NEXT: }
