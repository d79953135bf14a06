// RUN: linalg
// Slice with constant bounds copies a strided window
// (tensor.extract_slice); Pad computes each source index and reads it
// with tensor.extract (reflect mode mirrors at the edges).
onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<6x8xf32>) -> ("s": tensor<2x4xf32>, "p": tensor<8x10xf32>) {
  %starts = "onnx.Constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = "onnx.Constant"() {value = dense<[5, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axes = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.Slice"(%x, %starts, %ends, %axes, %steps) : (tensor<6x8xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  %pads = "onnx.Constant"() {value = dense<[1, 1, 1, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %p = "onnx.Pad"(%x, %pads) {mode = "reflect"} : (tensor<6x8xf32>, tensor<4xi64>) -> tensor<8x10xf32>
  onnx.return %s, %p
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<6x8xf32> {llvm.noalias}, %arg1: memref<2xi64> {llvm.noalias}, %arg2: memref<2xi64> {llvm.noalias}, %arg3: memref<2xi64>
// CHECK: tensor.extract_slice %{{\w+}}[1, 0] [2, 4] [2, 2] : tensor<6x8xf32> to tensor<2x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}} : tensor<2x4xf32>) outs(%{{\w+}} : tensor<2x4xf32>) attrs
// CHECK-LABEL: func.func @k1(%arg0: memref<6x8xf32> {llvm.noalias}, %arg1: memref<4xi64> {llvm.noalias}, %arg2: memref<8x10xf32> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}} : tensor<8x10xf32>) attrs =  {omlc.root} {
// CHECK: linalg.index 0 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.maxsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.remsi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.cmpi slt, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: arith.subi %{{\w+}}, %{{\w+}} : index
// CHECK: arith.minsi %{{\w+}}, %{{\w+}} : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<6x8xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<6x8xf32>, %arg3: memref<2x4xf32>, %arg4: memref<8x10xf32>, %arg5: memref<2xi64>,
// CHECK: call @k0(%arg2, %arg5, %arg6, %arg7, %arg8, %arg3, %{{\w+}}, %{{\w+}}) : (memref<6x8xf32>, memref<2xi64>, memref<2xi64>, memref<2xi64>, memref<2xi64>,
// CHECK: call @k1(%arg2, %arg9, %arg4, %{{\w+}}, %{{\w+}}) : (memref<6x8xf32>, memref<4xi64>, memref<8x10xf32>, index, index) -> ()
