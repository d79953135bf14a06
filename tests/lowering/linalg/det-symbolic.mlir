// RUN: linalg
// Det of a symbolic order: per matrix, loops over the columns finding
// the first row of largest |A[r, k]|, swapping it up (the sign flips),
// multiplying the pivots and eliminating below (a zero pivot divides by
// 1) in a working copy; the entry checks the matrices are square.
onnx.model {ir_version = 8, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"b"x"m"x"m"xf32>) -> ("y": tensor<"b"xf32>) {
  %y = "onnx.Det"(%x) : (tensor<"b"x"m"x"m"xf32>) -> tensor<"b"xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<0xf32> {llvm.noalias}, %arg2: index, %arg3: index, %arg4: index, %arg5: index) attributes
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg6 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg7 = %{{\w+}}, %arg8 = %{{\w+}}) -> (tensor<?xf32>, tensor<?x?x?xf32>) {
// CHECK: arith.remui %arg6, %{{\w+}} : index
// CHECK: arith.divui %arg6, %{{\w+}} : index
// CHECK: scf.for %arg9 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg10 = %arg8, %arg11 = %{{\w+}}, %arg12 = %{{\w+}}) -> (tensor<?x?x?xf32>, f32, f32) {
// CHECK: tensor.extract %arg10[%{{\w+}}, %arg9, %arg9] : tensor<?x?x?xf32>
// CHECK: math.absf %{{\w+}} : f32
// CHECK: arith.addi %arg9, %{{\w+}} : index
// CHECK: scf.for %arg13 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %arg9, %arg15 = %{{\w+}}) -> (index, f32) {
// CHECK: tensor.extract %arg10[%{{\w+}}, %arg13, %arg9] : tensor<?x?x?xf32>
// CHECK: math.absf %{{\w+}} : f32
// CHECK: arith.cmpf ogt, %{{\w+}}, %arg15 : f32
// CHECK: arith.select %{{\w+}}, %arg13, %arg14 : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg15 : f32
// CHECK: scf.for %arg13 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %arg10) -> (tensor<?x?x?xf32>) {
// CHECK: tensor.extract %arg14[%{{\w+}}, %arg9, %arg13] : tensor<?x?x?xf32>
// CHECK: tensor.extract %arg14[%{{\w+}}, %{{\w+}}#0, %arg13] : tensor<?x?x?xf32>
// CHECK: tensor.insert %{{\w+}} into %arg14[%{{\w+}}, %arg9, %arg13] : tensor<?x?x?xf32>
// CHECK: tensor.insert %{{\w+}} into %{{\w+}}[%{{\w+}}, %{{\w+}}#0, %arg13] : tensor<?x?x?xf32>
// CHECK: arith.cmpi ne, %{{\w+}}#0, %arg9 : index
// CHECK: arith.negf %arg12 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg12 : f32
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %arg9, %arg9] : tensor<?x?x?xf32>
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addi %arg9, %{{\w+}} : index
// CHECK: scf.for %arg13 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg14 = %{{\w+}}) -> (tensor<?x?x?xf32>) {
// CHECK: tensor.extract %arg14[%{{\w+}}, %arg13, %arg9] : tensor<?x?x?xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: scf.for %arg15 = %arg9 to %{{\w+}} step %{{\w+}} iter_args(%arg16 = %arg14) -> (tensor<?x?x?xf32>) {
// CHECK: tensor.extract %arg16[%{{\w+}}, %arg9, %arg15] : tensor<?x?x?xf32>
// CHECK: tensor.extract %arg16[%{{\w+}}, %arg13, %arg15] : tensor<?x?x?xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.insert %{{\w+}} into %arg16[%{{\w+}}, %arg13, %arg15] : tensor<?x?x?xf32>
// CHECK: arith.mulf %arg11, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}#2, %{{\w+}}#1 : f32
// CHECK: tensor.insert %{{\w+}} into %arg7[%{{\w+}}] : tensor<?xf32>
