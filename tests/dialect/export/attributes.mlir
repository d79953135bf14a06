// RUN: export
// Every attribute kind, empty lists included; subgraphs are exported
// recursively.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "attrs"(%x: tensor<f32>) -> ("y": tensor<f32>) {
  %y = "onnx.Identity"(%x) {int = -7, float = 1e-5, string = "a\"b\\c\0a\ff é", tensor = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, graph = onnx.graph "body"(%a: tensor<f32>) -> ("b": tensor<f32>) {
    %b = "onnx.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    onnx.return %b
  }, sparse = sparse<dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>, dense<[1.0, 5.0]> : tensor<2xf32>> : !onnx.sparse<3x4xf32>, type = tensor<2x?xf32>, seq_type = !onnx.seq<tensor<*xf32>>, unknown_type = !onnx.unknown, floats = [1.0, 2.5, -0.0, inf, nan], ints = [1, 2, 9223372036854775807], strings = ["a", ""], tensors = [dense<1> : tensor<i64>, dense<["s"]> : tensor<1xstring>], graphs = [onnx.graph "g1"() -> () {
    onnx.return
  }, onnx.graph "g2"() -> () {
    onnx.return
  }], sparse_tensors = [sparse<dense<[0]> : tensor<1xi64>, dense<[7]> : tensor<1xi32>> : !onnx.sparse<5xi32>], types = [tensor<f32>, !onnx.opt<tensor<i64>>], no_ints = [] : ints, no_floats = [] : floats, no_strings = [] : strings, no_tensors = [] : tensors, no_graphs = [] : graphs, no_sparse = [] : sparse_tensors, no_types = [] : types, "quoted name" = 1} : (tensor<f32>) -> tensor<f32>
  onnx.return %y
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "attrs"(%x: tensor<f32>) -> ("y": tensor<f32>) {
// CHECK-NEXT:   %y = "onnx.Identity"(%x) {int = -7, float = 1e-5, string = "a\"b\\c\0a\ff é", tensor = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, graph = onnx.graph "body"(%a: tensor<f32>) -> ("b": tensor<f32>) {
// CHECK-NEXT:     %b = "onnx.Neg"(%a) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:     onnx.return %b
// CHECK-NEXT:   }, sparse = sparse<dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>, dense<[1.0, 5.0]> : tensor<2xf32>> : !onnx.sparse<3x4xf32>, type = tensor<2x?xf32>, seq_type = !onnx.seq<tensor<*xf32>>, unknown_type = !onnx.unknown, floats = [1.0, 2.5, -0.0, inf, nan], ints = [1, 2, 9223372036854775807], strings = ["a", ""], tensors = [dense<1> : tensor<i64>, dense<["s"]> : tensor<1xstring>], graphs = [onnx.graph "g1"() -> () {
// CHECK-NEXT:     onnx.return
// CHECK-NEXT:   }, onnx.graph "g2"() -> () {
// CHECK-NEXT:     onnx.return
// CHECK-NEXT:   }], sparse_tensors = [sparse<dense<[0]> : tensor<1xi64>, dense<[7]> : tensor<1xi32>> : !onnx.sparse<5xi32>], types = [tensor<f32>, !onnx.opt<tensor<i64>>], no_ints = [] : ints, no_floats = [] : floats, no_strings = [] : strings, no_tensors = [] : tensors, no_graphs = [] : graphs, no_sparse = [] : sparse_tensors, no_types = [] : types, "quoted name" = 1} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   onnx.return %y
// CHECK-NEXT: }
