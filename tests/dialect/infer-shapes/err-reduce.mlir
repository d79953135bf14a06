// RUN: infer-shapes
// ERROR: infer-shapes: node "sum" (ReduceSum-13): axis 2 is out of range for rank 2
// ReduceSum's axes must be in [-rank, rank).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "reduce"(%x: tensor<2x3xf32>) -> () {
  %axes = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %sum = "onnx.ReduceSum"(%x, %axes) : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.unknown loc("sum")
  onnx.return
}
