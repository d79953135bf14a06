// RUN: linalg
// TopK: a loop over the rows carrying both outputs (values, indices) as
// the buffer of the best elements; each element of a row that enters is
// placed after the elements it does not rank before, the rest shifted.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x5xf32>) -> ("values": tensor<3x2xf32>, "indices": tensor<3x2xi64>) {
  %k = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %values, %indices = "onnx.TopK"(%x, %k) {axis = -1} : (tensor<3x5xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  onnx.return %values, %indices
}

// CHECK-LABEL: func.func @k0(%arg0: memref<3x5xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<3x2xf32> {llvm.noalias}, %arg3: memref<3x2xi64>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg6 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg7 = %{{\w+}}, %arg8 = %{{\w+}}) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
// CHECK: arith.remui %arg6, %{{\w+}} : index
// CHECK: arith.divui %arg6, %{{\w+}} : index
// CHECK: scf.for %arg9 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg10 = %arg7, %arg11 = %arg8, %arg12 = %c0) -> (tensor<3x2xf32>, tensor<3x2xi64>, index) {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %arg9] : tensor<3x5xf32>
// CHECK: arith.maxui %arg12, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %arg10[%{{\w+}}, %{{\w+}}] : tensor<3x2xf32>
// CHECK: arith.cmpi ult, %arg12, %{{\w+}} : index
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %arg12, %{{\w+}} : index
// CHECK: scf.for %arg13 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %c0) -> (index) {
// CHECK: tensor.extract %arg10[%{{\w+}}, %arg13] : tensor<3x2xf32>
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %arg14, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minui %arg12, %{{\w+}} : index
// CHECK: scf.for %arg13 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %arg10, %arg15 = %arg11) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %arg13 : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %arg14[%{{\w+}}, %{{\w+}}] : tensor<3x2xf32>
// CHECK: tensor.insert %{{\w+}} into %arg14[%{{\w+}}, %{{\w+}}] : tensor<3x2xf32>
// CHECK: tensor.extract %arg15[%{{\w+}}, %{{\w+}}] : tensor<3x2xi64>
// CHECK: tensor.insert %{{\w+}} into %arg15[%{{\w+}}, %{{\w+}}] : tensor<3x2xi64>
// CHECK: tensor.extract %{{\w+}}#0[%{{\w+}}, %{{\w+}}] : tensor<3x2xf32>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.insert %{{\w+}} into %{{\w+}}#0[%{{\w+}}, %{{\w+}}] : tensor<3x2xf32>
// CHECK: arith.index_cast %arg9 : index to i64
// CHECK: tensor.extract %{{\w+}}#1[%{{\w+}}, %{{\w+}}] : tensor<3x2xi64>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: tensor.insert %{{\w+}} into %{{\w+}}#1[%{{\w+}}, %{{\w+}}] : tensor<3x2xi64>
// CHECK: arith.addi %arg12, %{{\w+}} : index
// CHECK: arith.minui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg12 : index
// CHECK-LABEL: func.func @omlc_check(%arg0: memref<3x5xf32>) -> i32 {
// CHECK: arith.constant true
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 3 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x5xf32>, %arg3: memref<3x2xf32>, %arg4: memref<3x2xi64>, %arg5: memref<1xi64>) {
// CHECK: call @k0(%arg2, %arg5, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<1xi64>, memref<3x2xf32>, memref<3x2xi64>, index, index) -> ()
