// RUN: decompose,verify
// The linear models of ai.onnx.ml as onnxruntime computes them
// (decompose/ml.rs): LinearClassifier's scores are a MatMul by the
// transposed coefficients plus the intercepts, its label a Gather of the
// labels by the first ArgMax (string labels: the Gather runs on the host),
// its scores then softmaxed; the one-row binary form compares the raw
// score with 0 and writes [1 - p, p] after the logistic. Scaler subtracts
// and multiplies per column (an int64 input is cast first); Normalizer
// divides each row by its L2 norm, a zero norm by 1.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "ai.onnx.ml" = 1}}
onnx.graph "g"(%x: tensor<"N"x2xf32>, %k: tensor<3x2xi64>) -> ("y": !onnx.unknown, "z": tensor<"N"x3xf32>, "yb": tensor<"N"xi64>, "zb": tensor<"N"x2xf32>, "s": tensor<3x2xf32>, "n": tensor<"N"x2xf32>, "r": tensor<"N"x1xf32>) {
  %y, %z = "onnx_ml.LinearClassifier"(%x) {classlabels_strings = ["a", "b", "c"], coefficients = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], intercepts = [0.5, 0.0, -0.5], multi_class = 1, post_transform = "SOFTMAX"} : (tensor<"N"x2xf32>) -> (!onnx.unknown, tensor<"N"x3xf32>)
  %yb, %zb = "onnx_ml.LinearClassifier"(%x) {classlabels_ints = [3, 7], coefficients = [1.0, -1.0], intercepts = [0.25], post_transform = "LOGISTIC"} : (tensor<"N"x2xf32>) -> (tensor<"N"xi64>, tensor<"N"x2xf32>)
  %s = "onnx_ml.Scaler"(%k) {offset = [1.0, 2.0], scale = [0.5, 4.0]} : (tensor<3x2xi64>) -> tensor<3x2xf32>
  %n = "onnx_ml.Normalizer"(%x) {norm = "L2"} : (tensor<"N"x2xf32>) -> tensor<"N"x2xf32>
  %r = "onnx_ml.LinearRegressor"(%x) {coefficients = [2.0, -1.0], intercepts = [1.0]} : (tensor<"N"x2xf32>) -> tensor<"N"x1xf32>
  onnx.return %y, %z, %yb, %zb, %s, %n, %r
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "ai.onnx.ml" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"N"x2xf32>, %k: tensor<3x2xi64>) -> ("y": tensor<"N"xstring>, "z": tensor<"N"x3xf32>, "yb": tensor<"N"xi64>, "zb": tensor<"N"x2xf32>, "s": tensor<3x2xf32>, "n": tensor<"N"x2xf32>, "r": tensor<"N"x1xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-NEXT:   %1 = "onnx.MatMul"(%x, %0) : (tensor<"N"x2xf32>, tensor<2x3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[0.5, 0.0, -0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %3 = "onnx.Add"(%1, %2) : (tensor<"N"x3xf32>, tensor<3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<["a", "b", "c"]> : tensor<3xstring>} : () -> tensor<3xstring>
// CHECK-NEXT:   %5 = "onnx.ArgMax"(%3) {axis = 1, keepdims = 0} : (tensor<"N"x3xf32>) -> tensor<"N"xi64>
// CHECK-NEXT:   %y = "onnx.Gather"(%4, %5) {axis = 0} : (tensor<3xstring>, tensor<"N"xi64>) -> tensor<"N"xstring>
// CHECK-NEXT:   %z = "onnx.Softmax"(%3) {axis = 1} : (tensor<"N"x3xf32>) -> tensor<"N"x3xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[[1.0], [-1.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
// CHECK-NEXT:   %7 = "onnx.MatMul"(%x, %6) : (tensor<"N"x2xf32>, tensor<2x1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[0.25]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %9 = "onnx.Add"(%7, %8) : (tensor<"N"x1xf32>, tensor<1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[3, 7]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %12 = "onnx.Greater"(%9, %11) : (tensor<"N"x1xf32>, tensor<f32>) -> tensor<"N"x1xi1>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Reshape"(%12, %13) : (tensor<"N"x1xi1>, tensor<1xi64>) -> tensor<"N"xi1>
// CHECK-NEXT:   %15 = "onnx.Cast"(%14) {to = 7} : (tensor<"N"xi1>) -> tensor<"N"xi64>
// CHECK-NEXT:   %yb = "onnx.Gather"(%10, %15) {axis = 0} : (tensor<2xi64>, tensor<"N"xi64>) -> tensor<"N"xi64>
// CHECK-NEXT:   %16 = "onnx.Sigmoid"(%9) : (tensor<"N"x1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %18 = "onnx.Sub"(%17, %16) : (tensor<f32>, tensor<"N"x1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %zb = "onnx.Concat"(%18, %16) {axis = 1} : (tensor<"N"x1xf32>, tensor<"N"x1xf32>) -> tensor<"N"x2xf32>
// CHECK-NEXT:   %19 = "onnx.Cast"(%k) {to = 1} : (tensor<3x2xi64>) -> tensor<3x2xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %21 = "onnx.Sub"(%19, %20) : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[0.5, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %s = "onnx.Mul"(%21, %22) : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %23 = "onnx.Mul"(%x, %x) : (tensor<"N"x2xf32>, tensor<"N"x2xf32>) -> tensor<"N"x2xf32>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.ReduceSum"(%23, %24) {keepdims = 1} : (tensor<"N"x2xf32>, tensor<1xi64>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %26 = "onnx.Sqrt"(%25) : (tensor<"N"x1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %29 = "onnx.Equal"(%26, %27) : (tensor<"N"x1xf32>, tensor<f32>) -> tensor<"N"x1xi1>
// CHECK-NEXT:   %30 = "onnx.Where"(%29, %28, %26) : (tensor<"N"x1xi1>, tensor<f32>, tensor<"N"x1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %n = "onnx.Div"(%x, %30) : (tensor<"N"x2xf32>, tensor<"N"x1xf32>) -> tensor<"N"x2xf32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<[[2.0], [-1.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
// CHECK-NEXT:   %32 = "onnx.MatMul"(%x, %31) : (tensor<"N"x2xf32>, tensor<2x1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[1.0]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %r = "onnx.Add"(%32, %33) : (tensor<"N"x1xf32>, tensor<1xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   onnx.return %y, %z, %yb, %zb, %s, %n, %r
// CHECK-NEXT: }
