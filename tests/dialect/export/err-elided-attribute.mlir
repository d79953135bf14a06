// RUN: export
// ERROR: export: node "weights" (Constant-21): attribute "value": the data of this tensor<64x3xf32> was elided from a printed IR: there is nothing to export
// Elided data in an attribute names the node and the attribute.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"() -> ("w": tensor<64x3xf32>) {
  %w = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x3xf32>} : () -> tensor<64x3xf32> loc("weights")
  onnx.return %w
}
