// RUN: decompose,verify
// Contrib RotaryEmbedding of a 3-D input with a position offset ([1]
// position_ids: offset + 0..S), interleaved: RotaryEmbedding-23 expanded.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%x: tensor<1x3x8xf32>, %pid: tensor<1xi64>) -> ("y": tensor<1x3x8xf32>) {
  %cos = "onnx.Constant"() {value = dense<1.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %sin = "onnx.Constant"() {value = dense<0.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %y = "ms.RotaryEmbedding"(%x, %pid, %cos, %sin) {interleaved = 1} : (tensor<1x3x8xf32>, tensor<1xi64>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<1x3x8xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x3x8xf32>, %pid: tensor<1xi64>) -> ("y": tensor<1x3x8xf32>) {
// CHECK-NEXT:   %cos = "onnx.Constant"() {value = dense<1.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
// CHECK-NEXT:   %sin = "onnx.Constant"() {value = dense<0.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%pid, %0) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[0, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %3 = "onnx.Add"(%2, %1) : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Unsqueeze"(%3, %4) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1x3xi64>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %7 = "onnx.Reshape"(%x, %6) : (tensor<1x3x8xf32>, tensor<4xi64>) -> tensor<1x3x2x4xf32>
// CHECK-NEXT:   %8 = "onnx.Gather"(%cos, %5) {axis = 0} : (tensor<8x2xf32>, tensor<1x3xi64>) -> tensor<1x3x2xf32>
// CHECK-NEXT:   %9 = "onnx.Gather"(%sin, %5) {axis = 0} : (tensor<8x2xf32>, tensor<1x3xi64>) -> tensor<1x3x2xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[0, 0, 0, -1, 2]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %11 = "onnx.Reshape"(%7, %10) : (tensor<1x3x2x4xf32>, tensor<5xi64>) -> tensor<1x3x2x2x2xf32>
// CHECK-NEXT:   %12, %13 = "onnx.Split"(%11) {axis = 4} : (tensor<1x3x2x2x2xf32>) -> (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>)
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %15 = "onnx.Unsqueeze"(%8, %14) : (tensor<1x3x2xf32>, tensor<2xi64>) -> tensor<1x3x1x2x1xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %17 = "onnx.Unsqueeze"(%9, %16) : (tensor<1x3x2xf32>, tensor<2xi64>) -> tensor<1x3x1x2x1xf32>
// CHECK-NEXT:   %18 = "onnx.Mul"(%15, %12) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %19 = "onnx.Mul"(%17, %13) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %20 = "onnx.Sub"(%18, %19) : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %21 = "onnx.Mul"(%17, %12) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %22 = "onnx.Mul"(%15, %13) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %23 = "onnx.Add"(%21, %22) : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %24 = "onnx.Concat"(%20, %23) {axis = 4} : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x2xf32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[0, 0, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %26 = "onnx.Reshape"(%24, %25) : (tensor<1x3x2x2x2xf32>, tensor<4xi64>) -> tensor<1x3x2x4xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%26, %27) : (tensor<1x3x2x4xf32>, tensor<3xi64>) -> tensor<1x3x8xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
