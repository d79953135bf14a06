// RUN: linalg
// A static Conv is in GEMM form: the weight collapsed to [M, C·kh·kw], an
// im2col generic (omlc.col) writing [C·kh·kw, oh, ow] from the input read
// with tensor.extract at clamped indices (zero outside it: the pads), the
// bias (or zero) filled into the output, then the contraction over
// (n, m, oh, ow, k) reducing k.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> ("valid": tensor<1x4x6x6xf32>, "padded": tensor<1x4x4x4xf32>) {
  %valid = "onnx.Conv"(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %padded = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  onnx.return %valid, %padded
}

// CHECK: #map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3, d4) -> (d4, d2, d3)>
// CHECK: #map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x3x8x8xf32> {llvm.noalias}, %arg1: memref<4x3x3x3xf32> {llvm.noalias}, %arg2: memref<4xf32> {llvm.noalias}, %arg3:
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK: tensor.empty() : tensor<27x6x6xf32>
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<27x6x6xf32>) attrs =  {omlc.col} {
// CHECK: linalg.index 0 : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 2 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x3x8x8xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<4xf32>) outs(%{{\w+}} :
// CHECK: linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x3x8x8xf32> {llvm.noalias}, %arg1: memref<4x3x3x3xf32> {llvm.noalias}, %arg2: memref<1x4x4x4xf32> {llvm.noalias}, %arg3: index,
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK: tensor.empty() : tensor<27x4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<27x4x4xf32>) attrs =  {omlc.col} {
// CHECK: linalg.index 0 : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 2 : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x3x8x8xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x4x4x4xf32>) attrs = 
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} fastmath<contract> : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x3x8x8xf32>, %arg3: memref<4x3x3x3xf32>, %arg4: memref<4xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %{{\w+}}, %{{\w+}}) : (memref<1x3x8x8xf32>, memref<4x3x3x3xf32>, memref<4xf32>, memref<1x4x6x6xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg3, %arg6, %{{\w+}}, %{{\w+}}) : (memref<1x3x8x8xf32>, memref<4x3x3x3xf32>, memref<1x4x4x4xf32>, index, index) -> ()
