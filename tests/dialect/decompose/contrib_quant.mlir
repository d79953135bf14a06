// RUN: decompose,verify
// The quantized contrib ops between DequantizeLinear and QuantizeLinear:
// QLinearAdd/Mul, Sigmoid, LeakyRelu, Softmax, Concat, the average pools
// (channels last through Transposes), contrib Quantize/DequantizeLinear as
// ai.onnx's.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%x: tensor<1x3x4xf32>) -> ("y": tensor<1x6x3xf32>, "qg": tensor<1x6x1xui8>) {
  %s = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %q = "ms.QuantizeLinear"(%x, %s, %z) : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %qa = "ms.QLinearAdd"(%q, %s, %z, %q, %s, %z, %s, %z) : (!onnx.unknown, tensor<f32>, tensor<ui8>, !onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %qm = "ms.QLinearMul"(%qa, %s, %z, %q, %s, %z, %s, %z) : (!onnx.unknown, tensor<f32>, tensor<ui8>, !onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %qs = "ms.QLinearSigmoid"(%qm, %s, %z, %s, %z) : (!onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %ql = "ms.QLinearLeakyRelu"(%qs, %s, %z, %s, %z) {alpha = 0.1} : (!onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %qx = "ms.QLinearSoftmax"(%ql, %s, %z, %s, %z) {axis = -1, opset = 13} : (!onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %qc = "ms.QLinearConcat"(%s, %z, %qx, %s, %z, %q, %s, %z) {axis = 1} : (tensor<f32>, tensor<ui8>, !onnx.unknown, tensor<f32>, tensor<ui8>, !onnx.unknown, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %qg = "ms.QLinearGlobalAveragePool"(%qc, %s, %z, %s, %z) : (!onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x6x1xui8>
  %qp = "ms.QLinearAveragePool"(%qc, %s, %z, %s, %z) {channels_last = 1, kernel_shape = [2]} : (!onnx.unknown, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %y = "ms.DequantizeLinear"(%qp, %s, %z) : (!onnx.unknown, tensor<f32>, tensor<ui8>) -> tensor<1x6x3xf32>
  onnx.return %y, %qg
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x3x4xf32>) -> ("y": tensor<1x6x3xf32>, "qg": tensor<1x6x1xui8>) {
// CHECK-NEXT:   %s = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %z = "onnx.Constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
// CHECK-NEXT:   %q = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1} : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xui8>
// CHECK-NEXT:   %0 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %1 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %2 = "onnx.Add"(%0, %1) : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %qa = "onnx.QuantizeLinear"(%2, %s, %z) : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xui8>
// CHECK-NEXT:   %3 = "onnx.DequantizeLinear"(%qa, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %4 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %5 = "onnx.Mul"(%3, %4) : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %qm = "onnx.QuantizeLinear"(%5, %s, %z) : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xui8>
// CHECK-NEXT:   %6 = "onnx.DequantizeLinear"(%qm, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %7 = "onnx.Sigmoid"(%6) : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %qs = "onnx.QuantizeLinear"(%7, %s, %z) : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xui8>
// CHECK-NEXT:   %8 = "onnx.DequantizeLinear"(%qs, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %9 = "onnx.LeakyRelu"(%8) {alpha = 0.1} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %ql = "onnx.QuantizeLinear"(%9, %s, %z) : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xui8>
// CHECK-NEXT:   %10 = "onnx.DequantizeLinear"(%ql, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %11 = "onnx.Softmax"(%10) {axis = 2} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %qx = "onnx.QuantizeLinear"(%11, %s, %z) : (tensor<1x3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xui8>
// CHECK-NEXT:   %12 = "onnx.DequantizeLinear"(%qx, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %13 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4xf32>
// CHECK-NEXT:   %14 = "onnx.Concat"(%12, %13) {axis = 1} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK-NEXT:   %qc = "onnx.QuantizeLinear"(%14, %s, %z) : (tensor<1x6x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x4xui8>
// CHECK-NEXT:   %15 = "onnx.DequantizeLinear"(%qc, %s, %z) : (tensor<1x6x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x6x4xf32>
// CHECK-NEXT:   %16 = "onnx.GlobalAveragePool"(%15) : (tensor<1x6x4xf32>) -> tensor<1x6x1xf32>
// CHECK-NEXT:   %qg = "onnx.QuantizeLinear"(%16, %s, %z) : (tensor<1x6x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x1xui8>
// CHECK-NEXT:   %17 = "onnx.DequantizeLinear"(%qc, %s, %z) : (tensor<1x6x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x6x4xf32>
// CHECK-NEXT:   %18 = "onnx.Transpose"(%17) {perm = [0, 2, 1]} : (tensor<1x6x4xf32>) -> tensor<1x4x6xf32>
// CHECK-NEXT:   %19 = "onnx.AveragePool"(%18) {kernel_shape = [2]} : (tensor<1x4x6xf32>) -> tensor<1x4x5xf32>
// CHECK-NEXT:   %20 = "onnx.Transpose"(%19) {perm = [0, 2, 1]} : (tensor<1x4x5xf32>) -> tensor<1x5x4xf32>
// CHECK-NEXT:   %qp = "onnx.QuantizeLinear"(%20, %s, %z) : (tensor<1x5x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5x4xui8>
// CHECK-NEXT:   %y = "ms.DequantizeLinear"(%qp, %s, %z) : (tensor<1x5x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x6x3xf32>
// CHECK-NEXT:   onnx.return %y, %qg
// CHECK-NEXT: }
