//! Conv: a window reduction over `(n, m, o…, c, k…)`, or, for one image
//! of one group in f32, the GEMM form over an im2col matrix that the
//! schedule tiles like a matrix product.

use melior::ir::operation::OperationMutLike;
use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, Value};

use super::window::{fill, kernel_sizes, read_window, window_exprs, work, zero, Loops, Window};
use crate::builder::{generic, ranked_tensor, unit, CmpiPredicate, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::half;
use crate::schedule::Schedule;
use crate::types::elem_type;

/// The operands of an integer convolution (ConvInteger, QLinearConv):
/// the input and the weights, zero points subtracted, and the tensor to
/// accumulate into, all `i32`.
pub(crate) struct IntConv<'c, 'a> {
    /// The input, `[N, C, D…]`.
    pub x: MValue<'c, 'a>,
    /// The weights, `[M, C/group, K…]`.
    pub w: MValue<'c, 'a>,
    /// The op's weights input (whose shape `w` has).
    pub weights: Value,
    /// The accumulator, the output's shape.
    pub init: MValue<'c, 'a>,
    /// The `i32` bias, `[M]`.
    pub bias: Option<MValue<'c, 'a>>,
}

/// Lowers a Conv (or the convolution of a FusedConv): returns its result
/// tensor without defining it.
pub(crate) fn conv<'c, 'a>(kb: &mut KernelBuilder<'c, 'a>, op: OpId) -> Result<MValue<'c, 'a>> {
    conv_with(kb, op, None)
}

/// [`conv`] of op `op`'s geometry, over the op's own float operands and
/// bias or, given `ints`, over integer ones (with the window's
/// general form: the GEMM form is for f32).
pub(crate) fn conv_with<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    ints: Option<IntConv<'c, 'a>>,
) -> Result<MValue<'c, 'a>> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let wv = ints
        .as_ref()
        .map_or(data.inputs[1], |i| Some(i.weights))
        .expect("W is required");
    let bias = data.inputs.get(2).copied().flatten();
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let (wd, _) = kb.shape(wv)?;
    let (yd, _) = kb.shape(y)?;
    if !elem.is_float() && ints.is_none() {
        return Err(kb.unsupported(op, "only float convolutions are lowered"));
    }
    // Half-precision convolutions accumulate in an f32 temporary (a
    // producer), rounded once per element into the result (the root), as
    // the references compute them.
    let half = half::is_half(elem) && ints.is_none();
    if xd.len() < 3 {
        return Err(kb.unsupported(op, "a convolution needs spatial dims"));
    }
    let r = xd.len() - 2;
    let group = data.attrs.int("group").unwrap_or(1);
    let (m, cg) = (wd[0], wd[1]);
    let fg = m / group;
    // A symbolic kernel size is `kernel_shape`'s (checked at run time,
    // [`window_checks`]).
    let kernel = kernel_sizes(kb, op, &wd[2..])?;
    let w = Window::read(kb, op, kernel, &xd[2..], &yd[2..])?;
    if w.is_static() && !wd.contains(&DYNAMIC) && gemm_form(&xd, group, elem) && ints.is_none() {
        return conv_gemm(kb, x, wv, bias, y, &wd, &yd, &w);
    }
    let e = kb.e;
    let (xt, wt, init, bias) = match ints {
        Some(i) => (i.x, i.w, i.init, i.bias),
        None => (
            kb.tensor(x),
            kb.tensor(wv),
            if half {
                kb.empty(&kb.sizes(y)?, ElemType::F32)?
            } else {
                kb.init(y)?
            },
            bias.map(|b| kb.tensor(b)),
        ),
    };
    let init = fill(kb, init, yd.len(), Some(0.0), bias, None);
    let ext = w.extents(kb, x, y, Some(wv))?;
    // The channel counts per group (run-time values when symbolic: the
    // output channels are checked to be a multiple of `group`).
    let w_sizes = kb.sizes(wv)?;
    let group_sizes = match w_sizes[0] {
        Size::Dynamic(v) => Size::Dynamic(e.divsi(v, e.index(group))),
        Size::Static(_) => Size::Static(fg),
    };
    let channel_sizes = w_sizes[1];
    // Loops: n, m, o…, c, k….
    let mut loops = Loops::new(e.cx);
    let dn = loops.add(false);
    let dm = loops.add(false);
    let o_dims: Vec<usize> = (0..r).map(|_| loops.add(false)).collect();
    let dc = loops.add(true);
    let k_dims: Vec<usize> = (0..r).map(|_| loops.add(true)).collect();
    let mut out_dims = vec![dn, dm];
    out_dims.extend(&o_dims);
    let out_map = loops.dims(out_dims);
    let mut w_dims = vec![dm, dc];
    w_dims.extend(&k_dims);
    let w_map = loops.dims(w_dims);
    let d = |i: usize| loops.d(i);
    let channel = if group == 1 {
        d(dc)
    } else if fg == 1 {
        d(dm) * cg + d(dc)
    } else {
        d(dm).floordiv(fg) * cg + d(dc)
    };
    let symbolic_groups = group != 1 && (m == DYNAMIC || cg == DYNAMIC);
    let conv = if w.leaves_input() || symbolic_groups {
        let win = w.clone();
        let outs = [(init, out_map)];
        generic(e, &[(wt, w_map)], &outs, &loops.reduction, |be, args| {
            let ty = args[0].r#type();
            let n = be.loop_index(dn);
            let c = be.loop_index(dc);
            let c = if group == 1 {
                c
            } else {
                let mi = be.loop_index(dm);
                let g = be.sized(group_sizes, |fg| be.divui(mi, fg));
                let base = be.sized(channel_sizes, |cg| be.muli(g, cg));
                be.addi(base, c)
            };
            let window = (&win, &ext);
            let xv = read_window(be, xt, n, c, window, &o_dims, &k_dims, zero(be, ty));
            vec![be.multiply_add(args[1], half::widen(be, xv), half::widen(be, args[0]))]
        })
    } else {
        let mut x_exprs = vec![d(dn), channel];
        x_exprs.extend(window_exprs(&loops, &w, &o_dims, &k_dims));
        let ins = [(xt, loops.map(&x_exprs)), (wt, w_map)];
        generic(e, &ins, &[(init, out_map)], &loops.reduction, |be, args| {
            let (xv, wv) = (half::widen(be, args[0]), half::widen(be, args[1]));
            vec![be.multiply_add(args[2], xv, wv)]
        })
    };
    if half {
        let sum: MValue = kb.producer(conv).result(0).expect("one result").into();
        let out_ty = elem_type(e.cx, elem)?;
        let parallel = Loops::parallel(e.cx, yd.len());
        let narrowed = generic(
            e,
            &[(sum, parallel.identity())],
            &[(kb.init(y)?, parallel.identity())],
            &parallel.reduction,
            |be, args| vec![half::narrow(be, args[0], out_ty)],
        );
        let producers = kb.producers();
        let root = kb.root(
            narrowed,
            Schedule::Fused {
                loops: yd.iter().map(|&d| (d, true)).collect(),
                producers,
                epilogue: false,
            },
        );
        return Ok(root.result(0).expect("one result").into());
    }
    let per_channel = work(&[&xd[..1], &w.output, &[cg], &w.kernel]);
    let root = kb.root(
        conv,
        Schedule::Window {
            channels: m,
            work_per_channel: per_channel,
            epilogues: 0,
        },
    );
    Ok(root.result(0).expect("one result").into())
}

/// Whether a convolution takes the GEMM form ([`conv_gemm`]): one image,
/// one group, f32.
fn gemm_form(xd: &[i64], group: i64, elem: ElemType) -> bool {
    xd[0] == 1 && group == 1 && elem == ElemType::F32
}

/// The GEMM form of a convolution of one image with one group:
/// `y[0, m, o…] = Σ_k Wc[m, k] · col[k, o…]`, with `Wc` the weight seen as
/// `[M, K]` (`K = C·∏kernel`, a view) and `col` the im2col matrix
/// `col[(c, j…), o…] = x[0, c, o·s + j·d − begin]` (0 in the padding),
/// built in a scratch buffer before the product. A 1×1 convolution with
/// unit strides and no padding reads `x` itself as `col`. The product is a
/// `linalg.generic` over `(n, m, o…, k)` with projected-permutation maps,
/// so that the schedule (`Schedule::ConvGemm`) can give it the register
/// tiling and vectorization of a matrix product.
#[allow(clippy::too_many_arguments)]
fn conv_gemm<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    x: Value,
    wv: Value,
    bias: Option<Value>,
    y: Value,
    wd: &[i64],
    yd: &[i64],
    w: &Window,
) -> Result<MValue<'c, 'a>> {
    let e = kb.e;
    let r = w.kernel.len();
    let m = wd[0];
    let k: i64 = wd[1..].iter().product();
    let f32t = elem_type(e.cx, ElemType::F32)?;
    let merged: Vec<i64> = (1..=r as i64 + 1).collect();
    let wc = e.collapse_shape(
        kb.tensor(wv),
        &[vec![0], merged],
        ranked_tensor(&[m, k], f32t),
    );
    let direct = w.kernel.iter().all(|&s| s == 1)
        && w.strides.iter().all(|&s| s == 1)
        && !w.leaves_input()
        && w.output == w.input;
    let xt = kb.tensor(x);
    let out = &yd[2..];
    let rhs = if direct {
        xt
    } else {
        let mut dims = vec![k];
        dims.extend(out);
        let scratch = e.empty(&Size::statics(&dims), f32t);
        let loops = Loops::parallel(e.cx, r + 1);
        let win = w.clone();
        let outs = [(scratch, loops.identity())];
        let mut col = generic(e, &[], &outs, &loops.reduction, |be, args| {
            let ty = args[0].r#type();
            let zero = be.index(0);
            // k = (c·k1 + j1)·k2 + j2 …: peel the kernel offsets.
            let mut rest = be.loop_index(0);
            let mut offsets = vec![zero; r];
            for i in (0..r).rev() {
                offsets[i] = be.remui(rest, be.index(win.kernel[i]));
                rest = be.divui(rest, be.index(win.kernel[i]));
            }
            let mut indices = vec![zero, rest];
            let mut inside: Option<MValue> = None;
            for (i, &j) in offsets.iter().enumerate() {
                let o = be.loop_index(1 + i);
                let os = be.muli(o, be.index(win.strides[i]));
                let jd = be.muli(j, be.index(win.dilations[i]));
                let p = be.addi(os, jd);
                let p = be.subi(p, be.index(win.begin[i]));
                let ok = be.cmpi(CmpiPredicate::Ult, p, be.index(win.input[i]));
                indices.push(be.select(ok, p, zero));
                inside = Some(match inside {
                    Some(all) => be.andi(all, ok),
                    None => ok,
                });
            }
            let v = be.extract(xt, &indices);
            vec![be.select(inside.expect("spatial dims"), v, be.f(ty, 0.0))]
        });
        col.set_attribute("omlc.col", unit(e.cx));
        e.value(col)
    };
    let init = kb.init(y)?;
    let init = fill(
        kb,
        init,
        yd.len(),
        Some(0.0),
        bias.map(|b| kb.tensor(b)),
        None,
    );
    // Loops: n, m, o…, k.
    let mut loops = Loops::parallel(e.cx, 2 + r);
    let dk = loops.add(true);
    let mut rhs_dims = if direct { vec![0, dk] } else { vec![dk] };
    rhs_dims.extend(2..2 + r);
    let ins = [(wc, loops.dims([1, dk])), (rhs, loops.dims(rhs_dims))];
    let outs = [(init, loops.dims(0..2 + r))];
    let product = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        // A multiply and an add (not `math.fma`): the vectorizer
        // recognizes the pair as a contraction, which tiles of several
        // reduction steps need (`Schedule::ConvGemm`); it emits FMAs.
        vec![be.multiply_add(args[2], args[0], args[1])]
    });
    let root = kb.root(
        product,
        Schedule::ConvGemm {
            channels: m,
            reduction: k,
            spatial: out.to_vec(),
            col: !direct,
            epilogues: 0,
        },
    );
    Ok(root.result(0).expect("one result").into())
}

/// Lowers a Conv.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let y = kb.model.ir.op(op).results[0].expect("Y is produced");
    let result = conv(kb, op)?;
    kb.define(y, result);
    Ok(())
}
