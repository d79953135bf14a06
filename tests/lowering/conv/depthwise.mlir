// RUN: linalg
// DepthwiseConv channels-last: chunks cut the output rows (5 rows, 5
// chunks); each row runs block of 16 channels by block — the block's 9
// weight vectors and its bias read once — over its pixels 8 at a time,
// then one at a time: per tap and pixel, 16 bytes of X read at
// [n, oh·2 + kh, ow·2 + kw, c], widened and converted to f32, and one fused
// multiply-add into an accumulator started at the bias; then quantized to
// u8 (round half to even, plus the zero point, clamped) and stored. 24
// channels: one whole block, then 8 channels read and written masked.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<1x11x21x24xui8>, %w: tensor<3x3x24xf32>, %b: tensor<24xf32>, %ys: tensor<f32>, %yz: tensor<ui8>) -> ("y": tensor<1x5x10x24xui8>) {
  %y = "omlc.DepthwiseConv"(%x, %w, %b, %ys, %yz) {kernel_shape = [3, 3], strides = [2, 2]} : (tensor<1x11x21x24xui8>, tensor<3x3x24xf32>, tensor<24xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x5x10x24xui8>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<1x11x21x24xi8> {llvm.noalias}, %arg1: memref<3x3x24xf32> {llvm.noalias}, %arg2: memref<24xf32> {llvm.noalias}, %arg3: memref<f32>
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: arith.uitofp %{{\w+}} : i8 to f32
// CHECK: tensor.extract %{{\w+}}[] : tensor<f32>
// CHECK: scf.forall (%arg8) in (5) shared_outs(%arg9 = %{{\w+}}) -> (tensor<1x5x10x24xi8>) {
// CHECK: arith.ceildivsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract_slice %arg9[0, %{{\w+}}, 0, 0] [1, %{{\w+}}, 10, 24] [1, 1, 1, 1] : tensor<1x5x10x24xi8> to tensor<1x?x10x24xi8>
// CHECK: scf.for %arg10 = %{{\w+}} to %c1 step %{{\w+}} iter_args(%arg11 = %{{\w+}}) -> (tensor<1x?x10x24xi8>) {
// CHECK: scf.for %arg12 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg13 = %arg11) -> (tensor<1x?x10x24xi8>) {
// CHECK: arith.addi %{{\w+}}, %arg12 : index
// CHECK: scf.for %arg14 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg15 = %arg13) -> (tensor<1x?x10x24xi8>) {
// CHECK: arith.muli %arg14, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<3x3x24xf32>, vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<24xf32>, vector<16xf32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg16 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg17 = %arg15) -> (tensor<1x?x10x24xi8>) {
// CHECK: arith.muli %arg16, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%arg10, %{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<1x11x21x24xi8>, vector<16xi8>
// CHECK: arith.extui %{{\w+}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.uitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg17[%arg10, %arg12, %{{\w+}}, %{{\w+}}] {in_bounds = [true]} : vector<16xi8>, tensor<1x?x10x24xi8>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg10, %arg12, %{{\w+}}, %{{\w+}}] {in_bounds = [true]} : vector<16xi8>, tensor<1x?x10x24xi8>
// CHECK: scf.for %arg16 = %{{\w+}} to %c10 step %{{\w+}} iter_args(%arg17 = %{{\w+}}) -> (tensor<1x?x10x24xi8>) {
// CHECK: arith.addi %arg16, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%arg10, %{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<1x11x21x24xi8>, vector<16xi8>
// CHECK: arith.extui %{{\w+}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.uitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg17[%arg10, %arg12, %{{\w+}}, %{{\w+}}] {in_bounds = [true]} : vector<16xi8>, tensor<1x?x10x24xi8>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<3x3x24xf32>, vector<16xf32>
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<24xf32>, vector<16xf32>
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg14 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg15 = %{{\w+}}) -> (tensor<1x?x10x24xi8>) {
// CHECK: arith.muli %arg14, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%arg10, %{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<1x11x21x24xi8>, vector<16xi8>
// CHECK: arith.extui %{{\w+}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.uitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg15[%arg10, %arg12, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x24xi8>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg10, %arg12, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x24xi8>
// CHECK: scf.for %arg14 = %{{\w+}} to %c10 step %{{\w+}} iter_args(%arg15 = %{{\w+}}) -> (tensor<1x?x10x24xi8>) {
// CHECK: arith.addi %arg14, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%arg10, %{{\w+}}, %{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<1x11x21x24xi8>, vector<16xi8>
// CHECK: arith.extui %{{\w+}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.uitofp %{{\w+}} : vector<16xi32> to vector<16xf32>
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg15[%arg10, %arg12, %{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<1x?x10x24xi8>
// CHECK: scf.forall.in_parallel {
// CHECK: tensor.parallel_insert_slice %{{\w+}} into %arg9[0, %{{\w+}}, 0, 0] [1, %{{\w+}}, 10, 24] [1, 1, 1, 1] : tensor<1x?x10x24xi8> into tensor<1x5x10x24xi8>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x11x21x24xi8>, %arg3: memref<3x3x24xf32>, %arg4: memref<24xf32>, %arg5:
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7) : (!llvm.ptr, memref<1x11x21x24xi8>, memref<3x3x24xf32>, memref<24xf32>, memref<f32>,
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<1x11x21x24xi8>, memref<3x3x24xf32>, memref<24xf32>, memref<f32>, memref<i8>, memref<1x5x10x24xi8>)
