// RUN: affine
// The matmul schedule: the product is tiled into register tiles of
// rows × vectors along n and computed with vector.fma outer products,
// the epilogue applied tile by tile; no temporary buffer.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> ("y": tensor<64x256xf32>) {
  %m = "onnx.MatMul"(%x, %w) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %y = "onnx.Add"(%m, %b) : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<64x128xf32> {llvm.noalias}, %arg1: memref<128x256xf32> {llvm.noalias}, %arg2: memref<256xf32> {llvm.noalias}, %arg3:
// CHECK: arith.constant dense<0.000000e+00> : vector<32xf32>
// CHECK: scf.for %arg6 = %arg4 to %arg5 step %c1 {
// CHECK: memref.subview %arg3[0, %{{\w+}}] [64, 128] [1, 1] : memref<64x256xf32> to memref<64x128xf32, strided<[256, 1], offset: ?>>
// CHECK: scf.for %arg7 = %c0 to %c64 step %c8 {
// CHECK: scf.for %arg8 = %c0 to %c128 step %c32 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.for %arg7 = %c0 to %c64 step %c8 {
// CHECK: scf.for %arg8 = %c0 to %c128 step %c32 {
// CHECK: scf.for %arg9 = %c0 to %c128 step %c4 {
// CHECK: vector.load %arg0[%arg7, %arg9] : memref<64x128xf32>, vector<4xf32>
// CHECK: vector.load %arg0[%{{\w+}}, %arg9] : memref<64x128xf32>, vector<4xf32>
// CHECK: vector.load %arg1[%arg9, %{{\w+}}] : memref<128x256xf32>, vector<32xf32>
// CHECK: vector.load %arg1[%{{\w+}}, %{{\w+}}] : memref<128x256xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.for %arg7 = %c0 to %c64 step %c8 {
// CHECK: scf.for %arg8 = %c0 to %c128 step %c32 {
// CHECK: vector.load %arg2[%{{\w+}}] : memref<256xf32>, vector<32xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<32xf32> to vector<8x32xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.to_elements %{{\w+}} : vector<32xf32>
// CHECK: vector.from_elements %{{\w+}}#0, %{{\w+}}#1, %{{\w+}}#2, %{{\w+}}#3, %{{\w+}}#4, %{{\w+}}#5, %{{\w+}}#6, %{{\w+}}#7, %{{\w+}}#8, %{{\w+}}#9, %{{\w+}}#10,
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<8x32xf32>
// CHECK: vector.extract %{{\w+}}[0] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg8] : memref<64x128xf32, strided<[256, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[2] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.extract %{{\w+}}[3] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.extract %{{\w+}}[4] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.extract %{{\w+}}[5] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.extract %{{\w+}}[6] : vector<32xf32> from vector<8x32xf32>
// CHECK: vector.extract %{{\w+}}[7] : vector<32xf32> from vector<8x32xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<64x128xf32>, %arg3: memref<128x256xf32>, %arg4: memref<256xf32>, %arg5:
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5) : (!llvm.ptr, memref<64x128xf32>, memref<128x256xf32>, memref<256xf32>, memref<64x256xf32>) -> ()
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<64x128xf32>, memref<128x256xf32>, memref<256xf32>, memref<64x256xf32>)
