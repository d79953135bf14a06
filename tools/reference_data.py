#!/usr/bin/env python3
"""Writes reference data for a model: seeded inputs and onnxruntime's outputs.

`reference_data.py MODEL DIR` writes `DIR/input_K.pb` (one per graph input
that is not an initializer; float inputs standard normal, integer inputs in
[0, 8), symbolic dims set to 1) and `DIR/output_K.pb` (onnxruntime's outputs
for them), the layout of the ONNX backend tests' `test_data_set_0`. The
generator is seeded, so the data is the same on every run. Used by the AOT
tests for the real models, which ship without reference data.

Needs onnx, onnxruntime and numpy (tools/requirements.txt).
"""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    model_path, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    model = onnx.load(str(model_path), load_external_data=False)
    initializers = {i.name for i in model.graph.initializer}
    rng = np.random.default_rng(1234)
    feeds = {}
    for value in model.graph.input:
        if value.name in initializers:
            continue
        t = value.type.tensor_type
        dtype = helper.tensor_dtype_to_np_dtype(t.elem_type)
        shape = [d.dim_value if d.HasField("dim_value") else 1 for d in t.shape.dim]
        if np.issubdtype(dtype, np.floating):
            feeds[value.name] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[value.name] = rng.integers(0, 8, shape).astype(dtype)
    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    outputs = session.run(None, feeds)
    out.mkdir(parents=True, exist_ok=True)
    for i, (name, value) in enumerate(feeds.items()):
        (out / f"input_{i}.pb").write_bytes(numpy_helper.from_array(value, name).SerializeToString())
    for i, (meta, value) in enumerate(zip(session.get_outputs(), outputs)):
        (out / f"output_{i}.pb").write_bytes(
            numpy_helper.from_array(np.asarray(value), meta.name).SerializeToString()
        )


if __name__ == "__main__":
    main()
