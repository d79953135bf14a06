// RUN: print
// Fields left out take their defaults: ir_version is the dialect's, the
// rest empty; only ir_version and opset_imports are always printed.
onnx.model {opset_imports = {}}
onnx.graph "empty"() -> () {
  onnx.return
}
// CHECK: onnx.model {ir_version = 14, opset_imports = {}}
// CHECK-NEXT: onnx.graph "empty"() -> () {
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
