// RUN: decompose,verify
// An RNN run backwards over a symbolic sequence length S and batch B: the
// input projection of all steps is one MatMul as when unrolled, then a
// Loop over S (run-time control flow, for the host program) whose body
// gathers step S-1-i of the projection and runs the cell; the stacked
// outputs are reversed into time order (a Slice of step -1). The zero
// initial state is a ConstantOfShape of [B, H].
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"S"x"B"x3xf32>, %w: tensor<1x2x3xf32>, %r: tensor<1x2x2xf32>) -> ("y": tensor<"S"x1x"B"x2xf32>, "y_h": tensor<1x"B"x2xf32>) {
  %y, %y_h = "onnx.RNN"(%x, %w, %r) {direction = "reverse", hidden_size = 2} : (tensor<"S"x"B"x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> (tensor<"S"x1x"B"x2xf32>, tensor<1x"B"x2xf32>)
  onnx.return %y, %y_h
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"S"x"B"x3xf32>, %w: tensor<1x2x3xf32>, %r: tensor<1x2x2xf32>) -> ("y": tensor<"S"x1x"B"x2xf32>, "y_h": tensor<1x"B"x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Shape"(%x) {start = 1, end = 2} : (tensor<"S"x"B"x3xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Concat"(%0, %1) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %3 = "onnx.ConstantOfShape"(%2) {value = dense<[0.0]> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<"B"x2xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Gather"(%w, %4) {axis = 0} : (tensor<1x2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
// CHECK-NEXT:   %6 = "onnx.Transpose"(%5) {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %7 = "onnx.MatMul"(%x, %6) : (tensor<"S"x"B"x3xf32>, tensor<3x2xf32>) -> tensor<"S"x"B"x2xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %9 = "onnx.Gather"(%r, %8) {axis = 0} : (tensor<1x2x2xf32>, tensor<i64>) -> tensor<2x2xf32>
// CHECK-NEXT:   %10 = "onnx.Transpose"(%9) {perm = [1, 0]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %11 = "onnx.Shape"(%x) {start = 0, end = 1} : (tensor<"S"x"B"x3xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %13 = "onnx.Reshape"(%11, %12) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %15 = "onnx.Sub"(%13, %14) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %16, %17 = "onnx.Loop"(%13, none, %3) {body = onnx.graph "loop_body"(%loop1_iteration: tensor<i64>, %loop1_cond: tensor<i1>, %loop1_carried0: tensor<"B"x2xf32>) -> ("loop1_out0": tensor<i1>, "loop1_out1": tensor<"B"x2xf32>, "loop1_out2": tensor<"B"x2xf32>) {
// CHECK-NEXT:     %18 = "onnx.Sub"(%15, %loop1_iteration) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:     %19 = "onnx.Gather"(%7, %18) {axis = 0} : (tensor<"S"x"B"x2xf32>, tensor<i64>) -> tensor<"B"x2xf32>
// CHECK-NEXT:     %20 = "onnx.MatMul"(%loop1_carried0, %10) : (tensor<"B"x2xf32>, tensor<2x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:     %21 = "onnx.Add"(%19, %20) : (tensor<"B"x2xf32>, tensor<"B"x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:     %22 = "onnx.Tanh"(%21) : (tensor<"B"x2xf32>) -> tensor<"B"x2xf32>
// CHECK-NEXT:     onnx.return %loop1_cond, %22, %22
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<"B"x2xf32>) -> (tensor<"B"x2xf32>, tensor<"S"x"B"x2xf32>)
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[-9223372036854775808]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %27 = "onnx.Slice"(%17, %23, %24, %25, %26) : (tensor<"S"x"B"x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"S"x"B"x2xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %y = "onnx.Unsqueeze"(%27, %28) : (tensor<"S"x"B"x2xf32>, tensor<1xi64>) -> tensor<"S"x1x"B"x2xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %y_h = "onnx.Unsqueeze"(%16, %29) : (tensor<"B"x2xf32>, tensor<1xi64>) -> tensor<1x"B"x2xf32>
// CHECK-NEXT:   onnx.return %y, %y_h
// CHECK-NEXT: }
