#!/usr/bin/env bash
# The demo: sets everything up (tools/setup.sh), builds the onnx-mlc CLI and
# runs it on the small CNN checked in as tests/models/default/model.onnx —
# first the imported, verified and shape-inferred onnx dialect, then the
# model summary.
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

printf '\n==> onnx-mlc %s --emit onnx\n' "$MODEL"
onnx_mlc "$MODEL" --emit onnx

printf '\n==> onnx-mlc inspect %s\n' "$MODEL"
onnx_mlc inspect "$MODEL"
