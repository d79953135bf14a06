// RUN: infer-shapes
// ERROR: infer-shapes: node "matmul" (MatMul-13): the inner dims of [2, 3] and [4, 5]: 3 and 4 differ
// MatMul's inner dims agree.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "linalg"(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> () {
  %y = "onnx.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> !onnx.unknown loc("matmul")
  onnx.return
}
