// RUN: decompose,verify
// ai.onnx.ml ops as ai.onnx ops: Binarizer is a comparison cast back to the
// input type, ArrayFeatureExtractor a Gather along the last axis (a 1-D
// input gains a leading 1). The model imports only ai.onnx.ml, so the
// expansion imports ai.onnx (at version 21).
onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1}}
onnx.graph "g"(%x: tensor<3x4xf64>, %v: tensor<6xf32>, %i: tensor<2x2xi64>) -> ("b": tensor<3x4xf64>, "f": tensor<1x4xf32>) {
  %b = "onnx_ml.Binarizer"(%x) {threshold = 0.5} : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %f = "onnx_ml.ArrayFeatureExtractor"(%v, %i) : (tensor<6xf32>, tensor<2x2xi64>) -> tensor<1x4xf32>
  onnx.return %b, %f
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1, "" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<3x4xf64>, %v: tensor<6xf32>, %i: tensor<2x2xi64>) -> ("b": tensor<3x4xf64>, "f": tensor<1x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0.5> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT:   %1 = "onnx.Greater"(%x, %0) : (tensor<3x4xf64>, tensor<f64>) -> tensor<3x4xi1>
// CHECK-NEXT:   %b = "onnx.Cast"(%1) {to = 11} : (tensor<3x4xi1>) -> tensor<3x4xf64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Reshape"(%i, %2) : (tensor<2x2xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Gather"(%v, %3) {axis = 0} : (tensor<6xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %f = "onnx.Unsqueeze"(%4, %5) : (tensor<4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
// CHECK-NEXT:   onnx.return %b, %f
// CHECK-NEXT: }
