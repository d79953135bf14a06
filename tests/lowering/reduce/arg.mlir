// RUN: linalg
// ArgMax: one reduction generic with two outputs (the best value so far,
// its index); the first of equal values wins.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x5xf32>) -> ("arg": tensor<3x1xi64>) {
  %arg = "onnx.ArgMax"(%x) {axis = 1} : (tensor<3x5xf32>) -> tensor<3x1xi64>
  onnx.return %arg
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3x5xf32> {llvm.noalias}, %arg1: memref<3x1xi64> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: tensor.empty() : tensor<3xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK: tensor.empty() : tensor<3xi64>
// CHECK: arith.constant 0 : i64
// CHECK: linalg.fill {omlc.p1} ins(%{{\w+}} : i64) outs(%{{\w+}} : tensor<3xi64>) -> tensor<3xi64>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<3x5xf32>) outs(%{{\w+}}, %{{\w+}} :
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.constant 0 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}#1 : tensor<3xi64>) outs(%{{\w+}} : tensor<3x1xi64>) attrs
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x5xf32>, %arg3: memref<3x1xi64>) {
// CHECK: call @k0(%arg2, %arg3, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<3x1xi64>, index, index) -> ()
