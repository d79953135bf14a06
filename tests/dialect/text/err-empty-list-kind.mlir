// RUN: print
// ERROR: 5:34: expected ':' after '[]' (an empty list needs its kind, e.g. '[] : ints'), found '}'
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%x) {axes = []} : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
