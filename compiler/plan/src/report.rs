//! Printing plans: a one-line summary (`Display for Plan`, what `onnx-mlc
//! inspect` shows) and a full dump ([`Plan::dump`]: every kernel with its
//! ops, inputs and outputs, then every value's storage).

use std::fmt;

use onnx_mlc_dialect::dim::write_quoted;
use onnx_mlc_dialect::print::is_bare_value_name;
use onnx_mlc_dialect::summary::human_bytes;
use onnx_mlc_dialect::{Ir, Model, OpId, Value};

use crate::plan::{Kernel, Plan, Storage};

/// A value as the text form names it: `%x`, `%"/conv1/Conv_output_0"`;
/// values without a name print as `%#` and their arena index.
pub(crate) fn value_ref(ir: &Ir, v: Value) -> String {
    let mut out = String::from("%");
    match &ir.value(v).name {
        Some(name) if is_bare_value_name(name) => out.push_str(name),
        Some(name) => write_quoted(&mut out, name.as_bytes()).expect("writing to a String"),
        None => out.push_str(&format!("#{}", v.index())),
    }
    out
}

/// An op for a plan dump: its type and node name (`Conv "conv1"`).
fn op_ref(ir: &Ir, op: OpId) -> String {
    let data = ir.op(op);
    let mut out = data.kind.name().to_string();
    if !data.name.is_empty() {
        out.push(' ');
        write_quoted(&mut out, data.name.as_bytes()).expect("writing to a String");
    }
    out
}

fn bytes(n: u64) -> String {
    human_bytes(usize::try_from(n).unwrap_or(usize::MAX))
}

impl fmt::Display for Plan {
    /// `56 kernels (119 fused ops, 1 view), workspace 9.2 MiB (naive 110.3 MiB, 12.0x less)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        write!(
            f,
            "{} ({}, {}), workspace {}",
            plural(self.num_kernels, "kernel"),
            plural(self.num_fused_ops, "fused op"),
            plural(self.views.len(), "view"),
            bytes(self.workspace_size),
        )?;
        if self.workspace_size > 0 {
            let ratio = self.naive_bytes as f64 / self.workspace_size as f64;
            write!(f, " (naive {}, {ratio:.1}x less)", bytes(self.naive_bytes))?;
        }
        let dynamic = self
            .storage
            .values()
            .filter(|s| matches!(s, Storage::Dynamic { .. }))
            .count();
        if dynamic > 0 {
            write!(f, ", {}", plural(dynamic, "dynamic buffer"))?;
        }
        if !self.output_copies.is_empty() {
            write!(f, ", {}", plural(self.output_copies.len(), "output copy"))?;
        }
        Ok(())
    }
}

impl Plan {
    /// The full plan of `model` (the model it was made from) for people
    /// and tests: the summary, each kernel with its ops, inputs and outputs,
    /// then each value of the main graph with its storage, and the output
    /// copies.
    pub fn dump<'a>(&'a self, model: &'a Model) -> PlanDump<'a> {
        PlanDump { plan: self, model }
    }
}

/// A [`Plan`] with the model that names its ops and values; see
/// [`Plan::dump`].
pub struct PlanDump<'a> {
    plan: &'a Plan,
    model: &'a Model,
}

impl PlanDump<'_> {
    fn kernel(&self, f: &mut fmt::Formatter<'_>, index: usize, kernel: &Kernel) -> fmt::Result {
        let ir = &self.model.ir;
        let list = |ops: &[OpId]| {
            ops.iter()
                .map(|&op| op_ref(ir, op))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let values = |vs: &[Value]| {
            vs.iter()
                .map(|&v| value_ref(ir, v))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match kernel.root {
            Some(root) if kernel.ops.len() > 1 => writeln!(
                f,
                "kernel {index}: {} + {}",
                op_ref(ir, root),
                list(kernel.epilogue())
            )?,
            Some(root) => writeln!(f, "kernel {index}: {}", op_ref(ir, root))?,
            None => writeln!(f, "kernel {index}: elementwise {}", list(&kernel.ops))?,
        }
        writeln!(f, "  in:  {}", values(&kernel.inputs))?;
        writeln!(f, "  out: {}", values(&kernel.outputs))
    }

    fn storage(&self, f: &mut fmt::Formatter<'_>, v: Value) -> fmt::Result {
        let ir = &self.model.ir;
        let plan = self.plan;
        write!(f, "  {}: ", value_ref(ir, v))?;
        match &plan.storage[&v] {
            Storage::Input(i) => write!(f, "input {i}")?,
            Storage::Output(i) => write!(f, "output {i}")?,
            Storage::Weight(k) => write!(f, "weight {k}")?,
            Storage::Fused => write!(f, "fused")?,
            Storage::Alias { of } => write!(f, "alias of {}", value_ref(ir, *of))?,
            Storage::Workspace { offset, bytes } => write!(f, "workspace {offset}+{bytes}")?,
            Storage::Dynamic { bytes } => write!(f, "dynamic {bytes} B")?,
        }
        if let Some(live) = plan.lifetimes.get(&v) {
            write!(f, ", kernels {}..{}", live.first, live.last)?;
        }
        if let Some(&over) = plan.in_place.get(&v) {
            write!(f, ", over {}", value_ref(ir, over))?;
        }
        writeln!(f)
    }
}

impl fmt::Display for PlanDump<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ir = &self.model.ir;
        writeln!(f, "plan: {}", self.plan)?;
        for (i, kernel) in self.plan.kernels.iter().enumerate() {
            self.kernel(f, i, kernel)?;
        }
        writeln!(f, "storage:")?;
        let main = ir.region(self.model.graph);
        let results = main
            .ops
            .iter()
            .flat_map(|&op| ir.op(op).results.iter().flatten().copied());
        for v in main.args.iter().map(|a| a.value).chain(results) {
            self.storage(f, v)?;
        }
        if !self.plan.output_copies.is_empty() {
            writeln!(f, "output copies:")?;
            for copy in &self.plan.output_copies {
                writeln!(
                    f,
                    "  output {} <- {}",
                    copy.output,
                    value_ref(ir, copy.from)
                )?;
            }
        }
        Ok(())
    }
}
