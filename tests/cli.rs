//! The `plc` binary as a user runs it: exit statuses, the three message formats, the dumps
//! and `plc explain`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn plc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the plc binary runs")
}

fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn check_accepts_the_seed_example() {
    let out = plc(&["check", "examples/accumulate_band.pl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty());
}

#[test]
fn two_syntax_errors_give_two_json_diagnostics() {
    let src = b"import pypto.language as pl\n\n@pl.jit\ndef f(x: pl.Tensor):\n    y = x +* 2\n    return y\n\n@pl.jit\ndef g(x: pl.Tensor):\n    z = pl.add(x x)\n    return z\n";
    let path = scratch("two_errors.pl", src);
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let diags: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(diags.len(), 2, "{text}");
    let lines: Vec<u64> = diags.iter().map(|d| d["span"]["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [5, 10]);
    for d in &diags {
        assert_eq!(d["severity"], "error");
        assert_eq!(d["code"], "E0101");
        assert!(d["file"].as_str().unwrap().ends_with("two_errors.pl"));
        for field in ["start", "end", "line", "column", "end_line", "end_column", "column_utf16", "end_column_utf16"] {
            assert!(d["span"][field].is_u64(), "span.{field} in {d}");
        }
        assert!(d["labels"].is_array() && d["notes"].is_array());
        assert!(d["message"].as_str().unwrap().starts_with("expected"));
    }
    assert_eq!(diags[0]["span"]["column"], 12);
    assert_eq!(diags[1]["span"]["column"], 18);
}

#[test]
fn json_columns_count_utf8_bytes_and_utf16_units() {
    // "é" is 2 UTF-8 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units.
    let path = scratch("utf16.pl", "x = \"é😀\" $\n".as_bytes());
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let diags: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let d = diags.iter().find(|d| d["code"] == "E0001").expect("the invalid character is reported");
    assert_eq!(d["span"]["column"], 14);
    assert_eq!(d["span"]["column_utf16"], 11);
}

#[test]
fn short_and_human_formats() {
    let path = scratch("short.pl", b"x = (1,\n");
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.ends_with("short.pl:1:5: error[E0007]: '(' was never closed\n"), "{err}");
    let out = plc(&["check", path.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(err.contains("error[E0007]: '(' was never closed"), "{err}");
    assert!(err.contains("1 │ x = (1,"), "the human form shows the source line: {err}");
}

#[test]
fn notes_do_not_fail_the_check() {
    let path =
        scratch("host.pl", b"import torch\nx = torch.zeros(3)\nif __name__ == \"__main__\":\n    print(f\"{x}\")\n");
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert_eq!(err.matches("note[N0001]").count(), 2, "{err}");
}

#[test]
fn older_spellings_warn_and_compile() {
    let src = b"import pypto.language as pl\n\n@pl.function(type=pl.FunctionType.Opaque)\ndef f(x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 1], pl.FP32]:\n    return pl.tensor.sum(x, axis=1)\n";
    let path = scratch("older.pl", src);
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("warning[W0001]") && err.contains("use pl.tensor.row_sum"), "{err}");
    let out = plc(&["explain", "W0001"]);
    assert!(stdout(&out).contains("pl.op.block"), "{}", stdout(&out));
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(plc(&["check", "no/such/file.pl"]).status.code(), Some(2));
    assert_eq!(plc(&["check"]).status.code(), Some(2));
    assert_eq!(plc(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(plc(&["check", "examples/accumulate_band.pl", "--message-format", "xml"]).status.code(), Some(2));
    assert_eq!(plc(&["explain", "E9999"]).status.code(), Some(2));
}

#[test]
fn explain_knows_every_code() {
    for info in plc::diag::CODES {
        let out = plc(&["explain", info.code.as_str()]);
        assert_eq!(out.status.code(), Some(0));
        let text = stdout(&out);
        assert!(text.starts_with(&format!("{}: {}", info.code, info.title)), "{text}");
    }
    // Lower case works too.
    assert_eq!(plc(&["explain", "e0104"]).status.code(), Some(0));
}

#[test]
fn emit_tokens_and_ast() {
    let out = plc(&["emit", "tokens", "examples/accumulate_band.pl"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("Indent@") && text.contains("Dedent@") && text.contains("Name@"), "{text}");
    let out = plc(&["emit", "ast", "examples/accumulate_band.pl"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with("Module\n") && text.contains("FunctionDef entry"), "{text}");
    // A file with errors still dumps what was parsed, and exits 1.
    let path = scratch("broken.pl", b"@pl.jit\ndef f(:\n    pass\ny = 1\n");
    let out = plc(&["emit", "ast", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("Assign"));
}

#[test]
fn a_misordered_pipeline_is_rejected_before_anything_runs() {
    // The file does not exist: the pipeline is checked first, so the error is E0403, not
    // an I/O failure.
    let out = plc(&[
        "emit",
        "ir",
        "no_such_file.pl",
        "--passes",
        "ConvertToSSA, OutlineGraphScopes",
        "--message-format",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        ["<pipeline>:1:15: error[E0403]: pass `OutlineGraphScopes` requires InlineFunctionsEliminated, which no earlier pass in the pipeline produces"],
        "{err}"
    );
    let out = plc(&["emit", "ir", "no_such_file.pl", "--passes", "InlineFunctions,ConvertToSSA,OutlineGraphScopes"]);
    assert_ne!(out.status.code(), Some(1), "a well-ordered pipeline gets as far as reading the file");
}

#[test]
fn unknown_pass_names_are_reported_where_they_are_written() {
    let out = plc(&[
        "emit",
        "ir",
        "examples/accumulate_band.pl",
        "--passes",
        "InlineFunctions,Inline",
        "--message-format",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("<pipeline>:1:17: error[E0404]: no pass is called `Inline`"), "{}", stderr(&out));
    let out = plc(&["emit", "ir", "examples/accumulate_band.pl", "--after", "Lower", "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[E0404]: no pass is called `Lower`"), "{}", stderr(&out));
}

#[test]
fn passes_lists_the_pipeline_with_its_properties() {
    let out = plc(&["passes"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(". ").map(|(_, rest)| rest.split_whitespace().next().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            "InlineFunctions",
            "ConvertToSSA",
            "OutlineHierarchyScopes",
            "OutlineGraphScopes",
            "OutlineIncoreScopes",
            "OutlineClusterScopes",
            "DeriveCallDirections",
            "LegalizeGraphBoundary"
        ]
    );
    assert!(text.contains("requires:    SSAForm, InlineFunctionsEliminated"), "{text}");
}

#[test]
fn check_reports_the_errors_of_the_passes_too() {
    // Lowering accepts the program; InlineFunctions finds the cycle.
    let out = plc(&["check", "tests/cases/errors/e0406_inline_cycle.pl", "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[E0406]"), "{}", stderr(&out));
    // A pipeline without InlineFunctions does not look for the cycle.
    let out = plc(&["check", "tests/cases/errors/e0406_inline_cycle.pl", "--passes", "ConvertToSSA"]);
    assert!(!stderr(&out).contains("E0406"), "{}", stderr(&out));
    let out =
        plc(&["check", "examples/accumulate_band.pl", "--passes", "OutlineGraphScopes", "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[E0403]"), "{}", stderr(&out));
}

#[test]
fn graph_replay_checks_warn_in_check_and_fail_compile() {
    // PyPTO's parser accepts a graph that returns a value it computed; only its pass for
    // the host_build_graph runtime refuses it. `plc check` warns, `plc compile` refuses.
    let file = "tests/cases/errors/e0509_graph_returns_computed_value.pl";
    let out = plc(&["check", file, "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning[E0509]"), "{}", stderr(&out));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-graph-replay");
    let out = plc(&["compile", file, "-o", dir.to_str().unwrap(), "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("error[E0509]"), "{}", stderr(&out));
    // `emit ir` prints the IR, which needs no replay: a warning, as for `check`, and the
    // printed program checks again.
    let out = plc(&["emit", "ir", "--verify", file, "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning[E0509]"), "{}", stderr(&out));
    let printed = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-graph-replay-printed.pl");
    std::fs::write(&printed, stdout(&out)).unwrap();
    let out = plc(&["check", printed.to_str().unwrap(), "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn emit_ir_runs_the_pipeline_unless_told_where_to_stop() {
    let out = plc(&["emit", "ir", "examples/accumulate_band.pl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("@pl.function(type=pl.FunctionType.Graph)\n    def accumulate_band("), "{text}");
    assert!(!text.contains("pl.graph("), "{text}");
    let out = plc(&["emit", "ir", "examples/accumulate_band.pl", "--after", "lower"]);
    assert!(stdout(&out).contains("with pl.graph(\"accumulate_band\"):"), "{}", stdout(&out));
    let out = plc(&["emit", "ir", "examples/accumulate_band.pl", "--after", "ConvertToSSA"]);
    assert!(stdout(&out).contains("acc__ssa_v0"), "{}", stdout(&out));
    assert!(stdout(&out).contains("with pl.graph("), "{}", stdout(&out));
}

#[test]
fn a_pipeline_missing_a_producer_is_rejected_before_anything_runs() {
    // DeriveCallDirections needs IncoreOutlined, which only OutlineIncoreScopes produces.
    let out = plc(&[
        "emit",
        "ir",
        "examples/accumulate_band.pl",
        "--passes",
        "InlineFunctions,ConvertToSSA,OutlineGraphScopes,DeriveCallDirections,LegalizeGraphBoundary",
        "--message-format",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("<pipeline>:1:49: error[E0403]: pass `DeriveCallDirections` requires IncoreOutlined"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty(), "nothing runs: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn time_passes_prints_each_stage_once_in_order() {
    let out = plc(&["check", "--time-passes", "examples/accumulate_band.pl"]);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    let stages: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("time: "))
        .map(|l| l.split("  ").next().unwrap_or("").trim())
        .collect();
    let mut expected = vec!["lower (parsing included)"];
    expected.extend(plc::passes::PASSES.iter().map(|p| p.name));
    expected.push("total");
    assert_eq!(stages, expected, "{err}");
}

/// `plc compile` errors: code, file, line and column, and nothing written.
fn compile_error(args: &[&str]) -> String {
    // One directory per call: tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-compile-error-{n}"));
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut all = vec!["compile"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", out_dir.to_str().unwrap(), "--message-format", "short"]);
    let out = plc(&all);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!out_dir.exists(), "nothing is written after an error");
    stderr(&out)
}

#[test]
fn compile_errors_name_their_place() {
    let err = compile_error(&["tests/emit/e0613_kernel_result_not_a_parameter.pl"]);
    assert!(err.starts_with("tests/emit/e0613_kernel_result_not_a_parameter.pl:14:9: error[E0613]: "), "{err}");
    // One error per misplaced op: the `if` merging its result is not an internal error (E0708).
    let err = compile_error(&["tests/emit/e0615_one_error_per_misplaced_op.pl"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("tests/emit/e0615_one_error_per_misplaced_op.pl:14:13: error[E0615]: "), "{err}");
    // A value computed in place as an assembly's source (`out[:] = pl.add(x, x)` outside
    // `pl.at`) was dropped without a word: the assembly only aliases its target.
    let err = compile_error(&["tests/emit/e0615_computed_assemble_source.pl"]);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        ["tests/emit/e0615_computed_assemble_source.pl:10:14: error[E0615]: `tensor.add` computes on data, which orchestration code cannot do: put it inside a `pl.at(level=pl.Level.CORE_GROUP)` region or a kernel"],
        "{err}"
    );
    // A launch of an Opaque "auto_tile" function checks, but plc has no AutoTile pass: one
    // E0610 at the launch, its value and task id not errors of their own (they were an
    // E0612 each, then an internal error).
    let err = compile_error(&["tests/emit/e0610_submit_of_opaque.pl"]);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        ["tests/emit/e0610_submit_of_opaque.pl:22:23: error[E0610]: `tiled` is an Opaque function: plc cannot launch it, as it has no pass that makes it a kernel (PyPTO's AutoTile); write it as an InCore function, or its body in a `pl.at(level=pl.Level.CORE_GROUP)` region"],
        "{err}"
    );
    // Issue 11: the tensor layouts the C++ has no form for, each named at its op (as
    // `plc run` names them, tests/runs/layouts_without_cpu_form.run).
    let file = "tests/runs/layouts_without_cpu_form.pl";
    for (entry, at) in [("nz_weight", "18:9"), ("mx_scales", "31:9"), ("reshape_dn", "51:5"), ("reshape_to_dn", "67:5")]
    {
        let err = compile_error(&[file, "--entry", entry]);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("{file}:{at}: error[E0601]: ")), "{err}");
    }
    let err = compile_error(&[file, "--entry", "nz_weight", "--target", "a2a3sim", "--kernels", "pto-isa"]);
    assert!(err.starts_with(&format!("{file}:18:9: error[E0620]: `pl.load` (a tensor in the NZ layout")), "{err}");
    // A DN view handed to a kernel's ND parameter: one E0601 at the launch.
    let err = compile_error(&["tests/runs/tensor_as_layout.pl", "--entry", "dn_for_nd"]);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        ["tests/runs/tensor_as_layout.pl:79:15: error[E0601]: this launch of `first_of_plain` has no CPU form: a DN tensor handed to an ND parameter: the kernel would read the storage row-major from the view's start, not the transposed values; declare the parameter DN (pl.TensorView(stride=..., layout=pl.TensorLayout.DN)) or pass the ND tensor"],
        "{err}"
    );
    // The PTO-ISA kernels address a tensor through its strides: a DN parameter is refused.
    let err = compile_error(&[
        "tests/runs/tensor_as_layout.pl",
        "--entry",
        "main",
        "--target",
        "a2a3sim",
        "--kernels",
        "pto-isa",
    ]);
    assert!(
        err.starts_with(
            "tests/runs/tensor_as_layout.pl:24:9: error[E0620]: a DN tensor parameter has no PTO-ISA form yet"
        ),
        "{err}"
    );
    // Issue 15, item 15: the runtime's limits of a task, at compile time.
    let err = compile_error(&["tests/emit/e0618_too_many_task_arguments.pl"]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "tests/emit/e0618_too_many_task_arguments.pl:8:5: error[E0618]: kernel `many_scalars` takes 17 scalar arguments: a task takes at most 16 scalars",
            "tests/emit/e0618_too_many_task_arguments.pl:15:5: error[E0618]: kernel `many_tensors` takes 33 tensor arguments: a task takes at most 32 tensors",
        ],
        "{err}"
    );
    // Issue 13: the PTO-ISA backend's errors.
    let err = compile_error(&["tests/emit/pto_isa_errors.pl", "--target", "a2a3sim", "--kernels", "pto-isa"]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            // The front end's warnings come before the emitter's errors.
            "tests/emit/pto_isa_errors.pl:42:5: warning[E0414]: the `Out` tensor `c` is not written whole",
            "tests/emit/pto_isa_errors.pl:11:14: error[E0620]: `pl.sin` (tile.sin: sin and cos have no vector instruction; they are not expanded yet) has no PTO-ISA form yet (kernel `sines`)",
            "tests/emit/pto_isa_errors.pl:18:9: error[E0621]: tile `u` does not fit: with the tiles live at the same time it needs 393216 bytes of the unified buffer (UB), which holds 196608: `t` 131072 B, `u` 131072 B, `t_1` 131072 B",
            "tests/emit/pto_isa_errors.pl:25:9: error[E0622]: a vector tile's rows must be a multiple of 32 bytes: 16x4 of FP32 has rows of 16 bytes",
            "tests/emit/pto_isa_errors.pl:33:14: error[E0622]: a one-column vector tile is column-major and its column must be a multiple of 32 bytes: 4x1 of FP32 has a column of 16 bytes",
        ],
        "{err}"
    );
    // The default kernels compile it.
    let out_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-pto-default");
    let ok = plc(&["compile", "tests/emit/pto_isa_errors.pl", "--target", "a2a3sim", "-o", out_dir.to_str().unwrap()]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    // PTO-ISA kernels are for a2a3sim only: a usage error otherwise.
    let bad =
        plc(&["compile", "tests/emit/pto_isa_errors.pl", "--kernels", "pto-isa", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    let err = compile_error(&["examples/standalone_functions.pl", "--entry", "nothing"]);
    assert!(err.starts_with("examples/standalone_functions.pl:1:1: error[E0616]: "), "{err}");
    let err = compile_error(&["examples/accumulate_band.pl", "--harness", "--arg", "w=512x128"]);
    assert_eq!(
        err.trim_end(),
        "examples/accumulate_band.pl:12:25: error[E0617]: the shape of tensor parameter `acc` is known only at run time: give `--arg acc=DIMxDIM[:DTYPE]`"
    );
}

/// Issue 15, item 16: `compile --harness` checks `--arg` shapes against the declared rank,
/// constant extents and dtype, as `plc run` does: a usage error (E0811, exit status 2)
/// naming the parameter.
#[test]
fn harness_args_must_fit_the_declared_types() {
    let file = "tests/emit/declared_arg_shapes.pl";
    let out_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("declared_arg_shapes");
    let _ = std::fs::remove_dir_all(&out_dir);
    for (arg, message) in [
        ("x=16x64x2", "`--arg x=16x64x2`: `x` is declared with rank 2 ([N, 64]), the shape given has rank 3"),
        ("x=16", "`--arg x=16`: `x` is declared with rank 2 ([N, 64]), the shape given has rank 1"),
        ("x=16x32", "`--arg x=16x32`: `x` is declared with the shape [N, 64]; dimension 1 given is 32"),
        ("x=16x64:INT32", "`--arg x=16x64:INT32`: `x` is declared FP32, not INT32"),
    ] {
        let args =
            ["compile", file, "-o", out_dir.to_str().unwrap(), "--harness", "--message-format", "short", "--arg", arg];
        let out = plc(&[&args[..], &["--arg", "out=16x64"]].concat());
        assert_eq!(out.status.code(), Some(2), "{arg}: {}", stderr(&out));
        assert_eq!(stderr(&out).trim_end(), format!("{file}:11:11: error[E0811]: {message}"));
        assert!(!out_dir.exists(), "nothing is written after an error");
        let run = plc(&["run", file, "--entry", "entry", "--arg", arg, "--arg", "out=16x64"]);
        assert_eq!(run.status.code(), Some(2), "plc run --arg {arg}: {}", stderr(&run));
    }
    let ok =
        plc(&["compile", file, "-o", out_dir.to_str().unwrap(), "--harness", "--arg", "x=16x64", "--arg", "out=16x64"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

/// A tensor's elements given on the command line (`--arg config=[16, 3]`): `plc run` and
/// `compile --harness` check the count against the declared shape, each element against
/// the dtype, and refuse elements for an `Out` tensor, with the same usage error (E0811).
#[test]
fn given_elements_must_fit_the_declared_types() {
    let file = "tests/emit/given_elements.pl";
    let out_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("given_elements");
    let _ = std::fs::remove_dir_all(&out_dir);
    let fine = ["--arg", "lens=[1, 2]", "--arg", "w=[0.5, -1, 0.25]"];
    for (arg, line_col, message) in [
        ("config=[16, 3, 4]", "15:5", "`config` has 2 elements, 3 are given"),
        ("config=[1.5, 2]", "15:5", "`1.5` is not an integer, as INT64 needs"),
        ("config=[1, 2", "15:5", "a list of elements ends with `]`"),
        ("out=[1, 2]", "19:5", "`out` has 512 elements, 2 are given"),
    ] {
        let args = ["compile", file, "-o", out_dir.to_str().unwrap(), "--harness", "--message-format", "short"];
        let given =
            if arg.starts_with("config") { vec!["--arg", arg] } else { vec!["--arg", "config=[1, 2]", "--arg", arg] };
        let out = plc(&[&args[..], &fine, &given].concat());
        assert_eq!(out.status.code(), Some(2), "{arg}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with(&format!("{file}:{line_col}: error[E0")), "{arg}: {err}");
        assert!(err.contains(message), "{arg}: {err}");
        assert!(!out_dir.exists(), "nothing is written after an error");
        let run = plc(&[&["run", file, "--entry", "entry", "--message-format", "short"][..], &fine, &given].concat());
        assert_eq!(run.status.code(), Some(2), "plc run --arg {arg}: {}", stderr(&run));
        assert!(stderr(&run).contains("error[E0811]") && stderr(&run).contains(message), "{}", stderr(&run));
    }
    // An Out tensor starts undefined: it takes a shape, never elements.
    let file = "examples/scalar_control_flow.pl";
    let message = "`out` is an Out tensor, which starts undefined: give its shape, not its elements";
    let args = ["--entry", "main", "--arg", "which=1", "--arg", "out=[1]", "--message-format", "short"];
    let run = plc(&[&["run", file][..], &args].concat());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    // After the warning that `out` may not be written whole (E0414).
    let first_error = |text: String| text.lines().find(|l| l.contains(": error[")).unwrap_or_default().to_string();
    assert!(first_error(stderr(&run)).starts_with("<command line>:1:34: error[E0811]: "), "{}", stderr(&run));
    assert!(stderr(&run).contains(message), "{}", stderr(&run));
    let compile = plc(&[&["compile", file, "-o", out_dir.to_str().unwrap(), "--harness"][..], &args].concat());
    assert_eq!(compile.status.code(), Some(2), "{}", stderr(&compile));
    assert!(first_error(stderr(&compile)).starts_with(&format!("{file}:26:9: error[E0811]: ")), "{}", stderr(&compile));
    assert!(stderr(&compile).contains(message), "{}", stderr(&compile));
}

/// A file that cannot be read or written: exit status 2, and the message says which
/// operation failed on which file.
#[test]
fn io_failures_name_the_operation_and_the_file() {
    let out = plc(&["check", "no/such/file.pl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error: cannot read `no/such/file.pl`: "), "{}", stderr(&out));

    // `-o` under a regular file: its directories cannot be created.
    let blocker = scratch("not_a_directory", b"a regular file\n");
    let out_dir = blocker.join("out");
    let out = plc(&["compile", "examples/accumulate_band.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let expected = format!("error: cannot create directory `{}", out_dir.display());
    assert!(err.starts_with(&expected) && err.lines().count() == 1, "{err}");

    // A write that fails (a full disk, here the file-size limit): the file and the
    // operation are named, and the output of the run before is left as it was.
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-write-failure").join("out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let ok = plc(&["compile", "examples/elementwise_scale_add.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let before = tree(&out_dir);
    let out = limited_compile("trap '' XFSZ; ulimit -f 1", "examples/accumulate_band.pl", &out_dir);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let expected = format!("error: cannot write `{}", out_dir.display());
    assert!(err.starts_with(&expected) && err.contains("File too large") && err.lines().count() == 1, "{err}");
    assert!(!err.contains("cannot read"), "{err}");
    assert_eq!(tree(&out_dir), before, "the previous output is untouched");
    assert_eq!(leftovers(&out_dir), Vec::<String>::new());
}

/// Every file under `dir` with its content, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// What plc left beside an output directory other than its lock file.
fn leftovers(dir: &Path) -> Vec<String> {
    let name = dir.file_name().unwrap().to_str().unwrap();
    let lock = format!(".{name}.plc-lock");
    let mut found: Vec<String> = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().to_string())
        .filter(|n| n.starts_with(&format!(".{name}.")) && *n != lock)
        .collect();
    found.sort();
    found
}

/// `plc compile FILE -o DIR` run by `sh` after the shell commands `limits`.
fn limited_compile(limits: &str, file: &str, dir: &Path) -> Output {
    Command::new("sh")
        .args(["-c", &format!("{limits}; exec \"$0\" \"$@\""), env!("CARGO_BIN_EXE_plc")])
        .args(["compile", file, "-o", dir.to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

#[test]
fn long_sums_compile_and_deep_nesting_is_an_error_not_a_crash() {
    // A flat sum of thousands of terms is one level of nesting, as in CPython.
    let sum = vec!["n"; 5_000].join(" + ");
    let src = format!(
        "import pypto.language as pl\n\n\n@pl.jit\ndef f(x: pl.Tensor[[32, 64], pl.FP32], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]], n: pl.INDEX):\n    s = {sum}\n    gain = 1.0 / (s + 1)\n    with pl.at(level=pl.Level.CORE_GROUP):\n        t = pl.load(x, [0, 0], [32, 64])\n        pl.store(pl.mul(t, gain), [0, 0], out)\n    return out\n"
    );
    let path = scratch("long_sum.pl", src.as_bytes());
    let out = plc(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = plc(&["run", path.to_str().unwrap(), "--entry", "f", "--arg", "n=1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("out: shape=[32, 64] dtype=FP32 sum="), "{}", stdout(&out));
    // The reproducers of the stack overflows: errors with a position.
    let n = 100_000;
    for (name, value, column) in [
        ("deep_sum.pl", vec!["1"; 11_500].join("+"), 5),
        ("deep_list.pl", format!("{}1{}", "[".repeat(n), "]".repeat(n)), n - 200 + 5),
        ("deep_minus.pl", format!("{}1", "-".repeat(20_000)), 20_000 - 200 + 5),
        ("deep_not.pl", format!("{}1", "not ".repeat(20_000)), 4 * (20_000 - 200) + 5),
    ] {
        let path = scratch(name, format!("import pypto.language as pl\nX = {value}\n").as_bytes());
        let out = plc(&["check", path.to_str().unwrap(), "--message-format", "short"]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        let expected = format!("{}:2:{column}: error[E0120]: ", path.display());
        assert!(stderr(&out).starts_with(&expected), "{name}: {}", stderr(&out));
    }
}

/// Runs plc with a deadline: a run still going after it is killed and fails the test
/// (plc used to wait forever on a FIFO and read `/dev/zero` until memory ran out).
fn plc_in_time(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the plc binary runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("plc {args:?} did not finish in 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn devices_and_fifos_are_refused_without_reading() {
    for command in
        [&["check", "/dev/zero"][..], &["compile", "/dev/zero", "-o", "unused-out"], &["emit", "ast", "/dev/zero"]]
    {
        let out = plc_in_time(command);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "error: cannot read `/dev/zero`: it is a character device, not a regular file\n");
    }
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("unused-out").exists());
    // A FIFO nobody writes to: refused at once, not waited on.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-fifo");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("prog.pl");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let out = plc_in_time(&["check", fifo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let expected = format!("error: cannot read `{}`: it is a FIFO (named pipe), not a regular file\n", fifo.display());
    assert_eq!(stderr(&out), expected);
    // A directory.
    let out = plc_in_time(&["check", dir.to_str().unwrap()]);
    assert_eq!(
        stderr(&out),
        format!("error: cannot read `{}`: it is a directory, not a regular file\n", dir.display())
    );
}

#[test]
fn a_file_over_4_gib_is_refused_without_reading_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-big");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.pl");
    // Sparse: no disk space is used.
    std::fs::File::create(&big).unwrap().set_len(4_500_000_000).unwrap();
    // With 3 GB of address space, reading the file whole cannot succeed.
    let out = Command::new("sh")
        .args(["-c", "ulimit -v 3000000 && exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_plc")])
        .args(["check", "--message-format", "short", big.to_str().unwrap()])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&big);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let expected = format!(
        "{}:1:1: error[E0014]: the file is 4500000000 bytes long; plc reads files of up to 4 GiB\n",
        big.display()
    );
    assert_eq!(stderr(&out), expected);
}

#[test]
fn thousands_of_errors_on_one_line_are_capped_in_every_format() {
    let n = 3_000;
    let path = scratch("closers.pl", format!("x = 1{}\n", ")".repeat(n)).as_bytes());
    let cap = plc::diag::MAX_REPEATS;
    let more = format!("\u{2026} and {} more like this", n - cap);
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.matches("error[E0008]").count(), cap, "{}", &err[..err.len().min(2000)]);
    let summary = format!("{}:1:{}: note[E0008]: {more}\n", path.display(), 6 + cap);
    assert!(err.ends_with(&summary), "{}", &err[err.len().saturating_sub(500)..]);
    // The human form shows the 3 000-column line once per shown diagnostic: its size is
    // bounded by the cap, not by the number of errors (it was 13.8 MB).
    let out = plc(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.matches("error[E0008]").count(), cap);
    assert_eq!(err.matches(&more).count(), 1);
    assert!(err.len() < (cap + 1) * 3 * (n + 100), "{} bytes", err.len());
    let out = plc(&["check", path.to_str().unwrap(), "--message-format", "json"]);
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), cap + 1);
    assert_eq!(lines[cap]["severity"], "note");
    assert_eq!(lines[cap]["message"], more.as_str());
}

/// The output directory is one set of files: a new compile replaces plc's files (and drops
/// its stale ones) and keeps the user's; a file whose content is the same keeps its
/// modification time.
#[test]
fn compile_publishes_the_whole_set_and_keeps_the_users_files() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-publish").join("out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let compile = |file: &str| {
        let out = plc(&["compile", file, "-o", out_dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    compile("examples/elementwise_scale_add.pl");
    assert!(out_dir.join("orchestration/scale_add.cpp").is_file());
    std::fs::write(out_dir.join("notes.txt"), "mine\n").unwrap();
    std::fs::write(out_dir.join("kernels/mine.cpp"), "// mine\n").unwrap();
    let runtime = out_dir.join("runtime/pto_tile.h");
    let modified = std::fs::metadata(&runtime).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    compile("examples/accumulate_band.pl");
    let files: Vec<String> = tree(&out_dir).into_iter().map(|(rel, _)| rel).collect();
    assert!(files.contains(&"orchestration/entry.cpp".to_string()), "{files:?}");
    assert!(!files.contains(&"orchestration/scale_add.cpp".to_string()), "stale output dropped: {files:?}");
    assert!(!files.iter().any(|f| f.contains("scale_add")), "{files:?}");
    assert_eq!(std::fs::read_to_string(out_dir.join("notes.txt")).unwrap(), "mine\n");
    assert_eq!(std::fs::read_to_string(out_dir.join("kernels/mine.cpp")).unwrap(), "// mine\n");
    assert_eq!(std::fs::metadata(&runtime).unwrap().modified().unwrap(), modified, "unchanged file kept");
    assert_eq!(leftovers(&out_dir), Vec::<String>::new());
    // The current directory (or one holding it) cannot be replaced.
    let out = Command::new(env!("CARGO_BIN_EXE_plc"))
        .args(["compile", Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/accumulate_band.pl").to_str().unwrap()])
        .args(["-o", "."])
        .current_dir(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: cannot write `.`: it is (or holds) the current directory"),
        "{}",
        stderr(&out)
    );
}

/// A run killed while it writes (here by the file-size limit's signal) leaves the previous
/// output whole; the next run removes what the killed one staged.
#[test]
fn a_killed_compile_leaves_the_previous_output_whole() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-killed").join("out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let ok = plc(&["compile", "examples/elementwise_scale_add.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let before = tree(&out_dir);
    let out = limited_compile("ulimit -f 1", "examples/accumulate_band.pl", &out_dir);
    assert_eq!(out.status.code(), None, "killed by SIGXFSZ: {}", stderr(&out));
    assert_eq!(tree(&out_dir), before);
    assert_eq!(leftovers(&out_dir).len(), 1, "the killed run's staging directory");
    let ok = plc(&["compile", "examples/accumulate_band.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert_eq!(leftovers(&out_dir), Vec::<String>::new());
    assert!(out_dir.join("orchestration/entry.cpp").is_file());
}

/// Two runs into one directory at once: afterwards the directory holds exactly one run's
/// files, never a mix.
#[test]
fn concurrent_compiles_into_one_directory_leave_one_whole_set() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-concurrent");
    let _ = std::fs::remove_dir_all(&root);
    let sets: Vec<Vec<(String, Vec<u8>)>> = ["examples/elementwise_scale_add.pl", "examples/accumulate_band.pl"]
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let dir = root.join(format!("reference{i}"));
            assert_eq!(plc(&["compile", file, "-o", dir.to_str().unwrap()]).status.code(), Some(0));
            tree(&dir)
        })
        .collect();
    let out_dir = root.join("out");
    for round in 0..8 {
        let runs: Vec<std::process::Child> = ["examples/elementwise_scale_add.pl", "examples/accumulate_band.pl"]
            .iter()
            .map(|file| {
                Command::new(env!("CARGO_BIN_EXE_plc"))
                    .args(["compile", file, "-o", out_dir.to_str().unwrap()])
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for run in runs {
            let out = run.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "round {round}: {}", stderr(&out));
        }
        let now = tree(&out_dir);
        assert!(
            sets.contains(&now),
            "round {round}: a mix of both runs: {:?}",
            now.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        assert_eq!(leftovers(&out_dir), Vec::<String>::new());
    }
}

/// A FIFO left in the old output under the name of a file plc writes is not read as the
/// old file (which would wait for a writer): the new file replaces it at once.
#[test]
fn a_fifo_in_the_old_output_is_replaced_without_waiting() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-old-fifo").join("out");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(out_dir.join("orchestration")).unwrap();
    let fifo = out_dir.join("orchestration/entry.cpp");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let out = plc_in_time(&["compile", "examples/accumulate_band.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&fifo).unwrap().is_file(), "the FIFO was replaced by the file");
    assert_eq!(leftovers(&out_dir), Vec::<String>::new());
}

/// A symbolic link planted where plc used to write a temporary file, or as the lock file,
/// is never written through.
#[test]
fn planted_symlinks_are_not_followed() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-symlinks");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("out/kernels")).unwrap();
    let victim = root.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    for planted in ["kernel_config.json.plc-tmp", "kernels/kernel_table.cpp.plc-tmp", "kernel_config.json"] {
        std::os::unix::fs::symlink(&victim, root.join("out").join(planted)).unwrap();
    }
    let out_dir = root.join("out");
    let out = plc(&["compile", "examples/accumulate_band.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let config = std::fs::symlink_metadata(out_dir.join("kernel_config.json")).unwrap();
    assert!(config.is_file(), "the planted link was replaced by the real file");
    // The lock file is opened without following a link: refused, nothing written.
    let out_dir = root.join("locked");
    std::os::unix::fs::symlink(&victim, root.join(".locked.plc-lock")).unwrap();
    let out = plc(&["compile", "examples/accumulate_band.pl", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let expected = format!("error: cannot lock `{}`", root.join(".locked.plc-lock").display());
    assert!(stderr(&out).starts_with(&expected), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

/// Names are NFKC-normalised as Python normalises them: `𝑏𝑎𝑠𝑒` (mathematical italic)
/// and `base` are one name, `ﬁle` (a ligature) and `file` too.
#[test]
fn names_are_one_name_after_nfkc_normalisation() {
    let src = "import pypto.language as pl\n\n𝑅𝑂𝑊𝑆 = 64\n\n\n@pl.jit\ndef f(x: pl.Tensor[[ROWS], pl.FP32], ﬁle: pl.Out[pl.Tensor[[ROWS], pl.FP32]]):\n    𝑏𝑎𝑠𝑒 = pl.add(x, x)\n    file = pl.add(base, x)\n    return ﬁle\n";
    let path = scratch("nfkc.pl", src.as_bytes());
    let out = plc(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = plc(&["emit", "ir", "--after", "lower", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ir = stdout(&out);
    assert!(ir.contains("base = pl.add(x, x)") && ir.contains("file = pl.add(base, x)"), "{ir}");
    assert!(ir.contains("pl.Tensor[[64], pl.FP32]") && !ir.contains('𝑏'), "{ir}");
}

/// The E0003 span is the invalid bytes of the file: it never ends past the end of the
/// file, and its end line and column agree with its end offset.
#[test]
fn invalid_utf8_is_reported_at_its_bytes() {
    for (bytes, start, end, line, end_column) in [
        (&b"\xff"[..], 0, 1, 1, 2),
        (b"x = 1\n\xe2\x82", 6, 8, 2, 3),
        (b"x\n\xe2\x82\ny = 2\n", 2, 4, 2, 3),
        (b"ab\xf0\x9f\n", 2, 4, 1, 5),
    ] {
        let path = scratch("invalid_utf8.pl", bytes);
        let out = plc(&["check", path.to_str().unwrap(), "--message-format", "json"]);
        let d: serde_json::Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
        assert_eq!(d["code"], "E0003");
        let span = &d["span"];
        let got = (&span["start"], &span["end"], &span["line"], &span["end_line"], &span["end_column"]);
        assert_eq!(got, (&json(start), &json(end), &json(line), &json(line), &json(end_column)), "{bytes:?}");
        assert!(end <= bytes.len() as u64);
    }
}

fn json(n: u64) -> serde_json::Value {
    serde_json::Value::from(n)
}

#[test]
fn chained_constants_and_math_constants_lower_and_print_back() {
    let src = r#"import math
from math import pi
import pypto.language as pl

TR = TC = 128
LOW = -math.inf


@pl.program
class Program:
    @pl.function(type=pl.FunctionType.InCore)
    def clamp(
        self, x: pl.Tensor[[TR, TC], pl.FP32], out: pl.Out[pl.Tensor[[TR, TC], pl.FP32]]
    ) -> pl.Tensor[[TR, TC], pl.FP32]:
        t = pl.load(x, [0, 0], [TR, TC])
        u = pl.maxs(t, LOW)
        v = pl.muls(u, pi)
        w = pl.mins(v, math.inf)
        out = pl.store(w, [0, 0], out)
        return out
"#;
    let path = scratch("math_constants.pl", src.as_bytes());
    let out = plc(&["emit", "ir", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = stdout(&out);
    assert!(stderr(&out).is_empty(), "no note for `import math`: {}", stderr(&out));
    for line in [
        "def clamp(self, x__ssa_v0: pl.Tensor[[128, 128], pl.FP32]",
        "pl.maxs(t__ssa_v0, float(\"-inf\"))",
        "pl.muls(u__ssa_v0, 3.141592653589793)",
        "pl.mins(v__ssa_v0, float(\"inf\"))",
    ] {
        assert!(printed.contains(line), "missing `{line}` in\n{printed}");
    }
    // The printed IR is pl source that lowers to itself.
    let again = scratch("math_constants_printed.pl", printed.as_bytes());
    let out = plc(&["emit", "ir", again.to_str().unwrap()]);
    assert_eq!(stdout(&out), printed, "{}", stderr(&out));
}

/// `--factory` chooses the call of a program factory that `check`, `emit ir`, `run` and
/// `compile` evaluate; without it, the first call in `main()` is used and the note says so.
/// The C++ output names the call (a comment and `kernel_config.json`'s `built_by`).
#[test]
fn factory_option_selects_the_configuration() {
    let file = "examples/program_factory.pl";
    let other = "BuildRowScale(batch=4, cols=128, precise=False)";
    let default = plc(&["check", file]);
    assert_eq!(default.status.code(), Some(0), "{}", stderr(&default));
    assert!(stderr(&default).contains("compiled as `BuildRowScale(batch=2, cols=32, precise=True)`"));
    assert!(stderr(&default).contains(&format!("select it with `--factory '{other}'`")), "{}", stderr(&default));

    let ir = |args: &[&str]| {
        let out = plc(&[&["emit", "ir", file, "--after", "lower"], args].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    assert!(ir(&[]).contains("pl.Tensor[[32, 32], pl.FP32]"));
    let chosen = ir(&["--factory", other]);
    assert!(chosen.contains("pl.Tensor[[64, 128], pl.FP32]") && chosen.contains("0.5"), "{chosen}");

    let run = |args: &[&str]| {
        let out = plc(&[&["run", file, "--entry", "run"], args].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    assert!(run(&[]).starts_with("out: shape=[32, 32]"));
    assert!(run(&["--factory", other]).starts_with("out: shape=[64, 128]"));

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-factory-out");
    let _ = std::fs::remove_dir_all(&dir);
    let out = plc(&["compile", file, "-o", dir.to_str().unwrap(), "--factory", other]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let kernel = std::fs::read_to_string(dir.join("kernels/scale_rows.cpp")).unwrap();
    assert!(kernel.contains("128"), "{kernel}");
    // The output names the configuration it was built for.
    let orchestration = std::fs::read_to_string(dir.join("orchestration/run.cpp")).unwrap();
    assert!(orchestration.contains(&format!("// Program built by {other}\n")), "{orchestration}");
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("kernel_config.json")).unwrap()).unwrap();
    assert_eq!(config["built_by"], other);
}

/// Errors in the `--factory` text point into it (the file `<--factory>`); an argument that
/// makes a shape invalid is reported at the annotation, with the call as a secondary label.
#[test]
fn factory_option_errors_point_into_the_call() {
    let file = "examples/program_factory.pl";
    let short = |call: &str| {
        let out = plc(&["check", file, "--factory", call, "--message-format", "short"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        stderr(&out)
    };
    assert!(short("BuildRowScale(cols=32)").contains("<--factory>:1:1: error[E0231]"));
    assert!(short("BuildRowScale(2, colz=32)").contains("<--factory>:1:18: error[E0231]"));
    assert!(short("Missing(2)").contains("<--factory>:1:1: error[E0231]: `Missing` is not a program factory"));
    assert!(short("BuildRowScale(2, cols=24)").contains("program_factory.pl:30:5: error[E0232]"));
    let out = plc(&["check", file, "--factory", "BuildRowScale(batch=-1)"]);
    let human = stderr(&out);
    assert!(human.contains("error[E0229]"), "{human}");
    assert!(human.contains("in the program built by `BuildRowScale(batch=-1, cols=64, precise=True)`"), "{human}");
}

#[path = "../benches/support/seed.rs"]
mod seed;

/// The emitters and the file writes run in parallel, and the output is a serial run's:
/// gen(300) (300 entries, more than one batch of entries emitted in parallel, and 300
/// kernels) compiled on one thread and on four threads is the same set of files, byte for
/// byte (the kernels' func_ids among them, numbered across the entries' files). Compiled again, no file is rewritten: each keeps its
/// modification time, so build systems see no change.
#[test]
fn compile_output_is_the_same_on_one_thread_and_on_four_and_unchanged_files_are_kept() {
    let src = scratch("gen300.pl", seed::gen(300).as_bytes());
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-threads");
    let _ = std::fs::remove_dir_all(&base);
    let compile = |threads: &str, dir: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_plc"))
            .args(["compile", src.to_str().unwrap(), "-o", dir.to_str().unwrap()])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("the plc binary runs");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    let (one, four) = (base.join("one"), base.join("four"));
    compile("1", &one);
    compile("4", &four);
    let (serial, parallel) = (tree(&one), tree(&four));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(rel, _)| rel.clone()).collect::<Vec<_>>();
    assert_eq!(names(&serial), names(&parallel));
    assert!(serial.iter().filter(|(rel, _)| rel.starts_with("kernels/")).count() > 300, "{:?}", names(&serial));
    assert!(serial.iter().filter(|(rel, _)| rel.starts_with("orchestration/")).count() == 300);
    for ((rel, a), (_, b)) in serial.iter().zip(&parallel) {
        assert!(a == b, "{rel} differs between one thread and four");
    }
    let modified = |dir: &Path| -> Vec<(String, std::time::SystemTime)> {
        tree(dir)
            .into_iter()
            .map(|(rel, _)| (rel.clone(), std::fs::metadata(dir.join(&rel)).unwrap().modified().unwrap()))
            .collect()
    };
    let before = modified(&four);
    std::thread::sleep(std::time::Duration::from_millis(50));
    compile("4", &four);
    assert_eq!(modified(&four), before, "a second compile of the same program rewrote a file");
    assert_eq!(leftovers(&four), Vec::<String>::new());
}

/// gen(2100): 4 200 calls get their directions from DeriveCallDirections, past the 4 096
/// from which it writes them in parallel, by ranges of the expression arena. Every call
/// gets its own, as on one thread (where they are written in order).
#[test]
fn many_calls_get_their_directions_on_one_thread_and_on_four() {
    let src = scratch("gen2100.pl", seed::gen(2100).as_bytes());
    let (status, serial, err) = on_threads("1", &["emit", "ir"], &src);
    assert_eq!(status, Some(0), "{err}");
    let calls = serial.matches("attrs={\"arg_directions\": [").count();
    assert!(calls >= 4200, "{calls} calls with directions");
    for k in [0, 1049, 2099] {
        let call = format!("self.accumulate_band_{k}(i__idx_v0, w__ssa_v0, acc__iter_v0, base__ssa_v0__graph_arg{k}, attrs={{\"arg_directions\": [\"Scalar\", \"Input\", \"InOut\", \"Scalar\"]}})");
        assert!(serial.contains(&call), "no `{call}`");
    }
    let (status, parallel, err) = on_threads("4", &["emit", "ir"], &src);
    assert_eq!(status, Some(0), "{err}");
    assert!(serial == parallel, "the IR differs between one thread and four");
}

/// `plc ARGS FILE` on `threads` threads: the exit status, stdout and stderr.
fn on_threads(threads: &str, args: &[&str], file: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_plc"))
        .args(args)
        .arg(file)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("the plc binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), stderr(&out))
}

/// gen(300) with Graph functions that break LegalizeGraphBoundary's rules spread through it
/// (`pl.full` in a graph, E0505; a view whose window varies between replays, E0516, in a
/// second file without the first kind, which stops the pass before its plans): the
/// per-function analyses that run in parallel on a program this large (ConvertToSSA's
/// liveness, DeriveCallDirections' walk, LegalizeGraphBoundary's checks and plans) give
/// the same diagnostics, in the same order, and the same IR on one thread as on four.
#[test]
fn check_and_emit_ir_are_the_same_on_one_thread_and_on_four() {
    let graph = |k: usize, full: bool| {
        let (params, body) = if full {
            (
                "a: pl.Tensor[[64], pl.FP32]",
                "    z = pl.full([64], dtype=pl.FP32, value=0.0)\n    c = kernel_{k}(z, c)\n",
            )
        } else {
            (
                "w: pl.Tensor[[1024], pl.FP32], n: pl.Scalar[pl.INDEX]",
                "    for i in pl.range(4):\n        wl = pl.tensor.slice(w, [64], [n * 256 + i * 64])\n        c = kernel_{k}(wl, c)\n",
            )
        };
        format!(
            "@pl.jit.incore\ndef kernel_{k}(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):\n    \
             t = pl.load(a, [0], [64])\n    pl.store(t, [0], out)\n    return out\n\n\n@pl.jit.graph\n\
             def layer_{k}({params}, c: pl.InOut[pl.Tensor[[64], pl.FP32]]):\n{}    return c\n\n\n",
            body.replace("{k}", &k.to_string())
        )
    };
    let with_graphs = |full: bool| {
        let text = seed::gen(300);
        let mut out = String::new();
        for (i, part) in text.split("\n# Copy ").enumerate() {
            if i > 0 {
                out.push_str("\n# Copy ");
            }
            out.push_str(part);
            if i % 37 == 5 {
                out.push_str(&graph(i, full && i % 2 == 1));
            }
        }
        out
    };
    for (name, full) in [("gen300_e0505.pl", true), ("gen300_e0516.pl", false)] {
        let src = scratch(name, with_graphs(full).as_bytes());
        let run = |threads: &str, args: &[&str]| on_threads(threads, args, &src);
        for args in [&["check", "--message-format", "json"][..], &["emit", "ir"], &["compile", "-o", "/dev/null"]] {
            let serial = run("1", args);
            let said = format!("{}{}", serial.1, serial.2);
            assert!(said.contains(if full { "E0505" } else { "E0516" }), "{name}: {said}");
            assert_eq!(serial, run("4", args), "{name}: {args:?} differs between one thread and four");
        }
    }
}

/// gen(300) with regions named alike far apart (graph regions `shared_band` in copies 10, 11
/// and 250; core-group regions with `name_hint="hot"` in copies 12 and 260), a graph region
/// named like another function (`entry_7`) and core-group regions nested in others (copies
/// 100 and 280): the outliners, which outline runs of consecutive functions in parallel on a
/// program this large, choose the serial run's names (the runs from the first one that
/// chose a name an earlier run chose are redone serially) and give the same IR, diagnostics
/// and files on one thread as on four.
#[test]
fn outlined_names_are_the_same_on_one_thread_and_on_four() {
    let mut text = String::new();
    for (i, part) in seed::gen(300).split("\n# Copy ").enumerate() {
        let copy = i.wrapping_sub(1);
        let mut part = part.to_string();
        let graph = format!("pl.graph(\"accumulate_band_{copy}\")");
        match copy {
            10 | 11 | 250 => part = part.replace(&graph, "pl.graph(\"shared_band\")"),
            40 => part = part.replace(&graph, "pl.graph(\"entry_7\")"),
            12 | 260 => {
                part = part.replace("CORE_GROUP)", "CORE_GROUP, name_hint=\"hot\")");
            }
            100 | 280 => {
                let store = "                pl.store(pl.add(cur, band), [0, 0], acc)";
                let nested = "                with pl.at(level=pl.Level.CORE_GROUP):\n    ";
                part = part.replace(store, &format!("{nested}{store}"));
            }
            _ => {}
        }
        if i > 0 {
            text.push_str("\n# Copy ");
        }
        text.push_str(&part);
    }
    let src = scratch("gen300_names.pl", text.as_bytes());
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-outline-threads");
    let _ = std::fs::remove_dir_all(&base);
    let run = |threads: &str, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_plc"))
            .args(args)
            .arg(&src)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("the plc binary runs");
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), stderr(&out))
    };
    let serial = run("1", &["emit", "ir"]);
    assert_eq!(serial.0, Some(0), "{}", serial.2);
    for name in [
        "def shared_band(",
        "def entry_11_shared_band(",
        "def entry_250_shared_band(",
        "def entry_40_entry_7(",
        "def hot(",
        "def accumulate_band_260_hot(",
        "def accumulate_band_100_incore_0_incore_0(",
        "def accumulate_band_280_incore_0_incore_0(",
    ] {
        assert!(serial.1.contains(name), "no `{name}` in the IR");
    }
    assert_eq!(serial, run("4", &["emit", "ir"]), "emit ir differs between one thread and four");
    let json = ["check", "--message-format", "json"];
    assert_eq!(run("1", &json), run("4", &json), "check differs between one thread and four");
    let (one, four) = (base.join("one"), base.join("four"));
    for (threads, dir) in [("1", &one), ("4", &four)] {
        let out = run(threads, &["compile", "-o", dir.to_str().unwrap()]);
        assert_eq!(out.0, Some(0), "{}", out.2);
    }
    assert!(tree(&one) == tree(&four), "the files differ between one thread and four");
}

/// 300 Opaque functions with host and global regions (nested in every third): on four
/// threads OutlineHierarchyScopes outlines runs of them in parallel, and its rounds of
/// nested regions too; the IR is the same as on one thread.
#[test]
fn hierarchy_outlining_is_the_same_on_one_thread_and_on_four() {
    let nested = "        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):\n            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):\n                z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)\n        return z\n";
    let apart = "        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):\n            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n        with pl.at(level=pl.Level.GLOBAL):\n            z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)\n        return z\n";
    let mut text = String::from("import pypto.language as pl\n\n@pl.program\nclass P:\n");
    for i in 0..300 {
        let body = if i % 3 == 0 { nested } else { apart };
        text.push_str(&format!(
            "    @pl.function\n    def main_{i}(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n{body}\n"
        ));
    }
    let src = scratch("hierarchy300.pl", text.as_bytes());
    let run = |threads: &str| on_threads(threads, &["emit", "ir", "--after", "OutlineHierarchyScopes"], &src);
    let serial = run("1");
    assert_eq!(serial.0, Some(0), "{}", serial.2);
    assert_eq!(serial.1.matches("    def ").count(), 900, "two functions outlined from each");
    assert_eq!(serial, run("4"), "the IR differs between one thread and four");
}

/// gen(300) with each copy of the seed's entry (numbered from 0; the file's head before the
/// first copy is `usize::MAX`) made by `edit` from its text.
fn gen300_edited(mut edit: impl FnMut(usize, &str) -> String) -> String {
    let mut text = String::new();
    for (i, part) in seed::gen(300).split("\n# Copy ").enumerate() {
        if i > 0 {
            text.push_str("\n# Copy ");
        }
        text.push_str(&edit(i.wrapping_sub(1), part));
    }
    text
}

/// gen(300) with a scalar computed in three core-group regions far apart and read after
/// them (E0410, found by OutlineIncoreScopes while it outlines runs of functions in
/// parallel): the same diagnostics, in the same order, on one thread as on four.
#[test]
fn outliner_errors_are_the_same_on_one_thread_and_on_four() {
    let store = "                pl.store(pl.add(cur, band), [0, 0], acc)\n";
    let text = gen300_edited(|copy, part| match copy {
        20 | 150 | 270 => part
            .replace(store, &format!("{store}                s = pl.tensor.read(w, [0, 0])\n            q = s + 1\n")),
        _ => part.to_string(),
    });
    let src = scratch("gen300_e0410.pl", text.as_bytes());
    let run = |threads: &str| on_threads(threads, &["check", "--message-format", "json"], &src);
    let serial = run("1");
    assert_eq!(serial.1.matches("\"E0410\"").count(), 3, "{}{}", serial.1, serial.2);
    assert_eq!(serial, run("4"), "check differs between one thread and four");
}

/// gen(300) with functions the outliners change before they reach a region: a second graph
/// region after the first in copies 30 and 200 (the first one's store renames what the
/// second reads), and a dead scalar loop carry in the graph region of copies 60 and 220
/// (dropped before OutlineIncoreScopes outlines from the Graph function): the same IR on
/// one thread as on four (a parallel outliner that reads functions ahead of changing them
/// must notice; tried on branch `outl`, see docs/performance.md).
#[test]
fn outlining_functions_that_change_before_their_regions_is_the_same_on_one_thread_and_on_four() {
    let region_start = "        with pl.graph(";
    let text = gen300_edited(|copy, part| {
        let mut part = part.to_string();
        if let (30 | 200, Some(start), Some(end)) = (copy, part.find(region_start), part.find("    return acc")) {
            let second = part[start..end].replace("accumulate_band_", "second_band_");
            part.insert_str(end, &second);
        }
        if matches!(copy, 60 | 220) {
            let base = "            base = i * ROWS\n";
            let carry = "            k = 0\n            for j in pl.range(2):\n                k = j\n";
            part = part.replace(base, &format!("{base}{carry}"));
        }
        part
    });
    let src = scratch("gen300_changed.pl", text.as_bytes());
    let run = |threads: &str| on_threads(threads, &["emit", "ir", "--after", "OutlineIncoreScopes"], &src);
    let serial = run("1");
    assert_eq!(serial.0, Some(0), "{}", serial.2);
    for name in ["def second_band_30(", "def second_band_200_incore_0(", "def accumulate_band_60_incore_0("] {
        assert!(serial.1.contains(name), "no `{name}` in the IR");
    }
    assert_eq!(serial, run("4"), "the IR differs between one thread and four");
}

#[test]
fn an_a2a3sim_harness_without_entry_in_a_program_of_several_asks_for_one_first() {
    // `main` would be refused (E0804 on these inputs), but without `--entry` the harness has
    // no entry to run: the usage problem comes first.
    let err =
        compile_error(&["examples/scalar_control_flow.pl", "--target", "a2a3sim", "--harness", "--arg", "which=2"]);
    assert!(err.contains("error[E0616]"), "{err}");
    assert!(!err.contains("error[E0804]"), "{err}");
}

/// `compile --entry Class.name` picks one of several programs' functions of the same name,
/// as `run --entry` does (PyPTO's kernel examples put several `@pl.program` classes, each
/// with an `orchestrator`, in one file); the bare name is ambiguous there.
#[test]
fn compile_entry_takes_a_class_qualified_name() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-class-entry");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let program = |class: &str, op: &str| {
        format!(
            "@pl.program
class {class}:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        return pl.store(pl.{op}(t, t), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.kernel(a, out)
        return out

"
        )
    };
    let file = dir.join("two.pl");
    let text =
        format!("import pypto.language as pl\n\n\n{}\n{}", program("AddProgram", "add"), program("MulProgram", "mul"));
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    for class in ["AddProgram", "MulProgram"] {
        let out_dir = dir.join(class);
        let entry = format!("{class}.orchestrator");
        let out = plc(&["compile", file, "--entry", &entry, "-o", out_dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(out_dir.join("orchestration/orchestrator.cpp").is_file());
    }
    let err = compile_error(&[file, "--entry", "Nothing.orchestrator"]);
    assert!(err.contains("error[E0616]: there is no Orchestration function `Nothing.orchestrator`"), "{err}");
    let err = compile_error(&[file, "--entry", "orchestrator"]);
    assert!(err.contains("error[E0616]: Orchestration functions in several programs"), "{err}");
}

/// With `--entry`, `compile` writes the device functions that entry reaches only: a kernel
/// of another entry that has no CPU form (`pl.system.syncall`, E0601) does not stop it
/// (PyPTO's `advanced/05_runtime_overhead`); without `--entry` every kernel is written.
#[test]
fn compile_entry_writes_only_the_kernels_it_reaches() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-entry-reach");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.pl");
    std::fs::write(
        &file,
        "import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def plain(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        return pl.store(pl.add(t, t), [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def barrier(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        pl.system.syncall()
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def first(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.plain(a, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def second(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.barrier(a, out)
        return out
",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let out_dir = dir.join("first");
    let out = plc(&["compile", file, "--entry", "first", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out_dir.join("kernels/plain.cpp").is_file());
    assert!(!out_dir.join("kernels/barrier.cpp").exists());
    let err = compile_error(&[file, "--entry", "second"]);
    assert!(err.contains("error[E0601]"), "{err}");
    let err = compile_error(&[file]);
    assert!(err.contains("error[E0601]"), "{err}");
}

/// A program made only of Inline functions has none left after InlineFunctions; its
/// printed form must still check (a class without functions is E0224, as in PyPTO).
#[test]
fn a_program_left_without_functions_prints_as_text_that_checks() {
    let src = b"import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Inline)\n    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n        y = pl.add(x, x)\n        return y\n";
    let path = scratch("only_inline.pl", src);
    let out = plc(&["emit", "ir", "--verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("\nclass P"), "{text}");
    let printed = scratch("only_inline_printed.pl", text.as_bytes());
    let out = plc(&["check", printed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}\n{text}", stderr(&out));
}

/// An external kernel (tests/cases/warnings/external_kernel.pl): `plc compile` writes its
/// C++ file as it is, under the kernel's file name, lists it in kernel_config.json with the
/// source it came from, and launches it as any kernel; `plc run` refuses the run that
/// reaches it (E0803, naming it); the printed IR, read from another directory, finds the
/// file by its absolute path.
#[test]
fn external_kernels_pass_through() {
    let case = "tests/cases/warnings/external_kernel.pl";
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/warnings/kernels/ext_add.cpp");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-external-kernel");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = plc(&["compile", case, "-o", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let copied = std::fs::read(out_dir.join("kernels/ext_add.cpp")).expect("the kernel's file");
    assert_eq!(copied, std::fs::read(&source).unwrap());
    let config = std::fs::read_to_string(out_dir.join("kernel_config.json")).unwrap();
    let canonical = source.canonicalize().unwrap();
    assert!(config.contains(&format!("\"external_source\": \"{}\"", canonical.display())), "{config}");
    let orchestration = std::fs::read_to_string(out_dir.join("orchestration/main.cpp")).unwrap();
    assert!(
        orchestration.contains("params_t0.add_output(tmp);\n        rt_submit_aiv_task(0, params_t0);"),
        "{orchestration}"
    );

    let out = plc(&["run", case, "--entry", "main", "--message-format", "short"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with(&format!("{case}:41:15: error[E0803]: the external kernel `ext_add` cannot run")), "{err}");

    let printed = plc(&["emit", "ir", case]);
    assert!(printed.status.success());
    let elsewhere = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-external-kernel-printed.pl");
    std::fs::write(&elsewhere, &printed.stdout).unwrap();
    let again = plc(&["check", elsewhere.to_str().unwrap()]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
}

/// `@pl.jit.extern` kernels (tests/cases/warnings/jit_extern_kernel.pl) compile as the
/// external kernels of `@pl.function(external_source=...)` do: each file written as it is
/// under its kernel's name and listed in kernel_config.json with the source it came from
/// and its core type, and each launched as the kernel of that core type.
#[test]
fn jit_extern_kernels_pass_through() {
    let case = "tests/cases/warnings/jit_extern_kernel.pl";
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/warnings/kernels/ext_add.cpp");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-jit-extern-kernel");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = plc(&["compile", case, "-o", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for kernel in ["ext_add", "ext_cube"] {
        let copied = std::fs::read(out_dir.join(format!("kernels/{kernel}.cpp"))).expect("the kernel's file");
        assert_eq!(copied, std::fs::read(&source).unwrap(), "{kernel}");
    }
    let config = std::fs::read_to_string(out_dir.join("kernel_config.json")).unwrap();
    let canonical = source.canonicalize().unwrap();
    assert_eq!(config.matches(&format!("\"external_source\": \"{}\"", canonical.display())).count(), 2, "{config}");
    let orchestration = std::fs::read_to_string(out_dir.join("orchestration/main.cpp")).unwrap();
    assert!(orchestration.contains("rt_submit_aiv_task(0, params_t0);"), "{orchestration}");
    assert!(orchestration.contains("rt_submit_aic_task(1, params_t1);"), "{orchestration}");
}

/// A mixed `@pl.jit.extern` (tests/cases/warnings/jit_extern_mixed.pl) compiles as PyPTO's
/// backend builds it: the Group lowering made of the stub has no file of its own; its two
/// members' files are written as they are and listed in kernel_config.json (AIC first, each
/// with the source it came from, its core type and the stub's `include_dirs=` as
/// `extra_include_dirs`, absolute); each call of the stub is one mixed task of the two
/// (the AIV one on both lanes with `dual_aiv_dispatch=True`), for every target; `plc run`
/// stops at the AIC member (E0803 naming it).
#[test]
fn jit_extern_mixed_kernel_compiles() {
    let case = "tests/cases/warnings/jit_extern_mixed.pl";
    let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/warnings/kernels");
    for (target, kernel_form) in [("cpu", "cpu"), ("a2a3sim", "cpu"), ("a2a3sim", "pto-isa")] {
        let out_dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-jit-extern-mixed-{target}-{kernel_form}"));
        let _ = std::fs::remove_dir_all(&out_dir);
        let args = ["compile", case, "-o", out_dir.to_str().unwrap(), "--target", target, "--kernels", kernel_form];
        let args = if target == "cpu" { &args[..4] } else { &args[..] };
        let out = plc(args);
        assert!(out.status.success(), "{target}: {}", String::from_utf8_lossy(&out.stderr));
        for (kernel, file) in [
            ("ext_mix_aic", "ext_mix_aic.cpp"),
            ("ext_mix_aiv", "ext_mix_aiv.cpp"),
            ("ext_mix_dual_aic", "ext_mix_aic.cpp"),
            ("ext_mix_dual_aiv", "ext_mix_aiv.cpp"),
        ] {
            let copied = std::fs::read(out_dir.join(format!("kernels/{kernel}.cpp"))).expect("the member's file");
            assert_eq!(copied, std::fs::read(kernels.join(file)).unwrap(), "{target}: {kernel}");
        }
        for group in ["ext_mix", "ext_mix_dual"] {
            assert!(!out_dir.join(format!("kernels/{group}.cpp")).exists(), "{target}: the Group {group} has a file");
        }
        let config: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("kernel_config.json")).unwrap()).unwrap();
        let listed: Vec<(String, String, u64)> = config["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                let name = k["name"].as_str().unwrap().to_string();
                (name, k["core_type"].as_str().unwrap().to_string(), k["func_id"].as_u64().unwrap())
            })
            .collect();
        let expected = [
            ("ext_mix_aic", "aic", 0),
            ("ext_mix_aiv", "aiv", 1),
            ("ext_mix_dual_aic", "aic", 2),
            ("ext_mix_dual_aiv", "aiv", 3),
        ];
        let expected: Vec<(String, String, u64)> =
            expected.iter().map(|&(n, c, id)| (n.to_string(), c.to_string(), id)).collect();
        assert_eq!(listed, expected, "{target}");
        let include = kernels.join("include").canonicalize().unwrap().display().to_string();
        for k in config["kernels"].as_array().unwrap() {
            let source = k["external_source"].as_str().expect("an external kernel");
            assert!(Path::new(source).is_absolute() && Path::new(source).is_file(), "{source}");
            let dual = k["name"].as_str().unwrap().starts_with("ext_mix_dual");
            let dirs = if dual { serde_json::json!(null) } else { serde_json::json!([include]) };
            assert_eq!(k["extra_include_dirs"], dirs, "{target}: {k}");
        }
        let orchestration = std::fs::read_to_string(out_dir.join("orchestration/main.cpp")).unwrap();
        for line in [
            "MixedKernels mixed_0 = {0, 1, INVALID_KERNEL_ID};",
            "rt_submit_task(mixed_0, params_t0);",
            "MixedKernels mixed_1 = {2, 3, 3};",
            "rt_submit_task(mixed_1, params_t1);",
        ] {
            assert!(orchestration.contains(line), "{target}: {line}\n{orchestration}");
        }
    }
    let out = plc(&["run", case, "--entry", "main", "--message-format", "short"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("{case}:20:5: error[E0803]: the external kernel `ext_mix_aic` cannot run")),
        "{err}"
    );
}

/// `include_dirs=` of a single-core `@pl.jit.extern` (tests/cases/warnings/jit_extern_kernel.pl)
/// is kept: the kernel's entry of kernel_config.json lists the directories, absolute, as
/// `extra_include_dirs` (PyPTO's key, what its kernel compiler is given), and the printed
/// program keeps them (the `external_include_dirs` attribute), so that compiling the printed
/// program from another directory lists them again.
#[test]
fn jit_extern_include_dirs_kept() {
    let case = "tests/cases/warnings/jit_extern_kernel.pl";
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/warnings/kernels").canonicalize().unwrap();
    let printed = plc(&["emit", "ir", case, "--after", "lower"]);
    assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
    let elsewhere = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-jit-extern-include-dirs");
    let _ = std::fs::remove_dir_all(&elsewhere);
    std::fs::create_dir_all(&elsewhere).unwrap();
    let reprinted = elsewhere.join("printed.pl");
    std::fs::write(&reprinted, &printed.stdout).unwrap();
    for (program, name) in [(case.to_string(), "original"), (reprinted.display().to_string(), "printed")] {
        let out_dir = elsewhere.join(name);
        let out = plc(&["compile", &program, "-o", out_dir.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let config: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("kernel_config.json")).unwrap()).unwrap();
        let kernels = config["kernels"].as_array().unwrap();
        let by_name = |n: &str| kernels.iter().find(|k| k["name"] == n).unwrap_or_else(|| panic!("{name}: {n}"));
        assert_eq!(
            by_name("ext_add")["extra_include_dirs"],
            serde_json::json!([include.display().to_string()]),
            "{name}"
        );
        assert_eq!(by_name("ext_cube")["extra_include_dirs"], serde_json::Value::Null, "{name}");
    }
}

/// An assembly in orchestration code is no code on the runtime (its result names its
/// target), so a source that is not already in the target is never copied there. `plc
/// compile` and `plc run` refuse each such assembly with E0623 at it (`plc run` printed the
/// copy before): a parameter, another window of the target, a tensor assembled twice
/// (PyPTO fuses only a tensor assembled once), a tensor made before the loop variable that
/// places its window. tests/runs/orchestration_assembly.pl runs the forms the runtime writes.
#[test]
fn assemblies_the_runtime_does_not_copy_are_refused() {
    let file = "tests/emit/e0623_assembly_not_copied.pl";
    let err = compile_error(&[file]);
    let places: Vec<&str> =
        err.lines().filter(|l| l.contains("error[")).map(|l| l.split(": error").next().unwrap()).collect();
    let expected = ["26:9", "36:9", "46:9", "47:9", "58:13"].map(|at| format!("{file}:{at}"));
    assert_eq!(places, expected, "{err}");
    assert!(
        err.lines().filter(|l| l.contains("error[")).all(|l| l.contains("error[E0623]: this assembly copies nothing")),
        "{err}"
    );
    assert!(err.contains("`x` is a parameter, not data a kernel wrote into `out`"), "{err}");
    assert!(err.contains("`w` is another window of `out`"), "{err}");
    assert!(err.contains("`t` is a tensor made here that is assembled more than once"), "{err}");
    assert!(err.contains("but it is made before `out`, which that view needs; make it after"), "{err}");
    for (entry, at) in [("parameter", "26:9"), ("other_window", "36:9"), ("twice", "46:9"), ("made_early", "58:13")] {
        let out = plc(&["run", file, "--entry", entry, "--message-format", "short"]);
        assert_eq!(out.status.code(), Some(1), "{entry}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{entry}: nothing is printed");
        let err = stderr(&out);
        assert!(err.contains(&format!("{file}:{at}: error[E0623]: ")), "{entry}: {err}");
    }
    // Straight from lowering (before the passes outline anything) the run is not refused.
    let out = plc(&["run", file, "--entry", "parameter", "--after", "lower"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A program of 400 mixed definitions (module constants and a `pl.dynamic` dimension read
/// by every body, helpers with declared return types called from far-away callers,
/// `pl.func_attr` strings, and undefined names, E0201, in several places): lowering runs on
/// runs of consecutive functions in parallel from 256 functions (`lower::parallel`), and
/// gives the diagnostics, in order, and the IR of the serial lowering on four threads.
#[test]
fn lowering_in_parallel_gives_the_serial_diagnostics_and_ir() {
    let mut text = String::from("import pypto.language as pl\n\nROWS = 64\nSCALE = 2.0\nN = pl.dynamic(\"N\")\n");
    for i in 0..400 {
        text.push_str(&match i % 4 {
            0 => format!(
                "\n@pl.function\ndef helper_{i}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    \
                 y = pl.add(x, SCALE)\n    return y\n"
            ),
            1 => format!(
                "\n@pl.function\ndef caller_{i}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    \
                 y = helper_{}(x)\n    return pl.mul(y, {i}.0)\n",
                (i * 37) % 400 / 4 * 4
            ),
            2 => format!(
                "\n@pl.function(type=pl.FunctionType.InCore)\ndef kernel_{i}(x: pl.Tensor[[N, 128], pl.FP32]) -> \
                 pl.Tensor[[N, 128], pl.FP32]:\n    pl.func_attr({{\"tag_{}\": \"v{}\"}})\n    return x\n",
                i % 5,
                i % 3
            ),
            _ if i % 7 == 3 => format!(
                "\n@pl.function\ndef bad_{i}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    \
                 return pl.add(x, missing_{})\n",
                i % 3
            ),
            _ => format!(
                "\n@pl.function\ndef plain_{i}(a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    return a * ROWS + {i}\n"
            ),
        });
    }
    let src = scratch("mixed400.pl", text.as_bytes());
    let run = |threads: &str, args: &[&str]| on_threads(threads, args, &src);
    for args in [&["check", "--message-format", "json"][..], &["emit", "ir", "--after", "lower"]] {
        let serial = run("1", args);
        let said = format!("{}{}", serial.1, serial.2);
        assert_eq!(said.matches("undefined name `missing_").count(), 15, "{args:?}: {said}");
        assert_eq!(serial, run("4", args), "{args:?} differs between one thread and four");
    }
}

/// A program large enough for the parallel paths (300 functions), one of whose functions
/// holds a 9 000-term sum, an IR expression 9 000 levels high that lowering and the passes
/// walk recursively: on two threads its function may be lowered, converted and outlined on
/// a thread of rayon's pool, whose default 2 MiB stack overflowed (the process aborted);
/// `plc` gives the pool's threads the stack of its own worker thread.
#[test]
fn a_deep_expression_on_a_pool_thread_does_not_overflow() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut src = String::from("import pypto.language as pl\n");
    for i in 0..300 {
        let sum = if i == 150 { vec!["a"; 9_000].join(" + ") } else { format!("a + {i}") };
        src += &format!(
            "\n@pl.function\ndef plain_{i}(a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    return {sum}\n"
        );
    }
    let file = dir.path().join("deep.pl");
    std::fs::write(&file, src).expect("the program is written");
    let serial = on_threads("1", &["emit", "ir"], &file);
    assert_eq!(serial.0, Some(0), "{}", serial.2);
    for threads in ["2", "4"] {
        assert_eq!(on_threads(threads, &["check"], &file).0, Some(0), "check on {threads} threads");
        assert_eq!(on_threads(threads, &["emit", "ir"], &file), serial, "emit ir on {threads} threads");
    }
}
