// RUN: infer-shapes
// Layout ops (ops/layout.rs): shapes move, split, join and get padded;
// integer values flow through Shape, Gather, Slice, Concat, Unsqueeze,
// Squeeze, Range and ConstantOfShape, so that shape arithmetic on dim_params
// gives symbolic results ("M"+2*"N" for a Concat of three inputs, 12*"N"
// for a Flatten).
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "layout"(%x: tensor<"N"x3x4xf32>, %y: tensor<"M"x3x4xf32>, %img: tensor<1x8x6x6xf32>, %sq: tensor<1x"S"x1xf32>, %target: tensor<3xi64>, %m: tensor<5x5xf32>) -> () {
  %shape = "onnx.Shape"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %tail = "onnx.Shape"(%x) {start = -2} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %size = "onnx.Size"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %keep = "onnx.Constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %reshaped = "onnx.Reshape"(%x, %keep) : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  %unknown_target = "onnx.Reshape"(%x, %target) : (tensor<"N"x3x4xf32>, tensor<3xi64>) -> !onnx.unknown
  %flat = "onnx.Flatten"(%x) {axis = 0} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %flat2 = "onnx.Flatten"(%x) {axis = 2} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %axes = "onnx.Constant"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %squeezed = "onnx.Squeeze"(%sq, %axes) : (tensor<1x"S"x1xf32>, tensor<2xi64>) -> !onnx.unknown
  %squeezed_all = "onnx.Squeeze"(%sq) : (tensor<1x"S"x1xf32>) -> !onnx.unknown
  %unsqueezed = "onnx.Unsqueeze"(%x, %axes) : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  %transposed = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %reversed = "onnx.Transpose"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %joined = "onnx.Concat"(%x, %y, %x) {axis = 0} : (tensor<"N"x3x4xf32>, tensor<"M"x3x4xf32>, tensor<"N"x3x4xf32>) -> !onnx.unknown
  %a, %b, %c = "onnx.Split"(%img) {axis = 1, num_outputs = 3} : (tensor<1x8x6x6xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  %sizes = "onnx.Constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %p, %q = "onnx.Split"(%x, %sizes) {axis = 2} : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> (!onnx.unknown, !onnx.unknown)
  %starts = "onnx.Constant"() {value = dense<[-1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = "onnx.Constant"() {value = dense<[-100, 1000]> : tensor<2xi64>} : () -> tensor<2xi64>
  %slice_axes = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = "onnx.Constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sliced = "onnx.Slice"(%x, %starts, %ends, %slice_axes, %steps) : (tensor<"N"x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> !onnx.unknown
  %expand_to = "onnx.Constant"() {value = dense<[2, 1, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %expanded = "onnx.Expand"(%x, %expand_to) : (tensor<"N"x3x4xf32>, tensor<4xi64>) -> !onnx.unknown
  %repeats = "onnx.Constant"() {value = dense<[2, 1, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %tiled = "onnx.Tile"(%x, %repeats) : (tensor<"N"x3x4xf32>, tensor<3xi64>) -> !onnx.unknown
  %pads = "onnx.Constant"() {value = dense<[1, 0, 2, 2, 0, -1]> : tensor<6xi64>} : () -> tensor<6xi64>
  %padded = "onnx.Pad"(%x, %pads) {mode = "constant"} : (tensor<"N"x3x4xf32>, tensor<6xi64>) -> !onnx.unknown
  %pad_axes = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %edge_pads = "onnx.Constant"() {value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %padded_axis = "onnx.Pad"(%x, %edge_pads, none, %pad_axes) {mode = "edge"} : (tensor<"N"x3x4xf32>, tensor<2xi64>, none, tensor<1xi64>) -> !onnx.unknown
  %d2s = "onnx.DepthToSpace"(%img) {blocksize = 2, mode = "CRD"} : (tensor<1x8x6x6xf32>) -> !onnx.unknown
  %s2d = "onnx.SpaceToDepth"(%img) {blocksize = 3} : (tensor<1x8x6x6xf32>) -> !onnx.unknown
  %crop_shape = "onnx.Constant"() {value = dense<[4, 9]> : tensor<2xi64>} : () -> tensor<2xi64>
  %cropped = "onnx.CenterCropPad"(%img, %crop_shape) {axes = [2, 3]} : (tensor<1x8x6x6xf32>, tensor<2xi64>) -> !onnx.unknown
  %same = "onnx.Identity"(%x) : (tensor<"N"x3x4xf32>) -> !onnx.unknown
  %ints = "onnx.Constant"() {value_ints = [1, 2, 3]} : () -> !onnx.unknown
  %scalar = "onnx.Constant"() {value_float = 0.5} : () -> !onnx.unknown
  %filled = "onnx.ConstantOfShape"(%tail) {value = dense<[7]> : tensor<1xi32>} : (!onnx.unknown) -> !onnx.unknown
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %first = "onnx.Gather"(%shape, %zero) : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %range = "onnx.Range"(%zero, %first, %one) : (tensor<i64>, !onnx.unknown, tensor<i64>) -> !onnx.unknown
  %stepped = "onnx.Constant"() {value = dense<[1.0, 10.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %start = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %limit = "onnx.Constant"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %delta = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %frange = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  %eye = "onnx.EyeLike"(%m) {dtype = 7, k = 1} : (tensor<5x5xf32>) -> !onnx.unknown
  %upper = "onnx.Trilu"(%m, %one) : (tensor<5x5xf32>, tensor<i64>) -> !onnx.unknown
  %minus_one = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %both = "onnx.Shape"(%joined) : (!onnx.unknown) -> !onnx.unknown
  %from = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %to = "onnx.Constant"() {value = dense<[1000]> : tensor<1xi64>} : () -> tensor<1xi64>
  %rows = "onnx.Slice"(%both, %from, %to) : (!onnx.unknown, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %flat_shape = "onnx.Concat"(%minus_one, %rows) {axis = 0} : (tensor<1xi64>, !onnx.unknown) -> !onnx.unknown
  %viewed = "onnx.Reshape"(%joined, %flat_shape) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "layout"(%x: tensor<"N"x3x4xf32>, %y: tensor<"M"x3x4xf32>, %img: tensor<1x8x6x6xf32>, %sq: tensor<1x"S"x1xf32>, %target: tensor<3xi64>, %m: tensor<5x5xf32>) -> () {
// CHECK-NEXT:   %shape = "onnx.Shape"(%x) : (tensor<"N"x3x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %tail = "onnx.Shape"(%x) {start = -2} : (tensor<"N"x3x4xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %size = "onnx.Size"(%x) : (tensor<"N"x3x4xf32>) -> tensor<i64>
// CHECK-NEXT:   %keep = "onnx.Constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %reshaped = "onnx.Reshape"(%x, %keep) : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> tensor<"N"x12xf32>
// CHECK-NEXT:   %unknown_target = "onnx.Reshape"(%x, %target) : (tensor<"N"x3x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
// CHECK-NEXT:   %flat = "onnx.Flatten"(%x) {axis = 0} : (tensor<"N"x3x4xf32>) -> tensor<1x(12*"N")xf32>
// CHECK-NEXT:   %flat2 = "onnx.Flatten"(%x) {axis = 2} : (tensor<"N"x3x4xf32>) -> tensor<(3*"N")x4xf32>
// CHECK-NEXT:   %axes = "onnx.Constant"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %squeezed = "onnx.Squeeze"(%sq, %axes) : (tensor<1x"S"x1xf32>, tensor<2xi64>) -> tensor<"S"xf32>
// CHECK-NEXT:   %squeezed_all = "onnx.Squeeze"(%sq) : (tensor<1x"S"x1xf32>) -> tensor<*xf32>
// CHECK-NEXT:   %unsqueezed = "onnx.Unsqueeze"(%x, %axes) : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> tensor<1x"N"x1x3x4xf32>
// CHECK-NEXT:   %transposed = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<"N"x3x4xf32>) -> tensor<4x"N"x3xf32>
// CHECK-NEXT:   %reversed = "onnx.Transpose"(%x) : (tensor<"N"x3x4xf32>) -> tensor<4x3x"N"xf32>
// CHECK-NEXT:   %joined = "onnx.Concat"(%x, %y, %x) {axis = 0} : (tensor<"N"x3x4xf32>, tensor<"M"x3x4xf32>, tensor<"N"x3x4xf32>) -> tensor<("M"+2*"N")x3x4xf32>
// CHECK-NEXT:   %a, %b, %c = "onnx.Split"(%img) {axis = 1, num_outputs = 3} : (tensor<1x8x6x6xf32>) -> (tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>, tensor<1x2x6x6xf32>)
// CHECK-NEXT:   %sizes = "onnx.Constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %p, %q = "onnx.Split"(%x, %sizes) {axis = 2} : (tensor<"N"x3x4xf32>, tensor<2xi64>) -> (tensor<"N"x3x1xf32>, tensor<"N"x3x3xf32>)
// CHECK-NEXT:   %starts = "onnx.Constant"() {value = dense<[-1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %ends = "onnx.Constant"() {value = dense<[-100, 1000]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %slice_axes = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %steps = "onnx.Constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %sliced = "onnx.Slice"(%x, %starts, %ends, %slice_axes, %steps) : (tensor<"N"x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<"N"x3x2xf32>
// CHECK-NEXT:   %expand_to = "onnx.Constant"() {value = dense<[2, 1, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
// CHECK-NEXT:   %expanded = "onnx.Expand"(%x, %expand_to) : (tensor<"N"x3x4xf32>, tensor<4xi64>) -> tensor<2x"N"x3x4xf32>
// CHECK-NEXT:   %repeats = "onnx.Constant"() {value = dense<[2, 1, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-NEXT:   %tiled = "onnx.Tile"(%x, %repeats) : (tensor<"N"x3x4xf32>, tensor<3xi64>) -> tensor<(2*"N")x3x12xf32>
// CHECK-NEXT:   %pads = "onnx.Constant"() {value = dense<[1, 0, 2, 2, 0, -1]> : tensor<6xi64>} : () -> tensor<6xi64>
// CHECK-NEXT:   %padded = "onnx.Pad"(%x, %pads) {mode = "constant"} : (tensor<"N"x3x4xf32>, tensor<6xi64>) -> tensor<("N"+3)x3x5xf32>
// CHECK-NEXT:   %pad_axes = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %edge_pads = "onnx.Constant"() {value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %padded_axis = "onnx.Pad"(%x, %edge_pads, none, %pad_axes) {mode = "edge"} : (tensor<"N"x3x4xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<"N"x3x8xf32>
// CHECK-NEXT:   %d2s = "onnx.DepthToSpace"(%img) {blocksize = 2, mode = "CRD"} : (tensor<1x8x6x6xf32>) -> tensor<1x2x12x12xf32>
// CHECK-NEXT:   %s2d = "onnx.SpaceToDepth"(%img) {blocksize = 3} : (tensor<1x8x6x6xf32>) -> tensor<1x72x2x2xf32>
// CHECK-NEXT:   %crop_shape = "onnx.Constant"() {value = dense<[4, 9]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %cropped = "onnx.CenterCropPad"(%img, %crop_shape) {axes = [2, 3]} : (tensor<1x8x6x6xf32>, tensor<2xi64>) -> tensor<1x8x4x9xf32>
// CHECK-NEXT:   %same = "onnx.Identity"(%x) : (tensor<"N"x3x4xf32>) -> tensor<"N"x3x4xf32>
// CHECK-NEXT:   %ints = "onnx.Constant"() {value_ints = [1, 2, 3]} : () -> tensor<3xi64>
// CHECK-NEXT:   %scalar = "onnx.Constant"() {value_float = 0.5} : () -> tensor<f32>
// CHECK-NEXT:   %filled = "onnx.ConstantOfShape"(%tail) {value = dense<[7]> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<3x4xi32>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %first = "onnx.Gather"(%shape, %zero) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %range = "onnx.Range"(%zero, %first, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<"N"xi64>
// CHECK-NEXT:   %stepped = "onnx.Constant"() {value = dense<[1.0, 10.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT:   %start = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %limit = "onnx.Constant"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %delta = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %frange = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:   %eye = "onnx.EyeLike"(%m) {dtype = 7, k = 1} : (tensor<5x5xf32>) -> tensor<5x5xi64>
// CHECK-NEXT:   %upper = "onnx.Trilu"(%m, %one) : (tensor<5x5xf32>, tensor<i64>) -> tensor<5x5xf32>
// CHECK-NEXT:   %minus_one = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %both = "onnx.Shape"(%joined) : (tensor<("M"+2*"N")x3x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:   %from = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %to = "onnx.Constant"() {value = dense<[1000]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %rows = "onnx.Slice"(%both, %from, %to) : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %flat_shape = "onnx.Concat"(%minus_one, %rows) {axis = 0} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
// CHECK-NEXT:   %viewed = "onnx.Reshape"(%joined, %flat_shape) : (tensor<("M"+2*"N")x3x4xf32>, tensor<3xi64>) -> tensor<("M"+2*"N")x3x4xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
