// RUN: print
// ERROR: 5:8: onnx.Clip has no version 7 (its versions are 1, 6, 11, 12, 13)
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Clip-7"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
