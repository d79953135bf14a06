// RUN: linalg
// GatherND reads each index row with tensor.extract, then the data;
// ReverseSequence reads x at len - 1 - t along the time axis below each
// batch's length, else at t.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x5x3xf32>, %idx: tensor<2x2xi64>, %seqs: tensor<6x4x2xf32>, %lens: tensor<4xi64>) -> ("nd": tensor<2x3xf32>, "rev": tensor<6x4x2xf32>) {
  %nd = "onnx.GatherND"(%x, %idx) : (tensor<4x5x3xf32>, tensor<2x2xi64>) -> tensor<2x3xf32>
  %rev = "onnx.ReverseSequence"(%seqs, %lens) {batch_axis = 1, time_axis = 0} : (tensor<6x4x2xf32>, tensor<4xi64>) -> tensor<6x4x2xf32>
  onnx.return %nd, %rev
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1, d2) -> (d1)>
// CHECK: #map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x5x3xf32> {llvm.noalias}, %arg1: memref<2x2xi64> {llvm.noalias}, %arg2: memref<2x3xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}} : tensor<2x3xf32>) attrs =  {omlc.root} {
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<2x2xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<2x2xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<4x5x3xf32>
// CHECK-LABEL: func.func @k1(%arg0: memref<6x4x2xf32> {llvm.noalias}, %arg1: memref<4xi64> {llvm.noalias}, %arg2: memref<6x4x2xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<4xi64>) outs(%{{\w+}} :
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 0 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<6x4x2xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x5x3xf32>, %arg3: memref<2x2xi64>, %arg4: memref<6x4x2xf32>, %arg5: memref<4xi64>,
// CHECK: call @k0(%arg2, %arg3, %arg6, %{{\w+}}, %{{\w+}}) : (memref<4x5x3xf32>, memref<2x2xi64>, memref<2x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg4, %arg5, %arg7, %{{\w+}}, %{{\w+}}) : (memref<6x4x2xf32>, memref<4xi64>, memref<6x4x2xf32>, index, index) -> ()
