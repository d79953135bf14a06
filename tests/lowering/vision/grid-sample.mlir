// RUN: linalg
// GridSample (bilinear, zeros padding): the grid's normalized coordinates
// to input positions, four masked taps weighted by their distances.
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<1x1x4x4xf32>, %grid: tensor<1x3x3x2xf32>) -> ("y": tensor<1x1x3x3xf32>) {
  %y = "onnx.GridSample"(%x, %grid) {mode = "linear"} : (tensor<1x1x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x1x3x3xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x1x4x4xf32> {llvm.noalias}, %arg1: memref<1x3x3x2xf32> {llvm.noalias}, %arg2: memref<1x1x3x3xf32> {llvm.noalias}, %arg3: index,
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x1x3x3xf32>) attrs = 
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x3x3x2xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant -5.000000e-01 : f64
// CHECK: arith.constant 3.500000e+00 : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf ole, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf ole, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x3x3x2xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant -5.000000e-01 : f64
// CHECK: arith.constant 3.500000e+00 : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf ole, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.cmpf ole, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x1x4x4xf32>, %arg3: memref<1x3x3x2xf32>, %arg4: memref<1x1x3x3xf32>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<1x1x4x4xf32>, memref<1x3x3x2xf32>, memref<1x1x3x3xf32>, index, index) -> ()
