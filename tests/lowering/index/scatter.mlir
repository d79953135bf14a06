// RUN: linalg
// Scatters are lowered as gathers: one generic over the output starting
// from x[p] and folding in, with an scf.for, every update that lands on p
// (ScatterElements: along the axis; ScatterND: over all index rows).
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<4x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>, %nd: tensor<2x1xi64>) -> ("elems": tensor<4x3xf32>, "rows": tensor<4x3xf32>) {
  %elems = "onnx.ScatterElements"(%x, %i, %u) {axis = 0, reduction = "add"} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %rows = "onnx.ScatterND"(%x, %nd, %u) : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  onnx.return %elems, %rows
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x3xf32> {llvm.noalias}, %arg1: memref<2x3xi64> {llvm.noalias}, %arg2: memref<2x3xf32> {llvm.noalias}, %arg3: memref<4x3xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4x3xf32>) outs(%{{\w+}} : tensor<4x3xf32>) attrs
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.constant true
// CHECK: arith.constant false
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg6 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg7 = %{{\w+}}) -> (f32) {
// CHECK: tensor.extract %{{\w+}}[%arg6, %{{\w+}}] : tensor<2x3xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%arg6, %{{\w+}}] : tensor<2x3xf32>
// CHECK: arith.addf %arg7, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg7 : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<4x3xf32> {llvm.noalias}, %arg1: memref<2x1xi64> {llvm.noalias}, %arg2: memref<2x3xf32> {llvm.noalias}, %arg3: memref<4x3xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4x3xf32>) outs(%{{\w+}} : tensor<4x3xf32>) attrs
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: scf.for %arg6 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg7 = %{{\w+}}) -> (f32) {
// CHECK: arith.remui %arg6, %{{\w+}} : index
// CHECK: arith.divui %arg6, %{{\w+}} : index
// CHECK: arith.constant true
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<2x1xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<2x3xf32>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg7 : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x3xf32>, %arg3: memref<2x3xi64>, %arg4: memref<2x3xf32>, %arg5: memref<2x1xi64>,
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<4x3xf32>, memref<2x3xi64>, memref<2x3xf32>, memref<4x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg5, %arg4, %arg7, %{{\w+}}, %{{\w+}}) : (memref<4x3xf32>, memref<2x1xi64>, memref<2x3xf32>, memref<4x3xf32>, index, index) -> ()
