// RUN: export
// ERROR: export: node "clip" (Clip-6): the model's opset 17 of its domain makes it version 13: ONNX nodes have no version of their own
// ONNX nodes have no version of their own: the model's opset import gives
// every op its version, so an op of another version cannot be exported.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Clip-6"(%x) {max = 6.0, min = 0.0} : (tensor<2xf32>) -> tensor<2xf32> loc("clip")
  onnx.return %y
}
