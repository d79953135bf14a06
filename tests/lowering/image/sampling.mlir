// RUN: linalg
// RoiAlign (average of bilinear samples per bin of each region), Col2Im
// (the sum of the column blocks covering each image position),
// AffineGrid (the affine images of the normalized base grid) and
// CenterCropPad (a centered crop or zero pad of each axis): each one
// generic over the output reading its input with tensor.extract.
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<1x2x8x8xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xi64>, %cols: tensor<1x12x4xf32>, %theta: tensor<1x2x3xf32>, %img: tensor<1x2x6x6xf32>) -> ("aligned": tensor<3x2x2x2xf32>, "image": tensor<1x3x4x4xf32>, "grid": tensor<1x3x4x2xf32>, "cropped": tensor<1x2x4x8xf32>) {
  %aligned = "onnx.RoiAlign"(%x, %rois, %batch) {output_height = 2, output_width = 2, sampling_ratio = 2} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x2x2xf32>
  %imshape = "onnx.Constant"() {value = dense<[4, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %block = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %image = "onnx.Col2Im"(%cols, %imshape, %block) {strides = [2, 2]} : (tensor<1x12x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x4x4xf32>
  %size = "onnx.Constant"() {value = dense<[1, 1, 3, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %grid = "onnx.AffineGrid"(%theta, %size) : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<1x3x4x2xf32>
  %crop = "onnx.Constant"() {value = dense<[4, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %cropped = "onnx.CenterCropPad"(%img, %crop) {axes = [2, 3]} : (tensor<1x2x6x6xf32>, tensor<2xi64>) -> tensor<1x2x4x8xf32>
  onnx.return %aligned, %image, %grid, %cropped
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4) -> (d4)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x8x8xf32> {llvm.noalias}, %arg1: memref<3x4xf32> {llvm.noalias}, %arg2: memref<3xi64> {llvm.noalias}, %arg3: memref<3x2x2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<3x2x2x2xf32>) attrs = 
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}] : tensor<3xi64>
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 2 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 3 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant -1.000000e+00 : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant -1.000000e+00 : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.500000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant -1.000000e+00 : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.500000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant -1.000000e+00 : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant -1.000000e+00 : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.500000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant -1.000000e+00 : f64
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.cmpf oge, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 7.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x12x4xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<2xi64> {llvm.noalias}, %arg3: memref<1x3x4x4xf32>
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}} : tensor<4xf32>)
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
// CHECK-LABEL: func.func @k2(%arg0: memref<1x2x3xf32> {llvm.noalias}, %arg1: memref<4xi64> {llvm.noalias}, %arg2: memref<1x3x4x2xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x3x4x2xf32>) attrs = 
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 3 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: linalg.index 2 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @k3(%arg0: memref<1x2x6x6xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<1x2x4x8xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x4x8xf32>) attrs = 
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 3 : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}}-1 : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x6x6xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x8x8xf32>, %arg3: memref<3x4xf32>, %arg4: memref<3xi64>, %arg5:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg8, %{{\w+}}, %{{\w+}}) : (memref<1x2x8x8xf32>, memref<3x4xf32>, memref<3xi64>, memref<3x2x2x2xf32>, index, index) -> ()
// CHECK: call @k1(%arg5, %arg12, %arg13, %arg9, %{{\w+}}, %{{\w+}}) : (memref<1x12x4xf32>, memref<2xi64>, memref<2xi64>, memref<1x3x4x4xf32>, index, index) -> ()
// CHECK: call @k2(%arg6, %arg14, %arg10, %{{\w+}}, %{{\w+}}) : (memref<1x2x3xf32>, memref<4xi64>, memref<1x3x4x2xf32>, index, index) -> ()
// CHECK: call @k3(%arg7, %arg15, %arg11, %{{\w+}}, %{{\w+}}) : (memref<1x2x6x6xf32>, memref<2xi64>, memref<1x2x4x8xf32>, index, index) -> ()
