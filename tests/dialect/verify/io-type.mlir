// RUN: verify
// ERROR: verify: error[io-type]: graph "g" output 0 ("y"): has no rank; the main graph's inputs and outputs need a type with a rank
// Rule io-type: "The main graph inputs and outputs are required to have a
// shape, indicating the rank". (verify-imported accepts this model:
// io-type-imported.mlir.)
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<*xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<*xf32>
  onnx.return %y
}
