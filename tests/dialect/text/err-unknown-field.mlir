// RUN: print
// ERROR: 3:13: unknown model field 'opsets'
onnx.model {opsets = {"" = 17}}
onnx.graph "g"() -> () {
  onnx.return
}
