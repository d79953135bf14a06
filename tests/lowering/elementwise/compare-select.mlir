// RUN: linalg
// Comparisons, logic and Where are elementwise too: one generic whose
// body compares (arith.cmpf), combines the i1 results and selects; the
// scalar operand of Where broadcasts through a map with no results.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %m: tensor<4x1xi1>, %zero: tensor<f32>) -> ("z": tensor<4x8xf32>) {
  %gt = "onnx.Greater"(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %both = "onnx.And"(%gt, %m) : (tensor<4x8xi1>, tensor<4x1xi1>) -> tensor<4x8xi1>
  %z = "onnx.Where"(%both, %x, %zero) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  onnx.return %z
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0, 0)>
// CHECK: #map2 = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<4x8xf32> {llvm.noalias}, %arg2: memref<4x1xi8> {llvm.noalias}, %arg3: memref<f32>
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map1, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}} :
// CHECK: arith.constant 0 : i8
// CHECK: arith.cmpi ne, %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<4x8xf32>, %arg4: memref<4x1xi8>, %arg5: memref<f32>, %arg6:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %arg6, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<4x8xf32>, memref<4x1xi8>, memref<f32>, memref<4x8xf32>, index, index)
