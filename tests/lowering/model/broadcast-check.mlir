// RUN: linalg
// Symbolic sizes that must agree at run time ("A" against "B" broadcast):
// the model gets omlc_check, which the entry point calls first, comparing
// the run-time sizes (each 1 or the other) and returning OMLC_ERR_SHAPE
// (3) otherwise; the Add reads a dim that is 1 only at run time with
// tensor.extract at index 0.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"A"x4xf32>, %y: tensor<"B"x4xf32>) -> ("z": tensor<?x4xf32>) {
  %z = "onnx.Add"(%x, %y) : (tensor<"A"x4xf32>, tensor<"B"x4xf32>) -> tensor<?x4xf32>
  onnx.return %z
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<0xf32> {llvm.noalias}, %arg2: memref<0xf32> {llvm.noalias}, %arg3: index, %arg4: index, %arg5:
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg3, 4], strides: [4, 1] : memref<0xf32> to memref<?x4xf32>
// CHECK: memref.reinterpret_cast %arg1 to offset: [0], sizes: [%arg4, 4], strides: [4, 1] : memref<0xf32> to memref<?x4xf32>
// CHECK: arith.index_cast %arg3 : index to i64
// CHECK: arith.index_cast %arg4 : index to i64
// CHECK: arith.constant 1 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [%{{\w+}}, 4], strides: [4, 1] : memref<0xf32> to memref<?x4xf32>
// CHECK: arith.cmpi eq, %arg3, %{{\w+}} : index
// CHECK: arith.cmpi eq, %arg4, %{{\w+}} : index
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%{{\w+}} : tensor<?x4xf32>) {
// CHECK: linalg.index 0 : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<?x4xf32>
// CHECK: linalg.index 0 : index
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : index
// CHECK: linalg.index 1 : index
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}] : tensor<?x4xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: arith.index_cast %arg3 : index to i64
// CHECK: arith.index_cast %arg4 : index to i64
// CHECK: arith.constant 1 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [%{{\w+}}, 4], strides: [4, 1] : memref<0xf32> to memref<?x4xf32>
// CHECK-LABEL: func.func @omlc_check(%arg0: index, %arg1: index, %arg2: memref<0xf32>, %arg3: memref<0xf32>) -> i32 {
// CHECK: arith.constant true
// CHECK: arith.cmpi eq, %arg0, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %arg1, %arg0 : index
// CHECK: arith.cmpi eq, %arg0, %{{\w+}} : index
// CHECK: arith.cmpi eq, %arg0, %{{\w+}} : index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.cmpi eq, %arg0, %{{\w+}} : index
// CHECK: arith.select %{{\w+}}, %arg1, %arg0 : index
// CHECK: arith.cmpi eq, %arg1, %{{\w+}} : index
// CHECK: arith.cmpi eq, %arg1, %{{\w+}} : index
// CHECK: arith.ori %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.andi %{{\w+}}, %{{\w+}} : i1
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 3 : i32
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i32
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: index, %arg3: index, %arg4: memref<0xf32>, %arg5: memref<0xf32>, %arg6: memref<1xi64>,
// CHECK: memref.reinterpret_cast %arg4 to offset: [0], sizes: [%arg2, 4], strides: [4, 1] : memref<0xf32> to memref<?x4xf32>
// CHECK: memref.reinterpret_cast %arg5 to offset: [0], sizes: [%arg3, 4], strides: [4, 1] : memref<0xf32> to memref<?x4xf32>
// CHECK: arith.index_cast %arg2 : index to i64
// CHECK: arith.index_cast %arg3 : index to i64
// CHECK: arith.constant 1 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: memref.alloc(%{{\w+}}) {bufferization.manual_deallocation} : memref<?x4xf32>
// CHECK: memref.extract_aligned_pointer_as_index %{{\w+}} : memref<?x4xf32> -> index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: memref.store %{{\w+}}, %arg6[%{{\w+}}] : memref<1xi64>
// CHECK: arith.index_cast %arg2 : index to i64
// CHECK: arith.index_cast %arg3 : index to i64
// CHECK: arith.constant 1 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: memref.store %{{\w+}}, %arg7[%{{\w+}}] : memref<2xi64>
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: memref.store %{{\w+}}, %arg7[%{{\w+}}] : memref<2xi64>
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x4xf32> to memref<0xf32>
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x4xf32> to memref<0xf32>
// CHECK: arith.index_cast %arg2 : index to i64
// CHECK: arith.index_cast %arg3 : index to i64
// CHECK: arith.constant 1 : i64
// CHECK: arith.cmpi eq, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : i64
// CHECK: arith.index_cast %{{\w+}} : i64 to index
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x4xf32> to memref<0xf32>
// CHECK: call @k0(%{{\w+}}, %{{\w+}}, %{{\w+}}, %arg2, %arg3, %{{\w+}}, %{{\w+}}) : (memref<0xf32>, memref<0xf32>, memref<0xf32>, index, index, index, index) -> ()
