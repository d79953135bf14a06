// RUN: linalg
// MaxUnpool of symbolic sizes: the output filled with zeros, then one loop
// over the input storing each value at the position its flat index names
// in the inferred dims ((in - 1)·stride + kernel - pads); an index outside
// stores the value already there. The entry checks the output is at least
// the inferred size.
onnx.model {ir_version = 8, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<1x2x"h"x"w"xf32>, %i: tensor<1x2x"h"x"w"xi64>) -> ("y": tensor<1x2x8x8xf32>) {
  %y = "onnx.MaxUnpool"(%x, %i) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x"h"x"w"xf32>, tensor<1x2x"h"x"w"xi64>) -> tensor<1x2x8x8xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<0xi64> {llvm.noalias}, %arg2: memref<1x2x8x8xf32> {llvm.noalias}, %arg3: index, %arg4: index,
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
// CHECK: scf.for %arg7 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg8 = %{{\w+}}) -> (tensor<1x2x8x8xf32>) {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x?x?xi64>
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x?x?xf32>
// CHECK: tensor.insert %{{\w+}} into %arg8[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK-LABEL: func.func @omlc_check(%arg0: index, %arg1: index, %arg2: memref<0xf32>, %arg3: memref<0xi64>) -> i32 {
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
