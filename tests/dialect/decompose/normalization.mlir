// RUN: decompose,verify
// LpNormalization (ReduceL2, 0 where the norm is 0), MeanVarianceNormalization
// (moments over the default axes), GroupNormalization-21 (moments per group of
// a [N, G, -1] view, then per-channel scale and bias) and Hardmax-13 (ArgMax
// compared with an iota along the axis).
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<2x4x3x3xf32>, %scale: tensor<4xf32>, %bias: tensor<4xf32>) -> ("lp": tensor<2x4x3x3xf32>, "mvn": tensor<2x4x3x3xf32>, "group": tensor<2x4x3x3xf32>, "hard": tensor<2x4x3x3xf32>) {
  %lp = "onnx.LpNormalization"(%x) {axis = 1} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %mvn = "onnx.MeanVarianceNormalization"(%x) : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %group = "onnx.GroupNormalization"(%x, %scale, %bias) {num_groups = 2} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %hard = "onnx.Hardmax"(%x) {axis = 1} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  onnx.return %lp, %mvn, %group, %hard
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x4x3x3xf32>, %scale: tensor<4xf32>, %bias: tensor<4xf32>) -> ("lp": tensor<2x4x3x3xf32>, "mvn": tensor<2x4x3x3xf32>, "group": tensor<2x4x3x3xf32>, "hard": tensor<2x4x3x3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.ReduceL2"(%x, %0) {keepdims = 1} : (tensor<2x4x3x3xf32>, tensor<1xi64>) -> tensor<2x1x3x3xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %3 = "onnx.Equal"(%1, %2) : (tensor<2x1x3x3xf32>, tensor<f32>) -> tensor<2x1x3x3xi1>
// CHECK-NEXT:   %4 = "onnx.Div"(%x, %1) : (tensor<2x4x3x3xf32>, tensor<2x1x3x3xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %lp = "onnx.Where"(%3, %2, %4) : (tensor<2x1x3x3xi1>, tensor<f32>, tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[0, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %6 = "onnx.ReduceMean"(%x, %5) {keepdims = 1} : (tensor<2x4x3x3xf32>, tensor<3xi64>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT:   %7 = "onnx.Mul"(%6, %6) : (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT:   %8 = "onnx.Mul"(%x, %x) : (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[0, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %10 = "onnx.ReduceMean"(%8, %9) {keepdims = 1} : (tensor<2x4x3x3xf32>, tensor<3xi64>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT:   %11 = "onnx.Sub"(%10, %7) : (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT:   %12 = "onnx.Sqrt"(%11) : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<1e-9> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %14 = "onnx.Add"(%12, %13) : (tensor<1x4x1x1xf32>, tensor<f32>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT:   %15 = "onnx.Sub"(%x, %6) : (tensor<2x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %mvn = "onnx.Div"(%15, %14) : (tensor<2x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[0, 2, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %17 = "onnx.Reshape"(%x, %16) : (tensor<2x4x3x3xf32>, tensor<3xi64>) -> tensor<2x2x18xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.ReduceMean"(%17, %18) {keepdims = 1} : (tensor<2x2x18xf32>, tensor<1xi64>) -> tensor<2x2x1xf32>
// CHECK-NEXT:   %20 = "onnx.Sub"(%17, %19) : (tensor<2x2x18xf32>, tensor<2x2x1xf32>) -> tensor<2x2x18xf32>
// CHECK-NEXT:   %21 = "onnx.Mul"(%20, %20) : (tensor<2x2x18xf32>, tensor<2x2x18xf32>) -> tensor<2x2x18xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %23 = "onnx.ReduceMean"(%21, %22) {keepdims = 1} : (tensor<2x2x18xf32>, tensor<1xi64>) -> tensor<2x2x1xf32>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<1e-5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %25 = "onnx.Add"(%23, %24) : (tensor<2x2x1xf32>, tensor<f32>) -> tensor<2x2x1xf32>
// CHECK-NEXT:   %26 = "onnx.Sqrt"(%25) : (tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
// CHECK-NEXT:   %27 = "onnx.Div"(%20, %26) : (tensor<2x2x18xf32>, tensor<2x2x1xf32>) -> tensor<2x2x18xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[2, 4, 3, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %29 = "onnx.Reshape"(%27, %28) : (tensor<2x2x18xf32>, tensor<4xi64>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %31 = "onnx.Unsqueeze"(%scale, %30) : (tensor<4xf32>, tensor<2xi64>) -> tensor<4x1x1xf32>
// CHECK-NEXT:   %32 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %33 = "onnx.Unsqueeze"(%bias, %32) : (tensor<4xf32>, tensor<2xi64>) -> tensor<4x1x1xf32>
// CHECK-NEXT:   %34 = "onnx.Mul"(%29, %31) : (tensor<2x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %group = "onnx.Add"(%34, %33) : (tensor<2x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   %35 = "onnx.ArgMax"(%x) {axis = 1, keepdims = 1, select_last_index = 0} : (tensor<2x4x3x3xf32>) -> tensor<2x1x3x3xi64>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<[[[[0]], [[1]], [[2]], [[3]]]]> : tensor<1x4x1x1xi64>} : () -> tensor<1x4x1x1xi64>
// CHECK-NEXT:   %37 = "onnx.Equal"(%35, %36) : (tensor<2x1x3x3xi64>, tensor<1x4x1x1xi64>) -> tensor<2x4x3x3xi1>
// CHECK-NEXT:   %hard = "onnx.Cast"(%37) {to = 1} : (tensor<2x4x3x3xi1>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:   onnx.return %lp, %mvn, %group, %hard
// CHECK-NEXT: }
