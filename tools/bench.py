#!/usr/bin/env python3
"""Benchmarks of onnx-mlc: one entry point, a subcommand per question.

    bench.py ort [--threads 2] [name ...]     the real models and the MLP against onnxruntime
    bench.py dynamic [--modes jit,general,aot,aot-specialize] [name ...]
                                              dynamic-axes exports against their static twins and onnxruntime
    bench.py quant [name ...]                 8-bit twins of the real models against onnxruntime and fp32
    bench.py ablation [name ...]              the e-graph optimizer on and off (AOT, interleaved)
    bench.py profile MODEL [-- FLAG ...]      CPU time and GFLOP/s per kernel of one model (perf)
    bench.py kernels [--peak G] [name ...]    single convolutions and a 512³ MatMul against onnxruntime
    bench.py calibrate                        the optimizer's cost-model constants, fitted to probes

Every subcommand takes `--bin` (the onnx-mlc binary, default
`$CARGO_TARGET_DIR/release/onnx-mlc`), `--runs` and `--warmup`;
`bench.py SUBCOMMAND --help` says what it measures and prints. Measure on a
release build (`cargo build --release -p onnx-mlc-cli`) and an idle machine:
the tables print the load average. The models and their reference data come
from `tools/setup.sh`. Needs the venv of tools/requirements.txt.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

from omlc_tools import compiler
from omlc_tools.bench import ablation, calibrate, dynamic, kernels, profile, quant, vs_ort

# subcommand: (module, default --runs)
SUBCOMMANDS = {
    "ort": (vs_ort, 20),
    "dynamic": (dynamic, 10),
    "quant": (quant, 10),
    "ablation": (ablation, 10),
    "profile": (profile, 10),
    "kernels": (kernels, 10),
    "calibrate": (calibrate, 20),
}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, runs) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=module.__doc__.split("\n\n")[0].replace("\n", " "),
                           description=module.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument("--bin", type=pathlib.Path, default=compiler.default_bin(),
                       help="the onnx-mlc binary (default: $CARGO_TARGET_DIR/release/onnx-mlc)")
        p.add_argument("--runs", type=int, default=runs, help=f"timed runs (default {runs})")
        p.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
        module.add_arguments(p)
        p.set_defaults(run=module.main)
    # Compiler flags after `--` (argparse's own `--` handling trips over subcommands).
    argv = sys.argv[1:]
    flags = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: len(argv) - len(flags) - 1] if flags else argv)
    if flags:
        if not hasattr(args, "flags"):
            parser.error(f"{args.command} takes no compiler flags")
        args.flags += flags
    compiler.check_bin(args.bin)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
