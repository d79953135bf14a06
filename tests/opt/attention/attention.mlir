// RUN: opt --rules=attention
// Softmax(s·(Q·Kt) + M)·V along the last axis is one omlc.FusedAttention
// with its scale. Not fused: a softmax over another axis, and f16 scores
// (the fused kernel is lowered for f32 and f64).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x6xf32>, %v: tensor<2x6x8xf32>, %m: tensor<4x6xf32>, %hq: tensor<2x4x8xf16>, %hkt: tensor<2x8x6xf16>, %hv: tensor<2x6x8xf16>) -> ("fused": tensor<2x4x8xf32>, "axis1": tensor<2x4x8xf32>, "half": tensor<2x4x8xf16>) {
  %s = "onnx.Constant"() {value = dense<0.35> : tensor<f32>} : () -> tensor<f32>
  %qk = "onnx.MatMul"(%q, %kt) : (tensor<2x4x8xf32>, tensor<2x8x6xf32>) -> tensor<2x4x6xf32>
  %scaled = "onnx.Mul"(%qk, %s) : (tensor<2x4x6xf32>, tensor<f32>) -> tensor<2x4x6xf32>
  %masked = "onnx.Add"(%scaled, %m) : (tensor<2x4x6xf32>, tensor<4x6xf32>) -> tensor<2x4x6xf32>
  %p = "onnx.Softmax"(%masked) {axis = -1} : (tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %fused = "onnx.MatMul"(%p, %v) : (tensor<2x4x6xf32>, tensor<2x6x8xf32>) -> tensor<2x4x8xf32>
  %p1 = "onnx.Softmax"(%qk) {axis = 1} : (tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %axis1 = "onnx.MatMul"(%p1, %v) : (tensor<2x4x6xf32>, tensor<2x6x8xf32>) -> tensor<2x4x8xf32>
  %hqk = "onnx.MatMul"(%hq, %hkt) : (tensor<2x4x8xf16>, tensor<2x8x6xf16>) -> tensor<2x4x6xf16>
  %hp = "onnx.Softmax"(%hqk) {axis = -1} : (tensor<2x4x6xf16>) -> tensor<2x4x6xf16>
  %half = "onnx.MatMul"(%hp, %hv) : (tensor<2x4x6xf16>, tensor<2x6x8xf16>) -> tensor<2x4x8xf16>
  onnx.return %fused, %axis1, %half
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x6xf32>, %v: tensor<2x6x8xf32>, %m: tensor<4x6xf32>, %hq: tensor<2x4x8xf16>, %hkt: tensor<2x8x6xf16>, %hv: tensor<2x6x8xf16>) -> ("fused": tensor<2x4x8xf32>, "axis1": tensor<2x4x8xf32>, "half": tensor<2x4x8xf16>) {
// CHECK-NEXT:   %qk = "onnx.MatMul"(%q, %kt) : (tensor<2x4x8xf32>, tensor<2x8x6xf32>) -> tensor<2x4x6xf32>
// CHECK-NEXT:   %p1 = "onnx.Softmax"(%qk) {axis = 1} : (tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
// CHECK-NEXT:   %axis1 = "onnx.MatMul"(%p1, %v) : (tensor<2x4x6xf32>, tensor<2x6x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %hqk = "onnx.MatMul"(%hq, %hkt) : (tensor<2x4x8xf16>, tensor<2x8x6xf16>) -> tensor<2x4x6xf16>
// CHECK-NEXT:   %hp = "onnx.Softmax"(%hqk) {axis = -1} : (tensor<2x4x6xf16>) -> tensor<2x4x6xf16>
// CHECK-NEXT:   %half = "onnx.MatMul"(%hp, %hv) : (tensor<2x4x6xf16>, tensor<2x6x8xf16>) -> tensor<2x4x8xf16>
// CHECK-NEXT:   %0 = "omlc.FusedAttention"(%q, %kt, %v, %m) {scale = 0.35} : (tensor<2x4x8xf32>, tensor<2x8x6xf32>, tensor<2x6x8xf32>, tensor<4x6xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   onnx.return %0, %axis1, %half
// CHECK-NEXT: }
