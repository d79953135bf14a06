// RUN: verify
// ERROR: verify: error[op-version]: node "relu" (Relu-6): the model imports ai.onnx opset 21, where Relu is version 14, not 6
// Rule op-version: an op's version is the one the model's import resolves
// to (opset 21 resolves Relu to version 14).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu-6"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc("relu")
  onnx.return %y
}
