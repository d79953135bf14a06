// RUN: opt --rules=layout
// A feed-forward block x·W1 then ·W2 whose hidden width H = 2048 floats
// puts W1's rows 8 KiB apart (rows that alias in L1, slowing the first
// product): H is padded by one cache line (16 floats), W1 with zero
// columns and W2 with zero rows (folded constants), so the result is
// unchanged. Not padded: H = 2000 (rows 8000 bytes apart).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<512x64xf32>) -> ("y": tensor<512x64xf32>, "z": tensor<512x64xf32>) {
  %w1 = "onnx.Constant"() {value = dense<0.01> : tensor<64x2048xf32>} : () -> tensor<64x2048xf32>
  %w2 = "onnx.Constant"() {value = dense<0.02> : tensor<2048x64xf32>} : () -> tensor<2048x64xf32>
  %h = "onnx.MatMul"(%x, %w1) : (tensor<512x64xf32>, tensor<64x2048xf32>) -> tensor<512x2048xf32>
  %y = "onnx.MatMul"(%h, %w2) : (tensor<512x2048xf32>, tensor<2048x64xf32>) -> tensor<512x64xf32>
  %v1 = "onnx.Constant"() {value = dense<0.01> : tensor<64x2000xf32>} : () -> tensor<64x2000xf32>
  %v2 = "onnx.Constant"() {value = dense<0.02> : tensor<2000x64xf32>} : () -> tensor<2000x64xf32>
  %g = "onnx.MatMul"(%x, %v1) : (tensor<512x64xf32>, tensor<64x2000xf32>) -> tensor<512x2000xf32>
  %z = "onnx.MatMul"(%g, %v2) : (tensor<512x2000xf32>, tensor<2000x64xf32>) -> tensor<512x64xf32>
  onnx.return %y, %z
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<512x64xf32>) -> ("y": tensor<512x64xf32>, "z": tensor<512x64xf32>) {
// CHECK-NEXT:   %v1 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x2000xf32>} : () -> tensor<64x2000xf32>
// CHECK-NEXT:   %v2 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<2000x64xf32>} : () -> tensor<2000x64xf32>
// CHECK-NEXT:   %g = "onnx.MatMul"(%x, %v1) : (tensor<512x64xf32>, tensor<64x2000xf32>) -> tensor<512x2000xf32>
// CHECK-NEXT:   %z = "onnx.MatMul"(%g, %v2) : (tensor<512x2000xf32>, tensor<2000x64xf32>) -> tensor<512x64xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x2064xf32>} : () -> tensor<64x2064xf32>
// CHECK-NEXT:   %1 = "onnx.MatMul"(%x, %0) : (tensor<512x64xf32>, tensor<64x2064xf32>) -> tensor<512x2064xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<2064x64xf32>} : () -> tensor<2064x64xf32>
// CHECK-NEXT:   %3 = "onnx.MatMul"(%1, %2) : (tensor<512x2064xf32>, tensor<2064x64xf32>) -> tensor<512x64xf32>
// CHECK-NEXT:   onnx.return %3, %z
// CHECK-NEXT: }
