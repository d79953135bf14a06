// RUN: decompose,verify
// TfIdfVectorizer over int32 tokens: each (n-gram length, skip distance)
// gathers all windows, compares them with the pool's n-grams of that
// length and counts the matches; a one-hot MatMul puts each n-gram's count
// in its `ngram_indexes` column, and TFIDF scales by the n-gram's weight.
// Unigrams are counted at skip distance 1 only.
onnx.model {ir_version = 8, opset_imports = {"" = 9}}
onnx.graph "g"(%x: tensor<2x5xi32>) -> ("y": tensor<2x3xf32>) {
  %y = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 2, max_skip_count = 1, min_gram_length = 1, mode = "TFIDF", ngram_counts = [0, 2], ngram_indexes = [2, 0, 1], pool_int64s = [3, 4, 3, 4], weights = [0.5, 1.0, 2.0]} : (tensor<2x5xi32>) -> tensor<2x3xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 9}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x5xi32>) -> ("y": tensor<2x3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Cast"(%x) {to = 7} : (tensor<2x5xi32>) -> tensor<2x5xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[[0], [1], [2], [3], [4]]> : tensor<5x1xi64>} : () -> tensor<5x1xi64>
// CHECK-NEXT:   %2 = "onnx.Gather"(%0, %1) {axis = 1} : (tensor<2x5xi64>, tensor<5x1xi64>) -> tensor<2x5x1xi64>
// CHECK-NEXT:   %3 = "onnx.Unsqueeze"(%2) {axes = [2]} : (tensor<2x5x1xi64>) -> tensor<2x5x1x1xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[[3], [4]]> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
// CHECK-NEXT:   %5 = "onnx.Equal"(%3, %4) : (tensor<2x5x1x1xi64>, tensor<2x1xi64>) -> tensor<2x5x2x1xi1>
// CHECK-NEXT:   %6 = "onnx.Cast"(%5) {to = 1} : (tensor<2x5x2x1xi1>) -> tensor<2x5x2x1xf32>
// CHECK-NEXT:   %7 = "onnx.ReduceMin"(%6) {keepdims = 0, axes = [3]} : (tensor<2x5x2x1xf32>) -> tensor<2x5x2xf32>
// CHECK-NEXT:   %8 = "onnx.ReduceSum"(%7) {keepdims = 0, axes = [1]} : (tensor<2x5x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[[0, 1], [1, 2], [2, 3], [3, 4]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
// CHECK-NEXT:   %10 = "onnx.Gather"(%0, %9) {axis = 1} : (tensor<2x5xi64>, tensor<4x2xi64>) -> tensor<2x4x2xi64>
// CHECK-NEXT:   %11 = "onnx.Unsqueeze"(%10) {axes = [2]} : (tensor<2x4x2xi64>) -> tensor<2x4x1x2xi64>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[[3, 4]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %13 = "onnx.Equal"(%11, %12) : (tensor<2x4x1x2xi64>, tensor<1x2xi64>) -> tensor<2x4x1x2xi1>
// CHECK-NEXT:   %14 = "onnx.Cast"(%13) {to = 1} : (tensor<2x4x1x2xi1>) -> tensor<2x4x1x2xf32>
// CHECK-NEXT:   %15 = "onnx.ReduceMin"(%14) {keepdims = 0, axes = [3]} : (tensor<2x4x1x2xf32>) -> tensor<2x4x1xf32>
// CHECK-NEXT:   %16 = "onnx.ReduceSum"(%15) {keepdims = 0, axes = [1]} : (tensor<2x4x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[[0, 2], [1, 3], [2, 4]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
// CHECK-NEXT:   %18 = "onnx.Gather"(%0, %17) {axis = 1} : (tensor<2x5xi64>, tensor<3x2xi64>) -> tensor<2x3x2xi64>
// CHECK-NEXT:   %19 = "onnx.Unsqueeze"(%18) {axes = [2]} : (tensor<2x3x2xi64>) -> tensor<2x3x1x2xi64>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[[3, 4]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
// CHECK-NEXT:   %21 = "onnx.Equal"(%19, %20) : (tensor<2x3x1x2xi64>, tensor<1x2xi64>) -> tensor<2x3x1x2xi1>
// CHECK-NEXT:   %22 = "onnx.Cast"(%21) {to = 1} : (tensor<2x3x1x2xi1>) -> tensor<2x3x1x2xf32>
// CHECK-NEXT:   %23 = "onnx.ReduceMin"(%22) {keepdims = 0, axes = [3]} : (tensor<2x3x1x2xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %24 = "onnx.ReduceSum"(%23) {keepdims = 0, axes = [1]} : (tensor<2x3x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %25 = "onnx.Add"(%16, %24) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %26 = "onnx.Concat"(%8, %25) {axis = 1} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]> : tensor<3x3xf32>} : () -> tensor<3x3xf32>
// CHECK-NEXT:   %28 = "onnx.MatMul"(%26, %27) : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[1.0, 2.0, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %y = "onnx.Mul"(%28, %29) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
