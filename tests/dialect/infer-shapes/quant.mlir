// RUN: infer-shapes
// Quantization (ops/quant.rs): the result has x's shape; QuantizeLinear's
// element type is the zero point's (else output_dtype, else uint8),
// DequantizeLinear's the scale's; scales and zero points are per tensor,
// per axis, or blocked.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "quant"(%x: tensor<"N"x4x6xf32>, %s: tensor<f32>, %zp: tensor<i8>, %axis_s: tensor<4xf32>, %axis_zp: tensor<4xui8>, %block_s: tensor<"N"x4x2xf32>, %q: tensor<"N"x4x6xi8>, %f16: tensor<"N"x4xf16>, %s16: tensor<f16>) -> () {
  %per_tensor = "onnx.QuantizeLinear"(%x, %s, %zp) : (tensor<"N"x4x6xf32>, tensor<f32>, tensor<i8>) -> !onnx.unknown
  %default = "onnx.QuantizeLinear"(%x, %s) : (tensor<"N"x4x6xf32>, tensor<f32>) -> !onnx.unknown
  %typed = "onnx.QuantizeLinear"(%x, %s) {output_dtype = 17} : (tensor<"N"x4x6xf32>, tensor<f32>) -> !onnx.unknown
  %per_axis = "onnx.QuantizeLinear"(%x, %axis_s, %axis_zp) {axis = 1} : (tensor<"N"x4x6xf32>, tensor<4xf32>, tensor<4xui8>) -> !onnx.unknown
  %blocked = "onnx.QuantizeLinear"(%x, %block_s) {axis = 2, block_size = 3} : (tensor<"N"x4x6xf32>, tensor<"N"x4x2xf32>) -> !onnx.unknown
  %dequantized = "onnx.DequantizeLinear"(%q, %s, %zp) : (tensor<"N"x4x6xi8>, tensor<f32>, tensor<i8>) -> !onnx.unknown
  %half = "onnx.DequantizeLinear"(%q, %s16) : (tensor<"N"x4x6xi8>, tensor<f16>) -> !onnx.unknown
  %y, %scale, %zero = "onnx.DynamicQuantizeLinear"(%x) : (tensor<"N"x4x6xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "quant"(%x: tensor<"N"x4x6xf32>, %s: tensor<f32>, %zp: tensor<i8>, %axis_s: tensor<4xf32>, %axis_zp: tensor<4xui8>, %block_s: tensor<"N"x4x2xf32>, %q: tensor<"N"x4x6xi8>, %f16: tensor<"N"x4xf16>, %s16: tensor<f16>) -> () {
// CHECK-NEXT:   %per_tensor = "onnx.QuantizeLinear"(%x, %s, %zp) : (tensor<"N"x4x6xf32>, tensor<f32>, tensor<i8>) -> tensor<"N"x4x6xi8>
// CHECK-NEXT:   %default = "onnx.QuantizeLinear"(%x, %s) : (tensor<"N"x4x6xf32>, tensor<f32>) -> tensor<"N"x4x6xui8>
// CHECK-NEXT:   %typed = "onnx.QuantizeLinear"(%x, %s) {output_dtype = 17} : (tensor<"N"x4x6xf32>, tensor<f32>) -> tensor<"N"x4x6xf8E4M3FN>
// CHECK-NEXT:   %per_axis = "onnx.QuantizeLinear"(%x, %axis_s, %axis_zp) {axis = 1} : (tensor<"N"x4x6xf32>, tensor<4xf32>, tensor<4xui8>) -> tensor<"N"x4x6xui8>
// CHECK-NEXT:   %blocked = "onnx.QuantizeLinear"(%x, %block_s) {axis = 2, block_size = 3} : (tensor<"N"x4x6xf32>, tensor<"N"x4x2xf32>) -> tensor<"N"x4x6xui8>
// CHECK-NEXT:   %dequantized = "onnx.DequantizeLinear"(%q, %s, %zp) : (tensor<"N"x4x6xi8>, tensor<f32>, tensor<i8>) -> tensor<"N"x4x6xf32>
// CHECK-NEXT:   %half = "onnx.DequantizeLinear"(%q, %s16) : (tensor<"N"x4x6xi8>, tensor<f16>) -> tensor<"N"x4x6xf16>
// CHECK-NEXT:   %y, %scale, %zero = "onnx.DynamicQuantizeLinear"(%x) : (tensor<"N"x4x6xf32>) -> (tensor<"N"x4x6xui8>, tensor<f32>, tensor<ui8>)
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
