//! Einsum as diagonals, sums, batched matrix products and transposes (the
//! way onnxruntime and numpy's `einsum_path` evaluate it):
//!
//! ```text
//! a label repeated in one term   → the diagonal: ReduceSum(Where(eye, x, 0), second axis)
//! a label of one operand only,
//!   absent from the output       → ReduceSum over it
//! two operands A, B              → MatMul(Reshape(Transpose(A), [batch…, M, K]),
//!                                         Reshape(Transpose(B), [batch…, K, N]))
//!                                  batch: labels of both still needed, K: labels of
//!                                  both needed nowhere else, M/N: labels of one only
//! the last operand               → Transpose into the output's order
//! ```
//!
//! Operands are combined left to right. The dims an ellipsis covers become
//! labels of their own, aligned from the right as numpy broadcasts them;
//! MatMul broadcasts the batch labels. Floating-point types only. Sizes
//! may be symbolic: the shapes the expansion reshapes to are built from
//! the operands' run-time sizes (`Builder::product_vector`), and the
//! MatMul checks its contraction sizes at run time. Not expanded: a
//! diagonal whose two sizes are not the same (static or symbolic) size;
//! a contraction over several labels whose sizes differ (the MatMul
//! would only check their products), or over one label whose sizes
//! differ statically (one of them 1).

use super::builder::{Builder, Size};
use crate::dim::Dim;
use crate::ir::Value;
use crate::ops::linalg::{parse_term, Term};
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// A label: a letter's code, or `ELLIPSIS + k` for the dim `k` places from
/// the right of an ellipsis.
type Label = u32;

/// Labels of the dims an ellipsis covers start here (above every letter).
const ELLIPSIS: Label = 256;

/// An operand during the expansion: its value, one label per dim, and its
/// dims (static or symbolic).
struct Operand {
    value: Value,
    labels: Vec<Label>,
    dims: Vec<Dim>,
}

impl Operand {
    /// The dim labelled `l`: its position and size.
    fn dim(&self, l: Label) -> (usize, &Dim) {
        let p = self
            .labels
            .iter()
            .position(|&x| x == l)
            .expect("label of the operand");
        (p, &self.dims[p])
    }

    /// The size of the dim labelled `l`, for building shapes.
    fn size(&self, l: Label) -> Size {
        match self.dim(l) {
            (_, Dim::Known(n)) => Size::Fixed(*n),
            (p, _) => Size::Of(self.value, p),
        }
    }
}

/// Expands Einsum-12 on operands of floating-point type.
pub(super) fn einsum(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let equation = b.string_attr("equation")?;
    let (lhs, rhs) = match equation.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (equation.as_str(), None),
    };
    let terms: Vec<Term> = lhs
        .split(',')
        .map(parse_term)
        .collect::<Result<_, _>>()
        .ok()?;
    let mut operands = vec![];
    for (i, term) in terms.iter().enumerate() {
        let value = b.input(i)?;
        if !b.elem(value)?.is_float() {
            return None;
        }
        let dims = b.sym_dims(value)?;
        let labels = term_labels(term, dims.len())?;
        operands.push(Operand {
            value,
            labels,
            dims,
        });
    }
    let output = match rhs {
        Some(r) => {
            let term = parse_term(r).ok()?;
            let covered = match term.ellipsis {
                Some(_) => operands.iter().map(ellipsis_rank).max().unwrap_or(0),
                None => 0,
            };
            term_labels(&term, term.labels.len() + covered)?
        }
        None => implicit_output(&operands),
    };
    let mut operands: Vec<Operand> = operands
        .into_iter()
        .map(|o| diagonals(b, o))
        .collect::<Option<_>>()?;
    let mut acc = operands.remove(0);
    loop {
        let needed: Vec<Label> = output
            .iter()
            .chain(operands.iter().flat_map(|o| &o.labels))
            .copied()
            .collect();
        acc = sum_out(b, acc, &needed)?;
        if operands.is_empty() {
            break;
        }
        let next = operands.remove(0);
        let later: Vec<Label> = output
            .iter()
            .chain(operands.iter().flat_map(|o| &o.labels))
            .copied()
            .collect();
        let mut with_acc = later.clone();
        with_acc.extend(&acc.labels);
        let next = sum_out(b, next, &with_acc)?;
        acc = contract(b, acc, next, &later)?;
    }
    let perm: Vec<i64> = output
        .iter()
        .map(|l| acc.labels.iter().position(|x| x == l).map(|p| p as i64))
        .collect::<Option<_>>()?;
    let result = if !is_identity(&perm) {
        b.transpose(acc.value, &perm)?
    } else if (0..terms.len()).any(|i| b.input(i) == Some(acc.value)) {
        b.unary(Identity, acc.value)?
    } else {
        acc.value
    };
    Some(vec![Some(result)])
}

/// The labels of a term's dims for an operand of `rank` dims.
fn term_labels(term: &Term, rank: usize) -> Option<Vec<Label>> {
    let letters = term.labels.iter().map(|&c| c as Label);
    match term.ellipsis {
        None if rank == term.labels.len() => Some(letters.collect()),
        Some(at) if rank >= term.labels.len() => {
            let covered = rank - term.labels.len();
            let mut labels: Vec<Label> = letters.clone().take(at).collect();
            labels.extend((0..covered).rev().map(|k| ELLIPSIS + k as Label));
            labels.extend(letters.skip(at));
            Some(labels)
        }
        _ => None,
    }
}

/// How many dims the operand's ellipsis covers.
fn ellipsis_rank(o: &Operand) -> usize {
    o.labels.iter().filter(|&&l| l >= ELLIPSIS).count()
}

/// The implicit output: the ellipsis dims, then the letters used once, in
/// alphabetical order.
fn implicit_output(operands: &[Operand]) -> Vec<Label> {
    let rank = operands.iter().map(ellipsis_rank).max().unwrap_or(0);
    let mut out: Vec<Label> = (0..rank).rev().map(|k| ELLIPSIS + k as Label).collect();
    let all: Vec<Label> = operands
        .iter()
        .flat_map(|o| o.labels.iter().copied())
        .collect();
    let mut once: Vec<Label> = all
        .iter()
        .copied()
        .filter(|&l| l < ELLIPSIS && all.iter().filter(|&&x| x == l).count() == 1)
        .collect();
    once.sort_unstable();
    out.extend(once);
    out
}

/// Takes the diagonal over every label the operand repeats, until each of
/// its labels is on one dim.
fn diagonals(b: &mut Builder, mut o: Operand) -> Option<Operand> {
    while let Some((p, q)) = repeated(&o.labels) {
        if o.dims[q] != o.dims[p] {
            return None;
        }
        let eye = match o.dims[p] {
            Dim::Known(n) => {
                let mut eye_dims = vec![1; o.dims.len()];
                eye_dims[p] = n;
                eye_dims[q] = n;
                let eye: Vec<u8> = (0..n * n).map(|k| u8::from(k / n == k % n)).collect();
                b.constant(TensorData::from_raw(ElemType::Bool, eye_dims, eye.into()).ok()?)?
            }
            // `iota` along p equal to `iota` along q.
            _ => {
                let n = Size::Of(o.value, p);
                let iota = b.iota(n)?;
                let along = |b: &mut Builder, axis: usize| {
                    let mut dims = vec![Size::Fixed(1); o.dims.len()];
                    dims[axis] = n;
                    let shape = b.size_vector(&dims)?;
                    b.op(Reshape, &[iota, shape], &[])
                };
                let (rows, cols) = (along(b, p)?, along(b, q)?);
                b.binary(Equal, rows, cols)?
            }
        };
        let zero = b.scalar(b.elem(o.value)?, 0.0)?;
        let kept = b.select(eye, o.value, zero)?;
        o.value = b.reduce(ReduceSum, kept, &[q as i64], false)?;
        o.labels.remove(q);
        o.dims.remove(q);
    }
    Some(o)
}

/// The first pair of dims with the same label.
fn repeated(labels: &[Label]) -> Option<(usize, usize)> {
    (0..labels.len()).find_map(|p| {
        (p + 1..labels.len())
            .find(|&q| labels[q] == labels[p])
            .map(|q| (p, q))
    })
}

/// Sums the operand over its labels that are not `needed`.
fn sum_out(b: &mut Builder, mut o: Operand, needed: &[Label]) -> Option<Operand> {
    let axes: Vec<i64> = (0..o.labels.len())
        .filter(|&k| !needed.contains(&o.labels[k]))
        .map(|k| k as i64)
        .collect();
    if axes.is_empty() {
        return Some(o);
    }
    o.value = b.reduce(ReduceSum, o.value, &axes, false)?;
    for &k in axes.iter().rev() {
        o.labels.remove(k as usize);
        o.dims.remove(k as usize);
    }
    Some(o)
}

/// The product of two operands summed over their shared labels that are
/// not in `later`, as one batched MatMul.
fn contract(b: &mut Builder, a: Operand, c: Operand, later: &[Label]) -> Option<Operand> {
    let shared = |l: &Label| c.labels.contains(l);
    let batch: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| shared(l) && later.contains(l))
        .collect();
    let summed: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| shared(l) && !later.contains(l))
        .collect();
    let rows: Vec<Label> = a.labels.iter().copied().filter(|l| !shared(l)).collect();
    let cols: Vec<Label> = c
        .labels
        .iter()
        .copied()
        .filter(|l| !a.labels.contains(l))
        .collect();
    // One summed label may have sizes that agree at run time only (the
    // MatMul checks them); several must agree now.
    let differ = |l: &Label| a.dim(*l).1 != c.dim(*l).1;
    let static_differ = |l: &Label| a.dim(*l).1.definitely_ne(c.dim(*l).1);
    if summed.iter().any(static_differ) || (summed.len() > 1 && summed.iter().any(differ)) {
        return None;
    }
    let sizes = |o: &Operand, ls: &[Label]| ls.iter().map(|&l| o.size(l)).collect::<Vec<Size>>();
    let lhs = arrange(b, &a, [&batch, &rows, &summed])?;
    let rhs = arrange(b, &c, [&batch, &summed, &cols])?;
    let value = b.binary(MatMul, lhs, rhs)?;
    let product = b.sym_dims(value)?;
    let mut groups: Vec<Vec<Size>> = (0..batch.len())
        .map(|k| match &product[k] {
            Dim::Known(n) => vec![Size::Fixed(*n)],
            _ => vec![Size::Of(value, k)],
        })
        .collect();
    groups.extend(sizes(&a, &rows).into_iter().map(|s| vec![s]));
    groups.extend(sizes(&c, &cols).into_iter().map(|s| vec![s]));
    let mut dims: Vec<Dim> = product[..batch.len()].to_vec();
    dims.extend(rows.iter().map(|&l| a.dim(l).1.clone()));
    dims.extend(cols.iter().map(|&l| c.dim(l).1.clone()));
    let value = reshape(b, value, &groups, &dims)?;
    let mut labels = batch;
    labels.extend(rows);
    labels.extend(cols);
    Some(Operand {
        value,
        labels,
        dims,
    })
}

/// The operand transposed to `order`'s three groups of labels and reshaped
/// to its batch dims followed by two matrix dims, the products of the
/// other two groups' sizes.
fn arrange(b: &mut Builder, o: &Operand, order: [&[Label]; 3]) -> Option<Value> {
    let perm: Vec<i64> = order
        .iter()
        .flat_map(|g| g.iter())
        .map(|l| o.labels.iter().position(|x| x == l).map(|p| p as i64))
        .collect::<Option<_>>()?;
    let value = if is_identity(&perm) {
        o.value
    } else {
        b.transpose(o.value, &perm)?
    };
    let mut groups: Vec<Vec<Size>> = order[0].iter().map(|&l| vec![o.size(l)]).collect();
    let mut dims: Vec<Dim> = order[0].iter().map(|&l| o.dim(l).1.clone()).collect();
    for group in &order[1..] {
        groups.push(group.iter().map(|&l| o.size(l)).collect());
        dims.push(
            group
                .iter()
                .fold(Dim::Known(1), |acc, &l| acc.mul(o.dim(l).1)),
        );
    }
    reshape(b, value, &groups, &dims)
}

/// `Reshape(x)` to the products of `groups`' sizes (whose dims are
/// `dims`), or `x` when it already has those dims.
fn reshape(b: &mut Builder, x: Value, groups: &[Vec<Size>], dims: &[Dim]) -> Option<Value> {
    if b.sym_dims(x)? == dims {
        return Some(x);
    }
    let shape = b.product_vector(groups)?;
    b.op(Reshape, &[x, shape], &[])
}

/// Whether a permutation leaves every axis in place.
fn is_identity(perm: &[i64]) -> bool {
    perm.iter().enumerate().all(|(i, &p)| p == i as i64)
}
