// RUN: linalg
// Float8 values live as their bit pattern in an i8; casts to and from f32
// are integer arithmetic on the f32 bits (decode: re-biased exponent,
// shifted mantissa; encode: round to nearest even, saturate).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<8xf32>, %q: tensor<8xf8E4M3FN>) -> ("enc": tensor<8xf8E4M3FN>, "dec": tensor<8xf32>) {
  %enc = "onnx.Cast"(%x) {to = 17} : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
  %dec = "onnx.Cast"(%q) {to = 1} : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
  onnx.return %enc, %dec
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<8xf32> {llvm.noalias}, %arg1: memref<8xi8> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<8xf32>) outs(%{{\w+}} : tensor<8xi8>) {
// CHECK: arith.bitcast %{{\w+}} : f32 to i32
// CHECK: arith.constant 31 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 2147483647 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 2139095040 : i32
// CHECK: arith.cmpi ugt, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 20 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 524287 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 20 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 960 : i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: math.absf %{{\w+}} : f32
// CHECK: arith.constant 5.120000e+02 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x4B000000 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.bitcast %{{\w+}} : f32 to i32
// CHECK: arith.constant 1258291200 : i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1015021568 : i32
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 127 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 7 : i32
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.trunci %{{\w+}} : i32 to i8
// CHECK-LABEL: func.func @k1(%arg0: memref<8xi8> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<8xi8>) outs(%{{\w+}} : tensor<8xf32>) {
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.constant 255 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 7 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 127 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 3 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 7 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 20 : i32
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1006632960 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.uitofp %{{\w+}} : i32 to f32
// CHECK: arith.constant 0.001953125 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.bitcast %{{\w+}} : f32 to i32
// CHECK: arith.constant 0 : i32
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 2143289344 : i32
// CHECK: arith.constant 127 : i32
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 31 : i32
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.bitcast %{{\w+}} : i32 to f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<8xf32>, %arg3: memref<8xi8>, %arg4: memref<8xi8>, %arg5: memref<8xf32>) {
// CHECK: call @k0(%arg2, %arg4, %{{\w+}}, %{{\w+}}) : (memref<8xf32>, memref<8xi8>, index, index) -> ()
// CHECK: call @k1(%arg3, %arg5, %{{\w+}}, %{{\w+}}) : (memref<8xi8>, memref<8xf32>, index, index) -> ()
