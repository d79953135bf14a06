// RUN: decompose,verify
// TensorScatter in circular mode: each cache position p of batch b reads
// the update's step (p - write_indices[b]) mod 4 when it is below the
// update's length, and keeps the past value otherwise.
onnx.model {ir_version = 10, opset_imports = {"" = 24}}
onnx.graph "g"(%cache: tensor<2x4x3xf32>, %update: tensor<2x2x3xf32>, %at: tensor<2xi64>) -> ("y": tensor<2x4x3xf32>) {
  %y = "onnx.TensorScatter"(%cache, %update, %at) {axis = 1, mode = "circular"} : (tensor<2x4x3xf32>, tensor<2x2x3xf32>, tensor<2xi64>) -> tensor<2x4x3xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 24}}
// CHECK-NEXT: onnx.graph "g"(%cache: tensor<2x4x3xf32>, %update: tensor<2x2x3xf32>, %at: tensor<2xi64>) -> ("y": tensor<2x4x3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[[[0], [1], [2], [3]]]> : tensor<1x4x1xi64>} : () -> tensor<1x4x1xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[-1, 1, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %2 = "onnx.Reshape"(%at, %1) : (tensor<2xi64>, tensor<3xi64>) -> tensor<2x1x1xi64>
// CHECK-NEXT:   %3 = "onnx.Sub"(%0, %2) : (tensor<1x4x1xi64>, tensor<2x1x1xi64>) -> tensor<2x4x1xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Mod"(%3, %4) : (tensor<2x4x1xi64>, tensor<i64>) -> tensor<2x4x1xi64>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %8 = "onnx.GreaterOrEqual"(%5, %6) : (tensor<2x4x1xi64>, tensor<i64>) -> tensor<2x4x1xi1>
// CHECK-NEXT:   %9 = "onnx.Less"(%5, %7) : (tensor<2x4x1xi64>, tensor<i64>) -> tensor<2x4x1xi1>
// CHECK-NEXT:   %10 = "onnx.And"(%8, %9) : (tensor<2x4x1xi1>, tensor<2x4x1xi1>) -> tensor<2x4x1xi1>
// CHECK-NEXT:   %11 = "onnx.Where"(%10, %5, %6) : (tensor<2x4x1xi1>, tensor<2x4x1xi64>, tensor<i64>) -> tensor<2x4x1xi64>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[2, 4, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %13 = "onnx.Expand"(%11, %12) : (tensor<2x4x1xi64>, tensor<3xi64>) -> tensor<2x4x3xi64>
// CHECK-NEXT:   %14 = "onnx.GatherElements"(%update, %13) {axis = 1} : (tensor<2x2x3xf32>, tensor<2x4x3xi64>) -> tensor<2x4x3xf32>
// CHECK-NEXT:   %y = "onnx.Where"(%10, %14, %cache) : (tensor<2x4x1xi1>, tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
