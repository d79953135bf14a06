// RUN: infer-shapes
// Results typed by their consumers (infer/mod.rs, refine_from_consumers):
// a Reduce* whose axes are read at run time takes the dims its shape-keeping
// consumers (Cast, Sqrt, CastLike) have from the declared outputs, as the
// body of an expanded ReduceL2 does; the values between take them too (the
// lowering checks the axes against them at run time). An axes input of no
// entries names no axis, whatever it holds: all dims are reduced.
onnx.model {ir_version = 10, opset_imports = {"" = 18}}
onnx.graph "consumers"(%x: tensor<"N"x"M"x2xf32>, %axes: tensor<1xi64>, %none: tensor<0xi64>) -> ("y": tensor<1x"M"x2xf32>) {
  %sq = "onnx.Mul"(%x, %x) : (tensor<"N"x"M"x2xf32>, tensor<"N"x"M"x2xf32>) -> !onnx.unknown
  %sum = "onnx.ReduceSum"(%sq, %axes) {keepdims = 1} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %wide = "onnx.Cast"(%sum) {to = 11} : (!onnx.unknown) -> !onnx.unknown
  %root = "onnx.Sqrt"(%wide) : (!onnx.unknown) -> !onnx.unknown
  %y = "onnx.CastLike"(%root, %x) : (!onnx.unknown, tensor<"N"x"M"x2xf32>) -> tensor<1x"M"x2xf32>
  %all = "onnx.ReduceMax"(%x, %none) {keepdims = 0} : (tensor<"N"x"M"x2xf32>, tensor<0xi64>) -> !onnx.unknown
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 18}}
// CHECK-NEXT: onnx.graph "consumers"(%x: tensor<"N"x"M"x2xf32>, %axes: tensor<1xi64>, %none: tensor<0xi64>) -> ("y": tensor<1x"M"x2xf32>) {
// CHECK-NEXT:   %sq = "onnx.Mul"(%x, %x) : (tensor<"N"x"M"x2xf32>, tensor<"N"x"M"x2xf32>) -> tensor<"N"x"M"x2xf32>
// CHECK-NEXT:   %sum = "onnx.ReduceSum"(%sq, %axes) {keepdims = 1} : (tensor<"N"x"M"x2xf32>, tensor<1xi64>) -> tensor<1x"M"x2xf32>
// CHECK-NEXT:   %wide = "onnx.Cast"(%sum) {to = 11} : (tensor<1x"M"x2xf32>) -> tensor<1x"M"x2xf64>
// CHECK-NEXT:   %root = "onnx.Sqrt"(%wide) : (tensor<1x"M"x2xf64>) -> tensor<1x"M"x2xf64>
// CHECK-NEXT:   %y = "onnx.CastLike"(%root, %x) : (tensor<1x"M"x2xf64>, tensor<"N"x"M"x2xf32>) -> tensor<1x"M"x2xf32>
// CHECK-NEXT:   %all = "onnx.ReduceMax"(%x, %none) {keepdims = 0} : (tensor<"N"x"M"x2xf32>, tensor<0xi64>) -> tensor<f32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
