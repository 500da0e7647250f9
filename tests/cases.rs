//! Example-driven tests: every `.pl` file under `examples/` and `tests/cases/` is run through
//! the compiler and its outputs are compared with expected files: an example's
//! `examples/P.pl` with those in `tests/snapshots/P/` (so that `examples/` shows only
//! programs), a case's with those beside it. `PLC_BLESS=1 cargo test` writes the expected
//! files instead (creating missing ones, deleting stale ones; see `common/snapshot.rs`).
//! A snapshot folder whose example is gone is stale too, and so is an expected output left
//! under `examples/`.
//!
//! Which outputs a file has depends on its directory:
//!
//! | directory             | `.ast` | `.tokens` | `.ir` | `.diag` | stages     | must have an error |
//! | --------------------- | ------ | --------- | ----- | ------- | ---------- | ------------------ |
//! | `examples/`           | yes    |           | yes   | if any  | + lowering | no (none allowed)  |
//! | `tests/cases/syntax/` | yes    |           |       | if any  | front end  | no                 |
//! | `tests/cases/layout/` |        | yes       |       | if any  | front end  | no                 |
//! | `tests/cases/errors/` |        |           | (1)   | yes     | + lowering | yes                |
//! | `tests/cases/warnings/` |      |           | yes   | yes     | + lowering | no (warnings only) |
//!
//! (1) When lowering succeeds (an error in a pass), as for the examples: up to the failing pass.
//!
//! `.diag` holds the diagnostics in the short format (`file:line:col: error[CODE]: ...`),
//! so an error case pins each code, line and column. `.ir` is the IR after lowering,
//! printed as pl source; `.<Pass>.ir` the IR after a pass of the default pipeline
//! (`X.ConvertToSSA.ir`) where that pass changed it: a pass that leaves the printed IR as
//! the stage before it (lowering for the first) has no file, and its output is compared
//! with that stage's in memory. The passes run one at a time through the driver
//! ([`plc::driver::Compilation::step`]), each with the verifier and the checks of the
//! properties it produces, and each printed result round-tripped too. A pass that did not
//! run (an earlier stage failed) or reported an error has no file either.
//!
//! Every input is also checked for invariants that need no expected file: token and AST
//! spans in bounds and well nested, INDENT/DEDENT balanced, the same output twice; and
//! every program that lowers without errors is printed, the text lowered again and printed
//! again: the two prints must be identical (print → parse → print is a fixed point).

mod common;

use common::snapshot::{root, snapshot_dir, Snapshots};
use libtest_mimic::{Arguments, Failed, Trial};
use plc::driver::{self, Input, PipelineSpec, StopAt};
use plc::passes;
use plc::session::Session;
use plc::syntax;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy)]
struct Kind {
    ast: bool,
    tokens: bool,
    /// Run lowering too: its diagnostics, and the `.ir` of an accepted program.
    lower: bool,
    must_fail: bool,
    must_pass: bool,
    /// The expected outputs are in the file's folder under `tests/snapshots/`, not beside it.
    snapshots: bool,
}

fn kind_of(dir: &str) -> Kind {
    const NOTHING: Kind =
        Kind { ast: false, tokens: false, lower: false, must_fail: false, must_pass: false, snapshots: false };
    match dir {
        "examples" => Kind { ast: true, lower: true, must_pass: true, snapshots: true, ..NOTHING },
        "syntax" => Kind { ast: true, ..NOTHING },
        "layout" => Kind { tokens: true, ..NOTHING },
        "errors" => Kind { lower: true, must_fail: true, ..NOTHING },
        "warnings" => Kind { lower: true, must_pass: true, ..NOTHING },
        other => panic!("tests/cases/{other}: unknown case directory"),
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let mut dirs = vec![(root().join("examples"), "examples".to_string())];
    for entry in std::fs::read_dir(root().join("tests/cases")).expect("tests/cases exists") {
        let path = entry.expect("readable directory").path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            dirs.push((path, name));
        }
    }
    for (dir, name) in dirs {
        let kind = kind_of(&name);
        for path in pl_files(&dir) {
            let test_name = format!("{name}/{}", path.strip_prefix(&dir).unwrap().display());
            trials.push(Trial::test(test_name, move || run_case(&path, kind)));
        }
    }
    trials.push(Trial::test("snapshots/no_stale_files", no_stale_snapshots));
    libtest_mimic::run(&args, trials).exit();
}

/// The `.pl` files under `dir`, recursively, sorted.
fn pl_files(dir: &Path) -> Vec<PathBuf> {
    files_under(dir).into_iter().filter(|path| path.extension().is_some_and(|e| e == "pl")).collect()
}

/// The files under `dir`, recursively, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every file under `tests/snapshots/` is in the folder of an example (`tests/snapshots/P/`
/// for `examples/P.pl`, or a folder in it): those of a removed or renamed example are stale. And `examples/`
/// holds no expected output (as it did before `tests/snapshots/`): such a file is stale.
fn no_stale_snapshots() -> Result<(), Failed> {
    let top = root().join("tests/snapshots");
    let mut snapshots = Snapshots::new();
    for file in files_under(&top) {
        // The example's folder, or a folder inside it (`P/pto-isa/` holds the PTO-ISA
        // kernels tests/simpler.rs compares, and checks for stale files itself).
        let folder = file.parent().unwrap().strip_prefix(&top).unwrap();
        let owned = folder
            .ancestors()
            .filter(|f| !f.as_os_str().is_empty())
            .any(|f| root().join("examples").join(format!("{}.pl", f.display())).is_file());
        if !owned {
            snapshots.check(&file, None);
        }
    }
    const OUTPUTS: &[&str] = &["ast", "tokens", "ir", "diag", "cpp"];
    for file in files_under(&root().join("examples")) {
        if file.extension().is_some_and(|e| OUTPUTS.iter().any(|o| e == *o)) {
            snapshots.check(&file, None);
        }
    }
    snapshots.finish().map_err(Failed::from)
}

/// The outputs of one file, with files named relative to the crate root.
struct Outputs {
    ast: String,
    tokens: String,
    /// The printed IR, when the program lowered without errors.
    ir: Option<String>,
    /// For each pass of the default pipeline, the printed IR after it (`None` when it did
    /// not run: an earlier stage failed).
    after_pass: Vec<(&'static str, Option<String>)>,
    diag: String,
    has_errors: bool,
    problems: Vec<String>,
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

fn compute(path: &Path, kind: Kind) -> Outputs {
    let name = relative(path);
    let bytes = std::fs::read(path).unwrap();
    let mut session = Session::new();
    let (file, load_error) = session.add_source(&name, bytes);
    let parsed = session.parse(file, load_error);
    let f = session.files.get(file);
    let mut scratch = Vec::new();
    let tokens = syntax::tokens(file, &f.text, &mut scratch);
    let mut problems = syntax::validate::tokens(&f.text, &tokens);
    problems.extend(syntax::validate::ast(&f.text, &parsed.ast));
    let ast = syntax::dump::ast(&f.text, &session.interner, &parsed.ast);
    let tokens = syntax::dump::tokens(&f.text, f.lines(), &tokens);
    let mut after_pass: Vec<(&'static str, Option<String>)> = passes::PASSES.iter().map(|p| (p.name, None)).collect();
    let (diag, has_errors, ir) = if kind.lower {
        // Lowering reads the file (and what it imports) from disk, with relative names.
        let spec = PipelineSpec::default().verified();
        let mut c = driver::compile(Input::file(&name), &spec, StopAt::Lower).unwrap();
        let ir = (!c.has_errors()).then(|| plc::ir::print::programs(&c.programs, &c.session.interner));
        if let Some(text) = &ir {
            problems.extend(round_trip(&name, text));
            for p in &c.programs {
                for d in plc::ir::verify::verify(p, &c.session.interner, false) {
                    problems.push(format!("verifier: {}", plc::diag::render::short(&c.session.files, &d)));
                }
            }
            // The passes of the default pipeline, one at a time, each followed by the
            // verifier and the checks of what it produces (E07xx are plc's bugs).
            while let Some(def) = c.step() {
                if c.has_errors() {
                    let bugs: Vec<String> = c
                        .diags
                        .iter()
                        .filter(|d| d.code.as_str().starts_with("E07"))
                        .map(|d| plc::diag::render::short(&c.session.files, d))
                        .collect();
                    if !bugs.is_empty() {
                        problems.push(format!("after {}: {}", def.name, bugs.join("")));
                    }
                    break;
                }
                let text = plc::ir::print::programs(&c.programs, &c.session.interner);
                let k = after_pass.iter().position(|(pass, _)| *pass == def.name).expect("a pass of the table");
                after_pass[k].1 = Some(text);
            }
            // The printed IR after each pass must read back the same, for programs that
            // go through the whole pipeline (an error case may stop at IR that the
            // source-level checks reject, such as a region spliced inside a region).
            if !c.has_errors() {
                for (pass, text) in &after_pass {
                    if let Some(text) = text {
                        problems.extend(round_trip(&format!("{name} after {pass}"), text));
                    }
                }
            }
        }
        let rendered: String = c.diags.iter().map(|d| plc::diag::render::short(&c.session.files, d)).collect();
        problems.extend(check_leaving_out_rewrites(&name));
        (rendered, c.has_errors(), ir)
    } else {
        let rendered: String = parsed.diags.iter().map(|d| plc::diag::render::short(&session.files, d)).collect();
        (rendered, plc::diag::has_errors(&parsed.diags), None)
    };
    Outputs { ast, tokens, ir, after_pass, diag, has_errors, problems }
}

/// `plc check` runs the pipeline for its diagnostics only, and its last pass leaves out the
/// rewrites no diagnostic needs (`PipelineSpec::diagnostics_only`): the diagnostics must be
/// those of the whole pipeline run for `check`.
fn check_leaving_out_rewrites(name: &str) -> Option<String> {
    let diags = |spec: PipelineSpec| {
        let c = driver::compile(Input::file(name), &spec, StopAt::End).unwrap();
        c.diags.iter().map(|d| plc::diag::render::short(&c.session.files, d)).collect::<String>()
    };
    let whole = diags(PipelineSpec::default().for_check());
    let only = diags(PipelineSpec::default().for_check().diagnostics_only());
    (whole != only).then(|| format!("`plc check` leaving out rewrites reports\n{only}instead of\n{whole}"))
}

/// Lowers printed IR again and prints it: the text must not change.
fn round_trip(name: &str, printed: &str) -> Vec<String> {
    let input = Input::text(format!("{name} (printed)"), printed);
    let c = driver::compile(input, &PipelineSpec::default(), StopAt::Lower).expect("in memory");
    if c.has_errors() {
        let rendered: String = c.diags.iter().map(|d| plc::diag::render::short(&c.session.files, d)).collect();
        return vec![format!("the printed IR does not lower again:\n{rendered}\n{printed}")];
    }
    let again = plc::ir::print::programs(&c.programs, &c.session.interner);
    if again == printed {
        return Vec::new();
    }
    let diff = similar::TextDiff::from_lines(printed, again.as_str());
    vec![format!(
        "print -> parse -> print is not a fixed point:\n{}",
        diff.unified_diff().context_radius(2).header("first print", "second print")
    )]
}

/// Printed IR as the expected files hold it: the absolute paths it names (an external
/// kernel's resolved `external_source=`) start with `<root>` instead of this checkout's root.
fn portable(printed: &str) -> String {
    printed.replace(&format!("\"{}/", root().display()), "\"<root>/")
}

fn run_case(path: &Path, kind: Kind) -> Result<(), Failed> {
    // Lowering names files relative to the crate root, as the expectations do.
    std::env::set_current_dir(root()).unwrap();
    let out = compute(path, kind);
    if !out.problems.is_empty() {
        return Err(format!("invariants broken:\n  {}", out.problems.join("\n  ")).into());
    }
    let again = compute(path, kind);
    if again.ast != out.ast
        || again.diag != out.diag
        || again.tokens != out.tokens
        || again.ir != out.ir
        || again.after_pass != out.after_pass
    {
        return Err("two runs gave different output".into());
    }
    if kind.must_fail && !out.has_errors {
        return Err("an error case must produce at least one error".into());
    }
    if kind.must_pass && out.has_errors {
        return Err(format!("an example must compile without errors:\n{}", out.diag).into());
    }
    let folder = if kind.snapshots { snapshot_dir(path) } else { path.parent().unwrap().to_path_buf() };
    let stem = path.file_stem().unwrap().to_string_lossy();
    let expected = |extension: &str| folder.join(format!("{stem}.{extension}"));
    let mut snapshots = Snapshots::new();
    if kind.ast {
        snapshots.check(&expected("ast"), Some(&out.ast));
    }
    if kind.tokens {
        snapshots.check(&expected("tokens"), Some(&out.tokens));
    }
    if kind.lower {
        let ir = out.ir.as_deref().map(portable);
        snapshots.check(&expected("ir"), ir.as_deref());
        // A pass has its own file only where it changed the printed IR. Where it did not,
        // its text equals the stage before it, compared here, whose file holds that text:
        // every stage is still checked, and the file must not exist.
        let mut previous = ir;
        for (pass, text) in &out.after_pass {
            let text = text.as_deref().map(portable);
            let changed = text.as_deref().filter(|text| Some(*text) != previous.as_deref());
            snapshots.check(&expected(&format!("{pass}.ir")), changed);
            previous = text.or(previous);
        }
    }
    let diag = (!out.diag.is_empty() || kind.must_fail).then_some(out.diag.as_str());
    snapshots.check(&expected("diag"), diag);
    if kind.snapshots {
        // The folder is the example's alone; its `.cpp` files are tests/compile.rs's.
        snapshots.check_no_others(&folder, |file| file.extension().is_none_or(|e| e != "cpp"));
    }
    snapshots.finish().map_err(Failed::from)
}
