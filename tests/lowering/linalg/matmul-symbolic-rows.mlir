// RUN: affine
// A product whose rows are symbolic (a batch and a sequence only the run
// time knows) by a static weight, with a bias: the batch is tiled by 1,
// the rows by register tiles of 8 (the last, partial tile peeled off and
// left scalar), the columns by vectors computed with vector.fma outer
// products, and the chunks cut the static columns.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x"S"x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> ("y": tensor<"N"x"S"x256xf32>) {
  %m = "onnx.MatMul"(%x, %w) : (tensor<"N"x"S"x64xf32>, tensor<64x256xf32>) -> tensor<"N"x"S"x256xf32>
  %y = "onnx.Add"(%m, %b) : (tensor<"N"x"S"x256xf32>, tensor<256xf32>) -> tensor<"N"x"S"x256xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<64x256xf32> {llvm.noalias}, %arg2: memref<256xf32> {llvm.noalias}, %arg3: memref<0xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<32xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.muli %arg5, %{{\w+}} : index
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg4, %arg5, 64], strides: [%{{\w+}}, 64, 1] : memref<0xf32> to memref<?x?x64xf32>
// CHECK: arith.muli %arg5, %{{\w+}} : index
// CHECK: memref.reinterpret_cast %arg3 to offset: [0], sizes: [%arg4, %arg5, 256], strides: [%{{\w+}}, 256, 1] : memref<0xf32> to memref<?x?x256xf32>
// CHECK: memref.dim %{{\w+}}, %{{\w+}} : memref<?x?x256xf32>
// CHECK: memref.dim %{{\w+}}, %{{\w+}} : memref<?x?x256xf32>
// CHECK: memref.subview %{{\w+}}[0, 0, 0] [%{{\w+}}, %{{\w+}}, 64] [1, 1, 1] : memref<?x?x64xf32> to memref<?x?x64xf32, strided<[?, 64, 1]>>
// CHECK: scf.for %arg8 = %arg6 to %arg7 step %c1 {
// CHECK: memref.subview %arg2[%{{\w+}}] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
// CHECK: memref.subview %arg1[0, %{{\w+}}] [64, 128] [1, 1] : memref<64x256xf32> to memref<64x128xf32, strided<[256, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[0, 0, %{{\w+}}] [%{{\w+}}, %{{\w+}}, 128] [1, 1, 1] : memref<?x?x256xf32> to memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %{{\w+}} step %c1 {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg9 : index
// CHECK: scf.for %arg10 = %c0 to %{{\w+}} step %c8 {
// CHECK: scf.for %arg11 = %c0 to %c128 step %c32 {
// CHECK: scf.if %{{\w+}} {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg10 : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %arg10, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %c8 {
// CHECK: scf.for %arg11 = %c0 to %c128 step %c32 {
// CHECK: memref.subview %{{\w+}}[%arg9, %arg10, %arg11] [1, %{{\w+}}, 32] [1, 1, 1] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>> to memref<1x?x32xf32,
// CHECK: scf.for %arg12 = %c0 to %{{\w+}} step %c1 {
// CHECK: scf.for %arg13 = %c0 to %c32 step %c1 {
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg12, %arg13] : memref<1x?x32xf32, strided<[?, 256, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %{{\w+}} step %c64 {
// CHECK: memref.subview %{{\w+}}[0, %arg9, 0] [%{{\w+}}, 64, 128] [1, 1, 1] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>> to memref<?x64x128xf32, strided<[?,
// CHECK: scf.for %arg10 = %c0 to %{{\w+}} step %c1 {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg10 : index
// CHECK: scf.for %arg11 = %c0 to %c64 step %c8 {
// CHECK: scf.for %arg12 = %c0 to %c128 step %c32 {
// CHECK: scf.for %arg13 = %c0 to %c64 step %c4 {
// CHECK: vector.load %{{\w+}}[%arg10, %{{\w+}}, %arg13] : memref<?x?x64xf32>, vector<4xf32>
// CHECK: vector.load %arg1[%arg13, %{{\w+}}] : memref<64x256xf32>, vector<32xf32>
// CHECK: vector.load %arg1[%{{\w+}}, %{{\w+}}] : memref<64x256xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg10, %arg11, %arg12] : memref<?x64x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x64x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %arg11, %arg12] : memref<?x64x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x64x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.for %arg9 = %{{\w+}} to %{{\w+}} step %c64 {
// CHECK: memref.subview %{{\w+}}[0, %arg9, 0] [%{{\w+}}, %{{\w+}}, 64] [1, 1, 1] : memref<?x?x64xf32, strided<[?, 64, 1]>> to memref<?x?x64xf32, strided<[?, 64, 1],
// CHECK: memref.subview %{{\w+}}[0, %arg9, 0] [%{{\w+}}, %{{\w+}}, 128] [1, 1, 1] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>> to memref<?x?x128xf32,
// CHECK: scf.for %arg10 = %c0 to %{{\w+}} step %c1 {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg10 : index
// CHECK: scf.for %arg11 = %c0 to %{{\w+}} step %c8 {
// CHECK: scf.for %arg12 = %c0 to %c128 step %c32 {
// CHECK: scf.for %arg13 = %c0 to %c64 step %c4 {
// CHECK: vector.load %{{\w+}}[%arg10, %{{\w+}}, %arg13] : memref<?x?x64xf32>, vector<4xf32>
// CHECK: vector.load %arg1[%arg13, %{{\w+}}] : memref<64x256xf32>, vector<32xf32>
// CHECK: vector.load %arg1[%{{\w+}}, %{{\w+}}] : memref<64x256xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg10, %arg11, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: scf.if %{{\w+}} {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg11 : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %arg11, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg10, %{{\w+}}, %arg12] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.for %arg11 = %{{\w+}} to %{{\w+}} step %c8 {
// CHECK: scf.for %arg12 = %c0 to %c128 step %c32 {
// CHECK: memref.subview %{{\w+}}[%arg10, %arg11, %arg12] [1, %{{\w+}}, 32] [1, 1, 1] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>> to memref<1x?x32xf32,
// CHECK: scf.for %arg13 = %c0 to %c64 step %c4 {
// CHECK: memref.subview %{{\w+}}[%arg10, %arg11, %arg13] [1, %{{\w+}}, 4] [1, 1, 1] : memref<?x?x64xf32, strided<[?, 64, 1], offset: ?>> to memref<1x?x4xf32, strided<[?,
// CHECK: memref.subview %{{\w+}}[%arg13, %arg12] [4, 32] [1, 1] : memref<64x128xf32, strided<[256, 1], offset: ?>> to memref<4x32xf32, strided<[256, 1], offset: ?>>
// CHECK: scf.for %arg14 = %c0 to %{{\w+}} step %c1 {
// CHECK: scf.for %arg15 = %c0 to %c32 step %c1 {
// CHECK: scf.for %arg16 = %c0 to %c4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %arg14, %arg16] : memref<1x?x4xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%arg16, %arg15] : memref<4x32xf32, strided<[256, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %arg14, %arg15] : memref<1x?x32xf32, strided<[?, 256, 1], offset: ?>>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg14, %arg15] : memref<1x?x32xf32, strided<[?, 256, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %{{\w+}} step %c1 {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg9 : index
// CHECK: scf.for %arg10 = %c0 to %{{\w+}} step %c8 {
// CHECK: scf.for %arg11 = %c0 to %c128 step %c32 {
// CHECK: vector.load %arg2[%{{\w+}}] : memref<256xf32>, vector<32xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<32xf32> to vector<1x8x32xf32>
// CHECK: vector.load %{{\w+}}[%arg9, %arg10, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.to_elements %{{\w+}} : vector<32xf32>
// CHECK: vector.from_elements %{{\w+}}#0, %{{\w+}}#1, %{{\w+}}#2, %{{\w+}}#3, %{{\w+}}#4, %{{\w+}}#5, %{{\w+}}#6, %{{\w+}}#7, %{{\w+}}#8, %{{\w+}}#9, %{{\w+}}#10,
// CHECK: vector.broadcast %{{\w+}} : vector<8x32xf32> to vector<1x8x32xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<1x8x32xf32>
// CHECK: scf.if %{{\w+}} {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg10 : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 0] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %arg10, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 1] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 2] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 3] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 4] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 5] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 6] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: arith.cmpi sgt, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.extract %{{\w+}}[0, 7] : vector<32xf32> from vector<1x8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg9, %{{\w+}}, %arg11] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.for %arg10 = %{{\w+}} to %{{\w+}} step %c8 {
// CHECK: scf.for %arg11 = %c0 to %c128 step %c32 {
// CHECK: memref.subview %{{\w+}}[%arg11] [32] [1] : memref<128xf32, strided<[1], offset: ?>> to memref<32xf32, strided<[1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg9, %arg10, %arg11] [1, %{{\w+}}, 32] [1, 1, 1] : memref<?x?x128xf32, strided<[?, 256, 1], offset: ?>> to memref<1x?x32xf32,
// CHECK: scf.for %arg12 = %c0 to %{{\w+}} step %c1 {
// CHECK: scf.for %arg13 = %c0 to %c32 step %c1 {
// CHECK: memref.load %{{\w+}}[%arg13] : memref<32xf32, strided<[1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %arg12, %arg13] : memref<1x?x32xf32, strided<[?, 256, 1], offset: ?>>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg12, %arg13] : memref<1x?x32xf32, strided<[?, 256, 1], offset: ?>>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: index, %arg3: index, %arg4: memref<0xf32>, %arg5: memref<64x256xf32>, %arg6:
// CHECK: call @k0_parallel(%arg0, %arg4, %arg5, %arg6, %arg7, %arg2, %arg3) : (!llvm.ptr, memref<0xf32>, memref<64x256xf32>, memref<256xf32>, memref<0xf32>, index,
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<0xf32>, memref<64x256xf32>, memref<256xf32>, memref<0xf32>, index, index)
