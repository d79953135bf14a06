// RUN: decompose,verify
// Attention with a 2-D mask, unidirectional and a past: the QKV projection
// split into heads, the past appended, the mask as an additive term of
// mask_filter_value and the causal order as one of -inf, Attention-23
// expanded at once.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%x: tensor<2x3x8xf32>, %mask: tensor<2x5xi32>, %past: tensor<2x2x2x2x4xf32>) -> ("y": tensor<2x3x8xf32>, "present": tensor<2x2x2x5x4xf32>) {
  %w = "onnx.Constant"() {value = dense<1.0> : tensor<8x24xf32>} : () -> tensor<8x24xf32>
  %bias = "onnx.Constant"() {value = dense<0.0> : tensor<24xf32>} : () -> tensor<24xf32>
  %y, %present = "ms.Attention"(%x, %w, %bias, %mask, %past) {num_heads = 2, unidirectional = 1} : (tensor<2x3x8xf32>, tensor<8x24xf32>, tensor<24xf32>, tensor<2x5xi32>, tensor<2x2x2x2x4xf32>) -> (tensor<2x3x8xf32>, tensor<2x2x2x5x4xf32>)
  onnx.return %y, %present
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x8xf32>, %mask: tensor<2x5xi32>, %past: tensor<2x2x2x2x4xf32>) -> ("y": tensor<2x3x8xf32>, "present": tensor<2x2x2x5x4xf32>) {
// CHECK-NEXT:   %w = "onnx.Constant"() {value = dense<1.0> : tensor<8x24xf32>} : () -> tensor<8x24xf32>
// CHECK-NEXT:   %bias = "onnx.Constant"() {value = dense<0.0> : tensor<24xf32>} : () -> tensor<24xf32>
// CHECK-NEXT:   %0 = "onnx.MatMul"(%x, %w) : (tensor<2x3x8xf32>, tensor<8x24xf32>) -> tensor<2x3x24xf32>
// CHECK-NEXT:   %1 = "onnx.Add"(%0, %bias) : (tensor<2x3x24xf32>, tensor<24xf32>) -> tensor<2x3x24xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<8> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %3, %4, %5 = "onnx.Split"(%1, %2) {axis = 2} : (tensor<2x3x24xf32>, tensor<3xi64>) -> (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>)
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %7 = "onnx.Reshape"(%3, %6) : (tensor<2x3x8xf32>, tensor<4xi64>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT:   %8 = "onnx.Transpose"(%7) {perm = [0, 2, 1, 3]} : (tensor<2x3x2x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %10 = "onnx.Reshape"(%4, %9) : (tensor<2x3x8xf32>, tensor<4xi64>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT:   %11 = "onnx.Transpose"(%10) {perm = [0, 2, 1, 3]} : (tensor<2x3x2x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %13 = "onnx.Reshape"(%5, %12) : (tensor<2x3x8xf32>, tensor<4xi64>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT:   %14 = "onnx.Transpose"(%13) {perm = [0, 2, 1, 3]} : (tensor<2x3x2x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %17 = "onnx.Gather"(%past, %15) {axis = 0} : (tensor<2x2x2x2x4xf32>, tensor<i64>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT:   %18 = "onnx.Gather"(%past, %16) {axis = 0} : (tensor<2x2x2x2x4xf32>, tensor<i64>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT:   %19 = "onnx.Concat"(%17, %11) {axis = 2} : (tensor<2x2x2x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x5x4xf32>
// CHECK-NEXT:   %20 = "onnx.Concat"(%18, %14) {axis = 2} : (tensor<2x2x2x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x5x4xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[0, 1, 2, 3, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %22 = "onnx.Cast"(%mask) {to = 7} : (tensor<2x5xi32>) -> tensor<2x5xi64>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %24 = "onnx.Equal"(%22, %23) : (tensor<2x5xi64>, tensor<i64>) -> tensor<2x5xi1>
// CHECK-NEXT:   %25 = "onnx.Not"(%24) : (tensor<2x5xi1>) -> tensor<2x5xi1>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %27 = "onnx.Unsqueeze"(%25, %26) : (tensor<2x5xi1>, tensor<2xi64>) -> tensor<2x1x1x5xi1>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[0, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %30 = "onnx.Add"(%29, %28) : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %32 = "onnx.Unsqueeze"(%30, %31) : (tensor<3xi64>, tensor<1xi64>) -> tensor<3x1xi64>
// CHECK-NEXT:   %33 = "onnx.Greater"(%21, %32) : (tensor<5xi64>, tensor<3x1xi64>) -> tensor<3x5xi1>
// CHECK-NEXT:   %34 = "onnx.Not"(%33) : (tensor<3x5xi1>) -> tensor<3x5xi1>
// CHECK-NEXT:   %35 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<-10000.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %37 = "onnx.Where"(%27, %35, %36) : (tensor<2x1x1x5xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x1x5xf32>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %39 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %40 = "onnx.Where"(%34, %38, %39) : (tensor<3x5xi1>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>
// CHECK-NEXT:   %41 = "onnx.Add"(%37, %40) : (tensor<2x1x1x5xf32>, tensor<3x5xf32>) -> tensor<2x1x3x5xf32>
// CHECK-NEXT:   %42 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %43 = "onnx.Mul"(%8, %42) : (tensor<2x2x3x4xf32>, tensor<f32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %44 = "onnx.Mul"(%19, %42) : (tensor<2x2x5x4xf32>, tensor<f32>) -> tensor<2x2x5x4xf32>
// CHECK-NEXT:   %45 = "onnx.Transpose"(%44) {perm = [0, 1, 3, 2]} : (tensor<2x2x5x4xf32>) -> tensor<2x2x4x5xf32>
// CHECK-NEXT:   %46 = "onnx.MatMul"(%43, %45) : (tensor<2x2x3x4xf32>, tensor<2x2x4x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK-NEXT:   %47 = "onnx.Add"(%46, %41) : (tensor<2x2x3x5xf32>, tensor<2x1x3x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK-NEXT:   %48 = "onnx.Softmax"(%47) {axis = -1} : (tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK-NEXT:   %49 = "onnx.ReduceMax"(%41) {keepdims = 1, axes = [-1]} : (tensor<2x1x3x5xf32>) -> tensor<2x1x3x1xf32>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %51 = "onnx.Equal"(%49, %50) : (tensor<2x1x3x1xf32>, tensor<f32>) -> tensor<2x1x3x1xi1>
// CHECK-NEXT:   %52 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %53 = "onnx.Where"(%51, %52, %48) : (tensor<2x1x3x1xi1>, tensor<f32>, tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK-NEXT:   %54 = "onnx.MatMul"(%53, %20) : (tensor<2x2x3x5xf32>, tensor<2x2x5x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %55 = "onnx.Transpose"(%54) {perm = [0, 2, 1, 3]} : (tensor<2x2x3x4xf32>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT:   %56 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%55, %56) : (tensor<2x3x2x4xf32>, tensor<3xi64>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %57 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %58 = "onnx.Unsqueeze"(%19, %57) : (tensor<2x2x5x4xf32>, tensor<1xi64>) -> tensor<1x2x2x5x4xf32>
// CHECK-NEXT:   %59 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %60 = "onnx.Unsqueeze"(%20, %59) : (tensor<2x2x5x4xf32>, tensor<1xi64>) -> tensor<1x2x2x5x4xf32>
// CHECK-NEXT:   %present = "onnx.Concat"(%58, %60) {axis = 0} : (tensor<1x2x2x5x4xf32>, tensor<1x2x2x5x4xf32>) -> tensor<2x2x2x5x4xf32>
// CHECK-NEXT:   onnx.return %y, %present
// CHECK-NEXT: }
