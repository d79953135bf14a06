// RUN: print
// ERROR: 5:20: operand 0 has type tensor<2xf32> but the op's type says tensor<3xf32>
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  onnx.return
}
