// RUN: opt --rules=pointwise
// A 1×1 convolution is a matrix product per image: W as [K, C] times x as
// [N, C, H·W] (views), the result viewed back; with strides a Slice with
// steps picks the visited positions first; a FusedConv (bias, activation)
// becomes a FusedMatMul with the bias as [K, 1]. The extraction takes the
// product where the cost model's MatMul beats its Conv (which reaches 0.53
// of MatMul's speed). Not rewritten: a 3×3 kernel, a padded 1×1 kernel.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<1x256x28x28xf32>, %w: tensor<512x256x1x1xf32>, %b: tensor<512xf32>, %w3: tensor<512x256x3x3xf32>) -> ("p": tensor<1x512x28x28xf32>, "strided": tensor<1x512x14x14xf32>, "fused": tensor<1x512x28x28xf32>, "k3": tensor<1x512x26x26xf32>, "padded": tensor<1x512x30x30xf32>) {
  %p = "onnx.Conv"(%x, %w) : (tensor<1x256x28x28xf32>, tensor<512x256x1x1xf32>) -> tensor<1x512x28x28xf32>
  %strided = "onnx.Conv"(%x, %w) {strides = [2, 2]} : (tensor<1x256x28x28xf32>, tensor<512x256x1x1xf32>) -> tensor<1x512x14x14xf32>
  %fused = "omlc.FusedConv"(%x, %w, %b) {activation = "Relu"} : (tensor<1x256x28x28xf32>, tensor<512x256x1x1xf32>, tensor<512xf32>) -> tensor<1x512x28x28xf32>
  %k3 = "onnx.Conv"(%x, %w3) : (tensor<1x256x28x28xf32>, tensor<512x256x3x3xf32>) -> tensor<1x512x26x26xf32>
  %padded = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x256x28x28xf32>, tensor<512x256x1x1xf32>) -> tensor<1x512x30x30xf32>
  onnx.return %p, %strided, %fused, %k3, %padded
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x256x28x28xf32>, %w: tensor<512x256x1x1xf32>, %b: tensor<512xf32>, %w3: tensor<512x256x3x3xf32>) -> ("p": tensor<1x512x28x28xf32>, "strided": tensor<1x512x14x14xf32>, "fused": tensor<1x512x28x28xf32>, "k3": tensor<1x512x26x26xf32>, "padded": tensor<1x512x30x30xf32>) {
// CHECK-NEXT:   %k3 = "onnx.Conv"(%x, %w3) : (tensor<1x256x28x28xf32>, tensor<512x256x3x3xf32>) -> tensor<1x512x26x26xf32>
// CHECK-NEXT:   %padded = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x256x28x28xf32>, tensor<512x256x1x1xf32>) -> tensor<1x512x30x30xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[512, 256]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%w, %0) : (tensor<512x256x1x1xf32>, tensor<2xi64>) -> tensor<512x256xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[1, 256, 784]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %3 = "onnx.Reshape"(%x, %2) : (tensor<1x256x28x28xf32>, tensor<3xi64>) -> tensor<1x256x784xf32>
// CHECK-NEXT:   %4 = "onnx.MatMul"(%1, %3) : (tensor<512x256xf32>, tensor<1x256x784xf32>) -> tensor<1x512x784xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[1, 512, 28, 28]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %6 = "onnx.Reshape"(%4, %5) : (tensor<1x512x784xf32>, tensor<4xi64>) -> tensor<1x512x28x28xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<28> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %11 = "onnx.Slice"(%x, %7, %8, %9, %10) : (tensor<1x256x28x28xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x256x14x14xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[1, 256, 196]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %13 = "onnx.Reshape"(%11, %12) : (tensor<1x256x14x14xf32>, tensor<3xi64>) -> tensor<1x256x196xf32>
// CHECK-NEXT:   %14 = "onnx.MatMul"(%1, %13) : (tensor<512x256xf32>, tensor<1x256x196xf32>) -> tensor<1x512x196xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<[1, 512, 14, 14]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %16 = "onnx.Reshape"(%14, %15) : (tensor<1x512x196xf32>, tensor<4xi64>) -> tensor<1x512x14x14xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[512, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %18 = "onnx.Reshape"(%b, %17) : (tensor<512xf32>, tensor<2xi64>) -> tensor<512x1xf32>
// CHECK-NEXT:   %19 = "omlc.FusedMatMul"(%1, %3, %18) {activation = "Relu"} : (tensor<512x256xf32>, tensor<1x256x784xf32>, tensor<512x1xf32>) -> tensor<1x512x784xf32>
// CHECK-NEXT:   %20 = "onnx.Reshape"(%19, %5) : (tensor<1x512x784xf32>, tensor<4xi64>) -> tensor<1x512x28x28xf32>
// CHECK-NEXT:   onnx.return %6, %16, %20, %k3, %padded
// CHECK-NEXT: }
