//! `ai.onnx.ml` ops that are plain tensor ops in disguise:
//!
//! ```text
//! Binarizer(x)                = Cast(x > threshold, type of x)
//! ArrayFeatureExtractor(x, y) = Gather(x, Reshape(y, [-1]), axis = -1)
//!                               (with a leading 1 for a 1-D x)
//! ```
//!
//! and TreeEnsemble, whose trees are fixed at compile time, as every
//! node's condition for every row at once and a product picking the
//! reached leaves (see [`tree_ensemble`]).

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::{self, *};
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands Binarizer over float, double, int32 and int64 inputs.
pub(super) fn binarizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let threshold = f64::from(b.float_attr("threshold")?);
    let threshold = match elem {
        ElemType::I64 => b.constant(TensorData::scalar(threshold as i64))?,
        ElemType::I32 => b.constant(TensorData::scalar(threshold as i32))?,
        e if e.is_float() => b.scalar(e, threshold)?,
        _ => return None,
    };
    let above = b.binary(Greater, x, threshold)?;
    Some(vec![Some(b.cast(above, elem)?)])
}

/// Expands ArrayFeatureExtractor: the entries of the last axis that the
/// (flattened) indices pick.
pub(super) fn array_feature_extractor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let indices = b.input(1)?;
    let indices = if b.rank(indices)? == 1 {
        indices
    } else {
        b.reshape(indices, &[-1])?
    };
    let rank = b.rank(x)?;
    let picked = b.op(
        Gather,
        &[x, indices],
        &[("axis", Attr::Int(rank as i64 - 1))],
    )?;
    let picked = if rank == 1 {
        b.squeeze_like(Unsqueeze, picked, &[0])?
    } else {
        picked
    };
    Some(vec![Some(picked)])
}

/// The comparison of a TreeEnsemble node (`nodes_modes`).
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
    /// The mode of code `code`, if there is one.
    fn from_code(code: i64) -> Option<NodeMode> {
        use NodeMode::*;
        Some([Leq, Lt, Gte, Gt, Eq, Neq, Member][usize::try_from(code).ok().filter(|&c| c < 7)?])
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

/// The nodes on a leaf's path, each with the branch taken there (`true`
/// for the true branch).
type Path = Vec<(usize, bool)>;

/// The leaves of a tree ensemble, each with the branch taken at every node
/// on its path (`true` for the true branch).
fn leaf_paths(b: &Builder) -> Option<Vec<(usize, Path)>> {
    let (true_ids, false_ids) = (
        b.int_list("nodes_truenodeids")?,
        b.int_list("nodes_falsenodeids")?,
    );
    let (true_leaf, false_leaf) = (
        b.int_list("nodes_trueleafs")?,
        b.int_list("nodes_falseleafs")?,
    );
    let nodes = true_ids.len();
    if [false_ids.len(), true_leaf.len(), false_leaf.len()] != [nodes; 3] {
        return None;
    }
    let mut leaves = vec![];
    for &root in &b.int_list("tree_roots")? {
        let root = usize::try_from(root).ok()?;
        let is_leaf = *true_leaf.get(root)? != 0
            && *false_leaf.get(root)? != 0
            && true_ids[root] == false_ids[root];
        // (index, is a leaf, path so far); a path longer than the node
        // count has a cycle.
        let mut stack = vec![(root, is_leaf, vec![])];
        while let Some((index, leaf, path)) = stack.pop() {
            if leaf {
                leaves.push((index, path));
                continue;
            }
            if path.len() >= nodes || index >= nodes {
                return None;
            }
            for (branch, ids, is_leaf) in [
                (true, &true_ids, &true_leaf),
                (false, &false_ids, &false_leaf),
            ] {
                let mut next: Vec<(usize, bool)> = path.clone();
                next.push((index, branch));
                stack.push((usize::try_from(ids[index]).ok()?, is_leaf[index] != 0, next));
            }
        }
    }
    Some(leaves)
}

/// Expands TreeEnsemble (ai.onnx.ml 5) over a `[N, F]` float input.
///
/// Every node's condition is evaluated for every row at once (`[N, nodes]`:
/// the features gathered, compared with the splits by each node's mode,
/// set membership against a NaN-padded `[nodes, K]` table, NaN features
/// taking the true branch where `nodes_missing_value_tracks_true` says so).
/// A leaf is reached when all the conditions on its path go its way:
/// `MatMul(cond, A) + falses == length` with `A` holding +1 for a true
/// branch and -1 for a false one. The reached leaves' weights then go to
/// their targets: a MatMul for SUM and AVERAGE, a masked ReduceMin/Max for
/// MIN and MAX (0 for a target no reached leaf feeds, as in onnxruntime);
/// `post_transform` NONE, SOFTMAX (1) or LOGISTIC (2) as the spec numbers
/// them (onnxruntime 1.31 swaps 1 and 2).
pub(super) fn tree_ensemble(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    if !elem.is_float() || b.rank(x)? != 2 {
        return None;
    }
    let splits = b.tensor_values("nodes_splits")?;
    let nodes = splits.len();
    let modes = b
        .tensor_values("nodes_modes")?
        .into_iter()
        .map(|m| NodeMode::from_code(m as i64))
        .collect::<Option<Vec<_>>>()?;
    let features = b.int_list("nodes_featureids")?;
    let missing_true = b
        .int_list("nodes_missing_value_tracks_true")
        .unwrap_or_else(|| vec![0; nodes]);
    let targets = b.int_list("leaf_targetids")?;
    let weights = b.tensor_values("leaf_weights")?;
    let n_targets = usize::try_from(b.int_attr("n_targets")?).ok()?;
    let trees = b.int_list("tree_roots")?.len();
    let aggregate = b.int_attr("aggregate_function").unwrap_or(1);
    let post = b.int_attr("post_transform").unwrap_or(0);
    if [modes.len(), features.len(), missing_true.len()] != [nodes; 3]
        || targets.len() != weights.len()
        || targets
            .iter()
            .any(|&t| usize::try_from(t).map_or(true, |t| t >= n_targets))
        || !(0..=3).contains(&aggregate)
        || !(0..=2).contains(&post)
    {
        return None;
    }
    let paths = leaf_paths(b)?;

    // The conditions, [N, nodes].
    let feature_ids = b.ints(&features)?;
    let gathered = b.op(Gather, &[x, feature_ids], &[("axis", Attr::Int(1))])?;
    let split_values: Vec<f64> = splits
        .iter()
        .zip(&modes)
        .map(|(&s, &m)| if m == NodeMode::Member { f64::NAN } else { s })
        .collect();
    let split = b.floats(elem, vec![nodes as i64], &split_values)?;
    let mut cond: Option<Value> = None;
    for mode in [
        NodeMode::Leq,
        NodeMode::Lt,
        NodeMode::Gte,
        NodeMode::Gt,
        NodeMode::Eq,
        NodeMode::Neq,
    ] {
        if !modes.contains(&mode) {
            continue;
        }
        let mut c = b.binary(mode.comparison(), gathered, split)?;
        if mode == NodeMode::Neq {
            c = b.unary(Not, c)?;
        }
        cond = Some(match cond {
            None => c,
            Some(prev) => {
                let mask = node_mask(b, &modes, |m| m == mode)?;
                choose(b, mask, c, prev)?
            }
        });
    }
    if modes.contains(&NodeMode::Member) {
        let member = membership(b, gathered, &modes, elem)?;
        cond = Some(match cond {
            None => member,
            Some(prev) => {
                let mask = node_mask(b, &modes, |m| m == NodeMode::Member)?;
                choose(b, mask, member, prev)?
            }
        });
    }
    let mut cond = cond?;
    if missing_true.iter().any(|&m| m != 0) {
        let nan = b.unary(IsNaN, gathered)?;
        let tracks: Vec<bool> = missing_true.iter().map(|&m| m != 0).collect();
        let tracks = bools(b, vec![nodes as i64], &tracks)?;
        let nan_true = b.binary(And, nan, tracks)?;
        cond = b.binary(Or, cond, nan_true)?;
    }

    // The reached leaves, [N, leaves].
    let leaves = paths.len();
    let mut signs = vec![0.0; nodes * leaves];
    let mut falses = vec![0.0; leaves];
    let mut lengths = vec![0.0; leaves];
    for (l, (_, path)) in paths.iter().enumerate() {
        for &(node, branch) in path {
            signs[node * leaves + l] = if branch { 1.0 } else { -1.0 };
            falses[l] += f64::from(u8::from(!branch));
        }
        lengths[l] = path.len() as f64;
    }
    let cond = b.cast(cond, elem)?;
    let signs = b.floats(elem, vec![nodes as i64, leaves as i64], &signs)?;
    let falses = b.floats(elem, vec![leaves as i64], &falses)?;
    let lengths = b.floats(elem, vec![leaves as i64], &lengths)?;
    let taken = b.binary(MatMul, cond, signs)?;
    let taken = b.binary(Add, taken, falses)?;
    let reached = b.binary(Equal, taken, lengths)?;

    // The targets, [N, n_targets].
    let mut table = vec![0.0; leaves * n_targets];
    let mut owns = vec![false; leaves * n_targets];
    for (l, &(leaf, _)) in paths.iter().enumerate() {
        let t = usize::try_from(*targets.get(leaf)?).ok()?;
        table[l * n_targets + t] += weights[leaf];
        owns[l * n_targets + t] = true;
    }
    let shape = vec![leaves as i64, n_targets as i64];
    let y = match aggregate {
        0 | 1 => {
            let reached = b.cast(reached, elem)?;
            let table = b.floats(elem, shape, &table)?;
            let sum = b.binary(MatMul, reached, table)?;
            if aggregate == 0 {
                let count = b.scalar(elem, trees as f64)?;
                b.binary(Div, sum, count)?
            } else {
                sum
            }
        }
        _ => {
            let (kind, fill) = if aggregate == 2 {
                (ReduceMin, f64::MAX)
            } else {
                (ReduceMax, f64::MIN)
            };
            let fill = b.scalar(elem, elem_limit(elem, fill)?)?;
            let reached = b.squeeze_like(Unsqueeze, reached, &[2])?;
            let owns = bools(b, shape.clone(), &owns)?;
            let picked = b.binary(And, reached, owns)?;
            let table = b.floats(elem, shape, &table)?;
            let candidates = b.select(picked, table, fill)?;
            let extreme = b.reduce(kind, candidates, &[1], false)?;
            // A target no reached leaf feeds scores 0, as in onnxruntime.
            let fed = b.cast(picked, ElemType::F32)?;
            let fed = b.reduce(ReduceMax, fed, &[1], false)?;
            let fed = b.cast(fed, ElemType::Bool)?;
            let zero = b.scalar(elem, 0.0)?;
            b.select(fed, extreme, zero)?
        }
    };
    let y = match post {
        1 => b.op(Softmax, &[y], &[("axis", Attr::Int(1))])?,
        2 => b.unary(Sigmoid, y)?,
        _ => y,
    };
    Some(vec![Some(y)])
}

/// `Where(mask, a, b)` on bools, as `(mask ∧ a) ∨ (¬mask ∧ b)`: runtimes
/// (onnxruntime among them) have no Where kernel for bool values.
fn choose(b: &mut Builder, mask: Value, yes: Value, no: Value) -> Option<Value> {
    let yes = b.binary(And, mask, yes)?;
    let not = b.unary(Not, mask)?;
    let no = b.binary(And, not, no)?;
    b.binary(Or, yes, no)
}

/// A `[nodes]` bool constant: which nodes' modes satisfy `pick`.
fn node_mask(
    b: &mut Builder,
    modes: &[NodeMode],
    pick: impl Fn(NodeMode) -> bool,
) -> Option<Value> {
    let mask: Vec<bool> = modes.iter().map(|&m| pick(m)).collect();
    bools(b, vec![modes.len() as i64], &mask)
}

/// A bool constant of shape `dims`.
fn bools(b: &mut Builder, dims: Vec<i64>, values: &[bool]) -> Option<Value> {
    let raw: Vec<u8> = values.iter().map(|&v| u8::from(v)).collect();
    b.constant(TensorData::from_raw(ElemType::Bool, dims, raw.into()).ok()?)
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
