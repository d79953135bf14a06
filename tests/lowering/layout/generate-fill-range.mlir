// RUN: linalg
// Named linalg ops from the shared builders: ConstantOfShape of a float
// is a linalg.fill, Range a generic over the output computing
// start + i * delta from the loop index (linalg.index).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3xf32>) -> ("ones": tensor<2x3xf32>, "r": tensor<5xf32>) {
  %shape = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %ones = "onnx.ConstantOfShape"(%shape) {value = dense<[1.5]> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
  %start = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %limit = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %delta = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %r = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  onnx.return %ones, %r
}

// CHECK: #map = affine_map<(d0) -> ()>
// CHECK: #map1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<2xi64> {llvm.noalias}, %arg1: memref<2x3xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: arith.constant 1.500000e+00 : f32
// CHECK: linalg.fill ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-LABEL: func.func @k1(%arg0: memref<f32> {llvm.noalias}, %arg1: memref<f32> {llvm.noalias}, %arg2: memref<f32> {llvm.noalias}, %arg3: memref<5xf32> {llvm.noalias},
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map1], iterator_types = ["parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<f32>, tensor<f32>) outs(%{{\w+}} :
// CHECK: linalg.index 0 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f32
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x3xf32>, %arg3: memref<2x3xf32>, %arg4: memref<5xf32>, %arg5: memref<2xi64>, %arg6:
// CHECK: call @k0(%arg5, %arg3, %{{\w+}}, %{{\w+}}) : (memref<2xi64>, memref<2x3xf32>, index, index) -> ()
// CHECK: call @k1(%arg6, %arg7, %arg8, %arg4, %{{\w+}}, %{{\w+}}) : (memref<f32>, memref<f32>, memref<f32>, memref<5xf32>, index, index) -> ()
