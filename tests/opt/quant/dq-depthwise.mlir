// RUN: opt --rules=quant,layout,algebraic
// A MobileNet-style block: a 1×1 QDQ convolution on the packed kernel, a
// depthwise 3×3 QDQ convolution channels-last (the input's scale folded
// into the weights, its zero point into the bias; padded with the zero
// point; the QuantizeLinear folded into its stores), then the global pool
// of a squeeze-and-excitation block as a ReduceMean over the channels-last
// image: the transposes between them cancel, one transpose in, one out.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%xq: tensor<1x16x8x8xui8>) -> ("y": tensor<1x32x1x1xf32>) {
  %sx = "onnx.Constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %zx = "onnx.Constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %w1 = "onnx.Constant"() {value = dense<3> : tensor<32x16x1x1xi8>} : () -> tensor<32x16x1x1xi8>
  %s1 = "onnx.Constant"() {value = dense<0.01> : tensor<32xf32>} : () -> tensor<32xf32>
  %w2 = "onnx.Constant"() {value = dense<-2> : tensor<32x1x3x3xi8>} : () -> tensor<32x1x3x3xi8>
  %s2 = "onnx.Constant"() {value = dense<0.5> : tensor<32xf32>} : () -> tensor<32xf32>
  %b2 = "onnx.Constant"() {value = dense<0.25> : tensor<32xf32>} : () -> tensor<32xf32>
  %sy = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %zy = "onnx.Constant"() {value = dense<4> : tensor<ui8>} : () -> tensor<ui8>
  %x = "onnx.DequantizeLinear"(%xq, %sx, %zx) : (tensor<1x16x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x16x8x8xf32>
  %wf1 = "onnx.DequantizeLinear"(%w1, %s1) {axis = 0} : (tensor<32x16x1x1xi8>, tensor<32xf32>) -> tensor<32x16x1x1xf32>
  %c1 = "onnx.Conv"(%x, %wf1) {kernel_shape = [1, 1]} : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x8x8xf32>
  %q1 = "onnx.QuantizeLinear"(%c1, %sy, %zy) : (tensor<1x32x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x32x8x8xui8>
  %d1 = "onnx.DequantizeLinear"(%q1, %sy, %zy) : (tensor<1x32x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x8x8xf32>
  %wf2 = "onnx.DequantizeLinear"(%w2, %s2) {axis = 0} : (tensor<32x1x3x3xi8>, tensor<32xf32>) -> tensor<32x1x3x3xf32>
  %c2 = "onnx.Conv"(%d1, %wf2, %b2) {group = 32, kernel_shape = [3, 3], pads = [1, 1, 1, 1]} : (tensor<1x32x8x8xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x8x8xf32>
  %q2 = "onnx.QuantizeLinear"(%c2, %sy, %zy) : (tensor<1x32x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x32x8x8xui8>
  %d2 = "onnx.DequantizeLinear"(%q2, %sy, %zy) : (tensor<1x32x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x8x8xf32>
  %y = "onnx.GlobalAveragePool"(%d2) : (tensor<1x32x8x8xf32>) -> tensor<1x32x1x1xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%xq: tensor<1x16x8x8xui8>) -> ("y": tensor<1x32x1x1xf32>) {
// CHECK-NEXT:   %zx = "onnx.Constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %sy = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %zy = "onnx.Constant"() {value = dense<4> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %0 = "onnx.Transpose"(%xq) {perm = [0, 2, 3, 1]} : (tensor<1x16x8x8xui8>) -> tensor<1x8x8x16xui8>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<2x4x16x4xi8>} : () -> tensor<2x4x16x4xi8>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<32xi32>} : () -> tensor<32xi32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<32xf32>} : () -> tensor<32xf32>
// CHECK-NEXT:   %4 = "omlc.PackedConvInteger"(%0, %1, %2, %zx, none, %3, none, %sy, %zy) {kernel_shape = [1, 1]} : (tensor<1x8x8x16xui8>, tensor<2x4x16x4xi8>, tensor<32xi32>, tensor<ui8>, none, tensor<32xf32>, none, tensor<f32>, tensor<ui8>) -> tensor<1x8x8x32xui8>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[0, 1, 1, 0, 0, 1, 1, 0]> : tensor<8xi64>} : () -> tensor<8xi64>
// CHECK-NEXT:   %6 = "onnx.Pad"(%4, %5, %zy) : (tensor<1x8x8x32xui8>, tensor<8xi64>, tensor<ui8>) -> tensor<1x10x10x32xui8>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<3x3x32xf32>} : () -> tensor<3x3x32xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<32xf32>} : () -> tensor<32xf32>
// CHECK-NEXT:   %9 = "omlc.DepthwiseConv"(%6, %7, %8, %sy, %zy) {kernel_shape = [3, 3]} : (tensor<1x10x10x32xui8>, tensor<3x3x32xf32>, tensor<32xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x8x32xui8>
// CHECK-NEXT:   %10 = "onnx.DequantizeLinear"(%9, %sy, %zy) : (tensor<1x8x8x32xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT:   %11 = "onnx.ReduceMean"(%10) {axes = [1, 2]} : (tensor<1x8x8x32xf32>) -> tensor<1x1x1x32xf32>
// CHECK-NEXT:   %12 = "onnx.Transpose"(%11) {perm = [0, 3, 1, 2]} : (tensor<1x1x1x32xf32>) -> tensor<1x32x1x1xf32>
// CHECK-NEXT:   onnx.return %12
// CHECK-NEXT: }
