// RUN: print
// ERROR: 4:20: unknown type '!onnx.list'
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: !onnx.list<f32>) -> () {
  onnx.return
}
