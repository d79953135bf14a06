// RUN: linalg
// An inference BatchNormalization after a Conv is the Conv's epilogue: one
// more op in an elementwise run, its parameters read along the channel
// dim (d1).
onnx.model {ir_version = 8, opset_imports = {"" = 15}}
onnx.graph "g"(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x1x1xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> ("y": tensor<1x4x6x6xf32>) {
  %c = "onnx.Conv"(%x, %w) : (tensor<1x3x6x6xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x6x6xf32>
  %n = "onnx.BatchNormalization"(%c, %s, %b, %m, %v) : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %y = "onnx.Relu"(%n) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x3x6x6xf32> {llvm.noalias}, %arg1: memref<4x3x1x1xf32> {llvm.noalias}, %arg2: memref<4xf32> {llvm.noalias}, %arg3: memref<4xf32>
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1, 2, 3]] : tensor<4x3x1x1xf32> into tensor<4x3xf32>
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x4x6x6xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: linalg.generic {indexing_maps = [#map4, #map4, #map4, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}},
// CHECK: arith.constant 9.99999974E-6 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.sqrt %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x3x6x6xf32>, %arg3: memref<4x3x1x1xf32>, %arg4: memref<4xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %{{\w+}}, %{{\w+}}) : (memref<1x3x6x6xf32>, memref<4x3x1x1xf32>, memref<4xf32>, memref<4xf32>,
