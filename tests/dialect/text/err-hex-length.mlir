// RUN: print
// ERROR: 5:41: tensor of type f32 and shape [2] needs 8 bytes of data, got 4
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"() -> () {
  %c = "onnx.Constant"() {value = dense<"0x0000803F"> : tensor<2xf32>} : () -> tensor<2xf32>
  onnx.return
}
