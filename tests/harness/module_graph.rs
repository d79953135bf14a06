//! The module graph of every crate, held to a list: a crate whose files
//! import each other in a cycle is named in `WITH_CYCLES`, and every other
//! crate has none. The list is checked both ways, so it only shrinks: a
//! listed crate without a cycle fails too (take it off the list). The graph
//! is `tools/module_graph.py`'s; `tools/module_graph.py <crate>/src --check`
//! shows a crate's cycles and the names that make them.

use std::process::Command;

use onnx_mlc_tests::repo_root;
use onnx_mlc_tests::workspace::workspace_list;

/// The members whose `src/` has an import cycle today.
const WITH_CYCLES: &[&str] = &[
    "compiler/import",
    "compiler/lowering",
    "compiler/optimizer",
    "compiler/plan",
    "dialects/onnx",
    "runtime",
];

#[test]
fn only_the_listed_crates_have_import_cycles() {
    let python = std::env::var_os("ONNX_MLC_PYTHON").unwrap_or_else(|| "python3".into());
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
