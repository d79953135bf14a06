// RUN: export,verify
// Training info: the initialization graph stands alone, the algorithm uses
// the main graph's values by name (here the initializer %w).
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.preview.training" = 1}}
onnx.graph "main"(%x: tensor<3xf32>, %w: tensor<3xf32> = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) -> ("y": tensor<3xf32>) {
  %v = "onnx.Constant"() {value = dense<2.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %m = "onnx.Mul"(%x, %w) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %y = "onnx.Add"(%m, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  onnx.return %y
}
onnx.training {initialization = onnx.graph "init"() -> ("w0": tensor<3xf32>) {
  %w0 = "onnx.Constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  onnx.return %w0
}, algorithm = onnx.graph "step"(%rate: tensor<f32>, %step: tensor<i64>, %grad: tensor<3xf32>, %h: tensor<3xf32>) -> ("w1": tensor<3xf32>, "h1": tensor<3xf32>) {
  %w1, %h1 = "onnx_training.Adagrad"(%rate, %step, %w, %grad, %h) {epsilon = 1e-6} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  onnx.return %w1, %h1
}, initialization_binding = {"w" = "w0"}, update_binding = {"w" = "w1"}}
onnx.training {algorithm = onnx.graph "no_op"() -> () {
  onnx.return
}}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.preview.training" = 1}}
// CHECK-NEXT: onnx.graph "main"(%x: tensor<3xf32>, %w: tensor<3xf32> = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) -> ("y": tensor<3xf32>) {
// CHECK-NEXT:   %v = "onnx.Constant"() {value = dense<2.0> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %m = "onnx.Mul"(%x, %w) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %y = "onnx.Add"(%m, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
// CHECK-NEXT: onnx.training {initialization = onnx.graph "init"() -> ("w0": tensor<3xf32>) {
// CHECK-NEXT:   %w0 = "onnx.Constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   onnx.return %w0
// CHECK-NEXT: }, algorithm = onnx.graph "step"(%rate: tensor<f32>, %step: tensor<i64>, %grad: tensor<3xf32>, %h: tensor<3xf32>) -> ("w1": tensor<3xf32>, "h1": tensor<3xf32>) {
// CHECK-NEXT:   %w1, %h1 = "onnx_training.Adagrad"(%rate, %step, %w, %grad, %h) {epsilon = 1e-6} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:   onnx.return %w1, %h1
// CHECK-NEXT: }, initialization_binding = {"w" = "w0"}, update_binding = {"w" = "w1"}}
// CHECK-NEXT: onnx.training {algorithm = onnx.graph "no_op"() -> () {
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }}
