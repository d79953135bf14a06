// RUN: opt --rules=multi
// Parallel products of one input with constant weights (attention's Q, K
// and V projections): matmul-merge adds one product on the concatenated
// weights, split again, to the e-graph (compiler/optimizer/tests/rules.rs
// checks the equality). Here x is big and the products narrow, so the
// merged form reads x once and costs less in total — but the extraction
// switches one class at a time, and no single product pays for the merged
// product and its Split: the graph comes out as it went in, which is why
// `multi` is off by default (docs/optimizer.md).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4096x64xf32>, %other: tensor<4096x64xf32>) -> ("q": tensor<4096x8xf32>, "k": tensor<4096x8xf32>, "v": tensor<4096x8xf32>, "o": tensor<4096x8xf32>) {
  %wq = "onnx.Constant"() {value = dense<0.01> : tensor<64x8xf32>} : () -> tensor<64x8xf32>
  %wk = "onnx.Constant"() {value = dense<0.02> : tensor<64x8xf32>} : () -> tensor<64x8xf32>
  %wv = "onnx.Constant"() {value = dense<0.03> : tensor<64x8xf32>} : () -> tensor<64x8xf32>
  %q = "onnx.MatMul"(%x, %wq) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
  %k = "onnx.MatMul"(%x, %wk) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
  %v = "onnx.MatMul"(%x, %wv) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
  %o = "onnx.MatMul"(%other, %wq) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
  onnx.return %q, %k, %v, %o
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<4096x64xf32>, %other: tensor<4096x64xf32>) -> ("q": tensor<4096x8xf32>, "k": tensor<4096x8xf32>, "v": tensor<4096x8xf32>, "o": tensor<4096x8xf32>) {
// CHECK-NEXT:   %wq = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x8xf32>} : () -> tensor<64x8xf32>
// CHECK-NEXT:   %wk = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x8xf32>} : () -> tensor<64x8xf32>
// CHECK-NEXT:   %wv = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x8xf32>} : () -> tensor<64x8xf32>
// CHECK-NEXT:   %q = "onnx.MatMul"(%x, %wq) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
// CHECK-NEXT:   %k = "onnx.MatMul"(%x, %wk) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
// CHECK-NEXT:   %v = "onnx.MatMul"(%x, %wv) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
// CHECK-NEXT:   %o = "onnx.MatMul"(%other, %wq) : (tensor<4096x64xf32>, tensor<64x8xf32>) -> tensor<4096x8xf32>
// CHECK-NEXT:   onnx.return %q, %k, %v, %o
// CHECK-NEXT: }
