// RUN: infer-shapes
// ERROR: infer-shapes: node "dft" (DFT-20): the last dim must be 1 (real) or 2 (complex), got 3
// DFT's last dim holds a real (1) or complex (2) value.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "signal"(%x: tensor<1x10x3xf32>) -> () {
  %y = "onnx.DFT"(%x) : (tensor<1x10x3xf32>) -> !onnx.unknown loc("dft")
  onnx.return
}
