//! Shared libraries: the model object and the C runtime, linked with
//! `ld.lld` into one self-contained `.so` for the target.
//!
//! - **The C runtime** (`runtime/c/omlc_rt.c`, embedded in this crate with
//!   `include_str!` so that the compiler does not need its source tree) is
//!   compiled for the target with `clang --target=<triple> -O2 -fPIC` the
//!   first time a target needs it, and cached by a hash of the sources, the
//!   target and the flags in the user's cache directory
//!   (`$XDG_CACHE_HOME/onnx-mlc`, else `~/.cache/onnx-mlc`, else the temp
//!   directory). Compiling at AOT time rather than at build time keeps the
//!   compiler's build free of C cross toolchains and lets any target clang
//!   knows work without rebuilding onnx-mlc.
//! - **Linking** calls `ld.lld` directly (no compiler driver, so nothing
//!   but what is listed here goes in): the objects, the target's `libgcc.a`
//!   for compiler helper routines LLVM may call (128-bit division, half
//!   conversions; linked statically and not re-exported), then `libm` and
//!   `libc` as needed. The target's C library comes from the native
//!   multiarch directories for the host's architecture, or from a Debian
//!   cross sysroot (`/usr/<arch>-linux-gnu/lib`, e.g. package
//!   `libc6-dev-arm64-cross`) otherwise. With glibc ≥ 2.34, threads and
//!   `dladdr` are in libc, so the library's `DT_NEEDED` lists only libc,
//!   libm (when the model calls it) and the dynamic loader (thread-local
//!   storage).
//!
//! The tools default to Debian's `clang-22` and `ld.lld-22`; the
//! environment variables `ONNX_MLC_CLANG` and `ONNX_MLC_LLD` override them.

use std::path::{Path, PathBuf};
use std::process::Command;

use target_lexicon::{Architecture, Environment, OperatingSystem, Triple};

use crate::error::{CodegenError, Result};
use crate::target::TargetSpec;

/// The C runtime's source, as compiled into every library.
pub const RUNTIME_SOURCE: &str = include_str!("../../../runtime/c/omlc_rt.c");
/// The C runtime's header: the ABI types and the public API.
pub const RUNTIME_HEADER: &str = include_str!("../../../runtime/c/omlc_rt.h");

/// Flags the C runtime is compiled with (besides the target).
const RUNTIME_FLAGS: &[&str] = &["-std=c11", "-O2", "-fPIC", "-fno-plt", "-w"];

fn clang() -> String {
    std::env::var("ONNX_MLC_CLANG").unwrap_or_else(|_| "clang-22".into())
}

fn lld() -> String {
    std::env::var("ONNX_MLC_LLD").unwrap_or_else(|_| "ld.lld-22".into())
}

/// Runs `cmd`; its stderr becomes the error when it fails.
fn run(tool: &str, cmd: &mut Command) -> Result<Vec<u8>> {
    let out = cmd.output().map_err(|e| CodegenError::Tool {
        tool: tool.into(),
        message: format!("cannot run it ({e}); install it or set its environment variable"),
    })?;
    if !out.status.success() {
        return Err(CodegenError::Tool {
            tool: tool.into(),
            message: format!(
                "failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        });
    }
    Ok(out.stdout)
}

/// The triple clang and the multiarch directories use: `<arch>-linux-gnu`
/// for GNU/Linux (Debian's cross packages carry no vendor), else the
/// target's own triple.
fn gnu_triple(triple: &Triple) -> Result<String> {
    let arch = match triple.architecture {
        Architecture::X86_64 => "x86_64",
        Architecture::Aarch64(_) => "aarch64",
        _ => {
            return Err(CodegenError::Target(format!(
                "shared libraries are built for x86_64 and aarch64 Linux, not {triple}"
            )))
        }
    };
    if triple.operating_system != OperatingSystem::Linux
        || !matches!(triple.environment, Environment::Gnu | Environment::Unknown)
    {
        return Err(CodegenError::Target(format!(
            "shared libraries are built for GNU/Linux targets, not {triple}"
        )));
    }
    Ok(format!("{arch}-linux-gnu"))
}

/// FNV-1a: a hash that is the same in every build of onnx-mlc (the cache
/// key must not depend on the standard library's hasher).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The directory compiled runtimes are cached in (created on demand).
fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("onnx-mlc")
}

fn io_error(path: &Path, e: std::io::Error) -> CodegenError {
    CodegenError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// A name unique to this process and moment, for files renamed into place.
fn unique_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}.{nanos}", std::process::id())
}

/// The C runtime compiled for `target`: a cached object file, compiled on
/// first use. Concurrent compilers each build into a private file and
/// rename it into place, so a reader never sees half an object.
pub fn runtime_object(target: &TargetSpec) -> Result<PathBuf> {
    let triple = gnu_triple(&target.triple)?;
    let mut flags: Vec<&str> = RUNTIME_FLAGS.to_vec();
    if target.is_aarch64() {
        // Atomics inline (LSE or LL/SC), not calls into libgcc's outline
        // helpers.
        flags.push("-mno-outline-atomics");
    }
    let key = fnv1a(&[
        RUNTIME_SOURCE.as_bytes(),
        RUNTIME_HEADER.as_bytes(),
        triple.as_bytes(),
        flags.join(" ").as_bytes(),
        clang().as_bytes(),
    ]);
    let dir = cache_dir().join(format!("rt-{triple}-{key:016x}"));
    let object = dir.join("omlc_rt.o");
    if object.exists() {
        return Ok(object);
    }
    std::fs::create_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
    let suffix = unique_suffix();
    let source = dir.join(format!("omlc_rt.{suffix}.c"));
    let header = dir.join("omlc_rt.h");
    let temp = dir.join(format!("omlc_rt.{suffix}.o"));
    std::fs::write(&source, RUNTIME_SOURCE).map_err(|e| io_error(&source, e))?;
    // Every writer writes the same bytes, so racing here is harmless.
    std::fs::write(&header, RUNTIME_HEADER).map_err(|e| io_error(&header, e))?;
    let compiled = run(
        &clang(),
        Command::new(clang())
            .arg(format!("--target={triple}"))
            .args(&flags)
            .arg("-c")
            .arg(&source)
            .arg("-o")
            .arg(&temp),
    );
    let _ = std::fs::remove_file(&source);
    compiled?;
    std::fs::rename(&temp, &object).map_err(|e| io_error(&object, e))?;
    Ok(object)
}

/// The directories holding the target's `libc.so` and `libm.so`.
fn libc_dirs(target: &TargetSpec, triple: &str) -> Result<Vec<PathBuf>> {
    let native = target.triple.architecture == Triple::host().architecture;
    let mut candidates: Vec<PathBuf> = vec![];
    if native {
        candidates.push(format!("/lib/{triple}").into());
        candidates.push(format!("/usr/lib/{triple}").into());
    }
    candidates.push(format!("/usr/{triple}/lib").into());
    let dirs: Vec<PathBuf> = candidates
        .into_iter()
        .filter(|d| d.join("libc.so").exists() || d.join("libc.so.6").exists())
        .collect();
    if dirs.iter().any(|d| d.join("libc.so").exists()) {
        Ok(dirs)
    } else {
        Err(CodegenError::Tool {
            tool: "ld.lld".into(),
            message: format!(
                "no C library to link against for {triple} (looked for libc.so in \
                 /lib/{triple}, /usr/lib/{triple} and /usr/{triple}/lib; for a cross \
                 target install the cross libc, e.g. libc6-dev-arm64-cross)"
            ),
        })
    }
}

/// The target's `libgcc.a`, as clang finds it, if it exists.
fn libgcc(triple: &str) -> Option<PathBuf> {
    let out = Command::new(clang())
        .arg(format!("--target={triple}"))
        .arg("-print-libgcc-file-name")
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (out.status.success() && path.is_absolute() && path.exists()).then_some(path)
}

/// Links `objects` into the shared library `output` for `target`, against
/// the target's libc and libm only. Fails on any undefined symbol.
pub fn link_shared(target: &TargetSpec, objects: &[&Path], output: &Path) -> Result<()> {
    let triple = gnu_triple(&target.triple)?;
    let soname = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "libmodel.so".into());
    let mut cmd = Command::new(lld());
    cmd.args([
        "-shared",
        "--no-undefined",
        "--as-needed",
        "--exclude-libs=ALL",
    ])
    .args(["--hash-style=gnu", "--build-id", "--eh-frame-hdr"])
    .args(["-z", "now", "-z", "relro", "-z", "noexecstack"])
    .arg(format!("--soname={soname}"))
    .arg("-o")
    .arg(output)
    .args(objects);
    for dir in libc_dirs(target, &triple)? {
        cmd.arg("-L").arg(dir);
    }
    let gcc = libgcc(&triple);
    if let Some(gcc) = &gcc {
        cmd.arg(gcc);
    }
    cmd.args(["-lm", "-lc"]);
    if let Some(gcc) = &gcc {
        // Again after libc, for helpers only libc's static parts need.
        cmd.arg(gcc);
    }
    run(&lld(), &mut cmd).map_err(|e| CodegenError::Link {
        path: output.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_triples_drop_the_vendor_and_refuse_other_systems() {
        let t = |s: &str| gnu_triple(&s.parse().unwrap());
        assert_eq!(t("aarch64-unknown-linux-gnu").unwrap(), "aarch64-linux-gnu");
        assert_eq!(t("x86_64-pc-linux-gnu").unwrap(), "x86_64-linux-gnu");
        assert!(t("x86_64-apple-darwin").is_err());
        assert!(t("riscv64gc-unknown-linux-gnu").is_err());
    }

    #[test]
    fn the_cache_key_separates_its_parts() {
        assert_ne!(fnv1a(&[b"ab", b"c"]), fnv1a(&[b"a", b"bc"]));
        assert_eq!(fnv1a(&[b"x"]), fnv1a(&[b"x"]));
    }
}
