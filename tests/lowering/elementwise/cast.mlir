// RUN: linalg
// Casts between integers and floats are arith conversions in the run's
// body: f32 -> i32 truncates toward zero (fptosi), i64 -> f32 is sitofp,
// float -> bool compares with zero.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<8xf32>, %i: tensor<8xi64>) -> ("a": tensor<8xi32>, "b": tensor<8xf32>, "c": tensor<8xi1>) {
  %a = "onnx.Cast"(%x) {to = 6} : (tensor<8xf32>) -> tensor<8xi32>
  %b = "onnx.Cast"(%i) {to = 1} : (tensor<8xi64>) -> tensor<8xf32>
  %c = "onnx.Cast"(%x) {to = 9} : (tensor<8xf32>) -> tensor<8xi1>
  onnx.return %a, %b, %c
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<8xf32> {llvm.noalias}, %arg1: memref<8xi32> {llvm.noalias}, %arg2: memref<8xi8> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<8xf32>) outs(%{{\w+}}, %{{\w+}} : tensor<8xi32>,
// CHECK: arith.fptosi %{{\w+}} : f32 to i32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf une, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.extui %{{\w+}} : i1 to i8
// CHECK-LABEL: func.func @k1(%arg0: memref<8xi64> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<8xi64>) outs(%{{\w+}} : tensor<8xf32>) {
// CHECK: arith.sitofp %{{\w+}} : i64 to f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<8xf32>, %arg3: memref<8xi64>, %arg4: memref<8xi32>, %arg5: memref<8xf32>, %arg6:
// CHECK: call @k0(%arg2, %arg4, %arg6, %{{\w+}}, %{{\w+}}) : (memref<8xf32>, memref<8xi32>, memref<8xi8>, index, index) -> ()
// CHECK: call @k1(%arg3, %arg5, %{{\w+}}, %{{\w+}}) : (memref<8xi64>, memref<8xf32>, index, index) -> ()
