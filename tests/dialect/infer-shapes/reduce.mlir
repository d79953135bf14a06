// RUN: infer-shapes
// Reductions (ops/reduce.rs): ArgMax/ArgMin and Reduce* keep reduced axes
// as 1 or drop them (keepdims), axes from the attribute or (ReduceSum from
// 13, the others from 18) the input, all axes when none are given; CumSum
// keeps the shape; TopK replaces the axis by k. ReduceProd of a shape is
// the element count, symbolic here.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "reduce"(%x: tensor<"N"x3x4xf32>, %axes: tensor<1xi64>, %k: tensor<1xi64>, %v: tensor<"L"xi32>) -> () {
  %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = "onnx.Constant"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %two = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %argmax = "onnx.ArgMax"(%x) {axis = 1, keepdims = 1} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %argmin = "onnx.ArgMin"(%x) {axis = -1, keepdims = 0, select_last_index = 1} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %sum = "onnx.ReduceSum"(%x, %one) : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> !onnx.unknown
  %mean = "onnx.ReduceMean"(%x, %ends) {keepdims = 0} : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  %max = "onnx.ReduceMax"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %all = "onnx.ReduceLogSumExp"(%x) {keepdims = 0} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %noop = "onnx.ReduceSum"(%x) {noop_with_empty_axes = 1} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %l2 = "onnx.ReduceL2"(%x, %axes) : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> !onnx.unknown
  %sumsq = "onnx.ReduceSumSquare"(%v, %axes) {keepdims = 0} : (tensor<"L"xi32>, tensor<1xi64>) -> !onnx.unknown
  %cumsum = "onnx.CumSum"(%x, %one) {exclusive = 1, reverse = 1} : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> !onnx.unknown
  %values, %indices = "onnx.TopK"(%x, %two) {axis = -1, largest = 0} : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> (!onnx.unknown, !onnx.unknown)
  %shape = "onnx.Shape"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %zero = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %numel = "onnx.ReduceProd"(%shape, %zero) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %flat = "onnx.Reshape"(%x, %numel) : (tensor<"N"x3x4xf32>, !onnx.unknown) -> !onnx.unknown
  %total = "onnx.ReduceSum"(%shape) {keepdims = 0} : (!onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "reduce"(%x: tensor<"N"x3x4xf32>, %axes: tensor<1xi64>, %k: tensor<1xi64>, %v: tensor<"L"xi32>) -> () {
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %ends = "onnx.Constant"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %two = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %argmax = "onnx.ArgMax"(%x) {axis = 1, keepdims = 1} : (tensor<"N"x3x4xf32>) -> tensor<"N"x1x4xi64>
// CHECK-NEXT:   %argmin = "onnx.ArgMin"(%x) {axis = -1, keepdims = 0, select_last_index = 1} : (tensor<"N"x3x4xf32>) -> tensor<"N"x3xi64>
// CHECK-NEXT:   %sum = "onnx.ReduceSum"(%x, %one) : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> tensor<"N"x1x4xf32>
// CHECK-NEXT:   %mean = "onnx.ReduceMean"(%x, %ends) {keepdims = 0} : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> tensor<3xf32>
// CHECK-NEXT:   %max = "onnx.ReduceMax"(%x) : (tensor<"N"x3x4xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %all = "onnx.ReduceLogSumExp"(%x) {keepdims = 0} : (tensor<"N"x3x4xf32>) -> tensor<f32>
// CHECK-NEXT:   %noop = "onnx.ReduceSum"(%x) {noop_with_empty_axes = 1} : (tensor<"N"x3x4xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %l2 = "onnx.ReduceL2"(%x, %axes) : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
// CHECK-NEXT:   %sumsq = "onnx.ReduceSumSquare"(%v, %axes) {keepdims = 0} : (tensor<"L"xi32>, tensor<1xi64>) -> tensor<i32>
// CHECK-NEXT:   %cumsum = "onnx.CumSum"(%x, %one) {exclusive = 1, reverse = 1} : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %values, %indices = "onnx.TopK"(%x, %two) {axis = -1, largest = 0} : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> (tensor<"N"x3x2xf32>, tensor<"N"x3x2xi64>)
// CHECK-NEXT:   %shape = "onnx.Shape"(%x) : (tensor<"N"x3x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %numel = "onnx.ReduceProd"(%shape, %zero) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %flat = "onnx.Reshape"(%x, %numel) : (tensor<"N"x3x4xf32>, tensor<1xi64>) -> tensor<(12*"N")xf32>
// CHECK-NEXT:   %total = "onnx.ReduceSum"(%shape) {keepdims = 0} : (tensor<3xi64>) -> tensor<i64>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
