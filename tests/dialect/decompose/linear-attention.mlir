// RUN: decompose,verify
// LinearAttention, gated delta rule, two query heads sharing one KV head,
// two time steps unrolled: per step the state decays by exp(decay), the
// value is corrected by what the state retrieves for the key (times beta),
// the key ⊗ value outer product is added, and both query heads read the
// state as one [B, H_kv, 2, d_k] block.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %decay: tensor<1x2x1xf32>, %beta: tensor<1x2x1xf32>) -> ("y": tensor<1x2x4xf32>, "state": tensor<1x1x2x2xf32>) {
  %y, %state = "onnx.LinearAttention"(%q, %k, %v, none, %decay, %beta) {kv_num_heads = 1, q_num_heads = 2} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, none, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> (tensor<1x2x4xf32>, tensor<1x1x2x2xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %decay: tensor<1x2x1xf32>, %beta: tensor<1x2x1xf32>) -> ("y": tensor<1x2x4xf32>, "state": tensor<1x1x2x2xf32>) {
// CHECK-NEXT:   %0, %1 = "onnx.Split"(%q) {axis = 1, num_outputs = 2} : (tensor<1x2x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>)
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[1, 1, 2, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %3 = "onnx.Reshape"(%0, %2) : (tensor<1x1x4xf32>, tensor<4xi64>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[1, 1, 2, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %5 = "onnx.Reshape"(%1, %4) : (tensor<1x1x4xf32>, tensor<4xi64>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %6, %7 = "onnx.Split"(%k) {axis = 1, num_outputs = 2} : (tensor<1x2x2xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x2xf32>)
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<[1, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %9 = "onnx.Reshape"(%6, %8) : (tensor<1x1x2xf32>, tensor<4xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[1, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %11 = "onnx.Reshape"(%7, %10) : (tensor<1x1x2xf32>, tensor<4xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %12, %13 = "onnx.Split"(%v) {axis = 1, num_outputs = 2} : (tensor<1x2x2xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x2xf32>)
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<[1, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %15 = "onnx.Reshape"(%12, %14) : (tensor<1x1x2xf32>, tensor<4xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<[1, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %17 = "onnx.Reshape"(%13, %16) : (tensor<1x1x2xf32>, tensor<4xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %18 = "onnx.Exp"(%decay) : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
// CHECK-NEXT:   %19, %20 = "onnx.Split"(%18) {axis = 1, num_outputs = 2} : (tensor<1x2x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1x1xf32>)
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %22 = "onnx.Reshape"(%19, %21) : (tensor<1x1x1xf32>, tensor<4xi64>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %24 = "onnx.Reshape"(%20, %23) : (tensor<1x1x1xf32>, tensor<4xi64>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %25, %26 = "onnx.Split"(%beta) {axis = 1, num_outputs = 2} : (tensor<1x2x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1x1xf32>)
// CHECK-NEXT:   %27 = "onnx.Constant"() {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %28 = "onnx.Reshape"(%25, %27) : (tensor<1x1x1xf32>, tensor<4xi64>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %30 = "onnx.Reshape"(%26, %29) : (tensor<1x1x1xf32>, tensor<4xi64>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<0.0> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %32 = "onnx.Mul"(%31, %22) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %33 = "onnx.MatMul"(%9, %32) : (tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %34 = "onnx.Sub"(%15, %33) : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %35 = "onnx.Mul"(%28, %34) : (tensor<1x1x1x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %36 = "onnx.Transpose"(%9) {perm = [0, 1, 3, 2]} : (tensor<1x1x1x2xf32>) -> tensor<1x1x2x1xf32>
// CHECK-NEXT:   %37 = "onnx.Mul"(%36, %35) : (tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %38 = "onnx.Add"(%32, %37) : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %39 = "onnx.MatMul"(%3, %38) : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %40 = "onnx.Constant"() {value = dense<[1, 1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %41 = "onnx.Reshape"(%39, %40) : (tensor<1x1x2x2xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %42 = "onnx.Mul"(%38, %24) : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %43 = "onnx.MatMul"(%11, %42) : (tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %44 = "onnx.Sub"(%17, %43) : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %45 = "onnx.Mul"(%30, %44) : (tensor<1x1x1x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %46 = "onnx.Transpose"(%11) {perm = [0, 1, 3, 2]} : (tensor<1x1x1x2xf32>) -> tensor<1x1x2x1xf32>
// CHECK-NEXT:   %47 = "onnx.Mul"(%46, %45) : (tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %state = "onnx.Add"(%42, %47) : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %48 = "onnx.MatMul"(%5, %state) : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %49 = "onnx.Constant"() {value = dense<[1, 1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %50 = "onnx.Reshape"(%48, %49) : (tensor<1x1x2x2xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %51 = "onnx.Concat"(%41, %50) {axis = 1} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x2x4xf32>
// CHECK-NEXT:   %52 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %y = "onnx.Mul"(%51, %52) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<1x2x4xf32>
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
