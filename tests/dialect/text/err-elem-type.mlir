// RUN: print
// ERROR: 4:29: unknown element type 'float'
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xfloat>) -> () {
  onnx.return
}
