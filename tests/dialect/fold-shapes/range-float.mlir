// RUN: fold-shapes
// A window function's body builds its angles with a float Range whose limit
// is a size cast to float: inference looks through the Cast of a known
// integer, so the Range (and what is computed from it) gets a static shape.
// The float Range itself is data, not shape arithmetic, and stays.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x5xf32>) -> ("angles": tensor<?xf32>) {
  %shape = "onnx.Shape"(%x) : (tensor<3x5xf32>) -> tensor<2xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %len = "onnx.Gather"(%shape, %one) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %limit = "onnx.Cast"(%len) {to = 1} : (tensor<i64>) -> tensor<f32>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %step = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %range = "onnx.Range"(%zero, %limit, %step) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %scale = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %angles = "onnx.Mul"(%range, %scale) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  onnx.return %angles
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<3x5xf32>) -> ("angles": tensor<5xf32>) {
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[3, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %len = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %limit = "onnx.Cast"(%len) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %step = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %range = "onnx.Range"(%zero, %limit, %step) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT:   %scale = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %angles = "onnx.Mul"(%range, %scale) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT:   onnx.return %angles
// CHECK-NEXT: }
