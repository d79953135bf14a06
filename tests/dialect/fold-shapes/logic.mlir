// RUN: fold-shapes
// Grouped-query attention (the Attention function body, inlined) picks the
// K/V repeat count with Where on a condition built from constants by Not
// and And; those bool values fold like integer ones, so the Expand shape
// is a constant and K's expanded type is static. Or, Xor, a Cast to bool
// and variadic Max fold too.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%k: tensor<2x3x1x6x8xf32>) -> ("expanded": tensor<2x3x?x6x8xf32>, "either": tensor<2xi1>, "differ": tensor<2xi1>, "nonzero": tensor<2xi1>, "largest": tensor<2xi64>) {
  %not_gqa = "onnx.Constant"() {value = dense<[false]> : tensor<1xi1>} : () -> tensor<1xi1>
  %cond1 = "onnx.Not"(%not_gqa) : (tensor<1xi1>) -> tensor<1xi1>
  %cond2 = "onnx.Constant"() {value = dense<[true]> : tensor<1xi1>} : () -> tensor<1xi1>
  %cond = "onnx.And"(%cond1, %cond2) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
  %groups = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %repeat = "onnx.Where"(%cond, %groups, %one) : (tensor<1xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %lead = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %tail = "onnx.Constant"() {value = dense<[6, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %shape = "onnx.Concat"(%lead, %repeat, %tail) {axis = 0} : (tensor<2xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<5xi64>
  %expanded = "onnx.Expand"(%k, %shape) : (tensor<2x3x1x6x8xf32>, tensor<5xi64>) -> tensor<2x3x?x6x8xf32>
  %pair = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %either = "onnx.Or"(%pair, %not_gqa) : (tensor<2xi1>, tensor<1xi1>) -> tensor<2xi1>
  %differ = "onnx.Xor"(%pair, %cond) : (tensor<2xi1>, tensor<1xi1>) -> tensor<2xi1>
  %ints = "onnx.Constant"() {value = dense<[0, -4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %nonzero = "onnx.Cast"(%ints) {to = 9} : (tensor<2xi64>) -> tensor<2xi1>
  %largest = "onnx.Max"(%ints, %one, %lead) : (tensor<2xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<2xi64>
  onnx.return %expanded, %either, %differ, %nonzero, %largest
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%k: tensor<2x3x1x6x8xf32>) -> ("expanded": tensor<2x3x3x6x8xf32>, "either": tensor<2xi1>, "differ": tensor<2xi1>, "nonzero": tensor<2xi1>, "largest": tensor<2xi64>) {
// CHECK-NEXT:   %not_gqa = "onnx.Constant"() {value = dense<[false]> : tensor<1xi1>} : () -> tensor<1xi1>
// CHECK-NEXT:   %cond1 = "onnx.Constant"() {value = dense<[true]> : tensor<1xi1>} : () -> tensor<1xi1>
// CHECK-NEXT:   %cond2 = "onnx.Constant"() {value = dense<[true]> : tensor<1xi1>} : () -> tensor<1xi1>
// CHECK-NEXT:   %cond = "onnx.Constant"() {value = dense<[true]> : tensor<1xi1>} : () -> tensor<1xi1>
// CHECK-NEXT:   %groups = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %repeat = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %lead = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %tail = "onnx.Constant"() {value = dense<[6, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[2, 3, 3, 6, 8]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %expanded = "onnx.Expand"(%k, %shape) : (tensor<2x3x1x6x8xf32>, tensor<5xi64>) -> tensor<2x3x3x6x8xf32>
// CHECK-NEXT:   %pair = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %either = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %differ = "onnx.Constant"() {value = dense<[false, true]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %ints = "onnx.Constant"() {value = dense<[0, -4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %nonzero = "onnx.Constant"() {value = dense<[false, true]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %largest = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   onnx.return %expanded, %either, %differ, %nonzero, %largest
// CHECK-NEXT: }
