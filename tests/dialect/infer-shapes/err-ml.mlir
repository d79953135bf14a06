// RUN: infer-shapes
// ERROR: infer-shapes: node "mapper" (ai.onnx.ml.CategoryMapper-1): attributes 'cats_int64s' and 'cats_strings' must have the same length
// CategoryMapper's two category lists pair up.
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.ml" = 5}}
onnx.graph "ml"(%s: tensor<3xstring>) -> () {
  %y = "onnx_ml.CategoryMapper"(%s) {cats_int64s = [1, 2], cats_strings = ["a"]} : (tensor<3xstring>) -> !onnx.unknown loc("mapper")
  onnx.return
}
