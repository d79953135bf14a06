//! The execution plan of a model: which ops run together as one kernel, in
//! what order, and where every tensor lives.
//!
//! The lowering turns a [`Plan`] into code: one function per [`Kernel`],
//! called in order from the model's entry point, with every intermediate
//! tensor that must exist in memory a view into one workspace arena the
//! caller provides (`docs/abi.md`). So the plan decides the two things that
//! dominate the memory traffic of inference — how many passes over memory
//! the ops make (fusion), and how much memory their results take (reuse) —
//! once, on the onnx dialect, where both are easy to see and to test, and
//! the lowering only follows it. [`plan`] builds it from a model that has
//! passed the dialect pipeline (`passes::DEFAULT_PIPELINE`); it plans the
//! main graph (subgraphs of `If`/`Loop`/`Scan` are lowered separately).
//!
//! # Kernels and fusion
//!
//! Each op of the main graph gets a class (`classify.rs`, one exhaustive
//! match over the op table): `Constant`s are weights and `Reshape`,
//! `Flatten`, `Squeeze`, `Unsqueeze` and `Identity` are views — neither
//! generates code nor belongs to a kernel. Every other op is in exactly one
//! kernel. A kernel is either an elementwise loop nest, or one *root* op
//! lowered by its own pattern (MatMul, Conv, pooling, reduction,
//! normalization, `Transpose`, `Gather`, control flow, …) optionally
//! followed by an elementwise *epilogue* over its result. The rules
//! (`fusion.rs`, one named function each), applied to the ops in order:
//!
//! - **elementwise chain** (`join_target`): an elementwise op (unary,
//!   binary and variadic with broadcasting, `Where`, `Cast`, `Clip`,
//!   activations, and `BatchNormalization` in inference form, a
//!   per-channel affine map) joins the elementwise group of one of its
//!   producers, so `Sigmoid → Mul`, `Div → Erf → Add → Mul → Mul` (GELU) or
//!   `Pow → Mul → Add → Mul → Tanh → …` become one loop nest. A value both
//!   ops of the group and something outside read is a kernel output; a
//!   value read only inside is never stored.
//! - **root epilogue** (`join_target`): likewise an elementwise op joins
//!   the group of a root with one result: bias `Add`, `Relu`, `Clip`,
//!   `Sigmoid`, `x * sigmoid(x)`, `HardSwish`, a residual `Add`, or a
//!   `BatchNormalization` after a `Conv` are applied to the root's result
//!   as it is produced.
//! - **shared operand** (`sibling_target`): an elementwise op that can join
//!   no producer joins an elementwise group that already reads one of its
//!   operands, so that a chain starting at a view or at another kernel's
//!   output stays one loop nest (GPT-2's tanh GELU reads the reshaped
//!   `Gemm` result in `Mul(x, 0.5)` and in `Pow(x, 3)`).
//! - **same iteration space** (`same_iteration_space`): only when the op's
//!   result has exactly the group's shape (the root result's, or that of
//!   every op of the elementwise group). Its other operands may broadcast
//!   into it; no element is computed twice.
//! - **acyclic** (`stays_acyclic`): only when no other operand of the op
//!   comes from a group that depends on this one, and the op does not read
//!   the group's own values through a view. Groups stay convex, so the
//!   kernels form a DAG.
//! - **root result stays private** (`keep_root_results_private`): when
//!   anything outside the kernel needs the root's own result (another
//!   kernel, a view, a subgraph, a graph output), the epilogue moves into
//!   an elementwise kernel of its own, since a fused root never stores its
//!   untransformed result.
//! - ops with subgraphs, roots with several results (`MaxPool` with
//!   indices, `LayerNormalization` with its statistics) and all other ops
//!   (`Transpose`, `Concat`, `Gather`, `Split`, …) are kernels of their own.
//!
//! Kernels run in a topological order of the kernel DAG that follows the
//! model's op order where it can (Kahn's algorithm, earliest first op
//! first). Not fused, to stay simple and correct: elementwise prologues
//! into a root (e.g. a `Cast` before a `MatMul`), elementwise ops across a
//! view (a `Gemm → Reshape → Add`: the `Add` is a loop nest of its own),
//! and ops whose result is smaller than the group's (which a loop nest
//! would recompute at every point).
//!
//! # Storage
//!
//! Every value of the main graph gets a [`Storage`]: graph inputs and
//! weights stay where the caller put them; a view is an `Alias` of the
//! value it shows (a contiguous tensor reinterpreted, no copy); a result
//! read only inside its kernel is `Fused`. A graph output is computed
//! straight into the caller's buffer (`Output`), also when it is a view of
//! a kernel's result (then that result is computed into the output
//! buffer), and later kernels read it there. An output that is a graph
//! input or weight, or whose value another output's buffer already holds,
//! is copied after the last kernel ([`Plan::output_copies`]). Every other
//! result is `Workspace` (static size) or `Dynamic` (a size that depends
//! on `dim_param`s: allocated through the runtime for its lifetime).
//!
//! # Memory planning
//!
//! A workspace value is live from the kernel that produces it to the last
//! kernel that reads it or any view of it (a value a subgraph reads is
//! read by the control-flow kernel, so it lives through it). Values whose
//! lifetimes intersect must not overlap; the others may share memory.
//! Offsets come from TFLite's *greedy by size* (`memory::greedy_by_size`):
//! buffers in decreasing size, each in the smallest gap, among the placed
//! buffers whose lifetimes intersect its own, that fits it, or above them;
//! offsets are multiples of 64. [`Plan::workspace_size`] is the peak;
//! [`Plan::naive_bytes`] what the values would take without reuse.
//!
//! **In place** ([`PlanOptions::in_place`], off by default): an elementwise
//! kernel may store an output over the buffer of an input when that buffer
//! dies in the kernel, has the output's size, and every operand showing it
//! has the output's exact shape — so each element is loaded at the point
//! the loop nest then stores to, before the store. The pair shares one
//! buffer (one block for the placement, lifetime the union) and is listed
//! in [`Plan::in_place`]. The lowering must load a point's operands before
//! storing its results, which a loop nest does naturally, and must not
//! declare the pair's two kernel arguments `noalias` (they are one
//! buffer) — which is why it is opt-in.
//!
//! # Reading a plan
//!
//! `Display for Plan` is a one-line summary (kernels, fused ops, views,
//! workspace peak against naive); [`Plan::dump`] lists every kernel with
//! its ops, inputs and outputs, and every value's storage with offsets and
//! lifetimes.

mod classify;
pub mod error;
mod fusion;
mod graph;
mod memory;
mod plan;
mod report;

pub use error::{Error, Result};
pub use memory::ALIGN;
pub use plan::{plan, Kernel, Lifetime, OutputCopy, Plan, PlanOptions, Storage};
pub use report::PlanDump;
