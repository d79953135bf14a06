//! The conformance run: every case of the ONNX backend test data through
//! `onnx-mlc run` in every mode, checked against
//! `tests/conformance/manifest.tsv` (a listed-passing case that fails and a
//! listed-failing case that passes both fail the run; so does any JIT or
//! AOT failure other than a clean `UNSUPPORTED`, listed or not), with a report per
//! operator and per suite, and `docs/conformance.md` rewritten after a
//! full run.
//!
//! Environment: `CONFORMANCE_MODES=jit,aot,dynamic` (default all),
//! `CONFORMANCE_FILTER=<substrings of case ids, comma-separated>`, `ONNX_MLC_BLESS=1`
//! rewrites the manifest from the run, `ONNX_MLC_BIN` the CLI to drive
//! (default: `onnx-mlc` of this build), `CONFORMANCE_JOBS` concurrent runs
//! (default: available cores), `CONFORMANCE_TIMEOUT` seconds per run.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use onnx_mlc_tests::backend::{case_id, cases, Case};
use onnx_mlc_tests::conformance::compare::{Check, RandomOp, Tolerance};
use onnx_mlc_tests::conformance::manifest::{Manifest, CONFORMANCE};
use onnx_mlc_tests::conformance::report::{
    conclude, principal_op, render_docs, tallies, unclean_failures, CaseResult,
};
use onnx_mlc_tests::conformance::runner::{run_all, Runner};
use onnx_mlc_tests::conformance::{default_jobs, env_number, Mode, Outcome};
use onnx_mlc_tests::{backend_dir, repo_root};

/// Cases compared with a tolerance of their own, and why.
const TOLERANCES: &[(&str, Tolerance, &str)] = &[];

/// Cases of random ops, whose values depend on the generator: checked by
/// shape, element type and range (`compare::check_random`). The
/// zero-ratio Dropout cases drop nothing and are compared by value.
const RANDOM: &[(&str, RandomOp)] = &[
    ("node/test_bernoulli", RandomOp::Bernoulli),
    ("node/test_bernoulli_double", RandomOp::Bernoulli),
    ("node/test_bernoulli_double_expanded", RandomOp::Bernoulli),
    ("node/test_bernoulli_expanded", RandomOp::Bernoulli),
    ("node/test_bernoulli_seed", RandomOp::Bernoulli),
    ("node/test_bernoulli_seed_expanded", RandomOp::Bernoulli),
    ("node/test_training_dropout", RandomOp::Dropout),
    ("node/test_training_dropout_default", RandomOp::Dropout),
    ("node/test_training_dropout_default_mask", RandomOp::Dropout),
    ("node/test_training_dropout_mask", RandomOp::Dropout),
];

fn main() {
    std::process::exit(match run() {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("conformance: {e}");
            1
        }
    });
}

fn run() -> Result<bool, String> {
    if std::env::args().any(|a| a == "--list") {
        return Ok(true);
    }
    let Some(root) = backend_dir() else {
        println!("conformance: skipped, no ONNX backend test data (set ONNX_MLC_BACKEND_DIR)");
        return Ok(true);
    };
    let modes = Mode::from_env("CONFORMANCE_MODES", &Mode::ALL)?;
    let filter = std::env::var("CONFORMANCE_FILTER").unwrap_or_default();
    let bless = onnx_mlc_tests::filetest::blessing();
    let full = filter.is_empty() && modes.len() == Mode::ALL.len();
    let manifest_path = repo_root().join("tests/conformance/manifest.tsv");
    let manifest_text = std::fs::read_to_string(&manifest_path).unwrap_or_default();
    let mut manifest =
        Manifest::parse(&manifest_text, CONFORMANCE).map_err(|e| format!("manifest: {e}"))?;

    let all: Vec<Case> = cases(&root)
        .into_iter()
        .filter(|c| filter.split(',').any(|f| case_id(c).contains(f)))
        .collect();
    // The CLI needs LLVM: `cargo test` at the root does not build it.
    let bin = match onnx_mlc_tests::cli_binary() {
        Ok(bin) => bin,
        Err(e) => {
            println!("conformance: skipped, {e}");
            return Ok(true);
        }
    };
    let scratch = std::env::temp_dir().join(format!("onnx-mlc-conformance-{}", std::process::id()));
    let runner = Runner {
        bin,
        scratch: scratch.clone(),
        timeout: Duration::from_secs(env_number("CONFORMANCE_TIMEOUT").unwrap_or(120)),
    };
    let jobs = env_number("CONFORMANCE_JOBS").unwrap_or_else(default_jobs);
    println!(
        "conformance: {} cases × {} modes with {} ({jobs} at a time)",
        all.len(),
        modes.len(),
        runner.bin.display()
    );

    let work: Vec<(usize, Mode)> = modes
        .iter()
        .flat_map(|&m| (0..all.len()).map(move |i| (i, m)))
        .collect();
    let start = Instant::now();
    let outcomes: BTreeMap<(usize, Mode), Outcome> = work
        .iter()
        .copied()
        .zip(run_all(jobs, &work, |&(i, mode), slot| {
            let id = case_id(&all[i]);
            let check = match RANDOM.iter().find(|(c, _)| *c == id) {
                Some(&(_, op)) => Check::Random(op),
                None => Check::Values(
                    TOLERANCES
                        .iter()
                        .find(|(c, ..)| *c == id)
                        .map_or(Tolerance::default(), |t| t.1),
                ),
            };
            runner.run(&all[i], mode, slot, check)
        }))
        .collect();
    let _ = std::fs::remove_dir_all(&scratch);

    let ops: Vec<String> = all.iter().map(|c| principal_op(&c.model)).collect();
    let op_of: BTreeMap<String, String> = all
        .iter()
        .zip(&ops)
        .map(|(c, op)| (case_id(c), op.clone()))
        .collect();
    let results: Vec<CaseResult> = all
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let id = case_id(case);
            let base = id.split("_expanded").next().unwrap_or(&id);
            CaseResult {
                op: op_of.get(base).unwrap_or(&ops[i]).clone(),
                modes: Mode::ALL.map(|m| {
                    outcomes.get(&(i, m)).map(|o| match o {
                        Outcome::Pass => Ok(()),
                        Outcome::Fail(why) => Err(why.clone()),
                    })
                }),
                id,
            }
        })
        .collect();

    // Symbolic-dim rewrites still meet inference that rejects shape
    // operands of unknown size (noted on the conformance issue), so the
    // dynamic mode is held to its manifest only.
    let unclean = unclean_failures(&results, &modes, &[Mode::Dynamic]);

    let (suites, by_op) = tallies(&results);
    println!("\nper operator (node suite):");
    for (op, t) in &by_op {
        println!("  {op:<32} {}", t.counts(&modes));
    }
    println!("\nper suite:");
    for (suite, t) in &suites {
        let cells: Vec<String> = modes
            .iter()
            .map(|m| {
                let (p, n) = t.modes[m.index()];
                format!(
                    "{} {p}/{n} ({:.1}%)",
                    m.name(),
                    100.0 * p as f64 / n.max(1) as f64
                )
            })
            .collect();
        println!("  {suite:<20} {}", cells.join("  "));
    }
    println!("\nrun time {:.0} s", start.elapsed().as_secs_f64());

    if full {
        std::fs::write(
            repo_root().join("docs/conformance.md"),
            render_docs(&results),
        )
        .map_err(|e| e.to_string())?;
    }
    conclude(
        &mut manifest,
        &manifest_path,
        &results,
        &modes,
        bless,
        &unclean,
    )
}
