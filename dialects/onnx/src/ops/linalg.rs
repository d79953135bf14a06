//! Linear algebra: matrix products, Einsum, determinants, and the
//! attention-style blocks built on them.
//!
//! | op | computes | result shape | opsets |
//! |----|----------|--------------|--------|
//! | MatMul | numpy `matmul` | broadcast batch dims ++ `[M, N]`; 1-D operands get a 1 prepended (A) / appended (B) that is dropped again | 1, 9, 13 |
//! | MatMulInteger | integer `matmul` with zero points | as MatMul, int32 | 10 |
//! | PackedMatMulInteger (internal) | MatMulInteger of `A [..., M, K]` by a constant int8 `B [K, N]` given as `B_packed [⌈N/16⌉, ⌈K/4⌉, 16, 4]` and its column sums `[N]` | `[..., M, N]`, int32 | 1 |
//! | PackedConvInteger (internal) | ConvInteger of a channels-last, padded `X [N, H, W, C]` (`C` a multiple of 4) by a constant int8 `W` packed as the `[KH·KW·C, M]` matrix, `kernel_shape`/`strides`/`dilations` | `[N, OH, OW, M]`, int32 | 1 |
//! | QLinearMatMul | quantized `matmul` | as MatMul, `y_zero_point`'s type | 10, 21 |
//! | Gemm | `alpha·A'·B' + beta·C` (`transA`/`transB`) | `[M, N]`; C broadcasts to it unidirectionally | 1, 6, 7, 9, 11, 13 |
//! | Einsum | Einstein summation | the output term's labels (implicit form: labels seen once, sorted), `...` broadcast | 12, 28 |
//! | Det | determinants of square matrices | the batch dims | 11, 22 |
//! | Attention | scaled dot-product attention, 3-D (packed heads) or 4-D, with KV cache | `Y`, `present_key/value` (`past + kv` sequence), `qk_matmul_output` | 23, 24, 25 |
//! | FlexAttention (preview) | attention with score/prob modifier graphs | `[B, Hq, L, Dv]` | 1 |
//! | LinearAttention | recurrent linear attention | `[B, T, Hq·dv]`, state `[B, Hkv, dk, dv]` | 27 |
//! | RotaryEmbedding | rotary position embedding | the input's | 23 |
//! | SwiGLU | `Swish(A) · B`, no broadcasting | A's (merged with B's) | 28 |

use super::conv::channels_last_window;
use super::operand::{dims_min_rank, dims_of_rank, input_name, unify};
use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{broadcast, broadcast_dim, fmt_dims};
use crate::schema::{LinalgOp, OpKind};
use crate::types::ElemType;

pub(crate) fn infer(op: LinalgOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use LinalgOp::*;
    match op {
        MatMul => {
            let elem = cx.elem(0)?;
            matmul(cx, 0, 1, elem)
        }
        MatMulInteger => matmul(cx, 0, 1, ElemType::I32),
        PackedMatMulInteger => packed_matmul_integer(cx),
        PackedConvInteger => packed_conv_integer(cx),
        QLinearMatMul => {
            for (x, zp) in [(0, 2), (3, 5)] {
                if cx.elem(zp)? != cx.elem(x)? {
                    return Err(invalid!(
                        "'{}' is {}, its zero point '{}' {}",
                        input_name(cx, x),
                        cx.elem(x)?,
                        input_name(cx, zp),
                        cx.elem(zp)?
                    ));
                }
            }
            let elem = cx.elem(7)?;
            matmul(cx, 0, 3, elem)
        }
        Gemm => gemm(cx),
        Einsum => einsum(cx),
        Det => {
            let elem = cx.elem(0)?;
            let dims = dims_min_rank(cx, 0, 2)?;
            let (batch, m) = dims.split_at(dims.len() - 2);
            unify(&m[0], &m[1], "the matrices must be square")?;
            cx.set_tensor(0, elem, batch.to_vec());
            Ok(())
        }
        Attention => attention(cx),
        FlexAttention => flex_attention(cx),
        LinearAttention => linear_attention(cx),
        RotaryEmbedding => {
            let t = cx.tensor(0)?.clone();
            if let Some(r) = t.rank().filter(|r| *r != 3 && *r != 4) {
                return Err(invalid!("input must have rank 3 or 4, got {r}"));
            }
            cx.set_type(0, crate::types::Type::Tensor(t));
            Ok(())
        }
        SwiGLU => {
            let elem = cx.elem(0)?;
            let a = cx.dims(0)?.to_vec();
            let b = cx.dims(1)?;
            if a.len() != b.len() {
                return Err(invalid!(
                    "'A' {} and 'B' {} must have the same shape",
                    fmt_dims(&a),
                    fmt_dims(b)
                ));
            }
            let out = a
                .iter()
                .zip(b)
                .enumerate()
                .map(|(i, (x, y))| unify(x, y, &format!("dim {i} of 'A' and 'B'")));
            let out = out.collect::<Result<Vec<_>, _>>()?;
            cx.set_tensor(0, elem, out);
            Ok(())
        }
    }
}

/// The result dims of `matmul(a, b)` (numpy rules).
pub(crate) fn matmul_dims(a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, Fail> {
    if a.is_empty() || b.is_empty() {
        return Err(invalid!(
            "matmul operands cannot be scalars ({} and {})",
            fmt_dims(a),
            fmt_dims(b)
        ));
    }
    let a2: Vec<Dim> = if a.len() == 1 {
        vec![Dim::Known(1), a[0].clone()]
    } else {
        a.to_vec()
    };
    let b2: Vec<Dim> = if b.len() == 1 {
        vec![b[0].clone(), Dim::Known(1)]
    } else {
        b.to_vec()
    };
    let (ra, rb) = (a2.len(), b2.len());
    unify(
        &a2[ra - 1],
        &b2[rb - 2],
        &format!("the inner dims of {} and {}", fmt_dims(a), fmt_dims(b)),
    )?;
    let mut out = broadcast(&a2[..ra - 2], &b2[..rb - 2])?;
    if a.len() > 1 {
        out.push(a2[ra - 2].clone());
    }
    if b.len() > 1 {
        out.push(b2[rb - 1].clone());
    }
    Ok(out)
}

fn matmul(cx: &mut InferCtx, a: usize, b: usize, elem: ElemType) -> Result<(), Fail> {
    let out = matmul_dims(cx.dims(a)?, cx.dims(b)?)?;
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// PackedMatMulInteger: `A [..., M, K]`, `B_packed [⌈N/16⌉, ⌈K/4⌉, 16, 4]`
/// and `B_colsum [N]` give `Y [..., M, N]`; the zero points are scalars
/// (B's may be `[N]`).
fn packed_matmul_integer(cx: &mut InferCtx) -> Result<(), Fail> {
    let a = dims_min_rank(cx, 0, 2)?;
    let packed = dims_of_rank(cx, 1, 4)?;
    let [n] = &dims_of_rank(cx, 2, 1)?[..] else {
        unreachable!("rank checked")
    };
    let groups = a[a.len() - 1].as_known().map(|k| (k + 3) / 4);
    packed_layout(&packed, n, (groups, "⌈K/4⌉"))?;
    let elem = packed_epilogue(cx, n)?;
    let mut out = a[..a.len() - 1].to_vec();
    out.push(n.clone());
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// PackedConvInteger: `X [N, H, W, C]`, `W_packed [⌈M/16⌉, KH·KW·C/4,
/// 16, 4]` and `W_colsum [M]` give `Y [N, OH, OW, M]` with
/// `OH = (H − d·(KH − 1) − 1) / s + 1` (unpadded: the optimizer pads
/// `X`); the zero points, scales and bias as PackedMatMulInteger's.
fn packed_conv_integer(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = dims_of_rank(cx, 0, 4)?;
    let packed = dims_of_rank(cx, 1, 4)?;
    let [m] = &dims_of_rank(cx, 2, 1)?[..] else {
        unreachable!("rank checked")
    };
    let (kernel, spatial) = channels_last_window(cx, &x)?;
    let c = x[3].as_known();
    if c.is_some_and(|c| c % 4 != 0) {
        return Err(invalid!(
            "X {} must have a multiple of 4 channels",
            fmt_dims(&x)
        ));
    }
    let groups = c.map(|c| kernel[0] * kernel[1] * c / 4);
    packed_layout(&packed, m, (groups, "KH·KW·C/4"))?;
    let elem = packed_epilogue(cx, m)?;
    let mut out = vec![x[0].clone()];
    out.extend(spatial);
    out.push(m.clone());
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// Checks the packed weights' dims `[⌈n/16⌉, groups, 16, 4]` (`groups`
/// when known, named by its formula).
fn packed_layout(
    packed: &[Dim],
    n: &Dim,
    (groups, formula): (Option<i64>, &str),
) -> Result<(), Fail> {
    let blocks = n.as_known().map(|n| (n + 15) / 16);
    for (got, want, what) in [
        (&packed[0], blocks, "⌈columns/16⌉ column blocks".to_string()),
        (&packed[1], groups, format!("{formula} groups of rows")),
        (&packed[2], Some(16), "16 columns per block".to_string()),
        (&packed[3], Some(4), "4 rows per group".to_string()),
    ] {
        if let Some(want) = want {
            unify(
                got,
                &Dim::Known(want),
                &format!("the packed weights {} must have {what}", fmt_dims(packed)),
            )?;
        }
    }
    Ok(())
}

/// The packed products' zero points, scales and bias (inputs 3 to 8):
/// scalars, or one per column (`n` of them) for `B`'s zero point, the
/// scale and the bias; the result's type: `y_zero_point`'s when
/// requantized, `f32` with a scale, else `i32`.
fn packed_epilogue(cx: &InferCtx, n: &Dim) -> Result<ElemType, Fail> {
    let names = [
        "a_zero_point",
        "B_zero_point",
        "scale",
        "bias",
        "y_scale",
        "y_zero_point",
    ];
    for (i, what) in (3..).zip(names) {
        if let Some(dims) = cx.opt_tensor(i)?.and_then(|t| t.dims()) {
            let count: Option<i64> = dims.iter().map(Dim::as_known).product();
            let per_column = (4..=6).contains(&i) && dims.len() == 1 && !dims[0].definitely_ne(n);
            if count != Some(1) && !per_column {
                return Err(invalid!("{what} {} must be a scalar", fmt_dims(dims)));
            }
        }
    }
    let given = |i| cx.opt_tensor(i).map(|t| t.is_some());
    match (given(5)?, given(6)?, given(7)?, given(8)?) {
        (false, true, _, _) => Err(invalid!("a bias needs a scale")),
        (_, _, true, false) | (_, _, false, true) => {
            Err(invalid!("y_scale and y_zero_point come together"))
        }
        (false, _, true, true) => Err(invalid!("a requantized result needs a scale")),
        (true, _, true, true) => cx.elem(8),
        (true, _, false, false) => Ok(ElemType::F32),
        (false, _, false, false) => Ok(ElemType::I32),
    }
}

pub(crate) fn gemm(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let a = dims_of_rank(cx, 0, 2)?;
    let b = dims_of_rank(cx, 1, 2)?;
    let (m, ka) = if cx.int("transA")? != 0 {
        (&a[1], &a[0])
    } else {
        (&a[0], &a[1])
    };
    let (kb, n) = if cx.int("transB")? != 0 {
        (&b[1], &b[0])
    } else {
        (&b[0], &b[1])
    };
    unify(ka, kb, "the inner dims of A and B")?;
    let out = vec![m.clone(), n.clone()];
    if let Some(c) = cx.opt_tensor(2)?.and_then(|c| c.dims()) {
        // C broadcasts to [M, N] unidirectionally; legacy Gemm without
        // `broadcast = 1` needs it to be exactly [M, N].
        let exact = cx.kind() == OpKind::Gemm
            && cx.version() < 7
            && cx.int_opt("broadcast")?.unwrap_or(0) == 0;
        let fits = if exact {
            c.len() == 2 && c.iter().zip(&out).all(|(x, y)| !x.definitely_ne(y))
        } else {
            let pairs = c.iter().rev().zip(out.iter().rev());
            c.len() <= 2
                && pairs
                    .into_iter()
                    .all(|(x, y)| x == &Dim::Known(1) || !x.definitely_ne(y))
        };
        if !fits {
            return Err(invalid!(
                "C {} does not broadcast to [M, N] = {}",
                fmt_dims(c),
                fmt_dims(&out)
            ));
        }
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// One operand term of an Einsum equation: its labels, and where its
/// ellipsis stands among them.
pub(crate) struct Term {
    /// The letters, in order (the ellipsis is not among them).
    pub labels: Vec<char>,
    /// How many letters precede the ellipsis, when there is one.
    pub ellipsis: Option<usize>,
}

/// Parses one term of an Einsum equation (spaces are ignored).
pub(crate) fn parse_term(s: &str) -> Result<Term, Fail> {
    let mut labels = vec![];
    let mut ellipsis = None;
    let mut rest = s.trim();
    while let Some(c) = rest.chars().next() {
        if let Some(tail) = rest.strip_prefix("...") {
            if ellipsis.replace(labels.len()).is_some() {
                return Err(invalid!("term '{s}' has more than one ellipsis"));
            }
            rest = tail;
        } else if c.is_ascii_alphabetic() {
            labels.push(c);
            rest = &rest[1..];
        } else if c.is_whitespace() {
            rest = &rest[1..];
        } else {
            return Err(invalid!("term '{s}' has the invalid character '{c}'"));
        }
    }
    Ok(Term { labels, ellipsis })
}

fn einsum(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let equation = cx
        .string_opt("equation")?
        .ok_or_else(|| invalid!("attribute 'equation' is required"))?;
    let (lhs, rhs) = match equation.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (equation.as_str(), None),
    };
    let terms = lhs
        .split(',')
        .map(parse_term)
        .collect::<Result<Vec<_>, _>>()?;
    if terms.len() != cx.num_inputs() {
        return Err(invalid!(
            "equation '{equation}' has {} operands, the op {} inputs",
            terms.len(),
            cx.num_inputs()
        ));
    }
    let mut sizes: Vec<(char, Dim)> = vec![];
    let mut counts: Vec<(char, usize)> = vec![];
    let mut ellipsis: Vec<Dim> = vec![];
    for (i, term) in terms.iter().enumerate() {
        let dims = cx.dims(i)?;
        let n = term.labels.len();
        let covered = match term.ellipsis {
            Some(_) if dims.len() >= n => dims.len() - n,
            None if dims.len() == n => 0,
            _ => {
                return Err(invalid!(
                    "input {i} {} does not fit the term of {n} labels",
                    fmt_dims(dims)
                ))
            }
        };
        let at = term.ellipsis.unwrap_or(n);
        let label_dims = dims[..at].iter().chain(&dims[at + covered..]);
        for (&l, d) in term.labels.iter().zip(label_dims) {
            // Sizes of one label must agree, except that a 1 broadcasts (numpy).
            match sizes.iter_mut().find(|(x, _)| *x == l) {
                Some((_, s)) => {
                    *s = broadcast_dim(s, d)
                        .ok_or_else(|| invalid!("label '{l}' has sizes {s} and {d}"))?
                }
                None => sizes.push((l, d.clone())),
            }
            match counts.iter_mut().find(|(x, _)| *x == l) {
                Some((_, c)) => *c += 1,
                None => counts.push((l, 1)),
            }
        }
        ellipsis = broadcast(&ellipsis, &dims[at..at + covered])?;
    }
    let output = match rhs {
        Some(r) => parse_term(r)?,
        None => {
            let mut labels: Vec<char> = counts
                .iter()
                .filter(|(_, c)| *c == 1)
                .map(|(l, _)| *l)
                .collect();
            labels.sort_unstable();
            Term {
                labels,
                ellipsis: Some(0),
            }
        }
    };
    let mut out = vec![];
    for (k, l) in output.labels.iter().enumerate() {
        if output.ellipsis == Some(k) {
            out.extend(ellipsis.iter().cloned());
        }
        let (_, d) = sizes
            .iter()
            .find(|(x, _)| x == l)
            .ok_or_else(|| invalid!("output label '{l}' is not an input label"))?;
        out.push(d.clone());
    }
    if output.ellipsis == Some(output.labels.len()) {
        out.extend(ellipsis);
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// Reads a positive head-count attribute.
fn heads(cx: &InferCtx, name: &str) -> Result<Option<i64>, Fail> {
    match cx.int_opt(name)? {
        Some(h) if h <= 0 => Err(invalid!("'{name}' must be positive, got {h}")),
        h => Ok(h),
    }
}

fn attention(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let q = cx.dims(0)?.to_vec();
    let k = cx.dims(1)?.to_vec();
    let v = cx.dims(2)?.to_vec();
    if cx.has_input(4) != cx.has_input(5) {
        return Err(invalid!("past_key and past_value must be given together"));
    }
    if cx.has_output(1) != cx.has_output(2) {
        return Err(invalid!(
            "present_key and present_value must be requested together"
        ));
    }
    for name in ["left_window_size", "right_window_size"] {
        if let Some(w) = cx.int_opt(name)?.filter(|&w| w < -1) {
            return Err(invalid!("'{name}' must be -1 or non-negative, got {w}"));
        }
    }
    let (hq, hkv) = (heads(cx, "q_num_heads")?, heads(cx, "kv_num_heads")?);
    // Bring everything to [batch, heads, seq, head size].
    let (q4, k4, v4, y) = match (q.len(), k.len(), v.len()) {
        (4, 4, 4) => {
            if hq.is_some() || hkv.is_some() {
                return Err(invalid!(
                    "q_num_heads and kv_num_heads must not be given for 4-D inputs"
                ));
            }
            let y = vec![q[0].clone(), q[1].clone(), q[2].clone(), v[3].clone()];
            (q.clone(), k.clone(), v.clone(), y)
        }
        (3, 3, 3) => {
            let (Some(hq), Some(hkv)) = (hq, hkv) else {
                return Err(invalid!(
                    "3-D inputs need the q_num_heads and kv_num_heads attributes"
                ));
            };
            let split = |d: &[Dim], h: i64, what: &str| -> Result<Vec<Dim>, Fail> {
                if let Dim::Known(n) = d[2] {
                    if n % h != 0 {
                        return Err(invalid!(
                            "the hidden size {n} of {what} is not a multiple of {h} heads"
                        ));
                    }
                }
                Ok(vec![
                    d[0].clone(),
                    Dim::Known(h),
                    d[1].clone(),
                    d[2].div_exact(&Dim::Known(h)),
                ])
            };
            let (q4, k4, v4) = (
                split(&q, hq, "Q")?,
                split(&k, hkv, "K")?,
                split(&v, hkv, "V")?,
            );
            let y = vec![q[0].clone(), q[1].clone(), v4[3].scale(hq)];
            (q4, k4, v4, y)
        }
        (a, b, c) => {
            return Err(invalid!(
                "Q, K and V must all be 3-D or all 4-D, got ranks {a}, {b}, {c}"
            ))
        }
    };
    unify(&q4[3], &k4[3], "the head sizes of Q and K")?;
    unify(&k4[2], &v4[2], "the sequence lengths of K and V")?;
    cx.set_tensor(0, elem, y);
    let mut total = k4[2].clone();
    if cx.has_input(4) {
        let past_key = dims_of_rank(cx, 4, 4)?;
        let past_value = dims_of_rank(cx, 5, 4)?;
        total = past_key[2].add(&k4[2]);
        let mut present_key = past_key.clone();
        present_key[2] = total.clone();
        let mut present_value = past_value.clone();
        present_value[2] = total.clone();
        let (ek, ev) = (cx.elem(4)?, cx.elem(5)?);
        cx.set_tensor(1, ek, present_key);
        cx.set_tensor(2, ev, present_value);
    } else if cx.has_output(1) {
        cx.set_tensor(1, cx.elem(1)?, k4.clone());
        cx.set_tensor(2, cx.elem(2)?, v4.clone());
    }
    if cx.has_output(3) {
        cx.set_tensor(
            3,
            elem,
            vec![q4[0].clone(), q4[1].clone(), q4[2].clone(), total],
        );
    }
    Ok(())
}

fn flex_attention(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    for i in 1..3 {
        if cx.elem(i)? != elem {
            return Err(invalid!(
                "Q, K and V must have the same element type, got {elem} and {}",
                cx.elem(i)?
            ));
        }
    }
    let (q, k, v) = (
        dims_of_rank(cx, 0, 4)?,
        dims_of_rank(cx, 1, 4)?,
        dims_of_rank(cx, 2, 4)?,
    );
    unify(&k[1], &v[1], "the head counts of K and V")?;
    unify(&k[2], &v[2], "the sequence lengths of K and V")?;
    unify(&q[3], &k[3], "the head sizes of Q and K")?;
    if let (Dim::Known(hq), Dim::Known(hkv)) = (&q[1], &k[1]) {
        if *hkv <= 0 || hq % hkv != 0 {
            return Err(invalid!(
                "{hq} query heads are not a multiple of {hkv} key/value heads"
            ));
        }
    }
    let batch = unify(
        &unify(&q[0], &k[0], "the batch sizes of Q and K")?,
        &v[0],
        "the batch sizes of Q and V",
    )?;
    cx.set_tensor(
        0,
        elem,
        vec![batch, q[1].clone(), q[2].clone(), v[3].clone()],
    );
    Ok(())
}

fn linear_attention(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let (Some(hq), Some(hkv)) = (heads(cx, "q_num_heads")?, heads(cx, "kv_num_heads")?) else {
        return Err(invalid!("q_num_heads and kv_num_heads are required"));
    };
    if hq % hkv != 0 {
        return Err(invalid!(
            "{hq} query heads are not a multiple of {hkv} key/value heads"
        ));
    }
    let (q, k, v) = (
        dims_of_rank(cx, 0, 3)?,
        dims_of_rank(cx, 1, 3)?,
        dims_of_rank(cx, 2, 3)?,
    );
    let per_head = |d: &Dim, h: i64, what: &str| match d {
        Dim::Known(n) if n % h != 0 => Err(invalid!(
            "the hidden size {n} of {what} is not a multiple of {h} heads"
        )),
        d => Ok(d.div_exact(&Dim::Known(h))),
    };
    let dk = unify(
        &per_head(&q[2], hq, "query")?,
        &per_head(&k[2], hkv, "key")?,
        "the key sizes of query and key",
    )?;
    let dv = per_head(&v[2], hkv, "value")?;
    let batch = unify(&q[0], &k[0], "the batch sizes of query and key")?;
    let seq = unify(&q[1], &k[1], "the sequence lengths of query and key")?;
    cx.set_tensor(0, elem, vec![batch.clone(), seq, dv.scale(hq)]);
    let mut state = vec![batch, Dim::Known(hkv), dk, dv];
    let state_elem = match cx.opt_tensor(3)? {
        Some(past) => {
            if let Some(p) = past.dims() {
                if p.len() != 4 {
                    return Err(invalid!(
                        "past_state must be [B, H_kv, d_k, d_v], got {}",
                        fmt_dims(p)
                    ));
                }
                for (i, d) in p.iter().enumerate() {
                    state[i] = unify(&state[i], d, &format!("dim {i} of past_state"))?;
                }
            }
            past.elem
        }
        None => elem,
    };
    cx.set_tensor(1, state_elem, state);
    if let Some(rule) = cx.string_opt("update_rule")? {
        if !matches!(rule.as_str(), "linear" | "gated" | "delta" | "gated_delta") {
            return Err(invalid!("unknown update_rule '{rule}'"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::attr::Attr;

    #[test]
    fn matmul_promotion_and_broadcast() {
        infers! {
            13 MatMul(ti("3x4xf32"), ti("4x5xf32")) => "3x5xf32";
            13 MatMul(ti("2x1x3x4xf32"), ti("7x4x5xf32")) => "2x7x3x5xf32";
            13 MatMul(ti("4xf32"), ti("4x5xf32")) => "5xf32";
            13 MatMul(ti("2x3x4xf32"), ti("4xf32")) => "2x3xf32";
            13 MatMul(ti("4xf32"), ti("4xf32")) => "f32";
            13 MatMul(ti("BxSx768xf32"), ti("768x3072xf32")) => "BxSx3072xf32";
            13 MatMul(ti("3x4xf32"), ti("5x6xf32")) => Fails(1, "inner dims");
            13 MatMul(ti("2x3x4xf32"), ti("3x4x5xf32")) => Fails(1, "do not broadcast");
            13 MatMul(ti("f32"), ti("4xf32")) => Fails(1, "scalars");
            10 MatMulInteger(ti("3x4xui8"), ti("4x5xui8")) => "3x5xi32";
            17 PackedMatMulInteger(ti("2x8x10xui8"), ti("2x3x16x4xi8"), ti("20xi32")) => "2x8x20xi32";
            17 PackedMatMulInteger(ti("Mx10xi8"), ti("2x3x16x4xi8"), ti("20xi32"), ti("i8"), ti("20xi32")) => "Mx20xi32";
            17 PackedMatMulInteger(ti("Mx10xi8"), ti("2x3x16x4xi8"), ti("20xi32"), ti("i8"), In::Absent, ti("f32")) => "Mx20xf32";
            17 PackedMatMulInteger(ti("Mx10xi8"), ti("2x3x16x4xi8"), ti("20xi32"), ti("i8"), In::Absent, ti("f32"), ti("3xf32")) => Fails(1, "bias");
            17 PackedMatMulInteger(ti("8x13xui8"), ti("2x3x16x4xi8"), ti("20xi32")) => Fails(1, "groups of rows");
            17 PackedMatMulInteger(ti("8x10xui8"), ti("1x3x16x4xi8"), ti("20xi32")) => Fails(1, "column blocks");
            17 PackedMatMulInteger(ti("8x10xui8"), ti("2x3x16x4xi8"), ti("20xi32"), ti("2xui8")) => Fails(1, "must be a scalar");
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"); kernel_shape = ints(&[3, 3])) => "1x8x8x20xi32";
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"), In::Absent, In::Absent, ti("20xf32"), ti("20xf32"); kernel_shape = ints(&[3, 3])) => "1x8x8x20xf32";
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"), In::Absent, In::Absent, In::Absent, ti("20xf32"); kernel_shape = ints(&[3, 3])) => Fails(1, "needs a scale");
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"), In::Absent, In::Absent, ti("20xf32"), In::Absent, ti("f32"), ti("i8"); kernel_shape = ints(&[3, 3])) => "1x8x8x20xi8";
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"), In::Absent, In::Absent, ti("20xf32"), In::Absent, ti("f32"); kernel_shape = ints(&[3, 3])) => Fails(1, "come together");
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"), In::Absent, In::Absent, ti("20xf32"), In::Absent, ti("20xf32"), ti("ui8"); kernel_shape = ints(&[3, 3])) => Fails(1, "y_scale [20] must be a scalar");
            17 PackedConvInteger(ti("Nx11x9x4xi8"), ti("1x9x16x4xi8"), ti("16xi32"), ti("i8"), ti("16xi32"); kernel_shape = ints(&[3, 3]), strides = ints(&[2, 2])) => "Nx5x4x16xi32";
            17 PackedConvInteger(ti("1x9x9x4xui8"), ti("1x1x16x4xi8"), ti("16xi32"); kernel_shape = ints(&[1, 1]), dilations = ints(&[2, 2]), strides = ints(&[3, 3])) => "1x3x3x16xi32";
            17 PackedConvInteger(ti("1x10x10x6xui8"), ti("2x18x16x4xi8"), ti("20xi32"); kernel_shape = ints(&[3, 3])) => Fails(1, "multiple of 4 channels");
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x9x16x4xi8"), ti("20xi32"); kernel_shape = ints(&[3, 3])) => Fails(1, "groups of rows");
            17 PackedConvInteger(ti("1x2x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32"); kernel_shape = ints(&[3, 3])) => Fails(1, "smaller than the window");
            17 PackedConvInteger(ti("1x10x10x8xui8"), ti("2x18x16x4xi8"), ti("20xi32")) => Fails(1, "two positive ints");
            10 QLinearMatMul(ti("3x4xui8"), ti("f32"), ti("ui8"), ti("4x5xi8"), ti("f32"), ti("i8"), ti("f32"), ti("ui8")) => "3x5xui8";
            10 QLinearMatMul(ti("3x4xui8"), ti("f32"), ti("i8"), ti("4x5xi8"), ti("f32"), ti("i8"), ti("f32"), ti("ui8")) => Fails(1, "zero point");
        }
    }

    #[test]
    fn gemm_transposes_and_broadcasts_c() {
        infers! {
            13 Gemm(ti("3x4xf32"), ti("4x5xf32")) => "3x5xf32";
            13 Gemm(ti("4x3xf32"), ti("5x4xf32"); transA = int(1), transB = int(1)) => "3x5xf32";
            13 Gemm(ti("3x4xf32"), ti("4x5xf32"), ti("5xf32")) => "3x5xf32";
            13 Gemm(ti("3x4xf32"), ti("4x5xf32"), ti("3x1xf32")) => "3x5xf32";
            13 Gemm(ti("3x4xf32"), ti("4x5xf32"), ti("f32")) => "3x5xf32";
            13 Gemm(ti("3x4xf32"), ti("4x5xf32"), ti("3xf32")) => Fails(1, "does not broadcast");
            6 Gemm(ti("3x4xf32"), ti("4x5xf32"), ti("5xf32")) => Fails(1, "does not broadcast");
            6 Gemm(ti("3x4xf32"), ti("4x5xf32"), ti("5xf32"); broadcast = int(1)) => "3x5xf32";
            13 Gemm(ti("3x4xf32"), ti("3x5xf32")) => Fails(1, "inner dims");
            13 Gemm(ti("3x4x1xf32"), ti("4x5xf32")) => Fails(1, "rank 2");
        }
    }

    #[test]
    fn einsum_equations() {
        let eq = |s: &str| Attr::str(s);
        infers! {
            12 Einsum(ti("3x5x5xf32"); equation = eq("...ii ->...i")) => "3x5xf32";
            12 Einsum(ti("5x2x3xf32"), ti("5x3x4xf32"); equation = eq("bij, bjk -> bik")) => "5x2x4xf32";
            12 Einsum(ti("5xf32"), ti("5xf32"); equation = eq("i,i")) => "f32";
            12 Einsum(ti("3x4xf32"); equation = eq("ij->i")) => "3xf32";
            12 Einsum(ti("3x4xf32"); equation = eq("ij->ji")) => "4x3xf32";
            12 Einsum(ti("3x4xf32"), ti("4x5xf32"); equation = eq("ij,jk")) => "3x5xf32";
            12 Einsum(ti("3x4xf32"); equation = eq("ji")) => "4x3xf32";
            12 Einsum(ti("2x3x4xf32"), ti("1x4x5xf32"); equation = eq("...ij,...jk->...ik")) => "2x3x5xf32";
            12 Einsum(ti("3x4xf32"), ti("5x6xf32"); equation = eq("ij,jk->ik")) => Fails(1, "label 'j' has sizes 4 and 5");
            12 Einsum(ti("3x4xf32"); equation = eq("ijk->i")) => Fails(1, "does not fit");
            12 Einsum(ti("3x4xf32"); equation = eq("ij->ik")) => Fails(1, "output label 'k'");
            12 Einsum(ti("3x4xf32"); equation = eq("i$->i")) => Fails(1, "invalid character");
        }
    }

    #[test]
    fn det_rotary_swiglu() {
        infers! {
            11 Det(ti("2x3x3xf32")) => "2xf32";
            11 Det(ti("3x3xf32")) => "f32";
            11 Det(ti("3x4xf32")) => Fails(1, "square");
            23 RotaryEmbedding(ti("2x3x4x8xf32"), ti("4x4xf32"), ti("4x4xf32")) => "2x3x4x8xf32";
            23 RotaryEmbedding(ti("2x4xf32"), ti("4x4xf32"), ti("4x4xf32")) => Fails(1, "rank 3 or 4");
            28 SwiGLU(ti("2x?x8xf32"), ti("2x5x8xf32")) => "2x5x8xf32";
            28 SwiGLU(ti("2x8xf32"), ti("1x8xf32")) => Fails(1, "dim 0");
        }
    }

    #[test]
    fn attention_layouts_and_cache() {
        let four_d = || [ti("2x3x4x8xf32"), ti("2x3x6x8xf32"), ti("2x3x6x10xf32")];
        let [q, k, v] = four_d();
        infers! {
            23 Attention(q, k, v) => "2x3x4x10xf32";
            23 Attention(ti("2x4x24xf32"), ti("2x6x12xf32"), ti("2x6x12xf32"); q_num_heads = int(4), kv_num_heads = int(2)) => "2x4x24xf32";
            23 Attention(ti("2x4x24xf32"), ti("2x6x24xf32"), ti("2x6x24xf32")) => Fails(1, "q_num_heads");
            23 Attention(ti("2x4x24xf32"), ti("2x6x24xf32"), ti("2x6x24xf32"); q_num_heads = int(5), kv_num_heads = int(3)) => Fails(1, "not a multiple of 5 heads");
            23 Attention(ti("2x3x4x8xf32"), ti("2x3x6x7xf32"), ti("2x3x6x8xf32")) => Fails(1, "head sizes of Q and K");
        }
        let [q, k, v] = four_d();
        let cache = [q, k, v, In::Absent, ti("2x3x5x8xf32"), ti("2x3x5x10xf32")];
        let want = [
            "2x3x4x10xf32",
            "2x3x11x8xf32",
            "2x3x11x10xf32",
            "2x3x4x11xf32",
        ];
        Expectation::check(want, 23, crate::schema::OpKind::Attention, &cache, &[]);
        infers! {
            1 FlexAttention(ti("2x4x5x8xf32"), ti("2x2x6x8xf32"), ti("2x2x6x3xf32")) => "2x4x5x3xf32";
            1 FlexAttention(ti("2x3x5x8xf32"), ti("2x2x6x8xf32"), ti("2x2x6x3xf32")) => Fails(1, "not a multiple");
            27 LinearAttention(ti("2x5x32xf32"), ti("2x5x16xf32"), ti("2x5x24xf32"); q_num_heads = int(4), kv_num_heads = int(2)) => ["2x5x48xf32", "2x2x8x12xf32"];
        }
    }
}
