// RUN: infer-shapes
// Recurrent layers (ops/rnn.rs): Y is [seq, directions, batch, hidden]
// (layout 0) or [batch, seq, directions, hidden] (layout 1), Y_h and Y_c
// [directions, batch, hidden]; hidden_size comes from the attribute or the
// weights, the batch from any input that has it.
// REFERENCE: the last GRU has no hidden_size: the spec's W is
// [num_directions, 3*hidden_size, input_size], so it is 5; onnx's
// inference leaves the dim unknown and onnxruntime requires the attribute.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "rnn"(%x: tensor<"S"x"B"x10xf32>, %w: tensor<2x24x10xf32>, %r: tensor<2x24x6xf32>, %gw: tensor<1x15x10xf32>, %gr: tensor<1x15x5xf32>, %xb: tensor<"B"x"S"x10xf32>, %rw: tensor<1x4x10xf32>, %rr: tensor<1x4x4xf32>, %lens: tensor<"B"xi32>) -> () {
  %y, %y_h, %y_c = "onnx.LSTM"(%x, %w, %r) {direction = "bidirectional", hidden_size = 6} : (tensor<"S"x"B"x10xf32>, tensor<2x24x10xf32>, tensor<2x24x6xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %gy, %gy_h = "onnx.GRU"(%x, %gw, %gr) {hidden_size = 5} : (tensor<"S"x"B"x10xf32>, tensor<1x15x10xf32>, tensor<1x15x5xf32>) -> (!onnx.unknown, !onnx.unknown)
  %ry, %ry_h = "onnx.RNN"(%xb, %rw, %rr, none, %lens) {layout = 1, hidden_size = 4} : (tensor<"B"x"S"x10xf32>, tensor<1x4x10xf32>, tensor<1x4x4xf32>, none, tensor<"B"xi32>) -> (!onnx.unknown, !onnx.unknown)
  _, %only_h = "onnx.GRU"(%xb, %gw, %gr) {layout = 1} : (tensor<"B"x"S"x10xf32>, tensor<1x15x10xf32>, tensor<1x15x5xf32>) -> (none, !onnx.unknown)
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "rnn"(%x: tensor<"S"x"B"x10xf32>, %w: tensor<2x24x10xf32>, %r: tensor<2x24x6xf32>, %gw: tensor<1x15x10xf32>, %gr: tensor<1x15x5xf32>, %xb: tensor<"B"x"S"x10xf32>, %rw: tensor<1x4x10xf32>, %rr: tensor<1x4x4xf32>, %lens: tensor<"B"xi32>) -> () {
// CHECK-NEXT:   %y, %y_h, %y_c = "onnx.LSTM"(%x, %w, %r) {direction = "bidirectional", hidden_size = 6} : (tensor<"S"x"B"x10xf32>, tensor<2x24x10xf32>, tensor<2x24x6xf32>) -> (tensor<"S"x2x"B"x6xf32>, tensor<2x"B"x6xf32>, tensor<2x"B"x6xf32>)
// CHECK-NEXT:   %gy, %gy_h = "onnx.GRU"(%x, %gw, %gr) {hidden_size = 5} : (tensor<"S"x"B"x10xf32>, tensor<1x15x10xf32>, tensor<1x15x5xf32>) -> (tensor<"S"x1x"B"x5xf32>, tensor<1x"B"x5xf32>)
// CHECK-NEXT:   %ry, %ry_h = "onnx.RNN"(%xb, %rw, %rr, none, %lens) {layout = 1, hidden_size = 4} : (tensor<"B"x"S"x10xf32>, tensor<1x4x10xf32>, tensor<1x4x4xf32>, none, tensor<"B"xi32>) -> (tensor<"B"x"S"x1x4xf32>, tensor<"B"x1x4xf32>)
// CHECK-NEXT:   _, %only_h = "onnx.GRU"(%xb, %gw, %gr) {layout = 1} : (tensor<"B"x"S"x10xf32>, tensor<1x15x10xf32>, tensor<1x15x5xf32>) -> (none, tensor<"B"x1x5xf32>)
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
