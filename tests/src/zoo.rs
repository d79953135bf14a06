//! The model zoo (`tests/zoo/`): real exported models — torchvision,
//! transformers, scikit-learn, onnxruntime's quantizations and fusions,
//! float16 conversions — with random weights, each run through
//! `onnx-mlc run` at two sizes of its dynamic dims and compared with
//! onnxruntime. The run itself is the conformance machinery (runner,
//! comparison, manifest); this module holds what is the zoo's own: its
//! index (`tests/zoo/models.tsv`, written by `tools/export_zoo.py`), its
//! manifest's layout and the `docs/zoo.md` page.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use crate::conformance::compare::{Check, Tolerance};
use crate::conformance::manifest::Layout;
use crate::conformance::report::{tallies, CaseResult, Tally};
use crate::conformance::Mode;

/// The modes the zoo runs: the JIT and the AOT shared library (the models
/// bring their own dynamic dims).
pub const MODES: [Mode; 2] = [Mode::Jit, Mode::Aot];

/// The zoo's manifest, `tests/zoo/manifest.tsv`: a line per model and size.
pub const MANIFEST: Layout = Layout {
    header: "\
# onnx-mlc model zoo manifest: every model of tests/zoo/ at each tested size
# (`<family>/<name>@<dim>=<value>,…`) and whether it passes through onnx-mlc
# in each mode (JIT, AOT shared library) against onnxruntime, with the
# reason of each failure. Checked by the zoo test (tests/harness/zoo.rs),
# rewritten by it under ONNX_MLC_BLESS=1; see docs/zoo.md.
#
# id\tjit\taot\treason
",
    modes: &MODES,
};

/// One model of the index.
#[derive(Clone, Debug, PartialEq)]
pub struct ZooModel {
    /// `<family>/<name>`, its folder below `tests/zoo/`.
    pub id: String,
    /// Where it comes from: torchvision, transformers, scikit-learn, ….
    pub source: String,
    /// What exported or transformed it.
    pub exporter: String,
    /// Its default-domain opset.
    pub opset: String,
    /// The tested sizes' labels (`batch=1`, `static`); data set K of the
    /// model's cache folder is size K.
    pub sizes: Vec<String>,
    /// The tolerance of its float outputs.
    pub tolerance: Tolerance,
    /// For lists of detections, the output whose descending values order
    /// every output's rows ([`Check::Ranked`]).
    pub ranked: Option<usize>,
    /// The modes the CI subset runs it in (at its first size).
    pub ci: Vec<Mode>,
}

impl ZooModel {
    /// How its outputs are checked.
    pub fn check(&self) -> Check {
        match self.ranked {
            Some(by) => Check::Ranked {
                tol: self.tolerance,
                by,
            },
            None => Check::Values(self.tolerance),
        }
    }

    /// The family: the first part of the id.
    pub fn family(&self) -> &str {
        self.id.split('/').next().unwrap_or("")
    }

    /// The manifest id of the model at size `k`.
    pub fn case_id(&self, k: usize) -> String {
        format!("{}@{}", self.id, self.sizes[k])
    }
}

/// Parses `tests/zoo/models.tsv`: `id source exporter opset sizes rtol
/// atol ci ranked`, tab-separated, sizes space-separated, ci modes
/// comma-separated (`-`: none), ranked an output index (`-`: none); `#`
/// lines are comments.
pub fn parse_index(text: &str) -> Result<Vec<ZooModel>, String> {
    let mut models = vec![];
    for (n, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let [id, source, exporter, opset, sizes, rtol, atol, ci, ranked] = f[..] else {
            return Err(format!(
                "line {}: expected 9 fields, found {}",
                n + 1,
                f.len()
            ));
        };
        let number = |s: &str| {
            s.parse::<f64>()
                .map_err(|e| format!("line {}: {s}: {e}", n + 1))
        };
        let ci = match ci {
            "-" => vec![],
            list => list
                .split(',')
                .map(|m| {
                    Mode::from_name(m)
                        .filter(|m| MODES.contains(m))
                        .ok_or(format!("line {}: unknown mode {m}", n + 1))
                })
                .collect::<Result<_, _>>()?,
        };
        models.push(ZooModel {
            id: id.into(),
            source: source.into(),
            exporter: exporter.into(),
            opset: opset.into(),
            sizes: sizes.split(' ').map(String::from).collect(),
            tolerance: Tolerance {
                rtol: number(rtol)?,
                atol: number(atol)?,
            },
            ci,
            ranked: match ranked {
                "-" => None,
                k => Some(k.parse().map_err(|e| format!("line {}: {k}: {e}", n + 1))?),
            },
        });
    }
    Ok(models)
}

/// The class of a failure: the word its reason starts with (`UNSUPPORTED`,
/// `ERROR`, `WRONG`, `CRASH`, `TIMEOUT`; `harness` for the harness's own).
pub fn failure_class(why: &str) -> &str {
    why.split([':', ' ']).next().unwrap_or(why)
}

/// A failure reason with what is particular to one model taken out —
/// quoted names (values, nodes, kernels, domains), tensor types, the
/// element and values of a wrong output — so that one cause in several
/// models reads the same.
pub fn reason_class(why: &str) -> String {
    static PARTICULAR: LazyLock<[(Regex, &str); 3]> = LazyLock::new(|| {
        [
            (Regex::new(r#""[^"]*""#).expect("valid"), "\"…\""),
            (Regex::new(r"tensor<[^>]*>").expect("valid"), "tensor<…>"),
            (
                Regex::new(r"\[\d+\]: \S+, expected \S+").expect("valid"),
                "[i]: x, expected y",
            ),
        ]
    });
    let mut class = why.to_string();
    for (pattern, with) in PARTICULAR.iter() {
        class = pattern.replace_all(&class, *with).into_owned();
    }
    class.chars().take(120).collect()
}

/// The failure reason classes of one mode ([`reason_class`]), most frequent
/// first: how many model × size failed so, and the models.
pub fn reason_classes(results: &[CaseResult], mode: Mode) -> Vec<(String, usize, Vec<String>)> {
    let mut classes = BTreeMap::<String, (usize, BTreeSet<String>)>::new();
    for r in results {
        if let Some(Err(why)) = &r.modes[mode.index()] {
            let entry = classes.entry(reason_class(why)).or_default();
            entry.0 += 1;
            entry
                .1
                .insert(r.id.split('@').next().unwrap_or("").to_string());
        }
    }
    let mut v: Vec<_> = classes
        .into_iter()
        .map(|(class, (n, models))| (class, n, models.into_iter().collect()))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn cell(t: &Tally, mode: Mode) -> String {
    match t.modes[mode.index()] {
        (_, 0) => "–".into(),
        (p, n) => format!("{p}/{n}"),
    }
}

/// A table of pass counts per key (family or source), with the number of
/// models of each and a total line.
fn tally_table(
    out: &mut String,
    title: &str,
    tallies: &BTreeMap<String, Tally>,
    models: usize,
    count: impl Fn(&str) -> usize,
) {
    let _ = writeln!(
        out,
        "## Per {title}\n\n| {title} | models | jit (model × size) | aot (model × size) |\n|---|---|---|---|"
    );
    let mut total = Tally::default();
    for (key, t) in tallies {
        let (jit, aot) = (cell(t, Mode::Jit), cell(t, Mode::Aot));
        let _ = writeln!(out, "| {key} | {} | {jit} | {aot} |", count(key));
        total.merge(t);
    }
    let (jit, aot) = (cell(&total, Mode::Jit), cell(&total, Mode::Aot));
    let _ = writeln!(out, "| **all** | {models} | {jit} | {aot} |\n");
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('`', "'")
}

/// The `docs/zoo.md` page: pass counts per family and per source, failure
/// classes and the most frequent reasons, the slowest compiles, and a line
/// per model (its results at each size, its JIT compile time at the first).
pub fn render_docs(
    models: &[ZooModel],
    results: &[CaseResult],
    compile: &BTreeMap<String, Duration>,
) -> String {
    let mut out = String::from(
        "# Model zoo\n\n\
         Real exported models with random weights (`tests/zoo/`, exported by\n\
         `tools/export_zoo.py`): torchvision's families through both torch exporters,\n\
         transformers' encoders and decoders in small configs, scikit-learn through skl2onnx,\n\
         onnxruntime's quantizations and transformer fusions, float16 conversions. Each runs\n\
         through `onnx-mlc run` in the JIT and AOT (`--aot`) at two sizes of its dynamic dims,\n\
         compared with onnxruntime's outputs on seeded inputs within the model's tolerance.\n\n\
         This page is written by the zoo test (`tests/harness/zoo.rs`) on every full run\n\
         (`ZOO_FULL=1`); the expected result of every model and size, with the reason of each\n\
         failure, is `tests/zoo/manifest.tsv`. See docs/testing.md for how to run it.\n\n",
    );
    let (families, _) = tallies(results);
    let source_of: BTreeMap<&str, &str> = models
        .iter()
        .map(|m| (m.id.as_str(), m.source.as_str()))
        .collect();
    let mut sources = BTreeMap::<String, Tally>::new();
    for r in results {
        let model = r.id.split('@').next().unwrap_or("");
        let source = source_of.get(model).copied().unwrap_or("?");
        sources.entry(source.to_string()).or_default().add(r);
    }
    let count = |f: &dyn Fn(&ZooModel) -> bool| models.iter().filter(|m| f(m)).count();
    tally_table(&mut out, "family", &families, models.len(), |k| {
        count(&|m| m.family() == k)
    });
    tally_table(&mut out, "source", &sources, models.len(), |k| {
        count(&|m| m.source == k)
    });

    out += "## Failure classes\n\n| class | jit | aot |\n|---|---|---|\n";
    let mut classes = BTreeMap::<String, [usize; 2]>::new();
    for r in results {
        for (i, mode) in MODES.iter().enumerate() {
            if let Some(Err(why)) = &r.modes[mode.index()] {
                classes.entry(failure_class(why).to_string()).or_default()[i] += 1;
            }
        }
    }
    for (class, [jit, aot]) in &classes {
        let _ = writeln!(out, "| {class} | {jit} | {aot} |");
    }
    for mode in MODES {
        let _ = writeln!(
            out,
            "\n## Failure reasons ({})\n\n| model × size | reason | models |\n|---|---|---|",
            mode.name()
        );
        for (why, n, ids) in reason_classes(results, mode) {
            let _ = writeln!(out, "| {n} | `{}` | {} |", escape(&why), ids.join(", "));
        }
    }
    out += "\n## Slowest compiles (jit, first size)\n\n| model | compile |\n|---|---|\n";
    let mut slow: Vec<(&String, &Duration)> = compile.iter().collect();
    slow.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (id, t) in slow.iter().take(10) {
        let _ = writeln!(out, "| {id} | {:.1} s |", t.as_secs_f64());
    }

    out += "\n## Models\n\n\
            | model | source | exporter | opset | size | jit | aot | compile (jit) | reason |\n\
            |---|---|---|---|---|---|---|---|---|\n";
    let by_id: BTreeMap<&str, &CaseResult> = results.iter().map(|r| (r.id.as_str(), r)).collect();
    for m in models {
        for k in 0..m.sizes.len() {
            let Some(r) = by_id.get(m.case_id(k).as_str()) else {
                continue;
            };
            let mark = |mode: Mode| match &r.modes[mode.index()] {
                Some(Ok(())) => "pass",
                Some(Err(_)) => "fail",
                None => "–",
            };
            let why = MODES
                .iter()
                .find_map(|mode| r.modes[mode.index()].clone().and_then(Result::err))
                .map(|why| format!("`{}`", escape(&why.chars().take(120).collect::<String>())))
                .unwrap_or_default();
            let time = match (k, compile.get(&m.id)) {
                (0, Some(t)) => format!("{:.1} s", t.as_secs_f64()),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {time} | {why} |",
                m.id,
                m.source,
                m.exporter,
                m.opset,
                m.sizes[k],
                mark(Mode::Jit),
                mark(Mode::Aot)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_index() {
        let text = "# comment\nvision/resnet18\ttorchvision\ttorch.onnx TorchScript\t17\tbatch=1 batch=2\t0.001\t0.0001\tjit,aot\t-\nsklearn/svr\tscikit-learn\tskl2onnx\t17\tX:0=1\t1e-4\t1e-4\t-\t1\n";
        let models = parse_index(text).unwrap();
        assert_eq!(models.len(), 2);
        assert_eq!(models[0].family(), "vision");
        assert_eq!(models[0].case_id(1), "vision/resnet18@batch=2");
        assert_eq!(models[0].ci, vec![Mode::Jit, Mode::Aot]);
        assert!(models[1].ci.is_empty());
        assert_eq!(models[0].check(), Check::Values(models[0].tolerance));
        let tol = models[1].tolerance;
        assert_eq!(models[1].check(), Check::Ranked { tol, by: 1 });
        assert!(parse_index("a\tb\n").is_err());
        assert!(parse_index("a\tb\tc\t17\ts\t1\t1\tdynamic\t-\n").is_err());
        assert!(parse_index("a\tb\tc\t17\ts\t1\t1\tjit\tscores\n").is_err());
    }

    #[test]
    fn reason_classes_leave_out_names_types_and_values() {
        assert_eq!(
            reason_class(r#"ERROR: node "Add_3" (op QLinearAdd, domain "com.microsoft", opset 1)"#),
            r#"ERROR: node "…" (op QLinearAdd, domain "…", opset 1)"#
        );
        assert_eq!(
            reason_class("UNSUPPORTED: on the host (operands tensor<\"?X.0\"x3xf32>)"),
            "UNSUPPORTED: on the host (operands tensor<…>)"
        );
        assert_eq!(
            reason_class("WRONG: output 0: [50]: -0.78, expected -0.71"),
            "WRONG: output 0: [i]: x, expected y"
        );
    }

    #[test]
    fn classes_failures_by_their_first_word() {
        assert_eq!(failure_class("UNSUPPORTED: op If"), "UNSUPPORTED");
        assert_eq!(
            failure_class("WRONG: output 0: [3]: 1, expected 2"),
            "WRONG"
        );
        assert_eq!(failure_class("TIMEOUT after 600 s"), "TIMEOUT");
        assert_eq!(failure_class("CRASH: signal 11"), "CRASH");
    }
}
