//! A small expression syntax for putting graphs into an e-graph by hand:
//! rule tests write their start and expected terms in it (in the manner of
//! egg's `tests/math.rs`), and it is handy for trying rules out.
//!
//! ```text
//! expr  := %name                        a graph input, declared with its type
//!        | 0.5 | 2:i64 | 0.5:f64        a scalar constant (f32 unless typed)
//!        | [1, 2, 3]:i64                a 1-D constant (f32 unless typed)
//!        | fill(0.5, 3x1x1xf32)         a constant of that type, every element 0.5
//!        | rand(7, 4x3x3x3xf32)         pseudo-random values in [-1, 1) from seed 7
//!        | none                         an absent optional operand
//!        | (Op[attrs] expr*)            an op, attributes as in patterns
//!        | (Op#n[attrs] expr*)          an op with n results (a tuple)
//!        | (get.i expr)                 result i of a tuple
//! types := 2x3xf32, f32 (a scalar), Nx3xf32 (a dim_param N)
//! ```
//!
//! Inputs are declared as `x: 2x3xf32, y: 3xf32`, in graph-argument order.
//! Ops get the version of the e-graph's opsets; trailing optional operands
//! left out are absent.

use egg::Id;
use onnx_mlc_dialect::{Attrs, Dim, ElemType, TensorData, TensorType, Type};

use crate::analysis::{OGraph, OnnxAnalysis};
use crate::eval::from_f64;
use crate::lang::{ONode, OpKey};
use crate::pattern::{add_op, Pattern};

/// Parses a type such as `2x"N"x3xf32` (quotes optional), `f32`.
pub fn parse_type(s: &str) -> Option<Type> {
    let parts: Vec<&str> = s.trim().split('x').collect();
    let (elem, dims) = parts.split_last()?;
    let elem = ElemType::from_mnemonic(elem)?;
    let dims = dims
        .iter()
        .map(|d| {
            let d = d.trim_matches('"');
            match d.parse::<i64>() {
                Ok(n) => Dim::Known(n),
                Err(_) if d == "?" => Dim::Unknown,
                Err(_) => Dim::param(d),
            }
        })
        .collect();
    Some(Type::Tensor(TensorType::with_dims(elem, dims)))
}

/// An e-graph for expressions over inputs declared as `x: 2x3xf32, …`,
/// with ai.onnx at `opset` (and the internal domain).
pub fn egraph(decls: &str, opset: i64) -> Result<(OGraph, Vec<String>), String> {
    let mut names = vec![];
    let mut types = vec![];
    for d in decls.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        let (name, ty) = d.split_once(':').ok_or(format!("bad declaration {d}"))?;
        names.push(name.trim().to_string());
        types.push(parse_type(ty).ok_or(format!("bad type in {d}"))?);
    }
    let analysis = OnnxAnalysis {
        inputs: types,
        opsets: vec![(onnx_mlc_dialect::Domain::Onnx, opset)],
        fold_max_elems: 1 << 20,
        ..OnnxAnalysis::default()
    };
    let mut eg = OGraph::new(analysis);
    eg.add(ONode::Absent);
    Ok((eg, names))
}

/// Adds an expression; returns its class.
pub fn add(egraph: &mut OGraph, inputs: &[String], text: &str) -> Result<Id, String> {
    let mut p = Parser {
        text,
        pos: 0,
        inputs,
    };
    let id = p.expr(egraph)?;
    p.skip_ws();
    if p.pos != text.len() {
        return Err(format!("unexpected text at {} in {text}", p.pos));
    }
    Ok(id)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    inputs: &'a [String],
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn skip_ws(&mut self) {
        while self.rest().starts_with(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn token(&mut self) -> &str {
        self.skip_ws();
        let start = self.pos;
        while self
            .rest()
            .starts_with(|c: char| c.is_alphanumeric() || "_.-+\"?#".contains(c))
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// An op head: its name and, if present, its bracketed attributes.
    fn head(&mut self) -> Result<&str, String> {
        self.skip_ws();
        let start = self.pos;
        self.token();
        if self.rest().starts_with('[') {
            let mut depth = 0;
            let close = self
                .rest()
                .char_indices()
                .find(|&(_, c)| {
                    depth += (c == '[') as i32 - (c == ']') as i32;
                    depth == 0
                })
                .ok_or("unclosed [")?
                .0;
            self.pos += close + 1;
        }
        Ok(&self.text[start..self.pos])
    }

    fn expr(&mut self, eg: &mut OGraph) -> Result<Id, String> {
        self.skip_ws();
        if self.eat("%") {
            let name = self.token().to_string();
            let i = self
                .inputs
                .iter()
                .position(|n| *n == name)
                .ok_or(format!("undeclared input %{name}"))?;
            return Ok(eg.add(ONode::Input(i as u32)));
        }
        if self.eat("none") {
            return Ok(eg.add(ONode::Absent));
        }
        if self.eat("(") {
            let head = self.head()?.to_string();
            let mut children = vec![];
            while !self.eat(")") {
                if self.rest().is_empty() {
                    return Err("unclosed (".into());
                }
                children.push(self.expr(eg)?);
            }
            if let Some(i) = head.strip_prefix("get.") {
                let i = i.parse().map_err(|_| format!("bad projection {head}"))?;
                let [t] = children[..] else {
                    return Err("get takes one operand".into());
                };
                return Ok(eg.add(ONode::Get(i, [t])));
            }
            let (head, results) = match head.split_once('#') {
                Some((name, rest)) => {
                    let digits = rest.find('[').unwrap_or(rest.len());
                    let n: usize = rest[..digits]
                        .parse()
                        .map_err(|_| format!("bad result count in {head}"))?;
                    (format!("{name}{}", &rest[digits..]), n)
                }
                None => (head, 1),
            };
            let (kind, version, attrs) = op_head(eg, &head)?;
            let key = OpKey::new(kind, version, attrs, vec![true; results].into());
            return Ok(add_op(eg, key, children));
        }
        let t = self.constant()?;
        let c = eg.analysis.pool.intern(t, None);
        Ok(eg.add(ONode::Const(c)))
    }

    fn constant(&mut self) -> Result<TensorData, String> {
        self.skip_ws();
        for (word, random) in [("fill(", false), ("rand(", true)] {
            if self.eat(word) {
                let v: f64 = self.token().parse().map_err(|_| "bad number".to_string())?;
                if !self.eat(",") {
                    return Err("expected ,".into());
                }
                let ty = self.token().to_string();
                if !self.eat(")") {
                    return Err("expected )".into());
                }
                let t = parse_type(&ty).ok_or(format!("bad type {ty}"))?;
                let t = t.as_tensor().ok_or("not a tensor")?;
                let dims = t.static_dims().ok_or("constants need static shapes")?;
                let n = dims.iter().product::<i64>() as usize;
                let values: Vec<f64> = if random {
                    pseudo_random(v as u64, n)
                } else {
                    vec![v; n]
                };
                return from_f64(t.elem, dims, &values).ok_or("unsupported element type".into());
            }
        }
        let (values, dims) = if self.eat("[") {
            let mut v = vec![];
            while !self.eat("]") {
                v.push(
                    self.token()
                        .parse::<f64>()
                        .map_err(|_| "bad number".to_string())?,
                );
                self.eat(",");
            }
            let n = v.len() as i64;
            (v, vec![n])
        } else {
            let w = self.token().to_string();
            (
                vec![w.parse::<f64>().map_err(|_| format!("bad constant {w}"))?],
                vec![],
            )
        };
        let elem = if self.eat(":") {
            let e = self.token().to_string();
            ElemType::from_mnemonic(&e).ok_or(format!("bad element type {e}"))?
        } else {
            ElemType::F32
        };
        from_f64(elem, dims, &values).ok_or("unsupported element type".into())
    }
}

/// `Op[attrs]` parsed with the pattern parser (as an op without operands).
fn op_head(eg: &OGraph, head: &str) -> Result<(onnx_mlc_dialect::OpKind, u32, Attrs), String> {
    let p = Pattern::parse(&format!("({head})")).map_err(|e| e.to_string())?;
    let (kind, attrs) = p.head().ok_or(format!("{head} is not one op"))?;
    let version = eg
        .analysis
        .version_of(kind)
        .ok_or(format!("{head} does not exist in the opset"))?;
    Ok((kind, version, attrs))
}

/// Deterministic values in [-1, 1) (a 64-bit LCG).
pub fn pseudo_random(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}
