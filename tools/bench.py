#!/usr/bin/env python3
"""Benchmarks onnx-mlc against onnxruntime on the real models.

For each model this prints the latency of `onnx-mlc bench` (JIT) and of
onnxruntime (CPU provider, all graph optimizations, `intra_op_num_threads`
set to the same thread count) at 1 and 2 threads, measured in the same run on
the same inputs (the seeded reference inputs of
`.cache/models/<name>/test_data_set_0`, see `tools/make_reference_data.py`;
the MLP's are checked in at `tests/models/mlp/test_data_set_0`),
and the ratio onnx-mlc / onnxruntime of the medians. Then the optimizer
ablation: onnx-mlc at 1 thread with the e-graph optimizer (default rule
sets) and with `--no-egraph`.

A model onnx-mlc cannot compile yet shows `unsupported` in its cells.
Measure on a release build and on an idle machine: the load average is
printed before and after.

Usage: bench.py [--bin target/release/onnx-mlc] [--runs 20] [--warmup 3]
                [--threads 2] [--no-ablation] [name ...]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parent.parent
MODELS = ["resnet50", "mobilenet_v2", "efficientnet_b0", "vit_b_16", "bert_base", "gpt2", "mlp"]


def default_bin() -> pathlib.Path:
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "release" / "onnx-mlc"


def model_dir(cache: pathlib.Path, name: str) -> pathlib.Path:
    """Where `name`'s model.onnx and test_data_set_0 are: the cache, or the
    checked-in small models."""
    cached = cache / name
    return cached if (cached / "model.onnx").is_file() else REPO / "tests" / "models" / name


class Unsupported(Exception):
    """onnx-mlc exited with 3: the model uses something not compiled yet."""


def onnx_mlc(binary: pathlib.Path, model: pathlib.Path, inputs: list[pathlib.Path],
             args: argparse.Namespace, threads: int, extra: list[str]) -> dict[int, float]:
    """Median latency (ms) per thread count from `onnx-mlc bench`."""
    cmd = [str(binary), "bench", str(model), *map(str, inputs), "--runs", str(args.runs),
           "--warmup", str(args.warmup), "--threads", str(threads), *extra]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode == 3:
        raise Unsupported(out.stderr.splitlines()[0])
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")
    medians = {}
    for line in out.stdout.splitlines()[2:]:
        cells = line.split()
        medians[int(cells[0])] = float(cells[1])
    return medians


def onnxruntime(model: pathlib.Path, feeds: dict[str, np.ndarray], threads: int,
                args: argparse.Namespace) -> float:
    """Median latency (ms) of onnxruntime at `threads` intra-op threads."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    for _ in range(args.warmup):
        session.run(None, feeds)
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        session.run(None, feeds)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def reference_inputs(data: pathlib.Path) -> tuple[list[pathlib.Path], dict[str, np.ndarray]]:
    import onnx
    from onnx import numpy_helper

    files = sorted(data.glob("input_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
    feeds = {}
    for f in files:
        t = onnx.load_tensor(str(f))
        feeds[t.name] = numpy_helper.to_array(t)
    return files, feeds


def cell(value: float | None) -> str:
    return "unsupported" if value is None else f"{value:.3f}"


def ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or b is None else f"{a / b:.2f}x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=pathlib.Path, default=default_bin(),
                        help="the onnx-mlc binary (default: $CARGO_TARGET_DIR/release/onnx-mlc)")
    parser.add_argument("--cache", type=pathlib.Path, default=REPO / ".cache" / "models")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2, help="the thread count besides 1")
    parser.add_argument("--no-ablation", action="store_true",
                        help="skip the with/without e-graph comparison")
    parser.add_argument("names", nargs="*", help=f"models (default: {' '.join(MODELS)})")
    args = parser.parse_args()
    if not args.bin.is_file():
        print(f"error: {args.bin} does not exist: cargo build --release -p onnx-mlc-cli",
              file=sys.stderr)
        return 1
    names = args.names or MODELS
    counts = [1, args.threads]

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} "
          f"(1 min) at start; {args.runs} runs after {args.warmup} warm-up runs; "
          f"median latency in ms")
    print()
    header = ["model"]
    for t in counts:
        header += [f"onnx-mlc {t}T", f"onnxruntime {t}T", f"ratio {t}T"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    unsupported = {}
    for name in names:
        model = model_dir(args.cache, name) / "model.onnx"
        files, feeds = reference_inputs(model.parent / "test_data_set_0")
        try:
            ours = onnx_mlc(args.bin, model, files, args, args.threads, [])
        except Unsupported as e:
            ours = {}
            unsupported[name] = str(e)
        row = [name]
        for t in counts:
            theirs = onnxruntime(model, feeds, t, args)
            row += [cell(ours.get(t)), cell(theirs), ratio(ours.get(t), theirs)]
        print("| " + " | ".join(row) + " |", flush=True)

    if not args.no_ablation:
        print()
        print("optimizer ablation (onnx-mlc, 1 thread, median ms):")
        print()
        print("| model | e-graph (default rules) | --no-egraph | speed-up |")
        print("|---|---|---|---|")
        for name in names:
            if name in unsupported:
                print(f"| {name} | unsupported | unsupported | — |")
                continue
            model = model_dir(args.cache, name) / "model.onnx"
            files, _ = reference_inputs(model.parent / "test_data_set_0")
            on = onnx_mlc(args.bin, model, files, args, 1, [])[1]
            off = onnx_mlc(args.bin, model, files, args, 1, ["--no-egraph"])[1]
            print(f"| {name} | {on:.3f} | {off:.3f} | {off / on:.2f}x |", flush=True)

    if unsupported:
        print()
        for name, why in unsupported.items():
            print(f"{name}: {why}")
    print()
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
