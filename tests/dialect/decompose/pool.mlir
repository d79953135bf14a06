// RUN: decompose,verify
// MaxUnpool (decompose/pool.rs) scattering into its inferred shape and
// padding to the declared one; MaxPool stays, with or without its Indices
// output (the lowering computes both, conv.rs).
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<1x1x3x3xf32>, %v: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> ("y": tensor<1x1x1x1xf32>, "z": tensor<1x1x1x1xi64>, "p": tensor<1x1x1x1xf32>, "u": tensor<1x1x5x5xf32>) {
  %y, %z = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], storage_order = 1, strides = [2, 2]} : (tensor<1x1x3x3xf32>) -> (tensor<1x1x1x1xf32>, tensor<1x1x1x1xi64>)
  %p = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  %shape = "onnx.Constant"() {value = dense<[1, 1, 5, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %u = "onnx.MaxUnpool"(%v, %i, %shape) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<1x1x5x5xf32>
  onnx.return %y, %z, %p, %u
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x1x3x3xf32>, %v: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> ("y": tensor<1x1x1x1xf32>, "z": tensor<1x1x1x1xi64>, "p": tensor<1x1x1x1xf32>, "u": tensor<1x1x5x5xf32>) {
// CHECK-NEXT:   %y, %z = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], storage_order = 1, strides = [2, 2]} : (tensor<1x1x3x3xf32>) -> (tensor<1x1x1x1xf32>, tensor<1x1x1x1xi64>)
// CHECK-NEXT:   %p = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[1, 1, 5, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[16]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.ConstantOfShape"(%0) {value = dense<[0.0]> : tensor<1xf32>} : (tensor<1xi64>) -> tensor<16xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Reshape"(%i, %2) : (tensor<1x1x2x2xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Reshape"(%v, %4) : (tensor<1x1x2x2xf32>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:   %6 = "onnx.ScatterElements"(%1, %3, %5) {axis = 0} : (tensor<16xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[1, 1, 4, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %8 = "onnx.Reshape"(%6, %7) : (tensor<16xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xi64>} : () -> tensor<8xi64>
// CHECK-NEXT:   %u = "onnx.Pad"(%8, %9) : (tensor<1x1x4x4xf32>, tensor<8xi64>) -> tensor<1x1x5x5xf32>
// CHECK-NEXT:   onnx.return %y, %z, %p, %u
// CHECK-NEXT: }
