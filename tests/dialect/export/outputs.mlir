// RUN: export,verify
// A graph output is its value when the value is defined in the graph under
// the output's name. An unnamed value takes the name of its first output.
// Otherwise (the value has another name, is an input, is already another
// output, or, in a subgraph, is defined outside it) an Identity computes
// the output.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>, %c: tensor<i1>) -> ("y": tensor<2xf32>, "t": tensor<2xf32>, "again": tensor<2xf32>, "x": tensor<2xf32>, "input": tensor<2xf32>, "branch": tensor<2xf32>) {
  %t = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "onnx.Abs"(%t) : (tensor<2xf32>) -> tensor<2xf32>
  %b = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
    onnx.return %x
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    %o = "onnx.Abs"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %o
  }} : (tensor<i1>) -> tensor<2xf32>
  onnx.return %0, %t, %t, %x, %x, %b
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2xf32>, %c: tensor<i1>) -> ("y": tensor<2xf32>, "t": tensor<2xf32>, "again": tensor<2xf32>, "x": tensor<2xf32>, "input": tensor<2xf32>, "branch": tensor<2xf32>) {
// CHECK-NEXT:   %t = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %y = "onnx.Abs"(%t) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %b = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": tensor<2xf32>) {
// CHECK-NEXT:     %o = "onnx.Identity"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %o
// CHECK-NEXT:   }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
// CHECK-NEXT:     %o = "onnx.Abs"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %o
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<2xf32>
// CHECK-NEXT:   %again = "onnx.Identity"(%t) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %input = "onnx.Identity"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %branch = "onnx.Identity"(%b) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %y, %t, %again, %x, %input, %branch
// CHECK-NEXT: }
