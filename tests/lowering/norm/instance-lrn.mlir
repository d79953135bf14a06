// RUN: linalg
// InstanceNormalization: the mean and variance of each image's channel
// over its spatial dims, then the normalized value scaled and shifted per
// channel; LRN: x / (bias + α/size · Σ x²)^β over a window of channels;
// LogSoftmax: x - max - log Σ exp(x - max).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x4x3x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %r: tensor<2x8xf32>) -> ("inst": tensor<1x4x3x3xf32>, "lrn": tensor<1x4x3x3xf32>, "logsm": tensor<2x8xf32>) {
  %inst = "onnx.InstanceNormalization"(%x, %s, %b) : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %lrn = "onnx.LRN"(%x) {size = 3} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %logsm = "onnx.LogSoftmax"(%r) {axis = -1} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  onnx.return %inst, %lrn, %logsm
}

// CHECK: #map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK: #map5 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map6 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x4x3x3xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias}, %arg2: memref<4xf32> {llvm.noalias}, %arg3: memref<1x4x3x3xf32>
// CHECK: tensor.expand_shape %{{\w+}} [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 3, 3] : tensor<1x4x3x3xf32> into tensor<1x4x1x3x3xf32>
// CHECK: tensor.empty() : tensor<1x4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{\w+}} :
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<1x4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.constant 0.111111112 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map2, #map3, #map3, #map4, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}},
// CHECK: arith.constant 0.111111112 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.111111112 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 9.99999974E-6 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.rsqrt %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x4x3x3xf32> {llvm.noalias}, %arg1: memref<1x4x3x3xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<1x4x3x3xf32>)
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x4x3x3xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x4x3x3xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x4x3x3xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.constant 3.33333337E-5 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 7.500000e-01 : f32
// CHECK: math.powf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k2(%arg0: memref<2x8xf32> {llvm.noalias}, %arg1: memref<2x8xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: tensor.empty() : tensor<2xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2xf32>) -> tensor<2xf32>
// CHECK: linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<2x8xf32>) outs(%{{\w+}} : tensor<2xf32>) attrs
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<2xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p2} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2xf32>) -> tensor<2xf32>
// CHECK: linalg.generic {indexing_maps = [#map5, #map6, #map6], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x8xf32>, tensor<2xf32>)
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map5, #map6, #map6, #map5], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}} : tensor<2x8xf32>,
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.bitcast %{{\w+}} : f32 to i32
// CHECK: arith.constant 23 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 8388607 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1056964608 : i32
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.bitcast %{{\w+}} : i32 to f32
// CHECK: arith.sitofp %{{\w+}} : i32 to f32
// CHECK: arith.constant 0.707106769 : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.0703768358 : f32
// CHECK: arith.constant -0.115146101 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.116769984 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.12420141 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.142493233 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.166680574 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.200007141 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.24999994 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.333333313 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -2.12194442E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -5.000000e-01 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.693359375 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x7FC00000 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x4x3x3xf32>, %arg3: memref<4xf32>, %arg4: memref<4xf32>, %arg5: memref<2x8xf32>,
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<1x4x3x3xf32>, memref<4xf32>, memref<4xf32>, memref<1x4x3x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg7, %{{\w+}}, %{{\w+}}) : (memref<1x4x3x3xf32>, memref<1x4x3x3xf32>, index, index) -> ()
// CHECK: call @k2(%arg5, %arg8, %{{\w+}}, %{{\w+}}) : (memref<2x8xf32>, memref<2x8xf32>, index, index) -> ()
