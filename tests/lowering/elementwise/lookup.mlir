// RUN: linalg --features=+avx512f,+avx512vbmi
// A run of elementwise ops from one 8-bit tensor and scalars into 8 bits
// (a QDQ Sigmoid) on AVX-512 VBMI is a table lookup: a scalar loop runs
// the ops on the 256 byte values into a table (the scalars read once),
// then chunks of the output seen as one row of 131 072 bytes (2 chunks)
// look 64 bytes up at a time: two vpermi2b into the table's halves and a
// select on the index's top bit; the last partial vector is masked.
onnx.model {ir_version = 8, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<1x64x64x32xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> ("y": tensor<1x64x64x32xui8>) {
  %d = "onnx.DequantizeLinear"(%x, %s, %z) : (tensor<1x64x64x32xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x64x64x32xf32>
  %g = "onnx.Sigmoid"(%d) : (tensor<1x64x64x32xf32>) -> tensor<1x64x64x32xf32>
  %y = "onnx.QuantizeLinear"(%g, %s, %z) : (tensor<1x64x64x32xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x64x64x32xui8>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<1x64x64x32xi8> {llvm.noalias}, %arg1: memref<f32> {llvm.noalias}, %arg2: memref<i8> {llvm.noalias}, %arg3: memref<1x64x64x32xi8>
// CHECK: tensor.empty() : tensor<256xi8>
// CHECK: tensor.extract %{{\w+}}[] : tensor<f32>
// CHECK: tensor.extract %{{\w+}}[] : tensor<i8>
// CHECK: scf.for %arg6 = %{{\w+}} to %c256 step %c1 iter_args(%arg7 = %{{\w+}}) -> (tensor<256xi8>) {
// CHECK: arith.index_cast %arg6 : index to i8
// CHECK: arith.uitofp %{{\w+}} : i8 to f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.negf %{{\w+}} : f32
// CHECK: arith.constant -8.660000e+01 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 88.7228394 : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.44269502 : f32
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: math.floor %{{\w+}} : f32
// CHECK: arith.constant -0.693359375 : f32
// CHECK: arith.constant 2.12194442E-4 : f32
// CHECK: arith.constant 1.98756912E-4 : f32
// CHECK: arith.constant 0.00139819994 : f32
// CHECK: arith.constant 0.00833345205 : f32
// CHECK: arith.constant 0.0416657962 : f32
// CHECK: arith.constant 0.166666657 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.fptosi %{{\w+}} : f32 to i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 23 : i32
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.bitcast %{{\w+}} : i32 to f32
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.roundeven %{{\w+}} : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.fptoui %{{\w+}} : f32 to i8
// CHECK: tensor.insert %{{\w+}} into %arg7[%arg6] : tensor<256xi8>
// CHECK: arith.constant 0 : i8
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<256xi8>, vector<64xi8>
// CHECK: tensor.collapse_shape %{{\w+}} [[0, 1, 2, 3]] : tensor<1x64x64x32xi8> into tensor<131072xi8>
// CHECK: scf.forall (%arg6) in (2) shared_outs(%arg7 = %{{\w+}}) -> (tensor<131072xi8>) {
// CHECK: arith.ceildivsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %arg6, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract_slice %arg7[%{{\w+}}] [%{{\w+}}] [1] : tensor<131072xi8> to tensor<?xi8>
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg9 = %{{\w+}}) -> (tensor<?xi8>) {
// CHECK: arith.constant 0 : i8
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} {in_bounds = [true]} : tensor<131072xi8>, vector<64xi8>
// CHECK: func.call @llvm.x86.avx512.vpermi2var.qi.512(%{{\w+}}, %{{\w+}}, %{{\w+}}) : (vector<64xi8>, vector<64xi8>, vector<64xi8>) -> vector<64xi8>
// CHECK: vector.broadcast %{{\w+}} : i8 to vector<64xi8>
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : vector<64xi8>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<64xi1>, vector<64xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg9[%{{\w+}}] {in_bounds = [true]} : vector<64xi8>, tensor<?xi8>
// CHECK: arith.ceildivsi %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg9 = %{{\w+}}) -> (tensor<?xi8>) {
// CHECK: arith.constant 0 : i8
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}], %{{\w+}} : tensor<131072xi8>, vector<64xi8>
// CHECK: func.call @llvm.x86.avx512.vpermi2var.qi.512(%{{\w+}}, %{{\w+}}, %{{\w+}}) : (vector<64xi8>, vector<64xi8>, vector<64xi8>) -> vector<64xi8>
// CHECK: vector.broadcast %{{\w+}} : i8 to vector<64xi8>
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : vector<64xi8>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<64xi1>, vector<64xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg9[%{{\w+}}] : vector<64xi8>, tensor<?xi8>
// CHECK: scf.forall.in_parallel {
// CHECK: tensor.parallel_insert_slice %{{\w+}} into %arg7[%{{\w+}}] [%{{\w+}}] [1] : tensor<?xi8> into tensor<131072xi8>
// CHECK: tensor.expand_shape %{{\w+}} [[0, 1, 2, 3]] output_shape [1, 64, 64, 32] : tensor<131072xi8> into tensor<1x64x64x32xi8>
// CHECK-LABEL: func.func private @llvm.x86.avx512.vpermi2var.qi.512(vector<64xi8>, vector<64xi8>, vector<64xi8>) -> vector<64xi8>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x64x64x32xi8>, %arg3: memref<f32>, %arg4: memref<i8>, %arg5: memref<1x64x64x32xi8>)
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3, %arg4, %arg5) : (!llvm.ptr, memref<1x64x64x32xi8>, memref<f32>, memref<i8>, memref<1x64x64x32xi8>) -> ()
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<1x64x64x32xi8>, memref<f32>, memref<i8>, memref<1x64x64x32xi8>)
