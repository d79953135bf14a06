// RUN: verify,roundtrip
// doc_string and metadata_props of the graph (`attributes {…}`), of inputs
// (after the type), of ops (discardable `onnx.*` attributes) and of op
// results (`onnx.result_meta`, one dictionary per result).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32> {doc_string = "the input", metadata_props = {"unit" = "m"}}, %w: tensor<2xf32> = dense<[1.0, 2.0]> : tensor<2xf32> {doc_string = "a weight"}) -> ("y": tensor<2xf32>) attributes {doc_string = "the graph", metadata_props = {"a" = "b", "c" = "d"}} {
  %y, %mask = "onnx.Dropout"(%x) {onnx.doc_string = "drops\0aout", onnx.metadata_props = {"p" = "q"}, onnx.result_meta = [{doc_string = "kept"}, {metadata_props = {"r" = "s"}}]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) loc("dropout")
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2xf32> {doc_string = "the input", metadata_props = {"unit" = "m"}}, %w: tensor<2xf32> = dense<[1.0, 2.0]> : tensor<2xf32> {doc_string = "a weight"}) -> ("y": tensor<2xf32>) attributes {doc_string = "the graph", metadata_props = {"a" = "b", "c" = "d"}} {
// CHECK-NEXT:   %y, %mask = "onnx.Dropout"(%x) {onnx.doc_string = "drops\0aout", onnx.metadata_props = {"p" = "q"}, onnx.result_meta = [{doc_string = "kept"}, {metadata_props = {"r" = "s"}}]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) loc("dropout")
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
