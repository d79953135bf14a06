//! PackedMatMulInteger, the optimizer's form of a MatMulInteger with
//! constant weights (`compiler/optimizer/src/rules/quant.rs`), written
//! vector by vector: no schedule vectorizes 8-bit dot products.
//!
//! The output's columns are cut into tiles of `nr` packed blocks of 16
//! columns, one chunk per tile (an `scf.forall`), and each chunk runs down
//! all the rows, [`ROWS`] at a time, then one at a time. A step of the
//! reduction broadcasts four bytes of `A` per row, reads one 64-byte line
//! of each of the tile's blocks, and adds their lane-wise dot products
//! into `rows × nr` accumulators of 16 lanes: `vpdpbusd` on AVX-512 VNNI
//! (`Target::dot_u8s8`), elsewhere the same sums widened to `i32`. A `K`
//! that is not a multiple of 4 ends with one masked step (the packed
//! weights are zero there).
//!
//! The zero points come last, per accumulator:
//! `y = acc − za·colsum[n] − zb[n]·Σₖ a[m, k] + K·za·zb[n]`, the row sums
//! (dot products with ones, in the same loop) only when `B` has a zero
//! point. A signed `A` is read with its sign bits flipped, as the unsigned
//! `A + 128`, and its zero point shifted by 128 with it.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::packing::{INT8_BLOCK_COLUMNS, INT8_LANE_ROWS};
use onnx_mlc_dialect::{ElemType, Model};

use crate::builder::{ranked_tensor, vector_type, Emitter, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::symbols::{sized_dims, Check};

/// Rows of `A` per register tile: `ROWS × 4` accumulators, 4 lines of
/// `B` and a broadcast fit AVX-512's 32 registers (with 4 row sums).
const ROWS: i64 = 4;
/// Lanes of an accumulator.
const LANES: i64 = INT8_BLOCK_COLUMNS;
/// Bytes of a packed line.
const LINE: i64 = INT8_BLOCK_COLUMNS * INT8_LANE_ROWS;

/// What every step of the kernel reads, as values of the kernel.
struct Operands<'c, 'a> {
    /// `A`, `[batch…, M, K]` (`i8`).
    a: MValue<'c, 'a>,
    /// The packed weights as `[⌈N/16⌉, ⌈K/4⌉, 64]`.
    b: MValue<'c, 'a>,
    /// The column sums `[N]`.
    colsum: MValue<'c, 'a>,
    /// `A`'s zero point as an unsigned `i32` (shifted for a signed `A`),
    /// when it is not 0.
    a_zero: Option<MValue<'c, 'a>>,
    /// `B`'s zero point (`i32`): per column, or one element of this rank.
    b_zero: Option<(MValue<'c, 'a>, ZeroPoint)>,
    /// The reduction's length.
    k: i64,
    /// Whether `A` is signed (read with its sign bits flipped).
    signed: bool,
    /// Whether the target has `vpdpbusd`.
    vnni: bool,
}

/// How `B`'s zero point lies.
#[derive(Copy, Clone)]
enum ZeroPoint {
    PerColumn,
    PerTensor { rank: usize },
}

/// Lowers PackedMatMulInteger (see the module docs).
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let [Some(a), Some(packed), Some(colsum)] = [input(0), input(1), input(2)] else {
        unreachable!("verified: A, B_packed and B_colsum")
    };
    let y = data.results[0].expect("verified: Y");
    let (a_dims, a_elem) = kb.shape(a)?;
    let rank = a_dims.len();
    let k = a_dims[rank - 1];
    if k == DYNAMIC {
        return Err(kb.unsupported(op, "a symbolic K"));
    }
    let n = kb.shape(colsum)?.0[0];
    let blocks = kb.shape(packed)?.0[0];
    let e = kb.e;
    let (i8t, i32t) = (e.int_type(8), e.int_type(32));
    let y_dims = kb.shape(y)?.0;
    let signed = a_elem == ElemType::I8;
    let a_zero = match input(3) {
        Some(z) => {
            let zt = kb.tensor(z);
            let at = vec![e.index(0); kb.shape(z)?.0.len()];
            let z8 = e.extract(zt, &at);
            let z = if signed {
                e.extsi(z8, i32t)
            } else {
                e.extui(z8, i32t)
            };
            Some(if signed { e.addi(z, e.i(i32t, 128)) } else { z })
        }
        None => signed.then(|| e.i(i32t, 128)),
    };
    let b_zero = match input(4) {
        Some(z) => {
            let dims = kb.shape(z)?.0;
            let lies = match dims[..] {
                [c] if c != 1 => ZeroPoint::PerColumn,
                _ => ZeroPoint::PerTensor { rank: dims.len() },
            };
            Some((kb.tensor(z), lies))
        }
        None => None,
    };
    let groups_in_b = kb.shape(packed)?.0[1];
    let ops = Operands {
        a: kb.tensor(a),
        b: e.collapse_shape(
            kb.tensor(packed),
            &[vec![0], vec![1], vec![2, 3]],
            ranked_tensor(&[blocks, groups_in_b, LINE], i8t),
        ),
        colsum: kb.tensor(colsum),
        a_zero,
        b_zero,
        k,
        signed,
        vnni: kb.target.dot_u8s8,
    };
    let out = kb.init(y)?;
    let per_tile = [4, 3, 2, 1]
        .into_iter()
        .find(|d| blocks % d == 0)
        .expect("1 divides");
    let tiles = blocks / per_tile;
    let out = if tiles > 1 {
        e.forall(tiles, out, |be, t, shared| {
            let first = be.muli(t, be.index(per_tile));
            let c0 = be.muli(first, be.index(LANES));
            let width = be.minsi(be.index(per_tile * LANES), be.subi(be.index(n), c0));
            let mut tile_sizes = be.sizes_of(shared, &y_dims);
            tile_sizes[rank - 1] = Size::Dynamic(width);
            let mut offsets = vec![Size::Static(0); rank];
            offsets[rank - 1] = Size::Dynamic(c0);
            let tile = be.extract_slice(shared, &offsets, &tile_sizes, &vec![1; rank]);
            let tile = down_the_rows(be, &ops, tile, &y_dims[..rank - 1], (first, per_tile));
            (tile, offsets, tile_sizes)
        })
    } else {
        down_the_rows(e, &ops, out, &y_dims[..rank - 1], (e.index(0), per_tile))
    };
    kb.define(y, out);
    kb.written(Schedule::Written { chunks: tiles });
    Ok(())
}

/// The tile `tile` (whose type dims start with `lead`: batch dims, rows;
/// its columns are those of `per_tile` blocks from block `first`) computed [`ROWS`] rows
/// at a time, then row by row, its rows counted across the batch dims
/// (consecutive in memory): a batch of one-row matrices, as a
/// sequence-first attention's projections are, still fills the register
/// tiles.
fn down_the_rows<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    tile: MValue<'c, 'a>,
    lead: &[i64],
    (first, per_tile): (MValue<'c, '_>, i64),
) -> MValue<'c, 'a> {
    let sizes: Vec<MValue> = e.sizes_of(tile, lead).iter().map(|s| s.value(&e)).collect();
    let lead = &sizes[..];
    let rows = e.product(lead);
    let full = e.divui(rows, e.index(ROWS));
    let tile = e.for_loop(e.index(0), full, &[tile], |be, i, t| {
        let r0 = be.muli(i, be.index(ROWS));
        vec![register_tile(
            be,
            ops,
            t[0],
            (lead, r0, ROWS),
            (first, per_tile),
        )]
    })[0];
    let done = e.muli(full, e.index(ROWS));
    e.for_loop(done, rows, &[tile], |be, r, t| {
        vec![register_tile(
            be,
            ops,
            t[0],
            (lead, r, 1),
            (first, per_tile),
        )]
    })[0]
}

/// Rows `r0..r0 + mr` of the tile (counted across the leading dims of
/// sizes `lead`): the reduction over `K` in `mr × per_tile` accumulators,
/// then the zero points, written into `tile` (masked past `N`).
fn register_tile<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    tile: MValue<'c, 'a>,
    (lead, r0, mr): (&[MValue<'c, '_>], MValue<'c, '_>, i64),
    (first, per_tile): (MValue<'c, '_>, i64),
) -> MValue<'c, 'a> {
    let rows: Vec<Vec<MValue>> = (0..mr)
        .map(|i| e.delinearize(e.addi(r0, e.index(i)), lead))
        .collect();
    let i32t = e.int_type(32);
    let zero = e.int_vector(i32t, &[0; LANES as usize]);
    let row_sums = if ops.b_zero.is_some() { mr } else { 0 };
    let init = vec![zero; (mr * per_tile + row_sums) as usize];
    let whole = ops.k / INT8_LANE_ROWS;
    let mut accs = e.for_loop(e.index(0), e.index(whole), &init, |be, q, accs| {
        step(be, ops, &rows, (first, per_tile), q, accs, INT8_LANE_ROWS)
    });
    let tail = ops.k % INT8_LANE_ROWS;
    if tail != 0 {
        let last = e.index(whole);
        accs = step(e, ops, &rows, (first, per_tile), last, accs, tail);
    }
    let splat = |x| e.broadcast(x, LANES);
    let mut tile = tile;
    for j in 0..per_tile {
        let col = e.muli(e.addi(first, e.index(j)), e.index(LANES));
        let zero_i32 = e.i(i32t, 0);
        let b_zero = ops.b_zero.map(|(z, lies)| match lies {
            ZeroPoint::PerColumn => e.read_vector(z, &[col], LANES, zero_i32, false),
            ZeroPoint::PerTensor { rank } => splat(e.extract(z, &vec![e.index(0); rank])),
        });
        // Terms that do not depend on the row: −za·colsum + K·za·zb.
        let column_terms = ops.a_zero.map(|za| {
            let colsum = e.read_vector(ops.colsum, &[col], LANES, zero_i32, false);
            let za = splat(za);
            let t = e.subi(zero, e.muli(za, colsum));
            match b_zero {
                Some(zb) => e.addi(t, e.muli(e.muli(za, splat(e.i(i32t, ops.k))), zb)),
                None => t,
            }
        });
        for i in 0..mr {
            let mut y = accs[(i * per_tile + j) as usize];
            if let Some(t) = column_terms {
                y = e.addi(y, t);
            }
            if let Some(zb) = b_zero {
                let sums = accs[(mr * per_tile + i) as usize];
                y = e.subi(y, e.muli(zb, sums));
            }
            let mut at = rows[i as usize].clone();
            at.push(e.muli(e.index(j), e.index(LANES)));
            tile = e.write_vector(y, tile, &at, false);
        }
    }
    tile
}

/// One step of the reduction: group `q` of four rows of `B` (`bytes` of
/// them inside `K`, read masked when fewer than 4) times the rows of `A`
/// at indices `rows` (all but the last dim), added into `accs` (then the
/// row sums).
fn step<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    rows: &[Vec<MValue<'c, '_>>],
    (first, per_tile): (MValue<'c, '_>, i64),
    q: MValue<'c, '_>,
    accs: Vec<MValue<'c, 'a>>,
    bytes: i64,
) -> Vec<MValue<'c, 'a>> {
    let (i8t, i32t) = (e.int_type(8), e.int_type(32));
    let pad = e.i(i8t, 0);
    let col = e.muli(q, e.index(INT8_LANE_ROWS));
    let mr = rows.len() as i64;
    let a: Vec<MValue> = rows
        .iter()
        .map(|row| {
            let mut at = row.clone();
            at.push(col);
            let four = e.read_vector(ops.a, &at, INT8_LANE_ROWS, pad, bytes == INT8_LANE_ROWS);
            let word = e.extract_lane(e.bitcast_vector(four, 1, i32t), 0, i32t);
            let word = if ops.signed {
                e.xori(word, e.i(i32t, 0x8080_8080u32 as i32 as i64))
            } else {
                word
            };
            e.bitcast_vector(e.broadcast(word, LANES), LINE, i8t)
        })
        .collect();
    let b: Vec<MValue> = (0..per_tile)
        .map(|j| {
            let block = e.addi(first, e.index(j));
            e.read_vector(ops.b, &[block, q, e.index(0)], LINE, pad, true)
        })
        .collect();
    let mut out = accs.clone();
    for (i, &ai) in a.iter().enumerate() {
        for (j, &bj) in b.iter().enumerate() {
            let at = i * per_tile as usize + j;
            out[at] = dot(e, ops.vnni, accs[at], ai, bj);
        }
    }
    if ops.b_zero.is_some() {
        let ones: Vec<i64> = (0..LINE)
            .map(|x| i64::from(x % INT8_LANE_ROWS < bytes))
            .collect();
        let ones = e.int_vector(i8t, &ones);
        for (i, &ai) in a.iter().enumerate() {
            let at = mr as usize * per_tile as usize + i;
            out[at] = dot(e, ops.vnni, accs[at], ai, ones);
        }
    }
    out
}

/// `acc` plus, per 32-bit lane, the dot product of the lane's four
/// unsigned bytes of `a` with its four signed bytes of `b`.
fn dot<'c, 'a>(
    e: Emitter<'c, 'a>,
    vnni: bool,
    acc: MValue<'c, 'a>,
    a: MValue<'c, 'a>,
    b: MValue<'c, 'a>,
) -> MValue<'c, 'a> {
    let i32t = e.int_type(32);
    if vnni {
        return e.intrinsic(
            "llvm.x86.avx512.vpdpbusd.512",
            &[acc, a, b],
            vector_type(&[LANES], i32t),
        );
    }
    let wide = vector_type(&[LINE], i32t);
    let products = e.muli(e.extui(a, wide), e.extsi(b, wide));
    let lanes = e.shape_cast(products, vector_type(&[LANES, INT8_LANE_ROWS], i32t));
    e.add_rows(lanes, acc)
}

/// The conditions the lowering relies on, checked at run time: none
/// (`A`'s rows may be symbolic; its `K` must be static, which the
/// lowering reports).
pub(crate) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let a = sized_dims(model, data.inputs.first().copied().flatten())?;
    match a.last() {
        Some(k) if k.as_known().is_some() => Ok(vec![]),
        _ => Err("a symbolic K"),
    }
}
