// RUN: decompose,verify
// GroupQueryAttention decoding one token after a past of 3, grouped heads,
// rotary at position past + i, a local window: keys kept by seqlens_k, causal
// order and window, the KV heads repeated by Attention-23's expansion.
onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
onnx.graph "g"(%q: tensor<1x1x16xf32>, %k: tensor<1x1x8xf32>, %v: tensor<1x1x8xf32>, %pk: tensor<1x2x3x4xf32>, %pv: tensor<1x2x3x4xf32>, %sl: tensor<1xi32>, %tl: tensor<i32>) -> ("y": tensor<1x1x16xf32>, "k2": tensor<1x2x4x4xf32>, "v2": tensor<1x2x4x4xf32>) {
  %cos = "onnx.Constant"() {value = dense<1.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %sin = "onnx.Constant"() {value = dense<0.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %y, %k2, %v2 = "ms.GroupQueryAttention"(%q, %k, %v, %pk, %pv, %sl, %tl, %cos, %sin) {do_rotary = 1, kv_num_heads = 2, local_window_size = 3, num_heads = 4} : (tensor<1x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1xi32>, tensor<i32>, tensor<8x2xf32>, tensor<8x2xf32>) -> (tensor<1x1x16xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
  onnx.return %y, %k2, %v2
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"" = 17, "com.microsoft" = 1}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x1x16xf32>, %k: tensor<1x1x8xf32>, %v: tensor<1x1x8xf32>, %pk: tensor<1x2x3x4xf32>, %pv: tensor<1x2x3x4xf32>, %sl: tensor<1xi32>, %tl: tensor<i32>) -> ("y": tensor<1x1x16xf32>, "k2": tensor<1x2x4x4xf32>, "v2": tensor<1x2x4x4xf32>) {
// CHECK-NEXT:   %cos = "onnx.Constant"() {value = dense<1.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
// CHECK-NEXT:   %sin = "onnx.Constant"() {value = dense<0.0> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0, 0, 4, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%q, %0) : (tensor<1x1x16xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:   %2 = "onnx.Transpose"(%1) {perm = [0, 2, 1, 3]} : (tensor<1x1x4x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %4 = "onnx.Reshape"(%k, %3) : (tensor<1x1x8xf32>, tensor<4xi64>) -> tensor<1x1x2x4xf32>
// CHECK-NEXT:   %5 = "onnx.Transpose"(%4) {perm = [0, 2, 1, 3]} : (tensor<1x1x2x4xf32>) -> tensor<1x2x1x4xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %7 = "onnx.Reshape"(%v, %6) : (tensor<1x1x8xf32>, tensor<4xi64>) -> tensor<1x1x2x4xf32>
// CHECK-NEXT:   %8 = "onnx.Transpose"(%7) {perm = [0, 2, 1, 3]} : (tensor<1x1x2x4xf32>) -> tensor<1x2x1x4xf32>
// CHECK-NEXT:   %9 = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Add"(%10, %9) : (tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %13 = "onnx.Unsqueeze"(%11, %12) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1x1xi64>
// CHECK-NEXT:   %14 = "onnx.Transpose"(%2) {perm = [0, 2, 1, 3]} : (tensor<1x4x1x4xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:   %15 = "onnx.Gather"(%cos, %13) {axis = 0} : (tensor<8x2xf32>, tensor<1x1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %16 = "onnx.Gather"(%sin, %13) {axis = 0} : (tensor<8x2xf32>, tensor<1x1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<[0, 0, 0, 2, -1]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %18 = "onnx.Reshape"(%14, %17) : (tensor<1x1x4x4xf32>, tensor<5xi64>) -> tensor<1x1x4x2x2xf32>
// CHECK-NEXT:   %19, %20 = "onnx.Split"(%18) {axis = 3} : (tensor<1x1x4x2x2xf32>) -> (tensor<1x1x4x1x2xf32>, tensor<1x1x4x1x2xf32>)
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %22 = "onnx.Unsqueeze"(%15, %21) : (tensor<1x1x2xf32>, tensor<2xi64>) -> tensor<1x1x1x1x2xf32>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %24 = "onnx.Unsqueeze"(%16, %23) : (tensor<1x1x2xf32>, tensor<2xi64>) -> tensor<1x1x1x1x2xf32>
// CHECK-NEXT:   %25 = "onnx.Mul"(%22, %19) : (tensor<1x1x1x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x1x2xf32>
// CHECK-NEXT:   %26 = "onnx.Mul"(%24, %20) : (tensor<1x1x1x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x1x2xf32>
// CHECK-NEXT:   %27 = "onnx.Sub"(%25, %26) : (tensor<1x1x4x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x1x2xf32>
// CHECK-NEXT:   %28 = "onnx.Mul"(%24, %19) : (tensor<1x1x1x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x1x2xf32>
// CHECK-NEXT:   %29 = "onnx.Mul"(%22, %20) : (tensor<1x1x1x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x1x2xf32>
// CHECK-NEXT:   %30 = "onnx.Add"(%28, %29) : (tensor<1x1x4x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x1x2xf32>
// CHECK-NEXT:   %31 = "onnx.Concat"(%27, %30) {axis = 3} : (tensor<1x1x4x1x2xf32>, tensor<1x1x4x1x2xf32>) -> tensor<1x1x4x2x2xf32>
// CHECK-NEXT:   %32 = "onnx.Constant"() {value = dense<[0, 0, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %33 = "onnx.Reshape"(%31, %32) : (tensor<1x1x4x2x2xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:   %34 = "onnx.Transpose"(%33) {perm = [0, 2, 1, 3]} : (tensor<1x1x4x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %35 = "onnx.Transpose"(%5) {perm = [0, 2, 1, 3]} : (tensor<1x2x1x4xf32>) -> tensor<1x1x2x4xf32>
// CHECK-NEXT:   %36 = "onnx.Gather"(%cos, %13) {axis = 0} : (tensor<8x2xf32>, tensor<1x1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %37 = "onnx.Gather"(%sin, %13) {axis = 0} : (tensor<8x2xf32>, tensor<1x1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<[0, 0, 0, 2, -1]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %39 = "onnx.Reshape"(%35, %38) : (tensor<1x1x2x4xf32>, tensor<5xi64>) -> tensor<1x1x2x2x2xf32>
// CHECK-NEXT:   %40, %41 = "onnx.Split"(%39) {axis = 3} : (tensor<1x1x2x2x2xf32>) -> (tensor<1x1x2x1x2xf32>, tensor<1x1x2x1x2xf32>)
// CHECK-NEXT:   %42 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %43 = "onnx.Unsqueeze"(%36, %42) : (tensor<1x1x2xf32>, tensor<2xi64>) -> tensor<1x1x1x1x2xf32>
// CHECK-NEXT:   %44 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %45 = "onnx.Unsqueeze"(%37, %44) : (tensor<1x1x2xf32>, tensor<2xi64>) -> tensor<1x1x1x1x2xf32>
// CHECK-NEXT:   %46 = "onnx.Mul"(%43, %40) : (tensor<1x1x1x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x1x2xf32>
// CHECK-NEXT:   %47 = "onnx.Mul"(%45, %41) : (tensor<1x1x1x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x1x2xf32>
// CHECK-NEXT:   %48 = "onnx.Sub"(%46, %47) : (tensor<1x1x2x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x1x2xf32>
// CHECK-NEXT:   %49 = "onnx.Mul"(%45, %40) : (tensor<1x1x1x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x1x2xf32>
// CHECK-NEXT:   %50 = "onnx.Mul"(%43, %41) : (tensor<1x1x1x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x1x2xf32>
// CHECK-NEXT:   %51 = "onnx.Add"(%49, %50) : (tensor<1x1x2x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x1x2xf32>
// CHECK-NEXT:   %52 = "onnx.Concat"(%48, %51) {axis = 3} : (tensor<1x1x2x1x2xf32>, tensor<1x1x2x1x2xf32>) -> tensor<1x1x2x2x2xf32>
// CHECK-NEXT:   %53 = "onnx.Constant"() {value = dense<[0, 0, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %54 = "onnx.Reshape"(%52, %53) : (tensor<1x1x2x2x2xf32>, tensor<4xi64>) -> tensor<1x1x2x4xf32>
// CHECK-NEXT:   %55 = "onnx.Transpose"(%54) {perm = [0, 2, 1, 3]} : (tensor<1x1x2x4xf32>) -> tensor<1x2x1x4xf32>
// CHECK-NEXT:   %k2 = "onnx.Concat"(%pk, %55) {axis = 2} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:   %v2 = "onnx.Concat"(%pv, %8) {axis = 2} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:   %56 = "onnx.Constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %57 = "onnx.Cast"(%sl) {to = 7} : (tensor<1xi32>) -> tensor<1xi64>
// CHECK-NEXT:   %58 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %59 = "onnx.Add"(%57, %58) : (tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT:   %60 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %61 = "onnx.Unsqueeze"(%59, %60) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1x1xi64>
// CHECK-NEXT:   %62 = "onnx.Less"(%56, %61) : (tensor<4xi64>, tensor<1x1xi64>) -> tensor<1x4xi1>
// CHECK-NEXT:   %63 = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %64 = "onnx.Unsqueeze"(%62, %63) : (tensor<1x4xi1>, tensor<2xi64>) -> tensor<1x1x1x4xi1>
// CHECK-NEXT:   %65 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %66 = "onnx.Unsqueeze"(%11, %65) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1x1xi64>
// CHECK-NEXT:   %67 = "onnx.Greater"(%56, %66) : (tensor<4xi64>, tensor<1x1xi64>) -> tensor<1x4xi1>
// CHECK-NEXT:   %68 = "onnx.Not"(%67) : (tensor<1x4xi1>) -> tensor<1x4xi1>
// CHECK-NEXT:   %69 = "onnx.And"(%64, %68) : (tensor<1x1x1x4xi1>, tensor<1x4xi1>) -> tensor<1x1x1x4xi1>
// CHECK-NEXT:   %70 = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %71 = "onnx.Sub"(%11, %70) : (tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT:   %72 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %73 = "onnx.Unsqueeze"(%71, %72) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1x1xi64>
// CHECK-NEXT:   %74 = "onnx.Greater"(%56, %73) : (tensor<4xi64>, tensor<1x1xi64>) -> tensor<1x4xi1>
// CHECK-NEXT:   %75 = "onnx.And"(%69, %74) : (tensor<1x1x1x4xi1>, tensor<1x4xi1>) -> tensor<1x1x1x4xi1>
// CHECK-NEXT:   %76 = "onnx.Constant"() {value = dense<0.70710677> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %77 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %78 = "onnx.Unsqueeze"(%k2, %77) : (tensor<1x2x4x4xf32>, tensor<1xi64>) -> tensor<1x2x1x4x4xf32>
// CHECK-NEXT:   %79 = "onnx.Constant"() {value = dense<[1, 2, 2, 4, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %80 = "onnx.Expand"(%78, %79) : (tensor<1x2x1x4x4xf32>, tensor<5xi64>) -> tensor<1x2x2x4x4xf32>
// CHECK-NEXT:   %81 = "onnx.Constant"() {value = dense<[1, 4, 4, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %82 = "onnx.Reshape"(%80, %81) : (tensor<1x2x2x4x4xf32>, tensor<4xi64>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT:   %83 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %84 = "onnx.Unsqueeze"(%v2, %83) : (tensor<1x2x4x4xf32>, tensor<1xi64>) -> tensor<1x2x1x4x4xf32>
// CHECK-NEXT:   %85 = "onnx.Constant"() {value = dense<[1, 2, 2, 4, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %86 = "onnx.Expand"(%84, %85) : (tensor<1x2x1x4x4xf32>, tensor<5xi64>) -> tensor<1x2x2x4x4xf32>
// CHECK-NEXT:   %87 = "onnx.Constant"() {value = dense<[1, 4, 4, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %88 = "onnx.Reshape"(%86, %87) : (tensor<1x2x2x4x4xf32>, tensor<4xi64>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT:   %89 = "onnx.Mul"(%34, %76) : (tensor<1x4x1x4xf32>, tensor<f32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %90 = "onnx.Mul"(%82, %76) : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT:   %91 = "onnx.Transpose"(%90) {perm = [0, 1, 3, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT:   %92 = "onnx.MatMul"(%89, %91) : (tensor<1x4x1x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %93 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %94 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %95 = "onnx.Where"(%75, %93, %94) : (tensor<1x1x1x4xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %96 = "onnx.Add"(%92, %95) : (tensor<1x4x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %97 = "onnx.Softmax"(%96) {axis = -1} : (tensor<1x4x1x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %98 = "onnx.ReduceMax"(%95) {keepdims = 1, axes = [-1]} : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:   %99 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %100 = "onnx.Equal"(%98, %99) : (tensor<1x1x1x1xf32>, tensor<f32>) -> tensor<1x1x1x1xi1>
// CHECK-NEXT:   %101 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %102 = "onnx.Where"(%100, %101, %97) : (tensor<1x1x1x1xi1>, tensor<f32>, tensor<1x4x1x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %103 = "onnx.MatMul"(%102, %88) : (tensor<1x4x1x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x1x4xf32>
// CHECK-NEXT:   %104 = "onnx.Transpose"(%103) {perm = [0, 2, 1, 3]} : (tensor<1x4x1x4xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:   %105 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%104, %105) : (tensor<1x1x4x4xf32>, tensor<3xi64>) -> tensor<1x1x16xf32>
// CHECK-NEXT:   onnx.return %y, %k2, %v2
// CHECK-NEXT: }
