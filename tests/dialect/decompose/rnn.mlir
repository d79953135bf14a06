// RUN: decompose,verify
// Recurrent layers unrolled over their static time steps (decompose/rnn.rs):
// an RNN run backwards with sequence_lens (Where masks hold the state and
// zero Y past each length) and layout 1; a GRU with linear_before_reset
// (its hidden gate's Rb stays inside the reset product); an LSTM with
// peepholes, clip and only Y_c. Over a symbolic sequence length, an
// LSTM is a Loop over the steps (rnn-symbolic.mlir): its carried values
// are the hidden and cell states.
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%xb: tensor<1x2x3xf32>, %rw: tensor<1x2x3xf32>, %rr: tensor<1x2x2xf32>, %lens: tensor<1xi32>, %x: tensor<1x1x3xf32>, %gw: tensor<1x6x3xf32>, %gr: tensor<1x6x2xf32>, %gb: tensor<1x12xf32>, %lw: tensor<1x8x3xf32>, %lr: tensor<1x8x2xf32>, %p: tensor<1x6xf32>, %xs: tensor<"S"x1x3xf32>) -> ("ry": tensor<1x2x1x2xf32>, "ry_h": tensor<1x1x2xf32>, "gy_h": tensor<1x1x2xf32>, "ly_c": tensor<1x1x2xf32>, "sy_h": tensor<1x1x2xf32>) {
  %ry, %ry_h = "onnx.RNN"(%xb, %rw, %rr, none, %lens) {direction = "reverse", hidden_size = 2, layout = 1} : (tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>, none, tensor<1xi32>) -> (tensor<1x2x1x2xf32>, tensor<1x1x2xf32>)
  _, %gy_h = "onnx.GRU"(%x, %gw, %gr, %gb) {hidden_size = 2, linear_before_reset = 1} : (tensor<1x1x3xf32>, tensor<1x6x3xf32>, tensor<1x6x2xf32>, tensor<1x12xf32>) -> (none, tensor<1x1x2xf32>)
  _, _, %ly_c = "onnx.LSTM"(%x, %lw, %lr, none, none, none, none, %p) {clip = 2.0, hidden_size = 2} : (tensor<1x1x3xf32>, tensor<1x8x3xf32>, tensor<1x8x2xf32>, none, none, none, none, tensor<1x6xf32>) -> (none, none, tensor<1x1x2xf32>)
  _, %sy_h = "onnx.LSTM"(%xs, %lw, %lr) {hidden_size = 2} : (tensor<"S"x1x3xf32>, tensor<1x8x3xf32>, tensor<1x8x2xf32>) -> (none, tensor<1x1x2xf32>)
  onnx.return %ry, %ry_h, %gy_h, %ly_c, %sy_h
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%xb: tensor<1x2x3xf32>, %rw: tensor<1x2x3xf32>, %rr: tensor<1x2x2xf32>, %lens: tensor<1xi32>, %x: tensor<1x1x3xf32>, %gw: tensor<1x6x3xf32>, %gr: tensor<1x6x2xf32>, %gb: tensor<1x12xf32>, %lw: tensor<1x8x3xf32>, %lr: tensor<1x8x2xf32>, %p: tensor<1x6xf32>, %xs: tensor<"S"x1x3xf32>) -> ("ry": tensor<1x2x1x2xf32>, "ry_h": tensor<1x1x2xf32>, "gy_h": tensor<1x1x2xf32>, "ly_c": tensor<1x1x2xf32>, "sy_h": tensor<1x1x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Transpose"(%xb) {perm = [1, 0, 2]} : (tensor<1x2x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Unsqueeze"(%lens, %1) : (tensor<1xi32>, tensor<1xi64>) -> tensor<1x1xi32>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<0.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %5 = "onnx.Gather"(%rw, %4) {axis = 0} : (tensor<1x2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
// CHECK-NEXT:   %6 = "onnx.Transpose"(%5) {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %7 = "onnx.MatMul"(%0, %6) : (tensor<2x1x3xf32>, tensor<3x2xf32>) -> tensor<2x1x2xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %9 = "onnx.Gather"(%rr, %8) {axis = 0} : (tensor<1x2x2xf32>, tensor<i64>) -> tensor<2x2xf32>
// CHECK-NEXT:   %10 = "onnx.Transpose"(%9) {perm = [1, 0]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %11 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %12 = "onnx.Gather"(%7, %11) {axis = 0} : (tensor<2x1x2xf32>, tensor<i64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %13 = "onnx.MatMul"(%3, %10) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %14 = "onnx.Add"(%12, %13) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %15 = "onnx.Tanh"(%14) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:   %17 = "onnx.Greater"(%2, %16) : (tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi1>
// CHECK-NEXT:   %18 = "onnx.Where"(%17, %15, %3) : (tensor<1x1xi1>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %19 = "onnx.Where"(%17, %15, %3) : (tensor<1x1xi1>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %20 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %21 = "onnx.Gather"(%7, %20) {axis = 0} : (tensor<2x1x2xf32>, tensor<i64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %22 = "onnx.MatMul"(%19, %10) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %23 = "onnx.Add"(%21, %22) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %24 = "onnx.Tanh"(%23) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:   %26 = "onnx.Greater"(%2, %25) : (tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi1>
// CHECK-NEXT:   %27 = "onnx.Where"(%26, %24, %3) : (tensor<1x1xi1>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %28 = "onnx.Where"(%26, %24, %19) : (tensor<1x1xi1>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %30 = "onnx.Unsqueeze"(%27, %29) : (tensor<1x2xf32>, tensor<2xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %32 = "onnx.Unsqueeze"(%18, %31) : (tensor<1x2xf32>, tensor<2xi64>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:   %33 = "onnx.Concat"(%30, %32) {axis = 0} : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<2x1x1x2xf32>
// CHECK-NEXT:   %34 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %35 = "onnx.Unsqueeze"(%28, %34) : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %ry = "onnx.Transpose"(%33) {perm = [2, 0, 1, 3]} : (tensor<2x1x1x2xf32>) -> tensor<1x2x1x2xf32>
// CHECK-NEXT:   %ry_h = "onnx.Transpose"(%35) {perm = [1, 0, 2]} : (tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %36 = "onnx.Constant"() {value = dense<0.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %38 = "onnx.Gather"(%gw, %37) {axis = 0} : (tensor<1x6x3xf32>, tensor<i64>) -> tensor<6x3xf32>
// CHECK-NEXT:   %39 = "onnx.Transpose"(%38) {perm = [1, 0]} : (tensor<6x3xf32>) -> tensor<3x6xf32>
// CHECK-NEXT:   %40 = "onnx.MatMul"(%x, %39) : (tensor<1x1x3xf32>, tensor<3x6xf32>) -> tensor<1x1x6xf32>
// CHECK-NEXT:   %41 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %42 = "onnx.Gather"(%gr, %41) {axis = 0} : (tensor<1x6x2xf32>, tensor<i64>) -> tensor<6x2xf32>
// CHECK-NEXT:   %43 = "onnx.Transpose"(%42) {perm = [1, 0]} : (tensor<6x2xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:   %44 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %45 = "onnx.Gather"(%gb, %44) {axis = 0} : (tensor<1x12xf32>, tensor<i64>) -> tensor<12xf32>
// CHECK-NEXT:   %46 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %47 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %48 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %49 = "onnx.Slice"(%45, %46, %47, %48) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xf32>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %51 = "onnx.Constant"() {value = dense<[12]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %52 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %53 = "onnx.Slice"(%45, %50, %51, %52) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xf32>
// CHECK-NEXT:   %54 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %55 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %56 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %57 = "onnx.Slice"(%53, %54, %55, %56) : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
// CHECK-NEXT:   %58 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %59 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %60 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %61 = "onnx.Slice"(%53, %58, %59, %60) : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:   %62 = "onnx.Constant"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %63 = "onnx.Concat"(%61, %62) {axis = 0} : (tensor<4xf32>, tensor<2xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %64 = "onnx.Add"(%49, %63) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %65 = "onnx.Add"(%40, %64) : (tensor<1x1x6xf32>, tensor<6xf32>) -> tensor<1x1x6xf32>
// CHECK-NEXT:   %66 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %67 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %68 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %69 = "onnx.Slice"(%65, %66, %67, %68) : (tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %70 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %71 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %72 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %73 = "onnx.Slice"(%43, %70, %71, %72) : (tensor<2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2xf32>
// CHECK-NEXT:   %74 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %75 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %76 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %77 = "onnx.Slice"(%65, %74, %75, %76) : (tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %78 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %79 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %80 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %81 = "onnx.Slice"(%43, %78, %79, %80) : (tensor<2x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x4xf32>
// CHECK-NEXT:   %82 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %83 = "onnx.Gather"(%77, %82) {axis = 0} : (tensor<1x1x4xf32>, tensor<i64>) -> tensor<1x4xf32>
// CHECK-NEXT:   %84 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %85 = "onnx.Gather"(%69, %84) {axis = 0} : (tensor<1x1x2xf32>, tensor<i64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %86 = "onnx.MatMul"(%36, %81) : (tensor<1x2xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:   %87 = "onnx.Add"(%83, %86) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:   %88 = "onnx.Sigmoid"(%87) : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:   %89 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %90 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %91 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %92 = "onnx.Slice"(%88, %89, %90, %91) : (tensor<1x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %93 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %94 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %95 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %96 = "onnx.Slice"(%88, %93, %94, %95) : (tensor<1x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %97 = "onnx.MatMul"(%36, %73) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %98 = "onnx.Add"(%97, %57) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %99 = "onnx.Mul"(%96, %98) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %100 = "onnx.Add"(%85, %99) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %101 = "onnx.Tanh"(%100) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %102 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %103 = "onnx.Sub"(%102, %92) : (tensor<f32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %104 = "onnx.Mul"(%103, %101) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %105 = "onnx.Mul"(%92, %36) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %106 = "onnx.Add"(%104, %105) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %107 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %gy_h = "onnx.Unsqueeze"(%106, %107) : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %108 = "onnx.Constant"() {value = dense<0.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %109 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %110 = "onnx.Gather"(%lw, %109) {axis = 0} : (tensor<1x8x3xf32>, tensor<i64>) -> tensor<8x3xf32>
// CHECK-NEXT:   %111 = "onnx.Transpose"(%110) {perm = [1, 0]} : (tensor<8x3xf32>) -> tensor<3x8xf32>
// CHECK-NEXT:   %112 = "onnx.MatMul"(%x, %111) : (tensor<1x1x3xf32>, tensor<3x8xf32>) -> tensor<1x1x8xf32>
// CHECK-NEXT:   %113 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %114 = "onnx.Gather"(%lr, %113) {axis = 0} : (tensor<1x8x2xf32>, tensor<i64>) -> tensor<8x2xf32>
// CHECK-NEXT:   %115 = "onnx.Transpose"(%114) {perm = [1, 0]} : (tensor<8x2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %116 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %117 = "onnx.Gather"(%p, %116) {axis = 0} : (tensor<1x6xf32>, tensor<i64>) -> tensor<6xf32>
// CHECK-NEXT:   %118 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %119 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %120 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %121 = "onnx.Slice"(%117, %118, %119, %120) : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
// CHECK-NEXT:   %122 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %123 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %124 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %125 = "onnx.Slice"(%117, %122, %123, %124) : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
// CHECK-NEXT:   %126 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %127 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %128 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %129 = "onnx.Slice"(%117, %126, %127, %128) : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
// CHECK-NEXT:   %130 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %131 = "onnx.Gather"(%112, %130) {axis = 0} : (tensor<1x1x8xf32>, tensor<i64>) -> tensor<1x8xf32>
// CHECK-NEXT:   %132 = "onnx.MatMul"(%108, %115) : (tensor<1x2xf32>, tensor<2x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:   %133 = "onnx.Add"(%131, %132) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:   %134 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %135 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %136 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %137 = "onnx.Slice"(%133, %134, %135, %136) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %138 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %139 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %140 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %141 = "onnx.Slice"(%133, %138, %139, %140) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %142 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %143 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %144 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %145 = "onnx.Slice"(%133, %142, %143, %144) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %146 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %147 = "onnx.Constant"() {value = dense<[8]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %148 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %149 = "onnx.Slice"(%133, %146, %147, %148) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:   %150 = "onnx.Mul"(%121, %108) : (tensor<2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %151 = "onnx.Add"(%137, %150) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %152 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %153 = "onnx.Constant"() {value = dense<-2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %154 = "onnx.Min"(%151, %152) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %155 = "onnx.Max"(%154, %153) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %156 = "onnx.Sigmoid"(%155) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %157 = "onnx.Mul"(%129, %108) : (tensor<2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %158 = "onnx.Add"(%145, %157) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %159 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %160 = "onnx.Constant"() {value = dense<-2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %161 = "onnx.Min"(%158, %159) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %162 = "onnx.Max"(%161, %160) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %163 = "onnx.Sigmoid"(%162) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %164 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %165 = "onnx.Constant"() {value = dense<-2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %166 = "onnx.Min"(%149, %164) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %167 = "onnx.Max"(%166, %165) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %168 = "onnx.Tanh"(%167) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %169 = "onnx.Mul"(%163, %108) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %170 = "onnx.Mul"(%156, %168) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %171 = "onnx.Add"(%169, %170) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %172 = "onnx.Mul"(%125, %171) : (tensor<2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %173 = "onnx.Add"(%141, %172) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %174 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %175 = "onnx.Constant"() {value = dense<-2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %176 = "onnx.Min"(%173, %174) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %177 = "onnx.Max"(%176, %175) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %178 = "onnx.Sigmoid"(%177) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %179 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %180 = "onnx.Constant"() {value = dense<-2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %181 = "onnx.Min"(%171, %179) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %182 = "onnx.Max"(%181, %180) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %183 = "onnx.Tanh"(%182) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %184 = "onnx.Mul"(%178, %183) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %185 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %186 = "onnx.Unsqueeze"(%184, %185) : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %187 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %ly_c = "onnx.Unsqueeze"(%171, %187) : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %188 = "onnx.Constant"() {value = dense<0.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %189 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %190 = "onnx.Gather"(%lw, %189) {axis = 0} : (tensor<1x8x3xf32>, tensor<i64>) -> tensor<8x3xf32>
// CHECK-NEXT:   %191 = "onnx.Transpose"(%190) {perm = [1, 0]} : (tensor<8x3xf32>) -> tensor<3x8xf32>
// CHECK-NEXT:   %192 = "onnx.MatMul"(%xs, %191) : (tensor<"S"x1x3xf32>, tensor<3x8xf32>) -> tensor<"S"x1x8xf32>
// CHECK-NEXT:   %193 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %194 = "onnx.Gather"(%lr, %193) {axis = 0} : (tensor<1x8x2xf32>, tensor<i64>) -> tensor<8x2xf32>
// CHECK-NEXT:   %195 = "onnx.Transpose"(%194) {perm = [1, 0]} : (tensor<8x2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %196 = "onnx.Shape"(%xs) {start = 0, end = 1} : (tensor<"S"x1x3xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %197 = "onnx.Constant"() {value = dense<[]> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK-NEXT:   %198 = "onnx.Reshape"(%196, %197) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
// CHECK-NEXT:   %199, %200 = "onnx.Loop"(%198, none, %188, %188) {body = onnx.graph "loop_body"(%loop1_iteration: tensor<i64>, %loop1_cond: tensor<i1>, %loop1_carried0: tensor<1x2xf32>, %loop1_carried1: tensor<1x2xf32>) -> ("loop1_out0": tensor<i1>, "loop1_out1": tensor<1x2xf32>, "loop1_out2": tensor<1x2xf32>) {
// CHECK-NEXT:     %201 = "onnx.Gather"(%192, %loop1_iteration) {axis = 0} : (tensor<"S"x1x8xf32>, tensor<i64>) -> tensor<1x8xf32>
// CHECK-NEXT:     %202 = "onnx.MatMul"(%loop1_carried0, %195) : (tensor<1x2xf32>, tensor<2x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:     %203 = "onnx.Add"(%201, %202) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:     %204 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %205 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %206 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %207 = "onnx.Slice"(%203, %204, %205, %206) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:     %208 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %209 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %210 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %211 = "onnx.Slice"(%203, %208, %209, %210) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:     %212 = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %213 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %214 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %215 = "onnx.Slice"(%203, %212, %213, %214) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:     %216 = "onnx.Constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %217 = "onnx.Constant"() {value = dense<[8]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %218 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %219 = "onnx.Slice"(%203, %216, %217, %218) : (tensor<1x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:     %220 = "onnx.Sigmoid"(%207) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %221 = "onnx.Sigmoid"(%215) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %222 = "onnx.Tanh"(%219) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %223 = "onnx.Mul"(%221, %loop1_carried1) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %224 = "onnx.Mul"(%220, %222) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %225 = "onnx.Add"(%223, %224) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %226 = "onnx.Sigmoid"(%211) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %227 = "onnx.Tanh"(%225) : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     %228 = "onnx.Mul"(%226, %227) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:     onnx.return %loop1_cond, %228, %225
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
// CHECK-NEXT:   %229 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %sy_h = "onnx.Unsqueeze"(%199, %229) : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   %230 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %231 = "onnx.Unsqueeze"(%200, %230) : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
// CHECK-NEXT:   onnx.return %ry, %ry_h, %gy_h, %ly_c, %sy_h
// CHECK-NEXT: }
