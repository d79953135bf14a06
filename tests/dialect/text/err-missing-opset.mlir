// RUN: print
// ERROR: 5:8: no opset import for domain 'ai.onnx.ml' (needed by onnx_ml.Scaler)
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx_ml.Scaler"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
