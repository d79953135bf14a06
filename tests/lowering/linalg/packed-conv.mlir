// RUN: linalg
// PackedConvInteger is PackedMatMulInteger's kernel over windows: a row
// of the output is a pixel [n, oh, ow] of the channels-last input, and
// its reduction runs over the window's rows and columns, then the
// channels four at a time (three nested loops), reading A at
// [n, oh·s₀ + kh·d₀, ow·s₁ + kw·d₁, c]. Then the QDQ epilogue: the sums
// converted to f32, times the per-channel scale, plus the bias, and
// quantized to u8 (round half to even, plus the zero point, clamped to
// [0, 255]). One column tile of 32 channels: the chunks cut the output
// rows (dim 1, 10 rows in 2 parts of 5), and each reads its rows of A
// past its offset.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<1x21x12x8xui8>, %wp: tensor<2x18x16x4xi8>, %ws: tensor<32xi32>, %xz: tensor<ui8>, %s: tensor<32xf32>, %b: tensor<32xf32>, %ys: tensor<f32>, %yz: tensor<ui8>) -> ("y": tensor<1x10x10x32xui8>) {
  %y = "omlc.PackedConvInteger"(%x, %wp, %ws, %xz, none, %s, %b, %ys, %yz) {kernel_shape = [3, 3], strides = [2, 1]} : (tensor<1x21x12x8xui8>, tensor<2x18x16x4xi8>, tensor<32xi32>, tensor<ui8>, none, tensor<32xf32>, tensor<32xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x10x10x32xui8>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<1x21x12x8xi8> {llvm.noalias}, %arg1: memref<2x18x16x4xi8> {llvm.noalias}, %arg2: memref<32xi32> {llvm.noalias}, %arg3: memref<i8>
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: arith.uitofp %{{\w+}} : i8 to f32
// CHECK: tensor.extract %{{\w+}}[] : tensor<f32>
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1], [2, 3]] : tensor<2x18x16x4xi8> into tensor<2x18x64xi8>
// CHECK: scf.forall (%arg11) in (2) shared_outs(%arg12 = %{{\w+}}) -> (tensor<1x10x10x32xi8>) {
// CHECK: arith.divui %arg11, %{{\w+}} : index
// CHECK: arith.remui %arg11, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract_slice %arg12[0, %{{\w+}}, 0, %{{\w+}}] [1, %{{\w+}}, 10, %{{\w+}}] [1, 1, 1, 1] : tensor<1x10x10x32xi8> to tensor<1x?x10x?xi8>
// CHECK: tensor.dim %{{\w+}}, %{{\w+}} : tensor<1x?x10x?xi8>
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg13 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %{{\w+}}) -> (tensor<1x?x10x?xi8>) {
// CHECK: arith.muli %arg13, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg15 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg16 = %{{\w+}}, %arg17 = %{{\w+}}, %arg18 = %{{\w+}}, %arg19 = %{{\w+}}, %arg20 = %{{\w+}},
// CHECK: arith.muli %arg15, %{{\w+}} : index
// CHECK: scf.for %arg24 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg25 = %arg16, %arg26 = %arg17, %arg27 = %arg18, %arg28 = %arg19, %arg29 = %arg20, %arg30 =
// CHECK: arith.muli %arg24, %{{\w+}} : index
// CHECK: arith.muli %arg15, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %arg24 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg33 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg34 = %arg25, %arg35 = %arg26, %arg36 = %arg27, %arg37 = %arg28, %arg38 = %arg29, %arg39 =
// CHECK: arith.muli %arg33, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %arg33 : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<1x21x12x8xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x18x64xi8>, vector<64xi8>
// CHECK: arith.extui %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extsi %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<64xi32>
// CHECK: vector.shape_cast %{{\w+}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg34 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg35 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg36 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg37 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg38 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg39 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg40 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg41 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xf32>, vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#0, %{{\w+}} : vector<16xi32>
// CHECK: arith.sitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg14[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x?xi8>
// CHECK: arith.addi %{{\w+}}#2, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x?xi8>
// CHECK: arith.addi %{{\w+}}#4, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#6, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#1, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#3, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#5, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#7, %{{\w+}} : vector<16xi32>
// CHECK: scf.for %arg13 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %{{\w+}}) -> (tensor<1x?x10x?xi8>) {
// CHECK: arith.addi %arg13, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg15 = %{{\w+}} to %c3 step %{{\w+}} iter_args(%arg16 = %{{\w+}}, %arg17 = %{{\w+}}) -> (vector<16xi32>, vector<16xi32>) {
// CHECK: arith.muli %arg15, %{{\w+}} : index
// CHECK: scf.for %arg18 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg19 = %arg16, %arg20 = %arg17) -> (vector<16xi32>, vector<16xi32>) {
// CHECK: arith.muli %arg18, %{{\w+}} : index
// CHECK: arith.muli %arg15, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %arg18 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg21 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg22 = %arg19, %arg23 = %arg20) -> (vector<16xi32>, vector<16xi32>) {
// CHECK: arith.muli %arg21, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %arg21 : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<1x21x12x8xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{\w+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.extract %{{\w+}}[0] : i32 from vector<1xi32>
// CHECK: vector.broadcast %{{\w+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{\w+}} : vector<16xi32> to vector<64xi8>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<2x18x64xi8>, vector<64xi8>
// CHECK: arith.extui %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extsi %{{\w+}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<64xi32>
// CHECK: vector.shape_cast %{{\w+}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg22 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.multi_reduction <add>, %{{\w+}}, %arg23 [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xf32>, vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<32xi32>, vector<16xi32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<16xi32>
// CHECK: arith.addi %{{\w+}}#0, %{{\w+}} : vector<16xi32>
// CHECK: arith.sitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg14[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x?xi8>
// CHECK: arith.addi %{{\w+}}#1, %{{\w+}} : vector<16xi32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x?xi8>
// CHECK: scf.forall.in_parallel {
// CHECK: tensor.parallel_insert_slice %{{\w+}} into %arg12[0, %{{\w+}}, 0, %{{\w+}}] [1, %{{\w+}}, 10, %{{\w+}}] [1, 1, 1, 1] : tensor<1x?x10x?xi8> into
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x21x12x8xi8>, %arg3: memref<2x18x16x4xi8>, %arg4: memref<32xi32>, %arg5:
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10) : (!llvm.ptr, memref<1x21x12x8xi8>, memref<2x18x16x4xi8>,
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<1x21x12x8xi8>, memref<2x18x16x4xi8>, memref<32xi32>, memref<i8>, memref<32xf32>, memref<32xf32>, memref<f32>,
