// RUN: linalg
// STFT of a symbolic signal by a run-time step: each output element sums
// one frame (from f·step) weighted by the window; the entry checks that
// every frame lies inside the signal and the bins follow the window.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x"n"x1xf32>, %step: tensor<i64>, %w: tensor<16xf32>) -> ("y": tensor<1x15x9x2xf32>) {
  %y = "onnx.STFT"(%x, %step, %w) : (tensor<1x"n"x1xf32>, tensor<i64>, tensor<16xf32>) -> tensor<1x15x9x2xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<i64> {llvm.noalias}, %arg2: memref<16xf32> {llvm.noalias}, %arg3: memref<1x15x9x2xf32>
// CHECK: scf.for %arg7 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg8 = %{{\w+}}) -> (tensor<1x15x9x2xf32>) {
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg9 = %{{\w+}} to %c16 step %{{\w+}} iter_args(%arg10 = %{{\w+}}) -> (f64) {
// CHECK: arith.addi %{{\w+}}, %arg9 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x?x1xf32>
// CHECK: math.cos %{{\w+}} : f64
// CHECK: math.sin %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%arg9] : tensor<16xf32>
// CHECK: arith.addf %arg10, %{{\w+}} : f64
// CHECK: tensor.insert %{{\w+}} into %arg8[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x15x9x2xf32>
// CHECK-LABEL: func.func @omlc_check(%arg0: index, %arg1: memref<0xf32>, %arg2: memref<i64>, %arg3: memref<16xf32>) -> i32 {
// CHECK: memref.load %arg2[] : memref<i64>
// CHECK: arith.cmpi sle, %{{\w+}}, %arg0 : index
// CHECK: arith.subi %arg0, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
