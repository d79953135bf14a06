// RUN: verify,roundtrip
// Every model-level field prints, in a fixed order, and survives a round trip.
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.ml" = 5, "com.custom" = 1}, producer_name = "pytorch", producer_version = "2.1", domain = "ai.test", model_version = 3, doc_string = "a \"quoted\" doc\0a", metadata_props = {"author" = "me", "k" = "v"}}
onnx.graph "main_graph"(%input: tensor<1x3xf32>) -> ("output": tensor<1x3xf32>) {
  %output = "onnx.Relu"(%input) : (tensor<1x3xf32>) -> tensor<1x3xf32>
  onnx.return %output
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.ml" = 5, "com.custom" = 1}, producer_name = "pytorch", producer_version = "2.1", domain = "ai.test", model_version = 3, doc_string = "a \"quoted\" doc\0a", metadata_props = {"author" = "me", "k" = "v"}}
// CHECK-NEXT: onnx.graph "main_graph"(%input: tensor<1x3xf32>) -> ("output": tensor<1x3xf32>) {
// CHECK-NEXT:   %output = "onnx.Relu"(%input) : (tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:   onnx.return %output
// CHECK-NEXT: }
