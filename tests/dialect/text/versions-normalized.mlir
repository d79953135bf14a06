// RUN: print
// A suffix naming the version the import resolves to anyway is dropped.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %0 = "onnx.Clip-13"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "onnx.Clip-11"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
// CHECK: %0 = "onnx.Clip"(%x)
// CHECK-NEXT: %1 = "onnx.Clip-11"(%x)
