// RUN: affine
// A softmax over rows of at most 1024 elements is Schedule::Tiled: per
// chunk of rows, the max and the sum as vector reductions along the row,
// the exp polynomial a vector at a time.
onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<12x128x128xf32>) -> ("y": tensor<12x128x128xf32>) {
  %y = "onnx.Softmax"(%x) {axis = -1} : (tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  onnx.return %y
}

// CHECK-LABEL: func.func @k0(%arg0: memref<12x128x128xf32> {llvm.noalias}, %arg1: memref<12x128x128xf32> {llvm.noalias}, %arg2: index, %arg3: index) attributes {omlc.kernel} {
// CHECK: arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK: arith.constant dense<0xFF800000> : vector<1xf32>
// CHECK: arith.constant dense<0.000000e+00> : vector<1x1x128xf32>
// CHECK: arith.constant dense<0x7F800000> : vector<1x1x128xf32>
// CHECK: arith.constant dense<2.000000e+00> : vector<1x1x128xf32>
// CHECK: arith.constant dense<23> : vector<1x1x128xi32>
// CHECK: arith.constant dense<126> : vector<1x1x128xi32>
// CHECK: arith.constant dense<1.000000e+00> : vector<1x1x128xf32>
// CHECK: arith.constant dense<0.166666657> : vector<1x1x128xf32>
// CHECK: arith.constant dense<0.0416657962> : vector<1x1x128xf32>
// CHECK: arith.constant dense<0.00833345205> : vector<1x1x128xf32>
// CHECK: arith.constant dense<0.00139819994> : vector<1x1x128xf32>
// CHECK: arith.constant dense<1.98756912E-4> : vector<1x1x128xf32>
// CHECK: arith.constant dense<2.12194442E-4> : vector<1x1x128xf32>
// CHECK: arith.constant dense<-0.693359375> : vector<1x1x128xf32>
// CHECK: arith.constant dense<5.000000e-01> : vector<1x1x128xf32>
// CHECK: arith.constant dense<1.44269502> : vector<1x1x128xf32>
// CHECK: arith.constant dense<88.7228394> : vector<1x1x128xf32>
// CHECK: arith.constant dense<-8.660000e+01> : vector<1x1x128xf32>
// CHECK: scf.for %arg4 = %arg2 to %arg3 step %c1 {
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x128xf32>
// CHECK: scf.for %arg5 = %c0 to %c128 step %c1 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: scf.for %arg5 = %c0 to %c128 step %c1 {
// CHECK: vector.load %arg0[%arg4, %arg5, %{{\w+}}] : memref<12x128x128xf32>, vector<128xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<1xf32>
// CHECK: vector.reduction <maximumf>, %{{\w+}}, %{{\w+}} : vector<128xf32> into f32
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<1xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x128x128xf32>
// CHECK: scf.for %arg5 = %c0 to %c128 step %c1 {
// CHECK: vector.load %arg0[%arg4, %arg5, %{{\w+}}] : memref<12x128x128xf32>, vector<128xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<128xf32> to vector<1x1x128xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<1xf32> to vector<1x1x128xf32>
// CHECK: arith.subf %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.maximumf %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.minimumf %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: math.fma %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: math.floor %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.mulf %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.addf %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.fptosi %{{\w+}} : vector<1x1x128xf32> to vector<1x1x128xi32>
// CHECK: arith.addi %{{\w+}}, %{{\w+}} : vector<1x1x128xi32>
// CHECK: arith.shli %{{\w+}}, %{{\w+}} : vector<1x1x128xi32>
// CHECK: arith.bitcast %{{\w+}} : vector<1x1x128xi32> to vector<1x1x128xf32>
// CHECK: arith.cmpf ogt, %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.select %{{\w+}}, %{{\w+}}, %{{\w+}} : vector<1x1x128xi1>, vector<1x1x128xf32>
// CHECK: arith.cmpf olt, %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: arith.cmpf uno, %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: vector.extract %{{\w+}}[0, 0] : vector<128xf32> from vector<1x1x128xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg5, %{{\w+}}] : memref<1x128x128xf32>, vector<128xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x128xf32>
// CHECK: scf.for %arg5 = %c0 to %c128 step %c1 {
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: scf.for %arg5 = %c0 to %c128 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg5, %{{\w+}}] : memref<1x128x128xf32>, vector<128xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: vector.extract %{{\w+}}[0] : f32 from vector<1xf32>
// CHECK: vector.reduction <add>, %{{\w+}}, %{{\w+}} : vector<128xf32> into f32
// CHECK: vector.broadcast %{{\w+}} : f32 to vector<1xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: memref.subview %arg1[%arg4, 0, 0] [1, 128, 128] [1, 1, 1] : memref<12x128x128xf32> to memref<1x128x128xf32, strided<[16384, 128, 1], offset: ?>>
// CHECK: scf.for %arg5 = %c0 to %c128 step %c1 {
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg5, %{{\w+}}] : memref<1x128x128xf32>, vector<128xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<128xf32> to vector<1x1x128xf32>
// CHECK: vector.load %{{\w+}}[%{{\w+}}, %arg5] : memref<1x128xf32>, vector<1xf32>
// CHECK: vector.broadcast %{{\w+}} : vector<1xf32> to vector<1x1x128xf32>
// CHECK: arith.divf %{{\w+}}, %{{\w+}} : vector<1x1x128xf32>
// CHECK: vector.extract %{{\w+}}[0, 0] : vector<128xf32> from vector<1x1x128xf32>
// CHECK: vector.store %{{\w+}}, %{{\w+}}[%{{\w+}}, %arg5, %{{\w+}}] : memref<1x128x128xf32, strided<[16384, 128, 1], offset: ?>>, vector<128xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<1x128xf32>
// CHECK: memref.dealloc %{{\w+}} : memref<1x128x128xf32>
// CHECK-LABEL: func.func @omlc_model(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<12x128x128xf32>, %arg3: memref<12x128x128xf32>) {
// CHECK: call @k0_parallel(%arg0, %arg2, %arg3) : (!llvm.ptr, memref<12x128x128xf32>, memref<12x128x128xf32>) -> ()
// CHECK-LABEL: func.func private @k0_parallel(!llvm.ptr, memref<12x128x128xf32>, memref<12x128x128xf32>)
