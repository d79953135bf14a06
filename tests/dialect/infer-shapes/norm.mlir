// RUN: infer-shapes
// Normalizations (ops/norm.rs): the main result has the input's shape; the
// statistics outputs have their own (LayerNormalization's keep the leading
// dims, BatchNormalization's running statistics are per channel); Dropout's
// mask is bool.
// REFERENCE: onnx 1.23.2's strict inference fails on MeanVarianceNormalization
// in any opset (the Constant of its function body), so onnxruntime's run is
// the reference for it.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "norm"(%x: tensor<"N"x4x5x5xf32>, %c: tensor<4xf32>, %seq: tensor<"B"x"T"x8xf32>, %g: tensor<8xf32>, %ratio: tensor<f32>, %train: tensor<i1>, %groups: tensor<4xf32>) -> () {
  %bn = "onnx.BatchNormalization"(%x, %c, %c, %c, %c) {epsilon = 1e-5} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  %bn_y, %running_mean, %running_var = "onnx.BatchNormalization"(%x, %c, %c, %c, %c) {training_mode = 1} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %in = "onnx.InstanceNormalization"(%x, %c, %c) : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  %ln, %mean, %inv_std = "onnx.LayerNormalization"(%seq, %g, %g) {axis = -1} : (tensor<"B"x"T"x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %ln1, %mean1, %inv_std1 = "onnx.LayerNormalization"(%x, %c) {axis = 1} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %gn = "onnx.GroupNormalization"(%x, %groups, %groups) {num_groups = 2} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  %lp = "onnx.LpNormalization"(%x) {axis = 1, p = 1} : (tensor<"N"x4x5x5xf32>) -> !onnx.unknown
  %mvn = "onnx.MeanVarianceNormalization"(%x) : (tensor<"N"x4x5x5xf32>) -> !onnx.unknown
  %lrn = "onnx.LRN"(%x) {size = 3} : (tensor<"N"x4x5x5xf32>) -> !onnx.unknown
  %softmax = "onnx.Softmax"(%seq) : (tensor<"B"x"T"x8xf32>) -> !onnx.unknown
  %logsoftmax = "onnx.LogSoftmax"(%seq) {axis = 1} : (tensor<"B"x"T"x8xf32>) -> !onnx.unknown
  %hardmax = "onnx.Hardmax"(%x) {axis = 0} : (tensor<"N"x4x5x5xf32>) -> !onnx.unknown
  %dropped, %mask = "onnx.Dropout"(%seq, %ratio, %train) : (tensor<"B"x"T"x8xf32>, tensor<f32>, tensor<i1>) -> (!onnx.unknown, !onnx.unknown)
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "norm"(%x: tensor<"N"x4x5x5xf32>, %c: tensor<4xf32>, %seq: tensor<"B"x"T"x8xf32>, %g: tensor<8xf32>, %ratio: tensor<f32>, %train: tensor<i1>, %groups: tensor<4xf32>) -> () {
// CHECK-NEXT:   %bn = "onnx.BatchNormalization"(%x, %c, %c, %c, %c) {epsilon = 1e-5} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %bn_y, %running_mean, %running_var = "onnx.BatchNormalization"(%x, %c, %c, %c, %c) {training_mode = 1} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:   %in = "onnx.InstanceNormalization"(%x, %c, %c) : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %ln, %mean, %inv_std = "onnx.LayerNormalization"(%seq, %g, %g) {axis = -1} : (tensor<"B"x"T"x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<"B"x"T"x8xf32>, tensor<"B"x"T"x1xf32>, tensor<"B"x"T"x1xf32>)
// CHECK-NEXT:   %ln1, %mean1, %inv_std1 = "onnx.LayerNormalization"(%x, %c) {axis = 1} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>) -> (tensor<"N"x4x5x5xf32>, tensor<"N"x1x1x1xf32>, tensor<"N"x1x1x1xf32>)
// CHECK-NEXT:   %gn = "onnx.GroupNormalization"(%x, %groups, %groups) {num_groups = 2} : (tensor<"N"x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %lp = "onnx.LpNormalization"(%x) {axis = 1, p = 1} : (tensor<"N"x4x5x5xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %mvn = "onnx.MeanVarianceNormalization"(%x) : (tensor<"N"x4x5x5xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %lrn = "onnx.LRN"(%x) {size = 3} : (tensor<"N"x4x5x5xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %softmax = "onnx.Softmax"(%seq) : (tensor<"B"x"T"x8xf32>) -> tensor<"B"x"T"x8xf32>
// CHECK-NEXT:   %logsoftmax = "onnx.LogSoftmax"(%seq) {axis = 1} : (tensor<"B"x"T"x8xf32>) -> tensor<"B"x"T"x8xf32>
// CHECK-NEXT:   %hardmax = "onnx.Hardmax"(%x) {axis = 0} : (tensor<"N"x4x5x5xf32>) -> tensor<"N"x4x5x5xf32>
// CHECK-NEXT:   %dropped, %mask = "onnx.Dropout"(%seq, %ratio, %train) : (tensor<"B"x"T"x8xf32>, tensor<f32>, tensor<i1>) -> (tensor<"B"x"T"x8xf32>, tensor<"B"x"T"x8xi1>)
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
