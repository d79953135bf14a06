//! Text-IR file tests of the onnx dialect: every `tests/dialect/**/*.mlir`.
//!
//! A test file is a model in the text form with comment directives:
//!
//! ```text
//! // RUN: infer-shapes,roundtrip
//! // ERROR: 3:14: use of undefined value %x      (negative tests only)
//! onnx.model {…}
//! …
//! // CHECK: %y = "onnx.Relu"(%x)
//! // CHECK-NEXT: onnx.return %y
//! ```
//!
//! The file is parsed, the `RUN` passes run in order (names from
//! `onnx_mlc_dialect::passes`, plus `roundtrip`: print, parse and print
//! again, the prints must agree; `export`: export to ONNX and import again;
//! `print`: nothing; and `partition`, last: the output is the host program
//! `onnx_mlc_program::partition` cuts the model into), and the printed
//! model is matched against the `CHECK` lines ([`filecheck`]). With
//! `ERROR`, parsing or a pass must fail with a message containing the
//! given text instead.
//!
//! `ONNX_MLC_BLESS=1 cargo test -p onnx-mlc-tests dialect -- --nocapture`
//! rewrites the expectations of failing files from the actual result (CHECK
//! lines at the end of the file, or the ERROR line after RUN) and prints
//! the diff of each rewritten file.

use std::fs;
use std::path::{Path, PathBuf};

use onnx_mlc_dialect::{parse_model, passes, PrintOptions};
use onnx_mlc_tests::diff::line_diff;
use onnx_mlc_tests::filecheck;
use onnx_mlc_tests::onnx::through_onnx;
use onnx_mlc_tests::repo_root;
use onnx_mlc_tests::text::reparse;

/// `RUN:` names that are not dialect passes.
const TEXT_PASSES: [&str; 4] = ["roundtrip", "export", "print", "partition"];

#[test]
fn dialect_files() {
    let root = repo_root().join("tests").join("dialect");
    let mut files = vec![];
    collect(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .mlir files under {}", root.display());
    let bless = std::env::var_os("ONNX_MLC_BLESS").is_some_and(|v| v == "1");
    let mut failures = vec![];
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        match run_file(path, bless) {
            Ok(None) => println!("dialect {name} ... ok"),
            Ok(Some(diff)) => println!("dialect {name} ... blessed\n{diff}"),
            Err(message) => {
                println!("dialect {name} ... FAILED");
                failures.push(format!("---- {name} ----\n{message}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} dialect test files failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// The directives of a test file besides its CHECK lines.
struct Header {
    passes: Vec<String>,
    error: Option<String>,
}

/// The text after `// <directive>:` on a line, if the line is one.
fn directive<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.trim_start()
        .strip_prefix("//")?
        .trim_start()
        .strip_prefix(name)?
        .strip_prefix(':')
        .map(str::trim)
}

fn header(source: &str) -> Result<Header, String> {
    let mut runs = source.lines().filter_map(|l| directive(l, "RUN"));
    let run = runs.next().ok_or("no '// RUN: <pass>[,<pass>…]' line")?;
    if runs.next().is_some() {
        return Err("more than one RUN line".into());
    }
    let passes: Vec<String> = run
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    for p in &passes {
        if !TEXT_PASSES.contains(&p.as_str()) && passes::pass(p).is_none() {
            let known: Vec<&str> = TEXT_PASSES
                .iter()
                .copied()
                .chain(passes::PASSES.iter().map(|p| p.name))
                .collect();
            return Err(format!(
                "unknown pass '{p}' in the RUN line (known: {})",
                known.join(", ")
            ));
        }
    }
    let mut errors = source.lines().filter_map(|l| directive(l, "ERROR"));
    let error = errors.next().map(str::to_string);
    if error.as_deref() == Some("") || errors.next().is_some() {
        return Err("a file takes at most one non-empty ERROR line".into());
    }
    Ok(Header { passes, error })
}

/// Parses the file and runs the passes: the printed model, or the error.
fn execute(source: &str, passes: &[String]) -> Result<String, String> {
    let mut model = parse_model(source).map_err(|e| e.to_string())?;
    for name in passes {
        match name.as_str() {
            "print" => {}
            "roundtrip" => {
                model = reparse(&model, &PrintOptions::default())
                    .map_err(|e| format!("roundtrip: {e}"))?
            }
            "export" => model = through_onnx(&model)?,
            "partition" => {
                return match onnx_mlc_program::partition(&model) {
                    Ok(Some(partition)) => Ok(partition.to_string()),
                    Ok(None) => Ok("no host steps\n".into()),
                    Err(e) => Err(e.to_string()),
                }
            }
            _ => {
                let pass = passes::pass(name).expect("checked by header()");
                (pass.run)(&mut model).map_err(|e| format!("{name}: {e}"))?;
            }
        }
    }
    Ok(model.to_string())
}

/// Whether the result meets the file's expectations.
fn judge(source: &str, header: &Header, result: &Result<String, String>) -> Result<(), String> {
    let checks = filecheck::parse_checks(source)?;
    match (&header.error, result) {
        (Some(_), _) if !checks.is_empty() => Err("a file with an ERROR line cannot have CHECK lines".into()),
        (Some(expected), Err(actual)) if actual.contains(expected.as_str()) => Ok(()),
        (Some(expected), Err(actual)) => Err(format!("expected an error containing:\n  {expected}\ngot:\n  {actual}")),
        (Some(expected), Ok(output)) => Err(format!(
            "expected an error containing:\n  {expected}\nbut parsing and the passes succeeded:\n{}",
            numbered(output)
        )),
        (None, Err(actual)) => Err(actual.clone()),
        (None, Ok(_)) if checks.is_empty() => {
            Err("no CHECK lines (ONNX_MLC_BLESS=1 writes them from the output)".into())
        }
        (None, Ok(output)) => filecheck::check(&checks, output)
            .map_err(|failures| format!("{}\noutput:\n{}", failures.join("\n"), numbered(output))),
    }
}

fn run_file(path: &Path, bless: bool) -> Result<Option<String>, String> {
    let source = fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let header = header(&source)?;
    let verdict = judge(&source, &header, &execute(&source, &header.passes));
    match verdict {
        Ok(()) => Ok(None),
        Err(message) if !bless => Err(message),
        Err(_) => {
            // Rewriting moves lines, and error messages name lines: repeat
            // until the expectations describe the file they are in.
            let mut current = source.clone();
            for _ in 0..3 {
                let next = blessed(&current, &execute(&current, &header.passes));
                if next == current {
                    break;
                }
                current = next;
            }
            let header = Header {
                error: header_error(&current),
                ..header
            };
            judge(&current, &header, &execute(&current, &header.passes))
                .map_err(|e| format!("blessing did not make the file pass:\n{e}"))?;
            fs::write(path, &current).map_err(|e| format!("cannot write: {e}"))?;
            Ok(Some(line_diff(&source, &current)))
        }
    }
}

fn header_error(source: &str) -> Option<String> {
    source
        .lines()
        .find_map(|l| directive(l, "ERROR"))
        .map(str::to_string)
}

/// The file with its expectations rewritten from `result`: CHECK lines
/// for the output at the end, or an ERROR line after the RUN line.
fn blessed(source: &str, result: &Result<String, String>) -> String {
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
            for (i, line) in output.lines().enumerate() {
                let kind = if i == 0 { "CHECK" } else { "CHECK-NEXT" };
                lines.push(if line.is_empty() {
                    "// CHECK-EMPTY:".to_string()
                } else if line.trim().is_empty() {
                    format!("// {kind}: {{{{^[ \\t]+$}}}}")
                } else {
                    format!("// {kind}: {}", line.replace("{{", "{{\\{\\{}}"))
                });
            }
        }
    }
    lines.join("\n") + "\n"
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("  {:4} | {l}\n", i + 1))
        .collect()
}
