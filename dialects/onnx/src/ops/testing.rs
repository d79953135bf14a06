//! Test support for the op families (and the passes): builds small models
//! op by op — subgraphs, absent inputs and results included — runs
//! inference on them, and spells types compactly.
//!
//! Two levels:
//!
//! - [`infers!`] states one-op cases one per line:
//!   `17 Add(ti("2x1xf32"), ti("3xf32")) => "2x3xf32";`.
//! - [`Graph`] builds anything else: several ops, subgraphs (a region made
//!   with [`Graph::region`] becomes the subgraph of the op whose GRAPH
//!   attribute names it), ops of other versions than the model imports
//!   ([`Graph::op_at`]), absent inputs and results ([`Graph::node`]).
//!
//! Types are written as in the text form without the `tensor<>` wrapper,
//! dims separated by `x`: `2x"N"x?xf32` reads `2xNx?xf32` here (a bare
//! identifier is a `dim_param`), `*xf32` is unranked and `f32` a scalar.
//! [`Graph::ty`] reads types back in the full text form
//! (`tensor<2x"N"xf32>`).

use crate::attr::{Attr, Attrs};
use crate::dim::Dim;
use crate::error::Result;
use crate::infer::infer_region;
use crate::ir::{Model, NewOp, OpsetImport, RegionId, RegionParent, Value};
use crate::ops::knowledge::{Knowledge, SymTensor};
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

/// A sequence of `elem`.
pub(crate) fn seq(elem: Type) -> Type {
    Type::Sequence(Box::new(elem))
}

/// An optional `elem`.
pub(crate) fn opt(elem: Type) -> Type {
    Type::Optional(Box::new(elem))
}

/// A model under construction: a main graph (and subgraphs) whose ops are
/// appended in order.
pub(crate) struct Graph {
    pub model: Model,
    names: usize,
    /// The constants made by [`Graph::constant`], whose values inference
    /// starts out knowing.
    constants: Vec<(Value, TensorData)>,
}

impl Graph {
    /// An empty model importing `ai.onnx` at `opset` and every other
    /// domain at its newest version.
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
            constants: vec![],
        }
    }

    fn fresh(&mut self) -> String {
        self.names += 1;
        format!("v{}", self.names)
    }

    /// The main graph.
    pub fn main(&self) -> RegionId {
        self.model.graph
    }

    /// A main-graph input of the given type.
    pub fn input(&mut self, ty: Type) -> Value {
        self.arg(self.main(), ty)
    }

    /// An input of any graph.
    pub fn arg(&mut self, region: RegionId, ty: Type) -> Value {
        let name = self.fresh();
        self.model.ir.add_arg(region, Some(name), ty)
    }

    /// A new, empty subgraph; an op whose GRAPH attribute names it becomes
    /// its parent.
    pub fn region(&mut self, name: &str) -> RegionId {
        self.model.ir.new_region(name, RegionParent::Top)
    }

    /// Adds an output to a graph.
    pub fn output(&mut self, region: RegionId, value: Value) {
        let name = format!("out{}", self.model.ir.region(region).outputs.len());
        self.model.ir.add_output(region, name, value);
    }

    /// A `Constant` op of the main graph holding `data`.
    pub fn constant(&mut self, data: TensorData) -> Value {
        self.constant_in(self.main(), data)
    }

    /// A `Constant` op in `region` holding `data`. Its type and value are
    /// known from the start, so that the tests of a family do not depend
    /// on the inference of `Constant` itself.
    pub fn constant_in(&mut self, region: RegionId, data: TensorData) -> Value {
        let opset = self.opset(OpKind::Constant);
        let attrs = [("value", Attr::Tensor(data.clone()))];
        let v = self.node(region, OpKind::Constant, opset, &[], &[true], &attrs)[0]
            .expect("a Constant has its result");
        self.model.ir.value_mut(v).ty = Type::Tensor(data.ty());
        self.constants.push((v, data));
        v
    }

    /// A 1-D int64 constant.
    pub fn ints(&mut self, values: &[i64]) -> Value {
        self.constant(TensorData::i64s(values))
    }

    /// The version the model imports of `kind`'s domain.
    pub fn opset(&self, kind: OpKind) -> i64 {
        self.model
            .opset(kind.domain())
            .expect("every domain is imported")
    }

    /// Appends an op of the main graph, resolved at the model's opset, on
    /// `inputs` with `n` results of unknown type, and returns them.
    pub fn op(
        &mut self,
        kind: OpKind,
        inputs: &[Value],
        attrs: &[(&str, Attr)],
        n: usize,
    ) -> Vec<Value> {
        self.op_at(kind, self.opset(kind), inputs, attrs, n)
    }

    /// [`Graph::op`] with the op resolved at `opset` of its domain instead.
    pub fn op_at(
        &mut self,
        kind: OpKind,
        opset: i64,
        inputs: &[Value],
        attrs: &[(&str, Attr)],
        n: usize,
    ) -> Vec<Value> {
        let inputs: Vec<Option<Value>> = inputs.iter().copied().map(Some).collect();
        self.node(self.main(), kind, opset, &inputs, &vec![true; n], attrs)
            .into_iter()
            .map(|r| r.expect("all results requested"))
            .collect()
    }

    /// Appends an op to `region`, resolved at `opset` of its domain, with
    /// absent inputs (`None`) and absent results (`false`); the regions its
    /// GRAPH attributes name become its subgraphs.
    pub fn node(
        &mut self,
        region: RegionId,
        kind: OpKind,
        opset: i64,
        inputs: &[Option<Value>],
        results: &[bool],
        attrs: &[(&str, Attr)],
    ) -> Vec<Option<Value>> {
        let version = kind
            .schema(opset)
            .unwrap_or_else(|| panic!("{} does not exist in opset {opset}", kind.name()))
            .since_version;
        let results = results
            .iter()
            .map(|&r| r.then(|| (Some(self.fresh()), Type::Unknown)))
            .collect();
        let attrs = Attrs(
            attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        );
        let subgraphs: Vec<RegionId> = attrs.regions().collect();
        let name = format!("n{}", self.model.ir.num_ops());
        let op = self.model.ir.append_op(
            region,
            NewOp {
                kind,
                version,
                inputs: inputs.to_vec(),
                results,
                attrs,
                name,
            },
        );
        for r in subgraphs {
            self.model.ir.region_mut(r).parent = RegionParent::Op(op);
        }
        self.model.ir.op(op).results.clone()
    }

    /// Runs inference on the whole model, knowing the values of the
    /// constants from the start.
    pub fn infer(&mut self) -> Result<Knowledge> {
        let mut knowledge = Knowledge::default();
        for (v, data) in &self.constants {
            if let Some(value) = SymTensor::from_data(data) {
                knowledge.values.insert(*v, value);
            }
        }
        for region in self.model.top_regions() {
            infer_region(&mut self.model.ir, region, &mut knowledge)?;
        }
        Ok(knowledge)
    }

    /// Runs inference, which must fail; returns the message.
    #[track_caller]
    pub fn infer_err(&mut self) -> String {
        match self.infer() {
            Ok(_) => panic!("inference was expected to fail"),
            Err(e) => e.to_string(),
        }
    }

    /// The text form of a value's current type (`tensor<2x"N"xf32>`).
    pub fn ty(&self, v: Value) -> String {
        self.model.ir.ty(v).to_string()
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

/// A 1-D bool constant operand.
pub(crate) fn cb(values: &[bool]) -> In {
    let bytes: Vec<u8> = values.iter().map(|&b| u8::from(b)).collect();
    In::C(
        TensorData::from_raw(
            crate::types::ElemType::Bool,
            vec![values.len() as i64],
            bytes.into(),
        )
        .expect("length matches"),
    )
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
    let main = g.main();
    let outs: Vec<Value> = g
        .node(main, kind, g.opset(kind), &ins, &vec![true; n], attrs)
        .into_iter()
        .flatten()
        .collect();
    let knowledge = g.infer().map_err(|e| e.to_string())?;
    Ok(Outcome {
        types: outs.iter().map(|&v| g.model.ir.ty(v).clone()).collect(),
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
        let want: Vec<Type> = self.iter().map(|s| t(s)).collect();
        expect_types(want, opset, kind, inputs, attrs);
    }
}

/// One result of exactly this type, for dims the compact form cannot
/// spell (floor-quotient atoms).
impl Expectation for Type {
    #[track_caller]
    fn check(self, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) {
        expect_types(vec![self], opset, kind, inputs, attrs);
    }
}

/// Runs the op and asserts that its results have the types `want`.
#[track_caller]
fn expect_types(want: Vec<Type>, opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) {
    let out = run(opset, kind, inputs, attrs, want.len())
        .unwrap_or_else(|e| panic!("inference failed: {e}"));
    assert!(
        out.types == want,
        "{} (opset {opset}): inferred {}, expected {}",
        kind.name(),
        show(&out.types),
        show(&want)
    );
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
