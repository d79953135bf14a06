// RUN: print
// ERROR: 5:41: expected 3 elements in this list, found 2
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"() -> () {
  %c = "onnx.Constant"() {value = dense<[1.0, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  onnx.return
}
