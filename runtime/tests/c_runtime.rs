//! The C runtime (`runtime/c/omlc_rt.c`) as AOT libraries use it: compiled
//! with hand-written C models (`tests/c/*.c`, the ABI generated code has)
//! into shared libraries, loaded by a C driver (`tests/c/driver.c`) that
//! checks results, validation messages, weights files, concurrent runs and
//! the thread pool. Runs natively, and cross-compiled for AArch64 under
//! `qemu-aarch64` when the cross toolchain is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A C compiler and how to run what it builds.
struct Target {
    name: &'static str,
    cc: &'static str,
    /// Command prefix that runs a built program (an emulator), if any.
    runner: &'static [&'static str],
}

const NATIVE: Target = Target {
    name: "native",
    cc: "cc",
    runner: &[],
};
const AARCH64: Target = Target {
    name: "aarch64",
    cc: "aarch64-linux-gnu-gcc",
    runner: &["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
};

const FLAGS: &[&str] = &[
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-O2",
    "-g",
];

fn runtime_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// True when `program --version` runs.
fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a command, failing the test with its output if it fails.
fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Builds `lib<name>.so` from the C runtime and one model source.
fn build_library(t: &Target, dir: &Path, name: &str, model: &str, defines: &[&str]) -> PathBuf {
    let lib = dir.join(format!("lib{name}.so"));
    let root = runtime_dir();
    run(Command::new(t.cc)
        .args(FLAGS)
        .args(["-fPIC", "-shared", "-I"])
        .arg(root.join("c"))
        .args(defines)
        .arg("-o")
        .arg(&lib)
        .arg(root.join("c/omlc_rt.c"))
        .arg(root.join("tests/c").join(model))
        .args(["-lpthread", "-lm"]));
    lib
}

/// Builds the libraries and the driver for `t` and runs the driver.
fn build_and_run(t: &Target) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_runtime")
        .join(t.name);
    std::fs::create_dir_all(&dir).unwrap();
    let libs = [
        build_library(t, &dir, "affine", "affine.c", &[]),
        build_library(
            t,
            &dir,
            "affine_file",
            "affine.c",
            &[r#"-DWEIGHTS_FILE="affine_file.weights""#],
        ),
        build_library(
            t,
            &dir,
            "affine_missing",
            "affine.c",
            &[r#"-DWEIGHTS_FILE="missing.weights""#],
        ),
        build_library(t, &dir, "cover", "cover.c", &[]),
        build_library(t, &dir, "variants", "variants.c", &[]),
    ];
    let driver = dir.join("driver");
    let root = runtime_dir();
    run(Command::new(t.cc)
        .args(FLAGS)
        .arg("-I")
        .arg(root.join("c"))
        .arg("-o")
        .arg(&driver)
        .arg(root.join("tests/c/driver.c"))
        .args(["-lpthread", "-lm", "-ldl"]));

    let mut cmd = match t.runner.split_first() {
        Some((program, args)) => {
            let mut cmd = Command::new(program);
            cmd.args(args).arg(&driver);
            cmd
        }
        None => Command::new(&driver),
    };
    let stdout = run(cmd.args(&libs));
    assert!(stdout.trim_end().ends_with("checks, 0 failed"), "{stdout}");
}

#[test]
fn c_runtime_native() {
    build_and_run(&NATIVE);
}

#[test]
fn c_runtime_aarch64_under_qemu() {
    for program in [AARCH64.cc, AARCH64.runner[0]] {
        if !available(program) {
            eprintln!(
                "SKIPPED: {program} is not installed (Debian: gcc-aarch64-linux-gnu qemu-user)"
            );
            return;
        }
    }
    build_and_run(&AARCH64);
}
