// RUN: infer-shapes,partition
// A model of dense tensors only is not partitioned: it compiles into one
// function, as before.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2x3xf32>) -> ("y": tensor<2x3xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  onnx.return %y
}

// CHECK: no host steps
