// RUN: verify
// ERROR: verify: error[type-constraint]: node "add" (Add-14): input 1 ("i") has type tensor<2xi64>, but input 0 ("x") has type tensor<2xf32> and both are of type variable T
// Rule type-constraint: Add's inputs bind one type variable.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>, %i: tensor<2xi64>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Add"(%x, %i) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32> loc("add")
  onnx.return %y
}
