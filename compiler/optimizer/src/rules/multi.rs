//! Multi-pattern rules (TENSAT's best-paying family): ops that share an
//! input and differ only in their constant weights — the Q, K and V
//! projections of attention, the branches of an Inception block — become
//! one op on concatenated weights whose result is split again.
//!
//! A multi-pattern has several roots, which egg's patterns cannot say, so
//! these rules have their own search: group the candidate ops by shared
//! input and operator, and merge each group of two or more at once. The
//! extraction keeps the merged form only where the cost model says one
//! big op and a split beat the separate ops.

use std::collections::BTreeMap;

use egg::Id;
use onnx_mlc_dialect::{Attr, OpKind, TensorData};

use super::util::{is_absent, static_dims_of, tensor_of, Builder};
use super::Rule;
use crate::analysis::OGraph;
use crate::eval::from_f64;
use crate::lang::{ONode, OpKey};
use crate::pattern::{Bound, Match};

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // x·W₁ + b₁, …, x·Wₙ + bₙ = Split(x·[W₁ … Wₙ] + [b₁ … bₙ])   (constant weights)
        Rule::custom(
            "matmul-merge",
            |eg, limit| search(eg, limit, &MATMUL),
            |b, m| merge(b, m, &MATMUL),
        ),
        // conv(x, W₁, b₁), …, conv(x, Wₙ, bₙ) = Split(conv(x, [W₁; …; Wₙ], [b₁; …; bₙ]))   (same window)
        Rule::custom(
            "conv-merge",
            |eg, limit| search(eg, limit, &CONV),
            |b, m| merge(b, m, &CONV),
        ),
    ]
}

/// How one family of ops merges.
struct Family {
    kinds: &'static [OpKind],
    /// The weights' axis holding the output features.
    weight_axis: usize,
    /// The weights' rank.
    weight_rank: usize,
    /// Inputs an op may have and still merge (the rest must be absent).
    operands: usize,
}

const MATMUL: Family = Family {
    kinds: &[OpKind::MatMul, OpKind::FusedMatMul],
    weight_axis: 1,
    weight_rank: 2,
    operands: 3,
};
const CONV: Family = Family {
    kinds: &[OpKind::Conv, OpKind::FusedConv],
    weight_axis: 0,
    weight_rank: 4,
    operands: 3,
};

/// One op of a group.
struct Member {
    class: Id,
    weight: Id,
    bias: Option<Id>,
    features: i64,
}

fn member(eg: &OGraph, class: Id, node: &ONode, family: &Family) -> Option<(Id, Member)> {
    let key = node.key()?;
    let ops = node.operands();
    if ops.len() > family.operands && ops[family.operands..].iter().any(|&c| !is_absent(eg, c)) {
        return None;
    }
    if key.kind == OpKind::FusedConv && key.int("group").unwrap_or(1) != 1
        || key.kind == OpKind::Conv && key.int("group").unwrap_or(1) != 1
    {
        return None;
    }
    let (x, w) = (*ops.first()?, *ops.get(1)?);
    let wd = static_dims_of(eg, w)?;
    eg[w].data.constant?;
    if wd.len() != family.weight_rank {
        return None;
    }
    let features = wd[family.weight_axis];
    let bias = match ops.get(2) {
        Some(&b) if !is_absent(eg, b) => {
            (static_dims_of(eg, b)? == [features] && eg[b].data.constant.is_some()).then_some(b)?;
            Some(b)
        }
        _ => None,
    };
    Some((
        x,
        Member {
            class,
            weight: w,
            bias,
            features,
        },
    ))
}

/// Groups of ops sharing input and operator (activation, window,
/// weight shape apart from the feature axis).
fn search(eg: &OGraph, limit: usize, family: &Family) -> Vec<Match> {
    // Results of earlier merges (the operands of Splits) never merge again.
    let split: Vec<Id> = eg
        .classes_for_op(&crate::lang::Discriminant::Op(OpKind::Split))
        .into_iter()
        .flatten()
        .flat_map(|c| {
            eg[c]
                .nodes
                .iter()
                .filter_map(|n| n.operands().first().map(|&x| eg.find(x)))
        })
        .collect();
    let mut groups: BTreeMap<(Id, OpKey, Vec<i64>), Vec<Member>> = BTreeMap::new();
    for &kind in family.kinds {
        let Some(classes) = eg.classes_for_op(&crate::lang::Discriminant::Op(kind)) else {
            continue;
        };
        let mut classes: Vec<Id> = classes.collect();
        classes.sort_unstable();
        for class in classes {
            for node in &eg[class].nodes {
                let ONode::Op(key, _) = node else { continue };
                if key.kind != kind || key.is_tuple() {
                    continue;
                }
                if split.contains(&class) {
                    continue;
                }
                let Some((x, m)) = member(eg, class, node, family) else {
                    continue;
                };
                let mut shape = static_dims_of(eg, m.weight).unwrap_or_default();
                shape[family.weight_axis] = 0;
                let group = groups
                    .entry((eg.find(x), (**key).clone(), shape))
                    .or_default();
                if !group.iter().any(|g| g.class == class) {
                    group.push(m);
                }
            }
        }
    }
    let Some(absent) = eg.lookup(ONode::Absent) else {
        return vec![];
    };
    let mut out = vec![];
    for ((x, _, _), members) in groups {
        // A member that another member is computed from (a Conv and the
        // same Conv with folded weights, say) is one op, not two parallel
        // ones: keep the most derived form.
        let classes: Vec<Id> = members.iter().map(|m| eg.find(m.class)).collect();
        let derived_from: Vec<Id> = classes
            .iter()
            .flat_map(|&c| {
                eg[c]
                    .nodes
                    .iter()
                    .flat_map(|n| n.operands().iter().map(|&o| eg.find(o)))
            })
            .filter(|o| classes.contains(o))
            .collect();
        let members: Vec<Member> = members
            .into_iter()
            .filter(|m| !derived_from.contains(&eg.find(m.class)))
            .collect();
        let merged_already = members.iter().all(|m| {
            eg[m.class]
                .nodes
                .iter()
                .any(|n| matches!(n, ONode::Get(..)))
        });
        if members.len() < 2 || merged_already {
            continue;
        }
        let mut binds = vec![
            ("x", Bound::Class(x)),
            ("n", Bound::Attr(Some(Attr::Int(members.len() as i64)))),
        ];
        let names: Vec<(String, String, String, String)> = (0..members.len())
            .map(|i| {
                (
                    format!("c{i}"),
                    format!("w{i}"),
                    format!("b{i}"),
                    format!("f{i}"),
                )
            })
            .collect();
        for (m, (c, w, b, f)) in members.iter().zip(&names) {
            binds.push((c, Bound::Class(m.class)));
            binds.push((w, Bound::Class(m.weight)));
            binds.push((b, Bound::Class(m.bias.unwrap_or(absent))));
            binds.push((f, Bound::Attr(Some(Attr::Int(m.features)))));
        }
        let first = members[0].class;
        let node = eg[first]
            .nodes
            .iter()
            .find(|n| n.key().is_some_and(|k| family.kinds.contains(&k.kind)))
            .cloned();
        let Some(node) = node else { continue };
        binds.push(("op", Bound::Node(node)));
        out.push(Match::new(first, binds));
        if out.len() >= limit {
            break;
        }
    }
    out
}

fn int(m: &Match, name: &str) -> Option<i64> {
    match m.attr(name) {
        Some(Attr::Int(v)) => Some(*v),
        _ => None,
    }
}

fn merge(b: &mut Builder, m: &Match, family: &Family) -> Option<Id> {
    let n = int(m, "n")? as usize;
    let x = m.class("?x");
    let weights: Vec<Id> = (0..n).map(|i| m.class(&format!("w{i}"))).collect();
    let features: Vec<i64> = (0..n)
        .map(|i| int(m, &format!("f{i}")))
        .collect::<Option<_>>()?;
    let biases: Vec<Option<Id>> = (0..n)
        .map(|i| Some(m.class(&format!("b{i}"))).filter(|&c| !is_absent(b.graph(), c)))
        .collect();
    let axis = family.weight_axis as i64;
    let w = concat(b, &weights, axis)?;
    let bias = if biases.iter().all(Option::is_none) {
        b.absent()
    } else {
        let elem = tensor_of(b.graph(), weights[0])?.elem;
        let mut parts = vec![];
        for (bias, &f) in biases.iter().zip(&features) {
            parts.push(match bias {
                Some(id) => *id,
                None => b.add_constant(from_f64(elem, vec![f], &vec![0.0; f as usize])?),
            });
        }
        concat(b, &parts, 0)?
    };
    let key = m.key("@op").clone();
    let mut operands = vec![x, w];
    if !is_absent(b.graph(), bias) {
        operands.push(bias);
    }
    let merged = b.op_key(key, &operands);
    let split_axis = if family.weight_axis == 0 { 1 } else { -1 };
    let version = b.graph().analysis.version_of(OpKind::Split)?;
    let mut attrs = onnx_mlc_dialect::Attrs(vec![("axis".into(), Attr::Int(split_axis))]);
    let sizes = b.add_constant(TensorData::i64s(&features));
    let children = if version >= 13 {
        vec![merged, sizes]
    } else {
        attrs.set("split", Attr::Ints(features.clone()));
        vec![merged]
    };
    let split = b.op_key(
        OpKey::new(OpKind::Split, version, attrs, vec![true; n].into()),
        &children,
    );
    for i in 0..n {
        let part = b.get(i as u32, split);
        b.union(m.class(&format!("c{i}")), part);
    }
    Some(m.root)
}

/// A folded concatenation of constants.
fn concat(b: &mut Builder, parts: &[Id], axis: i64) -> Option<Id> {
    let id = b.op(OpKind::Concat, vec![("axis", Attr::Int(axis))], parts)?;
    b.graph()[id].data.constant.is_some().then_some(id)
}
