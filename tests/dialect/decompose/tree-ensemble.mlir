// RUN: decompose,verify
// TreeEnsemble with one tree (a LEQ root, a MEMBER child): every node's
// condition for every row, membership against a NaN-padded table, then
// the reached leaves (+1/-1 path matrix) and their weights summed per
// target.
onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 5}}
onnx.graph "g"(%x: tensor<4x2xf32>) -> ("y": tensor<4x2xf32>) {
  %y = "onnx_ml.TreeEnsemble"(%x) {aggregate_function = 1, leaf_targetids = [0, 1, 1], leaf_weights = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>, membership_values = dense<[1.0, 4.0]> : tensor<2xf32>, n_targets = 2, nodes_falseleafs = [0, 1], nodes_falsenodeids = [1, 2], nodes_featureids = [0, 1], nodes_modes = dense<[0, 6]> : tensor<2xui8>, nodes_splits = dense<[0.5, 0.0]> : tensor<2xf32>, nodes_trueleafs = [1, 1], nodes_truenodeids = [0, 1], tree_roots = [0]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 5, "" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<4x2xf32>) -> ("y": tensor<4x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %1 = "onnx.Gather"(%x, %0) {axis = 1} : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[0.5, nan]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %3 = "onnx.LessOrEqual"(%1, %2) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xi1>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[[nan, nan], [1.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %6 = "onnx.Unsqueeze"(%1, %5) : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x2x1xf32>
// CHECK-NEXT:   %7 = "onnx.Equal"(%6, %4) : (tensor<4x2x1xf32>, tensor<2x2xf32>) -> tensor<4x2x2xi1>
// CHECK-NEXT:   %8 = "onnx.Cast"(%7) {to = 1} : (tensor<4x2x2xi1>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.ReduceMax"(%8, %9) {keepdims = 0} : (tensor<4x2x2xf32>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %11 = "onnx.Cast"(%10) {to = 9} : (tensor<4x2xf32>) -> tensor<4x2xi1>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[false, true]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT:   %13 = "onnx.And"(%12, %11) : (tensor<2xi1>, tensor<4x2xi1>) -> tensor<4x2xi1>
// CHECK-NEXT:   %14 = "onnx.Not"(%12) : (tensor<2xi1>) -> tensor<2xi1>
// CHECK-NEXT:   %15 = "onnx.And"(%14, %3) : (tensor<2xi1>, tensor<4x2xi1>) -> tensor<4x2xi1>
// CHECK-NEXT:   %16 = "onnx.Or"(%13, %15) : (tensor<4x2xi1>, tensor<4x2xi1>) -> tensor<4x2xi1>
// CHECK-NEXT:   %17 = "onnx.Cast"(%16) {to = 1} : (tensor<4x2xi1>) -> tensor<4x2xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[[-1.0, -1.0, 1.0], [-1.0, 1.0, 0.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<[2.0, 1.0, 0.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[2.0, 2.0, 1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %21 = "onnx.MatMul"(%17, %18) : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %22 = "onnx.Add"(%21, %19) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %23 = "onnx.Equal"(%22, %20) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT:   %24 = "onnx.Cast"(%23) {to = 1} : (tensor<4x3xi1>) -> tensor<4x3xf32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[[0.0, 3.0], [0.0, 2.0], [1.0, 0.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%24, %25) : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
