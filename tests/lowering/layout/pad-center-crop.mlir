// RUN: linalg
// CenterCropPad: a centered crop (axis 2) or zero pad (axis 3) of each
// axis, one generic over the output reading the input with
// tensor.extract where the position falls inside it.
onnx.model {ir_version = 8, opset_imports = {"" = 20}}
onnx.graph "g"(%img: tensor<1x2x6x6xf32>) -> ("cropped": tensor<1x2x4x8xf32>) {
  %crop = "onnx.Constant"() {value = dense<[4, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %cropped = "onnx.CenterCropPad"(%img, %crop) {axes = [2, 3]} : (tensor<1x2x6x6xf32>, tensor<2xi64>) -> tensor<1x2x4x8xf32>
  onnx.return %cropped
}

// CHECK: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @k0(%arg0: memref<1x2x6x6xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<1x2x4x8xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<1x2x4x8xf32>) attrs = 
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 3 : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}}-1 : index
// CHECK: arith.cmpi ult, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x2x6x6xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<1x2x6x6xf32>, %arg3: memref<1x2x4x8xf32>, %arg4: memref<2xi64>) {
// CHECK: call @k0(%arg2, %arg4, %arg3, %{{\w+}}, %{{\w+}}) : (memref<1x2x6x6xf32>, memref<2xi64>, memref<1x2x4x8xf32>, index, index) -> ()
