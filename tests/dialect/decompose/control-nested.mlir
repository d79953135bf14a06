// RUN: decompose,dce,verify
// Subgraphs are expanded innermost first: the If in the Scan body becomes
// its branch, then the Scan is unrolled. A body holding control flow that
// cannot be expanded (a Loop of run-time trip count) keeps its Scan.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%init: tensor<2xf32>, %xs: tensor<2x2xf32>, %n: tensor<i64>) -> ("final": tensor<2xf32>, "kept": tensor<2xf32>) {
  %false = "onnx.Constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %final = "onnx.Scan"(%init, %xs) {body = onnx.graph "step"(%s: tensor<2xf32>, %x: tensor<2xf32>) -> ("s_out": tensor<2xf32>) {
    %s_out = "onnx.If"(%false) {then_branch = onnx.graph "then"() -> ("t": tensor<2xf32>) {
      %t = "onnx.Sub"(%s, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.return %t
    }, else_branch = onnx.graph "else"() -> ("e": tensor<2xf32>) {
      %e = "onnx.Add"(%s, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.return %e
    }} : (tensor<i1>) -> tensor<2xf32>
    onnx.return %s_out
  }, num_scan_inputs = 1} : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  %kept = "onnx.Scan"(%init, %xs) {body = onnx.graph "step2"(%s2: tensor<2xf32>, %x2: tensor<2xf32>) -> ("s2_out": tensor<2xf32>) {
    %s2_out = "onnx.Loop"(%n, none, %s2) {body = onnx.graph "inner"(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) -> ("c_out": tensor<i1>, "a_out": tensor<2xf32>) {
      %a_out = "onnx.Add"(%a, %x2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.return %c, %a_out
    }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
    onnx.return %s2_out
  }, num_scan_inputs = 1} : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  onnx.return %final, %kept
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%init: tensor<2xf32>, %xs: tensor<2x2xf32>, %n: tensor<i64>) -> ("final": tensor<2xf32>, "kept": tensor<2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %1 = "onnx.Gather"(%xs, %0) {axis = 0} : (tensor<2x2xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NEXT:   %2 = "onnx.Add"(%init, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %4 = "onnx.Gather"(%xs, %3) {axis = 0} : (tensor<2x2xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NEXT:   %final = "onnx.Add"(%2, %4) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %kept = "onnx.Scan"(%init, %xs) {body = onnx.graph "step2"(%s2: tensor<2xf32>, %x2: tensor<2xf32>) -> ("s2_out": tensor<2xf32>) {
// CHECK-NEXT:     %s2_out = "onnx.Loop"(%n, none, %s2) {body = onnx.graph "inner"(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) -> ("c_out": tensor<i1>, "a_out": tensor<2xf32>) {
// CHECK-NEXT:       %a_out = "onnx.Add"(%a, %x2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:       onnx.return %c, %a_out
// CHECK-NEXT:     }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     onnx.return %s2_out
// CHECK-NEXT:   }, num_scan_inputs = 1} : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %final, %kept
// CHECK-NEXT: }
