#!/usr/bin/env python3
"""onnxruntime as the reference: its outputs on seeded inputs, and its latency.

    reference.py outputs MODEL DIR [--seed S] [--recipe weights.json]
    reference.py models [--models DIR] [--cache DIR] [name ...]
    reference.py time MODEL [--data DIR | --seed S] [--threads 1 2] [--runs 20] [--warmup 3]

MODEL is a file or the name of a model (`.cache/models/<name>` or
`tests/models/<name>`). `outputs` writes seeded inputs and onnxruntime's outputs on them as
`DIR/input_K.pb` and `DIR/output_K.pb` (serialized TensorProtos, the layout of
the ONNX backend tests' `test_data_set_0`). The seed `S` is an integer or a
name (hashed, so the same on every machine); without one it is the name of
the folder holding MODEL. Floats are standard normal; integers uniform over
the range the recipe's `int_ranges` gives the input (default [0, 2)); a
symbolic dim takes the recipe's `dim_values` (default 1). The outputs come
from the CPU provider with graph optimizations off: the graph as written,
not onnxruntime's rewrites of it. Used by the AOT tests for models without
reference data.

`models` does that for the real models: `.cache/models/<name>/test_data_set_0`
(seeded with the model's name, integer ranges and dims from
`tests/models/<name>/weights.json`), which the model tests and the benchmarks
compare onnx-mlc with; with `--models tests/zoo --cache .cache/zoo`, for the
model zoo: `test_data_set_K` at the K-th of the sizes its recipe lists (the
zoo test compares onnx-mlc with them). The models must be materialized first
(`tools/materialize_models.py`; `tools/setup.sh` runs both). Each data set
gets a stamp (a hash of the model's materialization stamp, the code that
makes the data and the onnxruntime version): up-to-date data is skipped, so a
second run is instant.

`time` prints onnxruntime's median latency in ms at each thread count, on the
inputs of a data set or seeded ones: the competitor's figure of the
benchmarks (all graph optimizations, `intra_op_num_threads` = the count, one
inter-op thread, sequential execution; `tools/bench.py ort` measures both
sides in one run).

Needs onnx, onnxruntime and numpy (tools/requirements.txt).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import shutil
import sys
import time

from omlc_tools import models, ort, seeded

STAMP = "REFERENCE_STAMP"


def summary(outputs) -> str:
    """`name [dims]` of each output (`name [N maps]` for a ZipMap's), for the progress line."""
    return ", ".join(f"{name} [{len(value)} maps]" if isinstance(value, list)
                     else f"{name} {list(value.shape)}" for name, value in outputs)


def reference_stamp(out: pathlib.Path) -> str:
    """What identifies a real model's data: its weights and the code making it."""
    import onnxruntime

    stamp = out / "STAMP"
    if not stamp.is_file():
        raise SystemExit(f"error: {out} is not materialized: run tools/materialize_models.py")
    digest = hashlib.sha256(stamp.read_bytes())
    for module in (sys.modules[__name__], seeded, models, ort):
        digest.update(pathlib.Path(module.__file__).read_bytes())
    digest.update(onnxruntime.__version__.encode())
    return digest.hexdigest() + "\n"


def write_model_data(model_src: pathlib.Path, cache: pathlib.Path, name: str) -> str:
    """`cache/<name>/test_data_set_K` of a real model, one per size its recipe
    lists (`sizes`: the dim values of data set K; else one data set, at
    `dim_values`), unless up to date."""
    recipe = models.recipe_of(name, model_src)
    if not recipe:
        raise SystemExit(f"error: {name} is not a model of {model_src} with a weight recipe")
    out = cache / name
    stamp = reference_stamp(out)
    lines = []
    for k, dims in enumerate(recipe.get("sizes") or [recipe.get("dim_values", {})]):
        data = out / f"test_data_set_{k}"
        if (data / STAMP).is_file() and (data / STAMP).read_text() == stamp:
            lines.append("up to date")
            continue
        partial = out / (data.name + ".partial")
        if partial.exists():
            shutil.rmtree(partial)
        sized = {**recipe, "dim_values": dims}
        lines.append("written: " + summary(ort.write_reference(
            out / "model.onnx", partial, seeded.seed_of(name), sized)))
        (partial / STAMP).write_text(stamp)
        if data.exists():
            shutil.rmtree(data)
        partial.rename(data)
    return "; ".join(lines)


def seed(args: argparse.Namespace) -> int:
    """`--seed`, or the name of the folder holding the model."""
    return seeded.seed_arg(args.seed) if args.seed else seeded.seed_of(args.model.parent.name)


def cmd_outputs(args: argparse.Namespace) -> int:
    recipe = json.loads(args.recipe.read_text()) if args.recipe else {}
    print(f"{args.dir}: {summary(ort.write_reference(args.model, args.dir, seed(args), recipe))}")
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    every = models.REAL_MODELS if args.models == models.CHECKED_IN else sorted(
        p.parent.relative_to(args.models).as_posix() for p in args.models.rglob("weights.json"))
    for name in args.names or every:
        start = time.monotonic()
        line = write_model_data(args.models, args.cache, name)
        print(f"{name}: {line} [{time.monotonic() - start:.1f}s]")
    return 0


def cmd_time(args: argparse.Namespace) -> int:
    if args.data:
        feeds = {name: value for _, name, value in models.read_data_set(args.data)}
    else:
        feeds = dict(seeded.seeded_inputs(ort.reference_session(args.model), seed(args)))
    for threads in args.threads:
        ms = ort.latency_ms(args.model, feeds, threads, args.runs, args.warmup)
        print(f"{threads} {ms:.3f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("outputs", help="seeded inputs and onnxruntime's outputs into DIR")
    p.add_argument("model", type=models.resolve, help="a model file, or a model's name")
    p.add_argument("dir", type=pathlib.Path)
    p.add_argument("--seed", help="an integer or a name (default: MODEL's folder name)")
    p.add_argument("--recipe", type=pathlib.Path,
                   help="a weights.json whose int_ranges and dim_values shape the inputs")
    p.set_defaults(run=cmd_outputs)

    p = sub.add_parser("models", help="the real models' .cache/models/<name>/test_data_set_0")
    p.add_argument("--models", type=pathlib.Path, default=models.CHECKED_IN,
                   help="the checked-in graphs and recipes (tests/models, tests/zoo)")
    p.add_argument("--cache", type=pathlib.Path, default=models.CACHE)
    p.add_argument("names", nargs="*",
                   help=f"models (default: {' '.join(models.REAL_MODELS)}; "
                   "with another --models, every model under it)")
    p.set_defaults(run=cmd_models)

    p = sub.add_parser("time", help="onnxruntime's median latency (ms) per thread count")
    p.add_argument("model", type=models.resolve, help="a model file, or a model's name")
    p.add_argument("--data", type=pathlib.Path, help="a data set whose input_K.pb to feed")
    p.add_argument("--seed", help="seeded inputs instead (default: MODEL's folder name)")
    p.add_argument("--threads", type=int, nargs="+", default=[1])
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.set_defaults(run=cmd_time)

    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
