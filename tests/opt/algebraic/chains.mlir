// RUN: opt --rules=algebraic
// Chains of transposes compose (and vanish when they compose to the
// identity), reshapes of reshapes read the input once, a cast through a
// type that holds every value of x is one cast. Not rewritten: a cast
// through a narrower type (f32 -> f16 -> f32 rounds), a reshape whose
// shape has a 0 (it copies a dim of the reshaped value).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3x4xf32>, %i: tensor<6xi8>, %f: tensor<4xf32>) -> ("back": tensor<2x3x4xf32>, "rotated": tensor<3x4x2xf32>, "flat": tensor<24xf32>, "widened": tensor<6xf32>, "rounded": tensor<4xf32>, "copied": tensor<6x2x2xf32>) {
  %t1 = "onnx.Transpose"(%x) {perm = [1, 0, 2]} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %back = "onnx.Transpose"(%t1) {perm = [1, 0, 2]} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %t2 = "onnx.Transpose"(%x) {perm = [0, 2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %rotated = "onnx.Transpose"(%t2) {perm = [2, 1, 0]} : (tensor<2x4x3xf32>) -> tensor<3x4x2xf32>
  %s1 = "onnx.Constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r1 = "onnx.Reshape"(%x, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %s2 = "onnx.Constant"() {value = dense<[24]> : tensor<1xi64>} : () -> tensor<1xi64>
  %flat = "onnx.Reshape"(%r1, %s2) : (tensor<6x4xf32>, tensor<1xi64>) -> tensor<24xf32>
  %wide = "onnx.Cast"(%i) {to = 6} : (tensor<6xi8>) -> tensor<6xi32>
  %widened = "onnx.Cast"(%wide) {to = 1} : (tensor<6xi32>) -> tensor<6xf32>
  %half = "onnx.Cast"(%f) {to = 10} : (tensor<4xf32>) -> tensor<4xf16>
  %rounded = "onnx.Cast"(%half) {to = 1} : (tensor<4xf16>) -> tensor<4xf32>
  %s3 = "onnx.Constant"() {value = dense<[0, 2, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %copied = "onnx.Reshape"(%r1, %s3) : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
  onnx.return %back, %rotated, %flat, %widened, %rounded, %copied
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x4xf32>, %i: tensor<6xi8>, %f: tensor<4xf32>) -> ("back": tensor<2x3x4xf32>, "rotated": tensor<3x4x2xf32>, "flat": tensor<24xf32>, "widened": tensor<6xf32>, "rounded": tensor<4xf32>, "copied": tensor<6x2x2xf32>) {
// CHECK-NEXT:   %s1 = "onnx.Constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %r1 = "onnx.Reshape"(%x, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
// CHECK-NEXT:   %s2 = "onnx.Constant"() {value = dense<[24]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %half = "onnx.Cast"(%f) {to = 10} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:   %rounded = "onnx.Cast"(%half) {to = 1} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:   %s3 = "onnx.Constant"() {value = dense<[0, 2, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %copied = "onnx.Reshape"(%r1, %s3) : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
// CHECK-NEXT:   %0 = "onnx.Transpose"(%x) {perm = [1, 2, 0]} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%x, %s2) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<24xf32>
// CHECK-NEXT:   %2 = "onnx.Cast"(%i) {to = 1} : (tensor<6xi8>) -> tensor<6xf32>
// CHECK-NEXT:   onnx.return %x, %0, %1, %2, %rounded, %copied
// CHECK-NEXT: }
