// RUN: linalg
// PackedMatMulInteger is written vector by vector (no schedule vectorizes
// 8-bit dot products): a chunk loop (`scf.forall`) over tiles of packed
// column blocks, rows four at a time then one at a time, the reduction in
// 16-lane i32 accumulators — `vpdpbusd` on AVX-512 VNNI, which this
// test's target lacks: the same sums widened to i32 and added lane by
// lane — then the zero points from the column sums. @k0: unsigned A,
// 8 blocks of columns in 2 tiles (chunks), no B zero point. @k1: signed A
// (bytes read with their sign bits flipped, zero point + 128), K = 6 (a
// masked last step), a per-column B zero point (row sums with ones).
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%a: tensor<5x8xui8>, %bp: tensor<8x2x16x4xi8>, %bs: tensor<128xi32>, %az: tensor<ui8>, %s: tensor<3x6xi8>, %sp: tensor<2x2x16x4xi8>, %ss: tensor<20xi32>, %sz: tensor<i8>, %zb: tensor<20xi32>) -> ("y": tensor<5x128xi32>, "z": tensor<3x20xi32>) {
  %y = "omlc.PackedMatMulInteger"(%a, %bp, %bs, %az) : (tensor<5x8xui8>, tensor<8x2x16x4xi8>, tensor<128xi32>, tensor<ui8>) -> tensor<5x128xi32>
  %z = "omlc.PackedMatMulInteger"(%s, %sp, %ss, %sz, %zb) : (tensor<3x6xi8>, tensor<2x2x16x4xi8>, tensor<20xi32>, tensor<i8>, tensor<20xi32>) -> tensor<3x20xi32>
  onnx.return %y, %z
}

// CHECK-LABEL: func.func @k0(%arg0: memref<5x8xi8> {llvm.noalias}, %arg1: memref<8x2x16x4xi8> {llvm.noalias}, %arg2: memref<128xi32> {llvm.noalias}, %arg3: memref<i8>
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1], [2, 3]] : tensor<8x2x16x4xi8> into tensor<8x2x64xi8>
// CHECK: scf.forall (%arg7) in (2) shared_outs(%arg8 = %{{\w+}}) -> (tensor<5x128xi32>) {
// CHECK: arith.divui %arg7, %{{\w+}} : index
// CHECK: arith.remui %arg7, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract_slice %arg8[0, %{{\w+}}] [5, %{{\w+}}] [1, 1] : tensor<5x128xi32> to tensor<5x?xi32>
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg9 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg10 = %{{\w+}}) -> (tensor<5x?xi32>) {
// CHECK: arith.muli %arg9, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg11 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg12 = %{{\w+}}, %arg13 = %{{\w+}}, %arg14 = %{{\w+}}, %arg15 = %{{\w+}}, %arg16 = %{{\w+}},
// CHECK: arith.muli %arg11, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<5x8xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg11, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<8x2x64xi8>, vector<64xi8>
// CHECK: arith.extui %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extsi %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<64xi32>
// CHECK: vector.shape_cast %{{\w+}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg12 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg13 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg14 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg15 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg16 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg17 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg18 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg19 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg20 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg21 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg22 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg23 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg24 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg25 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg26 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg27 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<128xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#0, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %arg10[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<5x?xi32>
// CHECK: arith.addi %{{\w+}}#4, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<5x?xi32>
// CHECK: arith.addi %{{\w+}}#8, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#12, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#1, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#5, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#9, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#13, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#2, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#6, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#10, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#14, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#3, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#7, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#11, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#15, %{{\w+}} : vector<16xi32>
// CHECK: scf.for %arg9 = %{{\w+}} to %c5 step %{{\w+}} iter_args(%arg10 = %{{\w+}}) -> (tensor<5x?xi32>) {
// CHECK: arith.addi %arg9, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg11 = %{{\w+}} to %c2 step %{{\w+}} iter_args(%arg12 = %{{\w+}}, %arg13 = %{{\w+}}, %arg14 = %{{\w+}}, %arg15 = %{{\w+}}) -> (vector<16xi32>,
// CHECK: arith.muli %arg11, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<5x8xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg11, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<8x2x64xi8>, vector<64xi8>
// CHECK: arith.extui %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extsi %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<64xi32>
// CHECK: vector.shape_cast %{{\w+}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg12 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg13 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg14 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg15 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<128xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#0, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %arg10[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<5x?xi32>
// CHECK: arith.addi %{{\w+}}#1, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<5x?xi32>
// CHECK: arith.addi %{{\w+}}#2, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#3, %{{\w+}} : vector<16xi32>
// CHECK: scf.forall.in_parallel {
// CHECK: tensor.parallel_insert_slice %{{\w+}} into %arg8[0, %{{\w+}}] [5, %{{\w+}}] [1, 1] : tensor<5x?xi32> into tensor<5x128xi32>
// CHECK-LABEL: func.func @k1(%arg0: memref<3x6xi8> {llvm.noalias}, %arg1: memref<2x2x16x4xi8> {llvm.noalias}, %arg2: memref<20xi32> {llvm.noalias}, %arg3: memref<i8>
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: arith.extsi %{{\w+}} : i8 to i32
// CHECK: arith.constant 128 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1], [2, 3]] : tensor<2x2x16x4xi8> into tensor<2x2x64xi8>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %c1 iter_args(%arg9 = %{{\w+}}) -> (tensor<3x20xi32>) {
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg11 = %{{\w+}}, %arg12 = %{{\w+}}, %arg13 = %{{\w+}}, %arg14 = %{{\w+}}, %arg15 = %{{\w+}},
// CHECK: arith.muli %arg10, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<3x6xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: arith.constant -2139062144 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_50 : i32
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_51 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_52 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_53 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg10, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x2x64xi8>, vector<64xi8>
// CHECK: arith.extui %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extsi %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<64xi32>
// CHECK: vector.shape_cast %{{\w+}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg11 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg12 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg13 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg14 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg15 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg16 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg17 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg18 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<1> : vector<64xi8>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg19 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg20 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg21 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg22 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<3x6xi8>, vector<4xi8>
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_18 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_19 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_20 : i32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x2x64xi8>, vector<64xi8>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#0 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#1 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#2 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#3 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#4 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#5 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#6 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#7 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<[1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1,
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#8 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#9 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#10 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#11 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.constant 0 : i32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<20xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.constant 6 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %arg9[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<3x20xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<3x20xi32>
// CHECK: scf.for %arg8 = %{{\w+}} to %c3 step %{{\w+}} iter_args(%arg9 = %{{\w+}}) -> (tensor<3x20xi32>) {
// CHECK: arith.addi %arg8, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg11 = %{{\w+}}, %arg12 = %{{\w+}}, %arg13 = %{{\w+}}) -> (vector<16xi32>, vector<16xi32>,
// CHECK: arith.muli %arg10, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<3x6xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: arith.constant -2139062144 : i32
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32_29 : i32
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %arg10, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x2x64xi8>, vector<64xi8>
// CHECK: arith.extui %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extsi %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<64xi32>
// CHECK: vector.shape_cast %{{\w+}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg11 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg12 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<1> : vector<64xi8>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg13 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<3x6xi8>, vector<4xi8>
// CHECK: arith.xori %{{\w+}}, %{{\w+}}-2139062144_i32 : i32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x2x64xi8>, vector<64xi8>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#0 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#1 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<[1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1,
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %{{\w+}}#2 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.constant 0 : i32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<20xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.constant 6 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %arg9[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<3x20xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : vector<16xi32>, tensor<3x20xi32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<5x8xi8>, %arg3: memref<8x2x16x4xi8>, %arg4: memref<128xi32>, %arg5: memref<i8>,
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5, %arg11) : (!llvm.ptr, memref<5x8xi8>, memref<8x2x16x4xi8>, memref<128xi32>, memref<i8>, memref<5x128xi32>)
// CHECK: call @k1(%arg6, %arg7, %arg8, %arg9, %arg10, %arg12, %{{\w+}}, %{{\w+}}) : (memref<3x6xi8>, memref<2x2x16x4xi8>, memref<20xi32>, memref<i8>, memref<20xi32>,
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<5x8xi8>, memref<8x2x16x4xi8>, memref<128xi32>, memref<i8>, memref<5x128xi32>)
