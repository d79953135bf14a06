#!/usr/bin/env python3
"""Checks the models onnx-mlc exported against ONNX's tools and the originals.

Usage: check_exported.py [--tolerance R] DIR

DIR/manifest.tsv lists one exported model per line, tab-separated: its name,
the original model, the exported model, and the test data sets (each
`folder|file prefix`: inputs are `folder/{prefix}input_K.pb`). The Rust test
`export_round_trip` writes both; several exported models may share an
original (which is then checked and run once).

For each exported model:
- `onnx.checker.check_model(full_check=True)` must accept the exported model
  whenever it accepts the original (full_check runs strict shape inference,
  so the exported value_info must agree with ONNX's inference);
- onnxruntime runs the original and the exported model on the test inputs
  (inputs without a file get deterministic data), and the outputs must be
  identical: same types, shapes and bits (NaNs equal; outputs of types numpy
  cannot hold, such as bfloat16, as raw bytes). Both run single
  threaded with graph optimizations off, so equal graphs compute equal bits.
  Cases whose original onnxruntime cannot load or run are counted, not
  compared. With `--tolerance R` (for models the graph optimizer rewrote,
  which may round differently), float outputs need only agree within R,
  relative and absolute (16 units in the last place for types coarser than
  that, such as float16).

Prints one line per failing case, then a summary; exits 1 if any case fails.
"""

import ctypes
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

# Outcomes; the first three are failures of the exporter.
CHECKER = "exported model fails the checker, the original passes"
ORT_LOAD = "onnxruntime runs the original but not the exported model"
DIFFERS = "outputs differ"
OK = "ok"
MATCHES_REFERENCE = "ok (differs from onnxruntime on the original, matches the reference data)"
ORIGINAL_FAILS_CHECKER = "ok (the original fails the checker too)"
ORT_UNSUPPORTED = "not compared (onnxruntime cannot run the original)"
RANDOM_VALUES = "ok (random values: shapes and dtypes compared)"
FAILURES = (CHECKER, ORT_LOAD, DIFFERS)

# Operators whose values depend on a random generator (Dropout only in
# training mode, where its outputs differ by value alone): their outputs
# are compared by shape and dtype, as the conformance run checks them.
RANDOM_OPS = {("", op) for op in ("Bernoulli", "Dropout", "Multinomial", "RandomNormal",
                                   "RandomNormalLike", "RandomUniform", "RandomUniformLike")}

# `--tolerance`: None compares floats bit for bit.
TOLERANCE = None


def checker_error(path):
    try:
        onnx.checker.check_model(path, full_check=True)
        return None
    except Exception as e:  # the checker raises several exception types
        return first_line(e)


def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 4
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def read_value(path, type_proto):
    """A test value (`.pb`) of the kind `type_proto` describes."""
    with open(path, "rb") as f:
        data = f.read()
    kind = type_proto.WhichOneof("value")
    if kind == "sequence_type":
        proto = onnx.SequenceProto()
        proto.ParseFromString(data)
        return numpy_helper.to_list(proto)
    if kind == "map_type":
        proto = onnx.MapProto()
        proto.ParseFromString(data)
        return numpy_helper.to_dict(proto)
    if kind == "optional_type":
        proto = onnx.OptionalProto()
        proto.ParseFromString(data)
        return numpy_helper.to_optional(proto)
    proto = onnx.TensorProto()
    proto.ParseFromString(data)
    return numpy_helper.to_array(proto)


def dummy_input(value_info):
    """Deterministic data for an input without a test value file."""
    t = value_info.type.tensor_type
    shape = [d.dim_value if d.HasField("dim_value") else 1 for d in t.shape.dim]
    dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)
    return np.random.default_rng(0).standard_normal(shape).astype(dtype)


def ort_input(array, type_proto):
    """An input onnxruntime accepts: numpy arrays, except the ml_dtypes types
    (bfloat16, float8) onnx's numpy_helper gives, which go in as OrtValues."""
    if not isinstance(array, np.ndarray) or array.dtype.type.__module__ != "ml_dtypes":
        return array
    bits = np.dtype(f"uint{8 * array.dtype.itemsize}")
    elem = type_proto.tensor_type.elem_type
    return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(array.view(bits), elem)


def ort_value(value):
    if isinstance(value, np.ndarray):
        return ort.OrtValue.ortvalue_from_numpy(value)
    return value


def feeds(model, folder, prefix):
    """The inputs of one test data set, by graph input name: the files
    `{prefix}input_K.pb` for graph input K, or (`light/` models have no
    input files) deterministic data for each input without an initializer."""
    inputs = model.graph.input
    files = [os.path.join(folder, f"{prefix}input_{k}.pb") for k in range(len(inputs))]
    if any(os.path.exists(p) for p in files):
        out = {
            vi.name: ort_input(read_value(p, vi.type), vi.type)
            for vi, p in zip(inputs, files)
            if os.path.exists(p)
        }
        # onnxruntime takes OrtValues only when every input is one.
        if any(isinstance(v, ort.OrtValue) for v in out.values()):
            out = {k: ort_value(v) for k, v in out.items()}
        return out
    initialized = {t.name for t in model.graph.initializer}
    return {vi.name: dummy_input(vi) for vi in inputs if vi.name not in initialized}


# Bits per element of the output types numpy cannot hold (packed).
NON_NUMPY_BITS = {
    "tensor(bfloat16)": 16,
    "tensor(float8e4m3fn)": 8,
    "tensor(float8e4m3fnuz)": 8,
    "tensor(float8e5m2)": 8,
    "tensor(float8e5m2fnuz)": 8,
    "tensor(int4)": 4,
    "tensor(uint4)": 4,
    "tensor(float4e2m1)": 4,
    "tensor(int2)": 2,
    "tensor(uint2)": 2,
}


def run(sess, inputs):
    """The outputs of one run; when numpy cannot hold one (bfloat16, some
    float8, int4, …), tensors of those types as their type, shape and raw
    bytes."""
    try:
        return sess.run(None, inputs)
    except Exception as e:
        if "No corresponding Numpy type" not in str(e):
            raise
    outputs = []
    for v in sess.run_with_ort_values(None, inputs):
        bits = NON_NUMPY_BITS.get(v.data_type()) if v.is_tensor() else None
        if bits is None:
            outputs.append(v.numpy())
        else:
            size = (bits * int(np.prod(v.shape())) + 7) // 8
            outputs.append((v.data_type(), tuple(v.shape()), ctypes.string_at(v.data_ptr(), size)))
    return outputs


def same(a, b):
    """Whether two onnxruntime outputs are identical (NaNs equal)."""
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            same(x, y) for x, y in zip(a, b)
        )
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(
            same(a[k], b[k]) for k in a
        )
    if a is None or b is None or isinstance(a, tuple) or isinstance(b, tuple):
        return a == b
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        if TOLERANCE is not None:
            # R, or 16 units in the last place of a coarser type (float16).
            tol = max(TOLERANCE, 16 * float(np.finfo(a.dtype).eps))
            return np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
        return np.array_equal(a, b, equal_nan=True)
    return np.array_equal(a, b)


def same_kind(a, b):
    """Whether two onnxruntime tensor outputs have one shape and dtype."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape


def check_original(lines):
    """Checks the exported models of one original (manifest lines sharing
    it): the original is checked and run once."""
    original, sets = lines[0][1], lines[0][3]
    original_checker = checker_error(original)
    runs = []
    try:
        model = onnx.load(original)
        original_ops = op_types(model.graph)
        reference = session(original)
        for entry in sets:
            folder, prefix = entry.split("|", 1)
            inputs = feeds(model, folder, prefix)
            runs.append((inputs, run(reference, inputs), folder))
        unsupported = None
    except Exception as e:
        original_ops, unsupported = set(), first_line(e)
    return [check_exported(name, exported, original_checker, runs, unsupported, original_ops)
            for name, _, exported, _ in lines]


def check_exported(name, exported, original_checker, runs, unsupported, original_ops):
    exported_checker = checker_error(exported)
    if exported_checker and not original_checker:
        return name, CHECKER, exported_checker
    if unsupported:
        return name, ORT_UNSUPPORTED, unsupported
    try:
        candidate = session(exported)
        results = [run(candidate, inputs) for inputs, _, _ in runs]
    except Exception as e:
        return name, ORT_LOAD, first_line(e)
    differs = [(expected, actual, folder) for (_, expected, folder), actual in zip(runs, results)
               if len(expected) != len(actual) or not all(map(same, expected, actual))]
    if differs:
        # A rewrite into the ops of an operator's spec definition (the
        # pipeline's `decompose`: some op type of the original is gone) may
        # round differently from, or disagree with, onnxruntime's own
        # kernel: it is right when it matches the case's reference data as
        # the backend runner compares.
        rewritten = bool(original_ops - op_types(onnx.load(exported).graph))
        if rewritten and all(matches_reference(actual, folder) for _, actual, folder in differs):
            return name, MATCHES_REFERENCE, ""
        if original_ops & RANDOM_OPS and all(
                len(expected) == len(actual) and all(map(same_kind, expected, actual))
                for expected, actual, _ in differs):
            return name, RANDOM_VALUES, ""
        return name, DIFFERS, ""
    return name, ORIGINAL_FAILS_CHECKER if original_checker else OK, original_checker or ""


def op_types(graph):
    """The (domain, op type) pairs of a graph's nodes, subgraphs included."""
    found = set()
    for node in graph.node:
        found.add((node.domain, node.op_type))
        for attr in node.attribute:
            for sub in [attr.g, *attr.graphs] if attr.HasField("g") else attr.graphs:
                found |= op_types(sub)
    return found


def matches_reference(actual, folder):
    """Whether outputs equal the case's `output_K.pb` files within the
    backend runner's tolerance (rtol 1e-3, atol 1e-4)."""
    try:
        expected = [numpy_helper.to_array(onnx.load_tensor(os.path.join(folder, f"output_{k}.pb")))
                    for k in range(len(actual))]
    except Exception:
        return False
    return all(np.asarray(a).shape == e.shape and np.asarray(a).dtype == e.dtype and (
        np.allclose(a, e, rtol=1e-3, atol=1e-4, equal_nan=True) if e.dtype.kind in "fc"
        else np.array_equal(a, e)) for a, e in zip(actual, expected))


def first_line(e):
    """The first line of an exception's message (onnxruntime's run long)."""
    text = str(e).strip()
    return text.splitlines()[0][:300] if text else type(e).__name__


def main():
    global TOLERANCE
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--tolerance":
        TOLERANCE = float(args[1])
        args = args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    by_original = {}
    with open(os.path.join(args[0], "manifest.tsv")) as f:
        for line in filter(str.strip, f):
            name, original, exported, *sets = line.rstrip("\n").split("\t")
            sets = [s for s in sets if s]
            by_original.setdefault(original, []).append((name, original, exported, sets))
    jobs = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        groups = pool.map(check_original, by_original.values(), chunksize=8)
        results = [r for group in groups for r in group]
    tally = {}
    for name, outcome, detail in results:
        tally[outcome] = tally.get(outcome, 0) + 1
        if outcome in FAILURES:
            print(f"FAIL {name}: {outcome}: {detail}")
    for outcome in (OK, MATCHES_REFERENCE, ORIGINAL_FAILS_CHECKER, ORT_UNSUPPORTED, *FAILURES):
        print(f"{tally.get(outcome, 0):5} {outcome}")
    failures = sum(tally.get(o, 0) for o in FAILURES)
    print(f"checked {len(results)} models")
    print(f"failures: {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
