// RUN: linalg
// bf16 has no arithmetic in the backend: values widen to f32, compute,
// and round back once.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<8xbf16>, %y: tensor<8xbf16>) -> ("z": tensor<8xbf16>) {
  %z = "onnx.Sub"(%x, %y) : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xbf16>
  onnx.return %z
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<8xbf16> {llvm.noalias}, %arg1: memref<8xbf16> {llvm.noalias}, %arg2: memref<8xbf16> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<8xbf16>, tensor<8xbf16>) outs(%{{\w+}} :
// CHECK: arith.extf %{{\w+}} : bf16 to f32
// CHECK: arith.extf %{{\w+}} : bf16 to f32
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.truncf %{{\w+}} : f32 to bf16
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<8xbf16>, %arg3: memref<8xbf16>, %arg4: memref<8xbf16>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<8xbf16>, memref<8xbf16>, memref<8xbf16>, index, index) -> ()
