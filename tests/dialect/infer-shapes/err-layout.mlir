// RUN: infer-shapes
// ERROR: infer-shapes: node "reshape" (Reshape-21): target shape [-1, -1] has more than one -1
// Reshape's target may hold at most one -1.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "layout"(%x: tensor<2x6xf32>) -> () {
  %target = "onnx.Constant"() {value = dense<[-1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %y = "onnx.Reshape"(%x, %target) : (tensor<2x6xf32>, tensor<2xi64>) -> !onnx.unknown loc("reshape")
  onnx.return
}
