//! The real models (`tests/models/`, materialized with seeded weights into
//! `.cache/models/` by `tools/setup.sh`): each imports, passes the default
//! dialect pipeline, and comes out with every value fully typed — static
//! shapes for models with static inputs, symbolic (never unknown) dims for
//! the `_dynamic` variants.

use std::time::Instant;

use onnx_mlc_dialect::dim::Dim;
use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Model, Type};
use onnx_mlc_import::{load_model, ImportOptions};
use onnx_mlc_tests::cache_dir;

/// The models and whether their inputs have symbolic dims.
const MODELS: &[(&str, bool)] = &[
    ("resnet50", false),
    ("mobilenet_v2", false),
    ("efficientnet_b0", false),
    ("vit_b_16", false),
    ("bert_base", false),
    ("gpt2", false),
    ("resnet50_dynamic", true),
    ("bert_base_dynamic", true),
];

fn prepare(name: &str) -> Model {
    let path = cache_dir().join("models").join(name).join("model.onnx");
    assert!(
        path.exists(),
        "{} is missing: run tools/setup.sh",
        path.display()
    );
    let mut model = load_model(&path, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .model;
    for p in DEFAULT_PIPELINE {
        (pass(p).expect("registered").run)(&mut model)
            .unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
    }
    model
}

/// Every value of the model whose type fails `ok`, named for the message.
fn offending_values(model: &Model, ok: impl Fn(&Type) -> bool) -> Vec<String> {
    let ir = &model.ir;
    let mut bad = vec![];
    for region in model.top_regions() {
        for r in ir.regions_within(region) {
            let args = ir.region(r).args.iter().map(|a| a.value);
            let results = ir
                .region(r)
                .ops
                .iter()
                .flat_map(|&o| ir.op(o).results.iter().flatten().copied());
            for v in args.chain(results) {
                if !ok(ir.ty(v)) {
                    let name = ir.value(v).name.clone().unwrap_or_else(|| format!("{v:?}"));
                    bad.push(format!("{name}: {}", ir.ty(v)));
                }
            }
        }
    }
    bad
}

/// Ranked, with no unknown dim anywhere (symbolic dims allowed).
fn fully_known(ty: &Type) -> bool {
    match ty {
        Type::Tensor(t) | Type::SparseTensor(t) => t
            .dims()
            .is_some_and(|d| d.iter().all(|d| *d != Dim::Unknown)),
        Type::Sequence(t) | Type::Optional(t) | Type::Map(_, t) => fully_known(t),
        Type::Unknown => false,
    }
}

#[test]
fn real_models_infer_to_fully_known_shapes() {
    let mut failures = vec![];
    for &(name, dynamic) in MODELS {
        let start = Instant::now();
        let model = prepare(name);
        let elapsed = start.elapsed();
        let bad = if dynamic {
            offending_values(&model, fully_known)
        } else {
            offending_values(&model, Type::is_static)
        };
        let ops: usize = model
            .top_regions()
            .iter()
            .map(|&r| model.ir.walk_ops(r).len())
            .sum();
        println!(
            "{name}: {ops} ops after the pipeline, {} not fully known, {elapsed:.2?}",
            bad.len()
        );
        if !bad.is_empty() {
            failures.push(format!(
                "{name}: {} values, e.g. {}",
                bad.len(),
                bad[..bad.len().min(3)].join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn dynamic_models_keep_their_dim_params() {
    let model = prepare("bert_base_dynamic");
    let main = model.ir.region(model.graph);
    let out = model
        .ir
        .ty(main.outputs[0].value)
        .as_tensor()
        .expect("a tensor output");
    let dims: Vec<String> = out
        .dims()
        .expect("ranked")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        dims,
        ["\"batch\"", "\"sequence\"", "768"],
        "BERT's first output is [batch, sequence, 768]"
    );
    let model = prepare("resnet50_dynamic");
    let main = model.ir.region(model.graph);
    let out = model
        .ir
        .ty(main.outputs[0].value)
        .as_tensor()
        .expect("a tensor output");
    assert_eq!(out.dims().expect("ranked")[0], Dim::param("batch"));
    assert_eq!(out.dims().expect("ranked")[1], Dim::Known(1000));
}
