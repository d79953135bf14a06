// RUN: linalg
// CumSum: a generic over the output whose body sums the input along the
// axis with an scf.for up to the element's own position.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x5xf32>) -> ("cum": tensor<3x5xf32>) {
  %axis = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %cum = "onnx.CumSum"(%x, %axis) : (tensor<3x5xf32>, tensor<i64>) -> tensor<3x5xf32>
  onnx.return %cum
}

// CHECK: #map = affine_map<(d0, d1) -> ()>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3x5xf32> {llvm.noalias}, %arg1: memref<i64> {llvm.noalias}, %arg2: memref<3x5xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<i64>) outs(%{{\w+}} : tensor<3x5xf32>) attrs = 
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: scf.for %arg5 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg6 = %{{\w+}}) -> (f32) {
// CHECK: arith.select %{{\w+}}, %arg5, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x5xf32>
// CHECK: arith.addf %arg6, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x5xf32>, %arg3: memref<3x5xf32>, %arg4: memref<i64>) {
// CHECK: call @k0(%arg2, %arg4, %arg3, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<i64>, memref<3x5xf32>, index, index) -> ()
