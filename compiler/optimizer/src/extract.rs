//! Extraction: choosing one e-node per needed e-class.
//!
//! A graph is a DAG: a value used twice is computed once. Tree extraction
//! (egg's `Extractor`) costs each use separately, so it overpays for shared
//! subgraphs and can prefer a private copy of work that is already done for
//! another user. [`extract_dag`] is the greedy DAG extractor of
//! extraction-gym ("faster greedy DAG"): the cost of choosing a node is the
//! cost of the *set* of classes its sub-DAG needs, each counted once. Sets
//! are bitsets over the classes, so taking a union is cheap; a node whose
//! sub-DAG contains its own class is a cycle and never chosen. A local
//! search then switches single classes to other nodes where that lowers
//! the DAG cost of the whole graph, which also counts work shared between
//! different outputs. [`extract_tree`] is kept for comparison (ablation).

use std::collections::{HashMap, VecDeque};

use egg::{Id, Language};

use crate::analysis::OGraph;
use crate::lang::ONode;

/// A choice of one node per class reachable from the roots.
#[derive(Clone, Debug, Default)]
pub struct Extraction {
    choice: HashMap<Id, ONode>,
}

impl Extraction {
    /// The node chosen for `class` (canonical id).
    pub fn node(&self, class: Id) -> Option<&ONode> {
        self.choice.get(&class)
    }

    /// The chosen nodes.
    pub fn nodes(&self) -> impl Iterator<Item = &ONode> {
        self.choice.values()
    }

    /// Number of classes chosen.
    pub fn len(&self) -> usize {
        self.choice.len()
    }

    /// True when nothing was chosen.
    pub fn is_empty(&self) -> bool {
        self.choice.is_empty()
    }

    /// Total cost with each chosen class counted once.
    pub fn dag_cost(&self, egraph: &OGraph, cost: &impl Fn(Id, &ONode) -> f64) -> f64 {
        self.choice
            .iter()
            .map(|(&c, n)| cost(egraph.find(c), n))
            .sum()
    }

    /// Keeps the classes reachable from `roots` through the chosen nodes;
    /// `None` when a root or a child has no choice.
    fn restrict(
        mut choice: HashMap<Id, ONode>,
        egraph: &OGraph,
        roots: &[Id],
    ) -> Option<Extraction> {
        let mut keep = HashMap::new();
        let mut stack: Vec<Id> = roots.iter().map(|&r| egraph.find(r)).collect();
        while let Some(c) = stack.pop() {
            if keep.contains_key(&c) {
                continue;
            }
            let node = choice.remove(&c)?;
            stack.extend(node.children().iter().map(|&k| egraph.find(k)));
            keep.insert(c, node);
        }
        Some(Extraction { choice: keep })
    }
}

/// A fixed-size set of class indices.
#[derive(Clone, Debug, PartialEq)]
struct BitSet(Vec<u64>);

impl BitSet {
    fn new(n: usize) -> BitSet {
        BitSet(vec![0; n.div_ceil(64)])
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }
}

/// The classes of an e-graph, densely numbered.
struct Classes {
    ids: Vec<Id>,
    index: HashMap<Id, usize>,
    /// Per class: (node, own cost, distinct child indices).
    nodes: Vec<Vec<(ONode, f64, Vec<usize>)>>,
    parents: Vec<Vec<usize>>,
}

impl Classes {
    fn new(egraph: &OGraph, cost: &impl Fn(Id, &ONode) -> f64) -> Classes {
        let mut ids: Vec<Id> = egraph.classes().map(|c| c.id).collect();
        ids.sort_unstable();
        let index: HashMap<Id, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut parents = vec![vec![]; ids.len()];
        let nodes = ids
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                egraph[id]
                    .nodes
                    .iter()
                    .map(|n| {
                        let mut ch: Vec<usize> = n
                            .children()
                            .iter()
                            .map(|&c| index[&egraph.find(c)])
                            .collect();
                        ch.sort_unstable();
                        ch.dedup();
                        for &c in &ch {
                            parents[c].push(i);
                        }
                        (n.clone(), cost(id, n), ch)
                    })
                    .collect()
            })
            .collect();
        for p in &mut parents {
            p.sort_unstable();
            p.dedup();
        }
        Classes {
            ids,
            index,
            nodes,
            parents,
        }
    }
}

struct Best {
    node: usize,
    total: f64,
    set: BitSet,
}

/// Greedy DAG-aware extraction for `roots` under the node cost `cost`
/// (class, node) → seconds. `None` if a root has no acyclic choice.
pub fn extract_dag(
    egraph: &OGraph,
    roots: &[Id],
    cost: impl Fn(Id, &ONode) -> f64,
) -> Option<Extraction> {
    let cls = Classes::new(egraph, &cost);
    let n = cls.ids.len();
    let mut best: Vec<Option<Best>> = (0..n).map(|_| None).collect();
    let mut queue: VecDeque<usize> = (0..n)
        .filter(|&i| cls.nodes[i].iter().any(|(_, _, ch)| ch.is_empty()))
        .collect();
    let mut queued = vec![false; n];
    for &i in &queue {
        queued[i] = true;
    }
    let budget = 50 * cls.nodes.iter().map(Vec::len).sum::<usize>() + 1000;
    let mut steps = 0;
    while let Some(i) = queue.pop_front() {
        queued[i] = false;
        steps += 1;
        if steps > budget {
            break;
        }
        let mut improved = false;
        for (k, (_, own, children)) in cls.nodes[i].iter().enumerate() {
            let Some(set) = children_set(&best, children, n) else {
                continue;
            };
            if set.contains(i) {
                continue;
            }
            let total = own + set.iter().map(|c| own_cost(&cls, &best, c)).sum::<f64>();
            let better = best[i]
                .as_ref()
                .is_none_or(|b| total < b.total * (1.0 - 1e-12) - 1e-18);
            if better {
                let mut set = set;
                set.insert(i);
                best[i] = Some(Best {
                    node: k,
                    total,
                    set,
                });
                improved = true;
            }
        }
        if improved {
            for &p in &cls.parents[i] {
                if !queued[p] {
                    queued[p] = true;
                    queue.push_back(p);
                }
            }
        }
    }
    let mut choice: Vec<Option<usize>> = best.iter().map(|b| b.as_ref().map(|b| b.node)).collect();
    let roots_ix: Vec<usize> = roots.iter().map(|&r| cls.index[&egraph.find(r)]).collect();
    improve(&cls, &roots_ix, &mut choice);
    let choice = (0..n)
        .filter_map(|i| choice[i].map(|k| (cls.ids[i], cls.nodes[i][k].0.clone())))
        .collect();
    Extraction::restrict(choice, egraph, roots)
}

/// The DAG cost of the graph `choice` gives the roots (each class once);
/// `None` if a needed class has no choice or the choice has a cycle.
fn total_cost(cls: &Classes, roots: &[usize], choice: &[Option<usize>]) -> Option<f64> {
    // 0 = unvisited, 1 = on the path, 2 = done.
    let mut state = vec![0u8; choice.len()];
    let mut total = 0.0;
    let mut stack: Vec<(usize, usize)> = vec![];
    for &r in roots {
        if state[r] == 2 {
            continue;
        }
        state[r] = 1;
        stack.push((r, 0));
        while let Some(top) = stack.last_mut() {
            let (c, next) = (top.0, top.1);
            let (_, own, children) = &cls.nodes[c][choice[c]?];
            if let Some(&k) = children.get(next) {
                top.1 += 1;
                match state[k] {
                    0 => {
                        state[k] = 1;
                        stack.push((k, 0));
                    }
                    1 => return None,
                    _ => {}
                }
            } else {
                total += own;
                state[c] = 2;
                stack.pop();
            }
        }
    }
    Some(total)
}

/// The classes the roots need under `choice`.
fn reachable(cls: &Classes, roots: &[usize], choice: &[Option<usize>]) -> Vec<usize> {
    let mut seen = vec![false; choice.len()];
    let mut stack = roots.to_vec();
    let mut out = vec![];
    while let Some(c) = stack.pop() {
        if std::mem::replace(&mut seen[c], true) {
            continue;
        }
        out.push(c);
        if let Some(k) = choice[c] {
            stack.extend(&cls.nodes[c][k].2);
        }
    }
    out.sort_unstable();
    out
}

/// Local search on the greedy result: the greedy extractor counts sharing
/// within each class's sub-DAG only, not between the roots' sub-DAGs, so
/// try every other node of every needed class and keep the changes that
/// lower the whole graph's DAG cost.
fn improve(cls: &Classes, roots: &[usize], choice: &mut [Option<usize>]) {
    let Some(mut best) = total_cost(cls, roots, choice) else {
        return;
    };
    for _ in 0..3 {
        let mut improved = false;
        for c in reachable(cls, roots, choice) {
            let Some(current) = choice[c] else { continue };
            for k in 0..cls.nodes[c].len() {
                if k == current || cls.nodes[c][k].2.iter().any(|&ch| choice[ch].is_none()) {
                    continue;
                }
                let previous = choice[c].replace(k);
                match total_cost(cls, roots, choice) {
                    Some(t) if t < best * (1.0 - 1e-9) - 1e-15 => {
                        best = t;
                        improved = true;
                    }
                    _ => choice[c] = previous,
                }
            }
        }
        if !improved {
            break;
        }
    }
}

fn children_set(best: &[Option<Best>], children: &[usize], n: usize) -> Option<BitSet> {
    let mut set = BitSet::new(n);
    for &c in children {
        set.union_with(&best[c].as_ref()?.set);
    }
    Some(set)
}

fn own_cost(cls: &Classes, best: &[Option<Best>], c: usize) -> f64 {
    best[c].as_ref().map_or(0.0, |b| cls.nodes[c][b.node].1)
}

/// Tree extraction: each class's cost is its node's cost plus its
/// children's costs, shared children counted once per use.
pub fn extract_tree(
    egraph: &OGraph,
    roots: &[Id],
    cost: impl Fn(Id, &ONode) -> f64,
) -> Option<Extraction> {
    let cls = Classes::new(egraph, &cost);
    let n = cls.ids.len();
    let mut total: Vec<Option<(f64, usize)>> = vec![None; n];
    loop {
        let mut changed = false;
        for i in 0..n {
            for (k, (_, own, _)) in cls.nodes[i].iter().enumerate() {
                let node = &cls.nodes[i][k].0;
                let sum: Option<f64> = node
                    .children()
                    .iter()
                    .map(|&c| total[cls.index[&egraph.find(c)]].map(|t| t.0))
                    .sum();
                let Some(sum) = sum else { continue };
                let t = own + sum;
                if total[i].is_none_or(|(b, _)| t < b * (1.0 - 1e-12) - 1e-18) {
                    total[i] = Some((t, k));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let choice = (0..n)
        .filter_map(|i| total[i].map(|(_, k)| (cls.ids[i], cls.nodes[i][k].0.clone())))
        .collect();
    Extraction::restrict(choice, egraph, roots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr;

    /// Shared work: `y1 = Relu(E)` and `y2 ∈ {Sigmoid(E), Tanh(x)}` with an
    /// expensive `E = x·w`. Tree cost charges E again for Sigmoid(E)
    /// (1 + 10 > 5) and picks Tanh; DAG cost knows E is computed for y1
    /// anyway (total 12 < 16) and picks Sigmoid.
    #[test]
    fn dag_and_tree_extraction_differ_on_shared_work() {
        let (mut eg, inputs) = expr::egraph("x: 4x4xf32, w: 4x4xf32", 17).unwrap();
        let y1 = expr::add(&mut eg, &inputs, "(Relu (MatMul %x %w))").unwrap();
        let sig = expr::add(&mut eg, &inputs, "(Sigmoid (MatMul %x %w))").unwrap();
        let tanh = expr::add(&mut eg, &inputs, "(Tanh %x)").unwrap();
        eg.union(sig, tanh);
        eg.rebuild();
        let cost = |_: Id, n: &ONode| match n.key().map(|k| k.kind) {
            Some(onnx_mlc_dialect::OpKind::MatMul) => 10.0,
            Some(onnx_mlc_dialect::OpKind::Tanh) => 5.0,
            Some(_) => 1.0,
            None => 0.0,
        };
        let roots = [y1, sig];
        let kind = |ex: &Extraction| ex.node(eg.find(sig)).and_then(|n| n.key()).map(|k| k.kind);
        let dag = extract_dag(&eg, &roots, cost).unwrap();
        let tree = extract_tree(&eg, &roots, cost).unwrap();
        assert_eq!(kind(&dag), Some(onnx_mlc_dialect::OpKind::Sigmoid));
        assert_eq!(kind(&tree), Some(onnx_mlc_dialect::OpKind::Tanh));
        assert_eq!(dag.dag_cost(&eg, &cost), 12.0);
        assert_eq!(tree.dag_cost(&eg, &cost), 16.0);
    }

    /// A class whose only node reads the class itself (x = Identity(x))
    /// is never chosen through that node.
    #[test]
    fn cycles_are_not_extracted() {
        let (mut eg, inputs) = expr::egraph("x: 4xf32", 17).unwrap();
        let x = expr::add(&mut eg, &inputs, "%x").unwrap();
        let id = expr::add(&mut eg, &inputs, "(Identity %x)").unwrap();
        eg.union(x, id);
        eg.rebuild();
        let ex = extract_dag(&eg, &[id], |_, n| if n.key().is_some() { 1.0 } else { 0.0 }).unwrap();
        assert_eq!(ex.node(eg.find(x)), Some(&ONode::Input(0)));
        assert_eq!(ex.len(), 1);
    }
}
