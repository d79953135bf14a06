// RUN: print
// Types read in any spacing and any polynomial spelling print canonically:
// terms by degree then name, constants last, coefficients folded.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%a: tensor< 2 x "N" x f32 >, %b: tensor<("N")x(1+"S"*2)x("S"*"B"-"B"*"S"+3)x(3*"a"*2)xf32>, %c: !onnx.map< i64 , tensor<f32> >) -> () {
  onnx.return
}
// CHECK: onnx.graph "g"(%a: tensor<2x"N"xf32>, %b: tensor<"N"x(2*"S"+1)x3x(6*"a")xf32>, %c: !onnx.map<i64, tensor<f32>>) -> () {
