// RUN: export
// Types of every kind on inputs, intermediates (value_info) and outputs.
// A symbolic dim that is one name is that dim_param; a polynomial becomes
// a dim_param spelled like its text without quotes, which imports as a
// name: ("batch"*"seq") comes back as "batch*seq".
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "types"(%scalar: tensor<f32>, %unranked: tensor<*xi64>, %unknown_dim: tensor<?x3xf16>, %named: tensor<"batch"x"seq"xbf16>, %odd_param: tensor<"a b\0a"xui8>, %zero: tensor<0x2xi1>, %string: tensor<3xstring>, %complex: tensor<2xcomplex<f64>>, %f8: tensor<4xf8E5M2FNUZ>, %i4: tensor<4xi4>, %sparse: !onnx.sparse<3x"N"xf32>, %seq: !onnx.seq<tensor<*xf32>>, %map: !onnx.map<string, !onnx.seq<!onnx.map<i64, tensor<f32>>>>, %opt: !onnx.opt<!onnx.seq<tensor<2xi64>>>) -> ("product": tensor<("batch"*"seq")xbf16>, "affine": tensor<(2*"seq"+1)x("seq"-1)x(-"seq"+4)xbf16>, "odd": tensor<(2*"a b\0a")xui8>, "map": !onnx.map<string, !onnx.seq<!onnx.map<i64, tensor<f32>>>>, "opt": !onnx.opt<!onnx.seq<tensor<2xi64>>>) {
  %product = "onnx.Identity"(%named) : (tensor<"batch"x"seq"xbf16>) -> tensor<("batch"*"seq")xbf16>
  %affine = "onnx.Identity"(%product) : (tensor<("batch"*"seq")xbf16>) -> tensor<(2*"seq"+1)x("seq"-1)x(-"seq"+4)xbf16>
  %odd = "onnx.Identity"(%odd_param) : (tensor<"a b\0a"xui8>) -> tensor<(2*"a b\0a")xui8>
  %inner = "onnx.Identity"(%seq) : (!onnx.seq<tensor<*xf32>>) -> !onnx.seq<!onnx.unknown>
  %untyped = "onnx.Identity"(%inner) : (!onnx.seq<!onnx.unknown>) -> !onnx.unknown
  onnx.return %product, %affine, %odd, %map, %opt
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "types"(%scalar: tensor<f32>, %unranked: tensor<*xi64>, %unknown_dim: tensor<?x3xf16>, %named: tensor<"batch"x"seq"xbf16>, %odd_param: tensor<"a b\0a"xui8>, %zero: tensor<0x2xi1>, %string: tensor<3xstring>, %complex: tensor<2xcomplex<f64>>, %f8: tensor<4xf8E5M2FNUZ>, %i4: tensor<4xi4>, %sparse: !onnx.sparse<3x"N"xf32>, %seq: !onnx.seq<tensor<*xf32>>, %map: !onnx.map<string, !onnx.seq<!onnx.map<i64, tensor<f32>>>>, %opt: !onnx.opt<!onnx.seq<tensor<2xi64>>>) -> ("product": tensor<"batch*seq"xbf16>, "affine": tensor<"2*seq+1"x"seq-1"x"-seq+4"xbf16>, "odd": tensor<"2*a b\0a"xui8>, "map": !onnx.map<string, !onnx.seq<!onnx.map<i64, tensor<f32>>>>, "opt": !onnx.opt<!onnx.seq<tensor<2xi64>>>) {
// CHECK-NEXT:   %product = "onnx.Identity"(%named) : (tensor<"batch"x"seq"xbf16>) -> tensor<"batch*seq"xbf16>
// CHECK-NEXT:   %affine = "onnx.Identity"(%product) : (tensor<"batch*seq"xbf16>) -> tensor<"2*seq+1"x"seq-1"x"-seq+4"xbf16>
// CHECK-NEXT:   %odd = "onnx.Identity"(%odd_param) : (tensor<"a b\0a"xui8>) -> tensor<"2*a b\0a"xui8>
// CHECK-NEXT:   %inner = "onnx.Identity"(%seq) : (!onnx.seq<tensor<*xf32>>) -> !onnx.seq<!onnx.unknown>
// CHECK-NEXT:   %untyped = "onnx.Identity"(%inner) : (!onnx.seq<!onnx.unknown>) -> !onnx.unknown
// CHECK-NEXT:   onnx.return %product, %affine, %odd, %map, %opt
// CHECK-NEXT: }
