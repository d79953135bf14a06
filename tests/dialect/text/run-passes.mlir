// RUN: infer-shapes,verify,roundtrip
// Passes named on the RUN line run in order; the output is the model after
// them. Here shape inference fills in the unknown types, after which the
// model verifies (a main-graph output needs a ranked type).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%a: tensor<"N"x1xf32>, %b: tensor<3xf32>) -> ("y": !onnx.unknown) {
  %s = "onnx.Add"(%a, %b) : (tensor<"N"x1xf32>, tensor<3xf32>) -> !onnx.unknown
  %y = "onnx.Relu"(%s) : (!onnx.unknown) -> !onnx.unknown
  onnx.return %y
}
// CHECK: -> ("y": tensor<"N"x3xf32>) {
// CHECK-NEXT: %s = "onnx.Add"(%a, %b) : (tensor<"N"x1xf32>, tensor<3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT: %y = "onnx.Relu"(%s) : (tensor<"N"x3xf32>) -> tensor<"N"x3xf32>
// CHECK-NOT: unknown
