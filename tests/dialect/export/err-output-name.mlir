// RUN: export
// ERROR: export: graph "g": input "x" is an output of this graph computed by another value
// A main-graph output named like an input but computed by another value
// cannot be written: both names are the model's interface.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("x": tensor<2xf32>) {
  %y = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
