//! Text and media operators.
//!
//! - `StringConcat` (20): elementwise concatenation of two string tensors,
//!   with numpy broadcasting.
//! - `StringNormalizer` (10): removes `stopwords` from a `[C]` or `[1, C]`
//!   string tensor and changes case. The kept count is unknown unless there
//!   are no stopwords (then nothing is removed); removing everything leaves
//!   one empty string.
//! - `StringSplit` (20): splits each string at `delimiter`: the pieces,
//!   with one more (unknown, padded) dim, and their int64 count per string.
//! - `RegexFullMatch` (20): a bool tensor of the input's shape.
//! - `TfIdfVectorizer` (9): n-gram counts of a `[C]` or `[N, C]` input:
//!   `[max(ngram_indexes) + 1]` or `[N, max(ngram_indexes) + 1]` floats.
//! - `ImageDecoder` (20): decodes a 1-D byte stream to a uint8 `[height,
//!   width, channels]` image, with 3 channels for `RGB`/`BGR` and 1 for
//!   `Grayscale`; height and width depend on the data.

use crate::attr::Attr;
use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{broadcast, fmt_dims};
use crate::schema::TextOp;
use crate::types::{ElemType, TensorType, Type};

pub(crate) fn infer(op: TextOp, cx: &mut InferCtx) -> Result<(), Fail> {
    match op {
        TextOp::StringConcat => {
            let elem = cx.elem(0)?;
            let dims = broadcast(cx.dims(0)?, cx.dims(1)?)?;
            cx.set_tensor(0, elem, dims);
            Ok(())
        }
        TextOp::StringNormalizer => string_normalizer(cx),
        TextOp::StringSplit => {
            let shape = cx.tensor(0)?.shape.clone();
            let pieces = shape.clone().map(|mut d| {
                d.push(Dim::Unknown);
                d
            });
            cx.set_type(
                0,
                Type::Tensor(TensorType {
                    elem: ElemType::String,
                    shape: pieces,
                }),
            );
            cx.set_type(
                1,
                Type::Tensor(TensorType {
                    elem: ElemType::I64,
                    shape,
                }),
            );
            Ok(())
        }
        TextOp::RegexFullMatch => {
            let shape = cx.tensor(0)?.shape.clone();
            cx.set_type(
                0,
                Type::Tensor(TensorType {
                    elem: ElemType::Bool,
                    shape,
                }),
            );
            Ok(())
        }
        TextOp::TfIdfVectorizer => tfidf(cx),
        TextOp::ImageDecoder => image_decoder(cx),
    }
}

fn string_normalizer(cx: &mut InferCtx) -> Result<(), Fail> {
    let stopwords = match cx.attr("stopwords") {
        Some(Attr::Strings(s)) => !s.is_empty(),
        _ => false,
    };
    let Some(dims) = cx.tensor(0)?.dims().map(<[Dim]>::to_vec) else {
        cx.set_unranked(0, ElemType::String);
        return Ok(());
    };
    let kept = |c: &Dim| if stopwords { Dim::Unknown } else { c.clone() };
    let out = match dims.as_slice() {
        [c] => vec![kept(c)],
        [one, c] if !one.definitely_ne(&Dim::Known(1)) => vec![Dim::Known(1), kept(c)],
        _ => {
            return Err(invalid!(
                "the input must be [C] or [1, C], got shape {}",
                fmt_dims(&dims)
            ))
        }
    };
    cx.set_tensor(0, ElemType::String, out);
    Ok(())
}

fn tfidf(cx: &mut InferCtx) -> Result<(), Fail> {
    let indexes = cx.ints_opt("ngram_indexes")?.unwrap_or_default();
    let Some(&max) = indexes.iter().max() else {
        return Err(invalid!("attribute 'ngram_indexes' must not be empty"));
    };
    if let Some(i) = indexes.iter().find(|&&i| i < 0) {
        return Err(invalid!(
            "attribute 'ngram_indexes' has a negative index {i}"
        ));
    }
    let width = Dim::Known(max + 1);
    match cx.tensor(0)?.dims() {
        None => cx.set_unranked(0, ElemType::F32),
        Some([_]) => cx.set_tensor(0, ElemType::F32, vec![width]),
        Some([n, _]) => {
            let n = n.clone();
            cx.set_tensor(0, ElemType::F32, vec![n, width]);
        }
        Some(d) => {
            return Err(invalid!(
                "the input must be [C] or [N, C], got shape {}",
                fmt_dims(d)
            ))
        }
    }
    Ok(())
}

fn image_decoder(cx: &mut InferCtx) -> Result<(), Fail> {
    if let Some(d) = cx.tensor(0)?.dims() {
        if d.len() != 1 {
            return Err(invalid!(
                "the encoded stream must be 1-D, got shape {}",
                fmt_dims(d)
            ));
        }
    }
    let channels = match cx.string_opt("pixel_format")?.as_deref().unwrap_or("RGB") {
        "RGB" | "BGR" => 3,
        "Grayscale" => 1,
        other => {
            return Err(invalid!(
                "attribute 'pixel_format' must be RGB, BGR or Grayscale, got \"{other}\""
            ))
        }
    };
    cx.set_tensor(
        0,
        ElemType::U8,
        vec![Dim::Unknown, Dim::Unknown, Dim::Known(channels)],
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::schema::OpKind::*;

    #[test]
    fn string_ops() {
        let mut g = Graph::new(28);
        // Backend test_string_concat_broadcasting ([3] and [1] -> [3]) and
        // test_string_concat_zero_dimensional.
        let x = g.input(t("3xstring"));
        let y = g.input(t("1xstring"));
        let s = g.input(t("string"));
        let cat = g.op_at(StringConcat, 20, &[x, y], &[], 1)[0];
        let cat0 = g.op_at(StringConcat, 20, &[s, s], &[], 1)[0];
        // Backend test_string_split_maxsplit: [2,2] -> [2,2,3] and [2,2].
        let xx = g.input(t("2x2xstring"));
        let split = g.op_at(StringSplit, 20, &[xx], &[("maxsplit", Attr::Int(2))], 2);
        // Backend test_regex_full_match_basic.
        let matched = g.op_at(
            RegexFullMatch,
            20,
            &[x],
            &[("pattern", Attr::str("a.*"))],
            1,
        )[0];
        // Backend test_strnormalizer_nostopwords_nochangecase ([2] -> [2]),
        // ..._insensintive_upper_twodim ([1,6] -> [1,4] with stopwords).
        let two = g.input(t("2xstring"));
        let row = g.input(t("1x6xstring"));
        let kept = g.op_at(
            StringNormalizer,
            10,
            &[two],
            &[("is_case_sensitive", Attr::Int(1))],
            1,
        )[0];
        let stop = vec![("stopwords", Attr::Strings(vec![b"monday".to_vec()]))];
        let filtered = g.op_at(StringNormalizer, 10, &[row], &stop, 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(cat), "tensor<3xstring>");
        assert_eq!(g.ty(cat0), "tensor<string>");
        assert_eq!(g.ty(split[0]), "tensor<2x2x?xstring>");
        assert_eq!(g.ty(split[1]), "tensor<2x2xi64>");
        assert_eq!(g.ty(matched), "tensor<3xi1>");
        assert_eq!(g.ty(kept), "tensor<2xstring>");
        assert_eq!(g.ty(filtered), "tensor<1x?xstring>");

        let mut g = Graph::new(28);
        let x = g.input(t("2x3xstring"));
        g.op_at(StringNormalizer, 10, &[x], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("the input must be [C] or [1, C], got shape [2, 3]"));
    }

    #[test]
    fn tfidf_and_images() {
        // Backend test_tfidfvectorizer_tf_batch_onlybigrams_skip0 ([2,6] ->
        // [2,7]) and ..._tf_only_bigrams_skip0 ([12] -> [7]);
        // test_image_decoder_decode_jpeg_grayscale ([32,32,1] decoded).
        let mut g = Graph::new(28);
        let batch = g.input(t("2x6xi32"));
        let flat = g.input(t("12xi32"));
        let attrs = || {
            vec![
                ("ngram_indexes", Attr::Ints((0..7).collect())),
                ("mode", Attr::str("TF")),
            ]
        };
        let a = g.op_at(TfIdfVectorizer, 9, &[batch], &attrs(), 1)[0];
        let b = g.op_at(TfIdfVectorizer, 9, &[flat], &attrs(), 1)[0];
        let bytes = g.input(t("1058xui8"));
        let gray = g.op_at(
            ImageDecoder,
            20,
            &[bytes],
            &[("pixel_format", Attr::str("Grayscale"))],
            1,
        )[0];
        let rgb = g.op_at(ImageDecoder, 20, &[bytes], &[], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(a), "tensor<2x7xf32>");
        assert_eq!(g.ty(b), "tensor<7xf32>");
        assert_eq!(g.ty(gray), "tensor<?x?x1xui8>");
        assert_eq!(g.ty(rgb), "tensor<?x?x3xui8>");

        let mut g = Graph::new(28);
        let bytes = g.input(t("2x2xui8"));
        g.op_at(ImageDecoder, 20, &[bytes], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("the encoded stream must be 1-D, got shape [2, 2]"));
    }
}
