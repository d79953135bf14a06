"""Op variants beyond the ONNX backend suite, checked against onnxruntime.

The backend suite exercises few of the attribute combinations some ops
have (TfIdfVectorizer's cases are all mode TF, without weights). Each
generator below yields small models with seeded random inputs; every model
runs through `onnx-mlc run` (JIT) and through onnxruntime (or, where
onnxruntime has no kernel for the variant, the onnx reference evaluator),
and the outputs must agree (rtol 1e-4, atol 1e-5).

Usage: op_variants.py ONNX_MLC_BIN. Prints a line per failure and closes
with `checked N variants, F failed`; exits 1 on a failure.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator


def model(node, inputs, output, opset, domain="", out_type=TensorProto.FLOAT):
    """A one-node model importing `domain` at `opset`; `inputs` are (name,
    TensorProto type, shape), the output is of `out_type`."""
    graph = helper.make_graph(
        [node],
        "variant",
        [helper.make_tensor_value_info(n, t, list(s)) for n, t, s in inputs],
        [helper.make_tensor_value_info(output, out_type, None)],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid(domain, opset)])
    m.ir_version = 8
    return m


def tfidf_variants(rng):
    """Every mode, with and without weights, unigrams to trigrams with
    skips, over int32 [B, C] and int64 [C] inputs; a non-identity
    `ngram_indexes` so weights must follow their n-gram."""
    pool = [2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 2, 3, 4, 5, 6, 7]
    for mode in ["TF", "IDF", "TFIDF"]:
        for lo, hi, skip in [(1, 1, 0), (1, 2, 2), (2, 3, 1), (1, 3, 3)]:
            for weights in [None, [(i + 1) / 3 for i in range(9)]]:
                for shape, elem in [((3, 9), np.int32), ((11,), np.int64)]:
                    attrs = dict(
                        mode=mode,
                        min_gram_length=lo,
                        max_gram_length=hi,
                        max_skip_count=skip,
                        ngram_counts=[0, 4, 10],
                        ngram_indexes=[4, 0, 7, 1, 2, 3, 5, 6, 8],
                        pool_int64s=pool,
                    )
                    if weights:
                        attrs["weights"] = weights
                    node = helper.make_node("TfIdfVectorizer", ["X"], ["Y"], **attrs)
                    ty = helper.np_dtype_to_tensor_dtype(np.dtype(elem))
                    x = rng.integers(2, 9, size=shape).astype(elem)
                    name = f"tfidf {mode} n={lo}..{hi} skip={skip} weights={bool(weights)} {shape}"
                    yield name, model(node, [("X", ty, shape)], "Y", 9), [x]


def ml_variants(rng):
    """Binarizer over every input type it takes, ArrayFeatureExtractor with
    a 1-D input and with a matrix of indices (models importing only
    ai.onnx.ml)."""
    for elem in [np.float32, np.float64, np.int64, np.int32]:
        ty = helper.np_dtype_to_tensor_dtype(np.dtype(elem))
        node = helper.make_node("Binarizer", ["X"], ["Y"], domain="ai.onnx.ml", threshold=2.0)
        x = rng.integers(-5, 6, size=(4, 5)).astype(elem)
        yield f"Binarizer {np.dtype(elem)}", model(node, [("X", ty, x.shape)], "Y", 1, "ai.onnx.ml", ty), [x]
    for x_shape, y_shape in [((7,), (3,)), ((2, 3, 6), (2, 2))]:
        node = helper.make_node("ArrayFeatureExtractor", ["X", "Y"], ["Z"], domain="ai.onnx.ml")
        x = rng.standard_normal(x_shape).astype(np.float32)
        y = rng.integers(0, x_shape[-1], size=y_shape).astype(np.int64)
        inputs = [("X", TensorProto.FLOAT, x_shape), ("Y", TensorProto.INT64, y_shape)]
        yield f"ArrayFeatureExtractor {x_shape} {y_shape}", model(node, inputs, "Z", 1, "ai.onnx.ml"), [x, y]


def tree_variants(rng):
    """TreeEnsemble: two trees over two features with every comparison
    mode, NaN features that take the true branch and each aggregate
    function. (Not the post transforms: onnxruntime 1.31 applies LOGISTIC
    for the spec's SOFTMAX (1) and the reverse.)"""
    for aggregate in range(4):
        for post in [0]:
            for modes in [[0, 1, 2], [3, 4, 5]]:
                attrs = dict(
                    aggregate_function=aggregate,
                    post_transform=post,
                    n_targets=2,
                    tree_roots=[0, 3],
                    nodes_featureids=[0, 1, 1, 1, 0, 0],
                    nodes_modes=numpy_helper.from_array(np.array(modes * 2, dtype=np.uint8)),
                    nodes_splits=numpy_helper.from_array(np.array([0.0, 0.5, -0.5, 0.25, 0.0, 1.0], dtype=np.float32)),
                    nodes_truenodeids=[1, 0, 2, 4, 3, 4],
                    nodes_trueleafs=[0, 1, 1, 0, 1, 1],
                    nodes_falsenodeids=[2, 1, 3, 5, 5, 6],
                    nodes_falseleafs=[0, 1, 1, 0, 1, 1],
                    nodes_missing_value_tracks_true=[1, 0, 0, 0, 1, 0],
                    leaf_targetids=[0, 1, 0, 1, 0, 1, 1],
                    leaf_weights=numpy_helper.from_array(np.array([1.5, -2.0, 3.0, 0.5, -1.0, 2.5, 4.0], dtype=np.float32)),
                )
                node = helper.make_node("TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)
                x = rng.choice([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, np.nan], size=(8, 2)).astype(np.float32)
                name = f"TreeEnsemble aggregate={aggregate} post={post} modes={modes}"
                yield name, model(node, [("X", TensorProto.FLOAT, x.shape)], "Y", 5, "ai.onnx.ml"), [x]


GENERATORS = [tfidf_variants, ml_variants, tree_variants]


def reference(path, m, feeds):
    """onnxruntime's outputs, or the onnx reference evaluator's for a
    variant onnxruntime has no kernel for."""
    try:
        return ort.InferenceSession(str(path)).run(None, feeds)
    except ort.capi.onnxruntime_pybind11_state.NotImplemented:
        return ReferenceEvaluator(m).run(None, feeds)


def main():
    binary = sys.argv[1]
    rng = np.random.default_rng(0)
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for generate in GENERATORS:
            for name, m, inputs in generate(rng):
                checked += 1
                onnx.save(m, tmp / "model.onnx")
                files = []
                for i, x in enumerate(inputs):
                    onnx.save_tensor(numpy_helper.from_array(x), tmp / f"input_{i}.pb")
                    files.append(str(tmp / f"input_{i}.pb"))
                feeds = {v.name: x for v, x in zip(m.graph.input, inputs)}
                expected = reference(tmp / "model.onnx", m, feeds)
                run = subprocess.run(
                    [binary, "run", "--out", str(tmp / "out"), str(tmp / "model.onnx"), *files],
                    capture_output=True,
                    text=True,
                )
                if run.returncode != 0:
                    failed += 1
                    print(f"FAIL {name}: {run.stderr.strip()[-400:]}")
                    continue
                for k, want in enumerate(expected):
                    got = numpy_helper.to_array(onnx.load_tensor(tmp / "out" / f"output_{k}.pb"))
                    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-5):
                        failed += 1
                        print(f"FAIL {name}: output {k} is {got.tolist()}, onnxruntime {want.tolist()}")
                        break
    print(f"checked {checked} variants, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
