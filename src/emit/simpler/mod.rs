//! The a2a3sim target (`plc compile --target a2a3sim`): the same orchestration C++ as the
//! default target, with kernels and a runner for simpler's CPU simulation platform a2a3sim
//! (`host_build_graph` runtime) instead of plc's CPU runtime.
//!
//! - Each kernel is `kernels/<name>.cpp`, self-contained, as simpler compiles it (one
//!   shared object per kernel, no include path of plc's): simpler's kernel ABI
//!   (`kernel_prelude.h`: `extern "C" void kernel_entry(int64_t* args)`, simpler's 128-byte
//!   `ChipTensor`, the block index and count from `args[48]`, the vector lane from
//!   `args[49]`), then plc's tile library (`runtime/pto_tile.h`), then the implementation
//!   functions of the device functions the kernel calls (a Group or Spmd wrapper carries
//!   its kernels), then its own, then `kernel_entry`.
//! - `kernel_config.json` has what simpler's `ChipCallable` is built from: per kernel the
//!   func_id, source, core type, signature and scalar count; per entry the source,
//!   function name and signature.
//! - With `--harness`: `run.sh` runs the entry on a2a3sim on the inputs `plc run` makes and
//!   prints what `plc run` prints (`harness/io.cpp` makes the inputs and prints the lines,
//!   with the C++ twin of the interpreter's input generator; `harness/run.py` builds the
//!   `ChipCallable` with simpler's own compiler driver and runs it through simpler's Python
//!   `Worker`, without torch).

use super::cpp::runtime_dtype;
use super::harness::{self as cpu_harness, Input};
use super::{Files, Harness};
use crate::diag::Diagnostic;
use crate::intern::{Interner, Symbol};
use crate::ir::{Direction, Program};
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// simpler's kernel ABI, as plc's tile library needs it (with `@DATA_TYPES@` for the data
/// types section of plc's runtime header, `@CHIP_TENSOR_FIELDS@` and `@CHIP_TENSOR_METHODS@`
/// for what its `ChipTensor` shares with the runtime's, `@MAKE_TENSOR_EXTERNAL@` for the
/// runtime's `make_tensor_external`).
const KERNEL_PRELUDE: &str = include_str!("kernel_prelude.h");

/// The runner `run.sh` calls with simpler's Python.
const RUN_PY: &str = include_str!("run.py");

/// The setup script of simpler's a2a3sim that `run.sh` runs when the set-up folder is not
/// ready (`PLC_SIMPLER_SETUP` overrides it): the one beside plc's source tree.
const SETUP_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/simpler-sim-setup.sh");

/// The section of plc's runtime header that a kernel and the harness share with it: the
/// `DataType`s, their sizes, the scalar packing (`to_u64`, `from_u64`), `always_assert`
/// and the element conversions (`plc_rt::convert`, `load_as`, `store_as`, ...).
pub fn data_types() -> &'static str {
    let api = runtime_file("pto_orchestration_api.h");
    let start =
        api.find("// ------------------------------------------------------------------ data types").unwrap_or(0);
    let end =
        api.find("// ------------------------------------------------------------------ tensors").unwrap_or(api.len());
    api.get(start..end).unwrap_or_default()
}

/// The leading fields of plc's `ChipTensor` (`buffer` to `is_contiguous`), which simpler's
/// layout of the struct shares, in the same order.
fn chip_tensor_fields() -> &'static str {
    let api = runtime_file("pto_orchestration_api.h");
    let Some(start) = api.find("    struct Buffer {") else { return "" };
    let last = "    bool is_contiguous = true;\n";
    let end = api[start..].find(last).map_or(api.len(), |k| start + k + last.len());
    api.get(start..end).unwrap_or_default()
}

/// The methods of plc's `ChipTensor` (`numel`, `view`, `reshape`, `transpose`, ...), for
/// simpler's layout of the struct: the CPU runtime's, without its graph-recording hook.
fn chip_tensor_methods() -> String {
    let api = runtime_file("pto_orchestration_api.h");
    let Some(start) = api.find("    uint64_t numel() const {") else { return String::new() };
    let end = api[start..].find("\n};\n").map_or(api.len(), |k| start + k + 1);
    api[start..end].lines().filter(|l| !l.contains("plc_rt_derived(")).map(|l| format!("{l}\n")).collect()
}

/// plc's `make_tensor_external` (host memory as a contiguous row-major tensor), which the
/// tile library's kernel-local tensors use: the fields it sets are the ones simpler's
/// `ChipTensor` shares.
fn make_tensor_external() -> &'static str {
    let api = runtime_file("pto_orchestration_api.h");
    let Some(start) = api.find("/// Wraps host memory the caller owns") else { return "" };
    let end = api[start..].find("\n}\n").map_or(api.len(), |k| start + k + 3);
    api.get(start..end).unwrap_or_default()
}

fn runtime_file(name: &str) -> &'static str {
    super::runtime::RUNTIME_FILES.iter().find(|(n, _)| *n == name).map(|(_, text)| *text).unwrap_or_default()
}

/// plc's tile library without its `#include` of the CPU runtime's header (the prelude
/// stands in for it).
fn tile_library() -> String {
    runtime_file("pto_tile.h").replace("#include \"pto_orchestration_api.h\"\n", "")
}

/// `kernels/<name>.cpp` for simpler: one self-contained file (see the module's doc).
#[allow(clippy::result_large_err)] // the one diagnostic is the interface the backend shares
pub fn kernel(program: &Program, names: &Interner, func: Symbol) -> Result<String, Diagnostic> {
    let parts = super::kernel::kernel_parts(program, names, func)?;
    // The device functions it calls, callees before callers, each once.
    let mut order = Vec::new();
    let mut seen = FxHashSet::default();
    seen.insert(func);
    let mut definitions = Vec::new();
    for &g in &parts.callees {
        carried(program, names, g, &mut seen, &mut order, &mut definitions)?;
    }
    let kind = program.functions.get(&func).map(|f| f.decl.kind.name()).unwrap_or_default();
    let mut out = String::new();
    let _ = writeln!(out, "// Kernel: {} ({kind}), for simpler's a2a3sim\n// Generated by plc\n", names.get(func));
    out.push_str(
        &KERNEL_PRELUDE
            .replace("// @DATA_TYPES@\n", data_types())
            .replace("    // @CHIP_TENSOR_FIELDS@\n", chip_tensor_fields())
            .replace("    // @CHIP_TENSOR_METHODS@\n", &chip_tensor_methods())
            .replace("// @MAKE_TENSOR_EXTERNAL@\n", make_tensor_external()),
    );
    out.push('\n');
    out.push_str(&tile_library());
    out.push_str("\nnamespace plc_kernels {\n\n");
    for (g, text) in order.iter().zip(&definitions) {
        let _ = writeln!(out, "// {} (called here)", names.get(*g));
        out.push_str(text);
        out.push('\n');
    }
    out.push_str(&parts.definition);
    out.push_str("\n}  // namespace plc_kernels\n\n");
    out.push_str("extern \"C\" __aicore__ void kernel_entry(__gm__ int64_t* args) {\n");
    out.push_str("    plc_sim_args() = args;\n");
    out.push_str(&parts.wrapper_body.replace("    (void)args;\n", ""));
    out.push_str("}\n");
    Ok(out)
}

/// Adds the implementation of `g` and of what it calls (callees first) to `definitions`.
#[allow(clippy::result_large_err)] // as `kernel`
fn carried(
    program: &Program,
    names: &Interner,
    g: Symbol,
    seen: &mut FxHashSet<Symbol>,
    order: &mut Vec<Symbol>,
    definitions: &mut Vec<String>,
) -> Result<(), Diagnostic> {
    if !seen.insert(g) {
        return Ok(());
    }
    let parts = super::kernel::kernel_parts(program, names, g)?;
    for &h in &parts.callees {
        carried(program, names, h, seen, order, definitions)?;
    }
    order.push(g);
    definitions.push(parts.definition);
    Ok(())
}

/// The number of scalar parameters of a device function (its kernel's scalar slots).
pub fn scalar_count(program: &Program, func: Symbol) -> usize {
    program
        .functions
        .get(&func)
        .map(|f| f.params.iter().filter(|q| program.types.get(program.var(q.var).ty).is_scalar()).count())
        .unwrap_or(0)
}

/// `--harness` for a2a3sim: `run.sh`, `harness/io.cpp`, `harness/run.py`,
/// `harness/run.json` and the headers `io.cpp` includes.
pub fn harness(names: &Interner, entry: Symbol, inputs: &[Input], h: &Harness) -> Files {
    let mut io = String::new();
    io.push_str("// The inputs `plc run` makes for the entry (same seed and --arg values), written for\n");
    io.push_str("// harness/run.py, and the checksum lines `plc run` prints, from what the run left.\n");
    io.push_str("// Usage: io inputs [SEED] DIR  |  io print DIR\n\n");
    io.push_str("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    io.push_str("#include <string>\n#include <vector>\n\n");
    io.push_str("#include \"plc_data_types.h\"\n#include \"plc_inputs.h\"\n\n");
    io.push_str("[[noreturn]] void plc_rt_assert_failed(const char* cond, const char* file, int line) {\n");
    io.push_str("    fprintf(stderr, \"assertion failed: %s (%s:%d)\\n\", cond, file, line);\n    exit(1);\n}\n\n");
    io.push_str("// Writes (or reads) `bytes` bytes of `data` as the file DIR/NAME.\n");
    io.push_str("static void plc_file(bool write, const char* dir, const char* name, void* data, size_t bytes) {\n");
    io.push_str("    std::string path = std::string(dir) + \"/\" + name;\n");
    io.push_str("    FILE* f = fopen(path.c_str(), write ? \"wb\" : \"rb\");\n");
    io.push_str("    if (f == nullptr || (bytes > 0 && (write ? fwrite(data, 1, bytes, f) : fread(data, 1, bytes, f)) != bytes)) {\n");
    io.push_str("        fprintf(stderr, \"io: cannot %s %s\\n\", write ? \"write\" : \"read\", path.c_str());\n");
    io.push_str("        exit(1);\n    }\n    fclose(f);\n}\n\n");
    io.push_str("int main(int argc, char** argv) {\n");
    io.push_str("    bool write = argc >= 3 && strcmp(argv[1], \"inputs\") == 0;\n");
    io.push_str("    if (!write && !(argc == 3 && strcmp(argv[1], \"print\") == 0)) {\n");
    io.push_str(
        "        fprintf(stderr, \"usage: io inputs [SEED] DIR | io print DIR\\n\");\n        return 2;\n    }\n",
    );
    io.push_str("    const char* dir = argv[argc - 1];\n");
    let _ = writeln!(io, "    uint64_t seed = {}ULL;", h.seed);
    io.push_str("    if (write && argc > 3) seed = strtoull(argv[2], nullptr, 10);\n");
    io.push_str("    [[maybe_unused]] uint64_t state = seed;\n\n");
    let (tensors, scalars) = cpu_harness::fill(&mut io, inputs, false);
    let bytes = |v: &str| format!("{v}_data.data(), {v}_data.size() * sizeof({v}_data[0])");
    io.push_str("    if (write) {\n");
    for (k, (v, ..)) in tensors.iter().enumerate() {
        let _ = writeln!(io, "        plc_file(true, dir, \"t{k}.bin\", {});", bytes(v));
    }
    let packed: Vec<String> = scalars.iter().map(|v| format!("to_u64({v})")).collect();
    let _ = writeln!(io, "        uint64_t scalars[{}] = {{{}}};", packed.len().max(1), packed.join(", "));
    let _ = writeln!(io, "        plc_file(true, dir, \"scalars.bin\", scalars, {} * sizeof(uint64_t));", packed.len());
    io.push_str("        return 0;\n    }\n");
    for (k, (v, _, dir, ..)) in tensors.iter().enumerate() {
        if *dir != Direction::In {
            let _ = writeln!(io, "    plc_file(false, dir, \"t{k}.bin\", {});", bytes(v));
        }
    }
    io.push('\n');
    cpu_harness::print(&mut io, &tensors);
    io.push_str("    return 0;\n}\n");

    let run = run_json(names, entry, inputs);
    let mut data_types_h =
        String::from("// plc's data types and element conversions (the section of its runtime header).\n");
    data_types_h.push_str("#ifndef PLC_DATA_TYPES_H\n#define PLC_DATA_TYPES_H\n\n");
    data_types_h.push_str("#include <cstddef>\n#include <cstdint>\n#include <cstring>\n#include <type_traits>\n\n");
    data_types_h.push_str(data_types());
    data_types_h.push_str("#endif  // PLC_DATA_TYPES_H\n");
    vec![
        ("harness/plc_inputs.h".to_string(), cpu_harness::PLC_INPUTS_H.to_string()),
        ("harness/plc_data_types.h".to_string(), data_types_h),
        ("harness/io.cpp".to_string(), io),
        ("harness/run.json".to_string(), run),
        ("harness/run.py".to_string(), RUN_PY.to_string()),
        ("run.sh".to_string(), run_sh(h.seed)),
    ]
}

/// `harness/run.json`: the entry and its arguments as run.py passes them to simpler.
fn run_json(names: &Interner, entry: Symbol, inputs: &[Input]) -> String {
    use serde_json::{json, Value};
    let mut tensors = Vec::new();
    let mut scalars = 0;
    for input in inputs {
        match input {
            Input::Tensor { name, dir, shape, dtype, .. } => {
                let k = tensors.len();
                tensors.push(json!({
                    "name": name,
                    "file": format!("t{k}.bin"),
                    "direction": match dir { Direction::In => "IN", Direction::Out => "OUT", Direction::InOut => "INOUT" },
                    "dtype": runtime_dtype(*dtype).trim_start_matches("DataType::"),
                    "shape": shape,
                }));
            }
            Input::Scalar { .. } => scalars += 1,
        }
    }
    let run: Value = json!({ "entry": names.get(entry), "tensors": tensors, "scalars": scalars });
    let mut text = serde_json::to_string_pretty(&run).unwrap_or_default();
    text.push('\n');
    text
}

/// `run.sh [SEED]`: sets simpler up if needed, makes the inputs, runs the entry on a2a3sim
/// and prints the checksum lines.
fn run_sh(seed: u64) -> String {
    format!(
        r#"#!/bin/sh
# Runs the entry on simpler's a2a3sim (host_build_graph) on the inputs `plc run` makes
# (same seed and --arg values) and prints the lines `plc run` prints.
# Usage: sh run.sh [SEED]
#   PLC_SIMPLER_SIM    simpler's set-up folder (default $HOME/.cache/plc/simpler-sim),
#                      set up on first use (about 10 minutes) with
#   PLC_SIMPLER_SETUP  the setup script (default: the one beside plc's source tree);
#                      torch is not installed unless SIMPLER_TORCH asks for it.
#   CXX                builds the input/output helper harness/io.cpp (default c++).
#   RUNS               runs the entry that many times in one process (default 1);
#                      every run must leave the same outputs.
set -e
here=$(cd "$(dirname "$0")" && pwd)
seed=${{1:-{seed}}}
sim=${{PLC_SIMPLER_SIM:-$HOME/.cache/plc/simpler-sim}}
setup=${{PLC_SIMPLER_SETUP:-{SETUP_SCRIPT}}}
if [ ! -f "$sim/.plc-ready" ]; then
    mkdir -p "$sim"
    echo "run.sh: setting simpler's a2a3sim up in $sim" >&2
    export SIMPLER_TORCH="${{SIMPLER_TORCH-}}"
    if command -v flock >/dev/null 2>&1; then
        flock "$sim/.plc-setup-lock" bash "$setup" "$sim" >&2
    else
        bash "$setup" "$sim" >&2
    fi
    touch "$sim/.plc-ready"
fi
mkdir -p "$here/build"
if [ ! -x "$here/build/io" ] || [ "$here/harness/io.cpp" -nt "$here/build/io" ]; then
    ${{CXX:-c++}} -std=c++17 -O1 -ffp-contract=off -I"$here/harness" "$here/harness/io.cpp" -o "$here/build/io.tmp.$$"
    mv "$here/build/io.tmp.$$" "$here/build/io"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/build/io" inputs "$seed" "$work"
PATH="$sim/bin:$PATH" PYTHONPATH="$sim/simpler:$sim/simpler/python" \
    "$sim/venv/bin/python" "$here/harness/run.py" "$here" "$work" >&2
"$here/build/io" print "$work"
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spliced_sections_are_found() {
        let types = data_types();
        assert!(
            types.starts_with("// ---") && types.contains("enum class DataType") && types.contains("namespace plc_rt")
        );
        assert!(!types.contains("struct ChipTensor"));
        let methods = chip_tensor_methods();
        assert!(methods.contains("ChipTensor view(") && methods.contains("ChipTensor transpose("), "{methods}");
        assert!(!methods.contains("plc_rt_derived") && !methods.contains("Buffer"), "{methods}");
        assert!(methods.trim_end().ends_with('}'), "{methods}");
        let fields = chip_tensor_fields();
        assert!(
            fields.starts_with("    struct Buffer {") && fields.ends_with("bool is_contiguous = true;\n"),
            "{fields}"
        );
        let make = make_tensor_external();
        assert!(make.contains("inline ChipTensor make_tensor_external(") && make.ends_with("\n}\n"), "{make}");
        assert!(!tile_library().contains("#include \"pto_orchestration_api.h\""));
        assert!(
            KERNEL_PRELUDE.contains("// @DATA_TYPES@\n")
                && KERNEL_PRELUDE.contains("    // @CHIP_TENSOR_FIELDS@\n")
                && KERNEL_PRELUDE.contains("    // @CHIP_TENSOR_METHODS@\n")
                && KERNEL_PRELUDE.contains("// @MAKE_TENSOR_EXTERNAL@\n")
        );
    }
}
