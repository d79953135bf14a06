// RUN: verify,roundtrip
// Subgraphs are nested onnx.graph attributes. They may use any value of the
// graphs that enclose them (here %x and %scale, two levels up).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "control"(%cond: tensor<i1>, %x: tensor<3xf32>, %n: tensor<i64>, %scale: tensor<f32>) -> ("r": tensor<3xf32>, "l": tensor<3xf32>, "s": tensor<3xf32>, "ys": tensor<3xf32>) {
  %r = "onnx.If"(%cond) {then_branch = onnx.graph "then"() -> ("o": tensor<3xf32>) {
    %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("o": tensor<3xf32>) {
    onnx.return %x
  }} : (tensor<i1>) -> tensor<3xf32>
  %l = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<3xf32>) -> ("c": tensor<i1>, "acc": tensor<3xf32>) {
    %sum = "onnx.Add"(%acc, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %t = "onnx.If"(%c) {then_branch = onnx.graph "scaled"() -> ("o": tensor<3xf32>) {
      %u = "onnx.Mul"(%sum, %scale) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
      onnx.return %u
    }, else_branch = onnx.graph "kept"() -> ("o": tensor<3xf32>) {
      onnx.return %acc
    }} : (tensor<i1>) -> tensor<3xf32>
    onnx.return %c, %t
  }} : (tensor<i64>, none, tensor<3xf32>) -> tensor<3xf32>
  %s, %ys = "onnx.Scan"(%x, %x) {body = onnx.graph "scan"(%state: tensor<3xf32>, %elem: tensor<f32>) -> ("state": tensor<3xf32>, "elem": tensor<f32>) {
    %0 = "onnx.Add"(%state, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    onnx.return %0, %elem
  }, num_scan_inputs = 1} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  onnx.return %r, %l, %s, %ys
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "control"(%cond: tensor<i1>, %x: tensor<3xf32>, %n: tensor<i64>, %scale: tensor<f32>) -> ("r": tensor<3xf32>, "l": tensor<3xf32>, "s": tensor<3xf32>, "ys": tensor<3xf32>) {
// CHECK-NEXT:   %r = "onnx.If"(%cond) {then_branch = onnx.graph "then"() -> ("o": tensor<3xf32>) {
// CHECK-NEXT:     %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:     onnx.return %t
// CHECK-NEXT:   }, else_branch = onnx.graph "else"() -> ("o": tensor<3xf32>) {
// CHECK-NEXT:     onnx.return %x
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<3xf32>
// CHECK-NEXT:   %l = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<3xf32>) -> ("c": tensor<i1>, "acc": tensor<3xf32>) {
// CHECK-NEXT:     %sum = "onnx.Add"(%acc, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:     %t = "onnx.If"(%c) {then_branch = onnx.graph "scaled"() -> ("o": tensor<3xf32>) {
// CHECK-NEXT:       %u = "onnx.Mul"(%sum, %scale) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:       onnx.return %u
// CHECK-NEXT:     }, else_branch = onnx.graph "kept"() -> ("o": tensor<3xf32>) {
// CHECK-NEXT:       onnx.return %acc
// CHECK-NEXT:     }} : (tensor<i1>) -> tensor<3xf32>
// CHECK-NEXT:     onnx.return %c, %t
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %s, %ys = "onnx.Scan"(%x, %x) {body = onnx.graph "scan"(%state: tensor<3xf32>, %elem: tensor<f32>) -> ("state": tensor<3xf32>, "elem": tensor<f32>) {
// CHECK-NEXT:     %0 = "onnx.Add"(%state, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:     onnx.return %0, %elem
// CHECK-NEXT:   }, num_scan_inputs = 1} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:   onnx.return %r, %l, %s, %ys
// CHECK-NEXT: }
