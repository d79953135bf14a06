// RUN: decompose,verify
// The contrib activations, normalizations and fused ops (com.microsoft, and
// onnxruntime's SimplifiedLayerNormalization of ai.onnx): the Gelus as the
// internal Activation, the skip normalizations as an Add chain and
// LayerNormalization (opset 17) or the RMS steps, FusedMatMul as a MatMul
// of a transposed B times alpha, FusedGemm and FusedConv as the internal
// fused ops, NhwcConv as a Conv between two Transposes.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%x: tensor<2x3x8xf32>, %a: tensor<3x8xf32>, %img: tensor<1x3x5x5xf32>, %img4: tensor<1x4x5x5xf32>, %nhwc: tensor<1x5x5x3xf32>) -> ("y": tensor<2x3x8xf32>, "mm": tensor<2x3x4xf32>, "gm": tensor<3x4xf32>, "cv": tensor<1x4x5x5xf32>, "nc": tensor<1x5x5x4xf32>) {
  %b8 = "onnx.Constant"() {value = dense<[0.0, 0.14285715, 0.2857143, 0.42857143, 0.5714286, 0.71428573, 0.85714287, 1.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %w = "onnx.Constant"() {value = dense<1.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %k = "onnx.Constant"() {value = dense<1.0> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %kb = "onnx.Constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %g = "ms.Gelu"(%x) : (tensor<2x3x8xf32>) -> !onnx.unknown
  %fg = "ms.FastGelu"(%g, %b8) : (!onnx.unknown, tensor<8xf32>) -> !onnx.unknown
  %bg = "ms.BiasGelu"(%fg, %b8) : (!onnx.unknown, tensor<8xf32>) -> !onnx.unknown
  %qg = "ms.QuickGelu"(%bg) : (!onnx.unknown) -> !onnx.unknown
  %ba = "ms.BiasAdd"(%qg, %b8, %x) : (!onnx.unknown, tensor<8xf32>, tensor<2x3x8xf32>) -> !onnx.unknown
  %sl, _, _, %sum = "ms.SkipLayerNormalization"(%ba, %x, %b8, %b8, %b8) {epsilon = 1e-5} : (!onnx.unknown, tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (!onnx.unknown, none, none, !onnx.unknown)
  %ss = "ms.SkipSimplifiedLayerNormalization"(%sl, %sum, %b8) : (!onnx.unknown, !onnx.unknown, tensor<8xf32>) -> !onnx.unknown
  %y = "onnx.SimplifiedLayerNormalization"(%ss, %b8) {axis = -1, epsilon = 1e-5} : (!onnx.unknown, tensor<8xf32>) -> tensor<2x3x8xf32>
  %mm = "ms.FusedMatMul"(%y, %w) {alpha = 0.5, transB = 1} : (tensor<2x3x8xf32>, tensor<4x8xf32>) -> tensor<2x3x4xf32>
  %gm = "ms.FusedGemm"(%a, %w) {activation = "LeakyRelu", activation_alpha = 0.2, transB = 1} : (tensor<3x8xf32>, tensor<4x8xf32>) -> tensor<3x4xf32>
  %cv = "ms.FusedConv"(%img, %k, %kb, %img4) {activation = "Relu", pads = [1, 1, 1, 1]} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %nc = "ms.NhwcConv"(%nhwc, %k) {pads = [1, 1, 1, 1]} : (tensor<1x5x5x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x5x5x4xf32>
  onnx.return %y, %mm, %gm, %cv, %nc
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2x3x8xf32>, %a: tensor<3x8xf32>, %img: tensor<1x3x5x5xf32>, %img4: tensor<1x4x5x5xf32>, %nhwc: tensor<1x5x5x3xf32>) -> ("y": tensor<2x3x8xf32>, "mm": tensor<2x3x4xf32>, "gm": tensor<3x4xf32>, "cv": tensor<1x4x5x5xf32>, "nc": tensor<1x5x5x4xf32>) {
// CHECK-NEXT:   %b8 = "onnx.Constant"() {value = dense<[0.0, 0.14285715, 0.2857143, 0.42857143, 0.5714286, 0.71428573, 0.85714287, 1.0]> : tensor<8xf32>} : () -> tensor<8xf32>
// CHECK-NEXT:   %w = "onnx.Constant"() {value = dense<1.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
// CHECK-NEXT:   %k = "onnx.Constant"() {value = dense<1.0> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
// CHECK-NEXT:   %kb = "onnx.Constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:   %g = "omlc.Activation"(%x) {activation = "Gelu"} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %0 = "onnx.Add"(%g, %b8) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %fg = "omlc.Activation"(%0) {activation = "GeluTanh"} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %1 = "onnx.Add"(%fg, %b8) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %bg = "omlc.Activation"(%1) {activation = "Gelu"} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<1.702> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %3 = "onnx.Mul"(%bg, %2) : (tensor<2x3x8xf32>, tensor<f32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %4 = "onnx.Sigmoid"(%3) : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %qg = "onnx.Mul"(%bg, %4) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %5 = "onnx.Add"(%qg, %b8) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %ba = "onnx.Add"(%5, %x) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %6 = "onnx.Add"(%ba, %x) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %sum = "onnx.Add"(%6, %b8) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %sl = "onnx.LayerNormalization"(%sum, %b8, %b8) {axis = 2, epsilon = 1e-5} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %7 = "onnx.Add"(%sl, %sum) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %8 = "onnx.Mul"(%7, %7) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %9 = "onnx.ReduceMean"(%8) {keepdims = 1, axes = [2]} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<1e-12> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %11 = "onnx.Add"(%9, %10) : (tensor<2x3x1xf32>, tensor<f32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %12 = "onnx.Sqrt"(%11) : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %13 = "onnx.Div"(%7, %12) : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %ss = "onnx.Mul"(%13, %b8) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %14 = "onnx.Mul"(%ss, %ss) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %15 = "onnx.ReduceMean"(%14) {keepdims = 1, axes = [2]} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<1e-5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %17 = "onnx.Add"(%15, %16) : (tensor<2x3x1xf32>, tensor<f32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %18 = "onnx.Sqrt"(%17) : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %19 = "onnx.Div"(%ss, %18) : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %y = "onnx.Mul"(%19, %b8) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT:   %20 = "onnx.Transpose"(%w) {perm = [1, 0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:   %21 = "onnx.MatMul"(%y, %20) : (tensor<2x3x8xf32>, tensor<8x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %mm = "onnx.Mul"(%21, %22) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %gm = "omlc.FusedGemm"(%a, %w, none) {activation = "LeakyRelu", activation_params = [0.2], alpha = 1.0, beta = 1.0, transA = 0, transB = 1} : (tensor<3x8xf32>, tensor<4x8xf32>, none) -> tensor<3x4xf32>
// CHECK-NEXT:   %cv = "omlc.FusedConv"(%img, %k, %kb, %img4) {activation = "Relu", pads = [1, 1, 1, 1]} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
// CHECK-NEXT:   %23 = "onnx.Transpose"(%nhwc) {perm = [0, 3, 1, 2]} : (tensor<1x5x5x3xf32>) -> tensor<1x3x5x5xf32>
// CHECK-NEXT:   %24 = "onnx.Conv"(%23, %k, none) {pads = [1, 1, 1, 1]} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x5x5xf32>
// CHECK-NEXT:   %nc = "onnx.Transpose"(%24) {perm = [0, 2, 3, 1]} : (tensor<1x4x5x5xf32>) -> tensor<1x5x5x4xf32>
// CHECK-NEXT:   onnx.return %y, %mm, %gm, %cv, %nc
// CHECK-NEXT: }
