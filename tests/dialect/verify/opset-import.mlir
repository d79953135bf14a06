// RUN: verify
// ERROR: verify: error[opset-import]: model: domain "ai.onnx" is imported twice (also as "")
// Rule opset-import: "" and "ai.onnx" are the same domain, imported once.
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
