// RUN: linalg
// With a symbolic batch dim "N" the kernels take their sizes at run time:
// the model function passes the symbol's value, tensors are created with
// tensor.empty of the run-time size, and an elementwise run still is one
// generic (exp: see math/polynomials.mlir).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x8xf32>, %b: tensor<8xf32>) -> ("y": tensor<"N"x8xf32>) {
  %a = "onnx.Add"(%x, %b) : (tensor<"N"x8xf32>, tensor<8xf32>) -> tensor<"N"x8xf32>
  %y = "onnx.Softmax"(%a) {axis = -1} : (tensor<"N"x8xf32>) -> tensor<"N"x8xf32>
  onnx.return %y
}

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK: #map2 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: memref<0xf32> {llvm.noalias}, %arg3: index, %arg4: index, %arg5:
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg3, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [%arg3, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<?x8xf32>, tensor<8xf32>)
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [%arg3, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK-LABEL: func.func @k1(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<0xf32> {llvm.noalias}, %arg2: index, %arg3: index, %arg4: index) attributes {omlc.kernel} {
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg2, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK: memref.reinterpret_cast %arg1 to offset: [0], sizes: [%arg2, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK: tensor.dim %{{\w+}}, %{{\w+}} : tensor<?x8xf32>
// CHECK: tensor.empty(%{{\w+}}) : tensor<?xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill {omlc.p0} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<?xf32>) -> tensor<?xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<?x8xf32>) outs(%{{\w+}} : tensor<?xf32>) attrs
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty(%{{\w+}}) : tensor<?x8xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<?x8xf32>, tensor<?xf32>)
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f32
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : f32
// CHECK: tensor.empty(%{{\w+}}) : tensor<?xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill {omlc.p3} ins(%{{\w+}} : f32) outs(%{{\w+}} : tensor<?xf32>) -> tensor<?xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%{{\w+}} : tensor<?x8xf32>) outs(%{{\w+}} : tensor<?xf32>) attrs
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f32
// CHECK: linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%{{\w+}}, %{{\w+}} : tensor<?x8xf32>, tensor<?xf32>)
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.reinterpret_cast %arg1 to offset: [0], sizes: [%arg2, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: index, %arg3: memref<0xf32>, %arg4: memref<8xf32>, %arg5: memref<0xf32>) {
// CHECK: memref.reinterpret_cast %arg3 to offset: [0], sizes: [%arg2, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x8xf32> to memref<0xf32>
// CHECK: memref.alloc(%arg2) {bufferization.manual_deallocation} : memref<?x8xf32>
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x8xf32> to memref<0xf32>
// CHECK: call @k0(%{{\w+}}, %arg4, %{{\w+}}, %arg2, %{{\w+}}, %{{\w+}}) : (memref<0xf32>, memref<8xf32>, memref<0xf32>, index, index, index) -> ()
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x8xf32> to memref<0xf32>
// CHECK: memref.reinterpret_cast %arg5 to offset: [0], sizes: [%arg2, 8], strides: [8, 1] : memref<0xf32> to memref<?x8xf32>
// CHECK: memref.reinterpret_cast %{{\w+}} to offset: [0], sizes: [0], strides: [1] : memref<?x8xf32> to memref<0xf32>
// CHECK: call @k1(%{{\w+}}, %{{\w+}}, %arg2, %{{\w+}}, %{{\w+}}) : (memref<0xf32>, memref<0xf32>, index, index, index) -> ()
// CHECK: memref.dealloc %{{\w+}} {bufferization.manual_deallocation} : memref<?x8xf32>
