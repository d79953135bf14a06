//! ConvTranspose, as a window over the output reading the input where
//! the division by the stride is exact.

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::ElemType;

use super::window::{fill, kernel_sizes, span_of, work, Loops};
use crate::builder::{generic, CmpiPredicate, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;

/// Lowers ConvTranspose (1, 11, 22): the gradient of a convolution,
/// `y[n, m, o…] = B[m] + Σ_{c, k…} x[n, c, i…] · W[c, m mod M/g, k…]`
/// over the input channels `c` of `m`'s group, where `o = i·s + k·d −
/// begin` — read the other way round, each output position takes the
/// input position `i = (o + begin − k·d) / s` when that division is exact
/// and `i` lies in the input, so the sum is a window reduction like Conv's
/// (`Schedule::Window`) with masked reads. `output_padding` and
/// `output_shape` only shape the output (already inferred); `begin`
/// comes from `pads`, or from `auto_pad` (SAME_UPPER puts the smaller half
/// first), else 0.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let a = &data.attrs;
    let x = data.inputs[0].expect("X is required");
    let wv = data.inputs[1].expect("W is required");
    let bias = data.inputs.get(2).copied().flatten();
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let (wd, _) = kb.shape(wv)?;
    let (yd, _) = kb.shape(y)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return Err(kb.unsupported(op, "only f32/f64 transposed convolutions are lowered"));
    }
    if xd.len() < 3 {
        return Err(kb.unsupported(op, "needs spatial dims"));
    }
    let r = xd.len() - 2;
    let group = a.int("group").unwrap_or(1);
    let kernel = kernel_sizes(kb, op, &wd[2..])?;
    let per_dim = |name: &str, default: i64| -> Vec<i64> {
        a.ints(name).map_or(vec![default; r], <[i64]>::to_vec)
    };
    let strides = per_dim("strides", 1);
    let dilations = per_dim("dilations", 1);
    let output_padding = per_dim("output_padding", 0);
    let e = kb.e;
    let (xs, ys, ws) = (kb.sizes(x)?, kb.sizes(y)?, kb.sizes(wv)?);
    // The kernel's run-time sizes (`kernel_shape`'s where it is given).
    let ks: Vec<Size> = (0..r)
        .map(|i| match kernel[i] {
            DYNAMIC => ws[2 + i],
            k => Size::Static(k),
        })
        .collect();
    // SAME: `total = s·(in − 1) + output_padding + extent − out`, its
    // floor half first with SAME_UPPER (at run time for symbolic sizes).
    let begin: Vec<Size> = match (a.ints("pads"), a.string("auto_pad").unwrap_or("NOTSET")) {
        (Some(p), _) => p[..r].iter().map(|&p| Size::Static(p)).collect(),
        (None, mode @ ("SAME_UPPER" | "SAME_LOWER")) => (0..r)
            .map(|i| {
                let upper = mode == "SAME_UPPER";
                match (xs[2 + i], ys[2 + i], ks[i]) {
                    (Size::Static(input), Size::Static(output), Size::Static(k)) => {
                        let extent = (k - 1) * dilations[i] + 1;
                        let total = strides[i] * (input - 1) + output_padding[i] + extent - output;
                        let half = total.div_euclid(2);
                        Size::Static(if upper { half } else { total - half })
                    }
                    (input, output, k) => {
                        let last = e.subi(input.value(&e), e.index(1));
                        let reach = e.muli(last, e.index(strides[i]));
                        let reach = e.addi(reach, span_of(&e, k, dilations[i]));
                        let reach = e.addi(reach, e.index(output_padding[i]));
                        let total = e.subi(reach, output.value(&e));
                        let half = e.floordivsi(total, e.index(2));
                        Size::Dynamic(if upper { half } else { e.subi(total, half) })
                    }
                }
            })
            .collect(),
        (None, "NOTSET" | "VALID") => vec![Size::Static(0); r],
        (None, m) => return Err(kb.unsupported(op, &format!("auto_pad {m:?}"))),
    };
    // Input channels per group and output channels per group: run-time
    // values where symbolic (the input's channels are checked to be the
    // weight's first dim, which `group` divides then by construction of
    // the output's: `conv_transpose_checks`).
    let (cg, mg) = match (xs[1], ws[1]) {
        (Size::Static(c), Size::Static(m)) => (Size::Static(c / group), Size::Static(m)),
        (c, m) => (Size::Dynamic(e.divsi(c.value(&e), e.index(group))), m),
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
    // Loops: n, m, o…, c, k….
    let mut loops = Loops::new(e.cx);
    let dn = loops.add(false);
    let dm = loops.add(false);
    let o_dims: Vec<usize> = (0..r).map(|_| loops.add(false)).collect();
    let dc = loops.add(true);
    let k_dims: Vec<usize> = (0..r).map(|_| loops.add(true)).collect();
    let d = |i: usize| loops.d(i);
    let mut out_dims = vec![dn, dm];
    out_dims.extend(&o_dims);
    let xt = kb.tensor(x);
    let wt = kb.tensor(wv);
    // W is read through its indexing map (one group, or static groups:
    // `[g·C/G + c, m mod M/G, k…]`), or with groups of symbolic size at
    // the coordinates computed in the body; an unread tensor of the
    // reduction's extents then gives linalg the loops' bounds.
    let mapped = match (cg, mg) {
        _ if group == 1 => Some(vec![d(dc), d(dm)]),
        (Size::Static(cg), Size::Static(mg)) => {
            Some(vec![d(dm).floordiv(mg) * cg + d(dc), d(dm) % mg])
        }
        _ => None,
    };
    let mut ins = vec![];
    if let Some(mut w_exprs) = mapped.clone() {
        w_exprs.extend(k_dims.iter().map(|&i| d(i)));
        ins.push((wt, loops.map(&w_exprs)));
    }
    if group > 1 {
        let mut extents = vec![cg];
        extents.extend(&ks);
        let mut dims = vec![dc];
        dims.extend(&k_dims);
        ins.push((kb.empty(&extents, elem)?, loops.dims(dims)));
    }
    let outs = [(init, loops.dims(out_dims))];
    let input = xs[2..].to_vec();
    let g = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        let acc = *args.last().expect("the output");
        let ty = acc.r#type();
        let c = be.loop_index(dc);
        let c = if group == 1 {
            c
        } else {
            let m = be.loop_index(dm);
            let g = be.sized(mg, |mg| be.divui(m, mg));
            let first = be.sized(cg, |cg| be.muli(g, cg));
            be.addi(first, c)
        };
        let weight = if mapped.is_some() {
            args[0]
        } else {
            let m = be.loop_index(dm);
            let mut at = vec![c, be.sized(mg, |mg| be.remui(m, mg))];
            at.extend(k_dims.iter().map(|&k| be.loop_index(k)));
            be.extract(wt, &at)
        };
        let zero = be.index(0);
        let mut indices = vec![be.loop_index(dn), c];
        let mut inside: Option<MValue> = None;
        for i in 0..r {
            // num = o + begin − k·d; i = num / s when exact and in range.
            let o = be.loop_index(o_dims[i]);
            let k = be.loop_index(k_dims[i]);
            let kd = be.muli(k, be.index(dilations[i]));
            let shifted = be.sized(begin[i], |b| be.addi(o, b));
            let num = be.subi(shifted, kd);
            let s = be.index(strides[i]);
            let q = be.divsi(num, s);
            let exact = be.cmpi(CmpiPredicate::Eq, be.remsi(num, s), zero);
            // Unsigned: a negative quotient compares above the extent.
            let within = be.sized(input[i], |n| be.cmpi(CmpiPredicate::Ult, q, n));
            let ok = be.andi(exact, within);
            indices.push(be.select(ok, q, zero));
            inside = Some(match inside {
                Some(all) => be.andi(all, ok),
                None => ok,
            });
        }
        let v = be.extract(xt, &indices);
        let v = be.select(inside.expect("a spatial dim"), v, be.f(ty, 0.0));
        let prod = be.mulf(v, weight);
        vec![be.addf(acc, prod)]
    });
    let per_channel = work(&[&xd[..1], &yd[2..], &[cg.type_dim()], &kernel]);
    let root = kb.root(
        g,
        Schedule::Window {
            channels: yd[1],
            work_per_channel: per_channel,
            epilogues: 0,
        },
    );
    kb.define(y, root.result(0).expect("one result").into());
    Ok(())
}
