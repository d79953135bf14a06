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
// CHECK-NEXT:   %elu = "onnx.Elu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %selu = "onnx.Selu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %11 = "onnx.Greater"(%x, %9) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %thresholded = "onnx.Where"(%11, %x, %10) : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<-0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %16 = "onnx.Less"(%x, %13) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %17 = "onnx.Greater"(%x, %14) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT:   %18 = "onnx.Add"(%x, %12) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %19 = "onnx.Sub"(%x, %12) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %20 = "onnx.Where"(%17, %19, %15) : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %shrink = "onnx.Where"(%16, %18, %20) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %21 = "onnx.Softplus"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %22 = "onnx.Tanh"(%21) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %mish = "onnx.Mul"(%x, %22) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %24 = "onnx.Mul"(%23, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %25 = "onnx.Sigmoid"(%24) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %26 = "onnx.Mul"(%x, %25) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %swiglu = "onnx.Mul"(%26, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   onnx.return %celu, %elu, %selu, %thresholded, %shrink, %mish, %swiglu
// CHECK-NEXT: }
