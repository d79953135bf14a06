// RUN: print
// ERROR: 5:15: %x has type tensor<2xf32> but the graph signature declares output "y" as tensor<3xf32>
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<3xf32>) {
  onnx.return %x
}
