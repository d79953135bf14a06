//! Conversion between the main graph and the e-graph, both ways.
//!
//! [`to_egraph`] adds every op of the main graph in order: `Constant` ops
//! with a dense `value` become constant leaves (their data stays shared),
//! graph arguments input leaves, other ops op nodes (subgraph ops opaque,
//! see [`crate::lang`]); the model's declared types refine what inference
//! gives each class.
//!
//! [`rebuild`] turns an extraction back into the main graph's op list, in
//! a topological order. An extracted node that is an original op on the
//! same operands reuses that op — its node name, result names and
//! metadata — so values the optimizer did not touch keep their names;
//! only new ops get new (unnamed) values. Graph outputs keep their names,
//! which belong to the graph. Original ops not extracted are detached.

use std::collections::{HashMap, HashSet};

use egg::{Id, Language};
use onnx_mlc_dialect::ir::{NewOp, OpsetImport, ValueDef};
use onnx_mlc_dialect::types::merge_types;
use onnx_mlc_dialect::{Attr, Attrs, Domain, Model, OpId, OpKind, RegionId, Type, Value};

use crate::analysis::{OGraph, OnnxAnalysis};
use crate::extract::Extraction;
use crate::lang::{operand_count, ONode, OpKey};
use crate::OptimizeError;

/// The main graph as an e-graph.
pub struct Converted {
    /// The e-graph.
    pub egraph: OGraph,
    /// The class of each graph output, in order.
    pub outputs: Vec<Id>,
    /// Each original op (but `Constant`s) with its e-node.
    pub originals: Vec<(ONode, OpId)>,
    /// Each value of the original graph with its class, in graph order.
    pub values: Vec<(Value, Id)>,
}

/// Adds the model's main graph to a new e-graph.
pub fn to_egraph(model: &Model, fold_max_elems: usize) -> Result<Converted, OptimizeError> {
    let ir = &model.ir;
    let region = ir.region(model.graph);
    let opsets = model
        .opset_imports
        .iter()
        .filter_map(|o| Some((Domain::from_name(&o.domain)?, o.version)))
        .collect();
    let inputs = region.args.iter().map(|a| ir.ty(a.value).clone()).collect();
    let analysis = OnnxAnalysis {
        inputs,
        opsets,
        fold_max_elems,
        ..OnnxAnalysis::default()
    };
    let mut egraph = OGraph::new(analysis);
    let absent = egraph.add(ONode::Absent);
    let mut classes: HashMap<Value, Id> = HashMap::new();
    for (i, arg) in region.args.iter().enumerate() {
        classes.insert(arg.value, egraph.add(ONode::Input(i as u32)));
    }
    let mut originals = vec![];
    let mut values = vec![];
    for &op in &region.ops {
        let d = ir.op(op);
        if let (OpKind::Constant, Some(t), [Some(r)]) =
            (d.kind, d.attrs.tensor("value"), d.results.as_slice())
        {
            let c = egraph.analysis.pool.intern(t.clone(), Some(op));
            let class = egraph.add(ONode::Const(c));
            classes.insert(*r, class);
            values.push((*r, class));
            continue;
        }
        let mut children = Vec::with_capacity(d.inputs.len());
        for input in &d.inputs {
            children.push(match input {
                None => absent,
                Some(v) => class_of(&classes, *v, model, op)?,
            });
        }
        children.resize(operand_count(d.kind, d.version, children.len()), absent);
        let results: Box<[bool]> = d.results.iter().map(Option::is_some).collect();
        let mut key = OpKey::new(d.kind, d.version, d.attrs.clone(), results);
        if d.attrs.regions().next().is_some() {
            let captures = captures(model, op);
            for &v in &captures {
                children.push(class_of(&classes, v, model, op)?);
            }
            key.captures = captures.into();
            key.opaque_types = Some(
                d.results
                    .iter()
                    .map(|r| r.map_or(Type::Unknown, |v| ir.ty(v).clone()))
                    .collect(),
            );
        }
        let node = ONode::op(key, children);
        let id = egraph.add(node.clone());
        originals.push((node, op));
        let tuple = d.results.len() > 1;
        for (i, r) in d.results.iter().enumerate() {
            let Some(v) = *r else { continue };
            let class = if tuple {
                egraph.add(ONode::Get(i as u32, [id]))
            } else {
                id
            };
            let declared = ir.ty(v);
            let known = &egraph[class].data.ty;
            if let Some(t) = merge_types(known, declared) {
                egraph[class].data.ty = t;
            }
            classes.insert(v, class);
            values.push((v, class));
        }
    }
    let outputs = region
        .outputs
        .iter()
        .map(|o| class_of(&classes, o.value, model, None))
        .collect::<Result<_, _>>()?;
    egraph.rebuild();
    Ok(Converted {
        egraph,
        outputs,
        originals,
        values,
    })
}

fn class_of(
    classes: &HashMap<Value, Id>,
    v: Value,
    model: &Model,
    user: impl Into<Option<OpId>>,
) -> Result<Id, OptimizeError> {
    classes.get(&v).copied().ok_or_else(|| {
        let name = model
            .ir
            .value(v)
            .name
            .clone()
            .unwrap_or_else(|| format!("{v:?}"));
        let at = match user.into() {
            Some(op) => model.ir.describe_op(op).to_string(),
            None => "a graph output".to_string(),
        };
        OptimizeError::Malformed(format!(
            "{at} uses value \"{name}\", which is not defined before it in the main graph"
        ))
    })
}

/// The main-graph values that the subgraphs of `op` read, in handle order.
fn captures(model: &Model, op: OpId) -> Vec<Value> {
    let ir = &model.ir;
    let main = model.graph;
    let mut out: Vec<Value> = vec![];
    for region in ir.op(op).attrs.regions() {
        for inner in ir.walk_ops(region) {
            for v in ir.op(inner).inputs.iter().flatten() {
                let defined_in_main = match ir.value(*v).def {
                    ValueDef::Arg(r, _) => r == main,
                    ValueDef::Result(d, _) => ir.op(d).parent == main,
                };
                if defined_in_main {
                    out.push(*v);
                }
            }
        }
        for o in &ir.region(region).outputs {
            let defined_in_main = match ir.value(o.value).def {
                ValueDef::Arg(r, _) => r == main,
                ValueDef::Result(d, _) => ir.op(d).parent == main,
            };
            if defined_in_main {
                out.push(o.value);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// What a class became in the rebuilt graph.
#[derive(Copy, Clone, Debug)]
enum Built {
    Value(Value),
    Absent,
    Tuple(OpId),
}

/// Replaces the main graph's ops by the extraction for `conv.outputs`.
/// Returns the number of ops of the new graph.
pub fn rebuild(
    model: &mut Model,
    conv: &Converted,
    ex: &Extraction,
) -> Result<usize, OptimizeError> {
    let eg = &conv.egraph;
    let region = model.graph;
    let mut originals: HashMap<ONode, OpId> = HashMap::new();
    for (node, op) in &conv.originals {
        let canonical = node.clone().map_children(|c| eg.find(c));
        originals.entry(canonical).or_insert(*op);
    }
    let mut names: HashMap<Id, Value> = HashMap::new();
    for &(v, class) in &conv.values {
        names.entry(eg.find(class)).or_insert(v);
    }
    let mut b = Rebuilder {
        model,
        eg,
        ex,
        region,
        originals,
        names,
        borrowed: vec![],
        built: HashMap::new(),
        used: HashSet::new(),
        ops: vec![],
        internal: false,
    };
    for &out in &conv.outputs {
        b.build(eg.find(out))?;
    }
    let outputs: Vec<Value> = conv
        .outputs
        .iter()
        .map(|&o| match b.built[&eg.find(o)] {
            Built::Value(v) => Ok(v),
            _ => Err(OptimizeError::Internal(
                "a graph output was extracted as a tuple or an absent value".into(),
            )),
        })
        .collect::<Result<_, _>>()?;
    let (ops, internal) = (std::mem::take(&mut b.ops), b.internal);
    let (borrowed, used) = (std::mem::take(&mut b.borrowed), std::mem::take(&mut b.used));
    for (new, old) in borrowed {
        let producer_kept = match model.ir.value(old).def {
            ValueDef::Result(op, _) => used.contains(&op),
            ValueDef::Arg(..) => true,
        };
        if !producer_kept {
            model.ir.value_mut(new).name = model.ir.value(old).name.clone();
        }
    }
    let ops = original_order(model, region, ops);
    let r = model.ir.region_mut(region);
    for (o, v) in r.outputs.iter_mut().zip(outputs) {
        o.value = v;
    }
    r.ops = ops;
    let n = r.ops.len();
    if internal && model.opset(Domain::Internal).is_none() {
        model.opset_imports.push(OpsetImport {
            domain: Domain::Internal.name().to_string(),
            version: 1,
        });
    }
    Ok(n)
}

/// `ops` (in a topological order) reordered to follow the region's
/// original op order as far as dependencies allow: each op gets a key —
/// its old position, or for a new op the largest key among its producers —
/// and the ready op with the smallest key goes next. Without rewrites this
/// is exactly the original order.
fn original_order(model: &Model, region: RegionId, ops: Vec<OpId>) -> Vec<OpId> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let ir = &model.ir;
    let old: HashMap<OpId, usize> = ir
        .region(region)
        .ops
        .iter()
        .enumerate()
        .map(|(i, &o)| (o, i))
        .collect();
    let position: HashMap<OpId, usize> = ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    // An op depends on its operands and on the main-graph values its
    // subgraphs read.
    let producers = |op: OpId| -> Vec<usize> {
        let read = ir
            .op(op)
            .inputs
            .iter()
            .flatten()
            .copied()
            .chain(captures(model, op));
        let mut p: Vec<usize> = read
            .filter_map(|v| match ir.value(v).def {
                ValueDef::Result(d, _) => position.get(&d).copied(),
                ValueDef::Arg(..) => None,
            })
            .collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    let deps: Vec<Vec<usize>> = ops.iter().map(|&o| producers(o)).collect();
    let mut key = vec![0usize; ops.len()];
    for (i, &op) in ops.iter().enumerate() {
        // Keys are doubled so that a new op sorts right after its last producer.
        key[i] = match old.get(&op) {
            Some(&p) => 2 * p,
            None => deps[i].iter().map(|&d| key[d] + 1).max().unwrap_or(0),
        };
    }
    let mut users = vec![vec![]; ops.len()];
    let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
    for (i, d) in deps.iter().enumerate() {
        for &p in d {
            users[p].push(i);
        }
    }
    let mut ready: BinaryHeap<Reverse<(usize, usize)>> = (0..ops.len())
        .filter(|&i| waiting[i] == 0)
        .map(|i| Reverse((key[i], i)))
        .collect();
    let mut out = Vec::with_capacity(ops.len());
    while let Some(Reverse((_, i))) = ready.pop() {
        out.push(ops[i]);
        for &u in &users[i] {
            waiting[u] -= 1;
            if waiting[u] == 0 {
                ready.push(Reverse((key[u], u)));
            }
        }
    }
    out
}

struct Rebuilder<'a> {
    model: &'a mut Model,
    eg: &'a OGraph,
    ex: &'a Extraction,
    region: RegionId,
    originals: HashMap<ONode, OpId>,
    /// The first original value of each class: a new op that computes a
    /// value of the original graph gives its result that value's name.
    names: HashMap<Id, Value>,
    /// New values named after original ones, with those.
    borrowed: Vec<(Value, Value)>,
    built: HashMap<Id, Built>,
    used: HashSet<OpId>,
    ops: Vec<OpId>,
    internal: bool,
}

impl Rebuilder<'_> {
    /// Builds `root` and everything it needs, children first.
    fn build(&mut self, root: Id) -> Result<(), OptimizeError> {
        let mut stack = vec![(root, false)];
        let mut on_stack: HashSet<Id> = HashSet::new();
        while let Some((class, expanded)) = stack.pop() {
            if self.built.contains_key(&class) {
                continue;
            }
            let node = self.ex.node(class).ok_or_else(|| {
                OptimizeError::Internal(format!("no node chosen for class {class}"))
            })?;
            if expanded {
                let b = self.make(class, node)?;
                self.built.insert(class, b);
                on_stack.remove(&class);
                continue;
            }
            if !on_stack.insert(class) {
                return Err(OptimizeError::Internal(
                    "the extracted graph has a cycle".into(),
                ));
            }
            stack.push((class, true));
            for &c in node.children().iter().rev() {
                let c = self.eg.find(c);
                if !self.built.contains_key(&c) {
                    if on_stack.contains(&c) {
                        return Err(OptimizeError::Internal(
                            "the extracted graph has a cycle".into(),
                        ));
                    }
                    stack.push((c, false));
                }
            }
        }
        Ok(())
    }

    /// Records that new value `v` computes class `class`, whose first
    /// original value's name it takes unless that value is still produced.
    fn borrow_name(&mut self, class: Id, v: Value) {
        if let Some(&old) = self.names.get(&class) {
            self.borrowed.push((v, old));
        }
    }

    fn value(&self, class: Id) -> Result<Option<Value>, OptimizeError> {
        match self.built[&self.eg.find(class)] {
            Built::Value(v) => Ok(Some(v)),
            Built::Absent => Ok(None),
            Built::Tuple(_) => Err(OptimizeError::Internal(
                "a tuple was used as a value".into(),
            )),
        }
    }

    fn make(&mut self, class: Id, node: &ONode) -> Result<Built, OptimizeError> {
        let ir = &mut self.model.ir;
        Ok(match node {
            ONode::Absent => Built::Absent,
            ONode::Input(i) => Built::Value(ir.region(self.region).args[*i as usize].value),
            ONode::Get(i, [t]) => match self.built[&self.eg.find(*t)] {
                Built::Tuple(op) => {
                    Built::Value(ir.op(op).results[*i as usize].ok_or_else(|| {
                        OptimizeError::Internal("a projection of an absent result".into())
                    })?)
                }
                _ => return Err(OptimizeError::Internal("a projection of a value".into())),
            },
            ONode::Const(c) => {
                let pool = &self.eg.analysis.pool;
                match pool.origin(*c) {
                    Some(op) if self.used.insert(op) => {
                        self.ops.push(op);
                        Built::Value(ir.op(op).results[0].expect("a Constant has its result"))
                    }
                    _ => {
                        let version =
                            self.eg
                                .analysis
                                .version_of(OpKind::Constant)
                                .ok_or_else(|| {
                                    OptimizeError::Internal(
                                        "the model's opset has no Constant".into(),
                                    )
                                })?;
                        let data = pool.force(*c).ok_or_else(|| {
                            OptimizeError::Internal(format!(
                                "folding a constant of type {} failed",
                                pool.ty(*c)
                            ))
                        })?;
                        let op = ir.append_op(
                            self.region,
                            NewOp {
                                kind: OpKind::Constant,
                                version,
                                inputs: vec![],
                                results: vec![Some((None, Type::Tensor(data.ty())))],
                                attrs: Attrs(vec![("value".into(), Attr::Tensor(data.clone()))]),
                                name: String::new(),
                            },
                        );
                        self.ops.push(op);
                        let v = ir.op(op).results[0].expect("just created");
                        self.borrow_name(class, v);
                        Built::Value(v)
                    }
                }
            }
            ONode::Op(key, children) => {
                let operands = &children[..children.len() - key.captures.len()];
                let mut inputs = operands
                    .iter()
                    .map(|&c| self.value(c))
                    .collect::<Result<Vec<_>, _>>()?;
                let canonical = node.clone().map_children(|c| self.eg.find(c));
                let reuse = self
                    .originals
                    .get(&canonical)
                    .copied()
                    .filter(|op| !self.used.contains(op));
                let ir = &mut self.model.ir;
                let op = match reuse {
                    Some(op) => {
                        self.used.insert(op);
                        let given = ir.op(op).inputs.len();
                        while inputs.len() > given && inputs.last() == Some(&None) {
                            inputs.pop();
                        }
                        ir.op_mut(op).inputs = inputs;
                        for (k, &old) in key.captures.iter().enumerate() {
                            let class = children[operands.len() + k];
                            let Built::Value(new) = self.built[&self.eg.find(class)] else {
                                return Err(OptimizeError::Internal(
                                    "a capture is not a value".into(),
                                ));
                            };
                            if new != old {
                                let regions: Vec<RegionId> = ir.op(op).attrs.regions().collect();
                                for r in regions {
                                    ir.replace_uses(r, old, new);
                                }
                            }
                        }
                        op
                    }
                    None => {
                        if key.is_opaque() {
                            return Err(OptimizeError::Internal(
                                "an op with subgraphs was copied".into(),
                            ));
                        }
                        while inputs.last() == Some(&None) {
                            inputs.pop();
                        }
                        let data = &self.eg[class].data;
                        let results = key
                            .results
                            .iter()
                            .enumerate()
                            .map(|(i, &present)| {
                                let ty = match &data.results {
                                    Some(types) => types.get(i).cloned().unwrap_or(Type::Unknown),
                                    None => data.ty.clone(),
                                };
                                present.then_some((None, ty))
                            })
                            .collect();
                        self.internal |= key.kind.domain() == Domain::Internal;
                        ir.append_op(
                            self.region,
                            NewOp {
                                kind: key.kind,
                                version: key.version,
                                inputs,
                                results,
                                attrs: key.attrs.clone(),
                                name: String::new(),
                            },
                        )
                    }
                };
                self.ops.push(op);
                if key.is_tuple() {
                    Built::Tuple(op)
                } else {
                    Built::Value(ir.op(op).results[0].ok_or_else(|| {
                        OptimizeError::Internal("an op without its result".into())
                    })?)
                }
            }
        })
    }
}
