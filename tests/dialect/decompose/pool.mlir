// RUN: decompose,verify
// MaxPool's Indices output and MaxUnpool (decompose/pool.rs): a 2x2 pool
// with stride 2 and column-major indices, gathered per kernel offset with a
// running first-maximum; MaxUnpool scattering into its inferred shape and
// padding to the declared one; a MaxPool without Indices stays.
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
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[1, 1, 9]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%x, %0) : (tensor<1x1x3x3xf32>, tensor<3xi64>) -> tensor<1x1x9xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[[[-inf]]]> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
// CHECK-NEXT:   %3 = "onnx.Concat"(%1, %2) {axis = 2} : (tensor<1x1x9xf32>, tensor<1x1x1xf32>) -> tensor<1x1x10xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Gather"(%3, %4) {axis = 2} : (tensor<1x1x10xf32>, tensor<1xi64>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %8 = "onnx.Gather"(%3, %7) {axis = 2} : (tensor<1x1x10xf32>, tensor<1xi64>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.Greater"(%8, %5) : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xi1>
// CHECK-NEXT:   %11 = "onnx.Where"(%10, %8, %5) : (tensor<1x1x1xi1>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %12 = "onnx.Where"(%10, %9, %6) : (tensor<1x1x1xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x1xi64>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Gather"(%3, %13) {axis = 2} : (tensor<1x1x10xf32>, tensor<1xi64>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %16 = "onnx.Greater"(%14, %11) : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xi1>
// CHECK-NEXT:   %17 = "onnx.Where"(%16, %14, %11) : (tensor<1x1x1xi1>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %18 = "onnx.Where"(%16, %15, %12) : (tensor<1x1x1xi1>, tensor<1xi64>, tensor<1x1x1xi64>) -> tensor<1x1x1xi64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %20 = "onnx.Gather"(%3, %19) {axis = 2} : (tensor<1x1x10xf32>, tensor<1xi64>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %22 = "onnx.Greater"(%20, %17) : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xi1>
// CHECK-NEXT:   %23 = "onnx.Where"(%22, %20, %17) : (tensor<1x1x1xi1>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %24 = "onnx.Where"(%22, %21, %18) : (tensor<1x1x1xi1>, tensor<1xi64>, tensor<1x1x1xi64>) -> tensor<1x1x1xi64>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[[[0]]]> : tensor<1x1x1xi64>} : () -> tensor<1x1x1xi64>
// CHECK-NEXT:   %26 = "onnx.Add"(%24, %25) : (tensor<1x1x1xi64>, tensor<1x1x1xi64>) -> tensor<1x1x1xi64>
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%23, %27) : (tensor<1x1x1xf32>, tensor<4xi64>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %z = "onnx.Reshape"(%26, %28) : (tensor<1x1x1xi64>, tensor<4xi64>) -> tensor<1x1x1x1xi64>
// CHECK-NEXT:   %p = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %shape = "onnx.Constant"() {value = dense<[1, 1, 5, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[16]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %30 = "onnx.ConstantOfShape"(%29) {value = dense<[0.0]> : tensor<1xf32>} : (tensor<1xi64>) -> tensor<16xf32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %32 = "onnx.Reshape"(%i, %31) : (tensor<1x1x2x2xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %34 = "onnx.Reshape"(%v, %33) : (tensor<1x1x2x2xf32>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:   %35 = "onnx.ScatterElements"(%30, %32, %34) {axis = 0} : (tensor<16xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<[1, 1, 4, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %37 = "onnx.Reshape"(%35, %36) : (tensor<16xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xi64>} : () -> tensor<8xi64>
// CHECK-NEXT:   %u = "onnx.Pad"(%37, %38) : (tensor<1x1x4x4xf32>, tensor<8xi64>) -> tensor<1x1x5x5xf32>
// CHECK-NEXT:   onnx.return %y, %z, %p, %u
// CHECK-NEXT: }
