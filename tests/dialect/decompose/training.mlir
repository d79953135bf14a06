// RUN: decompose,verify
// The training optimizers, elementwise (decompose/training.rs): Adagrad,
// Momentum (nesterov) and Adam on groups of two tensors, in a model that
// imports no ai.onnx opset (the pass adds opset 21).
onnx.model {ir_version = 10, opset_imports = {"ai.onnx.preview.training" = 1}}
onnx.graph "g"(%r: tensor<f32>, %t: tensor<i64>, %x1: tensor<1xf32>, %x2: tensor<2xf32>) -> ("a1": tensor<1xf32>, "a2": tensor<2xf32>, "ah1": tensor<1xf32>, "ah2": tensor<2xf32>, "m1": tensor<1xf32>, "mv1": tensor<1xf32>, "d1": tensor<1xf32>, "dv1": tensor<1xf32>, "dh1": tensor<1xf32>) {
  %a1, %a2, %ah1, %ah2 = "onnx_training.Adagrad"(%r, %t, %x1, %x2, %x1, %x2, %x1, %x2) {decay_factor = 0.1, norm_coefficient = 0.001} : (tensor<f32>, tensor<i64>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>)
  %m1, %mv1 = "onnx_training.Momentum"(%r, %t, %x1, %x1, %x1) {alpha = 0.9, beta = 1.0, mode = "nesterov", norm_coefficient = 0.01} : (tensor<f32>, tensor<i64>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  %d1, %dv1, %dh1 = "onnx_training.Adam"(%r, %t, %x1, %x1, %x1, %x1) {norm_coefficient_post = 0.1} : (tensor<f32>, tensor<i64>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>)
  onnx.return %a1, %a2, %ah1, %ah2, %m1, %mv1, %d1, %dv1, %dh1
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"ai.onnx.preview.training" = 1, "" = 21}}
// CHECK-NEXT: onnx.graph "g"(%r: tensor<f32>, %t: tensor<i64>, %x1: tensor<1xf32>, %x2: tensor<2xf32>) -> ("a1": tensor<1xf32>, "a2": tensor<2xf32>, "ah1": tensor<1xf32>, "ah2": tensor<2xf32>, "m1": tensor<1xf32>, "mv1": tensor<1xf32>, "d1": tensor<1xf32>, "dv1": tensor<1xf32>, "dh1": tensor<1xf32>) {
// CHECK-NEXT:   %0 = "onnx.Cast"(%t) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %3 = "onnx.Mul"(%0, %1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %4 = "onnx.Add"(%2, %3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %5 = "onnx.Div"(%r, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<0.001> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %7 = "onnx.Mul"(%6, %x1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %8 = "onnx.Add"(%7, %x1) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %9 = "onnx.Mul"(%8, %8) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %ah1 = "onnx.Add"(%x1, %9) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %10 = "onnx.Sqrt"(%ah1) : (tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<1e-6> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %12 = "onnx.Add"(%10, %11) : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:   %13 = "onnx.Div"(%8, %12) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %14 = "onnx.Mul"(%5, %13) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %a1 = "onnx.Sub"(%x1, %14) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0.001> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %16 = "onnx.Mul"(%15, %x2) : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %17 = "onnx.Add"(%16, %x2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %18 = "onnx.Mul"(%17, %17) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %ah2 = "onnx.Add"(%x2, %18) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %19 = "onnx.Sqrt"(%ah2) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<1e-6> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %21 = "onnx.Add"(%19, %20) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:   %22 = "onnx.Div"(%17, %21) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %23 = "onnx.Mul"(%5, %22) : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %a2 = "onnx.Sub"(%x2, %23) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %24 = "onnx.Cast"(%t) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %26 = "onnx.Greater"(%24, %25) : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %29 = "onnx.Where"(%26, %27, %28) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<0.9> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %32 = "onnx.Mul"(%31, %x1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %33 = "onnx.Add"(%32, %x1) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %34 = "onnx.Mul"(%30, %x1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %35 = "onnx.Mul"(%29, %33) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %mv1 = "onnx.Add"(%34, %35) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %36 = "onnx.Mul"(%30, %mv1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %37 = "onnx.Add"(%33, %36) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %38 = "onnx.Mul"(%r, %37) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %m1 = "onnx.Sub"(%x1, %38) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %39 = "onnx.Cast"(%t) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %40 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %41 = "onnx.Constant"() {value = dense<0.999> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %42 = "onnx.Pow"(%41, %39) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %43 = "onnx.Sub"(%40, %42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %44 = "onnx.Constant"() {value = dense<0.9> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %45 = "onnx.Pow"(%44, %39) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %46 = "onnx.Sub"(%40, %45) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %47 = "onnx.Sqrt"(%43) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %48 = "onnx.Mul"(%r, %47) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %49 = "onnx.Div"(%48, %46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %51 = "onnx.Greater"(%39, %50) : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   %52 = "onnx.Where"(%51, %49, %r) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %53 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %54 = "onnx.Mul"(%53, %x1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %55 = "onnx.Add"(%54, %x1) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %56 = "onnx.Constant"() {value = dense<0.9> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %57 = "onnx.Constant"() {value = dense<0.100000024> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %58 = "onnx.Mul"(%56, %x1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %59 = "onnx.Mul"(%57, %55) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %dv1 = "onnx.Add"(%58, %59) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %60 = "onnx.Mul"(%55, %55) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %61 = "onnx.Constant"() {value = dense<0.999> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %62 = "onnx.Constant"() {value = dense<0.0009999871> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %63 = "onnx.Mul"(%61, %x1) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %64 = "onnx.Mul"(%62, %60) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %dh1 = "onnx.Add"(%63, %64) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %65 = "onnx.Sqrt"(%dh1) : (tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %66 = "onnx.Constant"() {value = dense<1e-6> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %67 = "onnx.Add"(%65, %66) : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:   %68 = "onnx.Div"(%dv1, %67) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %69 = "onnx.Mul"(%52, %68) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %70 = "onnx.Sub"(%x1, %69) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %71 = "onnx.Constant"() {value = dense<0.9> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %d1 = "onnx.Mul"(%71, %70) : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   onnx.return %a1, %a2, %ah1, %ah2, %m1, %mv1, %d1, %dv1, %dh1
// CHECK-NEXT: }
