// RUN: decompose,verify
// Det by Gaussian elimination with partial pivoting, unrolled over the
// columns of a static order (decompose/det.rs): a batch of 2x2 matrices;
// an unknown order stays.
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<3x2x2xf32>, %u: tensor<"N"x"N"xf32>) -> ("y": tensor<3xf32>, "z": tensor<f32>) {
  %y = "onnx.Det"(%x) : (tensor<3x2x2xf32>) -> tensor<3xf32>
  %z = "onnx.Det"(%u) : (tensor<"N"x"N"xf32>) -> tensor<f32>
  onnx.return %y, %z
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<3x2x2xf32>, %u: tensor<"N"x"N"xf32>) -> ("y": tensor<3xf32>, "z": tensor<f32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Gather"(%x, %4) {axis = -1} : (tensor<3x2x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %6 = "onnx.Abs"(%5) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %7 = "onnx.GreaterOrEqual"(%0, %4) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// CHECK-NEXT:   %8 = "onnx.Where"(%7, %6, %3) : (tensor<2xi1>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %9 = "onnx.ArgMax"(%8) {axis = -1, keepdims = 1} : (tensor<3x2xf32>) -> tensor<3x1xi64>
// CHECK-NEXT:   %10 = "onnx.Equal"(%0, %9) : (tensor<2xi64>, tensor<3x1xi64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%10, %11) : (tensor<3x2xi1>, tensor<1xi64>) -> tensor<3x2x1xi1>
// CHECK-NEXT:   %13 = "onnx.Equal"(%0, %4) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %15 = "onnx.Unsqueeze"(%13, %14) : (tensor<2xi1>, tensor<1xi64>) -> tensor<2x1xi1>
// CHECK-NEXT:   %16 = "onnx.Gather"(%x, %4) {axis = -2} : (tensor<3x2x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %18 = "onnx.Unsqueeze"(%16, %17) : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %19 = "onnx.Cast"(%10) {to = 1} : (tensor<3x2xi1>) -> tensor<3x2xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %21 = "onnx.Unsqueeze"(%19, %20) : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %22 = "onnx.MatMul"(%21, %x) : (tensor<3x1x2xf32>, tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %23 = "onnx.Where"(%12, %18, %x) : (tensor<3x2x1xi1>, tensor<3x1x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:   %24 = "onnx.Where"(%15, %22, %23) : (tensor<2x1xi1>, tensor<3x1x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:   %25 = "onnx.Equal"(%9, %4) : (tensor<3x1xi64>, tensor<i64>) -> tensor<3x1xi1>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %27 = "onnx.Squeeze"(%25, %26) : (tensor<3x1xi1>, tensor<1xi64>) -> tensor<3xi1>
// CHECK-NEXT:   %28 = "onnx.Where"(%27, %1, %3) : (tensor<3xi1>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:   %29 = "onnx.Gather"(%24, %4) {axis = -2} : (tensor<3x2x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %31 = "onnx.Unsqueeze"(%29, %30) : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %32 = "onnx.Gather"(%31, %4) {axis = -1} : (tensor<3x1x2xf32>, tensor<i64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %34 = "onnx.Squeeze"(%32, %33) : (tensor<3x1xf32>, tensor<1xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %35 = "onnx.Equal"(%34, %2) : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
// CHECK-NEXT:   %36 = "onnx.Where"(%35, %1, %34) : (tensor<3xi1>, tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %38 = "onnx.Unsqueeze"(%36, %37) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %39 = "onnx.Gather"(%24, %4) {axis = -1} : (tensor<3x2x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %40 = "onnx.Div"(%39, %38) : (tensor<3x2xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %41 = "onnx.Greater"(%0, %4) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// CHECK-NEXT:   %42 = "onnx.Where"(%41, %40, %2) : (tensor<2xi1>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %43 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %44 = "onnx.Unsqueeze"(%42, %43) : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<3x2x1xf32>
// CHECK-NEXT:   %45 = "onnx.Mul"(%44, %31) : (tensor<3x2x1xf32>, tensor<3x1x2xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:   %46 = "onnx.Sub"(%24, %45) : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:   %47 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %48 = "onnx.Gather"(%46, %47) {axis = -1} : (tensor<3x2x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %49 = "onnx.Abs"(%48) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %50 = "onnx.GreaterOrEqual"(%0, %47) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
// CHECK-NEXT:   %51 = "onnx.Where"(%50, %49, %3) : (tensor<2xi1>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %52 = "onnx.ArgMax"(%51) {axis = -1, keepdims = 1} : (tensor<3x2xf32>) -> tensor<3x1xi64>
// CHECK-NEXT:   %53 = "onnx.Gather"(%46, %47) {axis = -2} : (tensor<3x2x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %54 = "onnx.Constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %55 = "onnx.Unsqueeze"(%53, %54) : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<3x1x2xf32>
// CHECK-NEXT:   %56 = "onnx.Gather"(%55, %47) {axis = -1} : (tensor<3x1x2xf32>, tensor<i64>) -> tensor<3x1xf32>
// CHECK-NEXT:   %57 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %58 = "onnx.Squeeze"(%56, %57) : (tensor<3x1xf32>, tensor<1xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %59 = "onnx.Mul"(%34, %58) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %y = "onnx.Mul"(%28, %59) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %z = "onnx.Det"(%u) : (tensor<"N"x"N"xf32>) -> tensor<f32>
// CHECK-NEXT:   onnx.return %y, %z
// CHECK-NEXT: }
