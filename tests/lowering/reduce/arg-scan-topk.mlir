// RUN: linalg
// ArgMax: one reduction generic with two outputs (best value, its index);
// CumSum: a generic whose body sums with an scf.for along the axis; TopK:
// one generic over both outputs ranking with two nested scf.for loops.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x5xf32>) -> ("arg": tensor<3x1xi64>, "cum": tensor<3x5xf32>, "values": tensor<3x2xf32>, "indices": tensor<3x2xi64>) {
  %arg = "onnx.ArgMax"(%x) {axis = 1} : (tensor<3x5xf32>) -> tensor<3x1xi64>
  %axis = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %cum = "onnx.CumSum"(%x, %axis) : (tensor<3x5xf32>, tensor<i64>) -> tensor<3x5xf32>
  %k = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %values, %indices = "onnx.TopK"(%x, %k) {axis = -1} : (tensor<3x5xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  onnx.return %arg, %cum, %values, %indices
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK: #map2 = affine_map<(d0, d1) -> ()>
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
// CHECK-LABEL: func.func @k1(%arg0: memref<3x5xf32> {llvm.noalias}, %arg1: memref<i64> {llvm.noalias}, %arg2: memref<3x5xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<i64>) outs(%{{\w+}} : tensor<3x5xf32>) attrs = 
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: scf.for %arg5 = %c0 to %{{\w+}} step %{{\w+}} iter_args(%arg6 = %{{\w+}}) -> (f32) {
// CHECK: arith.select %{{\w+}}, %arg5, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<3x5xf32>
// CHECK: arith.addf %arg6, %{{\w+}} : f32
// CHECK-LABEL: func.func @k2(%arg0: memref<3x5xf32> {llvm.noalias}, %arg1: memref<1xi64> {llvm.noalias}, %arg2: memref<3x2xf32> {llvm.noalias}, %arg3: memref<3x2xi64>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}}, %{{\w+}} : tensor<3x2xf32>, tensor<3x2xi64>) {
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: scf.for %arg6 = %c0 to %c5 step %c1 iter_args(%arg7 = %{{\w+}}, %arg8 = %{{\w+}}) -> (f32, i64) {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %arg6] : tensor<3x5xf32>
// CHECK: scf.for %arg9 = %{{\w+}} to %c5 step %{{\w+}} iter_args(%arg10 = %{{\w+}}) -> (index) {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %arg9] : tensor<3x5xf32>
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.cmpi slt, %arg9, %arg6 : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %arg10, %{{\w+}} : index
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.index_cast %arg6 : index to i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg7 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %arg8 : i64
// CHECK-LABEL: func.func @omlc_check(%arg0: memref<3x5xf32>) -> i32 {
// CHECK: arith.constant true
// CHECK: arith.cmpi sge, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 3 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<3x5xf32>, %arg3: memref<3x1xi64>, %arg4: memref<3x5xf32>, %arg5: memref<3x2xf32>,
// CHECK: call @k0(%arg2, %arg3, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<3x1xi64>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg7, %arg4, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<i64>, memref<3x5xf32>, index, index) -> ()
// CHECK: call @k2(%arg2, %arg8, %arg5, %arg6, %{{\w+}}, %{{\w+}}) : (memref<3x5xf32>, memref<1xi64>, memref<3x2xf32>, memref<3x2xi64>, index, index) -> ()
