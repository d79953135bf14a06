//! Schedules: how each kernel is tiled, fused, vectorized and bufferized,
//! written in the transform dialect and applied to one kernel at a time.
//!
//! Every schedule starts the same way: the op that produces the kernel's
//! output is tiled with `scf.forall` along one parallel dimension into
//! *chunks*, and the rest of the kernel is fused into the chunk loop. After
//! bufferization that loop becomes an `scf.for` over `[0, chunks)` whose
//! bounds are then replaced by the kernel's `begin`/`end` arguments, so the
//! runtime's parallel-for can hand out chunk ranges to threads. Inside a
//! chunk, tile and vector sizes come from the [`Target`].

use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, OperationRef, RegionLike, Value, ValueLike};
use melior::Context;

use crate::builder::{walk, DYNAMIC};
use crate::error::{LowerError, Result};

/// What the schedules need to know about the target machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Width of the widest vector registers, in bits (512 for AVX-512, 256
    /// for AVX2, 128 for NEON).
    pub vector_bits: u32,
    /// Number of vector registers (32 on AVX-512 and NEON, 16 on AVX2).
    pub vector_registers: u32,
    /// Whether the target multiplies unsigned by signed bytes four at a
    /// time into 512-bit vectors of 32-bit sums (AVX-512 VNNI's
    /// `vpdpbusd`).
    pub dot_u8s8: bool,
    /// Whether the target has AMX's 8-bit tile products (`tdpbusd`: tiles
    /// of 16 rows of 64 bytes) and the process may use them.
    pub amx_int8: bool,
    /// Whether the target permutes bytes across a 512-bit register by a
    /// vector of indices into two registers (AVX-512 VBMI's `vpermi2b`).
    pub byte_permute: bool,
}

impl Target {
    /// Lanes of a vector of `elem_bits`-bit elements.
    pub fn lanes(&self, elem_bits: u32) -> i64 {
        i64::from((self.vector_bits / elem_bits.max(8)).max(1))
    }
}

/// The rows a matrix product of a symbolic number of rows is tiled for
/// (the register and cache tiles of a static product of that many rows;
/// `Schedule::with_symbolic_rows`).
const SYMBOLIC_ROWS: i64 = 128;

/// Below this many elements of work, a chunk is not worth a task.
const MIN_CHUNK_WORK: i64 = 1 << 14;
/// At most this many chunks per kernel (enough to balance many threads).
const MAX_CHUNKS: i64 = 64;
/// At most this many chunks of output channels per convolution in GEMM
/// form: each chunk reads the whole im2col matrix.
const MAX_CONV_CHUNKS: i64 = 4;
/// Floats of a convolution's im2col block kept in L2 (256 KiB).
const L2_BLOCK_FLOATS: i64 = 1 << 16;

/// The shape of a kernel's computation, as the schedules see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Only elementwise ops, over `dims`, with `elem_bits`-bit elements.
    Elementwise { dims: Vec<i64>, elem_bits: u32 },
    /// A matrix product (tagged `omlc.root`) of `m×k` by `k×n` over
    /// `batch` leading dims — a `linalg.matmul`, or a contraction generic
    /// whose loops are `batch…, m, n, k` — followed by `epilogues`
    /// elementwise ops (tagged `omlc.epilogue`) that update its result in
    /// place: a fused op's own (FusedMatMul's bias and activation), then
    /// the plan's (a residual add). All of them are computed chunk by
    /// chunk and register tile by register tile.
    Matmul {
        batch: Vec<i64>,
        m: i64,
        n: i64,
        k: i64,
        epilogues: usize,
    },
    /// A root op (tagged `omlc.root`) that reads the results of
    /// `producers` structured ops before it (tagged `omlc.p0`…), optionally
    /// followed by an elementwise epilogue (tagged `omlc.epilogue`). The
    /// last op, over `loops` (extent, whether the loop is parallel), is
    /// chunked along its first parallel loop of extent > 1 and the others
    /// are fused into the chunks, last first (a softmax's row statistics,
    /// say, are then computed per chunk of rows).
    Fused {
        loops: Vec<(i64, bool)>,
        producers: usize,
        epilogue: bool,
    },
    /// A `Fused` kernel (the last op chunked along its first parallel loop
    /// of extent > 1, the others fused into the chunks) whose ops are then
    /// tiled inside each chunk and vectorized: `tiles` has the tilings of
    /// the producers (tagged `omlc.p0`…) then the root's, `epilogue` the
    /// elementwise epilogue's when there is one. Row tilings (1 on every
    /// loop but the last) make a softmax's statistics and quotient vector
    /// ops along its rows; register tilings make FusedAttention's two
    /// contractions outer products like `Matmul`'s. Only for static
    /// shapes whose untiled loops are short enough to be one vector.
    Tiled {
        loops: Vec<(i64, bool)>,
        tiles: Vec<OpTiles>,
        epilogue: Option<OpTiles>,
    },
    /// A sliding-window root (convolution, pooling; tagged `omlc.root`)
    /// over `[N, C, …]` with `channels` output channels, each worth
    /// `work_per_channel` multiply-adds, computed into a fill tagged
    /// `omlc.init` and followed by `epilogues` elementwise ops (tagged
    /// `omlc.epilogue`) that update its result in place. Chunked along
    /// the channels; the fill, the root and the epilogues are computed
    /// chunk by chunk.
    Window {
        channels: i64,
        work_per_channel: i64,
        epilogues: usize,
    },
    /// A convolution in GEMM form (`ops/conv/convolution.rs`): a contraction (tagged
    /// `omlc.root`) of `channels × reduction` weights with a
    /// `reduction × spatial…` matrix — an im2col matrix built by an op
    /// tagged `omlc.col` when `col` — into `[1, channels, spatial…]`,
    /// initialized by a fill tagged `omlc.init`, followed by `epilogues`
    /// elementwise ops (tagged `omlc.epilogue`). Chunked along the
    /// channels like `Window`; inside a chunk, register tiles of output
    /// channels × the last spatial dim are computed as outer products.
    ConvGemm {
        channels: i64,
        reduction: i64,
        spatial: Vec<i64>,
        col: bool,
        epilogues: usize,
    },
    /// Anything else: the kernel's last structured op (tagged
    /// `omlc.root`) is chunked along its outermost parallel dim of
    /// extent `outer` when it has one; LLVM vectorizes what it can.
    Generic { outer: Option<i64> },
    /// A kernel its lowering wrote loop by loop in vector ops (the packed
    /// integer products), with its own chunk loop: an `scf.forall` of
    /// `chunks` iterations when there is more than one. Only bufferized
    /// and its vector ops lowered; symbolic sizes are its own business.
    Written { chunks: i64 },
}

/// How one op of a [`Schedule::Tiled`] kernel is tiled inside its chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpTiles {
    /// Tile sizes over the op's leading loops (0: not tiled); loops past
    /// the list are not tiled.
    pub sizes: Vec<i64>,
    /// A size counted in f32 vectors of the target: `(i, extent)` makes
    /// `sizes[i]` that many vectors' lanes, at most `extent` (the loop's).
    pub vectors: Option<(usize, i64)>,
    /// How many of the innermost tiled loops to peel (register tiles that
    /// may not divide their loop: the full tiles stay static and
    /// vectorize).
    pub peel: usize,
}

impl OpTiles {
    /// Rows: tiles of 1 along the first `leading` loops, the others whole.
    pub fn rows(leading: usize) -> OpTiles {
        OpTiles {
            sizes: vec![1; leading],
            vectors: None,
            peel: 0,
        }
    }
}

/// The longest row [`vector_rows`] makes one vector (64 AVX-512 registers
/// of f32; longer rows keep the scalar loops of `Schedule::Fused`).
const MAX_ROW: i64 = 1024;

/// Whether ops over `dims` can be computed row by row as vectors of the
/// last dim: every dim static, the last at most `MAX_ROW`.
pub fn vector_rows(dims: &[i64]) -> bool {
    dims.iter().all(|&d| d >= 0) && dims.last().is_some_and(|&d| (1..=MAX_ROW).contains(&d))
}

/// The vector tile along a last dim of `extent` with registers of `lanes`:
/// the whole dim when it fits, else the widest of `lanes`, `lanes/2` and
/// `lanes/4` that divides it (a partial last tile has a dynamic size, which
/// the vectorizer leaves scalar: 96 channels of bytes in 64-lane tiles
/// were one vector and 32 scalar steps), else `lanes`.
fn vector_tile(extent: i64, lanes: i64) -> i64 {
    if extent <= lanes {
        return extent;
    }
    [lanes, lanes / 2, lanes / 4]
        .into_iter()
        .find(|&t| t > 1 && extent % t == 0)
        .unwrap_or(lanes)
}

/// A chunking: how many chunks, and the tile sizes that produce them.
fn chunking(extent: i64, work_per_unit: i64) -> (i64, i64) {
    let total = extent * work_per_unit.max(1);
    let wanted = (total / MIN_CHUNK_WORK).clamp(1, MAX_CHUNKS).min(extent);
    let tile = (extent + wanted - 1) / wanted;
    let chunks = (extent + tile - 1) / tile;
    (tile, chunks)
}

fn list(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

const ANY: &str = "!transform.any_op";

impl Schedule {
    /// The transform script (a module with one named sequence `@schedule`
    /// taking the kernel function) and the number of chunks it makes.
    pub fn script(&self, target: &Target) -> (String, i64) {
        let mut s = Script::default();
        if self.is_empty() {
            // Nothing to compute (and tiling a loop of extent 0 breaks).
            s.bufferize();
            return (s.finish(), 1);
        }
        let chunks = match self {
            Schedule::Elementwise { dims, elem_bits } => {
                let Some(p) = dims.iter().position(|&d| d > 1) else {
                    s.bufferize();
                    return (s.finish(), 1);
                };
                let work: i64 = dims[p + 1..].iter().product();
                let (tile, chunks) = chunking(dims[p], work);
                let mut sizes = vec![0; dims.len()];
                sizes[p] = tile;
                s.line(&format!("%ops = transform.structured.match interface{{LinalgOp}} in %f : ({ANY}) -> {ANY}"));
                s.line(&format!("%t, %forall = transform.structured.tile_using_forall %ops tile_sizes [{}] : ({ANY}) -> ({ANY}, {ANY})", list(&sizes)));
                let mut inner = vec![1; dims.len()];
                inner[..=p].iter_mut().for_each(|x| *x = 1);
                let last = dims.len() - 1;
                inner[last] = vector_tile(dims[last], target.lanes(*elem_bits));
                s.line(&format!("%t2, %l2:{} = transform.structured.tile_using_for %t tile_sizes [{}] : ({ANY}) -> ({ANY}{})", dims.len(), list(&inner), format!(", {ANY}").repeat(dims.len())));
                s.vectorize();
                s.bufferize();
                s.serialize_chunks(1);
                s.lower_vectors();
                chunks
            }
            Schedule::Matmul {
                batch,
                m,
                n,
                k,
                epilogues,
            } => {
                let lanes = target.lanes(32);
                let nb = batch.len();
                // Symbolic rows (a batch dim or m of a kernel with symbolic
                // sizes, `DYNAMIC`): batch dims are tiled by 1, m by the
                // register tiles of `SYMBOLIC_ROWS` rows (the last, partial
                // tile peeled off and left scalar), and the chunks cut n,
                // whose extent is static, so that their count is too.
                let symbolic = *m == DYNAMIC || batch.contains(&DYNAMIC);
                let batch: Vec<i64> = batch
                    .iter()
                    .map(|&b| if b == DYNAMIC { 1 } else { b })
                    .collect();
                let m = &if *m == DYNAMIC { SYMBOLIC_ROWS } else { *m };
                // The rows of the register tiles: m, or the last batch dim
                // when m is 1 (ViT's in-projection multiplies [197, 1, 768]
                // by [768, 2304]: as 197 products of one row, each streams
                // all of B from memory; 3.5× slower).
                let rows_at = if *m == 1 && batch.last().is_some_and(|&b| b > 1) {
                    nb - 1
                } else {
                    nb
                };
                let rows = if rows_at == nb { *m } else { batch[rows_at] };
                // Register tile: rows × (2 vectors) of accumulators, `rk`
                // steps of the reduction at once (the accumulators are
                // loaded and stored once per `rk` steps); cache blocks of
                // mc × kc (A) and kc × nc (B) around it. On the AVX-512
                // machine, rk 1 → 4 took 512³ from 110–120 to 130–147
                // GFLOP/s (JIT; nc = 512 was faster through a C driver but
                // far slower in the JIT). One vector wide instead of two
                // when the last tile of n would be wider than one vector
                // but not two: LLVM splits such odd-length vectors lane by
                // lane (512×2048×49: 28 GFLOP/s with tiles of 32 + 17
                // columns).
                let two = 2 * lanes;
                let rn = if n % two > lanes { lanes } else { two.min(*n) };
                let rm = 8.min(rows);
                let (mc, nc, kc) = ((8 * rm).min(rows), (4 * rn).min(*n), 256.min(*k));
                let rk = [4, 2, 1]
                    .into_iter()
                    .find(|r| k % r == 0 && kc % r == 0)
                    .expect("1 divides");
                // Chunks: along the first batch dim of extent > 1 (before
                // the rows), else along the rows or n (the one with more
                // register tiles), in whole register tiles so that every
                // tile vectorizes.
                let mut sizes = vec![0; nb + 2];
                let in_units = |extent: i64, unit: i64, work: i64| {
                    let units = (extent + unit - 1) / unit;
                    let (tile, _) = chunking(units, work * unit);
                    let tile = tile * unit;
                    (tile, (extent + tile - 1) / tile)
                };
                let chunks = match batch[..rows_at].iter().position(|&b| b > 1) {
                    _ if symbolic => {
                        let (tile, chunks) = in_units(*n, nc, rows * k / 64);
                        sizes[nb + 1] = tile;
                        chunks
                    }
                    Some(p) => {
                        let rest: i64 = batch[p + 1..].iter().product();
                        let (tile, chunks) = chunking(batch[p], rest * m * n * k / 64);
                        sizes[p] = tile;
                        chunks
                    }
                    None if rows / mc >= n / nc => {
                        let (tile, chunks) = in_units(rows, mc, n * k / 64);
                        sizes[rows_at] = tile;
                        chunks
                    }
                    None => {
                        let (tile, chunks) = in_units(*n, nc, rows * k / 64);
                        sizes[nb + 1] = tile;
                        chunks
                    }
                };
                // Sizes over the loops `batch…, m, n` (then `extra`) with
                // `row` at the rows' loop, `rest` at the other batch loops
                // and m, and `col` at n.
                let over = |row: i64, rest: i64, col: i64, extra: &[i64]| {
                    let mut v = vec![rest; nb + 2];
                    v[rows_at] = row;
                    v[nb + 1] = col;
                    v.extend(extra);
                    v
                };
                let reg = |extra: &[i64]| list(&over(rm, 1, rn, extra));
                let handles = |n: usize| format!(", {ANY}").repeat(n);
                let e = *epilogues;
                let last = if e == 0 {
                    s.line(&format!("%last = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
                    "%last".to_string()
                } else {
                    s.line(&format!("%eps = transform.structured.match attributes{{omlc.epilogue}} in %f : ({ANY}) -> {ANY}"));
                    s.line(&format!(
                        "%ep:{e} = transform.split_handle %eps : ({ANY}) -> ({})",
                        vec![ANY; e].join(", ")
                    ));
                    format!("%ep#{}", e - 1)
                };
                s.line(&format!("%t, %forall = transform.structured.tile_using_forall {last} tile_sizes [{}] : ({ANY}) -> ({ANY}, {ANY})", list(&sizes)));
                if e > 0 {
                    // The earlier epilogues, last first, then the product and
                    // its fill are fused into the chunk; every epilogue is
                    // then tiled by register tiles.
                    let mut containing = "%forall".to_string();
                    for i in (0..e - 1).rev() {
                        s.line(&format!("%fe{i}, %ce{i} = transform.structured.fuse_into_containing_op %ep#{i} into {containing} : ({ANY}, {ANY}) -> ({ANY}, {ANY})"));
                        containing = format!("%ce{i}");
                    }
                    s.line(&format!("%mm0 = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
                    s.line(&format!("%mm, %c1 = transform.structured.fuse_into_containing_op %mm0 into {containing} : ({ANY}, {ANY}) -> ({ANY}, {ANY})"));
                    s.line(&format!("%fill0 = transform.structured.match ops{{[\"linalg.fill\"]}} in %f : ({ANY}) -> {ANY}"));
                    s.line(&format!("%fill, %c2 = transform.structured.fuse_into_containing_op %fill0 into %c1 : ({ANY}, {ANY}) -> ({ANY}, {ANY})"));
                    s.line(&format!("%e2, %el:{} = transform.structured.tile_using_for %t tile_sizes [{}] : ({ANY}) -> ({ANY}{})", nb + 2, reg(&[]), handles(nb + 2)));
                    for i in 0..e - 1 {
                        s.line(&format!("%fe{i}r, %fe{i}l:{} = transform.structured.tile_using_for %fe{i} tile_sizes [{}] : ({ANY}) -> ({ANY}{})", nb + 2, reg(&[]), handles(nb + 2)));
                    }
                } else {
                    s.line(&format!("%mm = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
                    s.line(&format!("%fill0 = transform.structured.match ops{{[\"linalg.fill\"]}} in %f : ({ANY}) -> {ANY}"));
                    s.line(&format!("%fill, %c2 = transform.structured.fuse_into_containing_op %fill0 into %forall : ({ANY}, {ANY}) -> ({ANY}, {ANY})"));
                }
                s.line(&format!("%fl, %fll:{} = transform.structured.tile_using_for %fill tile_sizes [{}] : ({ANY}) -> ({ANY}{})", nb + 2, reg(&[]), handles(nb + 2)));
                let csizes = over(mc, 0, nc, &[kc]);
                s.line(&format!("%m1, %kl:3 = transform.structured.tile_using_for %mm tile_sizes [{}] : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})", list(&csizes)));
                s.line(&format!("%m2, %ml:{} = transform.structured.tile_using_for %m1 tile_sizes [{}] : ({ANY}) -> ({ANY}{})", nb + 3, reg(&[rk]), handles(nb + 3)));
                // Register tiles of sizes that do not divide m, n or k (ViT's
                // 197 tokens) have dynamic sizes, and a dynamic tile does
                // not vectorize: peel the last tile off every register-tile
                // loop (innermost first) so that the others are static.
                let outer = (rows_at < nb).then_some(rows_at);
                let mut loops: Vec<String> = (nb..nb + 3)
                    .rev()
                    .chain(outer)
                    .map(|i| format!("%ml#{i}"))
                    .collect();
                let tiled = ["%fll".to_string()]
                    .into_iter()
                    .chain((e > 0).then(|| "%el".to_string()))
                    .chain((0..e.saturating_sub(1)).map(|i| format!("%fe{i}l")));
                for t in tiled {
                    loops.extend(
                        [nb + 1, nb]
                            .into_iter()
                            .chain(outer)
                            .map(|i| format!("{t}#{i}")),
                    );
                }
                // Then the cache blocks of rows and of n, so that the last
                // block of each has a static size too (its register tiles
                // are otherwise of dynamic extent, and scalar).
                loops.extend(["%kl#1", "%kl#0"].map(String::from));
                s.peel(&loops);
                s.vectorize();
                s.bufferize();
                // A single chunk's loop is folded away by the peel's
                // canonicalization.
                if chunks > 1 {
                    s.serialize_chunks(1);
                }
                s.lower_vectors();
                chunks
            }
            Schedule::Fused {
                loops,
                producers,
                epilogue,
            } => {
                let Some((_, chunks)) = s.chunk_fused(loops, *producers, *epilogue) else {
                    s.bufferize();
                    return (s.finish(), 1);
                };
                s.bufferize();
                s.serialize_chunks(1);
                chunks
            }
            Schedule::Tiled {
                loops,
                tiles,
                epilogue,
            } => {
                let producers = tiles.len() - 1;
                // Symbolic loops: every op is tiled where it is, in one
                // chunk (fusing producers of symbolic size into chunks
                // leaves their whole computation in front of the chunk
                // loop).
                let chunked = match loops.iter().any(|&(d, _)| d == DYNAMIC) {
                    true => Some((s.match_tagged(producers, epilogue.is_some()), 1)),
                    false => s.chunk_fused(loops, producers, epilogue.is_some()),
                };
                let Some((handles, chunks)) = chunked else {
                    s.bufferize();
                    return (s.finish(), 1);
                };
                // Handles: the last op, the root (with an epilogue), then
                // the producers, last first.
                let mut ops: Vec<&OpTiles> = epilogue.iter().collect();
                ops.extend(tiles.iter().rev());
                let mut peeled = vec![];
                for (i, (h, t)) in handles.iter().zip(ops).enumerate() {
                    let mut sizes = t.sizes.clone();
                    if let Some((v, extent)) = t.vectors {
                        sizes[v] = (sizes[v] * target.lanes(32)).min(extent);
                    }
                    let tiled = sizes.iter().filter(|&&x| x != 0).count();
                    if tiled == 0 {
                        continue;
                    }
                    s.tile_for(h, &sizes, &format!("%in{i}"));
                    peeled.extend(
                        (tiled - t.peel..tiled)
                            .rev()
                            .map(|l| format!("%in{i}_loops#{l}")),
                    );
                }
                if !peeled.is_empty() {
                    s.peel(&peeled);
                }
                s.vectorize();
                s.bufferize();
                // A single chunk's loop is folded away by the vectorizer's
                // canonicalizations.
                if chunks > 1 {
                    s.serialize_chunks(1);
                }
                s.lower_vectors();
                chunks
            }
            Schedule::Window {
                channels,
                work_per_channel,
                epilogues,
            } => {
                // With epilogues the root's result is also the chunk loop's
                // shared output, and fusing the root into the chunks leaves
                // the original computing the whole result before the loop:
                // on every call of the kernel, so once per chunk range at
                // several threads (MobileNetV2's depthwise convolutions ran
                // ~8 times at 2 threads). One chunk until the fusion goes
                // through the loop's block argument (the work is still done
                // twice at any thread count).
                let (tile, chunks) = if *epilogues > 0 {
                    (*channels, 1)
                } else {
                    chunking(*channels, *work_per_channel)
                };
                s.chunk_and_fuse(*epilogues, &format!("0, {tile}"));
                s.bufferize();
                s.serialize_chunks(1);
                chunks
            }
            Schedule::ConvGemm {
                channels,
                reduction,
                spatial,
                col,
                epilogues,
            } => {
                let lanes = target.lanes(32);
                let r = spatial.len();
                let last = spatial[r - 1];
                // Vector along the last output dim: a divisor of it of at
                // most one register (LLVM splits longer vectors of odd
                // lengths badly); rows of `rm` output channels, as many as
                // the accumulators' registers allow.
                let rw = (1..=last.min(lanes))
                    .rev()
                    .find(|w| last % w == 0)
                    .expect("1 divides");
                let vregs = (rw + lanes - 1) / lanes;
                let budget = i64::from(target.vector_registers) * 3 / 4 / vregs;
                let rm = [16, 8, 4, 2, 1]
                    .into_iter()
                    .find(|&m| m <= budget.max(1) && channels % m == 0)
                    .expect("1 divides");
                // Chunks: along the first spatial dim when the im2col matrix
                // (or the input of a direct 1×1 convolution) is larger than
                // the weights (each chunk builds its rows of it, which stay
                // in cache for the product), else along the channels (whole
                // register rows; the weights are streamed once), in at most
                // `MAX_CONV_CHUNKS` chunks so that each reuses the blocks of
                // the im2col matrix it reads for several register rows.
                // Either evenly divided, so every tile is static.
                let positions: i64 = spatial.iter().product();
                let by_rows = positions > *channels;
                let (extent, unit, per_unit) = if by_rows {
                    (spatial[0], 1, channels * reduction * positions / spatial[0])
                } else {
                    (*channels / rm, rm, rm * reduction * positions)
                };
                let (_, wanted) = chunking(extent, per_unit);
                let wanted = if by_rows {
                    wanted
                } else {
                    wanted.min(MAX_CONV_CHUNKS)
                };
                let chunks = (wanted..=extent)
                    .find(|c| extent % c == 0)
                    .unwrap_or(extent);
                let tile = extent / chunks * unit;
                let sizes = if by_rows {
                    format!("0, 0, {tile}")
                } else {
                    format!("0, {tile}")
                };
                let (root, init, eps) = s.chunk_and_fuse(*epilogues, &sizes);
                let mut out_tile = vec![1, rm];
                out_tile.extend(vec![1; r - 1]);
                out_tile.push(rw);
                for (i, ep) in eps.iter().enumerate() {
                    s.tile_for(ep, &out_tile, &format!("%ept{i}"));
                }
                s.tile_for(&init, &out_tile, "%initt");
                // Each register tile runs `kc` steps of the reduction at
                // once: the accumulators are loaded and stored once per `kc`
                // steps (LLVM does not keep them in registers across the
                // reduction loop), the weights' column of every step is
                // broadcast straight into the FMAs. The largest divisor of
                // the reduction up to 16 steps, or up to 32 when that is
                // under 8 (a 7×7 stem's 3·49 would take 7: 21 stores ~25%
                // less; 32 steps everywhere measured no better than 16).
                let divisor_up_to = |most: i64| {
                    (1..=most)
                        .rev()
                        .find(|c| reduction % c == 0)
                        .expect("1 divides")
                };
                let kc = match divisor_up_to(16) {
                    kc if kc < 8 => divisor_up_to(32),
                    kc => kc,
                };
                let mut root_tile = out_tile.clone();
                root_tile.push(kc);
                // The reduction in blocks whose rows of the im2col matrix
                // (those of the chunk's positions) stay in L2 across the
                // chunk's register rows.
                let chunk_positions = if by_rows {
                    tile * positions / spatial[0]
                } else {
                    positions
                };
                let kb = (1..=reduction / kc)
                    .rev()
                    .map(|b| b * kc)
                    .find(|b| reduction % b == 0 && b * chunk_positions <= L2_BLOCK_FLOATS)
                    .unwrap_or(kc);
                let root = if kb < *reduction {
                    let mut block = vec![0; root_tile.len()];
                    *block.last_mut().expect("a reduction dim") = kb;
                    s.tile_for(&root, &block, "%rootk");
                    "%rootk".to_string()
                } else {
                    root
                };
                s.tile_for(&root, &root_tile, "%roott");
                if *col {
                    let mut col_tile = vec![1; r];
                    col_tile.push(rw);
                    s.line(&format!("%col = transform.structured.match attributes{{omlc.col}} in %f : ({ANY}) -> {ANY}"));
                    let col = if by_rows {
                        s.line(&format!("%colf, %cc = transform.structured.fuse_into_containing_op %col into {} : ({ANY}, {ANY}) -> ({ANY}, {ANY})", s.containing));
                        "%colf"
                    } else {
                        "%col"
                    };
                    s.tile_for(col, &col_tile, "%colt");
                }
                s.fold_unit_dims();
                // The im2col rows read the input with `tensor.extract` at
                // clamped positions: vectorized as gathers, not element by
                // element (not for rows of one element, whose gather MLIR
                // folds into an invalid one).
                if rw > 1 {
                    s.vectorize_with("{vectorize_nd_extract}");
                } else {
                    s.vectorize();
                }
                s.bufferize();
                // A single chunk's loop is folded away by the vectorizer's
                // canonicalizations.
                if chunks > 1 {
                    s.serialize_chunks(1);
                }
                s.lower_vectors();
                chunks
            }
            Schedule::Generic {
                outer: Some(extent),
            } if *extent > 1 => {
                let (tile, chunks) = chunking(*extent, MIN_CHUNK_WORK / 16);
                s.line(&format!("%root = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
                s.line(&format!("%t, %forall = transform.structured.tile_using_forall %root tile_sizes [{tile}] : ({ANY}) -> ({ANY}, {ANY})"));
                s.bufferize();
                s.serialize_chunks(1);
                chunks
            }
            Schedule::Generic { .. } => {
                s.bufferize();
                1
            }
            Schedule::Written { chunks } => {
                s.bufferize();
                if *chunks > 1 {
                    s.serialize_chunks(1);
                }
                s.lower_vectors();
                *chunks
            }
        };
        (s.finish(), chunks)
    }
}

impl Schedule {
    /// The schedule of a kernel with symbolic sizes, when its ops asked for
    /// one that works whatever those sizes are: a matrix product whose
    /// symbolic sizes are rows (its batch dims and `m`; `n` and `k`
    /// static; no static batch dim above 1), or tiles made for symbolic loops (an attention's, whose
    /// tiles have extent 1 along them; one chunk). `None`: the kernel
    /// keeps its loop nest (`Schedule::Generic`).
    pub fn with_symbolic_rows(self) -> Option<Schedule> {
        match &self {
            // (A static batch dim above 1 before symbolic rows — ViT's
            // sequence-first [197, N, 768] — unrolled the batch loop into
            // megabytes of code: such products keep the nest.)
            Schedule::Matmul { batch, n, k, .. }
                if *n > 0 && *k > 0 && batch.iter().all(|&b| b == DYNAMIC || b == 1) =>
            {
                Some(self)
            }
            // Tiles made for symbolic loops (an attention's, say).
            Schedule::Tiled { loops, .. } if loops.iter().any(|&(d, _)| d == DYNAMIC) => Some(self),
            _ => None,
        }
    }

    /// Whether a loop of the scheduled op has extent 0.
    fn is_empty(&self) -> bool {
        match self {
            Schedule::Elementwise { dims, .. } => dims.contains(&0),
            Schedule::Matmul { batch, m, n, k, .. } => {
                batch.contains(&0) || [*m, *n, *k].contains(&0)
            }
            Schedule::Fused { loops, .. } | Schedule::Tiled { loops, .. } => {
                loops.iter().any(|&(d, _)| d == 0)
            }
            Schedule::Window { channels, .. } => *channels == 0,
            Schedule::ConvGemm {
                channels, spatial, ..
            } => *channels == 0 || spatial.contains(&0),
            Schedule::Generic { outer } => *outer == Some(0),
            Schedule::Written { chunks } => *chunks == 0,
        }
    }
}

/// A transform script under construction.
struct Script {
    body: String,
    /// The current handle to the kernel function (transforms that rewrite
    /// it consume the old handle and return a new one).
    func: &'static str,
    /// The current handle to the chunk loop, once there is one.
    containing: String,
}

impl Default for Script {
    fn default() -> Script {
        Script {
            body: String::new(),
            func: "%f",
            containing: String::new(),
        }
    }
}

impl Script {
    /// Tiles the op tagged `omlc.epilogue` last (or the root when there is
    /// none) into the chunk `scf.forall` with `sizes`, and fuses into it
    /// the other epilogues, the root (tagged `omlc.root`) and its fill
    /// (tagged `omlc.init`). Returns the handles of the root, the fill and
    /// the epilogues inside the chunk loop.
    fn chunk_and_fuse(&mut self, epilogues: usize, sizes: &str) -> (String, String, Vec<String>) {
        let last = if epilogues == 0 {
            self.line(&format!("%last = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
            "%last".to_string()
        } else {
            self.line(&format!("%eps = transform.structured.match attributes{{omlc.epilogue}} in %f : ({ANY}) -> {ANY}"));
            self.line(&format!(
                "%ep:{epilogues} = transform.split_handle %eps : ({ANY}) -> ({})",
                vec![ANY; epilogues].join(", ")
            ));
            format!("%ep#{}", epilogues - 1)
        };
        self.line(&format!("%t, %c0 = transform.structured.tile_using_forall {last} tile_sizes [{sizes}] : ({ANY}) -> ({ANY}, {ANY})"));
        let mut containing = "%c0".to_string();
        let mut fused = 0;
        let mut fuse = |s: &mut Script, producer: &str| {
            s.line(&format!("%fused{fused}, %c{} = transform.structured.fuse_into_containing_op {producer} into {containing} : ({ANY}, {ANY}) -> ({ANY}, {ANY})", fused + 1));
            containing = format!("%c{}", fused + 1);
            fused += 1;
            format!("%fused{}", fused - 1)
        };
        let mut eps = vec![];
        if epilogues > 0 {
            eps.push("%t".to_string());
        }
        for e in (0..epilogues.saturating_sub(1)).rev() {
            eps.push(fuse(self, &format!("%ep#{e}")));
        }
        let root = if epilogues > 0 {
            self.line(&format!("%root = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
            fuse(self, "%root")
        } else {
            "%t".to_string()
        };
        self.line(&format!(
            "%init = transform.structured.match attributes{{omlc.init}} in %f : ({ANY}) -> {ANY}"
        ));
        let init = fuse(self, "%init");
        self.containing = containing;
        (root, init, eps)
    }

    /// Handles to a kernel's tagged ops, in the order of
    /// [`Script::chunk_fused`]'s: the epilogue (with `epilogue`), the root,
    /// then the `producers`, last first.
    fn match_tagged(&mut self, producers: usize, epilogue: bool) -> Vec<String> {
        let tags = epilogue
            .then(|| "omlc.epilogue".to_string())
            .into_iter()
            .chain(["omlc.root".to_string()])
            .chain((0..producers).rev().map(|i| format!("omlc.p{i}")));
        tags.enumerate()
            .map(|(i, tag)| {
                self.line(&format!("%op{i} = transform.structured.match attributes{{{tag}}} in %f : ({ANY}) -> {ANY}"));
                format!("%op{i}")
            })
            .collect()
    }

    /// Chunks the op tagged `omlc.epilogue` (`epilogue`) or `omlc.root`,
    /// over `loops`, along its first parallel loop of extent > 1, and fuses
    /// into the chunks the root (with an epilogue) and the `producers`
    /// (tagged `omlc.p0`…), last first. Returns the handles of the ops in
    /// the chunk loop (the chunked op, the root, the producers last first)
    /// and the number of chunks; `None` when no loop is worth chunking.
    fn chunk_fused(
        &mut self,
        loops: &[(i64, bool)],
        producers: usize,
        epilogue: bool,
    ) -> Option<(Vec<String>, i64)> {
        let p = loops.iter().position(|&(d, par)| par && d > 1)?;
        let work: i64 = loops[p + 1..].iter().map(|&(d, _)| d.max(1)).product();
        let (tile, chunks) = chunking(loops[p].0, work);
        let mut sizes = vec![0; loops.len()];
        sizes[p] = tile;
        let last = if epilogue {
            "omlc.epilogue"
        } else {
            "omlc.root"
        };
        self.line(&format!(
            "%last = transform.structured.match attributes{{{last}}} in %f : ({ANY}) -> {ANY}"
        ));
        self.line(&format!("%t, %forall = transform.structured.tile_using_forall %last tile_sizes [{}] : ({ANY}) -> ({ANY}, {ANY})", list(&sizes)));
        let mut handles = vec!["%t".to_string()];
        let mut containing = "%forall".to_string();
        if epilogue {
            self.line(&format!("%root = transform.structured.match attributes{{omlc.root}} in %f : ({ANY}) -> {ANY}"));
            self.line(&format!("%fr, %cr = transform.structured.fuse_into_containing_op %root into %forall : ({ANY}, {ANY}) -> ({ANY}, {ANY})"));
            containing = "%cr".to_string();
            handles.push("%fr".to_string());
        }
        for i in (0..producers).rev() {
            // A producer is fused once per slice of it that the chunk
            // reads: the consumers' identical slices are merged first, or
            // a softmax's max (read by the sum and the quotient) and the
            // attention scores under it would be computed several times.
            self.line(&format!("transform.apply_cse to %f : {ANY}"));
            self.line(&format!("%p{i} = transform.structured.match attributes{{omlc.p{i}}} in %f : ({ANY}) -> {ANY}"));
            self.line(&format!("%fp{i}, %c{i} = transform.structured.fuse_into_containing_op %p{i} into {containing} : ({ANY}, {ANY}) -> ({ANY}, {ANY})"));
            containing = format!("%c{i}");
            handles.push(format!("%fp{i}"));
        }
        self.containing = containing;
        Some((handles, chunks))
    }

    /// Tiles `op` with `scf.for` loops of `sizes`; the tiled op is `name`.
    fn tile_for(&mut self, op: &str, sizes: &[i64], name: &str) {
        let loops = sizes.iter().filter(|&&s| s != 0).count();
        self.line(&format!(
            "{name}, {name}_loops:{loops} = transform.structured.tile_using_for {op} tile_sizes [{}] : ({ANY}) -> ({ANY}{})",
            list(sizes),
            format!(", {ANY}").repeat(loops)
        ));
    }

    /// Drops the unit dims of the (tiled) linalg ops: a register tile
    /// `1 × m × 1 × w × 1` of a convolution's product becomes the
    /// elementwise update `acc[m, w] += W[m] · col[w]` of one step of its
    /// reduction loop, which vectorizes to one FMA per row.
    fn fold_unit_dims(&mut self) {
        let f = self.func;
        self.line(&format!("transform.apply_patterns to {f} {{"));
        self.line("  transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes");
        self.line("  transform.apply_patterns.canonicalization");
        self.line(&format!("}} : {ANY}"));
    }

    /// Peels the partial last iteration off each of the `scf.for` loops
    /// `loops` (handles, each loop before the loops around it), then
    /// canonicalizes: the tiles of the full iterations get static sizes
    /// (and vectorize), only the remainder's stay dynamic. A loop whose
    /// step divides its range has nothing to peel and is left alone (the
    /// peel's failure is suppressed).
    fn peel(&mut self, loops: &[String]) {
        const FOR: &str = "!transform.op<\"scf.for\">";
        for (i, l) in loops.iter().enumerate() {
            self.line(&format!("%peel{i} = transform.cast {l} : {ANY} to {FOR}"));
            self.line(&format!(
                "transform.sequence %peel{i} : {FOR} failures(suppress) {{"
            ));
            self.line(&format!("^bb0(%loop{i}: {FOR}):"));
            self.line(&format!(
                "  %main{i}, %rest{i} = transform.loop.peel %loop{i} : ({FOR}) -> ({ANY}, {ANY})"
            ));
            self.line("}");
        }
        let f = self.func;
        self.line(&format!("transform.apply_patterns to {f} {{"));
        self.line("  transform.apply_patterns.canonicalization");
        self.line(&format!("}} : {ANY}"));
    }

    fn line(&mut self, l: &str) {
        self.body.push_str("    ");
        self.body.push_str(l);
        self.body.push('\n');
    }

    fn vectorize(&mut self) {
        self.vectorize_with("");
    }

    /// Vectorizes the kernel with the vectorizer's `options` (an attribute
    /// dictionary, or nothing).
    fn vectorize_with(&mut self, options: &str) {
        let f = self.func;
        self.line(&format!("%v = transform.structured.vectorize_children_and_apply_patterns {f} {options} : ({ANY}) -> {ANY}"));
        self.func = "%v";
    }

    /// One-shot bufferization of the kernel; later steps work on `%b`.
    fn bufferize(&mut self) {
        let f = self.func;
        self.line(&format!(
            "%b = transform.bufferization.one_shot_bufferize {f} : ({ANY}) -> {ANY}"
        ));
        self.func = "%b";
    }

    /// Turns the chunk `scf.forall` into an `scf.for` tagged `omlc.chunks`.
    fn serialize_chunks(&mut self, rank: usize) {
        self.line(&format!(
            "%fa = transform.structured.match ops{{[\"scf.forall\"]}} in %b : ({ANY}) -> {ANY}"
        ));
        let results = vec![ANY; rank].join(", ");
        self.line(&format!(
            "%serial:{rank} = transform.loop.forall_to_for %fa : ({ANY}) -> ({results})"
        ));
        self.line(&format!(
            "transform.annotate %serial#0 \"omlc.chunks\" : {ANY}"
        ));
    }

    fn lower_vectors(&mut self) {
        self.line(&format!(
            "%fb = transform.structured.match ops{{[\"func.func\"]}} in %b : ({ANY}) -> {ANY}"
        ));
        self.line("transform.apply_patterns to %fb {");
        for p in [
            "transform.apply_patterns.vector.lower_contraction lowering_strategy = \"outerproduct\"",
            "transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = \"innerreduction\"",
            "transform.apply_patterns.vector.transfer_permutation_patterns",
            "transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1",
            "transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true",
            "transform.apply_patterns.vector.lower_outerproduct",
            "transform.apply_patterns.canonicalization",
        ] {
            self.line(&format!("  {p}"));
        }
        self.line(&format!("}} : {ANY}"));
    }

    fn finish(self) -> String {
        format!(
            "module attributes {{transform.with_named_sequence}} {{\n  transform.named_sequence @schedule(%f: {ANY} {{transform.consumed}}) {{\n{}    transform.yield\n  }}\n}}\n",
            self.body
        )
    }
}

/// Applies a schedule script to one kernel function (`func`, a
/// `func.func` of the payload module), then points the chunk loop's bounds
/// at the kernel's `begin`/`end` arguments (its last two).
pub fn apply(cx: &Context, func: OperationRef, script: &str) -> Result<()> {
    let schedule = Module::parse(cx, script).ok_or_else(|| LowerError::Mlir {
        stage: "schedule".into(),
        message: format!("the schedule does not parse:\n{script}"),
    })?;
    let sequence = schedule
        .body()
        .first_operation()
        .expect("the script has its sequence");
    let name = func_name(func);
    // SAFETY: all three operations are alive for the call (the payload is
    // owned by its module, the sequence and its module by `schedule`), and
    // the options object is created and destroyed around it.
    let ok = unsafe {
        let options = mlir_sys::mlirTransformOptionsCreate();
        let result = mlir_sys::mlirTransformApplyNamedSequence(
            func.to_raw(),
            sequence.to_raw(),
            schedule.as_operation().to_raw(),
            options,
        );
        mlir_sys::mlirTransformOptionsDestroy(options);
        result.value != 0
    };
    if !ok {
        return Err(LowerError::Mlir {
            stage: format!("schedule of {name}"),
            message: script.to_string(),
        });
    }
    patch_chunk_bounds(func);
    Ok(())
}

fn func_name(func: OperationRef) -> String {
    func.attribute("sym_name")
        .map(|a| a.to_string())
        .unwrap_or_default()
}

/// Replaces the bounds of the loop tagged `omlc.chunks` by the function's
/// last two arguments.
fn patch_chunk_bounds(func: OperationRef) {
    let region = func.region(0).expect("a function body");
    let block = region.first_block().expect("an entry block");
    let n = block.argument_count();
    let begin: Value = block.argument(n - 2).expect("begin").into();
    let end: Value = block.argument(n - 1).expect("end").into();
    let mut found = None;
    walk(func, &mut |op| {
        if op.has_attribute("omlc.chunks") {
            found = Some(op.to_raw());
        }
    });
    if let Some(raw) = found {
        // SAFETY: `raw` is an scf.for nested in `func`, alive here; operands
        // 0 and 1 are its lower and upper bounds, both of index type like
        // the arguments put in their place.
        unsafe {
            mlir_sys::mlirOperationSetOperand(raw, 0, begin.to_raw());
            mlir_sys::mlirOperationSetOperand(raw, 1, end.to_raw());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An AVX-512 machine without VNNI, AMX or VBMI.
    fn avx512() -> Target {
        Target {
            vector_bits: 512,
            vector_registers: 32,
            dot_u8s8: false,
            amx_int8: false,
            byte_permute: false,
        }
    }

    fn conv(spatial: &[i64], col: bool) -> Schedule {
        Schedule::ConvGemm {
            channels: 64,
            reduction: 576,
            spatial: spatial.to_vec(),
            col,
            epilogues: 1,
        }
    }

    /// A `Tiled` kernel fuses its producers once each (CSE first), tiles
    /// each op as told (sizes in vectors follow the target, capped by the
    /// loop), peels the register tiles and vectorizes.
    #[test]
    fn tiled_ops_follow_their_tilings() {
        let target = avx512();
        let register = |n: i64| OpTiles {
            sizes: vec![1, 8, 2, 4],
            vectors: Some((2, n)),
            peel: 3,
        };
        let (script, chunks) = Schedule::Tiled {
            loops: vec![(12, true), (197, true), (24, true), (197, false)],
            tiles: vec![
                OpTiles::rows(2),
                register(197),
                OpTiles::rows(2),
                register(24),
            ],
            epilogue: None,
        }
        .script(&target);
        assert_eq!(chunks, 12);
        assert_eq!(script.matches("transform.apply_cse").count(), 3, "{script}");
        assert!(script.contains("tile_sizes [1, 8, 32, 4]"), "{script}");
        assert!(script.contains("tile_sizes [1, 8, 24, 4]"), "{script}");
        assert!(script.contains("tile_sizes [1, 1]"), "{script}");
        assert_eq!(script.matches("transform.loop.peel").count(), 6, "{script}");
        assert!(
            script.contains("vectorize_children_and_apply_patterns"),
            "{script}"
        );
        assert!(vector_rows(&[12, 197, 197]));
        assert!(!vector_rows(&[1, 50257]));
        assert!(!vector_rows(&[crate::builder::DYNAMIC, 128]));
    }

    /// A product of one row per batch element (ViT's [197, 1, 768] by
    /// [768, 2304]) takes its register rows from the batch dim, blocks
    /// and chunks it like m; the partial last tiles are peeled.
    #[test]
    fn matmul_of_single_rows_tiles_the_batch_as_rows() {
        let target = avx512();
        let (script, _) = Schedule::Matmul {
            batch: vec![197],
            m: 1,
            n: 2304,
            k: 768,
            epilogues: 0,
        }
        .script(&target);
        assert!(script.contains("tile_sizes [64, 0, 128, 256]"), "{script}");
        assert!(script.contains("tile_sizes [8, 1, 32, 4]"), "{script}");
        assert!(script.contains("transform.loop.peel"), "{script}");
        let (plain, _) = Schedule::Matmul {
            batch: vec![1],
            m: 128,
            n: 768,
            k: 768,
            epilogues: 0,
        }
        .script(&target);
        assert!(plain.contains("tile_sizes [1, 8, 32, 4]"), "{plain}");
    }

    /// Symbolic rows: a product's batch dims are tiled by 1, its rows by
    /// the tiles of `SYMBOLIC_ROWS` (peeled), and the chunks cut n; tiles
    /// made for symbolic loops are applied op by op in one chunk; other
    /// schedules of a kernel with symbolic sizes are refused.
    #[test]
    fn symbolic_rows_keep_static_tiles() {
        let target = avx512();
        let product = Schedule::Matmul {
            batch: vec![DYNAMIC],
            m: DYNAMIC,
            n: 768,
            k: 768,
            epilogues: 0,
        }
        .with_symbolic_rows()
        .expect("rows are symbolic, n and k static");
        let (script, chunks) = product.script(&target);
        assert!(chunks > 1, "chunks along n: {chunks}");
        assert!(
            script.contains("tile_using_forall %last tile_sizes [0, 0, "),
            "{script}"
        );
        assert!(script.contains("tile_sizes [1, 8, 32, 4]"), "{script}");
        assert!(script.contains("tile_sizes [0, 64, 128, 256]"), "{script}");
        assert!(script.contains("transform.loop.peel"), "{script}");
        let symbolic_n = Schedule::Matmul {
            batch: vec![],
            m: 8,
            n: DYNAMIC,
            k: 64,
            epilogues: 0,
        };
        assert_eq!(symbolic_n.with_symbolic_rows(), None);
        let static_batch = Schedule::Matmul {
            batch: vec![197],
            m: DYNAMIC,
            n: 2304,
            k: 768,
            epilogues: 0,
        };
        assert_eq!(static_batch.with_symbolic_rows(), None);
        let rows = OpTiles::rows(2);
        let attention = Schedule::Tiled {
            loops: vec![(12, true), (DYNAMIC, true), (64, true), (DYNAMIC, false)],
            tiles: vec![rows.clone(), rows.clone(), rows],
            epilogue: None,
        }
        .with_symbolic_rows()
        .expect("tiles for symbolic loops");
        let (script, chunks) = attention.script(&target);
        assert_eq!(chunks, 1);
        assert!(!script.contains("tile_using_forall"), "{script}");
        for tag in ["omlc.root", "omlc.p0", "omlc.p1"] {
            assert!(script.contains(&format!("attributes{{{tag}}}")), "{script}");
        }
        let fused = Schedule::Fused {
            loops: vec![(DYNAMIC, true)],
            producers: 0,
            epilogue: false,
        };
        assert_eq!(fused.with_symbolic_rows(), None);
    }

    /// Register tiles are one vector wide where two would leave a last
    /// tile of more than one vector but not two (49 = 3 · 16 + 1, not
    /// 32 + 17), two otherwise (196 = 6 · 32 + 4); the last cache block
    /// of n (196 = 128 + 68) and of the rows is peeled like the last
    /// register tiles, so that it has a static size.
    #[test]
    fn matmul_tiles_of_odd_widths() {
        let target = avx512();
        let script = |n: i64| {
            Schedule::Matmul {
                batch: vec![1],
                m: 512,
                n,
                k: 2048,
                epilogues: 1,
            }
            .script(&target)
            .0
        };
        for (n, tile, block) in [(49, 16, 49), (196, 32, 128), (56, 16, 56), (40, 32, 40)] {
            let s = script(n);
            assert!(
                s.contains(&format!("tile_sizes [1, 8, {tile}, 4]")),
                "{n}: {s}"
            );
            assert!(
                s.contains(&format!("tile_sizes [0, 64, {block}, 256]")),
                "{n}: {s}"
            );
            assert!(s.contains("transform.cast %kl#1"), "{n}: {s}");
        }
    }

    #[test]
    fn conv_register_tiles_follow_the_target() {
        let avx512 = avx512();
        let avx2 = Target {
            vector_bits: 256,
            vector_registers: 16,
            dot_u8s8: false,
            amx_int8: false,
            byte_permute: false,
        };
        let neon = Target {
            vector_bits: 128,
            vector_registers: 32,
            dot_u8s8: false,
            amx_int8: false,
            byte_permute: false,
        };
        // 16 rows of one 14-wide vector; 8 × 8; 16 × 4; 16 steps of the
        // reduction (576 = 36 · 16).
        for (target, tile) in [
            (avx512, "[1, 16, 1, 14, 16]"),
            (avx2, "[1, 8, 1, 8, 16]"),
            (neon, "[1, 16, 1, 4, 16]"),
        ] {
            let (script, _) = conv(&[56, 56], true).script(&target);
            assert!(script.contains(&format!("%roott, %roott_loops:5 = transform.structured.tile_using_for %fused0 tile_sizes {tile}")), "{script}");
        }
    }

    #[test]
    fn conv_reduction_steps_go_past_16_only_when_few_divide() {
        let avx512 = avx512();
        // A 7×7 stem over 3 channels: 147 = 3 · 49 has no divisor in 8..=16,
        // so 21 steps; 576 keeps 16 (not 32).
        for (reduction, steps) in [(147, 21), (576, 16), (27, 9), (5, 5)] {
            let (script, _) = Schedule::ConvGemm {
                channels: 64,
                reduction,
                spatial: vec![112, 112],
                col: true,
                epilogues: 1,
            }
            .script(&avx512);
            assert!(
                script.contains(&format!("tile_sizes [1, 16, 1, 16, {steps}]")),
                "{reduction}: {script}"
            );
        }
    }

    #[test]
    fn conv_chunks_by_rows_only_with_a_large_im2col_matrix() {
        let t = avx512();
        let (by_rows, chunks) = conv(&[56, 56], true).script(&t);
        assert!(by_rows.contains("tile_sizes [0, 0, 1]") && by_rows.contains("%colf"));
        assert_eq!(chunks, 56);
        let (by_channels, _) = conv(&[7, 7], true).script(&t);
        assert!(by_channels.contains("tile_sizes [0, 16]") && !by_channels.contains("%colf"));
        let (direct, _) = conv(&[56, 56], false).script(&t);
        assert!(!direct.contains("omlc.col"));
    }

    #[test]
    fn conv_reduction_in_l2_blocks_for_few_positions() {
        let t = avx512();
        // 3×3 over 512 channels at 7×7: 4608 = 4 · 1152 reduction steps,
        // 1152 · 49 floats of im2col rows per block; 4 chunks of channels.
        let (script, chunks) = Schedule::ConvGemm {
            channels: 512,
            reduction: 4608,
            spatial: vec![7, 7],
            col: true,
            epilogues: 1,
        }
        .script(&t);
        assert!(script.contains("%rootk, %rootk_loops:1 = transform.structured.tile_using_for %fused0 tile_sizes [0, 0, 0, 0, 1152]"), "{script}");
        assert!(
            script.contains("tile_using_for %rootk tile_sizes [1, 16, 1, 7, 16]"),
            "{script}"
        );
        assert_eq!(chunks, 4);
    }

    #[test]
    fn chunks_balance_work() {
        assert_eq!(chunking(512, 512 * 512 / 64), (8, 64));
        assert_eq!(chunking(1, 1_000_000), (1, 1));
        let (tile, chunks) = chunking(1000, 1);
        assert_eq!((tile, chunks), (1000, 1));
        let (tile, chunks) = chunking(100, 10_000);
        assert!(tile * chunks >= 100 && tile * (chunks - 1) < 100);
    }
}
