//! MaxUnpool (9–22) with symbolic sizes: `X` scattered into zeros at the
//! flat indices `I` gives, counted in the shape MaxPool's input had
//! (`(in − 1)·stride − pads + kernel` per spatial dim, the "inferred"
//! shape); an output larger than that (`output_shape`) pads at the end,
//! as the reference does.
//!
//! A static MaxUnpool is expanded by the dialect (`decompose::pool`,
//! ScatterElements into zeros); here one loop over `X` stores each value
//! at the position its index names in the inferred dims, which is the same
//! position in the padded output. An index outside the inferred shape is
//! skipped. The entry checks `I`'s dims against `X`'s, the output's batch
//! and channels, an output at least as large as the inferred shape, and
//! `output_shape`'s entries against the output's dims.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model};

use crate::builder::{elem_of, CmpiPredicate};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{entries_are, equal, position};
use crate::symbols::{sized_dims, Check};

/// The window of MaxUnpool: kernel, strides and pads (begins then ends)
/// per spatial dim.
struct Window {
    kernel: Vec<i64>,
    strides: Vec<i64>,
    pads: Vec<i64>,
}

impl Window {
    /// The attributes of `data` for `spatial` dims, when consistent.
    fn of(data: &OpData, spatial: usize) -> Option<Window> {
        let a = &data.attrs;
        let kernel = a.ints("kernel_shape")?.to_vec();
        let strides = a.ints("strides").map_or(vec![1; spatial], <[i64]>::to_vec);
        let pads = a.ints("pads").map_or(vec![0; 2 * spatial], <[i64]>::to_vec);
        (kernel.len() == spatial && strides.len() == spatial && pads.len() == 2 * spatial)
            .then_some(Window {
                kernel,
                strides,
                pads,
            })
    }

    /// How much spatial dim `i` of the inferred shape exceeds
    /// `(in − 1)·stride`: `kernel − pads`.
    fn extra(&self, i: usize) -> i64 {
        self.kernel[i] - self.pads[i] - self.pads[self.kernel.len() + i]
    }
}

/// The entry's checks of MaxUnpool (module docs).
pub(super) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let x = sized_dims(model, data.inputs[0])?;
    let indices = sized_dims(model, data.inputs[1])?;
    let y = sized_dims(model, data.results[0])?;
    let spatial = x
        .len()
        .checked_sub(2)
        .filter(|&s| s > 0)
        .ok_or("an input of rank below 3")?;
    let w = Window::of(data, spatial).ok_or("a window of another rank than the input")?;
    if indices.len() != x.len() || y.len() != x.len() {
        return Err("indices or an output of another rank than the input");
    }
    let mut out = vec![];
    for (a, b) in x.iter().zip(&indices) {
        equal(&mut out, a, b);
    }
    equal(&mut out, &x[0], &y[0]);
    equal(&mut out, &x[1], &y[1]);
    for i in 0..spatial {
        let inferred = x[2 + i]
            .sub(&Dim::Known(1))
            .scale(w.strides[i])
            .add(&Dim::Known(w.extra(i)));
        let room = y[2 + i].sub(&inferred);
        if room != Dim::Known(0) {
            out.push(Check::AtLeast(room, 0));
        }
    }
    if let Some(shape) = data.inputs.get(2).copied().flatten() {
        let expected: Vec<(usize, Dim)> = y.iter().cloned().enumerate().collect();
        entries_are(model, shape, y.len(), &expected, &mut out)?;
    }
    Ok(out)
}

/// Lowers MaxUnpool as one loop over the input (module docs).
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let (x, indices) = (data.inputs[0].expect("X"), data.inputs[1].expect("I"));
    let y = data.results[0].expect("output");
    let ((xd, elem), (id, _), (yd, _)) = (kb.shape(x)?, kb.shape(indices)?, kb.shape(y)?);
    let spatial = xd.len().saturating_sub(2);
    let w = Window::of(&data, spatial)
        .filter(|_| spatial > 0 && yd.len() == xd.len() && id.len() == xd.len() && elem.is_float())
        .ok_or_else(|| kb.unsupported(op, "a window, indices or output of another rank"))?;
    let (xt, it) = (kb.tensor(x), kb.tensor(indices));
    let init = kb.init(y)?;
    let e = kb.e;
    let zero = e.f(elem_of(init), 0.0);
    let init = kb.filled(zero, init);
    let e = kb.e;
    let xs: Vec<MValue> = e.sizes_of(xt, &xd).iter().map(|s| s.value(&e)).collect();
    let mut inferred = xs[..2].to_vec();
    for (i, &n) in xs[2..].iter().enumerate() {
        let stretched = e.muli(e.subi(n, e.index(1)), e.index(w.strides[i]));
        inferred.push(e.addi(stretched, e.index(w.extra(i))));
    }
    let (zero, one) = (e.index(0), e.index(1));
    let total = inferred.iter().fold(one, |acc, &s| e.muli(acc, s));
    let count = xs.iter().fold(one, |acc, &s| e.muli(acc, s));
    let i64t = e.int_type(64);
    let out = e.for_loop(zero, count, &[init], |le, r, c| {
        let at = position(&le, r, &xs);
        let flat = le.extract(it, &at);
        let inside = le.andi(
            le.cmpi(CmpiPredicate::Sge, flat, le.i(i64t, 0)),
            le.cmpi(CmpiPredicate::Slt, flat, le.index_cast(total, i64t)),
        );
        // An index outside is stored nowhere: at 0, the value kept.
        let flat = le.select(
            inside,
            le.index_cast(flat, melior::ir::Type::index(le.cx)),
            zero,
        );
        let to = position(&le, flat, &inferred);
        let v = le.select(inside, le.extract(xt, &at), le.extract(c[0], &to));
        vec![le.insert(v, c[0], &to)]
    });
    kb.define(y, out[0]);
    Ok(())
}
