// RUN: linalg
// TopK: one generic over both outputs (values, indices), ranking each
// element with two nested scf.for loops over the axis.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x5xf32>) -> ("values": tensor<3x2xf32>, "indices": tensor<3x2xi64>) {
  %k = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %values, %indices = "onnx.TopK"(%x, %k) {axis = -1} : (tensor<3x5xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  onnx.return %values, %indices
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3x5xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<3x2xf32> {llvm.noalias}, %arg3: memref<3x2xi64>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}}, %{{\w+}} : tensor<3x2xf32>, tensor<3x2xi64>) {
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: scf.for %arg6 = %c0 to %c5 step %c1 iter_args(%arg7 = %{{\w+}}, %arg8 = %{{\w+}}) -> (f32, i64) {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %arg6] : tensor<3x5xf32>
// CHECK: scf.for %arg9 = %{{\w+}} to %c5 step %{{\w+}} iter_args(%arg10 = %{{\w+}}) -> (index) {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %arg9] : tensor<3x5xf32>
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpi slt, %arg9, %arg6 : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %arg10, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.index_cast %arg6 : index to i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg7 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg8 : i64
// CHECK-LABEL: func.func @omlc_check(%arg0: memref<3x5xf32>) -> i32 {
// CHECK: arith.constant true
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 3 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x5xf32>, %arg3: memref<3x2xf32>, %arg4: memref<3x2xi64>, %arg5: memref<1xi64>) {
// CHECK: call @k0(%arg2, %arg5, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<1xi64>, memref<3x2xf32>, memref<3x2xi64>, index, index) -> ()
