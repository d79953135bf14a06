#!/usr/bin/env bash
# Runs every test suite: sets everything up (tools/setup.sh), then
# `cargo test --workspace` (unit tests, the text-IR file tests, the ONNX
# backend data, the hostile and real models — all suites live in the
# workspace's test binaries). Ends with cargo's own output and one line
# `N passed, N failed` summed over every test binary, the conformance and
# model zoo runs' own counts (case x mode) included; exits non-zero if a test
# failed, the conformance or zoo results differ from their manifests, or
# anything did not build.
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

# Every libtest binary (and the doc tests) prints
# `test result: ok. P passed; F failed; I ignored; ...`; the conformance and zoo
# binaries (harness = false) print their own closing `P passed, F failed` over
# case × mode (zoo: model × size × mode, its CI subset), whose F includes the
# failures tests/conformance/manifest.tsv and tests/zoo/manifest.tsv expect
# (what onnx-mlc cannot run yet: the run stays green while they match).
sum_pairs() { awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }'; }
read -r lib_passed lib_failed < <(
    sed -nE 's/^test result: [A-Za-z]+\. ([0-9]+) passed; ([0-9]+) failed;.*/\1 \2/p' "$log" | sum_pairs
)
read -r conf_passed conf_failed < <(
    sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | sum_pairs
)
printf '\nlibtest binaries and doc tests: %d passed, %d failed; conformance and zoo (case x mode): %d passed, %d failed\n' \
    "$lib_passed" "$lib_failed" "$conf_passed" "$conf_failed"
printf '%d passed, %d failed\n' "$((lib_passed + conf_passed))" "$((lib_failed + conf_failed))"
if ((status == 0 && lib_failed > 0)); then
    status=1
fi
exit "$status"
