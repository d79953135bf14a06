// RUN: decompose,verify
// Contrib QLinearConv with channels last: ai.onnx QLinearConv between
// Transposes to and from NCHW.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%x: tensor<1x5x5x3xui8>) -> ("y": tensor<1x5x5x4xui8>) {
  %sx = "onnx.Constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %zx = "onnx.Constant"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
  %w = "onnx.Constant"() {value = dense<1> : tensor<4x3x3x3xi8>} : () -> tensor<4x3x3x3xi8>
  %sw = "onnx.Constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %zw = "onnx.Constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %sy = "onnx.Constant"() {value = dense<0.3> : tensor<f32>} : () -> tensor<f32>
  %zy = "onnx.Constant"() {value = dense<5> : tensor<ui8>} : () -> tensor<ui8>
  %B = "onnx.Constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %y = "ms.QLinearConv"(%x, %sx, %zx, %w, %sw, %zw, %sy, %zy, %B) {channels_last = 1, pads = [1, 1, 1, 1]} : (tensor<1x5x5x3xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x5x5x4xui8>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x5x5x3xui8>) -> ("y": tensor<1x5x5x4xui8>) {
// CHECK-NEXT:   %sx = "onnx.Constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %zx = "onnx.Constant"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %w = "onnx.Constant"() {value = dense<1> : tensor<4x3x3x3xi8>} : () -> tensor<4x3x3x3xi8>
// CHECK-NEXT:   %sw = "onnx.Constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %zw = "onnx.Constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
// CHECK-NEXT:   %sy = "onnx.Constant"() {value = dense<0.3> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %zy = "onnx.Constant"() {value = dense<5> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %B = "onnx.Constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
// CHECK-NEXT:   %0 = "onnx.Transpose"(%x) {perm = [0, 3, 1, 2]} : (tensor<1x5x5x3xui8>) -> tensor<1x3x5x5xui8>
// CHECK-NEXT:   %1 = "onnx.QLinearConv"(%0, %sx, %zx, %w, %sw, %zw, %sy, %zy, %B) {pads = [1, 1, 1, 1]} : (tensor<1x3x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x5x5xui8>
// CHECK-NEXT:   %y = "onnx.Transpose"(%1) {perm = [0, 2, 3, 1]} : (tensor<1x4x5x5xui8>) -> tensor<1x5x5x4xui8>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
