// RUN: linalg
// The windows: one generic over the output computing the cosine terms
// of n / N' in the output type (periodic: N' = N).
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"() -> ("hann": tensor<8xf32>, "blackman": tensor<8xf64>) {
  %size = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  %hann = "onnx.HannWindow"(%size) : (tensor<i64>) -> tensor<8xf32>
  %blackman = "onnx.BlackmanWindow"(%size) {output_datatype = 11, periodic = 0} : (tensor<i64>) -> tensor<8xf64>
  onnx.return %hann, %blackman
}

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @k0(%arg0: memref<i64> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%{{\w+}} : tensor<8xf32>) attrs =  {omlc.root} {
// CHECK: linalg.index 0 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.constant 6.2831853071795862 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.cos %{{\w+}} : f64
// CHECK: arith.constant -5.000000e-01 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.truncf %{{\w+}} : f64 to f32
// CHECK-LABEL: func.func @k1(%arg0: memref<i64> {llvm.noalias}, %arg1: memref<8xf64> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: arith.constant 8.000000e+00 : f64
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : f64
// CHECK: linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%{{\w+}} : tensor<8xf64>) attrs =  {omlc.root} {
// CHECK: linalg.index 0 : index
// CHECK: arith.index_cast %{{\w+}} : index to i64
// CHECK: arith.sitofp %{{\w+}} : i64 to f64
// CHECK: arith.constant 4.200000e-01 : f64
// CHECK: arith.constant 6.2831853071795862 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.cos %{{\w+}} : f64
// CHECK: arith.constant -5.000000e-01 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.constant 12.566370614359172 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : f64
// CHECK: math.cos %{{\w+}} : f64
// CHECK: arith.constant 8.000000e-02 : f64
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : f64
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : f64
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<8xf32>, %arg3: memref<8xf64>, %arg4: memref<i64>) {
// CHECK: call @k0(%arg4, %arg2, %{{\w+}}, %{{\w+}}) : (memref<i64>, memref<8xf32>, index, index) -> ()
// CHECK: call @k1(%arg4, %arg3, %{{\w+}}, %{{\w+}}) : (memref<i64>, memref<8xf64>, index, index) -> ()
