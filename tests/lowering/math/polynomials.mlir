// RUN: linalg
// f32 exp, log, tanh and erf are arith polynomials with math.fma (vector
// instructions once vectorized), not math.exp/log/tanh/erf (libm calls).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<16xf32>) -> ("exp": tensor<16xf32>, "log": tensor<16xf32>, "tanh": tensor<16xf32>, "erf": tensor<16xf32>) {
  %exp = "onnx.Exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %log = "onnx.Log"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %tanh = "onnx.Tanh"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %erf = "onnx.Erf"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  onnx.return %exp, %log, %tanh, %erf
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<16xf32> {llvm.noalias}, %arg1: memref<16xf32> {llvm.noalias}, %arg2: memref<16xf32> {llvm.noalias}, %arg3: memref<16xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map, #map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<16xf32>) outs(%{{\w+}}, %{{\w+}}, %{{\w+}},
// CHECK: arith.constant -8.660000e+01 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 88.7228394 : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.44269502 : f32
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: math.floor %{{\w+}} : f32
// CHECK: arith.constant -0.693359375 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.12194442E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.98756912E-4 : f32
// CHECK: arith.constant 0.00139819994 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.00833345205 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.0416657962 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.166666657 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.fptosi %{{\w+}} : f32 to i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 23 : i32
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.bitcast %{{\w+}} : i32 to f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 88.7228394 : f32
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -8.660000e+01 : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.bitcast %{{\w+}} : f32 to i32
// CHECK: arith.constant 23 : i32
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 126 : i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 8388607 : i32
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 1056964608 : i32
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.bitcast %{{\w+}} : i32 to f32
// CHECK: arith.sitofp %{{\w+}} : i32 to f32
// CHECK: arith.constant 0.707106769 : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.0703768358 : f32
// CHECK: arith.constant -0.115146101 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.116769984 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.12420141 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.142493233 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.166680574 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.200007141 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.24999994 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.333333313 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -2.12194442E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -5.000000e-01 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.693359375 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x7FC00000 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -7.90531111 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 7.90531111 : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -2.76076837E-16 : f32
// CHECK: arith.constant 2.00018794E-13 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -8.60467184E-11 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 5.12229725E-8 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.48572235E-5 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 6.37261954E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.00489352457 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.19825836E-6 : f32
// CHECK: arith.constant 1.18534706E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.00226843474 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.00489352504 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.absf %{{\w+}} : f32
// CHECK: arith.constant 4.000000e-04 : f32
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -4.000000e+00 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 4.000000e+00 : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -2.72614237E-10 : f32
// CHECK: arith.constant 2.77068146E-8 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -2.10102394E-6 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -5.69250624E-5 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -7.34990637E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -2.954600e-03 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.0160960332 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -1.45660715E-5 : f32
// CHECK: arith.constant -2.13374049E-4 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.00168282702 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.00737332925 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant -0.0142647391 : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<16xf32>, %arg3: memref<16xf32>, %arg4: memref<16xf32>, %arg5: memref<16xf32>, %arg6:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %arg6, %{{\w+}}, %{{\w+}}) : (memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, index, index)
