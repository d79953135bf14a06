// RUN: linalg
// Gather and GatherElements: one generic over the output reading the
// index through its map, wrapping negative indices and clamping them to
// the axis, and the data with tensor.extract.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<5x4xf32>, %i: tensor<3xi64>, %e: tensor<5x2xi64>) -> ("rows": tensor<3x4xf32>, "elems": tensor<5x2xf32>) {
  %rows = "onnx.Gather"(%x, %i) {axis = 0} : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  %elems = "onnx.GatherElements"(%x, %e) {axis = 1} : (tensor<5x4xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  onnx.return %rows, %elems
}

// CHECK: #map = affine_map<(d0, d1) -> (d0)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<5x4xf32> {llvm.noalias}, %arg1: memref<3xi64> {llvm.noalias}, %arg2: memref<3x4xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<3xi64>) outs(%{{\w+}} : tensor<3x4xf32>) attrs =
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<5x4xf32>
// CHECK-LABEL: func.func @k1(%arg0: memref<5x4xf32> {llvm.noalias}, %arg1: memref<5x2xi64> {llvm.noalias}, %arg2: memref<5x2xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<5x2xi64>) outs(%{{\w+}} : tensor<5x2xf32>)
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 0 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<5x4xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<5x4xf32>, %arg3: memref<3xi64>, %arg4: memref<5x2xi64>, %arg5: memref<3x4xf32>,
// CHECK: call @k0(%arg2, %arg3, %arg5, %{{\w+}}, %{{\w+}}) : (memref<5x4xf32>, memref<3xi64>, memref<3x4xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<5x4xf32>, memref<5x2xi64>, memref<5x2xf32>, index, index) -> ()
