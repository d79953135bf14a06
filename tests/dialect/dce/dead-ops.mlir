// RUN: dce
// An op is live when a graph output needs one of its results, transitively;
// everything else goes, the constants that only fed dead ops included.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3xf32>) -> ("y": tensor<2x3xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %k = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %unused = "onnx.Mul"(%x, %k) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %also_unused = "onnx.Neg"(%unused) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %k2 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %values, %indices = "onnx.TopK"(%y, %k2) {axis = 1} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3xf32>) -> ("y": tensor<2x3xf32>) {
// CHECK-NEXT:   %y = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
