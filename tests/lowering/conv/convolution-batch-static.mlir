// RUN: linalg
// A convolution over a static batch above 1 runs image by image too: a
// loop over the two images, each a static view at its offset, so that the
// product takes the GEMM form of one image (not the window nest of a
// batch).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x16x14x14xf32>, %w: tensor<32x16x3x3xf32>) -> ("y": tensor<2x32x14x14xf32>) {
  %y = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<2x16x14x14xf32>, tensor<32x16x3x3xf32>) -> tensor<2x32x14x14xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<2x16x14x14xf32> {llvm.noalias}, %arg1: memref<32x16x3x3xf32> {llvm.noalias}, %arg2: memref<2x32x14x14xf32> {llvm.noalias}, %arg3:
// CHECK: scf.for %arg5 = %c0 to %c2 step %c1 {
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{\w+}}], sizes: [1, 16, 14, 14], strides: [3136, 196, 14, 1] : memref<2x16x14x14xf32> to memref<1x16x14x14xf32,
// CHECK: memref.reinterpret_cast %arg2 to offset: [%{{\w+}}], sizes: [1, 32, 14, 14], strides: [6272, 196, 14, 1] : memref<2x32x14x14xf32> to memref<1x32x14x14xf32,
// CHECK: tensor.empty() : tensor<144x14x14xf32>
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<144x14x14xf32>) attrs =  {omlc.col} {
// CHECK: memref.reinterpret_cast %arg2 to offset: [%{{\w+}}], sizes: [1, 32, 14, 14], strides: [6272, 196, 14, 1] : memref<2x32x14x14xf32> to memref<1x32x14x14xf32,
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<2x16x14x14xf32>, %arg3: memref<32x16x3x3xf32>, %arg4: memref<2x32x14x14xf32>) {
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<2x16x14x14xf32>, memref<32x16x3x3xf32>, memref<2x32x14x14xf32>)
