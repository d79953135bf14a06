// RUN: decompose,verify
// The activations without an elementwise formula of their own, in terms of
// Exp, Where, comparisons and the like; Softplus and Tanh for Mish,
// Sigmoid for SwiGLU.
onnx.model {ir_version = 10, opset_imports = {"" = 28}}
onnx.graph "g"(%x: tensor<4xf32>) -> ("celu": tensor<4xf32>, "elu": tensor<4xf32>, "selu": tensor<4xf32>, "thresholded": tensor<4xf32>, "shrink": tensor<4xf32>, "mish": tensor<4xf32>, "swiglu": tensor<4xf32>) {
  %celu = "onnx.Celu"(%x) {alpha = 2.0} : (tensor<4xf32>) -> tensor<4xf32>
  %elu = "onnx.Elu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %selu = "onnx.Selu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %thresholded = "onnx.ThresholdedRelu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %shrink = "onnx.Shrink"(%x) {bias = 1.5} : (tensor<4xf32>) -> tensor<4xf32>
  %mish = "onnx.Mish"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %swiglu = "onnx.SwiGLU"(%x, %x) {alpha = 1.5} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  onnx.return %celu, %elu, %selu, %thresholded, %shrink, %mish, %swiglu
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 28}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<4xf32>) -> ("celu": tensor<4xf32>, "elu": tensor<4xf32>, "selu": tensor<4xf32>, "thresholded": tensor<4xf32>, "shrink": tensor<4xf32>, "mish": tensor<4xf32>, "swiglu": tensor<4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %3 = "onnx.Div"(%x, %0) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %4 = "onnx.Exp"(%3) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %5 = "onnx.Sub"(%4, %2) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %6 = "onnx.Mul"(%0, %5) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %7 = "onnx.Min"(%1, %6) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %8 = "onnx.Max"(%1, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %celu = "onnx.Add"(%8, %7) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %12 = "onnx.Exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %13 = "onnx.Sub"(%12, %11) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %14 = "onnx.Mul"(%9, %13) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %15 = "onnx.Less"(%x, %10) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %elu = "onnx.Where"(%15, %14, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<1.6732632> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<1.050701> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %19 = "onnx.Exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %20 = "onnx.Mul"(%16, %19) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %21 = "onnx.Sub"(%20, %16) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %22 = "onnx.Greater"(%x, %18) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %23 = "onnx.Where"(%22, %x, %21) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %selu = "onnx.Mul"(%17, %23) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %26 = "onnx.Greater"(%x, %24) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %thresholded = "onnx.Where"(%26, %x, %25) : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<-0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %31 = "onnx.Less"(%x, %28) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %32 = "onnx.Greater"(%x, %29) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %33 = "onnx.Add"(%x, %27) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %34 = "onnx.Sub"(%x, %27) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %35 = "onnx.Where"(%32, %34, %30) : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %shrink = "onnx.Where"(%31, %33, %35) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %36 = "onnx.Softplus"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %37 = "onnx.Tanh"(%36) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %mish = "onnx.Mul"(%x, %37) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %39 = "onnx.Mul"(%38, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %40 = "onnx.Sigmoid"(%39) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %41 = "onnx.Mul"(%x, %40) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %swiglu = "onnx.Mul"(%41, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   onnx.return %celu, %elu, %selu, %thresholded, %shrink, %mish, %swiglu
// CHECK-NEXT: }
