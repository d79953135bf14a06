//! The `dce` pass: removes ops whose results are never used.
//!
//! ONNX ops have no side effects (random ops included: an unused sample is
//! not observable), so an op is live exactly when one of its results is
//! needed by a graph output, transitively through the inputs of live ops
//! and the outputs of the subgraphs of live ops (which may read values of
//! enclosing graphs). Everything else goes, including the `Constant`s and
//! initializers that only fed removed ops, except initializers a training
//! binding names (they are state the training graphs update).

use std::collections::HashSet;

use crate::error::Result;
use crate::ir::{Model, OpId, RegionId, Value, ValueDef};

/// Removes every op none of whose results is live.
pub fn dce(model: &mut Model) -> Result<()> {
    let ir = &model.ir;
    let mut roots: Vec<Value> = vec![];
    for region in model.top_regions() {
        roots.extend(ir.region(region).outputs.iter().map(|o| o.value));
    }
    let bound: HashSet<&str> = model
        .training_info
        .iter()
        .flat_map(|t| t.initialization_binding.iter().chain(&t.update_binding))
        .map(|(initializer, _)| initializer.as_str())
        .collect();
    if !bound.is_empty() {
        for &op in &ir.region(model.graph).ops {
            let results = ir.op(op).results.iter().flatten();
            roots.extend(results.filter(|v| {
                ir.value(**v)
                    .name
                    .as_deref()
                    .is_some_and(|n| bound.contains(n))
            }));
        }
    }
    let mut live_values: HashSet<Value> = HashSet::new();
    let mut live_ops: HashSet<OpId> = HashSet::new();
    while let Some(v) = roots.pop() {
        if !live_values.insert(v) {
            continue;
        }
        let ValueDef::Result(op, _) = ir.value(v).def else {
            continue;
        };
        if live_ops.insert(op) {
            let data = ir.op(op);
            roots.extend(data.inputs.iter().flatten());
            for region in data.attrs.regions() {
                roots.extend(ir.region(region).outputs.iter().map(|o| o.value));
            }
        }
    }
    let regions: Vec<RegionId> = model
        .top_regions()
        .into_iter()
        .flat_map(|r| ir.regions_within(r))
        .collect();
    for region in regions {
        model
            .ir
            .region_mut(region)
            .ops
            .retain(|op| live_ops.contains(op));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::Attr;
    use crate::ir::{NewOp, RegionParent};
    use crate::ops::testing::{t, Graph};
    use crate::schema::OpKind::{self, *};
    use crate::types::Type;

    fn kinds(g: &Graph, region: RegionId) -> Vec<OpKind> {
        g.model
            .ir
            .region(region)
            .ops
            .iter()
            .map(|&o| g.model.ir.op(o).kind)
            .collect()
    }

    #[test]
    fn unused_chains_and_their_constants_go() {
        let mut g = Graph::new(17);
        let x = g.input(t("2x3xf32"));
        let used = g.op(Relu, &[x], &[], 1)[0];
        let k = g.ints(&[0]);
        let dead = g.op(Unsqueeze, &[x, k], &[], 1)[0];
        g.op(Neg, &[dead], &[], 1);
        let graph = g.model.graph;
        g.model.ir.add_output(graph, "y", used);
        dce(&mut g.model).unwrap();
        assert_eq!(kinds(&g, graph), vec![Relu]);
    }

    #[test]
    fn subgraph_uses_keep_outer_values_alive() {
        let mut g = Graph::new(17);
        let graph = g.model.graph;
        let cond = g.input(t("i1"));
        let outer = g.ints(&[7]);
        g.ints(&[8]);
        // An If whose branches both return the outer constant.
        let mut branches = vec![];
        for name in ["then", "else"] {
            let region = g.model.ir.new_region(name, RegionParent::Top);
            let inner = NewOp {
                kind: Identity,
                version: 16,
                inputs: vec![Some(outer)],
                results: vec![Some((None, Type::Unknown))],
                attrs: Default::default(),
                name: String::new(),
            };
            let op = g.model.ir.append_op(region, inner);
            let v = g.model.ir.op(op).results[0].unwrap();
            g.model.ir.add_output(region, "r", v);
            branches.push(region);
        }
        let attrs = [
            ("then_branch", Attr::Graph(branches[0])),
            ("else_branch", Attr::Graph(branches[1])),
        ];
        let out = g.op(If, &[cond], &attrs, 1)[0];
        let ValueDef::Result(if_op, _) = g.model.ir.value(out).def else {
            unreachable!()
        };
        for &b in &branches {
            g.model.ir.region_mut(b).parent = RegionParent::Op(if_op);
        }
        g.model.ir.add_output(graph, "out", out);
        dce(&mut g.model).unwrap();
        assert_eq!(kinds(&g, graph), vec![Constant, If]);
        assert_eq!(kinds(&g, branches[0]), vec![Identity]);
    }
}
