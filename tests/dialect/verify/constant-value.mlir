// RUN: verify
// ERROR: verify: error[constant-value]: node "k" (Constant-21): result "k" is declared as tensor<3xi64>, but attribute "value" is tensor<2xi64>
// Rule constant-value: a Constant's result type is its value's.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"() -> ("k": tensor<3xi64>) {
  %k = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<3xi64> loc("k")
  onnx.return %k
}
