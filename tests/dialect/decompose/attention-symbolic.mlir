// RUN: decompose,verify
// Attention-23 with symbolic sizes: the default scale from the head size
// read with Shape (f64 square roots, then f32), grouped-query heads
// repeated by the quotient atom Hq/Hkv read off a view of Q grouped by the
// KV heads, the causal band after a past of run-time length (index
// ranges as running sums of ones), and a mask shorter than the keys
// padded with -inf to P+S (the width P+S-M, a size that subtracts).
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%q: tensor<"B"x"Hq"x"S"x"D"xf32>, %k: tensor<"B"x"Hkv"x"S"x"D"xf32>, %v: tensor<"B"x"Hkv"x"S"x"D"xf32>, %m: tensor<"S"x"M"xf32>, %pk: tensor<"B"x"Hkv"x"P"x"D"xf32>, %pv: tensor<"B"x"Hkv"x"P"x"D"xf32>) -> ("y": tensor<?x?x?x?xf32>) {
  %y = "onnx.Attention"(%q, %k, %v, %m, %pk, %pv) {is_causal = 1} : (tensor<"B"x"Hq"x"S"x"D"xf32>, tensor<"B"x"Hkv"x"S"x"D"xf32>, tensor<"B"x"Hkv"x"S"x"D"xf32>, tensor<"S"x"M"xf32>, tensor<"B"x"Hkv"x"P"x"D"xf32>, tensor<"B"x"Hkv"x"P"x"D"xf32>) -> tensor<?x?x?x?xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<"B"x"Hq"x"S"x"D"xf32>, %k: tensor<"B"x"Hkv"x"S"x"D"xf32>, %v: tensor<"B"x"Hkv"x"S"x"D"xf32>, %m: tensor<"S"x"M"xf32>, %pk: tensor<"B"x"Hkv"x"P"x"D"xf32>, %pv: tensor<"B"x"Hkv"x"P"x"D"xf32>) -> ("y": tensor<"B"x"Hq"x"S"x"D"xf32>) {
// CHECK-NEXT:   %0 = "onnx.Shape"(%q) {start = 3, end = 4} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %1 = "onnx.Cast"(%0) {to = 11} : (tensor<1xi64>) -> tensor<1xf64>
// CHECK-NEXT:   %2 = "onnx.Sqrt"(%1) : (tensor<1xf64>) -> tensor<1xf64>
// CHECK-NEXT:   %3 = "onnx.Reciprocal"(%2) : (tensor<1xf64>) -> tensor<1xf64>
// CHECK-NEXT:   %4 = "onnx.Sqrt"(%3) : (tensor<1xf64>) -> tensor<1xf64>
// CHECK-NEXT:   %5 = "onnx.Cast"(%4) {to = 1} : (tensor<1xf64>) -> tensor<1xf32>
// CHECK-NEXT:   %6 = "onnx.Concat"(%pk, %k) {axis = 2} : (tensor<"B"x"Hkv"x"P"x"D"xf32>, tensor<"B"x"Hkv"x"S"x"D"xf32>) -> tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %7 = "onnx.Concat"(%pv, %v) {axis = 2} : (tensor<"B"x"Hkv"x"P"x"D"xf32>, tensor<"B"x"Hkv"x"S"x"D"xf32>) -> tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %8 = "onnx.Shape"(%q) {start = 0, end = 1} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %9 = "onnx.Shape"(%6) {start = 1, end = 2} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %11 = "onnx.Shape"(%q) {start = 2, end = 3} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %12 = "onnx.Shape"(%q) {start = 3, end = 4} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %13 = "onnx.Concat"(%8, %9, %10, %11, %12) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xi64>
// CHECK-NEXT:   %14 = "onnx.Reshape"(%q, %13) : (tensor<"B"x"Hq"x"S"x"D"xf32>, tensor<5xi64>) -> tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x"S"x"D"xf32>
// CHECK-NEXT:   %15 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %16 = "onnx.Unsqueeze"(%6, %15) : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>, tensor<1xi64>) -> tensor<"B"x"Hkv"x1x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %17 = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %18 = "onnx.Shape"(%14) {start = 2, end = 3} : (tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %20 = "onnx.Concat"(%17, %18, %19) {axis = 0} : (tensor<2xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<5xi64>
// CHECK-NEXT:   %21 = "onnx.Expand"(%16, %20) : (tensor<"B"x"Hkv"x1x("P"+"S")x"D"xf32>, tensor<5xi64>) -> tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %22 = "onnx.Shape"(%6) {start = 0, end = 1} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %23 = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %24 = "onnx.Shape"(%6) {start = 2, end = 3} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Shape"(%6) {start = 3, end = 4} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %26 = "onnx.Concat"(%22, %23, %24, %25) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %27 = "onnx.Reshape"(%21, %26) : (tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x("P"+"S")x"D"xf32>, tensor<4xi64>) -> tensor<"B"x"Hq"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %28 = "onnx.Shape"(%q) {start = 0, end = 1} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %29 = "onnx.Shape"(%7) {start = 1, end = 2} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %31 = "onnx.Shape"(%q) {start = 2, end = 3} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %32 = "onnx.Shape"(%q) {start = 3, end = 4} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %33 = "onnx.Concat"(%28, %29, %30, %31, %32) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xi64>
// CHECK-NEXT:   %34 = "onnx.Reshape"(%q, %33) : (tensor<"B"x"Hq"x"S"x"D"xf32>, tensor<5xi64>) -> tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x"S"x"D"xf32>
// CHECK-NEXT:   %35 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %36 = "onnx.Unsqueeze"(%7, %35) : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>, tensor<1xi64>) -> tensor<"B"x"Hkv"x1x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %37 = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %38 = "onnx.Shape"(%34) {start = 2, end = 3} : (tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %39 = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %40 = "onnx.Concat"(%37, %38, %39) {axis = 0} : (tensor<2xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<5xi64>
// CHECK-NEXT:   %41 = "onnx.Expand"(%36, %40) : (tensor<"B"x"Hkv"x1x("P"+"S")x"D"xf32>, tensor<5xi64>) -> tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %42 = "onnx.Shape"(%7) {start = 0, end = 1} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %43 = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %44 = "onnx.Shape"(%7) {start = 2, end = 3} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %45 = "onnx.Shape"(%7) {start = 3, end = 4} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %46 = "onnx.Concat"(%42, %43, %44, %45) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %47 = "onnx.Reshape"(%41, %46) : (tensor<"B"x"Hkv"x"div(\"Hq\",\"Hkv\")"x("P"+"S")x"D"xf32>, tensor<4xi64>) -> tensor<"B"x"Hq"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %48 = "onnx.Mul"(%q, %5) : (tensor<"B"x"Hq"x"S"x"D"xf32>, tensor<1xf32>) -> tensor<"B"x"Hq"x"S"x"D"xf32>
// CHECK-NEXT:   %49 = "onnx.Mul"(%27, %5) : (tensor<"B"x"Hq"x("P"+"S")x"D"xf32>, tensor<1xf32>) -> tensor<"B"x"Hq"x("P"+"S")x"D"xf32>
// CHECK-NEXT:   %50 = "onnx.Transpose"(%49) {perm = [0, 1, 3, 2]} : (tensor<"B"x"Hq"x("P"+"S")x"D"xf32>) -> tensor<"B"x"Hq"x"D"x("P"+"S")xf32>
// CHECK-NEXT:   %51 = "onnx.MatMul"(%48, %50) : (tensor<"B"x"Hq"x"S"x"D"xf32>, tensor<"B"x"Hq"x"D"x("P"+"S")xf32>) -> tensor<"B"x"Hq"x"S"x("P"+"S")xf32>
// CHECK-NEXT:   %52 = "onnx.Shape"(%pk) {start = 2, end = 3} : (tensor<"B"x"Hkv"x"P"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %53 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %54 = "onnx.Shape"(%6) {start = 2, end = 3} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %55 = "onnx.Shape"(%m) {start = 1, end = 2} : (tensor<"S"x"M"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %56 = "onnx.Sub"(%54, %55) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %57 = "onnx.Shape"(%m) {start = 0, end = 1} : (tensor<"S"x"M"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %58 = "onnx.Concat"(%57, %56) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %59 = "onnx.Expand"(%53, %58) : (tensor<f32>, tensor<2xi64>) -> tensor<"S"x(-"M"+"P"+"S")xf32>
// CHECK-NEXT:   %60 = "onnx.Concat"(%m, %59) {axis = -1} : (tensor<"S"x"M"xf32>, tensor<"S"x(-"M"+"P"+"S")xf32>) -> tensor<"S"x("P"+"S")xf32>
// CHECK-NEXT:   %61 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %62 = "onnx.Shape"(%q) {start = 2, end = 3} : (tensor<"B"x"Hq"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %63 = "onnx.Expand"(%61, %62) : (tensor<i64>, tensor<1xi64>) -> tensor<"S"xi64>
// CHECK-NEXT:   %64 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %65 = "onnx.CumSum"(%63, %64) {exclusive = 1} : (tensor<"S"xi64>, tensor<i64>) -> tensor<"S"xi64>
// CHECK-NEXT:   %66 = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %67 = "onnx.Unsqueeze"(%65, %66) : (tensor<"S"xi64>, tensor<1xi64>) -> tensor<"S"x1xi64>
// CHECK-NEXT:   %68 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %69 = "onnx.Shape"(%6) {start = 2, end = 3} : (tensor<"B"x"Hkv"x("P"+"S")x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %70 = "onnx.Expand"(%68, %69) : (tensor<i64>, tensor<1xi64>) -> tensor<("P"+"S")xi64>
// CHECK-NEXT:   %71 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %72 = "onnx.CumSum"(%70, %71) {exclusive = 1} : (tensor<("P"+"S")xi64>, tensor<i64>) -> tensor<("P"+"S")xi64>
// CHECK-NEXT:   %73 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %74 = "onnx.Unsqueeze"(%72, %73) : (tensor<("P"+"S")xi64>, tensor<1xi64>) -> tensor<1x("P"+"S")xi64>
// CHECK-NEXT:   %75 = "onnx.Add"(%67, %52) : (tensor<"S"x1xi64>, tensor<1xi64>) -> tensor<"S"x1xi64>
// CHECK-NEXT:   %76 = "onnx.Sub"(%75, %74) : (tensor<"S"x1xi64>, tensor<1x("P"+"S")xi64>) -> tensor<"S"x("P"+"S")xi64>
// CHECK-NEXT:   %77 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %78 = "onnx.GreaterOrEqual"(%76, %77) : (tensor<"S"x("P"+"S")xi64>, tensor<i64>) -> tensor<"S"x("P"+"S")xi1>
// CHECK-NEXT:   %79 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %80 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %81 = "onnx.Where"(%78, %79, %80) : (tensor<"S"x("P"+"S")xi1>, tensor<f32>, tensor<f32>) -> tensor<"S"x("P"+"S")xf32>
// CHECK-NEXT:   %82 = "onnx.Add"(%60, %81) : (tensor<"S"x("P"+"S")xf32>, tensor<"S"x("P"+"S")xf32>) -> tensor<"S"x("P"+"S")xf32>
// CHECK-NEXT:   %83 = "onnx.Add"(%51, %82) : (tensor<"B"x"Hq"x"S"x("P"+"S")xf32>, tensor<"S"x("P"+"S")xf32>) -> tensor<"B"x"Hq"x"S"x("P"+"S")xf32>
// CHECK-NEXT:   %84 = "onnx.Softmax"(%83) {axis = -1} : (tensor<"B"x"Hq"x"S"x("P"+"S")xf32>) -> tensor<"B"x"Hq"x"S"x("P"+"S")xf32>
// CHECK-NEXT:   %85 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %86 = "onnx.ReduceMax"(%82, %85) {keepdims = 1} : (tensor<"S"x("P"+"S")xf32>, tensor<1xi64>) -> tensor<"S"x1xf32>
// CHECK-NEXT:   %87 = "onnx.Constant"() {value = dense<-inf> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %88 = "onnx.Equal"(%86, %87) : (tensor<"S"x1xf32>, tensor<f32>) -> tensor<"S"x1xi1>
// CHECK-NEXT:   %89 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %90 = "onnx.Where"(%88, %89, %84) : (tensor<"S"x1xi1>, tensor<f32>, tensor<"B"x"Hq"x"S"x("P"+"S")xf32>) -> tensor<"B"x"Hq"x"S"x("P"+"S")xf32>
// CHECK-NEXT:   %y = "onnx.MatMul"(%90, %47) : (tensor<"B"x"Hq"x"S"x("P"+"S")xf32>, tensor<"B"x"Hq"x("P"+"S")x"D"xf32>) -> tensor<"B"x"Hq"x"S"x"D"xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
