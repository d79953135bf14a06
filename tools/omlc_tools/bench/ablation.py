"""The e-graph optimizer's ablation table on the real models.

For each model: the optimizer's report with the default rule sets (ops
before/after, estimated cost before/after, optimizer time, from
`--emit opt --opt-report`), then the latency at one thread with the default
rule sets and with `--no-egraph`. Prints a Markdown table (the one in
docs/optimizer.md).

The two settings are compiled once each to a shared library (`onnx-mlc
model.onnx -o lib.so`), both loaded into this process (ctypes, the C ABI of
docs/abi.md), and run *interleaved*: run k of one setting right after run k
of the other, the order alternating, so that a burst of load from other
processes hits both alike. Each run is timed by the wall clock and by the
process's CPU time; on a machine shared with other jobs the CPU time is the
steadier measure (a one-thread run that waits for a core does not accrue
it), so the speed-up is given for both.
"""
from __future__ import annotations

import argparse
import ctypes
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

from .. import compiler, models, report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*",
                        help=f"model names or files (default: {' '.join(models.REAL_MODELS)})")


class Tensor(ctypes.Structure):
    """`omlc_tensor`."""
    _fields_ = [("data", ctypes.c_void_p), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("rank", ctypes.c_int32), ("dtype", ctypes.c_int32)]


class IoInfo(ctypes.Structure):
    """`omlc_io_info`."""
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)), ("dim_params", ctypes.c_void_p)]


class ModelInfo(ctypes.Structure):
    """The head of `omlc_model_info` (what a run needs)."""
    _fields_ = [("abi_version", ctypes.c_uint32), ("num_inputs", ctypes.c_int32),
                ("num_outputs", ctypes.c_int32), ("inputs", ctypes.POINTER(IoInfo)),
                ("outputs", ctypes.POINTER(IoInfo))]


class Library:
    """A compiled model's shared library, one session at one thread, and
    fixed inputs: floats (k mod 97) / 97, integers 1 (a valid token id, mask
    and segment id)."""

    def __init__(self, path: pathlib.Path):
        self.lib = ctypes.CDLL(str(path))
        self.lib.omlc_model_info_get.restype = ctypes.POINTER(ModelInfo)
        self.lib.omlc_session_create.restype = ctypes.c_void_p
        self.lib.omlc_session_create.argtypes = [ctypes.c_int32]
        self.lib.omlc_session_run.argtypes = [ctypes.c_void_p, ctypes.POINTER(Tensor),
                                              ctypes.POINTER(Tensor)]
        self.lib.omlc_free.argtypes = [ctypes.c_void_p]
        self.lib.omlc_session_destroy.argtypes = [ctypes.c_void_p]
        info = self.lib.omlc_model_info_get().contents
        self.session = self.lib.omlc_session_create(1)
        if not self.session:
            raise RuntimeError(f"{path}: no session")
        self.keep = []
        self.inputs = (Tensor * info.num_inputs)()
        for i in range(info.num_inputs):
            io = info.inputs[i]
            dims = [io.dims[d] for d in range(io.rank)]
            count = 1
            for d in dims:
                count *= d
            if io.dtype == 1:
                data = (ctypes.c_float * count)(*[(j % 97) / 97 for j in range(count)])
            elif io.dtype == 7:
                data = (ctypes.c_int64 * count)(*([1] * count))
            else:
                raise RuntimeError(f"{path}: input dtype {io.dtype}")
            shape = (ctypes.c_int64 * max(io.rank, 1))(*dims)
            self.keep += [data, shape]
            self.inputs[i] = Tensor(ctypes.cast(data, ctypes.c_void_p), shape, io.rank, io.dtype)
        self.num_outputs = info.num_outputs
        self.out_shapes = [(ctypes.c_int64 * 8)() for _ in range(info.num_outputs)]

    def run(self) -> tuple[float, float]:
        """One run: (wall ms, CPU ms)."""
        outputs = (Tensor * self.num_outputs)()
        for i, shape in enumerate(self.out_shapes):
            outputs[i] = Tensor(None, shape, 0, 0)
        wall, cpu = time.perf_counter(), time.process_time()
        rc = self.lib.omlc_session_run(self.session, self.inputs, outputs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if rc != 0:
            raise RuntimeError(f"run failed: {rc}")
        for i in range(self.num_outputs):
            self.lib.omlc_free(outputs[i].data)
        return wall * 1e3, cpu * 1e3


def interleaved(binary: pathlib.Path, model: pathlib.Path, runs: int, warmup: int):
    """{setting: (wall times, CPU times)} of `off` (`--no-egraph`) and `on`
    (the default rule sets), run alternately."""
    settings = {"off": ["--no-egraph"], "on": []}
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="opt-ablation-"))
    try:
        libs = {}
        for name, extra in settings.items():
            (tmp / name).mkdir()
            path = tmp / name / "libmodel.so"
            subprocess.run([str(binary), str(model), "-o", str(path), *extra],
                           capture_output=True, text=True, check=True)
            libs[name] = Library(path)
        times = {name: ([], []) for name in settings}
        order = list(settings)
        for k in range(warmup + runs):
            for name in order if k % 2 == 0 else order[::-1]:
                wall, cpu = libs[name].run()
                if k >= warmup:
                    times[name][0].append(wall)
                    times[name][1].append(cpu)
        return times
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(args: argparse.Namespace) -> int:
    print(f"load average before: {report.load()}")
    print()
    table = report.Table(
        "model", "ops before → after", "est. cost (ms) before → after", "opt time (ms)",
        "`--no-egraph` wall median (min) ms", "default wall median (min) ms",
        "`--no-egraph` CPU median ms", "default CPU median ms", "speed-up wall", "speed-up CPU")
    med = statistics.median
    for name in args.names or models.REAL_MODELS:
        model = models.resolve(name)
        r = compiler.opt_report(args.bin, model)
        t = interleaved(args.bin, model, args.runs, args.warmup)
        (off_w, off_c), (on_w, on_c) = t["off"], t["on"]
        table.row(name, r["ops"], r["cost"], r["time"],
                  f"{med(off_w):.1f} ({min(off_w):.1f})", f"{med(on_w):.1f} ({min(on_w):.1f})",
                  f"{med(off_c):.1f}", f"{med(on_c):.1f}",
                  f"{med(off_w) / med(on_w):.2f}×", f"{med(off_c) / med(on_c):.2f}×")
    print()
    print(f"load average after: {report.load()}")
    return 0
