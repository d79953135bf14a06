// RUN: verify
// ERROR: verify: error[undefined-value]: node "neg" (Neg-13) in graph "init": input 0 ("w") is defined as result 0 of unnamed node (Constant-21), in a graph that does not enclose this use
// Rule undefined-value: a training initialization graph stands alone; it
// cannot read the main graph's values (the algorithm graph can).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %w = "onnx.Constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "onnx.Mul"(%x, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
onnx.training {initialization = onnx.graph "init"() -> ("w0": tensor<2xf32>) {
  %w0 = "onnx.Neg"(%w) : (tensor<2xf32>) -> tensor<2xf32> loc("neg")
  onnx.return %w0
}, algorithm = onnx.graph "step"() -> ("w_new": tensor<2xf32>) {
  %w_new = "onnx.Neg"(%w) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %w_new
}, initialization_binding = {"w" = "w0"}, update_binding = {"w" = "w_new"}}
