// RUN: decompose,dce,verify
// If: a known condition inlines its branch (outer values used as they
// are); a run-time condition computes both branches and picks with Where
// (results of the same static type); branches that gather by computed
// indices or divide integers stay an If (the branch not taken could index
// out of range, or divide by the zero the condition guards against).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<3xf32>, %i: tensor<i64>) -> ("known": tensor<3xf32>, "picked": tensor<3xf32>, "gathered": tensor<f32>, "quotient": tensor<i64>) {
  %true = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %known = "onnx.If"(%true) {then_branch = onnx.graph "then"() -> ("t": tensor<3xf32>) {
    %t = "onnx.Relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("e": tensor<3xf32>) {
    %e = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.return %e
  }} : (tensor<i1>) -> tensor<3xf32>
  %picked = "onnx.If"(%c) {then_branch = onnx.graph "then2"() -> ("t2": tensor<3xf32>) {
    %t2 = "onnx.Relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.return %t2
  }, else_branch = onnx.graph "else2"() -> ("e2": tensor<3xf32>) {
    onnx.return %x
  }} : (tensor<i1>) -> tensor<3xf32>
  %gathered = "onnx.If"(%c) {then_branch = onnx.graph "then3"() -> ("t3": tensor<f32>) {
    %t3 = "onnx.Gather"(%x, %i) : (tensor<3xf32>, tensor<i64>) -> tensor<f32>
    onnx.return %t3
  }, else_branch = onnx.graph "else3"() -> ("e3": tensor<f32>) {
    %e3 = "onnx.ReduceSum"(%x) {keepdims = 0} : (tensor<3xf32>) -> tensor<f32>
    onnx.return %e3
  }} : (tensor<i1>) -> tensor<f32>
  %quotient = "onnx.If"(%c) {then_branch = onnx.graph "then4"() -> ("t4": tensor<i64>) {
    %t4 = "onnx.Div"(%i, %i) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    onnx.return %t4
  }, else_branch = onnx.graph "else4"() -> ("e4": tensor<i64>) {
    onnx.return %i
  }} : (tensor<i1>) -> tensor<i64>
  onnx.return %known, %picked, %gathered, %quotient
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%c: tensor<i1>, %x: tensor<3xf32>, %i: tensor<i64>) -> ("known": tensor<3xf32>, "picked": tensor<3xf32>, "gathered": tensor<f32>, "quotient": tensor<i64>) {
// CHECK-NEXT:   %known = "onnx.Relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %0 = "onnx.Relu"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %picked = "onnx.Where"(%c, %0, %x) : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %gathered = "onnx.If"(%c) {then_branch = onnx.graph "then3"() -> ("t3": tensor<f32>) {
// CHECK-NEXT:     %t3 = "onnx.Gather"(%x, %i) : (tensor<3xf32>, tensor<i64>) -> tensor<f32>
// CHECK-NEXT:     onnx.return %t3
// CHECK-NEXT:   }, else_branch = onnx.graph "else3"() -> ("e3": tensor<f32>) {
// CHECK-NEXT:     %e3 = "onnx.ReduceSum"(%x) {keepdims = 0} : (tensor<3xf32>) -> tensor<f32>
// CHECK-NEXT:     onnx.return %e3
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<f32>
// CHECK-NEXT:   %quotient = "onnx.If"(%c) {then_branch = onnx.graph "then4"() -> ("t4": tensor<i64>) {
// CHECK-NEXT:     %t4 = "onnx.Div"(%i, %i) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:     onnx.return %t4
// CHECK-NEXT:   }, else_branch = onnx.graph "else4"() -> ("e4": tensor<i64>) {
// CHECK-NEXT:     onnx.return %i
// CHECK-NEXT:   }} : (tensor<i1>) -> tensor<i64>
// CHECK-NEXT:   onnx.return %known, %picked, %gathered, %quotient
// CHECK-NEXT: }
