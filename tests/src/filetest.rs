//! The file-test runner every stage's folder shares (`tests/<stage>/`):
//! a file is the input (the text form of a model) with comment directives,
//!
//! ```text
//! // RUN: <what the stage runs>
//! // ERROR: <fragment of the expected error>      (negative tests only)
//! onnx.model {…}
//! …
//! // CHECK: <pattern>                              (see `filecheck`)
//! ```
//!
//! The stage reads the `RUN` line ([`Stage::parse_run`]) and runs it on
//! the file ([`Stage::execute`]); the output is matched against the
//! `CHECK` lines ([`filecheck`]), or with `ERROR` the run must fail with a
//! message containing the given text. A file without expectations fails.
//!
//! `ONNX_MLC_BLESS=1` (with any test command that runs the stage's files)
//! rewrites the expectations of failing files from the actual result and
//! prints the diff of each rewritten file: an `ERROR` line after `RUN`, or
//! `CHECK` lines at the end of the file — every line of the output
//! ([`Bless::Full`]), or its outline with SSA names as patterns
//! ([`Bless::Outline`], for MLIR modules too long to pin whole; review and
//! trim those to what the file is about).

use std::fs;
use std::path::{Path, PathBuf};

use crate::diff::line_diff;
use crate::filecheck;

/// The variable that makes a run rewrite expectations.
pub const BLESS_VAR: &str = "ONNX_MLC_BLESS";

/// Whether this run blesses (`ONNX_MLC_BLESS=1`).
pub fn blessing() -> bool {
    std::env::var_os(BLESS_VAR).is_some_and(|v| v == "1")
}

/// How blessing writes the CHECK lines of an output.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bless {
    /// Every line: `CHECK` for the first, `CHECK-NEXT` for the others.
    Full,
    /// The outline of an MLIR module ([`outline`]).
    Outline,
}

/// A stage's file tests.
pub struct Stage<'a, R> {
    /// The stage's name, for messages (`dialect`, `opt`, `lowering`).
    pub name: &'a str,
    /// The folder searched (recursively) for `*.mlir` files.
    pub folder: PathBuf,
    /// Reads the text after `// RUN:`, or says what is wrong with it.
    pub parse_run: &'a dyn Fn(&str) -> Result<R, String>,
    /// Runs a file: its `RUN` line and its whole text, to the output to
    /// check, or the error.
    pub execute: &'a dyn Fn(&R, &str) -> Result<String, String>,
    /// How blessing writes expectations.
    pub bless: Bless,
}

impl<R> Stage<'_, R> {
    /// Runs every file of the folder (blessing with `ONNX_MLC_BLESS=1`),
    /// printing one line per file; panics listing the failures.
    pub fn run_all(&self) {
        let mut files = vec![];
        collect(&self.folder, "mlir", &mut files);
        files.sort();
        assert!(
            !files.is_empty(),
            "no .mlir files under {}",
            self.folder.display()
        );
        let bless = blessing();
        let mut failures = vec![];
        for path in &files {
            let name = path
                .strip_prefix(&self.folder)
                .unwrap_or(path)
                .display()
                .to_string();
            match self.run_file(path, bless) {
                Ok(None) => println!("{} {name} ... ok", self.name),
                Ok(Some(diff)) => println!("{} {name} ... blessed\n{diff}", self.name),
                Err(message) => {
                    println!("{} {name} ... FAILED", self.name);
                    failures.push(format!("---- {name} ----\n{message}"));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} {} test files failed:\n\n{}",
            failures.len(),
            files.len(),
            self.name,
            failures.join("\n")
        );
    }

    /// The file's result: `Ok(None)` when it passes, `Ok(Some(diff))`
    /// when blessing rewrote it.
    fn run_file(&self, path: &Path, bless: bool) -> Result<Option<String>, String> {
        let source = fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
        let run = self.header(&source)?;
        let verdict = judge(&source, &(self.execute)(&run, &source));
        match verdict {
            Ok(()) => Ok(None),
            Err(message) if !bless => Err(message),
            Err(_) => {
                // Rewriting moves lines, and error messages name lines:
                // repeat until the expectations describe the file they
                // are in.
                let mut current = source.clone();
                for _ in 0..3 {
                    let next = blessed(&current, &(self.execute)(&run, &current), self.bless);
                    if next == current {
                        break;
                    }
                    current = next;
                }
                judge(&current, &(self.execute)(&run, &current))
                    .map_err(|e| format!("blessing did not make the file pass:\n{e}"))?;
                fs::write(path, &current).map_err(|e| format!("cannot write: {e}"))?;
                Ok(Some(line_diff(&source, &current)))
            }
        }
    }

    /// The file's one `RUN` line, read by the stage.
    fn header(&self, source: &str) -> Result<R, String> {
        let mut runs = source.lines().filter_map(|l| directive(l, "RUN"));
        let run = runs.next().ok_or("no '// RUN:' line")?;
        if runs.next().is_some() {
            return Err("more than one RUN line".into());
        }
        (self.parse_run)(run)
    }
}

/// The source files under `sources` (each `a/b.rs`, or `a/mod.rs` as `a`)
/// that no file test under `tests` names: a test covers `a/b` when its
/// path below `tests`, without the extension, is `a/b`, starts with
/// `a/b-` or lies in a folder `a/b/`. `shared` lists the files that hold
/// helpers rather than a family of their own (covered by the families'
/// tests); each must exist, so that the list stays true.
pub fn uncovered(sources: &Path, tests: &Path, shared: &[&str]) -> Vec<String> {
    let stem = |path: &Path, root: &Path| {
        let rel = path.strip_prefix(root).unwrap().with_extension("");
        rel.to_string_lossy().replace('\\', "/")
    };
    let mut test_files = vec![];
    collect(tests, "mlir", &mut test_files);
    let tests: Vec<String> = test_files.iter().map(|t| stem(t, tests)).collect();
    let mut source_files = vec![];
    collect(sources, "rs", &mut source_files);
    let mut missing: Vec<String> = shared
        .iter()
        .filter(|s| !sources.join(format!("{s}.rs")).is_file())
        .map(|s| format!("{s} (listed as shared, but there is no {s}.rs)"))
        .collect();
    for file in &source_files {
        let name = stem(file, sources);
        let name = match name.strip_suffix("/mod") {
            Some(dir) => dir.to_string(),
            None if name == "mod" => continue,
            None => name,
        };
        let covers = |t: &String| {
            t.strip_prefix(name.as_str()).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with('-') || rest.starts_with('/')
            })
        };
        if !shared.contains(&name.as_str()) && !tests.iter().any(covers) {
            missing.push(name);
        }
    }
    missing.sort();
    missing
}

fn collect(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

/// The text after `// <name>:` on a line, if the line is that directive.
pub fn directive<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.trim_start()
        .strip_prefix("//")?
        .trim_start()
        .strip_prefix(name)?
        .strip_prefix(':')
        .map(str::trim)
}

/// The file's `ERROR` line, if any.
fn expected_error(source: &str) -> Result<Option<&str>, String> {
    let mut errors = source.lines().filter_map(|l| directive(l, "ERROR"));
    let error = errors.next();
    if error == Some("") || errors.next().is_some() {
        return Err("a file takes at most one non-empty ERROR line".into());
    }
    Ok(error)
}

/// Whether the result meets the file's expectations.
fn judge(source: &str, result: &Result<String, String>) -> Result<(), String> {
    let checks = filecheck::parse_checks(source)?;
    match (expected_error(source)?, result) {
        (Some(_), _) if !checks.is_empty() => {
            Err("a file with an ERROR line cannot have CHECK lines".into())
        }
        (Some(expected), Err(actual)) if actual.contains(expected) => Ok(()),
        (Some(expected), Err(actual)) => Err(format!(
            "expected an error containing:\n  {expected}\ngot:\n  {actual}"
        )),
        (Some(expected), Ok(output)) => Err(format!(
            "expected an error containing:\n  {expected}\nbut the run succeeded:\n{}",
            numbered(output)
        )),
        (None, Err(actual)) => Err(actual.clone()),
        (None, Ok(_)) if checks.is_empty() => Err(format!(
            "no CHECK lines ({BLESS_VAR}=1 writes them from the output)"
        )),
        (None, Ok(output)) => filecheck::check(&checks, output)
            .map_err(|failures| format!("{}\noutput:\n{}", failures.join("\n"), numbered(output))),
    }
}

/// The file with its expectations rewritten from `result`: CHECK lines
/// for the output at the end, or an ERROR line after the RUN line.
fn blessed(source: &str, result: &Result<String, String>, bless: Bless) -> String {
    let mut lines: Vec<String> = source
        .lines()
        .filter(|l| !filecheck::is_directive(l) && directive(l, "ERROR").is_none())
        .map(str::to_string)
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    match result {
        Err(message) => {
            let first = message.lines().next().unwrap_or_default();
            let at = lines
                .iter()
                .position(|l| directive(l, "RUN").is_some())
                .map_or(0, |i| i + 1);
            lines.insert(at, format!("// ERROR: {first}"));
        }
        Ok(output) => {
            lines.push(String::new());
            match bless {
                Bless::Full => lines.extend(every_line(output)),
                Bless::Outline => lines.extend(outline(output)),
            }
        }
    }
    lines.join("\n") + "\n"
}

/// `text` as a pattern matching itself (`{{` would open a regex).
fn literal(text: &str) -> String {
    text.replace("{{", "{{\\{\\{}}")
}

/// CHECK lines pinning every line of `output`.
fn every_line(output: &str) -> Vec<String> {
    output
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let kind = if i == 0 { "CHECK" } else { "CHECK-NEXT" };
            if line.is_empty() {
                "// CHECK-EMPTY:".to_string()
            } else if line.trim().is_empty() {
                format!("// {kind}: {{{{^[ \\t]+$}}}}")
            } else {
                format!("// {kind}: {}", literal(line))
            }
        })
        .collect()
}

/// Longest pattern an outline writes; longer lines are cut (a `CHECK`
/// pattern matches anywhere in a line, so a prefix still matches).
const OUTLINE_WIDTH: usize = 160;

/// CHECK lines for the outline of an MLIR module: `CHECK-LABEL` for each
/// function, then in order each op line with its results dropped and its
/// SSA names as patterns ([`mask_ssa`]), and the `#map` definitions these
/// lines use. Inside loops, a line equal to one already written since the
/// loop's header is left out (an unrolled or repeated op shows once per
/// loop body). Terminators, block labels, index constants, `affine.apply`s
/// and the kernels' bufferization of their arguments are left out too.
pub fn outline(output: &str) -> Vec<String> {
    let mut kept: Vec<(bool, String)> = vec![];
    let mut seen: Vec<String> = vec![];
    let mut in_loop = false;
    for line in output.lines() {
        let line = line.trim();
        if line.starts_with("func.func") {
            kept.push((true, literal(line)));
            seen.clear();
            in_loop = false;
            continue;
        }
        let Some(op) = op_text(line) else { continue };
        let header = LOOPS.iter().any(|l| op.starts_with(l));
        let masked = mask_ssa(op, header);
        if in_loop && seen.contains(&masked) {
            continue;
        }
        if line.ends_with('{') {
            seen.clear();
            in_loop = header || (in_loop && op.starts_with("scf.if"));
        } else {
            seen.push(masked.clone());
        }
        kept.push((false, masked));
    }
    let maps: Vec<String> = output
        .lines()
        .filter_map(|l| {
            let (name, _) = l.split_once(" = affine_map<")?;
            let used = kept.iter().any(|(_, k)| uses_map(k, name));
            used.then(|| format!("// CHECK: {}", literal(l.trim())))
        })
        .collect();
    maps.into_iter()
        .chain(kept.into_iter().map(|(label, text)| {
            let kind = if label { "CHECK-LABEL" } else { "CHECK" };
            format!("// {kind}: {}", cut(&text))
        }))
        .collect()
}

/// The ops that open a loop.
const LOOPS: [&str; 5] = [
    "scf.for ",
    "scf.forall ",
    "scf.parallel ",
    "affine.for ",
    "affine.parallel ",
];

/// The op of an MLIR line without its results (`linalg.fill ins(…)` of
/// `%4 = linalg.fill ins(…)`), or `None` for lines an outline leaves out.
fn op_text(line: &str) -> Option<&str> {
    let op = match line.split_once(" = ") {
        Some((results, op)) if results.starts_with('%') => op,
        _ => line,
    };
    let name = op.split([' ', '(', '<']).next().unwrap_or_default();
    let skipped = name.is_empty()
        || !(name.contains('.') || name == "call")
        || name.starts_with('^')
        || name.starts_with("bufferization.")
        || name.starts_with('#')
        || name.ends_with(".yield")
        || name == "affine.apply"
        || name == "func.return"
        || (name == "arith.constant" && op.ends_with(": index"));
    (!skipped).then_some(op)
}

/// `text` as a pattern in which every SSA name matches any SSA name,
/// except block arguments (`%arg3`, numbered in order) and, in a loop's
/// header (`constants`), the index and integer constants (`%c32`, named
/// by their value: the loop's bounds and step).
fn mask_ssa(text: &str, constants: bool) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix('%') {
            let len = after
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(after.len());
            if len > 0 {
                let name = &after[..len];
                if telling_name(name, constants) {
                    out.push('%');
                    out.push_str(name);
                } else {
                    out.push_str("%{{\\w+}}");
                }
                rest = &after[len..];
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("{{") {
            out.push_str("{{\\{\\{}}");
            rest = after;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `arg<digits>`, or with `constants` `c<digits>`, optionally followed
/// by `_i<digits>`.
fn telling_name(name: &str, constants: bool) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(n) = name.strip_prefix("arg") {
        return digits(n);
    }
    let Some(value) = name.strip_prefix('c').filter(|_| constants) else {
        return false;
    };
    match value.split_once("_i") {
        Some((v, bits)) => digits(v) && digits(bits),
        None => digits(value),
    }
}

/// Whether an outline line names the map `name` (`#map1`, not `#map10`).
fn uses_map(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(i, _)| {
        !line[i + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `pattern` cut to at most [`OUTLINE_WIDTH`] bytes, at a space outside
/// any `{{…}}` block.
fn cut(pattern: &str) -> String {
    if pattern.len() <= OUTLINE_WIDTH {
        return pattern.to_string();
    }
    let mut end = 0;
    let mut depth = false;
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < pattern.len() && i <= OUTLINE_WIDTH {
        if bytes[i..].starts_with(b"{{") && !depth {
            depth = true;
            i += 2;
            continue;
        }
        if bytes[i..].starts_with(b"}}") && depth {
            depth = false;
            i += 2;
            continue;
        }
        if bytes[i] == b' ' && !depth {
            end = i;
        }
        i += 1;
    }
    if end == 0 {
        pattern.to_string()
    } else {
        pattern[..end].to_string()
    }
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("  {:4} | {l}\n", i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "#map = affine_map<(d0, d1) -> (d1)>\n\
#map1 = affine_map<(d0, d1) -> (d0, d1)>\n\
#map10 = affine_map<(d0) -> (d0 + 9)>\n\
module {\n\
  func.func @k0(%arg0: memref<4xf32>, %arg1: index) attributes {omlc.kernel} {\n\
    %c0 = arith.constant 0 : index\n\
    %cst = arith.constant 0.000000e+00 : f32\n\
    scf.for %arg2 = %c0 to %c4 step %c1 {\n\
      %0 = affine.apply #map10(%arg2)\n\
      vector.store %cst, %arg0[%c0, %arg2] : memref<4xf32>, vector<4xf32>\n\
      vector.store %cst, %arg0[%c1, %arg2] : memref<4xf32>, vector<4xf32>\n\
    }\n\
    %5 = linalg.generic {indexing_maps = [#map, #map1]} ins(%2 : tensor<4xf32>) {\n\
    ^bb0(%in: f32, %out: f32):\n\
      %8 = arith.addf %out, %in : f32\n\
      %9 = arith.addf %8, %in : f32\n\
      linalg.yield %9 : f32\n\
    } -> tensor<4x4xf32>\n\
    return\n\
  }\n\
  func.func @omlc_model(%arg0: memref<4xf32>) {\n\
    %c0 = arith.constant 0 : index\n\
    call @k0(%arg0, %c0) : (memref<4xf32>, index) -> ()\n\
    return\n\
  }\n\
}\n";

    #[test]
    fn outlines_keep_structure_and_mask_names() {
        let lines = outline(MODULE);
        assert_eq!(
            lines,
            [
                "// CHECK: #map = affine_map<(d0, d1) -> (d1)>",
                "// CHECK: #map1 = affine_map<(d0, d1) -> (d0, d1)>",
                "// CHECK-LABEL: func.func @k0(%arg0: memref<4xf32>, %arg1: index) attributes {omlc.kernel} {",
                "// CHECK: arith.constant 0.000000e+00 : f32",
                "// CHECK: scf.for %arg2 = %c0 to %c4 step %c1 {",
                "// CHECK: vector.store %{{\\w+}}, %arg0[%{{\\w+}}, %arg2] : memref<4xf32>, vector<4xf32>",
                "// CHECK: linalg.generic {indexing_maps = [#map, #map1]} ins(%{{\\w+}} : tensor<4xf32>) {",
                "// CHECK: arith.addf %{{\\w+}}, %{{\\w+}} : f32",
                "// CHECK: arith.addf %{{\\w+}}, %{{\\w+}} : f32",
                "// CHECK-LABEL: func.func @omlc_model(%arg0: memref<4xf32>) {",
                "// CHECK: call @k0(%arg0, %{{\\w+}}) : (memref<4xf32>, index) -> ()",
            ]
        );
        // The outline matches the module it was made from.
        let checks = filecheck::parse_checks(&lines.join("\n")).unwrap();
        filecheck::check(&checks, MODULE).unwrap();
    }

    #[test]
    fn long_lines_are_cut_outside_patterns() {
        let long = format!("vector.from_elements {}", ["%{{\\w+}}#0"; 40].join(", "));
        let short = cut(&long);
        assert!(short.len() <= OUTLINE_WIDTH, "{short}");
        assert!(
            long.starts_with(&short) && short.ends_with("#0,"),
            "{short}"
        );
        assert_eq!(literal("a {{b}}"), "a {{\\{\\{}}b}}");
    }
}
