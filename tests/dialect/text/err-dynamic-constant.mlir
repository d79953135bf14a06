// RUN: print
// ERROR: 5:48: a tensor constant needs a static shape, got tensor<"N"xf32>
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"() -> () {
  %c = "onnx.Constant"() {value = dense<1.0> : tensor<"N"xf32>} : () -> tensor<"N"xf32>
  onnx.return
}
