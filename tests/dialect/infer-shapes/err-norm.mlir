// RUN: infer-shapes
// ERROR: infer-shapes: node "bn" (BatchNormalization-15): the channels of input 1 and X: 4 and 3 differ
// BatchNormalization's scale has one entry per channel.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "norm"(%x: tensor<2x4x5xf32>, %scale: tensor<3xf32>, %c: tensor<4xf32>) -> () {
  %y = "onnx.BatchNormalization"(%x, %scale, %c, %c, %c) : (tensor<2x4x5xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown loc("bn")
  onnx.return
}
