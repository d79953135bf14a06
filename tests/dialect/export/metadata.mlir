// RUN: export,verify
// Model fields, and doc strings and metadata of the model, the graph,
// inputs, initializers, nodes and node outputs go back where the importer
// found them.
onnx.model {ir_version = 10, opset_imports = {"" = 21}, producer_name = "p", producer_version = "1.0", domain = "ai.example", model_version = 7, doc_string = "the model", metadata_props = {"author" = "me"}}
onnx.graph "g"(%x: tensor<2xf32> {doc_string = "the input", metadata_props = {"unit" = "m"}}, %w: tensor<2xf32> = dense<[1.0, 2.0]> : tensor<2xf32> {doc_string = "a weight"}) -> ("y": tensor<2xf32>, "z": tensor<2xf32>) attributes {doc_string = "the graph", metadata_props = {"a" = "b", "c" = "d"}} {
  %b = "onnx.Constant"() {value = dense<[3.0, 4.0]> : tensor<2xf32>, onnx.result_meta = [{doc_string = "an initializer", metadata_props = {"k" = "v"}}]} : () -> tensor<2xf32>
  %y, %mask = "onnx.Dropout"(%x) {onnx.doc_string = "drops\0aout", onnx.metadata_props = {"p" = "q"}, onnx.result_meta = [{doc_string = "kept"}, {metadata_props = {"r" = "s"}}]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) loc("dropout")
  %z = "onnx.Add"(%y, %b) {onnx.result_meta = [{doc_string = "an output"}]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y, %z
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}, producer_name = "p", producer_version = "1.0", domain = "ai.example", model_version = 7, doc_string = "the model", metadata_props = {"author" = "me"}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2xf32> {doc_string = "the input", metadata_props = {"unit" = "m"}}, %w: tensor<2xf32> = dense<[1.0, 2.0]> : tensor<2xf32> {doc_string = "a weight"}) -> ("y": tensor<2xf32>, "z": tensor<2xf32>) attributes {doc_string = "the graph", metadata_props = {"a" = "b", "c" = "d"}} {
// CHECK-NEXT:   %b = "onnx.Constant"() {value = dense<[3.0, 4.0]> : tensor<2xf32>, onnx.result_meta = [{doc_string = "an initializer", metadata_props = {"k" = "v"}}]} : () -> tensor<2xf32>
// CHECK-NEXT:   %y, %mask = "onnx.Dropout"(%x) {onnx.doc_string = "drops\0aout", onnx.metadata_props = {"p" = "q"}, onnx.result_meta = [{doc_string = "kept"}, {metadata_props = {"r" = "s"}}]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) loc("dropout")
// CHECK-NEXT:   %z = "onnx.Add"(%y, %b) {onnx.result_meta = [{doc_string = "an output"}]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %y, %z
// CHECK-NEXT: }
