// RUN: infer-shapes
// Text ops (ops/text.rs): StringConcat broadcasts, StringSplit adds a dim of
// unknown size, RegexFullMatch gives bool, StringNormalizer keeps the count
// when no stopwords can remove any, TfIdfVectorizer counts into
// max(ngram_indexes) + 1 slots.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "text"(%s: tensor<"N"x3xstring>, %t: tensor<3xstring>, %words: tensor<1x"C"xstring>, %tokens: tensor<"N"x6xi64>) -> () {
  %joined = "onnx.StringConcat"(%s, %t) : (tensor<"N"x3xstring>, tensor<3xstring>) -> !onnx.unknown
  %pieces, %counts = "onnx.StringSplit"(%s) {delimiter = " "} : (tensor<"N"x3xstring>) -> (!onnx.unknown, !onnx.unknown)
  %match = "onnx.RegexFullMatch"(%t) {pattern = "a+"} : (tensor<3xstring>) -> !onnx.unknown
  %lower = "onnx.StringNormalizer"(%words) {case_change_action = "LOWER", locale = "C"} : (tensor<1x"C"xstring>) -> !onnx.unknown
  %filtered = "onnx.StringNormalizer"(%words) {locale = "C", stopwords = ["a", "the"]} : (tensor<1x"C"xstring>) -> !onnx.unknown
  %tfidf = "onnx.TfIdfVectorizer"(%tokens) {mode = "TF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 0, ngram_counts = [0, 3], ngram_indexes = [0, 1, 2, 3, 4], pool_int64s = [1, 2, 3, 1, 2, 2, 3]} : (tensor<"N"x6xi64>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "text"(%s: tensor<"N"x3xstring>, %t: tensor<3xstring>, %words: tensor<1x"C"xstring>, %tokens: tensor<"N"x6xi64>) -> () {
// CHECK-NEXT:   %joined = "onnx.StringConcat"(%s, %t) : (tensor<"N"x3xstring>, tensor<3xstring>) -> tensor<"N"x3xstring>
// CHECK-NEXT:   %pieces, %counts = "onnx.StringSplit"(%s) {delimiter = " "} : (tensor<"N"x3xstring>) -> (tensor<"N"x3x?xstring>, tensor<"N"x3xi64>)
// CHECK-NEXT:   %match = "onnx.RegexFullMatch"(%t) {pattern = "a+"} : (tensor<3xstring>) -> tensor<3xi1>
// CHECK-NEXT:   %lower = "onnx.StringNormalizer"(%words) {case_change_action = "LOWER", locale = "C"} : (tensor<1x"C"xstring>) -> tensor<1x"C"xstring>
// CHECK-NEXT:   %filtered = "onnx.StringNormalizer"(%words) {locale = "C", stopwords = ["a", "the"]} : (tensor<1x"C"xstring>) -> tensor<1x?xstring>
// CHECK-NEXT:   %tfidf = "onnx.TfIdfVectorizer"(%tokens) {mode = "TF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 0, ngram_counts = [0, 3], ngram_indexes = [0, 1, 2, 3, 4], pool_int64s = [1, 2, 3, 1, 2, 2, 3]} : (tensor<"N"x6xi64>) -> tensor<"N"x5xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
