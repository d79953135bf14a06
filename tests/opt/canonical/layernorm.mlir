// RUN: opt --rules=canonical
// LayerNorm spelled with ReduceMean over the last axis (opset 18: axes
// as an operand) is one LayerNormalization, whose scale and shift then
// absorb the per-feature Mul and Add after it. Not rewritten: the same
// spelling over axis 0 (not the last axis).
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<4x8xf32>) -> ("ln": tensor<4x8xf32>, "axis0": tensor<4x8xf32>) {
  %last = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = "onnx.Constant"() {value = dense<1.0e-05> : tensor<f32>} : () -> tensor<f32>
  %g = "onnx.Constant"() {value = dense<[1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %b = "onnx.Constant"() {value = dense<0.25> : tensor<8xf32>} : () -> tensor<8xf32>
  %m = "onnx.ReduceMean"(%x, %last) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %c = "onnx.Sub"(%x, %m) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %sq = "onnx.Pow"(%c, %two) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %var = "onnx.ReduceMean"(%sq, %last) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %sd = "onnx.Sqrt"(%ve) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %n = "onnx.Div"(%c, %sd) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %scaled = "onnx.Mul"(%n, %g) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %ln = "onnx.Add"(%scaled, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %first = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %m0 = "onnx.ReduceMean"(%x, %first) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %c0 = "onnx.Sub"(%x, %m0) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %sq0 = "onnx.Pow"(%c0, %two) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %var0 = "onnx.ReduceMean"(%sq0, %first) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %ve0 = "onnx.Add"(%var0, %eps) : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>
  %sd0 = "onnx.Sqrt"(%ve0) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %axis0 = "onnx.Div"(%c0, %sd0) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  onnx.return %ln, %axis0
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 18}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<4x8xf32>) -> ("ln": tensor<4x8xf32>, "axis0": tensor<4x8xf32>) {
// CHECK-NEXT:   %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %eps = "onnx.Constant"() {value = dense<1e-5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %g = "onnx.Constant"() {value = dense<[1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]> : tensor<8xf32>} : () -> tensor<8xf32>
// CHECK-NEXT:   %b = "onnx.Constant"() {value = dense<0.25> : tensor<8xf32>} : () -> tensor<8xf32>
// CHECK-NEXT:   %first = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %m0 = "onnx.ReduceMean"(%x, %first) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
// CHECK-NEXT:   %c0 = "onnx.Sub"(%x, %m0) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %sq0 = "onnx.Pow"(%c0, %two) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %var0 = "onnx.ReduceMean"(%sq0, %first) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
// CHECK-NEXT:   %ve0 = "onnx.Add"(%var0, %eps) : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>
// CHECK-NEXT:   %sd0 = "onnx.Sqrt"(%ve0) : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:   %axis0 = "onnx.Div"(%c0, %sd0) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %0 = "onnx.LayerNormalization"(%x, %g, %b) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   onnx.return %0, %axis0
// CHECK-NEXT: }
