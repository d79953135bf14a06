//! The text form of the onnx dialect: the printer.
//!
//! A model prints in MLIR's generic-op style, complete enough that
//! [`parse_model`](crate::parse::parse_model) rebuilds the same model from
//! it: every op, value name, type, attribute, node name, doc string and
//! metadata property is printed. Text equality of two printed models is
//! therefore a meaningful test oracle, and FileCheck-style tests can be
//! written against the printed form. The full grammar is in
//! `docs/text-format.md`; in short:
//!
//! ```text
//! onnx.model {ir_version = 8, opset_imports = {"" = 17}, producer_name = "pytorch"}
//! onnx.graph "main"(%x: tensor<"N"x3xf32>, %w: tensor<3xf32> = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) -> ("y": tensor<"N"x3xf32>) {
//!   %0 = "onnx.Mul"(%x, %w) : (tensor<"N"x3xf32>, tensor<3xf32>) -> tensor<"N"x3xf32> loc("mul")
//!   %y, _ = "onnx.Dropout"(%0) {ratio = 0.5} : (tensor<"N"x3xf32>) -> (tensor<"N"x3xf32>, none)
//!   onnx.return %y
//! }
//! ```
//!
//! Design points:
//! - Value names matching `[A-Za-z_][A-Za-z0-9_.$]*` print bare, others
//!   quoted (`%"onnx::Gemm_12"`); unnamed values are numbered `%0`, `%1`, …
//!   in print order. A number is never a name (names that look like numbers
//!   are quoted), so the two cannot collide.
//! - An op's schema version is implied by the model's opset import; it is
//!   spelled out (`"onnx.Clip-6"`) only when the op's version differs from
//!   what the import resolves to.
//! - Attributes carry their kind in their spelling (`1` is INT, `1.0` is
//!   FLOAT, an empty list says `[] : ints`), so no schema is needed to parse
//!   them. Floats print the shortest decimal that reads back to the same bits.
//! - Small tensors print as literals, large ones as the hex of their raw
//!   bytes, and with [`PrintOptions::elide_constants_above`] as
//!   `dense_resource<__elided__>`, which parses back into
//!   [`Payload::Elided`] so that elided dumps of big models stay parseable.

use std::collections::HashMap;
use std::fmt::{self, Write};

use crate::attr::{Attr, SparseTensorData};
use crate::dim::write_quoted;
use crate::ir::{Meta, Model, OpId, RegionId, Value};
use crate::tensor::{checked_numel, Payload, TensorData};
use crate::types::{ElemType, TensorType, Type};

/// How to print a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// Tensors with more elements than this print as
    /// `dense_resource<__elided__>` (their type stays, their values are
    /// left out). `None` prints every tensor in full.
    pub elide_constants_above: Option<usize>,
    /// Tensors with more elements than this print the hex of their raw
    /// bytes (`dense<"0x0000803F">`) instead of a readable literal, unless
    /// all elements are equal (a splat such as `dense<0.0>`).
    pub hex_above: usize,
}

impl Default for PrintOptions {
    /// Prints everything; literals up to 32 elements.
    fn default() -> PrintOptions {
        PrintOptions {
            elide_constants_above: None,
            hex_above: 32,
        }
    }
}

/// Prints a model in the text form.
pub fn print_model(model: &Model, options: &PrintOptions) -> String {
    let mut out = String::new();
    Printer::new(model, options, &mut out)
        .model()
        .expect("writing to a String cannot fail");
    out
}

impl fmt::Display for Model {
    /// The text form with [`PrintOptions::default`] (nothing elided).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Printer::new(self, &PrintOptions::default(), f).model()
    }
}

/// True when an ONNX value name can print without quotes after `%`.
pub fn is_bare_value_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
}

/// True when an attribute name can print without quotes.
pub(crate) fn is_bare_attr_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The bit pattern of one floating-point element or attribute.
#[derive(Copy, Clone)]
pub(crate) enum FloatBits {
    F16(u16),
    BF16(u16),
    F32(u32),
    F64(u64),
}

/// Writes a float so that it reads back to the same bits: the shortest
/// round-tripping decimal (always with a `.` or an exponent), `inf`,
/// `-inf`, `nan` for the canonical quiet NaN, and `nan(0x…)` with the bit
/// pattern for any other NaN.
pub(crate) fn write_float(out: &mut impl Write, bits: FloatBits) -> fmt::Result {
    let (value, raw, canonical_nan, hex_digits) = match bits {
        FloatBits::F16(b) => (f64::from(half::f16::from_bits(b)), u64::from(b), 0x7E00, 4),
        FloatBits::BF16(b) => (f64::from(half::bf16::from_bits(b)), u64::from(b), 0x7FC0, 4),
        FloatBits::F32(b) => (f64::from(f32::from_bits(b)), u64::from(b), 0x7FC0_0000, 8),
        FloatBits::F64(b) => (f64::from_bits(b), b, 0x7FF8_0000_0000_0000, 16),
    };
    if value.is_nan() {
        return if raw == canonical_nan {
            out.write_str("nan")
        } else {
            write!(out, "nan(0x{raw:0hex_digits$X})")
        };
    }
    if value.is_infinite() {
        return out.write_str(if value < 0.0 { "-inf" } else { "inf" });
    }
    // Narrow types print through f32: the shortest f32 decimal of an
    // f16/bf16 value reads back to that f32, which converts back exactly.
    let text = match bits {
        FloatBits::F64(_) => format!("{value:?}"),
        _ => format!("{:?}", value as f32),
    };
    out.write_str(&text)?;
    if !text.contains(['.', 'e']) {
        out.write_str(".0")?;
    }
    Ok(())
}

/// Whether tensors of this element type have a readable literal form
/// (others print as hex).
pub(crate) fn has_literal_form(elem: ElemType) -> bool {
    use ElemType::*;
    matches!(
        elem,
        F32 | F64 | F16 | BF16 | Bool | I8 | I16 | I32 | I64 | U8 | U16 | U32 | U64
    )
}

/// The literal of one element of a type with a literal form, given its
/// little-endian bytes; `None` when the bytes have no literal (a bool
/// byte other than 0 or 1).
fn element_literal(elem: ElemType, b: &[u8]) -> Option<String> {
    let mut s = String::new();
    let r = match elem {
        ElemType::F32 => write_float(
            &mut s,
            FloatBits::F32(u32::from_le_bytes(b.try_into().ok()?)),
        ),
        ElemType::F64 => write_float(
            &mut s,
            FloatBits::F64(u64::from_le_bytes(b.try_into().ok()?)),
        ),
        ElemType::F16 => write_float(
            &mut s,
            FloatBits::F16(u16::from_le_bytes(b.try_into().ok()?)),
        ),
        ElemType::BF16 => write_float(
            &mut s,
            FloatBits::BF16(u16::from_le_bytes(b.try_into().ok()?)),
        ),
        ElemType::Bool => match b {
            [0] => s.write_str("false"),
            [1] => s.write_str("true"),
            _ => return None,
        },
        ElemType::I8 => write!(s, "{}", i8::from_le_bytes(b.try_into().ok()?)),
        ElemType::I16 => write!(s, "{}", i16::from_le_bytes(b.try_into().ok()?)),
        ElemType::I32 => write!(s, "{}", i32::from_le_bytes(b.try_into().ok()?)),
        ElemType::I64 => write!(s, "{}", i64::from_le_bytes(b.try_into().ok()?)),
        ElemType::U8 => write!(s, "{}", u8::from_le_bytes(b.try_into().ok()?)),
        ElemType::U16 => write!(s, "{}", u16::from_le_bytes(b.try_into().ok()?)),
        ElemType::U32 => write!(s, "{}", u32::from_le_bytes(b.try_into().ok()?)),
        ElemType::U64 => write!(s, "{}", u64::from_le_bytes(b.try_into().ok()?)),
        _ => return None,
    };
    r.ok()?;
    Some(s)
}

/// Writes `items` (row-major) nested by `dims`: `[[1, 2], [3, 4]]`, a bare
/// scalar for rank 0, `[]` for any tensor without elements. Iterative, so
/// that a tensor of huge rank cannot overflow the stack.
fn write_nested<W: Write>(out: &mut W, dims: &[i64], items: Vec<String>) -> fmt::Result {
    if items.is_empty() {
        return out.write_str("[]");
    }
    if dims.is_empty() {
        return out.write_str(&items[0]);
    }
    let rank = dims.len();
    let mut index = vec![0i64; rank];
    write!(out, "{:[<1$}", "", rank)?;
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            // Advance the odometer; every dim that wraps closes and reopens a list.
            let mut wrapped = 0;
            for d in (0..rank).rev() {
                index[d] += 1;
                if index[d] < dims[d] {
                    break;
                }
                index[d] = 0;
                wrapped += 1;
            }
            write!(out, "{0:]<1$}, {0:[<1$}", "", wrapped)?;
        }
        out.write_str(item)?;
    }
    write!(out, "{:]<1$}", "", rank)
}

/// Writes bytes as uppercase hex, a chunk at a time (weights can be
/// hundreds of megabytes).
fn write_hex<W: Write>(out: &mut W, bytes: &[u8]) -> fmt::Result {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut buf = String::with_capacity(2 * bytes.len().min(1 << 16));
    for chunk in bytes.chunks(1 << 16) {
        buf.clear();
        for &b in chunk {
            buf.push(DIGITS[usize::from(b >> 4)] as char);
            buf.push(DIGITS[usize::from(b & 15)] as char);
        }
        out.write_str(&buf)?;
    }
    Ok(())
}

/// What a tensor literal holds: one element standing for all, or all.
enum Elements {
    Splat(String),
    All(Vec<String>),
}

fn quoted(s: &[u8]) -> String {
    let mut q = String::new();
    write_quoted(&mut q, s).expect("writing to a String cannot fail");
    q
}

/// Walks a model and writes it; owns the numbering of unnamed values.
struct Printer<'a, W> {
    model: &'a Model,
    options: &'a PrintOptions,
    out: W,
    numbers: HashMap<Value, usize>,
    indent: usize,
}

impl<'a, W: Write> Printer<'a, W> {
    fn new(model: &'a Model, options: &'a PrintOptions, out: W) -> Self {
        Printer {
            model,
            options,
            out,
            numbers: HashMap::new(),
            indent: 0,
        }
    }

    fn model(&mut self) -> fmt::Result {
        let m = self.model;
        write!(
            self.out,
            "onnx.model {{ir_version = {}, opset_imports = {{",
            m.ir_version
        )?;
        for (i, o) in m.opset_imports.iter().enumerate() {
            self.sep(i)?;
            self.string(o.domain.as_bytes())?;
            write!(self.out, " = {}", o.version)?;
        }
        self.out.write_char('}')?;
        for (key, value) in [
            ("producer_name", &m.producer_name),
            ("producer_version", &m.producer_version),
            ("domain", &m.domain),
        ] {
            if !value.is_empty() {
                write!(self.out, ", {key} = ")?;
                self.string(value.as_bytes())?;
            }
        }
        if m.model_version != 0 {
            write!(self.out, ", model_version = {}", m.model_version)?;
        }
        if !m.doc_string.is_empty() {
            self.out.write_str(", doc_string = ")?;
            self.string(m.doc_string.as_bytes())?;
        }
        if !m.metadata_props.is_empty() {
            self.out.write_str(", metadata_props = ")?;
            self.string_dict(&m.metadata_props)?;
        }
        self.out.write_str("}\n")?;
        self.graph(m.graph)?;
        self.out.write_char('\n')?;
        for t in &m.training_info {
            self.out.write_str("onnx.training {")?;
            if let Some(init) = t.initialization {
                self.out.write_str("initialization = ")?;
                self.graph(init)?;
                self.out.write_str(", ")?;
            }
            self.out.write_str("algorithm = ")?;
            self.graph(t.algorithm)?;
            for (key, binding) in [
                ("initialization_binding", &t.initialization_binding),
                ("update_binding", &t.update_binding),
            ] {
                if !binding.is_empty() {
                    write!(self.out, ", {key} = ")?;
                    self.string_dict(binding)?;
                }
            }
            self.out.write_str("}\n")?;
        }
        Ok(())
    }

    /// `onnx.graph "name"(args) -> (outputs) attributes {..} { ops }`,
    /// the body indented one level deeper than the current line.
    fn graph(&mut self, region: RegionId) -> fmt::Result {
        let ir = &self.model.ir;
        let r = ir.region(region);
        self.out.write_str("onnx.graph ")?;
        self.string(r.name.as_bytes())?;
        self.out.write_char('(')?;
        for (i, arg) in r.args.iter().enumerate() {
            self.sep(i)?;
            self.value(arg.value)?;
            write!(self.out, ": {}", ir.ty(arg.value))?;
            if let Some(default) = &arg.default {
                self.out.write_str(" = ")?;
                self.tensor(default)?;
            }
            if let Some(meta) = &ir.value(arg.value).meta {
                self.out.write_char(' ')?;
                self.meta(meta)?;
            }
        }
        self.out.write_str(") -> (")?;
        for (i, o) in r.outputs.iter().enumerate() {
            self.sep(i)?;
            self.string(o.name.as_bytes())?;
            write!(self.out, ": {}", ir.ty(o.value))?;
        }
        self.out.write_char(')')?;
        if let Some(meta) = &r.meta {
            self.out.write_str(" attributes ")?;
            self.meta(meta)?;
        }
        self.out.write_str(" {\n")?;
        self.indent += 2;
        for &op in &r.ops {
            self.op(op)?;
        }
        self.pad()?;
        self.out.write_str("onnx.return")?;
        for (i, o) in r.outputs.iter().enumerate() {
            self.out.write_str(if i == 0 { " " } else { ", " })?;
            self.value(o.value)?;
        }
        self.out.write_char('\n')?;
        self.indent -= 2;
        self.pad()?;
        self.out.write_char('}')
    }

    /// One op on its own line.
    fn op(&mut self, id: OpId) -> fmt::Result {
        let ir = &self.model.ir;
        let op = ir.op(id);
        self.pad()?;
        if !op.results.is_empty() {
            for (i, r) in op.results.iter().enumerate() {
                self.sep(i)?;
                match r {
                    Some(v) => self.value(*v)?,
                    None => self.out.write_char('_')?,
                }
            }
            self.out.write_str(" = ")?;
        }
        let domain = op.kind.domain();
        write!(self.out, "\"{}.{}", domain.text_prefix(), op.kind.name())?;
        let implied = self
            .model
            .opset(domain)
            .and_then(|v| op.kind.schema(v))
            .map(|s| s.since_version);
        if implied != Some(op.version) {
            write!(self.out, "-{}", op.version)?;
        }
        self.out.write_str("\"(")?;
        for (i, input) in op.inputs.iter().enumerate() {
            self.sep(i)?;
            match input {
                Some(v) => self.value(*v)?,
                None => self.out.write_str("none")?,
            }
        }
        self.out.write_char(')')?;
        self.op_attrs(id)?;
        self.out.write_str(" : (")?;
        for (i, input) in op.inputs.iter().enumerate() {
            self.sep(i)?;
            self.slot_type(*input)?;
        }
        self.out.write_str(") -> ")?;
        if let [r] = op.results[..] {
            self.slot_type(r)?;
        } else {
            self.out.write_char('(')?;
            for (i, r) in op.results.iter().enumerate() {
                self.sep(i)?;
                self.slot_type(*r)?;
            }
            self.out.write_char(')')?;
        }
        if !op.name.is_empty() {
            self.out.write_str(" loc(")?;
            self.string(op.name.as_bytes())?;
            self.out.write_char(')')?;
        }
        self.out.write_char('\n')
    }

    /// The attribute dictionary of an op: its ONNX attributes in stored
    /// order, then the discardable `onnx.*` entries for its metadata.
    fn op_attrs(&mut self, id: OpId) -> fmt::Result {
        let ir = &self.model.ir;
        let op = ir.op(id);
        let result_meta: Vec<Option<&Meta>> = op
            .results
            .iter()
            .map(|r| r.and_then(|v| ir.value(v).meta.as_deref()))
            .collect();
        let any_result_meta = result_meta.iter().any(Option::is_some);
        let meta = op.meta.as_deref();
        if op.attrs.is_empty() && meta.is_none() && !any_result_meta {
            return Ok(());
        }
        self.out.write_str(" {")?;
        let mut n = 0;
        for (name, value) in op.attrs.iter() {
            self.sep(n)?;
            n += 1;
            if is_bare_attr_name(name) {
                self.out.write_str(name)?;
            } else {
                self.string(name.as_bytes())?;
            }
            self.out.write_str(" = ")?;
            self.attr(value)?;
        }
        if let Some(meta) = meta {
            if !meta.doc_string.is_empty() {
                self.sep(n)?;
                n += 1;
                self.out.write_str("onnx.doc_string = ")?;
                self.string(meta.doc_string.as_bytes())?;
            }
            if !meta.metadata_props.is_empty() {
                self.sep(n)?;
                n += 1;
                self.out.write_str("onnx.metadata_props = ")?;
                self.string_dict(&meta.metadata_props)?;
            }
        }
        if any_result_meta {
            self.sep(n)?;
            self.out.write_str("onnx.result_meta = [")?;
            for (i, m) in result_meta.iter().enumerate() {
                self.sep(i)?;
                match m {
                    Some(m) => self.meta(m)?,
                    None => self.out.write_str("{}")?,
                }
            }
            self.out.write_char(']')?;
        }
        self.out.write_char('}')
    }

    fn attr(&mut self, attr: &Attr) -> fmt::Result {
        match attr {
            Attr::Float(x) => write_float(&mut self.out, FloatBits::F32(x.to_bits())),
            Attr::Int(i) => write!(self.out, "{i}"),
            Attr::String(s) => self.string(s),
            Attr::Tensor(t) => self.tensor(t),
            Attr::Graph(r) => self.graph(*r),
            Attr::SparseTensor(s) => self.sparse(s),
            Attr::Type(t) => write!(self.out, "{t}"),
            Attr::Floats(v) => self.list(v, "floats", |p, x| {
                write_float(&mut p.out, FloatBits::F32(x.to_bits()))
            }),
            Attr::Ints(v) => self.list(v, "ints", |p, i| write!(p.out, "{i}")),
            Attr::Strings(v) => self.list(v, "strings", |p, s| p.string(s)),
            Attr::Tensors(v) => self.list(v, "tensors", |p, t| p.tensor(t)),
            Attr::Graphs(v) => self.list(v, "graphs", |p, r| p.graph(*r)),
            Attr::SparseTensors(v) => self.list(v, "sparse_tensors", |p, s| p.sparse(s)),
            Attr::Types(v) => self.list(v, "types", |p, t| write!(p.out, "{t}")),
        }
    }

    /// `[a, b]`, or `[] : kind` when empty (the kind cannot be seen from
    /// the elements then).
    fn list<T>(
        &mut self,
        items: &[T],
        kind: &str,
        mut item: impl FnMut(&mut Self, &T) -> fmt::Result,
    ) -> fmt::Result {
        if items.is_empty() {
            return write!(self.out, "[] : {kind}");
        }
        self.out.write_char('[')?;
        for (i, x) in items.iter().enumerate() {
            self.sep(i)?;
            item(self, x)?;
        }
        self.out.write_char(']')
    }

    /// `dense<literal> : tensor<…>` or `dense_resource<__elided__> : tensor<…>`.
    fn tensor(&mut self, t: &TensorData) -> fmt::Result {
        let numel = checked_numel(&t.dims);
        let elide =
            matches!((self.options.elide_constants_above, numel), (Some(max), Some(n)) if n > max);
        if elide || t.payload == Payload::Elided {
            self.out.write_str("dense_resource<__elided__>")?;
        } else {
            self.out.write_str("dense<")?;
            self.literal(t, numel)?;
            self.out.write_char('>')?;
        }
        write!(
            self.out,
            " : {}",
            Type::Tensor(TensorType::new(t.elem, &t.dims))
        )
    }

    /// The literal inside `dense<…>`: a splat, a nested list, or hex.
    fn literal(&mut self, t: &TensorData, numel: Option<usize>) -> fmt::Result {
        let elements = match &t.payload {
            Payload::Elided => unreachable!("elided tensors print as dense_resource"),
            Payload::Strings(s) => {
                let items: Vec<&[u8]> = s.iter().map(Vec::as_slice).collect();
                self.elements(&items, numel, |b| Some(quoted(b)), true)
            }
            Payload::Raw(raw) => {
                let width = t.elem.bit_width() as usize / 8;
                let readable = has_literal_form(t.elem)
                    && numel.and_then(|n| n.checked_mul(width)) == Some(raw.len());
                readable
                    .then(|| {
                        let items: Vec<&[u8]> = raw.chunks_exact(width).collect();
                        self.elements(&items, numel, |b| element_literal(t.elem, b), false)
                    })
                    .flatten()
            }
        };
        match elements {
            Some(Elements::Splat(e)) => self.out.write_str(&e),
            Some(Elements::All(items)) if numel == Some(items.len()) => {
                write_nested(&mut self.out, &t.dims, items)
            }
            // Inconsistent IR (element count does not match the shape):
            // print what is there; the parser will point at it.
            Some(Elements::All(items)) => write_nested(&mut self.out, &[items.len() as i64], items),
            None => {
                self.out.write_str("\"0x")?;
                write_hex(&mut self.out, t.raw().map(|b| &b[..]).unwrap_or_default())?;
                self.out.write_char('"')
            }
        }
    }

    /// The literals of a tensor's elements: one for a splat (more than one
    /// element, all equal), else all of them; `None` (print hex) when an
    /// element has no literal or, unless `always`, when there are more
    /// than [`PrintOptions::hex_above`].
    fn elements(
        &self,
        items: &[&[u8]],
        numel: Option<usize>,
        literal: impl Fn(&[u8]) -> Option<String>,
        always: bool,
    ) -> Option<Elements> {
        if items.len() > 1 && numel == Some(items.len()) && items.iter().all(|x| *x == items[0]) {
            return literal(items[0]).map(Elements::Splat);
        }
        if !always && items.len() > self.options.hex_above {
            return None;
        }
        items
            .iter()
            .map(|b| literal(b))
            .collect::<Option<_>>()
            .map(Elements::All)
    }

    /// `sparse<indices, values> : !onnx.sparse<…>`.
    fn sparse(&mut self, s: &SparseTensorData) -> fmt::Result {
        self.out.write_str("sparse<")?;
        self.tensor(&s.indices)?;
        self.out.write_str(", ")?;
        self.tensor(&s.values)?;
        write!(
            self.out,
            "> : {}",
            Type::SparseTensor(TensorType::new(s.values.elem, &s.dims))
        )
    }

    /// `{doc_string = "…", metadata_props = {"k" = "v"}}`.
    fn meta(&mut self, meta: &Meta) -> fmt::Result {
        self.out.write_char('{')?;
        let has_doc = !meta.doc_string.is_empty();
        if has_doc {
            self.out.write_str("doc_string = ")?;
            self.string(meta.doc_string.as_bytes())?;
        }
        if !meta.metadata_props.is_empty() {
            if has_doc {
                self.out.write_str(", ")?;
            }
            self.out.write_str("metadata_props = ")?;
            self.string_dict(&meta.metadata_props)?;
        }
        self.out.write_char('}')
    }

    /// `{"k" = "v", …}`.
    fn string_dict(&mut self, entries: &[(String, String)]) -> fmt::Result {
        self.out.write_char('{')?;
        for (i, (k, v)) in entries.iter().enumerate() {
            self.sep(i)?;
            self.string(k.as_bytes())?;
            self.out.write_str(" = ")?;
            self.string(v.as_bytes())?;
        }
        self.out.write_char('}')
    }

    /// `%name`, `%"odd name"` or `%N` for an unnamed value.
    fn value(&mut self, v: Value) -> fmt::Result {
        self.out.write_char('%')?;
        match &self.model.ir.value(v).name {
            Some(name) if is_bare_value_name(name) => self.out.write_str(name),
            Some(name) => self.string(name.as_bytes()),
            None => {
                let next = self.numbers.len();
                let n = *self.numbers.entry(v).or_insert(next);
                write!(self.out, "{n}")
            }
        }
    }

    /// The type of an operand or result slot (`none` when absent).
    fn slot_type(&mut self, slot: Option<Value>) -> fmt::Result {
        match slot {
            Some(v) => write!(self.out, "{}", self.model.ir.ty(v)),
            None => self.out.write_str("none"),
        }
    }

    fn string(&mut self, s: &[u8]) -> fmt::Result {
        write_quoted(&mut self.out, s)
    }

    /// `", "` before every item but the first.
    fn sep(&mut self, i: usize) -> fmt::Result {
        if i > 0 {
            self.out.write_str(", ")?;
        }
        Ok(())
    }

    fn pad(&mut self) -> fmt::Result {
        write!(self.out, "{:1$}", "", self.indent)
    }
}
