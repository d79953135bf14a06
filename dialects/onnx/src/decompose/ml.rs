//! `ai.onnx.ml` ops that are plain tensor ops in disguise:
//!
//! ```text
//! Binarizer(x)                = Cast(x > threshold, type of x)
//! ArrayFeatureExtractor(x, y) = Gather(x, Reshape(y, [-1]), axis = -1)
//!                               (with a leading 1 for a 1-D x)
//! ```
//!
//! the linear models, as onnxruntime computes them (its kernels are the
//! numeric reference; see each expansion for the cases):
//!
//! ```text
//! LinearRegressor(x)  = post(x · Wᵀ + b)
//! LinearClassifier(x) = (labels[ArgMax(s)], post(s)),  s = x · Wᵀ + b
//! Scaler(x)           = (x - offset) * scale
//! Normalizer(x)       = x / norm(x) per row (MAX, L1, L2; 0 norms left alone)
//! ```
//!
//! (a string label is a Gather of the label strings, which runs on the
//! host), and TreeEnsemble, whose trees are fixed at compile time, as
//! every node's condition for every row at once and a product picking the
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

/// A `FLOATS` attribute as `f64`s; absent or empty is `None`.
fn float_list(b: &Builder, name: &str) -> Option<Vec<f64>> {
    match b.attr(name)? {
        Attr::Floats(v) if !v.is_empty() => Some(v.into_iter().map(f64::from).collect()),
        _ => None,
    }
}

/// Input 0 of an ml op that computes in float: float, double, int32 or
/// int64, cast to float.
fn float_input(b: &mut Builder) -> Option<Value> {
    let x = b.input(0)?;
    if !matches!(
        b.elem(x)?,
        ElemType::F32 | ElemType::F64 | ElemType::I32 | ElemType::I64
    ) {
        return None;
    }
    b.cast(x, ElemType::F32)
}

/// The input of a linear ml op as a float `[N, F]` matrix: cast from
/// double or an integer type, a 1-D `[F]` input taken as one row (as
/// onnxruntime takes it).
fn float_rows(b: &mut Builder) -> Option<(Value, i64)> {
    let x = float_input(b)?;
    let x = match b.rank(x)? {
        1 => b.squeeze_like(Unsqueeze, x, &[0])?,
        2 => x,
        _ => return None,
    };
    let features = b.sym_dims(x)?.last()?.as_known()?;
    (features > 0).then_some((x, features))
}

/// `X · Wᵀ + intercepts` for the `[targets, F]` coefficients of a linear
/// ml op (intercepts absent: none).
fn linear_scores(b: &mut Builder, x: Value, features: i64) -> Option<(Value, i64)> {
    let w = float_list(b, "coefficients")?;
    let targets = w.len() as i64 / features;
    if targets == 0 || targets * features != w.len() as i64 {
        return None;
    }
    let (t, f) = (targets as usize, features as usize);
    let transposed: Vec<f64> = (0..f * t).map(|k| w[(k % t) * f + k / t]).collect();
    let wt = b.floats(ElemType::F32, vec![features, targets], &transposed)?;
    let scores = b.binary(MatMul, x, wt)?;
    Some(match float_list(b, "intercepts") {
        Some(c) if c.len() as i64 == targets => {
            let c = b.floats(ElemType::F32, vec![targets], &c)?;
            (b.binary(Add, scores, c)?, targets)
        }
        Some(_) => return None,
        None => (scores, targets),
    })
}

/// onnxruntime's `post_transform` of `[N, targets]` scores with more than
/// one target: SOFTMAX, LOGISTIC, SOFTMAX_ZERO (a softmax over the non-zero
/// scores, zeros staying 0); PROBIT is not expanded. A single target is
/// left as it is (onnxruntime transforms one score only by PROBIT).
fn post_transform(b: &mut Builder, scores: Value, targets: i64) -> Option<Value> {
    let post = b
        .string_attr("post_transform")
        .unwrap_or_else(|| "NONE".into());
    if targets == 1 {
        return (post != "PROBIT").then_some(scores);
    }
    match post.as_str() {
        "NONE" => Some(scores),
        "SOFTMAX" => b.op(Softmax, &[scores], &[("axis", Attr::Int(1))]),
        "LOGISTIC" => b.unary(Sigmoid, scores),
        "SOFTMAX_ZERO" => {
            let zero = b.scalar(ElemType::F32, 0.0)?;
            let nonzero = b.binary(Equal, scores, zero)?;
            let nonzero = b.unary(Not, nonzero)?;
            let low = b.scalar(ElemType::F32, f64::from(f32::MIN))?;
            let masked = b.select(nonzero, scores, low)?;
            let max = b.reduce(ReduceMax, masked, &[1], true)?;
            let shifted = b.binary(Sub, scores, max)?;
            let exp = b.unary(Exp, shifted)?;
            let exp = b.select(nonzero, exp, zero)?;
            let sum = b.reduce(ReduceSum, exp, &[1], true)?;
            b.binary(Div, exp, sum)
        }
        _ => None,
    }
}

/// The class labels of a classifier (`classlabels_strings`, or the int64
/// labels under `ints`) as a constant, and their count.
fn class_labels(b: &mut Builder, ints: &str) -> Option<(Value, usize)> {
    match (b.attr("classlabels_strings"), b.int_list(ints)) {
        (Some(Attr::Strings(s)), _) if !s.is_empty() => {
            let n = s.len();
            Some((
                b.constant(TensorData::from_strings(vec![n as i64], s).ok()?)?,
                n,
            ))
        }
        (_, Some(i)) if !i.is_empty() => Some((b.ints(&i)?, i.len())),
        _ => None,
    }
}

/// Expands LinearRegressor: `X · Wᵀ + intercepts` (`[N, targets]`), then
/// the post transform (onnxruntime's).
pub(super) fn linear_regressor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, features) = float_rows(b)?;
    let (scores, targets) = linear_scores(b, x, features)?;
    Some(vec![Some(post_transform(b, scores, targets)?)])
}

/// Expands LinearClassifier as onnxruntime computes it: scores
/// `X · Wᵀ + intercepts`; with several classes the label is the class
/// of the first highest raw score (a Gather of the labels by ArgMax: on
/// the host for string labels) and the scores go through the post
/// transform; with one coefficient row and two labels the label is the
/// second where the raw score `s` is positive, else the first, and the
/// scores are `[1 - p, p]` with `p` the score after the post transform
/// (NONE or LOGISTIC; the others are not expanded).
pub(super) fn linear_classifier(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, features) = float_rows(b)?;
    let (scores, targets) = linear_scores(b, x, features)?;
    let (labels, n_labels) = class_labels(b, "classlabels_ints")?;
    if targets == 1 {
        let post = b
            .string_attr("post_transform")
            .unwrap_or_else(|| "NONE".into());
        if n_labels != 2 || !matches!(post.as_str(), "NONE" | "LOGISTIC") {
            return None;
        }
        let zero = b.scalar(ElemType::F32, 0.0)?;
        let positive = b.binary(Greater, scores, zero)?;
        let positive = b.reshape(positive, &[-1])?;
        let index = b.cast(positive, ElemType::I64)?;
        let label = b.op(Gather, &[labels, index], &[("axis", Attr::Int(0))])?;
        let scores = if post == "LOGISTIC" {
            b.unary(Sigmoid, scores)?
        } else {
            scores
        };
        let one = b.scalar(ElemType::F32, 1.0)?;
        let other = b.binary(Sub, one, scores)?;
        let both = b.op(Concat, &[other, scores], &[("axis", Attr::Int(1))])?;
        return Some(vec![Some(label), Some(both)]);
    }
    if n_labels as i64 != targets {
        return None;
    }
    let index = b.op(
        ArgMax,
        &[scores],
        &[("axis", Attr::Int(1)), ("keepdims", Attr::Int(0))],
    )?;
    let label = b.op(Gather, &[labels, index], &[("axis", Attr::Int(0))])?;
    let scores = post_transform(b, scores, targets)?;
    Some(vec![Some(label), Some(scores)])
}

/// Expands Scaler: `(X - offset) * scale` per column (or one value for
/// all), in float.
pub(super) fn scaler(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = float_input(b)?;
    let columns = b.sym_dims(x)?.last()?.as_known()?;
    let mut y = x;
    for (name, op) in [("offset", Sub), ("scale", Mul)] {
        if let Some(v) = float_list(b, name) {
            if v.len() != 1 && v.len() as i64 != columns {
                return None;
            }
            let c = b.floats(ElemType::F32, vec![v.len() as i64], &v)?;
            y = b.binary(op, y, c)?;
        }
    }
    Some(vec![Some(y)])
}

/// Expands Normalizer over the rows of a `[N, C]` (or `[C]`) input, as
/// onnxruntime computes it: MAX divides by the row's largest value, L1
/// by the sum of absolute values, L2 by the square root of the sum of
/// squares; a row whose divisor is 0 is left as it is.
pub(super) fn normalizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = float_input(b)?;
    let axis = b.rank(x)? as i64 - 1;
    let norm = match b.string_attr("norm")?.as_str() {
        "MAX" => b.reduce(ReduceMax, x, &[axis], true)?,
        "L1" => {
            let abs = b.unary(Abs, x)?;
            b.reduce(ReduceSum, abs, &[axis], true)?
        }
        "L2" => {
            let square = b.binary(Mul, x, x)?;
            let sum = b.reduce(ReduceSum, square, &[axis], true)?;
            b.unary(Sqrt, sum)?
        }
        _ => return None,
    };
    let zero = b.scalar(ElemType::F32, 0.0)?;
    let one = b.scalar(ElemType::F32, 1.0)?;
    let is_zero = b.binary(Equal, norm, zero)?;
    let norm = b.select(is_zero, one, norm)?;
    Some(vec![Some(b.binary(Div, x, norm)?)])
}
