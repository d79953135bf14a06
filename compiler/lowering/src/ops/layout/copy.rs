//! Copies through an index map: Transpose (the inverse permutation),
//! Expand and Tile (broadcast or wrapped indices), DepthToSpace and
//! SpaceToDepth (`floordiv`/`mod` of the block size); with sizes known
//! only at run time, the same coordinates computed in the body.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{OpKind, Value};

use crate::builder::{d, generic, identity_map, map, Emitter, Expr, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{fused_root, norm_axis};
use crate::ops::operand::broadcast_exprs;

/// Appends `g`, a generic over the loops of output `y`'s dims, as the
/// kernel's root and defines `y` as its result.
pub(super) fn finish_root<'c>(
    kb: &mut KernelBuilder<'c, '_>,
    g: melior::ir::Operation<'c>,
    y: Value,
) -> Result<()> {
    let (dims, _) = kb.shape(y)?;
    fused_root(kb, g, y, &dims);
    Ok(())
}

/// A one-input copy-like generic over output `y`'s loops reading input 0
/// through `exprs` (one affine expression per input dim); the kernel's
/// chunked root when `chunked`, else one loop nest.
fn gather_map<'c>(
    kb: &mut KernelBuilder<'c, '_>,
    op: OpId,
    exprs: &[Expr<'c>],
    chunked: bool,
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input 0 is required");
    let y = data.results[0].expect("output 0 is produced");
    let rank = kb.shape(y)?.0.len();
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(kb.tensor(x), map(kb.e.cx, rank, exprs))],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |_, a| vec![a[0]],
    );
    if chunked {
        finish_root(kb, g, y)
    } else {
        let g = kb.structured(g);
        kb.define(y, g.result(0).expect("one result").into());
        Ok(())
    }
}

pub(super) fn transpose(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let rank = kb.shape(data.inputs[0].expect("input"))?.0.len();
    let perm: Vec<usize> = match data.attrs.ints("perm") {
        Some(p) => p.iter().map(|&a| norm_axis(a, rank)).collect(),
        None => (0..rank).rev().collect(),
    };
    // Output dim k is input dim perm[k]: input dim j is read at loop k.
    let mut exprs = vec![None; rank];
    for (k, &j) in perm.iter().enumerate() {
        exprs[j] = Some(d(kb.e.cx, k));
    }
    let exprs: Vec<Expr> = exprs
        .into_iter()
        .map(|e| e.expect("perm is a permutation (verified)"))
        .collect();
    gather_map(kb, op, &exprs, true)
}

pub(super) fn expand_or_tile(kb: &mut KernelBuilder, op: OpId, tile: bool) -> Result<()> {
    // Tiling a loop nest cannot slice an operand read through `mod`, so a
    // Tile is one unchunked loop nest.
    let data = kb.model.ir.op(op);
    let (xd, _) = kb.shape(data.inputs[0].expect("input"))?;
    let (yd, _) = kb.shape(data.results[0].expect("output"))?;
    if xd.iter().chain(&yd).any(|&d| d == DYNAMIC) {
        return wrapped_read(kb, op);
    }
    let cx = kb.e.cx;
    let exprs: Vec<Expr> = if tile {
        xd.iter()
            .enumerate()
            .map(|(i, &n)| match n {
                1 => Expr::constant(cx, 0),
                _ if n == yd[i] => d(cx, i),
                _ => d(cx, i) % n,
            })
            .collect()
    } else {
        broadcast_exprs(cx, &xd, &yd)
    };
    gather_map(kb, op, &exprs, !tile)
}

/// Expand or Tile with sizes known only at run time: one loop nest over
/// the output reading the input at `i mod n` along each dim of run-time
/// size `n`: Tile's definition, and Expand's broadcast read since each of
/// its input dims is 1 or the output's (checked at run time,
/// `layout::checks`).
fn wrapped_read(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let x = kb.model.ir.op(op).inputs[0].expect("input");
    let sizes = kb.sizes(x)?;
    let rank = kb
        .shape(kb.model.ir.op(op).results[0].expect("output"))?
        .0
        .len();
    let lead = rank - sizes.len();
    let e = kb.e;
    // A size is at least 1 where the output is not empty.
    let sizes: Vec<Option<MValue>> = sizes
        .iter()
        .map(|s| match s {
            Size::Static(1) => None,
            s => Some(e.maxsi(s.value(&e), e.index(1))),
        })
        .collect();
    read_at(kb, op, |be, i| {
        sizes
            .iter()
            .enumerate()
            .map(|(j, n)| match n {
                None => be.index(0),
                Some(n) => be.remui(i[lead + j], *n),
            })
            .collect()
    })
}

/// One loop nest over output 0 of `op` reading input 0 at the coordinates
/// `coords` computes in the body from the loop indices: for index
/// arithmetic on sizes known only at run time, which affine maps cannot
/// take.
fn read_at<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    coords: impl for<'b> FnOnce(Emitter<'c, 'b>, &[MValue<'c, 'b>]) -> Vec<MValue<'c, 'b>>,
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let rank = kb.shape(y)?.0.len();
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, _| {
            let i: Vec<MValue> = (0..rank).map(|k| be.loop_index(k)).collect();
            vec![be.extract(xt, &coords(be, &i))]
        },
    );
    let g = kb.structured(g);
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// DepthToSpace / SpaceToDepth: a copy between `[N, C·b², H, W]` and
/// `[N, C, H·b, W·b]`, output pixel `(h·b + i, w·b + j)` of channel `c`
/// taking channel `(i·b + j)·C + c` (DCR) or `c·b² + i·b + j` (CRD) of
/// input pixel `(h, w)`; SpaceToDepth (`mode` from opset 28) is the
/// inverse.
pub(super) fn depth_space(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let (xd, _) = kb.shape(data.inputs[0].expect("input"))?;
    let (yd, _) = kb.shape(data.results[0].expect("output"))?;
    let b = data.attrs.int("blocksize").unwrap_or(1);
    if xd.len() != 4 {
        return Err(kb.unsupported(op, "inputs that are not 4-D"));
    }
    if b < 1 {
        return Err(kb.unsupported(op, &format!("blocksize {b}")));
    }
    let crd = data.attrs.string("mode").unwrap_or("DCR") == "CRD";
    if xd.iter().chain(&yd).any(|&d| d == DYNAMIC) {
        return depth_space_at_run_time(kb, op, b, crd);
    }
    let d = |i: usize| d(kb.e.cx, i);
    let exprs: Vec<Expr> = if data.kind == OpKind::DepthToSpace {
        let (i, j) = (d(2) % b, d(3) % b);
        let channel = if crd {
            d(1) * (b * b) + i * b + j
        } else {
            (i * b + j) * yd[1] + d(1)
        };
        vec![d(0), channel, d(2).floordiv(b), d(3).floordiv(b)]
    } else if crd {
        let bb = b * b;
        vec![
            d(0),
            d(1).floordiv(bb),
            d(2) * b + (d(1) % bb).floordiv(b),
            d(3) * b + d(1) % b,
        ]
    } else {
        let c = xd[1];
        vec![
            d(0),
            d(1) % c,
            d(2) * b + d(1).floordiv(c).floordiv(b),
            d(3) * b + d(1).floordiv(c) % b,
        ]
    };
    gather_map(kb, op, &exprs, false)
}

/// [`depth_space`] with sizes known only at run time: the same coordinates
/// computed in the body, DCR's channel count (the output's for
/// DepthToSpace, the input's for SpaceToDepth) a run-time size.
fn depth_space_at_run_time(kb: &mut KernelBuilder, op: OpId, b: i64, crd: bool) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let to_space = data.kind == OpKind::DepthToSpace;
    let channels = if to_space {
        kb.sizes(data.results[0].expect("output"))?[1]
    } else {
        kb.sizes(data.inputs[0].expect("input"))?[1]
    };
    let channels = channels.value(&kb.e);
    read_at(kb, op, |be, i| {
        let k = |v: i64| be.index(v);
        let (add, mul) = (|a, c| be.addi(a, c), |a, c| be.muli(a, c));
        let (div, rem) = (|a, c| be.divui(a, c), |a, c| be.remui(a, c));
        if to_space {
            let (r, s) = (rem(i[2], k(b)), rem(i[3], k(b)));
            let block = add(mul(r, k(b)), s);
            let channel = if crd {
                add(mul(i[1], k(b * b)), block)
            } else {
                add(mul(block, channels), i[1])
            };
            vec![i[0], channel, div(i[2], k(b)), div(i[3], k(b))]
        } else {
            let (channel, block) = if crd {
                (div(i[1], k(b * b)), rem(i[1], k(b * b)))
            } else {
                (rem(i[1], channels), div(i[1], channels))
            };
            vec![
                i[0],
                channel,
                add(mul(i[2], k(b)), div(block, k(b))),
                add(mul(i[3], k(b)), rem(block, k(b))),
            ]
        }
    })
}
