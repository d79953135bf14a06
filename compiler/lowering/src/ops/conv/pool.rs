//! The pools: MaxPool (and its `Indices`), AveragePool, LpPool and
//! their Global forms, windows reducing with max, a count-divided sum or
//! `Σ |x|^p`.

use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{OpKind, Value};

use super::window::{
    fill, read_window, window_exprs, window_positions, work, Extents, Loops, Window,
};
use crate::builder::{generic, projection, CmpfPredicate, CmpiPredicate, Emitter, Size};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;

/// The reduction a pooling op computes.
#[derive(Copy, Clone, PartialEq)]
enum Pool {
    Max,
    Average,
    Lp(i64),
}

/// Lowers MaxPool, AveragePool, LpPool and their Global forms.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    use OpKind::{AveragePool, GlobalAveragePool, GlobalLpPool, GlobalMaxPool, MaxPool};
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    if xd.len() < 3 {
        return Err(kb.unsupported(op, "pooling needs spatial dims"));
    }
    let pool = match data.kind {
        MaxPool | GlobalMaxPool => Pool::Max,
        AveragePool | GlobalAveragePool => Pool::Average,
        _ => Pool::Lp(data.attrs.int("p").unwrap_or(2)),
    };
    if !elem.is_float() && pool != Pool::Max {
        return Err(kb.unsupported(op, "integer pooling other than max"));
    }
    let r = xd.len() - 2;
    let w = match data.kind {
        GlobalAveragePool | GlobalMaxPool | GlobalLpPool => Window {
            kernel: xd[2..].to_vec(),
            strides: vec![1; r],
            dilations: vec![1; r],
            begin: vec![0; r],
            end: vec![0; r],
            input: xd[2..].to_vec(),
            output: yd[2..].to_vec(),
            same: None,
            ceil_mode: false,
        },
        _ => {
            let Some(kernel) = data.attrs.ints("kernel_shape") else {
                return Err(kb.unsupported(op, "kernel_shape is required"));
            };
            Window::read(kb, op, kernel.to_vec(), &xd[2..], &yd[2..])?
        }
    };
    if w.kernel.len() != r {
        return Err(kb.unsupported(op, "kernel_shape of the wrong length"));
    }
    if let Some(indices) = data.results.get(1).copied().flatten() {
        return max_pool_with_indices(kb, op, &w, indices);
    }
    let e = kb.e;
    let init = kb.init(y)?;
    let int_identity = (!elem.is_float()).then(|| (elem.is_signed_int(), elem.bit_width()));
    let identity_value = match pool {
        Pool::Max => f64::NEG_INFINITY,
        _ => 0.0,
    };
    let init = fill(kb, init, yd.len(), Some(identity_value), None, int_identity);
    let mut loops = Loops::new(e.cx);
    let dn = loops.add(false);
    let dc = loops.add(false);
    let o_dims: Vec<usize> = (0..r).map(|_| loops.add(false)).collect();
    let k_dims: Vec<usize> = (0..r).map(|_| loops.add(true)).collect();
    let mut out_dims = vec![dn, dc];
    out_dims.extend(&o_dims);
    let out_map = loops.dims(out_dims);
    // AveragePool's divisor: one per output position, constant when every
    // window covers the same number of counted positions.
    // Over symbolic sizes: the kernel's size where no window leaves the
    // input (a run-time product for a global pool), else counted per
    // position with run-time bounds.
    let include_pad = data.attrs.int("count_include_pad").unwrap_or(0) != 0;
    let ext = w.extents(kb, x, y, None)?;
    let bounds = bounds_of(e, &ext, include_pad);
    let leaves = w.leaves_input();
    let kernel_sizes: Vec<Size> = match data.kind {
        GlobalAveragePool | GlobalMaxPool | GlobalLpPool => ext.input.clone(),
        _ => w.kernel.iter().map(|&k| Size::Static(k)).collect(),
    };
    let uniform_count = if w.is_static() {
        (0..r)
            .map(|i| {
                let (Size::Static(lo), Size::Static(hi)) = bounds[i] else {
                    unreachable!("a static window has static bounds")
                };
                let first = w.count(i, 0, lo, hi);
                (0..w.output[i])
                    .all(|o| w.count(i, o, lo, hi) == first)
                    .then_some(first)
            })
            .try_fold(1i64, |acc, c| c.map(|c| acc * c))
            .map(Size::Static)
    } else if !leaves {
        Some(
            kernel_sizes
                .iter()
                .fold(Size::Static(1), |acc, &k| acc.times(k, &e)),
        )
    } else {
        None
    };
    let signed = elem.is_signed_int();
    let float = elem.is_float();
    let xt = kb.tensor(x);
    let win = w.clone();
    // The window's extents come from a shape-only operand (as in linalg's
    // pooling ops): the k loops appear in no other operand's map.
    let shape = kb.empty(&kernel_sizes, elem)?;
    let k_map = loops.dims(k_dims.iter().copied());
    let ins = if leaves {
        vec![(shape, k_map)]
    } else {
        let mut x_exprs = vec![loops.d(dn), loops.d(dc)];
        x_exprs.extend(window_exprs(&loops, &w, &o_dims, &k_dims));
        vec![(xt, loops.map(&x_exprs)), (shape, k_map)]
    };
    let outs = [(init, out_map)];
    let window_op = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        let acc = *args.last().expect("the output");
        let ty = acc.r#type();
        let xv = if leaves {
            let n = be.loop_index(dn);
            let c = be.loop_index(dc);
            let outside = if float {
                be.f(ty, identity_value)
            } else {
                let bits = elem.bit_width();
                be.i(ty, if signed { i64::MIN >> (64 - bits) } else { 0 })
            };
            read_window(be, xt, n, c, (&win, &ext), &o_dims, &k_dims, outside)
        } else {
            args[0]
        };
        let v = match pool {
            Pool::Max if float => be.maximumf(acc, xv),
            Pool::Max if signed => be.maxsi(acc, xv),
            Pool::Max => be.maxui(acc, xv),
            Pool::Average => {
                let scale = match uniform_count {
                    Some(Size::Static(c)) => be.f(ty, 1.0 / c as f64),
                    Some(Size::Dynamic(count)) => be.divf(be.f(ty, 1.0), count_to(be, count, ty)),
                    None => {
                        let count = window_count(be, (&win, &ext), &o_dims, &bounds);
                        be.divf(be.f(ty, 1.0), count_to(be, count, ty))
                    }
                };
                be.addf(acc, be.mulf(xv, scale))
            }
            Pool::Lp(p) => {
                let a = be.absf(xv);
                let t = match p {
                    1 => a,
                    2 => be.mulf(a, a),
                    p => be.powf(a, be.f(ty, p as f64)),
                };
                be.addf(acc, t)
            }
        };
        vec![v]
    });
    let per_channel = work(&[&xd[..1], &w.output, &w.kernel]);
    let root = kb.root(
        window_op,
        Schedule::Window {
            channels: xd[1],
            work_per_channel: per_channel,
            epilogues: 0,
        },
    );
    let mut result: MValue = root.result(0).expect("one result").into();
    if let Pool::Lp(p) = pool {
        if p != 1 {
            let loops = Loops::parallel(e.cx, yd.len());
            let outs = [(result, loops.identity())];
            let root_op = generic(e, &[], &outs, &loops.reduction, |be, args| {
                let ty = args[0].r#type();
                vec![if p == 2 {
                    be.sqrt(args[0])
                } else {
                    be.powf(args[0], be.f(ty, 1.0 / p as f64))
                }]
            });
            let bits = elem.bit_width();
            result = kb
                .elementwise(root_op, &yd, bits)
                .result(0)
                .expect("one result")
                .into();
        }
    }
    kb.define(y, result);
    Ok(())
}

/// Lowers a MaxPool whose `Indices` result is used (8–22): one window
/// reduction into the values and their indices, scanning each window in
/// kernel order and keeping the first largest element inside the input,
/// as the reference does. An index counts the elements of the input
/// before the one taken, with the spatial dims row-major
/// (`storage_order = 0`) or column-major (1): `(n·C + c)·P + Σ p_i·s_i`
/// for `P` positions per channel and strides `s_i` of the run-time sizes.
fn max_pool_with_indices(
    kb: &mut KernelBuilder,
    op: OpId,
    w: &Window,
    indices: Value,
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let r = xd.len() - 2;
    let column_major = data.attrs.int("storage_order").unwrap_or(0) != 0;
    let ext = w.extents(kb, x, y, None)?;
    let xs = kb.sizes(x)?;
    let e = kb.e;
    // Each spatial dim's stride in the flat index, then the channel's.
    let mut strides = vec![Size::Static(1); r];
    let order: Vec<usize> = if column_major {
        (0..r).collect()
    } else {
        (0..r).rev().collect()
    };
    let mut step = Size::Static(1);
    for &i in &order {
        strides[i] = step;
        step = step.times(xs[2 + i], &e);
    }
    let (channels, per_channel) = (xs[1], step);
    let float = elem.is_float();
    let int_identity = (!float).then(|| (elem.is_signed_int(), elem.bit_width()));
    let (rank, values) = (xd.len(), kb.init(y)?);
    let values = fill(
        kb,
        values,
        rank,
        Some(f64::NEG_INFINITY),
        None,
        int_identity,
    );
    let at = kb.init(indices)?;
    let at = fill(kb, at, rank, Some(-1.0), None, None);
    let kernel: Vec<Size> = w.kernel.iter().map(|&k| Size::Static(k)).collect();
    let shape = kb.empty(&kernel, elem)?;
    let xt = kb.tensor(x);
    let e = kb.e;
    let mut reduction = vec![false; rank];
    reduction.extend(vec![true; r]);
    let n_loops = reduction.len();
    let out_map = projection(e.cx, n_loops, 0..rank);
    let k_map = projection(e.cx, n_loops, rank..n_loops);
    let (o_dims, k_dims): (Vec<usize>, Vec<usize>) =
        ((2..rank).collect(), (rank..n_loops).collect());
    let signed = elem.is_signed_int();
    let win = (w, &ext);
    let g = generic(
        e,
        &[(shape, k_map)],
        &[(values, out_map), (at, out_map)],
        &reduction,
        |be, args| {
            let (acc, acc_at) = (args[1], args[2]);
            let (n, c) = (be.loop_index(0), be.loop_index(1));
            let (positions, inside) = window_positions(be, win, &o_dims, &k_dims);
            let mut element = vec![n, c];
            element.extend(positions.iter().copied());
            let v = be.extract(xt, &element);
            // (n·C + c)·P + Σ p_i·s_i.
            let image = be.sized(channels, |ch| be.muli(n, ch));
            let image = be.addi(image, c);
            let mut flat = be.sized(per_channel, |p| be.muli(image, p));
            for (i, &p) in positions.iter().enumerate() {
                let term = be.sized(strides[i], |s| be.muli(p, s));
                flat = be.addi(flat, term);
            }
            let flat = be.index_cast(flat, be.int_type(64));
            let larger = match (float, signed) {
                (true, _) => be.cmpf(CmpfPredicate::Ogt, v, acc),
                (false, true) => be.cmpi(CmpiPredicate::Sgt, v, acc),
                (false, false) => be.cmpi(CmpiPredicate::Ugt, v, acc),
            };
            let none = be.cmpi(CmpiPredicate::Eq, acc_at, be.i(be.int_type(64), -1));
            let take = be.ori(larger, none);
            let take = be.andi(take, inside);
            vec![be.select(take, v, acc), be.select(take, flat, acc_at)]
        },
    );
    let root = kb.root(g, Schedule::Generic { outer: None });
    kb.define(y, root.result(0).expect("the values").into());
    kb.define(indices, root.result(1).expect("the indices").into());
    Ok(())
}

/// The counted range `[lo, hi)` of input positions per spatial dim: the
/// input, or with `include_pad` the padded input.
fn bounds_of<'c, 'a>(
    e: Emitter<'c, 'a>,
    ext: &Extents<'c, 'a>,
    include_pad: bool,
) -> Vec<(Size<'c, 'a>, Size<'c, 'a>)> {
    (0..ext.input.len())
        .map(|i| match (ext.input[i], ext.begin[i], ext.end[i]) {
            (input, _, _) if !include_pad => (Size::Static(0), input),
            (Size::Static(n), Size::Static(b), Size::Static(a)) => {
                (Size::Static(-b), Size::Static(n + a))
            }
            (input, begin, end) => (
                Size::Dynamic(e.subi(e.index(0), begin.value(&e))),
                Size::Dynamic(e.addi(input.value(&e), end.value(&e))),
            ),
        })
        .collect()
}

/// The number of window positions of the current output position inside
/// `bounds`, as an index: per dim, the `k` in `[0, K)` with
/// `lo ≤ o·s + k·d − begin < hi`.
fn window_count<'c, 'b>(
    be: Emitter<'c, 'b>,
    (w, ext): (&Window, &Extents<'c, '_>),
    o_dims: &[usize],
    bounds: &[(Size<'c, '_>, Size<'c, '_>)],
) -> MValue<'c, 'b> {
    let mut total = be.index(1);
    for (i, &(lo, hi)) in bounds.iter().enumerate() {
        let o = be.loop_index(o_dims[i]);
        let os = be.muli(o, be.index(w.strides[i]));
        let base = be.sized(ext.begin[i], |b| be.subi(os, b));
        let d = be.index(w.dilations[i]);
        let kmin = be.sized(lo, |lo| be.subi(lo, base));
        let kmin = be.ceildivsi(kmin, d);
        let kmin = be.maxsi(kmin, be.index(0));
        let kmax = be.sized(hi, |hi| be.subi(hi, base));
        let kmax = be.ceildivsi(kmax, d);
        let kmax = be.minsi(kmax, be.index(w.kernel[i]));
        let n = be.maxsi(be.subi(kmax, kmin), be.index(0));
        total = be.muli(total, n);
    }
    total
}

/// An index converted to float type `ty`.
fn count_to<'c, 'b>(be: Emitter<'c, 'b>, count: MValue<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
    let i64t = be.int_type(64);
    let as_int = be.index_cast(count, i64t);
    be.sitofp(as_int, ty)
}

#[cfg(test)]
mod tests {
    use super::Window;

    fn window(kernel: i64, stride: i64, pads: (i64, i64), input: i64, output: i64) -> Window {
        Window {
            kernel: vec![kernel],
            strides: vec![stride],
            dilations: vec![1],
            begin: vec![pads.0],
            end: vec![pads.1],
            input: vec![input],
            output: vec![output],
            same: None,
            ceil_mode: false,
        }
    }

    #[test]
    fn windows_that_leave_the_input() {
        assert!(!window(3, 1, (0, 0), 5, 3).leaves_input());
        assert!(window(3, 1, (1, 1), 5, 5).leaves_input());
        // ceil_mode: the last window runs past the end without end padding.
        assert!(window(2, 2, (0, 0), 5, 3).leaves_input());
    }

    #[test]
    fn average_pool_divisors() {
        let w = window(3, 1, (1, 1), 5, 5);
        // Without the padding: 2 positions at the borders, 3 inside.
        assert_eq!(w.count(0, 0, 0, 5), 2);
        assert_eq!(w.count(0, 2, 0, 5), 3);
        // With it (count_include_pad): always 3.
        assert_eq!(w.count(0, 0, -1, 6), 3);
    }
}
