"""Running the `onnx-mlc` binary."""
from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import subprocess

from .models import REPO


def default_bin() -> pathlib.Path:
    """The release CLI: `$CARGO_TARGET_DIR/release/onnx-mlc` (default target/)."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "release" / "onnx-mlc"


def check_bin(binary: pathlib.Path) -> None:
    """Exits with the build command when the binary is missing."""
    if not binary.is_file():
        raise SystemExit(f"error: {binary} does not exist: cargo build --release -p onnx-mlc-cli")


class Unsupported(Exception):
    """onnx-mlc exited with 3: the model uses something it does not compile yet."""


@dataclasses.dataclass
class BenchRow:
    """One thread count's line of `onnx-mlc bench` (times in ms)."""

    median: float
    min: float
    p90: float
    compile_s: float


def _run(cmd: list[str]) -> str:
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode == 3:
        raise Unsupported(out.stderr.splitlines()[0])
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return out.stdout


def bench(binary: pathlib.Path, model: pathlib.Path, inputs=(), *, threads: int = 1,
          runs: int = 20, warmup: int = 3, flags=()) -> dict[int, BenchRow]:
    """`onnx-mlc bench`: a row per thread count (1 and `threads`). `inputs` are
    tensor files in graph order (none: the CLI's own seeded inputs); `flags`
    are compiler flags (`--no-egraph`, `--rules=…`, `--aot`, …)."""
    cmd = [str(binary), "bench", str(model), *map(str, inputs), "--runs", str(runs),
           "--warmup", str(warmup), "--threads", str(threads), *flags]
    rows = {}
    for line in _run(cmd).splitlines()[2:]:
        cells = line.split()
        rows[int(cells[0])] = BenchRow(float(cells[1]), float(cells[2]), float(cells[3]),
                                       float(cells[5]))
    return rows


def run(binary: pathlib.Path, model: pathlib.Path, inputs, out: pathlib.Path, flags=()) -> None:
    """`onnx-mlc run`: the model's outputs on `inputs`, as out/output_K.pb."""
    _run([str(binary), "run", str(model), "--out", str(out), *map(str, inputs), *flags])


def opt_report(binary: pathlib.Path, model: pathlib.Path) -> dict[str, str]:
    """Ops, estimated cost and optimizer time from `--emit opt --opt-report`."""
    out = subprocess.run([str(binary), str(model), "--emit", "opt", "--opt-report"],
                         capture_output=True, text=True, check=True).stderr
    ops = re.search(r"ops: (\d+) -> (\d+)", out)
    cost = re.search(r"estimated cost: ([\d.]+) ms -> ([\d.]+) ms", out)
    took = re.search(r"time: ([\d.]+) ms", out)
    return {
        "ops": f"{ops[1]} → {ops[2]}",
        "cost": f"{float(cost[1]):.1f} → {float(cost[2]):.1f}",
        "time": f"{float(took[1]):.0f}",
    }
