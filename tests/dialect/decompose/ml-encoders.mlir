// RUN: decompose,verify
// ai.onnx.ml's encoders: OneHotEncoder over strings maps each string to
// its category's index with a CategoryMapper (on the host, -1 for none)
// and compares the index with 0..C; Imputer a Where on the replaced value
// (NaN: IsNaN); FeatureVectorizer casts, cuts or zero-pads each input to
// its width and concatenates.
onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1}}
onnx.graph "g"(%s: tensor<4x2xstring>, %x: tensor<4x3xf32>, %i: tensor<4x2xi64>) -> ("o": tensor<4x2x3xf32>, "m": tensor<4x3xf32>, "v": tensor<4x5xf32>) {
  %o = "onnx_ml.OneHotEncoder"(%s) {cats_strings = ["blue", "green", "red"], zeros = 1} : (tensor<4x2xstring>) -> tensor<4x2x3xf32>
  %m = "onnx_ml.Imputer"(%x) {imputed_value_floats = [1.0, 2.0, 3.0], replaced_value_float = -1.0} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v = "onnx_ml.FeatureVectorizer"(%x, %i) {inputdimensions = [2, 3]} : (tensor<4x3xf32>, tensor<4x2xi64>) -> tensor<4x5xf32>
  onnx.return %o, %m, %v
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1, "" = 21}}
// CHECK-NEXT: onnx.graph "g"(%s: tensor<4x2xstring>, %x: tensor<4x3xf32>, %i: tensor<4x2xi64>) -> ("o": tensor<4x2x3xf32>, "m": tensor<4x3xf32>, "v": tensor<4x5xf32>) {
// CHECK-NEXT:   %0 = "onnx_ml.CategoryMapper"(%s) {cats_strings = ["blue", "green", "red"], cats_int64s = [0, 1, 2], default_int64 = -1} : (tensor<4x2xstring>) -> tensor<4x2xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[0, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Unsqueeze"(%0, %2) : (tensor<4x2xi64>, tensor<1xi64>) -> tensor<4x2x1xi64>
// CHECK-NEXT:   %4 = "onnx.Equal"(%3, %1) : (tensor<4x2x1xi64>, tensor<3xi64>) -> tensor<4x2x3xi1>
// CHECK-NEXT:   %o = "onnx.Cast"(%4) {to = 1} : (tensor<4x2x3xi1>) -> tensor<4x2x3xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %7 = "onnx.Equal"(%x, %6) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xi1>
// CHECK-NEXT:   %m = "onnx.Where"(%7, %5, %x) : (tensor<4x3xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Slice"(%x, %8, %9, %10) : (tensor<4x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %12 = "onnx.Cast"(%i) {to = 1} : (tensor<4x2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[0, 0, 0, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %14 = "onnx.Pad"(%12, %13) : (tensor<4x2xf32>, tensor<4xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:   %v = "onnx.Concat"(%11, %14) {axis = 1} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:   onnx.return %o, %m, %v
// CHECK-NEXT: }
