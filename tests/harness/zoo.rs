//! The model zoo run: every model of `tests/zoo/` (its index
//! `tests/zoo/models.tsv`) through `onnx-mlc run` in the JIT and AOT at each
//! tested size, compared with onnxruntime's outputs on seeded inputs
//! (`.cache/zoo/<id>/test_data_set_K`, written by `tools/setup.sh`), and
//! checked against `tests/zoo/manifest.tsv` both ways (a listed-passing run
//! that fails and a listed-failing one that passes fail the run). Failures
//! of any kind are held to the manifest only: the zoo measures how far the
//! compiler gets with real models.
//!
//! By default it runs the CI subset: each model at its first size in the
//! modes its index's `ci` column gives. `ZOO_FULL=1` runs every model in
//! every mode at every size, prints the slowest compiles and, without a
//! filter, rewrites `docs/zoo.md`.
//!
//! Environment: `ZOO_FULL=1`, `ZOO_MODES=jit,aot` (default both),
//! `ZOO_FILTER=<substrings of model ids, comma-separated>`,
//! `ONNX_MLC_BLESS=1` rewrites the manifest from the run, `ONNX_MLC_BIN`
//! the CLI to drive, `ZOO_JOBS` concurrent runs (default: available cores),
//! `ZOO_TIMEOUT` seconds per run (default 600).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use onnx_mlc_tests::conformance::manifest::Manifest;
use onnx_mlc_tests::conformance::report::{conclude, tallies, CaseResult};
use onnx_mlc_tests::conformance::runner::{run_all, Runner};
use onnx_mlc_tests::conformance::{default_jobs, env_number, Mode, Outcome};
use onnx_mlc_tests::zoo::{
    failure_class, parse_index, reason_classes, render_docs, MANIFEST, MODES,
};
use onnx_mlc_tests::{cache_dir, repo_root};

fn main() {
    std::process::exit(match run() {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("zoo: {e}");
            1
        }
    });
}

/// One run: a model, a size, a mode.
struct Work {
    model: usize,
    size: usize,
    mode: Mode,
}

fn run() -> Result<bool, String> {
    if std::env::args().any(|a| a == "--list") {
        return Ok(true);
    }
    let index_path = repo_root().join("tests/zoo/models.tsv");
    let index = std::fs::read_to_string(&index_path)
        .map_err(|e| format!("{}: {e}", index_path.display()))?;
    let models = parse_index(&index).map_err(|e| format!("models.tsv: {e}"))?;
    let cache = cache_dir().join("zoo");
    if !cache.is_dir() {
        println!(
            "zoo: skipped, no materialized zoo in {} (run tools/setup.sh)",
            cache.display()
        );
        return Ok(true);
    }
    let bin = match onnx_mlc_tests::cli_binary() {
        Ok(bin) => bin,
        Err(e) => {
            println!("zoo: skipped, {e}");
            return Ok(true);
        }
    };
    let full = std::env::var("ZOO_FULL").is_ok_and(|v| v == "1");
    let modes = Mode::from_env("ZOO_MODES", &MODES)?;
    let filter = std::env::var("ZOO_FILTER").unwrap_or_default();
    let bless = onnx_mlc_tests::filetest::blessing();
    let manifest_path = repo_root().join("tests/zoo/manifest.tsv");
    let manifest_text = std::fs::read_to_string(&manifest_path).unwrap_or_default();
    let mut manifest =
        Manifest::parse(&manifest_text, MANIFEST).map_err(|e| format!("manifest: {e}"))?;

    let chosen: Vec<usize> = (0..models.len())
        .filter(|&i| filter.split(',').any(|f| models[i].id.contains(f)))
        .collect();
    let mut work = vec![];
    for &i in &chosen {
        let sizes = if full { models[i].sizes.len() } else { 1 };
        for size in 0..sizes {
            for &mode in &modes {
                if full || models[i].ci.contains(&mode) {
                    work.push(Work {
                        model: i,
                        size,
                        mode,
                    });
                }
            }
        }
    }
    let scratch = std::env::temp_dir().join(format!("onnx-mlc-zoo-{}", std::process::id()));
    let runner = Runner {
        bin,
        scratch: scratch.clone(),
        timeout: Duration::from_secs(env_number("ZOO_TIMEOUT").unwrap_or(600)),
    };
    let jobs = env_number("ZOO_JOBS").unwrap_or_else(default_jobs);
    println!(
        "zoo: {} runs of {} models ({}) with {} ({jobs} at a time)",
        work.len(),
        chosen.len(),
        if full {
            "full: every size and mode"
        } else {
            "CI subset"
        },
        runner.bin.display()
    );

    let start = Instant::now();
    let outcomes = run_all(jobs, &work, |w, slot| {
        let m = &models[w.model];
        let folder = cache.join(&m.id);
        let data = folder.join(format!("test_data_set_{}", w.size));
        let begin = Instant::now();
        let (outcome, compile) = if data.is_dir() {
            runner.run_data_set(&folder.join("model.onnx"), &data, w.mode, slot, m.check())
        } else {
            let why = format!("harness: no {} (run tools/setup.sh)", data.display());
            (Outcome::Fail(why), None)
        };
        // Reasons name the model by its place in the cache, which differs
        // between checkouts.
        let outcome = match outcome {
            Outcome::Fail(why) => Outcome::Fail(why.replace(&*cache.to_string_lossy(), "<zoo>")),
            pass => pass,
        };
        let status = match &outcome {
            Outcome::Pass => "pass".to_string(),
            Outcome::Fail(why) => why.chars().take(150).collect(),
        };
        println!(
            "  {} [{}] {:.1} s: {status}",
            m.case_id(w.size),
            w.mode.name(),
            begin.elapsed().as_secs_f64()
        );
        (outcome, compile)
    });
    let _ = std::fs::remove_dir_all(&scratch);

    let mut results = BTreeMap::<String, CaseResult>::new();
    let mut compile = BTreeMap::<String, Duration>::new();
    for (w, (outcome, time)) in work.iter().zip(outcomes) {
        let m = &models[w.model];
        let r = results
            .entry(m.case_id(w.size))
            .or_insert_with(|| CaseResult {
                id: m.case_id(w.size),
                op: m.source.clone(),
                modes: [None, None, None],
            });
        r.modes[w.mode.index()] = Some(match outcome {
            Outcome::Pass => Ok(()),
            Outcome::Fail(why) => Err(why),
        });
        if let (Some(t), Mode::Jit, 0) = (time, w.mode, w.size) {
            compile.insert(m.id.clone(), t);
        }
    }
    let results: Vec<CaseResult> = results.into_values().collect();

    let (families, _) = tallies(&results);
    println!("\nper family (model × size passed / run):");
    for (family, t) in &families {
        println!("  {family:<20} {}", t.counts(&modes));
    }
    for mode in &modes {
        let mut classes = BTreeMap::<&str, usize>::new();
        for r in &results {
            if let Some(Err(why)) = &r.modes[mode.index()] {
                *classes.entry(failure_class(why)).or_default() += 1;
            }
        }
        let list: Vec<String> = classes.iter().map(|(c, n)| format!("{c} {n}")).collect();
        println!("\n{} failures: {}", mode.name(), list.join(", "));
        for (why, n, ids) in reason_classes(&results, *mode) {
            println!("  {n:>3}  {why}\n       {}", ids.join(" "));
        }
    }
    if full {
        let mut slow: Vec<(&String, &Duration)> = compile.iter().collect();
        slow.sort_by(|a, b| b.1.cmp(a.1));
        println!("\nslowest compiles (jit, first size):");
        for (id, t) in slow.iter().take(10) {
            println!("  {id:<48} {:.1} s", t.as_secs_f64());
        }
    }
    println!("\nrun time {:.0} s", start.elapsed().as_secs_f64());

    if full && filter.is_empty() && modes.len() == MODES.len() {
        std::fs::write(
            repo_root().join("docs/zoo.md"),
            render_docs(&models, &results, &compile),
        )
        .map_err(|e| e.to_string())?;
    }
    if bless && full && filter.is_empty() {
        // A full run saw every model: what it did not see left the zoo.
        manifest
            .entries
            .retain(|id, _| results.iter().any(|r| &r.id == id));
    }
    conclude(&mut manifest, &manifest_path, &results, &modes, bless, &[])
}
