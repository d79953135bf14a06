// RUN: infer-shapes
// Image-space ops (ops/vision.rs): Resize to sizes (on axes, keeping the
// aspect ratio) or by scales (floor(d * scale)), GridSample to the grid's
// spatial dims, AffineGrid from the size operand, RoiAlign and MaxRoiPool
// one pooled map per region, NonMaxSuppression [?, 3].
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "vision"(%x: tensor<"N"x3x20x30xf32>, %grid: tensor<"N"x7x9x2xf32>, %theta: tensor<2x2x3xf32>, %rois: tensor<"R"x4xf32>, %batch: tensor<"R"xi64>, %roi5: tensor<"R"x5xf32>, %boxes: tensor<1x6x4xf32>, %scores: tensor<1x2x6xf32>, %sizes_in: tensor<4xi64>) -> () {
  %scales = "onnx.Constant"() {value = dense<[1.0, 1.0, 1.5, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %scaled = "onnx.Resize"(%x, none, %scales) {mode = "linear"} : (tensor<"N"x3x20x30xf32>, none, tensor<4xf32>) -> !onnx.unknown
  %sizes = "onnx.Constant"() {value = dense<[40, 40]> : tensor<2xi64>} : () -> tensor<2xi64>
  %fit = "onnx.Resize"(%x, none, none, %sizes) {axes = [2, 3], keep_aspect_ratio_policy = "not_larger"} : (tensor<"N"x3x20x30xf32>, none, none, tensor<2xi64>) -> !onnx.unknown
  %to_sizes = "onnx.Resize"(%x, none, none, %sizes_in) : (tensor<"N"x3x20x30xf32>, none, none, tensor<4xi64>) -> !onnx.unknown
  %sampled = "onnx.GridSample"(%x, %grid) {mode = "bilinear"} : (tensor<"N"x3x20x30xf32>, tensor<"N"x7x9x2xf32>) -> !onnx.unknown
  %size = "onnx.Constant"() {value = dense<[2, 3, 5, 6]> : tensor<4xi64>} : () -> tensor<4xi64>
  %affine = "onnx.AffineGrid"(%theta, %size) : (tensor<2x2x3xf32>, tensor<4xi64>) -> !onnx.unknown
  %aligned = "onnx.RoiAlign"(%x, %rois, %batch) {output_height = 4, output_width = 5} : (tensor<"N"x3x20x30xf32>, tensor<"R"x4xf32>, tensor<"R"xi64>) -> !onnx.unknown
  %pooled = "onnx.MaxRoiPool"(%x, %roi5) {pooled_shape = [2, 3]} : (tensor<"N"x3x20x30xf32>, tensor<"R"x5xf32>) -> !onnx.unknown
  %kept = "onnx.NonMaxSuppression"(%boxes, %scores) : (tensor<1x6x4xf32>, tensor<1x2x6xf32>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "vision"(%x: tensor<"N"x3x20x30xf32>, %grid: tensor<"N"x7x9x2xf32>, %theta: tensor<2x2x3xf32>, %rois: tensor<"R"x4xf32>, %batch: tensor<"R"xi64>, %roi5: tensor<"R"x5xf32>, %boxes: tensor<1x6x4xf32>, %scores: tensor<1x2x6xf32>, %sizes_in: tensor<4xi64>) -> () {
// CHECK-NEXT:   %scales = "onnx.Constant"() {value = dense<[1.0, 1.0, 1.5, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT:   %scaled = "onnx.Resize"(%x, none, %scales) {mode = "linear"} : (tensor<"N"x3x20x30xf32>, none, tensor<4xf32>) -> tensor<"N"x3x30x15xf32>
// CHECK-NEXT:   %sizes = "onnx.Constant"() {value = dense<40> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %fit = "onnx.Resize"(%x, none, none, %sizes) {axes = [2, 3], keep_aspect_ratio_policy = "not_larger"} : (tensor<"N"x3x20x30xf32>, none, none, tensor<2xi64>) -> tensor<"N"x3x27x40xf32>
// CHECK-NEXT:   %to_sizes = "onnx.Resize"(%x, none, none, %sizes_in) : (tensor<"N"x3x20x30xf32>, none, none, tensor<4xi64>) -> tensor<?x?x?x?xf32>
// CHECK-NEXT:   %sampled = "onnx.GridSample"(%x, %grid) {mode = "bilinear"} : (tensor<"N"x3x20x30xf32>, tensor<"N"x7x9x2xf32>) -> tensor<"N"x3x7x9xf32>
// CHECK-NEXT:   %size = "onnx.Constant"() {value = dense<[2, 3, 5, 6]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %affine = "onnx.AffineGrid"(%theta, %size) : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x5x6x2xf32>
// CHECK-NEXT:   %aligned = "onnx.RoiAlign"(%x, %rois, %batch) {output_height = 4, output_width = 5} : (tensor<"N"x3x20x30xf32>, tensor<"R"x4xf32>, tensor<"R"xi64>) -> tensor<"R"x3x4x5xf32>
// CHECK-NEXT:   %pooled = "onnx.MaxRoiPool"(%x, %roi5) {pooled_shape = [2, 3]} : (tensor<"N"x3x20x30xf32>, tensor<"R"x5xf32>) -> tensor<"R"x3x2x3xf32>
// CHECK-NEXT:   %kept = "onnx.NonMaxSuppression"(%boxes, %scores) : (tensor<1x6x4xf32>, tensor<1x2x6xf32>) -> tensor<?x3xi64>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
