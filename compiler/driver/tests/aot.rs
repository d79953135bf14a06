//! AOT shared libraries end to end, checked against reference outputs
//! (onnxruntime's, or the ONNX backend data's — never our own):
//!
//! - for each model, a library is compiled for the platform, its dynamic
//!   section and exported symbols are checked (`DT_NEEDED` only libc, libm
//!   and the loader; only the public `omlc_*` API exported), a C driver
//!   (`tests/aot/driver.c`) is compiled against the generated header with
//!   `-Wall -Wextra -Werror -pedantic` and linked with the library, and its
//!   outputs are compared with the reference;
//! - x86-64 natively, AArch64 cross-compiled (`aarch64-linux-gnu-gcc`) and
//!   run under `qemu-aarch64` (skipped with a notice when those tools are
//!   missing);
//! - the weights side file, and [`AotModel`] (the library loaded into this
//!   process: results, validation errors, two models loaded at once);
//! - a host program (a run-time Loop whose body is a compiled segment with
//!   a weight, and a sequence output) as a library: run by [`AotModel`]
//!   against values computed here and against the JIT, with embedded and
//!   side-file weights, refused by the C API's `omlc_session_create` with
//!   a message, and cross-compiled for AArch64;
//! - size variants (`--specialize`): a library with two, each run at its
//!   sizes and others on the general code, all against values computed
//!   here, the variants' weights shared with the general code's (embedded
//!   and in a side file), and the bindings that cannot be made refused.
//!
//! Models the lowering cannot compile yet are skipped with a notice (they
//! must fail with a clean "unsupported" error); the lists grow by one line
//! as it learns more.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use onnx_mlc::{
    emit_header, AotModel, CompileOptions, Engine, Error, LibraryOptions, LibraryReport,
    SizeBinding, SpecDim, TargetSpec, Tensor, Value, WeightsPolicy,
};
use onnx_mlc_dialect::{ElemType, Model, TensorData};
use onnx_mlc_import::{read_value, TestValue};

/// A machine to build for and how to build and run C programs for it.
struct Platform {
    name: &'static str,
    target: &'static str,
    cc: &'static str,
    /// Command prefix that runs a built program (an emulator), if any.
    runner: &'static [&'static str],
}

const X86_64: Platform = Platform {
    name: "x86-64",
    target: "x86_64",
    cc: "cc",
    runner: &[],
};
const AARCH64: Platform = Platform {
    name: "aarch64",
    target: "aarch64",
    cc: "aarch64-linux-gnu-gcc",
    runner: &["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
};

/// Models of `tests/models/` built for x86-64 (those the lowering cannot
/// compile yet are skipped).
const X86_64_MODELS: &[&str] = &["mlp", "default", "mobilenet_v2"];
/// Models built for AArch64 and run under qemu.
const AARCH64_MODELS: &[&str] = &["mlp", "mobilenet_v2"];
/// Backend node cases (name prefixes) built for both platforms.
const NODE_CASES: &[&str] = &["test_gemm_", "test_matmul_", "test_relu", "test_sigmoid"];

/// The exported API of every library (docs/abi.md).
const API: &[&str] = &[
    "omlc_free",
    "omlc_last_error",
    "omlc_model_info_get",
    "omlc_program_get",
    "omlc_segment_session_create",
    "omlc_session_create",
    "omlc_session_destroy",
    "omlc_session_last_error",
    "omlc_session_run",
];
/// What a library may need at run time.
const ALLOWED_NEEDED: &[&str] = &[
    "libc.so.6",
    "libm.so.6",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The test data cache (`tools/setup.sh` fills `.cache/`); `ONNX_MLC_CACHE`
/// points elsewhere (a worktree sharing a checkout's cache).
fn cache() -> PathBuf {
    std::env::var_os("ONNX_MLC_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".cache"))
}

/// A model with reference data (`input_K.pb`, `output_K.pb`).
struct Case {
    name: String,
    model: PathBuf,
    /// The reference data, or where `tools/reference.py outputs` writes it
    /// when first needed (real models ship without it).
    data: PathBuf,
}

/// Serializes generating reference data (both platforms' tests may want
/// the same model's at once).
static REFERENCE: Mutex<()> = Mutex::new(());

impl Case {
    /// The reference data directory, made by onnxruntime on a seeded input
    /// if the model has none.
    fn data(&self) -> PathBuf {
        let _guard = REFERENCE.lock().unwrap_or_else(|e| e.into_inner());
        if !self.data.join("output_0.pb").exists() {
            std::fs::create_dir_all(&self.data).unwrap();
            // The venv tools/setup.sh makes (onnx, onnxruntime), unless told.
            let venv = repo().join(".venv/bin/python");
            let python = std::env::var_os("ONNX_MLC_PYTHON")
                .map(PathBuf::from)
                .unwrap_or(if venv.exists() {
                    venv
                } else {
                    "python3".into()
                });
            run(Command::new(python)
                .arg(repo().join("tools/reference.py"))
                .arg("outputs")
                .arg(&self.model)
                .arg(&self.data)
                .args(["--seed", "1234"]));
        }
        self.data.clone()
    }
}

/// A model of `tests/models/`: with its own reference data, or a real
/// model whose materialized weights are in the cache.
fn model_case(name: &str) -> Case {
    let dir = repo().join("tests/models").join(name);
    let data = dir.join("test_data_set_0");
    if data.exists() {
        return Case {
            name: name.into(),
            model: dir.join("model.onnx"),
            data,
        };
    }
    let model = cache().join("models").join(name).join("model.onnx");
    assert!(model.exists(), "{}: run tools/setup.sh", model.display());
    Case {
        name: name.into(),
        model,
        data: std::env::temp_dir().join(format!("omlc-aot-ref-{name}-{}", std::process::id())),
    }
}

/// A model wide enough that its kernel runs in parallel chunks (the glue's
/// `kN_task` through the C runtime's `omlc_rt_parallel_for`), written from
/// the dialect's text form; its reference comes from onnxruntime.
/// Lives in `dir` (one per test: the tests run concurrently).
fn wide_case(dir: &Path) -> Case {
    let model = onnx_mlc_dialect::parse_model(
        r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "wide"(%x: tensor<64x1024xf32>) -> ("y": tensor<64x1024xf32>) {
  %s = "onnx.Sigmoid"(%x) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %y = "onnx.Mul"(%s, %x) : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xf32>
  onnx.return %y
}
"#,
    )
    .unwrap();
    let path = dir.join("model.onnx");
    onnx_mlc_import::save_model(&model, &path, &Default::default()).unwrap();
    Case {
        name: "wide".into(),
        model: path,
        data: dir.join("data"),
    }
}

fn node_cases() -> Vec<Case> {
    let root = cache().join("onnx-backend/node");
    let mut cases: Vec<Case> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e} (run tools/setup.sh)", root.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| NODE_CASES.iter().any(|p| n.starts_with(p)))
        .map(|n| Case {
            model: root.join(&n).join("model.onnx"),
            data: root.join(&n).join("test_data_set_0"),
            name: n,
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// True when `program --version` runs.
fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn platform_available(p: &Platform) -> bool {
    let ok = available(p.cc) && p.runner.first().is_none_or(|r| available(r));
    if !ok {
        eprintln!(
            "NOTICE: skipping {}: {} or {:?} not installed",
            p.name, p.cc, p.runner
        );
    }
    ok
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

fn scratch(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("omlc-aot-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The model's inputs (graph order) and reference outputs.
fn reference(model: &Model, data: &Path) -> (Vec<Tensor>, Vec<TensorData>) {
    let g = model.ir.region(model.graph);
    let read = |file: String, ty| match read_value(&data.join(file), ty).unwrap() {
        TestValue::Tensor(t) => t,
        other => panic!("not a tensor: {other:?}"),
    };
    let inputs = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .enumerate()
        .map(|(i, a)| {
            Tensor::from_tensor_data(&read(format!("input_{i}.pb"), model.ir.ty(a.value))).unwrap()
        })
        .collect();
    let outputs = g
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| read(format!("output_{i}.pb"), model.ir.ty(o.value)))
        .collect();
    (inputs, outputs)
}

/// Compares with the reference (rel. 1e-3, abs. 1e-4; NaN matches NaN).
fn compare(what: &str, got: &[Tensor], want: &[TensorData]) {
    assert_eq!(got.len(), want.len(), "{what}: number of outputs");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let g = g.to_tensor_data();
        assert_eq!((g.elem, &g.dims), (w.elem, &w.dims), "{what}: output {i}");
        let (g, w) = (g.to_f64s().unwrap(), w.to_f64s().unwrap());
        for (j, (a, b)) in g.iter().zip(&w).enumerate() {
            let ok = a == b || (a - b).abs() <= 1e-4 + 1e-3 * b.abs() || (a.is_nan() && b.is_nan());
            assert!(ok, "{what}: output {i}[{j}] is {a}, expected {b}");
        }
    }
}

/// Compiles `case` into `dir/lib<name>.so`; `None` when the lowering does
/// not support the model yet.
fn build(
    p: &Platform,
    case: &Case,
    dir: &Path,
    weights: WeightsPolicy,
) -> Option<(Model, LibraryReport)> {
    let model = Engine::load(&case.model).unwrap();
    let target = TargetSpec::parse(Some(p.target), None, None).unwrap();
    let mut options = LibraryOptions::library(target, dir.join(format!("lib{}.so", case.name)));
    options.weights = weights;
    match Engine::compile_library(&model, &options) {
        Ok(report) => Some((model, report)),
        Err(e) if e.is_unsupported() => {
            eprintln!("SKIP {} ({}): {e}", case.name, p.name);
            None
        }
        Err(e) => panic!("{} ({}): {e}", case.name, p.name),
    }
}

/// `DT_NEEDED` and the exported symbols of a library.
fn check_dynamic(lib: &Path) {
    let dynamic = run(Command::new("readelf").arg("-dW").arg(lib));
    for line in dynamic.lines().filter(|l| l.contains("(NEEDED)")) {
        let name = line.rsplit('[').next().unwrap().trim_end_matches(']');
        assert!(
            ALLOWED_NEEDED.contains(&name),
            "{} needs {name}:\n{dynamic}",
            lib.display()
        );
    }
    let symbols = run(Command::new("readelf").arg("--dyn-syms").arg("-W").arg(lib));
    // Num: Value Size Type Bind Vis Ndx Name
    let mut exported: Vec<&str> = symbols
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 8 && f[6] != "UND" && f[6] != "Ndx" && matches!(f[4], "GLOBAL" | "WEAK"))
                .then(|| f[7].split('@').next().unwrap())
        })
        .collect();
    exported.sort();
    assert_eq!(exported, API, "{} exports:\n{symbols}", lib.display());
}

/// Builds the C driver for `p` against the library's header and links it
/// with the library.
fn build_driver(p: &Platform, model: &Model, lib: &Path) -> PathBuf {
    let dir = lib.parent().unwrap();
    let name = lib.file_stem().unwrap().to_string_lossy();
    let name = name.strip_prefix("lib").unwrap();
    let include = dir.join(format!("{name}.include"));
    std::fs::create_dir_all(&include).unwrap();
    std::fs::write(include.join("model.h"), emit_header(model).unwrap()).unwrap();
    let driver = dir.join(format!("{name}.driver"));
    run(Command::new(p.cc)
        .args([
            "-std=c11",
            "-O1",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-I",
        ])
        .arg(&include)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/aot/driver.c"))
        .arg("-o")
        .arg(&driver)
        .arg("-L")
        .arg(dir)
        .arg(format!("-l{name}"))
        .arg(format!("-Wl,-rpath,{}", dir.display())));
    driver
}

/// One tensor in the driver's file format.
fn write_tensor(path: &Path, t: &Tensor) {
    let mut bytes = vec![];
    bytes.extend(t.elem().onnx_code().to_le_bytes());
    bytes.extend((t.rank() as i32).to_le_bytes());
    for d in t.shape() {
        bytes.extend(d.to_le_bytes());
    }
    bytes.extend(t.as_bytes());
    std::fs::write(path, bytes).unwrap();
}

fn read_tensor(path: &Path) -> Tensor {
    let bytes = std::fs::read(path).unwrap();
    let int = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let (dtype, rank) = (int(0), int(4) as usize);
    let shape: Vec<i64> = (0..rank)
        .map(|d| i64::from_le_bytes(bytes[8 + 8 * d..16 + 8 * d].try_into().unwrap()))
        .collect();
    Tensor::from_bytes(
        ElemType::from_onnx(dtype).unwrap(),
        &shape,
        &bytes[8 + 8 * rank..],
    )
    .unwrap()
}

/// Runs the driver (2 threads) on the inputs; its outputs, or its exit
/// status and stderr.
fn run_driver(
    p: &Platform,
    driver: &Path,
    inputs: &[Tensor],
    n_outputs: usize,
) -> Result<Vec<Tensor>, String> {
    let dir = driver.with_extension("run");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = match p.runner.split_first() {
        Some((r, rest)) => {
            let mut c = Command::new(r);
            c.args(rest).arg(driver);
            c
        }
        None => Command::new(driver),
    };
    cmd.arg("2").arg(&dir);
    for (i, t) in inputs.iter().enumerate() {
        let path = dir.join(format!("input_{i}.bin"));
        write_tensor(&path, t);
        cmd.arg(path);
    }
    let out = cmd.output().unwrap();
    if !out.status.success() {
        return Err(format!(
            "{}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok((0..n_outputs)
        .map(|i| read_tensor(&dir.join(format!("output_{i}.bin"))))
        .collect())
}

/// Builds every case for `p`, runs it from C and compares; returns the
/// names of those that compiled (and passed).
fn check_platform(p: &Platform, cases: &[Case]) -> Vec<String> {
    let dir = scratch(p.name);
    let mut ran = vec![];
    for case in cases {
        let Some((model, report)) = build(p, case, &dir, WeightsPolicy::default()) else {
            continue;
        };
        check_dynamic(&report.output);
        if case.name == "wide" {
            let symbols = run(Command::new("readelf").arg("-sW").arg(&report.output));
            assert!(symbols.contains("_task"), "no parallel kernel:\n{symbols}");
        }
        let driver = build_driver(p, &model, &report.output);
        let (inputs, want) = reference(&model, &case.data());
        let got = run_driver(p, &driver, &inputs, want.len())
            .unwrap_or_else(|e| panic!("{} ({}): driver failed: {e}", case.name, p.name));
        compare(&format!("{} ({})", case.name, p.name), &got, &want);
        eprintln!(
            "PASS {} ({}): {} bytes, compiled in {:.0} ms",
            case.name,
            p.name,
            report.output_bytes,
            report.timings.total().as_secs_f64() * 1e3
        );
        ran.push(case.name.clone());
    }
    let _ = std::fs::remove_dir_all(&dir);
    ran
}

#[test]
fn x86_64_libraries_run_from_c() {
    if !platform_available(&X86_64) {
        return;
    }
    let wide = scratch(&format!("wide-{}", X86_64.name));
    let mut cases: Vec<Case> = X86_64_MODELS.iter().map(|m| model_case(m)).collect();
    cases.push(wide_case(&wide));
    cases.extend(node_cases());
    let ran = check_platform(&X86_64, &cases);
    let _ = std::fs::remove_dir_all(&wide);
    assert!(
        ["mlp", "wide"].iter().all(|m| ran.iter().any(|r| r == m)) && ran.len() >= 7,
        "only {ran:?} compiled"
    );
}

#[test]
fn aarch64_libraries_run_under_qemu() {
    if !platform_available(&AARCH64) {
        return;
    }
    let wide = scratch(&format!("wide-{}", AARCH64.name));
    let mut cases: Vec<Case> = AARCH64_MODELS.iter().map(|m| model_case(m)).collect();
    cases.push(wide_case(&wide));
    cases.extend(node_cases());
    let ran = check_platform(&AARCH64, &cases);
    let _ = std::fs::remove_dir_all(&wide);
    assert!(
        ["mlp", "wide"].iter().all(|m| ran.iter().any(|r| r == m)) && ran.len() >= 7,
        "only {ran:?} compiled"
    );
}

#[test]
fn weights_side_file() {
    let dir = scratch("side-file");
    let case = model_case("mlp");
    let (model, embedded) = build(&X86_64, &case, &dir, WeightsPolicy::Embed).unwrap();
    assert!(embedded.weights_files.is_empty());
    let embedded_bytes = embedded.output_bytes;
    let (_, report) = build(&X86_64, &case, &dir, WeightsPolicy::File).unwrap();
    let [side] = &report.weights_files[..] else {
        panic!("one side file: {:?}", report.weights_files)
    };
    assert_eq!(side, &dir.join("libmlp.weights"));
    assert_eq!(std::fs::metadata(side).unwrap().len(), report.weights_bytes);
    assert!(
        report.output_bytes + report.weights_bytes <= embedded_bytes + 4096,
        "{} + {} vs {embedded_bytes}",
        report.output_bytes,
        report.weights_bytes
    );
    // Past the policy's limit, the weights go to a side file.
    let tiny = WeightsPolicy::Auto { max_embedded: 1024 };
    std::fs::create_dir_all(dir.join("auto")).unwrap();
    let (_, auto) = build(&X86_64, &case, &dir.join("auto"), tiny).unwrap();
    assert!(
        !auto.weights_files.is_empty(),
        "over the limit: a side file"
    );

    check_dynamic(&report.output);
    let driver = build_driver(&X86_64, &model, &report.output);
    let (inputs, want) = reference(&model, &case.data());
    let got = run_driver(&X86_64, &driver, &inputs, want.len()).unwrap();
    compare("mlp (side file)", &got, &want);
    // From this process too.
    let loaded = AotModel::load(&report.output, 1).unwrap();
    compare(
        "mlp (side file, AotModel)",
        &loaded.run(&inputs).unwrap(),
        &want,
    );
    drop(loaded);
    // Without its side file the session cannot be created: a clean error.
    std::fs::rename(side, dir.join("elsewhere.weights")).unwrap();
    let err = run_driver(&X86_64, &driver, &inputs, want.len()).unwrap_err();
    assert!(err.contains("libmlp.weights"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn libraries_load_into_this_process() {
    let dir = scratch("load");
    let mlp = model_case("mlp");
    let (model, report) = build(&X86_64, &mlp, &dir, WeightsPolicy::default()).unwrap();
    let (inputs, want) = reference(&model, &mlp.data());
    let loaded = AotModel::load(&report.output, 2).unwrap();
    assert_eq!(loaded.signature().unwrap().inputs[0].name, "x");
    compare("mlp (AotModel)", &loaded.run(&inputs).unwrap(), &want);
    // Concurrent runs on one session.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| compare("mlp (threads)", &loaded.run(&inputs).unwrap(), &want));
        }
    });
    // The library's runtime validates the inputs.
    let wrong = Tensor::from_vec(vec![3, 64], vec![0f32; 3 * 64]).unwrap();
    match loaded.run(&[wrong]) {
        Err(Error::Run { code: 1, message }) => {
            assert_eq!(message, "input \"x\": dim 0 must be 4, got 3")
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(loaded.run(&[]).is_err());
    compare(
        "mlp (by name)",
        &loaded.run_named(&[("x", &inputs[0])]).unwrap(),
        &want,
    );
    assert!(loaded.run_named(&[("z", &inputs[0])]).is_err());
    // A second model in the same process: the hidden model symbols of one
    // library do not bind to the other's.
    let gemm = node_cases()
        .into_iter()
        .find(|c| c.name == "test_gemm_all_attributes")
        .unwrap();
    let (gemm_model, gemm_report) = build(&X86_64, &gemm, &dir, WeightsPolicy::default()).unwrap();
    let (gemm_inputs, gemm_want) = reference(&gemm_model, &gemm.data());
    let other = AotModel::load(&gemm_report.output, 1).unwrap();
    compare(
        "gemm (AotModel)",
        &other.run(&gemm_inputs).unwrap(),
        &gemm_want,
    );
    compare("mlp (again)", &loaded.run(&inputs).unwrap(), &want);
    assert!(AotModel::load(dir.join("missing.so"), 1).is_err());
    // Compiled and loaded in one call, twice: two libraries of one model.
    let threads = |threads| CompileOptions {
        threads,
        ..CompileOptions::default()
    };
    let (first, report) = AotModel::compile(&model, &threads(2)).unwrap();
    let (second, _) = AotModel::compile(&model, &threads(1)).unwrap();
    assert!(!report.output.exists(), "the temporary library is removed");
    compare("mlp (compiled)", &first.run(&inputs).unwrap(), &want);
    compare("mlp (compiled again)", &second.run(&inputs).unwrap(), &want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn headers_describe_the_model_and_compile() {
    let model = Engine::load(model_case("mlp").model).unwrap();
    let header = emit_header(&model).unwrap();
    assert!(
        header.contains("[0] \"x\": float (dtype 1) [4, 64]"),
        "{header}"
    );
    assert!(
        header.contains("[0] \"y\": float (dtype 1) [4, 10]"),
        "{header}"
    );
    assert!(header.contains("omlc_session_run"));
    assert!(
        !header.contains("__omlc_main(") && !header.contains("omlc_rt_alloc("),
        "hidden symbols are not declared:\n{header}"
    );
    let dir = scratch("header");
    let path = dir.join("mlp.h");
    std::fs::write(&path, header).unwrap();
    run(Command::new("cc")
        .args([
            "-fsyntax-only",
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-x",
            "c",
        ])
        .arg(&path));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A host program whose Loop body is a compiled segment with a weight
/// `w` (256 floats): `acc = x · (-w)^n` after `n` iterations, and the
/// sequence `[x, acc]`.
fn loop_program() -> (Model, Vec<f32>) {
    let w: Vec<f32> = (0..256).map(|i| 0.5 + (i % 7) as f32 * 0.25).collect();
    let dense = w
        .iter()
        .map(|v| format!("{v:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!(
        r#"onnx.model {{ir_version = 10, opset_imports = {{"" = 21}}}}
onnx.graph "g"(%n: tensor<i64>, %x: tensor<256xf32>) -> ("acc": tensor<256xf32>, "pair": !onnx.seq<tensor<256xf32>>) {{
  %acc = "onnx.Loop"(%n, none, %x) {{body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<256xf32>) -> ("c_out": tensor<i1>, "a_out": tensor<256xf32>) {{
    %w = "onnx.Constant"() {{value = dense<[{dense}]> : tensor<256xf32>}} : () -> tensor<256xf32>
    %m = "onnx.Mul"(%a, %w) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %a_out = "onnx.Neg"(%m) : (tensor<256xf32>) -> tensor<256xf32>
    onnx.return %c, %a_out
  }}}} : (tensor<i64>, none, tensor<256xf32>) -> tensor<256xf32>
  %pair = "onnx.SequenceConstruct"(%x, %acc) : (tensor<256xf32>, tensor<256xf32>) -> !onnx.seq<tensor<256xf32>>
  onnx.return %acc, %pair
}}"#
    );
    (onnx_mlc_dialect::parse_model(&text).unwrap(), w)
}

/// Runs the loop program's library (or JIT model) on `n` iterations and
/// checks both outputs against `x · (-w)^n`.
fn check_loop_program(what: &str, run: impl Fn(Vec<Value>) -> Vec<Value>, w: &[f32], n: i64) {
    let x: Vec<f32> = (0..256).map(|i| (i as f32 - 128.0) / 64.0).collect();
    let inputs = vec![
        Value::Tensor(Tensor::scalar(n)),
        Value::Tensor(Tensor::from_vec(vec![256], x.clone()).unwrap()),
    ];
    let want: Vec<f32> = x
        .iter()
        .zip(w)
        .map(|(&x, &w)| x * (-w).powi(n as i32))
        .collect();
    let outputs = run(inputs);
    let [Value::Tensor(acc), Value::Sequence(pair)] = &outputs[..] else {
        panic!("{what}: outputs {outputs:?}")
    };
    let close = |got: &Tensor, want: &[f32]| {
        let got = got.to_vec::<f32>().unwrap();
        got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(g, w)| (g - w).abs() <= 1e-5 * w.abs().max(1.0))
    };
    assert!(close(acc, &want), "{what}: acc after {n} iterations");
    let [Value::Tensor(first), Value::Tensor(second)] = &pair.items[..] else {
        panic!("{what}: sequence {pair:?}")
    };
    assert!(
        close(first, &x) && close(second, &want),
        "{what}: the sequence"
    );
}

#[test]
fn host_programs_compile_into_libraries() {
    let dir = scratch("program");
    let (model, w) = loop_program();
    let target = |t| TargetSpec::parse(Some(t), None, None).unwrap();
    let jit = Engine::compile(&model, &CompileOptions::default()).unwrap();
    assert!(jit.program().is_some(), "the model runs as a host program");
    for (policy, name) in [
        (WeightsPolicy::Embed, "embedded"),
        (WeightsPolicy::File, "file"),
    ] {
        let mut options =
            LibraryOptions::library(target("x86_64"), dir.join(format!("lib{name}.so")));
        options.weights = policy;
        let report = Engine::compile_library(&model, &options).unwrap();
        match policy {
            WeightsPolicy::File => assert_eq!(
                report.weights_files,
                vec![dir.join(format!("lib{name}.s0.weights"))],
                "one side file for the one segment with weights"
            ),
            _ => assert!(report.weights_files.is_empty()),
        }
        check_dynamic(&report.output);
        let loaded = AotModel::load(&report.output, 2).unwrap();
        assert!(loaded.signature().is_none() && loaded.program().is_some());
        assert_eq!(loaded.output_names(), ["acc", "pair"]);
        for n in [0, 1, 5] {
            check_loop_program(name, |v| loaded.run_values(v).unwrap(), &w, n);
            check_loop_program("jit", |v| jit.run_values(v).unwrap(), &w, n);
        }
        // Tensors only in `run`: the sequence output asks for `run_values`.
        let inputs = [
            Tensor::scalar(1i64),
            Tensor::from_vec(vec![256], vec![1f32; 256]).unwrap(),
        ];
        let err = loaded.run(&inputs).unwrap_err().to_string();
        assert!(err.contains("run_values"), "{err}");
        // A wrong input reaches the segment's own validation.
        let wrong = vec![
            Value::Tensor(Tensor::scalar(1i64)),
            Value::Tensor(Tensor::from_vec(vec![3], vec![1f32; 3]).unwrap()),
        ];
        let err = loaded.run_values(wrong).unwrap_err().to_string();
        assert!(err.contains("segment 0"), "{err}");
    }
    // The C API has no session for a host program, and says why.
    let driver = build_driver(&X86_64, &model, &dir.join("libembedded.so"));
    let err = run_driver(&X86_64, &driver, &[], 0).unwrap_err();
    assert!(err.contains("host program"), "{err}");
    // Cross-compiled, the library links for AArch64 too.
    let options = LibraryOptions::library(target("aarch64"), dir.join("libarm.so"));
    let report = Engine::compile_library(&model, &options).unwrap();
    assert!(report.output_bytes > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A two-layer perceptron over a dynamic batch `N`: `relu(x · w1 + b) · w2`
/// with `x: [N, 32]`, `w1: [32, 64]`, `b: [64]`, `w2: [64, 8]` (constants).
fn batch_mlp() -> (Model, [Vec<f32>; 3]) {
    let values = |n: usize, seed: usize| -> Vec<f32> {
        (0..n)
            .map(|i| (((i * 7 + seed * 13) % 29) as f32 - 14.0) / 16.0)
            .collect()
    };
    let weights = [values(32 * 64, 1), values(64, 2), values(64 * 8, 3)];
    // A dense literal: `[a, b]`, or rows of `row` values `[[a, b], [c, d]]`.
    let dense = |v: &[f32], row: usize| {
        let list = |v: &[f32]| {
            let items: Vec<String> = v.iter().map(|v| format!("{v:?}")).collect();
            format!("[{}]", items.join(", "))
        };
        match row {
            0 => list(v),
            row => format!(
                "[{}]",
                v.chunks(row).map(list).collect::<Vec<_>>().join(", ")
            ),
        }
    };
    let text = format!(
        r#"onnx.model {{ir_version = 10, opset_imports = {{"" = 17}}}}
onnx.graph "mlp"(%x: tensor<"N"x32xf32>) -> ("y": tensor<"N"x8xf32>) {{
  %w1 = "onnx.Constant"() {{value = dense<{}> : tensor<32x64xf32>}} : () -> tensor<32x64xf32>
  %b = "onnx.Constant"() {{value = dense<{}> : tensor<64xf32>}} : () -> tensor<64xf32>
  %w2 = "onnx.Constant"() {{value = dense<{}> : tensor<64x8xf32>}} : () -> tensor<64x8xf32>
  %h = "onnx.MatMul"(%x, %w1) : (tensor<"N"x32xf32>, tensor<32x64xf32>) -> tensor<"N"x64xf32>
  %hb = "onnx.Add"(%h, %b) : (tensor<"N"x64xf32>, tensor<64xf32>) -> tensor<"N"x64xf32>
  %r = "onnx.Relu"(%hb) : (tensor<"N"x64xf32>) -> tensor<"N"x64xf32>
  %y = "onnx.MatMul"(%r, %w2) : (tensor<"N"x64xf32>, tensor<64x8xf32>) -> tensor<"N"x8xf32>
  onnx.return %y
}}"#,
        dense(&weights[0], 64),
        dense(&weights[1], 0),
        dense(&weights[2], 8)
    );
    (onnx_mlc_dialect::parse_model(&text).unwrap(), weights)
}

/// Runs `model` at batch `n` and checks its output against the perceptron
/// computed here.
fn check_batch_mlp(what: &str, model: &AotModel, weights: &[Vec<f32>; 3], n: usize) {
    let x: Vec<f32> = (0..n * 32).map(|i| ((i % 11) as f32 - 5.0) / 8.0).collect();
    let [w1, b, w2] = weights;
    let mut want = vec![0f32; n * 8];
    for r in 0..n {
        let hidden: Vec<f32> = (0..64)
            .map(|j| (b[j] + (0..32).map(|k| x[r * 32 + k] * w1[k * 64 + j]).sum::<f32>()).max(0.0))
            .collect();
        for (o, want) in want[r * 8..(r + 1) * 8].iter_mut().enumerate() {
            *want = (0..64).map(|j| hidden[j] * w2[j * 8 + o]).sum();
        }
    }
    let input = Tensor::from_vec(vec![n as i64, 32], x).unwrap();
    let out = model.run(&[input]).unwrap();
    assert_eq!(out[0].shape(), [n as i64, 8], "{what}, N = {n}");
    for (j, (g, w)) in out[0]
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .zip(&want)
        .enumerate()
    {
        assert!(
            (g - w).abs() <= 1e-4 * w.abs().max(1.0),
            "{what}, N = {n} [{j}]: {g} vs {w}"
        );
    }
}

#[test]
fn size_variants_run_at_their_sizes_and_share_the_weights() {
    let dir = scratch("variants");
    let (model, weights) = batch_mlp();
    let weights_bytes: u64 = weights.iter().map(|w| w.len() as u64 * 4).sum();
    let library = |name: &str, specialize: &str, policy| {
        let mut options = LibraryOptions::library(TargetSpec::host(), dir.join(name));
        options.compile.specialize = match specialize {
            "" => vec![],
            spec => SizeBinding::parse(spec).unwrap(),
        };
        options.weights = policy;
        let report = Engine::compile_library(&model, &options).unwrap();
        (AotModel::load(&report.output, 2).unwrap(), report)
    };
    let (general, report) = library("libgeneral.so", "", WeightsPolicy::Embed);
    assert!(general.variants().is_empty());
    let general_bytes = report.weights_bytes;
    for (name, policy) in [
        ("libembedded.so", WeightsPolicy::Embed),
        ("libfile.so", WeightsPolicy::File),
    ] {
        let (lib, report) = library(name, "N=1,3", policy);
        let batches: Vec<&SpecDim> = lib
            .variants()
            .iter()
            .map(|v| &v.inputs[0].dims[0])
            .collect();
        assert_eq!(
            batches,
            [&SpecDim::Static(1), &SpecDim::Static(3)],
            "{name}"
        );
        // One blob: what the variants have in common with the general code
        // is stored once (at most a repacked weight of theirs is new).
        assert!(
            report.weights_bytes < general_bytes + weights_bytes,
            "{name}: {} bytes of weights, the general code alone has {general_bytes}",
            report.weights_bytes
        );
        assert_eq!(
            report.weights_files.len(),
            usize::from(policy == WeightsPolicy::File)
        );
        for n in [1, 2, 3, 5, 1] {
            check_batch_mlp(name, &lib, &weights, n);
        }
    }
    for n in [1, 3] {
        check_batch_mlp("general code", &general, &weights, n);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn size_variants_that_cannot_be_made_are_refused() {
    let dir = scratch("variants_refused");
    let refused = |model: &Model, spec: &str| {
        let mut options = LibraryOptions::library(TargetSpec::host(), dir.join("lib.so"));
        options.compile.specialize = SizeBinding::parse(spec).unwrap();
        let e = Engine::compile_library(model, &options).unwrap_err();
        assert!(matches!(e, Error::Specialize { .. }), "{e}");
        e.to_string()
    };
    let (mlp, _) = batch_mlp();
    assert_eq!(
        refused(&mlp, "batch=2"),
        "size variant batch=2: `batch` is not a symbolic input dim (the model's are N)"
    );
    let (program, _) = loop_program();
    let message = refused(&program, "N=2");
    assert!(message.contains("runs as a host program"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}
