//! A model summary: what `onnx-mlc inspect` prints.

use std::collections::BTreeMap;
use std::fmt;

use crate::dim::Dim;
use crate::ir::Model;
use crate::name_dims::name_run_time_sizes;
use crate::schema::{Domain, OpKind};
use crate::types::Type;

/// Facts about a model a deployer wants at a glance.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub ir_version: i64,
    /// (domain, version) pairs as imported.
    pub opsets: Vec<(String, i64)>,
    pub producer: String,
    /// Main-graph inputs that the caller must provide: name and type.
    pub inputs: Vec<(String, Type)>,
    /// Main-graph inputs with a default (overridable initializers).
    pub defaulted_inputs: usize,
    pub outputs: Vec<(String, Type)>,
    /// The size symbols and where each is bound: `("N", "input x, dim 0")`,
    /// in order of first appearance on the inputs; then the symbols of the
    /// sizes the model computes from tensor values, each with the op that
    /// defines it (`name_dims::name_run_time_sizes`).
    pub symbols: Vec<(String, String)>,
    /// Main-graph values whose type keeps a dim even a run-time symbol
    /// cannot name (an unknown rank): how many, and the first one with its
    /// origin.
    pub unknown_sizes: (usize, Option<String>),
    /// Number of ops of each kind, subgraphs included (`Constant`s that
    /// hold parameters are counted under `parameters`, not here).
    pub op_histogram: BTreeMap<OpKind, usize>,
    /// Elements and bytes of all constant tensors (weights).
    pub parameters: usize,
    pub parameter_bytes: usize,
    /// Number of subgraphs (If/Loop/Scan bodies, …).
    pub subgraphs: usize,
    pub metadata: Vec<(String, String)>,
}

impl Summary {
    /// Summarizes a model.
    pub fn of(model: &Model) -> Summary {
        let ir = &model.ir;
        let main = ir.region(model.graph);
        let mut op_histogram = BTreeMap::new();
        let (mut parameters, mut parameter_bytes, mut subgraphs) = (0, 0, 0);
        for region in model.top_regions() {
            for op in ir.walk_ops(region) {
                let data = ir.op(op);
                subgraphs += data.attrs.regions().count();
                match data.attrs.tensor("value") {
                    Some(t) if data.kind == OpKind::Constant => {
                        parameters += t.numel();
                        parameter_bytes += t.byte_size();
                    }
                    _ => *op_histogram.entry(data.kind).or_insert(0) += 1,
                }
            }
        }
        for arg in &main.args {
            if let Some(d) = &arg.default {
                parameters += d.numel();
                parameter_bytes += d.byte_size();
            }
        }
        let named = |v| ir.value(v).name.clone().unwrap_or_default();
        let mut symbols: Vec<(String, String)> = vec![];
        for arg in &main.args {
            let Type::Tensor(t) = ir.ty(arg.value) else {
                continue;
            };
            for (axis, d) in t.dims().into_iter().flatten().enumerate() {
                let Some(atoms) = d.atoms() else {
                    continue;
                };
                let [atom] = atoms[..] else {
                    continue;
                };
                if Dim::param(atom) != *d || symbols.iter().any(|(s, _)| s == atom) {
                    continue;
                }
                let unnamed = if atom.starts_with('?') {
                    " (unnamed in the model)"
                } else {
                    ""
                };
                let input = named(arg.value);
                symbols.push((
                    atom.to_string(),
                    format!("input {input}, dim {axis}{unnamed}"),
                ));
            }
        }
        // The sizes computed at run time, named as the partitioner names
        // them.
        let named_model = name_run_time_sizes(model).ok().flatten();
        let (ir, sized) = match &named_model {
            Some((m, sized)) => (&m.ir, sized.as_slice()),
            None => (ir, &[][..]),
        };
        for &op in sized {
            for &v in ir.op(op).results.iter().flatten() {
                let Type::Tensor(t) = ir.ty(v) else { continue };
                for (axis, d) in t.dims().into_iter().flatten().enumerate() {
                    let Some(atom) = d.as_param().filter(|a| a.starts_with('?')) else {
                        continue;
                    };
                    if symbols.iter().all(|(s, _)| s != atom) {
                        symbols.push((
                            atom.to_string(),
                            format!(
                                "computed at run time by {}, %{} dim {axis}",
                                ir.describe_op(op),
                                ir.value(v).name.clone().unwrap_or_default()
                            ),
                        ));
                    }
                }
            }
        }
        let mut unknown_sizes = (0, None);
        for op in ir.walk_ops(model.graph) {
            for v in ir.op(op).results.iter().flatten() {
                if let Type::Tensor(t) = ir.ty(*v) {
                    if t.dims().is_none_or(|dims| dims.contains(&Dim::Unknown)) {
                        unknown_sizes.0 += 1;
                        unknown_sizes.1.get_or_insert_with(|| {
                            format!("%{} of {}", named(*v), ir.describe_op(op))
                        });
                    }
                }
            }
        }
        Summary {
            ir_version: model.ir_version,
            opsets: model
                .opset_imports
                .iter()
                .map(|o| (o.domain.clone(), o.version))
                .collect(),
            producer: format!("{} {}", model.producer_name, model.producer_version)
                .trim()
                .to_string(),
            inputs: main
                .args
                .iter()
                .filter(|a| a.default.is_none())
                .map(|a| (named(a.value), ir.ty(a.value).clone()))
                .collect(),
            defaulted_inputs: main.args.iter().filter(|a| a.default.is_some()).count(),
            outputs: main
                .outputs
                .iter()
                .map(|o| (o.name.clone(), ir.ty(o.value).clone()))
                .collect(),
            symbols,
            unknown_sizes,
            op_histogram,
            parameters,
            parameter_bytes,
            subgraphs,
            metadata: model.metadata_props.clone(),
        }
    }
}

/// `n` bytes for people: `512 B`, `3.2 KiB`, `97.7 MiB`, `1.5 GiB`.
pub fn human_bytes(n: usize) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ir_version: {}", self.ir_version)?;
        let opsets: Vec<String> = self
            .opsets
            .iter()
            .map(|(d, v)| format!("{} {v}", if d.is_empty() { "ai.onnx" } else { d }))
            .collect();
        writeln!(f, "opsets:     {}", opsets.join(", "))?;
        if !self.producer.is_empty() {
            writeln!(f, "producer:   {}", self.producer)?;
        }
        writeln!(f, "inputs:")?;
        for (name, ty) in &self.inputs {
            writeln!(f, "  {name}: {ty}")?;
        }
        if self.defaulted_inputs > 0 {
            writeln!(
                f,
                "  (+{} inputs with initializer defaults)",
                self.defaulted_inputs
            )?;
        }
        writeln!(f, "outputs:")?;
        for (name, ty) in &self.outputs {
            writeln!(f, "  {name}: {ty}")?;
        }
        if !self.symbols.is_empty() {
            writeln!(f, "symbols:")?;
            for (name, bound) in &self.symbols {
                writeln!(f, "  {}: {bound}", Dim::param(name))?;
            }
        }
        if let (n, Some(first)) = &self.unknown_sizes {
            let values = if *n == 1 { "value" } else { "values" };
            writeln!(
                f,
                "unknown:    {n} {values} of unknown rank (first: {first})"
            )?;
        }
        writeln!(
            f,
            "parameters: {} ({})",
            self.parameters,
            human_bytes(self.parameter_bytes)
        )?;
        let total: usize = self.op_histogram.values().sum();
        writeln!(
            f,
            "ops:        {total} ({} kinds, {} subgraphs)",
            self.op_histogram.len(),
            self.subgraphs
        )?;
        let mut by_count: Vec<_> = self.op_histogram.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (kind, n) in by_count {
            let domain = match kind.domain() {
                Domain::Onnx => String::new(),
                d => format!("{}.", d.name()),
            };
            writeln!(f, "  {n:>6}  {domain}{}", kind.name())?;
        }
        if !self.metadata.is_empty() {
            writeln!(f, "metadata:")?;
            for (k, v) in &self.metadata {
                writeln!(f, "  {k}: {v}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::{Attr, Attrs};
    use crate::ir::{NewOp, OpsetImport};
    use crate::tensor::TensorData;
    use crate::types::ElemType;

    #[test]
    fn counts_ops_and_parameters() {
        let mut m = Model::new(
            "g",
            vec![OpsetImport {
                domain: String::new(),
                version: 17,
            }],
        );
        let g = m.graph;
        let x =
            m.ir.add_arg(g, Some("x".into()), Type::tensor(ElemType::F32, &[4]));
        let w = TensorData::from_vec(vec![4], &[1.0f32; 4]).unwrap();
        let ty = Type::Tensor(w.ty());
        let c = m.ir.append_op(
            g,
            NewOp {
                kind: OpKind::Constant,
                version: 13,
                inputs: vec![],
                results: vec![Some((Some("w".into()), ty.clone()))],
                attrs: Attrs(vec![("value".into(), Attr::Tensor(w))]),
                name: String::new(),
            },
        );
        let wv = m.ir.op(c).results[0].unwrap();
        let add = m.ir.append_op(
            g,
            NewOp {
                kind: OpKind::Add,
                version: 14,
                inputs: vec![Some(x), Some(wv)],
                results: vec![Some((Some("y".into()), ty))],
                attrs: Attrs::default(),
                name: "add".into(),
            },
        );
        let y = m.ir.op(add).results[0].unwrap();
        m.ir.add_output(g, "y", y);
        let s = Summary::of(&m);
        assert_eq!(s.parameters, 4);
        assert_eq!(s.parameter_bytes, 16);
        assert_eq!(s.op_histogram.get(&OpKind::Add), Some(&1));
        assert_eq!(s.op_histogram.get(&OpKind::Constant), None);
        let text = s.to_string();
        assert!(text.contains("x: tensor<4xf32>"), "{text}");
        assert!(text.contains("parameters: 4 (16 B)"), "{text}");
    }

    #[test]
    fn names_where_each_size_symbol_is_bound_and_counts_unknown_sizes() {
        let mut m = crate::parse_model(
            r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<?x"S"xf32>, %k: tensor<2xi64>, %s: tensor<?xi64>) -> ("y": !onnx.unknown, "z": !onnx.unknown, "r": !onnx.unknown) {
  %y = "onnx.Relu"(%x) : (tensor<?x"S"xf32>) -> !onnx.unknown
  %z = "onnx.Tile"(%x, %k) : (tensor<?x"S"xf32>, tensor<2xi64>) -> !onnx.unknown
  %r = "onnx.Reshape"(%x, %s) : (tensor<?x"S"xf32>, tensor<?xi64>) -> !onnx.unknown
  onnx.return %y, %z, %r
}
"#,
        )
        .unwrap();
        for pass in ["name-dims", "infer-shapes"] {
            (crate::passes::pass(pass).unwrap().run)(&mut m).unwrap();
        }
        let s = Summary::of(&m);
        assert_eq!(
            s.symbols,
            [
                (
                    "?x.0".to_string(),
                    "input x, dim 0 (unnamed in the model)".to_string()
                ),
                ("S".to_string(), "input x, dim 1".to_string()),
                (
                    "?s.0".to_string(),
                    "input s, dim 0 (unnamed in the model)".to_string()
                ),
                (
                    "?z.0".to_string(),
                    "computed at run time by unnamed node (Tile-13), %z dim 0".to_string()
                ),
                (
                    "?z.1".to_string(),
                    "computed at run time by unnamed node (Tile-13), %z dim 1".to_string()
                ),
            ]
        );
        assert_eq!(
            s.unknown_sizes.0, 1,
            "a Reshape to a shape of unknown length"
        );
        let text = s.to_string();
        assert!(text.contains("symbols:\n  \"?x.0\": input x, dim 0 (unnamed in the model)\n  \"S\": input x, dim 1\n"), "{text}");
        assert!(
            text.contains("unknown:    1 value of unknown rank (first: %r of "),
            "{text}"
        );
    }
}
