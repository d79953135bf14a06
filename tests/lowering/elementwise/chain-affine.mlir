// RUN: affine
// The elementwise schedule: the run's generic is chunked along the outer
// dim and vectorized along the last (16 f32 lanes with AVX-512).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<64x256xf32>, %b: tensor<256xf32>) -> ("y": tensor<64x256xf32>) {
  %a = "onnx.Add"(%x, %b) : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %y = "onnx.Relu"(%a) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<64x256xf32> {llvm.noalias}, %arg1: memref<256xf32> {llvm.noalias}, %arg2: memref<64x256xf32> {llvm.noalias}, %arg3: index, %arg4:
// CHECK: arith.constant dense<0.000000e+00> : vector<1x16xf32>
// CHECK: scf.for %arg5 = %c0 to %c64 step %c1 {
// CHECK: scf.for %arg6 = %c0 to %c256 step %c16 {
// CHECK: vector.load %arg0[%arg5, %arg6] : memref<64x256xf32>, vector<16xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<16xf32> to vector<1x16xf32>
// CHECK: vector.load %arg1[%arg6] : memref<256xf32>, vector<16xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<1x16xf32>
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : vector<1x16xf32>
// CHECK: vector.extract %{{\w+}}[0] : vector<16xf32> from vector<1x16xf32>
// CHECK: vector.store %{{\w+}}, %arg2[%arg5, %arg6] : memref<64x256xf32>, vector<16xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<64x256xf32>, %arg3: memref<256xf32>, %arg4: memref<64x256xf32>) {
// CHECK: call @k0(%arg2, %arg3, %arg4, %{{\w+}}, %{{\w+}}) : (memref<64x256xf32>, memref<256xf32>, memref<64x256xf32>, index, index) -> ()
