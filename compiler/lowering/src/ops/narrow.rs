//! Narrow element types: the four float8 formats (`f8E4M3FN`,
//! `f8E4M3FNUZ`, `f8E5M2`, `f8E5M2FNUZ`), `float4e2m1` and the sub-byte
//! integers (`int4`, `uint4`, `int2`, `uint2`).
//!
//! **Representation.** Inside compiled code every narrow element takes one
//! byte (`i8`): a float8 or float4 element is its bit pattern (float4 in
//! the low nibble), a sub-byte integer its value, sign-extended for the
//! signed types and zero-extended for the unsigned ones. Float8 values are
//! stored that way at the ABI too; sub-byte values are packed there (two
//! or four per byte, low bits first, as in ONNX's `raw_data`) and
//! unpacked/packed once at the graph boundary (`model.rs`). Kernels never
//! compute with these types: they only convert them (`Cast`, `CastLike`,
//! quantization), through the routines here.
//!
//! **Conversions** are integer arithmetic on the bits of an `f32`, so they
//! vectorize like any elementwise body and need no library call:
//! - [`decode`] (narrow float → `f32`, exact): a normal code becomes the
//!   `f32` whose exponent is re-biased and whose mantissa is shifted up; a
//!   subnormal code is its mantissa times `2^(1-bias-mbits)`; NaN and Inf
//!   per format.
//! - [`encode`] (`f32` → narrow float): round to nearest, ties to even — on
//!   the `f32` bits for results in the normal range (add half an ulp minus
//!   one, plus the lowest kept bit, then shift: a carry moves into the
//!   exponent), and through the FPU's own rounding for the subnormal range
//!   (`|x|·2^(mbits-emin)` is exact; adding `2^23` rounds it to an integer
//!   in the mantissa bits). Overflow (and ±Inf) saturates to the largest
//!   finite value when `saturate` (always for float4), else becomes Inf
//!   (`f8E5M2`) or NaN; NaN maps to each format's NaN with its sign
//!   (float4, which has none: `+NaN` to `-0` and `-NaN` to `+0`), like the
//!   reference `ml_dtypes`. The FNUZ formats have
//!   no negative zero.
//! - [`wrap_int`]: a value truncated to `bits` bits, the way ONNX casts to
//!   the sub-byte integers (`-9 → 7` in int4).
//!
//! The routines are checked against `ml_dtypes` (the reference of ONNX's
//! `Cast`) on every code and on every f16 value, compiled, by
//! `tools/check_narrow_casts_compiled.py` (`docs/codegen.md`).

use melior::ir::{Type as MType, Value as MValue};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind, Type};

use crate::builder::Size;
use crate::builder::{CmpiPredicate, Emitter};
use crate::error::Result;
use crate::kernel::KernelBuilder;

/// The bit layout of a narrow float format.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Format {
    exp_bits: u32,
    man_bits: u32,
    bias: i64,
    specials: Specials,
}

/// How a narrow float format spells NaN and Inf.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Specials {
    /// IEEE-like: the top exponent is Inf (mantissa 0) or NaN (`f8E5M2`).
    Ieee,
    /// "Finite": no Inf, NaN is the all-ones magnitude (`f8E4M3FN`).
    Fn,
    /// "Finite, unsigned zero": no Inf, NaN is the negative-zero code
    /// `0x80` (`f8E4M3FNUZ`, `f8E5M2FNUZ`).
    Fnuz,
    /// Neither NaN nor Inf (`float4e2m1`).
    None,
}

impl Format {
    /// The format of a narrow float element type, `None` for any other type.
    pub(crate) fn of(elem: ElemType) -> Option<Format> {
        let f = |exp_bits, man_bits, bias, specials| {
            Some(Format {
                exp_bits,
                man_bits,
                bias,
                specials,
            })
        };
        match elem {
            ElemType::F8E4M3FN => f(4, 3, 7, Specials::Fn),
            ElemType::F8E4M3FNUZ => f(4, 3, 8, Specials::Fnuz),
            ElemType::F8E5M2 => f(5, 2, 15, Specials::Ieee),
            ElemType::F8E5M2FNUZ => f(5, 2, 16, Specials::Fnuz),
            ElemType::F4E2M1 => f(2, 1, 1, Specials::None),
            _ => None,
        }
    }

    /// The bits of the magnitude (all but the sign).
    fn mag_bits(self) -> u32 {
        self.exp_bits + self.man_bits
    }

    /// The all-ones magnitude.
    fn full(self) -> i64 {
        (1 << self.mag_bits()) - 1
    }

    /// The code of the largest finite magnitude.
    fn max_code(self) -> i64 {
        match self.specials {
            Specials::Fn => self.full() - 1,
            Specials::Ieee => {
                (((self.full() >> self.man_bits) - 1) << self.man_bits) | self.man_mask()
            }
            Specials::Fnuz | Specials::None => self.full(),
        }
    }

    fn man_mask(self) -> i64 {
        (1 << self.man_bits) - 1
    }

    /// The magnitude code of NaN (the quiet NaN for `f8E5M2`; `0x80` for
    /// FNUZ, whose sign bit is part of it; for float4 the sign bit, which
    /// the sign of the NaN flips, see the module docs).
    fn nan_code(self) -> i64 {
        match self.specials {
            Specials::Ieee => {
                ((self.full() >> self.man_bits) << self.man_bits) | (1 << (self.man_bits - 1))
            }
            Specials::Fn => self.full(),
            Specials::Fnuz => 0x80,
            Specials::None => 1 << self.mag_bits(),
        }
    }

    /// The magnitude code an overflow becomes without saturation.
    fn overflow_code(self) -> i64 {
        match self.specials {
            Specials::Ieee => (self.full() >> self.man_bits) << self.man_bits,
            Specials::Fn | Specials::Fnuz => self.nan_code(),
            Specials::None => self.max_code(),
        }
    }
}

/// Whether elements of `elem` are stored one per byte and only converted
/// (see the module docs).
pub(crate) fn is_narrow(elem: ElemType) -> bool {
    Format::of(elem).is_some() || is_sub_byte_int(elem)
}

/// Whether `elem` is one of the sub-byte integers.
pub(crate) fn is_sub_byte_int(elem: ElemType) -> bool {
    matches!(
        elem,
        ElemType::I4 | ElemType::U4 | ElemType::I2 | ElemType::U2
    )
}

/// `f32` from the code (in an `i8`) of narrow float `f`; exact.
pub(crate) fn decode<'c, 'b>(
    e: Emitter<'c, 'b>,
    code: MValue<'c, 'b>,
    f: Format,
) -> MValue<'c, 'b> {
    let i32t = e.int_type(32);
    let f32t = MType::float32(e.cx);
    let k = |v: i64| e.i(i32t, v);
    let c = e.andi(e.extui(code, i32t), k(0xff));
    let sign = e.andi(e.shrui(c, k(f.mag_bits().into())), k(1));
    let mag = e.andi(c, k(f.full()));
    let exp = e.shrui(mag, k(f.man_bits.into()));
    let man = e.andi(mag, k(f.man_mask()));
    let normal = e.addi(
        e.shli(mag, k(23 - i64::from(f.man_bits))),
        k((127 - f.bias) << 23),
    );
    let scale = 2f64.powi((1 - f.bias - i64::from(f.man_bits)) as i32);
    let sub = e.mulf(e.uitofp(man, f32t), e.f(f32t, scale));
    let sub = e.bitcast(sub, i32t);
    let eq = |a: MValue<'c, 'b>, b: i64| e.cmpi(CmpiPredicate::Eq, a, k(b));
    let mut bits = e.select(eq(exp, 0), sub, normal);
    let qnan = k(0x7fc0_0000);
    match f.specials {
        Specials::Ieee => {
            let special = e.ori(k(0x7f80_0000), e.shli(man, k(23 - i64::from(f.man_bits))));
            bits = e.select(eq(exp, f.full() >> f.man_bits), special, bits);
        }
        Specials::Fn => bits = e.select(eq(mag, f.full()), qnan, bits),
        Specials::Fnuz | Specials::None => {}
    }
    bits = e.ori(bits, e.shli(sign, k(31)));
    if f.specials == Specials::Fnuz {
        bits = e.select(eq(c, 0x80), qnan, bits);
    }
    e.bitcast(bits, f32t)
}

/// The code (in an `i8`) of narrow float `f` nearest to the `f32` `x`
/// (ties to even), saturating overflow when `saturate`.
pub(crate) fn encode<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    f: Format,
    saturate: bool,
) -> MValue<'c, 'b> {
    let i32t = e.int_type(32);
    let f32t = MType::float32(e.cx);
    let k = |v: i64| e.i(i32t, v);
    let u = e.bitcast(x, i32t);
    let sign = e.shrui(u, k(31));
    let a = e.andi(u, k(0x7fff_ffff));
    let is_nan = e.cmpi(CmpiPredicate::Ugt, a, k(0x7f80_0000));
    let shift = 23 - i64::from(f.man_bits);
    let lowest_kept = e.andi(e.shrui(a, k(shift)), k(1));
    let rounded = e.addi(e.addi(a, k((1 << (shift - 1)) - 1)), lowest_kept);
    let normal = e.subi(e.shrui(rounded, k(shift)), k((127 - f.bias) << f.man_bits));
    let emin = 1 - f.bias;
    let scaled = e.mulf(
        e.absf(x),
        e.f(f32t, 2f64.powi((i64::from(f.man_bits) - emin) as i32)),
    );
    let magic = e.addf(scaled, e.f(f32t, 8_388_608.0));
    let sub = e.subi(e.bitcast(magic, i32t), k(0x4b00_0000));
    let is_sub = e.cmpi(CmpiPredicate::Slt, a, k((127 + emin) << 23));
    let code = e.select(is_sub, sub, normal);
    let overflow = e.cmpi(CmpiPredicate::Sgt, code, k(f.max_code()));
    let on_overflow = if saturate {
        f.max_code()
    } else {
        f.overflow_code()
    };
    let mag = e.select(overflow, k(on_overflow), code);
    let mag = e.select(is_nan, k(f.nan_code()), mag);
    // `xor` is `or` but for float4's NaN, whose code has the sign bit set.
    let signed = e.xori(mag, e.shli(sign, k(f.mag_bits().into())));
    let out = if f.specials == Specials::Fnuz {
        // No negative zero; NaN is `0x80` whatever the sign.
        let unsigned = e.ori(
            e.cmpi(CmpiPredicate::Eq, mag, k(0)),
            e.cmpi(CmpiPredicate::Eq, mag, k(0x80)),
        );
        e.select(unsigned, mag, signed)
    } else {
        signed
    };
    e.trunci(out, e.int_type(8))
}

/// `x` (an `i8`) truncated to its low `bits` bits, sign-extended when
/// `signed` (the in-memory form of a sub-byte integer).
pub(crate) fn wrap_int<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    bits: u32,
    signed: bool,
) -> MValue<'c, 'b> {
    let i8t = e.int_type(8);
    if signed {
        let s = e.i(i8t, i64::from(8 - bits));
        e.shrsi(e.shli(x, s), s)
    } else {
        e.andi(x, e.i(i8t, (1 << bits) - 1))
    }
}

/// Refuses an op that would compute with a narrow type: only conversions
/// (casts and quantization) read or write them.
pub(crate) fn check_op(kb: &KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    if matches!(
        data.kind,
        OpKind::Cast | OpKind::CastLike | OpKind::QuantizeLinear | OpKind::DequantizeLinear
    ) {
        return Ok(());
    }
    let values = data.inputs.iter().chain(&data.results).flatten();
    for &v in values {
        if let Type::Tensor(t) = kb.model.ir.ty(v) {
            if is_narrow(t.elem) {
                return Err(kb.unsupported(
                    op,
                    &format!("{} operands (narrow types are only converted)", t.elem),
                ));
            }
        }
    }
    Ok(())
}

/// The elements of a sub-byte integer type packed in a byte.
fn per_byte(elem: ElemType) -> i64 {
    8 / i64::from(elem.bit_width())
}

/// The bytes `n` elements of sub-byte `elem` take packed (the ABI's form).
pub(crate) fn packed_bytes(elem: ElemType, n: i64) -> i64 {
    (n + per_byte(elem) - 1) / per_byte(elem)
}

/// The packed bytes of `n` elements of sub-byte `elem`, `n` static or
/// known only at run time (`ceil(n / per)`, [`packed_bytes`]).
pub(crate) fn packed_size<'c, 'b>(
    e: &Emitter<'c, 'b>,
    elem: ElemType,
    n: Size<'c, 'b>,
) -> Size<'c, 'b> {
    match n {
        Size::Static(n) => Size::Static(packed_bytes(elem, n)),
        Size::Dynamic(n) => {
            let per = per_byte(elem);
            let up = e.addi(n, e.index(per - 1));
            Size::Dynamic(e.divui(up, e.index(per)))
        }
    }
}

/// `i * per + j` as an index.
fn element_index<'c, 'b>(
    e: Emitter<'c, 'b>,
    i: MValue<'c, 'b>,
    per: i64,
    j: i64,
) -> MValue<'c, 'b> {
    let base = e.muli(i, e.index(per));
    e.addi(base, e.index(j))
}

/// Unpacks `n` sub-byte elements of `elem` from `packed` (`memref<bytes x
/// i8>`, the ABI's form) into `unpacked` (`memref<bytes·per x i8>`, one
/// element per byte, see the module docs).
pub(crate) fn unpack<'c, 'b>(
    e: &Emitter<'c, 'b>,
    elem: ElemType,
    n: Size<'c, 'b>,
    packed: MValue<'c, 'b>,
    unpacked: MValue<'c, 'b>,
) {
    let (bits, per) = (elem.bit_width(), per_byte(elem));
    let i8t = e.int_type(8);
    let bytes = packed_size(e, elem, n).value(e);
    e.for_each(e.index(0), bytes, |be, i| {
        let byte = be.load(packed, &[i]);
        for j in 0..per {
            let shifted = be.shrui(byte, be.i(i8t, j * i64::from(bits)));
            let v = wrap_int(be, shifted, bits, elem.is_signed_int());
            let at = element_index(be, i, per, j);
            be.store(v, unpacked, &[at]);
        }
    });
}

/// Packs the elements of sub-byte `elem` of `unpacked` (one per byte,
/// `memref<bytes·per x i8>`) into `packed` (`memref<bytes x i8>`, low bits
/// first). The elements past the tensor's `n` are zeroed first
/// ([`zero_tail`]) so that the padding bits are 0.
pub(crate) fn pack<'c, 'b>(
    e: &Emitter<'c, 'b>,
    elem: ElemType,
    n: Size<'c, 'b>,
    unpacked: MValue<'c, 'b>,
    packed: MValue<'c, 'b>,
) {
    let (bits, per) = (elem.bit_width(), per_byte(elem));
    let i8t = e.int_type(8);
    let bytes = packed_size(e, elem, n).value(e);
    e.for_each(e.index(0), bytes, |be, i| {
        let mut acc = be.i(i8t, 0);
        for j in 0..per {
            let at = element_index(be, i, per, j);
            let v = be.load(unpacked, &[at]);
            let v = be.andi(v, be.i(i8t, (1 << bits) - 1));
            let v = be.shli(v, be.i(i8t, j * i64::from(bits)));
            acc = be.ori(acc, v);
        }
        be.store(acc, packed, &[i]);
    });
}

/// Zeroes the elements of `unpacked` past the tensor's `n` (the padding
/// of the last packed byte): stores when `n` is static, a loop when it is
/// known only at run time.
pub(crate) fn zero_tail<'c, 'b>(
    e: &Emitter<'c, 'b>,
    elem: ElemType,
    n: Size<'c, 'b>,
    unpacked: MValue<'c, 'b>,
) {
    let zero = e.i(e.int_type(8), 0);
    match n {
        Size::Static(n) => {
            for k in n..packed_bytes(elem, n) * per_byte(elem) {
                e.store(zero, unpacked, &[e.index(k)]);
            }
        }
        Size::Dynamic(m) => {
            let bytes = packed_size(e, elem, n).value(e);
            let end = e.muli(bytes, e.index(per_byte(elem)));
            e.for_each(m, end, |be, k| {
                let zero = be.i(be.int_type(8), 0);
                be.store(zero, unpacked, &[k]);
            });
        }
    }
}
