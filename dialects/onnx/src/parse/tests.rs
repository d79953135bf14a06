//! Tests of the text form: printing and parsing round-trip every construct
//! of the IR, and bad text fails with a position and a useful message.
//!
//! The samples are written in the printer's canonical form, so each test
//! checks three things: the text parses, it prints back byte for byte, and
//! parsing the printed text rebuilds the same IR.

use super::*;
use crate::attr::Attr;
use crate::ir::{Meta, OpsetImport};
use crate::print::{print_model, PrintOptions};
use crate::tensor::Payload;

/// Parses a canonical sample, checks it prints back unchanged and that the
/// reparsed IR equals the first parse (`ir_equality`: false for samples
/// whose NaNs make `PartialEq` fail).
fn round_trip(text: &str, ir_equality: bool) -> Model {
    let m = parse_model(text).unwrap_or_else(|e| panic!("{e}\n{}", numbered(text)));
    let printed = m.to_string();
    assert_eq!(printed, text, "printed form differs from the sample");
    let again = parse_model(&printed).expect("printed text parses");
    assert_eq!(again.to_string(), printed);
    if ir_equality {
        assert_eq!(again, m, "reparsed IR differs");
    }
    m
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("{:3} {l}\n", i + 1))
        .collect()
}

/// The parse error of `text`, as `line:col: message`.
fn error(text: &str) -> String {
    match parse_model(text) {
        Ok(m) => panic!("expected a parse error, got\n{m}"),
        Err(e) => e.to_string(),
    }
}

const HEADER: &str = "onnx.model {ir_version = 10, opset_imports = {\"\" = 17}}\n";

#[test]
fn model_header_fields() {
    round_trip(
        r#"onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.ml" = 5, "com.custom" = 1}, producer_name = "hand", producer_version = "1.0", domain = "ai.test", model_version = 3, doc_string = "all \"fields\"\0a", metadata_props = {"author" = "me", "k" = "v"}}
onnx.graph "g"() -> () {
  onnx.return
}
"#,
        true,
    );
}

#[test]
fn every_type() {
    let mut args = vec![];
    for (i, e) in ElemType::ALL.iter().enumerate() {
        args.push(format!("%e{i}: tensor<2x{e}>"));
    }
    args.extend(
        [
            "%scalar: tensor<f32>",
            "%unranked: tensor<*xi64>",
            "%dims: tensor<1x?x\"N\"x0x-1xf32>",
            "%poly: tensor<(\"N\"*\"S\")x(2*\"S\"+1)x(\"S\"-1)x(-\"S\"+4)x(\"a b\"*\"a b\")xf32>",
            "%sparse: !onnx.sparse<3x\"N\"xf32>",
            "%seq: !onnx.seq<tensor<*xf32>>",
            "%map: !onnx.map<string, !onnx.seq<!onnx.map<i64, tensor<f32>>>>",
            "%opt: !onnx.opt<!onnx.seq<tensor<2xcomplex<f64>>>>",
            "%unknown: !onnx.unknown",
            "%extreme: tensor<-9223372036854775808x(-9223372036854775808*\"a\"+9223372036854775807)xf32>",
        ]
        .map(String::from),
    );
    let outputs: Vec<String> = args
        .iter()
        .map(|a| a.split_once(": ").unwrap())
        .map(|(v, t)| format!("\"{}\": {t}", &v[1..]))
        .collect();
    let values: Vec<&str> = args.iter().map(|a| a.split_once(':').unwrap().0).collect();
    let text = format!(
        "{HEADER}onnx.graph \"types\"({}) -> ({}) {{\n  onnx.return {}\n}}\n",
        args.join(", "),
        outputs.join(", "),
        values.join(", ")
    );
    let m = round_trip(&text, true);
    let g = m.ir.region(m.graph);
    assert_eq!(g.args.len(), ElemType::ALL.len() + 10);
    assert_eq!(
        *m.ir.ty(g.args[ElemType::ALL.len()].value),
        Type::Tensor(TensorType::new(ElemType::F32, &[]))
    );
    let poly =
        m.ir.ty(g.args[ElemType::ALL.len() + 3].value)
            .as_tensor()
            .unwrap()
            .dims()
            .unwrap()
            .to_vec();
    let (n, s) = (Dim::param("N"), Dim::param("S"));
    assert_eq!(poly[0], n.mul(&s));
    assert_eq!(poly[1], s.scale(2).add(&Dim::Known(1)));
    assert_eq!(poly[3], Dim::Known(4).sub(&s));
}

#[test]
fn type_spellings_are_normalized() {
    // Whitespace inside types, a lone atom in parentheses and a polynomial
    // that cancels out all read as their canonical forms.
    let m = parse_model(&format!(
        "{HEADER}onnx.graph \"g\"(%x: tensor< 2 x (\"N\") x (\"a\"-\"a\"+3) x f32 >, %m: !onnx.map< i64 , tensor<f32> >) -> () {{\n  onnx.return\n}}\n"
    ))
    .unwrap();
    assert!(
        m.to_string()
            .contains(r#"(%x: tensor<2x"N"x3xf32>, %m: !onnx.map<i64, tensor<f32>>)"#),
        "{m}"
    );
}

#[test]
fn every_attribute_kind() {
    let m = round_trip(
        &format!(
            r#"{HEADER}onnx.graph "attrs"(%x: tensor<f32>) -> ("y": tensor<f32>) {{
  %y = "onnx.Identity"(%x) {{i = -7, f = 1.0, s = "a\"b\\c\0a\ff\00 é漢", t = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, g = onnx.graph "body"(%a: tensor<f32>) -> ("b": tensor<f32>) {{
    %b = "onnx.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    onnx.return %b
  }}, sp = sparse<dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>, dense<[1.0, 5.0]> : tensor<2xf32>> : !onnx.sparse<3x4xf32>, ty = tensor<2x?xf32>, ty2 = !onnx.seq<tensor<*xf32>>, fs = [1.0, 2.5, -0.0], is = [1, 2], ss = ["a", ""], ts = [dense<1> : tensor<i64>, dense<[2, 3]> : tensor<2xi32>], gs = [onnx.graph "g1"() -> () {{
    onnx.return
  }}, onnx.graph "g2"() -> () {{
    onnx.return
  }}], sps = [sparse<dense<[0]> : tensor<1xi64>, dense<[7]> : tensor<1xi32>> : !onnx.sparse<5xi32>], tys = [tensor<f32>, !onnx.opt<tensor<i64>>], e1 = [] : ints, e2 = [] : floats, e3 = [] : strings, e4 = [] : tensors, e5 = [] : graphs, e6 = [] : sparse_tensors, e7 = [] : types, "odd name" = 1, "dotted.name" = 2}} : (tensor<f32>) -> tensor<f32>
  onnx.return %y
}}
"#
        ),
        true,
    );
    let g = m.ir.region(m.graph);
    let op = m.ir.op(g.ops[0]);
    let kinds: Vec<&str> = op.attrs.iter().map(|(_, a)| a.kind().name()).collect();
    assert_eq!(
        kinds,
        [
            "INT",
            "FLOAT",
            "STRING",
            "TENSOR",
            "GRAPH",
            "SPARSE_TENSOR",
            "TYPE_PROTO",
            "TYPE_PROTO",
            "FLOATS",
            "INTS",
            "STRINGS",
            "TENSORS",
            "GRAPHS",
            "SPARSE_TENSORS",
            "TYPE_PROTOS",
            "INTS",
            "FLOATS",
            "STRINGS",
            "TENSORS",
            "GRAPHS",
            "SPARSE_TENSORS",
            "TYPE_PROTOS",
            "INT",
            "INT"
        ]
    );
    assert_eq!(
        op.attrs.get("s"),
        Some(&Attr::String(
            b"a\"b\\c\n\xff\x00 \xc3\xa9\xe6\xbc\xa2".to_vec()
        ))
    );
    assert_eq!(
        op.attrs.floats("fs").unwrap()[2].to_bits(),
        (-0.0f32).to_bits()
    );
    for r in op.attrs.regions() {
        assert_eq!(m.ir.region(r).parent, RegionParent::Op(g.ops[0]));
    }
}

#[test]
fn floats_round_trip_exactly() {
    let values = [
        0.1f32,
        1e-5,
        -1e-5,
        3.4028235e38,
        f32::MIN_POSITIVE,
        1e-45,
        123456.0,
        1e16,
        16777217.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0x7FC0_0001),
        f32::from_bits(0xFFC0_0000),
    ];
    let list: Vec<String> = values
        .iter()
        .map(|v| {
            let mut s = String::new();
            crate::print::write_float(&mut s, crate::print::FloatBits::F32(v.to_bits())).unwrap();
            s
        })
        .collect();
    assert_eq!(
        list,
        [
            "0.1",
            "1e-5",
            "-1e-5",
            "3.4028235e38",
            "1.1754944e-38",
            "1e-45",
            "123456.0",
            "1e16",
            "16777216.0",
            "inf",
            "-inf",
            "nan",
            "nan(0x7FC00001)",
            "nan(0xFFC00000)"
        ]
    );
    let text = format!(
        "{HEADER}onnx.graph \"g\"() -> (\"y\": tensor<14xf32>) {{\n  %y = \"onnx.Constant\"() {{value_floats = [{}]}} : () -> tensor<14xf32>\n  onnx.return %y\n}}\n",
        list.join(", ")
    );
    let m = round_trip(&text, false);
    let op = m.ir.op(m.ir.region(m.graph).ops[0]);
    let parsed: Vec<u32> = op
        .attrs
        .floats("value_floats")
        .unwrap()
        .iter()
        .map(|f| f.to_bits())
        .collect();
    let expected: Vec<u32> = values.iter().map(|f| f.to_bits()).collect();
    assert_eq!(parsed, expected);
}

#[test]
fn tensor_literals() {
    let big: Vec<String> = (0..40).map(|i| format!("{i}.0")).collect();
    let text = format!(
        r#"{HEADER}onnx.graph "consts"() -> () {{
  %0 = "onnx.Constant"() {{value = dense<0.0> : tensor<2x3xf32>}} : () -> tensor<2x3xf32>
  %1 = "onnx.Constant"() {{value = dense<5> : tensor<i64>}} : () -> tensor<i64>
  %2 = "onnx.Constant"() {{value = dense<[]> : tensor<0xf32>}} : () -> tensor<0xf32>
  %3 = "onnx.Constant"() {{value = dense<[]> : tensor<2x0x3xf32>}} : () -> tensor<2x0x3xf32>
  %4 = "onnx.Constant"() {{value = dense<[true, false]> : tensor<2xi1>}} : () -> tensor<2xi1>
  %5 = "onnx.Constant"() {{value = dense<[18446744073709551615, 0]> : tensor<2xui64>}} : () -> tensor<2xui64>
  %6 = "onnx.Constant"() {{value = dense<[-128, 127]> : tensor<2xi8>}} : () -> tensor<2xi8>
  %7 = "onnx.Constant"() {{value = dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>}} : () -> tensor<2xi64>
  %8 = "onnx.Constant"() {{value = dense<[0.099975586, 65504.0, -inf, nan]> : tensor<4xf16>}} : () -> tensor<4xf16>
  %9 = "onnx.Constant"() {{value = dense<[0.100097656, 3.3895314e38, nan(0x7FC1)]> : tensor<3xbf16>}} : () -> tensor<3xbf16>
  %10 = "onnx.Constant"() {{value = dense<[0.1, 1e300, 5e-324]> : tensor<3xf64>}} : () -> tensor<3xf64>
  %11 = "onnx.Constant"() {{value = dense<["a", "b\0a"]> : tensor<2xstring>}} : () -> tensor<2xstring>
  %12 = "onnx.Constant"() {{value = dense<"x"> : tensor<string>}} : () -> tensor<string>
  %13 = "onnx.Constant"() {{value = dense<"y"> : tensor<3xstring>}} : () -> tensor<3xstring>
  %14 = "onnx.Constant"() {{value = dense<"0x12"> : tensor<2xi4>}} : () -> tensor<2xi4>
  %15 = "onnx.Constant"() {{value = dense<"0x38"> : tensor<1xf8E4M3FN>}} : () -> tensor<1xf8E4M3FN>
  %16 = "onnx.Constant"() {{value = dense<"0x0000803F00000040"> : tensor<1xcomplex<f32>>}} : () -> tensor<1xcomplex<f32>>
  %17 = "onnx.Constant"() {{value = dense_resource<__elided__> : tensor<64x3xf32>}} : () -> tensor<64x3xf32>
  %18 = "onnx.Constant"() {{value = dense<"0x0201"> : tensor<2xi1>}} : () -> tensor<2xi1>
  %19 = "onnx.Constant"() {{value = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]> : tensor<32xui16>}} : () -> tensor<32xui16>
  %20 = "onnx.Constant"() {{value = dense<"0x"> : tensor<0xui4>}} : () -> tensor<0xui4>
  onnx.return
}}
"#
    );
    let m = round_trip(&text, false);
    let ops = &m.ir.region(m.graph).ops;
    let value = |i: usize| m.ir.op(ops[i]).attrs.tensor("value").unwrap().clone();
    assert_eq!(value(0).to_vec::<f32>().unwrap(), vec![0.0; 6]);
    assert_eq!(value(1).to_i64s().unwrap(), vec![5]);
    assert_eq!(value(3).dims, vec![2, 0, 3]);
    assert_eq!(value(5).to_vec::<u64>().unwrap(), vec![u64::MAX, 0]);
    let f16s: Vec<u16> = value(8)
        .to_vec::<half::f16>()
        .unwrap()
        .iter()
        .map(|h| h.to_bits())
        .collect();
    assert_eq!(f16s, vec![0x2E66, 0x7BFF, 0xFC00, 0x7E00]);
    assert_eq!(value(10).to_vec::<f64>().unwrap(), vec![0.1, 1e300, 5e-324]);
    assert_eq!(
        value(13).strings().unwrap(),
        &[b"y".to_vec(), b"y".to_vec(), b"y".to_vec()]
    );
    assert_eq!(
        value(16).raw().unwrap().as_ref(),
        &[0, 0, 0x80, 0x3F, 0, 0, 0, 0x40]
    );
    assert!(value(17).payload == Payload::Elided);
    // A bool byte other than 0/1 has no literal: it stays hex.
    assert_eq!(value(18).raw().unwrap().as_ref(), &[2, 1]);

    // More elements than `hex_above` print as hex, and read back the same.
    let hex = format!(
        "{HEADER}onnx.graph \"g\"() -> () {{\n  %0 = \"onnx.Constant\"() {{value = dense<[{}]> : tensor<40xf32>}} : () -> tensor<40xf32>\n  onnx.return\n}}\n",
        big.join(", ")
    );
    let m = parse_model(&hex).unwrap();
    let printed = m.to_string();
    assert!(
        printed.contains("dense<\"0x000000000000803F00000040"),
        "{printed}"
    );
    assert_eq!(parse_model(&printed).unwrap(), m);
}

#[test]
fn elided_output_parses() {
    let text = format!(
        "{HEADER}onnx.graph \"g\"(%w: tensor<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) -> () {{\n  %0 = \"onnx.Constant\"() {{value = dense<[1, 2]> : tensor<2xi64>, sparse_value = sparse<dense<[0, 1, 2, 3, 4]> : tensor<5xi64>, dense<[1, 2, 3, 4, 5]> : tensor<5xi32>> : !onnx.sparse<9xi32>}} : () -> tensor<2xi64>\n  onnx.return\n}}\n"
    );
    let m = round_trip(&text, true);
    let options = PrintOptions {
        elide_constants_above: Some(4),
        ..PrintOptions::default()
    };
    let elided = print_model(&m, &options);
    assert_eq!(
        elided,
        format!(
            "{HEADER}onnx.graph \"g\"(%w: tensor<2x3xf32> = dense_resource<__elided__> : tensor<2x3xf32>) -> () {{\n  %0 = \"onnx.Constant\"() {{value = dense<[1, 2]> : tensor<2xi64>, sparse_value = sparse<dense_resource<__elided__> : tensor<5xi64>, dense_resource<__elided__> : tensor<5xi32>> : !onnx.sparse<9xi32>}} : () -> tensor<2xi64>\n  onnx.return\n}}\n"
        )
    );
    let back = parse_model(&elided).unwrap();
    let g = back.ir.region(back.graph);
    assert!(g.args[0].default.as_ref().unwrap().payload == Payload::Elided);
    assert_eq!(back.to_string(), elided);
}

#[test]
fn subgraphs_see_outer_values() {
    round_trip(
        &format!(
            r#"{HEADER}onnx.graph "control"(%cond: tensor<i1>, %x: tensor<3xf32>, %n: tensor<i64>) -> ("r": tensor<3xf32>, "l": tensor<3xf32>, "s": tensor<3xf32>) {{
  %r = "onnx.If"(%cond) {{then_branch = onnx.graph "then"() -> ("o": tensor<3xf32>) {{
    %t = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.return %t
  }}, else_branch = onnx.graph "else"() -> ("o": tensor<3xf32>) {{
    onnx.return %x
  }}}} : (tensor<i1>) -> tensor<3xf32>
  %l = "onnx.Loop"(%n, none, %x) {{body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<3xf32>) -> ("c": tensor<i1>, "acc": tensor<3xf32>) {{
    %sum = "onnx.Add"(%acc, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %t = "onnx.If"(%c) {{then_branch = onnx.graph "deep"() -> ("o": tensor<3xf32>) {{
      %u = "onnx.Mul"(%sum, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      onnx.return %u
    }}, else_branch = onnx.graph "deep2"() -> ("o": tensor<3xf32>) {{
      onnx.return %acc
    }}}} : (tensor<i1>) -> tensor<3xf32>
    onnx.return %c, %t
  }}}} : (tensor<i64>, none, tensor<3xf32>) -> tensor<3xf32>
  %s, %ys = "onnx.Scan"(%x, %x) {{body = onnx.graph "scan"(%st: tensor<3xf32>, %el: tensor<f32>) -> ("st": tensor<3xf32>, "el": tensor<f32>) {{
    %0 = "onnx.Add"(%st, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    onnx.return %0, %el
  }}, num_scan_inputs = 1}} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  onnx.return %r, %l, %s
}}
"#
        ),
        true,
    );
}

#[test]
fn names_absent_slots_versions_and_metadata() {
    let m = round_trip(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17, "ai.onnx.ml" = 3}}
onnx.graph "names"(%"onnx::Gemm_12": tensor<2xf32> {doc_string = "an input", metadata_props = {"k" = "v"}}, %"123": tensor<2xf32>, %"0": tensor<2xf32>, %x.y$z: tensor<2xf32>, %"a b": tensor<2xf32>, %"": tensor<2xf32>) -> ("out put": tensor<2xf32>, "second": tensor<2xf32>, "again": tensor<2xf32>) attributes {doc_string = "the graph", metadata_props = {"a" = "b"}} {
  %0 = "onnx.Add"(%"onnx::Gemm_12", %"123") : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("/add/Add")
  %1 = "onnx.Clip-6"(%0) {max = 6.0, min = 0.0} : (tensor<2xf32>) -> tensor<2xf32>
  %2, _ = "onnx.Dropout"(%1, none, none) {onnx.doc_string = "drop\0a", onnx.metadata_props = {"p" = "q"}} : (tensor<2xf32>, none, none) -> (tensor<2xf32>, none)
  %"/scale/Scaler_output_0" = "onnx_ml.Scaler"(%2) {offset = [0.0], scale = [2.0], onnx.result_meta = [{doc_string = "scaled"}]} : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "onnx.Sub"(%"0", %x.y$z) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4, %5 = "onnx.Split"(%3) {axis = 0} : (tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  onnx.return %"/scale/Scaler_output_0", %3, %3
}
"#,
        true,
    );
    let ir = &m.ir;
    let g = ir.region(m.graph);
    assert_eq!(
        ir.value(g.args[0].value).name.as_deref(),
        Some("onnx::Gemm_12")
    );
    assert_eq!(ir.value(g.args[2].value).name.as_deref(), Some("0"));
    assert_eq!(ir.value(g.args[5].value).name.as_deref(), Some(""));
    let add = ir.op(g.ops[0]);
    assert_eq!((add.name.as_str(), add.version), ("/add/Add", 14));
    assert_eq!(ir.op(g.ops[1]).version, 6);
    let dropout = ir.op(g.ops[2]);
    assert_eq!((dropout.inputs.len(), dropout.results[1]), (3, None));
    assert_eq!(ir.value(dropout.results[0].unwrap()).name, None);
    assert_eq!(
        dropout.meta.as_deref(),
        Some(&Meta {
            doc_string: "drop\n".into(),
            metadata_props: vec![("p".into(), "q".into())]
        })
    );
    assert_eq!(ir.op(g.ops[3]).kind, OpKind::Scaler);
    assert_eq!(g.outputs[0].name, "out put");
    assert_eq!(
        ir.region(m.graph).meta.as_ref().unwrap().doc_string,
        "the graph"
    );
}

#[test]
fn printer_numbers_unnamed_values_without_collisions() {
    // A model built through the IR API, the way the importer and passes
    // build them: unnamed values, a value named "0", an initializer.
    let mut m = Model::new(
        "built",
        vec![OpsetImport {
            domain: String::new(),
            version: 17,
        }],
    );
    let g = m.graph;
    let t = Type::tensor(ElemType::F32, &[2]);
    let x = m.ir.add_arg(g, Some("0".into()), t.clone());
    let w = m.ir.add_arg(g, None, t.clone());
    m.ir.region_mut(g).args[1].default =
        Some(TensorData::from_vec(vec![2], &[1.5f32, -2.0]).unwrap());
    let new = |kind, inputs: Vec<Option<Value>>| NewOp {
        kind,
        version: kind.schema(17).unwrap().since_version,
        inputs,
        results: vec![Some((None, t.clone()))],
        attrs: Attrs::default(),
        name: String::new(),
    };
    let add = m.ir.append_op(g, new(OpKind::Add, vec![Some(x), Some(w)]));
    let sum = m.ir.op(add).results[0].unwrap();
    let relu = m.ir.append_op(g, new(OpKind::Relu, vec![Some(sum)]));
    let out = m.ir.op(relu).results[0].unwrap();
    m.ir.add_output(g, "y", out);
    m.ir_version = 9;
    let text = m.to_string();
    assert_eq!(
        text,
        r#"onnx.model {ir_version = 9, opset_imports = {"" = 17}}
onnx.graph "built"(%"0": tensor<2xf32>, %0: tensor<2xf32> = dense<[1.5, -2.0]> : tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %1 = "onnx.Add"(%"0", %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "onnx.Relu"(%1) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %2
}
"#
    );
    let back = parse_model(&text).unwrap();
    assert_eq!(back, m, "the parser rebuilds the same arena");
}

#[test]
fn training_info() {
    round_trip(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17, "ai.onnx.preview.training" = 1}}
onnx.graph "main"(%x: tensor<3xf32>, %w: tensor<3xf32> = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) -> ("y": tensor<3xf32>) {
  %y = "onnx.Mul"(%x, %w) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  onnx.return %y
}
onnx.training {initialization = onnx.graph "init"() -> ("w0": tensor<3xf32>) {
  %w0 = "onnx.Constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  onnx.return %w0
}, algorithm = onnx.graph "step"(%r: tensor<f32>, %t: tensor<i64>, %g: tensor<3xf32>, %h: tensor<3xf32>) -> ("w1": tensor<3xf32>, "h1": tensor<3xf32>) {
  %w1, %h1 = "onnx_training.Adagrad"(%r, %t, %w, %g, %h) {epsilon = 1e-6} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  onnx.return %w1, %h1
}, initialization_binding = {"w" = "w0"}, update_binding = {"w" = "w1"}}
onnx.training {algorithm = onnx.graph "second"() -> () {
  onnx.return
}}
"#,
        true,
    );
}

#[test]
fn comments_and_whitespace_are_ignored() {
    let m = parse_model(
        "// RUN: roundtrip\nonnx.model{ir_version=10,opset_imports={\"\"=17}} // the header\n\
         onnx.graph \"g\" ( %x : tensor<f32> ) -> ( \"y\" : tensor<f32> ) {\n\
         // an op\n %y=\"onnx.Relu\" ( %x ) : ( tensor<f32> ) -> tensor<f32>\n onnx.return %y }",
    )
    .unwrap();
    assert_eq!(m.ir.region(m.graph).ops.len(), 1);
}

#[test]
fn errors_say_where_and_what() {
    let g = |body: &str| {
        format!("{HEADER}onnx.graph \"g\"(%x: tensor<2xf32>) -> () {{\n{body}\n  onnx.return\n}}\n")
    };
    let op = |attrs: &str| {
        g(&format!(
            "  %y = \"onnx.Relu\"(%x) {attrs} : (tensor<2xf32>) -> tensor<2xf32>"
        ))
    };
    let cases = [
        ("", "1:1: expected 'onnx.model' at the start of a model, found end of input".to_string()),
        ("onnx.model {ir_versio = 1}", "1:13: unknown model field 'ir_versio'".into()),
        ("onnx.model {ir_version = 1, ir_version = 2}", "1:29: duplicate model field 'ir_version'".into()),
        ("onnx.model {ir_version = 1.5}", "1:26: expected an integer, found a float".into()),
        (&g("  %y = \"onnx.Relu\"(%z) : (tensor<2xf32>) -> tensor<2xf32>"), "3:20: use of undefined value %z".into()),
        (&g("  %x = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"), "3:3: redefinition of %x".into()),
        (&g("  %a, %a = \"onnx.Split\"(%x) : (tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>)"), "3:7: redefinition of %a".into()),
        (&g("  %y = \"onnx.Frobnicate\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"), "3:8: unknown op 'onnx.Frobnicate'".into()),
        (&g("  %y = \"onnx.Gelu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"), "3:8: onnx.Gelu does not exist in opset 17 of ai.onnx (it was introduced in opset 20)".into()),
        (&g("  %y = \"onnx.Clip-7\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"), "3:8: onnx.Clip has no version 7 (its versions are 1, 6, 11, 12, 13)".into()),
        (&g("  %y = \"onnx_ml.Scaler\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"), "3:8: no opset import for domain 'ai.onnx.ml' (needed by onnx_ml.Scaler)".into()),
        (&g("  %y = \"tf.Relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"), "3:8: unknown op domain prefix 'tf'".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<3xf32>) -> tensor<2xf32>"), "3:20: operand 0 has type tensor<2xf32> but the op's type says tensor<3xf32>".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<2xf32>, none) -> tensor<2xf32>"), "3:27: the op has 1 operands but its type lists 2".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> none"), "3:3: result %y has type none; write '_' for an absent result".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> tensor<2xfloat>"), "3:54: unknown element type 'float'".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> tensor<2>"), "3:53: expected 'x' after a dimension, found '>'".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> !onnx.vec<f32>"), "3:45: unknown type '!onnx.vec'".into()),
        (&g("  %y = \"onnx.Relu\"(%x) : (tensor<2xf32>) tensor<2xf32>"), "3:42: expected '->' after the operand types, found 'tensor'".into()),
        (&op("{alpha = }"), "3:33: expected an attribute value, found '}'".into()),
        (&op("{alpha = 1, alpha = 2}"), "3:36: duplicate attribute 'alpha'".into()),
        (&op("{l = []}"), "3:31: expected ':' after '[]' (an empty list needs its kind, e.g. '[] : ints')".into()),
        (&op("{l = [] : bytes}"), "3:34: unknown list kind 'bytes'".into()),
        (&op("{l = [1, 2.0]}"), "3:33: a list of INTS cannot hold a FLOAT value".into()),
        (&op("{l = [[1]]}"), "3:30: attribute lists cannot nest".into()),
        (&op("{onnx.color = 1}"), "3:25: unknown attribute 'onnx.color'".into()),
        (&op("{s = \"abc}"), "3:29: unterminated string".into()),
        (&op("{s = \"\\q\"}"), "3:30: invalid escape in string".into()),
        (&op("{i = 99999999999999999999}"), "3:29: integer 99999999999999999999 does not fit an INT attribute (int64)".into()),
        (&op("{f = 1e39}"), "3:29: float 1e39 is out of range for f32".into()),
        (&op("{f = nan(0x1)}"), "3:29: 0x1 is not the bit pattern of a f32 NaN".into()),
        (&op("{t = dense<[1.0, 2.0]> : tensor<3xf32>}"), "3:35: expected 3 elements in this list, found 2".into()),
        (&op("{t = dense<[[1.0], [2.0]]> : tensor<2xf32>}"), "3:36: expected a scalar here, found a list".into()),
        (&op("{t = dense<1.0> : tensor<?xf32>}"), "3:42: a tensor constant needs a static shape".into()),
        (&op("{t = dense<300> : tensor<ui8>}"), "3:35: 300 is out of range for ui8".into()),
        (&op("{t = dense<\"0x0102\"> : tensor<f32>}"), "3:35: tensor of type f32 and shape [] needs 4 bytes of data, got 2".into()),
        (&op("{t = dense<\"0x01\"> : tensor<1xf16>}"), "3:35: tensor of type f16 and shape [1] needs 2 bytes".into()),
        (&op("{t = dense<\"12\"> : tensor<1xi8>}"), "3:35: expected a hex string".into()),
        (&op("{t = dense<[1, 2]> : tensor<2xi4>}"), "3:36: i4 tensors have no element literals".into()),
        (&op("{t = dense<1.0> : tensor<100000x100000x100000xf32>}"), "3:35: splat tensor is too large".into()),
        (&op("{t = dense_resource<blob> : tensor<2xf32>}"), "3:44: expected '__elided__'".into()),
        (&op("{t = sparse<dense<[0]> : tensor<1xi64>, dense<[1.0]> : tensor<1xf32>> : !onnx.sparse<4xi32>}"), "3:96: expected a static !onnx.sparse type with element type f32".into()),
        (&g("  onnx.return"), "4:3: expected '}' after onnx.return, found 'onnx.return'".into()),
        (&format!("{HEADER}onnx.graph \"g\"(%x: tensor<2xf32>) -> (\"y\": tensor<2xf32>) {{\n  onnx.return\n}}"), "3:3: onnx.return has 0 values but the graph signature declares 1 outputs".into()),
        (&format!("{HEADER}onnx.graph \"g\"(%x: tensor<2xf32>) -> (\"y\": tensor<3xf32>) {{\n  onnx.return %x\n}}"), "3:15: %x has type tensor<2xf32> but the graph signature declares output \"y\" as tensor<3xf32>".into()),
        (&format!("{HEADER}onnx.graph \"g\"() -> () {{\n  onnx.return\n}}\nonnx.graph"), "5:1: expected 'onnx.training' or the end of the model, found 'onnx.graph'".into()),
        (&format!("{HEADER}onnx.graph \"g\"() -> () {{\n  onnx.return\n}}\nonnx.training {{}}"), "5:1: onnx.training needs an 'algorithm' graph".into()),
        (&format!("{HEADER}onnx.graph \"g\"(%x: tensor<(\"a\"*9223372036854775807+\"a\"*9223372036854775807)xf32>) -> () {{\n  onnx.return\n}}"), "2:27: dimension polynomial overflows int64".into()),
        (&format!("{HEADER}onnx.graph \"\\ff\"() -> () {{\n  onnx.return\n}}"), "2:12: the graph name string is not valid UTF-8".into()),
        (&g("  %y = \"onnx.If\"(%x) {then_branch = onnx.graph \"t\"() -> () {\n    %q = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n    onnx.return\n  }} : (tensor<2xf32>) -> tensor<2xf32>\n  %z = \"onnx.Relu\"(%q) : (tensor<2xf32>) -> tensor<2xf32>"), "7:20: use of undefined value %q".into()),
    ];
    let mut failures = vec![];
    for (text, expected) in &cases {
        let actual = error(text);
        if !actual.starts_with(expected.as_str()) {
            failures.push(format!(
                "expected: {expected}\n  actual: {actual}\n{}",
                numbered(text)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn nesting_is_bounded() {
    let deep_type = format!("{}tensor<f32>{}", "!onnx.seq<".repeat(300), ">".repeat(300));
    let text = format!("{HEADER}onnx.graph \"g\"(%x: {deep_type}) -> () {{\n  onnx.return\n}}\n");
    assert!(
        error(&text).contains("nesting is deeper than 256 levels"),
        "{}",
        error(&text)
    );

    let deep_literal = format!("{}1{}", "[".repeat(300), "]".repeat(300));
    let text = format!(
        "{HEADER}onnx.graph \"g\"() -> () {{\n  %0 = \"onnx.Constant\"() {{value = dense<{deep_literal}> : tensor<f32>}} : () -> tensor<f32>\n  onnx.return\n}}\n"
    );
    assert!(error(&text).contains("nesting is deeper than 256 levels"));

    // Graphs nested in If branches: 300 levels fail cleanly, 100 parse
    // and print (no stack overflow either way).
    let nest = |levels: usize| {
        let mut body = "onnx.return".to_string();
        for i in 0..levels {
            body = format!(
                "%r{i} = \"onnx.If\"(%c) {{then_branch = onnx.graph \"t\"() -> () {{ {body} }}, else_branch = onnx.graph \"e\"() -> () {{ onnx.return }}}} : (tensor<i1>) -> tensor<f32>\n onnx.return"
            );
        }
        format!("{HEADER}onnx.graph \"g\"(%c: tensor<i1>) -> () {{ {body} }}")
    };
    assert!(error(&nest(300)).contains("nesting is deeper than 256 levels"));
    let m = parse_model(&nest(100)).unwrap();
    assert_eq!(parse_model(&m.to_string()).unwrap(), m);
}

/// A small deterministic generator for the fuzz test (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn no_input_panics() {
    let sample = format!(
        r#"{HEADER}onnx.graph "g"(%x: tensor<"N"x(2*"S"+1)xf32>, %w: tensor<2xf32> = dense<[1.0, nan(0x7FC00001)]> : tensor<2xf32>) -> ("y": tensor<"N"x(2*"S"+1)xf32>) {{
  %0, _ = "onnx.Dropout-12"(%x, none) {{s = "a\0ab", l = [] : ints, t = dense<"0x0102"> : tensor<2xui8>, g = onnx.graph "b"() -> () {{
    onnx.return
  }}, st = dense<["x", "y"]> : tensor<2xstring>, sp = sparse<dense<[0]> : tensor<1xi64>, dense<[1]> : tensor<1xi32>> : !onnx.sparse<2xi32>, onnx.result_meta = [{{doc_string = "d"}}, {{}}]}} : (tensor<"N"x(2*"S"+1)xf32>, none) -> (tensor<"N"x(2*"S"+1)xf32>, none) loc("n")
  onnx.return %0
}}
onnx.training {{algorithm = onnx.graph "a"() -> () {{
  onnx.return
}}, update_binding = {{"w" = "x"}}}}
"#
    );
    parse_model(&sample).expect("the fuzz sample is valid");
    // Every truncation.
    for (i, _) in sample.char_indices() {
        let _ = parse_model(&sample[..i]);
    }
    // Random mutations: replace, insert or delete characters, biased
    // towards the grammar's own punctuation.
    let alphabet: Vec<char> = "{}[]()<>%\"\\:,=-x0123456789._!?*+ \nabcdefnoé"
        .chars()
        .collect();
    let chars: Vec<char> = sample.chars().collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let mut text = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len());
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 => text[at] = c,
                1 => text.insert(at, c),
                _ => {
                    text.remove(at);
                }
            }
        }
        let text: String = text.into_iter().collect();
        if let Ok(m) = parse_model(&text) {
            // Whatever parses must print to text that parses back the same.
            let printed = m.to_string();
            let again = parse_model(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
            assert_eq!(again.to_string(), printed);
        }
    }
}
