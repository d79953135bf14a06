// RUN: linalg --features=+avx512f,+avx512vnni
// On AVX-512 VNNI, PackedMatMulInteger's lane-wise dot products are
// `vpdpbusd`: a call of the LLVM intrinsic, declared in the module (LLVM
// knows it by its name), one per accumulator and step.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%a: tensor<2x8xui8>, %bp: tensor<1x2x16x4xi8>, %bs: tensor<16xi32>) -> ("y": tensor<2x16xi32>) {
  %y = "omlc.PackedMatMulInteger"(%a, %bp, %bs) : (tensor<2x8xui8>, tensor<1x2x16x4xi8>, tensor<16xi32>) -> tensor<2x16xi32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<2x8xi8> {llvm.noalias}, %arg1: memref<1x2x16x4xi8> {llvm.noalias}, %arg2: memref<16xi32> {llvm.noalias}, %arg3: memref<2x16xi32>
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1], [2, 3]] : tensor<1x2x16x4xi8> into tensor<1x2x64xi8>
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg6 = %{{\w+}} to %{{\w+}} step %c1 iter_args(%arg7 = %{{\w+}}) -> (tensor<2x16xi32>) {
// CHECK: arith.muli %arg6, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg9 = %{{\w+}}, %arg10 = %{{\w+}}, %arg11 = %{{\w+}}, %arg12 = %{{\w+}}) -> (vector<16xi32>,
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x8xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg8, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<1x2x64xi8>, vector<64xi8>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg9, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg10, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg11, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg12, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: vector.transfer_write %{{\w+}}#0, %arg7[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<2x16xi32>
// CHECK: vector.transfer_write %{{\w+}}#1, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<2x16xi32>
// CHECK: vector.transfer_write %{{\w+}}#2, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<2x16xi32>
// CHECK: vector.transfer_write %{{\w+}}#3, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<2x16xi32>
// CHECK: scf.for %arg6 = %{{\w+}} to %c2 step %{{\w+}} iter_args(%arg7 = %{{\w+}}) -> (tensor<2x16xi32>) {
// CHECK: arith.addi %arg6, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg9 = %{{\w+}}) -> (vector<16xi32>) {
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x8xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg8, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<1x2x64xi8>, vector<64xi8>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg9, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: vector.transfer_write %{{\w+}}, %arg7[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<2x16xi32>
// CHECK-LABEL: func.func private @llvm.x86.avx512.vpdpbusd.512(vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x8xi8>, %arg3: memref<1x2x16x4xi8>, %arg4: memref<16xi32>, %arg5: memref<2x16xi32>)
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %{{\w+}}, %{{\w+}}) : (memref<2x8xi8>, memref<1x2x16x4xi8>, memref<16xi32>, memref<2x16xi32>, index, index) -> ()
