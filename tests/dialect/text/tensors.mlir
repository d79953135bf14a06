// RUN: verify,roundtrip
// Tensor literals: splats, nested lists, scalars, empty tensors, every
// element type with a literal form, strings, hex for the rest, and elided
// data.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "consts"() -> () {
  %splat = "onnx.Constant"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %scalar = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %empty = "onnx.Constant"() {value = dense<[]> : tensor<0xf32>} : () -> tensor<0xf32>
  %empty2 = "onnx.Constant"() {value = dense<[]> : tensor<2x0x3xf32>} : () -> tensor<2x0x3xf32>
  %nested = "onnx.Constant"() {value = dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : tensor<2x2x2xi32>} : () -> tensor<2x2x2xi32>
  %bool = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %i8 = "onnx.Constant"() {value = dense<[-128, 127]> : tensor<2xi8>} : () -> tensor<2xi8>
  %i16 = "onnx.Constant"() {value = dense<[-32768, 32767]> : tensor<2xi16>} : () -> tensor<2xi16>
  %i64 = "onnx.Constant"() {value = dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>} : () -> tensor<2xi64>
  %u8 = "onnx.Constant"() {value = dense<[0, 255]> : tensor<2xui8>} : () -> tensor<2xui8>
  %u16 = "onnx.Constant"() {value = dense<[0, 65535]> : tensor<2xui16>} : () -> tensor<2xui16>
  %u32 = "onnx.Constant"() {value = dense<[0, 4294967295]> : tensor<2xui32>} : () -> tensor<2xui32>
  %u64 = "onnx.Constant"() {value = dense<[0, 18446744073709551615]> : tensor<2xui64>} : () -> tensor<2xui64>
  %f16 = "onnx.Constant"() {value = dense<[0.099975586, 65504.0, -inf, nan]> : tensor<4xf16>} : () -> tensor<4xf16>
  %bf16 = "onnx.Constant"() {value = dense<[0.100097656, 3.3895314e38, nan(0x7FC1)]> : tensor<3xbf16>} : () -> tensor<3xbf16>
  %f64 = "onnx.Constant"() {value = dense<[0.1, 1e300, 5e-324]> : tensor<3xf64>} : () -> tensor<3xf64>
  %strings = "onnx.Constant"() {value = dense<["a", "b\0a", ""]> : tensor<3xstring>} : () -> tensor<3xstring>
  %string = "onnx.Constant"() {value = dense<"x"> : tensor<string>} : () -> tensor<string>
  %string_splat = "onnx.Constant"() {value = dense<"y"> : tensor<3xstring>} : () -> tensor<3xstring>
  %i4 = "onnx.Constant"() {value = dense<"0x21"> : tensor<2xi4>} : () -> tensor<2xi4>
  %f8 = "onnx.Constant"() {value = dense<"0x38"> : tensor<1xf8E4M3FN>} : () -> tensor<1xf8E4M3FN>
  %c64 = "onnx.Constant"() {value = dense<"0x0000803F00000040"> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
  %bad_bool = "onnx.Constant"() {value = dense<"0x0201"> : tensor<2xi1>} : () -> tensor<2xi1>
  %elided = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32>
  %big = "onnx.Constant"() {value = dense<"0x00000000010000000200000003000000040000000500000006000000070000000800000009000000000000000100000002000000030000000400000005000000060000000700000008000000090000000000000001000000020000000300000004000000050000000600000007000000080000000900000000000000010000000A000000"> : tensor<33xi32>} : () -> tensor<33xi32>
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "consts"() -> () {
// CHECK-NEXT:   %splat = "onnx.Constant"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-NEXT:   %scalar = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %empty = "onnx.Constant"() {value = dense<[]> : tensor<0xf32>} : () -> tensor<0xf32>
// CHECK-NEXT:   %empty2 = "onnx.Constant"() {value = dense<[]> : tensor<2x0x3xf32>} : () -> tensor<2x0x3xf32>
// CHECK-NEXT:   %nested = "onnx.Constant"() {value = dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : tensor<2x2x2xi32>} : () -> tensor<2x2x2xi32>
// CHECK-NEXT:   %bool = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %i8 = "onnx.Constant"() {value = dense<[-128, 127]> : tensor<2xi8>} : () -> tensor<2xi8>
// CHECK-NEXT:   %i16 = "onnx.Constant"() {value = dense<[-32768, 32767]> : tensor<2xi16>} : () -> tensor<2xi16>
// CHECK-NEXT:   %i64 = "onnx.Constant"() {value = dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %u8 = "onnx.Constant"() {value = dense<[0, 255]> : tensor<2xui8>} : () -> tensor<2xui8>
// CHECK-NEXT:   %u16 = "onnx.Constant"() {value = dense<[0, 65535]> : tensor<2xui16>} : () -> tensor<2xui16>
// CHECK-NEXT:   %u32 = "onnx.Constant"() {value = dense<[0, 4294967295]> : tensor<2xui32>} : () -> tensor<2xui32>
// CHECK-NEXT:   %u64 = "onnx.Constant"() {value = dense<[0, 18446744073709551615]> : tensor<2xui64>} : () -> tensor<2xui64>
// CHECK-NEXT:   %f16 = "onnx.Constant"() {value = dense<[0.099975586, 65504.0, -inf, nan]> : tensor<4xf16>} : () -> tensor<4xf16>
// CHECK-NEXT:   %bf16 = "onnx.Constant"() {value = dense<[0.100097656, 3.3895314e38, nan(0x7FC1)]> : tensor<3xbf16>} : () -> tensor<3xbf16>
// CHECK-NEXT:   %f64 = "onnx.Constant"() {value = dense<[0.1, 1e300, 5e-324]> : tensor<3xf64>} : () -> tensor<3xf64>
// CHECK-NEXT:   %strings = "onnx.Constant"() {value = dense<["a", "b\0a", ""]> : tensor<3xstring>} : () -> tensor<3xstring>
// CHECK-NEXT:   %string = "onnx.Constant"() {value = dense<"x"> : tensor<string>} : () -> tensor<string>
// CHECK-NEXT:   %string_splat = "onnx.Constant"() {value = dense<"y"> : tensor<3xstring>} : () -> tensor<3xstring>
// CHECK-NEXT:   %i4 = "onnx.Constant"() {value = dense<"0x21"> : tensor<2xi4>} : () -> tensor<2xi4>
// CHECK-NEXT:   %f8 = "onnx.Constant"() {value = dense<"0x38"> : tensor<1xf8E4M3FN>} : () -> tensor<1xf8E4M3FN>
// CHECK-NEXT:   %c64 = "onnx.Constant"() {value = dense<"0x0000803F00000040"> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
// CHECK-NEXT:   %bad_bool = "onnx.Constant"() {value = dense<"0x0201"> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %elided = "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32>
// CHECK-NEXT:   %big = "onnx.Constant"() {value = dense<"0x00000000010000000200000003000000040000000500000006000000070000000800000009000000000000000100000002000000030000000400000005000000060000000700000008000000090000000000000001000000020000000300000004000000050000000600000007000000080000000900000000000000010000000A000000"> : tensor<33xi32>} : () -> tensor<33xi32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
