// RUN: decompose,verify
// DeformConv as bilinear sampling at offset taps and a batched MatMul
// (decompose/deform_conv.rs): a 1x1 kernel with a mask and a bias; an
// unknown spatial size stays.
onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>, %off: tensor<1x2x2x2xf32>, %b: tensor<1xf32>, %m: tensor<1x1x2x2xf32>, %u: tensor<1x1x"H"x2xf32>, %uoff: tensor<1x2x"H"x2xf32>) -> ("y": tensor<1x1x2x2xf32>, "z": tensor<1x1x"H"x2xf32>) {
  %y = "onnx.DeformConv"(%x, %w, %off, %b, %m) {kernel_shape = [1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, tensor<1x2x2x2xf32>, tensor<1xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %z = "onnx.DeformConv"(%u, %w, %uoff) {kernel_shape = [1, 1]} : (tensor<1x1x"H"x2xf32>, tensor<1x1x1x1xf32>, tensor<1x2x"H"x2xf32>) -> tensor<1x1x"H"x2xf32>
  onnx.return %y, %z
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 22}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>, %off: tensor<1x2x2x2xf32>, %b: tensor<1xf32>, %m: tensor<1x1x2x2xf32>, %u: tensor<1x1x"H"x2xf32>, %uoff: tensor<1x2x"H"x2xf32>) -> ("y": tensor<1x1x2x2xf32>, "z": tensor<1x1x"H"x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[1, 1, 1, 2, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%off, %0) : (tensor<1x2x2x2xf32>, tensor<5xi64>) -> tensor<1x1x1x2x4xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %3 = "onnx.Gather"(%1, %2) {axis = 3} : (tensor<1x1x1x2x4xf32>, tensor<i64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[1, 1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %5 = "onnx.Reshape"(%3, %4) : (tensor<1x1x1x4xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0.0, 0.0, 1.0, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:   %7 = "onnx.Add"(%5, %6) : (tensor<1x1x4xf32>, tensor<4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %8 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %9 = "onnx.Gather"(%1, %8) {axis = 3} : (tensor<1x1x1x2x4xf32>, tensor<i64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[1, 1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %11 = "onnx.Reshape"(%9, %10) : (tensor<1x1x1x4xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[0.0, 1.0, 0.0, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:   %13 = "onnx.Add"(%11, %12) : (tensor<1x1x4xf32>, tensor<4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %14 = "onnx.Floor"(%7) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %15 = "onnx.Floor"(%13) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %16 = "onnx.Sub"(%7, %14) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %17 = "onnx.Sub"(%13, %15) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %18 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %19 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %20 = "onnx.Sub"(%18, %16) : (tensor<f32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %21 = "onnx.Sub"(%18, %17) : (tensor<f32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %22 = "onnx.Constant"() {value = dense<[1, 1, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %23 = "onnx.Reshape"(%x, %22) : (tensor<1x1x2x2xf32>, tensor<4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[1, 1, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %26 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %27 = "onnx.GreaterOrEqual"(%14, %25) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %28 = "onnx.LessOrEqual"(%14, %26) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %29 = "onnx.And"(%27, %28) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %30 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %31 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %32 = "onnx.GreaterOrEqual"(%15, %30) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %33 = "onnx.LessOrEqual"(%15, %31) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %34 = "onnx.And"(%32, %33) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %35 = "onnx.And"(%29, %34) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %36 = "onnx.Mul"(%20, %21) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %37 = "onnx.Where"(%35, %36, %19) : (tensor<1x1x4xi1>, tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %38 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %39 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %40 = "onnx.Max"(%14, %38) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %41 = "onnx.Min"(%40, %39) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %42 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %43 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %44 = "onnx.Max"(%15, %42) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %45 = "onnx.Min"(%44, %43) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %46 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %47 = "onnx.Mul"(%41, %46) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %48 = "onnx.Add"(%47, %45) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %49 = "onnx.Cast"(%48) {to = 7} : (tensor<1x1x4xf32>) -> tensor<1x1x4xi64>
// CHECK-NEXT:   %50 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %51 = "onnx.Unsqueeze"(%49, %50) : (tensor<1x1x4xi64>, tensor<1xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %52 = "onnx.Expand"(%51, %24) : (tensor<1x1x1x4xi64>, tensor<4xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %53 = "onnx.GatherElements"(%23, %52) {axis = 3} : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %54 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %55 = "onnx.Unsqueeze"(%37, %54) : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %56 = "onnx.Mul"(%53, %55) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %57 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %58 = "onnx.Add"(%15, %57) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %59 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %60 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %61 = "onnx.GreaterOrEqual"(%14, %59) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %62 = "onnx.LessOrEqual"(%14, %60) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %63 = "onnx.And"(%61, %62) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %64 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %65 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %66 = "onnx.GreaterOrEqual"(%58, %64) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %67 = "onnx.LessOrEqual"(%58, %65) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %68 = "onnx.And"(%66, %67) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %69 = "onnx.And"(%63, %68) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %70 = "onnx.Mul"(%20, %17) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %71 = "onnx.Where"(%69, %70, %19) : (tensor<1x1x4xi1>, tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %72 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %73 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %74 = "onnx.Max"(%14, %72) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %75 = "onnx.Min"(%74, %73) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %76 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %77 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %78 = "onnx.Max"(%58, %76) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %79 = "onnx.Min"(%78, %77) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %80 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %81 = "onnx.Mul"(%75, %80) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %82 = "onnx.Add"(%81, %79) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %83 = "onnx.Cast"(%82) {to = 7} : (tensor<1x1x4xf32>) -> tensor<1x1x4xi64>
// CHECK-NEXT:   %84 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %85 = "onnx.Unsqueeze"(%83, %84) : (tensor<1x1x4xi64>, tensor<1xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %86 = "onnx.Expand"(%85, %24) : (tensor<1x1x1x4xi64>, tensor<4xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %87 = "onnx.GatherElements"(%23, %86) {axis = 3} : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %88 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %89 = "onnx.Unsqueeze"(%71, %88) : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %90 = "onnx.Mul"(%87, %89) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %91 = "onnx.Add"(%56, %90) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %92 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %93 = "onnx.Add"(%14, %92) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %94 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %95 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %96 = "onnx.GreaterOrEqual"(%93, %94) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %97 = "onnx.LessOrEqual"(%93, %95) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %98 = "onnx.And"(%96, %97) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %99 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %100 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %101 = "onnx.GreaterOrEqual"(%15, %99) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %102 = "onnx.LessOrEqual"(%15, %100) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %103 = "onnx.And"(%101, %102) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %104 = "onnx.And"(%98, %103) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %105 = "onnx.Mul"(%16, %21) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %106 = "onnx.Where"(%104, %105, %19) : (tensor<1x1x4xi1>, tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %107 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %108 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %109 = "onnx.Max"(%93, %107) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %110 = "onnx.Min"(%109, %108) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %111 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %112 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %113 = "onnx.Max"(%15, %111) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %114 = "onnx.Min"(%113, %112) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %115 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %116 = "onnx.Mul"(%110, %115) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %117 = "onnx.Add"(%116, %114) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %118 = "onnx.Cast"(%117) {to = 7} : (tensor<1x1x4xf32>) -> tensor<1x1x4xi64>
// CHECK-NEXT:   %119 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %120 = "onnx.Unsqueeze"(%118, %119) : (tensor<1x1x4xi64>, tensor<1xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %121 = "onnx.Expand"(%120, %24) : (tensor<1x1x1x4xi64>, tensor<4xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %122 = "onnx.GatherElements"(%23, %121) {axis = 3} : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %123 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %124 = "onnx.Unsqueeze"(%106, %123) : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %125 = "onnx.Mul"(%122, %124) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %126 = "onnx.Add"(%91, %125) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %127 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %128 = "onnx.Add"(%14, %127) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %129 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %130 = "onnx.Add"(%15, %129) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %131 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %132 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %133 = "onnx.GreaterOrEqual"(%128, %131) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %134 = "onnx.LessOrEqual"(%128, %132) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %135 = "onnx.And"(%133, %134) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %136 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %137 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %138 = "onnx.GreaterOrEqual"(%130, %136) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %139 = "onnx.LessOrEqual"(%130, %137) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %140 = "onnx.And"(%138, %139) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %141 = "onnx.And"(%135, %140) : (tensor<1x1x4xi1>, tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
// CHECK-NEXT:   %142 = "onnx.Mul"(%16, %17) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %143 = "onnx.Where"(%141, %142, %19) : (tensor<1x1x4xi1>, tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %144 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %145 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %146 = "onnx.Max"(%128, %144) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %147 = "onnx.Min"(%146, %145) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %148 = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %149 = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %150 = "onnx.Max"(%130, %148) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %151 = "onnx.Min"(%150, %149) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %152 = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %153 = "onnx.Mul"(%147, %152) : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %154 = "onnx.Add"(%153, %151) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT:   %155 = "onnx.Cast"(%154) {to = 7} : (tensor<1x1x4xf32>) -> tensor<1x1x4xi64>
// CHECK-NEXT:   %156 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %157 = "onnx.Unsqueeze"(%155, %156) : (tensor<1x1x4xi64>, tensor<1xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %158 = "onnx.Expand"(%157, %24) : (tensor<1x1x1x4xi64>, tensor<4xi64>) -> tensor<1x1x1x4xi64>
// CHECK-NEXT:   %159 = "onnx.GatherElements"(%23, %158) {axis = 3} : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %160 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %161 = "onnx.Unsqueeze"(%143, %160) : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %162 = "onnx.Mul"(%159, %161) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %163 = "onnx.Add"(%126, %162) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %164 = "onnx.Constant"() {value = dense<[1, 1, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %165 = "onnx.Reshape"(%m, %164) : (tensor<1x1x2x2xf32>, tensor<4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %166 = "onnx.Mul"(%163, %165) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %167 = "onnx.Constant"() {value = dense<[1, 1, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %168 = "onnx.Reshape"(%166, %167) : (tensor<1x1x1x4xf32>, tensor<4xi64>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %169 = "onnx.Constant"() {value = dense<1> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %170 = "onnx.Reshape"(%w, %169) : (tensor<1x1x1x1xf32>, tensor<3xi64>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %171 = "onnx.MatMul"(%170, %168) : (tensor<1x1x1xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT:   %172 = "onnx.Constant"() {value = dense<[1, 1, 2, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %173 = "onnx.Reshape"(%171, %172) : (tensor<1x1x1x4xf32>, tensor<4xi64>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %174 = "onnx.Constant"() {value = dense<1> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %175 = "onnx.Reshape"(%b, %174) : (tensor<1xf32>, tensor<3xi64>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   %y = "onnx.Add"(%173, %175) : (tensor<1x1x2x2xf32>, tensor<1x1x1xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:   %z = "onnx.DeformConv"(%u, %w, %uoff) {kernel_shape = [1, 1]} : (tensor<1x1x"H"x2xf32>, tensor<1x1x1x1xf32>, tensor<1x2x"H"x2xf32>) -> tensor<1x1x"H"x2xf32>
// CHECK-NEXT:   onnx.return %y, %z
// CHECK-NEXT: }
