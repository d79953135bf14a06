// RUN: infer-shapes
// Elementwise ops (ops/elementwise.rs): unary ops keep the shape, binary and
// variadic ops broadcast numpy-style (dim_params included), comparisons and
// logic give bool, Cast gives `to`, CastLike and Where the type of their
// second input. Integer results carry values: the Shape-arithmetic below
// ends in a static Reshape.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "elementwise"(%x: tensor<"N"x3x4xf32>, %row: tensor<4xf32>, %col: tensor<3x1xf32>, %h: tensor<*xf16>, %i: tensor<"N"x3x4xi32>, %c: tensor<"N"x1x1xi1>, %s: tensor<f32>, %b: tensor<"B"x1xf64>, %m: tensor<1x"M"xf64>, %u: tensor<"N"x3x4xui32>) -> () {
  %relu = "onnx.Relu"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %sqrt = "onnx.Sqrt"(%h) : (tensor<*xf16>) -> !onnx.unknown
  %isnan = "onnx.IsNaN"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %cast = "onnx.Cast"(%x) {to = 7} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %castlike = "onnx.CastLike"(%x, %i) : (tensor<"N"x3x4xf32>, tensor<"N"x3x4xi32>) -> !onnx.unknown
  %clip = "onnx.Clip"(%x, %s, %s) : (tensor<"N"x3x4xf32>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  %add = "onnx.Add"(%x, %row) : (tensor<"N"x3x4xf32>, tensor<4xf32>) -> !onnx.unknown
  %mul = "onnx.Mul"(%col, %row) : (tensor<3x1xf32>, tensor<4xf32>) -> !onnx.unknown
  %outer = "onnx.Sub"(%b, %m) : (tensor<"B"x1xf64>, tensor<1x"M"xf64>) -> !onnx.unknown
  %pow = "onnx.Pow"(%x, %s) : (tensor<"N"x3x4xf32>, tensor<f32>) -> !onnx.unknown
  %less = "onnx.Less"(%x, %row) : (tensor<"N"x3x4xf32>, tensor<4xf32>) -> !onnx.unknown
  %and = "onnx.And"(%c, %less) : (tensor<"N"x1x1xi1>, !onnx.unknown) -> !onnx.unknown
  %bits = "onnx.BitShift"(%u, %u) {direction = "LEFT"} : (tensor<"N"x3x4xui32>, tensor<"N"x3x4xui32>) -> !onnx.unknown
  %prelu = "onnx.PRelu"(%x, %row) : (tensor<"N"x3x4xf32>, tensor<4xf32>) -> !onnx.unknown
  %max = "onnx.Max"(%col, %row, %s) : (tensor<3x1xf32>, tensor<4xf32>, tensor<f32>) -> !onnx.unknown
  %sum = "onnx.Sum"(%x, %col) : (tensor<"N"x3x4xf32>, tensor<3x1xf32>) -> !onnx.unknown
  %where = "onnx.Where"(%c, %x, %row) : (tensor<"N"x1x1xi1>, tensor<"N"x3x4xf32>, tensor<4xf32>) -> !onnx.unknown
  %shape = "onnx.Shape"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %two = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %tail = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %dims = "onnx.Gather"(%shape, %tail) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %prod = "onnx.Mul"(%dims, %two) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %half = "onnx.Div"(%prod, %two) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %neg = "onnx.Neg"(%half) : (!onnx.unknown) -> !onnx.unknown
  %pos = "onnx.Neg"(%neg) : (!onnx.unknown) -> !onnx.unknown
  %target = "onnx.Add"(%pos, %two) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %grid = "onnx.Constant"() {value = dense<1.0> : tensor<5x6xf32>} : () -> tensor<5x6xf32>
  %reshaped = "onnx.Reshape"(%grid, %target) : (tensor<5x6xf32>, !onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "elementwise"(%x: tensor<"N"x3x4xf32>, %row: tensor<4xf32>, %col: tensor<3x1xf32>, %h: tensor<*xf16>, %i: tensor<"N"x3x4xi32>, %c: tensor<"N"x1x1xi1>, %s: tensor<f32>, %b: tensor<"B"x1xf64>, %m: tensor<1x"M"xf64>, %u: tensor<"N"x3x4xui32>) -> () {
// CHECK-NEXT:   %relu = "onnx.Relu"(%x) : (tensor<"N"x3x4xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %sqrt = "onnx.Sqrt"(%h) : (tensor<*xf16>) -> tensor<*xf16>
// CHECK-NEXT:   %isnan = "onnx.IsNaN"(%x) : (tensor<"N"x3x4xf32>) -> tensor<"N"x3x4xi1>
// CHECK-NEXT:   %cast = "onnx.Cast"(%x) {to = 7} : (tensor<"N"x3x4xf32>) -> tensor<"N"x3x4xi64>
// CHECK-NEXT:   %castlike = "onnx.CastLike"(%x, %i) : (tensor<"N"x3x4xf32>, tensor<"N"x3x4xi32>) -> tensor<"N"x3x4xi32>
// CHECK-NEXT:   %clip = "onnx.Clip"(%x, %s, %s) : (tensor<"N"x3x4xf32>, tensor<f32>, tensor<f32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %add = "onnx.Add"(%x, %row) : (tensor<"N"x3x4xf32>, tensor<4xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %mul = "onnx.Mul"(%col, %row) : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %outer = "onnx.Sub"(%b, %m) : (tensor<"B"x1xf64>, tensor<1x"M"xf64>) -> tensor<"B"x"M"xf64>
// CHECK-NEXT:   %pow = "onnx.Pow"(%x, %s) : (tensor<"N"x3x4xf32>, tensor<f32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %less = "onnx.Less"(%x, %row) : (tensor<"N"x3x4xf32>, tensor<4xf32>) -> tensor<"N"x3x4xi1>
// CHECK-NEXT:   %and = "onnx.And"(%c, %less) : (tensor<"N"x1x1xi1>, tensor<"N"x3x4xi1>) -> tensor<"N"x3x4xi1>
// CHECK-NEXT:   %bits = "onnx.BitShift"(%u, %u) {direction = "LEFT"} : (tensor<"N"x3x4xui32>, tensor<"N"x3x4xui32>) -> tensor<"N"x3x4xui32>
// CHECK-NEXT:   %prelu = "onnx.PRelu"(%x, %row) : (tensor<"N"x3x4xf32>, tensor<4xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %max = "onnx.Max"(%col, %row, %s) : (tensor<3x1xf32>, tensor<4xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %sum = "onnx.Sum"(%x, %col) : (tensor<"N"x3x4xf32>, tensor<3x1xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %where = "onnx.Where"(%c, %x, %row) : (tensor<"N"x1x1xi1>, tensor<"N"x3x4xf32>, tensor<4xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %shape = "onnx.Shape"(%x) : (tensor<"N"x3x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %two = "onnx.Constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %tail = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %dims = "onnx.Gather"(%shape, %tail) : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %prod = "onnx.Mul"(%dims, %two) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %half = "onnx.Div"(%prod, %two) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %neg = "onnx.Neg"(%half) : (tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %pos = "onnx.Neg"(%neg) : (tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %target = "onnx.Add"(%pos, %two) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %grid = "onnx.Constant"() {value = dense<1.0> : tensor<5x6xf32>} : () -> tensor<5x6xf32>
// CHECK-NEXT:   %reshaped = "onnx.Reshape"(%grid, %target) : (tensor<5x6xf32>, tensor<2xi64>) -> tensor<5x6xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
