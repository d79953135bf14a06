// RUN: print
// ERROR: 5:8: onnx.Gelu does not exist in opset 17 of ai.onnx (it was introduced in opset 20)
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Gelu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
