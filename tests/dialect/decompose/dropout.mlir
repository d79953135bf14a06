// RUN: decompose,verify
// Dropout at inference is the identity with an all-true mask: Dropout-22
// without training_mode, and with a constant false one; Dropout-7's mask
// has the input's type. Training mode given at run time draws a random mask
// (decompose/random.rs) where it is true.
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<2x3xf32>, %train: tensor<i1>) -> ("y": tensor<2x3xf32>, "y2": tensor<2x3xf32>, "mask2": tensor<2x3xi1>, "y3": tensor<2x3xf32>, "mask3": tensor<2x3xi1>) {
  %y = "onnx.Dropout"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %false = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %y2, %mask2 = "onnx.Dropout"(%x, none, %false) : (tensor<2x3xf32>, none, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  %y3, %mask3 = "onnx.Dropout"(%x, none, %train) : (tensor<2x3xf32>, none, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  onnx.return %y, %y2, %mask2, %y3, %mask3
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3xf32>, %train: tensor<i1>) -> ("y": tensor<2x3xf32>, "y2": tensor<2x3xf32>, "mask2": tensor<2x3xi1>, "y3": tensor<2x3xf32>, "mask3": tensor<2x3xi1>) {
// CHECK-NEXT:   %y = "onnx.Identity"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %false = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK-NEXT:   %y2 = "onnx.Identity"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %0 = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %mask2 = "onnx.ConstantOfShape"(%0) {value = dense<[true]> : tensor<1xi1>} : (tensor<2xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Size"(%x) : (tensor<2x3xf32>) -> tensor<i64>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Range"(%3, %2, %4) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<6xi64>
// CHECK-NEXT:   %6 = "onnx.Cast"(%5) {to = 13} : (tensor<6xi64>) -> tensor<6xui64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<11400714819323198485> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<0> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %9 = "onnx.Mul"(%6, %7) : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %10 = "onnx.Add"(%9, %8) : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<30> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %12 = "onnx.BitShift"(%10, %11) {direction = "RIGHT"} : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %13 = "onnx.BitwiseXor"(%10, %12) : (tensor<6xui64>, tensor<6xui64>) -> tensor<6xui64>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<13787848793156543929> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %15 = "onnx.Mul"(%13, %14) : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<27> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %17 = "onnx.BitShift"(%15, %16) {direction = "RIGHT"} : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %18 = "onnx.BitwiseXor"(%15, %17) : (tensor<6xui64>, tensor<6xui64>) -> tensor<6xui64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<10723151780598845931> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %20 = "onnx.Mul"(%18, %19) : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<31> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %22 = "onnx.BitShift"(%20, %21) {direction = "RIGHT"} : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %23 = "onnx.BitwiseXor"(%20, %22) : (tensor<6xui64>, tensor<6xui64>) -> tensor<6xui64>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<40> : tensor<ui64>} : () -> tensor<ui64>
// CHECK-NEXT:   %25 = "onnx.BitShift"(%23, %24) {direction = "RIGHT"} : (tensor<6xui64>, tensor<ui64>) -> tensor<6xui64>
// CHECK-NEXT:   %26 = "onnx.Cast"(%25) {to = 1} : (tensor<6xui64>) -> tensor<6xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<5.9604645e-8> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %28 = "onnx.Mul"(%26, %27) : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK-NEXT:   %29 = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %30 = "onnx.Reshape"(%28, %29) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:   %31 = "onnx.GreaterOrEqual"(%30, %1) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:   %32 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %33 = "onnx.Sub"(%32, %1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %34 = "onnx.Div"(%32, %33) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %35 = "onnx.Not"(%train) : (tensor<i1>) -> tensor<i1>
// CHECK-NEXT:   %mask3 = "onnx.Or"(%31, %35) : (tensor<2x3xi1>, tensor<i1>) -> tensor<2x3xi1>
// CHECK-NEXT:   %36 = "onnx.Where"(%train, %34, %32) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %37 = "onnx.Mul"(%x, %36) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %y3 = "onnx.Where"(%mask3, %37, %38) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %y, %y2, %mask2, %y3, %mask3
// CHECK-NEXT: }
