// RUN: print
// Literals read in any form print canonically: equal elements as a splat,
// small hex as a literal, ints accepted for float elements, and a tensor
// without elements as [] whatever its shape.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"() -> () {
  %0 = "onnx.Constant"() {value = dense<[[1.5, 1.5], [1.5, 1.5]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %1 = "onnx.Constant"() {value = dense<"0x0000803F00000040"> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xf64>} : () -> tensor<2xf64>
  %3 = "onnx.Constant"() {value = dense<7> : tensor<1xi64>} : () -> tensor<1xi64>
  %4 = "onnx.Constant"() {value = dense<"0X0A0b"> : tensor<2xui8>} : () -> tensor<2xui8>
  %5 = "onnx.Constant"() {value = dense<[[], []]> : tensor<2x0xf32>} : () -> tensor<2x0xf32>
  %6 = "onnx.Constant"() {value = dense<[]> : tensor<1000000000x0xstring>} : () -> tensor<1000000000x0xstring>
  onnx.return
}
// CHECK: {value = dense<1.5> : tensor<2x2xf32>}
// CHECK-NEXT: {value = dense<[1.0, 2.0]> : tensor<2xf32>}
// CHECK-NEXT: {value = dense<[1.0, 2.0]> : tensor<2xf64>}
// CHECK-NEXT: {value = dense<[7]> : tensor<1xi64>}
// CHECK-NEXT: {value = dense<[10, 11]> : tensor<2xui8>}
// CHECK-NEXT: {value = dense<[]> : tensor<2x0xf32>}
// CHECK-NEXT: {value = dense<[]> : tensor<1000000000x0xstring>}
