// RUN: export
// Tensors of every element type, in raw_data (strings in string_data):
// as initializers (the unnamed Constants at the top), as a scalar and an
// empty tensor, and as attributes of Constant nodes (named, so they stay
// nodes). Not verified: Constant-21 does not allow every type, initializers
// do.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "tensors"() -> ("f32": tensor<2xf32>, "ui8": tensor<2xui8>, "i8": tensor<2xi8>, "ui16": tensor<2xui16>, "i16": tensor<2xi16>, "i32": tensor<2xi32>, "i64": tensor<2xi64>, "string": tensor<2xstring>, "i1": tensor<2xi1>, "f16": tensor<2xf16>, "f64": tensor<2xf64>, "ui32": tensor<2xui32>, "ui64": tensor<2xui64>, "cf32": tensor<1xcomplex<f32>>, "cf64": tensor<1xcomplex<f64>>, "bf16": tensor<2xbf16>, "f8E4M3FN": tensor<2xf8E4M3FN>, "f8E4M3FNUZ": tensor<2xf8E4M3FNUZ>, "f8E5M2": tensor<2xf8E5M2>, "f8E5M2FNUZ": tensor<2xf8E5M2FNUZ>, "ui4": tensor<2xui4>, "i4": tensor<2xi4>, "f4E2M1FN": tensor<2xf4E2M1FN>, "f8E8M0FNU": tensor<2xf8E8M0FNU>, "ui2": tensor<4xui2>, "i2": tensor<4xi2>, "f6E2M3FN": tensor<4xf6E2M3FN>, "f6E3M2FN": tensor<4xf6E3M2FN>, "scalar": tensor<f32>, "empty": tensor<2x0xi64>, "node": tensor<2xf8E4M3FN>, "node_strings": tensor<2xstring>) {
  %f32 = "onnx.Constant"() {value = dense<[1.5, -0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ui8 = "onnx.Constant"() {value = dense<[0, 255]> : tensor<2xui8>} : () -> tensor<2xui8>
  %i8 = "onnx.Constant"() {value = dense<[-128, 127]> : tensor<2xi8>} : () -> tensor<2xi8>
  %ui16 = "onnx.Constant"() {value = dense<[0, 65535]> : tensor<2xui16>} : () -> tensor<2xui16>
  %i16 = "onnx.Constant"() {value = dense<[-32768, 32767]> : tensor<2xi16>} : () -> tensor<2xi16>
  %i32 = "onnx.Constant"() {value = dense<[-1, 7]> : tensor<2xi32>} : () -> tensor<2xi32>
  %i64 = "onnx.Constant"() {value = dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>} : () -> tensor<2xi64>
  %string = "onnx.Constant"() {value = dense<["a", "b\0a"]> : tensor<2xstring>} : () -> tensor<2xstring>
  %i1 = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %f16 = "onnx.Constant"() {value = dense<[0.099975586, -inf]> : tensor<2xf16>} : () -> tensor<2xf16>
  %f64 = "onnx.Constant"() {value = dense<[0.1, 5e-324]> : tensor<2xf64>} : () -> tensor<2xf64>
  %ui32 = "onnx.Constant"() {value = dense<[0, 4294967295]> : tensor<2xui32>} : () -> tensor<2xui32>
  %ui64 = "onnx.Constant"() {value = dense<[0, 18446744073709551615]> : tensor<2xui64>} : () -> tensor<2xui64>
  %cf32 = "onnx.Constant"() {value = dense<"0x0000803F00000040"> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
  %cf64 = "onnx.Constant"() {value = dense<"0x000000000000F03F0000000000000040"> : tensor<1xcomplex<f64>>} : () -> tensor<1xcomplex<f64>>
  %bf16 = "onnx.Constant"() {value = dense<[0.100097656, nan(0x7FC1)]> : tensor<2xbf16>} : () -> tensor<2xbf16>
  %f8E4M3FN = "onnx.Constant"() {value = dense<"0x387F"> : tensor<2xf8E4M3FN>} : () -> tensor<2xf8E4M3FN>
  %f8E4M3FNUZ = "onnx.Constant"() {value = dense<"0x3880"> : tensor<2xf8E4M3FNUZ>} : () -> tensor<2xf8E4M3FNUZ>
  %f8E5M2 = "onnx.Constant"() {value = dense<"0x3C7F"> : tensor<2xf8E5M2>} : () -> tensor<2xf8E5M2>
  %f8E5M2FNUZ = "onnx.Constant"() {value = dense<"0x3C80"> : tensor<2xf8E5M2FNUZ>} : () -> tensor<2xf8E5M2FNUZ>
  %ui4 = "onnx.Constant"() {value = dense<"0x21"> : tensor<2xui4>} : () -> tensor<2xui4>
  %i4 = "onnx.Constant"() {value = dense<"0xF1"> : tensor<2xi4>} : () -> tensor<2xi4>
  %f4E2M1FN = "onnx.Constant"() {value = dense<"0x2A"> : tensor<2xf4E2M1FN>} : () -> tensor<2xf4E2M1FN>
  %f8E8M0FNU = "onnx.Constant"() {value = dense<"0x7F80"> : tensor<2xf8E8M0FNU>} : () -> tensor<2xf8E8M0FNU>
  %ui2 = "onnx.Constant"() {value = dense<"0x1B"> : tensor<4xui2>} : () -> tensor<4xui2>
  %i2 = "onnx.Constant"() {value = dense<"0xE4"> : tensor<4xi2>} : () -> tensor<4xi2>
  %f6E2M3FN = "onnx.Constant"() {value = dense<"0x41100C"> : tensor<4xf6E2M3FN>} : () -> tensor<4xf6E2M3FN>
  %f6E3M2FN = "onnx.Constant"() {value = dense<"0xFF0F00"> : tensor<4xf6E3M2FN>} : () -> tensor<4xf6E3M2FN>
  %scalar = "onnx.Constant"() {value = dense<2.5> : tensor<f32>} : () -> tensor<f32>
  %empty = "onnx.Constant"() {value = dense<[]> : tensor<2x0xi64>} : () -> tensor<2x0xi64>
  %node = "onnx.Constant"() {value = dense<"0x387F"> : tensor<2xf8E4M3FN>} : () -> tensor<2xf8E4M3FN> loc("k")
  %node_strings = "onnx.Constant"() {value = dense<["x", ""]> : tensor<2xstring>} : () -> tensor<2xstring> loc("s")
  onnx.return %f32, %ui8, %i8, %ui16, %i16, %i32, %i64, %string, %i1, %f16, %f64, %ui32, %ui64, %cf32, %cf64, %bf16, %f8E4M3FN, %f8E4M3FNUZ, %f8E5M2, %f8E5M2FNUZ, %ui4, %i4, %f4E2M1FN, %f8E8M0FNU, %ui2, %i2, %f6E2M3FN, %f6E3M2FN, %scalar, %empty, %node, %node_strings
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "tensors"() -> ("f32": tensor<2xf32>, "ui8": tensor<2xui8>, "i8": tensor<2xi8>, "ui16": tensor<2xui16>, "i16": tensor<2xi16>, "i32": tensor<2xi32>, "i64": tensor<2xi64>, "string": tensor<2xstring>, "i1": tensor<2xi1>, "f16": tensor<2xf16>, "f64": tensor<2xf64>, "ui32": tensor<2xui32>, "ui64": tensor<2xui64>, "cf32": tensor<1xcomplex<f32>>, "cf64": tensor<1xcomplex<f64>>, "bf16": tensor<2xbf16>, "f8E4M3FN": tensor<2xf8E4M3FN>, "f8E4M3FNUZ": tensor<2xf8E4M3FNUZ>, "f8E5M2": tensor<2xf8E5M2>, "f8E5M2FNUZ": tensor<2xf8E5M2FNUZ>, "ui4": tensor<2xui4>, "i4": tensor<2xi4>, "f4E2M1FN": tensor<2xf4E2M1FN>, "f8E8M0FNU": tensor<2xf8E8M0FNU>, "ui2": tensor<4xui2>, "i2": tensor<4xi2>, "f6E2M3FN": tensor<4xf6E2M3FN>, "f6E3M2FN": tensor<4xf6E3M2FN>, "scalar": tensor<f32>, "empty": tensor<2x0xi64>, "node": tensor<2xf8E4M3FN>, "node_strings": tensor<2xstring>) {
// CHECK-NEXT:   %f32 = "onnx.Constant"() {value = dense<[1.5, -0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %ui8 = "onnx.Constant"() {value = dense<[0, 255]> : tensor<2xui8>} : () -> tensor<2xui8>
// CHECK-NEXT:   %i8 = "onnx.Constant"() {value = dense<[-128, 127]> : tensor<2xi8>} : () -> tensor<2xi8>
// CHECK-NEXT:   %ui16 = "onnx.Constant"() {value = dense<[0, 65535]> : tensor<2xui16>} : () -> tensor<2xui16>
// CHECK-NEXT:   %i16 = "onnx.Constant"() {value = dense<[-32768, 32767]> : tensor<2xi16>} : () -> tensor<2xi16>
// CHECK-NEXT:   %i32 = "onnx.Constant"() {value = dense<[-1, 7]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:   %i64 = "onnx.Constant"() {value = dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %string = "onnx.Constant"() {value = dense<["a", "b\0a"]> : tensor<2xstring>} : () -> tensor<2xstring>
// CHECK-NEXT:   %i1 = "onnx.Constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %f16 = "onnx.Constant"() {value = dense<[0.099975586, -inf]> : tensor<2xf16>} : () -> tensor<2xf16>
// CHECK-NEXT:   %f64 = "onnx.Constant"() {value = dense<[0.1, 5e-324]> : tensor<2xf64>} : () -> tensor<2xf64>
// CHECK-NEXT:   %ui32 = "onnx.Constant"() {value = dense<[0, 4294967295]> : tensor<2xui32>} : () -> tensor<2xui32>
// CHECK-NEXT:   %ui64 = "onnx.Constant"() {value = dense<[0, 18446744073709551615]> : tensor<2xui64>} : () -> tensor<2xui64>
// CHECK-NEXT:   %cf32 = "onnx.Constant"() {value = dense<"0x0000803F00000040"> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
// CHECK-NEXT:   %cf64 = "onnx.Constant"() {value = dense<"0x000000000000F03F0000000000000040"> : tensor<1xcomplex<f64>>} : () -> tensor<1xcomplex<f64>>
// CHECK-NEXT:   %bf16 = "onnx.Constant"() {value = dense<[0.100097656, nan(0x7FC1)]> : tensor<2xbf16>} : () -> tensor<2xbf16>
// CHECK-NEXT:   %f8E4M3FN = "onnx.Constant"() {value = dense<"0x387F"> : tensor<2xf8E4M3FN>} : () -> tensor<2xf8E4M3FN>
// CHECK-NEXT:   %f8E4M3FNUZ = "onnx.Constant"() {value = dense<"0x3880"> : tensor<2xf8E4M3FNUZ>} : () -> tensor<2xf8E4M3FNUZ>
// CHECK-NEXT:   %f8E5M2 = "onnx.Constant"() {value = dense<"0x3C7F"> : tensor<2xf8E5M2>} : () -> tensor<2xf8E5M2>
// CHECK-NEXT:   %f8E5M2FNUZ = "onnx.Constant"() {value = dense<"0x3C80"> : tensor<2xf8E5M2FNUZ>} : () -> tensor<2xf8E5M2FNUZ>
// CHECK-NEXT:   %ui4 = "onnx.Constant"() {value = dense<"0x21"> : tensor<2xui4>} : () -> tensor<2xui4>
// CHECK-NEXT:   %i4 = "onnx.Constant"() {value = dense<"0xF1"> : tensor<2xi4>} : () -> tensor<2xi4>
// CHECK-NEXT:   %f4E2M1FN = "onnx.Constant"() {value = dense<"0x2A"> : tensor<2xf4E2M1FN>} : () -> tensor<2xf4E2M1FN>
// CHECK-NEXT:   %f8E8M0FNU = "onnx.Constant"() {value = dense<"0x7F80"> : tensor<2xf8E8M0FNU>} : () -> tensor<2xf8E8M0FNU>
// CHECK-NEXT:   %ui2 = "onnx.Constant"() {value = dense<"0x1B"> : tensor<4xui2>} : () -> tensor<4xui2>
// CHECK-NEXT:   %i2 = "onnx.Constant"() {value = dense<"0xE4"> : tensor<4xi2>} : () -> tensor<4xi2>
// CHECK-NEXT:   %f6E2M3FN = "onnx.Constant"() {value = dense<"0x41100C"> : tensor<4xf6E2M3FN>} : () -> tensor<4xf6E2M3FN>
// CHECK-NEXT:   %f6E3M2FN = "onnx.Constant"() {value = dense<"0xFF0F00"> : tensor<4xf6E3M2FN>} : () -> tensor<4xf6E3M2FN>
// CHECK-NEXT:   %scalar = "onnx.Constant"() {value = dense<2.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %empty = "onnx.Constant"() {value = dense<[]> : tensor<2x0xi64>} : () -> tensor<2x0xi64>
// CHECK-NEXT:   %node = "onnx.Constant"() {value = dense<"0x387F"> : tensor<2xf8E4M3FN>} : () -> tensor<2xf8E4M3FN> loc("k")
// CHECK-NEXT:   %node_strings = "onnx.Constant"() {value = dense<["x", ""]> : tensor<2xstring>} : () -> tensor<2xstring> loc("s")
// CHECK-NEXT:   onnx.return %f32, %ui8, %i8, %ui16, %i16, %i32, %i64, %string, %i1, %f16, %f64, %ui32, %ui64, %cf32, %cf64, %bf16, %f8E4M3FN, %f8E4M3FNUZ, %f8E5M2, %f8E5M2FNUZ, %ui4, %i4, %f4E2M1FN, %f8E8M0FNU, %ui2, %i2, %f6E2M3FN, %f6E3M2FN, %scalar, %empty, %node, %node_strings
// CHECK-NEXT: }
