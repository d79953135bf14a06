//! DepthwiseConv, the optimizer's channels-last depthwise convolution
//! (`compiler/optimizer/src/rules/quant.rs`), written vector by vector.
//!
//! Channels-last puts the one thing a depthwise window shares — the
//! channel — in the vector lanes: a step reads 16 consecutive channels of
//! one input pixel and multiplies them by the same 16 channels of one
//! weight tap, with no gather and no reduction across lanes, whatever the
//! image's width (the channels-first window vectorizes along rows of 7 or
//! 14 pixels, MobileNet's last stages).
//!
//! An output row `oh` is computed block of 16 channels by block: the
//! block's `KH·KW` weight vectors and its bias are read once, then the
//! row's pixels [`PIXELS`] at a time, each a register of 16 accumulators
//! started at the bias, take one fused multiply-add per tap (an 8-bit
//! input is widened and converted first; its scale and zero point are
//! folded into `W` and `B` by the optimizer). The result is stored as it
//! is, or requantized as QuantizeLinear does (8-bit stores, read as they
//! are by the next integer kernel). Channels past the last whole block
//! are read and written masked.
//!
//! Chunks (an `scf.forall`) cut the output rows, at most [`CHUNKS`] of
//! them, each running over the batch.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{ElemType, Model};

use crate::builder::{vector_type, Emitter, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::quant::Requantize;
use crate::schedule::Schedule;
use crate::symbols::{static_last_dim, Check};

/// Lanes of a block of channels (one AVX-512 register of `f32`).
const LANES: i64 = 16;
/// Chunks of output rows at most: enough for a few threads to share.
const CHUNKS: i64 = 8;

/// Output pixels per register tile: with a 3×3 window, 9 weight vectors
/// and 8 accumulators fit the 32 registers with room for the inputs;
/// larger windows keep fewer accumulators.
fn pixels(taps: i64) -> i64 {
    if taps <= 9 {
        8
    } else {
        4
    }
}

/// What every step reads, as values of the kernel.
struct Operands<'c, 'a> {
    /// `X [N, H, W, C]`, already padded.
    x: MValue<'c, 'a>,
    /// How `X`'s elements become `f32`.
    input: ElemType,
    /// `W [KH, KW, C]`.
    w: MValue<'c, 'a>,
    /// `B [C]`, when given.
    bias: Option<MValue<'c, 'a>>,
    /// The QuantizeLinear of the result, when it is requantized.
    requantize: Option<Requantize<'c, 'a>>,
    kernel: [i64; 2],
    strides: [i64; 2],
    dilations: [i64; 2],
    channels: i64,
}

/// Lowers DepthwiseConv (see the module docs).
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let [Some(x), Some(w)] = [input(0), input(1)] else {
        unreachable!("verified: X and W")
    };
    let y = data.results[0].expect("verified: Y");
    let (x_dims, x_elem) = kb.shape(x)?;
    let channels = x_dims[3];
    if channels == DYNAMIC {
        return Err(kb.unsupported(op, "a symbolic C"));
    }
    let pair = |name: &str| {
        let v = data.attrs.ints(name).unwrap_or(&[1, 1]);
        [v[0], v[1]]
    };
    let e = kb.e;
    let requantize = match (input(3), input(4)) {
        (Some(ys), Some(yz)) => Some(Requantize::of(kb, ys, yz)?),
        _ => None,
    };
    let ops = Operands {
        x: kb.tensor(x),
        input: x_elem,
        w: kb.tensor(w),
        bias: input(2).map(|b| kb.tensor(b)),
        requantize,
        kernel: pair("kernel_shape"),
        strides: pair("strides"),
        dilations: pair("dilations"),
        channels,
    };
    let y_dims = kb.shape(y)?.0;
    let out = kb.init(y)?;
    let rows = y_dims[1];
    let chunks = if rows == DYNAMIC {
        CHUNKS
    } else {
        rows.min(CHUNKS)
    };
    let out = e.forall(chunks, out, |be, t, shared| {
        let mut sizes = be.sizes_of(shared, &y_dims);
        let extent = sizes[1].value(&be);
        let length = be.ceildivsi(extent, be.index(chunks));
        let start = be.minsi(be.muli(t, length), extent);
        let end = be.minsi(be.addi(start, length), extent);
        sizes[1] = Size::Dynamic(be.subi(end, start));
        let offsets = vec![
            Size::Static(0),
            Size::Dynamic(start),
            Size::Static(0),
            Size::Static(0),
        ];
        let tile = be.extract_slice(shared, &offsets, &sizes, &[1; 4]);
        let tile = rows_of(be, &ops, tile, &sizes, start);
        (tile, offsets, sizes)
    });
    kb.define(y, out);
    kb.written(Schedule::Written { chunks });
    Ok(())
}

/// The tile of output rows `start..` (sizes `sizes`), row by row over the
/// batch.
fn rows_of<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    tile: MValue<'c, 'a>,
    sizes: &[Size<'c, '_>],
    start: MValue<'c, '_>,
) -> MValue<'c, 'a> {
    let [batch, rows, width] = [0, 1, 2].map(|i| sizes[i].value(&e));
    let zero = e.index(0);
    e.for_loop(zero, batch, &[tile], |be, n, t| {
        be.for_loop(be.index(0), rows, &t, |be, r, t| {
            let oh = be.addi(start, r);
            let whole = ops.channels / LANES;
            let t = be.for_loop(be.index(0), be.index(whole), &t, |be, b, t| {
                let c = be.muli(b, be.index(LANES));
                vec![channel_block(be, ops, t[0], [n, r, oh, c], width, true)]
            });
            if ops.channels % LANES == 0 {
                return t;
            }
            let c = be.index(whole * LANES);
            vec![channel_block(be, ops, t[0], [n, r, oh, c], width, false)]
        })
    })[0]
}

/// The 16 channels from `c` of output row `r` of the tile (row `oh` of
/// the image `n`), `width` pixels: the block's weights and bias read once,
/// then [`pixels`] at a time and one at a time. `whole`: all 16 channels
/// lie inside `C` (else reads and writes are masked).
fn channel_block<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    tile: MValue<'c, 'a>,
    [n, r, oh, c]: [MValue<'c, '_>; 4],
    width: MValue<'c, '_>,
    whole: bool,
) -> MValue<'c, 'a> {
    let f32t = Type::float32(e.cx);
    let fzero = e.f(f32t, 0.0);
    let weights: Vec<MValue> = (0..ops.kernel[0])
        .flat_map(|kh| (0..ops.kernel[1]).map(move |kw| (kh, kw)))
        .map(|(kh, kw)| e.read_vector(ops.w, &[e.index(kh), e.index(kw), c], LANES, fzero, whole))
        .collect();
    let bias = match ops.bias {
        Some(b) => e.read_vector(b, &[c], LANES, fzero, whole),
        None => e.broadcast(fzero, LANES),
    };
    let block = Block {
        weights,
        bias,
        n,
        r,
        top: e.muli(oh, e.index(ops.strides[0])),
        c,
        whole,
    };
    let step = pixels(ops.kernel[0] * ops.kernel[1]);
    let full = e.divui(width, e.index(step));
    let tile = e.for_loop(e.index(0), full, &[tile], |be, i, t| {
        let ow = be.muli(i, be.index(step));
        vec![pixel_tile(be, ops, &block, t[0], ow, step)]
    })[0];
    let done = e.muli(full, e.index(step));
    e.for_loop(done, width, &[tile], |be, ow, t| {
        vec![pixel_tile(be, ops, &block, t[0], ow, 1)]
    })[0]
}

/// A block of 16 channels of one output row, as its pixel tiles read it.
struct Block<'c, 'a> {
    /// `W[kh, kw, c..c + 16]`, tap by tap (row-major).
    weights: Vec<MValue<'c, 'a>>,
    /// `B[c..c + 16]`, or zeros.
    bias: MValue<'c, 'a>,
    /// The image, the row in the tile, the window's first input row
    /// (`oh·s₀`), the first channel.
    n: MValue<'c, 'a>,
    r: MValue<'c, 'a>,
    top: MValue<'c, 'a>,
    c: MValue<'c, 'a>,
    /// All 16 channels lie inside `C`.
    whole: bool,
}

/// Output pixels `ow..ow + count` of the block: one accumulator each,
/// started at the bias, a fused multiply-add per tap, then stored
/// (requantized when asked).
fn pixel_tile<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    block: &Block<'c, '_>,
    tile: MValue<'c, 'a>,
    ow: MValue<'c, '_>,
    count: i64,
) -> MValue<'c, 'a> {
    let f32t = Type::float32(e.cx);
    let lanes_f32 = vector_type(&[LANES], f32t);
    let lefts: Vec<MValue> = (0..count)
        .map(|p| e.muli(e.addi(ow, e.index(p)), e.index(ops.strides[1])))
        .collect();
    let mut accs = vec![block.bias; count as usize];
    for kh in 0..ops.kernel[0] {
        let h = e.addi(block.top, e.index(kh * ops.dilations[0]));
        for kw in 0..ops.kernel[1] {
            let w = block.weights[(kh * ops.kernel[1] + kw) as usize];
            for (acc, &left) in accs.iter_mut().zip(&lefts) {
                let at = [
                    block.n,
                    h,
                    e.addi(left, e.index(kw * ops.dilations[1])),
                    block.c,
                ];
                let x = read_f32(e, ops, &at, block.whole, lanes_f32);
                *acc = e.fma(x, w, *acc);
            }
        }
    }
    let mut tile = tile;
    for (p, y) in (0..count).zip(accs) {
        let y = match &ops.requantize {
            Some(q) => q.lanes(e, y, LANES),
            None => y,
        };
        let at = [block.n, block.r, e.addi(ow, e.index(p)), block.c];
        tile = e.write_vector(y, tile, &at, block.whole);
    }
    tile
}

/// The 16 channels of `X` at `at` as `f32` (8-bit inputs widened and
/// converted).
fn read_f32<'c, 'a>(
    e: Emitter<'c, 'a>,
    ops: &Operands<'c, '_>,
    at: &[MValue<'c, '_>],
    whole: bool,
    lanes_f32: Type<'c>,
) -> MValue<'c, 'a> {
    let wide = vector_type(&[LANES], e.int_type(32));
    match ops.input {
        ElemType::U8 => {
            let v = e.read_vector(ops.x, at, LANES, e.i(e.int_type(8), 0), whole);
            e.uitofp(e.extui(v, wide), lanes_f32)
        }
        ElemType::I8 => {
            let v = e.read_vector(ops.x, at, LANES, e.i(e.int_type(8), 0), whole);
            e.sitofp(e.extsi(v, wide), lanes_f32)
        }
        _ => e.read_vector(ops.x, at, LANES, e.f(Type::float32(e.cx), 0.0), whole),
    }
}

/// The conditions the lowering relies on, checked at run time: none (the
/// batch and the image's size may be symbolic; `C` must be static, which
/// the lowering reports).
pub(crate) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    static_last_dim(model, data, "a symbolic C")
}
