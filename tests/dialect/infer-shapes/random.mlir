// RUN: infer-shapes
// Random generators (ops/random.rs): the shape attribute's shape, or the
// input's (…Like, Bernoulli), of dtype or the input's element type;
// Multinomial [batch, sample_size] of int32 or int64.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "random"(%x: tensor<"N"x4xf32>, %p: tensor<"N"x4xf64>, %logits: tensor<"N"x10xf32>) -> () {
  %normal = "onnx.RandomNormal"() {shape = [2, 3], dtype = 11, seed = 1.0} : () -> !onnx.unknown
  %uniform = "onnx.RandomUniform"() {shape = [5]} : () -> !onnx.unknown
  %normal_like = "onnx.RandomNormalLike"(%x) : (tensor<"N"x4xf32>) -> !onnx.unknown
  %uniform_like = "onnx.RandomUniformLike"(%x) {dtype = 10} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %coin = "onnx.Bernoulli"(%p) : (tensor<"N"x4xf64>) -> !onnx.unknown
  %coin_i = "onnx.Bernoulli"(%p) {dtype = 7} : (tensor<"N"x4xf64>) -> !onnx.unknown
  %draws = "onnx.Multinomial"(%logits) {sample_size = 3} : (tensor<"N"x10xf32>) -> !onnx.unknown
  %draws64 = "onnx.Multinomial"(%logits) {dtype = 7} : (tensor<"N"x10xf32>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "random"(%x: tensor<"N"x4xf32>, %p: tensor<"N"x4xf64>, %logits: tensor<"N"x10xf32>) -> () {
// CHECK-NEXT:   %normal = "onnx.RandomNormal"() {shape = [2, 3], dtype = 11, seed = 1.0} : () -> tensor<2x3xf64>
// CHECK-NEXT:   %uniform = "onnx.RandomUniform"() {shape = [5]} : () -> tensor<5xf32>
// CHECK-NEXT:   %normal_like = "onnx.RandomNormalLike"(%x) : (tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
// CHECK-NEXT:   %uniform_like = "onnx.RandomUniformLike"(%x) {dtype = 10} : (tensor<"N"x4xf32>) -> tensor<"N"x4xf16>
// CHECK-NEXT:   %coin = "onnx.Bernoulli"(%p) : (tensor<"N"x4xf64>) -> tensor<"N"x4xf64>
// CHECK-NEXT:   %coin_i = "onnx.Bernoulli"(%p) {dtype = 7} : (tensor<"N"x4xf64>) -> tensor<"N"x4xi64>
// CHECK-NEXT:   %draws = "onnx.Multinomial"(%logits) {sample_size = 3} : (tensor<"N"x10xf32>) -> tensor<"N"x3xi32>
// CHECK-NEXT:   %draws64 = "onnx.Multinomial"(%logits) {dtype = 7} : (tensor<"N"x10xf32>) -> tensor<"N"x1xi64>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
