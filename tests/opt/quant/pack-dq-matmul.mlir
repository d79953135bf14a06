// RUN: opt --rules=quant
// A MatMul of two DequantizeLinear (QDQ) whose weights are constant is
// the packed integer product, which the kernel scales into floats by
// sx·sw: per tensor for the activations, per column (axis 1) for the
// weights; a Gemm the same plus its C, which the kernel adds too. Not
// rewritten: weights scaled per row (axis 0), which does not factor out
// of the sum.
onnx.model {ir_version = 8, opset_imports = {"" = 21}}
onnx.graph "g"(%xq: tensor<256x512xui8>, %sx: tensor<f32>, %zx: tensor<ui8>) -> ("y": tensor<256x64xf32>, "r": tensor<256x64xf32>, "g": tensor<256x64xf32>) {
  %w = "onnx.Constant"() {value = dense<3> : tensor<512x64xi8>} : () -> tensor<512x64xi8>
  %sw = "onnx.Constant"() {value = dense<0.5> : tensor<64xf32>} : () -> tensor<64xf32>
  %x = "onnx.DequantizeLinear"(%xq, %sx, %zx) : (tensor<256x512xui8>, tensor<f32>, tensor<ui8>) -> tensor<256x512xf32>
  %wf = "onnx.DequantizeLinear"(%w, %sw) {axis = 1} : (tensor<512x64xi8>, tensor<64xf32>) -> tensor<512x64xf32>
  %y = "onnx.MatMul"(%x, %wf) : (tensor<256x512xf32>, tensor<512x64xf32>) -> tensor<256x64xf32>
  %sr = "onnx.Constant"() {value = dense<0.25> : tensor<512xf32>} : () -> tensor<512xf32>
  %wr = "onnx.DequantizeLinear"(%w, %sr) {axis = 0} : (tensor<512x64xi8>, tensor<512xf32>) -> tensor<512x64xf32>
  %r = "onnx.MatMul"(%x, %wr) : (tensor<256x512xf32>, tensor<512x64xf32>) -> tensor<256x64xf32>
  %c = "onnx.Constant"() {value = dense<1.5> : tensor<64xf32>} : () -> tensor<64xf32>
  %g = "onnx.Gemm"(%x, %wf, %c) : (tensor<256x512xf32>, tensor<512x64xf32>, tensor<64xf32>) -> tensor<256x64xf32>
  onnx.return %y, %r, %g
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 21, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%xq: tensor<256x512xui8>, %sx: tensor<f32>, %zx: tensor<ui8>) -> ("y": tensor<256x64xf32>, "r": tensor<256x64xf32>, "g": tensor<256x64xf32>) {
// CHECK-NEXT:   %sw = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xf32>} : () -> tensor<64xf32>
// CHECK-NEXT:   %x = "onnx.DequantizeLinear"(%xq, %sx, %zx) : (tensor<256x512xui8>, tensor<f32>, tensor<ui8>) -> tensor<256x512xf32>
// CHECK-NEXT:   %c = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xf32>} : () -> tensor<64xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<4x128x16x4xi8>} : () -> tensor<4x128x16x4xi8>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xi32>} : () -> tensor<64xi32>
// CHECK-NEXT:   %2 = "onnx.Mul"(%sx, %sw) : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
// CHECK-NEXT:   %3 = "omlc.PackedMatMulInteger"(%xq, %0, %1, %zx, none, %2) : (tensor<256x512xui8>, tensor<4x128x16x4xi8>, tensor<64xi32>, tensor<ui8>, none, tensor<64xf32>) -> tensor<256x64xf32>
// CHECK-NEXT:   %wr = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<512x64xf32>} : () -> tensor<512x64xf32>
// CHECK-NEXT:   %r = "onnx.MatMul"(%x, %wr) : (tensor<256x512xf32>, tensor<512x64xf32>) -> tensor<256x64xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<4x128x16x4xi8>} : () -> tensor<4x128x16x4xi8>
// CHECK-NEXT:   %5 = "omlc.PackedMatMulInteger"(%xq, %4, %1, %zx, none, %2, %c) : (tensor<256x512xui8>, tensor<4x128x16x4xi8>, tensor<64xi32>, tensor<ui8>, none, tensor<64xf32>, tensor<64xf32>) -> tensor<256x64xf32>
// CHECK-NEXT:   onnx.return %3, %r, %5
// CHECK-NEXT: }
