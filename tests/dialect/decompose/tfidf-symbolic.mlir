// RUN: decompose,verify
// TfIdfVectorizer over a symbolic batch and row length: the slices' ends
// are counted from the row's end, so every (n-gram length, skip distance)
// is counted (a row shorter than a span fails the model's entry check),
// and the window counts are symbolic.
onnx.model {ir_version = 8, opset_imports = {"" = 9}}
onnx.graph "g"(%x: tensor<"B"x"L"xi64>) -> ("y": tensor<"B"x2xf32>) {
  %y = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 2, max_skip_count = 1, min_gram_length = 2, mode = "TF", ngram_counts = [0, 0], ngram_indexes = [0, 1], pool_int64s = [3, 4, 4, 3]} : (tensor<"B"x"L"xi64>) -> tensor<"B"x2xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 9}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"B"x"L"xi64>) -> ("y": tensor<"B"x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Slice"(%x) {starts = [0], ends = [-1], axes = [1]} : (tensor<"B"x"L"xi64>) -> tensor<"B"x("L"-1)xi64>
// CHECK-NEXT:   %1 = "onnx.Unsqueeze"(%0) {axes = [2]} : (tensor<"B"x("L"-1)xi64>) -> tensor<"B"x("L"-1)x1xi64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %3 = "onnx.Equal"(%1, %2) : (tensor<"B"x("L"-1)x1xi64>, tensor<2xi64>) -> tensor<"B"x("L"-1)x2xi1>
// CHECK-NEXT:   %4 = "onnx.Slice"(%x) {starts = [1], ends = [9223372036854775807], axes = [1]} : (tensor<"B"x"L"xi64>) -> tensor<"B"x("L"-1)xi64>
// CHECK-NEXT:   %5 = "onnx.Unsqueeze"(%4) {axes = [2]} : (tensor<"B"x("L"-1)xi64>) -> tensor<"B"x("L"-1)x1xi64>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[4, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %7 = "onnx.Equal"(%5, %6) : (tensor<"B"x("L"-1)x1xi64>, tensor<2xi64>) -> tensor<"B"x("L"-1)x2xi1>
// CHECK-NEXT:   %8 = "onnx.And"(%3, %7) : (tensor<"B"x("L"-1)x2xi1>, tensor<"B"x("L"-1)x2xi1>) -> tensor<"B"x("L"-1)x2xi1>
// CHECK-NEXT:   %9 = "onnx.Cast"(%8) {to = 1} : (tensor<"B"x("L"-1)x2xi1>) -> tensor<"B"x("L"-1)x2xf32>
// CHECK-NEXT:   %10 = "onnx.ReduceSum"(%9) {keepdims = 0, axes = [1]} : (tensor<"B"x("L"-1)x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:   %11 = "onnx.Slice"(%x) {starts = [0], ends = [-2], axes = [1]} : (tensor<"B"x"L"xi64>) -> tensor<"B"x("L"-2)xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%11) {axes = [2]} : (tensor<"B"x("L"-2)xi64>) -> tensor<"B"x("L"-2)x1xi64>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %14 = "onnx.Equal"(%12, %13) : (tensor<"B"x("L"-2)x1xi64>, tensor<2xi64>) -> tensor<"B"x("L"-2)x2xi1>
// CHECK-NEXT:   %15 = "onnx.Slice"(%x) {starts = [2], ends = [9223372036854775807], axes = [1]} : (tensor<"B"x"L"xi64>) -> tensor<"B"x("L"-2)xi64>
// CHECK-NEXT:   %16 = "onnx.Unsqueeze"(%15) {axes = [2]} : (tensor<"B"x("L"-2)xi64>) -> tensor<"B"x("L"-2)x1xi64>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[4, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %18 = "onnx.Equal"(%16, %17) : (tensor<"B"x("L"-2)x1xi64>, tensor<2xi64>) -> tensor<"B"x("L"-2)x2xi1>
// CHECK-NEXT:   %19 = "onnx.And"(%14, %18) : (tensor<"B"x("L"-2)x2xi1>, tensor<"B"x("L"-2)x2xi1>) -> tensor<"B"x("L"-2)x2xi1>
// CHECK-NEXT:   %20 = "onnx.Cast"(%19) {to = 1} : (tensor<"B"x("L"-2)x2xi1>) -> tensor<"B"x("L"-2)x2xf32>
// CHECK-NEXT:   %21 = "onnx.ReduceSum"(%20) {keepdims = 0, axes = [1]} : (tensor<"B"x("L"-2)x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:   %22 = "onnx.Add"(%10, %21) : (tensor<"B"x2xf32>, tensor<"B"x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%22, %23) : (tensor<"B"x2xf32>, tensor<2x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
