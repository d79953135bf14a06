//! f64 coordinate arithmetic inside a generic's body, for the ops that
//! sample an input at computed coordinates (the vision family, Col2Im,
//! CenterCropPad): the precision of the reference implementations.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ElemType;

use crate::builder::{elem_of, CmpfPredicate, Emitter, Size};

/// f64 scalar arithmetic inside a generic's body.
#[derive(Clone, Copy)]
pub(crate) struct F<'c, 'b> {
    /// The body's emitter.
    pub e: Emitter<'c, 'b>,
}

impl<'c, 'b> F<'c, 'b> {
    pub(crate) fn ty(self) -> Type<'c> {
        Type::float64(self.e.cx)
    }
    pub(crate) fn c(self, v: f64) -> MValue<'c, 'b> {
        self.e.f(self.ty(), v)
    }
    pub(crate) fn add(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.addf(a, b)
    }
    pub(crate) fn sub(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.subf(a, b)
    }
    pub(crate) fn mul(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.mulf(a, b)
    }
    pub(crate) fn div(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.divf(a, b)
    }
    pub(crate) fn min(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.minimumf(a, b)
    }
    pub(crate) fn max(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.maximumf(a, b)
    }
    pub(crate) fn floor(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.floor(a)
    }
    pub(crate) fn ceil(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.ceil(a)
    }
    pub(crate) fn abs(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.absf(a)
    }
    /// `arith.cmpf`.
    pub(crate) fn cmp(
        self,
        pred: CmpfPredicate,
        a: MValue<'c, 'b>,
        b: MValue<'c, 'b>,
    ) -> MValue<'c, 'b> {
        self.e.cmpf(pred, a, b)
    }
    pub(crate) fn or(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.ori(a, b)
    }
    /// An index (a loop index, a run-time size) as f64.
    pub(crate) fn of_index(self, i: MValue<'c, '_>) -> MValue<'c, 'b> {
        let i64t = self.e.int_type(64);
        let i = self.e.index_cast(i, i64t);
        self.e.sitofp(i, self.ty())
    }
    /// A size plus `offset` as f64: a constant for a static size, else the
    /// run-time value (computed outside the body) converted.
    pub(crate) fn size(self, s: Size<'c, '_>, offset: f64) -> MValue<'c, 'b> {
        match s {
            Size::Static(n) => self.c(n as f64 + offset),
            Size::Dynamic(v) if offset == 0.0 => self.of_index(v),
            Size::Dynamic(v) => self.add(self.of_index(v), self.c(offset)),
        }
    }
    /// An integral f64 as an `index` clamped to `[0, dim)`.
    pub(crate) fn clamp_index(self, v: MValue<'c, 'b>, dim: Size<'c, '_>) -> MValue<'c, 'b> {
        let v = self.max(self.min(v, self.size(dim, -1.0)), self.c(0.0));
        let i64t = self.e.int_type(64);
        let i = self.e.fptosi(v, i64t);
        self.e.index_cast(i, Type::index(self.e.cx))
    }
    /// Whether an integral f64 lies in `[0, dim)`.
    pub(crate) fn inside(self, v: MValue<'c, 'b>, dim: Size<'c, '_>) -> MValue<'c, 'b> {
        self.inside_range(v, self.c(0.0), self.size(dim, -1.0))
    }
    /// Whether `v` lies in `[lo, hi]`.
    pub(crate) fn inside_range(
        self,
        v: MValue<'c, 'b>,
        lo: MValue<'c, 'b>,
        hi: MValue<'c, 'b>,
    ) -> MValue<'c, 'b> {
        let above = self.cmp(CmpfPredicate::Oge, v, lo);
        let below = self.cmp(CmpfPredicate::Ole, v, hi);
        self.e.andi(above, below)
    }
    /// A float element (of any width) as f64.
    pub(crate) fn extend(self, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
        if elem_of_scalar(v) == self.ty() {
            v
        } else {
            self.e.extf(v, self.ty())
        }
    }
    /// An integer element as f64.
    pub(crate) fn of_int(self, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.sitofp(v, self.ty())
    }
    /// An f64 as the float element type `ty`.
    pub(crate) fn narrow(self, v: MValue<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
        if ty == self.ty() {
            v
        } else {
            self.e.truncf(v, ty)
        }
    }
    /// `tensor.extract t[idx…]`.
    pub(crate) fn extract(self, t: MValue<'c, '_>, idx: &[MValue<'c, 'b>]) -> MValue<'c, 'b> {
        self.e.extract(t, idx)
    }
    /// Element `i` of a rank-1 tensor as f64 (float or integer elements).
    pub(crate) fn element(self, t: MValue<'c, '_>, i: usize) -> MValue<'c, 'b> {
        let v = self.extract(t, &[self.e.index(i as i64)]);
        if melior::ir::r#type::IntegerType::try_from(elem_of(t)).is_ok() {
            self.of_int(v)
        } else {
            self.extend(v)
        }
    }
}

/// Whether `elem` is a float type the image ops compute on.
pub(crate) fn sampled_float(elem: ElemType) -> bool {
    matches!(
        elem,
        ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64
    )
}

/// The type of a scalar value.
pub(crate) fn elem_of_scalar<'c>(v: MValue<'c, '_>) -> Type<'c> {
    use melior::ir::ValueLike;
    v.r#type()
}

/// The cubic convolution kernel with coefficient `a` at distance `t ≥ 0`:
/// `(a+2)t³ − (a+3)t² + 1` within 1, `at³ − 5at² + 8at − 4a` within 2,
/// else 0.
pub(crate) fn cubic_weight<'c, 'b>(f: F<'c, 'b>, t: MValue<'c, 'b>, a: f64) -> MValue<'c, 'b> {
    let t2 = f.mul(t, t);
    let t3 = f.mul(t2, t);
    let near = f.add(
        f.sub(f.mul(f.c(a + 2.0), t3), f.mul(f.c(a + 3.0), t2)),
        f.c(1.0),
    );
    let far = f.sub(
        f.add(
            f.sub(f.mul(f.c(a), t3), f.mul(f.c(5.0 * a), t2)),
            f.mul(f.c(8.0 * a), t),
        ),
        f.c(4.0 * a),
    );
    let w =
        f.e.select(f.cmp(CmpfPredicate::Ole, t, f.c(1.0)), near, far);
    f.e.select(f.cmp(CmpfPredicate::Olt, t, f.c(2.0)), w, f.c(0.0))
}

/// Advances `pick` (one tap per axis, `len(axis)` taps each) to the next
/// combination in odometer order; false once every combination was seen.
pub(crate) fn next_pick(pick: &mut [usize], len: impl Fn(usize) -> usize) -> bool {
    for a in (0..pick.len()).rev() {
        pick[a] += 1;
        if pick[a] < len(a) {
            return true;
        }
        pick[a] = 0;
    }
    false
}
