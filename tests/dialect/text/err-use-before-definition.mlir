// RUN: print
// ERROR: 5:20: use of undefined value %b
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %a = "onnx.Relu"(%b) : (tensor<2xf32>) -> tensor<2xf32>
  %b = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
