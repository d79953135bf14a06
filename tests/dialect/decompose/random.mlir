// RUN: decompose,verify
// The random ops from a counter-based SplitMix64 hash of (seed, index)
// (decompose/random.rs): RandomUniformLike in [-1, 1), Bernoulli of a
// given dtype; RandomNormal is not expanded and stays.
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<2x2xf32>) -> ("u": tensor<2x2xf32>, "b": tensor<2x2xf64>, "n": tensor<3xf32>) {
  %u = "onnx.RandomUniformLike"(%x) {high = 1.0, low = -1.0, seed = 3.0} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = "onnx.Bernoulli"(%x) {dtype = 11} : (tensor<2x2xf32>) -> tensor<2x2xf64>
  %n = "onnx.RandomNormal"() {shape = [3]} : () -> tensor<3xf32>
  onnx.return %u, %b, %n
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x2xf32>) -> ("u": tensor<2x2xf32>, "b": tensor<2x2xf64>, "n": tensor<3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Size"(%x) : (tensor<2x2xf32>) -> tensor<i64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %3 = "onnx.Range"(%1, %0, %2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Cast"(%3) {to = 13} : (tensor<4xi64>) -> tensor<4xui64>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<11400714819323198485> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<6732024472757944893> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %7 = "onnx.Mul"(%4, %5) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %8 = "onnx.Add"(%7, %6) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<30> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %10 = "onnx.BitShift"(%8, %9) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %11 = "onnx.BitwiseXor"(%8, %10) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<13787848793156543929> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %13 = "onnx.Mul"(%11, %12) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<27> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %15 = "onnx.BitShift"(%13, %14) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %16 = "onnx.BitwiseXor"(%13, %15) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<10723151780598845931> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %18 = "onnx.Mul"(%16, %17) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<31> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %20 = "onnx.BitShift"(%18, %19) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %21 = "onnx.BitwiseXor"(%18, %20) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<40> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %23 = "onnx.BitShift"(%21, %22) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %24 = "onnx.Cast"(%23) {to = 1} : (tensor<4xui64>) -> tensor<4xf32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<5.9604645e-8> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %26 = "onnx.Mul"(%24, %25) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %27 = "onnx.Shape"(%x) : (tensor<2x2xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %28 = "onnx.Reshape"(%26, %27) : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x2xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %31 = "onnx.Mul"(%28, %29) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %u = "onnx.Add"(%31, %30) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %32 = "onnx.Size"(%x) : (tensor<2x2xf32>) -> tensor<i64>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %34 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %35 = "onnx.Range"(%33, %32, %34) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:   %36 = "onnx.Cast"(%35) {to = 13} : (tensor<4xi64>) -> tensor<4xui64>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<11400714819323198485> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<0> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %39 = "onnx.Mul"(%36, %37) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %40 = "onnx.Add"(%39, %38) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %41 = "onnx.Constant"() {value = dense<30> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %42 = "onnx.BitShift"(%40, %41) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %43 = "onnx.BitwiseXor"(%40, %42) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:   %44 = "onnx.Constant"() {value = dense<13787848793156543929> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %45 = "onnx.Mul"(%43, %44) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %46 = "onnx.Constant"() {value = dense<27> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %47 = "onnx.BitShift"(%45, %46) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %48 = "onnx.BitwiseXor"(%45, %47) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:   %49 = "onnx.Constant"() {value = dense<10723151780598845931> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %50 = "onnx.Mul"(%48, %49) : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %51 = "onnx.Constant"() {value = dense<31> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %52 = "onnx.BitShift"(%50, %51) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %53 = "onnx.BitwiseXor"(%50, %52) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:   %54 = "onnx.Constant"() {value = dense<40> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %55 = "onnx.BitShift"(%53, %54) {direction = "RIGHT"} : (tensor<4xui64>, tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:   %56 = "onnx.Cast"(%55) {to = 1} : (tensor<4xui64>) -> tensor<4xf32>
// CHECK-NEXT:   %57 = "onnx.Constant"() {value = dense<5.9604645e-8> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %58 = "onnx.Mul"(%56, %57) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:   %59 = "onnx.Shape"(%x) : (tensor<2x2xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %60 = "onnx.Reshape"(%58, %59) : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x2xf32>
// CHECK-NEXT:   %61 = "onnx.Less"(%60, %x) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
// CHECK-NEXT:   %b = "onnx.Cast"(%61) {to = 11} : (tensor<2x2xi1>) -> tensor<2x2xf64>
// CHECK-NEXT:   %n = "onnx.RandomNormal"() {shape = [3]} : () -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %u, %b, %n
// CHECK-NEXT: }
