// RUN: decompose,verify
// CausalConvWithState with symbolic channels and kernel size (no static
// group for a Conv): the convolution as windows, a Gather of the positions
// t + j of the padded input, times the weight viewed as [C, 1, K], summed
// over the taps, plus the bias per channel.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%x: tensor<"B"x"C"x"L"xf32>, %w: tensor<"C"x1x"K"xf32>, %bias: tensor<"C"xf32>) -> ("y": tensor<"B"x"C"x"L"xf32>, "state": tensor<"B"x"C"x?xf32>) {
  %y, %state = "onnx.CausalConvWithState"(%x, %w, %bias) : (tensor<"B"x"C"x"L"xf32>, tensor<"C"x1x"K"xf32>, tensor<"C"xf32>) -> (tensor<"B"x"C"x"L"xf32>, tensor<"B"x"C"x?xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"B"x"C"x"L"xf32>, %w: tensor<"C"x1x"K"xf32>, %bias: tensor<"C"xf32>) -> ("y": tensor<"B"x"C"x"L"xf32>, "state": tensor<"B"x"C"x("K"-1)xf32>) {
// CHECK-NEXT:   %0 = "onnx.Shape"(%w) {start = 2, end = 3} : (tensor<"C"x1x"K"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Sub"(%0, %1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Shape"(%x) {start = 0, end = 1} : (tensor<"B"x"C"x"L"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %4 = "onnx.Shape"(%x) {start = 1, end = 2} : (tensor<"B"x"C"x"L"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Concat"(%3, %4) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %6 = "onnx.Concat"(%5, %2) {axis = 0} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %7 = "onnx.ConstantOfShape"(%6) {value = dense<[0.0]> : tensor<1xf32>} : (tensor<3xi64>) -> tensor<"B"x"C"x("K"-1)xf32>
// CHECK-NEXT:   %8 = "onnx.Concat"(%7, %x) {axis = 2} : (tensor<"B"x"C"x("K"-1)xf32>, tensor<"B"x"C"x"L"xf32>) -> tensor<"B"x"C"x("K"+"L"-1)xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[9223372036854775807]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Slice"(%8, %2, %9, %10) : (tensor<"B"x"C"x("K"+"L"-1)xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"B"x"C"x"L"xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %13 = "onnx.Shape"(%11) {start = 2, end = 3} : (tensor<"B"x"C"x"L"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Expand"(%12, %13) : (tensor<i64>, tensor<1xi64>) -> tensor<"L"xi64>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %16 = "onnx.CumSum"(%14, %15) {exclusive = 1} : (tensor<"L"xi64>, tensor<i64>) -> tensor<"L"xi64>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %18 = "onnx.Shape"(%w) {start = 2, end = 3} : (tensor<"C"x1x"K"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.Expand"(%17, %18) : (tensor<i64>, tensor<1xi64>) -> tensor<"K"xi64>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %21 = "onnx.CumSum"(%19, %20) {exclusive = 1} : (tensor<"K"xi64>, tensor<i64>) -> tensor<"K"xi64>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %23 = "onnx.Unsqueeze"(%16, %22) : (tensor<"L"xi64>, tensor<1xi64>) -> tensor<"L"x1xi64>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Unsqueeze"(%21, %24) : (tensor<"K"xi64>, tensor<1xi64>) -> tensor<1x"K"xi64>
// CHECK-NEXT:   %26 = "onnx.Add"(%23, %25) : (tensor<"L"x1xi64>, tensor<1x"K"xi64>) -> tensor<"L"x"K"xi64>
// CHECK-NEXT:   %27 = "onnx.Gather"(%8, %26) {axis = 2} : (tensor<"B"x"C"x("K"+"L"-1)xf32>, tensor<"L"x"K"xi64>) -> tensor<"B"x"C"x"L"x"K"xf32>
// CHECK-NEXT:   %28 = "onnx.Shape"(%8) {start = 1, end = 2} : (tensor<"B"x"C"x("K"+"L"-1)xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %30 = "onnx.Shape"(%w) {start = 2, end = 3} : (tensor<"C"x1x"K"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %31 = "onnx.Concat"(%28, %29, %30) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %32 = "onnx.Reshape"(%w, %31) : (tensor<"C"x1x"K"xf32>, tensor<3xi64>) -> tensor<"C"x1x"K"xf32>
// CHECK-NEXT:   %33 = "onnx.Mul"(%27, %32) : (tensor<"B"x"C"x"L"x"K"xf32>, tensor<"C"x1x"K"xf32>) -> tensor<"B"x"C"x"L"x"K"xf32>
// CHECK-NEXT:   %34 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %35 = "onnx.ReduceSum"(%33, %34) {keepdims = 0} : (tensor<"B"x"C"x"L"x"K"xf32>, tensor<1xi64>) -> tensor<"B"x"C"x"L"xf32>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %37 = "onnx.Unsqueeze"(%bias, %36) : (tensor<"C"xf32>, tensor<1xi64>) -> tensor<"C"x1xf32>
// CHECK-NEXT:   %y = "onnx.Add"(%35, %37) : (tensor<"B"x"C"x"L"xf32>, tensor<"C"x1xf32>) -> tensor<"B"x"C"x"L"xf32>
// CHECK-NEXT:   %38 = "onnx.Shape"(%8) {start = 2, end = 3} : (tensor<"B"x"C"x("K"+"L"-1)xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %39 = "onnx.Sub"(%38, %2) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %40 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %state = "onnx.Slice"(%8, %39, %38, %40) : (tensor<"B"x"C"x("K"+"L"-1)xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"B"x"C"x("K"-1)xf32>
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
