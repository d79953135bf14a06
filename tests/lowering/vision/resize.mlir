// RUN: linalg
// Resize: one generic over the output whose body computes each source
// coordinate in f64 and reads the input with tensor.extract at clamped
// indices (nearest: one read; linear: two taps per resized axis).
onnx.model {ir_version = 8, opset_imports = {"" = 19}}
onnx.graph "g"(%x: tensor<1x1x4x4xf32>) -> ("nearest": tensor<1x1x8x8xf32>, "linear": tensor<1x1x8x8xf32>) {
  %scales = "onnx.Constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %nearest = "onnx.Resize"(%x, none, %scales) {mode = "nearest"} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  %linear = "onnx.Resize"(%x, none, %scales) {mode = "linear"} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  onnx.return %nearest, %linear
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x1x4x4xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias}, %arg2: memref<1x1x8x8xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x1x8x8xf32>) attrs = 
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: linalg.index 2 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.cmpf ole, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: linalg.index 3 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.floor %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.cmpf ole, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x1x4x4xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias}, %arg2: memref<1x1x8x8xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x1x8x8xf32>) attrs = 
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: linalg.index 2 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: math.ceil %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.absf %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.absf %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 2.000000e+00 : f64
// CHECK: linalg.index 3 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 4.000000e+00 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: math.ceil %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.absf %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.absf %{{\w+}} : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 3.000000e+00 : f64
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptosi %{{\w+}} : f64 to i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x1x4x4xf32>, %arg3: memref<1x1x8x8xf32>, %arg4: memref<1x1x8x8xf32>, %arg5:
// CHECK: call @k0(%arg2, %arg5, %arg3, %{{\w+}}, %{{\w+}}) : (memref<1x1x4x4xf32>, memref<4xf32>, memref<1x1x8x8xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg5, %arg4, %{{\w+}}, %{{\w+}}) : (memref<1x1x4x4xf32>, memref<4xf32>, memref<1x1x8x8xf32>, index, index) -> ()
