//! PyPTO's op surface, measured: every spelling of ops.md §2 (kept in the repository as
//! `tests/pypto_spellings.txt`, since CI has no copy of the spec) is called in a small
//! program, and plc must either resolve it (no E0205, "unknown operation") or refuse it by
//! name through [`plc::ir::REFUSED`], whose reason the diagnostic gives. A spelling
//! that plc forgets, or a refusal whose op has since got a row, fails the test.

use plc::diag::Code;
use plc::driver::{self, Input, PipelineSpec, StopAt};
use plc::ir;

fn spellings() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pypto_spellings.txt");
    let text = std::fs::read_to_string(path).expect("tests/pypto_spellings.txt");
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect()
}

/// The diagnostics of a kernel whose body is one call of `spelling` with no arguments.
fn diagnostics(spelling: &str) -> Vec<(Code, String)> {
    let text = format!(
        "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n\
         @pl.function(type=pl.FunctionType.InCore)\ndef f(x: pl.Tensor[[16, 16], pl.FP32]):\n    {spelling}()\n"
    );
    let c = driver::compile(Input::text("spelling.pl", text), &PipelineSpec::default(), StopAt::Lower).unwrap();
    c.diags.iter().map(|d| (d.code, d.message.clone())).collect()
}

#[test]
fn the_list_is_ops_md() {
    let all = spellings();
    // ops.md §0 counts 447 rows; with the aliases each row lists, 451 spellings.
    assert_eq!(all.len(), 451);
    let mut seen = std::collections::HashSet::new();
    for s in &all {
        assert!(seen.insert(s), "{s} twice");
        assert!(s.starts_with("pl.") || s.starts_with("pld."), "{s}");
    }
}

#[test]
fn every_pypto_spelling_resolves_or_is_refused_with_a_reason() {
    let all = spellings();
    let mut unknown = Vec::new();
    let mut wrongly_refused = Vec::new();
    for s in &all {
        let diags = diagnostics(s);
        let is_unknown = diags.iter().any(|(code, _)| *code == Code::E0205);
        match ir::refusal(s) {
            Some(reason) => {
                // Refused by name: E0223 with the reason, never "unknown operation".
                let named = diags.iter().any(|(code, m)| *code == Code::E0223 && m.contains(reason));
                if is_unknown || !named {
                    wrongly_refused.push(format!("{s}: {diags:?}"));
                }
            }
            None if is_unknown => unknown.push(s.as_str()),
            None => {}
        }
    }
    assert!(
        unknown.is_empty(),
        "{} PyPTO spellings neither resolve nor are refused by name:\n  {}",
        unknown.len(),
        unknown.join("\n  ")
    );
    assert!(wrongly_refused.is_empty(), "refusals not reported as such:\n  {}", wrongly_refused.join("\n  "));
}

/// The refusal table names only spellings PyPTO has and plc has no row for: an entry
/// whose op got a row is stale.
#[test]
fn refusals_are_pypto_spellings_without_a_row() {
    let all = spellings();
    // (An entry whose op has a row is caught by the test above: the call resolves, with
    // no refusal reported.)
    for (spelling, reason) in ir::REFUSED {
        assert!(all.iter().any(|s| s == spelling), "{spelling} is not a PyPTO spelling");
        assert!(!reason.is_empty(), "{spelling}: no reason");
    }
    // Measured: how much of the surface plc resolves.
    let resolved = all.len() - ir::REFUSED.len();
    eprintln!("{resolved} of {} PyPTO spellings resolve; {} refused", all.len(), ir::REFUSED.len());
}

/// Every PyPTO spelling is written in a program the tests run (issue 11: "each op of
/// ops.md has an example or case file"): an example, a case file, a C++-checked program of
/// `tests/emit/` or a run of `tests/runs/`, called as `spelling(` outside a comment.
#[test]
fn every_pypto_spelling_is_used_by_a_test_program() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    let mut stack: Vec<std::path::PathBuf> =
        ["examples", "tests/cases", "tests/emit", "tests/runs"].iter().map(|d| root.join(d)).collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "pl") {
            // (Some cases are not UTF-8 on purpose.)
            for line in String::from_utf8_lossy(&std::fs::read(&path).unwrap()).lines() {
                code.push_str(line.split('#').next().unwrap_or(""));
                code.push('\n');
            }
        }
    }
    let unused: Vec<String> = spellings().into_iter().filter(|s| !code.contains(&format!("{s}("))).collect();
    assert!(unused.is_empty(), "{} PyPTO spellings no test program calls:\n  {}", unused.len(), unused.join("\n  "));
}
