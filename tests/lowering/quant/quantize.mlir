// RUN: linalg
// QuantizeLinear: round_half_even(x / scale) + zero_point, saturated to
// u8, the scale per axis read through the map (d0, d1) -> (d1);
// DequantizeLinear: (x - zero_point) * scale in f32.
onnx.model {ir_version = 8, opset_imports = {"" = 19}}
onnx.graph "g"(%x: tensor<2x4xf32>, %s: tensor<4xf32>, %zp: tensor<4xui8>, %q: tensor<2x4xi8>, %ds: tensor<f32>, %dzp: tensor<i8>) -> ("q": tensor<2x4xui8>, "d": tensor<2x4xf32>) {
  %qy = "onnx.QuantizeLinear"(%x, %s, %zp) {axis = 1} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xui8>) -> tensor<2x4xui8>
  %d = "onnx.DequantizeLinear"(%q, %ds, %dzp) : (tensor<2x4xi8>, tensor<f32>, tensor<i8>) -> tensor<2x4xf32>
  onnx.return %qy, %d
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK: #map2 = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @k0(%arg0: memref<2x4xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias}, %arg2: memref<4xi8> {llvm.noalias}, %arg3: memref<2x4xi8>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}} : tensor<2x4xf32>,
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.uitofp %{{\w+}} : i8 to f32
// CHECK: math.roundeven %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.fptoui %{{\w+}} : f32 to i8
// CHECK-LABEL: func.func @k1(%arg0: memref<2x4xi8> {llvm.noalias}, %arg1: memref<f32> {llvm.noalias}, %arg2: memref<i8> {llvm.noalias}, %arg3: memref<2x4xf32> {llvm.noalias},
// CHECK: linalg.generic {indexing_maps = [#map, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}} : tensor<2x4xi8>,
// CHECK: arith.sitofp %{{\w+}} : i8 to f32
// CHECK: arith.sitofp %{{\w+}} : i8 to f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x4xf32>, %arg3: memref<4xf32>, %arg4: memref<4xi8>, %arg5: memref<2x4xi8>, %arg6:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg8, %{{\w+}}, %{{\w+}}) : (memref<2x4xf32>, memref<4xf32>, memref<4xi8>, memref<2x4xi8>, index, index) -> ()
// CHECK: call @k1(%arg5, %arg6, %arg7, %arg9, %{{\w+}}, %{{\w+}}) : (memref<2x4xi8>, memref<f32>, memref<i8>, memref<2x4xf32>, index, index) -> ()
