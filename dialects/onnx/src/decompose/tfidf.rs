//! TfIdfVectorizer on integer tokens as tensor ops: every n-gram of the
//! pool is counted by comparing all windows of the input against it at
//! once.
//!
//! The spec's walk (onnx's reference and onnxruntime) counts, for each skip
//! distance `d` in `1..=max_skip_count + 1`, every window of `n` tokens
//! `x[s], x[s + d], …, x[s + (n - 1)d]` that fits in the row and equals a
//! pool n-gram, for `n` in `min_gram_length..=max_gram_length` — except
//! unigrams, which are counted at `d = 1` only. With the pool and the input
//! length known at compile time, each `(n, d)` is
//!
//! ```text
//! windows = Gather(x, [[s + j·d]_j]_s, axis = -1)          [.., W, n]
//! hits    = ReduceMin(Cast(Equal(windows[.., :, None, :], pool_n)), -1)
//! counts  = ReduceSum(hits, axis of W)                       [.., P_n]
//! ```
//!
//! and the counts of all pool n-grams (in the pool's order) go to their
//! output columns through a constant one-hot matrix (`ngram_indexes`):
//! `Y = MatMul(Concat(counts), M)`. The weighting then follows `mode`:
//! TF is `Y`, IDF `weights · (Y > 0)` (or `Y > 0`), TFIDF `weights · Y`
//! (or `Y`), where the k-th weight belongs to the k-th pool n-gram (as the
//! spec and onnxruntime have it) and so to column `ngram_indexes[k]`. The work is `W·P·n` comparisons per row, as in a direct walk
//! over a pool without the trie. String tokens are not handled (no string
//! tensors in the lowering).

use super::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The pool's n-grams of one length: their positions in the pool's
/// n-gram order (the index into `ngram_indexes`) and their tokens.
struct Grams {
    n: usize,
    ids: Vec<usize>,
    tokens: Vec<i64>,
}

/// Expands TfIdfVectorizer over an int32/int64 input of rank 1 or 2.
pub(super) fn tfidf_vectorizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let dims = b.dims(x)?;
    if !matches!(b.elem(x)?, ElemType::I32 | ElemType::I64) || !(1..=2).contains(&dims.len()) {
        return None;
    }
    let min = usize::try_from(b.int_attr("min_gram_length")?).ok()?;
    let max = usize::try_from(b.int_attr("max_gram_length")?).ok()?;
    let max_skip = usize::try_from(b.int_attr("max_skip_count")?).ok()?;
    let mode = b.string_attr("mode")?;
    let counts_at = b.int_list("ngram_counts")?;
    let indexes = b.int_list("ngram_indexes")?;
    let pool = b.int_list("pool_int64s")?;
    let weights = match b.attr("weights") {
        Some(Attr::Floats(w)) => Some(w),
        _ => None,
    };
    if min == 0 || min > max {
        return None;
    }
    let groups = pool_grams(&counts_at, &pool, min, max)?;
    let out_size = usize::try_from(*indexes.iter().max()? + 1).ok()?;
    let row = usize::try_from(*dims.last()?).ok()?;
    let x = b.cast(x, ElemType::I64)?;
    let mut parts = vec![];
    let mut ids = vec![];
    for g in &groups {
        let mut total: Option<Value> = None;
        for d in 1..=max_skip + 1 {
            if g.n == 1 && d > 1 {
                break;
            }
            let span = (g.n - 1) * d;
            if span >= row {
                continue;
            }
            let count = count_windows(b, x, g, d, row - span, dims.len())?;
            total = Some(match total {
                Some(t) => b.binary(Add, t, count)?,
                None => count,
            });
        }
        if let Some(t) = total {
            parts.push(t);
            ids.extend_from_slice(&g.ids);
        }
    }
    let batch: Vec<i64> = dims[..dims.len() - 1].to_vec();
    let frequencies = if parts.is_empty() {
        let shape: Vec<i64> = batch.iter().copied().chain([out_size as i64]).collect();
        let zeros = vec![0.0; shape.iter().product::<i64>() as usize];
        b.floats(ElemType::F32, shape, &zeros)?
    } else {
        let counts = if parts.len() == 1 {
            parts[0]
        } else {
            b.op(
                Concat,
                &parts,
                &[("axis", Attr::Int(dims.len() as i64 - 1))],
            )?
        };
        let mut onehot = vec![0.0; ids.len() * out_size];
        for (p, &id) in ids.iter().enumerate() {
            let column = usize::try_from(*indexes.get(id)?).ok()?;
            onehot[p * out_size + column] = 1.0;
        }
        let m = b.floats(
            ElemType::F32,
            vec![ids.len() as i64, out_size as i64],
            &onehot,
        )?;
        b.binary(MatMul, counts, m)?
    };
    let weighted = |b: &mut Builder, y: Value| -> Option<Value> {
        match &weights {
            Some(w) if w.len() == indexes.len() => {
                let mut by_column = vec![0.0; out_size];
                for (&weight, &column) in w.iter().zip(&indexes) {
                    by_column[usize::try_from(column).ok()?] = f64::from(weight);
                }
                let w = b.floats(ElemType::F32, vec![out_size as i64], &by_column)?;
                b.binary(Mul, y, w)
            }
            Some(_) => None,
            None => Some(y),
        }
    };
    let y = match mode.as_str() {
        "TF" => frequencies,
        "IDF" => {
            let zero = b.scalar(ElemType::F32, 0.0)?;
            let present = b.binary(Greater, frequencies, zero)?;
            let present = b.cast(present, ElemType::F32)?;
            weighted(b, present)?
        }
        "TFIDF" => weighted(b, frequencies)?,
        _ => return None,
    };
    Some(vec![Some(y)])
}

/// Counts, per row of the rank-`rank` input, the windows of `g.n` tokens
/// `d` apart (`windows` of them) equal to each of `g`'s n-grams: `[.., P_n]`
/// as f32. Axes are non-negative: the opsets before 11 take no others.
fn count_windows(
    b: &mut Builder,
    x: Value,
    g: &Grams,
    d: usize,
    windows: usize,
    rank: usize,
) -> Option<Value> {
    let positions: Vec<i64> = (0..windows)
        .flat_map(|s| (0..g.n).map(move |j| (s + j * d) as i64))
        .collect();
    let positions =
        b.constant(TensorData::from_vec(vec![windows as i64, g.n as i64], &positions).ok()?)?;
    let last = rank as i64 - 1;
    let gathered = b.op(Gather, &[x, positions], &[("axis", Attr::Int(last))])?;
    let gathered = b.squeeze_like(Unsqueeze, gathered, &[last + 1])?;
    let grams = g.tokens.len() / g.n;
    let pool = b.constant(TensorData::from_vec(vec![grams as i64, g.n as i64], &g.tokens).ok()?)?;
    let equal = b.binary(Equal, gathered, pool)?;
    let equal = b.cast(equal, ElemType::F32)?;
    let hits = b.reduce(ReduceMin, equal, &[last + 2], false)?;
    b.reduce(ReduceSum, hits, &[last], false)
}

/// The pool's n-grams with `min <= n <= max`, grouped by length, each
/// numbered by its position among all the pool's n-grams (`ngram_counts[i]`
/// is where the n-grams of length `i + 1` start in `pool`).
fn pool_grams(counts_at: &[i64], pool: &[i64], min: usize, max: usize) -> Option<Vec<Grams>> {
    let mut groups = vec![];
    let mut next_id = 0;
    for (i, &start) in counts_at.iter().enumerate() {
        let n = i + 1;
        let start = usize::try_from(start).ok()?;
        let end = match counts_at.get(i + 1) {
            Some(&e) => usize::try_from(e).ok()?,
            None => pool.len(),
        };
        let tokens = pool.get(start..end)?;
        let grams = tokens.len() / n;
        if (min..=max).contains(&n) && grams > 0 {
            groups.push(Grams {
                n,
                ids: (next_id..next_id + grams).collect(),
                tokens: tokens[..grams * n].to_vec(),
            });
        }
        next_id += grams;
    }
    Some(groups)
}
