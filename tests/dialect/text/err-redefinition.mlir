// RUN: print
// ERROR: 5:3: redefinition of %x
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %x = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
