#!/usr/bin/env bash
# Runs every test suite: sets everything up (tools/setup.sh), then
# `cargo test --workspace` (unit tests, the text-IR file tests, the ONNX
# backend data, the hostile and real models — all suites live in the
# workspace's test binaries). Ends with cargo's own output and one line
# `N passed, N failed` summed over every test binary; exits non-zero if
# anything failed or did not build.
#
# Usage: tools/test.sh [extra cargo test arguments]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

tools/setup.sh

printf '==> cargo test --workspace %s\n' "$*"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace "$@" 2>&1 | tee "$log" || status=$?

# Each test binary (and the doc tests) prints
# `test result: ok. P passed; F failed; I ignored; ...`.
read -r passed failed < <(
    sed -nE 's/^test result: [A-Za-z]+\. ([0-9]+) passed; ([0-9]+) failed;.*/\1 \2/p' "$log" |
        awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }'
)
printf '\n%d passed, %d failed\n' "$passed" "$failed"
if ((status == 0 && failed > 0)); then
    status=1
fi
exit "$status"
