//! Fusion: partitions the main graph's ops into kernels and orders them.
//!
//! One pass over the ops in topological order opens a group for each op
//! that cannot join an earlier one; [`join_target`] and [`sibling_target`]
//! are the rules that let an elementwise op join the group of one of its
//! producers or of another reader of its operands, built from the small
//! predicates below. A post-pass ([`Builder::keep_root_results_private`])
//! undoes epilogues whose root result is needed outside the kernel, and
//! [`Builder::order`] sorts the groups topologically.
//!
//! Every group stays *convex* (no path leaves it and comes back), so the
//! groups form a DAG and each group can run as one kernel: the predicate
//! [`stays_acyclic`] checks this on every join.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use onnx_mlc_dialect::Value;

use onnx_mlc_dialect::OpKind;

use crate::classify::OpClass;
use crate::graph::Graph;

/// A group of ops that runs as one kernel.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// Op positions, ascending (a topological order within the group).
    pub ops: Vec<usize>,
    /// The position of the group's non-elementwise op (its first op), if any.
    pub root: Option<usize>,
}

/// The kernels' ops, in execution order.
pub(crate) struct Partition {
    pub groups: Vec<Group>,
    /// The group of each op position (`None` for weights and views).
    pub group_of: Vec<Option<usize>>,
}

/// What may join a group while it is being built.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Accepts {
    /// An elementwise loop nest: elementwise ops of the same shape.
    Elementwise,
    /// A root with an epilogue: elementwise ops of the root result's shape.
    Epilogue,
    /// Nothing: a single op, or a subgraph-carrying op.
    Nothing,
}

struct Draft {
    ops: Vec<usize>,
    root: Option<usize>,
    accepts: Accepts,
}

struct Builder<'g, 'm> {
    g: &'g Graph<'m>,
    group_of: Vec<Option<usize>>,
    drafts: Vec<Draft>,
}

/// Partitions the main graph into kernels in execution order.
pub(crate) fn partition(g: &Graph) -> Partition {
    let mut b = Builder {
        g,
        group_of: vec![None; g.ops.len()],
        drafts: vec![],
    };
    for pos in 0..g.ops.len() {
        match g.class[pos] {
            OpClass::Weight | OpClass::View => {}
            OpClass::Elementwise => {
                match join_target(&b, pos).or_else(|| sibling_target(&b, pos)) {
                    Some(group) => b.join(group, pos),
                    None => b.open(pos, None, Accepts::Elementwise),
                }
            }
            OpClass::Root => b.open(pos, Some(pos), Accepts::Epilogue),
            OpClass::Single | OpClass::Control => b.open(pos, Some(pos), Accepts::Nothing),
        }
    }
    b.keep_root_results_private();
    b.order()
}

/// **Rule: an elementwise op joins the group of one of its producers**
/// (the first, in operand order, that passes every check): an elementwise
/// group, making a longer loop nest (`elementwise chain`), or a root's
/// group, becoming part of its epilogue (`root epilogue`). The checks:
/// [`accepts_elementwise`], [`same_iteration_space`], [`stays_acyclic`],
/// [`epilogue_allowed`].
fn join_target(b: &Builder, pos: usize) -> Option<usize> {
    b.g.operands(pos).iter().find_map(|&v| {
        let group = b.group_of[b.g.producer(v)?]?;
        (accepts_elementwise(b, group)
            && epilogue_allowed(b, group, pos)
            && same_iteration_space(b, group, pos)
            && stays_acyclic(b, group, pos))
        .then_some(group)
    })
}

/// **Rule: an elementwise op that joins no producer joins a sibling**: a
/// root-less elementwise group of its shape that already reads one of its
/// operands (`shared operand`), so both read it in one pass. This keeps a
/// chain whole when its input is a view or a kernel's output read twice:
/// GPT-2's GELU on a `Gemm → Reshape` is `0.5·x · (1 + tanh(…x³…))`, whose
/// `Mul(x, 0.5)` and `Pow(x, 3)` would otherwise start two loop nests.
/// Checks: [`same_iteration_space`], [`stays_acyclic`].
fn sibling_target(b: &Builder, pos: usize) -> Option<usize> {
    b.g.operands(pos).iter().find_map(|&v| {
        b.g.uses(v).iter().take_while(|&&u| u < pos).find_map(|&u| {
            let group = b.group_of[u]?;
            (b.drafts[group].accepts == Accepts::Elementwise
                && same_iteration_space(b, group, pos)
                && stays_acyclic(b, group, pos))
            .then_some(group)
        })
    })
}

/// A QuantizeLinear joins elementwise runs (the residual `DQ + DQ → Q` of
/// a QDQ network), not a root's epilogue: after the float convolutions of
/// a depthwise network it made them slower (EfficientNet-B0 in QDQ form,
/// 28 → 47 ms).
fn epilogue_allowed(b: &Builder, group: usize, pos: usize) -> bool {
    b.drafts[group].root.is_none() || b.g.ir.op(b.g.ops[pos]).kind != OpKind::QuantizeLinear
}

/// Elementwise loop nests and roots with one result take elementwise ops;
/// single ops (`Transpose`, `Gather`, …) and control flow take none.
fn accepts_elementwise(b: &Builder, group: usize) -> bool {
    b.drafts[group].accepts != Accepts::Nothing
}

/// The op's result has exactly the group's shape (the root result's, or
/// the shape every op of an elementwise group has), so the group is one
/// loop nest over that shape with no element computed twice; its other
/// operands may broadcast into it.
fn same_iteration_space(b: &Builder, group: usize, pos: usize) -> bool {
    let first = b.drafts[group].ops[0];
    b.g.dims(b.g.result(first)) == b.g.dims(b.g.result(pos))
}

/// Joining keeps the groups a DAG: no operand of the op is produced by
/// another group that itself depends on this one, and the op reads no
/// value of the group through a view (a view of a value being computed
/// in the same loop nest is not a tensor yet).
fn stays_acyclic(b: &Builder, group: usize, pos: usize) -> bool {
    b.g.operands(pos).iter().all(|&v| {
        let source = b.g.resolve(v);
        match b.source_group(source) {
            None => true,
            Some(h) if h == group => source == v,
            Some(h) => !b.depends_on(h, group),
        }
    })
}

impl Builder<'_, '_> {
    fn open(&mut self, pos: usize, root: Option<usize>, accepts: Accepts) {
        self.group_of[pos] = Some(self.drafts.len());
        self.drafts.push(Draft {
            ops: vec![pos],
            root,
            accepts,
        });
    }

    fn join(&mut self, group: usize, pos: usize) {
        self.group_of[pos] = Some(group);
        self.drafts[group].ops.push(pos);
    }

    /// The group that produces `v` (`None` for arguments and weights).
    /// `v` must not be a view's result.
    fn source_group(&self, v: Value) -> Option<usize> {
        self.group_of[self.g.producer(v)?]
    }

    /// The groups whose results `group` reads (through views), other than
    /// itself.
    fn predecessors(&self, group: usize) -> HashSet<usize> {
        let mut out = HashSet::new();
        for &pos in &self.drafts[group].ops {
            for &v in self.g.operands(pos) {
                if let Some(h) = self.source_group(self.g.resolve(v)) {
                    if h != group {
                        out.insert(h);
                    }
                }
            }
        }
        out
    }

    /// True when `group` reads, directly or transitively, a result of
    /// `target`. Groups that end before `target` starts cannot, since every
    /// group is convex and ops are in topological order.
    fn depends_on(&self, group: usize, target: usize) -> bool {
        let start = self.drafts[target].ops[0];
        let mut seen = HashSet::from([group]);
        let mut stack = vec![group];
        while let Some(x) = stack.pop() {
            for h in self.predecessors(x) {
                if h == target {
                    return true;
                }
                let ends_before = self.drafts[h].ops.last().is_some_and(|&last| last < start);
                if !ends_before && seen.insert(h) {
                    stack.push(h);
                }
            }
        }
        false
    }

    /// **Rule: a root's result stays inside its kernel.** An epilogue is
    /// applied to the root's result tile by tile, so the untransformed
    /// result never exists as a whole tensor; when something outside the
    /// kernel needs it (another kernel, a view, a subgraph, a graph output),
    /// the epilogue moves out into an elementwise group of its own (which is
    /// one loop nest: its ops all have the root result's shape). Splitting
    /// a convex group this way keeps the groups a DAG.
    fn keep_root_results_private(&mut self) {
        for group in 0..self.drafts.len() {
            let draft = &self.drafts[group];
            if draft.accepts != Accepts::Epilogue || draft.ops.len() == 1 {
                continue;
            }
            let result = self.g.result(draft.ops[0]);
            let escapes = self.g.is_output(result)
                || self
                    .g
                    .uses(result)
                    .iter()
                    .any(|&u| self.group_of[u] != Some(group));
            if escapes {
                let epilogue = self.drafts[group].ops.split_off(1);
                let new = self.drafts.len();
                for &pos in &epilogue {
                    self.group_of[pos] = Some(new);
                }
                self.drafts.push(Draft {
                    ops: epilogue,
                    root: None,
                    accepts: Accepts::Elementwise,
                });
            }
        }
    }

    /// Orders the groups topologically (Kahn's algorithm), taking the ready
    /// group whose first op comes first in the model, so that the order
    /// follows the model's where it can.
    fn order(self) -> Partition {
        let n = self.drafts.len();
        let preds: Vec<HashSet<usize>> = (0..n).map(|k| self.predecessors(k)).collect();
        let mut succs = vec![vec![]; n];
        let mut waiting: Vec<usize> = preds.iter().map(HashSet::len).collect();
        for (k, ps) in preds.iter().enumerate() {
            for &p in ps {
                succs[p].push(k);
            }
        }
        let mut ready: BinaryHeap<Reverse<(usize, usize)>> = (0..n)
            .filter(|&k| waiting[k] == 0)
            .map(|k| Reverse((self.drafts[k].ops[0], k)))
            .collect();
        let mut rank = vec![usize::MAX; n];
        let mut groups = Vec::with_capacity(n);
        while let Some(Reverse((_, k))) = ready.pop() {
            rank[k] = groups.len();
            groups.push(Group {
                ops: self.drafts[k].ops.clone(),
                root: self.drafts[k].root,
            });
            for &s in &succs[k] {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.push(Reverse((self.drafts[s].ops[0], s)));
                }
            }
        }
        assert_eq!(groups.len(), n, "fusion keeps the kernel graph acyclic");
        let group_of = self.group_of.iter().map(|g| g.map(|k| rank[k])).collect();
        Partition { groups, group_of }
    }
}
