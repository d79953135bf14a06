// RUN: linalg
// ConvTranspose: each output position sums the input positions whose
// strided window covers it.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>) -> ("y": tensor<1x3x5x5xf32>) {
  %y = "onnx.ConvTranspose"(%x, %w) {strides = [2, 2], pads = [1, 1, 1, 1]} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d5, d6)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x3x3xf32> {llvm.noalias}, %arg1: memref<2x3x3x3xf32> {llvm.noalias}, %arg2: memref<1x3x5x5xf32> {llvm.noalias}, %arg3: index,
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x3x5x5xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: linalg.index 4 : index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 5 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 3 : index
// CHECK: linalg.index 6 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3x3xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x3x3xf32>, %arg3: memref<2x3x3x3xf32>, %arg4: memref<1x3x5x5xf32>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<1x2x3x3xf32>, memref<2x3x3x3xf32>, memref<1x3x5x5xf32>, index, index) -> ()
