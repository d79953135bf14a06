//! Col2Im: each image position sums the column blocks that cover it.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model};

use crate::builder::{elem_of, generic, projection, CmpiPredicate, Size};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{entries_are, equal, operand};
use crate::ops::sample::{elem_of_scalar, sampled_float, F};
use crate::schedule::Schedule;
use crate::symbols::{sized_dims, Check};

/// Lowers Col2Im (18): `y[n, c, o…] = Σ_k x[n, c·K + k, l]` over the
/// `K = ∏ block` kernel positions `k…` whose block `q… = (o + begin −
/// k·d) / s` is exact and inside the grid of blocks, `l` its row-major
/// number. The block shape may be a run-time input: it is read in the body
/// and the kernel positions are decoded from `k` with it.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let block = data.inputs[2].expect("block_shape");
    let y = data.results[0].expect("output");
    let (_, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let (xs, ys) = (kb.sizes(x)?, kb.sizes(y)?);
    if !sampled_float(elem) {
        return Err(kb.unsupported(op, &format!("{elem} elements")));
    }
    let r = yd.len() - 2;
    let e = kb.e;
    // The kernel positions per channel, `K = C·K / C` (checked exact at run
    // time for symbolic sizes; a 0 divisor divides by 1).
    let k_total = match (xs[1], ys[1]) {
        (Size::Static(ck), Size::Static(c)) => {
            if c == 0 || ck % c != 0 {
                return Err(kb.unsupported(op, "input channels not a multiple of C"));
            }
            Size::Static(ck / c)
        }
        (ck, c) => {
            let c = e.maxsi(c.value(&e), e.index(1));
            Size::Dynamic(e.divsi(ck.value(&e), c))
        }
    };
    let a = &data.attrs;
    let per_dim = |name: &str, default: i64| -> Vec<i64> {
        a.ints(name).map_or(vec![default; r], <[i64]>::to_vec)
    };
    let strides = per_dim("strides", 1);
    let dilations = per_dim("dilations", 1);
    let pads = a.ints("pads").map_or(vec![0; 2 * r], <[i64]>::to_vec);
    let xt = kb.tensor(x);
    let bt = kb.tensor(block);
    let bounds = kb.empty(&[k_total], elem)?;
    let init = kb.init(y)?;
    let zero = e.f(elem_of(init), 0.0);
    let init = kb.filled(zero, init);
    let e = kb.e;
    let n = yd.len();
    let dk = n;
    let mut reduction = vec![false; n];
    reduction.push(true);
    let out_map = projection(e.cx, n + 1, 0..n);
    let k_map = projection(e.cx, n + 1, [dk]);
    let g = generic(
        e,
        &[(bounds, k_map)],
        &[(init, out_map)],
        &reduction,
        |be, args| {
            let index = Type::index(be.cx);
            let ty = elem_of_scalar(args[1]);
            let k = be.loop_index(dk);
            let zero = be.index(0);
            // A block size below 1 (an invalid model) counts as 1, so that
            // the decoding below never divides by 0.
            let blocks: Vec<MValue> = (0..r)
                .map(|i| {
                    let f = F { e: be };
                    let b = f.extract(bt, &[be.index(i as i64)]);
                    let b = be.index_cast(b, index);
                    be.maxsi(b, be.index(1))
                })
                .collect();
            // Kernel position of k along each dim (row-major over blocks).
            let mut rest = k;
            let mut kpos = vec![zero; r];
            for i in (0..r).rev() {
                kpos[i] = be.remui(rest, blocks[i]);
                rest = be.divui(rest, blocks[i]);
            }
            let mut l = zero;
            let mut inside: Option<MValue> = None;
            for i in 0..r {
                // Blocks along dim i: (out + pads − d·(b − 1) − 1) / s + 1.
                let span = be.muli(be.subi(blocks[i], be.index(1)), be.index(dilations[i]));
                let padded = be.sized(ys[2 + i], |n| {
                    be.addi(n, be.index(pads[i] + pads[r + i] - 1))
                });
                let room = be.subi(padded, span);
                let count = be.addi(be.divsi(room, be.index(strides[i])), be.index(1));
                let o = be.loop_index(2 + i);
                let kd = be.muli(kpos[i], be.index(dilations[i]));
                let num = be.subi(be.addi(o, be.index(pads[i])), kd);
                let s = be.index(strides[i]);
                let q = be.divsi(num, s);
                let exact = be.cmpi(CmpiPredicate::Eq, be.remsi(num, s), zero);
                // Unsigned: a negative block compares above the count.
                let within = be.cmpi(CmpiPredicate::Ult, q, count);
                let ok = be.andi(exact, within);
                let q = be.select(ok, q, zero);
                l = be.addi(be.muli(l, count), q);
                inside = Some(inside.map_or(ok, |all| be.andi(all, ok)));
            }
            let ok = inside.expect("a spatial dim");
            // The block number stays inside x's last dim.
            let within = be.sized(xs[2], |n| be.cmpi(CmpiPredicate::Ult, l, n));
            let ok = be.andi(ok, within);
            let l = be.select(ok, l, zero);
            let first = be.sized(k_total, |n| be.muli(be.loop_index(1), n));
            let c = be.addi(first, k);
            let f = F { e: be };
            let v = f.extract(xt, &[be.loop_index(0), c, l]);
            let v = be.select(ok, v, be.f(ty, 0.0));
            vec![be.addf(args[1], v)]
        },
    );
    let g = kb.root(g, Schedule::Generic { outer: None });
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// The checks of a Col2Im with symbolic sizes (`ops::entry_checks`): the
/// batch agrees, the output's channels divide the input's, `image_shape`
/// gives the output's spatial dims, `block_shape` has one entry per
/// spatial dim.
pub(crate) fn col2im_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let input = |i: usize| operand(data, i);
    let y = sized_dims(model, data.results[0])?;
    let mut out = vec![];
    let x = dims(0)?;
    let r = y.len().checked_sub(2).ok_or("an image of rank below 2")?;
    if x.len() != 3 {
        return Err("an input of a rank other than 3");
    }
    equal(&mut out, &x[0], &y[0]);
    if x[1].div_exact(&y[1]) == Dim::Unknown {
        out.push(Check::Divisible(x[1].clone(), y[1].clone()));
    }
    let image: Vec<(usize, Dim)> = (0..r).map(|i| (i, y[2 + i].clone())).collect();
    entries_are(model, input(1)?, r, &image, &mut out)?;
    entries_are(model, input(2)?, r, &[], &mut out)?;
    Ok(out)
}
