// RUN: decompose,verify
// The support vector machines: the regressor's RBF kernel as squared
// distances to the support vectors, a product with the coefficients plus
// rho, one_class mapping the sign to ±1; the two-class classifier's one
// pairwise score (a linear map of the LINEAR kernel), the votes as a
// product, the label a Gather by their ArgMax, and the Platt probability
// coupled into class probabilities by a run-time Loop (100 sweeps, a row
// frozen once converged).
onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1}}
onnx.graph "g"(%x: tensor<4x2xf32>) -> ("r": tensor<4x1xf32>, "l": tensor<4xi64>, "p": tensor<4x2xf32>) {
  %r = "onnx_ml.SVMRegressor"(%x) {coefficients = [0.5, -1.0], kernel_params = [0.25, 0.0, 0.0], kernel_type = "RBF", n_supports = 2, one_class = 1, rho = [0.125], support_vectors = [1.0, 0.0, 0.0, 1.0]} : (tensor<4x2xf32>) -> tensor<4x1xf32>
  %l, %p = "onnx_ml.SVMClassifier"(%x) {classlabels_ints = [3, 7], coefficients = [1.0, -0.5], kernel_params = [0.0, 0.0, 0.0], kernel_type = "LINEAR", prob_a = [-2.0], prob_b = [0.25], rho = [0.5], support_vectors = [1.0, 2.0, -1.0, 0.5], vectors_per_class = [1, 1]} : (tensor<4x2xf32>) -> (tensor<4xi64>, tensor<4x2xf32>)
  onnx.return %r, %l, %p
}

// CHECK: onnx.model {ir_version = 8, opset_imports = {"ai.onnx.ml" = 1, "" = 21}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<4x2xf32>) -> ("r": tensor<4x1xf32>, "l": tensor<4xi64>, "p": tensor<4x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %1 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %2 = "onnx.Unsqueeze"(%x, %1) : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x1x2xf32>
// CHECK-NEXT:   %3 = "onnx.Sub"(%2, %0) : (tensor<4x1x2xf32>, tensor<2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %4 = "onnx.Mul"(%3, %3) : (tensor<4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %5 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %6 = "onnx.ReduceSum"(%4, %5) {keepdims = 0} : (tensor<4x2x2xf32>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %7 = "onnx.Constant"() {value = dense<-0.25> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %8 = "onnx.Mul"(%6, %7) : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %9 = "onnx.Exp"(%8) : (tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[[0.5], [-1.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
// CHECK-NEXT:   %11 = "onnx.MatMul"(%9, %10) : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %13 = "onnx.Add"(%11, %12) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %14 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %15 = "onnx.Greater"(%13, %14) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xi1>
// CHECK-NEXT:   %16 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %r = "onnx.Where"(%15, %16, %17) : (tensor<4x1xi1>, tensor<f32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<[3, 7]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<[[1.0, -1.0], [2.0, 0.5]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %20 = "onnx.MatMul"(%x, %19) : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[[1.0], [-0.5]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[0.5]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %23 = "onnx.MatMul"(%20, %21) : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %24 = "onnx.Add"(%23, %22) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %26 = "onnx.Greater"(%24, %25) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xi1>
// CHECK-NEXT:   %27 = "onnx.Cast"(%26) {to = 1} : (tensor<4x1xi1>) -> tensor<4x1xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[[1.0, -1.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %29 = "onnx.Constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:   %30 = "onnx.MatMul"(%27, %28) : (tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %31 = "onnx.Add"(%30, %29) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %32 = "onnx.ArgMax"(%31) {axis = 1, keepdims = 0} : (tensor<4x2xf32>) -> tensor<4xi64>
// CHECK-NEXT:   %l = "onnx.Gather"(%18, %32) {axis = 0} : (tensor<2xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %33 = "onnx.Constant"() {value = dense<[-2.0]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %34 = "onnx.Constant"() {value = dense<[0.25]> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT:   %35 = "onnx.Mul"(%24, %33) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %36 = "onnx.Add"(%35, %34) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %37 = "onnx.Neg"(%36) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %38 = "onnx.Sigmoid"(%37) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %39 = "onnx.Constant"() {value = dense<1e-7> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %40 = "onnx.Constant"() {value = dense<0.9999999> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %41 = "onnx.Max"(%38, %39) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %42 = "onnx.Min"(%41, %40) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %43 = "onnx.Constant"() {value = dense<[[0.0, 1.0, 0.0, 0.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
// CHECK-NEXT:   %44 = "onnx.Constant"() {value = dense<[[0.0, 0.0, 1.0, 0.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
// CHECK-NEXT:   %45 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %46 = "onnx.Sub"(%45, %42) : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %47 = "onnx.MatMul"(%42, %43) : (tensor<4x1xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %48 = "onnx.MatMul"(%46, %44) : (tensor<4x1xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %49 = "onnx.Add"(%47, %48) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<[-1, 2, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %51 = "onnx.Reshape"(%49, %50) : (tensor<4x4xf32>, tensor<3xi64>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %52 = "onnx.Mul"(%51, %51) : (tensor<4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %53 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %54 = "onnx.ReduceSum"(%52, %53) {keepdims = 0} : (tensor<4x2x2xf32>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:   %55 = "onnx.Transpose"(%51) {perm = [0, 2, 1]} : (tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %56 = "onnx.Mul"(%51, %55) : (tensor<4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %57 = "onnx.Neg"(%56) : (tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %58 = "onnx.Constant"() {value = dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %59 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %60 = "onnx.Unsqueeze"(%54, %59) : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x1x2xf32>
// CHECK-NEXT:   %61 = "onnx.Mul"(%60, %58) : (tensor<4x1x2xf32>, tensor<2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %62 = "onnx.Add"(%57, %61) : (tensor<4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:   %63 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %64 = "onnx.Mul"(%54, %63) : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %65 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %66 = "onnx.Add"(%64, %65) : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %67 = "onnx.Constant"() {value = dense<100> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %p = "onnx.Loop"(%67, none, %66) {body = onnx.graph "loop_body"(%loop1_iteration: tensor<i64>, %loop1_cond: tensor<i1>, %loop1_carried0: tensor<4x2xf32>) -> ("loop1_out0": tensor<i1>, "loop1_out1": tensor<4x2xf32>) {
// CHECK-NEXT:     %68 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %69 = "onnx.Unsqueeze"(%loop1_carried0, %68) : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x2x1xf32>
// CHECK-NEXT:     %70 = "onnx.MatMul"(%62, %69) : (tensor<4x2x2xf32>, tensor<4x2x1xf32>) -> tensor<4x2x1xf32>
// CHECK-NEXT:     %71 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %72 = "onnx.Squeeze"(%70, %71) : (tensor<4x2x1xf32>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:     %73 = "onnx.Mul"(%loop1_carried0, %72) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %74 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %75 = "onnx.ReduceSum"(%73, %74) {keepdims = 1} : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:     %76 = "onnx.Sub"(%72, %75) : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %77 = "onnx.Abs"(%76) : (tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %78 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %79 = "onnx.ReduceMax"(%77, %78) {keepdims = 1} : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:     %80 = "onnx.Constant"() {value = dense<0.0025> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:     %81 = "onnx.Less"(%79, %80) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xi1>
// CHECK-NEXT:     %82 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:     %83 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:     %84 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %85 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %86 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %87 = "onnx.Slice"(%72, %84, %85, %86) : (tensor<4x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:     %88 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %89 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %90 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %91 = "onnx.Slice"(%54, %88, %89, %90) : (tensor<4x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:     %92 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %93 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %94 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %95 = "onnx.Slice"(%62, %92, %93, %94) : (tensor<4x2x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1x2xf32>
// CHECK-NEXT:     %96 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %97 = "onnx.Squeeze"(%95, %96) : (tensor<4x1x2xf32>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:     %98 = "onnx.Sub"(%75, %87) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %99 = "onnx.Div"(%98, %91) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %100 = "onnx.Constant"() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:     %101 = "onnx.Mul"(%99, %100) : (tensor<4x1xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %102 = "onnx.Add"(%loop1_carried0, %101) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %103 = "onnx.Add"(%82, %99) : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %104 = "onnx.Mul"(%99, %91) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %105 = "onnx.Mul"(%83, %87) : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %106 = "onnx.Add"(%104, %105) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %107 = "onnx.Mul"(%99, %106) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %108 = "onnx.Add"(%75, %107) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %109 = "onnx.Div"(%108, %103) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %110 = "onnx.Div"(%109, %103) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %111 = "onnx.Mul"(%99, %97) : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %112 = "onnx.Add"(%72, %111) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %113 = "onnx.Div"(%112, %103) : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %114 = "onnx.Div"(%102, %103) : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %115 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %116 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %117 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %118 = "onnx.Slice"(%113, %115, %116, %117) : (tensor<4x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:     %119 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %120 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %121 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %122 = "onnx.Slice"(%54, %119, %120, %121) : (tensor<4x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1xf32>
// CHECK-NEXT:     %123 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %124 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %125 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %126 = "onnx.Slice"(%62, %123, %124, %125) : (tensor<4x2x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1x2xf32>
// CHECK-NEXT:     %127 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:     %128 = "onnx.Squeeze"(%126, %127) : (tensor<4x1x2xf32>, tensor<1xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:     %129 = "onnx.Sub"(%110, %118) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %130 = "onnx.Div"(%129, %122) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %131 = "onnx.Constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT:     %132 = "onnx.Mul"(%130, %131) : (tensor<4x1xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %133 = "onnx.Add"(%114, %132) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %134 = "onnx.Add"(%82, %130) : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %135 = "onnx.Mul"(%130, %122) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %136 = "onnx.Mul"(%83, %118) : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %137 = "onnx.Add"(%135, %136) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %138 = "onnx.Mul"(%130, %137) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %139 = "onnx.Add"(%110, %138) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %140 = "onnx.Div"(%139, %134) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %141 = "onnx.Div"(%140, %134) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:     %142 = "onnx.Mul"(%130, %128) : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %143 = "onnx.Add"(%113, %142) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %144 = "onnx.Div"(%143, %134) : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %145 = "onnx.Div"(%133, %134) : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %146 = "onnx.Where"(%81, %loop1_carried0, %145) : (tensor<4x1xi1>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     onnx.return %loop1_cond, %146
// CHECK-NEXT:   }} : (tensor<i64>, none, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   onnx.return %r, %l, %p
// CHECK-NEXT: }
