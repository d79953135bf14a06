// RUN: verify
// ERROR: verify: error[missing-attr]: node "cast" (Cast-21): required attribute "to" is missing
// Rule missing-attr: Cast's `to` is required.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xi64>) {
  %y = "onnx.Cast"(%x) : (tensor<2xf32>) -> tensor<2xi64> loc("cast")
  onnx.return %y
}
