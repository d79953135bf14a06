// RUN: decompose,verify
// QGemm (per-column B, C, quantized output), DynamicQuantizeMatMul and
// MatMulIntegerToFloat as MatMulInteger scaled to f32, MatMulNBits of
// constant weights as a MatMul by them dequantized now (the 4-bit fields
// 1 and 2 centered on the packed zero points 7 and 8, times 1).
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%qa: tensor<2x8xui8>, %a: tensor<2x32xf32>) -> ("qy": tensor<2x4xui8>, "dy": tensor<2x4xf32>, "my": tensor<2x4xf32>, "ny": tensor<2x4xf32>) {
  %sa = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %za = "onnx.Constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %qb = "onnx.Constant"() {value = dense<1> : tensor<4x8xi8>} : () -> tensor<4x8xi8>
  %sb = "onnx.Constant"() {value = dense<0.2> : tensor<4xf32>} : () -> tensor<4xf32>
  %zb = "onnx.Constant"() {value = dense<0> : tensor<4xi8>} : () -> tensor<4xi8>
  %c = "onnx.Constant"() {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %qb2 = "onnx.Constant"() {value = dense<1> : tensor<32x4xi8>} : () -> tensor<32x4xi8>
  %bias = "onnx.Constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %nb = "onnx.Constant"() {value = dense<33> : tensor<4x2x8xui8>} : () -> tensor<4x2x8xui8>
  %ns = "onnx.Constant"() {value = dense<1.0> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %nz = "onnx.Constant"() {value = dense<135> : tensor<4x1xui8>} : () -> tensor<4x1xui8>
  %qy = "ms.QGemm"(%qa, %sa, %za, %qb, %sb, %zb, %c, %sa, %za) {transB = 1} : (tensor<2x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>, tensor<4xi32>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  %dy = "ms.DynamicQuantizeMatMul"(%a, %qb2, %sb, %zb) : (tensor<2x32xf32>, tensor<32x4xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<2x4xf32>
  %my = "ms.MatMulIntegerToFloat"(%qa, %qb2, %sa, %sb, %za, %zb, %bias) : (tensor<2x8xui8>, tensor<32x4xi8>, tensor<f32>, tensor<4xf32>, tensor<ui8>, tensor<4xi8>, tensor<4xf32>) -> tensor<2x4xf32>
  %ny = "ms.MatMulNBits"(%a, %nb, %ns, %nz, none, %bias) {K = 32, N = 4, bits = 4, block_size = 16} : (tensor<2x32xf32>, tensor<4x2x8xui8>, tensor<4x2xf32>, tensor<4x1xui8>, none, tensor<4xf32>) -> tensor<2x4xf32>
  onnx.return %qy, %dy, %my, %ny
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%qa: tensor<2x8xui8>, %a: tensor<2x32xf32>) -> ("qy": tensor<2x4xui8>, "dy": tensor<2x4xf32>, "my": tensor<2x4xf32>, "ny": tensor<2x4xf32>) {
// CHECK-NEXT:   %sa = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %za = "onnx.Constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %qb = "onnx.Constant"() {value = dense<1> : tensor<4x8xi8>} : () -> tensor<4x8xi8>
// CHECK-NEXT:   %sb = "onnx.Constant"() {value = dense<0.2> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:   %zb = "onnx.Constant"() {value = dense<0> : tensor<4xi8>} : () -> tensor<4xi8>
// CHECK-NEXT:   %c = "onnx.Constant"() {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
// CHECK-NEXT:   %qb2 = "onnx.Constant"() {value = dense<1> : tensor<32x4xi8>} : () -> tensor<32x4xi8>
// CHECK-NEXT:   %bias = "onnx.Constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:   %nb = "onnx.Constant"() {value = dense<33> : tensor<4x2x8xui8>} : () -> tensor<4x2x8xui8>
// CHECK-NEXT:   %ns = "onnx.Constant"() {value = dense<1.0> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
// CHECK-NEXT:   %nz = "onnx.Constant"() {value = dense<135> : tensor<4x1xui8>} : () -> tensor<4x1xui8>
// CHECK-NEXT:   %0 = "onnx.DequantizeLinear"(%qa, %sa, %za) : (tensor<2x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x8xf32>
// CHECK-NEXT:   %1 = "onnx.DequantizeLinear"(%qb, %sb, %zb) {axis = 0} : (tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = "onnx.Gemm"(%0, %1) {transA = 0, transB = 1} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %3 = "onnx.Cast"(%c) {to = 1} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:   %4 = "onnx.Mul"(%sa, %sb) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %5 = "onnx.Mul"(%3, %4) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %6 = "onnx.Add"(%2, %5) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %qy = "onnx.QuantizeLinear"(%6, %sa, %za) : (tensor<2x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
// CHECK-NEXT:   %7, %8, %9 = "onnx.DynamicQuantizeLinear"(%a) : (tensor<2x32xf32>) -> (tensor<2x32xui8>, tensor<f32>, tensor<ui8>)
// CHECK-NEXT:   %10 = "onnx.MatMulInteger"(%7, %qb2, %9, %zb) : (tensor<2x32xui8>, tensor<32x4xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<2x4xi32>
// CHECK-NEXT:   %11 = "onnx.Mul"(%8, %sb) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %12 = "onnx.Cast"(%10) {to = 1} : (tensor<2x4xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %dy = "onnx.Mul"(%12, %11) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %my = "ms.MatMulIntegerToFloat"(%qa, %qb2, %sa, %sb, %za, %zb, %bias) : (tensor<2x8xui8>, tensor<32x4xi8>, tensor<f32>, tensor<4xf32>, tensor<ui8>, tensor<4xi8>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<"0x0000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000C0C00000C0C00000C0C00000C0C00000A0C00000A0C00000A0C00000A0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C00000E0C00000E0C00000E0C00000E0C00000C0C00000C0C00000C0C00000C0C0"> : tensor<32x4xf32>} : () -> tensor<32x4xf32>
// CHECK-NEXT:   %14 = "onnx.MatMul"(%a, %13) : (tensor<2x32xf32>, tensor<32x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %ny = "onnx.Add"(%14, %bias) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   onnx.return %qy, %dy, %my, %ny
// CHECK-NEXT: }
