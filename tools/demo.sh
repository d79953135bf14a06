#!/usr/bin/env bash
# The demo: sets everything up (tools/setup.sh), builds the onnx-mlc CLI and
# runs it on the small CNN checked in as tests/models/default/model.onnx:
# the model summary, the optimized onnx dialect, a JIT run on the model's
# test input with its per-stage compile times, an AOT shared library with
# its C header, and a latency benchmark.
#
# Usage: tools/demo.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

tools/setup.sh

MODEL=tests/models/default/model.onnx
onnx_mlc() { cargo run --release -q -p onnx-mlc-cli -- "$@"; }

printf '==> building onnx-mlc (release)\n'
cargo build --release -p onnx-mlc-cli

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

printf '\n==> onnx-mlc inspect %s\n' "$MODEL"
onnx_mlc inspect "$MODEL"

printf '\n==> onnx-mlc %s --emit opt\n' "$MODEL"
onnx_mlc "$MODEL" --emit opt

printf '\n==> onnx-mlc run %s --timings (JIT)\n' "$MODEL"
onnx_mlc run "$MODEL" --timings --out "$OUT/jit" tests/models/default/test_data_set_0/input_0.pb
ls -l "$OUT/jit"

printf '\n==> onnx-mlc %s -o libdefault.so --emit header (AOT)\n' "$MODEL"
onnx_mlc "$MODEL" -o "$OUT/libdefault.so"
onnx_mlc "$MODEL" --emit header -o "$OUT/libdefault.so"
ls -l "$OUT"
sed -n '1,12p' "$OUT/libdefault.h"

printf '\n==> onnx-mlc bench %s\n' "$MODEL"
onnx_mlc bench "$MODEL" --runs 20
