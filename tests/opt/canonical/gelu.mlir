// RUN: opt --rules=canonical
// The exporters' spellings of GELU become one omlc.Activation: the erf form
// (BERT) and the tanh form (GPT-2). Not rewritten: the erf form with a
// wrong constant (x/1.5 instead of x/√2).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x8xf32>) -> ("erf": tensor<2x8xf32>, "tanh": tensor<2x8xf32>, "other": tensor<2x8xf32>) {
  %sqrt2 = "onnx.Constant"() {value = dense<1.4142135> : tensor<f32>} : () -> tensor<f32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Div"(%x, %sqrt2) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = "onnx.Erf"(%d) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %e1 = "onnx.Add"(%e, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %xe = "onnx.Mul"(%x, %e1) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %erf = "onnx.Mul"(%xe, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %c = "onnx.Constant"() {value = dense<0.044715> : tensor<f32>} : () -> tensor<f32>
  %k = "onnx.Constant"() {value = dense<0.7978846> : tensor<f32>} : () -> tensor<f32>
  %hx = "onnx.Mul"(%x, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %x3 = "onnx.Pow"(%x, %three) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %cx3 = "onnx.Mul"(%x3, %c) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %inner = "onnx.Add"(%x, %cx3) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %scaled = "onnx.Mul"(%inner, %k) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %t = "onnx.Tanh"(%scaled) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %t1 = "onnx.Add"(%t, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %tanh = "onnx.Mul"(%hx, %t1) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %wrong = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %wd = "onnx.Div"(%x, %wrong) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %we = "onnx.Erf"(%wd) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %we1 = "onnx.Add"(%we, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %wxe = "onnx.Mul"(%x, %we1) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %other = "onnx.Mul"(%wxe, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  onnx.return %erf, %tanh, %other
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x8xf32>) -> ("erf": tensor<2x8xf32>, "tanh": tensor<2x8xf32>, "other": tensor<2x8xf32>) {
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %wrong = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %wd = "onnx.Div"(%x, %wrong) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %we = "onnx.Erf"(%wd) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %we1 = "onnx.Add"(%we, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %wxe = "onnx.Mul"(%x, %we1) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %other = "onnx.Mul"(%wxe, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %0 = "omlc.Activation"(%x) {activation = "Gelu"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %1 = "omlc.Activation"(%x) {activation = "GeluTanh"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   onnx.return %0, %1, %other
// CHECK-NEXT: }
