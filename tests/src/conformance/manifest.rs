//! The conformance manifest: which backend cases pass in which mode, and
//! why each expected failure fails. A run is checked against it both ways
//! — a listed-passing case that fails is a regression, a listed-failing
//! case that passes makes the manifest stale — so it is always true.
//!
//! The file is plain text, one case per line, tab-separated:
//! `id  jit  aot  dynamic  reason`, each mode `pass` or `fail`, the reason
//! being the first line of the first failing mode's error (empty when all
//! pass). Lines starting with `#` are comments. The model zoo's manifest
//! is the same file with its own [`Layout`]: a line per model and size,
//! columns `jit` and `aot`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Mode;

/// One case's results: its id, the operator it tests, and per mode
/// whether it passed (`None`: not run) and why not.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// `suite/name`.
    pub id: String,
    /// The operator under test (`report::principal_op`).
    pub op: String,
    /// Per mode ([`Mode::index`]): `Some(Ok(()))` passed, `Some(Err(why))`
    /// failed, `None` not run.
    pub modes: [Option<Result<(), String>>; Mode::ALL.len()],
}

/// What the manifest expects of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Whether the case passes, per mode (indexed by [`Mode::index`]); a
    /// mode the manifest has no column for counts as passing.
    pub passes: [bool; Mode::ALL.len()],
    /// Why it fails, when it fails in some mode.
    pub reason: String,
}

/// Which manifest: its header comment and its mode columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The comment lines the file starts with, the column names last.
    pub header: &'static str,
    /// The modes with a column, in column order.
    pub modes: &'static [Mode],
}

/// The conformance manifest, `tests/conformance/manifest.tsv`.
pub const CONFORMANCE: Layout = Layout {
    header: "\
# onnx-mlc conformance manifest: every ONNX backend test case (onnx 1.23.2)
# and whether it passes through onnx-mlc in each mode (JIT, AOT shared
# library, JIT with symbolic input dims), with the reason of each failure.
# Checked by the conformance suite (tests/harness/conformance.rs), rewritten
# by it under ONNX_MLC_BLESS=1; see docs/conformance.md.
#
# id\tjit\taot\tdynamic\treason
",
    modes: &Mode::ALL,
};

/// The manifest: an entry per case id (`suite/name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// Its header and columns.
    pub layout: Layout,
    /// The entries, by case id.
    pub entries: BTreeMap<String, Entry>,
}

impl Manifest {
    /// An empty manifest of `layout`.
    pub fn new(layout: Layout) -> Manifest {
        Manifest {
            layout,
            entries: BTreeMap::new(),
        }
    }

    /// Parses the manifest's text.
    pub fn parse(text: &str, layout: Layout) -> Result<Manifest, String> {
        let columns = layout.modes.len();
        let mut entries = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.splitn(2 + columns, '\t').collect();
            if fields.len() < 1 + columns {
                return Err(format!("line {}: expected id and {columns} modes", n + 1));
            }
            let mut passes = [true; Mode::ALL.len()];
            for (mode, field) in layout.modes.iter().zip(&fields[1..=columns]) {
                passes[mode.index()] = match *field {
                    "pass" => true,
                    "fail" => false,
                    other => return Err(format!("line {}: `{other}` is not pass or fail", n + 1)),
                };
            }
            let reason = fields.get(1 + columns).unwrap_or(&"").to_string();
            if passes.iter().any(|p| !p) && reason.is_empty() {
                return Err(format!("line {}: a failing case needs a reason", n + 1));
            }
            if entries
                .insert(fields[0].to_string(), Entry { passes, reason })
                .is_some()
            {
                return Err(format!("line {}: {} listed twice", n + 1, fields[0]));
            }
        }
        Ok(Manifest { layout, entries })
    }

    /// The manifest's text.
    pub fn render(&self) -> String {
        let mut out = self.layout.header.to_string();
        for (id, entry) in &self.entries {
            out += id;
            for mode in self.layout.modes {
                out += if entry.passes[mode.index()] {
                    "\tpass"
                } else {
                    "\tfail"
                };
            }
            if !entry.reason.is_empty() {
                let _ = write!(out, "\t{}", entry.reason);
            }
            out.push('\n');
        }
        out
    }

    /// How the results of the `modes` run differ from the manifest, a line
    /// each: `REGRESSION` (listed passing, failed), `NOW PASSES` (listed
    /// failing, passed), `NEW CASE` (not listed).
    pub fn differences(&self, results: &[CaseResult], modes: &[Mode]) -> Vec<String> {
        let mut problems = vec![];
        for r in results {
            let expected = self.entries.get(&r.id);
            for mode in modes {
                let Some(outcome) = &r.modes[mode.index()] else {
                    continue;
                };
                match (expected.map(|e| e.passes[mode.index()]), outcome) {
                    (Some(true), Err(why)) => {
                        problems.push(format!("REGRESSION {} [{}]: {why}", r.id, mode.name()))
                    }
                    (Some(false), Ok(())) => problems.push(format!(
                        "NOW PASSES {} [{}]: update the manifest",
                        r.id,
                        mode.name()
                    )),
                    (None, _) => problems.push(format!(
                        "NEW CASE {} [{}]: not in the manifest",
                        r.id,
                        mode.name()
                    )),
                    _ => {}
                }
            }
        }
        problems
    }

    /// Takes the results of the `modes` run as the expected ones (what was
    /// not run keeps its columns; a new entry's start as failing, "not run
    /// yet"); an entry's reason is its first failing mode's error.
    pub fn bless(&mut self, results: &[CaseResult], modes: &[Mode]) {
        let layout = self.layout.modes;
        for r in results {
            let entry = self.entries.entry(r.id.clone()).or_insert_with(|| {
                let mut passes = [true; Mode::ALL.len()];
                for m in layout {
                    passes[m.index()] = false;
                }
                Entry {
                    passes,
                    reason: "not run yet".into(),
                }
            });
            for m in modes.iter().filter(|m| layout.contains(m)) {
                if let Some(outcome) = &r.modes[m.index()] {
                    entry.passes[m.index()] = outcome.is_ok();
                }
            }
            entry.reason = layout
                .iter()
                .filter(|m| !entry.passes[m.index()])
                .find_map(|m| r.modes[m.index()].clone().and_then(Result::err))
                .or_else(|| (!entry.passes.iter().all(|&p| p)).then(|| entry.reason.clone()))
                .unwrap_or_default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_it_renders() {
        let mut m = Manifest::new(CONFORMANCE);
        m.entries.insert(
            "node/test_abs".into(),
            Entry {
                passes: [true; 3],
                reason: String::new(),
            },
        );
        m.entries.insert(
            "node/test_if".into(),
            Entry {
                passes: [false, false, true],
                reason: "UNSUPPORTED: If".into(),
            },
        );
        assert_eq!(Manifest::parse(&m.render(), CONFORMANCE).unwrap(), m);
    }

    #[test]
    fn rejects_failures_without_reason_and_bad_status() {
        let parse = |text| Manifest::parse(text, CONFORMANCE);
        assert!(parse("node/test_abs\tpass\tfail\tpass\n").is_err());
        assert!(parse("node/test_abs\tpass\tok\tpass\n").is_err());
        assert!(parse("node/a\tpass\tpass\tpass\nnode/a\tpass\tpass\tpass\n").is_err());
    }
}
