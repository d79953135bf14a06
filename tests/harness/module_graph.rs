//! The module graph of every crate, held to a list: a crate whose files
//! import each other in a cycle is named in `WITH_CYCLES`, and every other
//! crate has none. The list is checked both ways, so it only shrinks: a
//! listed crate without a cycle fails too (take it off the list). The graph
//! is `tools/module_graph.py`'s; `tools/module_graph.py <crate>/src --check`
//! shows a crate's cycles and the names that make them. The module graphs
//! drawn in the docs are the tool's output for the command written above
//! each drawing.

use std::process::Command;

use onnx_mlc_tests::repo_root;
use onnx_mlc_tests::workspace::workspace_list;

/// The members whose `src/` has an import cycle today.
const WITH_CYCLES: &[&str] = &[
    "compiler/import",
    "compiler/optimizer",
    "compiler/plan",
    "runtime",
];

fn python() -> std::ffi::OsString {
    std::env::var_os("ONNX_MLC_PYTHON").unwrap_or_else(|| "python3".into())
}

#[test]
fn only_the_listed_crates_have_import_cycles() {
    let python = python();
    let mut wrong = vec![];
    for member in workspace_list("members") {
        let src = repo_root().join(&member).join("src");
        if !src.is_dir() {
            continue;
        }
        let out = Command::new(&python)
            .arg(repo_root().join("tools/module_graph.py"))
            .arg(&src)
            .arg("--check")
            .output()
            .expect("python3 runs tools/module_graph.py");
        let cyclic = match out.status.code() {
            Some(0) => false,
            Some(1) => true,
            _ => panic!(
                "module_graph.py {member}: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        };
        let listed = WITH_CYCLES.contains(&member.as_str());
        if cyclic && !listed {
            wrong.push(format!(
                "{member} has an import cycle:\n{}",
                String::from_utf8_lossy(&out.stdout)
            ));
        } else if listed && !cyclic {
            wrong.push(format!(
                "{member} has no import cycle: take it off WITH_CYCLES"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every drawing in `docs/architecture.md` is a fenced `mermaid` block
/// right after a `<!-- python3 tools/module_graph.py ARGS -->` line, and
/// is what that command prints today.
#[test]
fn the_drawn_module_graphs_are_current() {
    let doc = std::fs::read_to_string(repo_root().join("docs/architecture.md")).unwrap();
    let mut drawn = 0;
    let mut stale = vec![];
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(args) = line
            .strip_prefix("<!-- python3 tools/module_graph.py ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        assert_eq!(
            lines.next(),
            Some("```mermaid"),
            "a mermaid block after `{line}`"
        );
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let out = Command::new(python())
            .arg(repo_root().join("tools/module_graph.py"))
            .args(args.split_whitespace())
            .current_dir(repo_root())
            .output()
            .expect("python3 runs tools/module_graph.py");
        assert!(
            out.status.success(),
            "module_graph.py {args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if String::from_utf8_lossy(&out.stdout).trim_end() != block.join("\n") {
            stale.push(args.to_string());
        }
        drawn += 1;
    }
    assert!(
        drawn >= 2,
        "docs/architecture.md draws the dialect's and the lowering's module graphs"
    );
    assert!(
        stale.is_empty(),
        "redraw (run the command above each block): {stale:?}"
    );
}
