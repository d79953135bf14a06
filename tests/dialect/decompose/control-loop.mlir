// RUN: decompose,dce,verify
// Loop with a constant trip count: the body once per iteration, with a
// constant iteration number and condition; the scan output is stacked on
// a new leading axis. A body whose condition becomes false stops the
// unrolling there (two iterations of five). A trip count known at run
// time only stays a Loop.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>, %n: tensor<i64>) -> ("acc": tensor<2xf32>, "rows": tensor<3x2xf32>, "early": tensor<i64>, "dyn": tensor<2xf32>) {
  %three = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %five = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %true = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %acc, %rows = "onnx.Loop"(%three, %true, %x) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) -> ("c_out": tensor<i1>, "a_out": tensor<2xf32>, "row": tensor<2xf32>) {
    %c_out = "onnx.Identity"(%c) : (tensor<i1>) -> tensor<i1>
    %if = "onnx.Cast"(%i) {to = 1} : (tensor<i64>) -> tensor<f32>
    %a_out = "onnx.Add"(%a, %if) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %row = "onnx.Identity"(%a_out) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %c_out, %a_out, %row
  }} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  %early = "onnx.Loop"(%five, none, %one) {body = onnx.graph "body2"(%j: tensor<i64>, %c2: tensor<i1>, %k: tensor<i64>) -> ("c2_out": tensor<i1>, "k_out": tensor<i64>) {
    %k_out = "onnx.Add"(%k, %k) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %c2_out = "onnx.Less"(%k_out, %three) : (tensor<i64>, tensor<i64>) -> tensor<i1>
    onnx.return %c2_out, %k_out
  }} : (tensor<i64>, none, tensor<i64>) -> tensor<i64>
  %dyn = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body3"(%i3: tensor<i64>, %c3: tensor<i1>, %a3: tensor<2xf32>) -> ("c3_out": tensor<i1>, "a3_out": tensor<2xf32>) {
    %a3_out = "onnx.Neg"(%a3) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %c3, %a3_out
  }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %acc, %rows, %early, %dyn
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<2xf32>, %n: tensor<i64>) -> ("acc": tensor<2xf32>, "rows": tensor<3x2xf32>, "early": tensor<i64>, "dyn": tensor<2xf32>) {
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %1 = "onnx.Cast"(%0) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %2 = "onnx.Add"(%x, %1) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:   %3 = "onnx.Identity"(%2) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Cast"(%4) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %6 = "onnx.Add"(%2, %5) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:   %7 = "onnx.Identity"(%6) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %9 = "onnx.Cast"(%8) {to = 1} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT:   %acc = "onnx.Add"(%6, %9) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:   %10 = "onnx.Identity"(%acc) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%3, %11) : (tensor<2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %13 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %14 = "onnx.Unsqueeze"(%7, %13) : (tensor<2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %16 = "onnx.Unsqueeze"(%10, %15) : (tensor<2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %rows = "onnx.Concat"(%12, %14, %16) {axis = 0} : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %17 = "onnx.Add"(%one, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %early = "onnx.Add"(%17, %17) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %dyn = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body3"(%i3: tensor<i64>, %c3: tensor<i1>, %a3: tensor<2xf32>) -> ("c3_out": tensor<i1>, "a3_out": tensor<2xf32>) {
// CHECK-NEXT:     %a3_out = "onnx.Neg"(%a3) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %c3, %a3_out
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %acc, %rows, %early, %dyn
// CHECK-NEXT: }
