// RUN: linalg
// Integer elementwise ops: Mod with fmod = 0 (remsi, then the divisor's
// sign), BitShift (0 for shifts of the width or more), integer Pow by
// squaring over the exponent's bits in i64 (an scf.for in the body), Sign
// and Abs.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<6xi32>, %b: tensor<6xi32>, %u: tensor<6xui8>, %s: tensor<6xui8>) -> ("mod": tensor<6xi32>, "shift": tensor<6xui8>, "pow": tensor<6xi32>, "sign": tensor<6xi32>, "abs": tensor<6xi32>) {
  %mod = "onnx.Mod"(%a, %b) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %shift = "onnx.BitShift"(%u, %s) {direction = "LEFT"} : (tensor<6xui8>, tensor<6xui8>) -> tensor<6xui8>
  %pow = "onnx.Pow"(%a, %b) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %sign = "onnx.Sign"(%a) : (tensor<6xi32>) -> tensor<6xi32>
  %abs = "onnx.Abs"(%a) : (tensor<6xi32>) -> tensor<6xi32>
  onnx.return %mod, %shift, %pow, %sign, %abs
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<6xi32> {llvm.noalias}, %arg1: memref<6xi32> {llvm.noalias}, %arg2: memref<6xi32> {llvm.noalias}, %arg3: memref<6xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map], iterator_types = ["parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<6xi32>, tensor<6xi32>)
// CHECK: arith.constant 0 : i32
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant -1 : i32
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}}-1_i32 : i32
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 1 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.cmpi ne, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.extsi %{{\w+}} : i32 to i64
// CHECK: arith.extsi %{{\w+}} : i32 to i64
// CHECK: arith.constant 1 : i64
// CHECK: scf.for %arg8 = %c0 to %c64 step %c1 iter_args(%arg9 = %c1_i64, %arg10 = %{{\w+}}) -> (i64, i64) {
// CHECK: arith.index_cast %arg8 : index to i64
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.constant 1 : i64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.constant 0 : i64
// CHECK: arith.cmpi ne, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.muli %arg9, %arg10 : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg9 : i64
// CHECK: arith.muli %arg10, %arg10 : i64
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.constant -1 : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}-1_i64, %{{\w+}} : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}}-1_i64 : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}}#0 : i64
// CHECK: arith.trunci %{{\w+}} : i64 to i32
// CHECK: arith.constant 0 : i32
// CHECK: arith.cmpi ne, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant -1 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}-1_i32_8, %{{\w+}} : i32
// CHECK: arith.constant 0 : i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @k1(%arg0: memref<6xi8> {llvm.noalias}, %arg1: memref<6xi8> {llvm.noalias}, %arg2: memref<6xi8> {llvm.noalias}, %arg3: index, %arg4: index) attributes
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<6xi8>, tensor<6xi8>) outs(%{{\w+}} :
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.constant 0 : i8
// CHECK: arith.constant 8 : i8
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i8
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<6xi32>, %arg3: memref<6xi32>, %arg4: memref<6xi8>, %arg5: memref<6xi8>, %arg6:
// CHECK: call @k0(%arg2, %arg3, %arg6, %arg8, %arg9, %arg10, %{{\w+}}, %{{\w+}}) : (memref<6xi32>, memref<6xi32>, memref<6xi32>, memref<6xi32>, memref<6xi32>,
// CHECK: call @k1(%arg4, %arg5, %arg7, %{{\w+}}, %{{\w+}}) : (memref<6xi8>, memref<6xi8>, memref<6xi8>, index, index) -> ()
