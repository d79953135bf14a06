// RUN: infer-shapes
// Convolutions and pools (ops/conv.rs): out = floor((d + pads - ((k-1)*dil
// + 1)) / s) + 1 per spatial dim (ceil with ceil_mode), ceil(d / s) with
// SAME padding; symbolic spatial dims stay symbolic: polynomials when the
// division is exact (stride 1), floor atoms otherwise.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "conv"(%x: tensor<"N"x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %gw: tensor<6x1x3x3xf32>, %tw: tensor<3x4x3x3xf32>, %seq: tensor<1x3x"L"xf32>, %w1: tensor<4x3x3xf32>, %xi: tensor<1x3x8x8xui8>, %wi: tensor<2x3x3x3xui8>, %cols: tensor<1x12x4xf32>) -> () {
  %conv = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<"N"x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> !onnx.unknown
  %valid = "onnx.Conv"(%x, %w) {dilations = [2, 2]} : (tensor<"N"x3x32x32xf32>, tensor<8x3x3x3xf32>) -> !onnx.unknown
  %same = "onnx.Conv"(%x, %w) {auto_pad = "SAME_UPPER", strides = [3, 3]} : (tensor<"N"x3x32x32xf32>, tensor<8x3x3x3xf32>) -> !onnx.unknown
  %grouped = "onnx.Conv"(%x, %gw) {group = 3, kernel_shape = [3, 3]} : (tensor<"N"x3x32x32xf32>, tensor<6x1x3x3xf32>) -> !onnx.unknown
  %conv1d = "onnx.Conv"(%seq, %w1) {pads = [1, 1]} : (tensor<1x3x"L"xf32>, tensor<4x3x3xf32>) -> !onnx.unknown
  %strided1d = "onnx.Conv"(%seq, %w1) {strides = [2]} : (tensor<1x3x"L"xf32>, tensor<4x3x3xf32>) -> !onnx.unknown
  %transposed = "onnx.ConvTranspose"(%x, %tw) {strides = [2, 2], pads = [1, 1, 1, 1], output_padding = [1, 1]} : (tensor<"N"x3x32x32xf32>, tensor<3x4x3x3xf32>) -> !onnx.unknown
  %fixed = "onnx.ConvTranspose"(%x, %tw) {strides = [2, 2], output_shape = [64, 64]} : (tensor<"N"x3x32x32xf32>, tensor<3x4x3x3xf32>) -> !onnx.unknown
  %integer = "onnx.ConvInteger"(%xi, %wi) : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xui8>) -> !onnx.unknown
  %avg = "onnx.AveragePool"(%x) {kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1} : (tensor<"N"x3x32x32xf32>) -> !onnx.unknown
  %max, %indices = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<"N"x3x32x32xf32>) -> (!onnx.unknown, !onnx.unknown)
  %lp = "onnx.LpPool"(%seq) {kernel_shape = [2], p = 2} : (tensor<1x3x"L"xf32>) -> !onnx.unknown
  %gap = "onnx.GlobalAveragePool"(%x) : (tensor<"N"x3x32x32xf32>) -> !onnx.unknown
  %gmp = "onnx.GlobalMaxPool"(%seq) : (tensor<1x3x"L"xf32>) -> !onnx.unknown
  %unpooled = "onnx.MaxUnpool"(%max, %indices) {kernel_shape = [2, 2], strides = [2, 2]} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %image = "onnx.Constant"() {value = dense<[5, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %block = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %col2im = "onnx.Col2Im"(%cols, %image, %block) {strides = [2, 2]} : (tensor<1x12x4xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "conv"(%x: tensor<"N"x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %gw: tensor<6x1x3x3xf32>, %tw: tensor<3x4x3x3xf32>, %seq: tensor<1x3x"L"xf32>, %w1: tensor<4x3x3xf32>, %xi: tensor<1x3x8x8xui8>, %wi: tensor<2x3x3x3xui8>, %cols: tensor<1x12x4xf32>) -> () {
// CHECK-NEXT:   %conv = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<"N"x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<"N"x8x16x16xf32>
// CHECK-NEXT:   %valid = "onnx.Conv"(%x, %w) {dilations = [2, 2]} : (tensor<"N"x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<"N"x8x28x28xf32>
// CHECK-NEXT:   %same = "onnx.Conv"(%x, %w) {auto_pad = "SAME_UPPER", strides = [3, 3]} : (tensor<"N"x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<"N"x8x11x11xf32>
// CHECK-NEXT:   %grouped = "onnx.Conv"(%x, %gw) {group = 3, kernel_shape = [3, 3]} : (tensor<"N"x3x32x32xf32>, tensor<6x1x3x3xf32>) -> tensor<"N"x6x30x30xf32>
// CHECK-NEXT:   %conv1d = "onnx.Conv"(%seq, %w1) {pads = [1, 1]} : (tensor<1x3x"L"xf32>, tensor<4x3x3xf32>) -> tensor<1x4x"L"xf32>
// CHECK-NEXT:   %strided1d = "onnx.Conv"(%seq, %w1) {strides = [2]} : (tensor<1x3x"L"xf32>, tensor<4x3x3xf32>) -> tensor<1x4x("floor((\"L\"+1),2)"-1)xf32>
// CHECK-NEXT:   %transposed = "onnx.ConvTranspose"(%x, %tw) {strides = [2, 2], pads = [1, 1, 1, 1], output_padding = [1, 1]} : (tensor<"N"x3x32x32xf32>, tensor<3x4x3x3xf32>) -> tensor<"N"x4x64x64xf32>
// CHECK-NEXT:   %fixed = "onnx.ConvTranspose"(%x, %tw) {strides = [2, 2], output_shape = [64, 64]} : (tensor<"N"x3x32x32xf32>, tensor<3x4x3x3xf32>) -> tensor<"N"x4x64x64xf32>
// CHECK-NEXT:   %integer = "onnx.ConvInteger"(%xi, %wi) : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x6x6xi32>
// CHECK-NEXT:   %avg = "onnx.AveragePool"(%x) {kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1} : (tensor<"N"x3x32x32xf32>) -> tensor<"N"x3x16x16xf32>
// CHECK-NEXT:   %max, %indices = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<"N"x3x32x32xf32>) -> (tensor<"N"x3x16x16xf32>, tensor<"N"x3x16x16xi64>)
// CHECK-NEXT:   %lp = "onnx.LpPool"(%seq) {kernel_shape = [2], p = 2} : (tensor<1x3x"L"xf32>) -> tensor<1x3x("L"-1)xf32>
// CHECK-NEXT:   %gap = "onnx.GlobalAveragePool"(%x) : (tensor<"N"x3x32x32xf32>) -> tensor<"N"x3x1x1xf32>
// CHECK-NEXT:   %gmp = "onnx.GlobalMaxPool"(%seq) : (tensor<1x3x"L"xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:   %unpooled = "onnx.MaxUnpool"(%max, %indices) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<"N"x3x16x16xf32>, tensor<"N"x3x16x16xi64>) -> tensor<"N"x3x32x32xf32>
// CHECK-NEXT:   %image = "onnx.Constant"() {value = dense<5> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %block = "onnx.Constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %col2im = "onnx.Col2Im"(%cols, %image, %block) {strides = [2, 2]} : (tensor<1x12x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x5x5xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
