// RUN: infer-shapes
// ERROR: infer-shapes: node "sample" (GridSample-20): the batch sizes of X and grid: 2 and 3 differ
// GridSample's grid and input agree on the batch.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "vision"(%x: tensor<2x3x8x8xf32>, %grid: tensor<3x4x4x2xf32>) -> () {
  %y = "onnx.GridSample"(%x, %grid) : (tensor<2x3x8x8xf32>, tensor<3x4x4x2xf32>) -> !onnx.unknown loc("sample")
  onnx.return
}
