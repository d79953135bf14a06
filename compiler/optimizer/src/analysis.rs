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
use std::sync::{Arc, OnceLock};

use egg::{Analysis, DidMerge, EGraph, Id};
use onnx_mlc_dialect::infer::{infer_op, Knowledge, SymTensor};
use onnx_mlc_dialect::ir::{NewOp, RegionParent};
use onnx_mlc_dialect::tensor::{checked_numel, Payload};
use onnx_mlc_dialect::types::merge_types;
use onnx_mlc_dialect::{
    Attr, Attrs, Domain, ElemType, Ir, OpId, OpKind, TensorData, TensorType, Type,
};

use crate::eval;
use crate::lang::{ConstId, ONode, OpKey};

/// The e-graph of the optimizer.
pub type OGraph = EGraph<ONode, OnnxAnalysis>;

/// Constants with more elements than this are interned by identity, and
/// folded results this big are computed only when extracted.
pub const SMALL: usize = 4096;

/// A constant of the pool: data, or the recipe to compute it.
#[derive(Clone, Debug)]
pub struct Constant {
    ty: TensorType,
    data: OnceLock<TensorData>,
    recipe: Option<(OpKey, Vec<Option<ConstId>>)>,
    /// The `Constant` op of the original graph that defines it, if any (so
    /// that rebuilding reuses it, name included).
    pub origin: Option<OpId>,
}

/// The constants of an e-graph. Folded results bigger than [`SMALL`] are
/// lazy: the pool keeps the op and operands that compute them and
/// computes them only when a rebuilt graph uses them, so that weights
/// folded into alternatives the extraction drops cost nothing.
#[derive(Clone, Debug, Default)]
pub struct ConstPool {
    items: Vec<Constant>,
    by_content: HashMap<u64, Vec<u32>>,
    by_identity: HashMap<(usize, usize, Vec<i64>, ElemType), u32>,
    by_recipe: HashMap<(OpKey, Vec<Option<ConstId>>), u32>,
    zeros: HashMap<TensorType, u32>,
}

impl ConstPool {
    /// The type of constant `id`.
    pub fn ty(&self, id: ConstId) -> &TensorType {
        &self.items[id.0 as usize].ty
    }

    /// The op of the original graph that defined constant `id`.
    pub fn origin(&self, id: ConstId) -> Option<OpId> {
        self.items[id.0 as usize].origin
    }

    /// The data of constant `id` when it is at hand (not a lazy fold not
    /// computed yet).
    pub fn materialized(&self, id: ConstId) -> Option<&TensorData> {
        self.items[id.0 as usize].data.get()
    }

    /// The data of constant `id`, computing a lazy fold (and its lazy
    /// operands); `None` when that fails.
    pub fn force(&self, id: ConstId) -> Option<&TensorData> {
        let item = &self.items[id.0 as usize];
        if let Some(d) = item.data.get() {
            return Some(d);
        }
        let (key, inputs) = item.recipe.as_ref()?;
        let inputs: Vec<Option<&TensorData>> = inputs
            .iter()
            .map(|i| match i {
                None => Some(None),
                Some(i) => self.force(*i).map(Some),
            })
            .collect::<Option<_>>()?;
        let data = eval::fold(key, &inputs, usize::MAX)?;
        (data.ty() == item.ty).then(|| item.data.get_or_init(|| data))
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
        let small = data.numel() <= SMALL;
        match (&data.payload, small) {
            (Payload::Elided, _) => self.push(data, origin),
            (_, true) => {
                let h = content_hash(&data);
                let found = self.by_content.get(&h).and_then(|v| {
                    v.iter()
                        .find(|&&i| self.materialized(ConstId(i)) == Some(&data))
                });
                if let Some(&i) = found {
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

    /// The all-zero constant of type `ty` (one per type, however big; a
    /// fixed-width element type); `None` when it would not fit in memory.
    pub fn zeros(&mut self, ty: TensorType) -> Option<ConstId> {
        if let Some(&i) = self.zeros.get(&ty) {
            return Some(ConstId(i));
        }
        let dims = ty.static_dims()?;
        let bits = checked_numel(&dims)?.checked_mul(ty.elem.bit_width() as usize)?;
        let data = TensorData::from_raw(ty.elem, dims, vec![0u8; bits.div_ceil(8)].into()).ok()?;
        // Small ones are interned by content, like any small constant.
        let id = self.intern(data, None);
        self.zeros.insert(ty, id.0);
        Some(id)
    }

    /// A lazy constant of type `ty`: `key` applied to constant operands.
    pub fn lazy(&mut self, ty: TensorType, key: OpKey, inputs: Vec<Option<ConstId>>) -> ConstId {
        let recipe = (key, inputs);
        if let Some(&i) = self.by_recipe.get(&recipe) {
            return ConstId(i);
        }
        self.items.push(Constant {
            ty,
            data: OnceLock::new(),
            recipe: Some(recipe.clone()),
            origin: None,
        });
        let id = self.items.len() as u32 - 1;
        self.by_recipe.insert(recipe, id);
        ConstId(id)
    }

    /// True when constant `id` can be computed: its data is at hand, or
    /// its recipe's operands can be computed.
    pub fn evaluable(&self, id: ConstId) -> bool {
        let item = &self.items[id.0 as usize];
        match (item.data.get(), &item.recipe) {
            (Some(d), _) => matches!(d.payload, Payload::Raw(_)),
            (None, Some((_, inputs))) => inputs.iter().flatten().all(|&i| self.evaluable(i)),
            (None, None) => false,
        }
    }

    fn push(&mut self, data: TensorData, origin: Option<OpId>) -> ConstId {
        let ty = data.ty();
        self.items.push(Constant {
            ty,
            data: OnceLock::from(data),
            recipe: None,
            origin,
        });
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
        Data {
            ty,
            results: None,
            constant: None,
            sym: None,
        }
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
                let pool = &egraph.analysis.pool;
                Data {
                    ty: Type::Tensor(pool.ty(*c).clone()),
                    results: None,
                    constant: Some(*c),
                    sym: pool.materialized(*c).and_then(SymTensor::from_data),
                }
            }
            ONode::Get(i, [t]) => {
                let ty = egraph[*t]
                    .data
                    .results
                    .as_ref()
                    .and_then(|r| r.get(*i as usize).cloned());
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
                self.problems.push(format!(
                    "values of types {} and {} were found equal",
                    a.ty, b.ty
                ));
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
    let pool = &egraph.analysis.pool;
    let mut constants: Option<Vec<Option<ConstId>>> = Some(vec![]);
    let operands: Vec<Option<Operand>> = children
        .iter()
        .map(|&c| {
            let d = &egraph[c].data;
            let absent = egraph[c].nodes.iter().any(|n| matches!(n, ONode::Absent));
            match (&mut constants, absent, d.constant) {
                (Some(k), true, _) => k.push(None),
                (Some(k), false, Some(id)) => k.push(Some(id)),
                (k, _, _) => *k = None,
            }
            (!absent).then(|| Operand {
                ty: d.ty.clone(),
                constant: d.constant.and_then(|k| pool.materialized(k).cloned()),
                sym: d.sym.clone(),
            })
        })
        .collect();
    let (types, syms) = match infer_node(key, &operands) {
        Ok(r) => r,
        Err(message) => {
            egraph.analysis.problems.push(format!("{key}: {message}"));
            (
                vec![Type::Unknown; key.results.len()],
                vec![None; key.results.len()],
            )
        }
    };
    let mut data = tuple_or_single(key, types, syms);
    if key.is_tuple() {
        return data;
    }
    let constant = match constants.filter(|k| !k.is_empty()) {
        Some(inputs) => fold(&mut egraph.analysis, key, inputs, &data.ty),
        None => data
            .sym
            .as_ref()
            .and_then(|s| sym_constant(&data.ty, s))
            .map(|t| egraph.analysis.pool.intern(t, None)),
    };
    if constant.is_some() {
        egraph.analysis.folded += 1;
        data.constant = constant;
    }
    data
}

/// Folds `key` on constant operands: small results now, big ones lazily
/// (see [`ConstPool`]), nothing beyond the folding limit.
fn fold(
    analysis: &mut OnnxAnalysis,
    key: &OpKey,
    inputs: Vec<Option<ConstId>>,
    ty: &Type,
) -> Option<ConstId> {
    let ty = ty.as_tensor()?.clone();
    let n = usize::try_from(ty.static_numel()?).ok()?;
    if n > analysis.fold_max_elems || !eval::folds(key.kind) {
        return None;
    }
    if n > SMALL {
        let evaluable = inputs.iter().flatten().all(|&i| analysis.pool.evaluable(i));
        return evaluable.then(|| analysis.pool.lazy(ty, key.clone(), inputs));
    }
    let pool = &analysis.pool;
    let data: Vec<Option<&TensorData>> = inputs
        .iter()
        .map(|i| match i {
            None => Some(None),
            Some(i) => pool.force(*i).map(Some),
        })
        .collect::<Option<_>>()?;
    let t = eval::fold(key, &data, SMALL).filter(|t| t.ty() == ty)?;
    Some(analysis.pool.intern(t, None))
}

fn tuple_or_single(key: &OpKey, types: Vec<Type>, syms: Vec<Option<SymTensor>>) -> Data {
    if key.is_tuple() {
        Data {
            ty: Type::Unknown,
            results: Some(types.into()),
            constant: None,
            sym: None,
        }
    } else {
        let ty = types.into_iter().next().unwrap_or(Type::Unknown);
        Data {
            ty,
            results: None,
            constant: None,
            sym: syms.into_iter().next().flatten(),
        }
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
pub(crate) fn infer_node(
    key: &OpKey,
    operands: &[Option<Operand>],
) -> Result<(Vec<Type>, Vec<Option<SymTensor>>), String> {
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
                let version = OpKind::Constant
                    .versions()
                    .last()
                    .expect("Constant has versions")
                    .since_version;
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
            results: key
                .results
                .iter()
                .map(|&p| p.then_some((None, Type::Unknown)))
                .collect(),
            attrs: key.attrs.clone(),
            name: String::new(),
        },
    );
    infer_op(&mut ir, op, &mut knowledge).map_err(|e| e.to_string())?;
    let results = ir.op(op).results.clone();
    let types = results
        .iter()
        .map(|r| r.map_or(Type::Unknown, |v| ir.ty(v).clone()))
        .collect();
    let syms = results
        .iter()
        .map(|r| r.and_then(|v| knowledge.values.get(&v).cloned()))
        .collect();
    Ok((types, syms))
}
