// RUN: linalg
// MatMulInteger widens each operand minus its zero point to i32 and
// reuses MatMul's contraction with an integer body; QLinearMatMul then
// requantizes the i32 product.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %azp: tensor<ui8>, %bzp: tensor<ui8>, %s: tensor<f32>) -> ("i": tensor<2x3xi32>, "q": tensor<2x3xui8>) {
  %i = "onnx.MatMulInteger"(%a, %b, %azp, %bzp) : (tensor<2x4xui8>, tensor<4x3xui8>, tensor<ui8>, tensor<ui8>) -> tensor<2x3xi32>
  %q = "onnx.QLinearMatMul"(%a, %s, %azp, %b, %s, %bzp, %s, %azp) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  onnx.return %i, %q
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> ()>
// CHECK: #map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK: #map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<2x4xi8> {llvm.noalias}, %arg1: memref<4x3xi8> {llvm.noalias}, %arg2: memref<i8> {llvm.noalias}, %arg3: memref<i8> {llvm.noalias},
// CHECK: tensor.empty() : tensor<2x4xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4xi8>, tensor<i8>)
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: tensor.empty() : tensor<4x3xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x3xi8>, tensor<i8>)
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 0 : i32
// CHECK: linalg.fill ins(%{{\w+}} : i32) outs(%{{\w+}} : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK: linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4xi32>,
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @k1(%arg0: memref<2x4xi8> {llvm.noalias}, %arg1: memref<f32> {llvm.noalias}, %arg2: memref<i8> {llvm.noalias}, %arg3: memref<4x3xi8> {llvm.noalias},
// CHECK: tensor.empty() : tensor<2x3xi32>
// CHECK: tensor.empty() : tensor<2x4xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4xi8>, tensor<i8>)
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: tensor.empty() : tensor<4x3xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<4x3xi8>, tensor<i8>)
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.constant 0 : i32
// CHECK: linalg.fill ins(%{{\w+}} : i32) outs(%{{\w+}} : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK: linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} : tensor<2x4xi32>,
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}},
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.extf %{{\w+}} : f32 to f64
// CHECK: arith.sitofp %{{\w+}} : i32 to f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.uitofp %{{\w+}} : i8 to f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.roundeven %{{\w+}} : f64
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 2.550000e+02 : f64
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.fptoui %{{\w+}} : f64 to i8
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x4xi8>, %arg3: memref<4x3xi8>, %arg4: memref<i8>, %arg5: memref<i8>, %arg6:
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg5, %arg7, %{{\w+}}, %{{\w+}}) : (memref<2x4xi8>, memref<4x3xi8>, memref<i8>, memref<i8>, memref<2x3xi32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg6, %arg4, %arg3, %arg5, %arg8, %{{\w+}}, %{{\w+}}) : (memref<2x4xi8>, memref<f32>, memref<i8>, memref<4x3xi8>, memref<i8>, memref<2x3xi8>,
