// RUN: infer-shapes
// ERROR: infer-shapes: node "mul" (Mul-14): shapes ["N", 3] and ["N", 4] do not broadcast
// Binary ops broadcast numpy-style: 3 and 4 are neither equal nor 1.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "elementwise"(%a: tensor<"N"x3xf32>, %b: tensor<"N"x4xf32>) -> () {
  %y = "onnx.Mul"(%a, %b) : (tensor<"N"x3xf32>, tensor<"N"x4xf32>) -> !onnx.unknown loc("mul")
  onnx.return
}
