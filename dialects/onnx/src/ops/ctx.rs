//! The view an op's inference function gets of the op: its input types,
//! attributes (with spec defaults), known input values, subgraphs; and
//! where it puts its result types and values.

use std::collections::{HashMap, HashSet};

use super::knowledge::{Knowledge, SymTensor, MAX_TRACKED_ELEMS};
use crate::attr::{Attr, Attrs};
use crate::dim::Dim;
use crate::ir::{Ir, OpData, OpId, RegionId, Value};
use crate::schema::{AttrSchema, OpKind};
use crate::tensor::TensorData;
use crate::types::{erase_shapes, merge_types, ElemType, TensorType, Type};

/// Why an inference function stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fail {
    /// Not enough is known about the inputs (unknown type, rank or value)
    /// to say more: the results stay as they were. Not an error.
    Unknown(String),
    /// The op contradicts its definition (wrong rank, bad attribute, …):
    /// the model is invalid.
    Invalid(String),
}

/// Shorthand for [`Fail::Invalid`] with a formatted message.
macro_rules! invalid {
    ($($arg:tt)*) => { $crate::ops::ctx::Fail::Invalid(format!($($arg)*)) };
}
pub(crate) use invalid;

/// Shorthand for [`Fail::Unknown`] with a formatted message.
macro_rules! unknown {
    ($($arg:tt)*) => { $crate::ops::ctx::Fail::Unknown(format!($($arg)*)) };
}
pub(crate) use unknown;

/// How an op's subgraphs are inferred: the whole of inference, which
/// inference hands each op's context (it runs the op families, which see
/// only this context).
pub(crate) type RegionInference = fn(&mut Ir, RegionId, &mut Knowledge) -> crate::error::Result<()>;

/// What an op's inference function sees and writes.
pub struct InferCtx<'a> {
    ir: &'a mut Ir,
    knowledge: &'a mut Knowledge,
    op: OpId,
    types: Vec<Option<Type>>,
    values: Vec<Option<SymTensor>>,
    /// The types every value of a subgraph had before this op first
    /// inferred it, so that inferring it again starts from them.
    subgraph_snapshots: HashMap<RegionId, Vec<(Value, Type)>>,
    /// Infers a subgraph ([`InferCtx::infer_subgraph`]).
    infer_region: RegionInference,
}

impl<'a> InferCtx<'a> {
    pub(crate) fn new(
        ir: &'a mut Ir,
        op: OpId,
        knowledge: &'a mut Knowledge,
        infer_region: RegionInference,
    ) -> InferCtx<'a> {
        let n = ir.op(op).results.len();
        InferCtx {
            ir,
            knowledge,
            op,
            types: vec![None; n],
            values: vec![None; n],
            subgraph_snapshots: HashMap::new(),
            infer_region,
        }
    }

    pub(crate) fn finish(self) -> (Vec<Option<Type>>, Vec<Option<SymTensor>>) {
        (self.types, self.values)
    }

    /// The op being inferred.
    pub fn op(&self) -> &OpData {
        self.ir.op(self.op)
    }

    /// The op's kind.
    pub fn kind(&self) -> OpKind {
        self.op().kind
    }

    /// The `since_version` of the op's resolved schema.
    pub fn version(&self) -> u32 {
        self.op().version
    }

    /// The IR (for reading other values).
    pub fn ir(&self) -> &Ir {
        self.ir
    }

    /// Number of inputs given (trailing absent ones included).
    pub fn num_inputs(&self) -> usize {
        self.op().inputs.len()
    }

    /// Number of result slots.
    pub fn num_outputs(&self) -> usize {
        self.op().results.len()
    }

    /// Whether input `i` is present.
    pub fn has_input(&self, i: usize) -> bool {
        matches!(self.op().inputs.get(i), Some(Some(_)))
    }

    /// Whether output `i` is requested.
    pub fn has_output(&self, i: usize) -> bool {
        matches!(self.op().results.get(i), Some(Some(_)))
    }

    /// The type of input `i`; `None` when absent.
    pub fn input_type(&self, i: usize) -> Option<&Type> {
        let v = (*self.op().inputs.get(i)?)?;
        Some(self.ir.ty(v))
    }

    /// The type of a required input; `Unknown` when it has none yet.
    pub fn required_type(&self, i: usize) -> Result<&Type, Fail> {
        match self.input_type(i) {
            None => Err(invalid!("input {i} is required")),
            Some(Type::Unknown) => Err(unknown!("type of input {i} is unknown")),
            Some(t) => Ok(t),
        }
    }

    /// The tensor type of a required input.
    pub fn tensor(&self, i: usize) -> Result<&TensorType, Fail> {
        match self.required_type(i)? {
            Type::Tensor(t) => Ok(t),
            other => Err(invalid!("input {i} must be a tensor, got {other}")),
        }
    }

    /// The tensor type of an optional input; `None` when absent.
    pub fn opt_tensor(&self, i: usize) -> Result<Option<&TensorType>, Fail> {
        if self.has_input(i) {
            self.tensor(i).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The element type of a required tensor input.
    pub fn elem(&self, i: usize) -> Result<ElemType, Fail> {
        Ok(self.tensor(i)?.elem)
    }

    /// The dims of a required tensor input; `Unknown` when its rank is.
    pub fn dims(&self, i: usize) -> Result<&[Dim], Fail> {
        self.tensor(i)?
            .dims()
            .ok_or_else(|| unknown!("rank of input {i} is unknown"))
    }

    /// The rank of a required tensor input; `Unknown` when not known.
    pub fn rank(&self, i: usize) -> Result<usize, Fail> {
        Ok(self.dims(i)?.len())
    }

    /// The attributes as given on the node (no defaults).
    pub fn attrs(&self) -> &Attrs {
        &self.op().attrs
    }

    fn attr_schema(&self, name: &str) -> Option<&'static AttrSchema> {
        self.op().schema().attr(name)
    }

    /// The attribute, or its spec default; `None` when neither exists.
    pub fn attr(&self, name: &str) -> Option<Attr> {
        self.attrs()
            .get(name)
            .cloned()
            .or_else(|| self.attr_schema(name)?.default.map(|d| d.to_attr()))
    }

    /// An `INT` attribute (or default); `None` when absent without default.
    pub fn int_opt(&self, name: &str) -> Result<Option<i64>, Fail> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::Int(v)) => Ok(Some(v)),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be INT, got {}",
                a.kind().name()
            )),
        }
    }

    /// An `INT` attribute that must be present or defaulted.
    pub fn int(&self, name: &str) -> Result<i64, Fail> {
        self.int_opt(name)?
            .ok_or_else(|| invalid!("attribute '{name}' is required"))
    }

    /// A `FLOAT` attribute (or default).
    pub fn float_opt(&self, name: &str) -> Result<Option<f32>, Fail> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::Float(v)) => Ok(Some(v)),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be FLOAT, got {}",
                a.kind().name()
            )),
        }
    }

    /// An `INTS` attribute (or default).
    pub fn ints_opt(&self, name: &str) -> Result<Option<Vec<i64>>, Fail> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::Ints(v)) => Ok(Some(v)),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be INTS, got {}",
                a.kind().name()
            )),
        }
    }

    /// A `FLOATS` attribute (or default).
    pub fn floats_opt(&self, name: &str) -> Result<Option<Vec<f32>>, Fail> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::Floats(v)) => Ok(Some(v)),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be FLOATS, got {}",
                a.kind().name()
            )),
        }
    }

    /// A `STRING` attribute (or default) as UTF-8 text.
    pub fn string_opt(&self, name: &str) -> Result<Option<String>, Fail> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::String(v)) => String::from_utf8(v)
                .map(Some)
                .map_err(|_| invalid!("attribute '{name}' is not valid UTF-8")),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be STRING, got {}",
                a.kind().name()
            )),
        }
    }

    /// A `TENSOR` attribute.
    pub fn tensor_attr(&self, name: &str) -> Result<Option<TensorData>, Fail> {
        match self.attr(name) {
            None => Ok(None),
            Some(Attr::Tensor(t)) => Ok(Some(t)),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be TENSOR, got {}",
                a.kind().name()
            )),
        }
    }

    /// A `GRAPH` attribute.
    pub fn graph(&self, name: &str) -> Result<RegionId, Fail> {
        match self.attrs().get(name) {
            Some(Attr::Graph(r)) => Ok(*r),
            Some(a) => Err(invalid!(
                "attribute '{name}' must be GRAPH, got {}",
                a.kind().name()
            )),
            None => Err(invalid!("attribute '{name}' is required")),
        }
    }

    /// The data of input `i` when it is a constant (defined by a `Constant`
    /// op with a dense `value`).
    pub fn const_input(&self, i: usize) -> Option<&TensorData> {
        let v = (*self.op().inputs.get(i)?)?;
        let crate::ir::ValueDef::Result(def, _) = self.ir.value(v).def else {
            return None;
        };
        let d = self.ir.op(def);
        if d.kind != OpKind::Constant {
            return None;
        }
        d.attrs.tensor("value")
    }

    /// The contents of numeric input `i` as numbers, when known at compile
    /// time: a constant of any numeric type, a tracked integer value, or
    /// the `Cast` to `float`/`double` of a tracked integer value (how
    /// expanded function bodies turn a computed size into Range's float
    /// `limit`) when every element converts exactly.
    pub fn known_numbers(&self, i: usize) -> Option<Vec<f64>> {
        if let Some(data) = self.const_input(i) {
            return data.to_f64s();
        }
        if let Some(ints) = self.sym_input(i).and_then(SymTensor::as_known) {
            return Some(ints.into_iter().map(|x| x as f64).collect());
        }
        let v = (*self.op().inputs.get(i)?)?;
        let crate::ir::ValueDef::Result(def, _) = self.ir.value(v).def else {
            return None;
        };
        let d = self.ir.op(def);
        let to = match self.ir.ty(v).as_tensor()?.elem {
            ElemType::F32 => |x: i64| (x as f32) as i64 == x,
            ElemType::F64 => |x: i64| (x as f64) as i64 == x,
            _ => return None,
        };
        if d.kind != OpKind::Cast {
            return None;
        }
        let ints = self
            .knowledge
            .values
            .get(&(*d.inputs.first()?)?)?
            .as_known()?;
        ints.iter()
            .all(|&x| to(x))
            .then(|| ints.into_iter().map(|x| x as f64).collect())
    }

    /// The known contents of integer input `i`.
    pub fn sym_input(&self, i: usize) -> Option<&SymTensor> {
        let v = (*self.op().inputs.get(i)?)?;
        self.knowledge.values.get(&v)
    }

    /// The known contents of any integer value the op can see (the outputs
    /// of its subgraphs, say).
    pub fn value_of(&self, v: Value) -> Option<&SymTensor> {
        self.knowledge.values.get(&v)
    }

    /// The known contents of a 1-D (or scalar) integer input, such as a
    /// shape or axes operand.
    pub fn sym_vector(&self, i: usize) -> Option<Vec<Dim>> {
        let s = self.sym_input(i)?;
        (s.dims.len() <= 1).then(|| s.elems.clone())
    }

    /// The known static contents of a 1-D (or scalar) integer input.
    pub fn const_ints(&self, i: usize) -> Option<Vec<i64>> {
        self.sym_vector(i)?.iter().map(Dim::as_known).collect()
    }

    /// The type set so far for result `i` (by this inference function).
    pub fn result_type(&self, i: usize) -> Option<&Type> {
        self.types.get(i)?.as_ref()
    }

    /// Sets the type of result `i`.
    pub fn set_type(&mut self, i: usize, ty: Type) {
        if i < self.types.len() {
            self.types[i] = Some(ty);
        }
    }

    /// Sets result `i` to a tensor of the given element type and dims.
    pub fn set_tensor(&mut self, i: usize, elem: ElemType, dims: Vec<Dim>) {
        self.set_type(i, Type::Tensor(TensorType::with_dims(elem, dims)));
    }

    /// Sets result `i` to a tensor of unknown rank.
    pub fn set_unranked(&mut self, i: usize, elem: ElemType) {
        self.set_type(i, Type::Tensor(TensorType::unranked(elem)));
    }

    /// Records the known contents of integer result `i`.
    pub fn set_value(&mut self, i: usize, value: SymTensor) {
        if i < self.values.len() && value.elems.len() <= MAX_TRACKED_ELEMS {
            self.values[i] = Some(value);
        }
    }

    /// Forgets the shapes declared for the values of subgraph `region`
    /// (its inputs and op results, nested subgraphs included), keeping
    /// kinds and element types: for declarations that need not hold on
    /// every run of the subgraph (a loop's carried values may change shape
    /// between iterations, and so may what the body computes from them).
    /// Inference then finds the shapes. Call it before the subgraph is
    /// first inferred.
    pub fn forget_declared_shapes(&mut self, region: RegionId) {
        for v in values_within(self.ir, region) {
            let ty = erase_shapes(self.ir.ty(v));
            self.ir.value_mut(v).ty = ty;
        }
    }

    /// Infers a subgraph whose arguments have the given types (merged with
    /// what the subgraph declares) and returns the types of its outputs.
    ///
    /// Inferring the same subgraph again (to iterate a loop body to a
    /// fixpoint under more general argument types) first restores every
    /// value inside it to the type it had before the first call and forgets
    /// what was learned about it, so that a more general argument is not
    /// narrowed by the previous, more specific, round.
    ///
    /// Trailing arguments with a default value (how IR versions up to 3
    /// declare a subgraph's initializers) are not passed by the op and keep
    /// their declared types.
    pub fn infer_subgraph(
        &mut self,
        region: RegionId,
        arg_types: &[Type],
    ) -> Result<Vec<Type>, Fail> {
        let declared = &self.ir.region(region).args;
        let passes = arg_types.len() <= declared.len()
            && declared[arg_types.len()..]
                .iter()
                .all(|a| a.default.is_some());
        if !passes {
            return Err(invalid!(
                "subgraph '{}' takes {} inputs, the op passes {}",
                self.ir.region(region).name,
                declared.len(),
                arg_types.len()
            ));
        }
        let args: Vec<_> = declared.iter().map(|a| a.value).collect();
        match self.subgraph_snapshots.get(&region) {
            Some(saved) => restore_subgraph(self.ir, self.knowledge, region, saved),
            None => {
                let values = values_within(self.ir, region);
                let saved = values
                    .into_iter()
                    .map(|v| (v, self.ir.ty(v).clone()))
                    .collect();
                self.subgraph_snapshots.insert(region, saved);
            }
        }
        for (v, t) in args.iter().zip(arg_types) {
            let declared = self.ir.ty(*v);
            let merged = merge_types(declared, t)
                .ok_or_else(|| invalid!("subgraph input declared as {declared} receives {t}"))?;
            self.ir.value_mut(*v).ty = merged;
        }
        (self.infer_region)(self.ir, region, self.knowledge)
            .map_err(|e| Fail::Invalid(e.to_string()))?;
        Ok(self
            .ir
            .region(region)
            .outputs
            .iter()
            .map(|o| self.ir.ty(o.value).clone())
            .collect())
    }
}

/// Every value defined in `region` and the regions nested in it: region
/// arguments and op results.
fn values_within(ir: &Ir, region: RegionId) -> Vec<Value> {
    let mut out = vec![];
    for r in ir.regions_within(region) {
        out.extend(ir.region(r).args.iter().map(|a| a.value));
        for &op in &ir.region(r).ops {
            out.extend(ir.op(op).results.iter().flatten());
        }
    }
    out
}

/// Puts a subgraph back in the state `saved` recorded: the saved types,
/// and no knowledge about its values or ops.
fn restore_subgraph(
    ir: &mut Ir,
    knowledge: &mut Knowledge,
    region: RegionId,
    saved: &[(Value, Type)],
) {
    for (v, t) in saved {
        ir.value_mut(*v).ty = t.clone();
        knowledge.values.remove(v);
    }
    let ops: HashSet<OpId> = ir.walk_ops(region).into_iter().collect();
    knowledge.incomplete.retain(|(op, _)| !ops.contains(op));
}
