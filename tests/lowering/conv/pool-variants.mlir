// RUN: linalg
// Pool variants: a padded, ceil-mode MaxPool reads its window with
// tensor.extract at clamped indices (-inf outside the input); MaxPool's
// Indices output comes from the same window reduced into values and flat
// indices (one generic with two outputs); LpPool sums |x|^p, then takes
// the p-th root; a depthwise Conv (group = C) reads one input channel per
// output channel.
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<1x2x5x5xf32>, %dw: tensor<2x1x3x3xf32>) -> ("max": tensor<1x2x3x3xf32>, "values": tensor<1x2x2x2xf32>, "indices": tensor<1x2x2x2xi64>, "lp": tensor<1x2x4x4xf32>, "depthwise": tensor<1x2x3x3xf32>) {
  %max = "onnx.MaxPool"(%x) {kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], ceil_mode = 1} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %values, %indices = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x2x5x5xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  %lp = "onnx.LpPool"(%x) {kernel_shape = [2, 2], p = 3} : (tensor<1x2x5x5xf32>) -> tensor<1x2x4x4xf32>
  %depthwise = "onnx.Conv"(%x, %dw) {group = 2} : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  onnx.return %max, %values, %indices, %lp, %depthwise
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d3 + d6)>
// CHECK: #map5 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK: #map6 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x5x5xf32> {llvm.noalias}, %arg1: memref<1x2x3x3xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x3x3xf32>) attrs = 
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{\w+}} :
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 4 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 3 : index
// CHECK: linalg.index 5 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x5x5xf32>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x2x5x5xf32> {llvm.noalias}, %arg1: memref<1x2x2x2xf32> {llvm.noalias}, %arg2: memref<1x2x2x2xi64> {llvm.noalias}, %arg3: index,
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x2x2xf32>) attrs = 
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x2x2xi64>) attrs = 
// CHECK: arith.constant -1 : i64
// CHECK: tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{\w+}}
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 4 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 3 : index
// CHECK: linalg.index 5 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x5x5xf32>
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -1 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}}-1_i64 : i64
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK-LABEL: func.func @k2(%arg0: memref<1x2x5x5xf32> {llvm.noalias}, %arg1: memref<1x2x4x4xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x4x4xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#map3, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: math.absf %{{\w+}} : f32
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK: math.powf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x4x4xf32>) attrs = 
// CHECK: arith.constant 0.333333343 : f32
// CHECK: math.powf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k3(%arg0: memref<1x2x5x5xf32> {llvm.noalias}, %arg1: memref<2x1x3x3xf32> {llvm.noalias}, %arg2: memref<1x2x3x3xf32> {llvm.noalias}, %arg3: index,
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x3x3xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x5x5xf32>, %arg3: memref<2x1x3x3xf32>, %arg4: memref<1x2x3x3xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg4, %{{\w+}}, %{{\w+}}) : (memref<1x2x5x5xf32>, memref<1x2x3x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg5, %arg6, %{{\w+}}, %{{\w+}}) : (memref<1x2x5x5xf32>, memref<1x2x2x2xf32>, memref<1x2x2x2xi64>, index, index) -> ()
// CHECK: call @k2(%arg2, %arg7, %{{\w+}}, %{{\w+}}) : (memref<1x2x5x5xf32>, memref<1x2x4x4xf32>, index, index) -> ()
// CHECK: call @k3(%arg2, %arg3, %arg8, %{{\w+}}, %{{\w+}}) : (memref<1x2x5x5xf32>, memref<2x1x3x3xf32>, memref<1x2x3x3xf32>, index, index) -> ()
