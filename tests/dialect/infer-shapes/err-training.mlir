// RUN: infer-shapes
// ERROR: infer-shapes: node "adagrad" (ai.onnx.preview.training.Adagrad-1): G of variable 0 (input 3) is tensor<4xf32> but the variable's other tensors are tensor<3xf32>
// A variable's tensors agree on its shape.
// REFERENCE: the spec's pseudo code combines X, G and H elementwise
// (G_regularized = norm_coefficient * X + G), which [3] and [4] cannot be;
// onnx's inference does not compare them, and onnxruntime has no training
// ops.
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.preview.training" = 1}}
onnx.graph "training"(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<4xf32>, %h: tensor<3xf32>) -> () {
  %y, %z = "onnx_training.Adagrad"(%r, %t, %x, %g, %h) : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown) loc("adagrad")
  onnx.return
}
