// RUN: decompose,verify
// The legacy tree ensembles, one tree each (a LEQ root over feature 0, the
// second node a LEAF by its node id): the regressor sums the reached
// leaf's votes per target and adds the base value; the classifier's
// three classes get every leaf's votes, the label is the string of the
// first highest score (a Gather of the labels), the scores go through
// SOFTMAX.
onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1}}
onnx.graph "g"(%x: tensor<4x2xf32>) -> ("r": tensor<4x1xf32>, "l": tensor<4xstring>, "p": tensor<4x3xf32>) {
  %r = "onnx_ml.TreeEnsembleRegressor"(%x) {base_values = [0.5], n_targets = 1, nodes_falsenodeids = [2, 0, 0], nodes_featureids = [0, 0, 0], nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = [0, 1, 2], nodes_treeids = [0, 0, 0], nodes_truenodeids = [1, 0, 0], nodes_values = [0.25, 0.0, 0.0], target_ids = [0, 0], target_nodeids = [1, 2], target_treeids = [0, 0], target_weights = [1.5, -2.0]} : (tensor<4x2xf32>) -> tensor<4x1xf32>
  %l, %p = "onnx_ml.TreeEnsembleClassifier"(%x) {class_ids = [0, 1, 2, 0, 1, 2], class_nodeids = [1, 1, 1, 2, 2, 2], class_treeids = [0, 0, 0, 0, 0, 0], class_weights = [0.5, 0.25, 0.25, 0.0, 0.75, 0.25], classlabels_strings = ["a", "b", "c"], nodes_falsenodeids = [2, 0, 0], nodes_featureids = [1, 0, 0], nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = [0, 1, 2], nodes_treeids = [0, 0, 0], nodes_truenodeids = [1, 0, 0], nodes_values = [0.0, 0.0, 0.0], post_transform = "SOFTMAX"} : (tensor<4x2xf32>) -> (tensor<4xstring>, tensor<4x3xf32>)
  onnx.return %r, %l, %p
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1, "" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<4x2xf32>) -> ("r": tensor<4x1xf32>, "l": tensor<4xstring>, "p": tensor<4x3xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Gather"(%x, %0) {axis = 1} : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[0.25]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %3 = "onnx.LessOrEqual"(%1, %2) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xi1>
// CHECK-NEXT:   %4 = "onnx.Cast"(%3) {to = 1} : (tensor<4x1xi1>) -> tensor<4x1xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[[-1.0, 1.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %8 = "onnx.MatMul"(%4, %5) : (tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %9 = "onnx.Add"(%8, %6) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %10 = "onnx.Equal"(%9, %7) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xi1>
// CHECK-NEXT:   %11 = "onnx.Cast"(%10) {to = 1} : (tensor<4x2xi1>) -> tensor<4x2xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[[-2.0], [1.5]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
// CHECK-NEXT:   %13 = "onnx.MatMul"(%11, %12) : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[0.5]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %r = "onnx.Add"(%13, %14) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<["a", "b", "c"]> : tensor<3xstring>} : () -> tensor<3xstring>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %17 = "onnx.Gather"(%x, %16) {axis = 1} : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[0.0]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %19 = "onnx.LessOrEqual"(%17, %18) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xi1>
// CHECK-NEXT:   %20 = "onnx.Cast"(%19) {to = 1} : (tensor<4x1xi1>) -> tensor<4x1xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[[-1.0, 1.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %24 = "onnx.MatMul"(%20, %21) : (tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %25 = "onnx.Add"(%24, %22) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %26 = "onnx.Equal"(%25, %23) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xi1>
// CHECK-NEXT:   %27 = "onnx.Cast"(%26) {to = 1} : (tensor<4x2xi1>) -> tensor<4x2xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[[0.0, 0.75, 0.25], [0.5, 0.25, 0.25]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-NEXT:   %29 = "onnx.MatMul"(%27, %28) : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %30 = "onnx.ArgMax"(%29) {axis = 1, keepdims = 0} : (tensor<4x3xf32>) -> tensor<4xi64>
// CHECK-NEXT:   %l = "onnx.Gather"(%15, %30) {axis = 0} : (tensor<3xstring>, tensor<4xi64>) -> tensor<4xstring>
// CHECK-NEXT:   %p = "onnx.Softmax"(%29) {axis = 1} : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   onnx.return %r, %l, %p
// CHECK-NEXT: }
