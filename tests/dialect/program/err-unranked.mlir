// RUN: infer-shapes,partition
// A value of unknown rank cannot cross into a compiled segment.
// ERROR: value %at of unknown rank crossing into a compiled segment is not supported in host programs yet
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%s: !onnx.seq<tensor<*xf32>>, %pos: tensor<i64>) -> ("y": tensor<*xf32>) {
  %at = "onnx.SequenceAt"(%s, %pos) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<*xf32>
  %y = "onnx.Relu"(%at) : (tensor<*xf32>) -> tensor<*xf32>
  onnx.return %y
}
