// RUN: affine
// The fused attention schedule (Schedule::Tiled): chunked by head, both
// contractions in register tiles of vectors, the softmax row by row as
// vectors along the keys; the scores stay in the kernel.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%q: tensor<4x32x64xf32>, %kt: tensor<4x64x32xf32>, %v: tensor<4x32x64xf32>) -> ("y": tensor<4x32x64xf32>) {
  %y = "omlc.FusedAttention"(%q, %kt, %v) {scale = 0.125} : (tensor<4x32x64xf32>, tensor<4x64x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<4x32x64xf32> {llvm.noalias}, %arg1: memref<4x64x32xf32> {llvm.noalias}, %arg2: memref<4x32x64xf32> {llvm.noalias}, %arg3:
// CHECK: arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK: arith.constant dense<0xFF800000> : vector<1xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<32xf32>
// CHECK: arith.constant dense<0x7F800000> : vector<1x1x32xf32>
// CHECK: arith.constant dense<2.000000e+00> : vector<1x1x32xf32>
// CHECK: arith.constant dense<23> : vector<1x1x32xi32>
// CHECK: arith.constant dense<126> : vector<1x1x32xi32>
// CHECK: arith.constant dense<1.000000e+00> : vector<1x1x32xf32>
// CHECK: arith.constant dense<0.166666657> : vector<1x1x32xf32>
// CHECK: arith.constant dense<0.0416657962> : vector<1x1x32xf32>
// CHECK: arith.constant dense<0.00833345205> : vector<1x1x32xf32>
// CHECK: arith.constant dense<0.00139819994> : vector<1x1x32xf32>
// CHECK: arith.constant dense<1.98756912E-4> : vector<1x1x32xf32>
// CHECK: arith.constant dense<2.12194442E-4> : vector<1x1x32xf32>
// CHECK: arith.constant dense<-0.693359375> : vector<1x1x32xf32>
// CHECK: arith.constant dense<5.000000e-01> : vector<1x1x32xf32>
// CHECK: arith.constant dense<1.44269502> : vector<1x1x32xf32>
// CHECK: arith.constant dense<88.7228394> : vector<1x1x32xf32>
// CHECK: arith.constant dense<-8.660000e+01> : vector<1x1x32xf32>
// CHECK: arith.constant dense<1.250000e-01> : vector<1x1x32xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<1x1x32xf32>
// CHECK: scf.for %arg6 = %arg4 to %arg5 step %c1 {
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x32x32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c8 {
// CHECK: scf.for %arg8 = %c0 to %c64 step %c4 {
// CHECK: vector.load %arg0[%arg6, %arg7, %arg8] : memref<4x32x64xf32>, vector<4xf32>
// CHECK: vector.load %arg0[%arg6, %{{\w+}}, %arg8] : memref<4x32x64xf32>, vector<4xf32>
// CHECK: vector.load %arg1[%arg6, %arg8, %{{\w+}}] : memref<4x64x32xf32>, vector<32xf32>
// CHECK: vector.load %arg1[%arg6, %{{\w+}}, %{{\w+}}] : memref<4x64x32xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x32x32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<32xf32> to vector<1x1x32xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: vector.extract %{{\w+}}[0, 0] : vector<32xf32> from vector<1x1x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<1xf32>
// CHECK: vector.reduction <maximumf>, %{{\w+}}, %{{\w+}} : vector<32xf32> into f32
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<1xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x32x32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<32xf32> to vector<1x1x32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<1xf32> to vector<1x1x32xf32>
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: math.floor %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.fptosi %{{\w+}} : vector<1x1x32xf32> to vector<1x1x32xi32>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : vector<1x1x32xi32>
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : vector<1x1x32xi32>
// CHECK: arith.bitcast %{{\w+}} : vector<1x1x32xi32> to vector<1x1x32xf32>
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<1x1x32xi1>, vector<1x1x32xf32>
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: vector.extract %{{\w+}}[0, 0] : vector<32xf32> from vector<1x1x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<1xf32>
// CHECK: vector.reduction <add>, %{{\w+}}, %{{\w+}} : vector<32xf32> into f32
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<1xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x32x32xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<32xf32> to vector<1x1x32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7] : memref<1x32xf32>, vector<1xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<1xf32> to vector<1x1x32xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<1x1x32xf32>
// CHECK: vector.extract %{{\w+}}[0, 0] : vector<32xf32> from vector<1x1x32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x32xf32>, vector<32xf32>
// CHECK: memref.subview %arg3[%arg6, 0, 0] [1, 32, 64] [1, 1, 1] : memref<4x32x64xf32> to memref<1x32x64xf32, strided<[2048, 64, 1], offset: ?>>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c1 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %{{\w+}}] : memref<1x32x64xf32, strided<[2048, 64, 1], offset: ?>>, vector<64xf32>
// CHECK: scf.for %arg7 = %c0 to %c32 step %c8 {
// CHECK: scf.for %arg8 = %c0 to %c64 step %c32 {
// CHECK: scf.for %arg9 = %c0 to %c32 step %c4 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %arg9] : memref<1x32x32xf32>, vector<4xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x32x32xf32>, vector<4xf32>
// CHECK: vector.load %arg2[%arg6, %arg9, %arg8] : memref<4x32x64xf32>, vector<32xf32>
// CHECK: vector.load %arg2[%arg6, %{{\w+}}, %arg8] : memref<4x32x64xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg7, %arg8] : memref<1x32x64xf32, strided<[2048, 64, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg8] : memref<1x32x64xf32, strided<[2048, 64, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg7, %arg8] : memref<1x32x64xf32, strided<[2048, 64, 1], offset: ?>>, vector<32xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg8] : memref<1x32x64xf32, strided<[2048, 64, 1], offset: ?>>, vector<32xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<1x32x32xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<1x32xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x32x64xf32>, %arg3: memref<4x64x32xf32>, %arg4: memref<4x32x64xf32>, %arg5:
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5) : (!llvm.ptr, memref<4x32x64xf32>, memref<4x64x32xf32>, memref<4x32x64xf32>, memref<4x32x64xf32>) -> ()
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<4x32x64xf32>, memref<4x64x32xf32>, memref<4x32x64xf32>, memref<4x32x64xf32>)
