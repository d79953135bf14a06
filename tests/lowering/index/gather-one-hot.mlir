// RUN: linalg
// OneHot: y[i, d] = on where idx[i] (wrapped) = d, else off.
onnx.model {ir_version = 8, opset_imports = {"" = 11}}
onnx.graph "g"(%idx: tensor<3xi64>, %values: tensor<2xf32>) -> ("y": tensor<3x5xf32>) {
  %depth = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %y = "onnx.OneHot"(%idx, %depth, %values) : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x5xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3xi64> {llvm.noalias}, %arg1: memref<i64> {llvm.noalias}, %arg2: memref<2xf32> {llvm.noalias}, %arg3: memref<3x5xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<3xi64>) outs(%{{\w+}} : tensor<3x5xf32>) attrs =
// CHECK: arith.constant 0 : i64
// CHECK: arith.constant 5 : i64
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}] : tensor<2xf32>
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}] : tensor<2xf32>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3xi64>, %arg3: memref<2xf32>, %arg4: memref<3x5xf32>, %arg5: memref<i64>) {
// CHECK: call @k0(%arg2, %arg5, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<3xi64>, memref<i64>, memref<2xf32>, memref<3x5xf32>, index, index) -> ()
