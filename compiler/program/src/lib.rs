//! The partitioner: cuts a model into compiled segments and host steps.
//!
//! Compiled code handles dense tensors of fixed-width elements. A model
//! whose main graph also carries sequences, optionals, maps or string
//! tensors, calls an operator whose result shapes depend on the data
//! (`onnx_mlc_runtime::host::needs_host`), or keeps a run-time `If`,
//! `Loop` or `SequenceMap` after `decompose` (which expands the cases
//! known at compile time), runs as a **host program**
//! (`onnx_mlc_runtime::program`, `docs/runtime.md`):
//!
//! - every maximal group of operators over dense tensors becomes a
//!   **compiled segment**: a standalone [`Model`] whose graph inputs and
//!   outputs are the values crossing its border, compiled like any model.
//!   A border dim that is not known gets a fresh `dim_param`, so that the
//!   segment compiles once with dynamic shapes; a border value of unknown
//!   rank cannot be compiled (`Unsupported`);
//! - every other operator is a **host step** run by
//!   `onnx_mlc_runtime::host::run`, or a **control-flow step** holding the
//!   blocks partitioned from its subgraphs (values of the scopes around a
//!   body are read from their slots: a body's segments take them as
//!   explicit inputs);
//! - `Constant`s are copied into each segment that uses them, and
//!   materialized by a constant step where a host step reads them.
//!
//! A model without host steps is not partitioned ([`partition`] returns
//! `None`): it compiles into one function, exactly as before.

use std::collections::{HashMap, HashSet};
use std::fmt;

use onnx_mlc_dialect::ir::{NewOp, OpRef, ValueDef};
use onnx_mlc_dialect::name_dims::name_run_time_sizes;
use onnx_mlc_dialect::{Dim, ElemType, Model, OpId, OpKind, RegionId, TensorType, Type, Value};
use onnx_mlc_runtime::host::{is_host_op, needs_host, HostOp};
use onnx_mlc_runtime::program::{Block, Program, ProgramInput, Slot, Step};
use onnx_mlc_runtime::{StringTensor, Tensor, Value as RtValue};

/// Why a model cannot run as a host program (yet).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// A valid model that needs something the host program does not do
    /// yet: an operator without a host kernel, a value of unknown rank
    /// crossing into a segment.
    #[error("{0} not supported in host programs yet")]
    Unsupported(String),
}

/// A model cut into a host program and the segments it calls.
#[derive(Clone, Debug)]
pub struct Partition {
    /// The program: steps over slots.
    pub program: Program,
    /// The compiled segments, in the program's index order: standalone
    /// models of dense tensors, before the front end.
    pub segments: Vec<Model>,
}

impl Partition {
    /// The first step of the program that is not a compiled segment or a
    /// constant: the operator that made the model a host program.
    pub fn first_host_op(&self) -> Option<&OpRef> {
        fn first(block: &Block) -> Option<&OpRef> {
            block.steps.iter().find_map(|s| match s {
                Step::Host { op, .. } => Some(&op.op),
                Step::If { op, .. } | Step::Loop { op, .. } | Step::SequenceMap { op, .. } => {
                    Some(op)
                }
                Step::Sizes { op, .. } => Some(&op.op),
                Step::Const { .. } | Step::Segment { .. } => None,
            })
        }
        first(&self.program.body)
    }
}

impl fmt::Display for Partition {
    /// The program, then each segment's border and operators.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.program)?;
        for (k, seg) in self.segments.iter().enumerate() {
            let g = seg.ir.region(seg.graph);
            let io = |v: Value| {
                format!(
                    "%{}: {}",
                    seg.ir.value(v).name.as_deref().unwrap_or("?"),
                    seg.ir.ty(v)
                )
            };
            let inputs: Vec<String> = g
                .args
                .iter()
                .filter(|a| a.default.is_none())
                .map(|a| io(a.value))
                .collect();
            let outputs: Vec<String> = g.outputs.iter().map(|o| io(o.value)).collect();
            let ops: Vec<String> = g
                .ops
                .iter()
                .map(|&o| {
                    let op = seg.ir.op(o);
                    format!("{}-{}", op.kind.name(), op.version)
                })
                .collect();
            writeln!(
                f,
                "segment {k} ({}) -> ({}) {{\n  {}\n}}",
                inputs.join(", "),
                outputs.join(", "),
                ops.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Cuts a model that went through the front end into a host program, or
/// returns `None` when it has no host step (it compiles as one function).
pub fn partition(model: &Model) -> Result<Option<Partition>, ProgramError> {
    // The compiled ops among those whose sizes the run time computes get
    // a `sizes` step (host operators size their results themselves).
    let named = name_run_time_sizes(model)
        .map_err(|e| ProgramError::Unsupported(format!("sizing a result at run time ({e})")))?;
    let (model, sized): (&Model, HashSet<OpId>) = match &named {
        Some((named, sized)) => (
            named,
            sized
                .iter()
                .copied()
                .filter(|&o| classify(named, o) == Class::Dense)
                .collect(),
        ),
        None => (model, HashSet::new()),
    };
    let g = model.ir.region(model.graph);
    let io_needs_host = g
        .args
        .iter()
        .map(|a| a.value)
        .chain(g.outputs.iter().map(|o| o.value))
        .any(|v| !is_dense(model.ir.ty(v)));
    let ops_need_host = g
        .ops
        .iter()
        .any(|&o| !matches!(classify(model, o), Class::Dense | Class::Const));
    if !io_needs_host && !ops_need_host && sized.is_empty() {
        return Ok(None);
    }
    let mut b = Builder {
        model,
        slots: HashMap::new(),
        slot_names: vec![],
        segments: vec![],
        sized,
        carriers: HashMap::new(),
    };
    let mut inputs = vec![];
    for a in &g.args {
        if a.default.is_none() {
            let slot = b.slot(a.value);
            inputs.push(ProgramInput {
                name: model.ir.value(a.value).name.clone().unwrap_or_default(),
                slot,
                ty: model.ir.ty(a.value).clone(),
            });
        }
    }
    let body = b.block(model.graph, vec![])?;
    let outputs = g
        .outputs
        .iter()
        .zip(&body.outputs)
        .map(|(o, &s)| (o.name.clone(), s))
        .collect();
    let num_segments = b.segments.len();
    Ok(Some(Partition {
        program: Program {
            inputs,
            outputs,
            slot_names: b.slot_names,
            body,
            num_segments,
        },
        segments: b.segments,
    }))
}

/// Whether compiled code can hold a value of this type: a dense tensor of
/// fixed-width elements (or a type inference left unknown, which the plan
/// reports as before).
fn is_dense(ty: &Type) -> bool {
    match ty {
        Type::Tensor(t) => t.elem != ElemType::String,
        Type::Unknown => true,
        Type::SparseTensor(_) | Type::Sequence(_) | Type::Map(..) | Type::Optional(_) => false,
    }
}

/// Where an operator runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Class {
    /// A `Constant` with a dense value: copied where it is used.
    Const,
    /// In a compiled segment.
    Dense,
    /// On the host, through `onnx_mlc_runtime::host::run`.
    Host,
    /// A control-flow step of the program.
    Control,
}

fn classify(model: &Model, o: OpId) -> Class {
    let op = model.ir.op(o);
    let has_regions = op.attrs.regions().next().is_some();
    if has_regions && matches!(op.kind, OpKind::If | OpKind::Loop | OpKind::SequenceMap) {
        return Class::Control;
    }
    if op.kind == OpKind::Constant && op.attrs.tensor("value").is_some() {
        return Class::Const;
    }
    // The optional family runs on the host even on a plain tensor (opset
    // 18 lets OptionalHasElement and OptionalGetElement take one).
    let optional_op = matches!(
        op.kind,
        OpKind::Optional | OpKind::OptionalHasElement | OpKind::OptionalGetElement
    );
    let values = op.inputs.iter().chain(&op.results).flatten();
    if optional_op || needs_host(op.kind) || values.into_iter().any(|&v| !is_dense(model.ir.ty(v)))
    {
        return Class::Host;
    }
    Class::Dense
}

/// Who uses a value, seen from one region: an op of the region (an op
/// whose subgraphs use the value counts as that op), or the region's
/// outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum User {
    Op(OpId),
    Output,
}

struct Builder<'m> {
    model: &'m Model,
    slots: HashMap<Value, Slot>,
    slot_names: Vec<String>,
    segments: Vec<Model>,
    /// The dense ops whose result sizes the run time computes
    /// (`name_run_time_sizes`): each runs after a `sizes` step.
    sized: HashSet<OpId>,
    /// The carrier of each sized op whose `sizes` step is scheduled.
    carriers: HashMap<OpId, Carrier>,
}

/// What a `sizes` step hands the segment that runs its op: a tensor with
/// no elements whose shape is the op's result sizes.
struct Carrier {
    /// Its slot.
    slot: Slot,
    /// Its type, `tensor<0xS1xS2x…xu8>`: one symbol per dim it carries.
    ty: Type,
    /// The op's result types in the segment: static dims, and the
    /// carrier's symbols for the others.
    results: Vec<Type>,
}

impl Builder<'_> {
    /// The slot of `v`, made on first use.
    fn slot(&mut self, v: Value) -> Slot {
        if let Some(&s) = self.slots.get(&v) {
            return s;
        }
        let s = self.slot_names.len();
        self.slot_names
            .push(format!("%{}", value_name(self.model, v)));
        self.slots.insert(v, s);
        s
    }

    /// The users of every value used in `region`, as that region sees them.
    fn users(&self, region: RegionId) -> HashMap<Value, HashSet<User>> {
        let model: &Model = self.model;
        let ir = &model.ir;
        let mut users: HashMap<Value, HashSet<User>> = HashMap::new();
        for &o in &ir.region(region).ops {
            let nested = ir.op(o).attrs.regions().flat_map(|r| {
                ir.walk_ops(r)
                    .into_iter()
                    .flat_map(|n| {
                        ir.op(n)
                            .inputs
                            .iter()
                            .flatten()
                            .copied()
                            .collect::<Vec<_>>()
                    })
                    .chain(
                        ir.regions_within(r)
                            .into_iter()
                            .flat_map(|r| ir.region(r).outputs.iter().map(|out| out.value)),
                    )
                    .collect::<Vec<_>>()
            });
            for v in ir.op(o).inputs.iter().flatten().copied().chain(nested) {
                users.entry(v).or_default().insert(User::Op(o));
            }
        }
        for out in &ir.region(region).outputs {
            users.entry(out.value).or_default().insert(User::Output);
        }
        users
    }

    /// Partitions `region` into a block whose arguments are `args`.
    fn block(&mut self, region: RegionId, args: Vec<Slot>) -> Result<Block, ProgramError> {
        let model: &Model = self.model;
        let ir = &model.ir;
        let users = self.users(region);
        let ops = ir.region(region).ops.clone();
        let class: HashMap<OpId, Class> =
            ops.iter().map(|&o| (o, classify(self.model, o))).collect();
        let mut steps = vec![];

        // Constants some step other than a segment reads: materialized
        // first. (Segments get their own copies.)
        // (A sized op's `sizes` step reads its operands on the host.)
        let sized = self.sized.clone();
        let is_dense_user =
            |u: &User| matches!(u, User::Op(o) if class[o] == Class::Dense && !sized.contains(o));
        let region_data = ir.region(region);
        let weights = region_data
            .args
            .iter()
            .filter_map(|a| a.default.as_ref().map(|d| (a.value, d)));
        let constants = ops.iter().filter(|o| class[o] == Class::Const).map(|&o| {
            let op = ir.op(o);
            (
                op.results[0].expect("Constant has a result"),
                op.attrs.tensor("value").expect("classified by its value"),
            )
        });
        for (v, data) in weights.chain(constants).collect::<Vec<_>>() {
            let read_by_host = users
                .get(&v)
                .is_some_and(|us| !us.iter().all(is_dense_user));
            if read_by_host {
                let value = constant(data).map_err(|e| {
                    ProgramError::Unsupported(format!(
                        "constant {}: {e}",
                        value_name(self.model, v)
                    ))
                })?;
                let output = self.slot(v);
                steps.push(Step::Const { value, output });
            }
        }

        // Values defined in this region by ops not yet scheduled.
        let mut pending: Vec<OpId> = ops
            .iter()
            .copied()
            .filter(|o| class[o] != Class::Const)
            .collect();
        let defined_by: HashMap<Value, OpId> = pending
            .iter()
            .flat_map(|&o| ir.op(o).results.iter().flatten().map(move |&v| (v, o)))
            .collect();
        let needs: HashMap<OpId, Vec<Value>> = pending
            .iter()
            .map(|&o| {
                let mut vs: Vec<Value> = ir.op(o).inputs.iter().flatten().copied().collect();
                for r in ir.op(o).attrs.regions() {
                    for n in ir.walk_ops(r) {
                        vs.extend(ir.op(n).inputs.iter().flatten().copied());
                    }
                    for r in ir.regions_within(r) {
                        vs.extend(ir.region(r).outputs.iter().map(|out| out.value));
                    }
                }
                vs.retain(|v| defined_by.contains_key(v));
                (o, vs)
            })
            .collect();
        let mut available: HashSet<Value> = HashSet::new();
        while !pending.is_empty() {
            let ready = |o: &OpId, available: &HashSet<Value>| {
                needs[o].iter().all(|v| available.contains(v))
            };
            // Every dense op that can run now joins the current segment (a
            // sized op once its sizes are measured).
            let mut segment = vec![];
            while let Some(i) = pending.iter().position(|o| {
                class[o] == Class::Dense
                    && ready(o, &available)
                    && (!self.sized.contains(o) || self.carriers.contains_key(o))
            }) {
                let o = pending.remove(i);
                available.extend(ir.op(o).results.iter().flatten().copied());
                segment.push(o);
            }
            if !segment.is_empty() {
                self.segment(&segment, &users, &mut steps)?;
                continue;
            }
            let i = pending
                .iter()
                .position(|o| ready(o, &available))
                .expect("ops in topological order always leave one ready");
            if class[&pending[i]] == Class::Dense {
                // A sized op: its sizes first, then it runs in a segment.
                steps.push(self.sizes_step(pending[i]));
                continue;
            }
            let o = pending.remove(i);
            available.extend(ir.op(o).results.iter().flatten().copied());
            let step = match class[&o] {
                Class::Host => self.host_step(o)?,
                _ => self.control_step(o)?,
            };
            steps.push(step);
        }
        let outputs = ir
            .region(region)
            .outputs
            .iter()
            .map(|out| self.slot(out.value))
            .collect();
        Ok(Block {
            args,
            steps,
            outputs,
        })
    }

    fn host_step(&mut self, o: OpId) -> Result<Step, ProgramError> {
        let model: &Model = self.model;
        let ir = &model.ir;
        let op = ir.op(o);
        if !is_host_op(op.kind) {
            let types: Vec<String> = op
                .inputs
                .iter()
                .flatten()
                .map(|&v| ir.ty(v).to_string())
                .collect();
            return Err(ProgramError::Unsupported(format!(
                "{}: running it on the host (operands {}) is",
                ir.describe_op(o),
                types.join(", ")
            )));
        }
        let host = host_op(model, o);
        let (inputs, results) = (op.inputs.clone(), op.results.clone());
        Ok(Step::Host {
            op: host,
            inputs: inputs.iter().map(|v| v.map(|v| self.slot(v))).collect(),
            outputs: results.iter().map(|v| v.map(|v| self.slot(v))).collect(),
        })
    }

    /// The `sizes` step of a sized op: measures the dims of its results
    /// that are not static into a carrier (see [`Carrier`]).
    fn sizes_step(&mut self, o: OpId) -> Step {
        let model: &Model = self.model;
        let ir = &model.ir;
        let op = ir.op(o);
        let mut dims = vec![];
        let mut symbols: Vec<Dim> = vec![Dim::Known(0)];
        let mut results = vec![];
        for (r, v) in op.results.iter().enumerate() {
            let Some(v) = *v else {
                results.push(Type::Unknown);
                continue;
            };
            let ty = match ir.ty(v) {
                Type::Tensor(t) => {
                    let name = value_name(model, v);
                    let shape = t.dims().map(|ds| {
                        ds.iter()
                            .enumerate()
                            .map(|(axis, d)| {
                                if d.is_known() {
                                    return d.clone();
                                }
                                let symbol = match d.as_named() {
                                    Some(named) => Dim::param(named),
                                    None => Dim::param(&format!("{name}_d{axis}")),
                                };
                                if !symbols.contains(&symbol) {
                                    symbols.push(symbol.clone());
                                    dims.push((r, axis));
                                }
                                symbol
                            })
                            .collect()
                    });
                    Type::Tensor(TensorType {
                        elem: t.elem,
                        shape,
                    })
                }
                other => other.clone(),
            };
            results.push(ty);
        }
        let host = host_op(model, o);
        let inputs = op.inputs.iter().map(|v| v.map(|v| self.slot(v))).collect();
        let slot = self.slot_names.len();
        self.slot_names.push(format!(
            "%{}.sizes",
            value_name(
                model,
                op.results
                    .iter()
                    .flatten()
                    .next()
                    .copied()
                    .expect("a sized op has a result")
            )
        ));
        self.carriers.insert(
            o,
            Carrier {
                slot,
                ty: Type::Tensor(TensorType::with_dims(ElemType::U8, symbols)),
                results,
            },
        );
        Step::Sizes {
            op: host,
            inputs,
            dims,
            output: slot,
        }
    }

    fn control_step(&mut self, o: OpId) -> Result<Step, ProgramError> {
        let model: &Model = self.model;
        let ir = &model.ir;
        let op = ir.op(o).clone();
        let described = ir.describe_op(o);
        let graph = |name: &str| {
            op.attrs.graph(name).ok_or_else(|| {
                ProgramError::Unsupported(format!("{described}: without its `{name}` graph, it is"))
            })
        };
        let outputs: Vec<Option<Slot>> =
            op.results.iter().map(|v| v.map(|v| self.slot(v))).collect();
        let region_args = |b: &mut Self, r: RegionId| -> Vec<Slot> {
            let args: Vec<Value> = ir.region(r).args.iter().map(|a| a.value).collect();
            args.into_iter().map(|v| b.slot(v)).collect()
        };
        let input = |b: &mut Self, i: usize| op.inputs.get(i).copied().flatten().map(|v| b.slot(v));
        Ok(match op.kind {
            OpKind::If => {
                let cond = input(self, 0).ok_or_else(|| {
                    ProgramError::Unsupported(format!("{described}: without a condition, it is"))
                })?;
                let (then_r, else_r) = (graph("then_branch")?, graph("else_branch")?);
                Step::If {
                    op: described,
                    cond,
                    then_branch: self.block(then_r, vec![])?,
                    else_branch: self.block(else_r, vec![])?,
                    outputs,
                }
            }
            OpKind::Loop => {
                let body_r = graph("body")?;
                let args = region_args(self, body_r);
                let initial = (2..op.inputs.len())
                    .map(|i| {
                        input(self, i).ok_or_else(|| {
                            ProgramError::Unsupported(format!(
                                "{described}: an absent loop-carried value is"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if args.len() != initial.len() + 2 {
                    return Err(ProgramError::Unsupported(format!(
                        "{described}: a body of {} arguments for {} carried values is",
                        args.len(),
                        initial.len()
                    )));
                }
                Step::Loop {
                    op: described,
                    max_trip: input(self, 0),
                    cond: input(self, 1),
                    initial,
                    body: self.block(body_r, args)?,
                    outputs,
                }
            }
            OpKind::SequenceMap => {
                let body_r = graph("body")?;
                let args = region_args(self, body_r);
                let inputs = (0..op.inputs.len())
                    .map(|i| {
                        input(self, i).ok_or_else(|| {
                            ProgramError::Unsupported(format!("{described}: an absent input is"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let body = self.block(body_r, args)?;
                let item_types = body
                    .outputs
                    .iter()
                    .zip(&op.results)
                    .map(|(_, r)| match r.map(|v| ir.ty(v)) {
                        Some(Type::Sequence(t)) => (**t).clone(),
                        _ => Type::Unknown,
                    })
                    .collect();
                Step::SequenceMap {
                    op: described,
                    inputs,
                    body,
                    outputs,
                    item_types,
                }
            }
            _ => unreachable!("classify admits only If, Loop and SequenceMap"),
        })
    }

    /// Extracts `ops` (dense, in a valid order) as segment number
    /// `self.segments.len()` and appends the step that calls it.
    fn segment(
        &mut self,
        ops: &[OpId],
        users: &HashMap<Value, HashSet<User>>,
        steps: &mut Vec<Step>,
    ) -> Result<(), ProgramError> {
        let model = self.model;
        let ir = &model.ir;
        let members: HashSet<OpId> = ops.iter().copied().collect();
        let index = self.segments.len();
        let mut seg = Model::new(&format!("segment{index}"), model.opset_imports.clone());
        seg.ir_version = model.ir_version;
        let graph = seg.graph;
        // The sizes the segment's inputs bind: an op's result keeps the
        // dims the whole model's inference gave it when they are evaluable
        // from these (inference inside the segment does not see the values
        // computed before it, such as a shape tensor crossing its border).
        let mut bound: HashSet<String> = HashSet::new();
        for &o in ops {
            let inputs = model.ir.op(o).inputs.iter().flatten();
            let outside = inputs.filter(
                |v| !matches!(ir.value(**v).def, ValueDef::Result(p, _) if members.contains(&p)),
            );
            let types = outside.filter_map(|&v| border_type(model, v).ok());
            let carried = self.carriers.get(&o).map(|c| c.ty.clone());
            for ty in types.chain(carried) {
                if let Type::Tensor(t) = ty {
                    let names = t.dims().into_iter().flatten().filter_map(Dim::as_named);
                    bound.extend(names.map(str::to_string));
                }
            }
        }
        // The carriers of earlier sizes steps whose symbols the members'
        // dims are computed from come in too.
        let mut leaves: HashSet<String> = HashSet::new();
        for &o in ops {
            for &v in model.ir.op(o).results.iter().flatten() {
                if let Type::Tensor(t) = ir.ty(v) {
                    leaves.extend(t.dims().into_iter().flatten().flat_map(Dim::named_leaves));
                }
            }
        }
        let mut carried: Vec<(Slot, Type)> = vec![];
        for (o, c) in &self.carriers {
            let Type::Tensor(t) = &c.ty else { continue };
            let names: Vec<&str> = t
                .dims()
                .into_iter()
                .flatten()
                .filter_map(Dim::as_named)
                .collect();
            let wanted = names
                .iter()
                .any(|n| leaves.contains(*n) && !bound.contains(*n));
            if wanted && !members.contains(o) {
                bound.extend(names.iter().map(|n| n.to_string()));
                carried.push((c.slot, c.ty.clone()));
            }
        }
        carried.sort_by_key(|(slot, _)| *slot);
        let known = |ty: &Type| match ty {
            Type::Tensor(t) => t
                .dims()
                .is_some_and(|ds| ds.iter().all(|d| d.evaluable_from(&|a| bound.contains(a)))),
            _ => false,
        };
        let mut map: HashMap<Value, Value> = HashMap::new();
        let mut border = vec![];
        for (slot, ty) in carried {
            let name = self.slot_names[slot].trim_start_matches('%').to_string();
            seg.ir.add_arg(graph, Some(name), ty);
            border.push(Border::Carrier(slot));
        }
        for &o in ops {
            let op = ir.op(o);
            if op.attrs.regions().next().is_some() {
                return Err(ProgramError::Unsupported(format!(
                    "{}: subgraphs inside a compiled segment are",
                    ir.describe_op(o)
                )));
            }
            let carrier = self.carriers.get(&o);
            if let Some(c) = carrier {
                let name = self.slot_names[c.slot].trim_start_matches('%').to_string();
                seg.ir.add_arg(graph, Some(name), c.ty.clone());
                border.push(Border::Carrier(c.slot));
            }
            let result_type = |r: usize, v: Value| match carrier {
                Some(c) => c.results[r].clone(),
                None if known(ir.ty(v)) => ir.ty(v).clone(),
                None => static_part(ir.ty(v)),
            };
            for &v in op.inputs.iter().flatten() {
                if map.contains_key(&v) {
                    continue;
                }
                let name = Some(value_name(model, v));
                let copy = match ir.value(v).def {
                    ValueDef::Result(c, _) if classify(model, c) == Class::Const => {
                        let c = ir.op(c);
                        let id = seg.ir.append_op(
                            graph,
                            NewOp {
                                kind: c.kind,
                                version: c.version,
                                inputs: vec![],
                                results: vec![Some((name, ir.ty(v).clone()))],
                                attrs: c.attrs.clone(),
                                name: c.name.clone(),
                            },
                        );
                        seg.ir.op(id).results[0].expect("made with one result")
                    }
                    ValueDef::Arg(r, i) if ir.region(r).args[i as usize].default.is_some() => {
                        let arg = seg.ir.add_arg(graph, name, ir.ty(v).clone());
                        let n = seg.ir.region(graph).args.len() - 1;
                        seg.ir.region_mut(graph).args[n].default =
                            ir.region(r).args[i as usize].default.clone();
                        arg
                    }
                    _ => {
                        let ty = border_type(model, v)?;
                        border.push(Border::Value(v));
                        seg.ir.add_arg(graph, name, ty)
                    }
                };
                map.insert(v, copy);
            }
            let id = seg.ir.append_op(
                graph,
                NewOp {
                    kind: op.kind,
                    version: op.version,
                    inputs: op.inputs.iter().map(|v| v.map(|v| map[&v])).collect(),
                    results: op
                        .results
                        .iter()
                        .enumerate()
                        .map(|(r, v)| v.map(|v| (Some(value_name(model, v)), result_type(r, v))))
                        .collect(),
                    attrs: op.attrs.clone(),
                    name: op.name.clone(),
                },
            );
            for (old, new) in op.results.iter().zip(seg.ir.op(id).results.clone()) {
                if let (Some(old), Some(new)) = (old, new) {
                    map.insert(*old, new);
                }
            }
        }
        // Results read outside the segment are its outputs.
        let mut outputs = vec![];
        for &o in ops {
            for &v in ir.op(o).results.iter().flatten() {
                let outside = users.get(&v).is_some_and(|us| {
                    us.iter()
                        .any(|u| !matches!(u, User::Op(o) if members.contains(o)))
                });
                if outside {
                    seg.ir.add_output(graph, value_name(model, v), map[&v]);
                    outputs.push(v);
                }
            }
        }
        if outputs.is_empty() {
            return Ok(());
        }
        let inputs = border
            .iter()
            .map(|b| match *b {
                Border::Value(v) => self.slot(v),
                Border::Carrier(slot) => slot,
            })
            .collect();
        let outputs = outputs.iter().map(|&v| self.slot(v)).collect();
        self.segments.push(seg);
        steps.push(Step::Segment {
            index,
            inputs,
            outputs,
        });
        Ok(())
    }
}

/// What the host needs to know of op `o` to run it or size its results.
fn host_op(model: &Model, o: OpId) -> HostOp {
    let ir = &model.ir;
    let op = ir.op(o);
    HostOp {
        op: ir.describe_op(o),
        attrs: op.attrs.clone(),
        results: op
            .results
            .iter()
            .map(|r| r.map_or(Type::Unknown, |v| ir.ty(v).clone()))
            .collect(),
    }
}

/// An input of a segment: a value computed before it, or the carrier of
/// a sized op's result sizes.
enum Border {
    Value(Value),
    Carrier(Slot),
}

/// A value's name: its ONNX name, or `v<index>` for one a pass made.
fn value_name(model: &Model, v: Value) -> String {
    model
        .ir
        .value(v)
        .name
        .clone()
        .unwrap_or_else(|| format!("v{}", v.index()))
}

/// The type a value gets as a segment input: its dims, with a fresh
/// `dim_param` for each dim that is neither known nor a `dim_param` of its
/// own (a compound atom such as `div(A,4)` names sizes the segment does
/// not see, so it gets a fresh one too).
fn border_type(model: &Model, v: Value) -> Result<Type, ProgramError> {
    let name = value_name(model, v);
    let t = match model.ir.ty(v) {
        Type::Tensor(t) => t,
        other => {
            return Err(ProgramError::Unsupported(format!(
                "value %{name} of type {other} crossing into a compiled segment is"
            )))
        }
    };
    let dims = t.dims().ok_or_else(|| {
        ProgramError::Unsupported(format!(
            "value %{name} of unknown rank crossing into a compiled segment is"
        ))
    })?;
    let dims = dims
        .iter()
        .enumerate()
        .map(|(axis, d)| {
            if d.is_known() || d.as_named().is_some() {
                d.clone()
            } else {
                Dim::param(&format!("{name}_d{axis}"))
            }
        })
        .collect();
    Ok(Type::Tensor(TensorType::with_dims(t.elem, dims)))
}

/// The type of a segment op's result: `ty` with its symbolic dims
/// forgotten, for inference to find them again from the segment's border,
/// whose symbols are the segment's own (the model's may name sizes the
/// segment does not see).
fn static_part(ty: &Type) -> Type {
    match ty {
        Type::Tensor(t) => Type::Tensor(TensorType {
            elem: t.elem,
            shape: t.shape.as_ref().map(|dims| {
                dims.iter()
                    .map(|d| {
                        if d.is_known() {
                            d.clone()
                        } else {
                            Dim::Unknown
                        }
                    })
                    .collect()
            }),
        }),
        other => other.clone(),
    }
}

/// A constant's run-time value.
fn constant(data: &onnx_mlc_dialect::TensorData) -> Result<RtValue, String> {
    match &data.payload {
        onnx_mlc_dialect::tensor::Payload::Strings(s) => Ok(RtValue::Strings(StringTensor {
            shape: data.dims.clone(),
            data: s.to_vec(),
        })),
        _ => Tensor::from_tensor_data(data)
            .map(RtValue::Tensor)
            .map_err(|e| e.to_string()),
    }
}
