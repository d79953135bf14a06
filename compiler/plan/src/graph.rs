//! The planner's view of the main graph: each op's class, each value's
//! producer and uses (values read from inside subgraphs included), views
//! resolved to the values they show, and each value's size.
//!
//! Ops are addressed by their position in the main graph's op list, which
//! is a topological order (the verifier checks it).

use std::collections::{HashMap, HashSet};

use onnx_mlc_dialect::ir::ValueDef;
use onnx_mlc_dialect::{Dim, Ir, Model, OpId, Type, Value};

use crate::classify::{classify, OpClass};
use crate::error::{Error, Result};
use crate::report::value_ref;

/// The size of a tensor in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Size {
    /// Known at compile time.
    Static(u64),
    /// A polynomial over `dim_param`s.
    Symbolic(Dim),
}

/// The main graph, indexed for planning.
pub(crate) struct Graph<'m> {
    pub ir: &'m Ir,
    /// The main graph's ops, in order.
    pub ops: Vec<OpId>,
    /// Each op's class, by position.
    pub class: Vec<OpClass>,
    /// Every value of the main graph: arguments, then results in op order.
    pub values: Vec<Value>,
    /// The graph outputs, in order.
    pub outputs: Vec<Value>,
    output_set: HashSet<Value>,
    producer: HashMap<Value, usize>,
    uses: HashMap<Value, Vec<usize>>,
    operands: Vec<Vec<Value>>,
    view_source: HashMap<Value, Value>,
    sizes: HashMap<Value, Size>,
}

impl<'m> Graph<'m> {
    /// Indexes the main graph of `model`, checking that every value is a
    /// dense tensor of known shape and element size.
    pub fn new(model: &'m Model) -> Result<Graph<'m>> {
        let ir = &model.ir;
        let main = ir.region(model.graph);
        let ops = main.ops.clone();
        let mut values: Vec<Value> = main.args.iter().map(|a| a.value).collect();
        let mut producer = HashMap::new();
        for (pos, &op) in ops.iter().enumerate() {
            for &v in ir.op(op).results.iter().flatten() {
                producer.insert(v, pos);
                values.push(v);
            }
        }
        let defined: HashSet<Value> = values.iter().copied().collect();
        let mut uses: HashMap<Value, Vec<usize>> = HashMap::new();
        let mut operands = Vec::with_capacity(ops.len());
        for (pos, &op) in ops.iter().enumerate() {
            let mut read: Vec<Value> = vec![];
            for v in ir
                .op(op)
                .inputs
                .iter()
                .flatten()
                .copied()
                .chain(captures(ir, op, &defined))
            {
                if !read.contains(&v) {
                    read.push(v);
                    uses.entry(v).or_default().push(pos);
                }
            }
            operands.push(read);
        }
        let class: Vec<OpClass> = ops.iter().map(|&op| classify(ir, ir.op(op))).collect();
        let mut view_source = HashMap::new();
        for (pos, &op) in ops.iter().enumerate() {
            if class[pos] == OpClass::View {
                let data = ir.op(op);
                let (Some(Some(src)), [Some(result)]) = (data.inputs.first(), &data.results[..])
                else {
                    return Err(Error::Malformed {
                        op: ir.describe_op(op).to_string(),
                        reason: "a view op needs its data input and exactly one result".into(),
                    });
                };
                view_source.insert(*result, *src);
            }
        }
        let outputs: Vec<Value> = main.outputs.iter().map(|o| o.value).collect();
        let mut graph = Graph {
            ir,
            ops,
            class,
            output_set: outputs.iter().copied().collect(),
            outputs,
            producer,
            uses,
            operands,
            view_source,
            sizes: HashMap::new(),
            values,
        };
        for &v in &graph.values {
            let size = graph.size_of(v)?;
            graph.sizes.insert(v, size);
        }
        Ok(graph)
    }

    /// The position of the op that produces `v` (`None` for arguments).
    pub fn producer(&self, v: Value) -> Option<usize> {
        self.producer.get(&v).copied()
    }

    /// The ops that read `v` — as an input or from inside one of their
    /// subgraphs — in order, each once.
    pub fn uses(&self, v: Value) -> &[usize] {
        self.uses.get(&v).map_or(&[], Vec::as_slice)
    }

    /// What op `pos` reads: its inputs, then the main-graph values its
    /// subgraphs use, each once.
    pub fn operands(&self, pos: usize) -> &[Value] {
        &self.operands[pos]
    }

    /// The results op `pos` produces.
    pub fn results(&self, pos: usize) -> impl Iterator<Item = Value> + '_ {
        self.ir.op(self.ops[pos]).results.iter().flatten().copied()
    }

    /// The one result of an op of a class that has exactly one
    /// (elementwise ops, roots, views).
    pub fn result(&self, pos: usize) -> Value {
        let mut results = self.results(pos);
        let v = results
            .next()
            .expect("elementwise ops, roots and views have a result");
        debug_assert!(results.next().is_none());
        v
    }

    /// True when `v` is a graph output.
    pub fn is_output(&self, v: Value) -> bool {
        self.output_set.contains(&v)
    }

    /// The value a view shows: `v` itself unless it is a view's result, in
    /// which case the source of the view (followed through chains of views).
    pub fn resolve(&self, mut v: Value) -> Value {
        while let Some(&src) = self.view_source.get(&v) {
            v = src;
        }
        v
    }

    /// True when `v` is the result of a view op.
    pub fn is_view(&self, v: Value) -> bool {
        self.view_source.contains_key(&v)
    }

    /// The dims of a value (every value is a ranked tensor: [`Graph::new`]
    /// checked).
    pub fn dims(&self, v: Value) -> &[Dim] {
        self.ir
            .ty(v)
            .as_tensor()
            .and_then(|t| t.dims())
            .expect("checked by Graph::new")
    }

    /// The size of a value in bytes.
    pub fn size(&self, v: Value) -> &Size {
        &self.sizes[&v]
    }

    /// Where a value comes from, for messages.
    fn origin(&self, v: Value) -> String {
        match self.ir.value(v).def {
            ValueDef::Arg(..) => "graph input".into(),
            ValueDef::Result(op, i) => format!("result {i} of {}", self.ir.describe_op(op)),
        }
    }

    fn size_of(&self, v: Value) -> Result<Size> {
        let fail = |reason: String| Error::Unplaceable {
            value: value_ref(self.ir, v),
            origin: self.origin(v),
            reason,
        };
        let ty = self.ir.ty(v);
        let Type::Tensor(t) = ty else {
            return Err(fail(format!(
                "has type {ty}: only dense tensors can be planned"
            )));
        };
        let Some(dims) = t.dims() else {
            return Err(fail(format!(
                "has type {ty} of unknown rank: run shape inference first"
            )));
        };
        // Inside compiled code a sub-byte element takes a byte (the lowering
        // unpacks them at the graph boundary); only the ABI packs them.
        let bits = u64::from(t.elem.bit_width());
        if bits == 0 {
            return Err(fail(format!(
                "has type {ty}, whose elements have no fixed size"
            )));
        }
        let bits = bits.max(8);
        let mut numel = Dim::Known(1);
        for d in dims {
            match d {
                Dim::Unknown => {
                    return Err(fail(format!(
                        "has type {ty} with an unknown dim: run shape inference first"
                    )))
                }
                Dim::Known(n) if *n < 0 => {
                    return Err(fail(format!("has type {ty} with a negative dim")))
                }
                _ => numel = numel.mul(d),
            }
        }
        let overflow = || {
            fail(format!(
                "has type {ty}, whose size in bytes overflows 64 bits"
            ))
        };
        match numel {
            Dim::Known(n) => {
                let n = u64::try_from(n).map_err(|_| overflow())?;
                let bits = n.checked_mul(bits).ok_or_else(overflow)?;
                Ok(Size::Static(bits.div_ceil(8)))
            }
            Dim::Sym(_) if bits % 8 == 0 => match numel.scale((bits / 8) as i64) {
                Dim::Unknown => Err(overflow()),
                bytes => Ok(Size::Symbolic(bytes)),
            },
            Dim::Sym(_) => Err(fail(format!(
                "has type {ty}: sub-byte elements with symbolic dims have no polynomial size"
            ))),
            Dim::Unknown => Err(overflow()),
        }
    }
}

/// The values of the main graph (in `defined`) that the subgraphs of `op`
/// read, at any depth: inputs of their ops and their outputs.
fn captures(ir: &Ir, op: OpId, defined: &HashSet<Value>) -> Vec<Value> {
    let mut out = vec![];
    for region in ir.op(op).attrs.regions() {
        for r in ir.regions_within(region) {
            let data = ir.region(r);
            let inputs = data
                .ops
                .iter()
                .flat_map(|&o| ir.op(o).inputs.iter().flatten().copied());
            for v in inputs.chain(data.outputs.iter().map(|o| o.value)) {
                if defined.contains(&v) && !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}
