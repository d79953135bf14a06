// RUN: print
// Floats print as the shortest decimal that reads back to the same bits,
// always with a '.' or an exponent so that they stay FLOATs.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<f32>) -> () {
  %0 = "onnx.LeakyRelu"(%x) {alpha = 0.01} : (tensor<f32>) -> tensor<f32>
  %1 = "onnx.Identity"(%x) {a = 1.00000000, b = 9.99999974e-6, c = 3e38, d = 1E+2, e = -0.0, f = 16777217.0, g = 1e-45, h = -inf, i = nan(0x7FC00001), j = 100000000.0, k = 1e16} : (tensor<f32>) -> tensor<f32>
  onnx.return
}
// CHECK: {alpha = 0.01}
// CHECK: {a = 1.0, b = 1e-5, c = 3e38, d = 100.0, e = -0.0, f = 16777216.0, g = 1e-45, h = -inf, i = nan(0x7FC00001), j = 100000000.0, k = 1e16}
