// RUN: opt --rules=canonical
// x·sigmoid(x) (either order) is SiLU, x·clip(x + 3, 0, 6)/6 HardSwish.
// Not rewritten: x·sigmoid(y) of another value.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<8xf32>, %y: tensor<8xf32>) -> ("silu": tensor<8xf32>, "swapped": tensor<8xf32>, "hswish": tensor<8xf32>, "gated": tensor<8xf32>) {
  %s = "onnx.Sigmoid"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %silu = "onnx.Mul"(%x, %s) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %swapped = "onnx.Mul"(%s, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %six = "onnx.Constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %x3 = "onnx.Add"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c = "onnx.Clip"(%x3, %zero, %six) : (tensor<8xf32>, tensor<f32>, tensor<f32>) -> tensor<8xf32>
  %xc = "onnx.Mul"(%x, %c) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %hswish = "onnx.Div"(%xc, %six) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %sy = "onnx.Sigmoid"(%y) : (tensor<8xf32>) -> tensor<8xf32>
  %gated = "onnx.Mul"(%x, %sy) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  onnx.return %silu, %swapped, %hswish, %gated
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<8xf32>, %y: tensor<8xf32>) -> ("silu": tensor<8xf32>, "swapped": tensor<8xf32>, "hswish": tensor<8xf32>, "gated": tensor<8xf32>) {
// CHECK-NEXT:   %sy = "onnx.Sigmoid"(%y) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %gated = "onnx.Mul"(%x, %sy) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %0 = "omlc.Activation"(%x) {activation = "Silu"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %1 = "onnx.HardSwish"(%x) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   onnx.return %0, %0, %1, %gated
// CHECK-NEXT: }
