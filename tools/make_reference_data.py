#!/usr/bin/env python3
"""Writes onnxruntime's outputs on seeded inputs for the real models.

For each model this writes `.cache/models/<name>/test_data_set_0/input_K.pb`
and `output_K.pb` (serialized `TensorProto`s, the layout of the ONNX backend
test data), which the model tests and the benchmarks compare onnx-mlc with:

* inputs are seeded from the model's name, so they are the same bytes on
  every machine: float inputs are standard normal samples; integer inputs
  (token ids, masks, segment ids) are uniform over the range the model's
  `weights.json` records (`int_ranges`: ids below the vocabulary size, an
  attention mask of ones, token types 0 or 1);
* outputs are onnxruntime's (CPU provider, graph optimizations off, so they
  are the graph as written, not onnxruntime's rewrites of it).

The real models must be materialized first (`tools/materialize_models.py`,
which `setup.sh` runs before this). The small checked-in models (the demo
model, the MLP of `tools/make_mlp.py`) carry their reference data in
`tests/models/<name>/test_data_set_0`. Each model's data gets a stamp (a hash
of the model's materialization stamp, this script and the onnxruntime
version); up-to-date data is skipped, so a second run is instant.

Usage: make_reference_data.py [--models DIR] [--cache DIR] [name ...]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import shutil
import sys
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parent.parent
# The real models (the `_dynamic` variants share their static twin's data).
MODELS = ["resnet50", "mobilenet_v2", "efficientnet_b0", "vit_b_16", "bert_base", "gpt2"]
DATA_SET = "test_data_set_0"
STAMP = "REFERENCE_STAMP"

ORT_TYPES = {
    "tensor(float)": np.float32,
    "tensor(double)": np.float64,
    "tensor(int64)": np.int64,
    "tensor(int32)": np.int32,
}


def seed_of(name: str) -> int:
    """A generator seed stable across machines and Python runs."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")


def recipe_of(models: pathlib.Path, name: str) -> dict:
    path = models / name / "weights.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def model_stamp(models: pathlib.Path, out: pathlib.Path, name: str) -> bytes:
    """The materialization stamp of `out/model.onnx` (what identifies its content)."""
    if not (models / name / "weights.json").is_file():
        raise SystemExit(f"error: {name} is not a model of {models} with a weight recipe")
    stamp = out / "STAMP"
    if not stamp.is_file():
        raise SystemExit(f"error: {out} is not materialized: run tools/materialize_models.py")
    return stamp.read_bytes()


def seeded_inputs(session, name: str, recipe: dict) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(seed_of(name))
    ranges = recipe.get("int_ranges", {})
    dims = recipe.get("dim_values", {})
    feeds = []
    for info in session.get_inputs():
        shape = [d if isinstance(d, int) else dims[d] for d in info.shape]
        dtype = ORT_TYPES.get(info.type)
        if dtype is None:
            raise ValueError(f"{name}: input {info.name}: no generator for {info.type}")
        if np.issubdtype(dtype, np.floating):
            value = rng.standard_normal(shape).astype(dtype)
        else:
            low, high = ranges.get(info.name, (0, 2))
            value = rng.integers(low, high, shape, dtype=dtype)
        feeds.append((info.name, value))
    return feeds


def write_reference(models: pathlib.Path, cache: pathlib.Path, name: str) -> str:
    import onnxruntime as ort
    from onnx import numpy_helper

    out = cache / name
    identity = model_stamp(models, out, name)
    digest = hashlib.sha256(identity)
    digest.update(pathlib.Path(__file__).read_bytes())
    digest.update(ort.__version__.encode())
    stamp = digest.hexdigest() + "\n"
    data = out / DATA_SET
    if (data / STAMP).is_file() and (data / STAMP).read_text() == stamp:
        return "up to date"

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(str(out / "model.onnx"), options,
                                   providers=["CPUExecutionProvider"])
    feeds = seeded_inputs(session, name, recipe_of(models, name))
    outputs = session.run(None, dict(feeds))
    names = [o.name for o in session.get_outputs()]
    for n, v in zip(names, outputs):
        if not np.isfinite(v).all():
            raise ValueError(f"{name}: output {n} is not finite")

    if data.exists():
        shutil.rmtree(data)
    partial = out / (DATA_SET + ".partial")
    if partial.exists():
        shutil.rmtree(partial)
    partial.mkdir()
    for k, (n, v) in enumerate(feeds):
        (partial / f"input_{k}.pb").write_bytes(numpy_helper.from_array(v, n).SerializeToString())
    for k, (n, v) in enumerate(zip(names, outputs)):
        (partial / f"output_{k}.pb").write_bytes(
            numpy_helper.from_array(np.asarray(v), n).SerializeToString())
    (partial / STAMP).write_text(stamp)
    partial.rename(data)
    return "written: " + ", ".join(f"{n} {list(v.shape)}" for n, v in zip(names, outputs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=pathlib.Path, default=REPO / "tests" / "models")
    parser.add_argument("--cache", type=pathlib.Path, default=REPO / ".cache" / "models")
    parser.add_argument("names", nargs="*", help=f"models (default: {' '.join(MODELS)})")
    args = parser.parse_args()
    for name in args.names or MODELS:
        start = time.monotonic()
        line = write_reference(args.models, args.cache, name)
        print(f"{name}: {line} [{time.monotonic() - start:.1f}s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
