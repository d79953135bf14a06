// RUN: decompose,verify
// TensorScatter in circular mode over symbolic sizes: the cache positions
// are a running sum of ones viewed as [1, M, 1], the cache and update
// lengths are read with Shape, and the gather's indices are expanded to
// the cache's run-time shape.
onnx.model {ir_version = 10, opset_imports = {"" = 24}}
onnx.graph "g"(%cache: tensor<"B"x"M"x"D"xf32>, %update: tensor<"B"x"S"x"D"xf32>, %idx: tensor<"B"xi64>) -> ("y": tensor<"B"x"M"x"D"xf32>) {
  %y = "onnx.TensorScatter"(%cache, %update, %idx) {axis = 1, mode = "circular"} : (tensor<"B"x"M"x"D"xf32>, tensor<"B"x"S"x"D"xf32>, tensor<"B"xi64>) -> tensor<"B"x"M"x"D"xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 24}}
// CHECK-NEXT: onnx.graph "g"(%cache: tensor<"B"x"M"x"D"xf32>, %update: tensor<"B"x"S"x"D"xf32>, %idx: tensor<"B"xi64>) -> ("y": tensor<"B"x"M"x"D"xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Shape"(%cache) {start = 1, end = 2} : (tensor<"B"x"M"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Concat"(%0, %1, %2) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Shape"(%cache) {start = 1, end = 2} : (tensor<"B"x"M"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %6 = "onnx.Expand"(%4, %5) : (tensor<i64>, tensor<1xi64>) -> tensor<"M"xi64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %8 = "onnx.CumSum"(%6, %7) {exclusive = 1} : (tensor<"M"xi64>, tensor<i64>) -> tensor<"M"xi64>
// CHECK-NEXT:   %9 = "onnx.Reshape"(%8, %3) : (tensor<"M"xi64>, tensor<3xi64>) -> tensor<1x"M"x1xi64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[-1, 1, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %11 = "onnx.Reshape"(%idx, %10) : (tensor<"B"xi64>, tensor<3xi64>) -> tensor<"B"x1x1xi64>
// CHECK-NEXT:   %12 = "onnx.Sub"(%9, %11) : (tensor<1x"M"x1xi64>, tensor<"B"x1x1xi64>) -> tensor<"B"x"M"x1xi64>
// CHECK-NEXT:   %13 = "onnx.Shape"(%cache) {start = 1, end = 2} : (tensor<"B"x"M"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %15 = "onnx.Reshape"(%13, %14) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %16 = "onnx.Mod"(%12, %15) : (tensor<"B"x"M"x1xi64>, tensor<i64>) -> tensor<"B"x"M"x1xi64>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %18 = "onnx.Shape"(%update) {start = 1, end = 2} : (tensor<"B"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %20 = "onnx.Reshape"(%18, %19) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %21 = "onnx.GreaterOrEqual"(%16, %17) : (tensor<"B"x"M"x1xi64>, tensor<i64>) -> tensor<"B"x"M"x1xi1>
// CHECK-NEXT:   %22 = "onnx.Less"(%16, %20) : (tensor<"B"x"M"x1xi64>, tensor<i64>) -> tensor<"B"x"M"x1xi1>
// CHECK-NEXT:   %23 = "onnx.And"(%21, %22) : (tensor<"B"x"M"x1xi1>, tensor<"B"x"M"x1xi1>) -> tensor<"B"x"M"x1xi1>
// CHECK-NEXT:   %24 = "onnx.Where"(%23, %16, %17) : (tensor<"B"x"M"x1xi1>, tensor<"B"x"M"x1xi64>, tensor<i64>) -> tensor<"B"x"M"x1xi64>
// CHECK-NEXT:   %25 = "onnx.Shape"(%cache) {start = 0, end = 1} : (tensor<"B"x"M"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %26 = "onnx.Shape"(%cache) {start = 1, end = 2} : (tensor<"B"x"M"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %27 = "onnx.Shape"(%cache) {start = 2, end = 3} : (tensor<"B"x"M"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %28 = "onnx.Concat"(%25, %26, %27) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %29 = "onnx.Expand"(%24, %28) : (tensor<"B"x"M"x1xi64>, tensor<3xi64>) -> tensor<"B"x"M"x"D"xi64>
// CHECK-NEXT:   %30 = "onnx.GatherElements"(%update, %29) {axis = 1} : (tensor<"B"x"S"x"D"xf32>, tensor<"B"x"M"x"D"xi64>) -> tensor<"B"x"M"x"D"xf32>
// CHECK-NEXT:   %y = "onnx.Where"(%23, %30, %cache) : (tensor<"B"x"M"x1xi1>, tensor<"B"x"M"x"D"xf32>, tensor<"B"x"M"x"D"xf32>) -> tensor<"B"x"M"x"D"xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
