// RUN: print
// ERROR: 5:36: a list of INTS cannot hold a FLOAT value
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%x) {axes = [1, 2.5]} : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
