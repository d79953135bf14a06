// RUN: verify
// ERROR: verify: error[names]: model: a graph has an empty name; every graph must have a name
// Rule names: "Each graph MUST specify a name."
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph ""(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
