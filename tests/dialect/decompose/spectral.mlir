// RUN: decompose,verify
// DFT, STFT and MelWeightMatrix as matrix products (decompose/spectral.rs):
// a forward real DFT along axis 1, an inverse one-sided one (irfft), a
// DFT-20 whose axis is a run-time value (every axis giving the declared
// shape, picked by Where), an STFT with a window and a run-time step, a
// MelWeightMatrix of run-time scalars; a DFT of unknown length stays.
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
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %15 = "onnx.Add"(%axis, %14) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %16 = "onnx.Mod"(%15, %14) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %17 = "onnx.Transpose"(%x) {perm = [1, 0, 2]} : (tensor<1x4x1xf32>) -> tensor<4x1x1xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[4, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %19 = "onnx.Reshape"(%17, %18) : (tensor<4x1x1xf32>, tensor<2xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[[1.0, -0.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %21 = "onnx.MatMul"(%19, %20) : (tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[4, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %23 = "onnx.Reshape"(%21, %22) : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<4x1x2xf32>
// CHECK-NEXT:   %24 = "onnx.Transpose"(%23) {perm = [1, 0, 2]} : (tensor<4x1x2xf32>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %25 = "onnx.Transpose"(%x) {perm = [0, 1, 2]} : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %27 = "onnx.Reshape"(%25, %26) : (tensor<1x4x1xf32>, tensor<2xi64>) -> tensor<1x4xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[[1.0, -0.0, 1.0, -0.0, 1.0, -0.0, 1.0, -0.0], [1.0, -0.0, 6.123234e-17, -1.0, -1.0, -1.2246469e-16, -1.8369701e-16, 1.0], [1.0, -0.0, -1.0, -1.2246469e-16, 1.0, -0.0, -1.0, -1.2246469e-16], [1.0, -0.0, -1.8369701e-16, 1.0, -1.0, -1.2246469e-16, 6.123234e-17, -1.0]]> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
// CHECK-NEXT:   %29 = "onnx.MatMul"(%27, %28) : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<[1, 4, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %31 = "onnx.Reshape"(%29, %30) : (tensor<1x8xf32>, tensor<3xi64>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %32 = "onnx.Transpose"(%31) {perm = [0, 1, 2]} : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %34 = "onnx.Equal"(%16, %33) : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:   %a = "onnx.Where"(%34, %32, %24) : (tensor<i1>, tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
// CHECK-NEXT:   %35 = "onnx.Constant"() {value = dense<[[0], [1], [2]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
// CHECK-NEXT:   %36 = "onnx.Mul"(%35, %step) : (tensor<3x1xi64>, tensor<i64>) -> tensor<3x1xi64>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : () -> tensor<1x4xi64>
// CHECK-NEXT:   %38 = "onnx.Add"(%36, %37) : (tensor<3x1xi64>, tensor<1x4xi64>) -> tensor<3x4xi64>
// CHECK-NEXT:   %39 = "onnx.Constant"() {value = dense<7> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %40 = "onnx.Min"(%38, %39) : (tensor<3x4xi64>, tensor<i64>) -> tensor<3x4xi64>
// CHECK-NEXT:   %41 = "onnx.Gather"(%s, %40) {axis = 1} : (tensor<1x8x1xf32>, tensor<3x4xi64>) -> tensor<1x3x4x1xf32>
// CHECK-NEXT:   %42 = "onnx.Constant"() {value = dense<[4, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %43 = "onnx.Reshape"(%win, %42) : (tensor<4xf32>, tensor<2xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:   %44 = "onnx.Mul"(%41, %43) : (tensor<1x3x4x1xf32>, tensor<4x1xf32>) -> tensor<1x3x4x1xf32>
// CHECK-NEXT:   %45 = "onnx.Transpose"(%44) {perm = [0, 1, 2, 3]} : (tensor<1x3x4x1xf32>) -> tensor<1x3x4x1xf32>
// CHECK-NEXT:   %46 = "onnx.Constant"() {value = dense<[1, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %47 = "onnx.Reshape"(%45, %46) : (tensor<1x3x4x1xf32>, tensor<3xi64>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %48 = "onnx.Constant"() {value = dense<[[1.0, -0.0, 1.0, -0.0, 1.0, -0.0], [1.0, -0.0, 6.123234e-17, -1.0, -1.0, -1.2246469e-16], [1.0, -0.0, -1.0, -1.2246469e-16, 1.0, -0.0], [1.0, -0.0, -1.8369701e-16, 1.0, -1.0, -1.2246469e-16]]> : tensor<4x6xf32>} : () -> tensor<4x6xf32>
// CHECK-NEXT:   %49 = "onnx.MatMul"(%47, %48) : (tensor<1x3x4xf32>, tensor<4x6xf32>) -> tensor<1x3x6xf32>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<[1, 3, 3, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %51 = "onnx.Reshape"(%49, %50) : (tensor<1x3x6xf32>, tensor<4xi64>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:   %st = "onnx.Transpose"(%51) {perm = [0, 1, 2, 3]} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:   %52 = "onnx.Cast"(%len) {to = 11} : (tensor<i32>) -> tensor<f64>
// CHECK-NEXT:   %53 = "onnx.Cast"(%rate) {to = 11} : (tensor<i32>) -> tensor<f64>
// CHECK-NEXT:   %54 = "onnx.Cast"(%lo) {to = 11} : (tensor<f32>) -> tensor<f64>
// CHECK-NEXT:   %55 = "onnx.Cast"(%hi) {to = 11} : (tensor<f32>) -> tensor<f64>
// CHECK-NEXT:   %56 = "onnx.Constant"() {value = dense<700.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %57 = "onnx.Constant"() {value = dense<2595.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %58 = "onnx.Constant"() {value = dense<1.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %59 = "onnx.Constant"() {value = dense<2.302585092994046> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %60 = "onnx.Div"(%54, %56) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %61 = "onnx.Add"(%60, %58) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %62 = "onnx.Log"(%61) : (tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %63 = "onnx.Div"(%62, %59) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %64 = "onnx.Mul"(%63, %57) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %65 = "onnx.Div"(%55, %56) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %66 = "onnx.Add"(%65, %58) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %67 = "onnx.Log"(%66) : (tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %68 = "onnx.Div"(%67, %59) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %69 = "onnx.Mul"(%68, %57) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %70 = "onnx.Sub"(%69, %64) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %71 = "onnx.Constant"() {value = dense<4.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %72 = "onnx.Div"(%70, %71) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %73 = "onnx.Constant"() {value = dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf64>} : () -> tensor<4xf64>
// CHECK-NEXT:   %74 = "onnx.Mul"(%73, %72) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %75 = "onnx.Add"(%74, %64) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %76 = "onnx.Div"(%75, %57) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %77 = "onnx.Mul"(%76, %59) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %78 = "onnx.Exp"(%77) : (tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:   %79 = "onnx.Sub"(%78, %58) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %80 = "onnx.Mul"(%79, %56) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %81 = "onnx.Add"(%52, %58) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT:   %82 = "onnx.Mul"(%80, %81) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %83 = "onnx.Div"(%82, %53) : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
// CHECK-NEXT:   %84 = "onnx.Floor"(%83) : (tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:   %85 = "onnx.Constant"() {value = dense<[[0, 1]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %86 = "onnx.Gather"(%84, %85) {axis = 0} : (tensor<4xf64>, tensor<1x2xi64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %87 = "onnx.Constant"() {value = dense<[[1, 2]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %88 = "onnx.Gather"(%84, %87) {axis = 0} : (tensor<4xf64>, tensor<1x2xi64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %89 = "onnx.Constant"() {value = dense<[[2, 3]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %90 = "onnx.Gather"(%84, %89) {axis = 0} : (tensor<4xf64>, tensor<1x2xi64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %91 = "onnx.Constant"() {value = dense<[[0.0], [1.0], [2.0]]> : tensor<3x1xf64>} : () -> tensor<3x1xf64>
// CHECK-NEXT:   %92 = "onnx.Constant"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %93 = "onnx.Sub"(%88, %86) : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %94 = "onnx.Equal"(%93, %92) : (tensor<1x2xf64>, tensor<f64>) -> tensor<1x2xi1>
// CHECK-NEXT:   %95 = "onnx.Where"(%94, %58, %93) : (tensor<1x2xi1>, tensor<f64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %96 = "onnx.Sub"(%91, %86) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %97 = "onnx.Div"(%96, %95) : (tensor<3x2xf64>, tensor<1x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %98 = "onnx.Where"(%94, %58, %97) : (tensor<1x2xi1>, tensor<f64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %99 = "onnx.GreaterOrEqual"(%91, %86) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %100 = "onnx.LessOrEqual"(%91, %88) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %101 = "onnx.And"(%99, %100) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
// CHECK-NEXT:   %102 = "onnx.Where"(%101, %98, %92) : (tensor<3x2xi1>, tensor<3x2xf64>, tensor<f64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %103 = "onnx.Sub"(%90, %88) : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %104 = "onnx.LessOrEqual"(%103, %92) : (tensor<1x2xf64>, tensor<f64>) -> tensor<1x2xi1>
// CHECK-NEXT:   %105 = "onnx.Where"(%104, %58, %103) : (tensor<1x2xi1>, tensor<f64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:   %106 = "onnx.Sub"(%90, %91) : (tensor<1x2xf64>, tensor<3x1xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %107 = "onnx.Div"(%106, %105) : (tensor<3x2xf64>, tensor<1x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %108 = "onnx.GreaterOrEqual"(%91, %88) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %109 = "onnx.Less"(%91, %90) : (tensor<3x1xf64>, tensor<1x2xf64>) -> tensor<3x2xi1>
// CHECK-NEXT:   %110 = "onnx.And"(%108, %109) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
// CHECK-NEXT:   %111 = "onnx.Where"(%110, %107, %102) : (tensor<3x2xi1>, tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT:   %m = "onnx.Cast"(%111) {to = 1} : (tensor<3x2xf64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %z = "onnx.DFT"(%u, none, %one) : (tensor<1x"N"x1xf32>, none, tensor<i64>) -> tensor<1x"N"x2xf32>
// CHECK-NEXT:   onnx.return %y, %r, %a, %st, %m, %z
// CHECK-NEXT: }
