//! The e-class analysis: what every e-class knows about its value — type
//! and shape (symbolic dims included), constant contents, and known integer
//! contents — and constant folding inside the e-graph.
//!
//! Types are not re-derived by per-op rules of our own: a new e-node's
//! result types come from the dialect's shape inference, run on a one-op
//! scratch graph whose operands carry the operand classes' types, constants
//! and known integer values ([`infer_node`]). What the dialect propagates
//! as known integer values (`Shape → Gather → Concat` chains) becomes a
//! constant of the class, so such chains fold away when shapes are static.
//!
//! Constants live in a [`ConstPool`]: an e-node refers to one by index.
//! Small constants are interned by content (equal constants are one
//! e-class); big ones (weights) by identity, so that they are never hashed
//! or copied — their bytes stay shared with the model.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use egg::{Analysis, DidMerge, EGraph, Id};
use onnx_mlc_dialect::infer::{infer_op, merge_types, Knowledge, SymTensor};
use onnx_mlc_dialect::ir::{NewOp, RegionParent};
use onnx_mlc_dialect::tensor::Payload;
use onnx_mlc_dialect::{Attr, Attrs, Domain, ElemType, Ir, OpId, OpKind, TensorData, Type};

use crate::eval;
use crate::lang::{ConstId, ONode, OpKey};

/// The e-graph of the optimizer.
pub type OGraph = EGraph<ONode, OnnxAnalysis>;

/// Constants with more elements than this are interned by identity.
const CONTENT_INTERN_MAX: usize = 4096;

/// A constant of the pool.
#[derive(Clone, Debug)]
pub struct Constant {
    /// The data.
    pub data: TensorData,
    /// The `Constant` op of the original graph that defines it, if any (so
    /// that rebuilding reuses it, name included).
    pub origin: Option<OpId>,
}

/// The constants of an e-graph.
#[derive(Clone, Debug, Default)]
pub struct ConstPool {
    items: Vec<Constant>,
    by_content: HashMap<u64, Vec<u32>>,
    by_identity: HashMap<(usize, usize, Vec<i64>, ElemType), u32>,
}

impl ConstPool {
    /// The constant `id`.
    pub fn get(&self, id: ConstId) -> &Constant {
        &self.items[id.0 as usize]
    }

    /// Number of constants.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the pool is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The pool entry for `data`: an existing one with the same contents
    /// (small tensors) or the same bytes (big ones), or a new one.
    pub fn intern(&mut self, data: TensorData, origin: Option<OpId>) -> ConstId {
        let small = data.numel() <= CONTENT_INTERN_MAX;
        match (&data.payload, small) {
            (Payload::Elided, _) => self.push(data, origin),
            (_, true) => {
                let h = content_hash(&data);
                if let Some(&i) = self.by_content.get(&h).and_then(|v| v.iter().find(|&&i| self.items[i as usize].data == data)) {
                    return ConstId(i);
                }
                let id = self.push(data, origin);
                self.by_content.entry(h).or_default().push(id.0);
                id
            }
            (Payload::Raw(b), false) => {
                let k = (b.as_ptr() as usize, b.len(), data.dims.clone(), data.elem);
                if let Some(&i) = self.by_identity.get(&k) {
                    return ConstId(i);
                }
                let id = self.push(data, origin);
                self.by_identity.insert(k, id.0);
                id
            }
            (Payload::Strings(_), false) => self.push(data, origin),
        }
    }

    /// A constant interned by content only: `None` when no equal constant
    /// is in the pool (used to look expressions up).
    pub fn find(&self, data: &TensorData) -> Option<ConstId> {
        let h = content_hash(data);
        let v = self.by_content.get(&h)?;
        v.iter().find(|&&i| self.items[i as usize].data == *data).map(|&i| ConstId(i))
    }

    fn push(&mut self, data: TensorData, origin: Option<OpId>) -> ConstId {
        self.items.push(Constant { data, origin });
        ConstId(self.items.len() as u32 - 1)
    }
}

fn content_hash(t: &TensorData) -> u64 {
    let mut h = DefaultHasher::new();
    t.elem.hash(&mut h);
    t.dims.hash(&mut h);
    match &t.payload {
        Payload::Raw(b) => b.hash(&mut h),
        Payload::Strings(s) => s.hash(&mut h),
        Payload::Elided => {}
    }
    h.finish()
}

/// What an e-class knows.
#[derive(Clone, Debug)]
pub struct Data {
    /// The value's type (`Unknown` for a tuple, or when not inferred).
    pub ty: Type,
    /// The result types of a tuple class.
    pub results: Option<Arc<[Type]>>,
    /// A constant the class equals.
    pub constant: Option<ConstId>,
    /// Known contents of a small integer value.
    pub sym: Option<SymTensor>,
}

impl Data {
    fn of_type(ty: Type) -> Data {
        Data { ty, results: None, constant: None, sym: None }
    }
}

/// The analysis state: constants, graph input types, the model's opsets
/// and the folding limit.
#[derive(Clone, Debug, Default)]
pub struct OnnxAnalysis {
    /// The constants.
    pub pool: ConstPool,
    /// Types of the main graph's arguments.
    pub inputs: Vec<Type>,
    /// The model's opset imports, by domain.
    pub opsets: Vec<(Domain, i64)>,
    /// Results of at most this many elements are folded.
    pub fold_max_elems: usize,
    /// Number of constants made by folding.
    pub folded: usize,
    /// Contradictions found (merged classes of different types, invalid
    /// new ops): evidence of an unsound rule.
    pub problems: Vec<String>,
}

impl OnnxAnalysis {
    /// The version an op of `kind` gets in this model: the schema its
    /// domain's imported opset resolves to (the internal domain is always
    /// available, at version 1). `None` when the op does not exist there.
    pub fn version_of(&self, kind: OpKind) -> Option<u32> {
        let opset = match kind.domain() {
            Domain::Internal => 1,
            d => self.opsets.iter().find(|(x, _)| *x == d)?.1,
        };
        Some(kind.schema(opset)?.since_version)
    }
}

impl Analysis<ONode> for OnnxAnalysis {
    type Data = Data;

    fn make(egraph: &mut OGraph, enode: &ONode) -> Data {
        match enode {
            ONode::Input(i) => Data::of_type(egraph.analysis.inputs[*i as usize].clone()),
            ONode::Absent => Data::of_type(Type::Unknown),
            ONode::Const(c) => {
                let data = &egraph.analysis.pool.get(*c).data;
                Data {
                    ty: Type::Tensor(data.ty()),
                    results: None,
                    constant: Some(*c),
                    sym: SymTensor::from_data(data),
                }
            }
            ONode::Get(i, [t]) => {
                let ty = egraph[*t].data.results.as_ref().and_then(|r| r.get(*i as usize).cloned());
                Data::of_type(ty.unwrap_or(Type::Unknown))
            }
            ONode::Op(key, children) => make_op(egraph, key, children),
        }
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let mut changed_a = false;
        let ty = match merge_types(&a.ty, &b.ty) {
            Some(t) => t,
            None => {
                self.problems.push(format!("values of types {} and {} were found equal", a.ty, b.ty));
                a.ty.clone()
            }
        };
        let changed_b = ty != b.ty || (a.constant.is_some() && b.constant.is_none());
        if ty != a.ty {
            a.ty = ty;
            changed_a = true;
        }
        if a.results.is_none() && b.results.is_some() {
            a.results = b.results;
            changed_a = true;
        }
        if a.constant.is_none() && b.constant.is_some() {
            a.constant = b.constant;
            changed_a = true;
        }
        if a.sym.is_none() && b.sym.is_some() {
            a.sym = b.sym;
            changed_a = true;
        }
        DidMerge(changed_a, changed_b)
    }

    fn modify(egraph: &mut OGraph, id: Id) {
        if let Some(c) = egraph[id].data.constant {
            let leaf = egraph.add(ONode::Const(c));
            egraph.union(id, leaf);
        }
    }
}

fn make_op(egraph: &mut OGraph, key: &OpKey, children: &[Id]) -> Data {
    if let Some(types) = &key.opaque_types {
        return tuple_or_single(key, types.to_vec(), vec![]);
    }
    let operands: Vec<Option<Operand>> = children
        .iter()
        .map(|&c| {
            let d = &egraph[c].data;
            let absent = egraph[c].nodes.iter().any(|n| matches!(n, ONode::Absent));
            (!absent).then(|| Operand {
                ty: d.ty.clone(),
                constant: d.constant.map(|k| egraph.analysis.pool.get(k).data.clone()),
                sym: d.sym.clone(),
            })
        })
        .collect();
    let (types, syms) = match infer_node(key, &operands) {
        Ok(r) => r,
        Err(message) => {
            egraph.analysis.problems.push(format!("{key}: {message}"));
            (vec![Type::Unknown; key.results.len()], vec![None; key.results.len()])
        }
    };
    let mut data = tuple_or_single(key, types, syms);
    if key.is_tuple() {
        return data;
    }
    let all_constant = operands.iter().all(|o| o.as_ref().is_none_or(|o| o.constant.is_some()));
    let folded = if all_constant && !operands.is_empty() {
        let inputs: Vec<Option<&TensorData>> = operands.iter().map(|o| o.as_ref().and_then(|o| o.constant.as_ref())).collect();
        eval::fold(key, &inputs, egraph.analysis.fold_max_elems)
    } else {
        None
    };
    let folded = folded.or_else(|| data.sym.as_ref().and_then(|s| sym_constant(&data.ty, s)));
    if let Some(t) = folded.filter(|t| type_agrees(&data.ty, t)) {
        egraph.analysis.folded += 1;
        data.constant = Some(egraph.analysis.pool.intern(t, None));
    }
    data
}

/// A folded value must have the type inference gave the op.
fn type_agrees(ty: &Type, t: &TensorData) -> bool {
    merge_types(ty, &Type::Tensor(t.ty())).is_some()
}

fn tuple_or_single(key: &OpKey, types: Vec<Type>, syms: Vec<Option<SymTensor>>) -> Data {
    if key.is_tuple() {
        Data { ty: Type::Unknown, results: Some(types.into()), constant: None, sym: None }
    } else {
        let ty = types.into_iter().next().unwrap_or(Type::Unknown);
        Data { ty, results: None, constant: None, sym: syms.into_iter().next().flatten() }
    }
}

/// The tensor a fully known integer value stands for.
fn sym_constant(ty: &Type, sym: &SymTensor) -> Option<TensorData> {
    let t = ty.as_tensor()?;
    if t.static_dims()? != sym.dims {
        return None;
    }
    let v: Vec<f64> = sym.as_known()?.into_iter().map(|x| x as f64).collect();
    match t.elem {
        ElemType::I64 | ElemType::I32 => eval::from_f64(t.elem, sym.dims.clone(), &v),
        _ => None,
    }
}

/// What inference is told about one operand.
pub(crate) struct Operand {
    pub ty: Type,
    pub constant: Option<TensorData>,
    pub sym: Option<SymTensor>,
}

/// Result types (and known integer values) of `key` applied to
/// `operands` (`None` = absent), from the dialect's shape inference on a
/// one-op scratch graph. `Err` when inference finds the op invalid.
pub(crate) fn infer_node(key: &OpKey, operands: &[Option<Operand>]) -> Result<(Vec<Type>, Vec<Option<SymTensor>>), String> {
    let mut ir = Ir::new();
    let region = ir.new_region("scratch", RegionParent::Top);
    let mut knowledge = Knowledge::default();
    let mut inputs = Vec::with_capacity(operands.len());
    for operand in operands {
        let Some(o) = operand else {
            inputs.push(None);
            continue;
        };
        let v = match &o.constant {
            Some(data) => {
                let version = OpKind::Constant.versions().last().expect("Constant has versions").since_version;
                let op = ir.append_op(
                    region,
                    NewOp {
                        kind: OpKind::Constant,
                        version,
                        inputs: vec![],
                        results: vec![Some((None, o.ty.clone()))],
                        attrs: Attrs(vec![("value".into(), Attr::Tensor(data.clone()))]),
                        name: String::new(),
                    },
                );
                ir.op(op).results[0].expect("the result exists")
            }
            None => ir.add_arg(region, None, o.ty.clone()),
        };
        if let Some(s) = &o.sym {
            knowledge.values.insert(v, s.clone());
        }
        inputs.push(Some(v));
    }
    while inputs.last().is_some_and(Option::is_none) {
        inputs.pop();
    }
    let op = ir.append_op(
        region,
        NewOp {
            kind: key.kind,
            version: key.version,
            inputs,
            results: key.results.iter().map(|&p| p.then_some((None, Type::Unknown))).collect(),
            attrs: key.attrs.clone(),
            name: String::new(),
        },
    );
    infer_op(&mut ir, op, &mut knowledge).map_err(|e| e.to_string())?;
    let results = ir.op(op).results.clone();
    let types = results.iter().map(|r| r.map_or(Type::Unknown, |v| ir.ty(v).clone())).collect();
    let syms = results.iter().map(|r| r.and_then(|v| knowledge.values.get(&v).cloned())).collect();
    Ok((types, syms))
}
