// RUN: infer-shapes
// Training ops (ops/training.rs): each optimizer result has its variable's
// shape, merged over the variable's inputs (an unknown dim of one input is
// known from another).
// REFERENCE-DIMS: ?=6
// REFERENCE: the spec's pseudo code computes H_new = H + G_regularized *
// G_regularized and X_new = X - r * G_regularized / H_adaptive elementwise
// (with numpy-style broadcasting), so both have the shape X, G and H
// broadcast to, [N, 4] here; onnx's inference copies X's and H's types
// only, and onnxruntime has no training ops.
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.preview.training" = 1}}
onnx.graph "training"(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<"N"x4xf32>, %g: tensor<?x4xf32>, %h: tensor<?x4xf32>, %x2: tensor<3xf32>, %g2: tensor<3xf32>, %h2: tensor<3xf32>, %v2: tensor<3xf32>) -> () {
  %x_new, %x2_new, %h_new, %h2_new = "onnx_training.Adagrad"(%r, %t, %x, %x2, %g, %g2, %h, %h2) : (tensor<f32>, tensor<i64>, tensor<"N"x4xf32>, tensor<3xf32>, tensor<?x4xf32>, tensor<3xf32>, tensor<?x4xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown)
  %mx, %mv = "onnx_training.Momentum"(%r, %t, %x2, %g2, %v2) {alpha = 0.9, beta = 1.0, mode = "standard", norm_coefficient = 0.0} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown)
  %ax, %av, %ah = "onnx_training.Adam"(%r, %t, %x, %g, %h, %h) : (tensor<f32>, tensor<i64>, tensor<"N"x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.preview.training" = 1}}
// CHECK-NEXT: onnx.graph "training"(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<"N"x4xf32>, %g: tensor<?x4xf32>, %h: tensor<?x4xf32>, %x2: tensor<3xf32>, %g2: tensor<3xf32>, %h2: tensor<3xf32>, %v2: tensor<3xf32>) -> () {
// CHECK-NEXT:   %x_new, %x2_new, %h_new, %h2_new = "onnx_training.Adagrad"(%r, %t, %x, %x2, %g, %g2, %h, %h2) : (tensor<f32>, tensor<i64>, tensor<"N"x4xf32>, tensor<3xf32>, tensor<?x4xf32>, tensor<3xf32>, tensor<?x4xf32>, tensor<3xf32>) -> (tensor<"N"x4xf32>, tensor<3xf32>, tensor<"N"x4xf32>, tensor<3xf32>)
// CHECK-NEXT:   %mx, %mv = "onnx_training.Momentum"(%r, %t, %x2, %g2, %v2) {alpha = 0.9, beta = 1.0, mode = "standard", norm_coefficient = 0.0} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:   %ax, %av, %ah = "onnx_training.Adam"(%r, %t, %x, %g, %h, %h) : (tensor<f32>, tensor<i64>, tensor<"N"x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> (tensor<"N"x4xf32>, tensor<"N"x4xf32>, tensor<"N"x4xf32>)
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
