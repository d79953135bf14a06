"""Op variants beyond the ONNX backend suite, checked against onnxruntime.

The backend suite exercises few of the attribute combinations some ops
have (TfIdfVectorizer's cases are all mode TF, without weights). Each
generator below yields small models with seeded random inputs; every model
runs through `onnx-mlc run` (JIT, and AOT for the generators in
`AOT_TOO`) and through onnxruntime (or, where onnxruntime has no kernel
for the variant, the onnx reference evaluator), and the outputs must agree
(rtol 1e-4, atol 1e-5).

Usage: op_variants.py ONNX_MLC_BIN [NAME]: the variants whose name
contains NAME (default: all). Prints a line per failure and closes
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


def graph(name, nodes, inputs, outputs, inits=(), opset=18):
    """A model of several nodes: `inputs` are (name, TensorProto type,
    shape) with dim names for symbolic sizes, `outputs` (name, type) of
    unknown shape, `inits` numpy initializers by name."""
    g = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info(n, t, list(s)) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs],
        [numpy_helper.from_array(np.asarray(v), n) for n, v in inits],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def run_time_size_variants(rng):
    """Ops whose result sizes are computed from tensor values — a Pad by
    pads from an input or from shape arithmetic, a Resize to sizes
    computed in floats from the input's shape, a Range, a TopK by an
    input K, Reshape/Expand/Tile/ConstantOfShape by input shapes, a Slice
    by input bounds, a OneHot by an input depth — each followed by
    compiled ops, at two sets of values (and sizes): the host program
    sizes them at run time (`sizes` steps). Run JIT and AOT."""
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    node = helper.make_node
    x = lambda *shape: rng.random(shape, dtype=np.float32)
    ints = lambda *v: np.array(v, np.int64)
    pad_in = graph(
        "pad_by_input",
        [node("Pad", ["x", "pads"], ["p"]), node("Relu", ["p"], ["y"]),
         node("ReduceSum", ["y"], ["s"], keepdims=0)],
        [("x", f32, [1, 3, "H", "W"]), ("pads", i64, [8])],
        [("y", f32), ("s", f32)],
    )
    yield "Pad by input pads", pad_in, [x(1, 3, 5, 7), ints(0, 0, 1, 2, 0, 1, 0, 3)]
    yield "Pad by input pads, 2", pad_in, [x(1, 3, 2, 2), ints(0, 0, 0, 0, 0, 0, 4, 1)]
    # A windowed attention's padding to a multiple of 4: (4 - H % 4) % 4.
    window = graph(
        "pad_to_window",
        [node("Shape", ["x"], ["shape"]), node("Slice", ["shape", "two", "four"], ["hw"]),
         node("Mod", ["hw", "win"], ["rem"]), node("Sub", ["win", "rem"], ["gap"]),
         node("Mod", ["gap", "win"], ["pad"]),
         node("Concat", ["zeros", "zeros", "zeros", "pad"], ["pads"], axis=0),
         node("Pad", ["x", "pads"], ["p"]), node("Sigmoid", ["p"], ["y"])],
        [("x", f32, [1, 2, "H", "W"])],
        [("y", f32)],
        [("two", ints(2)), ("four", ints(4)), ("win", ints(4)), ("zeros", ints(0, 0))],
    )
    yield "Pad to a window multiple", window, [x(1, 2, 5, 7)]
    yield "Pad to a window multiple, 2", window, [x(1, 2, 8, 3)]
    # A detection transform: the short side scaled to 16, in floats.
    resize = graph(
        "resize_short_side",
        [node("Shape", ["x"], ["shape"]), node("Slice", ["shape", "zero", "two"], ["nc"]),
         node("Slice", ["shape", "two", "four"], ["hw"]),
         node("Cast", ["hw"], ["hwf"], to=f32), node("ReduceMin", ["hwf"], ["short"], keepdims=0),
         node("Div", ["target", "short"], ["scale"]), node("Mul", ["hwf", "scale"], ["scaled"]),
         node("Floor", ["scaled"], ["floor"]), node("Cast", ["floor"], ["size"], to=i64),
         node("Concat", ["nc", "size"], ["sizes"], axis=0),
         node("Resize", ["x", "", "", "sizes"], ["r"], mode="linear"),
         node("Relu", ["r"], ["y"])],
        [("x", f32, [1, 3, "H", "W"])],
        [("y", f32)],
        [("zero", ints(0)), ("two", ints(2)), ("four", ints(4)), ("target", np.float32(16))],
    )
    yield "Resize to computed sizes", resize, [x(1, 3, 20, 30)]
    yield "Resize to computed sizes, 2", resize, [x(1, 3, 40, 24)]
    ranged = graph(
        "range_by_input",
        [node("Range", ["start", "limit", "delta"], ["r"]), node("Mul", ["r", "r"], ["y"])],
        [("limit", i64, [])],
        [("y", i64)],
        [("start", np.int64(0)), ("delta", np.int64(2))],
    )
    yield "Range to an input limit", ranged, [np.array(7, np.int64)]
    yield "Range to an input limit, 2", ranged, [np.array(12, np.int64)]
    # A detection head's `keep[:k]`: the count NonZero finds may be less.
    keep = graph(
        "slice_of_a_count",
        [node("NonZero", ["x"], ["nz"]), node("Squeeze", ["nz", "zero"], ["found"]),
         node("Slice", ["found", "zero", "limit", "zero"], ["kept"]),
         node("Gather", ["x", "kept"], ["y"])],
        [("x", f32, ["n"])],
        [("y", f32)],
        [("zero", ints(0)), ("limit", ints(6))],
    )
    yield "Slice of a NonZero count, fewer than the end", keep, [np.array([0, 1, 0, 2, 3], np.float32)]
    yield "Slice of a NonZero count, more than the end", keep, [x(9) + 0.5]
    top = graph(
        "top_k_by_input",
        [node("TopK", ["x", "k"], ["v", "i"], axis=1), node("Neg", ["v"], ["y"])],
        [("x", f32, [2, 10]), ("k", i64, [1])],
        [("y", f32), ("i", i64)],
    )
    yield "TopK by an input K", top, [x(2, 10), ints(3)]
    yield "TopK by an input K, 2", top, [x(2, 10), ints(7)]
    body = helper.make_graph(
        [
            node("Add", ["i", "one"], ["n"]),
            node("Range", ["zero", "n", "one"], ["r"]),
            node("Cast", ["r"], ["rf"], to=f32),
            node("Mul", ["rf", "rf"], ["sq"]),
            node("ReduceSum", ["sq"], ["s"], keepdims=0),
            node("Add", ["acc", "s"], ["acc2"]),
            node("Identity", ["c"], ["c2"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", i64, []),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
            helper.make_tensor_value_info("acc", f32, []),
        ],
        [helper.make_tensor_value_info("c2", TensorProto.BOOL, []), helper.make_tensor_value_info("acc2", f32, [])],
        [numpy_helper.from_array(np.array(1, np.int64), "one"), numpy_helper.from_array(np.array(0, np.int64), "zero")],
    )
    looped = graph(
        "range_in_loop",
        [node("Loop", ["m", "", "a0"], ["a"], body=body)],
        [("m", i64, []), ("a0", f32, [])],
        [("a", f32)],
    )
    yield "Range of a per-iteration length in a Loop body", looped, [np.array(5, np.int64), np.array(0.5, np.float32)]
    value = helper.make_tensor("v", f32, [1], [2.0])
    shapes = graph(
        "shapes_by_input",
        [node("Reshape", ["x", "rs"], ["a"]), node("Expand", ["a", "es"], ["b"]),
         node("Tile", ["b", "reps"], ["c"]), node("ConstantOfShape", ["cs"], ["d"], value=value),
         node("ReduceSum", ["c"], ["e"], keepdims=0), node("ReduceSum", ["d"], ["f"], keepdims=0),
         node("Add", ["e", "f"], ["y"])],
        [("x", f32, [6]), ("rs", i64, [2]), ("es", i64, [3]), ("reps", i64, [3]), ("cs", i64, [2])],
        [("y", f32), ("c", f32)],
    )
    yield "Reshape, Expand, Tile, ConstantOfShape by input shapes", shapes, [
        x(6), ints(2, 3), ints(4, 2, 3), ints(1, 2, 2), ints(3, 5)]
    yield "Reshape, Expand, Tile, ConstantOfShape by input shapes, 2", shapes, [
        x(6), ints(3, 2), ints(2, 3, 2), ints(2, 1, 3), ints(1, 1)]
    sliced = graph(
        "slice_one_hot_by_input",
        [node("Slice", ["x", "starts", "ends"], ["a"]), node("Relu", ["a"], ["y"]),
         node("OneHot", ["idx", "depth", "values"], ["b"]), node("Relu", ["b"], ["z"])],
        [("x", f32, [10, 4]), ("starts", i64, [1]), ("ends", i64, [1]), ("idx", i64, [3]),
         ("depth", i64, [1])],
        [("y", f32), ("z", f32)],
        [("values", np.array([0, 1], np.float32))],
        opset=13,
    )
    yield "Slice and OneHot by inputs", sliced, [x(10, 4), ints(2), ints(7), ints(0, 2, 1), ints(4)]
    yield "Slice and OneHot by inputs, 2", sliced, [x(10, 4), ints(0), ints(-1), ints(0, 2, 5), ints(6)]


def map_variants(rng):
    """ONNX-ML's maps (host kernels, runtime/src/host/maps.rs): ZipMap of
    softmax scores to string and int64 labels ([N, C] and [C] inputs),
    DictVectorizer over string and int64 vocabularies (keys missing from
    the map and keys outside the vocabulary), CastMap DENSE and SPARSE;
    float map values only, the one kind onnxruntime's Python API feeds.
    Run JIT and AOT."""
    f32 = TensorProto.FLOAT
    node = helper.make_node
    scalar = lambda t: helper.make_tensor_type_proto(t, [])
    for labels in (["cat", "dog", "eel"], [3, 5, 7]):
        attr = "classlabels_strings" if isinstance(labels[0], str) else "classlabels_int64s"
        key = TensorProto.STRING if isinstance(labels[0], str) else TensorProto.INT64
        for shape in ([4, 3], [3]):
            g = helper.make_graph(
                [node("Softmax", ["x"], ["p"], axis=-1),
                 node("ZipMap", ["p"], ["m"], domain="ai.onnx.ml", **{attr: labels})],
                "zip_map",
                [helper.make_tensor_value_info("x", f32, shape)],
                [helper.make_value_info("m", helper.make_sequence_type_proto(
                    helper.make_map_type_proto(key, scalar(f32))))],
            )
            m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("ai.onnx.ml", 1)])
            m.ir_version = 8
            yield f"ZipMap {attr} {shape}", m, [rng.random(shape, dtype=np.float32)]
    for vocab, keys in ((["a", "b", "c", "d"], ["b", "d", "z"]), ([1, 2, 4], [4, 1, 9])):
        attr = "string_vocabulary" if isinstance(vocab[0], str) else "int64_vocabulary"
        key = TensorProto.STRING if isinstance(vocab[0], str) else TensorProto.INT64
        for elem, dtype in ((f32, np.float32),):
            g = helper.make_graph(
                [node("DictVectorizer", ["m"], ["v"], domain="ai.onnx.ml", **{attr: vocab})],
                "dict_vectorizer",
                [helper.make_value_info("m", helper.make_map_type_proto(key, scalar(elem)))],
                [helper.make_tensor_value_info("v", elem, None)],
            )
            m = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1)])
            m.ir_version = 8
            values = (rng.random(len(keys)) * 10).astype(dtype)
            yield f"DictVectorizer {attr} {np.dtype(dtype)}", m, [dict(zip(keys, values.tolist()))]
    for form, extra in (("DENSE", {}), ("SPARSE", {"max_map": 6})):
        for cast, out in (("TO_FLOAT", f32), ("TO_INT64", TensorProto.INT64)):
            g = helper.make_graph(
                [node("CastMap", ["m"], ["v"], domain="ai.onnx.ml", cast_to=cast,
                      map_form=form, **extra)],
                "cast_map",
                [helper.make_value_info("m", helper.make_map_type_proto(
                    TensorProto.INT64, scalar(f32)))],
                [helper.make_tensor_value_info("v", out, None)],
            )
            m = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1)])
            m.ir_version = 8
            values = (rng.random(3) * 10).astype(np.float32)
            yield f"CastMap {form} {cast}", m, [dict(zip([4, 0, 2], values.tolist()))]


def linear_model_variants(rng):
    """ai.onnx.ml's linear models as onnxruntime computes them
    (decompose/ml.rs): LinearClassifier with int and string labels,
    several classes under each post transform and the one-row binary
    form, followed by ZipMap as skl2onnx writes it; LinearRegressor with
    one and three targets; Scaler with per-column and single values (an
    int64 input too); Normalizer MAX, L1 and L2 with an all-zero row. A
    symbolic batch, at batch 5 and 1."""
    f32 = TensorProto.FLOAT
    ml = [helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 1)]

    def build(nodes, x_type, outputs):
        g = helper.make_graph(nodes, "linear", [helper.make_tensor_value_info("X", x_type, ["N", 4])],
                              outputs)
        m = helper.make_model(g, opset_imports=ml)
        m.ir_version = 8
        return m

    rows = lambda n: rng.standard_normal((n, 4)).astype(np.float32)
    for labels in (["cat", "dog", "eel"], [3, 5, 7]):
        label_type = TensorProto.STRING if isinstance(labels[0], str) else TensorProto.INT64
        attr = "classlabels_strings" if isinstance(labels[0], str) else "classlabels_ints"
        zip_attr = "classlabels_strings" if isinstance(labels[0], str) else "classlabels_int64s"
        for post in ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO"):
            node = helper.make_node(
                "LinearClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml", multi_class=1,
                coefficients=rng.standard_normal(12).tolist(), intercepts=[0.5, -0.2, 0.1],
                post_transform=post, **{attr: labels})
            zip_map = helper.make_node("ZipMap", ["Z"], ["P"], domain="ai.onnx.ml",
                                       **{zip_attr: labels})
            seq = helper.make_sequence_type_proto(helper.make_map_type_proto(
                label_type, helper.make_tensor_type_proto(f32, [])))
            m = build([node, zip_map], f32, [helper.make_tensor_value_info("Y", label_type, None),
                                             helper.make_value_info("P", seq)])
            for n in (5, 1):
                yield f"LinearClassifier {attr} {post} batch {n}", m, [rows(n)]
        node = helper.make_node(
            "LinearClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml",
            coefficients=rng.standard_normal(4).tolist(), intercepts=[0.3],
            post_transform="LOGISTIC", **{attr: labels[:2]})
        m = build([node], f32, [helper.make_tensor_value_info("Y", label_type, None),
                                helper.make_tensor_value_info("Z", f32, None)])
        yield f"LinearClassifier binary {attr}", m, [rows(6)]
    for targets, post in ((1, "NONE"), (3, "NONE"), (3, "SOFTMAX"), (3, "LOGISTIC")):
        node = helper.make_node(
            "LinearRegressor", ["X"], ["Y"], domain="ai.onnx.ml", targets=targets,
            coefficients=rng.standard_normal(4 * targets).tolist(),
            intercepts=rng.standard_normal(targets).tolist(), post_transform=post)
        m = build([node], f32, [helper.make_tensor_value_info("Y", f32, None)])
        yield f"LinearRegressor {targets} targets {post}", m, [rows(5)]
    for x_type, x in ((f32, rows(5)), (TensorProto.INT64, rng.integers(-9, 9, (5, 4)))):
        for offset, scale in (([0.5, -1, 2, 0], [2, 0.5, 1, -1]), ([1.5], [0.25])):
            node = helper.make_node("Scaler", ["X"], ["Y"], domain="ai.onnx.ml",
                                    offset=offset, scale=scale)
            m = build([node], x_type, [helper.make_tensor_value_info("Y", f32, None)])
            yield f"Scaler {len(offset)} values, {x.dtype}", m, [x]
    for norm in ("MAX", "L1", "L2"):
        node = helper.make_node("Normalizer", ["X"], ["Y"], domain="ai.onnx.ml", norm=norm)
        m = build([node], f32, [helper.make_tensor_value_info("Y", f32, None)])
        x = rows(4)
        x[2] = 0
        yield f"Normalizer {norm}", m, [x]


def top_k_variants(rng):
    """TopK's selection buffer: long rows against small and full k, ties
    (equal values keep their index order), smallest, integers, an inner
    axis, k = 0, rows already in order (every element enters), and a k the
    model computes from a shape (sized at run time)."""
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    node = helper.make_node

    def top(shape, k, axis=-1, largest=1, elem=np.float32):
        ty = helper.np_dtype_to_tensor_dtype(np.dtype(elem))
        return graph(
            "top_k",
            [node("TopK", ["x", "k"], ["v", "i"], axis=axis, largest=largest)],
            [("x", ty, shape)],
            [("v", ty), ("i", i64)],
            [("k", np.array([k], np.int64))],
        )

    long = rng.standard_normal((3, 2000)).astype(np.float32)
    for k in [1, 5, 300, 2000]:
        for largest in [1, 0]:
            yield f"TopK k={k} of 2000 largest={largest}", top(long.shape, k, largest=largest), [long]
    ties = rng.integers(0, 4, size=(4, 50)).astype(np.float32)
    yield "TopK ties", top(ties.shape, 20), [ties]
    yield "TopK ties smallest", top(ties.shape, 20, largest=0), [ties]
    ints = rng.integers(-100, 100, size=(2, 5, 64)).astype(np.int32)
    yield "TopK int32 inner axis", top(ints.shape, 4, axis=1, elem=np.int32), [ints]
    big = rng.integers(-(2**40), 2**40, size=(3, 100)).astype(np.int64)
    yield "TopK int64 smallest", top(big.shape, 9, largest=0, elem=np.int64), [big]
    yield "TopK k=0", top((2, 6), 0), [rng.standard_normal((2, 6)).astype(np.float32)]
    rising = np.tile(np.arange(500, dtype=np.float32), (2, 1))
    yield "TopK ascending rows", top(rising.shape, 100), [rising]
    computed = graph(
        "top_k_computed",
        [
            node("Shape", ["x"], ["s"], start=1),
            node("Div", ["s", "two"], ["k"]),
            node("TopK", ["x", "k"], ["v", "i"], axis=1),
        ],
        [("x", f32, ["n", "m"])],
        [("v", f32), ("i", i64)],
        [("two", np.array([2], np.int64))],
    )
    for m in [10, 333]:
        xs = rng.standard_normal((2, m)).astype(np.float32)
        yield f"TopK of a computed k, m={m}", computed, [xs]


def integer_abs_variants(rng):
    """Abs and ReduceL1 of every integer type: the most negative value,
    unsigned inputs (their own absolute value), vectorized rows."""
    for elem in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32]:
        info = np.iinfo(elem)
        x = rng.integers(info.min, info.max, size=(8, 40), dtype=elem, endpoint=True)
        x[0, 0] = info.min
        ty = helper.np_dtype_to_tensor_dtype(np.dtype(elem))
        abs_ = graph("abs", [helper.make_node("Abs", ["x"], ["y"])], [("x", ty, x.shape)], [("y", ty)])
        yield f"Abs {np.dtype(elem)}", abs_, [x]
    for elem in [np.int32, np.int64, np.uint32, np.uint64]:
        x = rng.integers(0 if elem in (np.uint32, np.uint64) else -1000, 1000, size=(6, 33)).astype(elem)
        ty = helper.np_dtype_to_tensor_dtype(np.dtype(elem))
        l1 = graph(
            "reduce_l1",
            [helper.make_node("ReduceL1", ["x", "axes"], ["y"], keepdims=0)],
            [("x", ty, x.shape)],
            [("y", ty)],
            [("axes", np.array([1], np.int64))],
        )
        yield f"ReduceL1 {np.dtype(elem)}", l1, [x]


def nms_variants(rng):
    """NonMaxSuppression on scores with many ties (a few distinct values, as
    a detection head with random weights gives): which of two equal boxes
    is kept, and in which order, follows onnxruntime's heap."""
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    for boxes_n, classes, levels, iou, limit in [(40, 2, 3, 0.5, 10), (300, 3, 4, 0.3, 100), (17, 1, 1, 0.7, 50)]:
        corners = rng.uniform(0, 50, size=(1, boxes_n, 2)).astype(np.float32)
        sizes = rng.uniform(5, 30, size=(1, boxes_n, 2)).astype(np.float32)
        boxes = np.concatenate([corners, corners + sizes], axis=2)
        scores = rng.integers(0, levels, size=(1, classes, boxes_n)).astype(np.float32) / 4 + 0.25
        m = graph(
            "nms",
            [helper.make_node("NonMaxSuppression", ["b", "s", "limit", "iou", "threshold"], ["y"])],
            [("b", f32, boxes.shape), ("s", f32, scores.shape)],
            [("y", i64)],
            [
                ("limit", np.array([limit], np.int64)),
                ("iou", np.array([iou], np.float32)),
                ("threshold", np.array([0.3], np.float32)),
            ],
        )
        yield f"NonMaxSuppression ties {boxes_n} boxes {classes} classes", m, [boxes, scores]


def spectral_variants(rng):
    """DFT and STFT where the dialect's matrix-product expansion cannot be
    built: symbolic signal lengths (at two sizes), a dft_length, axis or
    frame step read from an input, a one-sided and an inverse one-sided
    (irfft) transform, f64, and a transform too long for a stored matrix.
    The entry checks the output's dims against the input's."""
    f32, f64, i64 = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT64
    node = helper.make_node

    def dft(ty, shape, inputs=(), inits=(), **attrs):
        names = ["x", *(n for n, _, _ in inputs)]
        wired = ["x", "length" if "length" in names or any(n == "length" for n, _ in inits) else "",
                 "axis" if "axis" in names or any(n == "axis" for n, _ in inits) else ""]
        return graph(
            "dft",
            [node("DFT", wired, ["y"], **attrs)],
            [("x", ty, shape), *inputs],
            [("y", ty)],
            inits,
            opset=20,
        )

    signal = lambda *shape: rng.standard_normal(shape).astype(np.float32)
    axis1 = [("axis", np.array(1, np.int64))]
    m = dft(f32, ["b", "n", 1], inits=axis1)
    for n in [12, 31]:
        yield f"DFT of a symbolic length {n}", m, [signal(2, n, 1)]
    m = dft(f32, ["b", "n", 1], inits=axis1, onesided=1)
    for n in [12, 31]:
        yield f"DFT one-sided of a symbolic length {n}", m, [signal(2, n, 1)]
    m = dft(f32, ["b", "n", 2], inits=axis1, inverse=1, onesided=1)
    for n in [7, 9]:
        yield f"DFT irfft of a symbolic length {n}", m, [signal(3, n, 2)]
    m = dft(f32, [2, "n", 3, 2], inputs=[("length", i64, [])], inits=axis1)
    for n, length in [(10, 16), (20, 8)]:
        yield f"DFT padded or cut to an input length {length}", m, [signal(2, n, 3, 2), np.array(length, np.int64)]
    m = dft(f32, [2, 5, 6, 2], inputs=[("axis", i64, [])])
    for a in [1, -2]:
        yield f"DFT along an input axis {a}", m, [signal(2, 5, 6, 2), np.array(a, np.int64)]
    m = dft(f64, ["b", "n", 2], inits=axis1, inverse=1)
    yield "DFT f64 inverse", m, [rng.standard_normal((2, 40, 2))]
    yield "DFT of 3000 (no stored matrix)", dft(f32, [1, 3000, 2], inits=axis1), [signal(1, 3000, 2)]
    stft = graph(
        "stft",
        [node("STFT", ["x", "step", "window"], ["y"])],
        [("x", f32, ["b", "n", 1]), ("step", i64, []), ("window", f32, ["w"])],
        [("y", f32)],
        opset=17,
    )
    for n, step, w in [(128, 8, 16), (75, 5, 11)]:
        window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(w) / w)).astype(np.float32)
        yield f"STFT of {n} samples by {step}, window {w}", stft, [signal(1, n, 1), np.array(step, np.int64), window]
    framed = graph(
        "stft_length",
        [node("STFT", ["x", "step", "", "length"], ["y"], onesided=0)],
        [("x", f32, [2, "n", 2]), ("length", i64, [])],
        [("y", f32)],
        [("step", np.array(4, np.int64))],
        opset=17,
    )
    yield "STFT complex two-sided, input frame length", framed, [signal(2, 50, 2), np.array(12, np.int64)]


def legacy_tree_variants(rng):
    """The legacy TreeEnsembleRegressor and TreeEnsembleClassifier
    (decompose/tree.rs): two trees over three features (node ids out of
    order in the second) with every BRANCH_* mode and NaN features that
    take the true branch; the regressor under each aggregate function,
    one and two targets, base values and post transforms; the classifier
    with int and string labels over three classes (leaves voting for some
    classes only, with and without base values) and onnxruntime's
    two-class forms (votes for class 0 only with all-positive weights, or
    mixed weights under LOGISTIC as gradient boosting writes them; votes
    for both classes). A symbolic batch, at batch 5 and 1."""
    f32 = TensorProto.FLOAT
    modes_sets = [["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT"],
                  ["BRANCH_EQ", "BRANCH_NEQ", "BRANCH_LEQ", "BRANCH_GT"]]
    # (tree, node id, mode index or None for a leaf, feature, split, true id, false id)
    nodes = [(0, 0, 0, 0, 0.0, 1, 2), (0, 1, 1, 1, 0.5, 3, 4), (0, 2, None, 0, 0, 0, 0),
             (0, 3, None, 0, 0, 0, 0), (0, 4, None, 0, 0, 0, 0),
             (1, 0, 2, 2, -0.5, 2, 1), (1, 2, None, 0, 0, 0, 0), (1, 1, 3, 0, 1.0, 3, 4),
             (1, 3, None, 0, 0, 0, 0), (1, 4, None, 0, 0, 0, 0)]
    leaves = [(t, i) for t, i, m, *_ in nodes if m is None]

    def tree_attrs(modes):
        return dict(
            nodes_treeids=[n[0] for n in nodes], nodes_nodeids=[n[1] for n in nodes],
            nodes_modes=["LEAF" if n[2] is None else modes[n[2]] for n in nodes],
            nodes_featureids=[n[3] for n in nodes], nodes_values=[float(n[4]) for n in nodes],
            nodes_truenodeids=[n[5] for n in nodes], nodes_falsenodeids=[n[6] for n in nodes],
            nodes_missing_value_tracks_true=[1 if k in (0, 7) else 0 for k in range(len(nodes))])

    def votes(prefix, classes, pick, positive=False):
        out = {f"{prefix}_treeids": [], f"{prefix}_nodeids": [], f"{prefix}_ids": [], f"{prefix}_weights": []}
        for k, (t, i) in enumerate(leaves):
            for c in classes:
                if pick(k, c):
                    w = float(rng.random()) if positive else float(rng.standard_normal())
                    for key, v in zip(out, (t, i, c, round(w, 3))):
                        out[key].append(v)
        return out

    def build(node, outputs):
        g = helper.make_graph([node], "trees", [helper.make_tensor_value_info("X", f32, ["N", 3])],
                              outputs)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1)])
        m.ir_version = 8
        return m

    rows = lambda n: rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0, np.nan], size=(n, 3)).astype(np.float32)
    out_y = [helper.make_tensor_value_info("Y", f32, None)]
    for modes in modes_sets:
        for aggregate in ("SUM", "AVERAGE", "MIN", "MAX"):
            for targets, base, post in ((1, [0.25], "NONE"), (2, [], "NONE"), (2, [0.5, -1.0], "SOFTMAX"),
                                        (2, [], "LOGISTIC")):
                attrs = dict(tree_attrs(modes), n_targets=targets, aggregate_function=aggregate,
                             post_transform=post, **votes("target", range(targets), lambda k, c: (k + c) % 3 != 1))
                if base:
                    attrs["base_values"] = base
                node = helper.make_node("TreeEnsembleRegressor", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)
                m = build(node, out_y)
                for n in (5, 1):
                    yield f"TreeEnsembleRegressor {modes[0]} {aggregate} {targets} targets base={base} {post} batch {n}", m, [rows(n)]
    for labels in (["cat", "dog", "eel"], [3, 5, 7]):
        label_type = TensorProto.STRING if isinstance(labels[0], str) else TensorProto.INT64
        attr = "classlabels_strings" if isinstance(labels[0], str) else "classlabels_int64s"
        outputs = [helper.make_tensor_value_info("Y", label_type, None),
                   helper.make_tensor_value_info("Z", f32, None)]
        for base, post, pick in (([], "NONE", lambda k, c: True), ([], "NONE", lambda k, c: (k + c) % 3 != 0),
                                 ([0.1, -0.3, 0.2], "SOFTMAX", lambda k, c: (k + c) % 2 == 0),
                                 ([], "LOGISTIC", lambda k, c: True)):
            attrs = dict(tree_attrs(modes_sets[0]), post_transform=post, **votes("class", range(3), pick),
                         **{attr: labels})
            if base:
                attrs["base_values"] = base
            node = helper.make_node("TreeEnsembleClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml", **attrs)
            m = build(node, outputs)
            for n in (5, 1):
                yield f"TreeEnsembleClassifier {attr} base={base} {post} partial={pick(0, 0) + pick(1, 0)} batch {n}", m, [rows(n)]
        two = labels[:2] if isinstance(labels[0], str) else [0, 1]
        for name, extra in (("class 0 positive", dict(votes("class", [0], lambda k, c: True, True))),
                            ("class 0 logistic", dict(votes("class", [0], lambda k, c: True),
                                                      post_transform="LOGISTIC", base_values=[0.3])),
                            ("both classes", dict(votes("class", [0, 1], lambda k, c: True, True)))):
            attrs = dict(tree_attrs(modes_sets[1]), **extra, **{attr: two})
            node = helper.make_node("TreeEnsembleClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml", **attrs)
            m = build(node, outputs)
            yield f"TreeEnsembleClassifier binary {name} {attr}", m, [rows(6)]


def svm_variants(rng):
    """SVMClassifier and SVMRegressor (decompose/svm.rs) over each kernel:
    the classifier one-vs-one over three and two classes with int and
    string labels, with Platt probabilities (prob_a/prob_b, coupled by a
    run-time loop) and without (pairwise scores under NONE and LOGISTIC),
    and the linear form without support vectors; the regressor with
    support vectors, one_class, and the linear form. A symbolic batch."""
    f32 = TensorProto.FLOAT
    features = 3

    def build(node, outputs):
        g = helper.make_graph([node], "svm", [helper.make_tensor_value_info("X", f32, ["N", features])],
                              outputs)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1)])
        m.ir_version = 8
        return m

    rows = lambda n: rng.standard_normal((n, features)).astype(np.float32)
    floats = lambda n, scale=1.0: [round(float(v), 4) for v in rng.standard_normal(n) * scale]
    kernels = [("LINEAR", [0.0, 0.0, 0.0]), ("POLY", [0.3, 0.5, 3.0]), ("RBF", [0.4, 0.0, 0.0]),
               ("SIGMOID", [0.2, 0.1, 0.0])]
    for labels in (["cat", "dog", "eel"], [3, 5, 7]):
        label_type = TensorProto.STRING if isinstance(labels[0], str) else TensorProto.INT64
        attr = "classlabels_strings" if isinstance(labels[0], str) else "classlabels_ints"
        outputs = [helper.make_tensor_value_info("Y", label_type, None),
                   helper.make_tensor_value_info("Z", f32, None)]
        for kernel, params in kernels:
            for classes in (3, 2):
                per_class = [3, 2, 4][:classes]
                count = sum(per_class)
                pairs = classes * (classes - 1) // 2
                for proba, post in ((True, "NONE"), (False, "NONE"), (False, "LOGISTIC")):
                    attrs = dict(kernel_type=kernel, kernel_params=params, vectors_per_class=per_class,
                                 support_vectors=floats(count * features),
                                 coefficients=floats((classes - 1) * count), rho=floats(pairs, 0.3),
                                 post_transform=post, **{attr: labels[:classes]})
                    if proba:
                        attrs.update(prob_a=floats(pairs, 2.0), prob_b=floats(pairs, 0.2))
                    node = helper.make_node("SVMClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml", **attrs)
                    m = build(node, outputs)
                    for n in (5, 1):
                        yield f"SVMClassifier {kernel} {classes} classes {attr} proba={proba} {post} batch {n}", m, [rows(n)]
        for classes, coefficients in ((3, floats(9)), (2, floats(6)), (2, [abs(v) for v in floats(6)])):
            node = helper.make_node("SVMClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml",
                                    coefficients=coefficients, rho=[0.2], kernel_params=[0.0, 0.0, 0.0],
                                    **{attr: labels[:classes]})
            yield f"SVMClassifier linear {classes} classes {attr}", build(node, outputs), [rows(6)]
    out = [helper.make_tensor_value_info("Y", f32, None)]
    for kernel, params in kernels:
        for one_class in (0, 1):
            node = helper.make_node("SVMRegressor", ["X"], ["Y"], domain="ai.onnx.ml", kernel_type=kernel,
                                    kernel_params=params, n_supports=4, support_vectors=floats(4 * features),
                                    coefficients=floats(4), rho=[0.1], one_class=one_class)
            m = build(node, out)
            for n in (5, 1):
                yield f"SVMRegressor {kernel} one_class={one_class} batch {n}", m, [rows(n)]
    node = helper.make_node("SVMRegressor", ["X"], ["Y"], domain="ai.onnx.ml", n_supports=0,
                            coefficients=floats(features), rho=[0.4], kernel_params=[0.0, 0.0, 0.0])
    yield "SVMRegressor linear", build(node, out), [rows(5)]


def encoder_variants(rng):
    """ai.onnx.ml's encoders (decompose/ml.rs; CategoryMapper and the
    string lookup of OneHotEncoder on the host): OneHotEncoder over
    strings (an unknown category giving zeros), int64 and float inputs;
    Imputer of a float value, of NaN, of an int64 value, per column and
    single; FeatureVectorizer of float, int64 or int32 inputs cut and
    zero-padded to their widths; CategoryMapper both ways with defaults.
    A symbolic batch, at batch 4 and 1."""
    f32, i64, s = TensorProto.FLOAT, TensorProto.INT64, TensorProto.STRING

    def build(nodes, inputs, outputs):
        g = helper.make_graph(nodes, "encoders",
                              [helper.make_tensor_value_info(n, ty, shape) for n, ty, shape in inputs],
                              [helper.make_tensor_value_info(n, ty, None) for n, ty in outputs])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1)])
        m.ir_version = 8
        return m

    words = np.array(["red", "green", "blue", "teal"], dtype=object)
    node = helper.make_node
    for n in (4, 1):
        x = words[rng.integers(0, 4, size=(n, 2))]
        m = build([node("OneHotEncoder", ["X"], ["Y"], domain="ai.onnx.ml", cats_strings=["blue", "green", "red"],
                        zeros=1)], [("X", s, ["N", 2])], [("Y", f32)])
        yield f"OneHotEncoder strings batch {n}", m, [x]
        for ty, dtype in ((i64, np.int64), (f32, np.float32)):
            x = rng.integers(0, 6, size=(n, 3)).astype(dtype)
            m = build([node("OneHotEncoder", ["X"], ["Y"], domain="ai.onnx.ml", cats_int64s=[1, 3, 4, 5],
                            zeros=1)], [("X", ty, ["N", 3])], [("Y", f32)])
            yield f"OneHotEncoder {np.dtype(dtype)} batch {n}", m, [x]
        for name, attrs, pool in (
                ("float value", dict(imputed_value_floats=[9.0, 8.0, 7.0], replaced_value_float=-1.0),
                 [-1.0, 0.0, 2.5]),
                ("NaN", dict(imputed_value_floats=[5.5], replaced_value_float=float("nan")),
                 [-1.0, 0.0, 2.5, np.nan]),
                ("default 0", dict(imputed_value_floats=[1.0, 2.0, 3.0]), [-1.0, 0.0, 2.5])):
            x = rng.choice(pool, size=(n, 3)).astype(np.float32)
            m = build([node("Imputer", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)], [("X", f32, ["N", 3])],
                      [("Y", f32)])
            yield f"Imputer {name} batch {n}", m, [x]
        x = rng.integers(-1, 3, size=(n, 3)).astype(np.int64)
        for imputed in ([7, 8, 9], [4]):
            m = build([node("Imputer", ["X"], ["Y"], domain="ai.onnx.ml", imputed_value_int64s=imputed,
                            replaced_value_int64=-1)], [("X", i64, ["N", 3])], [("Y", i64)])
            yield f"Imputer int64 {len(imputed)} values batch {n}", m, [x]
        for ty, make in ((f32, lambda w: rng.standard_normal((n, w)).astype(np.float32)),
                         (i64, lambda w: rng.integers(-5, 5, (n, w)).astype(np.int64)),
                         (TensorProto.INT32, lambda w: rng.integers(-5, 5, (n, w)).astype(np.int32))):
            m = build([node("FeatureVectorizer", ["A", "B", "C"], ["Y"], domain="ai.onnx.ml",
                            inputdimensions=[3, 4, 2])],
                      [("A", ty, ["N", 3]), ("B", ty, ["N", 2]), ("C", ty, ["N", 4])], [("Y", f32)])
            yield f"FeatureVectorizer {ty} batch {n}", m, [make(3), make(2), make(4)]
        x = words[rng.integers(0, 4, size=(n, 3))]
        cats = dict(cats_strings=["red", "green", "blue"], cats_int64s=[7, 3, 5])
        m = build([node("CategoryMapper", ["X"], ["Y"], domain="ai.onnx.ml", default_int64=-4, **cats)],
                  [("X", s, ["N", 3])], [("Y", i64)])
        yield f"CategoryMapper to int64 batch {n}", m, [x]
        x = rng.choice([7, 3, 5, 0], size=(n, 3)).astype(np.int64)
        m = build([node("CategoryMapper", ["X"], ["Y"], domain="ai.onnx.ml", default_string="none", **cats)],
                  [("X", i64, ["N", 3])], [("Y", s)])
        yield f"CategoryMapper to string batch {n}", m, [x]


GENERATORS = [tfidf_variants, ml_variants, tree_variants, run_time_size_variants, map_variants,
              linear_model_variants, legacy_tree_variants, svm_variants, encoder_variants,
              top_k_variants, integer_abs_variants, nms_variants, spectral_variants]

# The generators whose models also run as AOT libraries (`run --aot`).
AOT_TOO = [run_time_size_variants, map_variants, legacy_tree_variants, svm_variants,
           encoder_variants, top_k_variants, nms_variants, spectral_variants]

# The generators checked against the onnx reference evaluator: onnxruntime
# sums long DFTs in f32 with f32 twiddles (an error of 1e-3 relative at
# 3000 points, where the evaluator's f64 FFT and onnx-mlc agree to 1e-7).
EVALUATOR = [spectral_variants]


def value_proto(x, name):
    """A test input as its proto: a tensor, or a map (a dict of Python
    floats, float32 as onnxruntime takes them, or ints, int64)."""
    if not isinstance(x, dict):
        return numpy_helper.from_array(x, name)
    keys = list(x)
    strings = isinstance(keys[0], str)
    dtype = np.float32 if isinstance(next(iter(x.values())), float) else np.int64
    values = [numpy_helper.from_array(np.asarray(v, dtype)) for v in x.values()]
    return helper.make_map(
        name,
        TensorProto.STRING if strings else TensorProto.INT64,
        [k.encode() for k in keys] if strings else keys,
        helper.make_sequence("values", onnx.SequenceProto.TENSOR, values),
    )


def output_value(path, sequence):
    """An output file of `onnx-mlc run`: an array, or a list of dicts for
    a sequence of maps (as onnxruntime gives it)."""
    data = path.read_bytes()
    if not sequence:
        return numpy_helper.to_array(onnx.load_tensor_from_string(data))
    seq = onnx.SequenceProto()
    seq.ParseFromString(data)
    items = numpy_helper.to_list(seq)
    return [{(k.decode() if isinstance(k, bytes) else k): float(np.asarray(v))
             for k, v in item.items()} for item in items]


def same(got, want):
    """Whether an output agrees with onnxruntime's (rtol 1e-4, atol 1e-5)."""
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            g.keys() == w.keys() and all(np.isclose(g[k], w[k], rtol=1e-4, atol=1e-5) for k in g)
            for g, w in zip(got, want))
    if got.dtype.kind in "OSU":
        return got.shape == want.shape and [str(v) for v in got.flat] == [
            v.decode() if isinstance(v, bytes) else str(v) for v in want.flat]
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5)


def reference(path, m, feeds, evaluator=False):
    """onnxruntime's outputs, or the onnx reference evaluator's for a
    variant onnxruntime has no kernel for (or `evaluator`: one whose
    reference onnxruntime computes less exactly than the tolerance)."""
    if evaluator:
        return ReferenceEvaluator(m).run(None, feeds)
    try:
        return ort.InferenceSession(str(path)).run(None, feeds)
    except ort.capi.onnxruntime_pybind11_state.NotImplemented:
        return ReferenceEvaluator(m).run(None, feeds)


def agrees(binary, tmp, mode, files, expected, name):
    """Runs the model in `tmp` through `onnx-mlc run` (with `mode`'s
    flags) and compares its outputs with `expected`; prints a line when
    they differ."""
    run = subprocess.run(
        [binary, "run", *mode, "--out", str(tmp / "out"), str(tmp / "model.onnx"), *files],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        print(f"FAIL {name}: {run.stderr.strip()[-400:]}")
        return False
    for k, want in enumerate(expected):
        got = output_value(tmp / "out" / f"output_{k}.pb", isinstance(want, list))
        if not same(got, want):
            print(f"FAIL {name}: output {k} is {got!r}, onnxruntime {want!r}")
            return False
    return True


def main():
    binary = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    rng = np.random.default_rng(0)
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for generate in GENERATORS:
            for name, m, inputs in generate(rng):
                if only not in name:
                    continue
                onnx.save(m, tmp / "model.onnx")
                files = []
                for i, x in enumerate(inputs):
                    path = tmp / f"input_{i}.pb"
                    path.write_bytes(value_proto(x, f"input_{i}").SerializeToString())
                    files.append(str(path))
                feeds = {v.name: x for v, x in zip(m.graph.input, inputs)}
                expected = reference(tmp / "model.onnx", m, feeds, generate in EVALUATOR)
                for mode in [[]] + ([["--aot"]] if generate in AOT_TOO else []):
                    label = f"{name} (AOT)" if mode else name
                    checked += 1
                    failed += not agrees(binary, tmp, mode, files, expected, label)

    print(f"checked {checked} variants, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
