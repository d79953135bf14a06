// RUN: print
// ERROR: 4:12: unterminated string
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g() -> () {
  onnx.return
}
