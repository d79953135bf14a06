// RUN: print
// ERROR: 5:45: the op has 1 results but its type lists 2
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  onnx.return
}
