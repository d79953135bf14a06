//! Shape and type inference against the ONNX backend node tests: every
//! `node/<case>/model.onnx` is imported, its graph outputs' declared types
//! are forgotten, `infer-shapes` runs, and each output's inferred type is
//! compared with the expected output tensor of `test_data_set_0` (the
//! reference implementation's result).
//!
//! Each case runs three times: inference as given (graph inputs known only by their types),
//! and with every small input (at most `MAX_TRACKED_ELEMS` elements)
//! replaced by a constant holding its test data. The backend tests pass
//! shape operands, axes, scales and sizes as graph inputs; real models
//! have them as initializers or compute them from shapes, so the second
//! run is the one that exercises what inference does with known operands
//! and propagated values. The third run does the same through the whole
//! default pipeline: folding and dead code removal must keep the model
//! valid (the closing `verify` checks it) and its outputs' types right.
//!
//! An output is *exact* when the inferred type equals the expected one,
//! *partial* when it is compatible (same element type, rank, and every
//! static dim) but some dims or the rank are unknown, and a *mismatch*
//! otherwise. Mismatches and compile errors fail the suite; partial
//! results are reported, per op, as what inference could not know.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use onnx_mlc_dialect::infer::{infer_model, MAX_TRACKED_ELEMS};
use onnx_mlc_dialect::ir::NewOp;
use onnx_mlc_dialect::passes::{self, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Attr, Attrs, Dim, Model, OpKind, TensorData, Type};
use onnx_mlc_import::{load_model, read_value, ImportOptions, TestValue};
use onnx_mlc_tests::backend::{self, Case};

/// How one graph output compares with its expected value.
#[derive(Clone, Debug, PartialEq)]
enum Verdict {
    Exact,
    /// Compatible, with this many unknown (or symbolic) dims; `None` when
    /// the rank (or the whole type) is unknown.
    Partial(Option<usize>),
    Mismatch(String),
}

/// Compares an inferred type with an expected value.
fn judge(inferred: &Type, expected: &TestValue) -> Verdict {
    match (inferred, expected) {
        (Type::Unknown, _) => Verdict::Partial(None),
        (Type::Tensor(t), TestValue::Tensor(e)) => {
            if t.elem != e.elem {
                return Verdict::Mismatch(format!(
                    "element type {} but expected {}",
                    t.elem, e.elem
                ));
            }
            let Some(dims) = t.dims() else {
                return Verdict::Partial(None);
            };
            if dims.len() != e.dims.len() {
                return Verdict::Mismatch(format!("shape {inferred} but expected {:?}", e.dims));
            }
            let mut unknown = 0;
            for (d, &n) in dims.iter().zip(&e.dims) {
                match d {
                    Dim::Known(k) if *k != n => {
                        return Verdict::Mismatch(format!(
                            "shape {inferred} but expected {:?}",
                            e.dims
                        ));
                    }
                    Dim::Known(_) => {}
                    _ => unknown += 1,
                }
            }
            if unknown == 0 {
                Verdict::Exact
            } else {
                Verdict::Partial(Some(unknown))
            }
        }
        (Type::Sequence(elem), TestValue::Sequence(items)) => items
            .iter()
            .map(|v| judge(elem, v))
            .fold(Verdict::Exact, worse),
        (Type::Optional(inner), TestValue::Optional(v)) => {
            v.as_ref().map_or(Verdict::Exact, |v| judge(inner, v))
        }
        (Type::Map(_, v), TestValue::Map(pairs)) => pairs
            .iter()
            .map(|(_, x)| judge(v, x))
            .fold(Verdict::Exact, worse),
        (Type::SparseTensor(_), TestValue::SparseTensor(_)) => Verdict::Exact,
        _ => Verdict::Mismatch(format!("{inferred} for a value of another kind")),
    }
}

fn worse(a: Verdict, b: Verdict) -> Verdict {
    match (a, b) {
        (m @ Verdict::Mismatch(_), _) | (_, m @ Verdict::Mismatch(_)) => m,
        (Verdict::Partial(x), Verdict::Partial(y)) => {
            Verdict::Partial(x.zip(y).map(|(x, y)| x.max(y)))
        }
        (p @ Verdict::Partial(_), _) | (_, p @ Verdict::Partial(_)) => p,
        _ => Verdict::Exact,
    }
}

/// Counts per op (or per case group).
#[derive(Default)]
struct Tally {
    outputs: usize,
    exact: usize,
    partial: usize,
    unknown_dims: usize,
    unranked: usize,
    failures: Vec<String>,
}

/// What a case exercises: the op of a one-op node test; `(expanded)` for
/// function expansions and other multi-op node tests; `(<suite>)` for the
/// models of the other suites.
fn case_label(case: &Case, model: &Model) -> String {
    let ir = &model.ir;
    let ops: Vec<OpKind> = ir
        .region(model.graph)
        .ops
        .iter()
        .map(|&o| ir.op(o).kind)
        .collect();
    match ops.as_slice() {
        _ if case.suite != "node" => format!("({})", case.suite),
        [kind] => kind.name().to_string(),
        _ => "(expanded)".to_string(),
    }
}

/// Replaces each graph input whose test data is a small tensor (that a
/// `Constant` of the model's opset can hold) by a `Constant` of that data.
fn inline_small_inputs(model: &mut Model, case: &Case) -> Result<(), String> {
    let graph = model.graph;
    let args: Vec<_> = model
        .ir
        .region(graph)
        .args
        .iter()
        .map(|a| a.value)
        .collect();
    let Some(constant) = model
        .opset(onnx_mlc_dialect::Domain::Onnx)
        .and_then(|v| OpKind::Constant.schema(v))
    else {
        return Ok(());
    };
    for (k, arg) in args.into_iter().enumerate() {
        let path = value_path(case, "input", k);
        let ty = model.ir.ty(arg).clone();
        // (Before opset 9 a Constant holds floating-point tensors only.)
        let Some(data) =
            small_tensor(&path, &ty)?.filter(|d| constant.output_allows(0, &Type::Tensor(d.ty())))
        else {
            continue;
        };
        let name = model
            .ir
            .value(arg)
            .name
            .clone()
            .map(|n| format!("{n}.const"));
        let new = NewOp {
            kind: OpKind::Constant,
            version: constant.since_version,
            inputs: vec![],
            results: vec![Some((name, Type::Tensor(data.ty())))],
            attrs: Attrs(vec![("value".into(), Attr::Tensor(data))]),
            name: String::new(),
        };
        let op = model.ir.insert_op(graph, 0, new);
        let value = model.ir.op(op).results[0].expect("a Constant has a result");
        model.ir.replace_uses(graph, arg, value);
    }
    Ok(())
}

fn small_tensor(path: &Path, ty: &Type) -> Result<Option<TensorData>, String> {
    if !path.exists() || !matches!(ty, Type::Tensor(_)) {
        return Ok(None);
    }
    let value = read_value(path, ty).map_err(|e| e.to_string())?;
    Ok(value
        .as_tensor()
        .filter(|t| t.numel() <= MAX_TRACKED_ELEMS)
        .cloned())
}

/// How a case is run.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    /// Inference on the model as given.
    AsGiven,
    /// Inference with small inputs as constants.
    Constants,
    /// The whole default pipeline (verification, inference, folding, dead
    /// code removal) with small inputs as constants.
    Pipeline,
}

impl Mode {
    fn describe(self) -> &'static str {
        match self {
            Mode::AsGiven => "inference, inputs as given",
            Mode::Constants => "inference, small inputs as constants",
            Mode::Pipeline => "default pipeline, small inputs as constants",
        }
    }
}

/// Why a case produced no verdicts.
enum CaseError {
    /// The model or its data did not load (the import suite's business).
    Load,
    /// The verifier rejected the model before the pipeline transformed it
    /// (the verifier suite's business).
    Unverified,
    /// Inference or a pass rejected a valid model.
    Compile(String),
}

/// Sets the type of every op result but constants' to unknown.
fn forget_result_types(model: &mut Model) {
    for &op in &model.ir.region(model.graph).ops.clone() {
        if model.ir.op(op).kind == OpKind::Constant {
            continue;
        }
        for v in model.ir.op(op).results.clone().into_iter().flatten() {
            model.ir.value_mut(v).ty = Type::Unknown;
        }
    }
}

/// Runs one case; returns the op label and each output's verdict.
fn run_case(case: &Case, mode: Mode) -> Result<(String, Vec<(String, Verdict)>), CaseError> {
    let load = |_| CaseError::Load;
    let mut model = load_model(&case.model, &ImportOptions::default())
        .map_err(load)?
        .model;
    let label = case_label(case, &model);
    let outputs: Vec<(String, Type)> = {
        let region = model.ir.region(model.graph);
        region
            .outputs
            .iter()
            .map(|o| (o.name.clone(), model.ir.ty(o.value).clone()))
            .collect()
    };
    // Forget what the model declares about its outputs (and what the
    // importer took from value_info): the test is what inference finds.
    // The pipeline keeps them: inference must agree with them, and the
    // verifier requires the main graph's outputs to be typed.
    if mode != Mode::Pipeline {
        forget_result_types(&mut model);
    }
    if mode != Mode::AsGiven {
        inline_small_inputs(&mut model, case).map_err(|_| CaseError::Load)?;
    }
    if mode == Mode::Pipeline {
        for (i, name) in DEFAULT_PIPELINE.iter().enumerate() {
            let pass = passes::pass(name).expect("pipeline passes are registered");
            (pass.run)(&mut model).map_err(|e| match i {
                0 => CaseError::Unverified,
                _ => CaseError::Compile(format!("{name}: {e}")),
            })?;
        }
    } else {
        infer_model(&mut model).map_err(|e| CaseError::Compile(format!("infer-shapes: {e}")))?;
    }
    let region = model.ir.region(model.graph);
    let mut verdicts = vec![];
    for (k, (name, declared)) in outputs.iter().enumerate() {
        let path = value_path(case, "output", k);
        if !path.exists() {
            continue;
        }
        let expected = read_value(&path, declared).map_err(load)?;
        let inferred = model.ir.ty(region.outputs[k].value);
        verdicts.push((name.clone(), judge(inferred, &expected)));
    }
    Ok((label, verdicts))
}

/// Where test value `{kind}_{k}` of `case`'s first data set is (a missing
/// set gives a path that does not exist).
fn value_path(case: &Case, kind: &str, k: usize) -> PathBuf {
    match case.sets.first() {
        Some((folder, prefix)) => folder.join(format!("{prefix}{kind}_{k}.pb")),
        None => case
            .model
            .with_file_name(format!("no_test_data_{kind}_{k}.pb")),
    }
}

/// The suites with expected outputs (`real/` only names `light/` models).
fn cases(root: &Path) -> Vec<Case> {
    backend::cases(root)
        .into_iter()
        .filter(|c| c.suite != "real")
        .collect()
}

/// Cases known to disagree, each with its reason, so that the suite
/// stays a regression test while the fix belongs elsewhere. A listed case
/// that agrees again fails the suite until its entry is removed.
const KNOWN_MISMATCHES: &[(&str, &str)] = &[];

/// Suites whose models have static shapes throughout (fixed-size inputs,
/// weights and shape operands as initializers), so that inference must
/// find every output's exact type in every mode. The `light/` models are
/// of IR version 3, whose initializers are all graph inputs as well: they
/// are static only because the importer makes those inputs constants.
const STATIC_SUITES: &[&str] = &["light", "pytorch-converted", "pytorch-operator"];

/// What a run of the suite found.
#[derive(Default)]
struct Findings {
    failures: Vec<String>,
    /// The cases of `KNOWN_MISMATCHES` that did disagree.
    known: Vec<String>,
}

/// Runs every case in one mode and prints the per-op summary.
fn run_suite(root: &Path, mode: Mode) -> Findings {
    let mut per_op: BTreeMap<String, Tally> = BTreeMap::new();
    let mut known = vec![];
    let (mut import_errors, mut unverified) = (0, 0);
    for case in cases(root) {
        let name = backend::case_id(&case);
        match run_case(&case, mode) {
            Ok((label, verdicts)) => {
                let tally = per_op.entry(label).or_default();
                for (output, verdict) in verdicts {
                    tally.outputs += 1;
                    if let Verdict::Partial(unknown) = verdict {
                        if STATIC_SUITES.contains(&case.suite.as_str()) {
                            let what = unknown.map_or("an unknown rank".to_string(), |n| {
                                format!("{n} unknown dims")
                            });
                            tally.failures.push(format!(
                                "{name} output '{output}': {what}, but the suite's models are static"
                            ));
                        }
                    }
                    match verdict {
                        Verdict::Exact => tally.exact += 1,
                        Verdict::Partial(Some(n)) => {
                            tally.partial += 1;
                            tally.unknown_dims += n;
                        }
                        Verdict::Partial(None) => {
                            tally.partial += 1;
                            tally.unranked += 1;
                        }
                        Verdict::Mismatch(_)
                            if KNOWN_MISMATCHES.iter().any(|(c, _)| *c == name) =>
                        {
                            known.push(name.clone());
                        }
                        Verdict::Mismatch(why) => tally
                            .failures
                            .push(format!("{name} output '{output}': {why}")),
                    }
                }
            }
            Err(CaseError::Compile(e)) => {
                per_op
                    .entry("(error)".into())
                    .or_default()
                    .failures
                    .push(format!("{name}: {e}"));
            }
            Err(CaseError::Load) => import_errors += 1,
            Err(CaseError::Unverified) => unverified += 1,
        }
    }
    let mode = mode.describe();
    println!("\ninferred types vs ONNX backend data ({mode})");
    println!(
        "{:<28} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}",
        "op", "outputs", "exact", "partial", "failed", "?dims", "unranked"
    );
    let mut total = Tally::default();
    let mut failures = vec![];
    for (op, t) in &per_op {
        println!(
            "{op:<28} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}",
            t.outputs,
            t.exact,
            t.partial,
            t.failures.len(),
            t.unknown_dims,
            t.unranked
        );
        total.outputs += t.outputs;
        total.exact += t.exact;
        total.partial += t.partial;
        total.unknown_dims += t.unknown_dims;
        total.unranked += t.unranked;
        failures.extend(t.failures.iter().map(|f| format!("[{mode}] {f}")));
    }
    println!(
        "{:<28} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}",
        "total",
        total.outputs,
        total.exact,
        total.partial,
        failures.len(),
        total.unknown_dims,
        total.unranked
    );
    println!(
        "({import_errors} cases did not import, {unverified} did not verify before the pipeline; \
         the import and verifier suites report them)"
    );
    for name in &known {
        println!("known mismatch: {name}");
    }
    Findings { failures, known }
}

#[test]
fn inferred_types_match_the_backend_outputs() {
    let Some(root) = onnx_mlc_tests::backend_dir() else {
        println!("skipped: no ONNX backend test data (set ONNX_MLC_BACKEND_DIR)");
        return;
    };
    let mut failures = vec![];
    let mut known = vec![];
    for mode in [Mode::AsGiven, Mode::Constants, Mode::Pipeline] {
        let found = run_suite(&root, mode);
        failures.extend(found.failures);
        known.extend(found.known);
    }
    for (case, why) in KNOWN_MISMATCHES {
        if !known.iter().any(|k| k == case) {
            failures.push(format!(
                "{case} agrees now: remove it from KNOWN_MISMATCHES ({why})"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} outputs disagree with the backend data:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn verdicts_tell_exact_partial_and_wrong_apart() {
    let expected = TestValue::Tensor(TensorData::from_vec(vec![2, 3], &[0f32; 6]).unwrap());
    let ty = |dims: Vec<Dim>| {
        Type::Tensor(onnx_mlc_dialect::TensorType::with_dims(
            onnx_mlc_dialect::ElemType::F32,
            dims,
        ))
    };
    let (two, three) = (Dim::Known(2), Dim::Known(3));
    assert_eq!(
        judge(&ty(vec![two.clone(), three.clone()]), &expected),
        Verdict::Exact
    );
    assert_eq!(
        judge(&ty(vec![two.clone(), Dim::param("N")]), &expected),
        Verdict::Partial(Some(1))
    );
    assert_eq!(judge(&Type::Unknown, &expected), Verdict::Partial(None));
    assert!(matches!(
        judge(&ty(vec![three.clone(), three.clone()]), &expected),
        Verdict::Mismatch(_)
    ));
    assert!(matches!(
        judge(&ty(vec![two.clone()]), &expected),
        Verdict::Mismatch(_)
    ));
    let ints = Type::tensor(onnx_mlc_dialect::ElemType::I64, &[2, 3]);
    assert!(matches!(judge(&ints, &expected), Verdict::Mismatch(_)));
}
