// RUN: decompose,dce,verify
// Scan-9+ of a symbolic length: a Loop over the first scan input's length
// (run-time control flow, for the host program). The body gathers step t
// of %xs and step T-1-t of %zs (reversed), viewed at %xs's length so that
// the model's entry checks that the lengths agree, and inlines the Scan's
// body; the stacked output is reversed (a Slice of step -1) and moved from
// the leading axis to its axis 1 (a Transpose).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%init: tensor<"N"xf32>, %xs: tensor<"T"x"N"xf32>, %zs: tensor<"N"x"U"xf32>) -> ("final": tensor<"N"xf32>, "stacked": tensor<"N"x?xf32>) {
  %final, %stacked = "onnx.Scan"(%init, %xs, %zs) {body = onnx.graph "step"(%s: tensor<"N"xf32>, %x: tensor<"N"xf32>, %z: tensor<"N"xf32>) -> ("s_out": tensor<"N"xf32>, "y": tensor<"N"xf32>) {
    %t = "onnx.Add"(%s, %x) : (tensor<"N"xf32>, tensor<"N"xf32>) -> tensor<"N"xf32>
    %s_out = "onnx.Mul"(%t, %z) : (tensor<"N"xf32>, tensor<"N"xf32>) -> tensor<"N"xf32>
    %y = "onnx.Neg"(%s_out) : (tensor<"N"xf32>) -> tensor<"N"xf32>
    onnx.return %s_out, %y
  }, num_scan_inputs = 2, scan_input_axes = [0, 1], scan_input_directions = [0, 1], scan_output_axes = [1], scan_output_directions = [1]} : (tensor<"N"xf32>, tensor<"T"x"N"xf32>, tensor<"N"x"U"xf32>) -> (tensor<"N"xf32>, tensor<"N"x?xf32>)
  onnx.return %final, %stacked
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "g"(%init: tensor<"N"xf32>, %xs: tensor<"T"x"N"xf32>, %zs: tensor<"N"x"U"xf32>) -> ("final": tensor<"N"xf32>, "stacked": tensor<"N"x"T"xf32>) {
// CHECK-NEXT:   %0 = "onnx.Shape"(%zs) {start = 0, end = 1} : (tensor<"N"x"U"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Shape"(%xs) {start = 0, end = 1} : (tensor<"T"x"N"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Concat"(%0, %1) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %3 = "onnx.Reshape"(%zs, %2) : (tensor<"N"x"U"xf32>, tensor<2xi64>) -> tensor<"N"x"T"xf32>
// CHECK-NEXT:   %4 = "onnx.Shape"(%xs) {start = 0, end = 1} : (tensor<"T"x"N"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %6 = "onnx.Reshape"(%4, %5) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %8 = "onnx.Sub"(%6, %7) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %final, %9 = "onnx.Loop"(%6, none, %init) {body = onnx.graph "loop_body"(%loop2_iteration: tensor<i64>, %loop2_cond: tensor<i1>, %loop2_carried0: tensor<"N"xf32>) -> ("loop2_out0": tensor<i1>, "loop2_out1": tensor<"N"xf32>, "loop2_out2": tensor<"N"xf32>) {
// CHECK-NEXT:     %10 = "onnx.Gather"(%xs, %loop2_iteration) {axis = 0} : (tensor<"T"x"N"xf32>, tensor<i64>) -> tensor<"N"xf32>
// CHECK-NEXT:     %11 = "onnx.Sub"(%8, %loop2_iteration) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:     %12 = "onnx.Gather"(%3, %11) {axis = 1} : (tensor<"N"x"T"xf32>, tensor<i64>) -> tensor<"N"xf32>
// CHECK-NEXT:     %13 = "onnx.Add"(%loop2_carried0, %10) : (tensor<"N"xf32>, tensor<"N"xf32>) -> tensor<"N"xf32>
// CHECK-NEXT:     %14 = "onnx.Mul"(%13, %12) : (tensor<"N"xf32>, tensor<"N"xf32>) -> tensor<"N"xf32>
// CHECK-NEXT:     %15 = "onnx.Neg"(%14) : (tensor<"N"xf32>) -> tensor<"N"xf32>
// CHECK-NEXT:     onnx.return %loop2_cond, %14, %15
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<"N"xf32>) -> (tensor<"N"xf32>, tensor<"T"x"N"xf32>)
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[-9223372036854775808]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %20 = "onnx.Slice"(%9, %16, %17, %18, %19) : (tensor<"T"x"N"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"T"x"N"xf32>
// CHECK-NEXT:   %stacked = "onnx.Transpose"(%20) {perm = [1, 0]} : (tensor<"T"x"N"xf32>) -> tensor<"N"x"T"xf32>
// CHECK-NEXT:   onnx.return %final, %stacked
// CHECK-NEXT: }
