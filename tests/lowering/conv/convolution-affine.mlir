// RUN: affine
// The convolution's schedule: per chunk of output rows, the im2col block
// of that row is gathered into a buffer (vector.gather, masked at the
// pads), the bias written, and the product computed in register tiles of
// 16 output channels × the row's 14 positions with vector.fma.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x16x14x14xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> ("y": tensor<1x32x14x14xf32>) {
  %c = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x16x14x14xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x14x14xf32>
  %y = "onnx.Relu"(%c) : (tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<1x16x14x14xf32> {llvm.noalias}, %arg1: memref<32x16x3x3xf32> {llvm.noalias}, %arg2: memref<32xf32> {llvm.noalias}, %arg3:
// CHECK: arith.constant dense<0.000000e+00> : vector<16x14xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<14xf32>
// CHECK: arith.constant dense<true> : vector<14xi1>
// CHECK: arith.constant dense<0> : vector<14xindex>
// CHECK: arith.constant dense<14> : vector<14xindex>
// CHECK: arith.constant dense<1> : vector<14xindex>
// CHECK: arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]> : vector<14xindex>
// CHECK: memref.collapse_shape %arg1 [[0], [1, 2, 3]] : memref<32x16x3x3xf32> into memref<32x144xf32>
// CHECK: scf.for %arg6 = %arg4 to %arg5 step %c1 {
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<144x1x14xf32>
// CHECK: scf.for %arg7 = %c0 to %c144 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, 0, 0] [1, 1, 14] [1, 1, 1] : memref<144x1x14xf32> to memref<1x1x14xf32, strided<[14, 14, 1], offset: ?>>
// CHECK: memref.collapse_shape %{{\w+}} [[0, 1, 2]] : memref<1x1x14xf32, strided<[14, 14, 1], offset: ?>> into memref<14xf32, strided<[1], offset: ?>>
// CHECK: arith.remui %arg7, %{{\w+}} : index
// CHECK: arith.divui %arg7, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %arg6, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: vector.broadcast %{{\w+}} : index to vector<14xindex>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : vector<14xindex>
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : vector<14xindex>
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : vector<14xindex>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<14xi1>, vector<14xindex>
// CHECK: vector.broadcast %{{\w+}} : i1 to vector<14xi1>
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : vector<14xi1>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.gather %arg0[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] [%{{\w+}}], %{{\w+}}, %{{\w+}} : memref<1x16x14x14xf32>, vector<14xindex>, vector<14xi1>,
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<14xi1>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}] : memref<14xf32, strided<[1], offset: ?>>, vector<14xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x1x14xf32, strided<[14, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %{{\w+}}, %{{\w+}}] : memref<144x1x14xf32>, vector<14xf32>
// CHECK: memref.subview %arg3[0, 0, %arg6, 0] [1, 32, 1, 14] [1, 1, 1, 1] : memref<1x32x14x14xf32> to memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c16 {
// CHECK: memref.subview %{{\w+}}[0, %arg7, 0, 0] [1, 16, 1, 14] [1, 1, 1, 1] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>> to memref<1x16x1x14xf32,
// CHECK: memref.collapse_shape %{{\w+}} [[0, 1, 2], [3]] : memref<1x16x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>> into memref<16x14xf32, strided<[196, 1], offset:
// CHECK: vector.load %arg2[%arg7] : memref<32xf32>, vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<16xf32> to vector<14x16xf32>
// CHECK: vector.transpose %{{\w+}}, [1, 0] : vector<14x16xf32> to vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[0] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<16x14xf32, strided<[196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.extract %{{\w+}}[1] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[2] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[3] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[4] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[5] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[6] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[7] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[8] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[9] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[10] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[11] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[12] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[13] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[14] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[15] : vector<14xf32> from vector<16x14xf32>
// CHECK: memref.expand_shape %{{\w+}} [[0, 1, 2], [3]] output_shape [1, 16, 1, 14] : memref<16x14xf32, strided<[196, 1], offset: ?>> into memref<1x16x1x14xf32,
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x16x1x14xf32, strided<[3136, 196, 196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}, %{{\w+}}] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c16 {
// CHECK: memref.subview %{{\w+}}[0, %arg7, 0, 0] [1, 16, 1, 14] [1, 1, 1, 1] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>> to memref<1x16x1x14xf32,
// CHECK: memref.collapse_shape %{{\w+}} [[0, 1, 2], [3]] : memref<1x16x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>> into memref<16x14xf32, strided<[196, 1], offset:
// CHECK: memref.expand_shape %{{\w+}} [[0, 1, 2], [3]] output_shape [1, 16, 1, 14] : memref<16x14xf32, strided<[196, 1], offset: ?>> into memref<1x16x1x14xf32,
// CHECK: scf.for %arg8 = %c0 to %c144 step %c16 {
// CHECK: memref.subview %{{\w+}}[%arg8, 0, 0] [16, 1, 14] [1, 1, 1] : memref<144x1x14xf32> to memref<16x1x14xf32, strided<[14, 14, 1], offset: ?>>
// CHECK: memref.collapse_shape %{{\w+}} [[0, 1], [2]] : memref<16x1x14xf32, strided<[14, 14, 1], offset: ?>> into memref<16x14xf32, strided<[14, 1], offset: ?>>
// CHECK: vector.load %{{\w+}}[%arg7, %arg8] : memref<32x144xf32>, vector<16xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg8] : memref<32x144xf32>, vector<16xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<16x14xf32, strided<[14, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<16x14xf32, strided<[196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<14xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<14xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[4] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[5] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[6] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[7] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[8] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[9] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[10] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[11] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[12] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[13] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[14] : f32 from vector<16xf32>
// CHECK: vector.extract %{{\w+}}[15] : f32 from vector<16xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<16x14xf32, strided<[196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x16x1x14xf32, strided<[3136, 196, 196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}, %{{\w+}}] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c16 {
// CHECK: memref.subview %{{\w+}}[0, %arg7, 0, 0] [1, 16, 1, 14] [1, 1, 1, 1] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>> to memref<1x16x1x14xf32,
// CHECK: memref.collapse_shape %{{\w+}} [[0, 1, 2], [3]] : memref<1x16x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>> into memref<16x14xf32, strided<[196, 1], offset:
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<16x14xf32, strided<[196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.to_elements %{{\w+}} : vector<14xf32>
// CHECK: vector.from_elements %{{\w+}}#0, %{{\w+}}#1, %{{\w+}}#2, %{{\w+}}#3, %{{\w+}}#4, %{{\w+}}#5, %{{\w+}}#6, %{{\w+}}#7, %{{\w+}}#8, %{{\w+}}#9, %{{\w+}}#10,
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[0] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<16x14xf32, strided<[196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.extract %{{\w+}}[1] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[2] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[3] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[4] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[5] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[6] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[7] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[8] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[9] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[10] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[11] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[12] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[13] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[14] : vector<14xf32> from vector<16x14xf32>
// CHECK: vector.extract %{{\w+}}[15] : vector<14xf32> from vector<16x14xf32>
// CHECK: memref.expand_shape %{{\w+}} [[0, 1, 2], [3]] output_shape [1, 16, 1, 14] : memref<16x14xf32, strided<[196, 1], offset: ?>> into memref<1x16x1x14xf32,
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x16x1x14xf32, strided<[3136, 196, 196, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}, %{{\w+}}] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x32x1x14xf32, strided<[6272, 196, 14, 1], offset: ?>>, vector<14xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<144x1x14xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x16x14x14xf32>, %arg3: memref<32x16x3x3xf32>, %arg4: memref<32xf32>, %arg5:
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5) : (!llvm.ptr, memref<1x16x14x14xf32>, memref<32x16x3x3xf32>, memref<32xf32>, memref<1x32x14x14xf32>) -> ()
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<1x16x14x14xf32>, memref<32x16x3x3xf32>, memref<32xf32>, memref<1x32x14x14xf32>)
