// RUN: opt --rules=fusion
// Conv + BatchNormalization + Relu, then a residual Add: the BN folds into
// the Conv's weights and bias (new constants), the Relu and the residual
// become one FusedConv. Not fused: a constant "residual" (conv-residual
// wants a run-time value; a per-channel constant folds into the bias).
onnx.model {ir_version = 8, opset_imports = {"" = 15}}
onnx.graph "g"(%x: tensor<1x2x4x4xf32>, %z: tensor<1x2x4x4xf32>) -> ("y": tensor<1x2x4x4xf32>, "shifted": tensor<1x2x4x4xf32>) {
  %w = "onnx.Constant"() {value = dense<[[[[1.0]], [[2.0]]], [[[0.5]], [[-1.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %scale = "onnx.Constant"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %bias = "onnx.Constant"() {value = dense<[0.1, -0.1]> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean = "onnx.Constant"() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %var = "onnx.Constant"() {value = dense<[4.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "onnx.Conv"(%x, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %n = "onnx.BatchNormalization"(%c, %scale, %bias, %mean, %var) {epsilon = 0.0} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = "onnx.Relu"(%n) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c2 = "onnx.Conv"(%r, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = "onnx.Add"(%c2, %z) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %shift = "onnx.Constant"() {value = dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %c3 = "onnx.Conv"(%x, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %shifted = "onnx.Add"(%c3, %shift) : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  onnx.return %y, %shifted
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 15, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x2x4x4xf32>, %z: tensor<1x2x4x4xf32>) -> ("y": tensor<1x2x4x4xf32>, "shifted": tensor<1x2x4x4xf32>) {
// CHECK-NEXT:   %w = "onnx.Constant"() {value = dense<[[[[1.0]], [[2.0]]], [[[0.5]], [[-1.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[[[[1.0]], [[2.0]]], [[[0.25]], [[-0.5]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[-0.9, -0.1]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %2 = "omlc.FusedConv"(%x, %0, %1) {activation = "Relu"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:   %3 = "omlc.FusedConv"(%2, %w, none, %z) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, none, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %5 = "onnx.Conv"(%x, %w, %4) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:   onnx.return %3, %5
// CHECK-NEXT: }
