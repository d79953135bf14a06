// RUN: decompose,verify
// LinearAttention over a symbolic sequence length: a Loop over the steps
// (run-time control flow, for the host program). Each input is viewed per
// head by a Reshape to [B, T, H, -1]; the body gathers step t, views the
// query as [B, H_kv, H_q/H_kv, d_k] and the key and value as rows, makes
// the update and reads the state; the Loop stacks the reads [T, B, H·d_v],
// transposed to [B, T, H·d_v] and scaled by 1/√d_k.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%q: tensor<1x"T"x2xf32>, %k: tensor<1x"T"x2xf32>, %v: tensor<1x"T"x2xf32>) -> ("y": tensor<1x"T"x2xf32>, "state": tensor<1x1x2x2xf32>) {
  %y, %state = "onnx.LinearAttention"(%q, %k, %v) {kv_num_heads = 1, q_num_heads = 1, update_rule = "linear"} : (tensor<1x"T"x2xf32>, tensor<1x"T"x2xf32>, tensor<1x"T"x2xf32>) -> (tensor<1x"T"x2xf32>, tensor<1x1x2x2xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x"T"x2xf32>, %k: tensor<1x"T"x2xf32>, %v: tensor<1x"T"x2xf32>) -> ("y": tensor<1x"T"x2xf32>, "state": tensor<1x1x2x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<1x"T"x2xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %3 = "onnx.Concat"(%0, %1, %2) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Reshape"(%q, %3) : (tensor<1x"T"x2xf32>, tensor<4xi64>) -> tensor<1x"T"x1x2xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %6 = "onnx.Shape"(%k) {start = 1, end = 2} : (tensor<1x"T"x2xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %8 = "onnx.Concat"(%5, %6, %7) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %9 = "onnx.Reshape"(%k, %8) : (tensor<1x"T"x2xf32>, tensor<4xi64>) -> tensor<1x"T"x1x2xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Shape"(%v) {start = 1, end = 2} : (tensor<1x"T"x2xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %13 = "onnx.Concat"(%10, %11, %12) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %14 = "onnx.Reshape"(%v, %13) : (tensor<1x"T"x2xf32>, tensor<4xi64>) -> tensor<1x"T"x1x2xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<0.0> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %16 = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<1x"T"x2xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %18 = "onnx.Reshape"(%16, %17) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %state, %19 = "onnx.Loop"(%18, none, %15) {body = onnx.graph "loop_body"(%loop1_iteration: tensor<i64>, %loop1_cond: tensor<i1>, %loop1_carried0: tensor<1x1x2x2xf32>) -> ("loop1_out0": tensor<i1>, "loop1_out1": tensor<1x1x2x2xf32>, "loop1_out2": tensor<1x2xf32>) {
// CHECK-NEXT:     %20 = "onnx.Gather"(%4, %loop1_iteration) {axis = 1} : (tensor<1x"T"x1x2xf32>, tensor<i64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:     %21 = "onnx.Constant"() {value = dense<[1, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:     %22 = "onnx.Reshape"(%20, %21) : (tensor<1x1x2xf32>, tensor<4xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:     %23 = "onnx.Gather"(%9, %loop1_iteration) {axis = 1} : (tensor<1x"T"x1x2xf32>, tensor<i64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:     %24 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %25 = "onnx.Unsqueeze"(%23, %24) : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:     %26 = "onnx.Gather"(%14, %loop1_iteration) {axis = 1} : (tensor<1x"T"x1x2xf32>, tensor<i64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:     %27 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %28 = "onnx.Unsqueeze"(%26, %27) : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:     %29 = "onnx.Transpose"(%25) {perm = [0, 1, 3, 2]} : (tensor<1x1x1x2xf32>) -> tensor<1x1x2x1xf32>
// CHECK-NEXT:     %30 = "onnx.Mul"(%29, %28) : (tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:     %31 = "onnx.Add"(%loop1_carried0, %30) : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:     %32 = "onnx.MatMul"(%22, %31) : (tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:     %33 = "onnx.Constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:     %34 = "onnx.Reshape"(%32, %33) : (tensor<1x1x1x2xf32>, tensor<2xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:     onnx.return %loop1_cond, %31, %34
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<"T"x1x2xf32>)
// CHECK-NEXT:   %35 = "onnx.Transpose"(%19) {perm = [1, 0, 2]} : (tensor<"T"x1x2xf32>) -> tensor<1x"T"x2xf32>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %y = "onnx.Mul"(%35, %36) : (tensor<1x"T"x2xf32>, tensor<f32>) -> tensor<1x"T"x2xf32>
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
