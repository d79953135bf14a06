"""Per-kernel profile of a model: CPU time and GFLOP/s per kernel.

`onnx-mlc bench` measures a whole model; this says which kernels the time
goes to. It compiles the model to a shared library (`onnx-mlc MODEL -o
DIR/model.so`) and to the `linalg` stage (kernel signatures, call sites),
runs `onnx-mlc bench --aot --threads N` (`--threads`, default 1) under
`perf record` (cpu-clock
samples, so CPU time: less sensitive to a busy machine than wall time), and
attributes the samples that fall in the benchmarked library to the kernel
functions of DIR/model.so by address: the compiler's output is
deterministic, so the library `bench` builds has the same layout (kernels
are local symbols, present in the unstripped library). A kernel's chunk
function (`kN_task`, run by the pool's threads) counts as its kernel; at
several threads the CPU time is summed over the threads, and the
runtime's own functions (the pool's spinning) show by name.

For each distinct kernel function (identical kernels share one, so a
function may be called several times per run) it prints the calls per run,
the memref types of its arguments, the CPU time per run over all calls, and
for convolutions (`O×C×kh×kw` weights) and matrix products (`N×K` weights)
the GFLOP/s achieved (2 flops per multiply-add).

MODEL is a path or the name of a model (`.cache/models/<name>` or
`tests/models/<name>`). The compiler flags, e.g. `--no-egraph` or
`--rules=fusion`, go to every `onnx-mlc` call; put them after `--`.
Needs `perf`, `nm` and `readelf`.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import math
import pathlib
import re
import subprocess
import sys
import tempfile

from .. import models

FREQ = 2000  # perf sampling frequency, Hz


def text_symbols(lib: pathlib.Path) -> list[tuple[int, str]]:
    """(address, name) of the library's functions, sorted by address."""
    out = subprocess.run(["nm", "-n", str(lib)], capture_output=True, text=True, check=True)
    syms = []
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            syms.append((int(parts[0], 16), parts[2]))
    return syms


def file_offsets_to_addresses(lib: pathlib.Path):
    """A function from a file offset in the library to its virtual address
    (the address `nm` gives): perf reports the samples of a library it
    cannot read (`bench` deletes its own) as file offsets, and a loadable
    segment's offset and address may differ (by 4 KiB for lld's code
    segment, about half a kernel: samples went to the kernel before)."""
    out = subprocess.run(["readelf", "-lW", str(lib)], capture_output=True, text=True,
                         check=True)
    segments = []
    for line in out.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "LOAD":
            offset, vaddr, size = int(parts[1], 16), int(parts[2], 16), int(parts[4], 16)
            segments.append((offset, vaddr, size))

    def address(offset: int) -> int:
        for start, vaddr, size in segments:
            if start <= offset < start + size:
                return offset - start + vaddr
        return offset
    return address


def samples_by_address(data: pathlib.Path) -> tuple[str | None, list[tuple[int, int]]]:
    """The benchmarked library's name in the profile and its (file offset,
    samples) pairs."""
    out = subprocess.run(["perf", "report", "-i", str(data), "--sort", "dso,sym", "--stdio",
                          "-F", "sample,dso,sym"], capture_output=True, text=True, check=True)
    rows, dso = [], None
    for line in out.stdout.splitlines():
        m = re.match(r"\s*(\d+)\s+(libonnx-mlc-\S+\.so)\s+\[\.\]\s+0x([0-9a-f]+)", line)
        if m:
            dso = m.group(2)
            rows.append((int(m.group(3), 16), int(m.group(1))))
    return dso, rows


def signatures(linalg: str) -> dict[str, list[str]]:
    """Kernel name → shapes of its f32 memref arguments."""
    return {m.group(1): re.findall(r"memref<([0-9x]+)xf32>", m.group(2))
            for m in re.finditer(r"func\.func @(k\d+)\((.*?)\) attributes", linalg)}


def flops(shapes: list[str]) -> int:
    """Flops of one call: a convolution (4-D weights, 4-D output) or a
    matrix product (`a[…, m, k] · b[…, k, n]`, the first two arguments);
    0 for anything else."""
    if len(shapes) < 3:
        return 0
    a, w, y = ([int(d) for d in s.split("x")] for s in (shapes[0], shapes[1], shapes[-1]))
    if len(w) == 4 and len(y) == 4:
        return 2 * w[0] * w[1] * w[2] * w[3] * y[2] * y[3]
    if len(a) >= 2 and len(w) >= 2 and len(y) >= 2 and a[-1] == w[-2]:
        return 2 * a[-1] * math.prod(y)
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", help="a model file, or a model's name")
    parser.add_argument("--threads", type=int, default=1, help="threads of the run (default 1)")
    parser.add_argument("--inputs", nargs="+", default=[], metavar="FILE",
                        help="input files for the run (.npy or .pb, one per graph input; "
                        "default: `bench`'s seeded inputs, symbolic dims 1)")
    parser.add_argument("flags", nargs="*", help="compiler flags for every onnx-mlc call")


def main(args: argparse.Namespace) -> int:
    args.model = models.resolve(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        lib, data = tmp / "model.so", tmp / "perf.data"
        subprocess.run([str(args.bin), str(args.model), *args.flags, "-o", str(lib)], check=True)
        linalg = subprocess.run([str(args.bin), str(args.model), *args.flags, "--emit", "linalg"],
                                capture_output=True, text=True, check=True).stdout
        bench = subprocess.run(["perf", "record", "-q", "-F", str(FREQ), "-o", str(data), "--",
                                str(args.bin), "bench", str(args.model), *args.inputs,
                                *args.flags, "--aot",
                                "--threads", str(args.threads), "--runs", str(args.runs),
                                "--warmup", str(args.warmup)],
                               capture_output=True, text=True, check=True)
        print(bench.stdout.strip())
        syms = text_symbols(lib)
        to_address = file_offsets_to_addresses(lib)
        dso, rows = samples_by_address(data)
    if dso is None:
        print("no samples in the model's library", file=sys.stderr)
        return 1
    addresses = [a for a, _ in syms]
    per_fn: collections.Counter[str] = collections.Counter()
    for offset, n in rows:
        i = bisect.bisect_right(addresses, to_address(offset)) - 1
        name = syms[i][1] if i >= 0 else "?"
        per_fn[re.sub(r"_task$", "", name)] += n
    calls = collections.Counter(re.findall(r"call @(k\d+)(?:_parallel)?\(", linalg))
    sigs = signatures(linalg)
    runs = args.runs + args.warmup
    total = sum(per_fn.values())
    print(f"\nCPU time in the model's code: {total / runs / FREQ * 1e3:.1f} ms per run")
    print(f"{'kernel':8} {'calls':>5} {'ms/run':>7} {'share':>6} {'GFLOP/s':>8}  arguments")
    for name, n in per_fn.most_common():
        ms = n / runs / FREQ * 1e3
        fl = flops(sigs.get(name, [])) * calls[name]
        gflops = f"{fl / (ms * 1e-3) / 1e9:8.1f}" if fl and ms else " " * 8
        print(f"{name:8} {calls[name]:5} {ms:7.2f} {100 * n / total:5.1f}% {gflops}  "
              f"{' '.join(sigs.get(name, []))}")
    return 0

