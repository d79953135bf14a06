// RUN: linalg
// DFT of a symbolic length along an axis read at run time: one loop over
// the output's elements, each a sum over the samples (twiddles in f64,
// j·k reduced mod n), the axis picked by selects; the entry checks that
// the output's dims follow from the input's, the axis and the length.
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<2x"n"x1xf32>, %axis: tensor<i64>) -> ("y": tensor<2x"n"x2xf32>) {
  %y = "onnx.DFT"(%x, none, %axis) : (tensor<2x"n"x1xf32>, none, tensor<i64>) -> tensor<2x"n"x2xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<i64> {llvm.noalias}, %arg2: memref<0xf32> {llvm.noalias}, %arg3: index, %arg4: index, %arg5:
// CHECK: tensor.extract %{{\w+}}[] : tensor<i64>
// CHECK: scf.for %arg6 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg7 = %{{\w+}}) -> (tensor<2x?x2xf32>) {
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg9 = %{{\w+}}) -> (f64) {
// CHECK: arith.select %{{\w+}}, %arg8, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<2x?x1xf32>
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: math.cos %{{\w+}} : f64
// CHECK: math.sin %{{\w+}} : f64
// CHECK: arith.addf %arg9, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK: tensor.insert %{{\w+}} into %arg7[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<2x?x2xf32>
// CHECK-LABEL: func.func @omlc_check(%arg0: index, %arg1: memref<0xf32>, %arg2: memref<i64>) -> i32 {
// CHECK: memref.load %arg2[] : memref<i64>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
