// RUN: print
// ERROR: 5:25: unknown attribute 'onnx.docstring' (dotted names are reserved for onnx.doc_string, onnx.metadata_props and onnx.result_meta; quote an ONNX attribute name that has dots)
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2xf32>) -> () {
  %y = "onnx.Relu"(%x) {onnx.docstring = "x"} : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return
}
