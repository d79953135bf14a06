// RUN: linalg
// AffineGrid: one generic over the grid computing the affine image of
// the normalized base grid (f64 coordinates, as the reference).
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%theta: tensor<1x2x3xf32>) -> ("grid": tensor<1x3x4x2xf32>) {
  %size = "onnx.Constant"() {value = dense<[1, 1, 3, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %grid = "onnx.AffineGrid"(%theta, %size) : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<1x3x4x2xf32>
  onnx.return %grid
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x3xf32> {llvm.noalias}, %arg1: memref<4xi64> {llvm.noalias}, %arg2: memref<1x3x4x2xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x3x4x2xf32>) attrs = 
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 3 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: linalg.index 2 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x3xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x3xf32>, %arg3: memref<1x3x4x2xf32>, %arg4: memref<4xi64>) {
// CHECK: call @k0(%arg2, %arg4, %arg3, %{{\w+}}, %{{\w+}}) : (memref<1x2x3xf32>, memref<4xi64>, memref<1x3x4x2xf32>, index, index) -> ()
