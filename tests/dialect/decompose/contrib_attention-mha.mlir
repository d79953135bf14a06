// RUN: decompose,verify
// MultiHeadAttention with a [B] key padding mask (key lengths).
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%q: tensor<2x3x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %pad: tensor<2xi32>) -> ("y": tensor<2x3x8xf32>) {
  %y = "ms.MultiHeadAttention"(%q, %k, %v, none, %pad) {num_heads = 2} : (tensor<2x3x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, none, tensor<2xi32>) -> tensor<2x3x8xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<2x3x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %pad: tensor<2xi32>) -> ("y": tensor<2x3x8xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%q, %0) : (tensor<2x3x8xf32>, tensor<4xi64>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT:   %2 = "onnx.Transpose"(%1) {perm = [0, 2, 1, 3]} : (tensor<2x3x2x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Reshape"(%k, %3) : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
// CHECK-NEXT:   %5 = "onnx.Transpose"(%4) {perm = [0, 2, 1, 3]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %7 = "onnx.Reshape"(%v, %6) : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
// CHECK-NEXT:   %8 = "onnx.Transpose"(%7) {perm = [0, 2, 1, 3]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %10 = "onnx.Cast"(%pad) {to = 7} : (tensor<2xi32>) -> tensor<2xi64>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%10, %11) : (tensor<2xi64>, tensor<1xi64>) -> tensor<2x1xi64>
// CHECK-NEXT:   %13 = "onnx.Less"(%9, %12) : (tensor<4xi64>, tensor<2x1xi64>) -> tensor<2x4xi1>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %15 = "onnx.Unsqueeze"(%13, %14) : (tensor<2x4xi1>, tensor<2xi64>) -> tensor<2x1x1x4xi1>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<-10000.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %18 = "onnx.Where"(%15, %16, %17) : (tensor<2x1x1x4xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x1x4xf32>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %20 = "onnx.Mul"(%2, %19) : (tensor<2x2x3x4xf32>, tensor<f32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %21 = "onnx.Mul"(%5, %19) : (tensor<2x2x4x4xf32>, tensor<f32>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:   %22 = "onnx.Transpose"(%21) {perm = [0, 1, 3, 2]} : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:   %23 = "onnx.MatMul"(%20, %22) : (tensor<2x2x3x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %24 = "onnx.Add"(%23, %18) : (tensor<2x2x3x4xf32>, tensor<2x1x1x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %25 = "onnx.Softmax"(%24) {axis = -1} : (tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %26 = "onnx.ReduceMax"(%18) {keepdims = 1, axes = [-1]} : (tensor<2x1x1x4xf32>) -> tensor<2x1x1x1xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %28 = "onnx.Equal"(%26, %27) : (tensor<2x1x1x1xf32>, tensor<f32>) -> tensor<2x1x1x1xi1>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %30 = "onnx.Where"(%28, %29, %25) : (tensor<2x1x1x1xi1>, tensor<f32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %31 = "onnx.MatMul"(%30, %8) : (tensor<2x2x3x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK-NEXT:   %32 = "onnx.Transpose"(%31) {perm = [0, 2, 1, 3]} : (tensor<2x2x3x4xf32>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%32, %33) : (tensor<2x3x2x4xf32>, tensor<3xi64>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
