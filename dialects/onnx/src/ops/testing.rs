//! Test support for the op families: builds small models op by op, runs
//! inference on them, and spells types compactly.
//!
//! Types are written as in the text form without the `tensor<>` wrapper,
//! dims separated by `x`: `2x"N"x?xf32` reads `2xNx?xf32` here (a bare
//! identifier is a `dim_param`), `*xf32` is unranked and `f32` a scalar.

use crate::attr::Attr;
use crate::dim::Dim;
use crate::error::Result;
use crate::infer::{infer_model, Knowledge, SymTensor};
use crate::ir::{Model, NewOp, OpsetImport, Value};
use crate::schema::{Domain, OpKind};
use crate::tensor::TensorData;
use crate::types::{ElemType, TensorType, Type};

/// Parses the compact tensor type syntax described in the module docs.
pub(crate) fn t(s: &str) -> Type {
    let parts: Vec<&str> = s.split('x').collect();
    let (elem, dims) = parts.split_last().expect("a type names its element type");
    let elem = ElemType::from_mnemonic(elem).unwrap_or_else(|| panic!("bad element type in {s}"));
    if dims == ["*"] {
        return Type::Tensor(TensorType::unranked(elem));
    }
    Type::Tensor(TensorType::with_dims(
        elem,
        dims.iter().map(|d| dim(d)).collect(),
    ))
}

/// Parses one dim: `?`, an integer, a `dim_param` name, or a polynomial
/// in parentheses such as `(2*N+1)` or `(B*S)`.
pub(crate) fn dim(s: &str) -> Dim {
    if s == "?" {
        return Dim::Unknown;
    }
    let s = s
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(s);
    let mut total = Dim::Known(0);
    let mut rest = s;
    while !rest.is_empty() {
        let end = rest[1..].find(['+', '-']).map_or(rest.len(), |i| i + 1);
        let (term, tail) = rest.split_at(end);
        let (sign, term) = match term.as_bytes()[0] {
            b'-' => (-1, &term[1..]),
            b'+' => (1, &term[1..]),
            _ => (1, term),
        };
        let product = term.split('*').fold(Dim::Known(1), |acc, f| {
            acc.mul(&f.parse().map(Dim::Known).unwrap_or_else(|_| Dim::param(f)))
        });
        total = total.add(&product.scale(sign));
        rest = tail;
    }
    total
}

/// A model under construction with one graph whose ops are appended in
/// order.
pub(crate) struct Graph {
    pub model: Model,
    names: usize,
}

impl Graph {
    /// An empty graph importing `ai.onnx` at `opset` (and every other
    /// domain at its newest version).
    pub fn new(opset: i64) -> Graph {
        let imports = Domain::ALL
            .iter()
            .map(|&d| OpsetImport {
                domain: d.name().to_string(),
                version: if d == Domain::Onnx {
                    opset
                } else {
                    i64::from(d.max_version())
                },
            })
            .collect();
        Graph {
            model: Model::new("test", imports),
            names: 0,
        }
    }

    fn fresh(&mut self) -> String {
        self.names += 1;
        format!("v{}", self.names)
    }

    /// A graph input of the given type.
    pub fn input(&mut self, ty: Type) -> Value {
        let name = self.fresh();
        self.model.ir.add_arg(self.model.graph, Some(name), ty)
    }

    /// A `Constant` op holding `data`.
    pub fn constant(&mut self, data: TensorData) -> Value {
        self.op(OpKind::Constant, &[], &[("value", Attr::Tensor(data))], 1)[0]
    }

    /// A 1-D int64 constant.
    pub fn ints(&mut self, values: &[i64]) -> Value {
        self.constant(TensorData::i64s(values))
    }

    /// Appends an op with `n` results of unknown type and returns them.
    pub fn op(
        &mut self,
        kind: OpKind,
        inputs: &[Option<Value>],
        attrs: &[(&str, Attr)],
        n: usize,
    ) -> Vec<Value> {
        let opset = self
            .model
            .opset(kind.domain())
            .expect("every domain is imported");
        let version = kind
            .schema(opset)
            .unwrap_or_else(|| panic!("{} does not exist in opset {opset}", kind.name()));
        let results = (0..n)
            .map(|_| Some((Some(self.fresh()), Type::Unknown)))
            .collect();
        let new = NewOp {
            kind,
            version: version.since_version,
            inputs: inputs.to_vec(),
            results,
            attrs: crate::attr::Attrs(
                attrs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect(),
            ),
            name: format!("n{}", self.model.ir.region(self.model.graph).ops.len()),
        };
        let op = self.model.ir.append_op(self.model.graph, new);
        self.model
            .ir
            .op(op)
            .results
            .iter()
            .map(|r| r.expect("all results requested"))
            .collect()
    }

    /// Runs inference on the whole model.
    pub fn infer(&mut self) -> Result<Knowledge> {
        infer_model(&mut self.model)
    }

    /// The current type of a value.
    pub fn ty(&self, v: Value) -> &Type {
        self.model.ir.ty(v)
    }
}

/// An operand of a one-op test.
#[derive(Clone)]
pub(crate) enum In {
    /// A graph input of this type.
    T(Type),
    /// A constant.
    C(TensorData),
    /// An absent optional input.
    Absent,
}

/// A graph input of the compact type `s`.
pub(crate) fn ti(s: &str) -> In {
    In::T(t(s))
}

/// A 1-D int64 constant operand.
pub(crate) fn ci(values: &[i64]) -> In {
    In::C(TensorData::i64s(values))
}

/// A scalar int64 constant operand.
pub(crate) fn cs(value: i64) -> In {
    In::C(TensorData::scalar(value))
}

/// A 1-D float constant operand.
pub(crate) fn cf(values: &[f32]) -> In {
    In::C(TensorData::from_vec(vec![values.len() as i64], values).expect("length matches"))
}

/// What a one-op test produced: result types and known values.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub types: Vec<Type>,
    pub values: Vec<Option<SymTensor>>,
    /// Why inference was incomplete, if it was.
    pub incomplete: Option<String>,
}

/// Builds one op of `kind` on `inputs` at `opset`, infers it, and returns
/// its result types, or the error message.
pub(crate) fn run(
    opset: i64,
    kind: OpKind,
    inputs: &[In],
    attrs: &[(&str, Attr)],
    n: usize,
) -> std::result::Result<Outcome, String> {
    let mut g = Graph::new(opset);
    let ins: Vec<Option<Value>> = inputs
        .iter()
        .map(|i| match i {
            In::T(ty) => Some(g.input(ty.clone())),
            In::C(data) => Some(g.constant(data.clone())),
            In::Absent => None,
        })
        .collect();
    let outs = g.op(kind, &ins, attrs, n);
    let knowledge = g.infer().map_err(|e| e.to_string())?;
    Ok(Outcome {
        types: outs.iter().map(|&v| g.ty(v).clone()).collect(),
        values: outs
            .iter()
            .map(|v| knowledge.values.get(v).cloned())
            .collect(),
        incomplete: knowledge.incomplete.last().map(|(_, why)| why.clone()),
    })
}

/// What a one-op test expects; see [`infers!`].
pub(crate) trait Expectation {
    /// Runs the op and asserts the expectation.
    fn check(self, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]);
}

/// One result of the compact type.
impl Expectation for &str {
    #[track_caller]
    fn check(self, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) {
        [self].check(opset, kind, inputs, attrs);
    }
}

/// One result per compact type.
impl<const N: usize> Expectation for [&str; N] {
    #[track_caller]
    fn check(self, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) {
        let out =
            run(opset, kind, inputs, attrs, N).unwrap_or_else(|e| panic!("inference failed: {e}"));
        let want: Vec<Type> = self.iter().map(|s| t(s)).collect();
        assert!(
            out.types == want,
            "{} (opset {opset}): inferred {}, expected {}",
            kind.name(),
            show(&out.types),
            show(&want)
        );
    }
}

fn show(types: &[Type]) -> String {
    types
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Inference rejects the op (built with `.0` results) with a message
/// containing `.1`.
pub(crate) struct Fails(pub usize, pub &'static str);

impl Expectation for Fails {
    #[track_caller]
    fn check(self, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) {
        match run(opset, kind, inputs, attrs, self.0) {
            Ok(out) => panic!(
                "expected an error containing {:?}, inferred {:?}",
                self.1, out.types
            ),
            Err(e) => assert!(
                e.contains(self.1),
                "error {e:?} does not contain {:?}",
                self.1
            ),
        }
    }
}

/// One result of the compact type `.0` whose known contents are `.1`.
pub(crate) struct Valued(pub &'static str, pub &'static [i64]);

impl Expectation for Valued {
    #[track_caller]
    fn check(self, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) {
        let out =
            run(opset, kind, inputs, attrs, 1).unwrap_or_else(|e| panic!("inference failed: {e}"));
        assert_eq!(out.types[0], t(self.0), "{} (opset {opset})", kind.name());
        let value = out.values[0].as_ref().and_then(SymTensor::as_known);
        assert_eq!(
            value.as_deref(),
            Some(self.1),
            "value of {} (opset {opset})",
            kind.name()
        );
    }
}

/// One-op inference cases, one per line:
///
/// ```text
/// opset Op(input, input; attr = value, attr = value) => expectation;
/// ```
///
/// Inputs are [`In`]s (`ti("2x3xf32")`, `ci(&[0, -1])`, …); the
/// expectation is a compact type, an array of them, [`Fails`] or
/// [`Valued`].
macro_rules! infers {
    ($($opset:literal $op:ident($($input:expr),* $(; $($attr:ident = $val:expr),+)?) => $want:expr;)*) => {
        $(
            $crate::ops::testing::Expectation::check(
                $want,
                $opset,
                $crate::schema::OpKind::$op,
                &[$($input),*],
                &[$($((stringify!($attr), $val)),+)?],
            );
        )*
    };
}
pub(crate) use infers;

/// An `INTS` attribute.
pub(crate) fn ints(v: &[i64]) -> Attr {
    Attr::Ints(v.to_vec())
}

/// An `INT` attribute.
pub(crate) fn int(v: i64) -> Attr {
    Attr::Int(v)
}
