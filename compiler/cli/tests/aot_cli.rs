//! The `onnx-mlc` binary's native outputs: `-o lib*.so` (with its header),
//! `--emit asm|obj|llvm|header`, `--target`, `--weights-file`, and exit
//! code 3 for what cannot be compiled yet. (The libraries' contents and
//! results are checked by the driver crate's `tests/aot.rs`.)

use std::path::Path;
use std::process::Output;

// Each test binary uses its own subset of the shared helpers.
#[allow(dead_code)]
mod common;
use common::{onnx_mlc, scratch, unsupported_model};

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "{}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const MLP: &str = "tests/models/mlp/model.onnx";

/// ELF `e_machine` of a file: 62 x86-64, 183 AArch64.
fn elf_machine(path: &Path) -> u16 {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF", "{} is not ELF", path.display());
    u16::from_le_bytes([bytes[18], bytes[19]])
}

#[test]
fn a_so_output_is_a_library_with_its_header() {
    let dir = scratch("lib");
    let lib = dir.join("libmlp.so");
    ok(&onnx_mlc(&[
        MLP,
        "--target",
        "aarch64",
        "-o",
        lib.to_str().unwrap(),
        "--emit",
        "header",
    ]));
    assert_eq!(elf_machine(&lib), 183);
    let header = std::fs::read_to_string(dir.join("libmlp.h")).unwrap();
    assert!(
        header.contains("[0] \"x\": float (dtype 1) [4, 64]"),
        "{header}"
    );
    // `-o *.so` alone means --emit lib.
    let x86 = dir.join("libmlp_x86.so");
    ok(&onnx_mlc(&[
        MLP,
        "--target",
        "x86_64",
        "-o",
        x86.to_str().unwrap(),
    ]));
    assert_eq!(elf_machine(&x86), 62);
    assert!(!dir.join("libmlp_x86.weights").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn weights_go_to_a_side_file_on_request() {
    let dir = scratch("weights");
    let lib = dir.join("libmlp.so");
    let o = onnx_mlc(&[MLP, "-o", lib.to_str().unwrap(), "--weights-file"]);
    ok(&o);
    let side = dir.join("libmlp.weights");
    // 12 778 floats, each weight 64-byte aligned.
    let size = std::fs::metadata(&side).unwrap().len();
    assert!((12_778 * 4..12_778 * 4 + 6 * 64).contains(&size), "{size}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("libmlp.weights"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn code_is_emitted_as_assembly_ir_or_object() {
    let asm = ok(&onnx_mlc(&[MLP, "--emit", "asm", "--target", "aarch64"]));
    assert!(
        asm.contains("__omlc_main:") && asm.contains("fmla"),
        "{asm}"
    );
    let ir = ok(&onnx_mlc(&[
        MLP,
        "--emit",
        "llvm",
        "--target",
        "x86_64",
        "--cpu",
        "x86-64-v3",
    ]));
    assert!(
        ir.contains("define hidden noundef i32 @__omlc_main("),
        "{ir}"
    );
    assert!(ir.contains("\"target-cpu\"=\"x86-64-v3\""), "{ir}");
    let dir = scratch("obj");
    let obj = dir.join("mlp.o");
    ok(&onnx_mlc(&[
        MLP,
        "--emit",
        "obj",
        "-o",
        obj.to_str().unwrap(),
    ]));
    assert_eq!(elf_machine(&obj), 62);
    // An object needs somewhere to go.
    assert_eq!(onnx_mlc(&[MLP, "--emit", "obj"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_header_alone_goes_to_stdout() {
    let header = ok(&onnx_mlc(&[MLP, "--emit", "header"]));
    assert!(header.contains("omlc_session_create"), "{header}");
    assert!(
        header.contains("[0] \"y\": float (dtype 1) [4, 10]"),
        "{header}"
    );
}

#[test]
fn unsupported_models_exit_3_and_bad_targets_1() {
    let dir = scratch("unsupported");
    let lib = dir.join("libstrings.so");
    let model = unsupported_model(&dir);
    let o = onnx_mlc(&[model.to_str().unwrap(), "-o", lib.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.starts_with("UNSUPPORTED: "), "{err}");
    assert!(!lib.exists());
    let o = onnx_mlc(&[
        MLP,
        "--target",
        "sparc-nonsense-x",
        "-o",
        lib.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sparc-nonsense-x"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn size_variants_are_asked_for_with_specialize() {
    let dir = scratch("specialize");
    let model = common::model_file(
        &dir,
        r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"batch"x4xf32>, %y: tensor<"batch"x4xf32>) -> ("z": tensor<"batch"x4xf32>) {
  %z = "onnx.Mul"(%x, %y) : (tensor<"batch"x4xf32>, tensor<"batch"x4xf32>) -> tensor<"batch"x4xf32>
  onnx.return %z
}
"#,
    );
    let model = model.to_str().unwrap();
    let lib = dir.join("libmul.so");
    let lib = lib.to_str().unwrap();
    ok(&onnx_mlc(&[model, "-o", lib, "--specialize", "batch=1,8"]));
    let failure = |args: &[&str]| {
        let o = onnx_mlc(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = failure(&[model, "-o", lib, "--specialize", "sequence=128"]);
    assert!(
        err.contains("size variant sequence=128: `sequence` is not a symbolic input dim (the model's are batch)"),
        "{err}"
    );
    let err = failure(&[model, "-o", lib, "--specialize", "batch=-1"]);
    assert!(err.contains("a size is a positive integer"), "{err}");
    let err = failure(&[model, "--emit", "opt", "--specialize", "batch=1"]);
    assert!(
        err.contains("--specialize applies to compiled code"),
        "{err}"
    );
    let err = failure(&["bench", model, "--specialize", "batch=1"]);
    assert!(
        err.contains("--specialize applies to libraries (--aot)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
