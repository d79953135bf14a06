// RUN: decompose,verify
// MatMulNBits with weights, scales and zero points given at run time: the
// 4-bit fields and the packed zero points unpacked (Div, Mod), the last block
// cut to K = 40, scaled, transposed into a MatMul.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%a: tensor<2x40xf32>, %b: tensor<3x3x8xui8>, %s: tensor<3x3xf32>, %z: tensor<3x2xui8>) -> ("y": tensor<2x3xf32>) {
  %y = "ms.MatMulNBits"(%a, %b, %s, %z) {K = 40, N = 3, bits = 4, block_size = 16} : (tensor<2x40xf32>, tensor<3x3x8xui8>, tensor<3x3xf32>, tensor<3x2xui8>) -> tensor<2x3xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%a: tensor<2x40xf32>, %b: tensor<3x3x8xui8>, %s: tensor<3x3xf32>, %z: tensor<3x2xui8>) -> ("y": tensor<2x3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Cast"(%b) {to = 6} : (tensor<3x3x8xui8>) -> tensor<3x3x8xi32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Unsqueeze"(%0, %1) : (tensor<3x3x8xi32>, tensor<1xi64>) -> tensor<3x3x8x1xi32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[1, 16]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<16> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:   %5 = "onnx.Div"(%2, %3) : (tensor<3x3x8x1xi32>, tensor<2xi32>) -> tensor<3x3x8x2xi32>
// CHECK-NEXT:   %6 = "onnx.Mod"(%5, %4) : (tensor<3x3x8x2xi32>, tensor<i32>) -> tensor<3x3x8x2xi32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %8 = "onnx.Reshape"(%6, %7) : (tensor<3x3x8x2xi32>, tensor<3xi64>) -> tensor<3x3x16xi32>
// CHECK-NEXT:   %9 = "onnx.Cast"(%8) {to = 1} : (tensor<3x3x16xi32>) -> tensor<3x3x16xf32>
// CHECK-NEXT:   %10 = "onnx.Cast"(%z) {to = 6} : (tensor<3x2xui8>) -> tensor<3x2xi32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%10, %11) : (tensor<3x2xi32>, tensor<1xi64>) -> tensor<3x2x1xi32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[1, 16]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<16> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:   %15 = "onnx.Div"(%12, %13) : (tensor<3x2x1xi32>, tensor<2xi32>) -> tensor<3x2x2xi32>
// CHECK-NEXT:   %16 = "onnx.Mod"(%15, %14) : (tensor<3x2x2xi32>, tensor<i32>) -> tensor<3x2x2xi32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %18 = "onnx.Reshape"(%16, %17) : (tensor<3x2x2xi32>, tensor<2xi64>) -> tensor<3x4xi32>
// CHECK-NEXT:   %19 = "onnx.Cast"(%18) {to = 1} : (tensor<3x4xi32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[3, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %21 = "onnx.Reshape"(%19, %20) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Slice"(%21, %22, %23, %24) : (tensor<3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x3xf32>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[3, 3, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %27 = "onnx.Reshape"(%25, %26) : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<3x3x1xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[3, 3, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %29 = "onnx.Reshape"(%s, %28) : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<3x3x1xf32>
// CHECK-NEXT:   %30 = "onnx.Sub"(%9, %27) : (tensor<3x3x16xf32>, tensor<3x3x1xf32>) -> tensor<3x3x16xf32>
// CHECK-NEXT:   %31 = "onnx.Mul"(%30, %29) : (tensor<3x3x16xf32>, tensor<3x3x1xf32>) -> tensor<3x3x16xf32>
// CHECK-NEXT:   %32 = "onnx.Constant"() {value = dense<[3, 48]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %33 = "onnx.Reshape"(%31, %32) : (tensor<3x3x16xf32>, tensor<2xi64>) -> tensor<3x48xf32>
// CHECK-NEXT:   %34 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %35 = "onnx.Constant"() {value = dense<[40]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %37 = "onnx.Slice"(%33, %34, %35, %36) : (tensor<3x48xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x40xf32>
// CHECK-NEXT:   %38 = "onnx.Transpose"(%37) {perm = [1, 0]} : (tensor<3x40xf32>) -> tensor<40x3xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%a, %38) : (tensor<2x40xf32>, tensor<40x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
