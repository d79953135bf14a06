// RUN: affine
// A fused attention whose rows and keys are symbolic (a sequence only the
// run time knows), by heads of static size: every op is tiled where it
// is, in one chunk, with tiles of extent 1 along the batch, the heads and
// the rows; the scores a vector of keys at a time and the output two
// vectors of its head at a time, both with vector.fma outer products (the
// partial vector of keys peeled off, scalar); the softmax scalar along
// the keys.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%q: tensor<4x"S"x64xf32>, %kt: tensor<4x64x"S"xf32>, %v: tensor<4x"S"x64xf32>) -> ("y": tensor<4x"S"x64xf32>) {
  %y = "omlc.FusedAttention"(%q, %kt, %v) {scale = 0.125} : (tensor<4x"S"x64xf32>, tensor<4x64x"S"xf32>, tensor<4x"S"x64xf32>) -> tensor<4x"S"x64xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<0xf32> {llvm.noalias}, %arg2: memref<0xf32> {llvm.noalias}, %arg3: memref<0xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK: arith.constant dense<0xFF800000> : vector<1xf32>
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.constant 23 : i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.constant 0.166666657 : f32
// CHECK: arith.constant 0.0416657962 : f32
// CHECK: arith.constant 0.00833345205 : f32
// CHECK: arith.constant 0.00139819994 : f32
// CHECK: arith.constant 1.98756912E-4 : f32
// CHECK: arith.constant 2.12194442E-4 : f32
// CHECK: arith.constant -0.693359375 : f32
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.constant 1.44269502 : f32
// CHECK: arith.constant 88.7228394 : f32
// CHECK: arith.constant -8.660000e+01 : f32
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.muli %arg4, %{{\w+}} : index
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [4, %arg4, 64], strides: [%{{\w+}}, 64, 1] : memref<0xf32> to memref<4x?x64xf32>
// CHECK: memref.reinterpret_cast %arg1 to offset: [0], sizes: [4, 64, %arg4], strides: [%{{\w+}}, %arg4, 1] : memref<0xf32> to memref<4x64x?xf32>
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [4, %arg4, 64], strides: [%{{\w+}}, 64, 1] : memref<0xf32> to memref<4x?x64xf32>
// CHECK: memref.reinterpret_cast %arg3 to offset: [0], sizes: [4, %arg4, 64], strides: [%{{\w+}}, 64, 1] : memref<0xf32> to memref<4x?x64xf32>
// CHECK: memref.alloc(%arg4, %arg4) {alignment = 64 : i64} : memref<4x?x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, 0] [1, 1, %arg4] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %arg4 step %c1 {
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.dim %{{\w+}}, %{{\w+}} : memref<4x?x64xf32>
// CHECK: memref.dim %{{\w+}}, %{{\w+}} : memref<4x64x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %{{\w+}} step %c1 {
// CHECK: arith.cmpi sgt, %arg4, %arg8 : index
// CHECK: scf.for %arg9 = %c0 to %{{\w+}} step %c16 {
// CHECK: scf.for %arg10 = %c0 to %c64 step %c4 {
// CHECK: vector.load %{{\w+}}[%arg7, %arg8, %arg10] : memref<4x?x64xf32>, vector<4xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %arg10, %arg9] : memref<4x64x?xf32>, vector<16xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %{{\w+}}, %arg9] : memref<4x64x?xf32>, vector<16xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %arg8, %arg9] : memref<4x?x?xf32>, vector<16xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg7, %arg8, %arg9] : vector<16xf32>, memref<4x?x?xf32>
// CHECK: scf.for %arg9 = %{{\w+}} to %{{\w+}} step %c16 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, %arg9] [1, 1, %{{\w+}}] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: scf.for %arg10 = %c0 to %c64 step %c4 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, %arg10] [1, 1, 4] [1, 1, 1] : memref<4x?x64xf32> to memref<1x1x4xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg10, %arg9] [1, 4, %{{\w+}}] [1, 1, 1] : memref<4x64x?xf32> to memref<1x4x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: scf.for %arg11 = %c0 to %{{\w+}} step %c1 {
// CHECK: scf.for %arg12 = %c0 to %c4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg12] : memref<1x1x4xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %arg12, %arg11] : memref<1x4x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg11] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg11] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.alloc(%arg4, %arg4) {alignment = 64 : i64} : memref<4x?x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, 0] [1, 1, %arg4] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %arg4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.alloc(%arg4, %arg4) {alignment = 64 : i64} : memref<4x?x?xf32>
// CHECK: memref.alloc(%arg4) {alignment = 64 : i64} : memref<4x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg7, %arg8] : vector<1xf32>, memref<4x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, 0] [1, 1, %arg4] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8] [1, 1] [1, 1] : memref<4x?xf32> to memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %arg4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>, vector<1xf32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg7, %arg8] : vector<1xf32>, memref<4x?xf32>
// CHECK: memref.alloc(%arg4, %arg4) {alignment = 64 : i64} : memref<4x?x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, 0] [1, 1, %arg4] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8] [1, 1] [1, 1] : memref<4x?xf32> to memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %arg4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: math.floor %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.fptosi %{{\w+}} : f32 to i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.bitcast %{{\w+}} : i32 to f32
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.alloc(%arg4) {alignment = 64 : i64} : memref<4x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg7, %arg8] : vector<1xf32>, memref<4x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, 0] [1, 1, %arg4] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8] [1, 1] [1, 1] : memref<4x?xf32> to memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %arg4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>, vector<1xf32>
// CHECK: vector.transfer_write %{{\w+}}, %{{\w+}}[%arg7, %arg8] : vector<1xf32>, memref<4x?xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, 0] [1, 1, %arg4] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8] [1, 1] [1, 1] : memref<4x?xf32> to memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: scf.for %arg9 = %c0 to %arg4 step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}] : memref<1x1xf32, strided<[?, 1], offset: ?>>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg9] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.dim %{{\w+}}, %{{\w+}} : memref<4x?x64xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %{{\w+}} step %c1 {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg8 : index
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %arg8, %{{\w+}}] : memref<4x?x64xf32>, vector<64xf32>
// CHECK: scf.for %arg7 = %c0 to %c4 step %c1 {
// CHECK: scf.for %arg8 = %c0 to %arg4 step %c1 {
// CHECK: arith.cmpi sgt, %{{\w+}}, %arg8 : index
// CHECK: scf.for %arg9 = %c0 to %c64 step %c32 {
// CHECK: scf.for %arg10 = %c0 to %{{\w+}} step %c4 {
// CHECK: vector.load %{{\w+}}[%arg7, %arg8, %arg10] : memref<4x?x?xf32>, vector<4xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %arg10, %arg9] : memref<4x?x64xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %{{\w+}}, %arg9] : memref<4x?x64xf32>, vector<32xf32>
// CHECK: vector.load %{{\w+}}[%arg7, %arg8, %arg9] : memref<4x?x64xf32>, vector<32xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<4xf32>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<32xf32>
// CHECK: vector.extract %{{\w+}}[1] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[2] : f32 from vector<4xf32>
// CHECK: vector.extract %{{\w+}}[3] : f32 from vector<4xf32>
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %arg8, %arg9] : memref<4x?x64xf32>, vector<32xf32>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, %arg9] [1, 1, 32] [1, 1, 1] : memref<4x?x64xf32> to memref<1x1x32xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: scf.for %arg10 = %{{\w+}} to %arg4 step %c4 {
// CHECK: memref.subview %{{\w+}}[%arg7, %arg8, %arg10] [1, 1, %{{\w+}}] [1, 1, 1] : memref<4x?x?xf32> to memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.subview %{{\w+}}[%arg7, %arg10, %arg9] [1, %{{\w+}}, 32] [1, 1, 1] : memref<4x?x64xf32> to memref<1x?x32xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: scf.for %arg11 = %c0 to %c32 step %c1 {
// CHECK: scf.for %arg12 = %c0 to %{{\w+}} step %c1 {
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg12] : memref<1x1x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %arg12, %arg11] : memref<1x?x32xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: memref.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg11] : memref<1x1x32xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %{{\w+}}, %arg11] : memref<1x1x32xf32, strided<[?, 64, 1], offset: ?>>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : memref<1x1x32xf32, strided<[?, 64, 1], offset: ?>>, vector<32xf32>
// CHECK: scf.if %{{\w+}} {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%arg7, %arg8, %arg9] : memref<4x?x64xf32>, vector<32xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<4x?x?xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<4x?xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: index, %arg3: memref<0xf32>, %arg4: memref<0xf32>, %arg5: memref<0xf32>, %arg6:
// CHECK: call @k0(%arg3, %arg4, %arg5, %arg6, %arg2, %{{\w+}}, %{{\w+}}) : (memref<0xf32>, memref<0xf32>, memref<0xf32>, memref<0xf32>, index, index, index) -> ()
