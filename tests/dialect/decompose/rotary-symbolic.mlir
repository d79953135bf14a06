// RUN: decompose,verify
// RotaryEmbedding of a 3-D input with symbolic sizes: the heads split off
// by a view (the head size a quotient atom), the halves as the two rows
// of a [B, S, H, 2, D/2] view, the first 2 features rotated and the rest
// taken by a Slice whose length is checked at run time.
onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%x: tensor<"B"x"S"x"W"xf32>, %cos: tensor<"B"x"S"x1xf32>, %sin: tensor<"B"x"S"x1xf32>) -> ("y": tensor<?x?x?xf32>) {
  %y = "onnx.RotaryEmbedding"(%x, %cos, %sin) {num_heads = 2, rotary_embedding_dim = 2} : (tensor<"B"x"S"x"W"xf32>, tensor<"B"x"S"x1xf32>, tensor<"B"x"S"x1xf32>) -> tensor<?x?x?xf32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 23}}
// CHECK-NEXT: onnx.graph "g"(%x: tensor<"B"x"S"x"W"xf32>, %cos: tensor<"B"x"S"x1xf32>, %sin: tensor<"B"x"S"x1xf32>) -> ("y": tensor<"B"x"S"x"W"xf32>) {
// CHECK-NEXT:   %0 = "onnx.Constant"() {value = dense<[0, 0, 2, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %1 = "onnx.Reshape"(%x, %0) : (tensor<"B"x"S"x"W"xf32>, tensor<4xi64>) -> tensor<"B"x"S"x2x"div(\"W\",2)"xf32>
// CHECK-NEXT:   %2 = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %3 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %4 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %5 = "onnx.Slice"(%1, %2, %3, %4) : (tensor<"B"x"S"x2x"div(\"W\",2)"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"B"x"S"x2x2xf32>
// CHECK-NEXT:   %6 = "onnx.Constant"() {value = dense<[0, 0, 0, 2, -1]> : tensor<5xi64>} : () -> tensor<5xi64>
// CHECK-NEXT:   %7 = "onnx.Reshape"(%5, %6) : (tensor<"B"x"S"x2x2xf32>, tensor<5xi64>) -> tensor<"B"x"S"x2x2x1xf32>
// CHECK-NEXT:   %8, %9 = "onnx.Split"(%7) {axis = 3, num_outputs = 2} : (tensor<"B"x"S"x2x2x1xf32>) -> (tensor<"B"x"S"x2x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>)
// CHECK-NEXT:   %10 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %11 = "onnx.Unsqueeze"(%cos, %10) : (tensor<"B"x"S"x1xf32>, tensor<2xi64>) -> tensor<"B"x"S"x1x1x1xf32>
// CHECK-NEXT:   %12 = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %13 = "onnx.Unsqueeze"(%sin, %12) : (tensor<"B"x"S"x1xf32>, tensor<2xi64>) -> tensor<"B"x"S"x1x1x1xf32>
// CHECK-NEXT:   %14 = "onnx.Mul"(%11, %8) : (tensor<"B"x"S"x1x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x1x1xf32>
// CHECK-NEXT:   %15 = "onnx.Mul"(%13, %9) : (tensor<"B"x"S"x1x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x1x1xf32>
// CHECK-NEXT:   %16 = "onnx.Sub"(%14, %15) : (tensor<"B"x"S"x2x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x1x1xf32>
// CHECK-NEXT:   %17 = "onnx.Mul"(%13, %8) : (tensor<"B"x"S"x1x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x1x1xf32>
// CHECK-NEXT:   %18 = "onnx.Mul"(%11, %9) : (tensor<"B"x"S"x1x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x1x1xf32>
// CHECK-NEXT:   %19 = "onnx.Add"(%17, %18) : (tensor<"B"x"S"x2x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x1x1xf32>
// CHECK-NEXT:   %20 = "onnx.Concat"(%16, %19) {axis = 3} : (tensor<"B"x"S"x2x1x1xf32>, tensor<"B"x"S"x2x1x1xf32>) -> tensor<"B"x"S"x2x2x1xf32>
// CHECK-NEXT:   %21 = "onnx.Constant"() {value = dense<[0, 0, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %22 = "onnx.Reshape"(%20, %21) : (tensor<"B"x"S"x2x2x1xf32>, tensor<4xi64>) -> tensor<"B"x"S"x2x2xf32>
// CHECK-NEXT:   %23 = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %24 = "onnx.Constant"() {value = dense<[9223372036854775807]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %25 = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %26 = "onnx.Slice"(%1, %23, %24, %25) : (tensor<"B"x"S"x2x"div(\"W\",2)"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"B"x"S"x2x("div(\"W\",2)"-2)xf32>
// CHECK-NEXT:   %27 = "onnx.Concat"(%22, %26) {axis = 3} : (tensor<"B"x"S"x2x2xf32>, tensor<"B"x"S"x2x("div(\"W\",2)"-2)xf32>) -> tensor<"B"x"S"x2x"div(\"W\",2)"xf32>
// CHECK-NEXT:   %28 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %y = "onnx.Reshape"(%27, %28) : (tensor<"B"x"S"x2x"div(\"W\",2)"xf32>, tensor<3xi64>) -> tensor<"B"x"S"x"W"xf32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
