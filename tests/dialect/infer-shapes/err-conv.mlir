// RUN: infer-shapes
// ERROR: infer-shapes: node "conv" (Conv-11): the input channels (weight 4 × group 1) must be 4, got 3
// Conv's weight has C / group input channels.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "conv"(%x: tensor<1x3x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> () {
  %y = "onnx.Conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x4x3x3xf32>) -> !onnx.unknown loc("conv")
  onnx.return
}
