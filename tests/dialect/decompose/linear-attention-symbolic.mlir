// RUN: decompose
// LinearAttention over a symbolic sequence length cannot be unrolled: it
// stays as it is.
onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%q: tensor<1x"T"x2xf32>, %k: tensor<1x"T"x2xf32>, %v: tensor<1x"T"x2xf32>) -> ("y": tensor<1x"T"x2xf32>, "state": tensor<1x1x2x2xf32>) {
  %y, %state = "onnx.LinearAttention"(%q, %k, %v) {kv_num_heads = 1, q_num_heads = 1, update_rule = "linear"} : (tensor<1x"T"x2xf32>, tensor<1x"T"x2xf32>, tensor<1x"T"x2xf32>) -> (tensor<1x"T"x2xf32>, tensor<1x1x2x2xf32>)
  onnx.return %y, %state
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 27}}
// CHECK-NEXT: onnx.graph "g"(%q: tensor<1x"T"x2xf32>, %k: tensor<1x"T"x2xf32>, %v: tensor<1x"T"x2xf32>) -> ("y": tensor<1x"T"x2xf32>, "state": tensor<1x1x2x2xf32>) {
// CHECK-NEXT:   %y, %state = "onnx.LinearAttention"(%q, %k, %v) {kv_num_heads = 1, q_num_heads = 1, update_rule = "linear"} : (tensor<1x"T"x2xf32>, tensor<1x"T"x2xf32>, tensor<1x"T"x2xf32>) -> (tensor<1x"T"x2xf32>, tensor<1x1x2x2xf32>)
// CHECK-NEXT:   onnx.return %y, %state
// CHECK-NEXT: }
