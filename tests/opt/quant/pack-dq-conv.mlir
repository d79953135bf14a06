// RUN: opt --rules=quant,layout,algebraic
// Two QDQ convolutions in a row (the second strided, with a bias) run on
// the packed kernel in channels-last layout: the input is transposed to
// [N, H, W, C] and padded with its zero point (3 channels padded to 4 for
// the first), each convolution's QuantizeLinear folds into it (8-bit
// results), and the transposes between the two meet through the QDQ pair
// and cancel: one transpose in, one out.
onnx.model {ir_version = 8, opset_imports = {"" = 21}}
onnx.graph "g"(%xq: tensor<1x3x32x32xui8>) -> ("y": tensor<1x64x16x16xui8>) {
  %sx = "onnx.Constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %zx = "onnx.Constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %w1 = "onnx.Constant"() {value = dense<3> : tensor<64x3x3x3xi8>} : () -> tensor<64x3x3x3xi8>
  %s1 = "onnx.Constant"() {value = dense<0.01> : tensor<64xf32>} : () -> tensor<64xf32>
  %w2 = "onnx.Constant"() {value = dense<-2> : tensor<64x64x3x3xi8>} : () -> tensor<64x64x3x3xi8>
  %s2 = "onnx.Constant"() {value = dense<0.005> : tensor<64xf32>} : () -> tensor<64xf32>
  %b2 = "onnx.Constant"() {value = dense<0.5> : tensor<64xf32>} : () -> tensor<64xf32>
  %sy = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %zy = "onnx.Constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %x = "onnx.DequantizeLinear"(%xq, %sx, %zx) : (tensor<1x3x32x32xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x32x32xf32>
  %wf1 = "onnx.DequantizeLinear"(%w1, %s1) {axis = 0} : (tensor<64x3x3x3xi8>, tensor<64xf32>) -> tensor<64x3x3x3xf32>
  %c1 = "onnx.Conv"(%x, %wf1) {kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x3x32x32xf32>, tensor<64x3x3x3xf32>) -> tensor<1x64x32x32xf32>
  %q1 = "onnx.QuantizeLinear"(%c1, %sy, %zy) : (tensor<1x64x32x32xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x64x32x32xui8>
  %d1 = "onnx.DequantizeLinear"(%q1, %sy, %zy) : (tensor<1x64x32x32xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x64x32x32xf32>
  %wf2 = "onnx.DequantizeLinear"(%w2, %s2) {axis = 0} : (tensor<64x64x3x3xi8>, tensor<64xf32>) -> tensor<64x64x3x3xf32>
  %c2 = "onnx.Conv"(%d1, %wf2, %b2) {kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x64x32x32xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
  %y = "onnx.QuantizeLinear"(%c2, %sy, %zy) : (tensor<1x64x16x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x64x16x16xui8>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 21, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%xq: tensor<1x3x32x32xui8>) -> ("y": tensor<1x64x16x16xui8>) {
// CHECK-NEXT:   %zx = "onnx.Constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %b2 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xf32>} : () -> tensor<64xf32>
// CHECK-NEXT:   %sy = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %zy = "onnx.Constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %0 = "onnx.Transpose"(%xq) {perm = [0, 2, 3, 1]} : (tensor<1x3x32x32xui8>) -> tensor<1x32x32x3xui8>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[0, 1, 1, 0, 0, 1, 1, 1]> : tensor<8xi64>} : () -> tensor<8xi64>
// CHECK-NEXT:   %2 = "onnx.Pad"(%0, %1, %zx) : (tensor<1x32x32x3xui8>, tensor<8xi64>, tensor<ui8>) -> tensor<1x34x34x4xui8>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<4x9x16x4xi8>} : () -> tensor<4x9x16x4xi8>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xi32>} : () -> tensor<64xi32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xf32>} : () -> tensor<64xf32>
// CHECK-NEXT:   %6 = "omlc.PackedConvInteger"(%2, %3, %4, %zx, none, %5, none, %sy, %zy) {kernel_shape = [3, 3]} : (tensor<1x34x34x4xui8>, tensor<4x9x16x4xi8>, tensor<64xi32>, tensor<ui8>, none, tensor<64xf32>, none, tensor<f32>, tensor<ui8>) -> tensor<1x32x32x64xui8>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[0, 1, 1, 0, 0, 1, 1, 0]> : tensor<8xi64>} : () -> tensor<8xi64>
// CHECK-NEXT:   %8 = "onnx.Pad"(%6, %7, %zy) : (tensor<1x32x32x64xui8>, tensor<8xi64>, tensor<ui8>) -> tensor<1x34x34x64xui8>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<4x144x16x4xi8>} : () -> tensor<4x144x16x4xi8>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xi32>} : () -> tensor<64xi32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xf32>} : () -> tensor<64xf32>
// CHECK-NEXT:   %12 = "omlc.PackedConvInteger"(%8, %9, %10, %zy, none, %11, %b2, %sy, %zy) {kernel_shape = [3, 3], strides = [2, 2]} : (tensor<1x34x34x64xui8>, tensor<4x144x16x4xi8>, tensor<64xi32>, tensor<ui8>, none, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x16x16x64xui8>
// CHECK-NEXT:   %13 = "onnx.Transpose"(%12) {perm = [0, 3, 1, 2]} : (tensor<1x16x16x64xui8>) -> tensor<1x64x16x16xui8>
// CHECK-NEXT:   onnx.return %13
// CHECK-NEXT: }
