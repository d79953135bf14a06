"""onnx-mlc against onnxruntime on the real models and the MLP.

For each model: the latency of `onnx-mlc bench` (JIT) and of onnxruntime (CPU
provider, all graph optimizations, `intra_op_num_threads` = the thread count,
sequential execution) at 1 and `--threads` threads, measured in the same run
on the same inputs (the seeded reference inputs of
`.cache/models/<name>/test_data_set_0`, see `tools/reference.py models`; the
MLP's are checked in at `tests/models/mlp/test_data_set_0`), and the ratio
onnx-mlc / onnxruntime of the medians. A model onnx-mlc cannot compile yet
shows `unsupported` in its cells, with the reason below the table.
"""
from __future__ import annotations

import argparse

from .. import compiler, models, ort, report

MODELS = models.REAL_MODELS + ["mlp"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=2, help="the thread count besides 1")
    parser.add_argument("names", nargs="*",
                        help=f"model names or files (default: {' '.join(MODELS)})")


def main(args: argparse.Namespace) -> int:
    counts = [1, args.threads]
    print(report.machine_line(args.runs, args.warmup))
    print()
    header = ["model"]
    for t in counts:
        header += [f"onnx-mlc {t}T", f"onnxruntime {t}T", f"ratio {t}T"]
    table = report.Table(*header)
    unsupported = {}
    for name in args.names or MODELS:
        model = models.resolve(name)
        inputs = models.read_data_set(model.parent / models.DATA_SET)
        try:
            rows = compiler.bench(args.bin, model, [f for f, _, _ in inputs], threads=args.threads,
                                  runs=args.runs, warmup=args.warmup)
            ours = {t: row.median for t, row in rows.items()}
        except compiler.Unsupported as e:
            ours = {}
            unsupported[name] = str(e)
        feeds = {n: v for _, n, v in inputs}
        cells = [name]
        for t in counts:
            theirs = ort.latency_ms(model, feeds, t, args.runs, args.warmup)
            cells += [report.ms(ours.get(t)), report.ms(theirs), report.ratio(ours.get(t), theirs)]
        table.row(*cells)
    return report.finish(unsupported)
