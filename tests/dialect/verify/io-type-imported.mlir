// RUN: verify-imported,infer-shapes,verify
// verify-imported leaves the rank of a main-graph output to inference
// (exporters leave output shapes out); after infer-shapes the output has
// its rank and verify accepts it. (verify alone rejects it: io-type.mlir.)
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<*xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<*xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
// CHECK-NEXT:   %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
