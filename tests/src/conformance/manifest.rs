//! The conformance manifest: which backend cases pass in which mode, and
//! why each expected failure fails. A run is checked against it both ways
//! — a listed-passing case that fails is a regression, a listed-failing
//! case that passes makes the manifest stale — so it is always true.
//!
//! The file is plain text, one case per line, tab-separated:
//! `id  jit  aot  dynamic  reason`, each mode `pass` or `fail`, the reason
//! being the first line of the first failing mode's error (empty when all
//! pass). Lines starting with `#` are comments.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Mode;

/// What the manifest expects of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Whether the case passes, per mode (indexed by [`Mode::index`]).
    pub passes: [bool; Mode::ALL.len()],
    /// Why it fails, when it fails in some mode.
    pub reason: String,
}

/// The manifest: an entry per case id (`suite/name`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// The entries, by case id.
    pub entries: BTreeMap<String, Entry>,
}

const HEADER: &str = "\
# onnx-mlc conformance manifest: every ONNX backend test case (onnx 1.23.2)
# and whether it passes through onnx-mlc in each mode (JIT, AOT shared
# library, JIT with symbolic input dims), with the reason of each failure.
# Checked by the conformance suite (tests/harness/conformance.rs), rewritten
# by it under ONNX_MLC_BLESS=1; see docs/conformance.md.
#
# id\tjit\taot\tdynamic\treason
";

impl Manifest {
    /// Parses the manifest's text.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let mut entries = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.splitn(2 + Mode::ALL.len(), '\t').collect();
            if fields.len() < 1 + Mode::ALL.len() {
                return Err(format!(
                    "line {}: expected id and {} modes",
                    n + 1,
                    Mode::ALL.len()
                ));
            }
            let mut passes = [false; Mode::ALL.len()];
            for (i, field) in fields[1..=Mode::ALL.len()].iter().enumerate() {
                passes[i] = match *field {
                    "pass" => true,
                    "fail" => false,
                    other => return Err(format!("line {}: `{other}` is not pass or fail", n + 1)),
                };
            }
            let reason = fields.get(1 + Mode::ALL.len()).unwrap_or(&"").to_string();
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
        Ok(Manifest { entries })
    }

    /// The manifest's text.
    pub fn render(&self) -> String {
        let mut out = HEADER.to_string();
        for (id, entry) in &self.entries {
            out += id;
            for pass in entry.passes {
                out += if pass { "\tpass" } else { "\tfail" };
            }
            if !entry.reason.is_empty() {
                let _ = write!(out, "\t{}", entry.reason);
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_it_renders() {
        let mut m = Manifest::default();
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
        assert_eq!(Manifest::parse(&m.render()).unwrap(), m);
    }

    #[test]
    fn rejects_failures_without_reason_and_bad_status() {
        assert!(Manifest::parse("node/test_abs\tpass\tfail\tpass\n").is_err());
        assert!(Manifest::parse("node/test_abs\tpass\tok\tpass\n").is_err());
        assert!(Manifest::parse("node/a\tpass\tpass\tpass\nnode/a\tpass\tpass\tpass\n").is_err());
    }
}
