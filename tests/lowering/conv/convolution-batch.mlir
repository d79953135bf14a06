// RUN: linalg
// A convolution over a symbolic batch runs image by image: a loop over the
// images around the kernel's ops, each reading and writing a static view
// of one image (a reinterpret_cast at the image's offset), so that the
// convolution takes its static GEMM form (the im2col buffer, the product).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x16x14x14xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> ("y": tensor<"N"x32x14x14xf32>) {
  %c = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<"N"x16x14x14xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<"N"x32x14x14xf32>
  %y = "onnx.Relu"(%c) : (tensor<"N"x32x14x14xf32>) -> tensor<"N"x32x14x14xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<0xf32> {llvm.noalias}, %arg1: memref<32x16x3x3xf32> {llvm.noalias}, %arg2: memref<32xf32> {llvm.noalias}, %arg3: memref<0xf32>
// CHECK: scf.for %arg7 = %c0 to %arg4 step %c1 {
// CHECK: arith.muli %arg7, %{{\w+}} : index
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{\w+}}], sizes: [1, 16, 14, 14], strides: [3136, 196, 14, 1] : memref<0xf32> to memref<1x16x14x14xf32,
// CHECK: memref.reinterpret_cast %arg3 to offset: [%{{\w+}}], sizes: [1, 32, 14, 14], strides: [6272, 196, 14, 1] : memref<0xf32> to memref<1x32x14x14xf32,
// CHECK: tensor.collapse_shape %{{\w+}} [[0], [1, 2, 3]] : tensor<32x16x3x3xf32> into tensor<32x144xf32>
// CHECK: tensor.empty() : tensor<144x14x14xf32>
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{\w+}} : tensor<144x14x14xf32>) attrs =  {omlc.col} {
// CHECK: tensor.extract %{{\w+}}[%{{\w+}}, %{{\w+}}, %{{\w+}}, %{{\w+}}] : tensor<1x16x14x14xf32>
// CHECK: linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{\w+}}, %{{\w+}} :
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : f32
// CHECK: memref.reinterpret_cast %arg3 to offset: [%{{\w+}}], sizes: [1, 32, 14, 14], strides: [6272, 196, 14, 1] : memref<0xf32> to memref<1x32x14x14xf32,
// CHECK: bufferization.materialize_in_destination
// CHECK-LABEL: func.func @omlc_model(
