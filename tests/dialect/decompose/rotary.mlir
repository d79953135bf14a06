// RUN: decompose,verify
// RotaryEmbedding of 4-D input with position ids, interleaved, rotating the
// first 4 of 6 features: gathered caches, even/odd features of a
// [B, S, H, R/2, 2] view, re-interleaved and concatenated with the rest.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%x: tensor<1x2x3x6xf32>, %cos: tensor<8x2xf32>, %sin: tensor<8x2xf32>, %ids: tensor<1x3xi64>) -> ("y": tensor<1x2x3x6xf32>) {
  %y = "onnx.RotaryEmbedding"(%x, %cos, %sin, %ids) {interleaved = 1, rotary_embedding_dim = 4} : (tensor<1x2x3x6xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<1x3xi64>) -> tensor<1x2x3x6xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x2x3x6xf32>, %cos: tensor<8x2xf32>, %sin: tensor<8x2xf32>, %ids: tensor<1x3xi64>) -> ("y": tensor<1x2x3x6xf32>) {
// CHECK-NEXT:   %0 = "onnx.Transpose"(%x) {perm = [0, 2, 1, 3]} : (tensor<1x2x3x6xf32>) -> tensor<1x3x2x6xf32>
// CHECK-NEXT:   %1 = "onnx.Gather"(%cos, %ids) {axis = 0} : (tensor<8x2xf32>, tensor<1x3xi64>) -> tensor<1x3x2xf32>
// CHECK-NEXT:   %2 = "onnx.Gather"(%sin, %ids) {axis = 0} : (tensor<8x2xf32>, tensor<1x3xi64>) -> tensor<1x3x2xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %6 = "onnx.Slice"(%0, %3, %4, %5) : (tensor<1x3x2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x2x4xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[0, 0, 0, -1, 2]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %8 = "onnx.Reshape"(%6, %7) : (tensor<1x3x2x4xf32>, tensor<5xi64>) -> tensor<1x3x2x2x2xf32>
// CHECK-NEXT:   %9, %10 = "onnx.Split"(%8) {axis = 4, num_outputs = 2} : (tensor<1x3x2x2x2xf32>) -> (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>)
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%1, %11) : (tensor<1x3x2xf32>, tensor<2xi64>) -> tensor<1x3x1x2x1xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %14 = "onnx.Unsqueeze"(%2, %13) : (tensor<1x3x2xf32>, tensor<2xi64>) -> tensor<1x3x1x2x1xf32>
// CHECK-NEXT:   %15 = "onnx.Mul"(%12, %9) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %16 = "onnx.Mul"(%14, %10) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %17 = "onnx.Sub"(%15, %16) : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %18 = "onnx.Mul"(%14, %9) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %19 = "onnx.Mul"(%12, %10) : (tensor<1x3x1x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %20 = "onnx.Add"(%18, %19) : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x1xf32>
// CHECK-NEXT:   %21 = "onnx.Concat"(%17, %20) {axis = 4} : (tensor<1x3x2x2x1xf32>, tensor<1x3x2x2x1xf32>) -> tensor<1x3x2x2x2xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[0, 0, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %23 = "onnx.Reshape"(%21, %22) : (tensor<1x3x2x2x2xf32>, tensor<4xi64>) -> tensor<1x3x2x4xf32>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %27 = "onnx.Slice"(%0, %24, %25, %26) : (tensor<1x3x2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x2x2xf32>
// CHECK-NEXT:   %28 = "onnx.Concat"(%23, %27) {axis = 3} : (tensor<1x3x2x4xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x6xf32>
// CHECK-NEXT:   %y = "onnx.Transpose"(%28) {perm = [0, 2, 1, 3]} : (tensor<1x3x2x6xf32>) -> tensor<1x2x3x6xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
