// RUN: opt --rules=quant
// A MatMulInteger whose B is a constant [K, N] becomes a
// PackedMatMulInteger: B packed into 64-byte lines of 4 rows × 16 columns
// (zeros past K and N), its column sums, its zero point as int32. A uint8
// B is packed shifted by −128 into int8, its zero point with it (128 − 128
// = 0: dropped). Not rewritten: a B that is a graph input, and products
// too small for the packed kernel to win in the cost model.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<256x64xui8>, %s: tensor<256x62xi8>, %az: tensor<ui8>, %sz: tensor<i8>, %bin: tensor<64x64xi8>) -> ("y": tensor<256x64xi32>, "z": tensor<256x20xi32>, "v": tensor<256x64xi32>, "t": tensor<2x2xi32>) {
  %b = "onnx.Constant"() {value = dense<3> : tensor<64x64xi8>} : () -> tensor<64x64xi8>
  %y = "onnx.MatMulInteger"(%a, %b, %az) : (tensor<256x64xui8>, tensor<64x64xi8>, tensor<ui8>) -> tensor<256x64xi32>
  %c = "onnx.Constant"() {value = dense<200> : tensor<62x20xui8>} : () -> tensor<62x20xui8>
  %cz = "onnx.Constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %z = "onnx.MatMulInteger"(%s, %c, %sz, %cz) : (tensor<256x62xi8>, tensor<62x20xui8>, tensor<i8>, tensor<ui8>) -> tensor<256x20xi32>
  %v = "onnx.MatMulInteger"(%a, %bin, %az) : (tensor<256x64xui8>, tensor<64x64xi8>, tensor<ui8>) -> tensor<256x64xi32>
  %ta = "onnx.Constant"() {value = dense<1> : tensor<2x3xui8>} : () -> tensor<2x3xui8>
  %tb = "onnx.Constant"() {value = dense<2> : tensor<3x2xi8>} : () -> tensor<3x2xi8>
  %t = "onnx.MatMulInteger"(%ta, %tb) : (tensor<2x3xui8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  onnx.return %y, %z, %v, %t
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
// CHECK-NEXT: onnx.graph "g"(%a: tensor<256x64xui8>, %s: tensor<256x62xi8>, %az: tensor<ui8>, %sz: tensor<i8>, %bin: tensor<64x64xi8>) -> ("y": tensor<256x64xi32>, "z": tensor<256x20xi32>, "v": tensor<256x64xi32>, "t": tensor<2x2xi32>) {
// CHECK-NEXT:   %v = "onnx.MatMulInteger"(%a, %bin, %az) : (tensor<256x64xui8>, tensor<64x64xi8>, tensor<ui8>) -> tensor<256x64xi32>
// CHECK-NEXT:   %ta = "onnx.Constant"() {value = dense<1> : tensor<2x3xui8>} : () -> tensor<2x3xui8>
// CHECK-NEXT:   %tb = "onnx.Constant"() {value = dense<2> : tensor<3x2xi8>} : () -> tensor<3x2xi8>
// CHECK-NEXT:   %t = "onnx.MatMulInteger"(%ta, %tb) : (tensor<2x3xui8>, tensor<3x2xi8>) -> tensor<2x2xi32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<4x16x16x4xi8>} : () -> tensor<4x16x16x4xi8>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64xi32>} : () -> tensor<64xi32>
// CHECK-NEXT:   %2 = "omlc.PackedMatMulInteger"(%a, %0, %1, %az) : (tensor<256x64xui8>, tensor<4x16x16x4xi8>, tensor<64xi32>, tensor<ui8>) -> tensor<256x64xi32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<2x16x16x4xi8>} : () -> tensor<2x16x16x4xi8>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<20xi32>} : () -> tensor<20xi32>
// CHECK-NEXT:   %5 = "omlc.PackedMatMulInteger"(%s, %3, %4, %sz) : (tensor<256x62xi8>, tensor<2x16x16x4xi8>, tensor<20xi32>, tensor<i8>) -> tensor<256x20xi32>
// CHECK-NEXT:   onnx.return %2, %5, %v, %t
// CHECK-NEXT: }
