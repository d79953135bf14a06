"""Op variants beyond the ONNX backend suite, checked against onnxruntime.

The backend suite exercises few of the attribute combinations some ops
have (TfIdfVectorizer's cases are all mode TF, without weights). Each
generator below yields small models with seeded random inputs; every model
runs through `onnx-mlc run` (JIT) and through onnxruntime, and the outputs
must agree (rtol 1e-4, atol 1e-5).

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


def model(node, inputs, output, opset):
    """A one-node model; `inputs` are (name, TensorProto type, shape)."""
    graph = helper.make_graph(
        [node],
        "variant",
        [helper.make_tensor_value_info(n, t, list(s)) for n, t, s in inputs],
        [helper.make_tensor_value_info(output, TensorProto.FLOAT, None)],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
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


GENERATORS = [tfidf_variants]


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
                expected = ort.InferenceSession(str(tmp / "model.onnx")).run(None, feeds)
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
