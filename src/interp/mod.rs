//! The IR interpreter: runs a function of a program at any stage of the pipeline (straight
//! from lowering or after any pass) on deterministic inputs and prints a checksum of each
//! output tensor. It is the reference the emitted C++ is checked against, and it shows
//! that every pass keeps the program's meaning: the same entry gives the same lines before
//! and after each pass.
//!
//! ```text
//! $ plc run examples/accumulate_band.pl --entry entry --arg w=512x128 --arg acc=128x128
//! acc: shape=[128, 128] dtype=FP32 sum=-145.679688 abs_sum=13357.945312
//! ```
//!
//! - [`inputs`]: the input generator and the output line (and their C++ twin).
//! - [`value`]: values: scalars, tuples, tensors (views of shared buffers), tiles.
//! - `exec`: statements, expressions, calls, task launches, scopes.
//! - `ops`: the semantics of the op table's ops.
//!
//! See `docs/interpreter.md` for the semantics and the limits.

mod exec;
mod group;
pub mod inputs;
mod ops;
mod tasks;
pub mod value;

pub use inputs::PLC_INPUTS_H;

use crate::diag::{Code, Diagnostic, Label, Span};
use crate::intern::Interner;
use crate::ir::{DType, Dim, Direction, Loc, Program, Type, VarId};
use crate::source::SourceMap;
use exec::{Frame, Interp};
use inputs::SplitMix64;
use rustc_hash::FxHashMap;
use value::{Data, Tensor, Value};

/// What to run and with which inputs.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The entry function: `name`, or `Class.name` when several programs have one.
    pub entry: String,
    /// `--arg NAME=VALUE`, in command-line order: a scalar's value, or a tensor's shape and
    /// dtype (`64x32:FP32`).
    pub args: Vec<(String, String)>,
    pub seed: u64,
    /// The most statements, loop iterations and element work (one unit per 256 elements) a
    /// run may take before it stops with an error.
    pub max_steps: u64,
    /// Model Graph record and replay as simpler does it (the default); off, every call of a
    /// Graph function runs its body, the meaning the passes keep.
    pub replay_graphs: bool,
}

impl RunOptions {
    pub const DEFAULT_MAX_STEPS: u64 = 50_000_000;

    pub fn new(entry: impl Into<String>) -> Self {
        RunOptions {
            entry: entry.into(),
            args: Vec::new(),
            seed: 0,
            max_steps: Self::DEFAULT_MAX_STEPS,
            replay_graphs: true,
        }
    }

    pub fn arg(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.args.push((name.into(), value.into()));
        self
    }
}

/// Why a run did not finish, before it becomes a diagnostic (see [`run_outputs`]).
enum Failure {
    /// The command was wrong (E0810, E0811): about the `--arg` of that parameter, or (`None`)
    /// about `--entry`.
    Usage { arg: Option<String>, code: Code, message: String },
    /// The program failed while running.
    Fault(exec::Fault),
    /// The interpreter itself failed: a bug in plc.
    Internal(String),
}

/// A usage error about `--entry` (E0810).
fn entry_error(message: String) -> Failure {
    Failure::Usage { arg: None, code: Code::E0810, message }
}

/// A usage error about the `--arg` of parameter `name` (E0811).
fn arg_error(name: &str, message: String) -> Failure {
    Failure::Usage { arg: Some(name.to_string()), code: Code::E0811, message }
}

impl From<exec::Fault> for Failure {
    fn from(f: exec::Fault) -> Failure {
        Failure::Fault(f)
    }
}

impl Failure {
    /// The diagnostic: a fault at the expression that failed (at the entry function when
    /// the compiler made it); a usage error at the `--entry`/`--arg` it is about, in a
    /// `<command line>` file added to `files`.
    fn into_diagnostic(self, files: &mut SourceMap, options: &RunOptions, entry_loc: Option<Loc>) -> Box<Diagnostic> {
        let command_line = |files: &mut SourceMap, arg: Option<&str>| {
            let mut text = format!("--entry {}", options.entry);
            let mut span = Span::new(0, text.len() as u32);
            for (k, v) in &options.args {
                text.push_str(" --arg ");
                let lo = text.len() as u32;
                text.push_str(&format!("{k}={v}"));
                if arg == Some(k.as_str()) {
                    span = Span::new(lo, text.len() as u32);
                }
            }
            (files.add("<command line>", text), span)
        };
        let d = match self {
            Failure::Usage { arg, code, message } => {
                let (file, span) = command_line(files, arg.as_deref());
                let label = if arg.is_some() { "this argument" } else { "the function to run" };
                Diagnostic::error(code, message, Label::primary(file, span, label))
            }
            Failure::Fault(f) => {
                let loc = Some(f.loc).filter(|l| !l.is_compiler_made()).or(entry_loc.filter(|l| !l.is_compiler_made()));
                let label = match loc {
                    Some(loc) => Label::primary(loc.file, loc.span, "failed here"),
                    None => {
                        let (file, span) = command_line(files, None);
                        Label::primary(file, span, "while running this function")
                    }
                };
                Diagnostic::error(f.code, f.message, label)
            }
            Failure::Internal(message) => {
                let (file, span) = command_line(files, None);
                Diagnostic::error(Code::E0709, message, Label::primary(file, span, "while running this function"))
            }
        };
        Box::new(d)
    }
}

/// An output tensor after the run: an `Out`/`InOut` parameter of the entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// The parameter's source name.
    pub name: String,
    pub shape: Vec<i64>,
    pub dtype: DType,
    /// The elements in row-major order.
    pub data: Data,
    /// How many elements of an `Out` tensor the run never wrote (printed as zeros; on
    /// simpler they are undefined), and where the parameter is declared.
    pub undefined: usize,
    pub loc: crate::ir::Loc,
}

impl Output {
    /// The line `plc run` prints for it.
    pub fn line(&self) -> String {
        inputs::checksum_line(&self.name, &self.shape, self.dtype, &self.data)
    }
}

/// Runs the entry function and returns the output lines (one per `Out`/`InOut` tensor
/// parameter, in signature order, without newlines). A failure is a diagnostic: E08xx for
/// the run (E0810 and E0811 are usage errors, about the command line), E0709 for a bug.
pub fn run(
    programs: &[Program],
    names: &Interner,
    files: &mut SourceMap,
    options: &RunOptions,
) -> Result<Vec<String>, Box<Diagnostic>> {
    Ok(run_outputs(programs, names, files, options)?.iter().map(Output::line).collect())
}

/// Runs the entry function and returns its output tensors. The run happens on a thread of
/// its own with a large stack, so deeply nested programs cannot overflow the caller's.
pub fn run_outputs(
    programs: &[Program],
    names: &Interner,
    files: &mut SourceMap,
    options: &RunOptions,
) -> Result<Vec<Output>, Box<Diagnostic>> {
    Ok(run_checked(programs, names, files, options)?.0)
}

/// [`run_outputs`], with the warnings the run found: races between tasks (E0805) and reads
/// of undefined elements (E0806), host code's accesses simpler cannot make as `plc run`
/// does (E0807), in the order found.
pub fn run_checked(
    programs: &[Program],
    names: &Interner,
    files: &mut SourceMap,
    options: &RunOptions,
) -> Result<(Vec<Output>, Vec<Diagnostic>), Box<Diagnostic>> {
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("plc-interp".to_string())
            .stack_size(256 << 20)
            .spawn_scoped(scope, || run_here(programs, names, options))
            .map_err(|e| Failure::Internal(format!("cannot start the interpreter's thread: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(Failure::Internal("the interpreter stopped unexpectedly (a bug in plc)".into())))
    });
    let entry_loc = find_entry(programs, names, &options.entry).ok().map(|(i, f)| programs[i].functions[&f].loc);
    let (outputs, notices) = result.map_err(|failure| failure.into_diagnostic(files, options, entry_loc))?;
    let warnings = notices
        .into_iter()
        .filter_map(|n| {
            let primary = Some(n.primary.0).filter(|l| !l.is_compiler_made()).or(entry_loc)?;
            let mut d = Diagnostic::new(
                crate::diag::Severity::Warning,
                n.code,
                n.message,
                Label::primary(primary.file, primary.span, n.primary.1),
            );
            for (loc, text) in n.secondary {
                if !loc.is_compiler_made() && loc != primary {
                    d = d.with_label(Label::secondary(loc.file, loc.span, text));
                }
            }
            Some(d.with_help(n.help))
        })
        .collect();
    Ok((outputs, warnings))
}

fn run_here(
    programs: &[Program],
    names: &Interner,
    options: &RunOptions,
) -> Result<(Vec<Output>, Vec<exec::Notice>), Failure> {
    let (prog_index, func_name) = find_entry(programs, names, &options.entry)?;
    let program = &programs[prog_index];
    let func = &program.functions[&func_name];
    let entry = names.get(func_name);
    // An `Out` tensor the program adds into holds the caller's data, as an `InOut` one.
    let accumulated = crate::ir::lineage::accumulated_params(program, func_name);
    let params: Vec<(VarId, Direction, String)> = func
        .params
        .iter()
        .zip(accumulated.iter().copied().chain(std::iter::repeat(false)))
        .map(|(p, acc)| {
            let dir = if acc && p.dir == Direction::Out { Direction::InOut } else { p.dir };
            (p.var, dir, names.get(program.var(p.var).source).to_string())
        })
        .collect();

    let given = given_args(&params, options, entry)?;

    // Scalars first: a tensor's extent may name a scalar parameter.
    let mut scalars: FxHashMap<VarId, Value> = FxHashMap::default();
    for (var, _, name) in &params {
        if let Type::Scalar(dtype) = program.types.get(program.var(*var).ty) {
            let Some(text) = given.get(name.as_str()) else {
                return Err(arg_error(
                    name,
                    format!(
                        "the scalar parameter `{name}` of `{entry}` needs a value: --arg {name}=<{}>",
                        dtype.name()
                    ),
                ));
            };
            scalars.insert(*var, parse_scalar(name, text, *dtype)?);
        }
    }

    let (dyn_dims, specs) = tensor_args(program, names, &params, &given)?;

    let scalar_extents: FxHashMap<VarId, i64> = scalars
        .iter()
        .filter_map(|(v, value)| match value {
            Value::Int(i) => Some((*v, *i)),
            _ => None,
        })
        .collect();
    let mut rng = SplitMix64::new(options.seed);
    let mut frame = Frame::default();
    let mut outputs: Vec<(String, Tensor, Direction, crate::ir::Loc)> = Vec::new();
    // The entry's tensors: simpler stages them for orchestration code to read and write.
    let mut staged = rustc_hash::FxHashSet::default();
    for (var, dir, name) in &params {
        let ty = program.types.get(program.var(*var).ty);
        let value = match ty {
            Type::Scalar(_) => scalars.remove(var).unwrap_or(Value::None),
            Type::Tensor { shape, dtype, .. } => {
                let declared = TensorDecl { shape: shape.as_deref(), dtype: *dtype };
                let spec = specs.get(var);
                let (dims, dtype) = tensor_shape(
                    names,
                    name,
                    entry,
                    declared,
                    spec.and_then(|g| g.shape.as_ref()),
                    &dyn_dims,
                    &scalar_extents,
                )?;
                let n = value::element_count(&dims);
                if n > exec::MAX_ELEMENTS {
                    return Err(arg_error(
                        name,
                        format!(
                            "`{name}` would have {n} elements; the interpreter takes at most {}",
                            exec::MAX_ELEMENTS
                        ),
                    ));
                }
                let data = match (dir, spec.and_then(|g| g.values.as_deref())) {
                    (Direction::Out, _) => Data::poisoned(dtype, n),
                    (_, Some(values)) => given_data(name, dtype, n, values)?,
                    // Stored as the harness stores them: FP16 and BF16 rounded to their format.
                    (Direction::In | Direction::InOut, None) => match inputs::draw(&mut rng, dtype, n) {
                        Data::F32(v) => Data::F32(v.into_iter().map(|x| ops::round_to(dtype, x)).collect()),
                        other => other,
                    },
                };
                let tensor = Tensor::new(dtype, dims, data);
                staged.insert(std::rc::Rc::as_ptr(&tensor.buf) as usize);
                if matches!(dir, Direction::Out | Direction::InOut) {
                    outputs.push((name.clone(), tensor.clone(), *dir, program.var(*var).loc));
                }
                // A kernel reads the buffer of a DN parameter column-major, as the harness's
                // kernel wrapper does (`exec`'s calls likewise).
                if func.decl.kind.is_device_kernel() && ty.layout() == Some(crate::ir::Layout::Dn) {
                    Value::Tensor(tensor.as_dn_packed())
                } else {
                    Value::Tensor(tensor)
                }
            }
            other => {
                return Err(arg_error(
                    name,
                    format!(
                        "the parameter `{name}` of `{entry}` is {}, which `plc run` cannot make an input for",
                        other.kind_name()
                    ),
                ))
            }
        };
        frame.set(*var, value);
    }

    let mut interp = Interp::new(programs, names, prog_index, options.max_steps, dyn_dims);
    interp.replay_graphs = options.replay_graphs;
    if func.decl.kind == crate::ir::FuncKind::Orchestration {
        interp.staged = Some(staged);
    }
    for (name, tensor, dir, loc) in &outputs {
        if *dir == Direction::Out {
            interp.out_buffers.insert(std::rc::Rc::as_ptr(&tensor.buf) as usize, (name.clone(), *loc));
        }
    }
    interp.run_function(func, frame)?;
    let notices = std::mem::take(&mut interp.notices);

    let outputs = outputs
        .into_iter()
        .map(|(name, tensor, dir, loc)| {
            let mut data = tensor.to_dense().data;
            let undefined = if dir == Direction::Out { data.unpoison() } else { 0 };
            Output { name, shape: tensor.shape.clone(), dtype: tensor.dtype, data, undefined, loc }
        })
        .collect();
    Ok((outputs, notices))
}

/// The `--arg`s by parameter name: each must name a parameter, once.
fn given_args<'o>(
    params: &[(VarId, Direction, String)],
    options: &'o RunOptions,
    entry: &str,
) -> Result<FxHashMap<&'o str, &'o str>, Failure> {
    let mut given: FxHashMap<&str, &str> = FxHashMap::default();
    for (name, value) in &options.args {
        if !params.iter().any(|(_, _, n)| n == name) {
            let list: Vec<&str> = params.iter().map(|(_, _, n)| n.as_str()).collect();
            return Err(arg_error(
                name,
                format!(
                    "unknown --arg `{name}`: the parameters of `{entry}` are {}",
                    if list.is_empty() { "none".to_string() } else { list.join(", ") }
                ),
            ));
        }
        if given.insert(name, value).is_some() {
            return Err(arg_error(name, format!("--arg `{name}` is given twice")));
        }
    }
    Ok(given)
}

/// What `--arg` gave a tensor parameter: a shape and dtype (elements drawn), or elements
/// (with the shape they fix when the declared type does not: rank 1, their count).
#[derive(Default)]
struct Given {
    shape: Option<(Vec<i64>, Option<DType>)>,
    values: Option<Vec<inputs::ArgNumber>>,
}

/// The extents of `pl.dynamic` dimensions and what was given for tensor parameters.
type TensorArgs = (FxHashMap<crate::intern::Symbol, i64>, FxHashMap<VarId, Given>);

/// The tensor shapes and elements given with `--arg`, checked against the declared rank;
/// `pl.dynamic` dimensions are bound by the shapes that fill them (the same extent each
/// time).
fn tensor_args(
    program: &Program,
    names: &Interner,
    params: &[(VarId, Direction, String)],
    given: &FxHashMap<&str, &str>,
) -> Result<TensorArgs, Failure> {
    let mut dyn_dims: FxHashMap<crate::intern::Symbol, i64> = FxHashMap::default();
    let mut specs: FxHashMap<VarId, Given> = FxHashMap::default();
    for (var, dir, name) in params {
        let ty = program.types.get(program.var(*var).ty);
        let Type::Tensor { shape, .. } = ty else { continue };
        let Some(text) = given.get(name.as_str()) else { continue };
        let arg = inputs::parse_tensor_arg(text).map_err(|why| {
            arg_error(
                name,
                format!(
                    "--arg {name}={text}: {why} (a tensor takes a shape like 64x32 or 64x32:FP16, or its elements like [1, 2, 3])"
                ),
            )
        })?;
        let spec = match arg {
            inputs::TensorArg::Shape(dims, dtype) => Given { shape: Some((dims, dtype)), values: None },
            inputs::TensorArg::Values(values) => {
                if *dir == Direction::Out {
                    return Err(arg_error(
                        name,
                        format!(
                            "--arg {name}={text}: `{name}` is an Out tensor, which starts undefined: give its shape, not its elements"
                        ),
                    ));
                }
                if let Some([Dim::Const(m)]) = shape.as_deref() {
                    if *m != values.len() as i64 {
                        return Err(arg_error(
                            name,
                            format!("--arg {name}: `{name}` has {m} elements, {} are given", values.len()),
                        ));
                    }
                }
                // A rank-1 tensor (or a bare `pl.Tensor`) takes its extent from the count.
                let rank1 = shape.as_ref().is_none_or(|dims| dims.len() == 1);
                let dims = rank1.then(|| (vec![values.len() as i64], None));
                Given { shape: dims, values: Some(values) }
            }
        };
        if let (Some(declared), Some((dims, _))) = (shape, &spec.shape) {
            if declared.len() != dims.len() {
                return Err(arg_error(
                    name,
                    format!(
                        "--arg {name}={text}: `{name}` has rank {}, the shape given has rank {}",
                        declared.len(),
                        dims.len()
                    ),
                ));
            }
            for (d, &n) in declared.iter().zip(dims) {
                if let Dim::Dyn(sym) = d {
                    match dyn_dims.get(sym) {
                        Some(&bound) if bound != n => {
                            return Err(arg_error(
                                name,
                                format!(
                                    "--arg {name}={text}: the dimension `{}` is {bound} from another argument",
                                    names.get(*sym)
                                ),
                            ))
                        }
                        _ => {
                            dyn_dims.insert(*sym, n);
                        }
                    }
                }
            }
        }
        specs.insert(*var, spec);
    }

    Ok((dyn_dims, specs))
}

/// The elements given for a tensor of `dtype` with `n` elements, as the interpreter stores
/// them (FP16 and BF16 rounded to their format, as the harness stores them).
fn given_data(name: &str, dtype: DType, n: usize, values: &[inputs::ArgNumber]) -> Result<Data, Failure> {
    if values.len() != n {
        return Err(arg_error(name, format!("--arg {name}: `{name}` has {n} elements, {} are given", values.len())));
    }
    let elements = values
        .iter()
        .map(|v| v.element(dtype))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| arg_error(name, format!("--arg {name}: {why}")))?;
    Ok(if dtype.is_float() {
        Data::F32(
            elements
                .iter()
                .map(|e| match *e {
                    inputs::ElementValue::Float(f) => ops::round_to(dtype, f as f32),
                    inputs::ElementValue::Int(i) => ops::round_to(dtype, i as f32),
                })
                .collect(),
        )
    } else {
        Data::I64(
            elements
                .iter()
                .map(|e| match *e {
                    inputs::ElementValue::Int(i) => i,
                    inputs::ElementValue::Float(f) => f as i64,
                })
                .collect(),
        )
    })
}

/// A tensor parameter's declared shape and dtype (`None`: given at run time).
#[derive(Clone, Copy)]
struct TensorDecl<'a> {
    shape: Option<&'a [Dim]>,
    dtype: Option<DType>,
}

/// The shape and dtype of an entry tensor: the declared type's extents when they are all
/// known (constants, bound `pl.dynamic` dimensions, scalar parameters), else the --arg's.
fn tensor_shape(
    names: &Interner,
    name: &str,
    entry: &str,
    decl: TensorDecl<'_>,
    given: Option<&(Vec<i64>, Option<DType>)>,
    dyn_dims: &FxHashMap<crate::intern::Symbol, i64>,
    scalars: &FxHashMap<VarId, i64>,
) -> Result<(Vec<i64>, DType), Failure> {
    let (declared, declared_dtype) = (decl.shape, decl.dtype);
    let resolved: Option<Vec<i64>> = declared.and_then(|dims| {
        dims.iter()
            .map(|d| match d {
                Dim::Const(n) => Some(*n),
                Dim::Dyn(sym) => dyn_dims.get(sym).copied(),
                Dim::Var(v) => scalars.get(v).copied(),
                Dim::Unknown => None,
            })
            .collect()
    });
    let shape = match (resolved, given) {
        (Some(fixed), Some((dims, _))) => {
            if &fixed != dims {
                let text: Vec<String> = fixed.iter().map(i64::to_string).collect();
                return Err(arg_error(
                    name,
                    format!("--arg {name}: `{name}` is declared with the shape {}, not the one given", text.join("x")),
                ));
            }
            fixed
        }
        (Some(fixed), None) => fixed,
        (None, Some((dims, _))) => dims.clone(),
        (None, None) => {
            let why = match declared {
                None => "is a bare pl.Tensor".to_string(),
                Some(dims) => {
                    let unknown: Vec<String> = dims
                        .iter()
                        .filter_map(|d| match d {
                            Dim::Dyn(sym) => Some(format!("`{}`", names.get(*sym))),
                            _ => None,
                        })
                        .collect();
                    if unknown.is_empty() {
                        "has extents known only at run time".to_string()
                    } else {
                        format!("has the dynamic dimension {}", unknown.join(", "))
                    }
                }
            };
            return Err(arg_error(
                name,
                format!(
                "the tensor parameter `{name}` of `{entry}` {why}: give its shape with --arg {name}=<d0>x<d1>[:DTYPE]"
            ),
            ));
        }
    };
    let dtype = match (declared_dtype, given.and_then(|g| g.1)) {
        (Some(d), Some(g)) if d != g => {
            return Err(arg_error(name, format!("--arg {name}: `{name}` is declared {d}, not {g}")));
        }
        (Some(d), _) => d,
        (None, Some(g)) => g,
        (None, None) => DType::Fp32,
    };
    if shape.iter().any(|&d| d < 0) {
        return Err(arg_error(name, format!("the shape of `{name}` has a negative extent")));
    }
    Ok((shape, dtype))
}

/// A scalar argument of a dtype: an integer, a float, or `true`/`false`.
fn parse_scalar(name: &str, text: &str, dtype: DType) -> Result<Value, Failure> {
    let t = text.trim();
    let bad = || arg_error(name, format!("--arg {name}={text}: not a value of {dtype}"));
    if dtype == DType::Bool {
        return match t {
            "true" | "True" | "1" => Ok(Value::Bool(true)),
            "false" | "False" | "0" => Ok(Value::Bool(false)),
            _ => Err(bad()),
        };
    }
    if dtype.is_float() {
        return t.parse::<f64>().map(Value::Float).map_err(|_| bad());
    }
    t.parse::<i64>().map(Value::Int).map_err(|_| bad())
}

/// The program and function `entry` names: `name` or `Class.name`.
fn find_entry(programs: &[Program], names: &Interner, entry: &str) -> Result<(usize, crate::intern::Symbol), Failure> {
    let func = entry.rsplit_once('.').map_or(entry, |(_, f)| f);
    let mut found = Vec::new();
    for (i, p) in programs.iter().enumerate() {
        if let Some(&sym) = p.functions.keys().find(|&&sym| p.is_entry(sym, names, entry)) {
            found.push((i, sym));
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            let all: Vec<String> =
                programs.iter().flat_map(|p| p.functions.keys().map(|&k| names.get(k).to_string())).collect();
            Err(entry_error(format!(
                "no function `{entry}` to run; the functions are {}",
                if all.is_empty() { "none".to_string() } else { all.join(", ") }
            )))
        }
        _ => {
            let classes: Vec<String> = found
                .iter()
                .map(|(i, _)| format!("{}.{func}", programs[*i].name.map_or("Program", |n| names.get(n))))
                .collect();
            Err(entry_error(format!("`{entry}` names several functions; write one of {}", classes.join(", "))))
        }
    }
}
