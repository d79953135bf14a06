// RUN: linalg
// ConvInteger: Conv's window over (x - x_zero_point) and w widened to i32;
// QLinearConv requantizes it; DynamicQuantizeLinear computes the scale
// and zero point from the input's min and max (vectors of minima and
// maxima over the flattened input), then quantizes to u8 vector by vector.
onnx.model {ir_version = 8, opset_imports = {"" = 11}}
onnx.graph "g"(%x: tensor<1x2x4x4xui8>, %w: tensor<3x2x3x3xui8>, %xzp: tensor<ui8>, %s: tensor<f32>, %f: tensor<2x4xf32>) -> ("ci": tensor<1x3x2x2xi32>, "qc": tensor<1x3x2x2xui8>, "y": tensor<2x4xui8>, "scale": tensor<f32>, "zp": tensor<ui8>) {
  %ci = "onnx.ConvInteger"(%x, %w, %xzp) : (tensor<1x2x4x4xui8>, tensor<3x2x3x3xui8>, tensor<ui8>) -> tensor<1x3x2x2xi32>
  %qc = "onnx.QLinearConv"(%x, %s, %xzp, %w, %s, %xzp, %s, %xzp) : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x2x2xui8>
  %y, %scale, %zp = "onnx.DynamicQuantizeLinear"(%f) : (tensor<2x4xf32>) -> (tensor<2x4xui8>, tensor<f32>, tensor<ui8>)
  onnx.return %ci, %qc, %y, %scale, %zp
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #map1 = affine_map<(d0, d1, d2, d3) -> ()>
// CHECK: #map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK: #map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x4x4xi8> {llvm.noalias}, %arg1: memref<3x2x3x3xi8> {llvm.noalias}, %arg2: memref<i8> {llvm.noalias}, %arg3: memref<1x3x2x2xi32>
// CHECK: tensor.empty() : tensor<1x2x4x4xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: tensor.empty() : tensor<3x2x3x3xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}} : tensor<3x2x3x3xi8>)
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x3x2x2xi32>) attrs = 
// CHECK: arith.constant 0 : i32
// CHECK: linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @k1(%arg0: memref<1x2x4x4xi8> {llvm.noalias}, %arg1: memref<f32> {llvm.noalias}, %arg2: memref<i8> {llvm.noalias}, %arg3: memref<3x2x3x3xi8>
// CHECK: tensor.empty() : tensor<1x3x2x2xi32>
// CHECK: tensor.empty() : tensor<1x2x4x4xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: tensor.empty() : tensor<3x2x3x3xi32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.extui %{{\w+}} : i8 to i32
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : i32
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x3x2x2xi32>) attrs = 
// CHECK: arith.constant 0 : i32
// CHECK: linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.muli %{{\w+}}, %{{\w+}} : i32
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : i32
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map1, #map1, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{\w+}},
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
// CHECK-LABEL: func.func @k2(%arg0: memref<2x4xf32> {llvm.noalias}, %arg1: memref<2x4xi8> {llvm.noalias}, %arg2: memref<f32> {llvm.noalias}, %arg3: memref<i8> {llvm.noalias},
// CHECK: arith.ceildivsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: scf.for %arg6 = %c0 to %c2 step %c1 iter_args(%arg7 = %{{\w+}}, %arg8 = %{{\w+}}) -> (vector<16xf32>, vector<16xf32>) {
// CHECK: arith.addi %arg6, %{{\w+}} : index
// CHECK: scf.for %arg9 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg10 = %arg7, %arg11 = %arg8) -> (vector<16xf32>, vector<16xf32>) {
// CHECK: arith.muli %arg9, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<2x4xf32>, vector<16xf32>
// CHECK: arith.maximumf %arg10, %{{\w+}} : vector<16xf32>
// CHECK: arith.minimumf %arg11, %{{\w+}} : vector<16xf32>
// CHECK: vector.reduction <maximumf>, %{{\w+}}#0 : vector<16xf32> into f32
// CHECK: vector.reduction <minimumf>, %{{\w+}}#1 : vector<16xf32> into f32
// CHECK: arith.cmpf oeq, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.negf %{{\w+}} : f32
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.roundeven %{{\w+}} : f32
// CHECK: tensor.insert %{{\w+}} into %{{\w+}}[] : tensor<f32>
// CHECK: arith.fptoui %{{\w+}} : f32 to i8
// CHECK: tensor.insert %{{\w+}} into %{{\w+}}[] : tensor<i8>
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<16xf32>
// CHECK: scf.for %arg6 = %{{\w+}} to %c2 step %{{\w+}} iter_args(%arg7 = %{{\w+}}) -> (tensor<2x4xi8>) {
// CHECK: arith.addi %arg6, %{{\w+}} : index
// CHECK: scf.for %arg8 = %{{\w+}} to %{{\w+}} step %{{\w+}} iter_args(%arg9 = %arg7) -> (tensor<2x4xi8>) {
// CHECK: arith.muli %arg8, %{{\w+}} : index
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: vector.transfer_read %{{\w+}}[%{{\w+}}, %{{\w+}}], %{{\w+}} : tensor<2x4xf32>, vector<16xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: math.roundeven %{{\w+}} : vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.maxnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.minnumf %{{\w+}}, %{{\w+}} : vector<16xf32>
// CHECK: arith.fptoui %{{\w+}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.transfer_write %{{\w+}}, %arg9[%{{\w+}}, %{{\w+}}] : vector<16xi8>, tensor<2x4xi8>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x4x4xi8>, %arg3: memref<3x2x3x3xi8>, %arg4: memref<i8>, %arg5: memref<f32>,
// CHECK: call @k0(%arg2, %arg3, %arg4, %arg7, %{{\w+}}, %{{\w+}}) : (memref<1x2x4x4xi8>, memref<3x2x3x3xi8>, memref<i8>, memref<1x3x2x2xi32>, index, index) -> ()
// CHECK: call @k1(%arg2, %arg5, %arg4, %arg3, %arg8, %{{\w+}}, %{{\w+}}) : (memref<1x2x4x4xi8>, memref<f32>, memref<i8>, memref<3x2x3x3xi8>, memref<1x3x2x2xi8>, index,
// CHECK: call @k2(%arg6, %arg9, %arg10, %arg11, %{{\w+}}, %{{\w+}}) : (memref<2x4xf32>, memref<2x4xi8>, memref<f32>, memref<i8>, index, index) -> ()
