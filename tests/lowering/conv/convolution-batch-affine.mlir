// RUN: affine
// The schedule of a convolution over a symbolic batch: inside the loop over
// the images, the chunk loop of the static schedule, bounded by the
// kernel's begin/end arguments (each thread takes its chunks of every
// image), and the product in vector register tiles.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x16x14x14xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> ("y": tensor<"N"x32x14x14xf32>) {
  %c = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<"N"x16x14x14xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<"N"x32x14x14xf32>
  %y = "onnx.Relu"(%c) : (tensor<"N"x32x14x14xf32>) -> tensor<"N"x32x14x14xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<32x16x3x3xf32> {llvm.noalias}, %arg2: memref<32xf32> {llvm.noalias}, %arg3: memref<0xf32>
// CHECK: scf.for %arg7 = %c0 to %arg4 step %c1 {
// CHECK: scf.for %arg8 = %arg5 to %arg6 step %c1 {
// CHECK: vector.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<14xf32>
// CHECK: } {omlc.chunks}
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: index, %arg3: memref<0xf32>, %arg4: memref<32x16x3x3xf32>, %arg5: memref<32xf32>, %arg6:
// CHECK: call @k0_parallel(%arg0, %arg3, %arg4, %arg5, %arg6, %arg2) : (!llvm.ptr, memref<0xf32>, memref<32x16x3x3xf32>, memref<32xf32>, memref<0xf32>, index) -> ()
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<0xf32>, memref<32x16x3x3xf32>, memref<32xf32>, memref<0xf32>, index)
