//! Tensor dimensions: static, symbolic or unknown.
//!
//! A symbolic dimension is an integer polynomial over named atoms. Atoms are
//! `dim_param` names from the model (the same name is the same size
//! everywhere in a model), so that shape inference can carry `batch*seq`
//! through a `Reshape(-1, 768)` or `past+seq` through a `Concat` instead of
//! giving up.
//!
//! Some sizes are no polynomial over the `dim_param`s; they become atoms
//! of their own that name their operands (so that the generated code can
//! evaluate them from the symbols):
//! - a broadcast of two sizes that may differ ([`Dim::broadcast_of`]),
//! - an exact division an op requires ([`Dim::quotient`]; the model's entry
//!   checks the division exact),
//! - a floor quotient by a constant, a strided window's output size
//!   ([`Dim::floor_quotient`]; it may be negative: [`Dim::is_nonnegative`]
//!   does not count on it),
//! - the integer operations of the shape arithmetic exporters write as
//!   tensor ops ([`DimOp`]): truncating division of sizes, and the 0/1
//!   results of `==` and `<`. Booleans are 0/1 dims, so `Not`, `And`,
//!   `Or`, `Where`, `Max`, `Min` and `Mod` of sizes are polynomials over
//!   these atoms (`c ? a : b` is `c*a + (1-c)*b`, [`Dim::select`]). Each
//!   atom's value is the operation's exact result for every size, so a
//!   dim built from them relies on no assumption.
//!
//! Every other atom is at least 0 (a size, a quotient of sizes, a truth value),
//! which [`Dim::is_nonnegative`] relies on: a truncating division atom is
//! made only for non-negative operands. Anything else (a division by a
//! possibly negative size, say) becomes [`Dim::Unknown`].

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// One dimension of a tensor shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dim {
    /// A size known at compile time.
    Known(i64),
    /// A size given by a polynomial over `dim_param` names.
    Sym(SymDim),
    /// Nothing is known about the size.
    Unknown,
}

/// A monomial: coefficient times a product of atoms (a sorted multiset;
/// empty for the constant term).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Term {
    coeff: i64,
    atoms: Vec<Arc<str>>,
}

/// A symbolic dimension: a canonical polynomial with at least one atom.
///
/// Terms are sorted by their atom lists with the constant term last, no
/// coefficient is zero, and equal atom lists are merged, so structural
/// equality is polynomial equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SymDim(Arc<[Term]>);

fn cmp_atoms(a: &[Arc<str>], b: &[Arc<str>]) -> Ordering {
    // Constant term (no atoms) sorts last; otherwise higher degree first.
    match (a.is_empty(), b.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => b.len().cmp(&a.len()).then_with(|| a.cmp(b)),
    }
}

/// Builds a `Dim` from terms in any order: merges, drops zeros, and
/// collapses atom-free results to `Dim::Known`. `None` on overflow.
fn canonical(mut terms: Vec<Term>) -> Option<Dim> {
    terms.sort_by(|x, y| cmp_atoms(&x.atoms, &y.atoms));
    let mut out: Vec<Term> = Vec::with_capacity(terms.len());
    for t in terms {
        match out.last_mut() {
            Some(last) if last.atoms == t.atoms => last.coeff = last.coeff.checked_add(t.coeff)?,
            _ => out.push(t),
        }
    }
    out.retain(|t| t.coeff != 0);
    Some(match out.as_slice() {
        [] => Dim::Known(0),
        [t] if t.atoms.is_empty() => Dim::Known(t.coeff),
        _ => Dim::Sym(SymDim(out.into())),
    })
}

impl Dim {
    /// A dimension named by a `dim_param`.
    pub fn param(name: &str) -> Dim {
        Dim::Sym(SymDim(
            vec![Term {
                coeff: 1,
                atoms: vec![Arc::from(name)],
            }]
            .into(),
        ))
    }

    /// The size, when static.
    pub fn as_known(&self) -> Option<i64> {
        match self {
            Dim::Known(n) => Some(*n),
            _ => None,
        }
    }

    /// True when the size is static.
    pub fn is_known(&self) -> bool {
        matches!(self, Dim::Known(_))
    }

    /// The `dim_param` name when this dim is exactly one named atom.
    pub fn as_param(&self) -> Option<&str> {
        match self {
            Dim::Sym(s) => match &s.0[..] {
                [Term { coeff: 1, atoms }] if atoms.len() == 1 => Some(&atoms[0]),
                _ => None,
            },
            _ => None,
        }
    }

    /// The `dim_param` name when this dim is exactly one atom that names a
    /// size of its own: not a compound atom (a broadcast, quotient,
    /// operation or floor atom, whose operands are other sizes).
    pub fn as_named(&self) -> Option<&str> {
        self.as_param()
            .filter(|a| Dim::compound_operands(a).is_none() && Dim::floor_operands(a).is_none())
    }

    /// The polynomial as `(coefficient, atoms)` monomials (atoms repeated
    /// by their power; no atoms for the constant term), for code that
    /// evaluates the size at run time; `None` for [`Dim::Unknown`].
    pub fn monomials(&self) -> Option<Vec<(i64, Vec<&str>)>> {
        match self {
            Dim::Known(n) => Some(vec![(*n, vec![])]),
            Dim::Sym(s) => Some(
                s.0.iter()
                    .map(|t| (t.coeff, t.atoms.iter().map(|a| &**a).collect()))
                    .collect(),
            ),
            Dim::Unknown => None,
        }
    }

    fn terms(&self) -> Option<Vec<Term>> {
        match self {
            Dim::Known(n) => Some(vec![Term {
                coeff: *n,
                atoms: vec![],
            }]),
            Dim::Sym(s) => Some(s.0.to_vec()),
            Dim::Unknown => None,
        }
    }

    /// True when the dim cannot be negative: a non-negative constant, or a
    /// polynomial with only non-negative coefficients and no floor-quotient
    /// atom (the other atoms are at least 0).
    pub fn is_nonnegative(&self) -> bool {
        match self {
            Dim::Known(n) => *n >= 0,
            // Floor-quotient atoms may be negative (a window over too
            // small an input, which the model's entry refuses).
            Dim::Sym(s) => {
                s.0.iter()
                    .all(|t| t.coeff >= 0 && !t.atoms.iter().any(|a| a.starts_with(FLOOR_ATOM)))
            }
            Dim::Unknown => false,
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Dim) -> Dim {
        let (Some(mut a), Some(b)) = (self.terms(), other.terms()) else {
            return Dim::Unknown;
        };
        a.extend(b);
        canonical(a).unwrap_or(Dim::Unknown)
    }

    /// `self - other`.
    pub fn sub(&self, other: &Dim) -> Dim {
        self.add(&other.scale(-1))
    }

    /// `k * self`.
    pub fn scale(&self, k: i64) -> Dim {
        self.mul(&Dim::Known(k))
    }

    /// `self * other`.
    pub fn mul(&self, other: &Dim) -> Dim {
        let (Some(a), Some(b)) = (self.terms(), other.terms()) else {
            // 0 * anything is 0 even when the other side is unknown.
            return if self == &Dim::Known(0) || other == &Dim::Known(0) {
                Dim::Known(0)
            } else {
                Dim::Unknown
            };
        };
        let mut out = Vec::with_capacity(a.len() * b.len());
        for x in &a {
            for y in &b {
                let Some(coeff) = x.coeff.checked_mul(y.coeff) else {
                    return Dim::Unknown;
                };
                let mut atoms: Vec<Arc<str>> = x.atoms.iter().chain(&y.atoms).cloned().collect();
                atoms.sort();
                out.push(Term { coeff, atoms });
            }
        }
        canonical(out).unwrap_or(Dim::Unknown)
    }

    /// `self / other` when the division is exact as polynomials (every term
    /// of `self` divisible by the monomial `other`); `Unknown` otherwise.
    /// `other` must be a single term (a constant, a dim_param, a product).
    pub fn div_exact(&self, other: &Dim) -> Dim {
        let (Some(a), Some(b)) = (self.terms(), other.terms()) else {
            return Dim::Unknown;
        };
        let [d] = b.as_slice() else {
            return Dim::Unknown;
        };
        if d.coeff == 0 {
            return Dim::Unknown;
        }
        let mut out = Vec::with_capacity(a.len());
        for t in a {
            if t.coeff % d.coeff != 0 {
                return Dim::Unknown;
            }
            let mut atoms = t.atoms.clone();
            for atom in &d.atoms {
                match atoms.iter().position(|x| x == atom) {
                    Some(i) => {
                        atoms.remove(i);
                    }
                    None => return Dim::Unknown,
                }
            }
            out.push(Term {
                coeff: t.coeff / d.coeff,
                atoms,
            });
        }
        canonical(out).unwrap_or(Dim::Unknown)
    }

    /// `floor(self / k)` for a positive constant `k`: exact for static dims
    /// and for polynomials whose coefficients `k` divides; else `Unknown`.
    pub fn floor_div(&self, k: i64) -> Dim {
        match self {
            Dim::Known(n) if k > 0 => Dim::Known(n.div_euclid(k)),
            _ if k == 1 => self.clone(),
            _ if k > 0 => self.div_exact(&Dim::Known(k)),
            _ => Dim::Unknown,
        }
    }

    /// `ceil(self / k)` for a positive constant `k`, under the same rules
    /// as [`Dim::floor_div`].
    pub fn ceil_div(&self, k: i64) -> Dim {
        match self {
            Dim::Known(n) if k > 0 => Dim::Known(-((-n).div_euclid(k))),
            _ => self.floor_div(k),
        }
    }

    /// Two dims that are certainly different sizes (both static and
    /// unequal). Symbolic dims are assumed able to take any value.
    pub fn definitely_ne(&self, other: &Dim) -> bool {
        matches!((self, other), (Dim::Known(a), Dim::Known(b)) if a != b)
    }

    /// Combines what two descriptions of the same dim know: the static or
    /// symbolic one wins over unknown; `None` when both are static and
    /// differ.
    pub fn merge(&self, other: &Dim) -> Option<Dim> {
        match (self, other) {
            (Dim::Known(a), Dim::Known(b)) => (a == b).then(|| self.clone()),
            (Dim::Known(_), _) => Some(self.clone()),
            (_, Dim::Known(_)) => Some(other.clone()),
            (Dim::Sym(_), _) => Some(self.clone()),
            (Dim::Unknown, _) => Some(other.clone()),
        }
    }
}

/// The prefix of a broadcast atom (see [`Dim::broadcast_of`]).
const BROADCAST_ATOM: &str = "bcast(";

impl Dim {
    /// The size of a numpy-style broadcast between two symbolic sizes that
    /// may differ at compile time (`"a"` against `"b"`: which one is 1 is
    /// only known at run time): a new atom `bcast(A,B)` naming the two
    /// sizes (their text forms, in sorted order, so that the atom does not
    /// depend on the operands' order). Its value is `B` when `A` is 1, else
    /// `A`; code that computes it must also check at run time that the two
    /// are equal or one of them is 1 ([`Dim::broadcast_operands`] gives
    /// them back).
    pub fn broadcast_of(a: &Dim, b: &Dim) -> Dim {
        let (mut x, mut y) = (a.to_string(), b.to_string());
        if x > y {
            std::mem::swap(&mut x, &mut y);
        }
        Dim::param(&format!("{BROADCAST_ATOM}{x},{y})"))
    }

    /// The two sizes a broadcast atom made by [`Dim::broadcast_of`] stands
    /// for; `None` for any other atom (a `dim_param`).
    pub fn broadcast_operands(atom: &str) -> Option<(Dim, Dim)> {
        let rest = atom.strip_prefix(BROADCAST_ATOM)?;
        let (a, rest) = parse_dim(rest)?;
        let (b, rest) = parse_dim(rest.strip_prefix(',')?)?;
        (rest == ")").then_some((a, b))
    }
}

/// The prefix of a quotient atom (see [`Dim::quotient_of`]).
const QUOTIENT_ATOM: &str = "div(";

impl Dim {
    /// `self / other` for a division the op requires to be exact (the `-1`
    /// of a Reshape, equal Split parts, a block size): the polynomial
    /// quotient when [`Dim::div_exact`] finds one, else a new atom
    /// `div(A,B)` naming the dividend and the divisor (their text forms),
    /// whose value is `A / B`; code that evaluates it must also check at
    /// run time that `B` divides `A` and is not 0
    /// ([`Dim::quotient_operands`] gives them back). `Unknown` when either
    /// side is, or the divisor is 0.
    pub fn quotient(&self, other: &Dim) -> Dim {
        // The divisor's atoms that divide the dividend cancel first:
        // `B*S*H / (3*B*S)` is `H / 3`.
        let (mut a, mut b) = (self.clone(), other.clone());
        if let Some([(_, atoms)]) = other.monomials().as_deref() {
            for atom in atoms {
                let atom = Dim::param(atom);
                let q = a.div_exact(&atom);
                if q != Dim::Unknown {
                    a = q;
                    b = b.div_exact(&atom);
                }
            }
        }
        match a.div_exact(&b) {
            Dim::Unknown if a != Dim::Unknown && b != Dim::Unknown && b != Dim::Known(0) => {
                Dim::param(&format!("{QUOTIENT_ATOM}{a},{b})"))
            }
            q => q,
        }
    }

    /// The dividend and divisor of a quotient atom made by
    /// [`Dim::quotient`]; `None` for any other atom.
    pub fn quotient_operands(atom: &str) -> Option<(Dim, Dim)> {
        let rest = atom.strip_prefix(QUOTIENT_ATOM)?;
        let (a, rest) = parse_dim(rest)?;
        let (b, rest) = parse_dim(rest.strip_prefix(',')?)?;
        (rest == ")").then_some((a, b))
    }

    /// Every atom of the polynomial (with repeats), `None` for `Unknown`.
    pub fn atoms(&self) -> Option<Vec<&str>> {
        Some(
            self.monomials()?
                .into_iter()
                .flat_map(|(_, atoms)| atoms)
                .collect(),
        )
    }
}

/// An integer operation on sizes that shape arithmetic needs and that is
/// no polynomial: named by an atom `op(A,B)` of [`Dim::operation`], whose
/// value is the operation's exact result, so that the generated code
/// evaluates it with no assumption to check (unlike a quotient atom).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DimOp {
    /// `A / B` truncated toward zero (ONNX's integer `Div`), made only for
    /// operands that are never negative (so the atom never is); a zero
    /// divisor (undefined in ONNX) evaluates as a divisor of 1.
    TruncDiv,
    /// 1 when `A == B`, else 0 (a known boolean of `Equal`).
    Eq,
    /// 1 when `A < B`, else 0 (`Less`, and `Greater`/`Max`/`Min` from it).
    Lt,
}

impl DimOp {
    /// The atom's name before its parenthesized operands.
    fn prefix(self) -> &'static str {
        match self {
            DimOp::TruncDiv => "tdiv(",
            DimOp::Eq => "eq(",
            DimOp::Lt => "lt(",
        }
    }
}

/// The prefix of a floor-quotient atom (see [`Dim::floor_quotient`]).
const FLOOR_ATOM: &str = "floor(";

impl Dim {
    /// `floor(self / k)` for a positive constant `k` (the number of strides
    /// a window takes over a span of symbolic size). The terms whose
    /// coefficients `k` divides, and the whole multiples of `k` in the
    /// constant, come out as a polynomial; what remains (if anything)
    /// becomes an atom `floor(A,k)` whose value is `A` divided by `k`
    /// rounded towards negative infinity, for any sign of `A`, so that no
    /// run-time condition is attached to it ([`Dim::floor_operands`] gives
    /// `A` and `k` back). `Unknown` when `self` is or `k` is not positive.
    pub fn floor_quotient(&self, k: i64) -> Dim {
        let Some(terms) = self.terms() else {
            return Dim::Unknown;
        };
        if k <= 0 {
            return Dim::Unknown;
        }
        let (mut whole, mut rest) = (vec![], vec![]);
        for t in terms {
            if t.atoms.is_empty() {
                whole.push(Term {
                    coeff: t.coeff.div_euclid(k),
                    atoms: vec![],
                });
                rest.push(Term {
                    coeff: t.coeff.rem_euclid(k),
                    atoms: vec![],
                });
            } else if t.coeff % k == 0 {
                whole.push(Term {
                    coeff: t.coeff / k,
                    atoms: t.atoms,
                });
            } else {
                rest.push(t);
            }
        }
        let (Some(whole), Some(rest)) = (canonical(whole), canonical(rest)) else {
            return Dim::Unknown;
        };
        match rest {
            // Only a constant in `[0, k)` remains: its quotient is 0.
            Dim::Known(_) => whole,
            rest => whole.add(&Dim::param(&format!("{FLOOR_ATOM}{rest},{k})"))),
        }
    }

    /// `ceil(self / k)` for a positive constant `k`: `floor((self + k - 1)
    /// / k)` ([`Dim::floor_quotient`]).
    pub fn ceil_quotient(&self, k: i64) -> Dim {
        if k <= 0 {
            return Dim::Unknown;
        }
        self.add(&Dim::Known(k - 1)).floor_quotient(k)
    }

    /// The dividend and the divisor of a floor-quotient atom made by
    /// [`Dim::floor_quotient`]; `None` for any other atom.
    pub fn floor_operands(atom: &str) -> Option<(Dim, i64)> {
        let rest = atom.strip_prefix(FLOOR_ATOM)?;
        let (a, rest) = parse_dim(rest)?;
        let (k, rest) = parse_dim(rest.strip_prefix(',')?)?;
        (rest == ")").then_some((a, k.as_known()?))
    }
}

impl Dim {
    /// `A / B` truncated (ONNX's integer `Div`) for sizes: the polynomial
    /// quotient when [`Dim::div_exact`] finds one, the number when both
    /// are static, else a [`DimOp::TruncDiv`] atom when both operands are
    /// never negative ([`Dim::is_nonnegative`]); `Unknown` otherwise and
    /// for a zero divisor.
    pub fn trunc_div(&self, other: &Dim) -> Dim {
        match (self, other) {
            (_, Dim::Known(0)) | (Dim::Unknown, _) | (_, Dim::Unknown) => Dim::Unknown,
            (Dim::Known(a), Dim::Known(b)) => a.checked_div(*b).map_or(Dim::Unknown, Dim::Known),
            _ => match self.div_exact(other) {
                Dim::Unknown if self.is_nonnegative() && other.is_nonnegative() => {
                    Dim::operation(DimOp::TruncDiv, self, other)
                }
                q => q,
            },
        }
    }

    /// 1 when the two sizes are equal, else 0: decided when their
    /// difference is static, else a [`DimOp::Eq`] atom (operands in text
    /// order, so that `a == b` and `b == a` are the same atom).
    pub fn eq_of(&self, other: &Dim) -> Dim {
        match self.sub(other) {
            Dim::Unknown => Dim::Unknown,
            Dim::Known(d) => Dim::Known(i64::from(d == 0)),
            d if d.is_nonzero() => Dim::Known(0),
            Dim::Sym(_) if self.to_string() > other.to_string() => {
                Dim::operation(DimOp::Eq, other, self)
            }
            Dim::Sym(_) => Dim::operation(DimOp::Eq, self, other),
        }
    }

    /// 1 when `self < other`, else 0: decided when the difference is
    /// static or when `other - self` cannot be negative and is at least 1
    /// (a polynomial with non-negative coefficients and a positive
    /// constant term), else a [`DimOp::Lt`] atom.
    pub fn lt_of(&self, other: &Dim) -> Dim {
        match other.sub(self) {
            Dim::Unknown => Dim::Unknown,
            Dim::Known(d) => Dim::Known(i64::from(d > 0)),
            d if d.is_nonzero() && d.is_nonnegative() => Dim::Known(1),
            d if d.scale(-1).is_nonnegative() => Dim::Known(0),
            Dim::Sym(_) => Dim::operation(DimOp::Lt, self, other),
        }
    }

    /// True when the dim is at least 1, or at most -1, for every value of
    /// its atoms (all of which are at least 0): non-negative (or
    /// non-positive) coefficients and a non-zero constant term.
    fn is_nonzero(&self) -> bool {
        let c = self.constant_term();
        (c > 0 && self.is_nonnegative()) || (c < 0 && self.scale(-1).is_nonnegative())
    }

    /// The polynomial's constant term (0 for `Unknown`).
    fn constant_term(&self) -> i64 {
        self.terms()
            .and_then(|t| t.into_iter().find(|t| t.atoms.is_empty()))
            .map_or(0, |t| t.coeff)
    }

    /// The atom `op(A,B)`.
    fn operation(op: DimOp, a: &Dim, b: &Dim) -> Dim {
        Dim::param(&format!("{}{a},{b})", op.prefix()))
    }

    /// The operation and operands an atom made by [`Dim::trunc_div`],
    /// [`Dim::eq_of`] or [`Dim::lt_of`] stands for; `None` for any other
    /// atom.
    pub fn operation_operands(atom: &str) -> Option<(DimOp, Dim, Dim)> {
        [DimOp::TruncDiv, DimOp::Eq, DimOp::Lt]
            .into_iter()
            .find_map(|op| {
                let rest = atom.strip_prefix(op.prefix())?;
                let (a, rest) = parse_dim(rest)?;
                let (b, rest) = parse_dim(rest.strip_prefix(',')?)?;
                (rest == ")").then_some((op, a, b))
            })
    }

    /// Whether the size can be evaluated from the named sizes `known`
    /// accepts: every atom is one of them, or a compound or floor-quotient
    /// atom over such sizes. `false` for [`Dim::Unknown`].
    pub fn evaluable_from(&self, known: &impl Fn(&str) -> bool) -> bool {
        self.monomials().is_some_and(|terms| {
            terms.iter().all(|(_, atoms)| {
                atoms.iter().all(|&a| {
                    known(a)
                        || Dim::compound_operands(a).is_some_and(|(x, y)| {
                            x.evaluable_from(known) && y.evaluable_from(known)
                        })
                        || Dim::floor_operands(a).is_some_and(|(x, _)| x.evaluable_from(known))
                })
            })
        })
    }

    /// The named sizes the dim is computed from: its `dim_param` atoms and
    /// those inside its compound and floor-quotient atoms.
    pub fn named_leaves(&self) -> Vec<String> {
        let mut out = vec![];
        for atom in self.atoms().into_iter().flatten() {
            if let Some((a, b)) = Dim::compound_operands(atom) {
                out.extend(a.named_leaves());
                out.extend(b.named_leaves());
            } else if let Some((a, _)) = Dim::floor_operands(atom) {
                out.extend(a.named_leaves());
            } else {
                out.push(atom.to_string());
            }
        }
        out
    }

    /// The operands of any compound atom (a broadcast, a quotient or an
    /// operation); `None` for a `dim_param`.
    pub fn compound_operands(atom: &str) -> Option<(Dim, Dim)> {
        Dim::broadcast_operands(atom)
            .or_else(|| Dim::quotient_operands(atom))
            .or_else(|| Dim::operation_operands(atom).map(|(_, a, b)| (a, b)))
    }

    /// The maximum of two sizes: `a + lt(a,b)*(b-a)`.
    pub fn max_of(&self, other: &Dim) -> Dim {
        self.add(&self.lt_of(other).mul(&other.sub(self)))
    }

    /// The minimum of two sizes: `b + lt(a,b)*(a-b)`.
    pub fn min_of(&self, other: &Dim) -> Dim {
        other.add(&self.lt_of(other).mul(&self.sub(other)))
    }

    /// `c ? a : b` for a 0/1 dim `c`: `c*a + (1-c)*b` (exactly `a` or `b`
    /// when `c` is static, whatever the other one is).
    pub fn select(c: &Dim, a: &Dim, b: &Dim) -> Dim {
        match c {
            Dim::Known(0) => b.clone(),
            Dim::Known(_) => a.clone(),
            _ => c.mul(a).add(&Dim::Known(1).sub(c).mul(b)),
        }
    }

    /// `floor(self · scale)` for a float `scale` (Resize's output size,
    /// computed in f64 as the reference does): the number for a static
    /// size, the polynomial for an integral scale, else `Unknown`.
    pub fn floor_scaled(&self, scale: f64) -> Dim {
        match self {
            Dim::Known(n) => Dim::Known((*n as f64 * scale).floor() as i64),
            _ if scale.fract() == 0.0 && scale >= 0.0 && scale < i64::MAX as f64 => {
                self.scale(scale as i64)
            }
            _ => Dim::Unknown,
        }
    }

    /// The number of positions of a window of `extent` (the dilated
    /// kernel, static or symbolic) sliding by `stride` over `self` padded by `pads` (before,
    /// after): `floor((d + pads − extent) / stride) + 1`, or with
    /// `ceil_mode` the `ceil` of it, dropping a last window that would
    /// start in the end padding. On a symbolic size the quotient is a
    /// floor-quotient atom ([`Dim::floor_quotient`]) and the `ceil_mode`
    /// correction is left out where it provably never applies (end
    /// padding plus stride at most the extent), else a comparison atom
    /// ([`Dim::lt_of`]) decides it at run time.
    /// `pads` and `extent` must not overflow when added.
    pub fn window_output(
        &self,
        extent: &Dim,
        stride: i64,
        pads: (i64, i64),
        ceil_mode: bool,
    ) -> Dim {
        let (pb, pe) = pads;
        let span = self.add(&Dim::Known(pb + pe)).sub(extent);
        let one = Dim::Known(1);
        if !ceil_mode {
            return span.floor_quotient(stride).add(&one);
        }
        let out = span.ceil_quotient(stride).add(&one);
        // The last window must start inside the input or its begin padding.
        match out.sub(&one).scale(stride).sub(&self.add(&Dim::Known(pb))) {
            Dim::Known(k) if k >= 0 => out.sub(&one),
            Dim::Known(_) => out,
            // `(out − 1)·s < span + s = d + pb + pe − extent + s`: the last
            // window starts inside `d + pb` when `pe + s ≤ extent`.
            _ if extent.sub(&Dim::Known(pe + stride)).is_nonnegative() => out,
            // Else dropped at run time: `out − 1 + ((out − 1)·s < d + pb)`.
            _ => {
                let last = out.sub(&one);
                last.add(&last.scale(stride).lt_of(&self.add(&Dim::Known(pb))))
            }
        }
    }
}

/// Parses the text form of a dim (as [`fmt::Display`] writes it: a number,
/// a quoted atom, or a parenthesized polynomial) at the start of `s`;
/// returns it and the rest of `s`.
fn parse_dim(s: &str) -> Option<(Dim, &str)> {
    if let Some(mut rest) = s.strip_prefix('(') {
        let mut sum = Dim::Known(0);
        loop {
            let negative = rest.starts_with('-');
            rest = rest.strip_prefix(['-', '+']).unwrap_or(rest);
            let mut term = Dim::Known(1);
            loop {
                let (factor, after) = parse_factor(rest)?;
                term = term.mul(&factor);
                rest = after;
                match rest.strip_prefix('*') {
                    Some(after) => rest = after,
                    None => break,
                }
            }
            sum = if negative {
                sum.sub(&term)
            } else {
                sum.add(&term)
            };
            if let Some(after) = rest.strip_prefix(')') {
                return Some((sum, after));
            }
            if !rest.starts_with(['+', '-']) {
                return None;
            }
        }
    }
    parse_factor(s)
}

/// A number or a quoted atom at the start of `s`, and the rest of `s`.
fn parse_factor(s: &str) -> Option<(Dim, &str)> {
    if let Some(body) = s.strip_prefix('"') {
        let mut bytes = vec![];
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    let name = String::from_utf8(bytes).ok()?;
                    return Some((Dim::param(&name), &body[i + 1..]));
                }
                '\\' => {
                    let (j, next) = chars.next()?;
                    if next == '"' || next == '\\' {
                        bytes.push(next as u8);
                    } else {
                        let hex = body.get(j..j + 2)?;
                        bytes.push(u8::from_str_radix(hex, 16).ok()?);
                        chars.next()?;
                    }
                }
                c => bytes.extend(c.encode_utf8(&mut [0u8; 4]).bytes()),
            }
        }
        return None;
    }
    // A negative constant prints with its sign (`eq("N",-1)`).
    let digits = s.strip_prefix('-').unwrap_or(s);
    let end = s.len() - digits.len()
        + digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
    let n = s[..end].parse().ok()?;
    Some((Dim::Known(n), &s[end..]))
}

impl From<i64> for Dim {
    fn from(n: i64) -> Dim {
        Dim::Known(n)
    }
}

/// Writes `s` as a double-quoted string with `\"`, `\\` and `\xx` escapes
/// for non-printable bytes (the text form's string syntax).
pub fn write_quoted(f: &mut impl fmt::Write, s: &[u8]) -> fmt::Result {
    f.write_char('"')?;
    for chunk in s.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        write!(f, "\\{b:02x}")?;
                    }
                }
                c => f.write_char(c)?,
            }
        }
        for b in chunk.invalid() {
            write!(f, "\\{b:02x}")?;
        }
    }
    f.write_char('"')
}

impl fmt::Display for SymDim {
    /// A lone atom prints as `"name"`; anything else as a parenthesized
    /// polynomial such as `(2*"seq"+1)` or `("batch"*"seq")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [Term { coeff: 1, atoms }] = &self.0[..] {
            if atoms.len() == 1 {
                return write_quoted(f, atoms[0].as_bytes());
            }
        }
        f.write_char('(')?;
        for (i, t) in self.0.iter().enumerate() {
            if t.coeff < 0 {
                f.write_char('-')?;
            } else if i > 0 {
                f.write_char('+')?;
            }
            // The magnitude as unsigned: `-i64::MIN` does not fit an i64.
            let c = t.coeff.unsigned_abs();
            let mut first = true;
            if c != 1 || t.atoms.is_empty() {
                write!(f, "{c}")?;
                first = false;
            }
            for a in &t.atoms {
                if !first {
                    f.write_char('*')?;
                }
                write_quoted(f, a.as_bytes())?;
                first = false;
            }
        }
        f.write_char(')')
    }
}

use std::fmt::Write as _;

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Known(n) => write!(f, "{n}"),
            Dim::Sym(s) => write!(f, "{s}"),
            Dim::Unknown => f.write_char('?'),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_atoms_name_their_operands() {
        let a = Dim::param("in0_d0");
        let b = Dim::param("in1_d0")
            .mul(&Dim::param("x y"))
            .add(&Dim::Known(1));
        let c = Dim::param("q\"\\\u{1}").sub(&Dim::Known(2));
        let ab = Dim::broadcast_of(&a, &b);
        assert_eq!(ab, Dim::broadcast_of(&b, &a));
        let nested = Dim::broadcast_of(&ab, &c);
        for (x, y) in [(&a, &b), (&ab, &c)] {
            let atom = Dim::broadcast_of(x, y);
            let (p, q) = Dim::broadcast_operands(atom.as_param().unwrap()).unwrap();
            assert!((&p, &q) == (x, y) || (&p, &q) == (y, x), "{atom}");
        }
        assert!(nested.as_param().is_some());
        assert_eq!(Dim::broadcast_operands("in0_d0"), None);
    }

    #[test]
    fn quotient_atoms_name_their_operands() {
        let c = Dim::param("in0_d2");
        let q = c.quotient(&Dim::Known(3));
        assert_eq!(q.to_string(), r#""div(\"in0_d2\",3)""#);
        assert_eq!(
            Dim::quotient_operands(q.as_param().unwrap()),
            Some((c.clone(), Dim::Known(3)))
        );
        let bs = Dim::param("b").mul(&c);
        assert_eq!(
            bs.quotient(&c),
            Dim::param("b"),
            "exact division needs no atom"
        );
        let nested = bs.add(&Dim::Known(1)).quotient(&Dim::param("b").scale(2));
        let (a, b) = Dim::quotient_operands(nested.as_param().unwrap()).unwrap();
        assert_eq!((a, b), (bs.add(&Dim::Known(1)), Dim::param("b").scale(2)));
        assert_eq!(c.quotient(&Dim::Known(0)), Dim::Unknown);
        let b = Dim::param("b");
        assert_eq!(b.mul(&c).quotient(&b.scale(3)), q, "common atoms cancel");
        assert_eq!(Dim::Unknown.quotient(&Dim::Known(2)), Dim::Unknown);
        assert_eq!(Dim::quotient_operands("in0_d2"), None);
        assert_eq!(q.add(&c).atoms().unwrap().len(), 2);
    }

    #[test]
    fn floor_quotients_split_off_whole_multiples() {
        let h = Dim::param("in0_d2");
        let w = Dim::param("w");
        // (H + 1) / 2: no term divides, one atom.
        let q = h.add(&Dim::Known(1)).floor_quotient(2);
        assert_eq!(q.to_string(), r#""floor((\"in0_d2\"+1),2)""#);
        assert_eq!(
            Dim::floor_operands(q.as_param().unwrap()),
            Some((h.add(&Dim::Known(1)), 2))
        );
        // (H − 3) / 2 = floor((H + 1) / 2) − 2: the constant is reduced
        // into [0, k).
        assert_eq!(
            h.sub(&Dim::Known(3)).floor_quotient(2),
            q.sub(&Dim::Known(2))
        );
        // (2W + H + 5) / 2 = W + 2 + floor((H + 1) / 2).
        let mixed = w.scale(2).add(&h).add(&Dim::Known(5)).floor_quotient(2);
        let atom = h.add(&Dim::Known(1)).floor_quotient(2);
        assert_eq!(mixed, w.add(&Dim::Known(2)).add(&atom));
        // Exact and static cases need no atom.
        assert_eq!(w.scale(4).add(&Dim::Known(3)).floor_quotient(4), w);
        assert_eq!(
            w.scale(2).sub(&Dim::Known(1)).floor_quotient(2),
            w.sub(&Dim::Known(1))
        );
        assert_eq!(Dim::Known(-3).floor_quotient(2), Dim::Known(-2));
        assert_eq!(h.floor_quotient(1), h);
        assert_eq!(h.floor_quotient(0), Dim::Unknown);
        assert_eq!(Dim::Unknown.floor_quotient(2), Dim::Unknown);
        // ceil(H / 3) = floor((H + 2) / 3); ceil(7 / 2) = 4.
        assert_eq!(h.ceil_quotient(3), h.add(&Dim::Known(2)).floor_quotient(3));
        assert_eq!(Dim::Known(7).ceil_quotient(2), Dim::Known(4));
        // Nested atoms round-trip through the text form.
        let nested = q.add(&Dim::Known(2)).floor_quotient(3);
        let (a, k) = Dim::floor_operands(nested.as_param().unwrap()).unwrap();
        assert_eq!((a, k), (q.add(&Dim::Known(2)), 3));
        assert_eq!(Dim::floor_operands("in0_d2"), None);
        assert_eq!(Dim::quotient_operands(q.as_param().unwrap()), None);
    }

    #[test]
    fn polynomial_arithmetic_is_canonical() {
        let b = Dim::param("batch");
        let s = Dim::param("seq");
        let bs = b.mul(&s);
        assert_eq!(bs, s.mul(&b));
        assert_eq!(bs.to_string(), r#"("batch"*"seq")"#);
        assert_eq!(bs.scale(768).div_exact(&Dim::Known(768)), bs);
        assert_eq!(bs.div_exact(&s), b);
        assert_eq!(s.add(&s).to_string(), r#"(2*"seq")"#);
        assert_eq!(s.add(&Dim::Known(1)).to_string(), r#"("seq"+1)"#);
        assert_eq!(s.sub(&s), Dim::Known(0));
        assert_eq!(s.sub(&Dim::Known(1)).to_string(), r#"("seq"-1)"#);
        assert_eq!(s.as_param(), Some("seq"));
        assert_eq!(b.div_exact(&s), Dim::Unknown);
        assert_eq!(s.add(&Dim::Known(1)).floor_div(2), Dim::Unknown);
        assert_eq!(Dim::Known(7).ceil_div(2), Dim::Known(4));
        assert_eq!(Dim::Known(7).floor_div(2), Dim::Known(3));
        assert_eq!(Dim::Unknown.mul(&Dim::Known(0)), Dim::Known(0));
    }

    #[test]
    fn comparisons_decide_what_holds_for_every_size() {
        let n = Dim::param("N");
        let m = Dim::param("M");
        let one = Dim::Known(1);
        // N is never -1; N-1 is when N is 0, so that stays an atom.
        assert_eq!(n.eq_of(&Dim::Known(-1)), Dim::Known(0));
        assert_eq!(n.eq_of(&n), Dim::Known(1));
        assert_eq!(n.add(&one).eq_of(&Dim::Known(0)), Dim::Known(0));
        let maybe = n.sub(&one).eq_of(&Dim::Known(-1));
        assert!(maybe.as_param().is_some(), "{maybe}");
        assert_eq!(
            Dim::operation_operands(maybe.as_param().unwrap())
                .unwrap()
                .0,
            DimOp::Eq
        );
        assert_eq!(n.eq_of(&m), m.eq_of(&n), "operands in a canonical order");
        assert_eq!(n.lt_of(&n.add(&one)), Dim::Known(1));
        assert_eq!(n.add(&m).lt_of(&n), Dim::Known(0));
        assert_eq!(Dim::Known(-1).lt_of(&n), Dim::Known(1));
        assert_eq!(n.lt_of(&Dim::Known(0)), Dim::Known(0));
        let lt = n.lt_of(&m);
        let (op, a, b) = Dim::operation_operands(lt.as_param().unwrap()).unwrap();
        assert_eq!((op, a, b), (DimOp::Lt, n.clone(), m.clone()));
        assert_eq!(n.max_of(&n.add(&one)), n.add(&one));
        assert_eq!(n.min_of(&n.add(&one)), n);
        assert_eq!(n.lt_of(&Dim::Unknown), Dim::Unknown);
    }

    #[test]
    fn truncating_division_of_sizes() {
        let n = Dim::param("N");
        let two = Dim::Known(2);
        assert_eq!(
            n.scale(4).trunc_div(&two),
            n.scale(2),
            "a polynomial quotient"
        );
        assert_eq!(Dim::Known(-7).trunc_div(&two), Dim::Known(-3));
        assert_eq!(n.trunc_div(&Dim::Known(0)), Dim::Unknown);
        let q = n.trunc_div(&two);
        assert_eq!(q.to_string(), r#""tdiv(\"N\",2)""#);
        let (op, a, b) = Dim::operation_operands(q.as_param().unwrap()).unwrap();
        assert_eq!((op, a, b), (DimOp::TruncDiv, n.clone(), two.clone()));
        assert!(q.is_nonnegative());
        assert_eq!(
            n.sub(&Dim::Known(1)).trunc_div(&two),
            Dim::Unknown,
            "N-1 may be negative"
        );
        let nested = Dim::operation_operands(
            n.sub(&Dim::Known(1))
                .eq_of(&Dim::Known(-1))
                .as_param()
                .unwrap(),
        );
        assert_eq!(
            nested.map(|(_, _, b)| b),
            Some(Dim::Known(-1)),
            "negative constants parse back"
        );
        assert_eq!(
            Dim::compound_operands(q.as_param().unwrap()),
            Some((n.clone(), two))
        );
        assert_eq!(Dim::compound_operands("N"), None);
    }

    #[test]
    fn select_is_a_polynomial_over_the_condition() {
        let n = Dim::param("N");
        let m = Dim::param("M");
        let c = n.eq_of(&m);
        assert_eq!(Dim::select(&Dim::Known(1), &n, &Dim::Unknown), n);
        assert_eq!(Dim::select(&Dim::Known(0), &Dim::Unknown, &m), m);
        let s = Dim::select(&c, &n, &Dim::Known(1));
        // c*N + 1 - c
        assert_eq!(s, c.mul(&n).add(&Dim::Known(1)).sub(&c));
        assert_eq!(
            Dim::select(&c, &n, &n),
            n,
            "equal branches need no condition"
        );
    }

    #[test]
    fn merge_prefers_knowledge() {
        assert_eq!(Dim::Unknown.merge(&Dim::Known(3)), Some(Dim::Known(3)));
        assert_eq!(Dim::param("n").merge(&Dim::Known(3)), Some(Dim::Known(3)));
        assert_eq!(Dim::Known(2).merge(&Dim::Known(3)), None);
    }

    #[test]
    fn quoting_escapes() {
        let mut s = String::new();
        write_quoted(&mut s, b"a\"b\\c\n\xff").unwrap();
        assert_eq!(s, r#""a\"b\\c\0a\ff""#);
    }
}
