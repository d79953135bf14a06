//! The tree ensembles of ai.onnx.ml, whose trees are fixed at compile
//! time: TreeEnsemble (ml opset 5) and the legacy TreeEnsembleRegressor
//! and TreeEnsembleClassifier (ml opsets 1 and 3), as onnxruntime computes
//! them (its kernels are the numeric reference).
//!
//! Both attribute layouts are read into one [`Forest`] (branch nodes,
//! leaves with their votes, roots); every branch's condition is then
//! evaluated for every row at once and the reached leaves picked by a
//! product (see [`reached`]):
//!
//! ```text
//! cond[n, b]    = x[n, feature b] <mode b> split b   (NaN → true branch where tracked)
//! reached[n, p] = Σ_b cond[n, b]·sign[b, p] + falses p == length p
//! Regressor(x)  = post(aggregate_p(reached · votes) + base_values)
//! Classifier(x) = (labels[ArgMax(s)], post(s)),  s = Σ_p reached · votes + base_values
//! ```
//!
//! with `sign` +1 where path `p` takes the true branch of `b`, -1 where it
//! takes the false one. The two-class classifier follows onnxruntime's
//! binary rules (see [`tree_ensemble_classifier`]).

use super::builder::Builder;
use super::ml::{class_labels, float_input, float_list, label_at, post_transform, top_label};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::{self, *};
use crate::tensor::TensorData;
use crate::types::ElemType;
use std::collections::HashMap;

/// The comparison of a branch node (TreeEnsemble's `nodes_modes` codes,
/// the legacy ops' `BRANCH_*` names).
#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeMode {
    Leq,
    Lt,
    Gte,
    Gt,
    Eq,
    Neq,
    Member,
}

impl NodeMode {
    /// The mode of TreeEnsemble's code `code`, if there is one.
    fn from_code(code: i64) -> Option<NodeMode> {
        use NodeMode::*;
        Some([Leq, Lt, Gte, Gt, Eq, Neq, Member][usize::try_from(code).ok().filter(|&c| c < 7)?])
    }

    /// The mode of a legacy `BRANCH_*` name (`LEAF` is not a branch).
    fn from_name(name: &[u8]) -> Option<NodeMode> {
        Some(match name {
            b"BRANCH_LEQ" => NodeMode::Leq,
            b"BRANCH_LT" => NodeMode::Lt,
            b"BRANCH_GTE" => NodeMode::Gte,
            b"BRANCH_GT" => NodeMode::Gt,
            b"BRANCH_EQ" => NodeMode::Eq,
            b"BRANCH_NEQ" => NodeMode::Neq,
            _ => return None,
        })
    }

    /// The op comparing a feature (left) with the split (right); `Neq` is
    /// `Not(Equal)`, `Member` is handled apart.
    fn comparison(self) -> OpKind {
        match self {
            NodeMode::Leq => LessOrEqual,
            NodeMode::Lt => Less,
            NodeMode::Gte => GreaterOrEqual,
            NodeMode::Gt => Greater,
            NodeMode::Eq | NodeMode::Neq | NodeMode::Member => Equal,
        }
    }
}

/// Where a branch leads: another branch node or a leaf (by index).
#[derive(Clone, Copy)]
enum Child {
    Node(usize),
    Leaf(usize),
}

/// A branch node.
struct Branch {
    feature: i64,
    split: f64,
    mode: NodeMode,
    /// Whether a NaN feature takes the true branch.
    nan_true: bool,
    yes: Child,
    no: Child,
}

/// A tree ensemble in one form for both attribute layouts.
struct Forest {
    branches: Vec<Branch>,
    /// Per leaf, its votes: (target or class index, weight).
    leaves: Vec<Vec<(usize, f64)>>,
    roots: Vec<Child>,
    targets: usize,
}

/// How the votes of the trees combine (the spec's AVERAGE, SUM, MIN, MAX).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Aggregate {
    Average,
    Sum,
    Min,
    Max,
}

/// The nodes on a path to a leaf, each with the branch taken there
/// (`true` for the true branch).
type Path = Vec<(usize, bool)>;

impl Forest {
    /// The forest of TreeEnsemble (5): nodes by position, leaves in
    /// `leaf_*`, a single-leaf tree as a root whose two branches name the
    /// same leaf.
    fn of_tree_ensemble(b: &Builder) -> Option<Forest> {
        let splits = b.tensor_values("nodes_splits")?;
        let n = splits.len();
        let modes = b
            .tensor_values("nodes_modes")?
            .into_iter()
            .map(|m| NodeMode::from_code(m as i64))
            .collect::<Option<Vec<_>>>()?;
        let features = b.int_list("nodes_featureids")?;
        let missing = b
            .int_list("nodes_missing_value_tracks_true")
            .unwrap_or_else(|| vec![0; n]);
        let (true_ids, false_ids) = (
            b.int_list("nodes_truenodeids")?,
            b.int_list("nodes_falsenodeids")?,
        );
        let (true_leaf, false_leaf) = (
            b.int_list("nodes_trueleafs")?,
            b.int_list("nodes_falseleafs")?,
        );
        let int_lists = [
            &features,
            &missing,
            &true_ids,
            &false_ids,
            &true_leaf,
            &false_leaf,
        ];
        if modes.len() != n || int_lists.iter().any(|l| l.len() != n) {
            return None;
        }
        let targets = usize::try_from(b.int_attr("n_targets")?).ok()?;
        let leaf_targets = b.int_list("leaf_targetids")?;
        let weights = b.tensor_values("leaf_weights")?;
        if leaf_targets.len() != weights.len() {
            return None;
        }
        let leaves = leaf_targets
            .iter()
            .zip(&weights)
            .map(|(&t, &w)| Some(vec![(usize::try_from(t).ok()?, w)]))
            .collect::<Option<Vec<_>>>()?;
        let child = |id: i64, leaf: i64| {
            let id = usize::try_from(id).ok()?;
            Some(if leaf != 0 {
                Child::Leaf(id)
            } else {
                Child::Node(id)
            })
        };
        let branches = (0..n)
            .map(|i| {
                Some(Branch {
                    feature: features[i],
                    split: splits[i],
                    mode: modes[i],
                    nan_true: missing[i] != 0,
                    yes: child(true_ids[i], true_leaf[i])?,
                    no: child(false_ids[i], false_leaf[i])?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let roots = b
            .int_list("tree_roots")?
            .into_iter()
            .map(|r| {
                let r = usize::try_from(r).ok()?;
                let single =
                    *true_leaf.get(r)? != 0 && false_leaf[r] != 0 && true_ids[r] == false_ids[r];
                Some(if single {
                    Child::Leaf(usize::try_from(true_ids[r]).ok()?)
                } else {
                    Child::Node(r)
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Forest::checked(branches, leaves, roots, targets)
    }

    /// The forest of the legacy ops: nodes named by (tree id, node id),
    /// `LEAF` nodes holding the votes of `<votes>_treeids`, `_nodeids`,
    /// `_ids` and `_weights` (`target` or `class`); a tree's root is its
    /// first node (as onnxruntime takes it).
    fn of_legacy(b: &Builder, votes: &str, targets: usize) -> Option<Forest> {
        let trees = b.int_list("nodes_treeids")?;
        let ids = b.int_list("nodes_nodeids")?;
        let n = ids.len();
        let modes = match b.attr("nodes_modes")? {
            Attr::Strings(m) => m,
            _ => return None,
        };
        let features = b.int_list("nodes_featureids")?;
        let values = float_list(b, "nodes_values")
            .or_else(|| b.tensor_values("nodes_values_as_tensor"))
            .unwrap_or_else(|| vec![0.0; n]);
        let (true_ids, false_ids) = (
            b.int_list("nodes_truenodeids")?,
            b.int_list("nodes_falsenodeids")?,
        );
        let missing = b
            .int_list("nodes_missing_value_tracks_true")
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| vec![0; n]);
        let int_lists = [&trees, &features, &true_ids, &false_ids, &missing];
        if modes.len() != n || values.len() != n || int_lists.iter().any(|l| l.len() != n) {
            return None;
        }
        // Each node as a branch or a leaf, numbered in order.
        let (mut branch_of, mut leaf_of) = (0, 0);
        let mut position = HashMap::new();
        for i in 0..n {
            let child = if modes[i] == b"LEAF" {
                leaf_of += 1;
                Child::Leaf(leaf_of - 1)
            } else {
                branch_of += 1;
                Child::Node(branch_of - 1)
            };
            if position.insert((trees[i], ids[i]), child).is_some() {
                return None;
            }
        }
        let mut branches = vec![];
        for i in 0..n {
            if modes[i] == b"LEAF" {
                continue;
            }
            branches.push(Branch {
                feature: features[i],
                split: values[i],
                mode: NodeMode::from_name(&modes[i])?,
                nan_true: missing[i] != 0,
                yes: *position.get(&(trees[i], true_ids[i]))?,
                no: *position.get(&(trees[i], false_ids[i]))?,
            });
        }
        let mut leaves = vec![vec![]; leaf_of];
        let vote_trees = b.int_list(&format!("{votes}_treeids"))?;
        let vote_nodes = b.int_list(&format!("{votes}_nodeids"))?;
        let vote_ids = b.int_list(&format!("{votes}_ids"))?;
        let weights = float_list(b, &format!("{votes}_weights"))
            .or_else(|| b.tensor_values(&format!("{votes}_weights_as_tensor")))?;
        if [vote_nodes.len(), vote_ids.len(), weights.len()] != [vote_trees.len(); 3] {
            return None;
        }
        for k in 0..vote_trees.len() {
            let Child::Leaf(leaf) = *position.get(&(vote_trees[k], vote_nodes[k]))? else {
                return None;
            };
            leaves[leaf].push((usize::try_from(vote_ids[k]).ok()?, weights[k]));
        }
        let mut roots = vec![];
        for i in 0..n {
            if i == 0 || trees[i] != trees[i - 1] {
                roots.push(position[&(trees[i], ids[i])]);
            }
        }
        Forest::checked(branches, leaves, roots, targets)
    }

    /// The forest of these parts, if its children and votes name existing
    /// nodes, leaves and targets.
    fn checked(
        branches: Vec<Branch>,
        leaves: Vec<Vec<(usize, f64)>>,
        roots: Vec<Child>,
        targets: usize,
    ) -> Option<Forest> {
        let forest = Forest {
            branches,
            leaves,
            roots,
            targets,
        };
        forest.valid().then_some(forest)
    }

    /// Whether the children and votes name existing nodes, leaves and
    /// targets.
    fn valid(&self) -> bool {
        let fits = |c: &Child| match *c {
            Child::Node(i) => i < self.branches.len(),
            Child::Leaf(i) => i < self.leaves.len(),
        };
        !self.branches.is_empty()
            && self.roots.iter().all(fits)
            && self.branches.iter().all(|b| fits(&b.yes) && fits(&b.no))
            && self.leaves.iter().flatten().all(|&(t, _)| t < self.targets)
    }

    /// Every path from a root to a leaf, with its leaf; `None` for a cycle.
    fn paths(&self) -> Option<Vec<(usize, Path)>> {
        let mut paths = vec![];
        for &root in &self.roots {
            let mut stack = vec![(root, vec![])];
            while let Some((child, path)) = stack.pop() {
                let node = match child {
                    Child::Leaf(leaf) => {
                        paths.push((leaf, path));
                        continue;
                    }
                    Child::Node(node) => node,
                };
                if path.len() >= self.branches.len() {
                    return None;
                }
                let branch = &self.branches[node];
                for (taken, next) in [(true, branch.yes), (false, branch.no)] {
                    let mut longer: Path = path.clone();
                    longer.push((node, taken));
                    stack.push((next, longer));
                }
            }
        }
        Some(paths)
    }

    /// The `[paths, targets]` table of each path's summed votes, and which
    /// targets each path's leaf votes for at all.
    fn vote_table(&self, paths: &[(usize, Path)]) -> (Vec<f64>, Vec<bool>) {
        let t = self.targets;
        let mut table = vec![0.0; paths.len() * t];
        let mut owns = vec![false; paths.len() * t];
        for (p, &(leaf, _)) in paths.iter().enumerate() {
            for &(target, weight) in &self.leaves[leaf] {
                table[p * t + target] += weight;
                owns[p * t + target] = true;
            }
        }
        (table, owns)
    }

    /// Whether a leaf votes twice for one target (MIN and MAX would take
    /// the extreme of the two votes, not their sum).
    fn has_repeated_votes(&self) -> bool {
        self.leaves.iter().any(|votes| {
            votes
                .iter()
                .enumerate()
                .any(|(k, &(t, _))| votes[..k].iter().any(|&(u, _)| u == t))
        })
    }
}

/// The branch conditions of every row, `[N, branches]` bool: the features
/// gathered, compared with the splits by each node's mode, set membership
/// against a NaN-padded `[branches, K]` table (TreeEnsemble's MEMBER
/// nodes, sets from `membership_values`), NaN features taking the true
/// branch where the node says so.
fn conditions(b: &mut Builder, x: Value, forest: &Forest) -> Option<Value> {
    let elem = b.elem(x)?;
    let n = forest.branches.len();
    let modes: Vec<NodeMode> = forest.branches.iter().map(|br| br.mode).collect();
    let features: Vec<i64> = forest.branches.iter().map(|br| br.feature).collect();
    let feature_ids = b.ints(&features)?;
    let gathered = b.op(Gather, &[x, feature_ids], &[("axis", Attr::Int(1))])?;
    let split_values: Vec<f64> = forest
        .branches
        .iter()
        .map(|br| {
            if br.mode == NodeMode::Member {
                f64::NAN
            } else {
                br.split
            }
        })
        .collect();
    let split = b.floats(elem, vec![n as i64], &split_values)?;
    let mut cond: Option<Value> = None;
    for mode in [
        NodeMode::Leq,
        NodeMode::Lt,
        NodeMode::Gte,
        NodeMode::Gt,
        NodeMode::Eq,
        NodeMode::Neq,
        NodeMode::Member,
    ] {
        if !modes.contains(&mode) {
            continue;
        }
        let c = match mode {
            NodeMode::Member => membership(b, gathered, &modes, elem)?,
            NodeMode::Neq => {
                let equal = b.binary(Equal, gathered, split)?;
                b.unary(Not, equal)?
            }
            _ => b.binary(mode.comparison(), gathered, split)?,
        };
        cond = Some(match cond {
            None => c,
            Some(prev) => {
                let mask: Vec<bool> = modes.iter().map(|&m| m == mode).collect();
                let mask = bools(b, vec![n as i64], &mask)?;
                choose(b, mask, c, prev)?
            }
        });
    }
    let mut cond = cond?;
    if forest.branches.iter().any(|br| br.nan_true) {
        let nan = b.unary(IsNaN, gathered)?;
        let tracks: Vec<bool> = forest.branches.iter().map(|br| br.nan_true).collect();
        let tracks = bools(b, vec![n as i64], &tracks)?;
        let nan_true = b.binary(And, nan, tracks)?;
        cond = b.binary(Or, cond, nan_true)?;
    }
    Some(cond)
}

/// The paths each row goes down, `[N, paths]` bool: a path is taken when
/// all the conditions on it go its way, `MatMul(cond, A) + falses ==
/// length` with `A` holding +1 for a true branch and -1 for a false one.
fn reached(b: &mut Builder, x: Value, forest: &Forest, paths: &[(usize, Path)]) -> Option<Value> {
    let elem = b.elem(x)?;
    let cond = conditions(b, x, forest)?;
    let (nodes, count) = (forest.branches.len(), paths.len());
    let mut signs = vec![0.0; nodes * count];
    let mut falses = vec![0.0; count];
    let mut lengths = vec![0.0; count];
    for (p, (_, path)) in paths.iter().enumerate() {
        for &(node, taken) in path {
            signs[node * count + p] = if taken { 1.0 } else { -1.0 };
            falses[p] += f64::from(u8::from(!taken));
        }
        lengths[p] = path.len() as f64;
    }
    let cond = b.cast(cond, elem)?;
    let signs = b.floats(elem, vec![nodes as i64, count as i64], &signs)?;
    let falses = b.floats(elem, vec![count as i64], &falses)?;
    let lengths = b.floats(elem, vec![count as i64], &lengths)?;
    let taken = b.binary(MatMul, cond, signs)?;
    let taken = b.binary(Add, taken, falses)?;
    b.binary(Equal, taken, lengths)
}

/// The trees' votes combined per target, `[N, targets]`: a MatMul of the
/// reached paths with the vote table for SUM and AVERAGE (divided by the
/// tree count), a masked ReduceMin/Max for MIN and MAX (0 for a target no
/// reached leaf votes for, as in onnxruntime; with a single target every
/// reached leaf votes, 0 when it has no vote).
fn aggregate(b: &mut Builder, x: Value, forest: &Forest, how: Aggregate) -> Option<(Value, Reach)> {
    let elem = b.elem(x)?;
    let paths = forest.paths()?;
    // One target: onnxruntime takes each reached leaf's first vote, a leaf
    // without one voting 0 (a leaf voting twice is not expanded).
    let single = forest.targets == 1;
    if single && forest.leaves.iter().any(|votes| votes.len() > 1) {
        return None;
    }
    let reach = reached(b, x, forest, &paths)?;
    let (table, mut owns) = forest.vote_table(&paths);
    if single {
        owns.fill(true);
    }
    let shape = vec![paths.len() as i64, forest.targets as i64];
    let y = match how {
        Aggregate::Sum | Aggregate::Average => {
            let reached = b.cast(reach, elem)?;
            let table = b.floats(elem, shape, &table)?;
            let sum = b.binary(MatMul, reached, table)?;
            if how == Aggregate::Average {
                let count = b.scalar(elem, forest.roots.len() as f64)?;
                b.binary(Div, sum, count)?
            } else {
                sum
            }
        }
        Aggregate::Min | Aggregate::Max => {
            if forest.has_repeated_votes() {
                return None;
            }
            let (kind, fill) = if how == Aggregate::Min {
                (ReduceMin, f64::MAX)
            } else {
                (ReduceMax, f64::MIN)
            };
            let fill = b.scalar(elem, elem_limit(elem, fill)?)?;
            let reached = b.squeeze_like(Unsqueeze, reach, &[2])?;
            let owned = bools(b, shape.clone(), &owns)?;
            let picked = b.binary(And, reached, owned)?;
            let table = b.floats(elem, shape, &table)?;
            let candidates = b.select(picked, table, fill)?;
            let extreme = b.reduce(kind, candidates, &[1], false)?;
            let fed = b.cast(picked, ElemType::F32)?;
            let fed = b.reduce(ReduceMax, fed, &[1], false)?;
            let fed = b.cast(fed, ElemType::Bool)?;
            let zero = b.scalar(elem, 0.0)?;
            b.select(fed, extreme, zero)?
        }
    };
    Some((
        y,
        Reach {
            reached: reach,
            owns,
            paths: paths.len(),
        },
    ))
}

/// The reached paths of each row and which targets each path votes for:
/// what a classifier needs to know which classes got a vote.
struct Reach {
    reached: Value,
    owns: Vec<bool>,
    paths: usize,
}

impl Reach {
    /// Whether every row gets a vote for `target` whatever it reaches
    /// (every path votes for it).
    fn always_voted(&self, target: usize, targets: usize) -> bool {
        (0..self.paths).all(|p| self.owns[p * targets + target])
    }

    /// `[N, targets]` bool: whether a reached leaf voted for the target.
    fn voted(&self, b: &mut Builder, targets: usize) -> Option<Value> {
        let reached = b.cast(self.reached, ElemType::F32)?;
        let owns: Vec<f64> = self.owns.iter().map(|&o| f64::from(u8::from(o))).collect();
        let owns = b.floats(
            ElemType::F32,
            vec![self.paths as i64, targets as i64],
            &owns,
        )?;
        let votes = b.binary(MatMul, reached, owns)?;
        let zero = b.scalar(ElemType::F32, 0.0)?;
        b.binary(Greater, votes, zero)
    }
}

/// Expands TreeEnsemble (ai.onnx.ml 5) over a `[N, F]` float input:
/// `post_transform` NONE, SOFTMAX (1) or LOGISTIC (2) as the spec numbers
/// them (onnxruntime 1.31 swaps 1 and 2).
pub(super) fn tree_ensemble(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    if !b.elem(x)?.is_float() || b.rank(x)? != 2 {
        return None;
    }
    let forest = Forest::of_tree_ensemble(b)?;
    let how = match b.int_attr("aggregate_function").unwrap_or(1) {
        0 => Aggregate::Average,
        1 => Aggregate::Sum,
        2 => Aggregate::Min,
        3 => Aggregate::Max,
        _ => return None,
    };
    let post = b.int_attr("post_transform").unwrap_or(0);
    if !(0..=2).contains(&post) {
        return None;
    }
    let (y, _) = aggregate(b, x, &forest, how)?;
    let y = match post {
        1 => b.op(Softmax, &[y], &[("axis", Attr::Int(1))])?,
        2 => b.unary(Sigmoid, y)?,
        _ => y,
    };
    Some(vec![Some(y)])
}

/// The float `[N, F]` input of a legacy tree ensemble (double and the
/// integer types cast to float, as onnxruntime compares them).
fn legacy_input(b: &mut Builder) -> Option<Value> {
    let x = float_input(b)?;
    (b.rank(x)? == 2).then_some(x)
}

/// `base_values` added to `[N, targets]` scores when there is one per
/// target (onnxruntime ignores other lengths, but for one value over one
/// target).
fn add_base_values(b: &mut Builder, scores: Value, targets: usize) -> Option<Value> {
    match float_list(b, "base_values") {
        Some(base) if base.len() == targets => {
            let base = b.floats(ElemType::F32, vec![targets as i64], &base)?;
            b.binary(Add, scores, base)
        }
        _ => Some(scores),
    }
}

/// Expands the legacy TreeEnsembleRegressor: the trees' votes aggregated
/// per target, plus `base_values` (with several targets, a target no
/// reached leaf voted for scores 0 all the same, as in onnxruntime), then
/// onnxruntime's post transform (none for a single target but PROBIT,
/// which is not expanded).
pub(super) fn tree_ensemble_regressor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = legacy_input(b)?;
    let targets = usize::try_from(b.int_attr("n_targets")?).ok()?;
    let forest = Forest::of_legacy(b, "target", targets)?;
    let how = match b.string_attr("aggregate_function").as_deref() {
        None | Some("SUM") => Aggregate::Sum,
        Some("AVERAGE") => Aggregate::Average,
        Some("MIN") => Aggregate::Min,
        Some("MAX") => Aggregate::Max,
        Some(_) => return None,
    };
    let (sums, reach) = aggregate(b, x, &forest, how)?;
    let mut y = add_base_values(b, sums, targets)?;
    // Several targets: one no reached leaf voted for scores 0, base value
    // or not (onnxruntime writes a score without a vote as 0).
    if targets > 1 && y != sums && !(0..targets).all(|t| reach.always_voted(t, targets)) {
        let voted = reach.voted(b, targets)?;
        let zero = b.scalar(ElemType::F32, 0.0)?;
        y = b.select(voted, y, zero)?;
    }
    Some(vec![Some(post_transform(b, y, targets as i64)?)])
}

/// Expands the legacy TreeEnsembleClassifier as onnxruntime computes it:
/// class scores are the summed votes plus `base_values`.
///
/// - More than two classes: the label is the class of the first highest
///   score among the classes some reached leaf voted for (or with a base
///   value), the scores go through the post transform.
/// - Two classes, votes for class 0 only (`s` its score plus the one base
///   value, if any): with no negative weight the label is the second
///   where `s > 0.5` and the scores are `[1 - s, s]` (whatever the post
///   transform); with mixed weights and LOGISTIC, the second where
///   `s > 0`, scores `[σ(-s), σ(s)]`.
/// - Two classes with votes for both in every leaf and no base values:
///   the label is the second where class 1 scores above 0, the scores
///   go through the post transform.
///
/// Other two-class forms are not expanded.
pub(super) fn tree_ensemble_classifier(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = legacy_input(b)?;
    let (labels, classes) = class_labels(b, "classlabels_int64s")?;
    let forest = Forest::of_legacy(b, "class", classes)?;
    let (sums, reach) = aggregate(b, x, &forest, Aggregate::Sum)?;
    let base = float_list(b, "base_values").unwrap_or_default();
    let post = b
        .string_attr("post_transform")
        .unwrap_or_else(|| "NONE".into());
    let voted: Vec<usize> = {
        let mut v: Vec<usize> = forest.leaves.iter().flatten().map(|&(c, _)| c).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    if classes > 2 {
        if !base.is_empty() && base.len() != classes {
            return None;
        }
        let scores = add_base_values(b, sums, classes)?;
        let always = !base.is_empty() || (0..classes).all(|c| reach.always_voted(c, classes));
        let ranked = if always {
            scores
        } else {
            let voted = reach.voted(b, classes)?;
            let low = b.scalar(ElemType::F32, f64::from(f32::MIN))?;
            b.select(voted, scores, low)?
        };
        let label = top_label(b, labels, ranked)?;
        let scores = post_transform(b, scores, classes as i64)?;
        return Some(vec![Some(label), Some(scores)]);
    }
    if classes != 2 {
        return None;
    }
    let zero = b.scalar(ElemType::F32, 0.0)?;
    let one = b.scalar(ElemType::F32, 1.0)?;
    let (positive, scores) = if voted == [0] && base.len() <= 1 {
        let s = b.slice(sums, 1, 0, 1)?;
        let s = match base.first() {
            Some(&b0) => {
                let b0 = b.scalar(ElemType::F32, b0)?;
                b.binary(Add, s, b0)?
            }
            None => s,
        };
        let all_positive = forest.leaves.iter().flatten().all(|&(_, w)| w >= 0.0);
        if all_positive {
            let half = b.scalar(ElemType::F32, 0.5)?;
            let positive = b.binary(Greater, s, half)?;
            let other = b.binary(Sub, one, s)?;
            (
                positive,
                b.op(Concat, &[other, s], &[("axis", Attr::Int(1))])?,
            )
        } else if post == "LOGISTIC" {
            let positive = b.binary(Greater, s, zero)?;
            let negated = b.unary(Neg, s)?;
            let p0 = b.unary(Sigmoid, negated)?;
            let p1 = b.unary(Sigmoid, s)?;
            (
                positive,
                b.op(Concat, &[p0, p1], &[("axis", Attr::Int(1))])?,
            )
        } else {
            return None;
        }
    } else if voted == [0, 1]
        && base.is_empty()
        && reach.always_voted(0, 2)
        && reach.always_voted(1, 2)
    {
        let s1 = b.slice(sums, 1, 1, 2)?;
        let positive = b.binary(Greater, s1, zero)?;
        (positive, post_transform(b, sums, 2)?)
    } else {
        return None;
    };
    let positive = b.reshape(positive, &[-1])?;
    let index = b.cast(positive, ElemType::I64)?;
    let label = label_at(b, labels, index)?;
    Some(vec![Some(label), Some(scores)])
}

/// `Where(mask, a, b)` on bools, as `(mask ∧ a) ∨ (¬mask ∧ b)`: runtimes
/// (onnxruntime among them) have no Where kernel for bool values.
fn choose(b: &mut Builder, mask: Value, yes: Value, no: Value) -> Option<Value> {
    let yes = b.binary(And, mask, yes)?;
    let not = b.unary(Not, mask)?;
    let no = b.binary(And, not, no)?;
    b.binary(Or, yes, no)
}

/// Set membership of the gathered features `[N, nodes]`: the MEMBER nodes
/// take their sets from `membership_values` in order, NaN-separated; other
/// nodes get an empty set (NaN padding never equals anything).
fn membership(
    b: &mut Builder,
    gathered: Value,
    modes: &[NodeMode],
    elem: ElemType,
) -> Option<Value> {
    let values = b.tensor_values("membership_values")?;
    let sets: Vec<&[f64]> = values.split(|v| v.is_nan()).collect();
    let mut next = sets.iter();
    let mut rows: Vec<&[f64]> = vec![];
    for &m in modes {
        rows.push(if m == NodeMode::Member {
            next.next()?
        } else {
            &[]
        });
    }
    let k = rows.iter().map(|r| r.len()).max()?.max(1);
    let mut table = vec![f64::NAN; modes.len() * k];
    for (n, row) in rows.iter().enumerate() {
        table[n * k..n * k + row.len()].copy_from_slice(row);
    }
    let table = b.floats(elem, vec![modes.len() as i64, k as i64], &table)?;
    let features = b.squeeze_like(Unsqueeze, gathered, &[2])?;
    let equal = b.binary(Equal, features, table)?;
    let equal = b.cast(equal, ElemType::F32)?;
    let any = b.reduce(ReduceMax, equal, &[2], false)?;
    b.cast(any, ElemType::Bool)
}

/// A bool constant of shape `dims`.
fn bools(b: &mut Builder, dims: Vec<i64>, values: &[bool]) -> Option<Value> {
    let raw: Vec<u8> = values.iter().map(|&v| u8::from(v)).collect();
    b.constant(TensorData::from_raw(ElemType::Bool, dims, raw.into()).ok()?)
}

/// The largest (or, for a negative `limit`, the lowest) finite value of a
/// float type.
fn elem_limit(elem: ElemType, limit: f64) -> Option<f64> {
    let max = match elem {
        ElemType::F64 => f64::MAX,
        ElemType::F32 => f64::from(f32::MAX),
        ElemType::F16 => 65504.0,
        ElemType::BF16 => f64::from(half::bf16::MAX),
        _ => return None,
    };
    Some(max.copysign(limit))
}
