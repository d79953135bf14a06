// RUN: print
// ERROR: 6:1: expected an op or 'onnx.return', found end of input
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
