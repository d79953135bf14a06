//! The e-graph language of the onnx dialect.
//!
//! An e-node is an op of the main graph whose operator is the whole
//! [`OpKey`] — kind, schema version, canonical attributes and which results
//! exist — so that two ops are the same e-node exactly when they compute the
//! same thing from the same operands, and patterns can match on attributes.
//! Leaves are graph inputs ([`ONode::Input`]), constants ([`ONode::Const`],
//! by content for small tensors and by identity for big ones, see
//! [`crate::analysis::ConstPool`]) and absent optional operands
//! ([`ONode::Absent`]).
//!
//! An op with several result slots is a *tuple*: its e-class stands for all
//! results at once and consumers read one through `(get.i ?op)`
//! ([`ONode::Get`]), so a rewrite can replace a multi-result op as a whole
//! (TENSAT's split nodes). Ops that carry subgraphs (`If`, `Loop`, `Scan`)
//! are opaque: their regions stay in the IR untouched, and the main-graph
//! values the regions read are extra children (`captures`) so that they
//! stay alive and can be renamed when rebuilding.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use egg::{Id, Language};
use onnx_mlc_dialect::attr::SparseTensorData;
use onnx_mlc_dialect::schema::ParamOption;
use onnx_mlc_dialect::tensor::Payload;
use onnx_mlc_dialect::{Attr, Attrs, Domain, OpKind, TensorData, Type, Value};

/// A constant in the [`crate::analysis::ConstPool`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstId(pub u32);

/// The operator of an op e-node.
#[derive(Clone)]
pub struct OpKey {
    /// The operator.
    pub kind: OpKind,
    /// `since_version` of its schema.
    pub version: u32,
    /// The attributes, sorted by name, without those equal to their
    /// schema default.
    pub attrs: Attrs,
    /// Which result slots exist; more than one slot makes the op a tuple.
    pub results: Box<[bool]>,
    /// Main-graph values read by the op's subgraphs (opaque ops only); they
    /// follow the operands among the node's children.
    pub captures: Box<[Value]>,
    /// Result types of an opaque op (not inferred: its subgraphs decide).
    pub opaque_types: Option<Arc<[Type]>>,
    /// Canonical bytes of `attrs`: equality, hashing and order use them.
    key: Box<[u8]>,
}

impl OpKey {
    /// An operator with canonical attributes (defaults dropped, sorted).
    pub fn new(kind: OpKind, version: u32, attrs: Attrs, results: Box<[bool]>) -> OpKey {
        let attrs = canonical_attrs(kind, version, attrs);
        let key = attr_bytes(&attrs);
        OpKey {
            kind,
            version,
            attrs,
            results,
            captures: Box::new([]),
            opaque_types: None,
            key,
        }
    }

    /// A single-result operator.
    pub fn single(kind: OpKind, version: u32, attrs: Attrs) -> OpKey {
        OpKey::new(kind, version, attrs, Box::new([true]))
    }

    /// True for a tuple (several result slots).
    pub fn is_tuple(&self) -> bool {
        self.results.len() > 1
    }

    /// True for an op whose subgraphs the optimizer does not look into.
    pub fn is_opaque(&self) -> bool {
        self.opaque_types.is_some()
    }

    /// The attribute `name`, or its schema default for this version.
    pub fn attr(&self, name: &str) -> Option<Attr> {
        self.attrs.get(name).cloned().or_else(|| {
            let schema = self.kind.schema_exact(self.version)?;
            schema.attr(name)?.default.map(|d| d.to_attr())
        })
    }

    /// An INT attribute (or default).
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.attr(name)? {
            Attr::Int(v) => Some(v),
            _ => None,
        }
    }

    /// A FLOAT attribute (or default).
    pub fn float(&self, name: &str) -> Option<f32> {
        match self.attr(name)? {
            Attr::Float(v) => Some(v),
            _ => None,
        }
    }

    /// An INTS attribute (or default).
    pub fn ints(&self, name: &str) -> Option<Vec<i64>> {
        match self.attr(name)? {
            Attr::Ints(v) => Some(v),
            _ => None,
        }
    }

    /// A STRING attribute (or default) as text.
    pub fn string(&self, name: &str) -> Option<String> {
        match self.attr(name)? {
            Attr::String(v) => String::from_utf8(v).ok(),
            _ => None,
        }
    }

    fn identity(&self) -> (OpKind, u32, &[bool], &[Value], &[u8]) {
        (
            self.kind,
            self.version,
            &self.results,
            &self.captures,
            &self.key,
        )
    }
}

impl PartialEq for OpKey {
    fn eq(&self, other: &Self) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for OpKey {}

impl Hash for OpKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.identity().hash(state)
    }
}

impl PartialOrd for OpKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OpKey {
    fn cmp(&self, other: &Self) -> Ordering {
        self.identity().cmp(&other.identity())
    }
}

impl fmt::Debug for OpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for OpKey {
    /// `Transpose[perm=[0, 2, 1, 3]]`, `omlc.FusedConv[activation="Relu"]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", op_name(self.kind))?;
        if !self.attrs.is_empty() {
            f.write_str("[")?;
            for (i, (name, a)) in self.attrs.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{name}={}", ShowAttr(a))?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

/// An op's name as patterns spell it: bare for ai.onnx, with the text-form
/// prefix otherwise (`omlc.FusedConv`).
pub fn op_name(kind: OpKind) -> String {
    match kind.domain() {
        Domain::Onnx => kind.name().to_string(),
        d => format!("{}.{}", d.text_prefix(), kind.name()),
    }
}

/// Attribute values in pattern syntax.
pub(crate) struct ShowAttr<'a>(pub &'a Attr);

impl fmt::Display for ShowAttr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Attr::Int(v) => write!(f, "{v}"),
            Attr::Float(v) => write!(f, "{v:?}"),
            Attr::String(s) => write!(f, "{:?}", String::from_utf8_lossy(s)),
            Attr::Ints(v) => write!(f, "{v:?}"),
            Attr::Floats(v) => write!(f, "{v:?}"),
            Attr::Graph(r) => write!(f, "{r:?}"),
            other => write!(f, "<{}>", other.kind().name()),
        }
    }
}

/// An e-node.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ONode {
    /// An op applied to operand classes (absent optional operands are
    /// [`ONode::Absent`] classes), followed by its captures.
    Op(Arc<OpKey>, Vec<Id>),
    /// Result `i` of a tuple class.
    Get(u32, [Id; 1]),
    /// Argument `i` of the main graph.
    Input(u32),
    /// A constant tensor.
    Const(ConstId),
    /// An absent optional operand.
    Absent,
}

/// What distinguishes e-nodes before their children: the op kind for ops
/// (egg indexes classes by it; patterns find their roots through it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Discriminant {
    /// An op of this kind, whatever its attributes.
    Op(OpKind),
    /// A projection of this result.
    Get(u32),
    /// This graph input.
    Input(u32),
    /// This constant.
    Const(ConstId),
    /// An absent operand.
    Absent,
}

impl ONode {
    /// An op node.
    pub fn op(key: OpKey, children: Vec<Id>) -> ONode {
        ONode::Op(Arc::new(key), children)
    }

    /// The op key of an op node.
    pub fn key(&self) -> Option<&OpKey> {
        match self {
            ONode::Op(k, _) => Some(k),
            _ => None,
        }
    }

    /// The operand children of an op node (captures excluded).
    pub fn operands(&self) -> &[Id] {
        match self {
            ONode::Op(k, ch) => &ch[..ch.len() - k.captures.len()],
            _ => self.children(),
        }
    }
}

impl Language for ONode {
    type Discriminant = Discriminant;

    fn discriminant(&self) -> Discriminant {
        match self {
            ONode::Op(k, _) => Discriminant::Op(k.kind),
            ONode::Get(i, _) => Discriminant::Get(*i),
            ONode::Input(i) => Discriminant::Input(*i),
            ONode::Const(c) => Discriminant::Const(*c),
            ONode::Absent => Discriminant::Absent,
        }
    }

    fn matches(&self, other: &Self) -> bool {
        match (self, other) {
            (ONode::Op(a, x), ONode::Op(b, y)) => a == b && x.len() == y.len(),
            (ONode::Get(i, _), ONode::Get(j, _)) => i == j,
            _ => self == other,
        }
    }

    fn children(&self) -> &[Id] {
        match self {
            ONode::Op(_, ch) => ch,
            ONode::Get(_, ch) => ch,
            ONode::Input(_) | ONode::Const(_) | ONode::Absent => &[],
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            ONode::Op(_, ch) => ch,
            ONode::Get(_, ch) => ch,
            ONode::Input(_) | ONode::Const(_) | ONode::Absent => &mut [],
        }
    }
}

impl fmt::Display for ONode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ONode::Op(k, _) => write!(f, "{k}"),
            ONode::Get(i, _) => write!(f, "get.{i}"),
            ONode::Input(i) => write!(f, "input.{i}"),
            ONode::Const(c) => write!(f, "const.{}", c.0),
            ONode::Absent => f.write_str("none"),
        }
    }
}

/// How many operand children an op of this schema gets: its inputs padded
/// with absent operands up to the schema's maximum, unless the last input
/// is variadic (then exactly as given). Padding lets one pattern match an
/// op whether or not its trailing optional inputs were written.
pub fn operand_count(kind: OpKind, version: u32, given: usize) -> usize {
    let Some(schema) = kind.schema_exact(version) else {
        return given;
    };
    match schema.inputs.last() {
        Some(p) if p.option == ParamOption::Variadic => given,
        _ => given.max(schema.inputs.len()),
    }
}

fn canonical_attrs(kind: OpKind, version: u32, attrs: Attrs) -> Attrs {
    let schema = kind.schema_exact(version);
    let mut list: Vec<(String, Attr)> = attrs
        .0
        .into_iter()
        .filter(|(name, value)| {
            let default = schema.and_then(|s| s.attr(name)).and_then(|a| a.default);
            default.is_none_or(|d| d.to_attr() != *value)
        })
        .collect();
    list.sort_by(|a, b| a.0.cmp(&b.0));
    Attrs(list)
}

/// Serializes attributes into bytes whose equality is attribute equality
/// (floats by bit pattern).
fn attr_bytes(attrs: &Attrs) -> Box<[u8]> {
    let mut out = Vec::new();
    for (name, a) in attrs.iter() {
        put_bytes(&mut out, name.as_bytes());
        put_attr(&mut out, a);
    }
    out.into_boxed_slice()
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u64).to_le_bytes());
    out.extend_from_slice(b);
}

fn put_u64s(out: &mut Vec<u8>, v: impl ExactSizeIterator<Item = u64>) {
    out.extend_from_slice(&(v.len() as u64).to_le_bytes());
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn put_tensor(out: &mut Vec<u8>, t: &TensorData) {
    out.extend_from_slice(&t.elem.onnx_code().to_le_bytes());
    put_u64s(out, t.dims.iter().map(|&d| d as u64));
    match &t.payload {
        Payload::Raw(b) => {
            out.push(0);
            put_bytes(out, b);
        }
        Payload::Strings(s) => {
            out.push(1);
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            for x in s.iter() {
                put_bytes(out, x);
            }
        }
        Payload::Elided => out.push(2),
    }
}

fn put_sparse(out: &mut Vec<u8>, s: &SparseTensorData) {
    put_u64s(out, s.dims.iter().map(|&d| d as u64));
    put_tensor(out, &s.values);
    put_tensor(out, &s.indices);
}

fn put_attr(out: &mut Vec<u8>, a: &Attr) {
    out.push(a.kind() as u8);
    match a {
        Attr::Float(v) => out.extend_from_slice(&v.to_bits().to_le_bytes()),
        Attr::Int(v) => out.extend_from_slice(&v.to_le_bytes()),
        Attr::String(s) => put_bytes(out, s),
        Attr::Tensor(t) => put_tensor(out, t),
        Attr::Graph(r) => out.extend_from_slice(&(r.index() as u64).to_le_bytes()),
        Attr::SparseTensor(s) => put_sparse(out, s),
        Attr::Type(t) => put_bytes(out, t.to_string().as_bytes()),
        Attr::Floats(v) => put_u64s(out, v.iter().map(|x| u64::from(x.to_bits()))),
        Attr::Ints(v) => put_u64s(out, v.iter().map(|&x| x as u64)),
        Attr::Strings(v) => {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            for s in v {
                put_bytes(out, s);
            }
        }
        Attr::Tensors(v) => {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            for t in v {
                put_tensor(out, t);
            }
        }
        Attr::Graphs(v) => put_u64s(out, v.iter().map(|r| r.index() as u64)),
        Attr::SparseTensors(v) => {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            for s in v {
                put_sparse(out, s);
            }
        }
        Attr::Types(v) => {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            for t in v {
                put_bytes(out, t.to_string().as_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_do_not_change_identity() {
        let conv = OpKind::Conv.schema(17).unwrap().since_version;
        let plain = OpKey::single(OpKind::Conv, conv, Attrs::default());
        let explicit = OpKey::single(
            OpKind::Conv,
            conv,
            Attrs(vec![("group".into(), Attr::Int(1))]),
        );
        let grouped = OpKey::single(
            OpKind::Conv,
            conv,
            Attrs(vec![("group".into(), Attr::Int(2))]),
        );
        assert_eq!(plain, explicit);
        assert_ne!(plain, grouped);
        assert_eq!(grouped.int("group"), Some(2));
        assert_eq!(plain.int("group"), Some(1));
        assert_eq!(grouped.to_string(), "Conv[group=2]");
    }

    #[test]
    fn attribute_order_is_canonical() {
        let v = OpKind::Gemm.schema(17).unwrap().since_version;
        let a = Attrs(vec![
            ("transB".into(), Attr::Int(1)),
            ("alpha".into(), Attr::Float(2.0)),
        ]);
        let b = Attrs(vec![
            ("alpha".into(), Attr::Float(2.0)),
            ("transB".into(), Attr::Int(1)),
        ]);
        assert_eq!(
            OpKey::single(OpKind::Gemm, v, a),
            OpKey::single(OpKind::Gemm, v, b)
        );
        assert_eq!(op_name(OpKind::FusedConv), "omlc.FusedConv");
        assert_eq!(operand_count(OpKind::Conv, 11, 2), 3);
        assert_eq!(operand_count(OpKind::Concat, 13, 5), 5);
    }
}
