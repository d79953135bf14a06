// RUN: decompose,verify
// Attention-23 with 3-D inputs (heads split by Reshape and Transpose),
// grouped-query heads (each KV head repeated by Unsqueeze, Expand and
// Reshape), a KV cache (Concat with the past) and softcap; the present
// key and value are the concatenations.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%q: tensor<1x2x8xf32>, %k: tensor<1x2x4xf32>, %v: tensor<1x2x4xf32>, %pk: tensor<1x1x3x4xf32>, %pv: tensor<1x1x3x4xf32>) -> ("y": tensor<1x2x8xf32>, "present_key": tensor<1x1x5x4xf32>, "present_value": tensor<1x1x5x4xf32>) {
  %y, %present_key, %present_value = "onnx.Attention"(%q, %k, %v, none, %pk, %pv) {q_num_heads = 2, kv_num_heads = 1, softcap = 2.0} : (tensor<1x2x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, none, tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>) -> (tensor<1x2x8xf32>, tensor<1x1x5x4xf32>, tensor<1x1x5x4xf32>)
  onnx.return %y, %present_key, %present_value
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x8xf32>, %k: tensor<1x2x4xf32>, %v: tensor<1x2x4xf32>, %pk: tensor<1x1x3x4xf32>, %pv: tensor<1x1x3x4xf32>) -> ("y": tensor<1x2x8xf32>, "present_key": tensor<1x1x5x4xf32>, "present_value": tensor<1x1x5x4xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%q, %0) : (tensor<1x2x8xf32>, tensor<4xi64>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT:   %2 = "onnx.Transpose"(%1) {perm = [0, 2, 1, 3]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[0, 0, 1, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Reshape"(%k, %3) : (tensor<1x2x4xf32>, tensor<4xi64>) -> tensor<1x2x1x4xf32>
// CHECK-NEXT:   %5 = "onnx.Transpose"(%4) {perm = [0, 2, 1, 3]} : (tensor<1x2x1x4xf32>) -> tensor<1x1x2x4xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0, 0, 1, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %7 = "onnx.Reshape"(%v, %6) : (tensor<1x2x4xf32>, tensor<4xi64>) -> tensor<1x2x1x4xf32>
// CHECK-NEXT:   %8 = "onnx.Transpose"(%7) {perm = [0, 2, 1, 3]} : (tensor<1x2x1x4xf32>) -> tensor<1x1x2x4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %present_key = "onnx.Concat"(%pk, %5) {axis = 2} : (tensor<1x1x3x4xf32>, tensor<1x1x2x4xf32>) -> tensor<1x1x5x4xf32>
// CHECK-NEXT:   %present_value = "onnx.Concat"(%pv, %8) {axis = 2} : (tensor<1x1x3x4xf32>, tensor<1x1x2x4xf32>) -> tensor<1x1x5x4xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Unsqueeze"(%present_key, %10) : (tensor<1x1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x1x5x4xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[1, 1, 2, 5, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %13 = "onnx.Expand"(%11, %12) : (tensor<1x1x1x5x4xf32>, tensor<5xi64>) -> tensor<1x1x2x5x4xf32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[1, 2, 5, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %15 = "onnx.Reshape"(%13, %14) : (tensor<1x1x2x5x4xf32>, tensor<4xi64>) -> tensor<1x2x5x4xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %17 = "onnx.Unsqueeze"(%present_value, %16) : (tensor<1x1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x1x5x4xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[1, 1, 2, 5, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %19 = "onnx.Expand"(%17, %18) : (tensor<1x1x1x5x4xf32>, tensor<5xi64>) -> tensor<1x1x2x5x4xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<[1, 2, 5, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %21 = "onnx.Reshape"(%19, %20) : (tensor<1x1x2x5x4xf32>, tensor<4xi64>) -> tensor<1x2x5x4xf32>
// CHECK-NEXT:   %22 = "onnx.Mul"(%2, %9) : (tensor<1x2x2x4xf32>, tensor<f32>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT:   %23 = "onnx.Mul"(%15, %9) : (tensor<1x2x5x4xf32>, tensor<f32>) -> tensor<1x2x5x4xf32>
// CHECK-NEXT:   %24 = "onnx.Transpose"(%23) {perm = [0, 1, 3, 2]} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
// CHECK-NEXT:   %25 = "onnx.MatMul"(%22, %24) : (tensor<1x2x2x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x2x5xf32>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %27 = "onnx.Div"(%25, %26) : (tensor<1x2x2x5xf32>, tensor<f32>) -> tensor<1x2x2x5xf32>
// CHECK-NEXT:   %28 = "onnx.Tanh"(%27) : (tensor<1x2x2x5xf32>) -> tensor<1x2x2x5xf32>
// CHECK-NEXT:   %29 = "onnx.Mul"(%28, %26) : (tensor<1x2x2x5xf32>, tensor<f32>) -> tensor<1x2x2x5xf32>
// CHECK-NEXT:   %30 = "onnx.Softmax"(%29) {axis = -1} : (tensor<1x2x2x5xf32>) -> tensor<1x2x2x5xf32>
// CHECK-NEXT:   %31 = "onnx.MatMul"(%30, %21) : (tensor<1x2x2x5xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT:   %32 = "onnx.Transpose"(%31) {perm = [0, 2, 1, 3]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%32, %33) : (tensor<1x2x2x4xf32>, tensor<3xi64>) -> tensor<1x2x8xf32>
// CHECK-NEXT:   onnx.return %y, %present_key, %present_value
// CHECK-NEXT: }
