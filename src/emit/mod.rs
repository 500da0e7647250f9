//! The C++ backend: `plc compile` turns the program after the whole pipeline into C++
//! that builds and runs on any machine with a C++17 compiler.
//!
//! - `orchestration`: each Orchestration function as `orchestration/<entry>.cpp`, with the
//!   Graph functions it launches emitted once each, keyed by name.
//! - `kernel`: each device function (InCore, AIC, AIV, Group, Spmd) as
//!   `kernels/<name>.cpp` over the CPU tile library.
//! - `runtime`: the CPU reference runtime and tile library headers, written to `runtime/`.

pub(crate) mod cpp;
pub(crate) mod harness;
pub mod kernel;
pub(crate) mod orchestration;
pub mod pto;
pub(crate) mod publish;
pub(crate) mod py_arith;
pub mod runtime;
pub(crate) mod simpler;

use crate::diag::Span;
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::{Direction, FuncKind, Program, Type};
use crate::source::FileId;
use rayon::prelude::*;

/// What `plc compile` was asked for.
#[derive(Default)]
pub struct Options {
    /// Only this Orchestration function (default: every one).
    pub entry: Option<String>,
    /// Also write `harness/main.cpp` and `build.sh` (`run.sh` for a2a3sim).
    pub harness: Option<Harness>,
    /// The runtime the output runs on.
    pub target: Target,
    /// The form of the kernels (`--kernels`; PTO-ISA only for a2a3sim).
    pub kernels: KernelForm,
}

/// The form of the kernels (`--kernels`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KernelForm {
    /// Plain C++ over plc's CPU tile library (the default).
    #[default]
    Cpu,
    /// PTO-ISA instructions over tiles in on-chip memory (see [`pto`]; a2a3sim only).
    PtoIsa,
}

/// The runtime `plc compile`'s output is for (`--target`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// plc's own CPU runtime, written to `runtime/` (the default).
    #[default]
    Cpu,
    /// simpler's CPU simulation platform a2a3sim, `host_build_graph` runtime (see [`simpler`]).
    A2a3Sim,
}

/// The inputs the harness makes: the same as `plc run` with the same values.
#[derive(Default)]
pub struct Harness {
    pub seed: u64,
    /// `--arg NAME=VALUE`, as given.
    pub args: Vec<(String, String)>,
}

/// The files of one compilation, relative to the output directory, in a fixed order.
pub type Files = Vec<(String, String)>;

/// A file's text without the spare capacity it grew (up to as much again as its length),
/// given back as soon as the file is emitted so that the next files reuse it: the whole
/// output is held until it is written (docs/performance.md).
fn fit(mut text: String) -> String {
    text.shrink_to_fit();
    text
}

/// Emits the C++ for the programs (after the whole pipeline).
pub fn compile(programs: &[Program], names: &Interner, root: FileId, opts: &Options) -> Result<Files, Vec<Diagnostic>> {
    let mut entries: Vec<(usize, Symbol)> = Vec::new();
    for (i, p) in programs.iter().enumerate() {
        for f in p.functions.values() {
            let wanted = opts.entry.as_deref().is_none_or(|e| names.get(f.name) == e);
            if f.kind == FuncKind::Orchestration && wanted {
                entries.push((i, f.name));
            }
        }
    }
    let nowhere = || Label::primary(root, Span::new(0, 0), "in this program");
    if entries.is_empty() {
        let message = match &opts.entry {
            Some(e) => format!("there is no Orchestration function `{e}` to compile"),
            None => "the program has no Orchestration function to compile".to_string(),
        };
        return Err(vec![Diagnostic::error(Code::E0616, message, nowhere()).with_help(
            "an Opaque function becomes Orchestration when it holds a `pl.at(level=pl.Level.CORE_GROUP)` region; `@pl.jit` functions are Orchestration".to_string(),
        )]);
    }
    let program = entries[0].0;
    if entries.iter().any(|&(i, _)| i != program) {
        return Err(vec![Diagnostic::error(
            Code::E0616,
            "Orchestration functions in several programs (module-level functions and a `@pl.program` class, or two classes): choose one with `--entry`".to_string(),
            nowhere(),
        )]);
    }
    let p = &programs[program];
    let mut shared = orchestration::Shared {
        split_mixed: opts.target == Target::A2a3Sim && opts.kernels == KernelForm::PtoIsa,
        ..Default::default()
    };
    let mut files = Files::new();
    let mut errors = Vec::new();
    for &(_, e) in &entries {
        match orchestration::emit_entry(p, names, e, &mut shared) {
            Ok(code) => files.push((entry_file(names, e), fit(code))),
            Err(d) => errors.extend(d),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Every device function: the launched kernels and the kernels wrappers call. Each
    // kernel reads the program only, so they are emitted in parallel (rayon, as many
    // threads as cores, `RAYON_NUM_THREADS` to choose) and gathered in program order: the
    // files and the errors are the same, in the same order, as a serial run's.
    let kernels: Vec<Symbol> = p.functions.values().filter(|f| f.kind.is_device_kernel()).map(|f| f.name).collect();
    let emitted: Vec<Result<String, Box<Diagnostic>>> = kernels
        .par_iter()
        .map(|&name| {
            match (opts.target, opts.kernels) {
                (Target::Cpu, _) => kernel::emit_kernel(p, names, name),
                (Target::A2a3Sim, KernelForm::Cpu) => simpler::kernel(p, names, name),
                (Target::A2a3Sim, KernelForm::PtoIsa) => pto::kernel(p, names, name),
            }
            .map(fit)
            .map_err(Box::new)
        })
        .collect();
    for (&name, emitted) in kernels.iter().zip(emitted) {
        match emitted {
            Ok(code) => files.push((kernel::kernel_file(names, name), code)),
            Err(d) => errors.push(*d),
        }
    }
    // The AIC half of each mixed Group launched as a mixed task (its AIV half is its kernel).
    for &g in shared.aic_halves.keys() {
        match pto::aic_half(p, names, g) {
            Ok(code) => files.push((pto::aic_half_file(names, g), code)),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if opts.target == Target::Cpu {
        for (name, text) in runtime::RUNTIME_FILES {
            files.push((format!("runtime/{name}"), text.to_string()));
        }
    }
    files.push(("kernel_config.json".to_string(), kernel_config(p, names, &entries, &shared, opts)));
    if opts.target == Target::Cpu {
        files.push(("kernels/kernel_table.cpp".to_string(), kernel_table(names, &shared)));
    }
    if let Some(h) = &opts.harness {
        if entries.len() != 1 {
            return Err(vec![Diagnostic::error(
                Code::E0616,
                "the harness runs one entry, and the program has several Orchestration functions: choose one with `--entry`"
                    .to_string(),
                nowhere(),
            )]);
        }
        let entry = entries[0].1;
        let inputs = harness::inputs(p, names, entry, h, root)?;
        if opts.target == Target::A2a3Sim {
            files.extend(simpler::harness(names, entry, &inputs, h));
            return Ok(files);
        }
        // The runtime's own sources are compiled by build.sh's loop over runtime/.
        let mut sources: Vec<String> = files
            .iter()
            .map(|(rel, _)| rel.clone())
            .filter(|rel| rel.ends_with(".cpp") && !rel.starts_with("runtime/"))
            .collect();
        sources.sort();
        files.extend(harness::harness(&inputs, h, &sources));
    }
    Ok(files)
}

/// The file of an Orchestration function, `orchestration/<stem>.cpp` (a long or unsafe
/// name gets its [`cpp::stable_name`]).
fn entry_file(names: &Interner, e: Symbol) -> String {
    format!("orchestration/{}.cpp", cpp::stable_file_stem(names.get(e), &[]))
}

/// `kernel_config.json`: the runtime, each entry's source and signature, and each kernel's
/// func_id, source, core type and tensor directions (for a2a3sim also the target and each
/// kernel's scalar count).
fn kernel_config(
    p: &Program,
    names: &Interner,
    entries: &[(usize, Symbol)],
    shared: &orchestration::Shared,
    opts: &Options,
) -> String {
    let target = opts.target;
    let pto_isa = target == Target::A2a3Sim && opts.kernels == KernelForm::PtoIsa;
    use serde_json::{json, Value};
    let dir = |d: Direction| match d {
        Direction::In => "IN",
        Direction::Out => "OUT",
        Direction::InOut => "INOUT",
    };
    let entries: Vec<Value> = entries
        .iter()
        .map(|&(_, e)| {
            let f = &p.functions[&e];
            let params: Vec<Value> = f
                .params
                .iter()
                .map(|q| {
                    let name = names.get(p.var(q.var).source);
                    match p.types.get(p.var(q.var).ty) {
                        Type::Scalar(d) => json!({"name": name, "kind": "scalar", "dtype": d.name()}),
                        t => json!({
                            "name": name,
                            "kind": "tensor",
                            "direction": dir(q.dir),
                            "dtype": t.dtype().map(|d| d.name()),
                            "shape": t.shape().map(|s| s.iter().map(|d| match d {
                                crate::ir::Dim::Const(n) => json!(n),
                                crate::ir::Dim::Dyn(s) => json!(names.get(*s)),
                                _ => Value::Null,
                            }).collect::<Vec<_>>()),
                        }),
                    }
                })
                .collect();
            let signature: Vec<&str> =
                f.params.iter().filter(|q| !p.types.get(p.var(q.var).ty).is_scalar()).map(|q| dir(q.dir)).collect();
            json!({
                "name": names.get(e),
                "source": entry_file(names, e),
                "function_name": "aicpu_orchestration_entry",
                "signature": signature,
                "params": params,
            })
        })
        .collect();
    // Each kernel, and before a mixed Group's (its AIV half) its AIC half.
    let halves = shared.func_ids.iter().flat_map(|(&k, &id)| {
        let aic = shared.aic_halves.get(&k).map(|&a| (k, a, true));
        aic.into_iter().chain([(k, id, false)])
    });
    let kernels: Vec<Value> = halves
        .map(|(k, id, aic_half)| {
            let f = &p.functions[&k];
            // A PTO-ISA kernel with L1/L0 tiles is compiled for a cube core.
            let cube = aic_half || f.kind == FuncKind::Aic || (pto_isa && pto::uses_cube(p, names, k));
            let mut kernel = json!({
                "func_id": id,
                "name": if aic_half { format!("{}.aic", names.get(k)) } else { names.get(k).to_string() },
                "source": if aic_half { pto::aic_half_file(names, k) } else { kernel::kernel_file(names, k) },
                "core_type": if cube { "aic" } else { "aiv" },
                "function_type": f.kind.name(),
                "signature": shared.signatures.get(&k).cloned().unwrap_or_default(),
            });
            if target == Target::A2a3Sim {
                kernel["scalar_count"] = json!(simpler::scalar_count(p, k));
            }
            kernel
        })
        .collect();
    let mut config = json!({
        "runtime": "host_build_graph",
        "orchestrations": entries,
        "kernels": kernels,
    });
    if let Some(call) = &p.built_by {
        // Which configuration of a factory this output is (several may be compiled).
        config["built_by"] = json!(call);
    }
    if target == Target::A2a3Sim {
        config["target"] = json!("a2a3sim");
        config["kernel_form"] = json!(if pto_isa { "pto-isa" } else { "cpu" });
    }
    let mut text = serde_json::to_string_pretty(&config).unwrap_or_default();
    text.push('\n');
    text
}

/// Publishes the files into `dir` as one set: a reader of `dir` sees the old set or the
/// new one, never a mix, and a failure leaves `dir` as it was (see [`publish`]). Files
/// in `dir` that plc did not write are kept. A failure names the operation and the file
/// it failed on.
pub fn write_files(dir: &std::path::Path, files: &Files) -> Result<(), crate::source::FileError> {
    publish::publish(dir, files)
}

/// `kernels/kernel_table.cpp`: the kernels by func_id, for the CPU runtime's dispatch.
fn kernel_table(names: &Interner, shared: &orchestration::Shared) -> String {
    let mut out = String::from("// The kernels by func_id (see kernel_config.json).\n// Generated by plc\n\n");
    out.push_str("#include <stdint.h>\n\nextern \"C\" {\n\n");
    out.push_str("typedef void (*plc_kernel_fn)(int64_t*);\n");
    for k in shared.func_ids.keys() {
        out.push_str(&format!("void {}(int64_t* args);\n", kernel::kernel_symbol(names, *k)));
    }
    out.push_str("\nextern const plc_kernel_fn plc_kernel_table[];\nextern const int plc_kernel_count;\n");
    let entries: Vec<String> =
        shared.func_ids.keys().map(|k| format!("    &{},", kernel::kernel_symbol(names, *k))).collect();
    if entries.is_empty() {
        out.push_str("const plc_kernel_fn plc_kernel_table[] = {nullptr};\nconst int plc_kernel_count = 0;\n");
    } else {
        out.push_str(&format!("const plc_kernel_fn plc_kernel_table[] = {{\n{}\n}};\n", entries.join("\n")));
        out.push_str(&format!("const int plc_kernel_count = {};\n", entries.len()));
    }
    out.push_str("\n}  // extern \"C\"\n");
    out
}
