// RUN: linalg
// Pools are the same window with max (identity -inf), or a sum of x/count
// for AveragePool; GlobalAveragePool is a window as large as the input.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x2x6x6xf32>) -> ("max": tensor<1x2x3x3xf32>, "avg": tensor<1x2x3x3xf32>, "gap": tensor<1x2x1x1xf32>) {
  %max = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  %avg = "onnx.AveragePool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  %gap = "onnx.GlobalAveragePool"(%x) : (tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32>
  onnx.return %max, %avg, %gap
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x6x6xf32> {llvm.noalias}, %arg1: memref<1x2x3x3xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x3x3xf32>) attrs = 
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x2x6x6xf32> {llvm.noalias}, %arg1: memref<1x2x3x3xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x3x3xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k2(%arg0: memref<1x2x6x6xf32> {llvm.noalias}, %arg1: memref<1x2x1x1xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x1x1xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.empty() : tensor<6x6xf32>
// CHECK: linalg.generic {indexing_maps = [#map4, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.constant 0.027777778 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x6x6xf32>, %arg3: memref<1x2x3x3xf32>, %arg4: memref<1x2x3x3xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg3, %{{\w+}}, %{{\w+}}) : (memref<1x2x6x6xf32>, memref<1x2x3x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg4, %{{\w+}}, %{{\w+}}) : (memref<1x2x6x6xf32>, memref<1x2x3x3xf32>, index, index) -> ()
// CHECK: call @k2(%arg2, %arg5, %{{\w+}}, %{{\w+}}) : (memref<1x2x6x6xf32>, memref<1x2x1x1xf32>, index, index) -> ()
