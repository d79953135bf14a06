//! Extraction: choosing one e-node per needed e-class.
//!
//! A graph is a DAG: a value used twice is computed once. Tree extraction
//! (egg's `Extractor`) costs each use separately, so it overpays for shared
//! subgraphs and can prefer a private copy of work that is already done for
//! another user. [`extract_dag`] is the greedy DAG extractor of
//! extraction-gym ("faster greedy DAG"): the cost of choosing a node is the
//! cost of the *set* of classes its sub-DAG needs, each counted once. Sets
//! are bitsets over the classes, so taking a union is cheap; a node whose
//! sub-DAG contains its own class is a cycle and never chosen.
//! [`extract_tree`] is kept for comparison and as a fallback.

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
    let choice = (0..n)
        .filter_map(|i| {
            best[i]
                .as_ref()
                .map(|b| (cls.ids[i], cls.nodes[i][b.node].0.clone()))
        })
        .collect();
    Extraction::restrict(choice, egraph, roots)
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
