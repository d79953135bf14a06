// RUN: linalg
// ReduceLogSumExp: log Σ exp(x - max) + max (the max a first reduction);
// ReduceL2: √Σ x²; an integer ReduceProd; reduction axes given as a graph
// input are read at run time (one generic over the output, whose type
// the model declares, folding the input elements each output element
// stands for; the model's entry checks the axes, omlc_check).
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<3x4xf32>, %n: tensor<3x4xi32>, %axes: tensor<1xi64>) -> ("lse": tensor<3x1xf32>, "l2": tensor<1x4xf32>, "prod": tensor<3x1xi32>, "dyn": tensor<3x1xf32>) {
  %last = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %first = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %lse = "onnx.ReduceLogSumExp"(%x, %last) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %l2 = "onnx.ReduceL2"(%x, %first) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  %prod = "onnx.ReduceProd"(%n, %last) : (tensor<3x4xi32>, tensor<1xi64>) -> tensor<3x1xi32>
  %dyn = "onnx.ReduceSum"(%x, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  onnx.return %lse, %l2, %prod, %dyn
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK: #map2 = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<3x4xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<3x1xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: tensor.empty() : tensor<3xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<3x4xf32>) outs(%{{\w+}} : tensor<3xf32>) attrs
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty() : tensor<3xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p2} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<3x4xf32>, tensor<3xf32>)
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
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
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<3xf32>, tensor<3xf32>)
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
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @k1(%arg0: memref<3x4xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<1x4xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%{{\w+}} : tensor<3x4xf32>) outs(%{{\w+}} : tensor<4xf32>) attrs
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<4xf32>) outs(%{{\w+}} : tensor<1x4xf32>) attrs =
// CHECK: math.sqrt %{{\w+}} : f32
// CHECK-LABEL: func.func @k2(%arg0: memref<3x4xi32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<3x1xi32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: tensor.empty() : tensor<3xi32>
// CHECK: arith.constant 1 : i32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : i32) outs(%{{\w+}} : tensor<3xi32>) -> tensor<3xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<3x4xi32>) outs(%{{\w+}} : tensor<3xi32>) attrs
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : i32
// CHECK: linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<3xi32>) outs(%{{\w+}} : tensor<3x1xi32>) attrs =
// CHECK-LABEL: func.func @k3(%arg0: memref<3x4xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<3x1xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: arith.constant true
// CHECK: scf.for %arg5 = %{{\w+}} to %c1 step %{{\w+}} iter_args(%arg6 = %{{\w+}}, %arg7 = %c0, %arg8 = %{{\w+}}) -> (i1, index, index) {
// CHECK: tensor.extract %{{\w+}}[%arg5] : tensor<1xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}}-2 : index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %arg6, %{{\w+}} : i1
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %arg7, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg7 : index
// CHECK: arith.addi %arg8, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg8 : index
// CHECK: arith.constant true
// CHECK: arith.cmpi sle, %{{\w+}}#1, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}#0, %{{\w+}} : i1
// CHECK: arith.cmpi ugt, %{{\w+}}#1, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.cmpi sle, %{{\w+}}#2, %{{\w+}} : index
// CHECK: arith.cmpi ugt, %{{\w+}}#2, %{{\w+}} : index
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}} : tensor<3x1xf32>) attrs =  {omlc.root} {
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: scf.for %arg5 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg6 = %{{\w+}}) -> (f32) {
// CHECK: arith.remui %arg5, %{{\w+}} : index
// CHECK: arith.divui %arg5, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remui %{{\w+}}, %{{\w+}} : index
// CHECK: arith.divui %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x4xf32>
// CHECK: arith.addf %arg6, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_check(%arg0: memref<3x4xf32>, %arg1: memref<3x4xi32>, %arg2: memref<1xi64>) -> i32 {
// CHECK: arith.constant true
// CHECK: arith.constant true
// CHECK: scf.for %arg3 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg4 = %{{\w+}}, %arg5 = %c0, %arg6 = %{{\w+}}) -> (i1, index, index) {
// CHECK: memref.load %arg2[%arg3] : memref<1xi64>
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}}-2 : index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %arg4, %{{\w+}} : i1
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %arg5, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg5 : index
// CHECK: arith.addi %arg6, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg6 : index
// CHECK: arith.constant true
// CHECK: arith.cmpi sle, %{{\w+}}#1, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}#0, %{{\w+}} : i1
// CHECK: arith.cmpi ugt, %{{\w+}}#1, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.cmpi sle, %{{\w+}}#2, %{{\w+}} : index
// CHECK: arith.cmpi ugt, %{{\w+}}#2, %{{\w+}} : index
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 3 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x4xf32>, %arg3: memref<3x4xi32>, %arg4: memref<1xi64>, %arg5: memref<3x1xf32>,
// CHECK: call @k0(%arg2, %arg9, %arg5, %{{\w+}}, %{{\w+}}) : (memref<3x4xf32>, memref<1xi64>, memref<3x1xf32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg10, %arg6, %{{\w+}}, %{{\w+}}) : (memref<3x4xf32>, memref<1xi64>, memref<1x4xf32>, index, index) -> ()
// CHECK: call @k2(%arg3, %arg9, %arg7, %{{\w+}}, %{{\w+}}) : (memref<3x4xi32>, memref<1xi64>, memref<3x1xi32>, index, index) -> ()
// CHECK: call @k3(%arg2, %arg4, %arg8, %{{\w+}}, %{{\w+}}) : (memref<3x4xf32>, memref<1xi64>, memref<3x1xf32>, index, index) -> ()
