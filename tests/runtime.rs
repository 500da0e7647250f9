//! The CPU reference runtime and tile library (`src/emit/runtime/`), compiled with the
//! system C++ compiler (`CXX`, default `c++`, as `-std=c++17 -Wall -Wextra -Werror`) and run:
//!
//! - tasks run in dependency order (read after write, write after read, write after write)
//!   and explicit deps are honoured, also when the runtime runs ready tasks last-submitted
//!   first;
//! - a Graph function is recorded once and replayed, giving what running it directly gives
//!   with other boundary tensors and scalars (a scalar copied out of its slot is frozen,
//!   and the test shows it);
//! - a Graph launched while another is recorded is reported as an error;
//! - the kernel ABI: tensors then scalars, one call per block with its block index;
//! - tile library numerics: zero-padding loads, strided views, valid regions, atomic
//!   stores, matmul, reductions, broadcasts, casts;
//! - every device function of every example, emitted by `emit_kernel`, compiles against
//!   the tile library.
//!
//! Without a C++ compiler the C++ steps are skipped with a message (CI has g++). With
//! `PLC_SANITIZE=1` (as CI runs them) the programs are built with AddressSanitizer and
//! UndefinedBehaviorSanitizer.

#[path = "common/cxx_cache.rs"]
mod cxx_cache;

use std::path::PathBuf;
use std::process::Command;

fn cxx() -> Option<String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    Command::new(&cxx).arg("--version").output().ok().filter(|o| o.status.success()).map(|_| cxx)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("runtime").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

const FLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Werror"];

/// With `PLC_SANITIZE` set (CI sets it), test programs are built with AddressSanitizer and
/// UndefinedBehaviorSanitizer, any report failing the program.
fn sanitizers() -> &'static [&'static str] {
    match std::env::var("PLC_SANITIZE") {
        Ok(v) if !v.is_empty() && v != "0" => {
            &["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
        }
        _ => &[],
    }
}

/// What a C++ test program printed and how it ended.
struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// Writes the runtime and `main.cpp` into a fresh directory, builds them and runs the
/// program with `env`. `None` when there is no C++ compiler.
fn build_and_run(name: &str, main: &str, env: &[(&str, &str)]) -> Option<Run> {
    build_with_kernels(name, main, &[], env)
}

/// As `build_and_run`, with kernel files (name, code) built from `kernels/` beside `main.cpp`.
fn build_with_kernels(name: &str, main: &str, kernels: &[(String, String)], env: &[(&str, &str)]) -> Option<Run> {
    let Some(cxx) = cxx() else {
        eprintln!("skipping {name}: no C++ compiler (set CXX or install c++)");
        return None;
    };
    let dir = temp_dir(name);
    plc::emit::runtime::write_runtime(&dir.join("runtime")).expect("runtime written");
    std::fs::write(dir.join("main.cpp"), main).expect("main.cpp written");
    std::fs::create_dir_all(dir.join("kernels")).expect("kernels/");
    let mut sources = vec!["main.cpp".to_string(), "runtime/pto_runtime.cpp".to_string()];
    for (kernel, code) in kernels {
        std::fs::write(dir.join("kernels").join(format!("{kernel}.cpp")), code).expect("kernel written");
        sources.push(format!("kernels/{kernel}.cpp"));
    }
    // Each source to its own object, so that the compiler cache reuses the runtime's.
    let mut objects = Vec::new();
    for src in &sources {
        let obj = format!("{}.o", src.replace('/', "_"));
        let out = cxx_cache::command(&cxx)
            .args(FLAGS)
            .args(sanitizers())
            .args(["-Iruntime", "-c", src, "-o", &obj])
            .current_dir(&dir)
            .output()
            .expect("the C++ compiler runs");
        assert!(out.status.success(), "{name}: {src} does not compile:\n{}", String::from_utf8_lossy(&out.stderr));
        objects.push(obj);
    }
    let exe = dir.join("prog");
    let out = Command::new(&cxx)
        .args(FLAGS)
        .args(sanitizers())
        .args(&objects)
        .arg("-o")
        .arg(&exe)
        .current_dir(&dir)
        .output()
        .expect("the C++ compiler runs");
    assert!(out.status.success(), "{name} does not link:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut cmd = Command::new(&exe);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the test program runs");
    Some(Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

/// Runs a program that reports its checks, requiring it to pass.
fn passes(name: &str, main: &str, env: &[(&str, &str)]) -> Option<Run> {
    let run = build_and_run(name, main, env)?;
    assert!(run.ok, "{name} failed:\n{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("all checks passed"), "{name}:\n{}\n{}", run.stdout, run.stderr);
    Some(run)
}

/// Shared by the C++ test programs: CHECK counts failures, `finish` reports them.
const PRELUDE: &str = r#"
#include "pto_orchestration_api.h"
#include "pto_tile.h"
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

static int failures = 0;
#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            std::printf("CHECK failed at line %d: %s\n", __LINE__, #cond);            \
            ++failures;                                                                \
        }                                                                              \
    } while (0)
#define CHECK_NEAR(a, b) CHECK(std::fabs(static_cast<double>(a) - static_cast<double>(b)) < 1e-4)

[[maybe_unused]] static int finish() {
    rt_orchestration_done();
    if (plc_rt_failed()) {
        std::printf("the runtime reported errors\n");
        return 1;
    }
    if (failures == 0) std::printf("all checks passed\n");
    return failures == 0 ? 0 : 1;
}

[[maybe_unused]] static ChipTensor tensor2(std::vector<float>& data, uint32_t rows, uint32_t cols) {
    data.resize(static_cast<size_t>(rows) * cols);
    uint32_t shape[2] = {rows, cols};
    return make_tensor_external(data.data(), shape, 2, DataType::FLOAT32);
}

[[maybe_unused]] static ChipTensor tensor1(std::vector<float>& data, uint32_t n) {
    data.resize(n);
    uint32_t shape[1] = {n};
    return make_tensor_external(data.data(), shape, 1, DataType::FLOAT32);
}

[[maybe_unused]] static const ChipTensor& arg_tensor(int64_t* args, int i) { return *reinterpret_cast<const ChipTensor*>(args[i]); }
"#;

/// Kernels that log the order they run in: `copy_plus(in, out, k)` writes in + k into out,
/// `fill(out, v)` writes v.
const LOGGING_KERNELS: &str = r#"
static std::vector<std::string> order;

extern "C" void k_copy_plus(int64_t* args) {
    const ChipTensor& in = arg_tensor(args, 0);
    const ChipTensor& out = arg_tensor(args, 1);
    float k = from_u64<float>(static_cast<uint64_t>(args[2]));
    int64_t tag = from_u64<int64_t>(static_cast<uint64_t>(args[3]));
    order.push_back("t" + std::to_string(tag));
    plc::Tile<float> t = plc::load_tensor<float>(in);
    plc::store_tensor(plc::add(t, k), out);
}

extern "C" void k_fill(int64_t* args) {
    const ChipTensor& out = arg_tensor(args, 0);
    float v = from_u64<float>(static_cast<uint64_t>(args[1]));
    int64_t tag = from_u64<int64_t>(static_cast<uint64_t>(args[2]));
    order.push_back("t" + std::to_string(tag));
    plc::store_tensor(plc::full<float>(plc::Dims{static_cast<int64_t>(out.shapes[0])}, v), out);
}

extern "C" {
const plc_kernel_fn plc_kernel_table[] = {&k_copy_plus, &k_fill};
const int plc_kernel_count = 2;
}

static size_t position(const std::string& tag) {
    for (size_t i = 0; i < order.size(); ++i)
        if (order[i] == tag) return i;
    return order.size();
}
"#;

#[test]
fn tasks_run_in_dependency_order() {
    let main = format!(
        "{PRELUDE}{LOGGING_KERNELS}{}",
        r#"
int main() {
    std::vector<float> a, b, c, d;
    ChipTensor A = tensor1(a, 8), B = tensor1(b, 8), C = tensor1(c, 8), D = tensor1(d, 8);
    PTO2_SCOPE() {
        CoreTaskArgs p0;                      // t0: A = 1
        p0.add_output(A);
        p0.add_scalar(1.0f, (int64_t)0);
        rt_submit_aiv_task(1, p0);
        CoreTaskArgs p1;                      // t1: B = A + 1 (reads A)
        p1.add_input(A);
        p1.add_output(B);
        p1.add_scalar(1.0f, (int64_t)1);
        rt_submit_aiv_task(0, p1);
        CoreTaskArgs p2;                      // t2: C = B + 10 (reads B)
        p2.add_input(B);
        p2.add_output(C);
        p2.add_scalar(10.0f, (int64_t)2);
        rt_submit_aiv_task(0, p2);
        CoreTaskArgs p3;                      // t3: D = 7, independent of the rest
        p3.add_output(D);
        p3.add_scalar(7.0f, (int64_t)3);
        rt_submit_aiv_task(1, p3);
        CoreTaskArgs p4;                      // t4: A = 100, after t1 read A
        p4.add_output(A);
        p4.add_scalar(100.0f, (int64_t)4);
        rt_submit_aiv_task(1, p4);
        CoreTaskArgs p5;                      // t5: B = A + 1 again (B written by t1)
        p5.add_input(A);
        p5.add_inout(B);
        p5.add_scalar(1.0f, (int64_t)5);
        rt_submit_aiv_task(0, p5);
    }
    plc_rt_sync();
    CHECK(order.size() == 6);
    CHECK(position("t0") < position("t1"));
    CHECK(position("t1") < position("t2"));
    CHECK(position("t1") < position("t4"));   // write after read
    CHECK(position("t4") < position("t5"));   // read after write
    CHECK(position("t2") < position("t5"));   // write after read of B
    CHECK_NEAR(c[3], 12.0f);
    CHECK_NEAR(a[0], 100.0f);
    CHECK_NEAR(b[7], 101.0f);
    CHECK_NEAR(d[5], 7.0f);
    // The schedule does reorder: the last ready task first.
    bool reverse = std::getenv("PLC_RT_SCHEDULE") != nullptr;
    if (reverse) CHECK(position("t3") < position("t0"));
    else CHECK(position("t3") > position("t2"));
    CHECK(plc_rt_tasks_run() == 6);
    return finish();
}
"#
    );
    if passes("dependency_order_in_order", &main, &[]).is_none() {
        return;
    }
    passes("dependency_order_reverse", &main, &[("PLC_RT_SCHEDULE", "reverse")]);
}

#[test]
fn explicit_deps_are_honoured() {
    let main = format!(
        "{PRELUDE}{LOGGING_KERNELS}{}",
        r#"
int main() {
    plc_rt_set_schedule(PlcSchedule::REVERSE);
    std::vector<float> a, b, c, d;
    ChipTensor A = tensor1(a, 4), B = tensor1(b, 4), C = tensor1(c, 4), D = tensor1(d, 4);
    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            CoreTaskArgs p0;
            p0.add_output(A);
            p0.add_scalar(1.0f, (int64_t)0);
            TaskOutputTensors t0 = rt_submit_aiv_task(1, p0);
            PTO2TaskId a_tid = t0.task_id();
            CHECK(a_tid.is_valid());
            CoreTaskArgs p1;                       // no tensor in common with t0
            p1.add_output(B);
            p1.add_scalar(2.0f, (int64_t)1);
            PTO2TaskId deps1[1];
            uint32_t n1 = 0;
            deps1[n1++] = a_tid;
            p1.set_dependencies(deps1, n1);
            TaskOutputTensors t1 = rt_submit_aiv_task(1, p1);
            CoreTaskArgs p2;                       // a dummy barrier after t1
            PTO2TaskId deps2[2];
            uint32_t n2 = 0;
            deps2[n2++] = t1.task_id();
            PTO2TaskId none = PTO2TaskId::invalid();
            if (none.is_valid()) deps2[n2++] = none;
            p2.set_dependencies(deps2, n2);
            TaskOutputTensors barrier = rt_submit_dummy_task(p2);
            CoreTaskArgs p3;
            p3.add_output(C);
            p3.add_scalar(3.0f, (int64_t)3);
            PTO2TaskId deps3[1] = {barrier.task_id()};
            p3.set_dependencies(deps3, 1);
            rt_submit_aiv_task(1, p3);
            CoreTaskArgs p4;                       // no deps at all: may run first
            p4.add_output(D);
            p4.add_scalar(4.0f, (int64_t)4);
            rt_submit_aiv_task(1, p4);
        }
    }
    plc_rt_sync();
    CHECK(order.size() == 4);
    CHECK(position("t0") < position("t1"));
    CHECK(position("t1") < position("t3"));
    CHECK(position("t4") == 0);
    CHECK_NEAR(c[0], 3.0f);
    return finish();
}
"#
    );
    passes("explicit_deps", &main, &[]);
}

/// A Graph function over `src` (rows x 16), `acc` (16 wide, InOut) and the scalars `row`
/// and `scale`: acc += src[row : row + 4] * scale, through an intermediate tensor the
/// graph allocates, then a fixed view of acc's first row set to row. `BIND` is how the
/// body binds its boundary scalars.
const GRAPH_PROGRAM: &str = r#"
// k_scaled_band(src, tmp, row, scale): tmp = src[row:row+4] * scale
extern "C" void k_scaled_band(int64_t* args) {
    const ChipTensor& src = arg_tensor(args, 0);
    const ChipTensor& tmp = arg_tensor(args, 1);
    int64_t row = from_u64<int64_t>(static_cast<uint64_t>(args[2]));
    float scale = from_u64<float>(static_cast<uint64_t>(args[3]));
    plc::store(plc::mul(plc::load<float>(src, {row, 0}, {4, 16}), scale), {0, 0}, tmp);
}
// k_accumulate(tmp, acc): acc += tmp
extern "C" void k_accumulate(int64_t* args) {
    const ChipTensor& tmp = arg_tensor(args, 0);
    const ChipTensor& acc = arg_tensor(args, 1);
    plc::store(plc::load<float>(tmp, {0, 0}, {4, 16}), {0, 0}, acc, plc::Dims(), true);
}
// k_mark(view, v): view[0, 0] = v (a 1x1 view of acc)
extern "C" void k_mark(int64_t* args) {
    const ChipTensor& view = arg_tensor(args, 0);
    int64_t v = from_u64<int64_t>(static_cast<uint64_t>(args[1]));
    plc::write(view, {0, 0}, static_cast<float>(v));
}
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {&k_scaled_band, &k_accumulate, &k_mark};
const int plc_kernel_count = 3;
}

static void graph_body(const GraphTaskArgs& args) {
    const ChipTensor& src = args.tensor(0).ref();
    const ChipTensor& acc = args.tensor(1).ref();
    BIND
    uint32_t tmp_ci_shapes[2] = {4, 16};
    TensorCreateInfo tmp_ci(tmp_ci_shapes, 2, DataType::FLOAT32);
    TaskOutputTensors alloc_0 = alloc_tensors(tmp_ci);
    const ChipTensor& tmp = alloc_0.get_ref(0);
    CoreTaskArgs p0;
    p0.add_input(src);
    p0.add_output(tmp);
    p0.add_scalar(row, scale);
    rt_submit_aiv_task(0, p0);
    CoreTaskArgs p1;
    p1.add_input(tmp);
    p1.add_inout(acc);
    rt_submit_aiv_task(1, p1);
    uint32_t view_offsets[2] = {3, 5};
    uint32_t view_shapes[2] = {1, 1};
    ChipTensor view = acc.view(view_shapes, view_offsets);
    CoreTaskArgs p2;
    p2.add_inout(view);
    p2.add_scalar(row);
    rt_submit_aiv_task(2, p2);
}

int main() {
    const int N = 4;
    std::vector<float> srcs[N], accs[N], expect[N];
    for (int call = 0; call < N; ++call) {
        tensor2(srcs[call], 32, 16);
        tensor2(accs[call], 4, 16);
        for (size_t i = 0; i < srcs[call].size(); ++i) srcs[call][i] = static_cast<float>((i * 7 + call * 3) % 11);
        for (size_t i = 0; i < accs[call].size(); ++i) accs[call][i] = static_cast<float>(call);
        expect[call] = accs[call];
    }
    PTO2_SCOPE() {
        for (int call = 0; call < N; ++call) {
            int64_t row = 4 * call + 1;
            float scale = 0.5f * static_cast<float>(call + 1);
            uint32_t src_shape[2] = {32, 16};
            uint32_t acc_shape[2] = {4, 16};
            ChipTensor src = make_tensor_external(srcs[call].data(), src_shape, 2);
            ChipTensor acc = make_tensor_external(accs[call].data(), acc_shape, 2);
            GraphTaskArgs params;
            params.add_input(src);
            params.add_inout(acc);
            params.add_scalar(row, scale);
            rt_submit_graph(&graph_body, params);
            // The same computation, directly.
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 16; ++c)
                    expect[call][r * 16 + c] += srcs[call][(row + r) * 16 + c] * scale;
            expect[call][3 * 16 + 5] = static_cast<float>(row);
        }
    }
    plc_rt_sync();
    bool same = true;
    for (int call = 0; call < N; ++call)
        for (size_t i = 0; i < expect[call].size(); ++i)
            if (std::fabs(expect[call][i] - accs[call][i]) > 1e-4) same = false;
    std::printf("replay %s direct execution\n", same ? "matches" : "differs from");
    std::printf("recordings %llu replays %llu tasks %llu\n", (unsigned long long)plc_rt_graph_recordings(),
                (unsigned long long)plc_rt_graph_replays(), (unsigned long long)plc_rt_tasks_run());
    CHECK(plc_rt_graph_recordings() == 1);
    CHECK(plc_rt_graph_replays() == N - 1);
    CHECK(plc_rt_tasks_run() == 3 * N);
    return finish();
}
"#;

#[test]
fn a_graph_is_recorded_once_and_replayed_like_direct_execution() {
    // Boundary scalars bound by reference to their slots: replays re-read them.
    let by_reference = GRAPH_PROGRAM
        .replace("BIND", "const uint64_t& row = args.scalar(0);\n    const uint64_t& scale = args.scalar(1);");
    let main = format!("{PRELUDE}{by_reference}");
    for (name, env) in [("graph_replay", vec![]), ("graph_replay_reverse", vec![("PLC_RT_SCHEDULE", "reverse")])] {
        let Some(run) = passes(name, &main, &env) else { return };
        assert!(run.stdout.contains("replay matches direct execution"), "{}", run.stdout);
        assert!(run.stdout.contains("recordings 1 replays 3 tasks 12"), "{}", run.stdout);
    }
}

#[test]
fn a_scalar_copied_out_of_its_slot_is_frozen_into_the_recording() {
    // The bug the by-reference binding avoids: copies of the slots are fixed values, so
    // every replay reuses the first call's row and scale, and the results differ.
    let by_value = GRAPH_PROGRAM
        .replace("BIND", "uint64_t row = args.scalar(0);\n    uint64_t scale = args.scalar(1);")
        .replace("return finish();", "rt_orchestration_done();\n    return 0;");
    let main = format!("{PRELUDE}{by_value}");
    let Some(run) = build_and_run("graph_frozen_scalar", &main, &[]) else { return };
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("replay differs from direct execution"), "{}", run.stdout);
}

#[test]
fn a_view_made_in_a_graph_is_re_based_by_value_as_simpler_does() {
    // `band` (a boundary view of w at row `base`) and `part` (a view of w at row 0 made in
    // the body). simpler matches each tensor of a recorded task to a boundary tensor by
    // value, an equal one first: where band is at row 0 on the first call (`body`), `part`
    // equals it and becomes `band` on every replay (plc warns E0518 about such a view);
    // where it is not (`body2`, band from row 4), `part` is a view of w at row 0.
    let main = format!(
        "{PRELUDE}{}",
        r#"
// k_copy_row(src, dst, row): dst[row, :] = src[0, :]
extern "C" void k_copy_row(int64_t* args) {
    const ChipTensor& src = arg_tensor(args, 0);
    const ChipTensor& dst = arg_tensor(args, 1);
    int64_t row = from_u64<int64_t>(static_cast<uint64_t>(args[2]));
    plc::store(plc::load<float>(src, {0, 0}, {1, 4}), {row, 0}, dst);
}
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {&k_copy_row};
const int plc_kernel_count = 1;
}
static void body(const GraphTaskArgs& args) {
    const ChipTensor& w = args.tensor(0).ref();
    const ChipTensor& band = args.tensor(1).ref();
    const ChipTensor& out = args.tensor(2).ref();
    uint32_t part_offsets[2] = {0, 0};
    uint32_t part_shapes[2] = {4, 4};
    ChipTensor part = w.view(part_shapes, part_offsets);
    CoreTaskArgs p0;
    p0.add_input(band);
    p0.add_inout(out);
    p0.add_scalar((uint64_t)0);
    rt_submit_aiv_task(0, p0);
    CoreTaskArgs p1;
    p1.add_input(part);
    p1.add_inout(out);
    p1.add_scalar((uint64_t)1);
    rt_submit_aiv_task(0, p1);
}
static void body2(const GraphTaskArgs& args) { body(args); }
int main() {
    std::vector<float> ws;
    ChipTensor W = tensor2(ws, 20, 4);
    for (size_t i = 0; i < ws.size(); ++i) ws[i] = static_cast<float>(i);
    std::vector<float> outs[4];
    std::vector<float> outs2[4];
    for (int call = 0; call < 4; ++call) {
        for (int first = 0; first < 2; ++first) {
            ChipTensor out = tensor2(first == 0 ? outs[call] : outs2[call], 2, 4);
            uint32_t band_offsets[2] = {static_cast<uint32_t>(4 * (call + first)), 0};
            uint32_t band_shapes[2] = {4, 4};
            ChipTensor band = W.view(band_shapes, band_offsets);
            GraphTaskArgs params;
            params.add_input(W);
            params.add_input(band);
            params.add_inout(out);
            rt_submit_graph(first == 0 ? &body : &body2, params);
        }
    }
    plc_rt_sync();
    for (int call = 0; call < 4; ++call) {
        CHECK_NEAR(outs[call][0], 16.0f * call);         // band: w[4 * call, 0]
        CHECK_NEAR(outs[call][4], 16.0f * call);         // part taken for band
        CHECK_NEAR(outs[call][7], 16.0f * call + 3.0f);
        CHECK_NEAR(outs2[call][0], 16.0f * (call + 1));  // band: w[4 * (call + 1), 0]
        CHECK_NEAR(outs2[call][4], 0.0f);                // part: w[0, 0]
        CHECK_NEAR(outs2[call][7], 3.0f);
    }
    CHECK(plc_rt_graph_recordings() == 2 && plc_rt_graph_replays() == 6);
    return finish();
}
"#
    );
    passes("graph_view_by_value", &main, &[]);
}

#[test]
fn a_graph_launched_while_another_is_recorded_is_an_error() {
    let main = format!(
        "{PRELUDE}{}",
        r#"
extern "C" void k_touch(int64_t* args) { plc::write(arg_tensor(args, 0), {0}, 1.0f); }
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {&k_touch};
const int plc_kernel_count = 1;
}
static void inner(const GraphTaskArgs& args) {
    CoreTaskArgs p;
    p.add_inout(args.tensor(0).ref());
    rt_submit_aiv_task(0, p);
}
static void outer(const GraphTaskArgs& args) {
    GraphTaskArgs nested;
    nested.add_inout(args.tensor(0).ref());
    rt_submit_graph(&inner, nested);
}
int main() {
    std::vector<float> x;
    ChipTensor X = tensor1(x, 4);
    GraphTaskArgs params;
    params.add_inout(X);
    rt_submit_graph(&outer, params);
    rt_orchestration_done();
    std::printf("failed %d recordings %llu x0 %g\n", plc_rt_failed() ? 1 : 0,
                (unsigned long long)plc_rt_graph_recordings(), static_cast<double>(x[0]));
    return plc_rt_failed() ? 1 : 0;
}
"#
    );
    let Some(run) = build_and_run("nested_graph", &main, &[]) else { return };
    assert!(!run.ok, "a nested recording must fail the run:\n{}", run.stdout);
    assert!(run.stderr.contains("nested Graph recording is not supported"), "{}", run.stderr);
    assert!(run.stderr.contains("plc runtime: 1 error(s)"), "{}", run.stderr);
    // Neither graph was recorded; the inner body still ran as ordinary tasks.
    assert!(run.stdout.contains("failed 1 recordings 0 x0 1"), "{}", run.stdout);
}

#[test]
fn kernels_get_tensors_then_scalars_and_run_once_per_block() {
    let main = format!(
        "{PRELUDE}{}",
        r#"
// k_blocks(x, out, base, gain): out[block] = x[block] * gain + base + block_num
extern "C" void k_blocks(int64_t* args) {
    const ChipTensor& x = arg_tensor(args, 0);
    const ChipTensor& out = arg_tensor(args, 1);
    int32_t base = from_u64<int32_t>(static_cast<uint64_t>(args[2]));
    float gain = from_u64<float>(static_cast<uint64_t>(args[3]));
    bool flag = from_u64<bool>(static_cast<uint64_t>(args[4]));
    int64_t b = plc::get_block_idx();
    float v = plc::read<float>(x, {b}) * gain + static_cast<float>(base + plc::get_block_num()) + (flag ? 0.5f : 0.0f);
    plc::write(out, {b}, v);
}
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {&k_blocks};
const int plc_kernel_count = 1;
}
int main() {
    std::vector<float> x, out;
    ChipTensor X = tensor1(x, 6), OUT = tensor1(out, 6);
    for (int i = 0; i < 6; ++i) x[i] = static_cast<float>(i);
    CoreTaskArgs p;
    p.add_input(X);
    p.add_output(OUT);
    int32_t base = -3;
    p.add_scalar(base, 2.0f, true);
    p.launch_spec.set_block_num(static_cast<int16_t>(6));
    rt_submit_aiv_task(0, p);
    CHECK(p.tensor_count() == 2 && p.scalar_count() == 3);
    CHECK(from_u64<int32_t>(p.scalar(0)) == -3);
    CHECK(p.scalar<float>(1) == 2.0f);
    plc_rt_sync();
    for (int i = 0; i < 6; ++i) CHECK_NEAR(out[i], 2.0f * i + 3.5f);
    CHECK(plc_rt_tasks_run() == 1);
    // A tensor after a scalar is refused, and so is the submit.
    CoreTaskArgs bad;
    bad.add_scalar(1);
    bad.add_input(X);
    CHECK(bad.has_error);
    // get_tensor_data / set_tensor_data through a strided view.
    uint32_t idx[1] = {4};
    CHECK_NEAR(get_tensor_data<float>(OUT, 1, idx), 11.5f);
    set_tensor_data<float>(OUT, 1, idx, 42.0f);
    CHECK_NEAR(out[4], 42.0f);
    // Allocations honour their initial value and dtype.
    uint32_t shape[2] = {2, 3};
    TensorCreateInfo ci(shape, 2, DataType::INT32);
    ci.set_initial_value(7);
    TaskOutputTensors alloc = alloc_tensors(ci);
    const ChipTensor& t = alloc.get_ref(0);
    uint32_t at[2] = {1, 2};
    CHECK(get_tensor_data<int32_t>(t, 2, at) == 7);
    CHECK(alloc.size() == 1 && t.numel() == 6 && t.dtype == DataType::INT32);
    return finish();
}
"#
    );
    passes("kernel_abi", &main, &[]);
}

#[test]
fn a_view_reaching_past_its_buffer_is_refused() {
    let main = format!(
        "{PRELUDE}{}",
        r#"
static int runs = 0;
extern "C" void k_count(int64_t* args) { (void)args; ++runs; }
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {&k_count};
const int plc_kernel_count = 1;
}
int main() {
    std::vector<float> xs;
    ChipTensor X = tensor2(xs, 4, 8);
    uint32_t offsets[2] = {2, 0};
    uint32_t shapes[2] = {4, 8};           // rows 2..5 of a 4-row tensor
    ChipTensor past = X.view(shapes, offsets);
    CoreTaskArgs p;
    p.add_input(past);
    rt_submit_aiv_task(0, p);
    uint32_t inside_shapes[2] = {2, 8};
    ChipTensor inside = X.view(inside_shapes, offsets);
    CoreTaskArgs q;
    q.add_input(inside);
    rt_submit_aiv_task(0, q);
    rt_orchestration_done();
    std::printf("runs %d failed %d\n", runs, plc_rt_failed() ? 1 : 0);
    return 0;
}
"#
    );
    let Some(run) = build_and_run("view_past_buffer", &main, &[]) else { return };
    assert!(run.stdout.contains("runs 1 failed 1"), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("is a view reaching past its buffer"), "{}", run.stderr);
}

#[test]
fn tile_library_numerics() {
    let main = format!(
        "{PRELUDE}{}",
        r#"
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {nullptr};
const int plc_kernel_count = 0;
}
using namespace plc;
int main() {
    // A 5 x 6 tensor with x[r][c] = 10 r + c.
    std::vector<float> xs;
    ChipTensor X = tensor2(xs, 5, 6);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 6; ++c) xs[r * 6 + c] = static_cast<float>(10 * r + c);

    // A load that leaves the tensor: zero padding, valid region = the part inside.
    Tile<float> t = load<float>(X, {3, 4}, {4, 4});
    CHECK(t.rows == 4 && t.cols == 4 && t.valid_rows == 2 && t.valid_cols == 2);
    CHECK_NEAR(t.at(0, 0), 34.0f);
    CHECK_NEAR(t.at(1, 1), 45.0f);
    CHECK_NEAR(t.at(0, 2), 0.0f);
    CHECK_NEAR(t.at(3, 3), 0.0f);
    // valid_shapes narrows the region further.
    Tile<float> v = load<float>(X, {0, 0}, {4, 4}, {3, 2});
    CHECK(v.valid_rows == 3 && v.valid_cols == 2);

    // Views: a slice (start_offset) and a transpose (strides).
    ChipTensor s = slice(X, {2, 3}, {1, 2});
    CHECK(s.start_offset == 8 && s.shapes[0] == 2 && s.shapes[1] == 3);
    Tile<float> st = load<float>(s, {0, 0}, {2, 3});
    CHECK_NEAR(st.at(1, 2), 24.0f);
    ChipTensor xt = transpose(X, 0, 1);
    Tile<float> tt = load<float>(xt, {0, 0}, {6, 5});
    CHECK_NEAR(tt.at(4, 2), 24.0f);
    CHECK(dim(xt, 0) == 6 && dim(X, -1) == 6);
    // A transposing load.
    Tile<float> tl = load<float>(X, {0, 0}, {2, 3}, Dims(), true);
    CHECK(tl.rows == 3 && tl.cols == 2);
    CHECK_NEAR(tl.at(2, 1), 12.0f);

    // Store writes only the valid region; atomic adds.
    std::vector<float> os;
    ChipTensor O = tensor2(os, 5, 6);
    store(t, {0, 0}, O);
    CHECK_NEAR(os[0 * 6 + 0], 34.0f);
    CHECK_NEAR(os[1 * 6 + 1], 45.0f);
    CHECK_NEAR(os[0 * 6 + 2], 0.0f);
    store(full<float>({2, 2}, 1.5f), {0, 0}, O, Dims(), true);
    store(full<float>({2, 2}, 1.5f), {0, 0}, O, Dims(), true);
    CHECK_NEAR(os[0], 37.0f);
    CHECK_NEAR(os[1 * 6 + 1], 48.0f);
    // A store that leaves the tensor drops what falls outside.
    store(full<float>({3, 3}, 9.0f), {4, 5}, O);
    CHECK_NEAR(os[4 * 6 + 5], 9.0f);

    // Elementwise with broadcasting, scalars, unary ops.
    Tile<float> a = load<float>(X, {0, 0}, {2, 3});
    Tile<float> row = load<float>(X, {4, 0}, {1, 3});
    Tile<float> sum = add(a, row);
    CHECK_NEAR(sum.at(1, 2), 12.0f + 42.0f);
    CHECK_NEAR(mul(a, 0.5).at(1, 1), 5.5f);
    CHECK_NEAR(maximum(a, 11.0f).at(0, 0), 11.0f);
    CHECK_NEAR(exp(full<float>({1, 1}, 1.0f)).at(0, 0), 2.7182818f);
    CHECK_NEAR(rsqrt(full<float>({1, 1}, 4.0f)).at(0, 0), 0.5f);
    CHECK_NEAR(neg(a).at(0, 1), -1.0f);
    CHECK_NEAR(rem(full<float>({1, 1}, -7.0f), 3.0f).at(0, 0), 2.0f);
    Tile<int32_t> iz = div(full<int32_t>({1, 2}, 7), full<int32_t>({1, 2}, 0));
    CHECK(iz.at(0, 0) == 0);
    CHECK(cmp(a, 11.0f, 4).at(1, 2) == 1.0f && cmp(a, 11.0f, 4).at(0, 0) == 0.0f);
    CHECK_NEAR(sel(pack_mask(cmp(a, 11.0f, 4)), a, neg(a)).at(0, 2), -2.0f);
    CHECK_NEAR(sel(pack_mask(cmp(a, 11.0f, 4)), a, neg(a)).at(1, 2), a.at(1, 2));
    CHECK(pack_mask(cmp(a, 11.0f, 4)).cols == 32 && pack_mask(cmp(a, 11.0f, 4)).data.size() % 32 == 0);
    CHECK_NEAR(sels(pack_mask(cmp(a, 11.0f, 4)), a, 7.0f).at(0, 0), 7.0f);

    // Reductions over the valid region, broadcasts.
    Tile<float> rs = row_sum(a);
    CHECK(rs.rows == 2 && rs.cols == 1);
    CHECK_NEAR(rs.at(1, 0), 33.0f);
    CHECK_NEAR(row_sum(t).at(0, 0), 34.0f + 35.0f);   // padding columns not summed
    CHECK_NEAR(row_max(load<float>(X, {0, 3}, {2, 4})).at(1, 0), 15.0f);
    CHECK_NEAR(col_max(a).at(0, 2), 12.0f);
    CHECK_NEAR(reduce_axis(a, Reduce::Sum, 0, false).at(0, 1), 12.0f);
    CHECK_NEAR(row_expand_sub(a, rs).at(1, 0), 10.0f - 33.0f);
    CHECK_NEAR(row_expand_div(a, rs).at(0, 2), 2.0f / 3.0f);
    CHECK_NEAR(col_expand_mul(a, row).at(1, 2), 12.0f * 42.0f);
    CHECK_NEAR(col_expand(a, row).at(1, 0), 40.0f);

    // Matmul accumulates in FP32: [2x3] @ [3x2].
    Tile<float> b = load<float>(X, {0, 0}, {3, 2});
    Tile<float> m = matmul<float>(a, b);
    CHECK(m.rows == 2 && m.cols == 2);
    CHECK_NEAR(m.at(0, 0), 0 * 0 + 1 * 10 + 2 * 20);
    CHECK_NEAR(m.at(1, 1), 10 * 1 + 11 * 11 + 12 * 21);
    Tile<float> acc = matmul_acc(m, a, b);
    CHECK_NEAR(acc.at(1, 1), 2.0f * (10 * 1 + 11 * 11 + 12 * 21));
    CHECK_NEAR(matmul<float>(a, a, false, true).at(0, 1), 0 * 10 + 1 * 11 + 2 * 12);

    // Layout: reshape keeps row-major order, slice and assemble move windows.
    Tile<float> r1 = reshape(a, {3, 2});
    CHECK_NEAR(r1.at(1, 1), 10.0f);
    Tile<float> sub_tile = slice(a, {1, 2}, {1, 1});
    CHECK_NEAR(sub_tile.at(0, 1), 12.0f);
    Tile<float> canvas = create<float>({3, 3});
    assemble(canvas, sub_tile, {2, 1});
    CHECK_NEAR(canvas.at(2, 2), 12.0f);
    CHECK_NEAR(fillpad(t, Pad::Max).at(3, 3), 3.4028235e38f);

    // Casts: FP16 and BF16 precision, float -> int rounding modes.
    Tile<float> third = full<float>({1, 1}, 1.0f / 3.0f);
    CHECK(cast<float>(third, DataType::BFLOAT16).at(0, 0) == 0.333984375f);
    CHECK(cast<float>(third, DataType::FLOAT16).at(0, 0) == 0.333251953125f);
    CHECK(cast<int32_t>(full<float>({1, 1}, -2.5f), DataType::INT32).at(0, 0) == -2);
    CHECK(cast<int32_t>(full<float>({1, 1}, 2.5f), DataType::INT32, Round::Rint).at(0, 0) == 2);
    CHECK(cast<int32_t>(full<float>({1, 1}, 2.5f), DataType::INT32, Round::Round).at(0, 0) == 3);

    // FP16 tensors: stored as half, read back as float.
    std::vector<uint16_t> hs(4, 0);
    uint32_t hshape[1] = {4};
    ChipTensor H = make_tensor_external(hs.data(), hshape, 1, DataType::FLOAT16);
    store(full<float>({4}, 1.0f / 3.0f), {0}, H);
    CHECK(hs[2] == 0x3555);
    CHECK(load<float>(H, {0}, {4}).at(0, 3) == 0.333251953125f);

    // Scratch tensors a kernel allocates are zero and freed with the Scratch.
    {
        Scratch scratch;
        ChipTensor local = create_tensor({2, 2}, DataType::FLOAT32);
        CHECK_NEAR(read<float>(local, {1, 1}), 0.0f);
        store(full<float>({2, 2}, 2.0f), {0, 0}, local);
        CHECK_NEAR(read<float>(local, {1, 0}), 2.0f);
        CHECK(Scratch::buffers().size() == 1);
    }
    CHECK(Scratch::buffers().empty());
    return finish();
}
"#
    );
    passes("tile_numerics", &main, &[]);
}

// ------------------------------------------------------------------ emitted kernels, run

/// Device functions covering the emitter's forms: a loop of run-time length carrying a
/// tile, an `if` merging tiles, reductions and broadcasts, matmul on moved tiles, a padded
/// load and a store of its valid region, a computed tensor returned (a runtime-allocated
/// result), an Spmd wrapper over a kernel that reads its block index, scalar arithmetic.
const KERNELS_PL: &str = r#"
import pypto.language as pl

N = 16


@pl.program
class Kernels:
    @pl.function(type=pl.FunctionType.InCore)
    def power(self, x: pl.Tensor[[N, N], pl.FP32], n: pl.Scalar[pl.INDEX], negate: pl.Scalar[pl.BOOL],
              out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        for k, (p,) in pl.range(1, n, 1, init_values=(t,)):
            q = pl.mul(p, t)
            powered = pl.yield_(q)
        if negate:
            r = pl.yield_(pl.neg(powered))
        else:
            r = pl.yield_(powered)
        out = pl.store(r, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def masked(self, x: pl.Tensor[[N, N], pl.FP32], absolute: pl.Out[pl.Tensor[[N, N], pl.FP32]],
               relu: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        t = pl.load(x, [0, 0], [N, N])
        tmp = pl.create_tile([N, N], pl.FP32)
        mask = pl.tile.cmps(t, 0.0, cmp_type=4)
        absolute = pl.store(pl.tile.sel(mask, t, pl.neg(t), tmp), [0, 0], absolute)
        relu = pl.store(pl.tile.sels(mask, t, tmp, 0.0), [0, 0], relu)
        return absolute, relu

    @pl.function(type=pl.FunctionType.InCore)
    def softmax_rows(self, x: pl.Tensor[[N, N], pl.FP32],
                     out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        m = pl.row_max(t)
        e = pl.exp(pl.row_expand_sub(t, m))
        s = pl.row_sum(e)
        out = pl.store(pl.row_expand_div(e, s), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def affine(self, a: pl.Tensor[[N, 8], pl.FP32], b: pl.Tensor[[8, N], pl.FP32],
               out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        ta = pl.load(a, [0, 0], [N, 8], target_memory=pl.MemorySpace.Mat)
        tb = pl.load(b, [0, 0], [8, N], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(pl.move(ta, pl.MemorySpace.Left), pl.move(tb, pl.MemorySpace.Right))
        out = pl.store(pl.add(c, 1.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def edge(self, x: pl.Tensor[[10, 10], pl.FP32],
             out: pl.InOut[pl.Tensor[[10, 10], pl.FP32]]) -> pl.Tensor[[10, 10], pl.FP32]:
        t = pl.load(x, [8, 8], [4, 4])
        s = pl.row_sum(t)
        out = pl.store(t, [8, 8], out)
        out = pl.store(s, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def doubled(self, v: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        d = pl.add(v, v)
        return d

    @pl.function(type=pl.FunctionType.InCore)
    def per_block(self, x: pl.Tensor[[64, 8], pl.FP32],
                  out: pl.Out[pl.Tensor[[64, 8], pl.FP32]]) -> pl.Tensor[[64, 8], pl.FP32]:
        b = pl.tile.get_block_idx()
        row = (b * 32) // 2
        t = pl.load(x, [row, 0], [16, 8])
        out = pl.store(pl.mul(t, b % 3 + 1), [row, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def blocks(self, x: pl.Tensor[[64, 8], pl.FP32],
               out: pl.Out[pl.Tensor[[64, 8], pl.FP32]]) -> pl.Tensor[[64, 8], pl.FP32]:
        out = self.per_block(x, out)
        return out
"#;

#[test]
fn emitted_kernels_compute_what_the_program_says() {
    let spec = plc::driver::PipelineSpec::default().verified();
    let input = plc::driver::Input::text("kernels.pl", KERNELS_PL);
    let c = plc::driver::compile(input, &spec, plc::driver::StopAt::End).expect("in memory");
    assert!(!c.has_errors(), "{:?}", c.diags);
    let (session, p) = (&c.session, &c.programs[0]);
    let mut kernels = Vec::new();
    let mut table = String::from("extern \"C\" {\n");
    let mut ids = String::new();
    let mut entries = Vec::new();
    for (k, f) in p.functions.values().enumerate() {
        let name = session.interner.get(f.name).to_string();
        let code = plc::emit::kernel::emit_kernel(p, &session.interner, f.name).expect("emitted");
        let symbol = plc::emit::kernel::kernel_symbol(&session.interner, f.name);
        table.push_str(&format!("void {symbol}(int64_t* args);\n"));
        entries.push(format!("&{symbol}"));
        ids.push_str(&format!("static const int ID_{name} = {k};\n"));
        kernels.push((name, code));
    }
    // `doubled` returns a tensor it computes: the caller allocates it after the tensors.
    let doubled = p.functions.values().find(|f| session.interner.get(f.name) == "doubled").unwrap();
    assert_eq!(plc::emit::kernel::runtime_allocated_results(p, doubled.name), vec![0]);
    table.push_str(&format!(
        "const plc_kernel_fn plc_kernel_table[] = {{{}}};\nconst int plc_kernel_count = {};\n}}\n{ids}",
        entries.join(", "),
        entries.len()
    ));
    let main = format!(
        "{PRELUDE}{table}{}",
        r#"
static std::vector<float> seq(size_t n, float scale) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(static_cast<int>((i * 7) % 11) - 5);
    return v;
}

int main() {
    // power(x, 3, negate=true): -x^3
    std::vector<float> xs = seq(256, 0.25f), po;
    uint32_t sq[2] = {16, 16};
    ChipTensor X = make_tensor_external(xs.data(), sq, 2);
    ChipTensor PO = tensor2(po, 16, 16);
    {
        CoreTaskArgs p;
        p.add_input(X);
        p.add_output(PO);
        p.add_scalar((uint64_t)3, true);
        rt_submit_aiv_task(ID_power, p);
    }
    // softmax_rows(x)
    std::vector<float> sm;
    ChipTensor SM = tensor2(sm, 16, 16);
    {
        CoreTaskArgs p;
        p.add_input(X);
        p.add_output(SM);
        rt_submit_aiv_task(ID_softmax_rows, p);
    }
    // masked(x): |x| through sel, relu(x) through sels, both reading cmps's packed mask
    std::vector<float> ab, re;
    ChipTensor AB = tensor2(ab, 16, 16), RE = tensor2(re, 16, 16);
    {
        CoreTaskArgs p;
        p.add_input(X);
        p.add_output(AB, RE);
        rt_submit_aiv_task(ID_masked, p);
    }
    // affine(a, b) = a @ b + 1
    std::vector<float> as = seq(128, 0.5f), bs = seq(128, 0.125f), af;
    uint32_t s16x8[2] = {16, 8}, s8x16[2] = {8, 16};
    ChipTensor A = make_tensor_external(as.data(), s16x8, 2), B = make_tensor_external(bs.data(), s8x16, 2);
    ChipTensor AF = tensor2(af, 16, 16);
    {
        CoreTaskArgs p;
        p.add_input(A, B);
        p.add_output(AF);
        rt_submit_aiv_task(ID_affine, p);
    }
    // edge(x10, out): a window leaving the tensor
    std::vector<float> es, eo;
    ChipTensor E = tensor2(es, 10, 10), EO = tensor2(eo, 10, 10);
    for (size_t i = 0; i < 100; ++i) {
        es[i] = static_cast<float>(i);
        eo[i] = -1.0f;
    }
    {
        CoreTaskArgs p;
        p.add_input(E);
        p.add_inout(EO);
        rt_submit_aiv_task(ID_edge, p);
    }
    // doubled(v): the result is allocated by the runtime
    std::vector<float> vs = seq(32, 1.0f);
    uint32_t s32[1] = {32};
    ChipTensor V = make_tensor_external(vs.data(), s32, 1);
    uint32_t d_shapes[1] = {32};
    TensorCreateInfo d_ci(d_shapes, 1, DataType::FLOAT32);
    CoreTaskArgs pd;
    pd.add_input(V);
    pd.add_output(d_ci);
    TaskOutputTensors d_outs = rt_submit_aiv_task(ID_doubled, pd);
    const ChipTensor& D = d_outs.get_ref(0);
    // blocks(x64): four blocks of 16 rows, block b scaled by b % 3 + 1
    std::vector<float> ys = seq(512, 1.0f), bo;
    uint32_t s64x8[2] = {64, 8};
    ChipTensor Y = make_tensor_external(ys.data(), s64x8, 2), BO = tensor2(bo, 64, 8);
    {
        CoreTaskArgs p;
        p.add_input(Y);
        p.add_output(BO);
        p.launch_spec.set_block_num(4);
        rt_submit_aiv_task(ID_blocks, p);
    }
    plc_rt_sync();

    for (int i = 0; i < 256; ++i) CHECK_NEAR(po[i], -xs[i] * xs[i] * xs[i]);
    for (int i = 0; i < 256; ++i) CHECK_NEAR(ab[i], std::fabs(xs[i]));
    for (int i = 0; i < 256; ++i) CHECK_NEAR(re[i], xs[i] > 0 ? xs[i] : 0.0f);
    for (int r = 0; r < 16; ++r) {
        float m = xs[r * 16];
        for (int c = 0; c < 16; ++c) m = std::max(m, xs[r * 16 + c]);
        float s = 0;
        for (int c = 0; c < 16; ++c) s += std::exp(xs[r * 16 + c] - m);
        for (int c = 0; c < 16; ++c) CHECK_NEAR(sm[r * 16 + c], std::exp(xs[r * 16 + c] - m) / s);
    }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float acc = 1.0f;
            for (int k = 0; k < 8; ++k) acc += as[i * 8 + k] * bs[k * 16 + j];
            CHECK_NEAR(af[i * 16 + j], acc);
        }
    CHECK_NEAR(eo[8 * 10 + 8], 88.0f);
    CHECK_NEAR(eo[9 * 10 + 9], 99.0f);
    CHECK_NEAR(eo[0], 88.0f + 89.0f);        // the row sums of the valid 2 x 2
    CHECK_NEAR(eo[10], 98.0f + 99.0f);
    CHECK_NEAR(eo[20], -1.0f);               // rows outside the valid region are not stored
    CHECK_NEAR(eo[8 * 10 + 7], -1.0f);
    for (uint32_t i = 0; i < 32; ++i) CHECK_NEAR(get_tensor_data<float>(D, 1, &i), 2.0f * vs[i]);
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 8; ++c) CHECK_NEAR(bo[r * 8 + c], ys[r * 8 + c] * static_cast<float>((r / 16) % 3 + 1));
    CHECK(plc_rt_tasks_run() == 7);
    return finish();
}
"#
    );
    let Some(run) = build_with_kernels("emitted_kernels", &main, &kernels, &[]) else { return };
    assert!(run.ok && run.stdout.contains("all checks passed"), "{}\n{}", run.stdout, run.stderr);
}

// ------------------------------------------------------------------ kernels of the examples

fn examples() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir("examples")
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pl"))
        .collect();
    out.push(PathBuf::from("examples/decoder_package/model.pl"));
    out.sort();
    out
}

/// Device functions whose C++ the emitter refuses, with the code it gives: the distributed
/// ops need a multi-rank runtime.
const REFUSED: &[(&str, &str, &str)] =
    &[("distributed_collectives", "exchange", "E0601"), ("distributed_ring_shift", "shift_from_previous", "E0601")];

/// The device functions of the programs in `paths` (through the default pipeline) through
/// emit_kernel: per program, its kernel files as (file name, code, kernel symbol); and
/// (file, function, code, message) of the functions refused.
type Refused = Vec<(String, String, String, String)>;

struct Unit {
    name: String,
    kernels: Vec<(String, String, String)>,
}

fn emit_all(paths: &[PathBuf]) -> (Vec<Unit>, Refused) {
    let mut units = Vec::new();
    let mut refused = Vec::new();
    for path in paths {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let spec = plc::driver::PipelineSpec::default();
        let c =
            plc::driver::compile(plc::driver::Input::file(path), &spec, plc::driver::StopAt::End).expect("readable");
        if c.has_errors() {
            continue; // examples with expected errors
        }
        let session = &c.session;
        for (k, p) in c.programs.iter().enumerate() {
            let mut unit = Unit { name: format!("{stem}_{k}"), kernels: Vec::new() };
            for f in p.functions.values().filter(|f| f.decl.kind.is_device_kernel()) {
                let name = session.interner.get(f.name).to_string();
                match plc::emit::kernel::emit_kernel(p, &session.interner, f.name) {
                    Ok(code) => {
                        let symbol = plc::emit::kernel::kernel_symbol(&session.interner, f.name);
                        unit.kernels.push((name, code, symbol));
                    }
                    Err(d) => refused.push((stem.clone(), name, d.code.as_str().to_string(), d.message.clone())),
                }
            }
            if !unit.kernels.is_empty() {
                units.push(unit);
            }
        }
    }
    (units, refused)
}

/// Every example through the default pipeline, each device function through emit_kernel,
/// each file compiled against the tile library and each program's kernels linked together
/// with the runtime (a Group or Spmd wrapper calls its kernels' implementations, declared in
/// its own file: the link checks the declarations).
#[test]
fn every_example_kernel_compiles_against_the_tile_library() {
    let (units, refused) = emit_all(&examples());
    let expected: Vec<(String, String, String)> =
        REFUSED.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
    let got: Vec<(String, String, String)> =
        refused.iter().map(|(a, b, c, _)| (a.clone(), b.clone(), c.clone())).collect();
    assert_eq!(got, expected, "kernels refused: {refused:?}");
    let count: usize = units.iter().map(|u| u.kernels.len()).sum();
    assert!(count > 40, "only {count} kernels emitted");
    compile_kernels("example_kernels", &units);
}

/// Compiles each kernel file (in `kernels/`, including `../runtime/pto_tile.h`) and links
/// each program's kernels with the runtime and a kernel table.
fn compile_kernels(name: &str, units: &[Unit]) {
    let Some(cxx) = cxx() else {
        eprintln!("skipping {name}: no C++ compiler (set CXX or install c++)");
        return;
    };
    let dir = temp_dir(name);
    plc::emit::runtime::write_runtime(&dir.join("runtime")).expect("runtime written");
    let compile = |args: &[&str], cwd: &std::path::Path| {
        Command::new(&cxx).args(FLAGS).args(args).current_dir(cwd).output().expect("the C++ compiler runs")
    };
    let out = compile(&["-c", "runtime/pto_runtime.cpp", "-o", "runtime.o"], &dir);
    assert!(out.status.success(), "the runtime does not build:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut failures = Vec::new();
    for unit in units {
        let udir = dir.join(&unit.name);
        std::fs::create_dir_all(udir.join("kernels")).expect("kernels/");
        let mut objects = Vec::new();
        let mut table = String::from("#include <stdint.h>\nextern \"C\" {\ntypedef void (*plc_kernel_fn)(int64_t*);\n");
        let mut entries = Vec::new();
        for (kernel, code, symbol) in &unit.kernels {
            let file = format!("kernels/{kernel}.cpp");
            std::fs::write(udir.join(&file), code).expect("kernel written");
            let object = format!("{kernel}.o");
            let out = compile(&["-I../runtime", "-c", &file, "-o", &object], &udir);
            if !out.status.success() {
                failures.push(format!("{}/{file}:\n{}\n{code}", unit.name, String::from_utf8_lossy(&out.stderr)));
            }
            objects.push(object);
            table.push_str(&format!("void {symbol}(int64_t* args);\n"));
            entries.push(format!("&{symbol}"));
        }
        table.push_str(&format!(
            "extern const plc_kernel_fn plc_kernel_table[];\nextern const int plc_kernel_count;\n\
             const plc_kernel_fn plc_kernel_table[] = {{{}}};\nconst int plc_kernel_count = {};\n}}\n\
             int main() {{ return 0; }}\n",
            entries.join(", "),
            entries.len()
        ));
        std::fs::write(udir.join("table.cpp"), table).expect("table written");
        if failures.is_empty() {
            let mut args: Vec<&str> = vec!["table.cpp", "../runtime.o"];
            args.extend(objects.iter().map(String::as_str));
            args.extend(["-o", "linked"]);
            let out = compile(&args, &udir);
            if !out.status.success() {
                failures.push(format!("{} does not link:\n{}", unit.name, String::from_utf8_lossy(&out.stderr)));
            }
        }
    }
    assert!(failures.is_empty(), "{} kernel builds fail:\n{}", failures.len(), failures.join("\n"));
}

/// PyPTO's own examples, when `PLC_PYPTO_EXAMPLES` names a directory of them: every device
/// function plc accepts is emitted and compiled; the refused ones are listed (by hand runs).
#[test]
fn pypto_example_kernels_compile_when_given() {
    let Ok(dir) = std::env::var("PLC_PYPTO_EXAMPLES") else { return };
    let mut paths = Vec::new();
    let mut stack = vec![PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("a directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "py") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let (units, refused) = emit_all(&paths);
    for (file, func, code, message) in &refused {
        eprintln!("refused: {file} {func}: {code} {message}");
    }
    let count: usize = units.iter().map(|u| u.kernels.len()).sum();
    eprintln!("{count} kernels emitted, {} refused", refused.len());
    compile_kernels("pypto_kernels", &units);
}

/// Issue 15, items 10 and 11: run-time sizes that wrapped (`rows * cols` of a tile, a
/// tensor of 2**31 x 2**31 elements allocated as one byte) fail instead of writing past a
/// buffer.
#[test]
fn sizes_that_would_wrap_fail_the_run() {
    let alloc = format!(
        "{PRELUDE}{}",
        r#"
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {nullptr};
const int plc_kernel_count = 0;
}
int main() {
    uint32_t shapes[2] = {2147483648u, 2147483648u};
    TensorCreateInfo ci(shapes, 2, DataType::FLOAT32);
    TaskOutputTensors outs = alloc_tensors(&ci, 1);
    (void)outs;
    rt_orchestration_done();
    std::printf("failed %d\n", plc_rt_failed() ? 1 : 0);
    return plc_rt_failed() ? 1 : 0;
}
"#
    );
    let Some(run) = build_and_run("alloc_wraps", &alloc, &[]) else { return };
    assert!(!run.ok && run.stdout.contains("failed 1"), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("beyond the target's limit"), "{}", run.stderr);
    let tile = format!(
        "{PRELUDE}{}",
        r#"
extern "C" {
const plc_kernel_fn plc_kernel_table[] = {nullptr};
const int plc_kernel_count = 0;
}
int main(int argc, char**) {
    int64_t big = argc > 5 ? 1 : (int64_t(1) << 62) + 1;
    plc::Tile<float> t = plc::make_tile<float>(plc::Dims{big, 4});
    std::printf("made %lld\n", static_cast<long long>(t.numel()));
    return 0;
}
"#
    );
    let Some(run) = build_and_run("tile_wraps", &tile, &[]) else { return };
    assert!(!run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("more elements than the target's limit"), "{}", run.stderr);
}
