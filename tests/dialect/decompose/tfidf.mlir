// RUN: decompose,verify
// TfIdfVectorizer over int32 tokens: each (n-gram length, skip distance)
// slices the row once per token of a window (the ends counted from the
// row's end), compares each slice with that token of the pool's n-grams,
// ANDs the comparisons and counts the matches; a one-hot MatMul puts each n-gram's count
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
// CHECK-NEXT:   %1 = "onnx.Slice"(%0) {starts = [0], ends = [9223372036854775807], axes = [1]} : (tensor<2x5xi64>) -> tensor<2x5xi64>
// CHECK-NEXT:   %2 = "onnx.Unsqueeze"(%1) {axes = [2]} : (tensor<2x5xi64>) -> tensor<2x5x1xi64>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %4 = "onnx.Equal"(%2, %3) : (tensor<2x5x1xi64>, tensor<2xi64>) -> tensor<2x5x2xi1>
// CHECK-NEXT:   %5 = "onnx.Cast"(%4) {to = 1} : (tensor<2x5x2xi1>) -> tensor<2x5x2xf32>
// CHECK-NEXT:   %6 = "onnx.ReduceSum"(%5) {keepdims = 0, axes = [1]} : (tensor<2x5x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %7 = "onnx.Slice"(%0) {starts = [0], ends = [-1], axes = [1]} : (tensor<2x5xi64>) -> tensor<2x4xi64>
// CHECK-NEXT:   %8 = "onnx.Unsqueeze"(%7) {axes = [2]} : (tensor<2x4xi64>) -> tensor<2x4x1xi64>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.Equal"(%8, %9) : (tensor<2x4x1xi64>, tensor<1xi64>) -> tensor<2x4x1xi1>
// CHECK-NEXT:   %11 = "onnx.Slice"(%0) {starts = [1], ends = [9223372036854775807], axes = [1]} : (tensor<2x5xi64>) -> tensor<2x4xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%11) {axes = [2]} : (tensor<2x4xi64>) -> tensor<2x4x1xi64>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Equal"(%12, %13) : (tensor<2x4x1xi64>, tensor<1xi64>) -> tensor<2x4x1xi1>
// CHECK-NEXT:   %15 = "onnx.And"(%10, %14) : (tensor<2x4x1xi1>, tensor<2x4x1xi1>) -> tensor<2x4x1xi1>
// CHECK-NEXT:   %16 = "onnx.Cast"(%15) {to = 1} : (tensor<2x4x1xi1>) -> tensor<2x4x1xf32>
// CHECK-NEXT:   %17 = "onnx.ReduceSum"(%16) {keepdims = 0, axes = [1]} : (tensor<2x4x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %18 = "onnx.Slice"(%0) {starts = [0], ends = [-2], axes = [1]} : (tensor<2x5xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:   %19 = "onnx.Unsqueeze"(%18) {axes = [2]} : (tensor<2x3xi64>) -> tensor<2x3x1xi64>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %21 = "onnx.Equal"(%19, %20) : (tensor<2x3x1xi64>, tensor<1xi64>) -> tensor<2x3x1xi1>
// CHECK-NEXT:   %22 = "onnx.Slice"(%0) {starts = [2], ends = [9223372036854775807], axes = [1]} : (tensor<2x5xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:   %23 = "onnx.Unsqueeze"(%22) {axes = [2]} : (tensor<2x3xi64>) -> tensor<2x3x1xi64>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Equal"(%23, %24) : (tensor<2x3x1xi64>, tensor<1xi64>) -> tensor<2x3x1xi1>
// CHECK-NEXT:   %26 = "onnx.And"(%21, %25) : (tensor<2x3x1xi1>, tensor<2x3x1xi1>) -> tensor<2x3x1xi1>
// CHECK-NEXT:   %27 = "onnx.Cast"(%26) {to = 1} : (tensor<2x3x1xi1>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %28 = "onnx.ReduceSum"(%27) {keepdims = 0, axes = [1]} : (tensor<2x3x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %29 = "onnx.Add"(%17, %28) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %30 = "onnx.Concat"(%6, %29) {axis = 1} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]> : tensor<3x3xf32>} : () -> tensor<3x3xf32>
// CHECK-NEXT:   %32 = "onnx.MatMul"(%30, %31) : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[1.0, 2.0, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %y = "onnx.Mul"(%32, %33) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
