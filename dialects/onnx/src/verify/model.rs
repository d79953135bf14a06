//! Model-level rules: `ir-version`, `opset-import`, `io-type` and
//! `training-binding`.

use std::collections::{HashMap, HashSet};

use super::cx::{fail, Check, Cx};
use crate::error::Rule;
use crate::ir::{Model, RegionId, TrainingInfo, IR_VERSION};
use crate::schema::{Domain, OpKind};
use crate::types::Type;

/// `ir-version` and `opset-import`.
///
/// The IR version is one this dialect knows (1 to [`IR_VERSION`]);
/// from IR version 3 on a model imports its opsets explicitly, before that
/// it may not ("model with IR version >= 3 must specify opset_import",
/// "model with IR version < 3 cannot have opset_import specified", as
/// `onnx.checker` puts it). Each domain is imported once (`""` and
/// `"ai.onnx"` are the same domain), at a positive version: a second
/// import of a domain would make the version of its ops ambiguous.
pub(super) fn check_header(model: &Model) -> Check {
    let v = model.ir_version;
    if !(1..=IR_VERSION).contains(&v) {
        return Err(fail(
            Rule::IrVersion,
            "model",
            format!(
                "ir_version {v} is not an IR version this compiler knows (1 to {})",
                IR_VERSION
            ),
        ));
    }
    match (v >= 3, model.opset_imports.is_empty()) {
        (true, true) => {
            return Err(fail(
                Rule::IrVersion,
                "model",
                format!("a model of IR version {v} must import its opsets"),
            ))
        }
        (false, false) => {
            return Err(fail(
                Rule::IrVersion,
                "model",
                format!("a model of IR version {v} cannot import opsets"),
            ))
        }
        _ => {}
    }
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for import in &model.opset_imports {
        let key = Domain::from_name(&import.domain).map_or(import.domain.as_str(), |d| d.name());
        if import.version < 1 {
            return Err(fail(
                Rule::OpsetImport,
                "model",
                format!(
                    "domain \"{}\" is imported at version {}; versions start at 1",
                    import.domain, import.version
                ),
            ));
        }
        if let Some(first) = seen.insert(key, &import.domain) {
            return Err(fail(
                Rule::OpsetImport,
                "model",
                format!(
                    "domain \"{}\" is imported twice (also as \"{first}\")",
                    import.domain
                ),
            ));
        }
    }
    Ok(())
}

/// `io-type`: "Each main (top-level) graph MUST define the names, types
/// and shapes of its inputs and outputs … The main graph inputs and
/// outputs are required to have a shape, indicating the rank, even though
/// the exact dimensions need not be specified." A tensor needs its rank; a
/// sequence, optional or map needs its element type (as in
/// `onnx.checker`'s `check_value_info`; the tensors inside may be of any
/// rank). Subgraph and training graph types are optional. Without
/// `outputs_need_rank`, an output only needs to be a tensor of known
/// element type (see [`super::verify_imported_model`]).
pub(super) fn check_io_types(cx: &Cx, outputs_need_rank: bool) -> Check {
    let graph = cx.model.graph;
    let region = cx.ir.region(graph);
    let args = region.args.iter().map(|a| ("input", a.value));
    let outputs = region.outputs.iter().map(|o| ("output", o.value));
    for (i, (what, v)) in args.enumerate().chain(outputs.enumerate()) {
        let need_rank = outputs_need_rank || what == "input";
        let problem = match cx.ir.ty(v) {
            Type::Unknown => "has no type",
            Type::Tensor(t) | Type::SparseTensor(t) if need_rank && t.shape.is_none() => {
                "has no rank"
            }
            Type::Sequence(t) | Type::Optional(t) | Type::Map(_, t) if **t == Type::Unknown => {
                "has no element type"
            }
            _ => continue,
        };
        return Err(fail(
            Rule::IoType,
            format!("{} {what} {i} ({})", cx.graph_at(graph), cx.value(v)),
            format!("{problem}; the main graph's inputs and outputs need a type with a rank"),
        ));
    }
    Ok(())
}

/// `training-binding`: "Each name specified as a key in the binding MUST
/// be the name of an initializer that appears in the main inference graph
/// … or … in TrainingInfoProto.algorithm.initializer. Each name specified
/// as a value in the binding MUST be the name of an output of the
/// TrainingInfoProto.initialization graph [resp. algorithm]. Key values
/// specified in the repeated initialization_binding field MUST be unique."
/// An initialization graph "has no input" and may be omitted "only if
/// there are no initialization_bindings".
///
/// Initializers are `Constant` ops of the graph (or defaults of its
/// inputs), so a `Constant` node of the main or algorithm graph also
/// counts as one.
pub(super) fn check_training(cx: &Cx) -> Check {
    for (k, t) in cx.model.training_info.iter().enumerate() {
        let at = format!("training_info {k}");
        check_info(cx, t).map_err(|m| fail(Rule::TrainingBinding, at, m))?;
    }
    Ok(())
}

fn check_info(cx: &Cx, t: &TrainingInfo) -> Result<(), String> {
    let initializers: HashSet<&str> = [cx.model.graph, t.algorithm]
        .into_iter()
        .flat_map(|r| initializer_names(cx, r))
        .collect();
    let bindings = [
        (
            "initialization_binding",
            &t.initialization_binding,
            t.initialization,
        ),
        ("update_binding", &t.update_binding, Some(t.algorithm)),
    ];
    for (field, binding, graph) in bindings {
        let outputs: HashSet<&str> = match graph {
            Some(g) => cx
                .ir
                .region(g)
                .outputs
                .iter()
                .map(|o| o.name.as_str())
                .collect(),
            None if binding.is_empty() => continue,
            None => return Err(format!("has an {field} but no initialization graph")),
        };
        let mut keys = HashSet::new();
        for (key, value) in binding {
            if !keys.insert(key) {
                return Err(format!("{field} binds \"{key}\" twice"));
            }
            if !initializers.contains(key.as_str()) {
                return Err(format!(
                    "{field} binds \"{key}\", which is not an initializer of the main or algorithm \
                     graph"
                ));
            }
            if !outputs.contains(value.as_str()) {
                let g = graph.expect("graphs without bindings were skipped");
                return Err(format!(
                    "{field} binds \"{key}\" to \"{value}\", which is not an output of {}",
                    cx.graph_at(g)
                ));
            }
        }
    }
    if let Some(init) = t.initialization {
        let n = cx.ir.region(init).args.len();
        if n > 0 {
            return Err(format!(
                "the initialization graph takes {n} inputs; it must take none"
            ));
        }
    }
    Ok(())
}

/// The names of a top-level graph's initializers: its `Constant` ops and
/// its inputs with a default value.
fn initializer_names<'m>(cx: &Cx<'m>, region: RegionId) -> impl Iterator<Item = &'m str> {
    let ir = cx.ir;
    let data = ir.region(region);
    let defaults = data
        .args
        .iter()
        .filter(|a| a.default.is_some())
        .map(|a| a.value);
    let constants = data
        .ops
        .iter()
        .filter(|&&op| ir.op(op).kind == OpKind::Constant)
        .filter_map(|&op| ir.op(op).results.first().copied().flatten());
    defaults
        .chain(constants)
        .filter_map(|v| ir.value(v).name.as_deref())
}
