// RUN: verify
// ERROR: verify: error[attr-name]: node "relu" (Relu-14): unknown attribute "alpha" (attributes of Relu: none)
// Rule attr-name: attributes are known to the op's schema.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu"(%x) {alpha = 0.1} : (tensor<2xf32>) -> tensor<2xf32> loc("relu")
  onnx.return %y
}
