//! The `fold-shapes` pass: ops whose results inference knows completely
//! become `Constant`s.
//!
//! Exported models compute shapes at run time (`Shape → Gather → Concat →
//! Reshape`); inference already knows those values when the input shapes
//! are static. Replacing the producing ops by constants leaves the IR with
//! static shape operands, which is what the lowering needs, and the dead
//! shape arithmetic is then removed by `dce`. Results keep their names and
//! types, so graph outputs and later references are unchanged.

use crate::attr::{Attr, Attrs};
use crate::error::Result;
use crate::infer::infer_model;
use crate::ir::{Ir, Model, NewOp, OpId, RegionId, Value};
use crate::ops::knowledge::SymTensor;
use crate::schema::{Domain, OpKind};
use crate::tensor::TensorData;
use crate::types::{ElemType, Type};

/// Runs inference and replaces every non-`Constant` op whose results all
/// have fully known integer values by one `Constant` per result.
pub fn fold_shapes(model: &mut Model) -> Result<()> {
    let knowledge = infer_model(model)?;
    // The folded constants use the `Constant` of the model's ai.onnx opset
    // (which before opset 9 holds floating-point tensors only).
    let Some(constant) = model
        .opset(Domain::Onnx)
        .and_then(|v| OpKind::Constant.schema(v))
    else {
        return Ok(());
    };
    let regions: Vec<RegionId> = model
        .top_regions()
        .into_iter()
        .flat_map(|r| model.ir.regions_within(r))
        .collect();
    for region in regions {
        for op in model.ir.region(region).ops.clone() {
            let d = model.ir.op(op);
            if d.kind == OpKind::Constant {
                continue;
            }
            let results: Vec<Value> = d.results.iter().flatten().copied().collect();
            let data: Option<Vec<TensorData>> = results
                .iter()
                .map(|v| {
                    let ty = model.ir.ty(*v);
                    constant.output_allows(0, ty).then_some(())?;
                    constant_data(ty, knowledge.values.get(v)?)
                })
                .collect();
            if let (false, Some(data)) = (results.is_empty(), data) {
                replace_by_constants(
                    &mut model.ir,
                    region,
                    op,
                    &results,
                    data,
                    constant.since_version,
                );
            }
        }
    }
    Ok(())
}

/// The tensor a known value stands for, when the value is fully static
/// and of the result's (integer or bool) type.
fn constant_data(ty: &Type, value: &SymTensor) -> Option<TensorData> {
    let t = ty.as_tensor()?;
    if t.static_dims()? != value.dims {
        return None;
    }
    let elems = value.as_known()?;
    let data = match t.elem {
        ElemType::I64 => TensorData::from_vec(value.dims.clone(), &elems),
        ElemType::I32 => {
            let narrow: Option<Vec<i32>> = elems.iter().map(|&e| i32::try_from(e).ok()).collect();
            TensorData::from_vec(value.dims.clone(), &narrow?)
        }
        ElemType::Bool => {
            let bytes: Vec<u8> = elems.iter().map(|&e| u8::from(e != 0)).collect();
            TensorData::from_raw(ElemType::Bool, value.dims.clone(), bytes.into())
        }
        _ => return None,
    };
    data.ok()
}

/// Inserts a `Constant` for each result of `op` where `op` stood, moves
/// every use (and the result's name and metadata) to it, and detaches `op`.
fn replace_by_constants(
    ir: &mut Ir,
    region: RegionId,
    op: OpId,
    results: &[Value],
    data: Vec<TensorData>,
    version: u32,
) {
    let position = ir
        .region(region)
        .ops
        .iter()
        .position(|&o| o == op)
        .expect("op is in its region");
    let node = ir.op(op).name.clone();
    for (i, (&old, data)) in results.iter().zip(data).enumerate() {
        let name = if results.len() == 1 || node.is_empty() {
            node.clone()
        } else {
            format!("{node}/{i}")
        };
        let value = ir.value(old).clone();
        let new = NewOp {
            kind: OpKind::Constant,
            version,
            inputs: vec![],
            results: vec![Some((value.name.clone(), value.ty.clone()))],
            attrs: Attrs(vec![("value".to_string(), Attr::Tensor(data))]),
            name,
        };
        let constant = ir.insert_op(region, position + i, new);
        let fresh = ir.op(constant).results[0].expect("a Constant has its result");
        ir.value_mut(fresh).meta = value.meta;
        ir.replace_uses(region, old, fresh);
        // The detached result gives its name up so that names stay unique.
        ir.value_mut(old).name = None;
    }
    ir.detach_op(op);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ValueDef;
    use crate::ops::testing::{int, t, Graph};
    use OpKind::*;

    /// The op defining `v`.
    fn def(ir: &Ir, v: Value) -> OpId {
        match ir.value(v).def {
            ValueDef::Result(op, _) => op,
            ValueDef::Arg(..) => panic!("{v:?} is an argument"),
        }
    }

    #[test]
    fn shape_chain_becomes_constants() {
        let mut g = Graph::new(17);
        let x = g.input(t("2x3x4xf32"));
        let s = g.op(Shape, &[x], &[], 1)[0];
        let zero = g.constant(TensorData::scalar(0i64));
        let d0 = g.op(Gather, &[s, zero], &[("axis", int(0))], 1)[0];
        let axes = g.ints(&[0]);
        let u = g.op(Unsqueeze, &[d0, axes], &[], 1)[0];
        let minus_one = g.ints(&[-1]);
        let shape = g.op(Concat, &[u, minus_one], &[("axis", int(0))], 1)[0];
        let y = g.op(Reshape, &[x, shape], &[], 1)[0];
        let graph = g.model.graph;
        g.model.ir.add_output(graph, "y", y);
        let shape_name = g.model.ir.value(shape).name.clone();
        fold_shapes(&mut g.model).unwrap();
        let ir = &g.model.ir;
        let reshape = def(ir, ir.region(graph).outputs[0].value);
        assert_eq!(ir.op(reshape).kind, Reshape);
        let folded = ir.op(reshape).inputs[1].unwrap();
        assert_eq!(ir.op(def(ir, folded)).kind, Constant);
        assert_eq!(
            ir.op(def(ir, folded))
                .attrs
                .tensor("value")
                .unwrap()
                .to_i64s(),
            Some(vec![2, -1])
        );
        assert_eq!(ir.value(folded).name, shape_name);
        assert_eq!(*ir.ty(folded), t("2xi64"));
        // Shape, Gather, Unsqueeze and Concat are constants now; only Reshape computes.
        let kinds: Vec<OpKind> = ir
            .region(graph)
            .ops
            .iter()
            .map(|&o| ir.op(o).kind)
            .collect();
        assert_eq!(
            kinds.iter().filter(|k| **k != Constant).count(),
            1,
            "{kinds:?}"
        );
    }

    #[test]
    fn every_result_of_a_multi_result_op_is_folded_and_outputs_follow() {
        let mut g = Graph::new(18);
        let v = g.ints(&[1, 2, 3, 4]);
        let parts = g.op(Split, &[v], &[("num_outputs", int(2))], 2);
        let graph = g.model.graph;
        g.model.ir.add_output(graph, "a", parts[0]);
        g.model.ir.add_output(graph, "b", parts[1]);
        fold_shapes(&mut g.model).unwrap();
        let ir = &g.model.ir;
        let outs: Vec<Vec<i64>> = ir
            .region(graph)
            .outputs
            .iter()
            .map(|o| {
                ir.op(def(ir, o.value))
                    .attrs
                    .tensor("value")
                    .unwrap()
                    .to_i64s()
                    .unwrap()
            })
            .collect();
        assert_eq!(outs, vec![vec![1, 2], vec![3, 4]]);
        assert!(ir
            .region(graph)
            .ops
            .iter()
            .all(|&o| ir.op(o).kind == Constant));
    }

    #[test]
    fn nothing_folds_where_constant_cannot_hold_integers() {
        let mut g = Graph::new(8);
        let x = g.input(t("2x3xf32"));
        let s = g.op(Shape, &[x], &[], 1)[0];
        let graph = g.model.graph;
        g.model.ir.add_output(graph, "s", s);
        fold_shapes(&mut g.model).unwrap();
        let ir = &g.model.ir;
        assert_eq!(
            ir.op(def(ir, ir.region(graph).outputs[0].value)).kind,
            Shape
        );
    }

    #[test]
    fn values_an_op_stops_producing_are_forgotten() {
        // As when a loop body is inferred again with a wider carried type.
        let mut g = Graph::new(17);
        let x = g.input(t("2x3xf32"));
        let s = g.op(Shape, &[x], &[], 1)[0];
        let mut knowledge = g.infer().unwrap();
        assert!(knowledge.values.contains_key(&s));
        g.model.ir.value_mut(x).ty = t("*xf32");
        let op = def(&g.model.ir, s);
        crate::infer::infer_op(&mut g.model.ir, op, &mut knowledge).unwrap();
        assert!(!knowledge.values.contains_key(&s));
    }

    #[test]
    fn bool_results_fold_and_float_ones_do_not() {
        let mut g = Graph::new(17);
        let a = g.ints(&[1, 5]);
        let b = g.ints(&[3, 3]);
        let less = g.op(Less, &[a, b], &[], 1)[0];
        let x = g.input(t("2xf32"));
        let relu = g.op(Relu, &[x], &[], 1)[0];
        let graph = g.model.graph;
        g.model.ir.add_output(graph, "less", less);
        g.model.ir.add_output(graph, "relu", relu);
        fold_shapes(&mut g.model).unwrap();
        let ir = &g.model.ir;
        let [less, relu] = [0, 1].map(|i| def(ir, ir.region(graph).outputs[i].value));
        let data = ir.op(less).attrs.tensor("value").unwrap();
        assert_eq!(
            (data.elem, data.to_i64s()),
            (ElemType::Bool, Some(vec![1, 0]))
        );
        assert_eq!(ir.op(relu).kind, Relu);
    }
}
