// RUN: infer-shapes
// Linear algebra (ops/linalg.rs): MatMul broadcasts its batch dims (1-D
// operands get a dim prepended or appended and dropped again), Gemm
// transposes, Einsum labels the result dims, Det drops the matrix dims,
// Attention gives [batch, heads, query sequence, value head size] and a
// KV cache that grows by the new sequence.
onnx.model {ir_version = 10, opset_imports = {"" = 24}}
onnx.graph "linalg"(%a: tensor<"B"x1x"M"x8xf32>, %b: tensor<3x8x"K"xf32>, %v: tensor<8xf32>, %ga: tensor<8x"M"xf32>, %gb: tensor<5x8xf32>, %gc: tensor<5xf32>, %ia: tensor<2x4xui8>, %ib: tensor<4x3xi8>, %s: tensor<f32>, %zp: tensor<ui8>, %q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %val: tensor<2x3x6x10xf32>, %pk: tensor<2x3x"P"x8xf32>, %pv: tensor<2x3x"P"x10xf32>, %sq: tensor<"B"x4x4xf64>, %x: tensor<2x"S"x6x8xf32>, %cos: tensor<2x"S"x4xf32>, %qb: tensor<4x3xui8>) -> () {
  %batched = "onnx.MatMul"(%a, %b) : (tensor<"B"x1x"M"x8xf32>, tensor<3x8x"K"xf32>) -> !onnx.unknown
  %vec_mat = "onnx.MatMul"(%v, %b) : (tensor<8xf32>, tensor<3x8x"K"xf32>) -> !onnx.unknown
  %mat_vec = "onnx.MatMul"(%a, %v) : (tensor<"B"x1x"M"x8xf32>, tensor<8xf32>) -> !onnx.unknown
  %dot = "onnx.MatMul"(%v, %v) : (tensor<8xf32>, tensor<8xf32>) -> !onnx.unknown
  %gemm = "onnx.Gemm"(%ga, %gb, %gc) {transA = 1, transB = 1, alpha = 0.5} : (tensor<8x"M"xf32>, tensor<5x8xf32>, tensor<5xf32>) -> !onnx.unknown
  %integer = "onnx.MatMulInteger"(%ia, %ib) : (tensor<2x4xui8>, tensor<4x3xi8>) -> !onnx.unknown
  %quantized = "onnx.QLinearMatMul"(%ia, %s, %zp, %qb, %s, %zp, %s, %zp) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %explicit = "onnx.Einsum"(%a, %b) {equation = "bimk,jkn->bjmn"} : (tensor<"B"x1x"M"x8xf32>, tensor<3x8x"K"xf32>) -> !onnx.unknown
  %implicit = "onnx.Einsum"(%ga, %gb) {equation = "km,nk"} : (tensor<8x"M"xf32>, tensor<5x8xf32>) -> !onnx.unknown
  %ellipsis = "onnx.Einsum"(%a) {equation = "...ij->...ji"} : (tensor<"B"x1x"M"x8xf32>) -> !onnx.unknown
  %det = "onnx.Det"(%sq) : (tensor<"B"x4x4xf64>) -> !onnx.unknown
  %attn = "onnx.Attention"(%q, %k, %val) : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x10xf32>) -> !onnx.unknown
  %y, %present_k, %present_v = "onnx.Attention"(%q, %k, %val, none, %pk, %pv) {is_causal = 1} : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x10xf32>, none, tensor<2x3x"P"x8xf32>, tensor<2x3x"P"x10xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %rotated = "onnx.RotaryEmbedding"(%x, %cos, %cos) {interleaved = 1} : (tensor<2x"S"x6x8xf32>, tensor<2x"S"x4xf32>, tensor<2x"S"x4xf32>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 24}}
// CHECK-NEXT: onnx.graph "linalg"(%a: tensor<"B"x1x"M"x8xf32>, %b: tensor<3x8x"K"xf32>, %v: tensor<8xf32>, %ga: tensor<8x"M"xf32>, %gb: tensor<5x8xf32>, %gc: tensor<5xf32>, %ia: tensor<2x4xui8>, %ib: tensor<4x3xi8>, %s: tensor<f32>, %zp: tensor<ui8>, %q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %val: tensor<2x3x6x10xf32>, %pk: tensor<2x3x"P"x8xf32>, %pv: tensor<2x3x"P"x10xf32>, %sq: tensor<"B"x4x4xf64>, %x: tensor<2x"S"x6x8xf32>, %cos: tensor<2x"S"x4xf32>, %qb: tensor<4x3xui8>) -> () {
// CHECK-NEXT:   %batched = "onnx.MatMul"(%a, %b) : (tensor<"B"x1x"M"x8xf32>, tensor<3x8x"K"xf32>) -> tensor<"B"x3x"M"x"K"xf32>
// CHECK-NEXT:   %vec_mat = "onnx.MatMul"(%v, %b) : (tensor<8xf32>, tensor<3x8x"K"xf32>) -> tensor<3x"K"xf32>
// CHECK-NEXT:   %mat_vec = "onnx.MatMul"(%a, %v) : (tensor<"B"x1x"M"x8xf32>, tensor<8xf32>) -> tensor<"B"x1x"M"xf32>
// CHECK-NEXT:   %dot = "onnx.MatMul"(%v, %v) : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
// CHECK-NEXT:   %gemm = "onnx.Gemm"(%ga, %gb, %gc) {transA = 1, transB = 1, alpha = 0.5} : (tensor<8x"M"xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<"M"x5xf32>
// CHECK-NEXT:   %integer = "onnx.MatMulInteger"(%ia, %ib) : (tensor<2x4xui8>, tensor<4x3xi8>) -> tensor<2x3xi32>
// CHECK-NEXT:   %quantized = "onnx.QLinearMatMul"(%ia, %s, %zp, %qb, %s, %zp, %s, %zp) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
// CHECK-NEXT:   %explicit = "onnx.Einsum"(%a, %b) {equation = "bimk,jkn->bjmn"} : (tensor<"B"x1x"M"x8xf32>, tensor<3x8x"K"xf32>) -> tensor<"B"x3x"M"x"K"xf32>
// CHECK-NEXT:   %implicit = "onnx.Einsum"(%ga, %gb) {equation = "km,nk"} : (tensor<8x"M"xf32>, tensor<5x8xf32>) -> tensor<"M"x5xf32>
// CHECK-NEXT:   %ellipsis = "onnx.Einsum"(%a) {equation = "...ij->...ji"} : (tensor<"B"x1x"M"x8xf32>) -> tensor<"B"x1x8x"M"xf32>
// CHECK-NEXT:   %det = "onnx.Det"(%sq) : (tensor<"B"x4x4xf64>) -> tensor<"B"xf64>
// CHECK-NEXT:   %attn = "onnx.Attention"(%q, %k, %val) : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x10xf32>) -> tensor<2x3x4x10xf32>
// CHECK-NEXT:   %y, %present_k, %present_v = "onnx.Attention"(%q, %k, %val, none, %pk, %pv) {is_causal = 1} : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x10xf32>, none, tensor<2x3x"P"x8xf32>, tensor<2x3x"P"x10xf32>) -> (tensor<2x3x4x10xf32>, tensor<2x3x("P"+6)x8xf32>, tensor<2x3x("P"+6)x10xf32>)
// CHECK-NEXT:   %rotated = "onnx.RotaryEmbedding"(%x, %cos, %cos) {interleaved = 1} : (tensor<2x"S"x6x8xf32>, tensor<2x"S"x4xf32>, tensor<2x"S"x4xf32>) -> tensor<2x"S"x6x8xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
