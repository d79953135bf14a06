// RUN: infer-shapes
// ERROR: infer-shapes: node "gather" (GatherElements-13): 'indices' [3] and 'data' [3, 4] differ in rank
// GatherElements' indices have the data's rank.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "index"(%x: tensor<3x4xf32>, %i: tensor<3xi64>) -> () {
  %y = "onnx.GatherElements"(%x, %i) {axis = 0} : (tensor<3x4xf32>, tensor<3xi64>) -> !onnx.unknown loc("gather")
  onnx.return
}
