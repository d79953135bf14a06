//! Running one case through `onnx-mlc run`: the model (rewritten with
//! symbolic input dims in [`Mode::Dynamic`]), its input files (generated
//! the way the ONNX runner does for the `light/` models, which ship
//! none), a child process with a time limit, and the outputs it writes
//! compared with the expected ones. The model zoo runs its models' data
//! sets the same way ([`Runner::run_data_set`]), and both spread their
//! runs over worker threads with [`run_all`].

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use onnx_mlc_dialect::{ElemType, Type};
use onnx_mlc_import::{load_model, read_value, ImportOptions, TestValue};
use onnx_mlc_proto::{tensor_shape_proto::dimension, type_proto, Message, ModelProto};

use super::compare::{check_random, compare, compare_ranked, Check, Tolerance};
use super::{Mode, Outcome};
use crate::backend::Case;

/// Runs cases with one `onnx-mlc` binary, in a scratch folder.
pub struct Runner {
    /// The `onnx-mlc` executable.
    pub bin: PathBuf,
    /// Where each run gets its own folder for models, inputs and outputs.
    pub scratch: PathBuf,
    /// How long one run may take before it is killed and fails.
    pub timeout: Duration,
}

/// The exit code `onnx-mlc run` uses for "not supported yet".
const EXIT_UNSUPPORTED: i32 = 3;

impl Runner {
    /// Runs `case` in `mode`; `slot` names the scratch folder (one per
    /// concurrent worker).
    pub fn run(&self, case: &Case, mode: Mode, slot: usize, check: Check) -> Outcome {
        let dir = match self.slot_dir(slot) {
            Ok(dir) => dir,
            Err(why) => return Outcome::Fail(why),
        };
        match self.try_run(case, mode, &dir, check) {
            Ok(()) => Outcome::Pass,
            Err(reason) => Outcome::Fail(reason.replace(&*dir.to_string_lossy(), "<scratch>")),
        }
    }

    /// Runs `model` in `mode` (JIT or AOT) on the data set `data`
    /// (`input_K.pb` and the expected `output_K.pb`), its outputs checked
    /// by `check`; on success, also the compile time `onnx-mlc` reported.
    pub fn run_data_set(
        &self,
        model: &Path,
        data: &Path,
        mode: Mode,
        slot: usize,
        check: Check,
    ) -> (Outcome, Option<Duration>) {
        let dir = match self.slot_dir(slot) {
            Ok(dir) => dir,
            Err(why) => return (Outcome::Fail(why), None),
        };
        let inputs: Vec<PathBuf> = (0..)
            .map(|k| data.join(format!("input_{k}.pb")))
            .take_while(|p| p.exists())
            .collect();
        let out = dir.join("out");
        let result = self
            .invoke(model, &inputs, &out, mode, &dir)
            .and_then(|compile| {
                let imported = load_model(model, &ImportOptions::default())
                    .map_err(|e| format!("harness: import: {e}"))?;
                let graph = imported.model.ir.region(imported.model.graph);
                let types: Vec<&Type> = graph
                    .outputs
                    .iter()
                    .map(|o| imported.model.ir.ty(o.value))
                    .collect();
                let given = || Err("harness: a data set of a random op".to_string());
                check_outputs(&out, data, "", &types, check, given).map(|()| compile)
            });
        match result {
            Ok(compile) => (Outcome::Pass, compile),
            Err(reason) => (
                Outcome::Fail(reason.replace(&*dir.to_string_lossy(), "<scratch>")),
                None,
            ),
        }
    }

    fn slot_dir(&self, slot: usize) -> Result<PathBuf, String> {
        let dir = self.scratch.join(format!("w{slot}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("harness: cannot create {}: {e}", dir.display()))?;
        Ok(dir)
    }

    fn try_run(&self, case: &Case, mode: Mode, dir: &Path, check: Check) -> Result<(), String> {
        let imported = load_model(&case.model, &ImportOptions::default())
            .map_err(|e| format!("import: {e}"))?;
        let model = &imported.model;
        let graph = model.ir.region(model.graph);
        let input_types: Vec<&Type> = graph
            .args
            .iter()
            .filter(|a| a.default.is_none())
            .map(|a| model.ir.ty(a.value))
            .collect();
        let output_types: Vec<&Type> = graph.outputs.iter().map(|o| model.ir.ty(o.value)).collect();
        let model_path = match mode {
            Mode::Dynamic => {
                let path = dir.join("model.onnx");
                write_symbolic(&case.model, &path)?;
                path
            }
            Mode::Jit | Mode::Aot => case.model.clone(),
        };
        for (set, (folder, prefix)) in case.sets.iter().enumerate() {
            let mut inputs = vec![];
            for (k, ty) in input_types.iter().enumerate() {
                let given = folder.join(format!("{prefix}input_{k}.pb"));
                inputs.push(if given.exists() {
                    given
                } else {
                    let path = dir.join(format!("input_{k}.npy"));
                    write_dummy_input(ty, &path)?;
                    path
                });
            }
            let out = dir.join(format!("out{set}"));
            self.invoke(&model_path, &inputs, &out, mode, dir)?;
            let given = || {
                inputs
                    .iter()
                    .zip(&input_types)
                    .map(|(path, ty)| read_value(path, ty).map_err(|e| format!("input: {e}")))
                    .collect()
            };
            check_outputs(&out, folder, prefix, &output_types, check, given)?;
        }
        Ok(())
    }

    /// Runs the CLI (with `--timings`); returns the compile time it
    /// reported, or the error: its first stderr line that is not a timing,
    /// prefixed as the CLI prefixes it (`UNSUPPORTED: …`, `ERROR: …`) or
    /// saying how it died.
    fn invoke(
        &self,
        model: &Path,
        inputs: &[PathBuf],
        out: &Path,
        mode: Mode,
        dir: &Path,
    ) -> Result<Option<Duration>, String> {
        let stderr_path = dir.join("stderr.txt");
        let stderr = std::fs::File::create(&stderr_path).map_err(|e| format!("harness: {e}"))?;
        let mut command = Command::new(&self.bin);
        command
            .arg("run")
            .arg(model)
            .arg("--out")
            .arg(out)
            .arg("--timings")
            .args(inputs);
        if mode == Mode::Aot {
            command.arg("--aot");
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("harness: cannot run {}: {e}", self.bin.display()))?;
        let start = Instant::now();
        let status: ExitStatus = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!("TIMEOUT after {} s", self.timeout.as_secs()));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(format!("harness: wait: {e}")),
            }
        };
        let text = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        let timing = |line: &str| {
            let (_, value) = line.split_once(':')?;
            value.trim().strip_suffix(" ms")?.trim().parse::<f64>().ok()
        };
        if status.success() {
            let total = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("total:").and_then(|_| timing(l)));
            return Ok(total.map(|ms| Duration::from_secs_f64(ms / 1e3)));
        }
        let first = text
            .lines()
            .find(|l| timing(l).is_none())
            .unwrap_or("")
            .trim()
            .to_string();
        Err(match status.code() {
            Some(EXIT_UNSUPPORTED) if first.starts_with("UNSUPPORTED:") => first,
            Some(code) if first.starts_with("ERROR:") => format!("{first} (exit {code})"),
            Some(code) => format!("CRASH: exit {code}: {first}"),
            None => {
                use std::os::unix::process::ExitStatusExt;
                format!("CRASH: signal {}", status.signal().unwrap_or(0))
            }
        })
    }
}

/// Output `k` as `onnx-mlc` wrote it to `out` and as the data set
/// `folder` expects it (`{prefix}output_K.pb`), read as `ty`; `None` when
/// the data set has no expected file for it.
fn read_output(
    out: &Path,
    folder: &Path,
    prefix: &str,
    k: usize,
    ty: &Type,
) -> Result<Option<(TestValue, TestValue)>, String> {
    let want = folder.join(format!("{prefix}output_{k}.pb"));
    if !want.exists() {
        return Ok(None);
    }
    let want = read_value(&want, ty).map_err(|e| format!("expected output {k}: {e}"))?;
    let got = read_value(&out.join(format!("output_{k}.pb")), ty)
        .map_err(|e| format!("output {k}: {e}"))?;
    Ok(Some((got, want)))
}

/// Every output (see [`read_output`]): what was written, what was expected.
fn read_outputs(
    out: &Path,
    folder: &Path,
    prefix: &str,
    types: &[&Type],
) -> Result<(Vec<TestValue>, Vec<TestValue>), String> {
    let (mut gots, mut wants) = (vec![], vec![]);
    for (k, ty) in types.iter().enumerate() {
        if let Some((got, want)) = read_output(out, folder, prefix, k, ty)? {
            gots.push(got);
            wants.push(want);
        }
    }
    Ok((gots, wants))
}

/// Checks the outputs in `out` against the expected ones of `folder` by
/// `check`; `given` reads the inputs (which a random op's check needs).
fn check_outputs(
    out: &Path,
    folder: &Path,
    prefix: &str,
    types: &[&Type],
    check: Check,
    given: impl FnOnce() -> Result<Vec<TestValue>, String>,
) -> Result<(), String> {
    match check {
        Check::Values(tol) => compare_outputs(out, folder, prefix, types, tol),
        Check::Ranked { tol, by } => {
            let (gots, wants) = read_outputs(out, folder, prefix, types)?;
            compare_ranked(&gots, &wants, by, tol).map_err(|e| format!("WRONG: {e}"))
        }
        Check::Random(op) => {
            let (gots, wants) = read_outputs(out, folder, prefix, types)?;
            check_random(op, &gots, &wants, &given()?).map_err(|e| format!("WRONG: {e}"))
        }
    }
}

/// Compares the outputs in `out` with the expected ones of `folder`, in
/// order (see [`read_output`]); the error, `WRONG: output K: …`, names the
/// first that differs.
fn compare_outputs(
    out: &Path,
    folder: &Path,
    prefix: &str,
    types: &[&Type],
    tol: Tolerance,
) -> Result<(), String> {
    for (k, ty) in types.iter().enumerate() {
        if let Some((got, want)) = read_output(out, folder, prefix, k, ty)? {
            compare(&got, &want, tol).map_err(|e| format!("WRONG: output {k}: {e}"))?;
        }
    }
    Ok(())
}

/// Runs `run(item, slot)` for every item on `jobs` worker threads (`slot`
/// is the worker's number, for its scratch folder); the results in item
/// order.
pub fn run_all<W: Sync, O: Send>(
    jobs: usize,
    work: &[W],
    run: impl Fn(&W, usize) -> O + Sync,
) -> Vec<O> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(work.len()));
    std::thread::scope(|s| {
        for slot in 0..jobs.max(1) {
            let (next, results, run) = (&next, &results, &run);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = work.get(i) else {
                    break;
                };
                let outcome = run(item, slot);
                results.lock().expect("no worker panics").push((i, outcome));
            });
        }
    });
    let mut results = results.into_inner().expect("no worker panics");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, o)| o).collect()
}

/// Writes the model at `from` to `to` with every dim of every graph input
/// that is not an initializer made symbolic (`in{K}_d{A}`), so that
/// nothing about the inputs' sizes is known at compile time.
pub fn write_symbolic(from: &Path, to: &Path) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("harness: {e}"))?;
    let mut proto = ModelProto::decode(bytes.as_slice()).map_err(|e| format!("harness: {e}"))?;
    let graph = proto.graph.as_mut().ok_or("harness: model without graph")?;
    let initializers: std::collections::HashSet<String> =
        graph.initializer.iter().map(|t| t.name.clone()).collect();
    for (k, input) in graph
        .input
        .iter_mut()
        .filter(|i| !initializers.contains(&i.name))
        .enumerate()
    {
        if let Some(type_proto::Value::TensorType(t)) =
            input.r#type.as_mut().and_then(|t| t.value.as_mut())
        {
            for (a, dim) in t
                .shape
                .iter_mut()
                .flat_map(|s| s.dim.iter_mut())
                .enumerate()
            {
                dim.value = Some(dimension::Value::DimParam(format!("in{k}_d{a}")));
            }
        }
    }
    std::fs::write(to, proto.encode_to_vec()).map_err(|e| format!("harness: {e}"))
}

/// Writes the input the ONNX runner generates for models that ship none
/// (`generate_dummy_data(random=False)`): float32, unknown dims 1, the
/// values `i / n` for `i` in `0..n`, as a `.npy` file.
pub fn write_dummy_input(ty: &Type, path: &Path) -> Result<(), String> {
    let Type::Tensor(t) = ty else {
        return Err(format!("harness: cannot make a {ty} input"));
    };
    if t.elem != ElemType::F32 {
        return Err(format!("harness: cannot make a {} input", t.elem));
    }
    let dims: Vec<i64> = t
        .shape
        .as_ref()
        .ok_or("harness: input of unknown rank")?
        .iter()
        .map(|d| d.as_known().unwrap_or(1))
        .collect();
    let n: i64 = dims.iter().product();
    let shape: String = dims.iter().map(|d| format!("{d}, ")).collect();
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({shape}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for i in 0..n {
        bytes.extend_from_slice(&((i as f64 / n as f64) as f32).to_le_bytes());
    }
    std::fs::write(path, bytes).map_err(|e| format!("harness: {e}"))
}
