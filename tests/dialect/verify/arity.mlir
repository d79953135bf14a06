// RUN: verify
// ERROR: verify: error[arity]: node "relu" (Relu-14): has 2 inputs, Relu takes 1
// Rule arity: Relu takes one input.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("relu")
  onnx.return %y
}
