// RUN: verify
// ERROR: verify: error[ir-version]: model: a model of IR version 2 cannot import opsets
// Rule ir-version: opset imports came with IR version 3.
onnx.model {ir_version = 2, opset_imports = {"" = 1}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
