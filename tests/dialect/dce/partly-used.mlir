// RUN: dce
// An op stays when any of its results is used, even if the others are not.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x4xf32>) -> ("idx": tensor<2x2xi64>) {
  %k = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %values, %idx = "onnx.TopK"(%x, %k) {axis = 1} : (tensor<2x4xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  onnx.return %idx
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x4xf32>) -> ("idx": tensor<2x2xi64>) {
// CHECK-NEXT:   %k = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %values, %idx = "onnx.TopK"(%x, %k) {axis = 1} : (tensor<2x4xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
// CHECK-NEXT:   onnx.return %idx
// CHECK-NEXT: }
