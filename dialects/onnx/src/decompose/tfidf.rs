//! TfIdfVectorizer on integer tokens as tensor ops: every n-gram of the
//! pool is counted by comparing all windows of the input against it at
//! once.
//!
//! The spec's walk (onnx's reference and onnxruntime) counts, for each skip
//! distance `d` in `1..=max_skip_count + 1`, every window of `n` tokens
//! `x[s], x[s + d], …, x[s + (n - 1)d]` that fits in the row and equals a
//! pool n-gram, for `n` in `min_gram_length..=max_gram_length` — except
//! unigrams, which are counted at `d = 1` only. With the pool known at
//! compile time, each `(n, d)` is, for a row of length `L` and the span
//! `(n - 1)d` of a window,
//!
//! ```text
//! tokens_j = x[.., jd .. L - span + jd]                      [.., W]  (W = L - span windows)
//! hits     = AND_j Equal(tokens_j[.., :, None], pool_n[:, j]) [.., W, P_n]
//! counts   = ReduceSum(Cast(hits), axis of W)                 [.., P_n]
//! ```
//!
//! (each slice's end counted from the row's end, so that a row of
//! symbolic length needs no size: every `(n, d)` is then counted, and a row
//! shorter than a span fails the model's entry check instead of counting
//! nothing; a static row skips the spans that do not fit)
//! and the counts of all pool n-grams (in the pool's order) go to their
//! output columns through a constant one-hot matrix (`ngram_indexes`):
//! `Y = MatMul(Concat(counts), M)`. The weighting then follows `mode`:
//! TF is `Y`, IDF `weights · (Y > 0)` (or `Y > 0`), TFIDF `weights · Y`
//! (or `Y`), where the k-th weight belongs to the k-th pool n-gram (as the
//! spec and onnxruntime have it) and so to column `ngram_indexes[k]`. The work is `W·P·n` comparisons per row, as in a direct walk
//! over a pool without the trie. String tokens are not handled (no string
//! tensors in the lowering).

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
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
    let rank = b.sym_dims(x)?.len();
    if !matches!(b.elem(x)?, ElemType::I32 | ElemType::I64) || !(1..=2).contains(&rank) {
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
    let row = b.size(x, rank - 1)?;
    let x = b.cast(x, ElemType::I64)?;
    let mut parts = vec![];
    let mut ids = vec![];
    for g in &groups {
        let mut total: Option<Value> = None;
        for d in 1..=max_skip + 1 {
            if g.n == 1 && d > 1 {
                break;
            }
            let span = ((g.n - 1) * d) as i64;
            if matches!(row, Size::Fixed(row) if span >= row) {
                continue;
            }
            let count = count_windows(b, x, g, d, rank)?;
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
    let frequencies = if parts.is_empty() {
        let mut sizes = match rank {
            2 => vec![b.size(x, 0)?],
            _ => vec![],
        };
        sizes.push(Size::Fixed(out_size as i64));
        b.zeros(ElemType::F32, &sizes)?
    } else {
        let counts = if parts.len() == 1 {
            parts[0]
        } else {
            b.op(Concat, &parts, &[("axis", Attr::Int(rank as i64 - 1))])?
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
/// `d` apart equal to each of `g`'s n-grams: `[.., P_n]` as f32 (the
/// module docs' slices). Axes are non-negative: the opsets before 11 take
/// no others.
fn count_windows(b: &mut Builder, x: Value, g: &Grams, d: usize, rank: usize) -> Option<Value> {
    let last = rank as i64 - 1;
    let span = ((g.n - 1) * d) as i64;
    let grams = g.tokens.len() / g.n;
    let mut hits: Option<Value> = None;
    for j in 0..g.n {
        let start = (j * d) as i64;
        let end = if start < span { start - span } else { i64::MAX };
        let tokens = b.slice(x, last, start, end)?;
        let tokens = b.squeeze_like(Unsqueeze, tokens, &[last + 1])?;
        let column: Vec<i64> = (0..grams).map(|k| g.tokens[k * g.n + j]).collect();
        let column = b.ints(&column)?;
        let equal = b.binary(Equal, tokens, column)?;
        hits = Some(match hits {
            Some(h) => b.binary(And, h, equal)?,
            None => equal,
        });
    }
    let hits = b.cast(hits?, ElemType::F32)?;
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
