// RUN: print
// ERROR: 5:41: 300 is out of range for ui8
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"() -> () {
  %c = "onnx.Constant"() {value = dense<300> : tensor<ui8>} : () -> tensor<ui8>
  onnx.return
}
