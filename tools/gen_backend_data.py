#!/usr/bin/env python3
"""Generates the ONNX backend test data (`.cache/onnx-backend/`).

Wheels of onnx >= 1.23 ship the *generators* of the node test cases
(`onnx/backend/test/case/node/*.py`) but no longer their data, and
`python -m onnx.backend.test.cmd_tools generate-data` only writes the model
cases. This script runs the node and model generators itself and writes every
case in the layout of the ONNX repository's `onnx/backend/test/data/`:

    <out>/<kind>/<case>/model.onnx
    <out>/<kind>/<case>/test_data_set_<i>/{input,output}_<j>.pb

It then copies the data folders the wheel still ships (`simple`,
`pytorch-converted`, `pytorch-operator`, `real`, `light`), checks the number
of node cases, and writes a stamp (`<out>/STAMP`) naming the onnx release, so
that `tools/setup.sh` regenerates only when the release changes.

The generators draw inputs from numpy's global random state; it is seeded,
so a given onnx + numpy pair always writes the same bytes. Expected outputs
come from the generators (the ONNX reference implementations), never from us.

Usage: gen_backend_data.py [--out DIR]   (default: <repo>/.cache/onnx-backend)
"""
from __future__ import annotations

import argparse
import json
import pathlib
import shutil
import sys
import time
import warnings

import numpy as np
import onnx
import onnx.backend.test.case.model as model_cases
import onnx.backend.test.case.node as node_cases
from onnx import numpy_helper

REPO = pathlib.Path(__file__).resolve().parent.parent
WHEEL_DATA = pathlib.Path(onnx.__file__).parent / "backend" / "test" / "data"
WHEEL_FOLDERS = ("simple", "pytorch-converted", "pytorch-operator", "real", "light")

# Node cases per onnx release: a different count means the generators changed
# (or broke), which must not go unnoticed.
EXPECTED_NODE_CASES = {"1.23.2": 1884}


def stamp_text() -> str:
    """The stamp content for this onnx release; setup compares it verbatim."""
    return f"onnx=={onnx.__version__} node={EXPECTED_NODE_CASES.get(onnx.__version__)}\n"


def serialize_value(value, info: onnx.ValueInfoProto) -> bytes:
    """One input/output value as the protobuf message its declared type asks for."""
    kind = info.type.WhichOneof("value")
    if kind == "map_type":
        return numpy_helper.from_dict(value, info.name).SerializeToString()
    if kind == "sequence_type":
        return numpy_helper.from_list(value, info.name).SerializeToString()
    if kind == "optional_type":
        return numpy_helper.from_optional(value, info.name).SerializeToString()
    if kind != "tensor_type":
        raise ValueError(f"{info.name}: unsupported value kind {kind}")
    if isinstance(value, onnx.TensorProto):
        return value.SerializeToString()
    return numpy_helper.from_array(value, info.name).SerializeToString()


def write_case(case, out: pathlib.Path) -> None:
    """Writes one generated case below `out/<kind>/<name>/`."""
    case_dir = out / case.kind / case.name
    case_dir.mkdir(parents=True)
    if case.kind == "real":
        # Real cases name a model on a hub; only their description is data.
        meta = {"url": case.url, "model_name": case.model_name, "rtol": case.rtol,
                "atol": case.atol}
        (case_dir / "data.json").write_text(json.dumps(meta, sort_keys=True))
        return
    graph = case.model.graph
    (case_dir / "model.onnx").write_bytes(case.model.SerializeToString())
    for i, (inputs, outputs) in enumerate(case.data_sets):
        set_dir = case_dir / f"test_data_set_{i}"
        set_dir.mkdir()
        for prefix, values, infos in (("input", inputs, graph.input),
                                      ("output", outputs, graph.output)):
            for j, value in enumerate(values):
                (set_dir / f"{prefix}_{j}.pb").write_bytes(serialize_value(value, infos[j]))


def generate(out: pathlib.Path) -> dict[str, int]:
    """Writes everything into `out` (which must not exist); returns case counts per kind."""
    np.random.seed(0)
    # Some generators compute their expected infinities by dividing by zero.
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    cases = node_cases.collect_testcases(None) + [
        c for c in model_cases.collect_testcases() if c.kind != "real"
    ]
    for case in cases:
        write_case(case, out)
    for folder in WHEEL_FOLDERS:
        # The wheel's copies of cases we just generated are older snapshots
        # of the same generators: the fresh ones win.
        for src in sorted((WHEEL_DATA / folder).iterdir()):
            dst = out / folder / src.name
            if dst.exists():
                continue
            if src.is_dir():
                shutil.copytree(src, dst)
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
    return {d.name: len(list(d.iterdir())) for d in sorted(out.iterdir())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=REPO / ".cache" / "onnx-backend")
    args = parser.parse_args()
    out: pathlib.Path = args.out

    stamp = out / "STAMP"
    if stamp.is_file() and stamp.read_text() == stamp_text():
        print(f"backend data: up to date in {out}")
        return 0
    expected = EXPECTED_NODE_CASES.get(onnx.__version__)
    if expected is None:
        print(f"error: no expected node-case count for onnx {onnx.__version__}; "
              f"add it to EXPECTED_NODE_CASES in {pathlib.Path(__file__).name}", file=sys.stderr)
        return 1

    start = time.monotonic()
    staging = out.with_name(out.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    counts = generate(staging)
    if counts.get("node") != expected:
        print(f"error: generated {counts.get('node')} node cases, expected {expected} "
              f"for onnx {onnx.__version__}", file=sys.stderr)
        return 1
    (staging / "STAMP").write_text(stamp_text())
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    summary = ", ".join(f"{kind} {n}" for kind, n in counts.items())
    print(f"backend data: {summary} in {time.monotonic() - start:.1f}s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
