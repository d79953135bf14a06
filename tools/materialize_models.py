#!/usr/bin/env python3
"""Regenerates the real models' weights (`.cache/models/<name>/`, `.cache/zoo/<family>/<name>/`).

`tests/models/<name>/` and the model zoo's `tests/zoo/<family>/<name>/` hold
each model's graph (`model.onnx`, large initializers stored as external data
in `weights.bin`) and the recipe of those weights (`weights.json`, written by
`tools/export_models.py` and `tools/export_zoo.py`; `omlc_tools/recipes.py`
describes it). This script writes `<out>/<name>/model.onnx` (a copy) and
`weights.bin`: every float tensor is a normal sample with the recorded mean
and standard deviation, clipped to the recorded [min, max] (so variances stay
positive), every 8-bit integer tensor uniform in its recorded [min, max], or
the recorded constant. The generator is seeded from the tensor's name, so the
bytes are the same on every machine and for every run. A model's name is its
folder below `--models` (`vision/resnet18` in the zoo).

Writing needs only numpy. Each model gets a stamp (a hash of its graph, its
recipe and this script); up-to-date models are skipped, so a second run is
instant. `--check` additionally loads each materialized model with the onnx
checker and runs it in onnxruntime on random inputs, requiring finite outputs.

Usage: materialize_models.py [--models DIR] [--out DIR] [--check] [name ...]
   e.g. materialize_models.py --models tests/zoo --out .cache/zoo
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

from omlc_tools import recipes, seeded

REPO = pathlib.Path(__file__).resolve().parent.parent
def stamp_of(model_dir: pathlib.Path) -> str:
    digest = hashlib.sha256()
    for path in (model_dir / "model.onnx", model_dir / "weights.json", pathlib.Path(__file__),
                 pathlib.Path(seeded.__file__), pathlib.Path(recipes.__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest() + "\n"


def materialize(model_dir: pathlib.Path, out: pathlib.Path) -> bool:
    """Writes `out/model.onnx` and `out/<weights file>`; False when already up to date."""
    stamp = stamp_of(model_dir)
    if (out / "STAMP").is_file() and (out / "STAMP").read_text() == stamp:
        return False
    recipe = json.loads((model_dir / "weights.json").read_text())
    if recipe.get("format") != recipes.FORMAT:
        raise ValueError(f"{model_dir}/weights.json: format is not {recipes.FORMAT!r}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "STAMP").unlink(missing_ok=True)
    partial = out / (recipe["file"] + ".partial")
    with partial.open("wb") as sink:
        for name, spec in sorted(recipe["tensors"].items(), key=lambda kv: kv[1]["offset"]):
            if spec["offset"] < sink.tell():
                raise ValueError(f"{name}: offset {spec['offset']} overlaps the previous tensor")
            sink.write(b"\0" * (spec["offset"] - sink.tell()))
            recipes.write_tensor(name, spec, sink)
        if sink.tell() != recipe["size"]:
            raise ValueError(f"{model_dir}: wrote {sink.tell()} bytes, recipe says {recipe['size']}")
    partial.rename(out / recipe["file"])
    shutil.copyfile(model_dir / "model.onnx", out / "model.onnx")
    (out / "STAMP").write_text(stamp)
    return True


def check(out: pathlib.Path, recipe: dict) -> str:
    """Checks the materialized model with onnx and onnxruntime; returns a summary."""
    import onnx
    import onnxruntime as ort

    onnx.checker.check_model(str(out / "model.onnx"))
    model = onnx.load(str(out / "model.onnx"), load_external_data=False)
    for init in model.graph.initializer:
        if init.data_location == onnx.TensorProto.EXTERNAL:
            entry = {e.key: e.value for e in init.external_data}
            spec = recipe["tensors"][init.name]
            if (int(entry["offset"]), int(entry["length"])) != (spec["offset"], spec["length"]):
                raise ValueError(f"{init.name}: model and recipe disagree on its placement")
    session = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"])
    outputs = session.run(None, dict(seeded.seeded_inputs(session, 0, recipe)))
    for info, value in zip(session.get_outputs(), outputs):
        if not np.isfinite(value).all():
            raise ValueError(f"output {info.name} is not finite")
    return ", ".join(f"{i.name} {list(v.shape)} |max| {np.abs(v).max():.3g}"
                     for i, v in zip(session.get_outputs(), outputs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=pathlib.Path, default=REPO / "tests" / "models",
                        help="the checked-in graphs and recipes (tests/models, tests/zoo)")
    parser.add_argument("--out", type=pathlib.Path, default=REPO / ".cache" / "models")
    parser.add_argument("--check", action="store_true",
                        help="run each model in onnxruntime (needs onnx and onnxruntime)")
    parser.add_argument("names", nargs="*", help="models to materialize (default: all)")
    args = parser.parse_args()

    available = sorted(p.parent.relative_to(args.models).as_posix()
                       for p in args.models.rglob("weights.json"))
    names = args.names or available
    unknown = sorted(set(names) - set(available))
    if unknown:
        parser.error(f"no weights.json for: {', '.join(unknown)}")
    for name in names:
        start = time.monotonic()
        out = args.out / name
        wrote = materialize(args.models / name, out)
        line = f"{name}: {'materialized' if wrote else 'up to date'}"
        if wrote:
            line += f" ({(out / 'weights.bin').stat().st_size / 2**20:.0f} MiB)"
        if args.check:
            recipe = json.loads((args.models / name / "weights.json").read_text())
            line += f"; runs: {check(out, recipe)}"
        print(f"{line} [{time.monotonic() - start:.1f}s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
