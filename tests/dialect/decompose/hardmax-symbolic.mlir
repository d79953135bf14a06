// RUN: decompose,verify
// Hardmax with a symbolic axis length: ArgMax compared with an iota of the
// axis's run-time size (a running sum of ones), reshaped along the axis;
// at opset 13 the size is a Gather of the Shape (no Shape slices before 15).
onnx.model {ir_version = 10, opset_imports = {"" = 13}}
onnx.graph "g"(%x: tensor<"N"x"M"xf32>) -> ("y": tensor<"N"x"M"xf32>) {
  %y = "onnx.Hardmax"(%x) {axis = 0} : (tensor<"N"x"M"xf32>) -> tensor<"N"x"M"xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 13}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"N"x"M"xf32>) -> ("y": tensor<"N"x"M"xf32>) {
// CHECK-NEXT:   %0 = "onnx.ArgMax"(%x) {axis = 0, keepdims = 1, select_last_index = 0} : (tensor<"N"x"M"xf32>) -> tensor<1x"M"xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %2 = "onnx.Shape"(%x) : (tensor<"N"x"M"xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %4 = "onnx.Gather"(%2, %3) : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Expand"(%1, %4) : (tensor<i64>, tensor<1xi64>) -> tensor<"N"xi64>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %7 = "onnx.CumSum"(%5, %6) {exclusive = 1} : (tensor<"N"xi64>, tensor<i64>) -> tensor<"N"xi64>
// CHECK-NEXT:   %8 = "onnx.Shape"(%x) : (tensor<"N"x"M"xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.Gather"(%8, %9) : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Concat"(%10, %11) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %13 = "onnx.Reshape"(%7, %12) : (tensor<"N"xi64>, tensor<2xi64>) -> tensor<"N"x1xi64>
// CHECK-NEXT:   %14 = "onnx.Equal"(%0, %13) : (tensor<1x"M"xi64>, tensor<"N"x1xi64>) -> tensor<"N"x"M"xi1>
// CHECK-NEXT:   %y = "onnx.Cast"(%14) {to = 1} : (tensor<"N"x"M"xi1>) -> tensor<"N"x"M"xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
