//! The onnx dialect IR: a model is an arena of values, ops and regions.
//!
//! Entities are `u32` handles into typed tables (the Cranelift way), so the
//! IR is cheap to clone, `Send + Sync`, and free of reference cycles.
//! A region is an ONNX graph: arguments (graph inputs), ops in topological
//! order, and outputs. The main graph, every subgraph attribute (If, Loop,
//! Scan, …) and every training-info graph is a region of the same arena.
//! Values are in SSA form; a region may use values defined in the regions
//! that enclose it (ONNX outer-scope references).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::attr::Attrs;
pub use crate::entity::{OpId, RegionId, Value};
use crate::schema::{OpKind, OpSchema};
use crate::tensor::TensorData;
use crate::types::{ElemType, Type};

/// The ONNX IR version this dialect implements (ONNX 1.23).
pub const IR_VERSION: i64 = 14;

/// Documentation carried from the model: `doc_string` and
/// `metadata_props` of a node, value, graph or model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub doc_string: String,
    pub metadata_props: Vec<(String, String)>,
}

impl Meta {
    /// `None` when there is nothing to keep.
    pub fn boxed(doc_string: String, metadata_props: Vec<(String, String)>) -> Option<Box<Meta>> {
        (!doc_string.is_empty() || !metadata_props.is_empty()).then(|| {
            Box::new(Meta {
                doc_string,
                metadata_props,
            })
        })
    }
}

/// Where a value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Argument `index` of a region.
    Arg(RegionId, u32),
    /// Result `index` of an op.
    Result(OpId, u32),
}

/// A value's table entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueData {
    pub ty: Type,
    /// The ONNX name, when the value has one (values made by passes may not).
    pub name: Option<String>,
    pub def: ValueDef,
    pub meta: Option<Box<Meta>>,
}

/// An op's table entry.
#[derive(Clone, Debug, PartialEq)]
pub struct OpData {
    pub kind: OpKind,
    /// `since_version` of the schema this op was resolved to.
    pub version: u32,
    /// Inputs; `None` where an optional input is absent.
    pub inputs: Vec<Option<Value>>,
    /// Results; `None` where an optional output is not produced.
    pub results: Vec<Option<Value>>,
    pub attrs: Attrs,
    /// The ONNX node name (may be empty).
    pub name: String,
    /// The region this op belongs to.
    pub parent: RegionId,
    pub meta: Option<Box<Meta>>,
}

impl OpData {
    /// The schema of this op's resolved version.
    pub fn schema(&self) -> &'static OpSchema {
        self.kind
            .schema_exact(self.version)
            .expect("op versions come from the table")
    }
}

/// A region argument (graph input).
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub value: Value,
    /// An initializer of the same name: the input's default value, used
    /// when the caller does not provide it.
    pub default: Option<TensorData>,
}

/// A region output (graph output): its name is part of the graph's
/// signature and survives rewrites of the value behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    pub name: String,
    pub value: Value,
}

/// What contains a region.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RegionParent {
    /// A top-level graph (the main graph, or a training-info graph).
    Top,
    /// A subgraph attribute of an op.
    Op(OpId),
}

/// A region's table entry.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionData {
    /// The ONNX graph name.
    pub name: String,
    pub args: Vec<Arg>,
    /// Ops in topological order.
    pub ops: Vec<OpId>,
    pub outputs: Vec<Output>,
    pub parent: RegionParent,
    pub meta: Option<Box<Meta>>,
}

/// The arena that holds every value, op and region of a model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ir {
    values: Vec<ValueData>,
    ops: Vec<OpData>,
    regions: Vec<RegionData>,
}

/// The description of an op to create with [`Ir::append_op`].
#[derive(Clone, Debug)]
pub struct NewOp {
    pub kind: OpKind,
    pub version: u32,
    pub inputs: Vec<Option<Value>>,
    /// Name and type of each result; `None` for an absent optional output.
    pub results: Vec<Option<(Option<String>, Type)>>,
    pub attrs: Attrs,
    pub name: String,
}

impl Ir {
    /// An empty arena.
    pub fn new() -> Ir {
        Ir::default()
    }

    /// A value's entry.
    pub fn value(&self, v: Value) -> &ValueData {
        &self.values[v.index()]
    }

    /// A value's entry, mutably.
    pub fn value_mut(&mut self, v: Value) -> &mut ValueData {
        &mut self.values[v.index()]
    }

    /// A value's type.
    pub fn ty(&self, v: Value) -> &Type {
        &self.values[v.index()].ty
    }

    /// An op's entry.
    pub fn op(&self, o: OpId) -> &OpData {
        &self.ops[o.index()]
    }

    /// Whether `op` is a QuantizeLinear from `f32` to 8-bit integers, or a
    /// DequantizeLinear back, with one scale and zero point (or none),
    /// without blocks or another output type: a function of each element
    /// alone, which the planner and the lowering treat as an elementwise op
    /// (the residual `DQ + DQ → Q` of a QDQ network is then one loop).
    pub fn quantizes_elementwise(&self, op: &OpData) -> bool {
        let tensor =
            |v: Option<&Option<Value>>| v.copied().flatten().and_then(|v| self.ty(v).as_tensor());
        let input = |i: usize| tensor(op.inputs.get(i));
        let one = |i: usize| input(i).is_some_and(|t| t.static_numel() == Some(1));
        let Some(x) = input(0) else {
            return false;
        };
        let Some(y) = tensor(op.results.first()) else {
            return false;
        };
        let byte = |e: ElemType| matches!(e, ElemType::U8 | ElemType::I8);
        let types = match op.kind {
            OpKind::QuantizeLinear => x.elem == ElemType::F32 && byte(y.elem),
            OpKind::DequantizeLinear => byte(x.elem) && y.elem == ElemType::F32,
            _ => false,
        };
        let plain = ["block_size", "output_dtype", "precision"]
            .iter()
            .all(|a| op.attrs.int(a).unwrap_or(0) == 0);
        types
            && plain
            && one(1)
            && input(1).is_some_and(|t| t.elem == ElemType::F32)
            && (input(2).is_none() || one(2))
    }

    /// An op's entry, mutably.
    pub fn op_mut(&mut self, o: OpId) -> &mut OpData {
        &mut self.ops[o.index()]
    }

    /// A region's entry.
    pub fn region(&self, r: RegionId) -> &RegionData {
        &self.regions[r.index()]
    }

    /// A region's entry, mutably.
    pub fn region_mut(&mut self, r: RegionId) -> &mut RegionData {
        &mut self.regions[r.index()]
    }

    /// Number of values ever created (live or not).
    pub fn num_values(&self) -> usize {
        self.values.len()
    }

    /// Number of ops ever created (live or not).
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }

    /// Number of regions ever created.
    pub fn num_regions(&self) -> usize {
        self.regions.len()
    }

    /// Creates an empty region.
    pub fn new_region(&mut self, name: impl Into<String>, parent: RegionParent) -> RegionId {
        self.regions.push(RegionData {
            name: name.into(),
            args: vec![],
            ops: vec![],
            outputs: vec![],
            parent,
            meta: None,
        });
        RegionId::from_index(self.regions.len() - 1)
    }

    /// Appends an argument to a region.
    pub fn add_arg(&mut self, region: RegionId, name: Option<String>, ty: Type) -> Value {
        let index = self.regions[region.index()].args.len() as u32;
        let value = self.push_value(ValueData {
            ty,
            name,
            def: ValueDef::Arg(region, index),
            meta: None,
        });
        self.regions[region.index()].args.push(Arg {
            value,
            default: None,
        });
        value
    }

    /// Appends an op at the end of a region and creates its results.
    pub fn append_op(&mut self, region: RegionId, op: NewOp) -> OpId {
        let id = self.create_op(region, op);
        self.regions[region.index()].ops.push(id);
        id
    }

    /// Inserts an op at `position` in a region's op list.
    pub fn insert_op(&mut self, region: RegionId, position: usize, op: NewOp) -> OpId {
        let id = self.create_op(region, op);
        self.regions[region.index()].ops.insert(position, id);
        id
    }

    fn create_op(&mut self, region: RegionId, op: NewOp) -> OpId {
        let id = OpId::from_index(self.ops.len());
        let results = op
            .results
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                r.map(|(name, ty)| {
                    self.push_value(ValueData {
                        ty,
                        name,
                        def: ValueDef::Result(id, i as u32),
                        meta: None,
                    })
                })
            })
            .collect();
        self.ops.push(OpData {
            kind: op.kind,
            version: op.version,
            inputs: op.inputs,
            results,
            attrs: op.attrs,
            name: op.name,
            parent: region,
            meta: None,
        });
        id
    }

    fn push_value(&mut self, data: ValueData) -> Value {
        self.values.push(data);
        Value::from_index(self.values.len() - 1)
    }

    /// Appends an output to a region.
    pub fn add_output(&mut self, region: RegionId, name: impl Into<String>, value: Value) {
        self.regions[region.index()].outputs.push(Output {
            name: name.into(),
            value,
        });
    }

    /// Removes an op from its region's op list (its entry stays in the
    /// arena, unreachable).
    pub fn detach_op(&mut self, op: OpId) {
        let region = self.ops[op.index()].parent;
        self.regions[region.index()].ops.retain(|&o| o != op);
    }

    /// The region that encloses `region` (through its parent op), if any.
    pub fn enclosing_region(&self, region: RegionId) -> Option<RegionId> {
        match self.regions[region.index()].parent {
            RegionParent::Top => None,
            RegionParent::Op(op) => Some(self.ops[op.index()].parent),
        }
    }

    /// Replaces every use of `old` by `new` in `region` and the regions
    /// nested in it, outputs included.
    pub fn replace_uses(&mut self, region: RegionId, old: Value, new: Value) {
        for r in self.regions_within(region) {
            for i in 0..self.regions[r.index()].ops.len() {
                let op = self.regions[r.index()].ops[i];
                for input in self.ops[op.index()].inputs.iter_mut().flatten() {
                    if *input == old {
                        *input = new;
                    }
                }
            }
            for out in &mut self.regions[r.index()].outputs {
                if out.value == old {
                    out.value = new;
                }
            }
        }
    }

    /// `region` and every region nested in it, outermost first.
    pub fn regions_within(&self, region: RegionId) -> Vec<RegionId> {
        let mut out = vec![region];
        let mut i = 0;
        while i < out.len() {
            let r = out[i];
            for &op in &self.regions[r.index()].ops {
                out.extend(self.ops[op.index()].attrs.regions());
            }
            i += 1;
        }
        out
    }

    /// Every op of `region` and of the regions nested in it, each op before
    /// the ops of its own subgraphs.
    pub fn walk_ops(&self, region: RegionId) -> Vec<OpId> {
        let mut out = vec![];
        self.walk_into(region, &mut out);
        out
    }

    fn walk_into(&self, region: RegionId, out: &mut Vec<OpId>) {
        for &op in &self.regions[region.index()].ops {
            out.push(op);
            for r in self.ops[op.index()].attrs.regions() {
                self.walk_into(r, out);
            }
        }
    }

    /// A readable reference to an op for error messages:
    /// `node "conv1" (Conv-11)`.
    pub fn describe_op(&self, op: OpId) -> OpRef {
        let d = &self.ops[op.index()];
        OpRef {
            node: d.name.clone(),
            kind: d.kind,
            version: d.version,
        }
    }
}

/// Names an op in a message: node name, op type and the op's version.
///
/// Displays as `node "conv1" (Conv-11)`: the version is the `since_version`
/// of the op's schema (ONNX's own `Conv-11` notation, as in the operator
/// changelog and in the text form's `"onnx.Conv-11"`), not the model's
/// opset import, which may be any opset from 11 up to the next Conv.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpRef {
    pub node: String,
    pub kind: OpKind,
    pub version: u32,
}

impl fmt::Display for OpRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let domain = self.kind.domain().name();
        let op = if domain.is_empty() {
            self.kind.name().to_string()
        } else {
            format!("{domain}.{}", self.kind.name())
        };
        if self.node.is_empty() {
            write!(f, "unnamed node ({op}-{})", self.version)
        } else {
            write!(f, "node \"{}\" ({op}-{})", self.node, self.version)
        }
    }
}

/// Training information (the IR spec's `TrainingInfoProto`).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingInfo {
    /// Computes initial values of trainable tensors.
    pub initialization: Option<RegionId>,
    /// One training step; may read the main graph's initializers.
    pub algorithm: RegionId,
    /// (initializer name, initialization output name) pairs.
    pub initialization_binding: Vec<(String, String)>,
    /// (initializer name, algorithm output name) pairs.
    pub update_binding: Vec<(String, String)>,
}

/// An opset import: a domain (by name, so that custom domains can be kept)
/// and its version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpsetImport {
    pub domain: String,
    pub version: i64,
}

/// A whole model: the IR arena, its main graph and the model-level fields
/// of the IR spec's `ModelProto`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub ir_version: i64,
    pub opset_imports: Vec<OpsetImport>,
    pub producer_name: String,
    pub producer_version: String,
    pub domain: String,
    pub model_version: i64,
    pub doc_string: String,
    pub metadata_props: Vec<(String, String)>,
    pub training_info: Vec<TrainingInfo>,
    /// The main graph.
    pub graph: RegionId,
    pub ir: Ir,
}

impl Model {
    /// An empty model whose main graph is called `graph_name`.
    pub fn new(graph_name: &str, opset_imports: Vec<OpsetImport>) -> Model {
        let mut ir = Ir::new();
        let graph = ir.new_region(graph_name, RegionParent::Top);
        Model {
            ir_version: IR_VERSION,
            opset_imports,
            producer_name: String::new(),
            producer_version: String::new(),
            domain: String::new(),
            model_version: 0,
            doc_string: String::new(),
            metadata_props: vec![],
            training_info: vec![],
            graph,
            ir,
        }
    }

    /// The imported version of a domain (`""` and `"ai.onnx"` are the same).
    pub fn opset(&self, domain: crate::schema::Domain) -> Option<i64> {
        self.opset_imports
            .iter()
            .find(|o| crate::schema::Domain::from_name(&o.domain) == Some(domain))
            .map(|o| o.version)
    }

    /// Every top-level region: the main graph, then the training graphs.
    pub fn top_regions(&self) -> Vec<RegionId> {
        let mut out = vec![self.graph];
        for t in &self.training_info {
            out.extend(t.initialization);
            out.push(t.algorithm);
        }
        out
    }
}
