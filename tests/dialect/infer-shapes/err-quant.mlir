// RUN: infer-shapes
// ERROR: infer-shapes: node "quantize" (QuantizeLinear-21): the scale has 3 elements but dim 1 of the input [2, 4] is 4
// A per-axis scale has one entry per element of the axis.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "quant"(%x: tensor<2x4xf32>, %s: tensor<3xf32>) -> () {
  %y = "onnx.QuantizeLinear"(%x, %s) {axis = 1} : (tensor<2x4xf32>, tensor<3xf32>) -> !onnx.unknown loc("quantize")
  onnx.return
}
