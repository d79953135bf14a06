//! What a conformance run reports: the operator each case tests, pass
//! counts per operator and per suite in each mode, and the
//! `docs/conformance.md` page made from them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use onnx_mlc_proto::{Message, ModelProto};

pub use super::manifest::CaseResult;
use super::manifest::Manifest;
use super::Mode;

/// The operator a model tests: its first node that is not a `Constant`
/// (with its domain when not `ai.onnx`), `Constant` if there is no other.
pub fn principal_op(model: &Path) -> String {
    let Ok(bytes) = std::fs::read(model) else {
        return "?".into();
    };
    let Ok(proto) = ModelProto::decode(bytes.as_slice()) else {
        return "?".into();
    };
    let nodes = proto.graph.map(|g| g.node).unwrap_or_default();
    nodes
        .iter()
        .find(|n| n.op_type != "Constant")
        .or(nodes.first())
        .map(|n| match n.domain.as_str() {
            "" | "ai.onnx" => n.op_type.clone(),
            domain => format!("{domain}.{}", n.op_type),
        })
        .unwrap_or_else(|| "?".into())
}

/// Passed and run counts per mode.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Cases.
    pub cases: usize,
    /// Per mode: (passed, run).
    pub modes: [(usize, usize); Mode::ALL.len()],
}

impl Tally {
    /// Counts one case's results.
    pub fn add(&mut self, r: &CaseResult) {
        self.cases += 1;
        for (slot, m) in self.modes.iter_mut().zip(&r.modes) {
            if let Some(outcome) = m {
                slot.1 += 1;
                slot.0 += outcome.is_ok() as usize;
            }
        }
    }

    /// `jit 3/4  aot 2/4`: passed and run per mode of `modes`.
    pub fn counts(&self, modes: &[Mode]) -> String {
        let cells: Vec<String> = modes
            .iter()
            .map(|m| {
                let (passed, run) = self.modes[m.index()];
                format!("{} {passed}/{run}", m.name())
            })
            .collect();
        cells.join("  ")
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &Tally) {
        self.cases += other.cases;
        for (a, b) in self.modes.iter_mut().zip(other.modes) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    fn cells(&self) -> String {
        self.modes
            .iter()
            .map(|&(p, n)| match n {
                0 => " – |".to_string(),
                _ => format!(" {p}/{n} ({:.1}%) |", 100.0 * p as f64 / n as f64),
            })
            .collect()
    }
}

/// Tallies per suite and, for the `node` suite, per operator.
pub fn tallies(results: &[CaseResult]) -> (BTreeMap<String, Tally>, BTreeMap<String, Tally>) {
    let (mut suites, mut ops) = (
        BTreeMap::<String, Tally>::new(),
        BTreeMap::<String, Tally>::new(),
    );
    for r in results {
        let suite = r.id.split('/').next().unwrap_or("").to_string();
        if suite == "node" {
            ops.entry(r.op.clone()).or_default().add(r);
        }
        suites.entry(suite).or_default().add(r);
    }
    (suites, ops)
}

/// The failure reasons of one mode with how many cases give each, most
/// frequent first; reasons are grouped by their first six words.
pub fn reasons(results: &[CaseResult], mode: Mode) -> Vec<(String, usize)> {
    let mut counts = BTreeMap::<String, usize>::new();
    for r in results {
        if let Some(Err(why)) = &r.modes[mode.index()] {
            *counts.entry(reason_key(why)).or_default() += 1;
        }
    }
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn reason_key(why: &str) -> String {
    let words: String = why.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
    words.chars().take(90).collect()
}

/// The failures of the `modes` run, except those of the `lenient` modes,
/// that are not a clean `UNSUPPORTED` (wrong results, errors, crashes,
/// time-outs), a line each.
pub fn unclean_failures(results: &[CaseResult], modes: &[Mode], lenient: &[Mode]) -> Vec<String> {
    let mut unclean = vec![];
    for r in results {
        for mode in modes.iter().filter(|m| !lenient.contains(m)) {
            if let Some(Err(why)) = &r.modes[mode.index()] {
                if !why.starts_with("UNSUPPORTED: ") {
                    unclean.push(format!("{} [{}]: {why}", r.id, mode.name()));
                }
            }
        }
    }
    unclean
}

/// The end of a run held to a manifest: under `bless` the manifest takes
/// the results and is written to `path`, otherwise the differences from it
/// are listed; then the `unclean` failures, and the closing
/// `N passed, N failed` over case × mode. Whether the run is green: no
/// difference (or blessed) and nothing unclean.
pub fn conclude(
    manifest: &mut Manifest,
    path: &Path,
    results: &[CaseResult],
    modes: &[Mode],
    bless: bool,
    unclean: &[String],
) -> Result<bool, String> {
    let problems = manifest.differences(results, modes);
    if bless {
        manifest.bless(results, modes);
        std::fs::write(path, manifest.render()).map_err(|e| e.to_string())?;
        println!("manifest rewritten: {}", path.display());
    } else if !problems.is_empty() {
        println!(
            "\n{} differences from the manifest (ONNX_MLC_BLESS=1 rewrites it):",
            problems.len()
        );
        for p in &problems {
            println!("  {p}");
        }
    }
    let count = |pass: bool| {
        results
            .iter()
            .flat_map(|r| &r.modes)
            .filter(|m| m.as_ref().is_some_and(|o| o.is_ok() == pass))
            .count()
    };
    if !unclean.is_empty() {
        println!(
            "\n{} failures that are not a clean UNSUPPORTED (wrong results, errors, crashes, time-outs):",
            unclean.len()
        );
        for u in unclean {
            println!("  {u}");
        }
    }
    println!("\n{} passed, {} failed", count(true), count(false));
    Ok((bless || problems.is_empty()) && unclean.is_empty())
}

/// The `docs/conformance.md` page.
pub fn render_docs(results: &[CaseResult]) -> String {
    let (suites, ops) = tallies(results);
    let modes: String = Mode::ALL
        .iter()
        .map(|m| format!(" {} |", m.name()))
        .collect();
    let rule: String = Mode::ALL.iter().map(|_| "---|").collect();
    let mut out = String::from(
        "# Conformance\n\n\
         How much of the ONNX backend test suite (generated from `onnx==1.23.2`) onnx-mlc\n\
         passes, per mode: **jit** (`onnx-mlc run`), **aot** (`onnx-mlc run --aot`, through a\n\
         shared library) and **dynamic** (JIT with every input dim made symbolic). Outputs are\n\
         compared as the ONNX backend runner does (shape, element type, values within rtol 1e-3 /\n\
         atol 1e-4, strings exactly, NaN equal to NaN).\n\n\
         This page is written by the conformance suite (`tests/harness/conformance.rs`) on every\n\
         full run; the expected result of every case, with the reason of each failure, is\n\
         `tests/conformance/manifest.tsv`. See docs/testing.md for how to run it.\n\n\
         ## Per suite\n\n",
    );
    let _ = writeln!(out, "| suite | cases |{modes}\n|---|---|{rule}");
    let mut total = Tally::default();
    for (suite, t) in &suites {
        let _ = writeln!(out, "| {suite} | {} |{}", t.cases, t.cells());
        total.merge(t);
    }
    let _ = writeln!(out, "| **all** | {} |{}", total.cases, total.cells());
    out += "\n## Most frequent failure reasons\n\n";
    for mode in Mode::ALL {
        let _ = writeln!(out, "### {}\n", mode.name());
        let reasons = reasons(results, mode);
        if reasons.is_empty() {
            out += "None.\n\n";
            continue;
        }
        out += "| cases | reason |\n|---|---|\n";
        for (why, n) in reasons.iter().take(25) {
            let _ = writeln!(
                out,
                "| {n} | `{}` |",
                why.replace('|', "\\|").replace('`', "'")
            );
        }
        out.push('\n');
    }
    out += "## Node tests per operator\n\n";
    let _ = writeln!(out, "| operator | cases |{modes}\n|---|---|{rule}");
    for (op, t) in &ops {
        let _ = writeln!(out, "| {op} | {} |{}", t.cases, t.cells());
    }
    out
}
