// RUN: export
// ERROR: export: graph "g": input "x" has no type, which ONNX requires of the main graph's inputs
// The main graph's inputs need a type in ONNX.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: !onnx.unknown) -> ("y": !onnx.unknown) {
  %y = "onnx.Identity"(%x) : (!onnx.unknown) -> !onnx.unknown
  onnx.return %y
}
