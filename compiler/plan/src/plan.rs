//! The plan's data — kernels in execution order, the storage of every
//! value — and [`plan`], which builds it.

use std::collections::{HashMap, HashSet};

use onnx_mlc_dialect::{Dim, Model, OpId, Value};

use crate::classify::OpClass;
use crate::error::{Error, Result};
use crate::fusion::{self, Group, Partition};
use crate::graph::{Graph, Size};
use crate::memory::{self, align_up};

/// How [`plan`] plans.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Let an elementwise kernel store an output over an input buffer that
    /// dies in it (see the crate docs). Off by default: the kernel then gets
    /// one buffer as an input and as an output, so the lowering must not
    /// mark those two arguments `noalias`, which it does for all today.
    pub in_place: bool,
}

/// The execution plan of a model's main graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The kernels in execution order (a topological order of the main
    /// graph). Together they hold every op of the main graph except the
    /// `Constant`s (weights) and the views (listed in `views`), each once.
    pub kernels: Vec<Kernel>,
    /// Where every value of the main graph lives.
    pub storage: HashMap<Value, Storage>,
    /// The weights in the order of the ABI's weights table: main-graph
    /// arguments with a default (initializers that are also inputs), in
    /// argument order, then the results of the main graph's `Constant`s, in
    /// op order. `Storage::Weight(k)` is `weights[k]`.
    pub weights: Vec<Value>,
    /// The view ops (`Reshape`, `Flatten`, `Squeeze`, `Unsqueeze`,
    /// `Identity`): they generate no code; their results are
    /// `Storage::Alias`es.
    pub views: Vec<OpId>,
    /// The kernels during which each value the plan allocates (every
    /// `Workspace` and `Dynamic` value) must exist: from the kernel that
    /// produces it to the last kernel that reads it or a view of it. A
    /// `Dynamic` value is allocated before its `first` kernel and freed
    /// after its `last`.
    pub lifetimes: HashMap<Value, Lifetime>,
    /// In-place stores: each key is a `Workspace` output of an elementwise
    /// kernel stored over the buffer of the value it maps to, a `Workspace`
    /// input that dies in that kernel (same offset, same size).
    pub in_place: HashMap<Value, Value>,
    /// Graph outputs whose value cannot be computed into the caller's
    /// buffer — a graph input or weight returned as is, or a value already
    /// written to another output's buffer — and are copied into it after
    /// the last kernel, in output order.
    pub output_copies: Vec<OutputCopy>,
    /// Bytes of the workspace arena: the end of the highest workspace
    /// buffer, rounded up to 64.
    pub workspace_size: u64,
    /// Bytes the workspace values would take without reuse: the sum of
    /// their sizes, each rounded up to 64.
    pub naive_bytes: u64,
    /// `kernels.len()`.
    pub num_kernels: usize,
    /// Ops that joined another op's kernel: the sum over kernels of their
    /// op count minus one.
    pub num_fused_ops: usize,
}

/// A kernel: ops run as one function — one loop nest, or one op lowered by
/// its own pattern followed by a loop nest over its result (the epilogue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The ops, in a topological order; the root, if any, first.
    pub ops: Vec<OpId>,
    /// The kernel's one op that is not elementwise (a contraction,
    /// convolution, pooling, reduction, normalization, any other op lowered
    /// by its own pattern, or a subgraph-carrying op); `None` when the
    /// kernel is a pure elementwise loop nest. Elementwise ops after the
    /// root are its epilogue: they run over the root's result, which has
    /// no other reader.
    pub root: Option<OpId>,
    /// The values the kernel reads from outside, in first-use order:
    /// operands of its ops produced elsewhere, and main-graph values that
    /// a subgraph of a control-flow root reads.
    pub inputs: Vec<Value>,
    /// The results of its ops that outlive it (every result whose storage
    /// is not `Fused`), in op order.
    pub outputs: Vec<Value>,
}

impl Kernel {
    /// The elementwise ops applied after the root (empty without a root).
    pub fn epilogue(&self) -> &[OpId] {
        if self.root.is_some() {
            &self.ops[1..]
        } else {
            &[]
        }
    }
}

/// Where a value lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Graph input `i`: the caller's buffer. `i` counts the main graph's
    /// arguments without a default, in order (the ABI's inputs).
    Input(usize),
    /// The caller's buffer for graph output `i`: the value is output `i`,
    /// or output `i` is a view of it. The value is computed straight into
    /// it, and later kernels may read it there.
    Output(usize),
    /// Weight `k` of [`Plan::weights`].
    Weight(usize),
    /// A static-size intermediate at `offset` in the workspace arena.
    /// `offset` is a multiple of 64; `bytes` is the value's exact size.
    Workspace { offset: u64, bytes: u64 },
    /// An intermediate that lives only inside its kernel's loop nest, never
    /// in memory: every reader is an op of the same kernel.
    Fused,
    /// The same bytes as `of` (a view of a contiguous tensor: no copy).
    /// `of` is never an alias itself.
    Alias { of: Value },
    /// An intermediate whose size depends on `dim_param`s: allocated
    /// through the runtime for its [`Lifetime`]; `bytes` is its size as a
    /// polynomial of the `dim_param`s.
    Dynamic { bytes: Dim },
}

/// An inclusive range of kernel indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lifetime {
    /// The kernel that produces the value.
    pub first: usize,
    /// The last kernel that reads it (`first` when nothing does).
    pub last: usize,
}

impl Lifetime {
    /// True when the two ranges share a kernel.
    pub fn overlaps(&self, other: &Lifetime) -> bool {
        self.first <= other.last && other.first <= self.last
    }
}

/// A graph output filled by a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputCopy {
    /// The graph output's index.
    pub output: usize,
    /// The value to copy (its storage says where it is).
    pub from: Value,
}

/// Plans the main graph of `model`, which must have passed the dialect
/// pipeline (verified, shapes inferred and folded): every value must be a
/// dense tensor with a known rank, no unknown dim and a fixed element size.
pub fn plan(model: &Model, options: &PlanOptions) -> Result<Plan> {
    let g = Graph::new(model)?;
    let part = fusion::partition(&g);
    let mut storage = HashMap::new();
    let weights = arguments_and_weights(model, &g, &mut storage);
    let mut views = vec![];
    for pos in (0..g.ops.len()).filter(|&p| g.class[p] == OpClass::View) {
        let v = g.result(pos);
        storage.insert(v, Storage::Alias { of: g.resolve(v) });
        views.push(g.ops[pos]);
    }
    let kernels: Vec<Kernel> = part
        .groups
        .iter()
        .enumerate()
        .map(|(k, group)| kernel(&g, &part, k, group))
        .collect();
    for (k, group) in part.groups.iter().enumerate() {
        for &pos in &group.ops {
            for v in g.results(pos).filter(|&v| is_fused(&g, &part, k, v)) {
                storage.insert(v, Storage::Fused);
            }
        }
    }
    let output_copies = claim_outputs(&g, &part, &mut storage);
    let lifetimes = lifetimes(&g, &part, &kernels, &storage);
    let allocated = allocate(&g, &kernels, &lifetimes, &mut storage, options.in_place)?;
    debug_assert!(
        g.values.iter().all(|v| storage.contains_key(v)),
        "every value has storage"
    );
    Ok(Plan {
        num_kernels: kernels.len(),
        num_fused_ops: kernels.iter().map(|k| k.ops.len() - 1).sum(),
        naive_bytes: allocated.naive_bytes,
        workspace_size: align_up(allocated.peak),
        kernels,
        storage,
        weights,
        views,
        lifetimes,
        in_place: allocated.in_place,
        output_copies,
    })
}

/// What [`allocate`] decided besides each value's storage.
struct Allocated {
    peak: u64,
    naive_bytes: u64,
    in_place: HashMap<Value, Value>,
}

/// Gives memory to the values that have a lifetime: `Dynamic` storage when
/// their size is symbolic, an offset from [`memory::layout`] otherwise.
/// No offset exceeds the sum of the aligned sizes, so checking that sum
/// for overflow keeps all the layout's arithmetic in range.
fn allocate(
    g: &Graph,
    kernels: &[Kernel],
    lifetimes: &HashMap<Value, Lifetime>,
    storage: &mut HashMap<Value, Storage>,
    in_place: bool,
) -> Result<Allocated> {
    let mut workspace = vec![];
    for kernel in kernels {
        for &v in kernel.outputs.iter().filter(|v| lifetimes.contains_key(v)) {
            match g.size(v) {
                Size::Static(bytes) => workspace.push((v, *bytes, lifetimes[&v])),
                Size::Symbolic(bytes) => {
                    storage.insert(
                        v,
                        Storage::Dynamic {
                            bytes: bytes.clone(),
                        },
                    );
                }
            }
        }
    }
    let naive_bytes = workspace
        .iter()
        .try_fold(0u64, |sum, &(_, bytes, _)| sum.checked_add(align_up(bytes)))
        .ok_or(Error::WorkspaceOverflow)?;
    let layout = memory::layout(g, kernels, &workspace, in_place);
    for &(v, bytes, _) in &workspace {
        let offset = layout.offsets[&v];
        storage.insert(v, Storage::Workspace { offset, bytes });
    }
    Ok(Allocated {
        peak: layout.peak,
        naive_bytes,
        in_place: layout.in_place,
    })
}

/// Gives arguments `Input` or (with a default) `Weight` storage, and
/// `Constant` results `Weight` storage; returns the weights table.
fn arguments_and_weights(
    model: &Model,
    g: &Graph,
    storage: &mut HashMap<Value, Storage>,
) -> Vec<Value> {
    let mut weights = vec![];
    let mut inputs = 0;
    for arg in &model.ir.region(model.graph).args {
        if arg.default.is_some() {
            storage.insert(arg.value, Storage::Weight(weights.len()));
            weights.push(arg.value);
        } else {
            storage.insert(arg.value, Storage::Input(inputs));
            inputs += 1;
        }
    }
    for pos in (0..g.ops.len()).filter(|&p| g.class[p] == OpClass::Weight) {
        for v in g.results(pos) {
            storage.insert(v, Storage::Weight(weights.len()));
            weights.push(v);
        }
    }
    weights
}

/// The kernel of group `k`: its ops, root, inputs and outputs.
fn kernel(g: &Graph, part: &Partition, k: usize, group: &Group) -> Kernel {
    let mut inputs = vec![];
    let mut outputs = vec![];
    for &pos in &group.ops {
        for &v in g.operands(pos) {
            let inside = g.producer(v).is_some_and(|p| part.group_of[p] == Some(k));
            if !inside && !inputs.contains(&v) {
                inputs.push(v);
            }
        }
        outputs.extend(g.results(pos).filter(|&v| !is_fused(g, part, k, v)));
    }
    Kernel {
        ops: group.ops.iter().map(|&p| g.ops[p]).collect(),
        root: group.root.map(|p| g.ops[p]),
        inputs,
        outputs,
    }
}

/// A result of kernel `k` lives only in its loop nest when it is read, and
/// only by ops of the kernel (not by a view, a subgraph, or as a graph
/// output). Unread results are materialized: the op may have to store them.
fn is_fused(g: &Graph, part: &Partition, k: usize, v: Value) -> bool {
    let uses = g.uses(v);
    !g.is_output(v) && !uses.is_empty() && uses.iter().all(|&u| part.group_of[u] == Some(k))
}

/// Computes each graph output into the caller's buffer when it can: the
/// value the output shows (through views) must be a kernel's result, and
/// one buffer can hold it only once (outputs that are themselves no view
/// claim first). Returns the outputs that must be copied instead.
fn claim_outputs(
    g: &Graph,
    part: &Partition,
    storage: &mut HashMap<Value, Storage>,
) -> Vec<OutputCopy> {
    let n = g.outputs.len();
    let direct = (0..n).filter(|&i| !g.is_view(g.outputs[i]));
    let viewed = (0..n).filter(|&i| g.is_view(g.outputs[i]));
    let mut claimed = HashSet::new();
    let mut copies = vec![];
    for i in direct.chain(viewed) {
        let v = g.outputs[i];
        let source = g.resolve(v);
        let computed = g
            .producer(source)
            .is_some_and(|p| part.group_of[p].is_some());
        if computed && claimed.insert(source) {
            storage.insert(source, Storage::Output(i));
        } else {
            copies.push(OutputCopy { output: i, from: v });
        }
    }
    copies.sort_by_key(|c| c.output);
    copies
}

/// The lifetime of every kernel result not yet given storage (the values
/// to allocate): from its kernel to the last kernel that reads it or any
/// view of it.
fn lifetimes(
    g: &Graph,
    part: &Partition,
    kernels: &[Kernel],
    storage: &HashMap<Value, Storage>,
) -> HashMap<Value, Lifetime> {
    let mut shown_by: HashMap<Value, Vec<Value>> = HashMap::new();
    for (&v, s) in storage {
        if let Storage::Alias { of } = s {
            shown_by.entry(*of).or_default().push(v);
        }
    }
    let mut out = HashMap::new();
    for (k, kernel) in kernels.iter().enumerate() {
        for &v in kernel.outputs.iter().filter(|v| !storage.contains_key(v)) {
            let readers = std::iter::once(v).chain(shown_by.get(&v).into_iter().flatten().copied());
            let last = readers
                .flat_map(|r| g.uses(r).iter().filter_map(|&u| part.group_of[u]))
                .fold(k, usize::max);
            out.insert(v, Lifetime { first: k, last });
        }
    }
    out
}
