// RUN: name-dims
// A fresh name the model already uses (here as a dim_param of another
// input) takes a numeric suffix: two different sizes never share a name.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<?xf32>, %y: tensor<"?x.0"xf32>) -> ("s": tensor<?xf32>) {
  %s = "onnx.Add"(%x, %y) : (tensor<?xf32>, tensor<"?x.0"xf32>) -> tensor<?xf32>
  onnx.return %s
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"?x.0.1"xf32>, %y: tensor<"?x.0"xf32>) -> ("s": tensor<?xf32>) {
// CHECK-NEXT:   %s = "onnx.Add"(%x, %y) : (tensor<"?x.0.1"xf32>, tensor<"?x.0"xf32>) -> tensor<?xf32>
// CHECK-NEXT:   onnx.return %s
// CHECK-NEXT: }
