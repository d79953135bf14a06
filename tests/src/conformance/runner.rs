//! Running one case through `onnx-mlc run`: the model (rewritten with
//! symbolic input dims in [`Mode::Dynamic`]), its input files (generated
//! the way the ONNX runner does for the `light/` models, which ship
//! none), a child process with a time limit, and the outputs it writes
//! compared with the expected ones.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use onnx_mlc_dialect::{ElemType, Type};
use onnx_mlc_import::{load_model, read_value, ImportOptions};
use onnx_mlc_proto::{tensor_shape_proto::dimension, type_proto, Message, ModelProto};

use super::compare::{check_random, compare, Check};
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
        let dir = self.scratch.join(format!("w{slot}"));
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return Outcome::Fail(format!("harness: cannot create {}: {e}", dir.display()));
        }
        match self.try_run(case, mode, &dir, check) {
            Ok(()) => Outcome::Pass,
            Err(reason) => Outcome::Fail(reason.replace(&*dir.to_string_lossy(), "<scratch>")),
        }
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
            let (mut gots, mut wants) = (vec![], vec![]);
            for (k, ty) in output_types.iter().enumerate() {
                let want = folder.join(format!("{prefix}output_{k}.pb"));
                if !want.exists() {
                    continue;
                }
                let want =
                    read_value(&want, ty).map_err(|e| format!("expected output {k}: {e}"))?;
                let got = read_value(&out.join(format!("output_{k}.pb")), ty)
                    .map_err(|e| format!("output {k}: {e}"))?;
                if let Check::Values(tol) = check {
                    compare(&got, &want, tol).map_err(|e| format!("WRONG: output {k}: {e}"))?;
                }
                gots.push(got);
                wants.push(want);
            }
            if let Check::Random(op) = check {
                let given = inputs
                    .iter()
                    .zip(&input_types)
                    .map(|(path, ty)| read_value(path, ty).map_err(|e| format!("input: {e}")))
                    .collect::<Result<Vec<_>, _>>()?;
                check_random(op, &gots, &wants, &given).map_err(|e| format!("WRONG: {e}"))?;
            }
        }
        Ok(())
    }

    /// Runs the CLI; an error is its first stderr line, prefixed as the
    /// CLI prefixes it (`UNSUPPORTED: …`, `ERROR: …`) or saying how it died.
    fn invoke(
        &self,
        model: &Path,
        inputs: &[PathBuf],
        out: &Path,
        mode: Mode,
        dir: &Path,
    ) -> Result<(), String> {
        let stderr_path = dir.join("stderr.txt");
        let stderr = std::fs::File::create(&stderr_path).map_err(|e| format!("harness: {e}"))?;
        let mut command = Command::new(&self.bin);
        command
            .arg("run")
            .arg(model)
            .arg("--out")
            .arg(out)
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
        if status.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        let first = text.lines().next().unwrap_or("").trim().to_string();
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

/// Writes the model at `from` to `to` with every dim of every graph input
/// that is not an initializer made symbolic (`in{K}_d{A}`), so that
/// nothing about the inputs' sizes is known at compile time.
pub fn write_symbolic(from: &Path, to: &Path) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("harness: {e}"))?;
    let mut proto = ModelProto::decode(bytes.as_slice()).map_err(|e| format!("harness: {e}"))?;
    let graph = proto.graph.as_mut().ok_or("harness: model without graph")?;
    let initializers: std::collections::HashSet<String> =
        graph.initializer.iter().map(|t| t.name.clone()).collect();
    let mut k = 0;
    for input in graph
        .input
        .iter_mut()
        .filter(|i| !initializers.contains(&i.name))
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
        k += 1;
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
