//! plc's output on the real runtime: every runnable example entry (`common/runnable.rs`),
//! compiled with `plc compile --target a2a3sim --harness`, runs on simpler's CPU simulation
//! platform a2a3sim through the generated `run.sh` and prints exactly what `plc run` prints.
//!
//! simpler is found in `$PLC_SIMPLER_SIM` (default `$HOME/.cache/plc/simpler-sim`); the
//! first `run.sh` sets it up there with `../shared/tools/simpler-sim-setup.sh` (about 10
//! minutes on 2 cores). `PLC_SIMPLER` chooses:
//! - unset: run when simpler is set up (`$PLC_SIMPLER_SIM/.plc-ready`), else skip with a
//!   message (so that `cargo test` does not start a 10-minute setup on its own);
//! - `1`: set simpler up if needed and run (CI; fails if the setup script is missing);
//! - `0`: skip.
//!
//! `PLC_SIMPLER_RUNS=N` (default 20) runs each entry N times in a row in one process
//! (`RUNS=N sh run.sh`); every run must print the same lines (run.py compares the outputs
//! of each run with the first's).
//!
//! The entries in [`REFUSED`] are programs whose answer on simpler is undefined (a race, an
//! `Out` tensor not written whole): `plc compile --target a2a3sim --harness` refuses them
//! with the diagnostic that says why, and `plc run` warns about the same (docs/runtime.md).

mod common;
#[path = "common/runnable.rs"]
mod runnable;

use common::snapshot::{snapshot_dir, Snapshots};
use runnable::{Runnable, RUNNABLE};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Entries whose result on simpler would be undefined, why, the errors with which
/// `plc compile --target a2a3sim --harness` refuses them, and the warnings `plc run` gives
/// (docs/runtime.md). `graph_boundary`'s `model` is not one: `plc run` replays its graph
/// as simpler does (E0518 still warns).
/// (example, entry, why, what `plc compile` prints, what `plc run` prints).
type Refused = (&'static str, &'static str, &'static str, &'static [&'static str], &'static [&'static str]);

const REFUSED: &[Refused] = &[
    (
        "task_launches",
        "main",
        "`pl.no_dep(scaled)` leaves a race that simpler's concurrent scheduler may show",
        &["warning[E0413]", "error[E0805]"],
        &["warning[E0805]"],
    ),
    (
        "scalar_control_flow",
        "main",
        "simpler does not initialise a pure Out tensor, and the entry writes part of it: the rest is undefined",
        &["warning[E0414]", "error[E0804]"],
        &["warning[E0804]"],
    ),
];

fn refused(r: &Runnable) -> bool {
    REFUSED.iter().any(|(f, e, ..)| *f == r.file && *e == r.entry)
}

/// Without simpler: each entry of [`REFUSED`] is refused by `plc compile --target a2a3sim
/// --harness` with its errors (and nothing is written), `plc run` runs it with its
/// warnings, and `plc compile` for plc's own CPU runtime still accepts it.
#[test]
fn entries_with_an_undefined_answer_on_simpler_are_refused_for_a2a3sim() {
    for (file, entry, why, compile_codes, run_codes) in REFUSED {
        let r = RUNNABLE.iter().find(|r| r.file == *file && r.entry == *entry).expect("a runnable entry");
        let src = format!("examples/{file}.pl");
        let out_dir =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simpler-refused").join(format!("{file}-{entry}"));
        let _ = std::fs::remove_dir_all(&out_dir);
        let out = out_dir.to_str().unwrap();
        let compiled =
            plc(&with_args(vec!["compile", &src, "-o", out, "--entry", entry, "--harness", "--target", "a2a3sim"], r));
        let stderr = String::from_utf8_lossy(&compiled.stderr);
        assert_eq!(compiled.status.code(), Some(1), "{file} --entry {entry} ({why}) must be refused:\n{stderr}");
        for code in *compile_codes {
            assert!(stderr.contains(code), "{file} --entry {entry}: no {code} from plc compile:\n{stderr}");
        }
        assert!(stderr.contains("`--target a2a3sim --harness` refuses this"), "{stderr}");
        assert!(!out_dir.exists(), "{file} --entry {entry}: a refused compile wrote {}", out_dir.display());
        let ran = plc(&with_args(vec!["run", &src, "--entry", entry], r));
        let stderr = String::from_utf8_lossy(&ran.stderr);
        assert!(ran.status.success(), "plc run {file} --entry {entry}: {stderr}");
        for code in *run_codes {
            assert!(stderr.contains(code), "{file} --entry {entry}: no {code} from plc run:\n{stderr}");
        }
        let cpu = out_dir.with_extension("cpu");
        let compiled =
            plc(&with_args(vec!["compile", &src, "-o", cpu.to_str().unwrap(), "--entry", entry, "--harness"], r));
        assert!(
            compiled.status.success(),
            "{file} --entry {entry} for the CPU runtime: {}",
            String::from_utf8_lossy(&compiled.stderr)
        );
    }
}

/// Orchestration code's element accesses (E0807, `tests/runs/host_access*.pl`): the entries
/// whose accesses simpler's host_build_graph runtime cannot make as `plc run` does (it runs
/// the tasks after the orchestration function, and waits for a tensor's writer forever)
/// are refused by `plc compile --target a2a3sim --harness`, with nothing written, and
/// still compile for plc's CPU runtime; the entries whose accesses it can make compile,
/// and with simpler set up print on a2a3sim what `plc run` prints, as do the entries of
/// `tests/emit/tuple_results_whole.pl`, which keep a call's results as a whole tuple.
#[test]
fn host_accesses_simpler_cannot_make_are_refused_and_the_others_run_on_a2a3sim() {
    const ACCESS: &str = "tests/runs/host_access.pl";
    const REFUSED_ACCESSES: &[(&str, &str)] = &[
        (ACCESS, "read_after_task_writes"),
        (ACCESS, "write_after_task_writes"),
        (ACCESS, "write_after_task_reads"),
        (ACCESS, "read_created"),
        (ACCESS, "write_created"),
        ("tests/runs/host_access_untracked.pl", "read_after_untracked_write"),
    ];
    const TUPLES: &str = "tests/emit/tuple_results_whole.pl";
    const RUN: &[(&str, &str)] = &[
        (ACCESS, "read_input_after_task_reads"),
        (ACCESS, "before_any_task"),
        (ACCESS, "untouched_tensor"),
        (TUPLES, "submitted"),
        (TUPLES, "called"),
    ];
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simpler-host-access");
    for (file, entry) in REFUSED_ACCESSES {
        let out_dir = base.join(format!("refused-{entry}"));
        let _ = std::fs::remove_dir_all(&out_dir);
        let out = out_dir.to_str().unwrap();
        let compiled = plc(&["compile", file, "-o", out, "--entry", entry, "--harness", "--target", "a2a3sim"]);
        let stderr = String::from_utf8_lossy(&compiled.stderr);
        assert_eq!(compiled.status.code(), Some(1), "{file} --entry {entry} must be refused:\n{stderr}");
        assert!(stderr.contains("error[E0807]"), "{file} --entry {entry}: no E0807:\n{stderr}");
        assert!(stderr.contains("refuses this: on simpler the run stops or computes otherwise"), "{stderr}");
        assert!(!out_dir.exists(), "{file} --entry {entry}: a refused compile wrote {}", out_dir.display());
        let cpu = base.join(format!("cpu-{entry}"));
        let compiled = plc(&["compile", file, "-o", cpu.to_str().unwrap(), "--entry", entry, "--harness"]);
        assert!(
            compiled.status.success(),
            "{file} --entry {entry} for the CPU runtime: {}",
            String::from_utf8_lossy(&compiled.stderr)
        );
    }
    let simulate = wanted();
    let mut failures = Vec::new();
    for (file, entry) in RUN {
        let out_dir = base.join(format!("run-{entry}"));
        let out = out_dir.to_str().unwrap();
        let compiled = plc(&["compile", file, "-o", out, "--entry", entry, "--harness", "--target", "a2a3sim"]);
        let stderr = String::from_utf8_lossy(&compiled.stderr);
        assert!(compiled.status.success(), "{file} --entry {entry}: {stderr}");
        assert!(!stderr.contains("E0807"), "{file} --entry {entry}: {stderr}");
        if simulate.is_ok() {
            failures.extend(on_a2a3sim(file, entry, &[], &out_dir, 2).err());
        }
    }
    if let Err(why) = simulate {
        eprintln!("a2a3sim runs skipped: {why}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Compiles `file`'s `entry` (with `--arg`s `args`) for a2a3sim with its harness into
/// `out_dir`, runs it `runs` times through `run.sh`, and compares what it prints with
/// `plc run`: what differed, or how run.sh failed.
fn on_a2a3sim(file: &str, entry: &str, args: &[&str], out_dir: &Path, runs: usize) -> Result<(), String> {
    // `base` followed by an `--arg` for each of `args`.
    let command = |base: &[&str]| -> std::process::Output {
        let mut all = base.to_vec();
        for a in args {
            all.extend(["--arg", a]);
        }
        plc(&all)
    };
    let out = out_dir.to_str().unwrap();
    let compiled = command(&["compile", file, "-o", out, "--entry", entry, "--harness", "--target", "a2a3sim"]);
    assert!(compiled.status.success(), "compile {file} --entry {entry}: {}", String::from_utf8_lossy(&compiled.stderr));
    let expected = command(&["run", file, "--entry", entry]);
    assert!(expected.status.success(), "plc run {file} --entry {entry}: {}", String::from_utf8_lossy(&expected.stderr));
    let expected = String::from_utf8_lossy(&expected.stdout).to_string();
    let ran = Command::new("sh").arg(out_dir.join("run.sh")).env("RUNS", runs.to_string()).output().expect("sh runs");
    let got = String::from_utf8_lossy(&ran.stdout).to_string();
    let label = format!("{file} --entry {entry} ({runs} runs)");
    if !ran.status.success() {
        let err = String::from_utf8_lossy(&ran.stderr);
        let tail: Vec<&str> = err.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        Err(format!("{label}: run.sh failed ({}):\n{}", ran.status, tail.join("\n")))
    } else if got != expected {
        Err(format!("{label}:\n  plc run:   {expected}  a2a3sim:   {got}"))
    } else {
        Ok(())
    }
}

fn plc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_plc")).args(args).output().expect("plc runs")
}

fn sim_dir() -> PathBuf {
    match std::env::var_os("PLC_SIMPLER_SIM") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/plc/simpler-sim"),
    }
}

/// Whether to run, or the reason to skip.
fn wanted() -> Result<(), String> {
    let mode = std::env::var("PLC_SIMPLER").unwrap_or_default();
    let ready = sim_dir().join(".plc-ready").is_file();
    let setup = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/simpler-sim-setup.sh");
    match mode.as_str() {
        "0" => Err("PLC_SIMPLER=0".to_string()),
        "1" if !ready && !setup.is_file() => {
            panic!("PLC_SIMPLER=1, simpler is not set up in {} and {} is missing", sim_dir().display(), setup.display())
        }
        "1" => Ok(()),
        _ if ready => Ok(()),
        _ => Err(format!(
            "simpler is not set up in {} (PLC_SIMPLER=1 sets it up, about 10 minutes)",
            sim_dir().display()
        )),
    }
}

fn with_args<'a>(mut args: Vec<&'a str>, r: &'a Runnable) -> Vec<&'a str> {
    for a in r.args {
        args.push("--arg");
        args.push(a);
    }
    args
}

#[test]
fn every_runnable_entry_prints_on_a2a3sim_what_plc_run_prints() {
    if let Err(why) = wanted() {
        eprintln!("skipped: {why}");
        return;
    }
    let runs: usize = std::env::var("PLC_SIMPLER_RUNS").ok().and_then(|n| n.parse().ok()).unwrap_or(20);
    let mut failures = Vec::new();
    let mut matched = 0;
    for r in RUNNABLE.iter().filter(|r| !refused(r)) {
        // Kept between test runs: run.sh caches the compiled kernels in OUT/build/.
        let out_dir =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simpler").join(format!("{}-{}", r.file, r.entry));
        match on_a2a3sim(&format!("examples/{}.pl", r.file), r.entry, r.args, &out_dir, runs) {
            Ok(()) => matched += 1,
            Err(failure) => failures.push(failure),
        }
    }
    eprintln!("{matched} entries matched plc run on a2a3sim, {runs} runs each");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The entries whose kernels the PTO-ISA backend does not map yet: the kernel, and the
/// start of plc's E0620 message (docs/kernels.md says why).
/// Empty: every runnable entry has PTO-ISA kernels.
const NOT_PTO_ISA: &[(&str, &str, &str)] = &[
    ("half_precision", "widen", "of tiles of different shapes (broadcast) has no PTO-ISA form"),
    ("tile_layouts", "main", "a move from L0C to the unified buffer (UB) has no PTO-ISA form"),
    ("dead_scalar_carry", "main", "a call of a function with several results has no PTO-ISA form"),
];

/// The entries whose PTO-ISA build runs on a2a3sim in every test run (vector, cube, a
/// vector-then-cube entry, a mixed task whose cube and vector kernels talk through a
/// cross-core pipe, loops, graphs, FP16, loop-carried tiles and an `if`, tensor values of
/// run-time shape computed in bands); every entry is compiled, and with
/// `PLC_PTO_ALL=1` every supported one runs (each run compiles its kernels with clang++
/// against PTO-ISA's headers, 20-60 s on 2 cores: all of them would take CI's budget).
const PTO_ISA_RUN: &[(&str, &str)] = &[
    ("accumulate_band", "entry"),
    ("elementwise_scale_add", "scale_add"),
    ("tiled_matmul", "main"),
    ("jit_shape_of_argument", "square_then_product"),
    ("graph_regions_in_control_flow", "entry"),
    ("half_precision", "blend"),
    ("loop_carried_ssa", "main"),
    ("declared_task_edges", "staged_square"),
    ("cube_vector_pipe", "main"),
];

/// Entries whose PTO-ISA result is compared with a tolerance, and why: TMATMUL sums its
/// products in another order than `plc run`.
const APPROXIMATE: &[(&str, &str, &str)] =
    &[("jit_shape_of_argument", "square_then_product", "TMATMUL sums in another order")];

/// Whether two `plc run` outputs agree to a relative 1e-6 of each line's `abs_sum`: the same
/// lines, names, shapes and dtypes, and close sums.
fn close(expected: &str, got: &str) -> bool {
    let fields = |line: &str| -> (String, f64, f64) {
        let num =
            |key: &str| line.split(key).nth(1).and_then(|r| r.split_whitespace().next()).and_then(|v| v.parse().ok());
        let head = line.split(" sum=").next().unwrap_or_default().to_string();
        (head, num(" sum=").unwrap_or(f64::NAN), num(" abs_sum=").unwrap_or(f64::NAN))
    };
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    e.len() == g.len()
        && e.iter().zip(&g).all(|(a, b)| {
            let ((ha, sa, aa), (hb, sb, ab)) = (fields(a), fields(b));
            let tol = 1e-6 * aa.abs().max(1.0);
            ha == hb && (sa - sb).abs() <= tol && (aa - ab).abs() <= tol
        })
}

/// Issue 13: every runnable entry whose kernels the PTO-ISA backend maps, compiled with
/// `--kernels pto-isa`, runs on a2a3sim and prints what `plc run` prints (every op it maps
/// is exact in FP32 on the simulator); the others fail to compile with E0620, as listed in
/// [`NOT_PTO_ISA`].
#[test]
fn every_supported_entry_prints_on_a2a3sim_with_pto_isa_kernels_what_plc_run_prints() {
    if let Err(why) = wanted() {
        eprintln!("skipped: {why}");
        return;
    }
    let mut failures = Vec::new();
    let mut matched = Vec::new();
    for r in RUNNABLE.iter().filter(|r| !refused(r)) {
        let out_dir =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simpler-pto").join(format!("{}-{}", r.file, r.entry));
        let file = format!("examples/{}.pl", r.file);
        let out = out_dir.to_str().unwrap();
        let args = vec!["compile", &file, "-o", out, "--entry", r.entry, "--harness", "--target", "a2a3sim"];
        let mut args = with_args(args, r);
        args.extend(["--kernels", "pto-isa"]);
        let compiled = plc(&args);
        let stderr = String::from_utf8_lossy(&compiled.stderr).to_string();
        let listed = NOT_PTO_ISA.iter().find(|(f, e, _)| *f == r.file && *e == r.entry);
        match (compiled.status.success(), listed) {
            (true, None) => {}
            (false, Some((.., why))) if stderr.contains("error[E0620]") && stderr.contains(why) => continue,
            (true, Some(_)) => {
                failures.push(format!("{} --entry {}: compiles now, take it off NOT_PTO_ISA", r.file, r.entry));
                continue;
            }
            (false, _) => {
                failures.push(format!("{} --entry {}: {stderr}", r.file, r.entry));
                continue;
            }
        }
        let all = std::env::var("PLC_PTO_ALL").is_ok_and(|v| v != "0");
        if !all && !PTO_ISA_RUN.contains(&(r.file, r.entry)) {
            continue;
        }
        let expected = plc(&with_args(vec!["run", &file, "--entry", r.entry], r));
        let expected = String::from_utf8_lossy(&expected.stdout).to_string();
        let run = Command::new("sh").arg(out_dir.join("run.sh")).output().expect("sh runs");
        let got = String::from_utf8_lossy(&run.stdout).to_string();
        if !run.status.success() {
            let err = String::from_utf8_lossy(&run.stderr);
            let tail: Vec<&str> = err.lines().rev().take(30).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failures.push(format!(
                "{} --entry {}: run.sh failed ({}):\n{}",
                r.file,
                r.entry,
                run.status,
                tail.join("\n")
            ));
        } else if got != expected {
            if APPROXIMATE.iter().any(|(f, e, _)| *f == r.file && *e == r.entry) && close(&expected, &got) {
                matched.push(format!("{}:{} (close)", r.file, r.entry));
                continue;
            }
            failures.push(format!("{} --entry {}:\n  plc run:   {expected}  a2a3sim:   {got}", r.file, r.entry));
        } else {
            matched.push(format!("{}:{}", r.file, r.entry));
        }
    }
    eprintln!("{} entries matched plc run on a2a3sim with PTO-ISA kernels: {}", matched.len(), matched.join(" "));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (file, entry) in PTO_ISA_RUN {
        assert!(
            RUNNABLE.iter().any(|r| r.file == *file && r.entry == *entry),
            "{file} --entry {entry} is not a runnable entry"
        );
    }
}

/// Without simpler: every a2a3sim kernel file, and the harness's `io.cpp`, is a complete
/// C++ translation unit (the system `c++ -std=c++17 -Wall -Werror`, as `CXX`).
#[test]
fn every_a2a3sim_kernel_and_io_helper_compiles_on_its_own() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    if !Command::new(&cxx).arg("--version").output().is_ok_and(|o| o.status.success()) {
        eprintln!("no C++ compiler found: skipped");
        return;
    }
    let mut failures = Vec::new();
    for r in RUNNABLE.iter().filter(|r| !refused(r)) {
        let out_dir =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simpler-syntax").join(format!("{}-{}", r.file, r.entry));
        let file = format!("examples/{}.pl", r.file);
        let out = out_dir.to_str().unwrap();
        let compiled = plc(&with_args(
            vec!["compile", &file, "-o", out, "--entry", r.entry, "--harness", "--target", "a2a3sim"],
            r,
        ));
        assert!(compiled.status.success(), "compile {}: {}", r.file, String::from_utf8_lossy(&compiled.stderr));
        assert!(!out_dir.join("runtime").exists(), "{}: the a2a3sim output has no CPU runtime", r.file);
        let mut sources: Vec<PathBuf> = std::fs::read_dir(out_dir.join("kernels"))
            .expect("kernels/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        sources.sort();
        sources.push(out_dir.join("harness/io.cpp"));
        for src in sources {
            let text = std::fs::read_to_string(&src).unwrap();
            if src.parent().is_some_and(|d| d.ends_with("kernels")) {
                assert!(!text.contains("#include \""), "{} includes a file", src.display());
                assert!(text.contains("extern \"C\" __aicore__ void kernel_entry(__gm__ int64_t* args) {"));
            }
            let status = Command::new(&cxx)
                .args(["-std=c++17", "-Wall", "-Werror", "-fsyntax-only"])
                .arg(format!("-I{}", out_dir.join("harness").display()))
                .arg(&src)
                .output()
                .expect("c++ runs");
            if !status.status.success() {
                failures.push(format!("{}:\n{}", src.display(), String::from_utf8_lossy(&status.stderr)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Ops beyond the examples' (`tests/emit/pto_isa_ops.pl`): row reductions into one-column
/// tiles and column reductions into one-row tiles, over a valid region the tensor's end
/// cuts, row and column expansions (softmax's steps), casts with a rounding mode, a compare
/// into a packed mask, bitwise ops, a matmul whose accumulator a loop carries, run
/// on a2a3sim with PTO-ISA kernels and print what `plc run` prints (to 1e-6 of each
/// `abs_sum`: a sum may add in another order).
#[test]
fn pto_isa_ops_print_on_a2a3sim_what_plc_run_prints() {
    if let Err(why) = wanted() {
        eprintln!("skipped: {why}");
        return;
    }
    let file = "tests/emit/pto_isa_ops.pl";
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simpler-pto").join("pto_isa_ops");
    let out = out_dir.to_str().unwrap();
    let args = ["compile", file, "-o", out, "--entry", "reduce", "--harness", "--target", "a2a3sim"];
    let compiled = plc(&[&args[..], &["--kernels", "pto-isa"]].concat());
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    let expected = plc(&["run", file, "--entry", "reduce"]);
    let expected = String::from_utf8_lossy(&expected.stdout).to_string();
    assert_eq!(expected.lines().count(), 12, "{expected}");
    let run = Command::new("sh").arg(out_dir.join("run.sh")).output().expect("sh runs");
    let got = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(run.status.success(), "run.sh failed: {}", String::from_utf8_lossy(&run.stderr));
    assert!(close(&expected, &got), "plc run:\n{expected}a2a3sim:\n{got}");
}

/// Without simpler: the PTO-ISA kernels of control flow, of values of run-time shape and of
/// a mixed Group's two halves (a cross-core pipe), from
/// `kernel_entry` on (tile placement, instructions, flags), match their expected files
/// `tests/snapshots/<example>/pto-isa/<kernel>.cpp` (bless with `PLC_BLESS=1`).
#[test]
fn pto_isa_kernels_with_control_flow_and_band_loops_match_their_expected_files() {
    // (example, entry, `--arg`s, kernels): a loop carrying a tile and an `if` merging one;
    // `pl.add` of tensors whose shape is known only at run time, computed in bands.
    let cases: &[(&str, &str, &[&str], &[&str])] = &[
        ("loop_carried_ssa", "main", &[], &["cube_tile", "add_or_sub"]),
        ("declared_task_edges", "staged_square", &["x=64x64", "doubled=64x64", "squared=64x64"], &["double_input"]),
        // A mixed Group: its AIV half (`fused`) and its AIC half (`aic/fused`).
        ("cube_vector_pipe", "main", &[], &["fused", "aic/fused"]),
    ];
    let mut snapshots = Snapshots::new();
    for (file, entry, args, kernels) in cases {
        let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pto-snapshots").join(format!("{file}-{entry}"));
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("examples/{file}.pl"));
        let mut argv = vec!["compile", example.to_str().unwrap(), "-o", out_dir.to_str().unwrap(), "--entry", entry];
        argv.extend(["--target", "a2a3sim", "--kernels", "pto-isa"]);
        for a in *args {
            argv.extend(["--arg", a]);
        }
        let compiled = plc(&argv);
        assert!(compiled.status.success(), "compile {file}: {}", String::from_utf8_lossy(&compiled.stderr));
        let folder = snapshot_dir(&example).join("pto-isa");
        for k in *kernels {
            let text = std::fs::read_to_string(out_dir.join("kernels").join(format!("{k}.cpp"))).unwrap();
            let body = &text[text.find("extern \"C\"").expect("kernel_entry")..];
            snapshots.check(&folder.join(format!("{}.cpp", k.replace('/', "_"))), Some(body));
        }
        snapshots.check_no_others(&folder, |f| f.extension().is_some_and(|e| e == "cpp"));
    }
    if let Err(e) = snapshots.finish() {
        panic!("{e}");
    }
}
