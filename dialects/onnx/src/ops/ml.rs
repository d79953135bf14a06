//! Classical machine learning (`ai.onnx.ml`).
//!
//! Elementwise, the result has the input's shape:
//! - `Binarizer`: 0/1 by `threshold` (input type); `Imputer`: replaces a
//!   value (input type); `Scaler`: `(x - offset) * scale` (float);
//!   `Normalizer`: rows scaled to unit max/L1/L2 norm (float, `[N, C]` or
//!   `[C]`); `CategoryMapper`: strings to int64 and back; `LabelEncoder`
//!   (1, 2, 4): a key-to-value map given by `keys_*`/`values_*` attributes
//!   (or tensors, version 4), the result having the values' type (version
//!   1: `classes_strings`, strings to int64 and back).
//!
//! Reshaping:
//! - `ArrayFeatureExtractor`: selects the indices `Y` on the last axis of
//!   `X`: `X`'s shape with the last dim the number of indices (a 1-D `X`
//!   gives `[1, n]`, as onnxruntime does).
//! - `OneHotEncoder`: one more dim of the number of categories (float).
//! - `FeatureVectorizer`: concatenates `[N, C_i]` inputs to `[N,
//!   sum(inputdimensions)]` (float).
//! - `CastMap`, `DictVectorizer`: a map to a tensor (`cast_to`'s type, or
//!   the map's value type) of one row, `[1, n]`, as onnxruntime gives it
//!   (the spec says 1-D; converters use `[1, n]`): `n` is the vocabulary's
//!   length, `max_map` for a SPARSE CastMap, else the number of entries.
//! - `ZipMap`: a `[N, C]` float tensor to a sequence of N maps from the C
//!   class labels (string or int64) to float scalars.
//!
//! Models, on a batch `X` of `[N, F]` (or `[F]`, a batch of one):
//! - `LinearClassifier`, `SVMClassifier`, `TreeEnsembleClassifier`: labels
//!   `[N]` (string when `classlabels_strings` is given, else int64) and
//!   float scores `[N, E]`, E the number of classes where it is fixed by
//!   the attributes.
//! - `LinearRegressor`: `[N, targets]`; `SVMRegressor`: `[N, 1]`;
//!   `TreeEnsembleRegressor`: `[N, n_targets]` (float); `TreeEnsemble` (5):
//!   `[N, n_targets]` of `X`'s type.
//!
//! All ops are version 1 except `LabelEncoder` (1, 2, 4),
//! `TreeEnsembleClassifier`/`TreeEnsembleRegressor` (1, 3, 5: more
//! attribute forms, same shapes) and `TreeEnsemble` (5).

use crate::attr::Attr;
use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{fmt_dims, unify};
use crate::schema::{MlOp, OpKind};
use crate::types::{ElemType, TensorType, Type};

pub(crate) fn infer(op: MlOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use MlOp::*;
    match op {
        Binarizer | Imputer => {
            if op == Imputer {
                check_per_feature(cx, &["imputed_value_floats", "imputed_value_int64s"])?;
            }
            let t = cx.tensor(0)?.clone();
            cx.set_type(0, Type::Tensor(t));
            Ok(())
        }
        Scaler => {
            check_per_feature(cx, &["scale", "offset"])?;
            same_shape(cx, ElemType::F32)
        }
        Normalizer => {
            if let Some(d) = cx.tensor(0)?.dims() {
                if d.is_empty() || d.len() > 2 {
                    return Err(invalid!(
                        "the input must be [N, C] or [C], got shape {}",
                        fmt_dims(d)
                    ));
                }
            }
            same_shape(cx, ElemType::F32)
        }
        CategoryMapper => {
            if list_len(cx, "cats_int64s")? != list_len(cx, "cats_strings")? {
                return Err(invalid!(
                    "attributes 'cats_int64s' and 'cats_strings' must have the same length"
                ));
            }
            let elem = swap_string_int(cx.elem(0)?)?;
            same_shape(cx, elem)
        }
        LabelEncoder => label_encoder(cx),
        ArrayFeatureExtractor => array_feature_extractor(cx),
        OneHotEncoder => {
            let (ints, strings) = (
                cx.attrs().get("cats_int64s").is_some(),
                cx.attrs().get("cats_strings").is_some(),
            );
            if ints == strings {
                return Err(invalid!(
                    "exactly one of 'cats_int64s' and 'cats_strings' must be given"
                ));
            }
            let n = list_len(cx, if ints { "cats_int64s" } else { "cats_strings" })?;
            let t = cx.tensor(0)?;
            let shape = t.shape.clone().map(|mut d| {
                d.push(Dim::Known(n as i64));
                d
            });
            cx.set_type(
                0,
                Type::Tensor(TensorType {
                    elem: ElemType::F32,
                    shape,
                }),
            );
            Ok(())
        }
        FeatureVectorizer => feature_vectorizer(cx),
        CastMap => {
            map_input(cx, Some(ElemType::I64))?;
            let elem = match cx.string_opt("cast_to")?.as_deref().unwrap_or("TO_FLOAT") {
                "TO_FLOAT" => ElemType::F32,
                "TO_INT64" => ElemType::I64,
                "TO_STRING" => ElemType::String,
                other => {
                    return Err(invalid!(
                    "attribute 'cast_to' must be TO_FLOAT, TO_INT64 or TO_STRING, got \"{other}\""
                ))
                }
            };
            // One row of the map's values (onnxruntime's [1, K]): K is
            // the number of entries, or `max_map` in the SPARSE form.
            let width = match cx.string_opt("map_form")?.as_deref().unwrap_or("DENSE") {
                "SPARSE" => Dim::Known(cx.int_opt("max_map")?.unwrap_or(1)),
                _ => Dim::Unknown,
            };
            cx.set_tensor(0, elem, vec![Dim::Known(1), width]);
            Ok(())
        }
        DictVectorizer => {
            // One row of the vocabulary's values (onnxruntime's [1, V]).
            let vocabulary = list_len(cx, "string_vocabulary")? + list_len(cx, "int64_vocabulary")?;
            if let Some(Type::Tensor(value)) = map_input(cx, None)? {
                let elem = value.elem;
                cx.set_tensor(0, elem, vec![Dim::Known(1), Dim::Known(vocabulary as i64)]);
            }
            Ok(())
        }
        ZipMap => zip_map(cx),
        LinearClassifier | SVMClassifier | TreeEnsembleClassifier => classifier(cx),
        LinearRegressor => {
            let targets = cx.int("targets")?;
            if targets <= 0 {
                return Err(invalid!(
                    "attribute 'targets' must be positive, got {targets}"
                ));
            }
            let n = batch(cx)?;
            cx.set_tensor(0, ElemType::F32, vec![n, Dim::Known(targets)]);
            Ok(())
        }
        SVMRegressor => {
            let n = batch(cx)?;
            cx.set_tensor(0, ElemType::F32, vec![n, Dim::Known(1)]);
            Ok(())
        }
        TreeEnsembleRegressor => {
            let n = batch(cx)?;
            let targets = cx.int_opt("n_targets")?.map_or(Dim::Unknown, Dim::Known);
            cx.set_tensor(0, ElemType::F32, vec![n, targets]);
            Ok(())
        }
        TreeEnsemble => tree_ensemble(cx),
    }
}

/// Result 0 has input 0's shape and element type `elem`.
fn same_shape(cx: &mut InferCtx, elem: ElemType) -> Result<(), Fail> {
    let shape = cx.tensor(0)?.shape.clone();
    cx.set_type(0, Type::Tensor(TensorType { elem, shape }));
    Ok(())
}

/// int64 for string and string for int64: the mapping ops' other side.
fn swap_string_int(elem: ElemType) -> Result<ElemType, Fail> {
    match elem {
        ElemType::String => Ok(ElemType::I64),
        ElemType::I64 => Ok(ElemType::String),
        other => Err(invalid!("the input must be string or int64, got {other}")),
    }
}

/// The number of values of a list attribute (or of a tensor attribute's
/// elements); 0 when absent.
fn list_len(cx: &InferCtx, name: &str) -> Result<usize, Fail> {
    Ok(match cx.attrs().get(name) {
        None => 0,
        Some(Attr::Ints(v)) => v.len(),
        Some(Attr::Floats(v)) => v.len(),
        Some(Attr::Strings(v)) => v.len(),
        Some(Attr::Tensor(t)) => t.numel(),
        Some(a) => {
            return Err(invalid!(
                "attribute '{name}' must be a list, got {}",
                a.kind().name()
            ))
        }
    })
}

/// Checks that each of the given per-feature attributes (when given) has
/// one value or one per feature (the input's last dim).
fn check_per_feature(cx: &InferCtx, names: &[&str]) -> Result<(), Fail> {
    let Some(&Dim::Known(features)) = cx.tensor(0)?.dims().and_then(<[Dim]>::last) else {
        return Ok(());
    };
    for name in names {
        let n = list_len(cx, name)?;
        if n > 1 && n as i64 != features {
            return Err(invalid!(
                "attribute '{name}' has {n} values for {features} features (the input's last dim)"
            ));
        }
    }
    Ok(())
}

/// The batch size N of an `[N, F]` (or `[F]`: N = 1) input.
fn batch(cx: &InferCtx) -> Result<Dim, Fail> {
    match cx.tensor(0)?.dims() {
        None => Ok(Dim::Unknown),
        Some([_]) => Ok(Dim::Known(1)),
        Some([n, _]) => Ok(n.clone()),
        Some(d) => Err(invalid!(
            "the input must be [N, F] or [F], got shape {}",
            fmt_dims(d)
        )),
    }
}

/// The map input's value type, checking its key type when `key` is given;
/// `None` when the input's type is unknown.
fn map_input(cx: &InferCtx, key: Option<ElemType>) -> Result<Option<Type>, Fail> {
    match cx.required_type(0) {
        Err(Fail::Unknown(_)) => Ok(None),
        Err(e) => Err(e),
        Ok(Type::Map(k, value)) => match key {
            Some(expected) if *k != expected => {
                Err(invalid!("the input map's keys must be {expected}, got {k}"))
            }
            _ => Ok(Some((**value).clone())),
        },
        Ok(other) => Err(invalid!("the input must be a map, got {other}")),
    }
}

fn label_encoder(cx: &mut InferCtx) -> Result<(), Fail> {
    let input = cx.elem(0)?;
    if cx.version() < 2 {
        let elem = swap_string_int(input)?;
        return same_shape(cx, elem);
    }
    let keys = typed_list(cx, "keys")?;
    let values = typed_list(cx, "values")?;
    if keys.0 != input {
        return Err(invalid!("the keys are {} but the input is {input}", keys.0));
    }
    if keys.1 != values.1 {
        return Err(invalid!(
            "there are {} keys but {} values",
            keys.1,
            values.1
        ));
    }
    if let Some(Attr::Tensor(d)) = cx.attrs().get("default_tensor") {
        if d.elem != values.0 {
            return Err(invalid!(
                "'default_tensor' is {} but the values are {}",
                d.elem,
                values.0
            ));
        }
    }
    same_shape(cx, values.0)
}

/// The one `keys_*` (or `values_*`) attribute of a `LabelEncoder`: its
/// element type and length.
fn typed_list(cx: &InferCtx, prefix: &str) -> Result<(ElemType, usize), Fail> {
    let mut found = vec![];
    for (suffix, elem) in [
        ("strings", ElemType::String),
        ("int64s", ElemType::I64),
        ("floats", ElemType::F32),
    ] {
        let name = format!("{prefix}_{suffix}");
        if cx.attrs().get(&name).is_some() {
            found.push((elem, list_len(cx, &name)?));
        }
    }
    if let Some(a) = cx.attrs().get(&format!("{prefix}_tensor")) {
        match a {
            Attr::Tensor(t) => found.push((t.elem, t.numel())),
            a => {
                return Err(invalid!(
                    "attribute '{prefix}_tensor' must be TENSOR, got {}",
                    a.kind().name()
                ))
            }
        }
    }
    match found[..] {
        [one] => Ok(one),
        _ => Err(invalid!(
            "exactly one '{prefix}_*' attribute must be given, got {}",
            found.len()
        )),
    }
}

fn array_feature_extractor(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    let count = match cx.tensor(1)?.dims() {
        Some(d) => d.iter().fold(Dim::Known(1), |acc, d| acc.mul(d)),
        None => Dim::Unknown,
    };
    let shape = x.shape.map(|d| match d.split_last() {
        Some((_, [])) | None => vec![Dim::Known(1), count],
        Some((_, rest)) => rest.iter().cloned().chain([count]).collect(),
    });
    cx.set_type(
        0,
        Type::Tensor(TensorType {
            elem: x.elem,
            shape,
        }),
    );
    Ok(())
}

fn feature_vectorizer(cx: &mut InferCtx) -> Result<(), Fail> {
    let widths = cx.ints_opt("inputdimensions")?;
    if let Some(w) = &widths {
        if w.len() != cx.num_inputs() {
            return Err(invalid!(
                "attribute 'inputdimensions' has {} values for {} inputs",
                w.len(),
                cx.num_inputs()
            ));
        }
    }
    let mut n = Dim::Unknown;
    for i in 0..cx.num_inputs() {
        match cx.tensor(i)?.dims() {
            None | Some([_]) => {}
            Some([rows, _]) => unify(&mut n, rows, || {
                format!("dim 0 of input {i} (the batch size)")
            })?,
            Some(d) => {
                return Err(invalid!(
                    "input {i} must be [N, C] or [C], got shape {}",
                    fmt_dims(d)
                ))
            }
        }
    }
    let width = widths.map_or(Dim::Unknown, |w| Dim::Known(w.iter().sum()));
    cx.set_tensor(0, ElemType::F32, vec![n, width]);
    Ok(())
}

fn zip_map(cx: &mut InferCtx) -> Result<(), Fail> {
    let (strings, ints) = (
        list_len(cx, "classlabels_strings")?,
        list_len(cx, "classlabels_int64s")?,
    );
    let (key, labels) = match (strings, ints) {
        (0, 0) => {
            return Err(invalid!(
                "one of 'classlabels_strings' and 'classlabels_int64s' must be given"
            ))
        }
        (n, 0) => (ElemType::String, n),
        (0, n) => (ElemType::I64, n),
        _ => {
            return Err(invalid!(
                "only one of 'classlabels_strings' and 'classlabels_int64s' may be given"
            ))
        }
    };
    if let Some(d) = cx.tensor(0)?.dims() {
        let columns = match d {
            [c] | [_, c] => c,
            _ => {
                return Err(invalid!(
                    "the input must be [N, C] or [C], got shape {}",
                    fmt_dims(d)
                ))
            }
        };
        if columns.definitely_ne(&Dim::Known(labels as i64)) {
            return Err(invalid!(
                "the input has {columns} columns for {labels} class labels"
            ));
        }
    }
    let value = Type::Tensor(TensorType::with_dims(ElemType::F32, vec![]));
    cx.set_type(0, Type::Sequence(Box::new(Type::Map(key, Box::new(value)))));
    Ok(())
}

fn classifier(cx: &mut InferCtx) -> Result<(), Fail> {
    let ints = if cx.kind() == OpKind::TreeEnsembleClassifier {
        "classlabels_int64s"
    } else {
        "classlabels_ints"
    };
    let (strings, ints) = (list_len(cx, "classlabels_strings")?, list_len(cx, ints)?);
    let (label, labels) = if strings > 0 {
        (ElemType::String, strings)
    } else {
        (ElemType::I64, ints)
    };
    let n = batch(cx)?;
    let classes = match cx.kind() {
        OpKind::LinearClassifier => {
            let features = cx.tensor(0)?.dims().and_then(|d| d.last()?.as_known());
            let coefficients = list_len(cx, "coefficients")? as i64;
            let columns = match features {
                Some(f) if f > 0 && coefficients % f != 0 => {
                    return Err(invalid!(
                        "{coefficients} coefficients are not a multiple of the {f} features"
                    ))
                }
                Some(f) if f > 0 => Dim::Known(coefficients / f),
                _ => match list_len(cx, "intercepts")? {
                    0 => Dim::Unknown,
                    k => Dim::Known(k as i64),
                },
            };
            // One score column for two classes is expanded to two.
            if columns == Dim::Known(1) && labels == 2 {
                Dim::Known(2)
            } else {
                columns
            }
        }
        // A single label may get a second score column (binary case).
        OpKind::TreeEnsembleClassifier if labels > 1 => Dim::Known(labels as i64),
        _ => Dim::Unknown,
    };
    cx.set_tensor(0, label, vec![n.clone()]);
    cx.set_tensor(1, ElemType::F32, vec![n, classes]);
    Ok(())
}

fn tree_ensemble(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    let n = match x.dims() {
        None => Dim::Unknown,
        Some([n, _]) => n.clone(),
        Some(d) => {
            return Err(invalid!(
                "the input must be [N, F], got shape {}",
                fmt_dims(d)
            ))
        }
    };
    if let Some(Attr::Tensor(w)) = cx.attrs().get("leaf_weights") {
        if w.elem != x.elem {
            return Err(invalid!(
                "'leaf_weights' is {} but the input is {}",
                w.elem,
                x.elem
            ));
        }
        let ids = list_len(cx, "leaf_targetids")?;
        if ids != w.numel() {
            return Err(invalid!(
                "{ids} 'leaf_targetids' for {} 'leaf_weights'",
                w.numel()
            ));
        }
    }
    let targets = cx.int_opt("n_targets")?.map_or(Dim::Unknown, Dim::Known);
    cx.set_tensor(0, x.elem, vec![n, targets]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::ir::Value;
    use crate::schema::OpKind::*;
    use crate::tensor::TensorData;
    use crate::types::{ElemType, Type};

    fn strings(s: &[&str]) -> Attr {
        Attr::Strings(s.iter().map(|s| s.as_bytes().to_vec()).collect())
    }

    #[test]
    fn elementwise_ops() {
        let mut g = Graph::new(28);
        // Backend test_ai_onnx_ml_binarizer and the label encoder tests
        // (string [5] -> int64 or int16 [5]).
        let x = g.input(t("3x4x5xf32"));
        let s = g.input(t("5xstring"));
        let bin = g.op_at(Binarizer, 1, &[x], &[("threshold", Attr::Float(1.0))], 1)[0];
        let enc = vec![
            ("keys_strings", strings(&["a", "b", "c"])),
            ("values_int64s", Attr::Ints(vec![0, 1, 2])),
        ];
        let encoded = g.op_at(LabelEncoder, 4, &[s], &enc, 1)[0];
        let keys =
            TensorData::from_strings(vec![3], vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()])
                .unwrap();
        let values = TensorData::from_vec(vec![3], &[0i16, 1, 2]).unwrap();
        let enc = vec![
            ("keys_tensor", Attr::Tensor(keys)),
            ("values_tensor", Attr::Tensor(values)),
        ];
        let tensor_encoded = g.op_at(LabelEncoder, 4, &[s], &enc, 1)[0];
        let old = g.op_at(
            LabelEncoder,
            1,
            &[s],
            &[("classes_strings", strings(&["a"]))],
            1,
        )[0];
        let scaled = g.op_at(Scaler, 1, &[x], &[("scale", Attr::Floats(vec![2.0; 5]))], 1)[0];
        let mapped = g.op_at(
            CategoryMapper,
            1,
            &[s],
            &[
                ("cats_strings", strings(&["a"])),
                ("cats_int64s", Attr::Ints(vec![1])),
            ],
            1,
        )[0];
        g.infer().unwrap();
        assert_eq!(g.ty(bin), "tensor<3x4x5xf32>");
        assert_eq!(g.ty(encoded), "tensor<5xi64>");
        assert_eq!(g.ty(tensor_encoded), "tensor<5xi16>");
        assert_eq!(g.ty(old), "tensor<5xi64>");
        assert_eq!(g.ty(scaled), "tensor<3x4x5xf32>");
        assert_eq!(g.ty(mapped), "tensor<5xi64>");
    }

    #[test]
    fn reshaping_ops() {
        let mut g = Graph::new(28);
        // Backend test_ai_onnx_ml_array_feature_extractor: [3,4] and 2
        // indices -> [3,2].
        let x = g.input(t("3x4xf32"));
        let idx = g.input(t("2xi64"));
        let v = g.input(t("4xf32"));
        let picked = g.op_at(ArrayFeatureExtractor, 1, &[x, idx], &[], 1)[0];
        let picked1 = g.op_at(ArrayFeatureExtractor, 1, &[v, idx], &[], 1)[0];
        let codes = g.input(t("Nx2xi64"));
        let onehot = g.op_at(
            OneHotEncoder,
            1,
            &[codes],
            &[("cats_int64s", Attr::Ints(vec![1, 2, 3]))],
            1,
        )[0];
        let a = g.input(t("Nx2xf64"));
        let b = g.input(t("?x3xf64"));
        let features = g.op_at(
            FeatureVectorizer,
            1,
            &[a, b],
            &[("inputdimensions", Attr::Ints(vec![2, 3]))],
            1,
        )[0];
        let probs = g.input(t("Nx3xf32"));
        let zipped = g.op_at(
            ZipMap,
            1,
            &[probs],
            &[("classlabels_strings", strings(&["a", "b", "c"]))],
            1,
        )[0];
        let m = g.input(Type::Map(ElemType::I64, Box::new(t("f32"))));
        let cast = g.op_at(CastMap, 1, &[m], &[("cast_to", Attr::str("TO_INT64"))], 1)[0];
        let dict = g.op_at(
            DictVectorizer,
            1,
            &[m],
            &[("int64_vocabulary", Attr::Ints(vec![1, 2]))],
            1,
        )[0];
        g.infer().unwrap();
        assert_eq!(g.ty(picked), "tensor<3x2xf32>");
        assert_eq!(g.ty(picked1), "tensor<1x2xf32>");
        assert_eq!(g.ty(onehot), r#"tensor<"N"x2x3xf32>"#);
        assert_eq!(g.ty(features), r#"tensor<"N"x5xf32>"#);
        assert_eq!(g.ty(zipped), "!onnx.seq<!onnx.map<string, tensor<f32>>>");
        assert_eq!(g.ty(cast), "tensor<1x?xi64>");
        assert_eq!(g.ty(dict), "tensor<1x2xf32>");
    }

    #[test]
    fn models() {
        let mut g = Graph::new(28);
        let main = g.main();
        let x = g.input(t("Nx4xf32"));
        let one = g.input(t("4xf32"));
        let classify = |g: &mut Graph, kind, x: Value, attrs: Vec<(&str, Attr)>| {
            let r = g.node(main, kind, 1, &[Some(x)], &[true, true], &attrs);
            (r[0].unwrap(), r[1].unwrap())
        };
        // Two classes from one column of 4 coefficients.
        let linear = classify(
            &mut g,
            LinearClassifier,
            x,
            vec![
                ("coefficients", Attr::Floats(vec![1.0; 4])),
                ("classlabels_strings", strings(&["no", "yes"])),
            ],
        );
        let linear3 = classify(
            &mut g,
            LinearClassifier,
            one,
            vec![
                ("coefficients", Attr::Floats(vec![1.0; 12])),
                ("classlabels_ints", Attr::Ints(vec![0, 1, 2])),
            ],
        );
        let tree = g.node(
            main,
            TreeEnsembleClassifier,
            5,
            &[Some(x)],
            &[true, true],
            &[("classlabels_int64s", Attr::Ints(vec![0, 1, 2]))],
        );
        let svm = classify(
            &mut g,
            SVMClassifier,
            x,
            vec![("classlabels_ints", Attr::Ints(vec![0, 1]))],
        );
        let reg = g.op_at(LinearRegressor, 1, &[x], &[("targets", Attr::Int(2))], 1)[0];
        let svr = g.op_at(SVMRegressor, 1, &[x], &[], 1)[0];
        let trees = g.op_at(
            TreeEnsembleRegressor,
            3,
            &[x],
            &[("n_targets", Attr::Int(3))],
            1,
        )[0];
        // Backend test_ai_onnx_ml_tree_ensemble_single_tree: double [3,2],
        // n_targets 2 -> double [3,2].
        let xd = g.input(t("3x2xf64"));
        let weights = TensorData::from_vec(vec![4], &[1.0f64, 2.0, 3.0, 4.0]).unwrap();
        let ensemble = g.op_at(
            TreeEnsemble,
            5,
            &[xd],
            &[
                ("n_targets", Attr::Int(2)),
                ("leaf_weights", Attr::Tensor(weights)),
                ("leaf_targetids", Attr::Ints(vec![0, 1, 0, 1])),
            ],
            1,
        )[0];
        g.infer().unwrap();
        assert_eq!(
            (g.ty(linear.0), g.ty(linear.1)),
            (
                r#"tensor<"N"xstring>"#.into(),
                r#"tensor<"N"x2xf32>"#.into()
            )
        );
        assert_eq!(
            (g.ty(linear3.0), g.ty(linear3.1)),
            ("tensor<1xi64>".into(), "tensor<1x3xf32>".into())
        );
        assert_eq!(g.ty(tree[1].unwrap()), r#"tensor<"N"x3xf32>"#);
        assert_eq!(g.ty(svm.1), r#"tensor<"N"x?xf32>"#);
        assert_eq!(g.ty(reg), r#"tensor<"N"x2xf32>"#);
        assert_eq!(g.ty(svr), r#"tensor<"N"x1xf32>"#);
        assert_eq!(g.ty(trees), r#"tensor<"N"x3xf32>"#);
        assert_eq!(g.ty(ensemble), "tensor<3x2xf64>");
    }

    #[test]
    fn errors() {
        let mut g = Graph::new(28);
        let s = g.input(t("5xi64"));
        let enc = vec![
            ("keys_strings", strings(&["a"])),
            ("values_int64s", Attr::Ints(vec![0])),
        ];
        g.op_at(LabelEncoder, 2, &[s], &enc, 1);
        assert!(g
            .infer_err()
            .ends_with("the keys are string but the input is i64"));

        let mut g = Graph::new(28);
        let s = g.input(t("5xstring"));
        let enc = vec![
            ("keys_strings", strings(&["a", "b"])),
            ("values_int64s", Attr::Ints(vec![0])),
        ];
        g.op_at(LabelEncoder, 2, &[s], &enc, 1);
        assert!(g.infer_err().ends_with("there are 2 keys but 1 values"));

        let mut g = Graph::new(28);
        let x = g.input(t("2x3xf32"));
        g.op_at(
            ZipMap,
            1,
            &[x],
            &[("classlabels_int64s", Attr::Ints(vec![1, 2]))],
            1,
        );
        assert!(g
            .infer_err()
            .ends_with("the input has 3 columns for 2 class labels"));

        let mut g = Graph::new(28);
        let x = g.input(t("2x3xf32"));
        g.op_at(
            Scaler,
            1,
            &[x],
            &[("offset", Attr::Floats(vec![0.0, 1.0]))],
            1,
        );
        assert!(g
            .infer_err()
            .ends_with("attribute 'offset' has 2 values for 3 features (the input's last dim)"));
    }
}
