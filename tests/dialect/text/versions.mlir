// RUN: roundtrip
// An op's version is the one the model's opset import resolves to; a
// different one (after inlining a function of another opset, say) is
// spelled out. The other domains resolve through their own imports.
onnx.model {ir_version = 10, opset_imports = {"" = 17, "ai.onnx.ml" = 3, "ai.onnx.preview.training" = 1}}
onnx.graph "g"(%x: tensor<2xf32>, %r: tensor<f32>, %t: tensor<i64>) -> ("a": tensor<2xf32>, "b": tensor<2xf32>, "c": tensor<2xf32>, "d": tensor<2xf32>) {
  %a = "onnx.Clip"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %b = "onnx.Clip-6"(%x) {max = 6.0, min = 0.0} : (tensor<2xf32>) -> tensor<2xf32>
  %c = "onnx_ml.Scaler"(%x) {offset = [0.0], scale = [2.0]} : (tensor<2xf32>) -> tensor<2xf32>
  %d, %h = "onnx_training.Adagrad"(%r, %t, %x, %x, %x) : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  onnx.return %a, %b, %c, %d
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17, "ai.onnx.ml" = 3, "ai.onnx.preview.training" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2xf32>, %r: tensor<f32>, %t: tensor<i64>) -> ("a": tensor<2xf32>, "b": tensor<2xf32>, "c": tensor<2xf32>, "d": tensor<2xf32>) {
// CHECK-NEXT:   %a = "onnx.Clip"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %b = "onnx.Clip-6"(%x) {max = 6.0, min = 0.0} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %c = "onnx_ml.Scaler"(%x) {offset = [0.0], scale = [2.0]} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %d, %h = "onnx_training.Adagrad"(%r, %t, %x, %x, %x) : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:   onnx.return %a, %b, %c, %d
// CHECK-NEXT: }
