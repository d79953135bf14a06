//! Affine maps from expressions: `d(cx, 0) * 2 + d(cx, 1)` for
//! `(d0, d1) -> (d0 * 2 + d1)`.
//!
//! The operators build MLIR's affine expressions, which simplify as they
//! are built (as the affine-map parser's do): `d0 * 1` is `d0`, `d0 + -1`
//! prints `d0 - 1`.

use std::ops::{Add, Mul, Rem};

use melior::ir::{AffineExpr, AffineMap};
use melior::Context;

/// An affine expression over the loop dims of a structured op.
#[derive(Copy, Clone)]
pub struct Expr<'c> {
    cx: &'c Context,
    expr: AffineExpr<'c>,
}

/// Loop dim `i` (`d<i>`).
pub fn d(cx: &Context, i: usize) -> Expr<'_> {
    Expr {
        cx,
        expr: AffineExpr::dim(cx, i),
    }
}

impl<'c> Expr<'c> {
    /// The constant `value`.
    pub fn constant(cx: &'c Context, value: i64) -> Self {
        Expr {
            cx,
            expr: AffineExpr::constant(cx, value),
        }
    }

    /// `self` combined with the constant `n` by `f`.
    fn with(
        self,
        n: i64,
        f: impl FnOnce(AffineExpr<'c>, AffineExpr<'c>) -> AffineExpr<'c>,
    ) -> Self {
        Expr {
            cx: self.cx,
            expr: f(self.expr, AffineExpr::constant(self.cx, n)),
        }
    }

    /// `self floordiv n`.
    pub fn floordiv(self, n: i64) -> Self {
        self.with(n, AffineExpr::floor_div)
    }
}

impl<'c> Add for Expr<'c> {
    type Output = Expr<'c>;

    fn add(self, other: Expr<'c>) -> Expr<'c> {
        Expr {
            cx: self.cx,
            expr: self.expr + other.expr,
        }
    }
}

impl<'c> Mul<i64> for Expr<'c> {
    type Output = Expr<'c>;

    fn mul(self, n: i64) -> Expr<'c> {
        self.with(n, |a, b| a * b)
    }
}

/// `self mod n`.
impl<'c> Rem<i64> for Expr<'c> {
    type Output = Expr<'c>;

    fn rem(self, n: i64) -> Expr<'c> {
        self.with(n, AffineExpr::modulo)
    }
}

/// `(d0, …, d<n-1>) -> (exprs…)`.
pub fn map<'c>(cx: &'c Context, n: usize, exprs: &[Expr<'c>]) -> AffineMap<'c> {
    let exprs: Vec<AffineExpr> = exprs.iter().map(|e| e.expr).collect();
    AffineMap::new(cx, n, 0, &exprs)
}

/// `(d0, …, d<n-1>) -> (d<i>…)` for each `i` of `dims`.
pub fn projection(cx: &Context, n: usize, dims: impl IntoIterator<Item = usize>) -> AffineMap<'_> {
    let exprs: Vec<Expr> = dims.into_iter().map(|i| d(cx, i)).collect();
    map(cx, n, &exprs)
}

/// `(d0, …, d<n-1>) -> (d0, …, d<n-1>)`.
pub fn identity_map(cx: &Context, n: usize) -> AffineMap<'_> {
    projection(cx, n, 0..n)
}
