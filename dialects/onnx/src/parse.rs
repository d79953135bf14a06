//! The text form of the onnx dialect: the parser.
//!
//! [`parse_model`] reads what [`print`](crate::print) writes (the grammar
//! is in `docs/text-format.md`) and rebuilds the model. It is a
//! hand-written scanner with recursive descent on top: the scanner lexes
//! on demand, because the text form, like MLIR's, has contexts with their
//! own tokens (`1x3x"N"xf32` inside `tensor<…>` is several tokens).
//!
//! The parser checks what the text itself must get right, so that a
//! hand-written test cannot silently mean something else: values are
//! defined before use (values of enclosing graphs are visible inside
//! subgraphs, and the main graph's values inside training graphs) and at
//! most once per graph; the types written for operands and graph outputs
//! are the types of the values used; op names and versions exist in the op
//! table. Everything else (arity, attribute kinds, type constraints) is the
//! verifier's job. Errors carry the line and column of the offending token
//! and say what was expected; nesting is bounded by [`MAX_DEPTH`], so no
//! input can overflow the stack, and no input panics.

use std::collections::HashMap;

use bytes::Bytes;

use crate::attr::{Attr, Attrs, SparseTensorData};
use crate::dim::Dim;
use crate::error::{Error, Result};
use crate::ir::{Meta, Model, NewOp, OpsetImport, RegionId, RegionParent, TrainingInfo, Value};
use crate::schema::{Domain, OpKind};
use crate::tensor::{checked_numel, TensorData};
use crate::types::{ElemType, TensorType, Type};

/// How deeply graphs, types and literals may nest.
pub const MAX_DEPTH: usize = 256;

/// Largest tensor a splat literal (`dense<0.0> : tensor<…>`) may expand to,
/// in bytes: the text is small but the data is not.
pub const MAX_SPLAT_BYTES: usize = 1 << 30;

/// Parses a model in the text form.
pub fn parse_model(text: &str) -> Result<Model> {
    let mut p = Parser {
        src: text.as_bytes(),
        pos: 0,
        depth: 0,
        model: Model::new("", vec![]),
        scopes: vec![],
    };
    p.model()?;
    Ok(p.model)
}

/// The value of a hex digit.
fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// The byte of two hex digits (both checked by [`hex_digit`]).
fn hex_byte(high: u8, low: u8) -> u8 {
    hex_digit(high).unwrap_or(0) << 4 | hex_digit(low).unwrap_or(0)
}

/// How a value is written: by ONNX name, or by number when unnamed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Name(String),
    Num(u64),
}

impl Key {
    /// The value's ONNX name (`None` for a numbered value).
    fn into_name(self) -> Option<String> {
        match self {
            Key::Name(n) => Some(n),
            Key::Num(_) => None,
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Name(n) if crate::print::is_bare_value_name(n) => write!(f, "%{n}"),
            Key::Name(n) => {
                f.write_str("%")?;
                crate::dim::write_quoted(f, n.as_bytes())
            }
            Key::Num(n) => write!(f, "%{n}"),
        }
    }
}

/// The values one graph defines.
type Scope = HashMap<Key, Value>;

/// A numeric literal.
#[derive(Clone, Debug)]
enum Number {
    Int(i128),
    Float(FloatLit),
}

/// A scalar of a literal, before its element type is known.
#[derive(Clone, Debug)]
enum Scalar {
    Num(Number),
    Bool(bool),
    Str(Vec<u8>),
}

/// A float literal; decimals are kept as text so that f32 and f64
/// elements round from the exact decimal.
#[derive(Clone, Debug)]
enum FloatLit {
    Decimal(String),
    Inf {
        negative: bool,
    },
    /// `nan`, or `nan(0x…)` with an explicit bit pattern.
    Nan(Option<u64>),
}

/// A `dense<…>` literal: a scalar or a nested list, each with its offset.
#[derive(Clone, Debug)]
enum Literal {
    Scalar(Scalar, usize),
    List(Vec<Literal>, usize),
}

/// The parser state: the text, the cursor, and the model being built.
struct Parser<'t> {
    src: &'t [u8],
    pos: usize,
    depth: usize,
    model: Model,
    /// Values visible at the current point, innermost graph last.
    scopes: Vec<Scope>,
}

impl<'t> Parser<'t> {
    // ---- errors and positions -------------------------------------------

    /// An error at byte offset `pos`.
    fn error_at(&self, pos: usize, message: impl Into<String>) -> Error {
        let pos = pos.min(self.src.len());
        let before = &self.src[..pos];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let col = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        Error::Parse {
            line,
            col,
            message: message.into(),
        }
    }

    /// An error at the next token: "expected X, found Y".
    fn expected(&mut self, what: &str) -> Error {
        self.skip_trivia();
        let found = self.describe_next();
        self.error_at(self.pos, format!("expected {what}, found {found}"))
    }

    /// A short description of the next token for messages.
    fn describe_next(&self) -> String {
        let rest = &self.src[self.pos..];
        let Some(&c) = rest.first() else {
            return "end of input".into();
        };
        if c.is_ascii_alphanumeric() || c == b'_' {
            let n = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
                .count();
            return format!("'{}'", String::from_utf8_lossy(&rest[..n]));
        }
        let ch = String::from_utf8_lossy(&rest[..rest.len().min(4)])
            .chars()
            .next()
            .unwrap_or('?');
        format!("'{ch}'")
    }

    /// Runs `f` one nesting level deeper, failing past [`MAX_DEPTH`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error_at(
                self.pos,
                format!("nesting is deeper than {MAX_DEPTH} levels"),
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    // ---- scanner --------------------------------------------------------

    /// The offset of the next token (skipping trivia).
    fn here(&mut self) -> usize {
        self.skip_trivia();
        self.pos
    }

    /// Skips whitespace and `//` comments.
    fn skip_trivia(&mut self) {
        loop {
            while self.pos < self.src.len() && self.src[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.src[self.pos..].starts_with(b"//") {
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                return;
            }
        }
    }

    /// The next byte after trivia.
    fn peek(&mut self) -> Option<u8> {
        self.skip_trivia();
        self.src.get(self.pos).copied()
    }

    /// Consumes `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes `c` or fails with "expected 'c' <context>".
    fn expect(&mut self, c: u8, context: &str) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{}' {context}", c as char)))
        }
    }

    /// Consumes `->`.
    fn expect_arrow(&mut self, context: &str) -> Result<()> {
        self.skip_trivia();
        if self.src[self.pos..].starts_with(b"->") {
            self.pos += 2;
            Ok(())
        } else {
            Err(self.expected(&format!("'->' {context}")))
        }
    }

    /// The identifier (`[A-Za-z_][A-Za-z0-9_.]*`) at the cursor, without
    /// consuming it.
    fn peek_ident(&mut self) -> Option<&'t str> {
        self.skip_trivia();
        let src: &'t [u8] = self.src;
        let rest = &src[self.pos..];
        if !matches!(rest.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_') {
            return None;
        }
        let n = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
            .count();
        std::str::from_utf8(&rest[..n]).ok()
    }

    /// Consumes and returns an identifier.
    fn ident(&mut self, what: &str) -> Result<&'t str> {
        match self.peek_ident() {
            Some(id) => {
                self.pos += id.len();
                Ok(id)
            }
            None => Err(self.expected(what)),
        }
    }

    /// Consumes the keyword `kw` if it is next.
    fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.peek_ident() == Some(kw) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `kw` or fails.
    fn expect_keyword(&mut self, kw: &str, context: &str) -> Result<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{kw}' {context}")))
        }
    }

    /// A double-quoted byte string with `\"`, `\\` and `\xx` escapes.
    fn string(&mut self, what: &str) -> Result<Vec<u8>> {
        if self.peek() != Some(b'"') {
            return Err(self.expected(what));
        }
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            // Copy each run of plain bytes at once: hex tensors are long.
            let run = self.src[self.pos..]
                .iter()
                .take_while(|&&c| c != b'"' && c != b'\\' && c >= 0x20 && c != 0x7f)
                .count();
            out.extend_from_slice(&self.src[self.pos..self.pos + run]);
            self.pos += run;
            match self.src.get(self.pos) {
                None | Some(b'\n') => return Err(self.error_at(start, "unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let esc = &self.src[self.pos + 1..(self.pos + 3).min(self.src.len())];
                    match esc {
                        [c @ (b'"' | b'\\'), ..] => {
                            out.push(*c);
                            self.pos += 2;
                        }
                        [h, l] if hex_digit(*h).is_some() && hex_digit(*l).is_some() => {
                            out.push(hex_byte(*h, *l));
                            self.pos += 3;
                        }
                        _ => {
                            return Err(self.error_at(
                                self.pos,
                                "invalid escape in string: expected \\\", \\\\ or \\ and two hex digits",
                            ))
                        }
                    }
                }
                Some(_) => {
                    return Err(
                        self.error_at(self.pos, "control character in string (write it as \\xx)")
                    )
                }
            }
        }
    }

    /// A string that must be valid UTF-8 (names, doc strings, metadata).
    fn text(&mut self, what: &str) -> Result<String> {
        let start = self.here();
        let bytes = self.string(what)?;
        String::from_utf8(bytes)
            .map_err(|_| self.error_at(start, format!("{what} is not valid UTF-8")))
    }

    /// An unsigned run of decimal digits.
    fn digits(&mut self) -> Option<&'t str> {
        let src: &'t [u8] = self.src;
        let n = src[self.pos..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let s = std::str::from_utf8(&src[self.pos..self.pos + n])
            .ok()
            .filter(|s| !s.is_empty())?;
        self.pos += n;
        Some(s)
    }

    /// A numeric scalar: an integer, or a float (a decimal with `.` or an
    /// exponent, `inf`, `-inf`, `nan`, `nan(0x…)`).
    fn number(&mut self, what: &str) -> Result<Number> {
        let start = self.here();
        let negative = self.src.get(self.pos) == Some(&b'-');
        if negative {
            self.pos += 1;
        }
        match self.peek_ident_here() {
            Some("inf") => {
                self.pos += 3;
                return Ok(Number::Float(FloatLit::Inf { negative }));
            }
            Some("nan") if !negative => {
                self.pos += 3;
                if self.src.get(self.pos) != Some(&b'(') {
                    return Ok(Number::Float(FloatLit::Nan(None)));
                }
                self.pos += 1;
                if !self.src[self.pos..].starts_with(b"0x")
                    && !self.src[self.pos..].starts_with(b"0X")
                {
                    return Err(
                        self.error_at(self.pos, "expected a hex bit pattern '0x…' in nan(…)")
                    );
                }
                self.pos += 2;
                let n = self.src[self.pos..]
                    .iter()
                    .take_while(|b| b.is_ascii_hexdigit())
                    .count();
                let hex =
                    std::str::from_utf8(&self.src[self.pos..self.pos + n]).unwrap_or_default();
                let bits = u64::from_str_radix(hex, 16).map_err(|_| {
                    self.error_at(self.pos, "expected at most 16 hex digits in nan(0x…)")
                })?;
                self.pos += n;
                self.expect(b')', "after the bits of nan(0x…)")?;
                return Ok(Number::Float(FloatLit::Nan(Some(bits))));
            }
            _ => {}
        }
        if self.digits().is_none() {
            self.pos = start;
            return Err(self.expected(what));
        }
        let mut is_float = false;
        if self.src.get(self.pos) == Some(&b'.') {
            is_float = true;
            self.pos += 1;
            self.digits();
        }
        if matches!(self.src.get(self.pos), Some(b'e' | b'E')) {
            let mark = self.pos;
            self.pos += 1;
            if matches!(self.src.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits().is_some() {
                is_float = true;
            } else {
                self.pos = mark;
            }
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).expect("ASCII digits");
        if is_float {
            return Ok(Number::Float(FloatLit::Decimal(text.to_string())));
        }
        text.parse::<i128>()
            .map(Number::Int)
            .map_err(|_| self.error_at(start, format!("integer {text} is out of range")))
    }

    /// An identifier starting exactly at the cursor (no trivia skipped).
    fn peek_ident_here(&self) -> Option<&'t str> {
        let src: &'t [u8] = self.src;
        let rest = &src[self.pos..];
        let n = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        (n > 0 && !rest[0].is_ascii_digit())
            .then(|| std::str::from_utf8(&rest[..n]).ok())
            .flatten()
    }

    /// An integer that fits an `i64`.
    fn int(&mut self, what: &str) -> Result<i64> {
        let start = self.here();
        match self.number(what)? {
            Number::Int(i) => i64::try_from(i)
                .map_err(|_| self.error_at(start, format!("integer {i} is out of range"))),
            Number::Float(_) => {
                Err(self.error_at(start, format!("expected {what}, found a float")))
            }
        }
    }

    // ---- model ----------------------------------------------------------

    fn model(&mut self) -> Result<()> {
        self.expect_keyword("onnx.model", "at the start of a model")?;
        self.model_header()?;
        let main = self.model.graph;
        // Training graphs see the main graph's values.
        let main_scope = self.graph(main)?;
        self.scopes.push(main_scope);
        loop {
            let start = self.here();
            if !self.eat_keyword("onnx.training") {
                break;
            }
            let info = self.training(start)?;
            self.model.training_info.push(info);
        }
        if self.peek().is_some() {
            return Err(self.expected("'onnx.training' or the end of the model"));
        }
        Ok(())
    }

    /// `{ir_version = 8, opset_imports = {"" = 17}, …}`.
    fn model_header(&mut self) -> Result<()> {
        let mut seen = vec![];
        self.dict("after 'onnx.model'", |p| {
            let start = p.here();
            let key = p.ident("a model field")?;
            if seen.contains(&key) {
                return Err(p.error_at(start, format!("duplicate model field '{key}'")));
            }
            seen.push(key);
            p.expect(b'=', &format!("after '{key}'"))?;
            match key {
                "ir_version" => p.model.ir_version = p.int("an integer")?,
                "model_version" => p.model.model_version = p.int("an integer")?,
                "producer_name" => p.model.producer_name = p.text("a string")?,
                "producer_version" => p.model.producer_version = p.text("a string")?,
                "domain" => p.model.domain = p.text("a string")?,
                "doc_string" => p.model.doc_string = p.text("a string")?,
                "metadata_props" => p.model.metadata_props = p.string_dict()?,
                "opset_imports" => {
                    let mut imports = vec![];
                    p.dict("to start the opset imports", |p| {
                        let domain = p.text("a domain name string")?;
                        p.expect(b'=', "after the domain name")?;
                        let version = p.int("an opset version")?;
                        imports.push(OpsetImport { domain, version });
                        Ok(())
                    })?;
                    p.model.opset_imports = imports;
                }
                _ => {
                    return Err(p.error_at(
                        start,
                        format!(
                            "unknown model field '{key}' (expected ir_version, opset_imports, producer_name, \
                             producer_version, domain, model_version, doc_string or metadata_props)"
                        ),
                    ));
                }
            }
            Ok(())
        })
    }

    /// `{initialization = onnx.graph …, algorithm = onnx.graph …,
    /// initialization_binding = {…}, update_binding = {…}}`.
    fn training(&mut self, keyword_pos: usize) -> Result<TrainingInfo> {
        let mut seen = vec![];
        let (mut initialization, mut algorithm) = (None, None);
        let (mut initialization_binding, mut update_binding) = (vec![], vec![]);
        self.dict("after 'onnx.training'", |p| {
            let start = p.here();
            let key = p.ident("a training field")?;
            if seen.contains(&key) {
                return Err(p.error_at(start, format!("duplicate training field '{key}'")));
            }
            seen.push(key);
            p.expect(b'=', &format!("after '{key}'"))?;
            match key {
                "initialization" | "algorithm" => {
                    let region = p.model.ir.new_region("", RegionParent::Top);
                    p.graph(region)?;
                    *(if key == "algorithm" {
                        &mut algorithm
                    } else {
                        &mut initialization
                    }) = Some(region);
                }
                "initialization_binding" => initialization_binding = p.string_dict()?,
                "update_binding" => update_binding = p.string_dict()?,
                _ => {
                    return Err(p.error_at(
                        start,
                        format!(
                            "unknown training field '{key}' (expected initialization, algorithm, \
                             initialization_binding or update_binding)"
                        ),
                    ))
                }
            }
            Ok(())
        })?;
        let algorithm = algorithm.ok_or_else(|| {
            self.error_at(keyword_pos, "onnx.training needs an 'algorithm' graph")
        })?;
        Ok(TrainingInfo {
            initialization,
            algorithm,
            initialization_binding,
            update_binding,
        })
    }

    /// `{ entry, entry, … }` with `entry` parsed by `f`.
    fn dict(&mut self, context: &str, mut f: impl FnMut(&mut Self) -> Result<()>) -> Result<()> {
        self.expect(b'{', context)?;
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            f(self)?;
            if self.eat(b'}') {
                return Ok(());
            }
            if !self.eat(b',') {
                return Err(self.expected("',' or '}'"));
            }
        }
    }

    /// `( item, item, … )` with `item` parsed by `f`; the opening paren
    /// must already be consumed.
    fn list_until(&mut self, close: u8, mut f: impl FnMut(&mut Self) -> Result<()>) -> Result<()> {
        if self.eat(close) {
            return Ok(());
        }
        loop {
            f(self)?;
            if self.eat(close) {
                return Ok(());
            }
            if !self.eat(b',') {
                return Err(self.expected(&format!("',' or '{}'", close as char)));
            }
        }
    }

    /// `{"k" = "v", …}`.
    fn string_dict(&mut self) -> Result<Vec<(String, String)>> {
        let mut out = vec![];
        self.dict("to start a string dictionary", |p| {
            let k = p.text("a key string")?;
            p.expect(b'=', "after the key")?;
            let v = p.text("a value string")?;
            out.push((k, v));
            Ok(())
        })?;
        Ok(out)
    }

    /// `{doc_string = "…", metadata_props = {…}}`.
    fn meta(&mut self) -> Result<Option<Box<Meta>>> {
        let (mut doc, mut props) = (None, None);
        self.dict("to start doc_string/metadata_props", |p| {
            let start = p.here();
            match p.ident("'doc_string' or 'metadata_props'")? {
                "doc_string" if doc.is_none() => {
                    p.expect(b'=', "after 'doc_string'")?;
                    doc = Some(p.text("a string")?);
                }
                "metadata_props" if props.is_none() => {
                    p.expect(b'=', "after 'metadata_props'")?;
                    props = Some(p.string_dict()?);
                }
                key => {
                    return Err(p.error_at(
                        start,
                        format!("unexpected '{key}' (expected doc_string or metadata_props, each at most once)"),
                    ))
                }
            }
            Ok(())
        })?;
        Ok(Meta::boxed(
            doc.unwrap_or_default(),
            props.unwrap_or_default(),
        ))
    }

    // ---- graphs ---------------------------------------------------------

    /// Parses `onnx.graph …` into `region`, inside the current scopes;
    /// returns the scope of the graph's own values.
    fn graph(&mut self, region: RegionId) -> Result<Scope> {
        self.scopes.push(Scope::new());
        let r = self.nested(|p| p.graph_body(region));
        let scope = self.scopes.pop().expect("pushed above");
        r.map(|()| scope)
    }

    /// A subgraph attribute: a new region whose values see the current
    /// scopes.
    fn subgraph(&mut self) -> Result<RegionId> {
        // The parent is fixed up once the owning op exists.
        let region = self.model.ir.new_region("", RegionParent::Top);
        self.graph(region)?;
        Ok(region)
    }

    fn graph_body(&mut self, region: RegionId) -> Result<()> {
        self.expect_keyword("onnx.graph", "")?;
        let name = self.text("the graph name string")?;
        self.model.ir.region_mut(region).name = name;
        self.expect(b'(', "to start the graph inputs")?;
        self.list_until(b')', |p| p.graph_arg(region))?;
        self.expect_arrow("after the graph inputs")?;
        self.expect(b'(', "to start the graph outputs")?;
        let mut outputs = vec![];
        self.list_until(b')', |p| {
            let name = p.text("a graph output name string")?;
            p.expect(b':', "after the output name")?;
            let ty = p.ty()?;
            outputs.push((name, ty));
            Ok(())
        })?;
        if self.eat_keyword("attributes") {
            self.model.ir.region_mut(region).meta = self.meta()?;
        }
        self.expect(b'{', "to start the graph body")?;
        loop {
            let start = self.here();
            if self.eat_keyword("onnx.return") {
                return self.graph_return(region, start, outputs);
            }
            match self.peek() {
                Some(b'%' | b'_' | b'"') => self.op(region)?,
                _ => return Err(self.expected("an op or 'onnx.return'")),
            }
        }
    }

    /// `%x: type (= tensor)? {meta}?`.
    fn graph_arg(&mut self, region: RegionId) -> Result<()> {
        let (key, pos) = self.value_ref()?;
        self.expect(b':', "after the input name")?;
        let ty = self.ty()?;
        let default = if self.eat(b'=') {
            Some(self.tensor_attr()?)
        } else {
            None
        };
        let meta = if self.peek() == Some(b'{') {
            self.meta()?
        } else {
            None
        };
        self.check_new(&key, pos)?;
        let v = self.model.ir.add_arg(region, key.clone().into_name(), ty);
        self.model.ir.value_mut(v).meta = meta;
        let r = self.model.ir.region_mut(region);
        r.args.last_mut().expect("just added").default = default;
        self.define(key, v);
        Ok(())
    }

    /// `onnx.return %a, %b }`: binds the signature's outputs to values.
    fn graph_return(
        &mut self,
        region: RegionId,
        start: usize,
        outputs: Vec<(String, Type)>,
    ) -> Result<()> {
        let mut values = vec![];
        if self.peek() == Some(b'%') {
            loop {
                let pos = self.here();
                let (key, _) = self.value_ref()?;
                values.push((self.lookup(&key, pos)?, key, pos));
                if !self.eat(b',') {
                    break;
                }
            }
        }
        if values.len() != outputs.len() {
            return Err(self.error_at(
                start,
                format!(
                    "onnx.return has {} values but the graph signature declares {} outputs",
                    values.len(),
                    outputs.len()
                ),
            ));
        }
        for ((value, key, pos), (name, ty)) in values.into_iter().zip(outputs) {
            let actual = self.model.ir.ty(value);
            if *actual != ty {
                return Err(self.error_at(
                    pos,
                    format!("{key} has type {actual} but the graph signature declares output \"{name}\" as {ty}"),
                ));
            }
            self.model.ir.add_output(region, name, value);
        }
        self.expect(b'}', "after onnx.return")
    }

    // ---- values ---------------------------------------------------------

    /// `%name`, `%"name"` or `%N`, with its offset.
    fn value_ref(&mut self) -> Result<(Key, usize)> {
        if self.peek() != Some(b'%') {
            return Err(self.expected("a value (%name)"));
        }
        let start = self.here();
        self.pos += 1;
        let key = match self.src.get(self.pos) {
            Some(b'"') => {
                let bytes = self.string("a quoted value name")?;
                Key::Name(
                    String::from_utf8(bytes)
                        .map_err(|_| self.error_at(start, "value name is not valid UTF-8"))?,
                )
            }
            Some(c) if c.is_ascii_digit() => {
                let d = self.digits().expect("a digit is next");
                Key::Num(d.parse().map_err(|_| {
                    self.error_at(start, format!("value number {d} is out of range"))
                })?)
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let n = self.src[self.pos..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$'))
                    .count();
                let name = std::str::from_utf8(&self.src[self.pos..self.pos + n])
                    .expect("ASCII")
                    .to_string();
                self.pos += n;
                Key::Name(name)
            }
            _ => {
                return Err(self.error_at(
                    self.pos,
                    "expected a value name, a quoted name or a number after '%'",
                ))
            }
        };
        Ok((key, start))
    }

    /// The value `key` refers to in the visible scopes.
    fn lookup(&self, key: &Key, pos: usize) -> Result<Value> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(key).copied())
            .ok_or_else(|| self.error_at(pos, format!("use of undefined value {key}")))
    }

    /// Fails when the current graph already defines `key`.
    fn check_new(&self, key: &Key, pos: usize) -> Result<()> {
        if self.scopes.last().is_some_and(|s| s.contains_key(key)) {
            return Err(self.error_at(pos, format!("redefinition of {key}")));
        }
        Ok(())
    }

    fn define(&mut self, key: Key, v: Value) {
        self.scopes
            .last_mut()
            .expect("inside a graph")
            .insert(key, v);
    }

    // ---- ops ------------------------------------------------------------

    /// `%a, _ = "onnx.Op"(%x, none) {attrs} : (types) -> types loc("name")`.
    fn op(&mut self, region: RegionId) -> Result<()> {
        let mut results: Vec<Option<(Key, usize)>> = vec![];
        if self.peek() != Some(b'"') {
            loop {
                if self.eat(b'_') {
                    results.push(None);
                } else {
                    let (key, pos) = self.value_ref()?;
                    if results.iter().flatten().any(|(k, _)| *k == key) {
                        return Err(self.error_at(pos, format!("redefinition of {key}")));
                    }
                    self.check_new(&key, pos)?;
                    results.push(Some((key, pos)));
                }
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b'=', "after the op results")?;
        }
        let name_pos = self.here();
        let name = self.text("an op name string such as \"onnx.Relu\"")?;
        let (kind, version) = self.resolve_op(&name, name_pos)?;

        self.expect(b'(', "to start the operands")?;
        let mut inputs: Vec<(Option<Value>, usize)> = vec![];
        self.list_until(b')', |p| {
            let pos = p.here();
            if p.eat_keyword("none") {
                inputs.push((None, pos));
            } else {
                let (key, pos) = p.value_ref()?;
                inputs.push((Some(p.lookup(&key, pos)?), pos));
            }
            Ok(())
        })?;

        let mut extra = OpExtras::default();
        let attrs = if self.peek() == Some(b'{') {
            self.op_attrs(&mut extra)?
        } else {
            Attrs::default()
        };

        self.expect(b':', "before the op's type")?;
        self.expect(b'(', "to start the operand types")?;
        let types_pos = self.here();
        let mut operand_types = vec![];
        self.list_until(b')', |p| {
            operand_types.push(p.slot_type()?);
            Ok(())
        })?;
        self.expect_arrow("after the operand types")?;
        let result_types_pos = self.here();
        let mut result_types = vec![];
        if self.eat(b'(') {
            self.list_until(b')', |p| {
                result_types.push(p.slot_type()?);
                Ok(())
            })?;
        } else {
            result_types.push(self.slot_type()?);
        }
        let node_name = if self.eat_keyword("loc") {
            self.expect(b'(', "after 'loc'")?;
            let n = self.text("a node name string")?;
            self.expect(b')', "after the node name")?;
            n
        } else {
            String::new()
        };

        // The written types must be the operands' types.
        if operand_types.len() != inputs.len() {
            return Err(self.error_at(
                types_pos,
                format!(
                    "the op has {} operands but its type lists {}",
                    inputs.len(),
                    operand_types.len()
                ),
            ));
        }
        for (i, ((input, pos), ty)) in inputs.iter().zip(&operand_types).enumerate() {
            match (input, ty) {
                (None, None) => {}
                (Some(v), Some(t)) if self.model.ir.ty(*v) == t => {}
                (Some(v), Some(t)) => {
                    return Err(self.error_at(
                        *pos,
                        format!(
                            "operand {i} has type {} but the op's type says {t}",
                            self.model.ir.ty(*v)
                        ),
                    ))
                }
                (None, Some(t)) => {
                    return Err(self.error_at(
                        *pos,
                        format!("operand {i} is absent (none) but the op's type says {t}"),
                    ))
                }
                (Some(v), None) => {
                    return Err(self.error_at(
                        *pos,
                        format!(
                            "operand {i} has type {} but the op's type says none",
                            self.model.ir.ty(*v)
                        ),
                    ))
                }
            }
        }
        if result_types.len() != results.len() {
            return Err(self.error_at(
                result_types_pos,
                format!(
                    "the op has {} results but its type lists {}",
                    results.len(),
                    result_types.len()
                ),
            ));
        }
        let mut new_results = vec![];
        for (i, (r, ty)) in results.iter().zip(result_types).enumerate() {
            new_results.push(match (r, ty) {
                (None, None) => None,
                (Some((key, _)), Some(t)) => Some((key.clone().into_name(), t)),
                (None, Some(t)) => {
                    return Err(self.error_at(
                        result_types_pos,
                        format!("result {i} is absent (_) but the op's type says {t}"),
                    ))
                }
                (Some((key, pos)), None) => {
                    return Err(self.error_at(
                        *pos,
                        format!("result {key} has type none; write '_' for an absent result"),
                    ))
                }
            });
        }
        if let Some(meta) = &extra.result_meta {
            if meta.len() != results.len() {
                return Err(self.error_at(
                    extra.result_meta_pos,
                    format!(
                        "onnx.result_meta has {} entries but the op has {} results",
                        meta.len(),
                        results.len()
                    ),
                ));
            }
        }

        let id = self.model.ir.append_op(
            region,
            NewOp {
                kind,
                version,
                inputs: inputs.iter().map(|(v, _)| *v).collect(),
                results: new_results,
                attrs,
                name: node_name,
            },
        );
        let ir = &mut self.model.ir;
        let subgraphs: Vec<RegionId> = ir.op(id).attrs.regions().collect();
        for r in subgraphs {
            ir.region_mut(r).parent = RegionParent::Op(id);
        }
        ir.op_mut(id).meta = Meta::boxed(extra.doc_string, extra.metadata_props);
        let values = ir.op(id).results.clone();
        for (i, (slot, r)) in values.into_iter().zip(results).enumerate() {
            if let (Some(v), Some((key, _))) = (slot, r) {
                if let Some(meta) = extra.result_meta.as_mut() {
                    self.model.ir.value_mut(v).meta = meta[i].take();
                }
                self.define(key, v);
            }
        }
        Ok(())
    }

    /// Resolves `"onnx.Clip"` or `"onnx.Clip-6"` to an op and version.
    fn resolve_op(&self, name: &str, pos: usize) -> Result<(OpKind, u32)> {
        let Some((prefix, rest)) = name.split_once('.') else {
            return Err(self.error_at(
                pos,
                format!("op name \"{name}\" must be <domain prefix>.<op type>, e.g. \"onnx.Relu\""),
            ));
        };
        let domain = Domain::from_text_prefix(prefix).ok_or_else(|| {
            self.error_at(
                pos,
                format!("unknown op domain prefix '{prefix}' (expected onnx, onnx_ml, onnx_training or onnx_preview)"),
            )
        })?;
        let (op_type, suffix) = match rest.rsplit_once('-') {
            Some((n, v)) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => (n, Some(v)),
            _ => (rest, None),
        };
        let kind = OpKind::from_name(domain, op_type)
            .ok_or_else(|| self.error_at(pos, format!("unknown op '{prefix}.{op_type}'")))?;
        let domain_name = if domain == Domain::Onnx {
            "ai.onnx"
        } else {
            domain.name()
        };
        match suffix {
            Some(v) => {
                let schema = v.parse::<u32>().ok().and_then(|v| kind.schema_exact(v));
                let schema = schema.ok_or_else(|| {
                    let versions: Vec<String> = kind
                        .versions()
                        .iter()
                        .map(|s| s.since_version.to_string())
                        .collect();
                    self.error_at(
                        pos,
                        format!(
                            "{prefix}.{op_type} has no version {v} (its versions are {})",
                            versions.join(", ")
                        ),
                    )
                })?;
                Ok((kind, schema.since_version))
            }
            None => {
                let opset = self.model.opset(domain).ok_or_else(|| {
                    self.error_at(
                        pos,
                        format!("no opset import for domain '{domain_name}' (needed by {name})"),
                    )
                })?;
                let schema = kind.schema(opset).ok_or_else(|| {
                    let first = kind.versions().first().map_or(0, |s| s.since_version);
                    self.error_at(
                        pos,
                        format!("{name} does not exist in opset {opset} of {domain_name} (it was introduced in opset {first})"),
                    )
                })?;
                Ok((kind, schema.since_version))
            }
        }
    }

    /// A type or `none` in an op's functional type.
    fn slot_type(&mut self) -> Result<Option<Type>> {
        if self.eat_keyword("none") {
            Ok(None)
        } else {
            self.ty().map(Some)
        }
    }

    /// The attribute dictionary of an op, with its discardable `onnx.*`
    /// entries collected into `extra`.
    fn op_attrs(&mut self, extra: &mut OpExtras) -> Result<Attrs> {
        let mut attrs = Attrs::default();
        let mut seen_discardable = vec![];
        self.dict("to start the attributes", |p| {
            let start = p.here();
            if p.peek() == Some(b'"') {
                let name = p.text("an attribute name")?;
                return p.onnx_attr(&mut attrs, name, start);
            }
            let key = p.ident("an attribute name")?;
            if !key.contains('.') {
                return p.onnx_attr(&mut attrs, key.to_string(), start);
            }
            if seen_discardable.contains(&key) {
                return Err(p.error_at(start, format!("duplicate attribute '{key}'")));
            }
            seen_discardable.push(key);
            p.expect(b'=', &format!("after '{key}'"))?;
            match key {
                "onnx.doc_string" => extra.doc_string = p.text("a string")?,
                "onnx.metadata_props" => extra.metadata_props = p.string_dict()?,
                "onnx.result_meta" => {
                    extra.result_meta_pos = p.here();
                    p.expect(b'[', "to start the result metadata")?;
                    let mut metas = vec![];
                    p.list_until(b']', |p| {
                        metas.push(p.meta()?);
                        Ok(())
                    })?;
                    extra.result_meta = Some(metas);
                }
                _ => {
                    return Err(p.error_at(
                        start,
                        format!(
                            "unknown attribute '{key}' (dotted names are reserved for onnx.doc_string, \
                             onnx.metadata_props and onnx.result_meta; quote an ONNX attribute name that has dots)"
                        ),
                    ))
                }
            }
            Ok(())
        })?;
        Ok(attrs)
    }

    /// `name = value` for an ONNX attribute.
    fn onnx_attr(&mut self, attrs: &mut Attrs, name: String, start: usize) -> Result<()> {
        if attrs.get(&name).is_some() {
            return Err(self.error_at(start, format!("duplicate attribute '{name}'")));
        }
        self.expect(b'=', &format!("after attribute '{name}'"))?;
        let value = self.attr_value()?;
        attrs.0.push((name, value));
        Ok(())
    }

    // ---- attribute values -----------------------------------------------

    /// Any attribute value; the spelling decides the kind.
    fn attr_value(&mut self) -> Result<Attr> {
        let start = self.here();
        match self.peek() {
            Some(b'"') => return Ok(Attr::String(self.string("a string")?)),
            Some(b'[') => return self.nested(|p| p.attr_list()),
            Some(b'!') => return Ok(Attr::Type(self.ty()?)),
            Some(b'-' | b'0'..=b'9') => return self.number_attr(),
            _ => {}
        }
        match self.peek_ident() {
            Some("inf" | "nan") => self.number_attr(),
            Some("dense" | "dense_resource") => Ok(Attr::Tensor(self.tensor_attr()?)),
            Some("sparse") => Ok(Attr::SparseTensor(self.sparse_attr()?)),
            Some("onnx.graph") => Ok(Attr::Graph(self.subgraph()?)),
            Some("tensor") => Ok(Attr::Type(self.ty()?)),
            _ => {
                self.pos = start;
                Err(self.expected("an attribute value"))
            }
        }
    }

    fn number_attr(&mut self) -> Result<Attr> {
        let start = self.here();
        match self.number("a number")? {
            Number::Int(i) => i64::try_from(i).map(Attr::Int).map_err(|_| {
                self.error_at(
                    start,
                    format!("integer {i} does not fit an INT attribute (int64)"),
                )
            }),
            Number::Float(f) => {
                let bits = self.float_bits(&f, ElemType::F32, start)?;
                Ok(Attr::Float(f32::from_bits(bits as u32)))
            }
        }
    }

    /// `[v, v, …]` (all of one kind) or `[] : kind`.
    fn attr_list(&mut self) -> Result<Attr> {
        self.expect(b'[', "")?;
        if self.eat(b']') {
            self.expect(
                b':',
                "after '[]' (an empty list needs its kind, e.g. '[] : ints')",
            )?;
            let start = self.here();
            return Ok(match self.ident("a list kind")? {
                "ints" => Attr::Ints(vec![]),
                "floats" => Attr::Floats(vec![]),
                "strings" => Attr::Strings(vec![]),
                "tensors" => Attr::Tensors(vec![]),
                "graphs" => Attr::Graphs(vec![]),
                "sparse_tensors" => Attr::SparseTensors(vec![]),
                "types" => Attr::Types(vec![]),
                k => {
                    return Err(self.error_at(
                        start,
                        format!("unknown list kind '{k}' (expected ints, floats, strings, tensors, graphs, sparse_tensors or types)"),
                    ))
                }
            });
        }
        let mut list: Option<Attr> = None;
        loop {
            let pos = self.here();
            if self.peek() == Some(b'[') {
                return Err(self.error_at(pos, "attribute lists cannot nest"));
            }
            let item = self.attr_value()?;
            let expected_kind = list.as_ref().map(|l| l.kind().name());
            match (&mut list, item) {
                (None, Attr::Int(v)) => list = Some(Attr::Ints(vec![v])),
                (None, Attr::Float(v)) => list = Some(Attr::Floats(vec![v])),
                (None, Attr::String(v)) => list = Some(Attr::Strings(vec![v])),
                (None, Attr::Tensor(v)) => list = Some(Attr::Tensors(vec![v])),
                (None, Attr::Graph(v)) => list = Some(Attr::Graphs(vec![v])),
                (None, Attr::SparseTensor(v)) => list = Some(Attr::SparseTensors(vec![v])),
                (None, Attr::Type(v)) => list = Some(Attr::Types(vec![v])),
                (Some(Attr::Ints(l)), Attr::Int(v)) => l.push(v),
                (Some(Attr::Floats(l)), Attr::Float(v)) => l.push(v),
                (Some(Attr::Strings(l)), Attr::String(v)) => l.push(v),
                (Some(Attr::Tensors(l)), Attr::Tensor(v)) => l.push(v),
                (Some(Attr::Graphs(l)), Attr::Graph(v)) => l.push(v),
                (Some(Attr::SparseTensors(l)), Attr::SparseTensor(v)) => l.push(v),
                (Some(Attr::Types(l)), Attr::Type(v)) => l.push(v),
                (_, item) => {
                    return Err(self.error_at(
                        pos,
                        format!(
                            "a list of {} cannot hold a {} value",
                            expected_kind.unwrap_or("?"),
                            item.kind().name()
                        ),
                    ))
                }
            }
            if self.eat(b']') {
                return Ok(list.expect("one element parsed"));
            }
            if !self.eat(b',') {
                return Err(self.expected("',' or ']'"));
            }
        }
    }

    /// `dense<literal> : tensor<…>` or `dense_resource<__elided__> : tensor<…>`.
    fn tensor_attr(&mut self) -> Result<TensorData> {
        let start = self.here();
        let literal = match self.ident("'dense' or 'dense_resource'")? {
            "dense" => {
                self.expect(b'<', "after 'dense'")?;
                let lit = self.literal()?;
                self.expect(b'>', "after the tensor literal")?;
                Some(lit)
            }
            "dense_resource" => {
                self.expect(b'<', "after 'dense_resource'")?;
                self.expect_keyword("__elided__", "(the only resource the text form knows)")?;
                self.expect(b'>', "after '__elided__'")?;
                None
            }
            other => {
                return Err(self.error_at(
                    start,
                    format!("expected 'dense' or 'dense_resource', found '{other}'"),
                ))
            }
        };
        self.expect(b':', "before the tensor's type")?;
        let type_pos = self.here();
        let ty = self.ty()?;
        let Type::Tensor(TensorType {
            elem,
            shape: Some(shape),
        }) = &ty
        else {
            return Err(self.error_at(
                type_pos,
                format!("a tensor constant needs a tensor type of static shape, got {ty}"),
            ));
        };
        let dims: Option<Vec<i64>> = shape.iter().map(Dim::as_known).collect();
        let Some(dims) = dims else {
            return Err(self.error_at(
                type_pos,
                format!("a tensor constant needs a static shape, got {ty}"),
            ));
        };
        let Some(numel) = checked_numel(&dims) else {
            return Err(self.error_at(type_pos, format!("invalid tensor shape in {ty}")));
        };
        match literal {
            None => Ok(TensorData::elided(*elem, dims)),
            Some(lit) => self.dense(lit, *elem, dims, numel),
        }
    }

    /// `sparse<indices, values> : !onnx.sparse<…>`.
    fn sparse_attr(&mut self) -> Result<SparseTensorData> {
        self.expect_keyword("sparse", "")?;
        self.expect(b'<', "after 'sparse'")?;
        let indices = self.tensor_attr()?;
        self.expect(
            b',',
            "between the indices and the values of a sparse tensor",
        )?;
        let values = self.tensor_attr()?;
        self.expect(b'>', "after the values of a sparse tensor")?;
        self.expect(b':', "before the sparse tensor's type")?;
        let type_pos = self.here();
        let ty = self.ty()?;
        let dims = match &ty {
            Type::SparseTensor(TensorType {
                elem,
                shape: Some(shape),
            }) if *elem == values.elem => shape
                .iter()
                .map(Dim::as_known)
                .collect::<Option<Vec<i64>>>(),
            _ => None,
        };
        let dims = dims.ok_or_else(|| {
            self.error_at(
                type_pos,
                format!(
                    "expected a static !onnx.sparse type with element type {}, got {ty}",
                    values.elem
                ),
            )
        })?;
        Ok(SparseTensorData {
            dims,
            values,
            indices,
        })
    }

    /// A literal inside `dense<…>`.
    fn literal(&mut self) -> Result<Literal> {
        let start = self.here();
        match self.peek() {
            Some(b'[') => self.nested(|p| {
                p.pos += 1;
                let mut items = vec![];
                p.list_until(b']', |p| {
                    items.push(p.literal()?);
                    Ok(())
                })?;
                Ok(Literal::List(items, start))
            }),
            Some(b'"') => Ok(Literal::Scalar(
                Scalar::Str(self.string("a string")?),
                start,
            )),
            _ if self.eat_keyword("true") => Ok(Literal::Scalar(Scalar::Bool(true), start)),
            _ if self.eat_keyword("false") => Ok(Literal::Scalar(Scalar::Bool(false), start)),
            _ => Ok(Literal::Scalar(
                Scalar::Num(self.number("a tensor literal")?),
                start,
            )),
        }
    }

    /// Builds tensor data from a literal and its type.
    fn dense(
        &self,
        lit: Literal,
        elem: ElemType,
        dims: Vec<i64>,
        numel: usize,
    ) -> Result<TensorData> {
        let pos = match &lit {
            Literal::Scalar(_, p) | Literal::List(_, p) => *p,
        };
        if elem == ElemType::String {
            let mut strings = vec![];
            match lit {
                Literal::Scalar(Scalar::Str(s), _) => strings = vec![s; numel],
                Literal::List(items, _) if items.is_empty() && numel == 0 => {}
                lit => {
                    let mut flat = vec![];
                    self.flatten(&lit, &dims, &mut flat)?;
                    for (s, p) in flat {
                        match s {
                            Scalar::Str(s) => strings.push(s.clone()),
                            _ => return Err(self.error_at(p, "expected a string element")),
                        }
                    }
                }
            }
            return TensorData::from_strings(dims, strings)
                .map_err(|e| self.error_at(pos, e.to_string()));
        }
        let raw = match &lit {
            Literal::Scalar(Scalar::Str(s), p) => self.hex(s, *p)?,
            Literal::Scalar(s, p) => {
                let mut one = vec![];
                self.encode(s, *p, elem, &mut one)?;
                let total = one
                    .len()
                    .checked_mul(numel)
                    .filter(|&n| n <= MAX_SPLAT_BYTES);
                let Some(total) = total else {
                    return Err(self.error_at(*p, format!("splat tensor is too large to materialize (over {MAX_SPLAT_BYTES} bytes)")));
                };
                let mut raw = Vec::with_capacity(total);
                for _ in 0..numel {
                    raw.extend_from_slice(&one);
                }
                raw
            }
            Literal::List(items, _) if items.is_empty() && numel == 0 => vec![],
            Literal::List(..) => {
                let mut flat = vec![];
                self.flatten(&lit, &dims, &mut flat)?;
                let mut raw = vec![];
                for (s, p) in flat {
                    self.encode(s, p, elem, &mut raw)?;
                }
                raw
            }
        };
        TensorData::from_raw(elem, dims, Bytes::from(raw))
            .map_err(|e| self.error_at(pos, e.to_string()))
    }

    /// The scalars of a nested list literal in row-major order, checking
    /// that the nesting matches `dims`.
    fn flatten<'l>(
        &self,
        lit: &'l Literal,
        dims: &[i64],
        out: &mut Vec<(&'l Scalar, usize)>,
    ) -> Result<()> {
        match (lit, dims.split_first()) {
            (Literal::Scalar(s, p), None) => out.push((s, *p)),
            (Literal::List(items, p), Some((&n, rest))) => {
                if items.len() as i64 != n {
                    return Err(self.error_at(
                        *p,
                        format!("expected {n} elements in this list, found {}", items.len()),
                    ));
                }
                for item in items {
                    self.flatten(item, rest, out)?;
                }
            }
            (Literal::Scalar(_, p), Some(_)) => {
                return Err(self.error_at(
                    *p,
                    format!(
                        "expected a list here (the literal must nest {} deep)",
                        dims.len()
                    ),
                ))
            }
            (Literal::List(_, p), None) => {
                return Err(self.error_at(*p, "expected a scalar here, found a list"))
            }
        }
        Ok(())
    }

    /// The bytes of a `"0x…"` hex literal.
    fn hex(&self, s: &[u8], pos: usize) -> Result<Vec<u8>> {
        let digits = s
            .strip_prefix(b"0x")
            .or_else(|| s.strip_prefix(b"0X"))
            .ok_or_else(|| {
                self.error_at(
                    pos,
                    "expected a hex string \"0x…\" of the tensor's raw bytes",
                )
            })?;
        if digits.len() % 2 != 0 {
            return Err(self.error_at(pos, "hex string has an odd number of digits"));
        }
        if !digits.iter().all(|&d| hex_digit(d).is_some()) {
            return Err(self.error_at(pos, "invalid hex digit in hex string"));
        }
        Ok(digits
            .chunks_exact(2)
            .map(|p| hex_byte(p[0], p[1]))
            .collect())
    }

    /// Appends the little-endian bytes of one element.
    fn encode(&self, s: &Scalar, pos: usize, elem: ElemType, out: &mut Vec<u8>) -> Result<()> {
        use ElemType::*;
        let int = |lo: i128, hi: i128| -> Result<i128> {
            match s {
                Scalar::Num(Number::Int(i)) if (lo..=hi).contains(i) => Ok(*i),
                Scalar::Num(Number::Int(i)) => {
                    Err(self.error_at(pos, format!("{i} is out of range for {elem}")))
                }
                _ => Err(self.error_at(pos, format!("expected an integer element of type {elem}"))),
            }
        };
        match elem {
            F32 | F64 | F16 | BF16 => {
                let f = match s {
                    Scalar::Num(Number::Float(f)) => f.clone(),
                    Scalar::Num(Number::Int(i)) => FloatLit::Decimal(i.to_string()),
                    _ => return Err(self.error_at(pos, format!("expected a float element of type {elem}"))),
                };
                let bits = self.float_bits(&f, elem, pos)?;
                let width = elem.bit_width() as usize / 8;
                out.extend_from_slice(&bits.to_le_bytes()[..width]);
            }
            Bool => match s {
                Scalar::Bool(b) => out.push(u8::from(*b)),
                _ => return Err(self.error_at(pos, "expected 'true' or 'false'")),
            },
            I8 => out.extend_from_slice(&(int(i8::MIN.into(), i8::MAX.into())? as i8).to_le_bytes()),
            I16 => out.extend_from_slice(&(int(i16::MIN.into(), i16::MAX.into())? as i16).to_le_bytes()),
            I32 => out.extend_from_slice(&(int(i32::MIN.into(), i32::MAX.into())? as i32).to_le_bytes()),
            I64 => out.extend_from_slice(&(int(i64::MIN.into(), i64::MAX.into())? as i64).to_le_bytes()),
            U8 => out.extend_from_slice(&(int(0, u8::MAX.into())? as u8).to_le_bytes()),
            U16 => out.extend_from_slice(&(int(0, u16::MAX.into())? as u16).to_le_bytes()),
            U32 => out.extend_from_slice(&(int(0, u32::MAX.into())? as u32).to_le_bytes()),
            U64 => out.extend_from_slice(&(int(0, u64::MAX.into())? as u64).to_le_bytes()),
            _ => {
                return Err(self.error_at(
                    pos,
                    format!("{elem} tensors have no element literals; write their raw bytes as a hex string \"0x…\""),
                ))
            }
        }
        Ok(())
    }

    /// The bit pattern of a float literal as an element of `elem` (f16,
    /// bf16, f32 or f64), in the low bits. A decimal rounds to nearest (f16
    /// and bf16 through f32, which is exact for what the printer writes);
    /// one that overflows the type is an error rather than an infinity.
    fn float_bits(&self, f: &FloatLit, elem: ElemType, pos: usize) -> Result<u64> {
        let from_f32 = |x: f32| -> u64 {
            match elem {
                ElemType::F16 => half::f16::from_f32(x).to_bits().into(),
                ElemType::BF16 => half::bf16::from_f32(x).to_bits().into(),
                _ => x.to_bits().into(),
            }
        };
        let as_f64 = |bits: u64| -> f64 {
            match elem {
                ElemType::F16 => half::f16::from_bits(bits as u16).into(),
                ElemType::BF16 => half::bf16::from_bits(bits as u16).into(),
                ElemType::F32 => f32::from_bits(bits as u32).into(),
                _ => f64::from_bits(bits),
            }
        };
        match f {
            FloatLit::Decimal(t) => {
                let bits = if elem == ElemType::F64 {
                    t.parse::<f64>().map(f64::to_bits)
                } else {
                    t.parse::<f32>().map(from_f32)
                };
                let bits = bits.map_err(|_| self.error_at(pos, format!("invalid float {t}")))?;
                if !as_f64(bits).is_finite() {
                    return Err(self.error_at(pos, format!("float {t} is out of range for {elem}")));
                }
                Ok(bits)
            }
            FloatLit::Inf { negative } => {
                let inf = if *negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                Ok(if elem == ElemType::F64 {
                    inf.to_bits()
                } else {
                    from_f32(inf as f32)
                })
            }
            FloatLit::Nan(None) => Ok(if elem == ElemType::F64 {
                f64::NAN.to_bits()
            } else {
                from_f32(f32::NAN)
            }),
            FloatLit::Nan(Some(bits)) => {
                let width = elem.bit_width();
                if width < 64 && *bits >> width != 0 || !as_f64(*bits).is_nan() {
                    return Err(self.error_at(
                        pos,
                        format!("0x{bits:X} is not the bit pattern of a {elem} NaN"),
                    ));
                }
                Ok(*bits)
            }
        }
    }

    // ---- types ----------------------------------------------------------

    /// A value type: `tensor<…>`, `!onnx.sparse<…>`, `!onnx.seq<…>`,
    /// `!onnx.map<…>`, `!onnx.opt<…>` or `!onnx.unknown`.
    fn ty(&mut self) -> Result<Type> {
        self.nested(|p| {
            let start = p.here();
            let bang = p.eat(b'!');
            let Some(name) = p.peek_ident_dotted_here() else {
                return Err(p.expected("a type (tensor<…>, !onnx.seq<…>, …)"));
            };
            p.pos += name.len();
            let ty = match (bang, name) {
                (false, "tensor") => Type::Tensor(p.tensor_body()?),
                (true, "onnx.sparse") => Type::SparseTensor(p.tensor_body()?),
                (true, "onnx.seq") => {
                    p.expect(b'<', "after '!onnx.seq'")?;
                    let t = p.ty()?;
                    p.expect(b'>', "to close '!onnx.seq<'")?;
                    Type::Sequence(Box::new(t))
                }
                (true, "onnx.opt") => {
                    p.expect(b'<', "after '!onnx.opt'")?;
                    let t = p.ty()?;
                    p.expect(b'>', "to close '!onnx.opt<'")?;
                    Type::Optional(Box::new(t))
                }
                (true, "onnx.map") => {
                    p.expect(b'<', "after '!onnx.map'")?;
                    let k = p.elem_type()?;
                    p.expect(b',', "after the map's key type")?;
                    let v = p.ty()?;
                    p.expect(b'>', "to close '!onnx.map<'")?;
                    Type::Map(k, Box::new(v))
                }
                (true, "onnx.unknown") => Type::Unknown,
                _ => {
                    let bang = if bang { "!" } else { "" };
                    return Err(p.error_at(
                        start,
                        format!(
                            "unknown type '{bang}{name}' (expected tensor<…>, !onnx.sparse<…>, !onnx.seq<…>, \
                             !onnx.map<…>, !onnx.opt<…> or !onnx.unknown)"
                        ),
                    ));
                }
            };
            Ok(ty)
        })
    }

    /// An identifier with dots starting exactly at the cursor.
    fn peek_ident_dotted_here(&self) -> Option<&'t str> {
        let src: &'t [u8] = self.src;
        let rest = &src[self.pos..];
        let n = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
            .count();
        (n > 0 && !rest[0].is_ascii_digit())
            .then(|| std::str::from_utf8(&rest[..n]).ok())
            .flatten()
    }

    /// `<1x?x"N"x("a"*"b")xf32>` or `<*xf32>`.
    fn tensor_body(&mut self) -> Result<TensorType> {
        self.expect(b'<', "to start the tensor type")?;
        let shape = if self.eat(b'*') {
            self.expect_x()?;
            None
        } else {
            let mut dims = vec![];
            while let Some(b'0'..=b'9' | b'-' | b'?' | b'"' | b'(') = self.peek() {
                dims.push(self.dim()?);
                self.expect_x()?;
            }
            Some(dims)
        };
        let elem = self.elem_type()?;
        self.expect(b'>', "to close the tensor type")?;
        Ok(TensorType { elem, shape })
    }

    /// The `x` after a dim.
    fn expect_x(&mut self) -> Result<()> {
        if self.eat(b'x') {
            Ok(())
        } else {
            Err(self.expected("'x' after a dimension"))
        }
    }

    /// `3`, `?`, `"N"` or a polynomial `(2*"seq"+1)`.
    fn dim(&mut self) -> Result<Dim> {
        let start = self.here();
        match self.peek() {
            Some(b'?') => {
                self.pos += 1;
                Ok(Dim::Unknown)
            }
            Some(b'"') => Ok(Dim::param(&self.text("a dimension name")?)),
            Some(b'(') => {
                self.pos += 1;
                let mut sum = Dim::Known(0);
                let mut first = true;
                loop {
                    let sign = if self.eat(b'-') {
                        -1
                    } else if first || self.eat(b'+') {
                        1
                    } else {
                        break;
                    };
                    first = false;
                    // The coefficient is collected wide so that the printed
                    // form of `i64::MIN * "a"` (`-9223372036854775808*"a"`) reads back.
                    let mut coeff: Option<i128> = Some(sign);
                    let mut atoms = vec![];
                    loop {
                        if self.peek() == Some(b'"') {
                            atoms.push(Dim::param(&self.text("a dimension name")?));
                        } else {
                            let at = self.here();
                            match self.number("a coefficient or a quoted dimension name")? {
                                Number::Int(i) => coeff = coeff.and_then(|c| c.checked_mul(i)),
                                Number::Float(_) => {
                                    return Err(self.error_at(at, "expected an integer coefficient"))
                                }
                            }
                        }
                        if !self.eat(b'*') {
                            break;
                        }
                    }
                    let coeff = coeff.and_then(|c| i64::try_from(c).ok());
                    let term = coeff.map(|c| atoms.iter().fold(Dim::Known(c), |t, a| t.mul(a)));
                    sum = match term {
                        Some(t) => sum.add(&t),
                        None => Dim::Unknown,
                    };
                    if sum == Dim::Unknown {
                        return Err(self.error_at(start, "dimension polynomial overflows int64"));
                    }
                }
                self.expect(b')', "to close the dimension polynomial")?;
                Ok(sum)
            }
            _ => Ok(Dim::Known(self.int("a dimension")?)),
        }
    }

    /// An element type mnemonic (`f32`, `ui8`, `complex<f64>`, …).
    fn elem_type(&mut self) -> Result<ElemType> {
        let start = self.here();
        let Some(name) = self.peek_ident_here() else {
            return Err(self.expected("an element type (f32, i64, …)"));
        };
        self.pos += name.len();
        let mnemonic = if name == "complex" {
            let inner = if self.src[self.pos..].starts_with(b"<f32>") {
                "complex<f32>"
            } else if self.src[self.pos..].starts_with(b"<f64>") {
                "complex<f64>"
            } else {
                return Err(self.expected("'<f32>' or '<f64>' after 'complex'"));
            };
            self.pos += 5;
            inner
        } else {
            name
        };
        ElemType::from_mnemonic(mnemonic)
            .ok_or_else(|| self.error_at(start, format!("unknown element type '{mnemonic}'")))
    }
}

/// What an op's attribute dictionary says besides its ONNX attributes.
#[derive(Default)]
struct OpExtras {
    doc_string: String,
    metadata_props: Vec<(String, String)>,
    result_meta: Option<Vec<Option<Box<Meta>>>>,
    result_meta_pos: usize,
}

#[cfg(test)]
mod tests;
