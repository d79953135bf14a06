// RUN: linalg
// Col2Im: one generic over the image summing, at each position, the
// column blocks that cover it (read with tensor.extract).
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%cols: tensor<1x12x4xf32>) -> ("image": tensor<1x3x4x4xf32>) {
  %imshape = "onnx.Constant"() {value = dense<[4, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %block = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %image = "onnx.Col2Im"(%cols, %imshape, %block) {strides = [2, 2]} : (tensor<1x12x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x4x4xf32>
  onnx.return %image
}

// CHECK: #map = affine_map<(d0, d1, d2, d3, d4) -> (d4)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x12x4xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<2xi64> {llvm.noalias}, %arg3: memref<1x3x4x4xf32>
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}} : tensor<4xf32>)
// CHECK: linalg.index 4 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}] : tensor<2xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}] : tensor<2xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}}-1 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 2 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}}-1_13 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 3 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 0 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x12x4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x12x4xf32>, %arg3: memref<1x3x4x4xf32>, %arg4: memref<2xi64>, %arg5: memref<2xi64>)
// CHECK: call @k0(%arg2, %arg4, %arg5, %arg3, %{{\w+}}, %{{\w+}}) : (memref<1x12x4xf32>, memref<2xi64>, memref<2xi64>, memref<1x3x4x4xf32>, index, index) -> ()
