//! Patterns over the e-graph: the left- and right-hand sides of rules.
//!
//! egg's own patterns match an operator exactly; ours must look *into* an
//! op's attributes (bind `perm`, require `keepdims = 1`, copy a Conv's
//! attributes onto a FusedConv), so they have their own small syntax and
//! matcher:
//!
//! ```text
//! pattern := ?x                          any class, bound to x
//!          | 0.5                         a class whose constant is a splat of this value
//!          | (ops@label? [attrs]? pattern*)
//! ops     := Kind ('|' Kind)*            Transpose, omlc.FusedConv, Relu|Sigmoid, get.0
//! attrs   := attr (',' attr)*
//! attr    := name=literal                the attribute (or its default) equals literal
//!          | name=?v                     binds the attribute's value (or default) to v
//!          | @label                      (right-hand side) copies the attributes of the
//!                                        node matched as @label
//! ```
//!
//! On the right-hand side the op may also be `@label`: the matched node's
//! operator with new operands. Ops get the version the model's opset gives
//! them; an op the model's opsets do not have makes the rewrite not apply.
//! Trailing optional operands left out are absent.

use std::fmt;
use std::sync::Arc;

use egg::Id;
use onnx_mlc_dialect::{Attr, Attrs, Domain, OpKind};

use crate::analysis::OGraph;
use crate::eval::splat;
use crate::lang::{operand_count, ONode, OpKey};

/// A parsed pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    root: PNode,
}

#[derive(Clone, Debug)]
enum PNode {
    Var(Arc<str>),
    Lit(f64),
    Op(Box<POp>),
}

#[derive(Clone, Debug)]
enum OpSpec {
    Kinds(Vec<OpKind>),
    Get(u32),
    Label(Arc<str>),
}

#[derive(Clone, Debug)]
struct POp {
    spec: OpSpec,
    label: Option<Arc<str>>,
    attrs: Vec<PAttr>,
    children: Vec<PNode>,
}

#[derive(Clone, Debug)]
enum PAttr {
    Eq(String, Attr),
    Bind(String, Arc<str>),
    Splice(Arc<str>),
}

/// What a variable of a match is bound to.
#[derive(Clone, Debug)]
pub enum Bound {
    /// A class (`?x`).
    Class(Id),
    /// An attribute value (`name=?v`); `None` when absent without default.
    Attr(Option<Attr>),
    /// The e-node matched at `@label`.
    Node(ONode),
}

/// One match of a pattern.
#[derive(Clone, Debug)]
pub struct Match {
    /// The class the pattern's root matched.
    pub root: Id,
    binds: Vec<(Arc<str>, Bound)>,
}

impl Match {
    /// A match with the given bindings (for searchers written in Rust).
    pub fn new(root: Id, binds: Vec<(&str, Bound)>) -> Match {
        Match {
            root,
            binds: binds.into_iter().map(|(n, b)| (Arc::from(n), b)).collect(),
        }
    }

    fn get(&self, name: &str) -> Option<&Bound> {
        self.binds
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, b)| b)
    }

    /// The class bound to `?name` (pass the name with its `?`).
    pub fn class(&self, name: &str) -> Id {
        match self.get(name.trim_start_matches('?')) {
            Some(Bound::Class(id)) => *id,
            _ => panic!("pattern variable {name} is not a class"),
        }
    }

    /// The attribute bound to `?name`.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        match self.get(name.trim_start_matches('?')) {
            Some(Bound::Attr(a)) => a.as_ref(),
            _ => panic!("pattern variable {name} is not an attribute"),
        }
    }

    /// The node matched at `@name`.
    pub fn node(&self, name: &str) -> &ONode {
        match self.get(name.trim_start_matches('@')) {
            Some(Bound::Node(n)) => n,
            _ => panic!("pattern label {name} is not bound"),
        }
    }

    /// The op key of the node matched at `@name`.
    pub fn key(&self, name: &str) -> &OpKey {
        self.node(name).key().expect("labels are put on ops")
    }

    fn bind(&mut self, name: &Arc<str>, b: Bound) {
        self.binds.push((name.clone(), b));
    }
}

/// Why a pattern did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pattern `{pattern}`, at byte {at}: {message}")]
pub struct PatternError {
    pub pattern: String,
    pub at: usize,
    pub message: String,
}

impl Pattern {
    /// Parses a pattern.
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let mut p = Parser { text, pos: 0 };
        let root = p.node()?;
        p.skip_ws();
        if p.pos != text.len() {
            return Err(p.error("unexpected text after the pattern"));
        }
        Ok(Pattern { root })
    }

    /// The variables (`?x`, attribute vars) and labels the pattern binds.
    pub fn bound_names(&self) -> Vec<Arc<str>> {
        let mut out = vec![];
        fn walk(n: &PNode, out: &mut Vec<Arc<str>>) {
            match n {
                PNode::Var(v) => out.push(v.clone()),
                PNode::Lit(_) => {}
                PNode::Op(op) => {
                    out.extend(op.label.clone());
                    for a in &op.attrs {
                        if let PAttr::Bind(_, v) = a {
                            out.push(v.clone());
                        }
                    }
                    op.children.iter().for_each(|c| walk(c, out));
                }
            }
        }
        walk(&self.root, &mut out);
        out
    }

    /// The names a right-hand side uses.
    pub fn used_names(&self) -> Vec<Arc<str>> {
        let mut out = vec![];
        fn walk(n: &PNode, out: &mut Vec<Arc<str>>) {
            match n {
                PNode::Var(v) => out.push(v.clone()),
                PNode::Lit(_) => {}
                PNode::Op(op) => {
                    if let OpSpec::Label(l) = &op.spec {
                        out.push(l.clone());
                    }
                    for a in &op.attrs {
                        match a {
                            PAttr::Bind(_, v) | PAttr::Splice(v) => out.push(v.clone()),
                            PAttr::Eq(..) => {}
                        }
                    }
                    op.children.iter().for_each(|c| walk(c, out));
                }
            }
        }
        walk(&self.root, &mut out);
        out
    }

    /// True when the pattern can be instantiated (no literals, each op one
    /// kind or a label).
    pub fn is_buildable(&self) -> bool {
        fn ok(n: &PNode) -> bool {
            match n {
                PNode::Var(_) => true,
                PNode::Lit(_) => false,
                PNode::Op(op) => {
                    let spec = match &op.spec {
                        OpSpec::Kinds(k) => k.len() == 1,
                        _ => true,
                    };
                    spec && op.label.is_none() && op.children.iter().all(ok)
                }
            }
        }
        ok(&self.root)
    }

    /// For a pattern that is one op with literal attributes and no
    /// operands: the op and its attributes.
    pub fn head(&self) -> Option<(OpKind, Attrs)> {
        let PNode::Op(op) = &self.root else {
            return None;
        };
        let OpSpec::Kinds(kinds) = &op.spec else {
            return None;
        };
        let mut attrs = Attrs::default();
        for a in &op.attrs {
            let PAttr::Eq(name, v) = a else { return None };
            attrs.set(name, v.clone());
        }
        (kinds.len() == 1 && op.children.is_empty() && op.label.is_none())
            .then_some((kinds[0], attrs))
    }

    /// The discriminants of e-nodes the root can match.
    fn roots(&self) -> Vec<crate::lang::Discriminant> {
        use crate::lang::Discriminant;
        match &self.root {
            PNode::Op(op) => match &op.spec {
                OpSpec::Kinds(kinds) => kinds.iter().map(|&k| Discriminant::Op(k)).collect(),
                OpSpec::Get(i) => vec![Discriminant::Get(*i)],
                OpSpec::Label(_) => vec![],
            },
            _ => vec![],
        }
    }

    /// Every match in the e-graph, at most `limit`.
    pub fn search(&self, egraph: &OGraph, limit: usize) -> Vec<Match> {
        let mut classes: Vec<Id> = self
            .roots()
            .iter()
            .filter_map(|d| egraph.classes_for_op(d))
            .flatten()
            .collect();
        classes.sort_unstable();
        classes.dedup();
        let mut out = vec![];
        for class in classes {
            let start = Match {
                root: class,
                binds: vec![],
            };
            out.extend(match_node(egraph, &self.root, class, start));
            if out.len() >= limit {
                out.truncate(limit);
                break;
            }
        }
        out
    }

    /// Adds the instance of this (right-hand side) pattern for `m`; `None`
    /// when an op does not exist in the model's opsets.
    pub fn instantiate(&self, egraph: &mut OGraph, m: &Match) -> Option<Id> {
        build(egraph, &self.root, m)
    }
}

fn match_node(egraph: &OGraph, p: &PNode, class: Id, m: Match) -> Vec<Match> {
    let class = egraph.find(class);
    match p {
        PNode::Var(v) => match m.get(v) {
            Some(Bound::Class(id)) => {
                if egraph.find(*id) == class {
                    vec![m]
                } else {
                    vec![]
                }
            }
            _ => {
                let mut m = m;
                m.bind(v, Bound::Class(class));
                vec![m]
            }
        },
        PNode::Lit(x) => {
            let c = egraph[class]
                .data
                .constant
                .and_then(|c| egraph.analysis.pool.materialized(c));
            match c.and_then(splat) {
                Some(v) if approx_eq(v, *x) => vec![m],
                _ => vec![],
            }
        }
        PNode::Op(op) => {
            let mut out = vec![];
            for node in &egraph[class].nodes {
                if !spec_matches(&op.spec, node, op.children.len()) {
                    continue;
                }
                let Some(mut m) = attrs_match(&op.attrs, node, m.clone()) else {
                    continue;
                };
                if let Some(l) = &op.label {
                    m.bind(l, Bound::Node(node.clone()));
                }
                let mut partial = vec![m];
                for (child, &id) in op.children.iter().zip(node.operands()) {
                    partial = partial
                        .into_iter()
                        .flat_map(|m| match_node(egraph, child, id, m))
                        .collect();
                    if partial.is_empty() {
                        break;
                    }
                }
                out.extend(partial);
            }
            out
        }
    }
}

fn spec_matches(spec: &OpSpec, node: &ONode, arity: usize) -> bool {
    match (spec, node) {
        (OpSpec::Kinds(kinds), ONode::Op(k, _)) => {
            !k.is_opaque()
                && !k.is_tuple()
                && kinds.contains(&k.kind)
                && node.operands().len() == arity
        }
        (OpSpec::Get(i), ONode::Get(j, _)) => i == j && arity == 1,
        _ => false,
    }
}

fn attrs_match(attrs: &[PAttr], node: &ONode, mut m: Match) -> Option<Match> {
    if attrs.is_empty() {
        return Some(m);
    }
    let key = node.key()?;
    for a in attrs {
        match a {
            PAttr::Eq(name, lit) => {
                if !key.attr(name).is_some_and(|v| attr_eq(&v, lit)) {
                    return None;
                }
            }
            PAttr::Bind(name, var) => {
                let v = key.attr(name);
                match m.get(var) {
                    Some(Bound::Attr(prev)) => {
                        let same = match (prev, &v) {
                            (Some(a), Some(b)) => attr_eq(a, b),
                            (None, None) => true,
                            _ => false,
                        };
                        if !same {
                            return None;
                        }
                    }
                    _ => m.bind(var, Bound::Attr(v)),
                }
            }
            PAttr::Splice(_) => return None,
        }
    }
    Some(m)
}

fn approx_eq(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1e-30)
}

/// Attribute equality with numeric tolerance for floats.
pub fn attr_eq(a: &Attr, b: &Attr) -> bool {
    match (a, b) {
        (Attr::Float(x), Attr::Float(y)) => approx_eq(f64::from(*x), f64::from(*y)),
        (Attr::Float(x), Attr::Int(y)) | (Attr::Int(y), Attr::Float(x)) => {
            f64::from(*x) == *y as f64
        }
        (Attr::Floats(x), Attr::Floats(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| approx_eq(f64::from(*p), f64::from(*q)))
        }
        _ => a == b,
    }
}

fn build(egraph: &mut OGraph, p: &PNode, m: &Match) -> Option<Id> {
    match p {
        PNode::Var(v) => Some(m.class(v)),
        PNode::Lit(_) => None,
        PNode::Op(op) => {
            let mut children = Vec::with_capacity(op.children.len());
            for c in &op.children {
                children.push(build(egraph, c, m)?);
            }
            let (kind, version, mut attrs) = match &op.spec {
                OpSpec::Get(i) => return Some(egraph.add(ONode::Get(*i, [children[0]]))),
                OpSpec::Kinds(k) => (k[0], egraph.analysis.version_of(k[0])?, Attrs::default()),
                OpSpec::Label(l) => {
                    let key = m.key(l);
                    (key.kind, key.version, key.attrs.clone())
                }
            };
            let schema = kind.schema_exact(version)?;
            for a in &op.attrs {
                match a {
                    PAttr::Eq(name, v) => attrs.set(name, v.clone()),
                    PAttr::Bind(name, var) => match m.attr(var) {
                        Some(v) => attrs.set(name, v.clone()),
                        None => {
                            attrs.remove(name);
                        }
                    },
                    PAttr::Splice(label) => {
                        for (name, v) in m.key(label).attrs.iter() {
                            if schema.attr(name).is_some() {
                                attrs.set(name, v.clone());
                            }
                        }
                    }
                }
            }
            Some(add_op(
                egraph,
                OpKey::single(kind, version, attrs),
                children,
            ))
        }
    }
}

/// Adds an op node, padding its operands with absent ones as
/// [`operand_count`] says.
pub fn add_op(egraph: &mut OGraph, key: OpKey, mut children: Vec<Id>) -> Id {
    let n = operand_count(key.kind, key.version, children.len());
    if children.len() < n {
        let absent = egraph.add(ONode::Absent);
        children.resize(n, absent);
    }
    egraph.add(ONode::op(key, children))
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, message: impl fmt::Display) -> PatternError {
        PatternError {
            pattern: self.text.to_string(),
            at: self.pos,
            message: message.to_string(),
        }
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), PatternError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(format!("expected '{c}'")))
        }
    }

    fn word(&mut self) -> &str {
        self.skip_ws();
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || "_.|-+".contains(c))
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    fn ident(&mut self) -> Result<Arc<str>, PatternError> {
        let w = self.word();
        if w.is_empty() {
            return Err(self.error("expected a name"));
        }
        Ok(Arc::from(w))
    }

    fn node(&mut self) -> Result<PNode, PatternError> {
        self.skip_ws();
        match self.peek() {
            Some('?') => {
                self.pos += 1;
                Ok(PNode::Var(self.ident()?))
            }
            Some('(') => {
                self.pos += 1;
                self.op().map(|op| PNode::Op(Box::new(op)))
            }
            Some(c) if c.is_ascii_digit() || c == '-' => {
                let w = self.word().to_string();
                w.parse::<f64>()
                    .map(PNode::Lit)
                    .map_err(|_| self.error(format!("bad number {w}")))
            }
            _ => Err(self.error("expected ?var, a number or (op ...)")),
        }
    }

    fn op(&mut self) -> Result<POp, PatternError> {
        self.skip_ws();
        let spec = if self.peek() == Some('@') {
            self.pos += 1;
            OpSpec::Label(self.ident()?)
        } else {
            let w = self.word().to_string();
            parse_spec(&w).map_err(|m| self.error(m))?
        };
        let label = if self.eat('@') {
            Some(self.ident()?)
        } else {
            None
        };
        let mut attrs = vec![];
        if self.eat('[') {
            loop {
                if self.eat(']') {
                    break;
                }
                if self.eat('@') {
                    attrs.push(PAttr::Splice(self.ident()?));
                } else {
                    let name = self.ident()?.to_string();
                    self.expect('=')?;
                    self.skip_ws();
                    if self.eat('?') {
                        attrs.push(PAttr::Bind(name, self.ident()?));
                    } else {
                        attrs.push(PAttr::Eq(name, self.literal()?));
                    }
                }
                if !self.eat(',') {
                    self.expect(']')?;
                    break;
                }
            }
        }
        let mut children = vec![];
        while !self.eat(')') {
            if self.peek().is_none() {
                return Err(self.error("unclosed '('"));
            }
            children.push(self.node()?);
        }
        Ok(POp {
            spec,
            label,
            attrs,
            children,
        })
    }

    fn literal(&mut self) -> Result<Attr, PatternError> {
        self.skip_ws();
        if self.eat('"') {
            let start = self.pos;
            while self.peek().is_some_and(|c| c != '"') {
                self.pos += 1;
            }
            let s = self.text[start..self.pos].to_string();
            self.expect('"')?;
            return Ok(Attr::str(&s));
        }
        if self.eat('[') {
            let mut items = vec![];
            while !self.eat(']') {
                let w = self.word().to_string();
                items.push(w);
                if !self.eat(',') {
                    self.expect(']')?;
                    break;
                }
            }
            if items.iter().all(|w| w.parse::<i64>().is_ok()) {
                return Ok(Attr::Ints(
                    items.iter().map(|w| w.parse().expect("checked")).collect(),
                ));
            }
            let floats: Result<Vec<f32>, _> = items.iter().map(|w| w.parse::<f32>()).collect();
            return floats.map(Attr::Floats).map_err(|_| self.error("bad list"));
        }
        let w = self.word().to_string();
        if let Ok(i) = w.parse::<i64>() {
            return Ok(Attr::Int(i));
        }
        w.parse::<f32>()
            .map(Attr::Float)
            .map_err(|_| self.error(format!("bad attribute value {w}")))
    }
}

fn parse_spec(word: &str) -> Result<OpSpec, String> {
    if let Some(i) = word.strip_prefix("get.") {
        return i
            .parse()
            .map(OpSpec::Get)
            .map_err(|_| format!("bad projection {word}"));
    }
    let kinds = word
        .split('|')
        .map(|name| {
            let (domain, op) = match name.split_once('.') {
                Some((prefix, op)) => (
                    Domain::from_text_prefix(prefix).ok_or(format!("unknown domain {prefix}"))?,
                    op,
                ),
                None => (Domain::Onnx, name),
            };
            OpKind::from_name(domain, op).ok_or(format!("unknown op {name}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(OpSpec::Kinds(kinds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reports_errors() {
        let p = Pattern::parse("(Transpose[perm=?p] (Transpose[perm=[0, 2, 1, 3]] ?x))").unwrap();
        assert_eq!(
            p.bound_names().iter().map(|s| &**s).collect::<Vec<_>>(),
            ["p", "x"]
        );
        let q = Pattern::parse("(omlc.FusedConv[@c, activation=\"Relu\"] ?x ?w ?b)").unwrap();
        assert!(q.is_buildable());
        assert_eq!(
            q.used_names().iter().map(|s| &**s).collect::<Vec<_>>(),
            ["c", "x", "w", "b"]
        );
        assert!(!Pattern::parse("(Add ?x 0)").unwrap().is_buildable());
        let e = Pattern::parse("(Frobnicate ?x)").unwrap_err();
        assert!(e.message.contains("unknown op Frobnicate"), "{e}");
        assert!(Pattern::parse("(Add ?x")
            .unwrap_err()
            .message
            .contains("unclosed"));
        assert!(Pattern::parse("(Relu|Sigmoid@u ?x) junk").is_err());
    }
}
