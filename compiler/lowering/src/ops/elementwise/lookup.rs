//! An elementwise run of one 8-bit tensor (and scalars) into 8 bits, as a
//! table of its 256 results.
//!
//! Quantized models are full of such runs: a QDQ export's activation is
//! `DequantizeLinear → Sigmoid → QuantizeLinear → DequantizeLinear → Mul →
//! QuantizeLinear` (EfficientNet's SiLU), an exponential and three
//! divisions per element. Whatever the run computes, its input takes 256
//! values, so the kernel computes the run once for each (a scalar loop,
//! the run's own ops, so the results are exactly the run's) and then
//! looks every element up: on AVX-512 VBMI, 64 bytes at a time with two
//! `vpermi2b` (each picks from 128 bytes of the table by an index's low 7
//! bits) and a select on the index's top bit.
//!
//! The kernel is written (`Schedule::Written`): the output, viewed as one
//! row, is cut into up to [`MAX_CHUNKS`] chunks of whole vectors (the
//! last masked), and each call computes the table first (256 steps, a few
//! microseconds), so runs under [`MIN_ELEMENTS`] keep the vectorized run.

use std::collections::HashMap;

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, Value};

use crate::builder::{ranked_tensor, vector_type, CmpiPredicate, Emitter, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;

/// Bytes per lookup: one AVX-512 register.
const LANES: i64 = 64;
/// Elements below which a run keeps its vector code: the table costs about
/// as much as a vectorized run over that many.
const MIN_ELEMENTS: i64 = 1 << 14;
/// Chunks at most, of at least [`CHUNK_ELEMENTS`] each.
const MAX_CHUNKS: i64 = 8;
const CHUNK_ELEMENTS: i64 = 1 << 16;

/// The run's only tensor operand, when the run is a table lookup: a
/// kernel of this run alone, on a target with byte permutes, whose one
/// output is 8-bit, computed from one 8-bit tensor of the output's shape
/// and scalars only, over at least [`MIN_ELEMENTS`] elements (static
/// sizes: with symbolic ones the lookup crashed on an expanded int8 Clip,
/// not understood yet), by at least two ops.
pub(super) fn table_source(
    kb: &KernelBuilder,
    chain: &[OpId],
    ins: &[Value],
    outputs: &[Value],
) -> Result<Option<Value>> {
    let [out] = outputs else { return Ok(None) };
    let (out_dims, out_elem) = kb.shape(*out)?;
    if !kb.target.byte_permute || kb.has_root() || chain.len() < 2 || !is_byte(out_elem) {
        return Ok(None);
    }
    let mut source = None;
    for &v in ins {
        let (dims, elem) = kb.shape(v)?;
        if dims.iter().all(|&d| d == 1) {
            continue;
        }
        if source.is_some() || dims != out_dims || !is_byte(elem) {
            return Ok(None);
        }
        source = Some(v);
    }
    let static_elements = out_dims.iter().all(|&d| d != DYNAMIC);
    if !static_elements || out_dims.iter().product::<i64>() < MIN_ELEMENTS {
        return Ok(None);
    }
    Ok(source)
}

fn is_byte(elem: ElemType) -> bool {
    matches!(elem, ElemType::U8 | ElemType::I8)
}

/// Lowers the run into `output` by looking `source` up in `table`, the
/// run's 256 results ([`table_of`]; see the module docs).
pub(super) fn lower<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    source: Value,
    table: MValue<'c, 'a>,
    output: Value,
) -> Result<()> {
    let e = kb.e;
    let i8t = e.int_type(8);
    let parts =
        [0, 1, 2, 3].map(|p| e.read_vector(table, &[e.index(p * LANES)], LANES, e.i(i8t, 0), true));
    let (dims, elem) = kb.shape(output)?;
    let rank = dims.len() as i64;
    let all: Vec<i64> = (0..rank).collect();
    let numel: i64 = dims.iter().product();
    let count = e.index(numel);
    let row_type = ranked_tensor(&[numel], i8t);
    let x = e.collapse_shape(kb.tensor(source), std::slice::from_ref(&all), row_type);
    let out = e.collapse_shape(kb.init(output)?, std::slice::from_ref(&all), row_type);
    let chunks = (numel / CHUNK_ELEMENTS).clamp(1, MAX_CHUNKS);
    let out = e.forall(chunks, out, |be, t, shared| {
        // Chunks of whole vectors: ⌈count / chunks⌉ rounded up to LANES.
        let vectors = be.ceildivsi(count, be.index(LANES));
        let per_chunk = be.muli(be.ceildivsi(vectors, be.index(chunks)), be.index(LANES));
        let start = be.minsi(be.muli(t, per_chunk), count);
        let end = be.minsi(be.addi(start, per_chunk), count);
        let length = be.subi(end, start);
        let size = Size::Dynamic(length);
        let tile = be.extract_slice(shared, &[Size::Dynamic(start)], &[size], &[1]);
        let whole = be.divui(length, be.index(LANES));
        let from = Source { x, start, parts };
        let tile = be.for_loop(be.index(0), whole, &[tile], |be, v, t| {
            vec![from.step(be, t[0], v, true)]
        })[0];
        // The last, partial vector (masked), if any.
        let vectors = be.ceildivsi(length, be.index(LANES));
        let tile = be.for_loop(whole, vectors, &[tile], |be, v, t| {
            vec![from.step(be, t[0], v, false)]
        })[0];
        (tile, vec![Size::Dynamic(start)], vec![size])
    });
    let elem = crate::types::elem_type(e.cx, elem)?;
    let out = e.expand_shape(out, &[all], &Size::statics(&dims), elem);
    kb.define(output, out);
    kb.written(Schedule::Written { chunks });
    Ok(())
}

/// What a chunk's lookups read: the source row, the chunk's first
/// element in it, the table as 4 vectors of 64 bytes.
struct Source<'c, 'a> {
    x: MValue<'c, 'a>,
    start: MValue<'c, 'a>,
    parts: [MValue<'c, 'a>; 4],
}

impl<'c> Source<'c, '_> {
    /// The chunk's vector `v` (elements `64·v ..`) looked up into `tile`;
    /// `full`: all 64 inside the chunk (else masked).
    fn step<'a>(
        &self,
        e: Emitter<'c, 'a>,
        tile: MValue<'c, 'a>,
        v: MValue<'c, 'a>,
        full: bool,
    ) -> MValue<'c, 'a> {
        let zero = e.i(e.int_type(8), 0);
        let i = e.muli(v, e.index(LANES));
        let bytes = e.read_vector(self.x, &[e.addi(self.start, i)], LANES, zero, full);
        let low = permute(e, [self.parts[0], self.parts[1]], bytes);
        let high = permute(e, [self.parts[2], self.parts[3]], bytes);
        let upper = e.cmpi_lanes(CmpiPredicate::Slt, bytes, e.broadcast(zero, LANES), LANES);
        e.write_vector(e.select(upper, high, low), tile, &[i], full)
    }
}

/// Bytes of the 128-byte table `halves` at each index's low 7 bits
/// (`vpermi2b`).
fn permute<'c, 'a>(
    e: Emitter<'c, 'a>,
    [a, b]: [MValue<'c, '_>; 2],
    index: MValue<'c, '_>,
) -> MValue<'c, 'a> {
    let bytes = vector_type(&[LANES], e.int_type(8));
    e.intrinsic("llvm.x86.avx512.vpermi2var.qi.512", &[a, index, b], bytes)
}

/// The run's results for the 256 values of `source` (in the order of
/// their bits, so a signed source's −128 is at 128), the scalars read
/// from `ins`: a scalar loop of the run's ops, each computed by
/// `scalar_op` (the run's own lowering of an op on scalars).
pub(super) fn table_of<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    chain: &[OpId],
    (source, ins): (Value, &[Value]),
    output: Value,
    scalar_op: impl for<'b> Fn(
        &KernelBuilder<'c, 'a>,
        Emitter<'c, 'b>,
        OpId,
        &HashMap<Value, MValue<'c, 'b>>,
    ) -> Result<Vec<Option<MValue<'c, 'b>>>>,
) -> Result<MValue<'c, 'a>> {
    let e = kb.e;
    let i8t = e.int_type(8);
    let table = e.empty(&[Size::Static(256)], i8t);
    let mut scalars: HashMap<Value, MValue> = HashMap::new();
    for &v in ins {
        let rank = kb.shape(v)?.0.len();
        scalars.insert(v, e.extract(kb.tensor(v), &vec![e.index(0); rank]));
    }
    let ir = &kb.model.ir;
    let mut failure = None;
    let table = e.for_loop(e.index(0), e.index(256), &[table], |be, i, t| {
        let mut values = scalars.clone();
        values.insert(source, be.index_cast(i, i8t));
        for &o in chain {
            match scalar_op(kb, be, o, &values) {
                Ok(results) => {
                    for (v, s) in ir.op(o).results.iter().zip(results) {
                        if let (Some(v), Some(s)) = (v, s) {
                            values.insert(*v, s);
                        }
                    }
                }
                Err(err) => {
                    failure.get_or_insert(err);
                    return t;
                }
            }
        }
        vec![be.insert(values[&output], t[0], &[i])]
    })[0];
    match failure {
        Some(err) => Err(err),
        None => Ok(table),
    }
}
