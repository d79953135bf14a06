// RUN: decompose,verify
// FlexAttention with two query heads per KV head and a score_mod subgraph:
// the KV heads repeated, (Q·s)(K·s)ᵀ, the subgraph's ops rebuilt on the
// whole score tensor, Softmax, then the product with V.
onnx.model {ir_version = 10, opset_imports = {"" = 26, "ai.onnx.preview" = 1}}
onnx.graph "g"(%q: tensor<1x2x3x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>) -> ("y": tensor<1x2x3x4xf32>) {
  %y = "onnx_preview.FlexAttention"(%q, %k, %v) {score_mod = onnx.graph "bias"(%scores: tensor<"B"x"H"x"L"x"S"xf32>) -> ("out": tensor<"B"x"H"x"L"x"S"xf32>) {
    %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
    %out = "onnx.Add"(%scores, %half) : (tensor<"B"x"H"x"L"x"S"xf32>, tensor<f32>) -> tensor<"B"x"H"x"L"x"S"xf32>
    onnx.return %out
  }} : (tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x2x3x4xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 26, "ai.onnx.preview" = 1}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x3x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>) -> ("y": tensor<1x2x3x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Unsqueeze"(%k, %1) : (tensor<1x1x3x4xf32>, tensor<1xi64>) -> tensor<1x1x1x3x4xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[1, 1, 2, 3, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %4 = "onnx.Expand"(%2, %3) : (tensor<1x1x1x3x4xf32>, tensor<5xi64>) -> tensor<1x1x2x3x4xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[1, 2, 3, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %6 = "onnx.Reshape"(%4, %5) : (tensor<1x1x2x3x4xf32>, tensor<4xi64>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %8 = "onnx.Unsqueeze"(%v, %7) : (tensor<1x1x3x4xf32>, tensor<1xi64>) -> tensor<1x1x1x3x4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[1, 1, 2, 3, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %10 = "onnx.Expand"(%8, %9) : (tensor<1x1x1x3x4xf32>, tensor<5xi64>) -> tensor<1x1x2x3x4xf32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[1, 2, 3, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %12 = "onnx.Reshape"(%10, %11) : (tensor<1x1x2x3x4xf32>, tensor<4xi64>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %13 = "onnx.Mul"(%q, %0) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %14 = "onnx.Mul"(%6, %0) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %15 = "onnx.Transpose"(%14) {perm = [0, 1, 3, 2]} : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
// CHECK-NEXT:   %16 = "onnx.MatMul"(%13, %15) : (tensor<1x2x3x4xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %18 = "onnx.Add"(%16, %17) : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %19 = "onnx.Softmax"(%18) {axis = -1} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%19, %12) : (tensor<1x2x3x3xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
