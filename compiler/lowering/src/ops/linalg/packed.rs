//! PackedMatMulInteger and PackedConvInteger, the optimizer's forms of a
//! MatMulInteger and of a (QDQ) convolution with constant weights
//! (`compiler/optimizer/src/rules/quant.rs`), written vector by vector: no
//! schedule vectorizes 8-bit dot products.
//!
//! Both are one kernel: a row of the output is a row of `A`, or for the
//! convolution an output pixel of the channels-last `X`, whose reduction
//! runs over the window's positions and, at each, over the channels, four
//! at a time (the optimizer pads `X` with its zero point, and its
//! channels to a multiple of 4, so every read is four whole bytes).
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
//! point; then, for the QDQ forms, the conversion to `f32`, the scale and
//! the bias, and the QuantizeLinear that follows when the optimizer folded
//! it in (8-bit stores: the next product reads them as they are). A signed `A` is read with its sign bits flipped, as the
//! unsigned `A + 128`, and its zero point shifted by 128 with it.

use melior::ir::r#type::MemRefType;
use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::packing::{INT8_BLOCK_COLUMNS, INT8_LANE_ROWS};
use onnx_mlc_dialect::{ElemType, Model, OpKind};

use super::tiles::{TileOperands, TILE_BYTES, TILE_ROWS};
use crate::builder::{ranked_tensor, vector_type, Emitter, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::quant::Requantize;
use crate::schedule::Schedule;
use crate::symbols::{static_last_dim, Check};

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
    /// The convolution's window, when `A` is a channels-last image.
    window: Option<Window>,
    /// The `f32` scale and bias (each per column, or one element of this
    /// rank) that turn the sums into the float result, when given.
    scale: Option<(MValue<'c, 'a>, ZeroPoint)>,
    bias: Option<(MValue<'c, 'a>, ZeroPoint)>,
    /// The output's quantization, when the float result is requantized.
    requantize: Option<Requantize<'c, 'a>>,
    /// `A` and the packed weights with their memref types, when the rows
    /// take AMX tiles ([`tiles`]).
    amx: Option<[(MValue<'c, 'a>, Type<'c>); 2]>,
}

/// A PackedConvInteger's window over `X [N, H, W, C]`.
#[derive(Copy, Clone)]
struct Window {
    kernel: [i64; 2],
    strides: [i64; 2],
    dilations: [i64; 2],
    /// `C`, a multiple of 4.
    channels: i64,
}

impl Window {
    /// The window of the PackedConvInteger `data` over `channels` channels.
    fn of(data: &OpData, channels: i64) -> Window {
        let pair = |name: &str| {
            let v = data.attrs.ints(name).unwrap_or(&[1, 1]);
            [v[0], v[1]]
        };
        Window {
            kernel: pair("kernel_shape"),
            strides: pair("strides"),
            dilations: pair("dilations"),
            channels,
        }
    }
}

/// How a per-column operand (`B`'s zero point, the scale, the bias) lies.
#[derive(Copy, Clone)]
enum ZeroPoint {
    PerColumn,
    PerTensor { rank: usize },
}

/// Lowers PackedMatMulInteger or PackedConvInteger (see the module docs).
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let [Some(a), Some(packed), Some(colsum)] = [input(0), input(1), input(2)] else {
        unreachable!("verified: A, B_packed and B_colsum")
    };
    let y = data.results[0].expect("verified: Y");
    let (a_dims, a_elem) = kb.shape(a)?;
    let channels = a_dims[a_dims.len() - 1];
    if channels == DYNAMIC {
        return Err(kb.unsupported(op, "a symbolic K"));
    }
    let window = (data.kind == OpKind::PackedConvInteger).then(|| Window::of(data, channels));
    let k = window.map_or(channels, |w| w.kernel[0] * w.kernel[1] * channels);
    let n = kb.shape(colsum)?.0[0];
    let blocks = kb.shape(packed)?.0[0];
    let e = kb.e;
    let (i8t, i32t) = (e.int_type(8), e.int_type(32));
    let y_dims = kb.shape(y)?.0;
    let rank = y_dims.len();
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
    let per_column = |i: usize| -> Result<Option<(MValue, ZeroPoint)>> {
        let Some(v) = input(i) else { return Ok(None) };
        let dims = kb.shape(v)?.0;
        let lies = match dims[..] {
            [c] if c != 1 => ZeroPoint::PerColumn,
            _ => ZeroPoint::PerTensor { rank: dims.len() },
        };
        Ok(Some((kb.tensor(v), lies)))
    };
    let (b_zero, scale, bias) = (per_column(4)?, per_column(5)?, per_column(6)?);
    let requantize = match (input(7), input(8)) {
        (Some(ys), Some(yz)) => Some(Requantize::of(kb, ys, yz)?),
        _ => None,
    };
    let groups_in_b = kb.shape(packed)?.0[1];
    let per_tile = [4, 3, 2, 1]
        .into_iter()
        .find(|d| blocks % d == 0)
        .expect("1 divides");
    let tiles = blocks / per_tile;
    let (dim, parts) = row_split(&y_dims, window.is_some(), tiles);
    // A chunk's rows are consecutive rows of A: those of a product whose
    // rows the chunks do not cut (counted across the batch dims, as a
    // sequence-first attention's `[S, 1, K]` projections have them) or
    // that has no batch dims, or the pixels of one image under a 1×1
    // window with unit strides.
    let consecutive_rows = match window {
        None => parts == 1 || y_dims[..rank - 2].iter().all(|&d| d == 1),
        Some(w) => {
            w.kernel == [1, 1]
                && w.strides == [1, 1]
                && y_dims[0] == 1
                && a_dims[1..3] == y_dims[1..3]
        }
    };
    let amx = (kb.target.amx_int8
        && !signed
        && input(4).is_none()
        && k % TILE_BYTES == 0
        && consecutive_rows)
        .then(|| -> Result<_> {
            let memref = |v| -> Result<Type> {
                let dims = kb.shape(v)?.0;
                Ok(MemRefType::new(i8t, &dims, None, None).into())
            };
            Ok([
                (kb.tensor(a), memref(a)?),
                (kb.tensor(packed), memref(packed)?),
            ])
        })
        .transpose()?;
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
        window,
        scale,
        bias,
        requantize,
        amx,
    };
    let out = kb.init(y)?;
    let chunks = tiles * parts;
    let out = if chunks > 1 {
        e.forall(chunks, out, |be, t, shared| {
            let (tile, part) = (be.divui(t, be.index(parts)), be.remui(t, be.index(parts)));
            let first = be.muli(tile, be.index(per_tile));
            let c0 = be.muli(first, be.index(LANES));
            let width = be.minsi(be.index(per_tile * LANES), be.subi(be.index(n), c0));
            let mut sizes = be.sizes_of(shared, &y_dims);
            sizes[rank - 1] = Size::Dynamic(width);
            let mut offsets = vec![Size::Static(0); rank];
            offsets[rank - 1] = Size::Dynamic(c0);
            let shift = (parts > 1).then(|| {
                let extent = y_dims[dim];
                let length = (extent + parts - 1) / parts;
                let start = be.muli(part, be.index(length));
                let end = be.minsi(be.addi(start, be.index(length)), be.index(extent));
                offsets[dim] = Size::Dynamic(start);
                sizes[dim] = Size::Dynamic(be.subi(end, start));
                (dim, start)
            });
            let tile = be.extract_slice(shared, &offsets, &sizes, &vec![1; rank]);
            // The tile's own dims: the cut one is known at run time only.
            let mut lead = y_dims[..rank - 1].to_vec();
            if shift.is_some() {
                lead[dim] = DYNAMIC;
            }
            let tile = down_the_rows(be, &ops, tile, &lead, (first, per_tile), shift);
            (tile, offsets, sizes)
        })
    } else {
        let lead = &y_dims[..rank - 1];
        down_the_rows(e, &ops, out, lead, (e.index(0), per_tile), None)
    };
    kb.define(y, out);
    kb.written(Schedule::Written { chunks });
    Ok(())
}

/// Chunks of a packed op wanted in all, so that a few threads share
/// even when the output has few column tiles (the 64 channels of a
/// ResNet's first stage are one).
const MIN_CHUNKS: i64 = 8;

/// The output dim that chunks cut besides the columns (a convolution's
/// output rows, a product's rows) and into how many parts: enough for
/// [`MIN_CHUNKS`] chunks with `tiles` column tiles, each part at least
/// [`ROWS`] long and none empty (parts of `⌈extent/parts⌉` rows, the last
/// one shorter); 1 when that dim is symbolic.
fn row_split(y_dims: &[i64], conv: bool, tiles: i64) -> (usize, i64) {
    let dim = if conv { 1 } else { y_dims.len() - 2 };
    let extent = y_dims[dim];
    if extent == DYNAMIC || tiles >= MIN_CHUNKS {
        return (dim, 1);
    }
    let parts = ((MIN_CHUNKS + tiles - 1) / tiles).min(extent / ROWS).max(1);
    // As many parts as whole lengths need: none is left empty.
    let length = (extent + parts - 1) / parts;
    (dim, (extent + length - 1) / length)
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
    shift: Option<(usize, MValue<'c, '_>)>,
) -> MValue<'c, 'a> {
    let sizes: Vec<MValue> = e.sizes_of(tile, lead).iter().map(|s| s.value(&e)).collect();
    let lead = &sizes[..];
    let rows = e.product(lead);
    let (tile, tiled) = match ops.amx {
        Some([a, b]) => {
            let tiles = TileOperands::start(e, a, b, ops.k, ops.k / INT8_LANE_ROWS);
            let full = e.divui(rows, e.index(TILE_ROWS));
            let tile = e.for_loop(e.index(0), full, &[tile], |be, i, t| {
                let r0 = be.muli(i, be.index(TILE_ROWS));
                vec![tile_rows(
                    be,
                    ops,
                    &tiles,
                    t[0],
                    (lead, r0),
                    (first, per_tile),
                    shift,
                )]
            })[0];
            tiles.finish(e);
            (tile, e.muli(full, e.index(TILE_ROWS)))
        }
        None => (tile, e.index(0)),
    };
    let full = e.divui(e.subi(rows, tiled), e.index(ROWS));
    let tile = e.for_loop(e.index(0), full, &[tile], |be, i, t| {
        let r0 = be.addi(tiled, be.muli(i, be.index(ROWS)));
        vec![register_tile(
            be,
            ops,
            t[0],
            (lead, r0, ROWS),
            (first, per_tile),
            shift,
        )]
    })[0];
    let done = e.addi(tiled, e.muli(full, e.index(ROWS)));
    e.for_loop(done, rows, &[tile], |be, r, t| {
        vec![register_tile(
            be,
            ops,
            t[0],
            (lead, r, 1),
            (first, per_tile),
            shift,
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
    shift: Option<(usize, MValue<'c, '_>)>,
) -> MValue<'c, 'a> {
    let rows: Vec<Vec<MValue>> = (0..mr)
        .map(|i| e.delinearize(e.addi(r0, e.index(i)), lead))
        .collect();
    // The rows in the whole output (and `A`), past the chunk's offset.
    let a_rows: Vec<Vec<MValue>> = match shift {
        Some((dim, start)) => rows
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r[dim] = e.addi(r[dim], start);
                r
            })
            .collect(),
        None => rows.clone(),
    };
    let i32t = e.int_type(32);
    let zero = e.int_vector(i32t, &[0; LANES as usize]);
    let row_sums = if ops.b_zero.is_some() { mr } else { 0 };
    let init = vec![zero; (mr * per_tile + row_sums) as usize];
    let accs = match ops.window {
        None => matrix_reduction(e, ops, &a_rows, (first, per_tile), init),
        Some(w) => window_reduction(e, ops, w, &a_rows, (first, per_tile), init),
    };
    store_rows(e, ops, tile, &rows, &accs, (first, per_tile))
}

/// Rows `r0..r0 + 16` of the tile (whose rows, counted across `lead`,
/// are consecutive rows of A) on AMX tiles: the sums of the chunk's blocks, read back from
/// the sum buffer into [`store_rows`].
fn tile_rows<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    tiles: &TileOperands<'c, '_>,
    tile: MValue<'c, 'a>,
    (lead, r0): (&[MValue<'c, '_>], MValue<'c, '_>),
    (first, per_tile): (MValue<'c, '_>, i64),
    shift: Option<(usize, MValue<'c, '_>)>,
) -> MValue<'c, 'a> {
    // The chunk's first row of A: its offset along the cut dim times the
    // rows of A each step of that dim spans (a convolution's output row
    // is OW pixels).
    let a_row = match shift {
        Some((dim, start)) => e.addi(r0, e.muli(start, e.product(&lead[dim + 1..]))),
        None => r0,
    };
    tiles.products(e, a_row, (first, per_tile));
    // The epilogue row by row (a loop: unrolled, 16 rows of blocks made
    // the IR of a ResNet's kernels slow to transform).
    e.for_loop(e.index(0), e.index(TILE_ROWS), &[tile], |be, i, t| {
        let accs: Vec<MValue> = (0..per_tile)
            .map(|j| be.load_vector(tiles.sums, &[be.index(j), i, be.index(0)], LANES))
            .collect();
        let row = be.delinearize(be.addi(r0, i), lead);
        vec![store_rows(be, ops, t[0], &[row], &accs, (first, per_tile))]
    })[0]
}

/// The sums `accs` of the tile's rows at `rows` (`rows.len() × per_tile`
/// accumulators, then the row sums when `B` has a zero point) through the
/// zero points, scale, bias and requantization, written into `tile`
/// (masked past `N`).
fn store_rows<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    tile: MValue<'c, 'a>,
    rows: &[Vec<MValue<'c, '_>>],
    accs: &[MValue<'c, '_>],
    (first, per_tile): (MValue<'c, '_>, i64),
) -> MValue<'c, 'a> {
    let mr = rows.len() as i64;
    let i32t = e.int_type(32);
    let zero = e.int_vector(i32t, &[0; LANES as usize]);
    let splat = |x| e.broadcast(x, LANES);
    let f32t = Type::float32(e.cx);
    let mut tile = tile;
    for j in 0..per_tile {
        let col = e.muli(e.addi(first, e.index(j)), e.index(LANES));
        let lanes = |(v, lies): (MValue<'c, '_>, ZeroPoint), pad| match lies {
            ZeroPoint::PerColumn => e.read_vector(v, &[col], LANES, pad, false),
            ZeroPoint::PerTensor { rank } => splat(e.extract(v, &vec![e.index(0); rank])),
        };
        let zero_i32 = e.i(i32t, 0);
        let b_zero = ops.b_zero.map(|z| lanes(z, zero_i32));
        let scale = ops.scale.map(|v| lanes(v, e.f(f32t, 0.0)));
        let bias = ops.bias.map(|v| lanes(v, e.f(f32t, 0.0)));
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
            if let Some(scale) = scale {
                y = e.mulf(e.sitofp(y, vector_type(&[LANES], f32t)), scale);
                if let Some(bias) = bias {
                    y = e.addf(y, bias);
                }
            }
            if let Some(q) = &ops.requantize {
                y = q.lanes(e, y, LANES);
            }
            let mut at = rows[i as usize].clone();
            at.push(e.muli(e.index(j), e.index(LANES)));
            tile = e.write_vector(y, tile, &at, false);
        }
    }
    tile
}

/// The reduction of a matrix product: group by group of four columns of
/// `A` (the rows at indices `rows`, all but the last dim), the last group
/// masked when `K` is not a multiple of 4.
fn matrix_reduction<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    rows: &[Vec<MValue<'c, '_>>],
    tile: (MValue<'c, '_>, i64),
    init: Vec<MValue<'c, 'a>>,
) -> Vec<MValue<'c, 'a>> {
    let whole = ops.k / INT8_LANE_ROWS;
    let accs = e.for_loop(e.index(0), e.index(whole), &init, |be, q, accs| {
        let at = row_starts(be, rows, q);
        step(be, ops, &at, tile, q, accs, INT8_LANE_ROWS)
    });
    match ops.k % INT8_LANE_ROWS {
        0 => accs,
        tail => {
            let last = e.index(whole);
            let at = row_starts(e, rows, last);
            step(e, ops, &at, tile, last, accs, tail)
        }
    }
}

/// The indices of group `q` of four bytes in each of the matrix rows
/// `rows`.
fn row_starts<'c, 'r>(
    e: Emitter<'c, 'r>,
    rows: &[Vec<MValue<'c, 'r>>],
    q: MValue<'c, 'r>,
) -> Vec<Vec<MValue<'c, 'r>>> {
    let col = e.muli(q, e.index(INT8_LANE_ROWS));
    rows.iter().map(|row| [&row[..], &[col]].concat()).collect()
}

/// The reduction of a convolution: over the window's rows and columns,
/// then the channels four at a time, for the output pixels `rows`
/// (`[n, oh, ow]` each), whose windows start at `[n, oh·s₀, ow·s₁]`.
fn window_reduction<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    w: Window,
    rows: &[Vec<MValue<'c, '_>>],
    tile: (MValue<'c, '_>, i64),
    init: Vec<MValue<'c, 'a>>,
) -> Vec<MValue<'c, 'a>> {
    let corners: Vec<[MValue; 3]> = rows
        .iter()
        .map(|r| {
            let (h, w_) = (e.index(w.strides[0]), e.index(w.strides[1]));
            [r[0], e.muli(r[1], h), e.muli(r[2], w_)]
        })
        .collect();
    let groups = w.channels / INT8_LANE_ROWS;
    e.for_loop(e.index(0), e.index(w.kernel[0]), &init, |be, kh, accs| {
        let dh = be.muli(kh, be.index(w.dilations[0]));
        be.for_loop(be.index(0), be.index(w.kernel[1]), &accs, |be, kw, accs| {
            let dw = be.muli(kw, be.index(w.dilations[1]));
            let position = be.addi(be.muli(kh, be.index(w.kernel[1])), kw);
            let q0 = be.muli(position, be.index(groups));
            be.for_loop(be.index(0), be.index(groups), &accs, |be, g, accs| {
                let c = be.muli(g, be.index(INT8_LANE_ROWS));
                let at: Vec<Vec<MValue>> = corners
                    .iter()
                    .map(|[n, h, w_]| vec![*n, be.addi(*h, dh), be.addi(*w_, dw), c])
                    .collect();
                let q = be.addi(q0, g);
                step(be, ops, &at, tile, q, accs, INT8_LANE_ROWS)
            })
        })
    })
}

/// One step of the reduction: group `q` of four rows of `B` (`bytes` of
/// them inside `K`, read masked when fewer than 4) times the four bytes
/// of `A` at each of `at` (one index per row), added into `accs` (then
/// the row sums).
fn step<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    at: &[Vec<MValue<'c, '_>>],
    (first, per_tile): (MValue<'c, '_>, i64),
    q: MValue<'c, '_>,
    accs: Vec<MValue<'c, 'a>>,
    bytes: i64,
) -> Vec<MValue<'c, 'a>> {
    let (i8t, i32t) = (e.int_type(8), e.int_type(32));
    let pad = e.i(i8t, 0);
    let mr = at.len() as i64;
    let a: Vec<MValue> = at
        .iter()
        .map(|at| {
            let four = e.read_vector(ops.a, at, INT8_LANE_ROWS, pad, bytes == INT8_LANE_ROWS);
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
/// (`A`'s rows, or `X`'s images and pixels, may be symbolic; its last
/// dim must be static, which the lowering reports).
pub(crate) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    static_last_dim(model, data, "a symbolic K")
}
