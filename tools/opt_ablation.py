#!/usr/bin/env python3
"""The e-graph optimizer's ablation table on the real models.

For each model: the optimizer's report with the default rule sets (ops
before/after, estimated cost before/after, optimizer time, from
`--emit opt --opt-report`), then the latency at one thread with the default
rule sets and with `--no-egraph` (`onnx-mlc bench`, median and min of
--runs runs, the two measured back to back in the same run). Prints a
Markdown table (the one in docs/optimizer.md).

Measure on a release build; the load average is printed before and after,
since other processes on the machine inflate the latencies.

Usage: opt_ablation.py [--bin target/release/onnx-mlc] [--runs 10] [name ...]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess

REPO = pathlib.Path(__file__).resolve().parent.parent
MODELS = ["resnet50", "mobilenet_v2", "efficientnet_b0", "vit_b_16", "bert_base", "gpt2"]


def default_bin() -> pathlib.Path:
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "release" / "onnx-mlc"


def report(binary: pathlib.Path, model: pathlib.Path) -> dict[str, str]:
    """Ops, estimated cost and time from the optimizer's report."""
    out = subprocess.run([str(binary), str(model), "--emit", "opt", "--opt-report"],
                         capture_output=True, text=True, check=True).stderr
    ops = re.search(r"ops: (\d+) -> (\d+)", out)
    cost = re.search(r"estimated cost: ([\d.]+) ms -> ([\d.]+) ms", out)
    time = re.search(r"time: ([\d.]+) ms", out)
    return {
        "ops": f"{ops[1]} → {ops[2]}",
        "cost": f"{float(cost[1]):.1f} → {float(cost[2]):.1f}",
        "time": f"{float(time[1]):.0f}",
    }


def latency(binary: pathlib.Path, model: pathlib.Path, runs: int, extra: list[str]):
    """(median, min) latency in ms at one thread."""
    cmd = [str(binary), "bench", str(model), "--runs", str(runs), "--warmup", "3",
           "--threads", "1", *extra]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    cells = out.splitlines()[-1].split()
    return float(cells[1]), float(cells[2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=pathlib.Path, default=default_bin())
    parser.add_argument("--cache", type=pathlib.Path, default=REPO / ".cache" / "models")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("names", nargs="*", default=MODELS)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    print()
    print("| model | ops before → after | est. cost (ms) before → after | opt time (ms) "
          "| `--no-egraph` median (min) ms | default median (min) ms | speed-up (median) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.names:
        model = args.cache / name / "model.onnx"
        r = report(args.bin, model)
        off = latency(args.bin, model, args.runs, ["--no-egraph"])
        on = latency(args.bin, model, args.runs, [])
        print(f"| {name} | {r['ops']} | {r['cost']} | {r['time']} "
              f"| {off[0]:.1f} ({off[1]:.1f}) | {on[0]:.1f} ({on[1]:.1f}) "
              f"| {off[0] / on[0]:.2f}× |", flush=True)
    print()
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
