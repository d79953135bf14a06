//! Graphviz drawing of a model's main graph (`--emit dot`), so that a
//! person can compare the graph before and after optimization.
//!
//! Ops are boxes labelled with the op and its attributes (fused ops in
//! color), graph inputs and outputs are ellipses, constants small gray
//! notes with their type; edges carry the value's type.

use std::collections::HashMap;
use std::fmt::Write;

use onnx_mlc_dialect::ir::ValueDef;
use onnx_mlc_dialect::{Attr, Domain, Model, OpKind, Value};

use crate::lang::{op_name, ShowAttr};

/// The main graph in Graphviz's DOT language.
pub fn to_dot(model: &Model) -> String {
    let ir = &model.ir;
    let region = ir.region(model.graph);
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "digraph {} {{", quote(&region.name));
    let _ = writeln!(w, "  rankdir=TB;\n  node [fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=8];");
    let mut source: HashMap<Value, String> = HashMap::new();
    for (i, arg) in region.args.iter().enumerate() {
        let id = format!("in{i}");
        let name = ir
            .value(arg.value)
            .name
            .clone()
            .unwrap_or_else(|| format!("input {i}"));
        let _ = writeln!(
            w,
            "  {id} [shape=ellipse, label={}];",
            quote(&format!("{name}\n{}", ir.ty(arg.value)))
        );
        source.insert(arg.value, id);
    }
    for (n, &op) in region.ops.iter().enumerate() {
        let d = ir.op(op);
        let id = format!("op{n}");
        if d.kind == OpKind::Constant {
            let ty = d
                .results
                .first()
                .copied()
                .flatten()
                .map(|v| ir.ty(v).to_string())
                .unwrap_or_default();
            let _ = writeln!(
                w,
                "  {id} [shape=note, style=filled, fillcolor=\"#eeeeee\", label={}];",
                quote(&ty)
            );
        } else {
            let mut label = op_name(d.kind);
            for (name, a) in d.attrs.iter() {
                if matches!(a, Attr::Tensor(_) | Attr::Graph(_) | Attr::Graphs(_)) {
                    continue;
                }
                let _ = write!(label, "\n{name}={}", ShowAttr(a));
            }
            if !d.name.is_empty() {
                let _ = write!(label, "\n({})", d.name);
            }
            let fill = if d.kind.domain() == Domain::Internal {
                "#ffd7a8"
            } else {
                "#ffffff"
            };
            let _ = writeln!(
                w,
                "  {id} [shape=box, style=filled, fillcolor=\"{fill}\", label={}];",
                quote(&label)
            );
        }
        for (k, input) in d.inputs.iter().enumerate() {
            let Some(v) = input else { continue };
            let from = match source.get(v) {
                Some(s) => s.clone(),
                None => outer(ir, *v),
            };
            let _ = writeln!(
                w,
                "  {from} -> {id} [label={}];",
                quote(&format!("{k}: {}", ir.ty(*v)))
            );
        }
        for r in d.results.iter().flatten() {
            source.insert(*r, id.clone());
        }
    }
    for (i, o) in region.outputs.iter().enumerate() {
        let id = format!("out{i}");
        let _ = writeln!(
            w,
            "  {id} [shape=ellipse, style=bold, label={}];",
            quote(&o.name)
        );
        let from = source
            .get(&o.value)
            .cloned()
            .unwrap_or_else(|| outer(ir, o.value));
        let _ = writeln!(
            w,
            "  {from} -> {id} [label={}];",
            quote(&ir.ty(o.value).to_string())
        );
    }
    out.push_str("}\n");
    out
}

/// A value from outside the main graph's op list (should not happen in a
/// valid model): drawn as its own node.
fn outer(ir: &onnx_mlc_dialect::Ir, v: Value) -> String {
    match ir.value(v).def {
        ValueDef::Arg(r, i) => format!("r{}a{i}", r.index()),
        ValueDef::Result(op, i) => format!("x{}r{i}", op.index()),
    }
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
