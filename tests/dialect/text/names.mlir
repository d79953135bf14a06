// RUN: roundtrip
// ONNX names that are identifiers print bare, others quoted; unnamed values
// are numbered, and a value *named* "0" stays quoted so the two never meet.
// Graph output names belong to the signature, so one value can be returned
// under several names. Absent inputs print `none`, absent results `_`.
onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "names"(%"onnx::Gemm_12": tensor<2xf32>, %"123": tensor<2xf32>, %"0": tensor<2xf32>, %x.y$z: tensor<2xf32>, %"a b": tensor<2xf32>, %"": tensor<2xf32>, %"\22quoted\22": tensor<2xf32>) -> ("out put": tensor<2xf32>, "same": tensor<2xf32>, "again": tensor<2xf32>, "input": tensor<2xf32>) {
  %0 = "onnx.Add"(%"onnx::Gemm_12", %"123") : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "onnx.Sub"(%0, %"0") : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %"/mul/Mul_output_0" = "onnx.Mul"(%1, %x.y$z) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("/mul/Mul")
  %2, _ = "onnx.Dropout"(%"/mul/Mul_output_0", none, none) : (tensor<2xf32>, none, none) -> (tensor<2xf32>, none)
  %3, %4 = "onnx.Split"(%2) {axis = 0} : (tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  _, %5 = "onnx.Split"(%2) {axis = 0} : (tensor<2xf32>) -> (none, tensor<1xf32>)
  %6 = "onnx.Clip"(%"a b", none, %"") : (tensor<2xf32>, none, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %6, %2, %2, %"\22quoted\22"
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 17}}
// CHECK-NEXT: onnx.graph "names"(%"onnx::Gemm_12": tensor<2xf32>, %"123": tensor<2xf32>, %"0": tensor<2xf32>, %x.y$z: tensor<2xf32>, %"a b": tensor<2xf32>, %"": tensor<2xf32>, %"\"quoted\"": tensor<2xf32>) -> ("out put": tensor<2xf32>, "same": tensor<2xf32>, "again": tensor<2xf32>, "input": tensor<2xf32>) {
// CHECK-NEXT:   %0 = "onnx.Add"(%"onnx::Gemm_12", %"123") : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %1 = "onnx.Sub"(%0, %"0") : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %"/mul/Mul_output_0" = "onnx.Mul"(%1, %x.y$z) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("/mul/Mul")
// CHECK-NEXT:   %2, _ = "onnx.Dropout"(%"/mul/Mul_output_0", none, none) : (tensor<2xf32>, none, none) -> (tensor<2xf32>, none)
// CHECK-NEXT:   %3, %4 = "onnx.Split"(%2) {axis = 0} : (tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>)
// CHECK-NEXT:   _, %5 = "onnx.Split"(%2) {axis = 0} : (tensor<2xf32>) -> (none, tensor<1xf32>)
// CHECK-NEXT:   %6 = "onnx.Clip"(%"a b", none, %"") : (tensor<2xf32>, none, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   onnx.return %6, %2, %2, %"\"quoted\""
// CHECK-NEXT: }
