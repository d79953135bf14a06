// RUN: linalg
// int4 values are one byte each inside the kernels (sign-extended); the
// model function unpacks int4 inputs from two per byte before the first
// kernel and packs int4 outputs after the last.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<8xi4>) -> ("y": tensor<8xf32>, "z": tensor<8xi4>) {
  %y = "onnx.Cast"(%x) {to = 1} : (tensor<8xi4>) -> tensor<8xf32>
  %z = "onnx.Cast"(%y) {to = 22} : (tensor<8xf32>) -> tensor<8xi4>
  onnx.return %y, %z
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<8xi8> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: memref<8xi8> {llvm.noalias}, %arg3: index, %arg4: index)
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%{{\w+}} : tensor<8xi8>) outs(%{{\w+}}, %{{\w+}} : tensor<8xf32>,
// CHECK: arith.sitofp %{{\w+}} : i8 to f32
// CHECK: arith.fptosi %{{\w+}} : f32 to i32
// CHECK: arith.trunci %{{\w+}} : i32 to i8
// CHECK: arith.constant 4 : i8
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.shrsi %{{\w+}}, %{{\w+}} : i8
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4xi8>, %arg3: memref<8xf32>, %arg4: memref<4xi8>) {
// CHECK: memref.alloc() {bufferization.manual_deallocation} : memref<8xi8>
// CHECK: scf.for %arg5 = %c0 to %c4 step %c1 {
// CHECK: memref.load %arg2[%arg5] : memref<4xi8>
// CHECK: arith.constant 0 : i8
// CHECK: arith.shrui %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.constant 4 : i8
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.shrsi %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.muli %arg5, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: memref.store %{{\w+}}, %{{\w+}}[%{{\w+}}] : memref<8xi8>
// CHECK: memref.alloc() {bufferization.manual_deallocation} : memref<8xi8>
// CHECK: call @k0(%{{\w+}}, %arg3, %{{\w+}}, %{{\w+}}, %{{\w+}}) : (memref<8xi8>, memref<8xf32>, memref<8xi8>, index, index) -> ()
// CHECK: scf.for %arg5 = %{{\w+}} to %{{\w+}} step %{{\w+}} {
// CHECK: arith.constant 0 : i8
// CHECK: arith.muli %arg5, %{{\w+}} : index
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : index
// CHECK: memref.load %{{\w+}}[%{{\w+}}] : memref<8xi8>
// CHECK: arith.constant 15 : i8
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i8
// CHECK: arith.constant 4 : i8
// CHECK: memref.store %{{\w+}}, %arg4[%arg5] : memref<4xi8>
// CHECK: memref.dealloc %{{\w+}} {bufferization.manual_deallocation} : memref<8xi8>
