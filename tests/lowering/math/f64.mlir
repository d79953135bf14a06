// RUN: linalg
// f64 keeps the math dialect's ops: the polynomials are tuned for f32.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<16xf64>) -> ("y": tensor<16xf64>) {
  %e = "onnx.Exp"(%x) : (tensor<16xf64>) -> tensor<16xf64>
  %y = "onnx.Tanh"(%e) : (tensor<16xf64>) -> tensor<16xf64>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<16xf64> {llvm.noalias}, %arg1: memref<16xf64> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<16xf64>) outs(%{{\w+}} : tensor<16xf64>) {
// CHECK: math.exp %{{\w+}} : f64
// CHECK: math.tanh %{{\w+}} : f64
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<16xf64>, %arg3: memref<16xf64>) {
// CHECK: call @k0(%arg2, %arg3, %{{\w+}}, %{{\w+}}) : (memref<16xf64>, memref<16xf64>, index, index) -> ()
