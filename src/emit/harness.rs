//! `plc compile --harness`: `harness/main.cpp` and `build.sh`, so that `sh OUT/build.sh`
//! builds `OUT/prog`, which runs the entry on the inputs `plc run` makes (the same seed
//! and `--arg` values: `harness/plc_inputs.h` is the C++ twin of the interpreter's input
//! generator) and prints the same checksum lines.

use super::cpp::{ctype, runtime_dtype, stable_name, Namer};
use super::{Files, Harness};
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::intern::{Interner, Symbol};
use crate::interp::inputs::{parse_tensor_arg, ElementValue, TensorArg};
use crate::ir::{DType, Dim, Direction, Program, Type};
use crate::source::FileId;
use std::fmt::Write;

/// The C++ twin of the interpreter's inputs and checksum lines.
pub(crate) const PLC_INPUTS_H: &str = include_str!("../interp/plc_inputs.h");

/// One entry parameter as the harness makes it.
pub(crate) enum Input {
    /// `values`: the elements given with `--arg NAME=[...]` (else drawn from the stream).
    Tensor {
        name: String,
        dir: Direction,
        shape: Vec<i64>,
        dtype: DType,
        values: Option<Vec<ElementValue>>,
    },
    Scalar {
        name: String,
        dtype: DType,
        value: String,
    },
}

pub fn harness(inputs: &[Input], h: &Harness, sources: &[String]) -> Files {
    let main = main_cpp(inputs, h.seed);
    let script = build_sh(sources);
    vec![
        ("harness/plc_inputs.h".to_string(), PLC_INPUTS_H.to_string()),
        ("harness/main.cpp".to_string(), main),
        ("build.sh".to_string(), script),
    ]
}

/// The entry's parameters as the harness makes them, from their types and the `--arg`
/// values; a missing, unknown or malformed `--arg` is E0617.
pub(crate) fn inputs(
    p: &Program,
    names: &Interner,
    entry: Symbol,
    h: &Harness,
    root: FileId,
) -> Result<Vec<Input>, Vec<Diagnostic>> {
    let f = &p.functions[&entry];
    let at = || Label::primary(root, Span::new(0, 0), "in this program");
    let mut errors = Vec::new();
    let mut inputs = Vec::new();
    // The extent each `pl.dynamic` dimension takes from a tensor given with `--arg`.
    let mut bound: rustc_hash::FxHashMap<Symbol, i64> = rustc_hash::FxHashMap::default();
    // An `Out` tensor the program adds into holds the caller's data, as an `InOut` one
    // (`plc run` alike).
    let accumulated = crate::ir::lineage::accumulated_params(p, entry);
    let dirs: Vec<Direction> = f
        .params
        .iter()
        .enumerate()
        .map(
            |(k, q)| {
                if q.dir == Direction::Out && accumulated.get(k) == Some(&true) {
                    Direction::InOut
                } else {
                    q.dir
                }
            },
        )
        .collect();
    for (q, dir) in f.params.iter().zip(dirs.iter().copied()) {
        let name = names.get(p.var(q.var).source);
        let Some((_, v)) = h.args.iter().find(|(k, _)| k == name) else { continue };
        let (Some(shape), Some((given, _))) = (p.types.get(p.var(q.var).ty).shape(), given_shape(v, dir)) else {
            continue;
        };
        for (d, n) in shape.iter().zip(given) {
            if let Dim::Dyn(sym) = d {
                bound.entry(*sym).or_insert(n);
            }
        }
    }
    let mut known = Vec::new();
    for (q, dir) in f.params.iter().zip(dirs.iter().copied()) {
        let name = names.get(p.var(q.var).source).to_string();
        known.push(name.clone());
        let given = h.args.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str());
        let ploc = p.var(q.var).loc;
        let at = || {
            if ploc.is_compiler_made() {
                at()
            } else {
                Label::primary(ploc.file, ploc.span, "this parameter")
            }
        };
        match p.types.get(p.var(q.var).ty) {
            Type::Scalar(d) => match given {
                Some(v) if !v.is_empty() => inputs.push(Input::Scalar { name, dtype: *d, value: v.to_string() }),
                _ => errors.push(Diagnostic::error(
                    Code::E0617,
                    format!("the harness needs a value for scalar parameter `{name}`: give `--arg {name}=VALUE`"),
                    at(),
                )),
            },
            t => {
                // Constant extents, and `pl.dynamic` ones another argument's shape binds.
                let fixed: Option<Vec<i64>> = t
                    .shape()
                    .map(|s| {
                        s.iter()
                            .map(|d| match d {
                                Dim::Const(n) => Some(*n),
                                Dim::Dyn(sym) => bound.get(sym).copied(),
                                _ => None,
                            })
                            .collect()
                    })
                    .and_then(|v: Vec<Option<i64>>| v.into_iter().collect());
                let parsed = given.map(|v| (v, parse_tensor_arg(v)));
                let (shape, dtype, values) = match (parsed, fixed, t.dtype()) {
                    (Some((v, Err(why))), ..) => {
                        // Malformed: a usage error, as in `plc run`.
                        errors.push(Diagnostic::error(
                            Code::E0811,
                            format!("`--arg {name}={v}`: {why}; a tensor takes `DIMxDIM[:DTYPE]`, as in `{name}=64x32:FP32`, or its elements, as in `{name}=[1, 2, 3]`"),
                            at(),
                        ));
                        continue;
                    }
                    (Some((v, Ok(TensorArg::Shape(shape, d)))), _, static_dtype) => {
                        // As `plc run` does: the shape given must have the declared rank,
                        // constant extents and dtype (E0811, a usage error).
                        if let Some(why) = contradiction(names, t.shape(), static_dtype, &shape, d) {
                            errors.push(Diagnostic::error(
                                Code::E0811,
                                format!("`--arg {name}={v}`: `{name}` {why}"),
                                at(),
                            ));
                            continue;
                        }
                        (shape, d.or(static_dtype).unwrap_or(DType::Fp32), None)
                    }
                    (Some((v, Ok(TensorArg::Values(values)))), fixed, static_dtype) => {
                        let dtype = static_dtype.unwrap_or(DType::Fp32);
                        let why = if dir == Direction::Out {
                            Err(format!(
                                "`{name}` is an Out tensor, which starts undefined: give its shape, not its elements"
                            ))
                        } else {
                            // The declared shape when it is known, else rank 1 from the count.
                            let shape = match (fixed, given_shape(v, dir)) {
                                (Some(fixed), _) => Ok(fixed),
                                (None, Some((rank1, _))) if t.shape().is_none_or(|s| s.len() == 1) => Ok(rank1),
                                _ => Err(format!("the shape of `{name}` is known only at run time and is not rank 1")),
                            };
                            shape.and_then(|shape| {
                                let n: i64 = shape.iter().product();
                                if n != values.len() as i64 {
                                    return Err(format!("`{name}` has {n} elements, {} are given", values.len()));
                                }
                                let elements =
                                    values.iter().map(|e| e.element(dtype)).collect::<Result<Vec<_>, _>>()?;
                                Ok((shape, elements))
                            })
                        };
                        match why {
                            Ok((shape, elements)) => (shape, dtype, Some(elements)),
                            Err(why) => {
                                errors.push(Diagnostic::error(Code::E0811, format!("`--arg {name}={v}`: {why}"), at()));
                                continue;
                            }
                        }
                    }
                    (None, Some(shape), d) => (shape, d.unwrap_or(DType::Fp32), None),
                    (None, None, _) => {
                        errors.push(Diagnostic::error(
                            Code::E0617,
                            format!("the shape of tensor parameter `{name}` is known only at run time: give `--arg {name}=DIMxDIM[:DTYPE]`"),
                            at(),
                        ));
                        continue;
                    }
                };
                inputs.push(Input::Tensor { name, dir, shape, dtype, values });
            }
        }
    }
    for (k, _) in &h.args {
        if !known.contains(k) {
            errors.push(Diagnostic::error(
                Code::E0617,
                format!("`--arg {k}=...`: `{}` has no parameter `{k}`", names.get(entry)),
                at(),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(inputs)
}

/// How a shape (and dtype) given with `--arg` contradicts the parameter's declared type,
/// if it does: another rank, another constant extent, another dtype.
fn contradiction(
    names: &Interner,
    declared: Option<&[Dim]>,
    dtype: Option<DType>,
    shape: &[i64],
    given: Option<DType>,
) -> Option<String> {
    if let Some(dims) = declared {
        let text: Vec<String> = dims
            .iter()
            .map(|d| match d {
                Dim::Const(n) => n.to_string(),
                Dim::Dyn(sym) => names.get(*sym).to_string(),
                _ => "?".to_string(),
            })
            .collect();
        if dims.len() != shape.len() {
            return Some(format!(
                "is declared with rank {} ([{}]), the shape given has rank {}",
                dims.len(),
                text.join(", "),
                shape.len()
            ));
        }
        for (k, (d, &n)) in dims.iter().zip(shape).enumerate() {
            if matches!(d, Dim::Const(m) if *m != n) {
                return Some(format!("is declared with the shape [{}]; dimension {k} given is {n}", text.join(", ")));
            }
        }
    }
    match (dtype, given) {
        (Some(d), Some(g)) if d != g => Some(format!("is declared {}, not {}", d.name(), g.name())),
        _ => None,
    }
}

/// The shape a tensor's `--arg` gives: the shape written, or for elements (`[1, 2, 3]`, not
/// for an `Out` tensor) their count as a rank-1 shape.
fn given_shape(text: &str, dir: Direction) -> Option<(Vec<i64>, Option<DType>)> {
    match parse_tensor_arg(text).ok()? {
        TensorArg::Shape(shape, dtype) => Some((shape, dtype)),
        TensorArg::Values(v) if dir != Direction::Out => Some((vec![v.len() as i64], None)),
        TensorArg::Values(_) => None,
    }
}

fn main_cpp(inputs: &[Input], seed: u64) -> String {
    let mut out = String::new();
    out.push_str("// The harness of plc's C++ output: runs the entry on the inputs `plc run` makes\n");
    out.push_str("// (same seed and --arg values) and prints the same checksum lines.\n");
    out.push_str("// Usage: prog [SEED]\n\n");
    out.push_str("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n#include <vector>\n\n");
    out.push_str("#include \"pto_orchestration_api.h\"\n#include \"plc_inputs.h\"\n\n");
    out.push_str("extern \"C\" void aicpu_orchestration_entry(const ChipTaskArgs& orch_args);\n\n");
    out.push_str("int main(int argc, char** argv) {\n");
    let _ = writeln!(out, "    uint64_t seed = {seed}ULL;");
    out.push_str("    if (argc > 1) seed = strtoull(argv[1], nullptr, 10);\n");
    // `state` is unused when every input is given by value.
    out.push_str("    [[maybe_unused]] uint64_t state = seed;\n\n");
    let (tensors, scalars) = fill(&mut out, inputs, true);
    // An Out tensor is undefined on the real runtime: poisoned here, as `plc run` does.
    for (v, _, dir, shape, dtype) in &tensors {
        if *dir == Direction::Out {
            let n: i64 = shape.iter().product();
            let _ = writeln!(out, "    for (size_t k = 0; k < {n}; ++k) {v}_data[k] = {};", poison(*dtype));
        }
    }
    out.push_str("    ChipTaskArgs args;\n");
    for (v, _, dir, _, _) in &tensors {
        let method = match dir {
            Direction::In => "add_input",
            Direction::Out => "add_output",
            Direction::InOut => "add_inout",
        };
        let _ = writeln!(out, "    args.{method}({v});");
    }
    for v in &scalars {
        let _ = writeln!(out, "    args.add_scalar({v});");
    }
    out.push_str("\n    aicpu_orchestration_entry(args);\n    rt_orchestration_done();\n");
    out.push_str("    if (plc_rt_failed()) return 1;\n");
    out.push_str("    fprintf(stderr, \"plc-runtime: graph recordings=%lld replays=%lld tasks=%lld\\n\",\n");
    out.push_str("            (long long)plc_rt_graph_recordings(), (long long)plc_rt_graph_replays(),\n");
    out.push_str("            (long long)plc_rt_tasks_run());\n\n");
    // Elements never written print as zeros, with a warning (E0804 of `plc run`).
    for (v, name, dir, shape, dtype) in &tensors {
        if *dir == Direction::Out {
            let n: i64 = shape.iter().product();
            let _ = writeln!(
                out,
                "    if (size_t undefined = plc_unpoison({v}_data.data(), {n}, {})) {{\n        fprintf(stderr, \"plc runtime warning: %zu of the {n} elements of the Out tensor `{name}` were never written: they print as 0, but on simpler they are undefined\\n\", undefined);\n    }}",
                poison(*dtype)
            );
        }
    }
    print(&mut out, &tensors);
    out.push_str("    return 0;\n}\n");
    out
}

/// The C++ expression of the poison an `Out` tensor of `dtype` starts with, in its storage.
fn poison(dtype: DType) -> String {
    match half_conversions(dtype) {
        Some((to, _)) => format!("plc_rt::{to}(plc_poison<float>())"),
        None => format!("plc_poison<{}>()", storage(dtype)),
    }
}

/// A tensor the harness made: its C++ variable (`p_x`, data in `p_x_data`), name,
/// direction, shape and dtype.
pub(crate) type Made = (String, String, Direction, Vec<i64>, DType);

/// Declares and fills the entry's arguments from the seeded stream `state`, in parameter
/// order (`with_tensors`: also a `ChipTensor` over each tensor's data); returns the tensors
/// and the scalars' variables.
pub(crate) fn fill(out: &mut String, inputs: &[Input], with_tensors: bool) -> (Vec<Made>, Vec<String>) {
    let mut tensors = Vec::new();
    let mut scalars = Vec::new();
    let mut namer = Namer::new();
    for input in inputs {
        match input {
            Input::Tensor { name, dir, shape, dtype, values } => {
                let v = input_var(&mut namer, name);
                let n: i64 = shape.iter().product();
                let store = storage(*dtype);
                let _ = writeln!(out, "    // {name}: {} {}", dtype.name(), dims_text(shape));
                let _ = writeln!(out, "    std::vector<{store}> {v}_data({}, 0);", n.max(1));
                if let Some(values) = values {
                    // Given with `--arg NAME=[...]`: nothing is drawn.
                    let (init, text): (&str, Vec<String>) = if dtype.is_float() {
                        let text = values
                            .iter()
                            .map(|e| match *e {
                                ElementValue::Float(f) => format!("{f:?}"),
                                ElementValue::Int(i) => format!("{i}.0"),
                            })
                            .collect();
                        ("double", text)
                    } else {
                        let text = values
                            .iter()
                            .map(|e| match *e {
                                ElementValue::Int(i) if i == i64::MIN => "INT64_MIN".to_string(),
                                ElementValue::Int(i) => format!("{i}LL"),
                                ElementValue::Float(f) => format!("{}LL", f as i64),
                            })
                            .collect();
                        ("int64_t", text)
                    };
                    let convert = match half_conversions(*dtype) {
                        Some((to, _)) => format!("plc_rt::{to}((float)given[k])"),
                        None => format!("({store})given[k]"),
                    };
                    let _ = writeln!(
                        out,
                        "    {{\n        static const {init} given[{}] = {{{}}};",
                        values.len().max(1),
                        if text.is_empty() { "0".to_string() } else { text.join(", ") }
                    );
                    let _ = writeln!(out, "        for (size_t k = 0; k < {n}; ++k) {v}_data[k] = {convert};\n    }}");
                } else if *dir != Direction::Out {
                    if let Some((to, _)) = half_conversions(*dtype) {
                        // Drawn as floats, stored in the tensor's 16-bit format.
                        let _ = writeln!(out, "    {{\n        std::vector<float> drawn({}, 0.0f);", n.max(1));
                        let _ = writeln!(out, "        plc_fill_float(&state, drawn.data(), {n});");
                        let _ = writeln!(
                            out,
                            "        for (size_t k = 0; k < {n}; ++k) {v}_data[k] = plc_rt::{to}(drawn[k]);\n    }}"
                        );
                    } else if dtype.is_float() {
                        let _ = writeln!(out, "    plc_fill_float(&state, {v}_data.data(), {n});");
                    } else {
                        let kind = if *dtype == DType::Bool { "PLC_ELEMENT_BOOL" } else { "PLC_ELEMENT_INT" };
                        let _ = writeln!(out, "    {{\n        std::vector<int64_t> drawn({}, 0);", n.max(1));
                        let _ = writeln!(out, "        plc_fill_int(&state, drawn.data(), {n}, {kind});");
                        let _ = writeln!(
                            out,
                            "        for (size_t k = 0; k < {n}; ++k) {v}_data[k] = ({store})drawn[k];\n    }}"
                        );
                    }
                }
                if with_tensors {
                    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                    let _ = writeln!(out, "    uint32_t {v}_shapes[{}] = {{{}}};", shape.len().max(1), dims.join(", "));
                    let _ = writeln!(
                        out,
                        "    ChipTensor {v} = make_tensor_external({v}_data.data(), {v}_shapes, {}, {});\n",
                        shape.len(),
                        runtime_dtype(*dtype)
                    );
                } else {
                    out.push('\n');
                }
                tensors.push((v, name.clone(), *dir, shape.clone(), *dtype));
            }
            Input::Scalar { name, dtype, value } => {
                let v = input_var(&mut namer, name);
                let _ = writeln!(out, "    {} {v} = ({})({value});", ctype(*dtype), ctype(*dtype));
                scalars.push(v);
            }
        }
    }
    (tensors, scalars)
}

/// Prints the checksum line of each Out and InOut tensor, from its data.
pub(crate) fn print(out: &mut String, tensors: &[Made]) {
    for (v, name, dir, shape, dtype) in tensors {
        if *dir == Direction::In {
            continue;
        }
        let n: i64 = shape.iter().product();
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let _ = writeln!(out, "    {{\n        int64_t shape[{}] = {{{}}};", shape.len().max(1), dims.join(", "));
        // Half floats are printed from their FP32 values, integers from their int64 ones.
        let converted = match half_conversions(*dtype) {
            Some((_, from)) => Some(("float", "0.0f", format!("plc_rt::{from}({v}_data[k])"))),
            None if dtype.is_float() => None,
            None => Some(("int64_t", "0", format!("(int64_t){v}_data[k]"))),
        };
        let data = match converted {
            Some((elem, zero, value)) => {
                let _ = writeln!(out, "        std::vector<{elem}> values({}, {zero});", n.max(1));
                let _ = writeln!(out, "        for (size_t k = 0; k < {n}; ++k) values[k] = {value};");
                "values.data()".to_string()
            }
            None => format!("{v}_data.data()"),
        };
        let _ = writeln!(
            out,
            "        plc_print_checksum(stdout, \"{name}\", shape, {}, \"{}\", {data}, {n});\n    }}",
            shape.len(),
            dtype.name()
        );
    }
}

/// The C++ variable of an entry parameter in `main`: `p_<name>`, with its `_data` and
/// `_shapes` companions all free (parameters `w` and `w_data` would otherwise both
/// declare `p_w_data`); a counter when they are not.
fn input_var(namer: &mut Namer, name: &str) -> String {
    let base = format!("p_{}", stable_name(name, &[]));
    for k in 0.. {
        let v = if k == 0 { base.clone() } else { format!("{base}_{k}") };
        let all = [v.clone(), format!("{v}_data"), format!("{v}_shapes")];
        if all.iter().all(|n| !namer.is_taken(n)) {
            for n in &all {
                namer.reserve(n);
            }
            return v;
        }
    }
    unreachable!("a free name")
}

/// The runtime's conversions (to the storage format, from it) of a 16-bit float dtype.
fn half_conversions(d: DType) -> Option<(&'static str, &'static str)> {
    match d {
        DType::Fp16 => Some(("float_to_half", "half_to_float")),
        DType::Bf16 => Some(("float_to_bf16", "bf16_to_float")),
        _ => None,
    }
}

/// The C++ element type a tensor of `d` is stored as on the host: the runtime's storage
/// (FP16 and BF16 as their 16-bit patterns, other floats as `float`).
pub(crate) fn storage(d: DType) -> &'static str {
    if half_conversions(d).is_some() {
        "uint16_t"
    } else if d.is_float() {
        "float"
    } else if d == DType::Bool {
        "uint8_t"
    } else {
        ctype(d)
    }
}

fn dims_text(shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}

/// `build.sh`: compiles each of the given sources (relative to the output directory), the
/// runtime's and the harness's to an object in `build/`, `JOBS` at a time (default: the
/// number of processors), then links them into `prog`, honouring `CXX` and `CXXFLAGS`.
/// One object per source lets a compiler cache (`CXX="ccache c++"`) reuse the runtime's,
/// which is the same in every output.
fn build_sh(sources: &[String]) -> String {
    let mut out = String::from("#!/bin/sh\n");
    out.push_str("# Builds prog: the orchestration code, the kernels, the CPU runtime and the harness, each\n");
    out.push_str("# compiled to an object in build/, JOBS at a time (default: the number of processors),\n");
    out.push_str("# then linked. CXX (default c++) and CXXFLAGS (default -O1) are honoured; with\n");
    out.push_str("# CXX=\"ccache c++\" the runtime's objects are reused from one output to the next.\n");
    out.push_str("# -ffp-contract=off keeps float results bit-identical to `plc run` on machines with fused\n");
    out.push_str("# multiply-add; -pthread links the threads a Group's kernels run on.\n");
    out.push_str("set -e\ncd \"$(dirname \"$0\")\"\n");
    let list: Vec<&str> = sources.iter().map(String::as_str).collect();
    let _ = writeln!(out, "srcs=\"{}\"", list.join(" "));
    out.push_str("for f in runtime/*.cpp; do\n    if [ -f \"$f\" ]; then srcs=\"$srcs $f\"; fi\ndone\n");
    out.push_str("srcs=\"$srcs harness/main.cpp\"\n");
    out.push_str("PLC_CXX=\"${CXX:-c++}\"\n");
    out.push_str("PLC_CXXFLAGS=\"-std=c++17 -pthread -ffp-contract=off ${CXXFLAGS:--O1} -Iruntime -Iharness\"\n");
    out.push_str("export PLC_CXX PLC_CXXFLAGS\n");
    out.push_str("jobs=\"${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}\"\n");
    out.push_str("mkdir -p build\n");
    out.push_str("objs=\"\"\nfor f in $srcs; do objs=\"$objs build/$(echo \"$f\" | tr / _).o\"; done\n");
    out.push_str(
        "printf '%s\\n' $srcs | xargs -P \"$jobs\" -n 1 sh -c \\\n    \
         '$PLC_CXX $PLC_CXXFLAGS -c \"$1\" -o \"build/$(echo \"$1\" | tr / _).o\"' sh\n",
    );
    out.push_str("$PLC_CXX $PLC_CXXFLAGS $objs -o prog\n");
    out
}
