// RUN: linalg
// Split copies each output's window of the input (one kernel, two
// outputs); DepthToSpace reads the input through floordiv/mod of the
// block size; Trilu keeps x where j - i >= k; EyeLike writes 1 where
// j - i = k.
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<4x6xf32>, %img: tensor<1x8x2x3xf32>, %m: tensor<4x4xf32>) -> ("a": tensor<4x2xf32>, "b": tensor<4x4xf32>, "d2s": tensor<1x2x4x6xf32>, "upper": tensor<4x4xf32>, "eye": tensor<4x4xi32>) {
  %sizes = "onnx.Constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a, %b = "onnx.Split"(%x, %sizes) {axis = 1} : (tensor<4x6xf32>, tensor<2xi64>) -> (tensor<4x2xf32>, tensor<4x4xf32>)
  %d2s = "onnx.DepthToSpace"(%img) {blocksize = 2, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %upper = "onnx.Trilu"(%m, %one) : (tensor<4x4xf32>, tensor<i64>) -> tensor<4x4xf32>
  %eye = "onnx.EyeLike"(%m) {dtype = 6, k = -1} : (tensor<4x4xf32>) -> tensor<4x4xi32>
  onnx.return %a, %b, %d2s, %upper, %eye
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 4 + (d2 mod 2) * 2 + d3 mod 2, d2 floordiv 2, d3 floordiv 2)>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map3 = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x6xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<4x2xf32> {llvm.noalias}, %arg3: memref<4x4xf32>
// CHECK: tensor.extract_slice %{{\w+}}[0, 0] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4x2xf32>) outs(%{{\w+}} : tensor<4x2xf32>) {
// CHECK: tensor.extract_slice %{{\w+}}[0, 2] [4, 4] [1, 1] : tensor<4x6xf32> to tensor<4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4x4xf32>) outs(%{{\w+}} : tensor<4x4xf32>) {
// CHECK-LABEL: func.func @k1(%arg0: memref<1x8x2x3xf32> {llvm.noalias}, %arg1: memref<1x2x4x6xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<1x8x2x3xf32>)
// CHECK-LABEL: func.func @k2(%arg0: memref<4x4xf32> {llvm.noalias}, %arg1: memref<i64> {llvm.noalias}, %arg2: memref<4x4xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x4xf32>, tensor<i64>)
// CHECK: linalg.index 0 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k3(%arg0: memref<4x4xf32> {llvm.noalias}, %arg1: memref<4x4xi32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}} : tensor<4x4xi32>) attrs =  {omlc.root} {
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 0 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}}-1 : index
// CHECK: arith.constant 1 : i32
// CHECK: arith.constant 0 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x6xf32>, %arg3: memref<1x8x2x3xf32>, %arg4: memref<4x4xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg10, %arg5, %arg6, %{{\w+}}, %{{\w+}}) : (memref<4x6xf32>, memref<2xi64>, memref<4x2xf32>, memref<4x4xf32>, index, index) -> ()
// CHECK: call @k1(%arg3, %arg7, %{{\w+}}, %{{\w+}}) : (memref<1x8x2x3xf32>, memref<1x2x4x6xf32>, index, index) -> ()
// CHECK: call @k2(%arg4, %arg11, %arg8, %{{\w+}}, %{{\w+}}) : (memref<4x4xf32>, memref<i64>, memref<4x4xf32>, index, index) -> ()
// CHECK: call @k3(%arg4, %arg9, %{{\w+}}, %{{\w+}}) : (memref<4x4xf32>, memref<4x4xi32>, index, index) -> ()
