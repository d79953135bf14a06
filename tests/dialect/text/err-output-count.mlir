// RUN: print
// ERROR: 5:3: onnx.return has 1 values but the graph signature declares 2 outputs
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>, "z": tensor<2xf32>) {
  onnx.return %x
}
