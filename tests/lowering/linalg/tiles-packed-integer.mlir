// RUN: linalg --features=+avx512f,+avx512vnni,+amx-tile,+amx-int8
// On AMX, PackedMatMulInteger's rows go 16 at a time through the tiles:
// each chunk loads the tile configuration from a stack buffer, the sum
// tiles start at zero, each step of 64 bytes of K loads 16 rows of A (K
// bytes apart) into tile 4 and each block's 16 groups of packed weights
// (64 bytes apart) into tile 5 for a tdpbusd into the block's sum tile;
// the sums are stored to a stack buffer and read back row by row into the
// epilogue (here the zero point of A and the scale into f32). The 4 rows
// past the last tile take the vector kernel; the chunk releases the tiles.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%a: tensor<36x128xui8>, %bp: tensor<2x32x16x4xi8>, %bs: tensor<32xi32>, %az: tensor<ui8>, %s: tensor<f32>) -> ("y": tensor<36x32xf32>) {
  %y = "omlc.PackedMatMulInteger"(%a, %bp, %bs, %az, none, %s) : (tensor<36x128xui8>, tensor<2x32x16x4xi8>, tensor<32xi32>, tensor<ui8>, none, tensor<f32>) -> tensor<36x32xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<36x128xi8> {llvm.noalias}, %arg1: memref<2x32x16x4xi8> {llvm.noalias}, %arg2: memref<32xi32> {llvm.noalias}, %arg3: memref<i8>
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1], [2, 3]] : tensor<2x32x16x4xi8> into tensor<2x32x64xi8>
// CHECK: scf.forall (%arg8) in (8) shared_outs(%arg9 = %{{\w+}}) -> (tensor<36x32xf32>) {
// CHECK: arith.divui %arg8, %{{\w+}} : index
// CHECK: arith.remui %arg8, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract_slice %arg9[%{{\w+}}, %{{\w+}}] [%{{\w+}}, %{{\w+}}] [1, 1] : tensor<36x32xf32> to tensor<?x?xf32>
// CHECK: tensor.dim %{{\w+}}, %{{\w+}} : tensor<?x?xf32>
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<4x16x16xi32>
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<64xi8>
// CHECK: arith.constant dense<[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}] : memref<64xi8>, vector<64xi8>
// CHECK: memref.extract_aligned_pointer_as_index %{{\w+}} : memref<64xi8> -> index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: llvm.inttoptr %{{\w+}} : i64 to !llvm.ptr
// CHECK: func.call @llvm.x86.ldtilecfg(%{{\w+}}) : (!llvm.ptr) -> ()
// CHECK: memref.extract_aligned_pointer_as_index %{{\w+}} : memref<36x128xi8> -> index
// CHECK: memref.extract_aligned_pointer_as_index %{{\w+}} : memref<2x32x16x4xi8> -> index
// CHECK: memref.extract_aligned_pointer_as_index %{{\w+}} : memref<4x16x16xi32> -> index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %c1 iter_args(%arg11 = %{{\w+}}) -> (tensor<?x?xf32>) {
// CHECK: arith.muli %arg10, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: func.call @llvm.x86.tilezero(%{{\w+}}) : (i8) -> ()
// CHECK: arith.constant 1 : i8
// CHECK: scf.for %arg12 = %{{\w+}} to %{{\w+}} step %{{\w+}} {
// CHECK: arith.muli %arg12, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: llvm.inttoptr %{{\w+}} : i64 to !llvm.ptr
// CHECK: arith.constant 4 : i8
// CHECK: arith.constant 128 : i64
// CHECK: func.call @llvm.x86.tileloadd64(%{{\w+}}, %{{\w+}}, %{{\w+}}) : (i8, !llvm.ptr, i64) -> ()
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 5 : i8
// CHECK: arith.constant 64 : i64
// CHECK: arith.constant 0 : i8
// CHECK: func.call @llvm.x86.tdpbusd(%{{\w+}}, %{{\w+}}, %{{\w+}}) : (i8, i8, i8) -> ()
// CHECK: arith.constant 1 : i8
// CHECK: func.call @llvm.x86.tilestored64(%{{\w+}}, %{{\w+}}, %{{\w+}}) : (i8, !llvm.ptr, i64) -> ()
// CHECK: scf.for %arg12 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg13 = %arg11) -> (tensor<?x?xf32>) {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg12, %{{\w+}}] : memref<4x16x16xi32>, vector<16xi32>
// CHECK: arith.addi %{{\w+}}, %arg12 : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.extract %{{\w+}}[] : tensor<f32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xi32>, vector<16xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.sitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.transfer_write %{{\w+}}, %arg13[%{{\w+}}, %{{\w+}}] : vector<16xf32>, tensor<?x?xf32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xf32>, tensor<?x?xf32>
// CHECK: func.call @llvm.x86.tilerelease() : () -> ()
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg11 = %{{\w+}}) -> (tensor<?x?xf32>) {
// CHECK: arith.muli %arg10, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg12 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg13 = %{{\w+}}, %arg14 = %{{\w+}}, %arg15 = %{{\w+}}, %arg16 = %{{\w+}}, %arg17 = %{{\w+}},
// CHECK: arith.muli %arg12, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<36x128xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg12, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x32x64xi8>, vector<64xi8>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg13, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg14, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg15, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg16, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg17, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg18, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg19, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg20, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.extract %{{\w+}}[] : tensor<f32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#0, %{{\w+}} : vector<16xi32>
// CHECK: arith.sitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.transfer_write %{{\w+}}, %arg11[%{{\w+}}, %{{\w+}}] : vector<16xf32>, tensor<?x?xf32>
// CHECK: arith.addi %{{\w+}}#2, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xf32>, tensor<?x?xf32>
// CHECK: arith.addi %{{\w+}}#4, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#6, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#1, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#3, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#5, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#7, %{{\w+}} : vector<16xi32>
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg11 = %{{\w+}}) -> (tensor<?x?xf32>) {
// CHECK: arith.addi %arg10, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg12 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg13 = %{{\w+}}, %arg14 = %{{\w+}}) -> (vector<16xi32>, vector<16xi32>) {
// CHECK: arith.muli %arg12, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<36x128xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg12, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x32x64xi8>, vector<64xi8>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg13, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512(%arg14, %{{\w+}}, %{{\w+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.extract %{{\w+}}[] : tensor<f32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#0, %{{\w+}} : vector<16xi32>
// CHECK: arith.sitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.transfer_write %{{\w+}}, %arg11[%{{\w+}}, %{{\w+}}] : vector<16xf32>, tensor<?x?xf32>
// CHECK: arith.addi %{{\w+}}#1, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xf32>, tensor<?x?xf32>
// CHECK: scf.forall.in_parallel {
// CHECK: tensor.parallel_insert_slice %{{\w+}} into %arg9[%{{\w+}}, %{{\w+}}] [%{{\w+}}, %{{\w+}}] [1, 1] : tensor<?x?xf32> into tensor<36x32xf32>
// CHECK-LABEL: func.func private @llvm.x86.ldtilecfg(!llvm.ptr)
// CHECK-LABEL: func.func private @llvm.x86.tilezero(i8)
// CHECK-LABEL: func.func private @llvm.x86.tileloadd64(i8, !llvm.ptr, i64)
// CHECK-LABEL: func.func private @llvm.x86.tdpbusd(i8, i8, i8)
// CHECK-LABEL: func.func private @llvm.x86.tilestored64(i8, !llvm.ptr, i64)
// CHECK-LABEL: func.func private @llvm.x86.tilerelease()
// CHECK-LABEL: func.func private @llvm.x86.avx512.vpdpbusd.512(vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<36x128xi8>, %arg3: memref<2x32x16x4xi8>, %arg4: memref<32xi32>, %arg5: memref<i8>,
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7) : (!llvm.ptr, memref<36x128xi8>, memref<2x32x16x4xi8>, memref<32xi32>, memref<i8>,
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<36x128xi8>, memref<2x32x16x4xi8>, memref<32xi32>, memref<i8>, memref<f32>, memref<36x32xf32>)
