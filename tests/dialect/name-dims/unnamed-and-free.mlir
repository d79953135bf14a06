// RUN: name-dims,infer-shapes
// A graph input's unnamed dims (`?`) become fresh symbols "?<input>.<axis>"
// (skl2onnx leaves the batch unnamed); a second unnamed dim of the same
// input gets its own symbol. Names the exporter gave computed sizes on
// outputs and value_info ("4*batch", "logits_dim_1") define nothing: they
// are forgotten, and inference derives the sizes from the inputs.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<?x10xf32>, %w: tensor<10x"M"xf32>, %z: tensor<?x?xf32>) -> ("y": tensor<"4*batch"x"logits_dim_1"xf32>, "t": tensor<?x?xf32>) {
  %y = "onnx.MatMul"(%x, %w) : (tensor<?x10xf32>, tensor<10x"M"xf32>) -> tensor<"4*batch"x"logits_dim_1"xf32>
  %t = "onnx.Transpose"(%z) {perm = [1, 0]} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  onnx.return %y, %t
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"?x.0"x10xf32>, %w: tensor<10x"M"xf32>, %z: tensor<"?z.0"x"?z.1"xf32>) -> ("y": tensor<"?x.0"x"M"xf32>, "t": tensor<"?z.1"x"?z.0"xf32>) {
// CHECK-NEXT:   %y = "onnx.MatMul"(%x, %w) : (tensor<"?x.0"x10xf32>, tensor<10x"M"xf32>) -> tensor<"?x.0"x"M"xf32>
// CHECK-NEXT:   %t = "onnx.Transpose"(%z) {perm = [1, 0]} : (tensor<"?z.0"x"?z.1"xf32>) -> tensor<"?z.1"x"?z.0"xf32>
// CHECK-NEXT:   onnx.return %y, %t
// CHECK-NEXT: }
