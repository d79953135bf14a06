// RUN: print
// ERROR: 5:8: unknown op 'onnx.Frobnicate'
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Frobnicate"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
