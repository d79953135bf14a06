// RUN: decompose,verify
// DFT, STFT and MelWeightMatrix as matrix products (decompose/spectral.rs):
// a forward real DFT along axis 1, an inverse one-sided one (irfft), an
// STFT with a window and a run-time step, a MelWeightMatrix of run-time
// scalars; a DFT-20 whose axis is a run-time value and a DFT of unknown
// length stay (the lowering checks and computes them).
onnx.model {ir_version = 10, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<1x4x1xf32>, %c: tensor<1x3x2xf32>, %axis: tensor<i64>, %s: tensor<1x8x1xf32>, %step: tensor<i64>, %win: tensor<4xf32>, %mels: tensor<i32>, %len: tensor<i32>, %rate: tensor<i32>, %lo: tensor<f32>, %hi: tensor<f32>, %u: tensor<1x"N"x1xf32>) -> ("y": tensor<1x4x2xf32>, "r": tensor<1x4x1xf32>, "a": tensor<1x4x2xf32>, "st": tensor<1x3x3x2xf32>, "m": tensor<3x2xf32>, "z": tensor<1x"N"x2xf32>) {
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %y = "onnx.DFT"(%x, none, %one) : (tensor<1x4x1xf32>, none, tensor<i64>) -> tensor<1x4x2xf32>
  %r = "onnx.DFT"(%c, none, %one) {inverse = 1, onesided = 1} : (tensor<1x3x2xf32>, none, tensor<i64>) -> tensor<1x4x1xf32>
  %a = "onnx.DFT"(%x, none, %axis) : (tensor<1x4x1xf32>, none, tensor<i64>) -> tensor<1x4x2xf32>
  %st = "onnx.STFT"(%s, %step, %win) : (tensor<1x8x1xf32>, tensor<i64>, tensor<4xf32>) -> tensor<1x3x3x2xf32>
  %m = "onnx.MelWeightMatrix"(%mels, %len, %rate, %lo, %hi) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<3x2xf32>
  %z = "onnx.DFT"(%u, none, %one) : (tensor<1x"N"x1xf32>, none, tensor<i64>) -> tensor<1x"N"x2xf32>
  onnx.return %y, %r, %a, %st, %m, %z
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 20}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x4x1xf32>, %c: tensor<1x3x2xf32>, %axis: tensor<i64>, %s: tensor<1x8x1xf32>, %step: tensor<i64>, %win: tensor<4xf32>, %mels: tensor<i32>, %len: tensor<i32>, %rate: tensor<i32>, %lo: tensor<f32>, %hi: tensor<f32>, %u: tensor<1x"N"x1xf32>) -> ("y": tensor<1x4x2xf32>, "r": tensor<1x4x1xf32>, "a": tensor<1x4x2xf32>, "st": tensor<1x3x3x2xf32>, "m": tensor<3x2xf32>, "z": tensor<1x"N"x2xf32>) {
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %0 = "onnx.Transpose"(%x) {perm = [0, 1, 2]} : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %2 = "onnx.Reshape"(%0, %1) : (tensor<1x4x1xf32>, tensor<2xi64>) -> tensor<1x4xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[[1.0, -0.0, 1.0, -0.0, 1.0, -0.0, 1.0, -0.0], [1.0, -0.0, 6.123234e-17, -1.0, -1.0, -1.2246469e-16, -1.8369701e-16, 1.0], [1.0, -0.0, -1.0, -1.2246469e-16, 1.0, -0.0, -1.0, -1.2246469e-16], [1.0, -0.0, -1.8369701e-16, 1.0, -1.0, -1.2246469e-16, 6.123234e-17, -1.0]]> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
// CHECK-NEXT:   %4 = "onnx.MatMul"(%2, %3) : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[1, 4, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %6 = "onnx.Reshape"(%4, %5) : (tensor<1x8xf32>, tensor<3xi64>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %y = "onnx.Transpose"(%6) {perm = [0, 1, 2]} : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %7 = "onnx.Transpose"(%c) {perm = [0, 1, 2]} : (tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[1, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %9 = "onnx.Reshape"(%7, %8) : (tensor<1x3x2xf32>, tensor<2xi64>) -> tensor<1x6xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[[0.25, 0.25, 0.25, 0.25], [-0.0, -0.0, -0.0, -0.0], [0.5, 3.061617e-17, -0.5, -9.184851e-17], [-0.0, -0.5, -6.123234e-17, 0.5], [0.25, -0.25, 0.25, -0.25], [-0.0, -3.061617e-17, -0.0, -3.061617e-17]]> : tensor<6x4xf32>} : () -> tensor<6x4xf32>
// CHECK-NEXT:   %11 = "onnx.MatMul"(%9, %10) : (tensor<1x6xf32>, tensor<6x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[1, 4, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %13 = "onnx.Reshape"(%11, %12) : (tensor<1x4xf32>, tensor<3xi64>) -> tensor<1x4x1xf32>
// CHECK-NEXT:   %r = "onnx.Transpose"(%13) {perm = [0, 1, 2]} : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
// CHECK-NEXT:   %a = "onnx.DFT"(%x, none, %axis) : (tensor<1x4x1xf32>, none, tensor<i64>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[[0], [1], [2]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
// CHECK-NEXT:   %15 = "onnx.Mul"(%14, %step) : (tensor<3x1xi64>, tensor<i64>) -> tensor<3x1xi64>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : () -> tensor<1x4xi64>
// CHECK-NEXT:   %17 = "onnx.Add"(%15, %16) : (tensor<3x1xi64>, tensor<1x4xi64>) -> tensor<3x4xi64>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<7> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %19 = "onnx.Min"(%17, %18) : (tensor<3x4xi64>, tensor<i64>) -> tensor<3x4xi64>
// CHECK-NEXT:   %20 = "onnx.Gather"(%s, %19) {axis = 1} : (tensor<1x8x1xf32>, tensor<3x4xi64>) -> tensor<1x3x4x1xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[4, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %22 = "onnx.Reshape"(%win, %21) : (tensor<4xf32>, tensor<2xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:   %23 = "onnx.Mul"(%20, %22) : (tensor<1x3x4x1xf32>, tensor<4x1xf32>) -> tensor<1x3x4x1xf32>
// CHECK-NEXT:   %24 = "onnx.Transpose"(%23) {perm = [0, 1, 2, 3]} : (tensor<1x3x4x1xf32>) -> tensor<1x3x4x1xf32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[1, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %26 = "onnx.Reshape"(%24, %25) : (tensor<1x3x4x1xf32>, tensor<3xi64>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<[[1.0, -0.0, 1.0, -0.0, 1.0, -0.0], [1.0, -0.0, 6.123234e-17, -1.0, -1.0, -1.2246469e-16], [1.0, -0.0, -1.0, -1.2246469e-16, 1.0, -0.0], [1.0, -0.0, -1.8369701e-16, 1.0, -1.0, -1.2246469e-16]]> : tensor<4x6xf32>} : () -> tensor<4x6xf32>
// CHECK-NEXT:   %28 = "onnx.MatMul"(%26, %27) : (tensor<1x3x4xf32>, tensor<4x6xf32>) -> tensor<1x3x6xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[1, 3, 3, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %30 = "onnx.Reshape"(%28, %29) : (tensor<1x3x6xf32>, tensor<4xi64>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:   %st = "onnx.Transpose"(%30) {perm = [0, 1, 2, 3]} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:   %31 = "onnx.Cast"(%len) {to = 11} : (tensor<i32>) -> tensor<f64>
// CHECK-NEXT:   %32 = "onnx.Cast"(%rate) {to = 11} : (tensor<i32>) -> tensor<f64>
// CHECK-NEXT:   %33 = "onnx.Cast"(%lo) {to = 11} : (tensor<f32>) -> tensor<f64>
// CHECK-NEXT:   %34 = "onnx.Cast"(%hi) {to = 11} : (tensor<f32>) -> tensor<f64>
// CHECK-NEXT:   %35 = "onnx.Constant"() {value = dense<700.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<2595.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<1.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<2.302585092994046> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %39 = "onnx.Div"(%33, %35) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %40 = "onnx.Add"(%39, %37) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %41 = "onnx.Log"(%40) : (tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %42 = "onnx.Div"(%41, %38) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %43 = "onnx.Mul"(%42, %36) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %44 = "onnx.Div"(%34, %35) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %45 = "onnx.Add"(%44, %37) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %46 = "onnx.Log"(%45) : (tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %47 = "onnx.Div"(%46, %38) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %48 = "onnx.Mul"(%47, %36) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %49 = "onnx.Sub"(%48, %43) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<4.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %51 = "onnx.Div"(%49, %50) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %52 = "onnx.Constant"() {value = dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf64>} : () -> tensor<4xf64>
// CHECK-NEXT:   %53 = "onnx.Mul"(%52, %51) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %54 = "onnx.Add"(%53, %43) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %55 = "onnx.Div"(%54, %36) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %56 = "onnx.Mul"(%55, %38) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %57 = "onnx.Exp"(%56) : (tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:   %58 = "onnx.Sub"(%57, %37) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %59 = "onnx.Mul"(%58, %35) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %60 = "onnx.Add"(%31, %37) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %61 = "onnx.Mul"(%59, %60) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %62 = "onnx.Div"(%61, %32) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %63 = "onnx.Floor"(%62) : (tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:   %64 = "onnx.Constant"() {value = dense<[[0, 1]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %65 = "onnx.Gather"(%63, %64) {axis = 0} : (tensor<4xf64>, tensor<1x2xi64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %66 = "onnx.Constant"() {value = dense<[[1, 2]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %67 = "onnx.Gather"(%63, %66) {axis = 0} : (tensor<4xf64>, tensor<1x2xi64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %68 = "onnx.Constant"() {value = dense<[[2, 3]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %69 = "onnx.Gather"(%63, %68) {axis = 0} : (tensor<4xf64>, tensor<1x2xi64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %70 = "onnx.Constant"() {value = dense<[[0.0], [1.0], [2.0]]> : tensor<3x1xf64>} : () -> tensor<3x1xf64>
// CHECK-NEXT:   %71 = "onnx.Constant"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %72 = "onnx.Sub"(%67, %65) : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %73 = "onnx.Equal"(%72, %71) : (tensor<1x2xf64>, tensor<f64>) -> tensor<1x2xi1>
// CHECK-NEXT:   %74 = "onnx.Where"(%73, %37, %72) : (tensor<1x2xi1>, tensor<f64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %75 = "onnx.Sub"(%70, %65) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %76 = "onnx.Div"(%75, %74) : (tensor<3x2xf64>, tensor<1x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %77 = "onnx.Where"(%73, %37, %76) : (tensor<1x2xi1>, tensor<f64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %78 = "onnx.GreaterOrEqual"(%70, %65) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %79 = "onnx.LessOrEqual"(%70, %67) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %80 = "onnx.And"(%78, %79) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
// CHECK-NEXT:   %81 = "onnx.Where"(%80, %77, %71) : (tensor<3x2xi1>, tensor<3x2xf64>, tensor<f64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %82 = "onnx.Sub"(%69, %67) : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %83 = "onnx.LessOrEqual"(%82, %71) : (tensor<1x2xf64>, tensor<f64>) -> tensor<1x2xi1>
// CHECK-NEXT:   %84 = "onnx.Where"(%83, %37, %82) : (tensor<1x2xi1>, tensor<f64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %85 = "onnx.Sub"(%69, %70) : (tensor<1x2xf64>, tensor<3x1xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %86 = "onnx.Div"(%85, %84) : (tensor<3x2xf64>, tensor<1x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %87 = "onnx.GreaterOrEqual"(%70, %67) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %88 = "onnx.Less"(%70, %69) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %89 = "onnx.And"(%87, %88) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
// CHECK-NEXT:   %90 = "onnx.Where"(%89, %86, %81) : (tensor<3x2xi1>, tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %m = "onnx.Cast"(%90) {to = 1} : (tensor<3x2xf64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %z = "onnx.DFT"(%u, none, %one) : (tensor<1x"N"x1xf32>, none, tensor<i64>) -> tensor<1x"N"x2xf32>
// CHECK-NEXT:   onnx.return %y, %r, %a, %st, %m, %z
// CHECK-NEXT: }
