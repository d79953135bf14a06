// RUN: verify
// ERROR: verify: error[attr-kind]: node "conv" (Conv-11): attribute "strides" must be INTS, got FLOAT
// Rule attr-kind: Conv's strides are INTS.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> ("y": tensor<1x1x2x2xf32>) {
  %y = "onnx.Conv"(%x, %w) {strides = 1.0} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> loc("conv")
  onnx.return %y
}
