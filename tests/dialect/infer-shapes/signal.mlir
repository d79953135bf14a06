// RUN: infer-shapes
// Signal processing (ops/signal.rs): DFT gives a complex last dim and
// dft_length (or floor(n/2) + 1 one-sided) on its axis; STFT [batch,
// frames, bins, 2]; the windows [size]; MelWeightMatrix [dft_length/2 + 1,
// mel bins]. Sizes are known values, symbolic ones included.
// REFERENCE: STFT's onesided defaults to 1 ("dft_unique_bins is
// frame_length // 2 + 1"); onnx 1.23.2's inference takes a missing
// attribute as 0 and says 16 bins, onnxruntime and the reference evaluator
// give 9.
// REFERENCE-RUN: %stft
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "signal"(%x: tensor<"B"x16x1xf32>, %z: tensor<"B"x16x2xf32>, %sig: tensor<2x64x1xf32>, %win: tensor<16xf32>) -> () {
  %dft = "onnx.DFT"(%x) : (tensor<"B"x16x1xf32>) -> !onnx.unknown
  %length = "onnx.Constant"() {value = dense<20> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %padded = "onnx.DFT"(%x, %length, %one) : (tensor<"B"x16x1xf32>, tensor<i64>, tensor<i64>) -> !onnx.unknown
  %rfft = "onnx.DFT"(%x, none, %one) {onesided = 1} : (tensor<"B"x16x1xf32>, none, tensor<i64>) -> !onnx.unknown
  %inverse = "onnx.DFT"(%z, none, %one) {inverse = 1} : (tensor<"B"x16x2xf32>, none, tensor<i64>) -> !onnx.unknown
  %step = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  %stft = "onnx.STFT"(%sig, %step, %win) : (tensor<2x64x1xf32>, tensor<i64>, tensor<16xf32>) -> !onnx.unknown
  %size = "onnx.Constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %hann = "onnx.HannWindow"(%size) : (tensor<i64>) -> !onnx.unknown
  %hamming = "onnx.HammingWindow"(%size) {output_datatype = 11} : (tensor<i64>) -> !onnx.unknown
  %blackman = "onnx.BlackmanWindow"(%size) {periodic = 0} : (tensor<i64>) -> !onnx.unknown
  %bins = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  %dft_length = "onnx.Constant"() {value = dense<64> : tensor<i64>} : () -> tensor<i64>
  %rate = "onnx.Constant"() {value = dense<16000> : tensor<i64>} : () -> tensor<i64>
  %low = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %high = "onnx.Constant"() {value = dense<8000.0> : tensor<f32>} : () -> tensor<f32>
  %mel = "onnx.MelWeightMatrix"(%bins, %dft_length, %rate, %low, %high) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  %shape = "onnx.Shape"(%x) {start = 0, end = 1} : (tensor<"B"x16x1xf32>) -> !onnx.unknown
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %batch = "onnx.Gather"(%shape, %zero) : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %window = "onnx.HannWindow"(%batch) : (!onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "signal"(%x: tensor<"B"x16x1xf32>, %z: tensor<"B"x16x2xf32>, %sig: tensor<2x64x1xf32>, %win: tensor<16xf32>) -> () {
// CHECK-NEXT:   %dft = "onnx.DFT"(%x) : (tensor<"B"x16x1xf32>) -> tensor<"B"x16x2xf32>
// CHECK-NEXT:   %length = "onnx.Constant"() {value = dense<20> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %padded = "onnx.DFT"(%x, %length, %one) : (tensor<"B"x16x1xf32>, tensor<i64>, tensor<i64>) -> tensor<"B"x20x2xf32>
// CHECK-NEXT:   %rfft = "onnx.DFT"(%x, none, %one) {onesided = 1} : (tensor<"B"x16x1xf32>, none, tensor<i64>) -> tensor<"B"x9x2xf32>
// CHECK-NEXT:   %inverse = "onnx.DFT"(%z, none, %one) {inverse = 1} : (tensor<"B"x16x2xf32>, none, tensor<i64>) -> tensor<"B"x16x2xf32>
// CHECK-NEXT:   %step = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %stft = "onnx.STFT"(%sig, %step, %win) : (tensor<2x64x1xf32>, tensor<i64>, tensor<16xf32>) -> tensor<2x7x9x2xf32>
// CHECK-NEXT:   %size = "onnx.Constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %hann = "onnx.HannWindow"(%size) : (tensor<i64>) -> tensor<10xf32>
// CHECK-NEXT:   %hamming = "onnx.HammingWindow"(%size) {output_datatype = 11} : (tensor<i64>) -> tensor<10xf64>
// CHECK-NEXT:   %blackman = "onnx.BlackmanWindow"(%size) {periodic = 0} : (tensor<i64>) -> tensor<10xf32>
// CHECK-NEXT:   %bins = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %dft_length = "onnx.Constant"() {value = dense<64> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %rate = "onnx.Constant"() {value = dense<16000> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %low = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %high = "onnx.Constant"() {value = dense<8000.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:   %mel = "onnx.MelWeightMatrix"(%bins, %dft_length, %rate, %low, %high) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<33x8xf32>
// CHECK-NEXT:   %shape = "onnx.Shape"(%x) {start = 0, end = 1} : (tensor<"B"x16x1xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
// CHECK-NEXT:   %batch = "onnx.Gather"(%shape, %zero) : (tensor<1xi64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:   %window = "onnx.HannWindow"(%batch) : (tensor<i64>) -> tensor<"B"xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
