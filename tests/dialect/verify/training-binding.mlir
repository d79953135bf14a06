// RUN: verify
// ERROR: verify: error[training-binding]: training_info 0: update_binding binds "nope", which is not an initializer of the main or algorithm graph
// Rule training-binding: binding keys name initializers.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %w = "onnx.Constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "onnx.Mul"(%x, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
onnx.training {algorithm = onnx.graph "step"() -> ("w_new": tensor<2xf32>) {
  %w_new = "onnx.Neg"(%w) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %w_new
}, update_binding = {"nope" = "w_new"}}
