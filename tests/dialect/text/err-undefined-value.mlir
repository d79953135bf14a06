// RUN: print
// ERROR: 5:20: use of undefined value %z
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%z) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
