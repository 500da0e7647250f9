//! The C++ output, end to end:
//!
//! - every example compiles (`plc compile`), and each orchestration file matches the
//!   expected `tests/snapshots/<name>/<name>.<entry>.cpp` (bless with `PLC_BLESS=1`; see
//!   `common/snapshot.rs`);
//! - every generated file compiles with the system `c++ -std=c++17 -Wall -Werror`;
//! - for the examples with a runnable entry, the harness build prints exactly what
//!   `plc run` prints, for two seeds;
//! - the seed's graph is recorded once and replayed LAYERS − 1 times.
//!
//! The C++ steps need a C++ compiler (`CXX`, default `c++`); without one they are skipped
//! with a message (CI has one). With `PLC_SANITIZE=1` (as CI runs them) the harnesses are
//! built with AddressSanitizer and UndefinedBehaviorSanitizer.

mod common;
#[path = "common/cxx_cache.rs"]
mod cxx_cache;
#[path = "common/runnable.rs"]
mod runnable;

use common::snapshot::{snapshot_dir, Snapshots};
use runnable::{Runnable, RUNNABLE};
use std::path::{Path, PathBuf};
use std::process::Command;

fn plc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_plc")).args(args).output().expect("plc runs")
}

fn cxx() -> Option<String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    Command::new(&cxx).arg("--version").output().ok().filter(|o| o.status.success()).map(|_| cxx)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The compiler `build.sh` runs: `cxx` behind the test's compiler cache, if any.
fn harness_cxx(cxx: &str) -> String {
    match cxx_cache::launcher() {
        Some(cache) => format!("{cache} {cxx}"),
        None => cxx.to_string(),
    }
}

/// The harness builds' `CXXFLAGS`: `-O1`, as `build.sh` defaults to; with `PLC_SANITIZE`
/// set (CI sets it), AddressSanitizer and UndefinedBehaviorSanitizer, any report failing
/// the program, at `-O0` (the sanitizers see the same faults there, and a sanitized build
/// takes about half as long to compile as at `-O1`: most of this test's time).
fn cxxflags() -> &'static str {
    match std::env::var("PLC_SANITIZE") {
        Ok(v) if !v.is_empty() && v != "0" => {
            "-O0 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        }
        _ => "-O1 -Wall -Wextra -Werror",
    }
}

fn examples() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir("examples")
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pl"))
        .collect();
    out.sort();
    out
}

/// The Orchestration functions of an example, after the pipeline.
fn entries(path: &Path) -> Vec<String> {
    let spec = plc::driver::PipelineSpec::default();
    let c = plc::driver::compile(plc::driver::Input::file(path), &spec, plc::driver::StopAt::End).expect("readable");
    let mut out = Vec::new();
    for p in &c.programs {
        for f in p.functions.values() {
            if f.decl.kind == plc::ir::FuncKind::Orchestration {
                out.push(c.session.interner.get(f.name).to_string());
            }
        }
    }
    out
}

#[test]
fn every_example_compiles_and_matches_its_expected_cpp() {
    let cxx = cxx();
    let mut snapshots = Snapshots::new();
    let mut failures = Vec::new();
    for path in examples() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let folder = snapshot_dir(&path);
        for entry in entries(&path) {
            let out_dir = temp_dir(&format!("{stem}-{entry}"));
            let out = plc(&["compile", path.to_str().unwrap(), "-o", out_dir.to_str().unwrap(), "--entry", &entry]);
            if !out.status.success() {
                let err = String::from_utf8_lossy(&out.stderr);
                // The distributed ops need a runtime with several ranks: not on the CPU.
                if !(stem.starts_with("distributed") && err.contains("E0601")) {
                    failures.push(format!("{stem} --entry {entry}: {err}"));
                }
                continue;
            }
            let got = std::fs::read_to_string(out_dir.join("orchestration").join(format!("{entry}.cpp"))).unwrap();
            snapshots.check(&folder.join(format!("{stem}.{entry}.cpp")), Some(&got));
            // Every file compiles on its own.
            let Some(cxx) = &cxx else { continue };
            let mut sources = vec![out_dir.join("orchestration").join(format!("{entry}.cpp"))];
            if let Ok(dir) = std::fs::read_dir(out_dir.join("kernels")) {
                let mut kernels: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
                kernels.sort();
                sources.extend(kernels);
            }
            for src in sources {
                let status = Command::new(cxx)
                    .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
                    .arg(format!("-I{}", out_dir.join("runtime").display()))
                    .arg(&src)
                    .output()
                    .expect("c++ runs");
                if !status.status.success() {
                    failures.push(format!(
                        "{} does not compile:\n{}",
                        src.display(),
                        String::from_utf8_lossy(&status.stderr)
                    ));
                }
            }
        }
        // An entry that is gone, or renamed, leaves a stale file.
        snapshots.check_no_others(&folder, |file| file.extension().is_some_and(|e| e == "cpp"));
    }
    if cxx.is_none() {
        eprintln!("no C++ compiler found: the generated files were not compiled");
    }
    if let Err(e) = snapshots.finish() {
        failures.push(e);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The source file of a runnable: an example by name, or a path with its folder.
fn source(r: &Runnable) -> String {
    if r.file.contains('/') {
        format!("{}.pl", r.file)
    } else {
        format!("examples/{}.pl", r.file)
    }
}

/// Builds the harness of one example; returns the program.
fn build(cxx: &str, r: &Runnable, tag: &str) -> PathBuf {
    let entry: String = r.entry.chars().take(40).collect();
    let out_dir = temp_dir(&format!("{tag}-{}-{entry}", r.file.replace('/', "_")));
    let file = source(r);
    let mut args = vec!["compile", &file, "-o", out_dir.to_str().unwrap(), "--entry", r.entry, "--harness"];
    for a in r.args {
        args.push("--arg");
        args.push(a);
    }
    let out = plc(&args);
    assert!(out.status.success(), "compile {}: {}", r.file, String::from_utf8_lossy(&out.stderr));
    let build = Command::new("sh")
        .arg(out_dir.join("build.sh"))
        .env("CXX", harness_cxx(cxx))
        .env("CXXFLAGS", cxxflags())
        .output()
        .expect("sh runs");
    assert!(build.status.success(), "build {}: {}", r.file, String::from_utf8_lossy(&build.stderr));
    out_dir.join("prog")
}

/// Runs a built harness; returns (stdout, stderr).
fn run(prog: &Path, r: &Runnable, seed: &str) -> (String, String) {
    let run = Command::new(prog).arg(seed).output().expect("prog runs");
    assert!(run.status.success(), "prog {}: {}", r.file, String::from_utf8_lossy(&run.stderr));
    (String::from_utf8_lossy(&run.stdout).to_string(), String::from_utf8_lossy(&run.stderr).to_string())
}

#[test]
fn the_harness_prints_what_plc_run_prints() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    for r in RUNNABLE {
        let prog = build(&cxx, r, "run");
        for seed in ["0", "7"] {
            let (got, _) = run(&prog, r, seed);
            let file = format!("examples/{}.pl", r.file);
            let mut args = vec!["run", &file, "--entry", r.entry, "--seed", seed];
            for a in r.args {
                args.push("--arg");
                args.push(a);
            }
            let expected = plc(&args);
            assert!(expected.status.success(), "plc run {}: {}", r.file, String::from_utf8_lossy(&expected.stderr));
            let expected = String::from_utf8_lossy(&expected.stdout).to_string();
            assert!(!expected.is_empty(), "plc run {} printed nothing", r.file);
            assert_eq!(got, expected, "{} --entry {} --seed {seed}", r.file, r.entry);
        }
    }
}

#[test]
fn the_seed_graph_is_recorded_once_and_replayed_for_the_other_layers() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    let prog = build(&cxx, &RUNNABLE[0], "seed");
    let (_, stderr) = run(&prog, &RUNNABLE[0], "0");
    // LAYERS = 4 in examples/accumulate_band.pl.
    assert!(stderr.contains("graph recordings=1 replays=3"), "{stderr}");
    let cpp = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile/seed-accumulate_band-entry/orchestration/entry.cpp"),
    )
    .unwrap();
    assert_eq!(cpp.matches("static void pypto_graph_accumulate_band(const GraphTaskArgs& args) {").count(), 1);
    assert!(cpp.contains("rt_submit_graph(&pypto_graph_accumulate_band, params_t0);"), "{cpp}");
    assert!(cpp.contains("const uint64_t& base = args.scalar(1);"), "{cpp}");
}

/// The harness poisons an entry's `Out` tensors as `plc run` does (simpler leaves them
/// undefined): what the program never writes prints as zeros and is counted on stderr, and
/// what a kernel computes from it stays undefined (zeros would make `copy` all ones).
#[test]
fn out_tensors_start_poisoned_as_in_plc_run() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    let cases = [
        (Runnable { file: "scalar_control_flow", entry: "main", args: &["which=2"] }, "14336 of the 16384", "out"),
        (
            Runnable { file: "tests/runs/undefined_read", entry: "read_before_write", args: &[] },
            "256 of the 256",
            "copy",
        ),
    ];
    for (r, count, name) in &cases {
        let prog = build(&cxx, r, "poison");
        let (got, stderr) = run(&prog, r, "0");
        let warning = format!(
            "plc runtime warning: {count} elements of the Out tensor `{name}` were never written: they print as 0"
        );
        assert!(stderr.contains(&warning), "{}: {stderr}", r.file);
        let file = source(r);
        let mut args = vec!["run", &file, "--entry", r.entry];
        for a in r.args {
            args.push("--arg");
            args.push(a);
        }
        let expected = plc(&args);
        assert_eq!(got, String::from_utf8_lossy(&expected.stdout), "{} --entry {}", r.file, r.entry);
    }
}

/// A view at a negative offset computed at run time (issue 15, item 12) fails the
/// compiled program as it fails `plc run`; the C++ cast the offset to `uint32_t`, which
/// made the view empty and the program print zeros.
#[test]
fn a_negative_view_offset_fails_the_harness_as_it_fails_plc_run() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    let r = Runnable { file: "tests/emit/run_time_view_errors", entry: "entry", args: &["k=-3"] };
    let prog = build(&cxx, &r, "negative");
    let run = Command::new(&prog).arg("3").output().expect("prog runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && stderr.contains("negative offset"), "{stderr}");
    let expected = plc(&["run", &source(&r), "--entry", "entry", "--arg", "k=-3"]);
    assert!(!expected.status.success());
    assert!(String::from_utf8_lossy(&expected.stderr).contains("E0801"));
}

/// `x` of tests/runs/orchestration_assembly.pl: 1..32.
const X32: &str = "x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]";

/// Programs of tests/emit/ whose C++ failed to build or ran differently (issue 15):
/// names of the runtime, of macros, of the kernel table's symbols and file, harness
/// variables that met, names of 250 characters (item 13, `hostile_names`); values the
/// program never reads (item 8, `unused_values`); Python's `**`, `//`, `%` and shifts on
/// negative numbers (items 9 and 12, `python_arith`, `scalar_control_flow` with
/// `which=-1`, which aborted); BF16 tiles rounded op by op (item 12, `bf16_rounding`);
/// the op families added for issue 11 (`op_families`, `system_ops`, `shaping_ops`,
/// `scatter_random`); tensors
/// given their elements with `--arg NAME=[...]` (`given_elements`); values merged from a tile
/// and a tensor view (`tile_view_merge`).
/// Each builds with -Wall -Wextra -Werror,
/// its file names are short, and the harness prints what `plc run` prints.
#[test]
fn emit_cases_build_cleanly_and_print_what_plc_run_prints() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    let long_entry = "e".repeat(250);
    let cases = [
        Runnable { file: "tests/emit/hostile_names", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/hostile_names", entry: Box::leak(long_entry.into_boxed_str()), args: &[] },
        Runnable { file: "tests/emit/unused_values", entry: "entry", args: &["n=5"] },
        Runnable { file: "tests/emit/python_arith", entry: "entry", args: &["base=3", "n=-7", "d=2"] },
        Runnable { file: "scalar_control_flow", entry: "main", args: &["which=-1"] },
        Runnable { file: "tests/emit/run_time_view_errors", entry: "entry", args: &["k=3"] },
        Runnable { file: "tests/emit/bf16_rounding", entry: "blend", args: &[] },
        Runnable {
            file: "tests/emit/given_elements",
            entry: "entry",
            args: &["config=[16, 3]", "lens=[1, 2, 0, 1]", "w=[0.5, -1, 0.333]"],
        },
        Runnable { file: "tests/emit/bf16_rounding", entry: "mixed", args: &[] },
        // A call's results kept as a whole tuple, copied and returned (PyPTO's manual_scope tests).
        Runnable { file: "tests/emit/tuple_results_whole", entry: "submitted", args: &[] },
        Runnable { file: "tests/emit/tuple_results_whole", entry: "called", args: &[] },
        // Undefined integer elements copied through tiles print as zeros in both (the poison's bits).
        Runnable { file: "tests/runs/undefined_read", entry: "round_trip_int", args: &[] },
        // The op families added for issue 11 (ops.md §5.1).
        Runnable { file: "op_families", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/system_ops", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/shaping_ops", entry: "entry", args: &[] },
        // The scatters, random numbers, reinterpreting views and dummy task of issue 11.
        Runnable { file: "scatter_random", entry: "entry", args: &[] },
        // The hints of PyPTO's newer releases (no CPU meaning) and `pl.task_id_of`.
        Runnable { file: "cache_hints", entry: "main", args: &[] },
        Runnable { file: "gather_scatter", entry: "entry", args: &[] },
        // The compare form of gather: two results, unpacked.
        Runnable { file: "tests/emit/gather_compare", entry: "entry", args: &[] },
        // A loop and an `if` merging a tile with a tensor view (PyPTO's qwen3_jit, 03_flash_attention).
        Runnable { file: "tile_view_merge", entry: "tiled_projection", args: &[] },
        // Kernel results whose extents are known only at run time (PyPTO's 03_mixed_kernel).
        Runnable {
            file: "run_time_result_shape",
            entry: "staged",
            args: &["a=64x128:FP32", "b=128x32:FP32", "bias=64x32:FP32", "out=64x32:FP32"],
        },
        Runnable { file: "run_time_result_shape", entry: "rows", args: &["x=64x32:FP32", "out=64x32:FP32"] },
        // The unified and promoted `pl.<name>` ops of ops.md §2.1 (tests/run.rs checks their values).
        Runnable { file: "tests/emit/ops_unified_math", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_unified_compare", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_system_pipes", entry: "main", args: &[] },
        // Every `pl.tensor.*` spelling of ops.md §2.2 with a CPU meaning (tests/run.rs checks the values).
        Runnable { file: "tests/emit/ops_tensor_elementwise", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_tensor_reduce", entry: "entry", args: &[] },
        // Row reductions of 3-D and 1-D operands keep the leading axes (and 3-D windows load whole).
        Runnable { file: "tests/emit/row_reduce_ranks", entry: "entry", args: &[] },
        // Column reductions of 3-D and 2-D operands: a tensor keeps the leading axes, a tile reduces the first.
        Runnable { file: "tests/emit/col_reduce_ranks", entry: "entry", args: &[] },
        // `tile.shl`/`shr` keep the left dtype; `pl.tensor.view(t, layout=DN)` swaps the last two axes.
        Runnable { file: "tests/emit/shift_and_view_layouts", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_tensor_shape", entry: "entry", args: &[] },
        // PyPTO's `pl.tile.*` spellings (ops.md §2.3), each result stored (issue 11).
        Runnable { file: "tests/emit/ops_tile_elementwise", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/part_broadcast", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_tile_reduce", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_tile_memory", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/ops_tile_pipes", entry: "main", args: &[] },
        // PTO-ISA's meaning (its CPU simulator): TREM/TREMS, TGATHER's bit copy, TMRGSORT of several lists.
        Runnable { file: "tests/emit/pto_isa_semantics", entry: "entry", args: &[] },
        Runnable { file: "tests/emit/mrgsort_format2", entry: "entry", args: &[] },
        // An `Out` tensor the program adds into (atomic stores) is staged like an `InOut` one.
        Runnable { file: "tests/runs/atomic_accumulate", entry: "main", args: &[] },
        Runnable { file: "tests/runs/atomic_accumulate", entry: "region", args: &[] },
        // A `pl.spmd` region with no arguments: a launch without directions (was E0708).
        Runnable { file: "tests/runs/spmd_without_arguments", entry: "main", args: &["a=[1,2,3,4]"] },
        // Tuples made in place in orchestration code (`rows, cols = a.shape`): was E0612.
        Runnable { file: "tests/runs/orchestration_tuple_unpack", entry: "main", args: &["a=[1,2,3,4,5,6,7,8]"] },
        // A 2-D tile stored into a 3-D window of as many elements (FlattenTileNdTo2D's form).
        Runnable { file: "tests/runs/flattened_tile_store", entry: "main", args: &[] },
        // `as_layout`/layout views flip only a layout the source lacks; a kernel reads a DN
        // parameter column-major from the view's start (`plc::as_dn_packed`).
        Runnable {
            file: "tests/runs/tensor_as_layout",
            entry: "main",
            args: &["a=[1,2,3,4,5,6,7,8]", "b=[1,2,3,4,5,6,7,8]"],
        },
        // Assemblies in orchestration code the runtime writes (a tensor made and assembled
        // once is a view of the target; a window of the target assembled back): was nothing
        // in the C++ for a made tensor, while `plc run` copied it.
        Runnable { file: "tests/runs/orchestration_assembly", entry: "created", args: &[X32] },
        Runnable { file: "tests/runs/orchestration_assembly", entry: "looped", args: &[X32] },
        Runnable { file: "tests/runs/orchestration_assembly", entry: "window", args: &[X32] },
        Runnable { file: "tests/runs/orchestration_assembly", entry: "region_result", args: &[X32] },
    ];
    for (i, r) in cases.iter().enumerate() {
        let prog = build(&cxx, r, &format!("emit{i}"));
        let dir = prog.parent().unwrap();
        let files: Vec<String> = ["kernels", "orchestration"]
            .iter()
            .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap())
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        assert!(files.iter().all(|f| f.len() <= 110), "{files:?}");
        let (got, _) = run(&prog, r, "3");
        let file = source(r);
        let mut args = vec!["run", &file, "--entry", r.entry, "--seed", "3"];
        for a in r.args {
            args.push("--arg");
            args.push(a);
        }
        let expected = plc(&args);
        assert!(expected.status.success(), "{}", String::from_utf8_lossy(&expected.stderr));
        assert_eq!(
            got,
            String::from_utf8_lossy(&expected.stdout),
            "{} --entry {}",
            r.file,
            &r.entry[..8.min(r.entry.len())]
        );
    }
}

/// A Group's kernels run together in the C++ as the runtime runs a mixed task (issue 11):
/// whatever order the Group calls them in (`reversed` calls the kernel that pops first;
/// `ping_pong` passes tiles to the cube and back, each kernel waiting on the other), the
/// harness prints what `plc run` prints. The pipes have `plc run`'s slots
/// (`tests/runs/pipe_slots.pl`): with two slots the cube waits for the vector kernel's frees
/// (`reuse`), with four it runs ahead (`ahead`), and the two print different sums. A Group
/// that cannot go on (two kernels that both pop before pushing, a producer whose consumer
/// never frees a slot, a fifth pop of four pushes), a free of a slot not held and two ends
/// that set a pipe up with different slot counts stop the
/// program with `plc run`'s words, as `plc run` stops with E0801, and do not hang it.
#[test]
fn a_groups_kernels_run_together_as_in_plc_run() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    let finishing = [
        ("tests/runs/group_kernels_together", "in_order"),
        ("tests/runs/group_kernels_together", "reversed"),
        ("tests/runs/group_kernels_together", "ping_pong"),
        ("tests/runs/pipe_slots", "reuse"),
        ("tests/runs/pipe_slots", "ahead"),
    ];
    let mut printed = Vec::new();
    for (file, entry) in finishing {
        let r = Runnable { file, entry, args: &[] };
        let prog = build(&cxx, &r, "group");
        let (got, _) = run(&prog, &r, "5");
        let expected = plc(&["run", &source(&r), "--entry", entry, "--seed", "5"]);
        assert!(expected.status.success(), "{}", String::from_utf8_lossy(&expected.stderr));
        assert_eq!(got, String::from_utf8_lossy(&expected.stdout), "{file} --entry {entry}");
        printed.push(got);
    }
    assert_ne!(printed[3], printed[4], "two slots and four slots schedule the same");
    let stopping = [
        ("tests/runs/group_kernels_together", "deadlock", "tpop: a deadlock"),
        ("tests/runs/pipe_slots", "deadlock", "tpop: a deadlock"),
        ("tests/runs/pipe_slots", "more_pops", "tpop: a deadlock"),
        ("tests/runs/pipe_slots", "free_twice", "tfree: without a tile to free"),
        ("tests/runs/pipe_slots", "mismatch", "initialize_pipe: pipe 0 is set up"),
    ];
    for (file, entry, what) in stopping {
        let r = Runnable { file, entry, args: &[] };
        let prog = build(&cxx, &r, "group");
        let mut child = Command::new(&prog)
            .arg("0")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("prog runs");
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("the program's status") {
                break status;
            }
            if start.elapsed() > std::time::Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{file} --entry {entry}: the Group hung instead of stopping");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().expect("piped"), &mut stderr).expect("stderr");
        assert!(!status.success(), "{file} --entry {entry}");
        // The words after the op's name are `plc run`'s.
        let expected = plc(&["run", &source(&r), "--entry", entry, "--message-format", "short"]);
        let expected = String::from_utf8_lossy(&expected.stderr).to_string();
        let (op, why) = what.split_once(": ").expect("op: words");
        let at = expected.find(why).unwrap_or_else(|| panic!("plc run's message lacks `{why}`: {expected}"));
        let line = format!("plc tile library: {op}: {}", expected[at..].lines().next().unwrap_or_default());
        assert!(stderr.contains(&line), "{file} --entry {entry}: expected `{line}` in\n{stderr}");
    }
}

/// A `pl.spmd(n)` region inside a kernel runs its body once per block index, in order, in
/// the C++ as in `plc run` (it was E0602): the loop form, the `with` form with values read
/// after the region, and a region in a region.
#[test]
fn an_spmd_region_in_a_kernel_runs_each_block_as_in_plc_run() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    for entry in ["halves", "rows", "nested"] {
        let r = Runnable { file: "tests/runs/spmd_region_in_kernel", entry, args: &[] };
        let prog = build(&cxx, &r, "spmd");
        let (got, _) = run(&prog, &r, "2");
        let expected = plc(&["run", &source(&r), "--entry", entry, "--seed", "2"]);
        assert!(expected.status.success(), "{}", String::from_utf8_lossy(&expected.stderr));
        assert!(!got.is_empty());
        assert_eq!(got, String::from_utf8_lossy(&expected.stdout), "--entry {entry}");
    }
}
