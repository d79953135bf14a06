// RUN: infer-shapes
// Shape arithmetic on symbolic sizes (dim.rs, ops/elementwise.rs): the
// integer ops exporters use to compute shapes as tensors keep their values
// symbolic, so the consumers' results get symbolic dims. A truncating
// division of sizes is a `tdiv` atom, a comparison an `eq`/`lt` atom (0 or
// 1), and Not/And/Or/Where/Max/Min/Mod are polynomials over them; each
// atom is the exact result for every size, so nothing is assumed.
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "shape_arith"(%q: tensor<"B"x"HQ"x"S"x"D"xf32>, %k: tensor<"B"x"HKV"x"T"x"D"xf32>, %x: tensor<"N"x"C"x"H"x"W"xf32>) -> () {
  // Attention's grouped-query branch: the interleave factor is HQ/HKV
  // when HKV divides HQ and they differ, else 1.
  %hq = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<"B"x"HQ"x"S"x"D"xf32>) -> !onnx.unknown
  %hkv = "onnx.Shape"(%k) {start = 1, end = 2} : (tensor<"B"x"HKV"x"T"x"D"xf32>) -> !onnx.unknown
  %zero = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %same = "onnx.Equal"(%hq, %hkv) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %differ = "onnx.Not"(%same) : (!onnx.unknown) -> !onnx.unknown
  %quot = "onnx.Div"(%hq, %hkv) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %rem = "onnx.Mod"(%hq, %hkv) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %divides = "onnx.Equal"(%rem, %zero) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %gqa = "onnx.And"(%differ, %divides) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %interleave = "onnx.Where"(%gqa, %quot, %one) : (!onnx.unknown, !onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %kshape = "onnx.Concat"(%hkv, %interleave) {axis = 0} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %kexp = "onnx.ConstantOfShape"(%kshape) : (!onnx.unknown) -> !onnx.unknown
  // GroupNormalization: C/2 groups of channels, a Reshape to 5-D.
  %c = "onnx.Shape"(%x) {start = 1, end = 2} : (tensor<"N"x"C"x"H"x"W"xf32>) -> !onnx.unknown
  %n = "onnx.Shape"(%x) {start = 0, end = 1} : (tensor<"N"x"C"x"H"x"W"xf32>) -> !onnx.unknown
  %hw = "onnx.Shape"(%x) {start = 2} : (tensor<"N"x"C"x"H"x"W"xf32>) -> !onnx.unknown
  %group = "onnx.Div"(%c, %two) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %gshape = "onnx.Concat"(%n, %two, %group, %hw) {axis = 0} : (!onnx.unknown, tensor<1xi64>, !onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %grouped = "onnx.Reshape"(%x, %gshape) : (tensor<"N"x"C"x"H"x"W"xf32>, !onnx.unknown) -> !onnx.unknown
  // Max/Min/Less/Greater of sizes, decided where every size agrees.
  %h = "onnx.Shape"(%x) {start = 2, end = 3} : (tensor<"N"x"C"x"H"x"W"xf32>) -> !onnx.unknown
  %h1 = "onnx.Add"(%h, %one) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %hmax = "onnx.Max"(%h, %h1, %zero) : (!onnx.unknown, !onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %hmin = "onnx.Min"(%h, %h1) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %cmax = "onnx.Max"(%c, %h) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %less = "onnx.Less"(%h, %h1) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %greater = "onnx.Greater"(%h, %c) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %pick = "onnx.Where"(%less, %hmax, %c) : (!onnx.unknown, !onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %sizes = "onnx.Concat"(%hmax, %hmin, %cmax, %pick) {axis = 0} : (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %filled = "onnx.ConstantOfShape"(%sizes) : (!onnx.unknown) -> !onnx.unknown
  // A size minus one may be negative: its division stays unknown.
  %hm1 = "onnx.Sub"(%h, %one) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %halfm1 = "onnx.Div"(%hm1, %two) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %unknown = "onnx.ConstantOfShape"(%halfm1) : (!onnx.unknown) -> !onnx.unknown
  // A Split by sizes computed from dims, floor(W/2) and ceil(W/2) (the
  // lowering checks at run time that they add up, and the model's entry
  // that a size that subtracts is not negative), and halves of a size.
  %w = "onnx.Shape"(%x) {start = 3, end = 4} : (tensor<"N"x"C"x"H"x"W"xf32>) -> !onnx.unknown
  %wh = "onnx.Div"(%w, %two) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %w1 = "onnx.Add"(%w, %one) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %wrest = "onnx.Div"(%w1, %two) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %lengths = "onnx.Concat"(%wh, %wrest) {axis = 0} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %rot, %rest = "onnx.Split"(%x, %lengths) {axis = -1} : (tensor<"N"x"C"x"H"x"W"xf32>, !onnx.unknown) -> (!onnx.unknown, !onnx.unknown)
  // An empty part (RotaryEmbedding's [W, 0]), and a rotary dim of 2 with
  // the rest, [2, W - 2].
  %rotzero = "onnx.Concat"(%w, %zero) {axis = 0} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %all, %none = "onnx.Split"(%x, %rotzero) {axis = -1} : (tensor<"N"x"C"x"H"x"W"xf32>, !onnx.unknown) -> (!onnx.unknown, !onnx.unknown)
  %wm2 = "onnx.Sub"(%w, %two) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %rotrest = "onnx.Concat"(%two, %wm2) {axis = 0} : (tensor<1xi64>, !onnx.unknown) -> !onnx.unknown
  %head, %tail = "onnx.Split"(%x, %rotrest) {axis = -1} : (tensor<"N"x"C"x"H"x"W"xf32>, !onnx.unknown) -> (!onnx.unknown, !onnx.unknown)
  %x1, %x2 = "onnx.Split"(%rot) {axis = -1, num_outputs = 2} : (!onnx.unknown) -> (!onnx.unknown, !onnx.unknown)
  // The even and the odd elements of a size (RotaryEmbedding's
  // interleaved halves): ceil(W/2) and floor(W/2) as floor-quotient
  // atoms; a span that may be negative (from 3 to W) stays unknown.
  %three = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %lastaxis = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %even = "onnx.Slice"(%x, %zero, %w, %lastaxis, %two) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<1xi64>, !onnx.unknown, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %odd = "onnx.Slice"(%x, %one, %w, %lastaxis, %two) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<1xi64>, !onnx.unknown, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %late = "onnx.Slice"(%x, %three, %w, %lastaxis, %two) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<1xi64>, !onnx.unknown, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  // Padding up to a multiple of a window (a windowed attention's
  // `(4 - H % 4) % 4`): Mod by a positive constant is `a - 4*floor(a/4)`
  // for any sign of `a`, so the padded height is the size 4*ceil(H/4).
  %four = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %zeros = "onnx.Constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
  %hrem = "onnx.Mod"(%h, %four) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %hgap = "onnx.Sub"(%four, %hrem) : (tensor<1xi64>, !onnx.unknown) -> !onnx.unknown
  %hpad = "onnx.Mod"(%hgap, %four) : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %pads = "onnx.Concat"(%zeros, %zeros, %zeros, %hpad, %zero) {axis = 0} : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, !onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %windowed = "onnx.Pad"(%x, %pads) : (tensor<"N"x"C"x"H"x"W"xf32>, !onnx.unknown) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21}}
// CHECK-NEXT: onnx.graph "shape_arith"(%q: tensor<"B"x"HQ"x"S"x"D"xf32>, %k: tensor<"B"x"HKV"x"T"x"D"xf32>, %x: tensor<"N"x"C"x"H"x"W"xf32>) -> () {
// CHECK-NEXT:   %hq = "onnx.Shape"(%q) {start = 1, end = 2} : (tensor<"B"x"HQ"x"S"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %hkv = "onnx.Shape"(%k) {start = 1, end = 2} : (tensor<"B"x"HKV"x"T"x"D"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %zero = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %one = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %two = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %same = "onnx.Equal"(%hq, %hkv) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
// CHECK-NEXT:   %differ = "onnx.Not"(%same) : (tensor<1xi1>) -> tensor<1xi1>
// CHECK-NEXT:   %quot = "onnx.Div"(%hq, %hkv) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %rem = "onnx.Mod"(%hq, %hkv) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %divides = "onnx.Equal"(%rem, %zero) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
// CHECK-NEXT:   %gqa = "onnx.And"(%differ, %divides) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
// CHECK-NEXT:   %interleave = "onnx.Where"(%gqa, %quot, %one) : (tensor<1xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %kshape = "onnx.Concat"(%hkv, %interleave) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %kexp = "onnx.ConstantOfShape"(%kshape) : (tensor<2xi64>) -> tensor<"HKV"x(-"eq(\"HKV\",\"HQ\")"*"eq((-\"HKV\"*\"tdiv(\\\"HQ\\\",\\\"HKV\\\")\"+\"HQ\"),0)"*"tdiv(\"HQ\",\"HKV\")"+"eq(\"HKV\",\"HQ\")"*"eq((-\"HKV\"*\"tdiv(\\\"HQ\\\",\\\"HKV\\\")\"+\"HQ\"),0)"+"eq((-\"HKV\"*\"tdiv(\\\"HQ\\\",\\\"HKV\\\")\"+\"HQ\"),0)"*"tdiv(\"HQ\",\"HKV\")"-"eq((-\"HKV\"*\"tdiv(\\\"HQ\\\",\\\"HKV\\\")\"+\"HQ\"),0)"+1)xf32>
// CHECK-NEXT:   %c = "onnx.Shape"(%x) {start = 1, end = 2} : (tensor<"N"x"C"x"H"x"W"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %n = "onnx.Shape"(%x) {start = 0, end = 1} : (tensor<"N"x"C"x"H"x"W"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %hw = "onnx.Shape"(%x) {start = 2} : (tensor<"N"x"C"x"H"x"W"xf32>) -> tensor<2xi64>
// CHECK-NEXT:   %group = "onnx.Div"(%c, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %gshape = "onnx.Concat"(%n, %two, %group, %hw) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<5xi64>
// CHECK-NEXT:   %grouped = "onnx.Reshape"(%x, %gshape) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<5xi64>) -> tensor<"N"x2x"tdiv(\"C\",2)"x"H"x"W"xf32>
// CHECK-NEXT:   %h = "onnx.Shape"(%x) {start = 2, end = 3} : (tensor<"N"x"C"x"H"x"W"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %h1 = "onnx.Add"(%h, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %hmax = "onnx.Max"(%h, %h1, %zero) : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %hmin = "onnx.Min"(%h, %h1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %cmax = "onnx.Max"(%c, %h) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %less = "onnx.Less"(%h, %h1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
// CHECK-NEXT:   %greater = "onnx.Greater"(%h, %c) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
// CHECK-NEXT:   %pick = "onnx.Where"(%less, %hmax, %c) : (tensor<1xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %sizes = "onnx.Concat"(%hmax, %hmin, %cmax, %pick) {axis = 0} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
// CHECK-NEXT:   %filled = "onnx.ConstantOfShape"(%sizes) : (tensor<4xi64>) -> tensor<("H"+1)x"H"x(-"C"*"lt(\"C\",\"H\")"+"H"*"lt(\"C\",\"H\")"+"C")x("H"+1)xf32>
// CHECK-NEXT:   %hm1 = "onnx.Sub"(%h, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %halfm1 = "onnx.Div"(%hm1, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %unknown = "onnx.ConstantOfShape"(%halfm1) : (tensor<1xi64>) -> tensor<?xf32>
// CHECK-NEXT:   %w = "onnx.Shape"(%x) {start = 3, end = 4} : (tensor<"N"x"C"x"H"x"W"xf32>) -> tensor<1xi64>
// CHECK-NEXT:   %wh = "onnx.Div"(%w, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %w1 = "onnx.Add"(%w, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %wrest = "onnx.Div"(%w1, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %lengths = "onnx.Concat"(%wh, %wrest) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %rot, %rest = "onnx.Split"(%x, %lengths) {axis = -1} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<2xi64>) -> (tensor<"N"x"C"x"H"x"tdiv(\"W\",2)"xf32>, tensor<"N"x"C"x"H"x"tdiv((\"W\"+1),2)"xf32>)
// CHECK-NEXT:   %rotzero = "onnx.Concat"(%w, %zero) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %all, %none = "onnx.Split"(%x, %rotzero) {axis = -1} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<2xi64>) -> (tensor<"N"x"C"x"H"x"W"xf32>, tensor<"N"x"C"x"H"x0xf32>)
// CHECK-NEXT:   %wm2 = "onnx.Sub"(%w, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %rotrest = "onnx.Concat"(%two, %wm2) {axis = 0} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:   %head, %tail = "onnx.Split"(%x, %rotrest) {axis = -1} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<2xi64>) -> (tensor<"N"x"C"x"H"x2xf32>, tensor<"N"x"C"x"H"x("W"-2)xf32>)
// CHECK-NEXT:   %x1, %x2 = "onnx.Split"(%rot) {axis = -1, num_outputs = 2} : (tensor<"N"x"C"x"H"x"tdiv(\"W\",2)"xf32>) -> (tensor<"N"x"C"x"H"x"tdiv((\"tdiv(\\\"W\\\",2)\"+1),2)"xf32>, tensor<"N"x"C"x"H"x"tdiv(\"tdiv(\\\"W\\\",2)\",2)"xf32>)
// CHECK-NEXT:   %three = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %lastaxis = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %even = "onnx.Slice"(%x, %zero, %w, %lastaxis, %two) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"N"x"C"x"H"x"floor((\"W\"+1),2)"xf32>
// CHECK-NEXT:   %odd = "onnx.Slice"(%x, %one, %w, %lastaxis, %two) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"N"x"C"x"H"x"floor(\"W\",2)"xf32>
// CHECK-NEXT:   %late = "onnx.Slice"(%x, %three, %w, %lastaxis, %two) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"N"x"C"x"H"x?xf32>
// CHECK-NEXT:   %four = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
// CHECK-NEXT:   %zeros = "onnx.Constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT:   %hrem = "onnx.Mod"(%h, %four) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %hgap = "onnx.Sub"(%four, %hrem) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %hpad = "onnx.Mod"(%hgap, %four) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:   %pads = "onnx.Concat"(%zeros, %zeros, %zeros, %hpad, %zero) {axis = 0} : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<8xi64>
// CHECK-NEXT:   %windowed = "onnx.Pad"(%x, %pads) : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<8xi64>) -> tensor<"N"x"C"x(-4*"floor((-\"H\"),4)")x"W"xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
