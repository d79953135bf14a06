// RUN: linalg
// Activations as elementwise ops, one generic for the run: Gelu with the
// tanh approximation (the polynomial tanh of math/polynomials.mlir),
// LeakyRelu (a select on the sign), HardSigmoid and Clip (clamps by
// maximumf/minimumf).
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<4x8xf32>) -> ("y": tensor<4x8xf32>) {
  %g = "onnx.Gelu"(%x) {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = "onnx.LeakyRelu"(%g) {alpha = 0.1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = "onnx.HardSigmoid"(%l) {alpha = 0.2, beta = 0.5} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %lo = "onnx.Constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %hi = "onnx.Constant"() {value = dense<0.75> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Clip"(%h, %lo, %hi) : (tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> tensor<4x8xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @k0(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<f32> {llvm.noalias}, %arg2: memref<f32> {llvm.noalias}, %arg3: memref<4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}} : tensor<4x8xf32>,
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 4.471500e-02 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.797884583 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
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
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.000000e-01 : f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4x8xf32>, %arg3: memref<4x8xf32>, %arg4: memref<f32>, %arg5: memref<f32>) {
// CHECK: call @k0(%arg2, %arg4, %arg5, %arg3, %{{\w+}}, %{{\w+}}) : (memref<4x8xf32>, memref<f32>, memref<f32>, memref<4x8xf32>, index, index) -> ()
