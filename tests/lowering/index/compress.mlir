// RUN: linalg
// Compress with a constant condition: output slice q reads the input at
// the position of the (q+1)-th true entry, found by an scf.for over the
// condition.
onnx.model {ir_version = 8, opset_imports = {"" = 11}}
onnx.graph "g"(%x: tensor<3x4xf32>) -> ("y": tensor<3x2xf32>) {
  %cond = "onnx.Constant"() {value = dense<[false, true, false, true]> : tensor<4xi1>} : () -> tensor<4xi1>
  %y = "onnx.Compress"(%x, %cond) {axis = 1} : (tensor<3x4xf32>, tensor<4xi1>) -> tensor<3x2xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3x4xf32> {llvm.noalias}, %arg1: memref<4xi8> {llvm.noalias}, %arg2: memref<3x2xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}} : tensor<3x2xf32>) attrs =  {omlc.root} {
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg5 = %c0 to %{{\w+}} step %c1 iter_args(%arg6 = %c0, %arg7 = %c0) -> (index, index) {
// CHECK: tensor.extract %{{\w+}}[%arg5] : tensor<4xi8>
// CHECK: arith.extui %{{\w+}} : i8 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi ne, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %arg6, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.addi %arg6, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg6 : index
// CHECK: arith.select %{{\w+}}, %arg5, %arg7 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}#1] : tensor<3x4xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x4xf32>, %arg3: memref<3x2xf32>, %arg4: memref<4xi8>) {
// CHECK: call @k0(%arg2, %arg4, %arg3, %{{\w+}}, %{{\w+}}) : (memref<3x4xf32>, memref<4xi8>, memref<3x2xf32>, index, index) -> ()
