// RUN: linalg
// ERROR: unnamed node (MaxRoiPool-1): no lowering for this operator yet
// An op without a lowering is refused with a clean error naming it.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x2x8x8xf32>, %rois: tensor<3x5xf32>) -> ("y": tensor<3x2x2x2xf32>) {
  %y = "onnx.MaxRoiPool"(%x, %rois) {pooled_shape = [2, 2]} : (tensor<1x2x8x8xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  onnx.return %y
}
