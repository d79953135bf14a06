// RUN: decompose,dce,verify
// Scan-8: a batch axis before the sequence axis. Each batch entry is
// scanned on its own (sliced off with Slice + Squeeze: Constant holds
// floats only at opset 8) and the results stacked along the batch axis.
onnx.model {ir_version = 10, opset_imports = {"" = 8}}
onnx.graph "g"(%init: tensor<1x2xf32>, %xs: tensor<1x2x2xf32>) -> ("final": tensor<1x2xf32>, "stacked": tensor<1x2x2xf32>) {
  %final, %stacked = "onnx.Scan"(none, %init, %xs) {body = onnx.graph "step"(%s: tensor<2xf32>, %x: tensor<2xf32>) -> ("s_out": tensor<2xf32>, "y": tensor<2xf32>) {
    %s_out = "onnx.Add"(%s, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %y = "onnx.Identity"(%s_out) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %s_out, %y
  }, num_scan_inputs = 1} : (none, tensor<1x2xf32>, tensor<1x2x2xf32>) -> (tensor<1x2xf32>, tensor<1x2x2xf32>)
  onnx.return %final, %stacked
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 8}}
// CHECK-NEXT: onnx.graph "g"(%init: tensor<1x2xf32>, %xs: tensor<1x2x2xf32>) -> ("final": tensor<1x2xf32>, "stacked": tensor<1x2x2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Slice"(%init) {starts = [0], ends = [1], axes = [0]} : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %1 = "onnx.Squeeze"(%0) {axes = [0]} : (tensor<1x2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %2 = "onnx.Slice"(%xs) {starts = [0], ends = [1], axes = [0]} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT:   %3 = "onnx.Squeeze"(%2) {axes = [0]} : (tensor<1x2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %4 = "onnx.Slice"(%3) {starts = [0], ends = [1], axes = [0]} : (tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %5 = "onnx.Squeeze"(%4) {axes = [0]} : (tensor<1x2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %6 = "onnx.Add"(%1, %5) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %7 = "onnx.Identity"(%6) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %8 = "onnx.Slice"(%3) {starts = [1], ends = [2], axes = [0]} : (tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %9 = "onnx.Squeeze"(%8) {axes = [0]} : (tensor<1x2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %10 = "onnx.Add"(%6, %9) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %11 = "onnx.Identity"(%10) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %12 = "onnx.Unsqueeze"(%7) {axes = [0]} : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %13 = "onnx.Unsqueeze"(%11) {axes = [0]} : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %14 = "onnx.Concat"(%12, %13) {axis = 0} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %final = "onnx.Unsqueeze"(%10) {axes = [0]} : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   %stacked = "onnx.Unsqueeze"(%14) {axes = [0]} : (tensor<2x2xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT:   onnx.return %final, %stacked
// CHECK-NEXT: }
