// RUN: decompose,verify
// QGemm (per-column B, C, quantized output), DynamicQuantizeMatMul and
// MatMulIntegerToFloat as MatMulInteger scaled to f32, MatMulNBits' 4-bit
// fields unpacked (Div, Mod), centered on the packed zero points, scaled per
// block, transposed into a MatMul.
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
// CHECK-NEXT:   %13 = "onnx.Cast"(%nb) {to = 6} : (tensor<4x2x8xui8>) -> tensor<4x2x8xi32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %15 = "onnx.Unsqueeze"(%13, %14) : (tensor<4x2x8xi32>, tensor<1xi64>) -> tensor<4x2x8x1xi32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[1, 16]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<16> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:   %18 = "onnx.Div"(%15, %16) : (tensor<4x2x8x1xi32>, tensor<2xi32>) -> tensor<4x2x8x2xi32>
// CHECK-NEXT:   %19 = "onnx.Mod"(%18, %17) : (tensor<4x2x8x2xi32>, tensor<i32>) -> tensor<4x2x8x2xi32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %21 = "onnx.Reshape"(%19, %20) : (tensor<4x2x8x2xi32>, tensor<3xi64>) -> tensor<4x2x16xi32>
// CHECK-NEXT:   %22 = "onnx.Cast"(%21) {to = 1} : (tensor<4x2x16xi32>) -> tensor<4x2x16xf32>
// CHECK-NEXT:   %23 = "onnx.Cast"(%nz) {to = 6} : (tensor<4x1xui8>) -> tensor<4x1xi32>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Unsqueeze"(%23, %24) : (tensor<4x1xi32>, tensor<1xi64>) -> tensor<4x1x1xi32>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[1, 16]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<16> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:   %28 = "onnx.Div"(%25, %26) : (tensor<4x1x1xi32>, tensor<2xi32>) -> tensor<4x1x2xi32>
// CHECK-NEXT:   %29 = "onnx.Mod"(%28, %27) : (tensor<4x1x2xi32>, tensor<i32>) -> tensor<4x1x2xi32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %31 = "onnx.Reshape"(%29, %30) : (tensor<4x1x2xi32>, tensor<2xi64>) -> tensor<4x2xi32>
// CHECK-NEXT:   %32 = "onnx.Cast"(%31) {to = 1} : (tensor<4x2xi32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[4, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %34 = "onnx.Reshape"(%32, %33) : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %35 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %38 = "onnx.Slice"(%34, %35, %36, %37) : (tensor<4x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %39 = "onnx.Constant"() {value = dense<[4, 2, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %40 = "onnx.Reshape"(%38, %39) : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<4x2x1xf32>
// CHECK-NEXT:   %41 = "onnx.Constant"() {value = dense<[4, 2, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %42 = "onnx.Reshape"(%ns, %41) : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<4x2x1xf32>
// CHECK-NEXT:   %43 = "onnx.Sub"(%22, %40) : (tensor<4x2x16xf32>, tensor<4x2x1xf32>) -> tensor<4x2x16xf32>
// CHECK-NEXT:   %44 = "onnx.Mul"(%43, %42) : (tensor<4x2x16xf32>, tensor<4x2x1xf32>) -> tensor<4x2x16xf32>
// CHECK-NEXT:   %45 = "onnx.Constant"() {value = dense<[4, 32]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %46 = "onnx.Reshape"(%44, %45) : (tensor<4x2x16xf32>, tensor<2xi64>) -> tensor<4x32xf32>
// CHECK-NEXT:   %47 = "onnx.Transpose"(%46) {perm = [1, 0]} : (tensor<4x32xf32>) -> tensor<32x4xf32>
// CHECK-NEXT:   %48 = "onnx.MatMul"(%a, %47) : (tensor<2x32xf32>, tensor<32x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %ny = "onnx.Add"(%48, %bias) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   onnx.return %qy, %dy, %my, %ny
// CHECK-NEXT: }
