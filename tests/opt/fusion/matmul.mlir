// RUN: opt --rules=fusion
// A 2-D MatMul with a bias is a Gemm, and with an activation after it a
// FusedGemm; a batched MatMul with a bias and an activation is a
// FusedMatMul. Not fused: a bias that broadcasts the product to a bigger
// shape (the epilogue would change the result's type).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %p: tensor<2x4x8xf32>, %wide: tensor<3x4x16xf32>) -> ("gemm": tensor<4x16xf32>, "batched": tensor<2x4x16xf32>, "broadcast": tensor<3x4x16xf32>) {
  %m = "onnx.MatMul"(%a, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %mb = "onnx.Add"(%m, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %gemm = "onnx.Relu"(%mb) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %pm = "onnx.MatMul"(%p, %w) : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %pb = "onnx.Add"(%pm, %b) : (tensor<2x4x16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  %batched = "onnx.Tanh"(%pb) : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %m2 = "onnx.MatMul"(%a, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %broadcast = "onnx.Add"(%m2, %wide) : (tensor<4x16xf32>, tensor<3x4x16xf32>) -> tensor<3x4x16xf32>
  onnx.return %gemm, %batched, %broadcast
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %p: tensor<2x4x8xf32>, %wide: tensor<3x4x16xf32>) -> ("gemm": tensor<4x16xf32>, "batched": tensor<2x4x16xf32>, "broadcast": tensor<3x4x16xf32>) {
// CHECK-NEXT:   %m = "onnx.MatMul"(%a, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   %broadcast = "onnx.Add"(%m, %wide) : (tensor<4x16xf32>, tensor<3x4x16xf32>) -> tensor<3x4x16xf32>
// CHECK-NEXT:   %0 = "omlc.FusedGemm"(%a, %w, %b) {activation = "Relu"} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   %1 = "omlc.FusedMatMul"(%p, %w, %b) {activation = "Tanh"} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT:   onnx.return %0, %1, %broadcast
// CHECK-NEXT: }
