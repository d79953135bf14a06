#!/usr/bin/env bash
# Sets up everything onnx-mlc's build and tests need on a Debian 12 machine
# that has cargo/rustc and python3: system packages (LLVM/MLIR 22, the AArch64
# cross tools), the Python venv with the pinned reference packages, the ONNX
# backend test data, the materialized real models and model zoo, and
# onnxruntime's outputs on them.
#
# Idempotent: every step checks first and does nothing when already done, so
# a second run takes a second or two. Needs the Debian archive, the Python
# package index and the Rust package registry; downloads nothing else.
#
# Usage: tools/setup.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

step() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------
# System packages. LLVM/MLIR 22 come from Debian 12's own archive (the
# bookworm-security suite carries llvm-toolchain-22), so no extra apt source
# is needed; /usr/bin/llvm-config stays LLVM 14 and .cargo/config.toml points
# the -sys crates at /usr/lib/llvm-22.
APT_PACKAGES=(
    llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 lld-22 libpolly-22-dev llvm-22-tools
    libzstd-dev zlib1g-dev
    qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    graphviz python3-venv
)

step "system packages"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
    note "all ${#APT_PACKAGES[@]} installed"
else
    note "installing: ${missing[*]}"
    sudo=()
    if [[ "$(id -u)" != 0 ]]; then
        command -v sudo >/dev/null || die "not root and no sudo: install ${missing[*]} by hand"
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update -q
    # Read the policy whole first: `grep -q` stops at the first match, and
    # under pipefail apt-cache's SIGPIPE would fail the test.
    policy="$(apt-cache policy llvm-22-dev)"
    if ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
        die "llvm-22-dev has no install candidate: is bookworm-security in the apt sources?"
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
[[ -x /usr/lib/llvm-22/bin/llvm-config ]] || die "/usr/lib/llvm-22/bin/llvm-config is missing"

# ---------------------------------------------------------------------------
# Python venv with the pinned references. The stamp holds the requirements
# file itself, so editing a pin reinstalls.
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
REQS="$ROOT/tools/requirements.txt"
step "python venv ($VENV)"
if [[ ! -x "$PY" ]]; then
    python3 -m venv "$VENV"
fi
if cmp -s "$REQS" "$VENV/requirements.stamp"; then
    note "requirements up to date"
else
    note "installing the pinned packages of tools/requirements.txt"
    "$PY" -m pip install -q --disable-pip-version-check -r "$REQS"
    cp "$REQS" "$VENV/requirements.stamp"
    note "installed: $("$PY" -m pip freeze --disable-pip-version-check | tr '\n' ' ')"
fi

# ---------------------------------------------------------------------------
step "ONNX backend test data (.cache/onnx-backend)"
"$PY" tools/gen_backend_data.py --out "$ROOT/.cache/onnx-backend"

step "real models (.cache/models)"
"$PY" tools/materialize_models.py --out "$ROOT/.cache/models"

step "reference outputs of the models (.cache/models/*/test_data_set_0)"
"$PY" tools/reference.py models --cache "$ROOT/.cache/models"

step "model zoo weights (.cache/zoo)"
"$PY" tools/materialize_models.py --models "$ROOT/tests/zoo" --out "$ROOT/.cache/zoo" |
    { grep -vE ': up to date(; up to date)* \[' || note "all up to date"; }

step "reference outputs of the zoo at each size (.cache/zoo/*/*/test_data_set_K)"
"$PY" tools/reference.py models --models "$ROOT/tests/zoo" --cache "$ROOT/.cache/zoo" |
    { grep -vE ': up to date(; up to date)* \[' || note "all up to date"; }

# ---------------------------------------------------------------------------
step "rust target aarch64-unknown-linux-gnu"
if ! command -v rustup >/dev/null; then
    warn "rustup not found: AArch64 cross-compilation tests will be skipped"
elif grep -qx aarch64-unknown-linux-gnu <<<"$(rustup target list --installed)"; then
    note "installed"
elif ! rustup target add aarch64-unknown-linux-gnu; then
    warn "rustup target add failed: AArch64 cross-compilation tests will be skipped"
fi

step "setup done"
