//! The kernel emitter: one device function (InCore, AIC, AIV, and the Group and Spmd
//! wrappers) as the C++ file `kernels/<name>.cpp`, written over the CPU tile library
//! (`runtime/pto_tile.h`).
//!
//! ```text
//! @pl.function(type=pl.FunctionType.InCore)
//! def add_into(self, src: pl.Tensor[[64, 128], pl.FP32], base: pl.Scalar[pl.INDEX],
//!              acc: pl.InOut[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
//!     cur = pl.load(acc, [0, 0], [64, 128])
//!     t = pl.load(src, [base, 0], [64, 128])
//!     pl.store(pl.add(cur, t), [0, 0], acc)
//!     return acc
//! ```
//! becomes
//! ```text
//! #include "../runtime/pto_tile.h"
//!
//! namespace plc_kernels {
//!
//! ChipTensor add_into(const ChipTensor& src, int64_t base, const ChipTensor& acc) {
//!     plc::Tile<float> cur = plc::load<float>(acc, plc::Dims{0, 0}, plc::Dims{64, 128});
//!     plc::Tile<float> t = plc::load<float>(src, plc::Dims{base, 0}, plc::Dims{64, 128});
//!     plc::store(plc::add(cur, t), plc::Dims{0, 0}, acc);
//!     return acc;
//! }
//!
//! }  // namespace plc_kernels
//!
//! extern "C" void plc_kernel_add_into(int64_t* args) {
//!     plc::Scratch scratch;
//!     plc_kernels::add_into(plc::arg_tensor(args, 0), plc::arg_scalar<int64_t>(args, 2),
//!                           plc::arg_tensor(args, 1));
//! }
//! ```
//!
//! The ABI (what the runtime calls, through `plc_kernel_table[func_id]`): `args[0..T-1]` are
//! the addresses of the `ChipTensor`s of the tensor and tile parameters, in parameter order;
//! `args[T..]` the u64 bits of the scalar parameters, in parameter order. A tile parameter
//! arrives as a tensor and is read whole. The implementation function
//! `plc_kernels::<name>` takes the parameters in their own order (tensors as
//! `const ChipTensor&`, tiles by value, scalars as their C type) and returns what the
//! function returns; a Group or Spmd wrapper calls its kernels' implementations directly.
//!
//! Values have one of a few C++ forms ([`Repr`]): a tensor is a `ChipTensor` view (a
//! parameter, a slice, what a store returns); a tile, and a tensor computed by a tensor op
//! inside the kernel (`pl.add(a, b)` on tensors), is a `plc::Tile<T>`; a scalar is its C
//! type. An op the tile library has no form for is E0601.

mod ops;
mod together;

use super::cpp::{
    elem_ctype, float_literal, int_literal, push_all, push_joined, push_uint, scalar_ctype, stable_name, Namer, Writer,
    FEW_NAMES,
};
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::limits::{MAX_TASK_SCALARS, MAX_TASK_TENSORS};
use crate::ir::{
    BinOp, Callee, DType, Dim, EnumValue, ExprId, ExprKind, FuncKind, Function, IfStmt, IterArg, Loc, Program,
    ScopeKind, StmtId, StmtKind, Type, UnOp, VarId,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

/// The C++ symbol the runtime's kernel table calls for a device function:
/// `plc_kernel_<name>`, where a kernel named `table`, `count` or `fn` (whose symbol would
/// be the table's own `plc_kernel_table`, `plc_kernel_count`, `plc_kernel_fn`), an unsafe
/// or a long name gets its [`stable_name`].
pub fn kernel_symbol(names: &Interner, func: Symbol) -> String {
    super::cpp::cat(&["plc_kernel_", &stable_name(names.get(func), &TABLE_NAMES)])
}

/// The names a kernel's table symbol must not end in (see [`kernel_symbol`]).
const TABLE_NAMES: [&str; 3] = ["table", "count", "fn"];

/// [`kernel_symbol`] of a function whose implementation symbol ([`impl_symbol`]) is
/// `impl_sym`: `stable_name` gives the same for both unless the name is one of
/// [`TABLE_NAMES`] (the only difference of their reserved lists), so that is made again
/// only then (the name is not sanitized and looked up twice for every kernel).
fn kernel_symbol_from(names: &Interner, func: Symbol, impl_sym: &str) -> String {
    if TABLE_NAMES.contains(&names.get(func)) {
        kernel_symbol(names, func)
    } else {
        super::cpp::cat(&["plc_kernel_", impl_sym])
    }
}

/// The implementation function of a device function, in namespace `plc_kernels`.
fn impl_symbol(names: &Interner, func: Symbol) -> String {
    stable_name(names.get(func), &[])
}

/// The file of a device function, `kernels/<stem>.cpp`: never `kernel_table.cpp`, the
/// kernel table's own file.
pub fn kernel_file(names: &Interner, func: Symbol) -> String {
    super::cpp::cat(&["kernels/", &super::cpp::stable_file_stem(names.get(func), &["kernel_table"]), ".cpp"])
}

/// The C++ for one device function: `kernels/<name>.cpp`.
#[allow(clippy::result_large_err)] // the one diagnostic is the interface the backend shares
pub fn emit_kernel(program: &Program, names: &Interner, func: Symbol) -> Result<String, Diagnostic> {
    let Some(f) = program.functions.get(&func) else {
        return Err(Diagnostic::error(
            Code::E0707,
            format!("internal error: no function `{}` to emit", names.get(func)),
            Label::primary(crate::source::FileId(u32::MAX), crate::diag::Span::new(0, 0), ""),
        ));
    };
    if !f.decl.kind.is_device_kernel() {
        return Err(error_at(
            f,
            Code::E0707,
            f.loc,
            format!("internal error: `{}` is an {} function, not a kernel", names.get(func), f.decl.kind),
        ));
    }
    let parts = kernel_parts(program, names, func)?;
    let name = names.get(func);
    let symbol = kernel_symbol_from(names, func, &parts.symbol);
    // Sized up front for the whole file, not grown by doubling from empty.
    let size = parts.declarations.len() + parts.definition.len() + parts.wrapper_body.len() + 3 * name.len() + 256;
    let mut out = String::with_capacity(size);
    // Pieces pushed, not formatted (every kernel's file).
    push_all(&mut out, &["// Kernel: ", name, " (", f.decl.kind.name(), ")\n// Generated by plc\n\n"]);
    out.push_str("#include \"../runtime/pto_tile.h\"\n\nnamespace plc_kernels {\n\n");
    if !parts.callees.is_empty() {
        out.push_str("// Device functions called here (each defined in its own kernel file).\n");
        out.push_str(&parts.declarations);
        out.push('\n');
    }
    out.push_str(&parts.definition);
    out.push_str("\n}  // namespace plc_kernels\n\n");
    push_all(&mut out, &["extern \"C\" void ", &symbol, "(int64_t* args) {\n"]);
    out.push_str(&parts.wrapper_body);
    out.push_str("}\n");
    Ok(out)
}

/// A kernel's C++ in the pieces a target puts together: the implementation function, the
/// declarations of the device functions it calls, and the body of the wrapper the runtime
/// calls with `int64_t* args` (the CPU runtime's `plc_kernel_<name>`, simpler's
/// `kernel_entry`).
pub struct KernelParts {
    /// `Ret name(params) {\n...}\n`, to go in namespace `plc_kernels`.
    pub definition: String,
    /// One declaration line per callee, in `callees`' order.
    pub declarations: String,
    /// The wrapper's statements, each line indented by four spaces.
    pub wrapper_body: String,
    /// The device functions called directly, in first-call order.
    pub callees: Vec<Symbol>,
    /// The implementation function's name in namespace `plc_kernels`.
    pub symbol: String,
}

/// The pieces of one device function's kernel (see [`KernelParts`]).
#[allow(clippy::result_large_err)] // the one diagnostic is the interface the backend shares
pub fn kernel_parts(program: &Program, names: &Interner, func: Symbol) -> Result<KernelParts, Diagnostic> {
    let mut sigs = FxHashMap::default();
    let mut stack = vec![func];
    let emitted = emit_function(program, names, func, &mut sigs, &mut stack).map_err(|d| *d)?;
    let sym = impl_symbol(names, func);
    let mut declarations = String::new();
    for g in &emitted.callees {
        let sig = &sigs[g];
        let params: Vec<String> = sig.params.iter().map(Repr::param_type).collect();
        let _ = writeln!(declarations, "{} {}({});", return_type(&sig.ret), impl_symbol(names, *g), params.join(", "));
    }
    // `Ret sym(params) {`, the body and `}`: pieces pushed into a string of the final size.
    let ret = return_type(&emitted.ret);
    let params_len: usize = emitted.params.iter().map(|q| q.len() + 2).sum();
    let mut definition = String::with_capacity(ret.len() + sym.len() + params_len + emitted.body.len() + 8);
    push_all(&mut definition, &[&ret, " ", &sym, "("]);
    push_joined(&mut definition, &emitted.params, ", ");
    definition.push_str(") {\n");
    definition.push_str(&emitted.body);
    definition.push_str("}\n");
    // The wrapper's body: a few lines around the call (sized for them, not grown).
    let mut out = String::with_capacity(2 * sym.len() + 40 * emitted.param_reprs.len() + 96);

    // The wrapper the runtime calls: the parameters' tensors, the tensors allocated for the
    // results that are not parameters, then the scalars.
    let new_results: Vec<usize> = runtime_allocated_results(program, func)
        .into_iter()
        .filter(|&i| matches!(emitted.ret.get(i), Some(Repr::Tile(_) | Repr::Tensor)))
        .collect();
    let mut tensors = 0;
    let tensor_count = emitted.param_reprs.iter().filter(|r| !matches!(r, Repr::Scalar(_))).count() + new_results.len();
    let mut scalars = 0;
    // The arguments written into one string, not a `String` each joined after.
    let mut call_args = String::with_capacity(40 * emitted.param_reprs.len());
    // A DN tensor parameter is read from the view's start with its packed DN strides, as
    // the device reads it (`plc::as_dn_packed`; `interp::exec` does the same).
    let dn_param = |k: usize| {
        program
            .functions
            .get(&func)
            .and_then(|f| f.params.get(k))
            .is_some_and(|p| program.types.get(program.var(p.var).ty).layout() == Some(crate::ir::Layout::Dn))
    };
    for (k, r) in emitted.param_reprs.iter().enumerate() {
        // Pieces pushed, not formatted (every kernel's wrapper): the head, the argument's
        // place, the tail.
        let (head, at, tail) = match r {
            Repr::Tensor if dn_param(k) => (["plc::as_dn_packed(plc::arg_tensor(args, ", "", ""], tensors, "))"),
            Repr::Tensor => (["plc::arg_tensor(args, ", "", ""], tensors, ")"),
            Repr::Tile(t) => (["plc::arg_tile<", t, ">(args, "], tensors, ")"),
            Repr::Scalar(t) => (["plc::arg_scalar<", t, ">(args, "], tensor_count + scalars, ")"),
            _ => continue,
        };
        if !call_args.is_empty() {
            call_args.push_str(", ");
        }
        push_all(&mut call_args, &head);
        push_uint(&mut call_args, at as u64);
        call_args.push_str(tail);
        match r {
            Repr::Scalar(_) => scalars += 1,
            _ => tensors += 1,
        }
    }
    // The runtime takes a task of at most 16 scalars and 32 tensors (as simpler does), and
    // refused a bigger one only when it was launched.
    let limits = [(scalars, MAX_TASK_SCALARS, "scalar"), (tensor_count, MAX_TASK_TENSORS, "tensor")];
    if let (Some(f), Some(&(n, limit, what))) =
        (program.functions.get(&func), limits.iter().find(|(n, limit, _)| n > limit))
    {
        let extra = if what == "tensor" && !new_results.is_empty() {
            format!(" (counting {} result(s) the runtime allocates)", new_results.len())
        } else {
            String::new()
        };
        return Err(error_at(
            f,
            Code::E0618,
            f.loc,
            format!(
                "kernel `{}` takes {n} {what} arguments{extra}: a task takes at most {limit} {what}s",
                names.get(func)
            ),
        ));
    }
    if call_args.is_empty() {
        out.push_str("    (void)args;\n");
    }
    out.push_str("    plc::Scratch scratch;\n");
    if new_results.is_empty() {
        push_all(&mut out, &["    plc_kernels::", &sym, "(", &call_args, ");\n"]);
    } else {
        let _ = writeln!(out, "    auto result = plc_kernels::{sym}({call_args});");
        let params = tensor_count - new_results.len();
        for (k, &i) in new_results.iter().enumerate() {
            let value = if emitted.ret.len() == 1 { "result".to_string() } else { format!("std::get<{i}>(result)") };
            let _ = writeln!(out, "    plc::store_result({value}, plc::arg_tensor(args, {}));", params + k);
        }
    }
    Ok(KernelParts { definition, declarations, wrapper_body: out, callees: emitted.callees, symbol: sym })
}

/// The results of a device function that are not one of its parameters (a tile, or a
/// tensor it computes or allocates), by position: the caller passes a tensor the runtime
/// allocates for each (`add_output(TensorCreateInfo)`), after the parameters' tensors and
/// before the scalars, and the kernel writes the result into it. A result whose extents are
/// not constant is allocated with extents the orchestration computes from the call's
/// arguments at run time (`emit::result_shape`; when it cannot, it says so, E0613). Results
/// of no known rank are left out, and so are scalars.
pub fn runtime_allocated_results(program: &Program, func: Symbol) -> Vec<usize> {
    let Some(f) = program.functions.get(&func) else { return Vec::new() };
    let returned = crate::ir::lineage::returned_params_alone(program, func);
    f.returns
        .iter()
        .enumerate()
        .filter(|&(i, &ty)| {
            let t = program.types.get(ty);
            returned.get(i).copied().flatten().is_none() && t.shape().is_some() && t.dtype().is_some()
        })
        .map(|(i, _)| i)
        .collect()
}

// ------------------------------------------------------------------ C++ forms of values

/// The C++ form of a value.
#[derive(Clone, Debug, PartialEq)]
enum Repr {
    /// A scalar of this C type.
    Scalar(&'static str),
    /// A `ChipTensor` view.
    Tensor,
    /// A `plc::Tile<T>` of this element type.
    Tile(&'static str),
    /// A `std::tuple` (a call's several results).
    Tuple(Vec<Repr>),
    /// A `std::array<T, N>` (`pl.Array`).
    Array(&'static str, u32),
    /// No value (an op that only has an effect).
    None,
}

impl Repr {
    fn cpp(&self) -> String {
        match self {
            Repr::Scalar(t) => t.to_string(),
            Repr::Tensor => "ChipTensor".to_string(),
            Repr::Tile(t) => super::cpp::cat(&["plc::Tile<", t, ">"]),
            Repr::Tuple(items) => format!("std::tuple<{}>", items.iter().map(Repr::cpp).collect::<Vec<_>>().join(", ")),
            Repr::Array(t, n) => format!("std::array<{t}, {n}>"),
            Repr::None => "void".to_string(),
        }
    }

    /// [`Repr::cpp`] (or [`Repr::param_type`] when `param`) in three pieces, for the forms
    /// of one name (pushed, not made into a `String`); `None` for the others.
    fn type_pieces(&self, param: bool) -> Option<[&'static str; 3]> {
        match self {
            Repr::Scalar(t) => Some([t, "", ""]),
            Repr::Tensor if param => Some(["const ChipTensor&", "", ""]),
            Repr::Tensor => Some(["ChipTensor", "", ""]),
            Repr::Tile(t) => Some(["plc::Tile<", t, ">"]),
            _ => None,
        }
    }

    /// How a parameter of this form is declared.
    fn param_type(&self) -> String {
        match self {
            Repr::Tensor => "const ChipTensor&".to_string(),
            other => other.cpp(),
        }
    }

    fn describe(&self) -> String {
        match self {
            Repr::Scalar(t) => format!("a scalar ({t})"),
            Repr::Tensor => "a tensor view".to_string(),
            Repr::Tile(t) => format!("a tile of {t}"),
            Repr::Tuple(_) => "a tuple".to_string(),
            Repr::Array(..) => "an array".to_string(),
            Repr::None => "no value".to_string(),
        }
    }
}

fn return_type(ret: &[Repr]) -> String {
    match ret {
        [] => "void".to_string(),
        [one] => one.cpp(),
        many => Repr::Tuple(many.to_vec()).cpp(),
    }
}

/// What a function looks like from a caller: its parameters' and results' forms.
struct Sig {
    params: Vec<Repr>,
    ret: Vec<Repr>,
}

struct Emitted {
    /// Parameter declarations (`const ChipTensor& a`).
    params: Vec<String>,
    param_reprs: Vec<Repr>,
    ret: Vec<Repr>,
    body: String,
    callees: Vec<Symbol>,
}

fn error_at(f: &Function, code: Code, loc: Loc, message: String) -> Diagnostic {
    let loc = if loc.is_compiler_made() { f.loc } else { loc };
    Diagnostic::error(code, message, Label::primary(loc.file, loc.span, ""))
}

/// Emits the body of `g`, learning the forms of its results (and its callees' signatures).
///
/// A loop or `if` whose paths give one of its values as a tile on one path and as a tensor
/// view on another keeps that value as a tile: the view is read into a tile where it
/// enters (PyPTO's kernels hold such values in on-chip tiles too). Which values these are
/// is learnt while emitting, so the function is emitted again once per value found.
fn emit_function(
    p: &Program,
    names: &Interner,
    g: Symbol,
    sigs: &mut FxHashMap<Symbol, Sig>,
    stack: &mut Vec<Symbol>,
) -> Res<Emitted> {
    let f = &p.functions[&g];
    let mut as_tile = FxHashSet::default();
    loop {
        let mut e = Emitter {
            p,
            names,
            f,
            sigs: &mut *sigs,
            stack: &mut *stack,
            w: Writer::new(1),
            vars: FxHashMap::with_capacity_and_hasher(FEW_NAMES, Default::default()),
            namer: Namer::new(),
            params_used: Vec::new(),
            callees: Vec::new(),
            ret: None,
            targets: Vec::new(),
            loops: Vec::new(),
            dyn_dims: FxHashMap::default(),
            as_tile: &as_tile,
            promote: None,
            hoists: Vec::new(),
        };
        let result = emit_body(&mut e);
        // On an error, the merged value found to need a tile, if that is the error.
        let promote = e.promote;
        match promote {
            Some(v) if result.is_err() && as_tile.insert(v) => continue,
            _ => return result,
        }
    }
}

fn emit_body(e: &mut Emitter) -> Res<Emitted> {
    let (p, f) = (e.p, e.f);
    let mut params = Vec::with_capacity(f.params.len());
    let mut param_reprs = Vec::with_capacity(f.params.len());
    let mut param_names = Vec::with_capacity(f.params.len());
    e.params_used = vec![false; f.params.len()];
    for (k, param) in f.params.iter().enumerate() {
        let v = param.var;
        let repr = match p.types.get(p.var(v).ty) {
            Type::Scalar(d) => match scalar_ctype(*d) {
                Some(t) => Repr::Scalar(t),
                None => return Err(e.unsupported_type(v)),
            },
            // A tensor whose type plc could not infer (`pl.create_tensor(x.shape, ...)` of a
            // bare tensor) is still a tensor argument.
            Type::Tensor { .. } | Type::Unknown => Repr::Tensor,
            Type::Tile { dtype, .. } => match elem_ctype(*dtype) {
                Some(t) => Repr::Tile(t),
                None => return Err(e.unsupported_type(v)),
            },
            _ => return Err(e.unsupported_type(v)),
        };
        let name = e.name_var_as(v, repr.clone(), k as u32);
        // Pieces joined once (every parameter of every kernel).
        params.push(match repr.type_pieces(true) {
            Some([a, b, c]) => super::cpp::cat(&[a, b, c, " ", &name]),
            None => super::cpp::cat(&[&repr.param_type(), " ", &name]),
        });
        param_reprs.push(repr);
        param_names.push(name);
    }
    // The function outlives the emitter: its body is read in place, not copied.
    if f.decl.kind == FuncKind::Group {
        e.group_block(&f.body)?;
    } else {
        e.block(&f.body)?;
    }
    let mut text = String::new();
    for (name, used) in param_names.iter().zip(&e.params_used) {
        if !used {
            let _ = writeln!(text, "    (void){name};");
        }
    }
    // The body written taken as it is when nothing goes before it, not copied.
    let text = if text.is_empty() {
        e.w.take()
    } else {
        text.push_str(e.w.as_str());
        text
    };
    Ok(Emitted {
        params,
        param_reprs,
        ret: e.ret.take().unwrap_or_default(),
        body: text,
        callees: std::mem::take(&mut e.callees),
    })
}

/// Where the values of a `yield` go.
struct Target {
    names: Vec<String>,
    /// The variables bound: a loop's carried values, an `if`'s results.
    vars: Vec<VarId>,
    /// The forms, fixed by the initial values (loops) or by the first yield (`if`).
    reprs: Vec<Option<Repr>>,
}

struct Emitter<'a> {
    p: &'a Program,
    names: &'a Interner,
    f: &'a Function,
    sigs: &'a mut FxHashMap<Symbol, Sig>,
    stack: &'a mut Vec<Symbol>,
    /// The body being written.
    w: Writer,
    /// Each variable's C++ name and form, and the parameter whose name that is
    /// ([`NOT_PARAM`] for the others).
    vars: FxHashMap<VarId, (String, Repr, u32)>,
    /// The names of the C++ function.
    namer: Namer,
    /// Whether each parameter's name is read (an unread one is written `(void)name;`): only
    /// the entry [`Emitter::name_var_as`] made for the parameter has its name (the namer
    /// hands out every name once), so a read marks it through that entry.
    params_used: Vec<bool>,
    callees: Vec<Symbol>,
    ret: Option<Vec<Repr>>,
    targets: Vec<Target>,
    /// For each enclosing loop, whether it carries values; `None` for a `pl.spmd` region
    /// (a C++ loop over the block indices, which `break`/`continue` must not leave).
    loops: Vec<Option<bool>>,
    dyn_dims: FxHashMap<Symbol, String>,
    /// Carried values and `if` results held as tiles (see [`emit_function`]).
    as_tile: &'a FxHashSet<VarId>,
    /// A merged value found to need a tile: the emission stops and starts again.
    promote: Option<VarId>,
    /// The enclosing `pl.spmd` regions, innermost last (see [`Emitter::spmd`]).
    hoists: Vec<Hoist>,
}

/// The variables a `pl.spmd` region defines at its own level (not inside a loop or an `if`
/// of its body): declared before the region's C++ loop, so that the code after the region
/// reads them, and assigned inside it.
struct Hoist {
    /// The nesting of loops and `if`s (`targets.len()`) of the region's body.
    level: usize,
    decls: Vec<(String, Repr)>,
}

/// The parameter mark of a variable that is not a parameter (see [`Emitter::vars`]).
const NOT_PARAM: u32 = u32::MAX;

/// Errors are boxed: a `Diagnostic` is large and most results are `Ok`.
type Res<T> = Result<T, Box<Diagnostic>>;

impl Emitter<'_> {
    // ------------------------------------------------------------------ plumbing

    fn err(&self, code: Code, loc: Loc, message: String) -> Box<Diagnostic> {
        Box::new(error_at(self.f, code, loc, message))
    }

    fn unsupported_type(&self, v: VarId) -> Box<Diagnostic> {
        let var = self.p.var(v);
        let ty = self.p.types.get(var.ty);
        self.err(
            Code::E0604,
            var.loc,
            format!(
                "`{}` is {} here, which has no C++ form in a kernel",
                self.source_name(v),
                match ty {
                    Type::Unknown => "a value of a type plc could not infer".to_string(),
                    Type::Tile { dtype, .. } => format!("a tile of {dtype}"),
                    Type::Scalar(d) => format!("a {d} scalar"),
                    other => format!("a {}", other.kind_name()),
                }
            ),
        )
    }

    fn source_name(&self, v: VarId) -> &str {
        self.names.get(self.p.var(v).source)
    }

    fn line(&mut self, text: &str) {
        self.w.line(text);
    }

    fn line_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        self.w.line_fmt(args);
    }

    /// A C++ name for a variable, unique in the function: the source name when free, else
    /// the versioned IR name, else the source name with a counter.
    fn name_var(&mut self, v: VarId, repr: Repr) -> String {
        self.name_var_as(v, repr, NOT_PARAM)
    }

    /// [`Emitter::name_var`] of the parameter `param` (or [`NOT_PARAM`]).
    fn name_var_as(&mut self, v: VarId, repr: Repr, param: u32) -> String {
        let name = self.new_name(v);
        self.vars.insert(v, (name.clone(), repr, param));
        name
    }

    /// The C++ name [`Emitter::name_var`] gives `v`, taken from the namer but not yet
    /// recorded as `v`'s.
    fn new_name(&mut self, v: VarId) -> String {
        let var = self.p.var(v);
        self.namer.first_free(&[self.names.get(var.source), self.names.get(var.name)])
    }

    /// A fresh name for a helper local.
    fn fresh(&mut self, base: &str) -> String {
        self.namer.fresh(base)
    }

    fn var(&mut self, v: VarId, loc: Loc) -> Res<(String, Repr)> {
        match self.vars.get(&v) {
            Some((name, repr, param)) => {
                if let Some(used) = self.params_used.get_mut(*param as usize) {
                    *used = true;
                }
                Ok((name.clone(), repr.clone()))
            }
            None => Err(self.err(
                Code::E0707,
                loc,
                format!(
                    "internal error: `{}` is read before the kernel emitter saw its definition",
                    self.source_name(v)
                ),
            )),
        }
    }

    fn loc(&self, e: ExprId) -> Loc {
        self.p.expr(e).loc
    }

    // ------------------------------------------------------------------ statements

    fn block(&mut self, block: &[StmtId]) -> Res<()> {
        for &s in block {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: StmtId) -> Res<()> {
        // Borrowed from the program (which outlives the emitter), not cloned: a loop's or
        // an if's statement lists are not copied for each statement.
        let p = self.p;
        let loc = p.stmt(s).loc;
        match &p.stmt(s).kind {
            &StmtKind::Assign { var, value } => self.assign(var, value),
            &StmtKind::Eval(e) => {
                let (text, _) = self.expr(e)?;
                match self.p.expr(e).kind {
                    ExprKind::Call { .. } => self.w.line_of(&[&text, ";"]),
                    _ => self.line_fmt(format_args!("(void)({text});")),
                }
                Ok(())
            }
            StmtKind::Return(values) => {
                let mut texts = Vec::new();
                let mut reprs = Vec::new();
                for &v in values {
                    let (t, r) = self.expr(v)?;
                    if matches!(r, Repr::None | Repr::Tuple(_)) {
                        return Err(self.err(
                            Code::E0602,
                            self.loc(v),
                            format!("a kernel cannot return {}", r.describe()),
                        ));
                    }
                    texts.push(t);
                    reprs.push(r);
                }
                match &self.ret {
                    None => self.ret = Some(reprs),
                    Some(prev) if *prev == reprs => {}
                    Some(_) => {
                        return Err(self.err(
                            Code::E0605,
                            loc,
                            "this return gives its values another C++ form than an earlier return".to_string(),
                        ))
                    }
                }
                match texts.len() {
                    0 => self.line("return;"),
                    1 => self.w.line_of(&["return ", &texts[0], ";"]),
                    _ => self.line_fmt(format_args!("return std::make_tuple({});", texts.join(", "))),
                }
                Ok(())
            }
            StmtKind::Yield(values) => self.yield_values(values, loc),
            StmtKind::If(s) => self.if_stmt(s),
            StmtKind::For(for_) => {
                let crate::ir::ForStmt { var, start, stop, step, iter_args, body, return_vars, .. } = &**for_;
                self.for_stmt(*var, *start, *stop, *step, iter_args, body, return_vars)
            }
            StmtKind::While(while_) => {
                let crate::ir::WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                let names = self.carries(iter_args)?;
                let (c, _) = self.expr(*cond)?;
                self.line_fmt(format_args!("while ({c}) {{"));
                self.loop_body(&names, iter_args, body)?;
                self.line("}");
                self.bind_results(return_vars, &names, iter_args);
                Ok(())
            }
            StmtKind::Scope(scope) => match scope.kind {
                // A runtime scope, and a core-group region inside a kernel (which the
                // outliners leave there, and `plc run` runs where it stands), are their
                // statements: no C++ block, so the code after them sees what they define.
                ScopeKind::Runtime { .. } | ScopeKind::InCore => self.block(&scope.body),
                ScopeKind::Spmd { core_num } => self.spmd(core_num, &scope.body),
                ref kind => Err(self.err(
                    Code::E0602,
                    loc,
                    format!("a `{}` region inside a device function has no C++ form in a kernel", kind.construct()),
                )),
            },
            StmtKind::Break | StmtKind::Continue => {
                let word = if matches!(self.p.stmt(s).kind, StmtKind::Break) { "break" } else { "continue" };
                match self.loops.last() {
                    Some(Some(false)) => {
                        self.line_fmt(format_args!("{word};"));
                        Ok(())
                    }
                    // Lowering refuses a `break` that leaves a region (E0316); kept so that
                    // the C++ loop over the blocks never catches one.
                    Some(None) => Err(self.err(
                        Code::E0602,
                        loc,
                        format!("`{word}` inside a `pl.spmd` region of a kernel: the region runs its body once per block index, and the kernel emitter does not carry a `{word}` out of it"),
                    )),
                    Some(Some(true)) => Err(self.err(
                        Code::E0602,
                        loc,
                        format!("`{word}` in a loop that carries values: the kernel emitter cannot tell what the loop yields"),
                    )),
                    None => Err(self.err(Code::E0707, loc, format!("internal error: `{word}` outside a loop"))),
                }
            }
        }
    }

    /// A `pl.spmd(n)` region: its body once per block index `0..n`, in order, with
    /// `get_block_idx()` the index and `get_block_num()` n while it runs (`plc::Blocks`),
    /// as `plc run` runs it. What the body defines at its own level is declared before the
    /// loop ([`Hoist`]): the code after the region reads the last block's values.
    fn spmd(&mut self, core_num: ExprId, body: &[StmtId]) -> Res<()> {
        let n = self.typed_scalar(core_num, "int64_t")?;
        let count = self.fresh("plc_blocks");
        let b = self.fresh("plc_block");
        let ids = self.fresh("plc_block_ids");
        let outer = self.w.take();
        self.w.indent();
        self.w.indent();
        self.hoists.push(Hoist { level: self.targets.len(), decls: Vec::new() });
        self.loops.push(None);
        let result = self.block(body);
        self.loops.pop();
        let hoist = self.hoists.pop().expect("pushed above");
        let body_text = self.w.take();
        self.w.dedent();
        self.w.dedent();
        self.w.push_str(&outer);
        result?;
        for (name, repr) in &hoist.decls {
            self.declare(name, repr);
        }
        self.line("{");
        self.w.indent();
        self.line_fmt(format_args!("const int64_t {count} = plc::spmd_blocks({n});"));
        self.line_fmt(format_args!("for (int64_t {b} = 0; {b} < {count}; ++{b}) {{"));
        self.w.indent();
        self.line_fmt(format_args!("plc::Blocks {ids}({b}, {count});"));
        self.w.dedent();
        self.w.push_str(&body_text);
        self.line("}");
        self.w.dedent();
        self.line("}");
        Ok(())
    }

    /// Whether the variable `name`, declared here, belongs to the innermost `pl.spmd`
    /// region's [`Hoist`] (then it is recorded there, and only assigned here).
    fn hoisted(&mut self, name: &str, repr: &Repr) -> bool {
        let level = self.targets.len();
        match self.hoists.last_mut() {
            Some(h) if h.level == level => {
                h.decls.push((name.to_string(), repr.clone()));
                true
            }
            _ => false,
        }
    }

    /// Declares `name` without a value (a scalar zeroed), unless it is hoisted.
    fn declare(&mut self, name: &str, repr: &Repr) {
        if !self.hoisted(name, repr) {
            let init = if matches!(repr, Repr::Scalar(_)) { "{}" } else { "" };
            self.line_fmt(format_args!("[[maybe_unused]] {} {name}{init};", repr.cpp()));
        }
    }

    fn assign(&mut self, var: VarId, value: ExprId) -> Res<()> {
        let (text, repr) = self.expr(value)?;
        self.bind(var, value, text, repr)
    }

    /// Declares `var` with the value `text` (of `value`, which gives the error's place).
    fn bind(&mut self, var: VarId, value: ExprId, text: String, repr: Repr) -> Res<()> {
        match repr {
            Repr::None => Err(self.err(
                Code::E0602,
                self.loc(value),
                format!("`{}` is bound to an operation that has no value", self.source_name(var)),
            )),
            Repr::Tuple(_) => {
                let name = self.name_var(var, repr.clone());
                match self.hoisted(&name, &repr) {
                    true => self.line_fmt(format_args!("{name} = {text};")),
                    false => self.line_fmt(format_args!("[[maybe_unused]] auto {name} = {text};")),
                }
                Ok(())
            }
            repr => {
                // Pieces pushed, not formatted (every value a kernel binds); the name is
                // written, then moved into the variables' map, not copied.
                let name = self.new_name(var);
                if self.hoisted(&name, &repr) {
                    self.w.line_of(&[&name, " = ", &text, ";"]);
                } else {
                    let owned;
                    let [a, b, c] = match repr.type_pieces(false) {
                        Some(pieces) => pieces,
                        None => {
                            owned = repr.cpp();
                            [owned.as_str(), "", ""]
                        }
                    };
                    self.w.line_of(&["[[maybe_unused]] ", a, b, c, " ", &name, " = ", &text, ";"]);
                }
                self.vars.insert(var, (name, repr, NOT_PARAM));
                Ok(())
            }
        }
    }

    /// Declares a loop's carried values with their initial values.
    fn carries(&mut self, iter_args: &[IterArg]) -> Res<Vec<String>> {
        let mut names = Vec::new();
        for ia in iter_args {
            let (text, repr) = self.expr(ia.init)?;
            if matches!(repr, Repr::None | Repr::Tuple(_)) {
                return Err(self.err(
                    Code::E0602,
                    self.loc(ia.init),
                    format!("a loop cannot carry {}", repr.describe()),
                ));
            }
            let (text, repr) = match repr {
                Repr::Tensor if self.as_tile.contains(&ia.var) => {
                    let elem = self.elem_of_var(ia.var)?;
                    (format!("plc::load_tensor<{elem}>({text})"), Repr::Tile(elem))
                }
                repr => (text, repr),
            };
            let ty = repr.cpp();
            let name = self.name_var(ia.var, repr.clone());
            match self.hoisted(&name, &repr) {
                true => self.line_fmt(format_args!("{name} = {text};")),
                false => self.line_fmt(format_args!("[[maybe_unused]] {ty} {name} = {text};")),
            }
            names.push(name);
        }
        Ok(names)
    }

    fn loop_body(&mut self, names: &[String], iter_args: &[IterArg], body: &[StmtId]) -> Res<()> {
        let reprs = iter_args.iter().map(|ia| self.vars.get(&ia.var).map(|(_, r, _)| r.clone())).collect();
        let vars = iter_args.iter().map(|ia| ia.var).collect();
        self.targets.push(Target { names: names.to_vec(), vars, reprs });
        self.loops.push(Some(!iter_args.is_empty()));
        self.w.indent();
        let result = self.block(body);
        self.w.dedent();
        self.loops.pop();
        self.targets.pop();
        result
    }

    /// A loop's results are its carried values once it ends: the same C++ variables.
    fn bind_results(&mut self, return_vars: &[VarId], names: &[String], iter_args: &[IterArg]) {
        for ((rv, name), ia) in return_vars.iter().zip(names).zip(iter_args) {
            let repr = self.vars.get(&ia.var).map(|(_, r, _)| r.clone()).unwrap_or(Repr::None);
            self.vars.insert(*rv, (name.clone(), repr, NOT_PARAM));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn for_stmt(
        &mut self,
        var: VarId,
        start: ExprId,
        stop: ExprId,
        step: ExprId,
        iter_args: &[IterArg],
        body: &[StmtId],
        return_vars: &[VarId],
    ) -> Res<()> {
        let names = self.carries(iter_args)?;
        let ctype = match self.p.types.get(self.p.var(var).ty) {
            Type::Scalar(d) => scalar_ctype(*d).unwrap_or("int64_t"),
            _ => "int64_t",
        };
        let start = self.typed_scalar(start, ctype)?;
        let stop_text = self.typed_scalar(stop, ctype)?;
        let i = self.name_var(var, Repr::Scalar(ctype));
        let (step_text, cond) = match self.p.expr(step).kind {
            ExprKind::Int(n) if n > 0 => (n.to_string(), format!("{i} < {stop_text}")),
            ExprKind::Int(n) if n < 0 => (int_literal(n), format!("{i} > {stop_text}")),
            // A zero step runs zero times.
            ExprKind::Int(_) => ("0".to_string(), "false".to_string()),
            _ => {
                let s = self.typed_scalar(step, ctype)?;
                let c = format!("({s} > 0 ? {i} < {stop_text} : {i} > {stop_text})");
                (s, c)
            }
        };
        self.line_fmt(format_args!("for ({ctype} {i} = {start}; {cond}; {i} += {step_text}) {{"));
        self.loop_body(&names, iter_args, body)?;
        self.line("}");
        self.bind_results(return_vars, &names, iter_args);
        Ok(())
    }

    fn if_stmt(&mut self, s: &IfStmt) -> Res<()> {
        let IfStmt { cond, then_body, else_body, return_vars } = s;
        let (cond, else_body) = (*cond, else_body.as_deref());
        let (c, _) = self.expr(cond)?;
        let names: Vec<String> = return_vars
            .iter()
            .map(|&rv| {
                let source = self.names.get(self.p.var(rv).source);
                self.fresh(source)
            })
            .collect();
        let mut reprs = Vec::new();
        for rv in return_vars {
            reprs.push(match self.as_tile.contains(rv) {
                true => Some(Repr::Tile(self.elem_of_var(*rv)?)),
                false => None,
            });
        }
        self.targets.push(Target { names: names.clone(), vars: return_vars.to_vec(), reprs });
        let outer = self.w.take();
        self.w.indent();
        let then_result = self.block(then_body);
        let then_text = self.w.take();
        let else_result = match (&then_result, else_body) {
            (Ok(()), Some(b)) => self.block(b),
            _ => Ok(()),
        };
        let else_text = self.w.take();
        self.w.dedent();
        self.w.push_str(&outer);
        let target = self.targets.pop().expect("pushed above");
        then_result?;
        else_result?;
        for ((rv, name), repr) in return_vars.iter().zip(&names).zip(&target.reprs) {
            let Some(repr) = repr.clone() else {
                return Err(self.err(
                    Code::E0707,
                    self.p.var(*rv).loc,
                    "internal error: an `if` result no branch yields".to_string(),
                ));
            };
            self.declare(name, &repr);
            self.vars.insert(*rv, (name.clone(), repr, NOT_PARAM));
        }
        self.line_fmt(format_args!("if ({c}) {{"));
        self.w.push_str(&then_text);
        if else_body.is_some() && !else_text.trim().is_empty() {
            self.line("} else {");
            self.w.push_str(&else_text);
        }
        self.line("}");
        Ok(())
    }

    fn yield_values(&mut self, values: &[ExprId], loc: Loc) -> Res<()> {
        let mut texts = Vec::new();
        for (k, &v) in values.iter().enumerate() {
            let (mut text, repr) = self.expr(v)?;
            let Some(target) = self.targets.last_mut() else {
                return Err(self.err(
                    Code::E0707,
                    loc,
                    "internal error: a yield outside a loop or an `if`".to_string(),
                ));
            };
            if k >= target.names.len() {
                return Err(self.err(
                    Code::E0707,
                    loc,
                    "internal error: a yield of more values than its statement binds".to_string(),
                ));
            }
            match &target.reprs[k] {
                None => target.reprs[k] = Some(repr),
                Some(r) if *r == repr => {}
                // Scalars of different C types convert on assignment.
                Some(Repr::Scalar(_)) if matches!(repr, Repr::Scalar(_)) => {}
                // A view merging with a tile is read into a tile.
                Some(Repr::Tile(elem)) if repr == Repr::Tensor => text = format!("plc::load_tensor<{elem}>({text})"),
                // A tile merging with a view: the merged value becomes a tile; emit again.
                Some(Repr::Tensor) if matches!(repr, Repr::Tile(_)) && !self.as_tile.contains(&target.vars[k]) => {
                    let var = target.vars[k];
                    self.promote = Some(var);
                    let message = format!(
                        "internal error: `{}` merges a tile with a tensor view and is emitted again as a tile",
                        self.source_name(var)
                    );
                    return Err(self.err(Code::E0707, self.loc(v), message));
                }
                Some(r) => {
                    let message =
                        format!("this value is {} where the value it merges with is {}", repr.describe(), r.describe());
                    return Err(self.err(Code::E0605, self.loc(v), message));
                }
            }
            texts.push(text);
        }
        let targets = self.targets.last().expect("checked").names.clone();
        if texts.len() == 1 {
            if targets[0] != texts[0] {
                self.line_fmt(format_args!("{} = {};", targets[0], texts[0]));
            }
            return Ok(());
        }
        // All values first: a yield may swap carried values.
        let temps: Vec<String> = (0..texts.len()).map(|k| format!("plc_yield_{k}")).collect();
        self.line("{");
        self.w.indent();
        for (t, text) in temps.iter().zip(&texts) {
            self.line_fmt(format_args!("auto {t} = {text};"));
        }
        for (name, t) in targets.iter().zip(&temps) {
            self.line_fmt(format_args!("{name} = {t};"));
        }
        self.w.dedent();
        self.line("}");
        Ok(())
    }

    // ------------------------------------------------------------------ expressions

    fn expr(&mut self, e: ExprId) -> Res<(String, Repr)> {
        let loc = self.loc(e);
        // Borrowed from the program (which outlives the emitter), not cloned: a call's
        // arguments are not copied for each expression.
        let p = self.p;
        match &p.expr(e).kind {
            &ExprKind::Var(v) => self.var(v, loc),
            &ExprKind::Int(n) => Ok((int_literal(n), Repr::Scalar("int64_t"))),
            &ExprKind::Float(x) => Ok((float_literal(x), Repr::Scalar("double"))),
            &ExprKind::Bool(b) => Ok((b.to_string(), Repr::Scalar("bool"))),
            &ExprKind::DynDim(s) => Ok((self.dyn_dim(s, loc)?, Repr::Scalar("int64_t"))),
            &ExprKind::Binary { op, lhs, rhs } => self.binary(e, op, lhs, rhs),
            &ExprKind::Unary { op, operand } => {
                let (t, r) = self.expr(operand)?;
                let text = match op {
                    UnOp::Neg => format!("(-{t})"),
                    UnOp::Not => format!("(!{t})"),
                    UnOp::BitNot => format!("(~{t})"),
                };
                Ok((text, self.scalar_repr(e).unwrap_or(r)))
            }
            ExprKind::Call { callee: Callee::Op(op), args, .. } => self.op(e, *op, args),
            ExprKind::Call { callee: Callee::Func(g), args, .. } => self.call(e, *g, args),
            &ExprKind::Call { callee: Callee::Submit(g), .. } => Err(self.err(
                Code::E0602,
                loc,
                format!(
                    "a task launch of `{}` inside a device function (a kernel cannot launch tasks)",
                    self.names.get(g)
                ),
            )),
            &ExprKind::TupleGet { tuple, index } => {
                let (t, r) = self.expr(tuple)?;
                match r {
                    Repr::Tuple(items) if (index as usize) < items.len() => {
                        Ok((format!("std::get<{index}>({t})"), items[index as usize].clone()))
                    }
                    other => Err(self.err(
                        Code::E0602,
                        loc,
                        format!("an element of {}, which is not a tuple", other.describe()),
                    )),
                }
            }
            ExprKind::Str(_) | ExprKind::None | ExprKind::DType(_) | ExprKind::Enum(_) | ExprKind::Tuple(_) => {
                Err(self.err(
                    Code::E0602,
                    loc,
                    "a value with no C++ form in a kernel (a string, a list, a type, an enum member) used as a value"
                        .to_string(),
                ))
            }
        }
    }

    /// The form of a scalar expression from its IR type.
    fn scalar_repr(&self, e: ExprId) -> Option<Repr> {
        match self.p.ty(e) {
            Type::Scalar(d) => scalar_ctype(*d).map(Repr::Scalar),
            _ => None,
        }
    }

    /// A scalar expression converted to `ctype` where its own type differs.
    fn typed_scalar(&mut self, e: ExprId, ctype: &str) -> Res<String> {
        let (t, r) = self.expr(e)?;
        match r {
            Repr::Scalar(c) if c == ctype || matches!(self.p.expr(e).kind, ExprKind::Int(_)) => Ok(t),
            Repr::Scalar(_) => Ok(format!("static_cast<{ctype}>({t})")),
            other => Err(self.err(Code::E0602, self.loc(e), format!("{} where a scalar is needed", other.describe()))),
        }
    }

    /// [`Emitter::typed_scalar`] pushed onto `out`: a variable's name without a `String` of
    /// its own (the offsets of every load and store).
    fn typed_scalar_into(&mut self, e: ExprId, ctype: &str, out: &mut String) -> Res<()> {
        if let ExprKind::Var(v) = self.p.expr(e).kind {
            if let Some((name, Repr::Scalar(c), param)) = self.vars.get(&v) {
                if let Some(used) = self.params_used.get_mut(*param as usize) {
                    *used = true;
                }
                match *c == ctype {
                    true => out.push_str(name),
                    false => push_all(out, &["static_cast<", ctype, ">(", name, ")"]),
                }
                return Ok(());
            }
        }
        out.push_str(&self.typed_scalar(e, ctype)?);
        Ok(())
    }

    fn binary(&mut self, e: ExprId, op: BinOp, lhs: ExprId, rhs: ExprId) -> Res<(String, Repr)> {
        let (a, ra) = self.expr(lhs)?;
        let (b, rb) = self.expr(rhs)?;
        let (Repr::Scalar(ta), Repr::Scalar(tb)) = (&ra, &rb) else {
            let other = if matches!(ra, Repr::Scalar(_)) { rb } else { ra };
            return Err(self.err(
                Code::E0602,
                self.loc(e),
                format!(
                    "`{}` on {}: tensor and tile arithmetic goes through `pl.*` ops",
                    op.spelling(),
                    other.describe()
                ),
            ));
        };
        let result = self.scalar_repr(e).unwrap_or(if op.is_comparison() || op.is_logical() {
            Repr::Scalar("bool")
        } else {
            ra.clone()
        });
        let text = match op {
            BinOp::Div => format!("(static_cast<double>({a}) / static_cast<double>({b}))"),
            BinOp::FloorDiv => format!("plc::floordiv({a}, {b})"),
            BinOp::Mod => format!("plc::floormod({a}, {b})"),
            BinOp::Pow => format!("plc::pow({a}, {b})"),
            BinOp::And => format!("({a} && {b})"),
            BinOp::Or => format!("({a} || {b})"),
            op if op.is_comparison() => {
                // Mixed signedness would warn (and -Werror fail): compare as int64 or double.
                let unsigned = |t: &str| t.starts_with("uint");
                let float = |t: &str| t == "float" || t == "double";
                if ta != tb && (unsigned(ta) || unsigned(tb)) {
                    let common = if float(ta) || float(tb) { "double" } else { "int64_t" };
                    format!("(static_cast<{common}>({a}) {} static_cast<{common}>({b}))", op.spelling())
                } else {
                    format!("({a} {} {b})", op.spelling())
                }
            }
            op => format!("({a} {} {b})", op.spelling()),
        };
        Ok((text, result))
    }

    /// A `pl.dynamic` extent: read from the first tensor parameter that has it.
    fn dyn_dim(&mut self, s: Symbol, loc: Loc) -> Res<String> {
        if let Some(t) = self.dyn_dims.get(&s) {
            return Ok(t.clone());
        }
        for param in &self.f.params {
            if let Type::Tensor { shape: Some(shape), .. } = self.p.types.get(self.p.var(param.var).ty) {
                if let Some(axis) = shape.iter().position(|d| *d == Dim::Dyn(s)) {
                    let (name, _) = self.var(param.var, loc)?;
                    let text = format!("static_cast<int64_t>({name}.shapes[{axis}])");
                    self.dyn_dims.insert(s, text.clone());
                    return Ok(text);
                }
            }
        }
        Err(self.err(
            Code::E0602,
            loc,
            format!(
                "the dynamic extent `{}` is not the extent of any tensor parameter of this kernel",
                self.names.get(s)
            ),
        ))
    }

    // ------------------------------------------------------------------ calls of device functions

    fn call(&mut self, e: ExprId, g: Symbol, args: &[Option<ExprId>]) -> Res<(String, Repr)> {
        let (texts, sig) = self.call_args(e, g, args)?;
        let repr = match sig.ret.as_slice() {
            [] => Repr::None,
            [one] => one.clone(),
            many => Repr::Tuple(many.to_vec()),
        };
        Ok((format!("plc_kernels::{}({})", impl_symbol(self.names, g), texts.join(", ")), repr))
    }

    /// The C++ of a device function call's arguments, each in the form the callee takes,
    /// and the callee's signature.
    fn call_args(&mut self, e: ExprId, g: Symbol, args: &[Option<ExprId>]) -> Res<(Vec<String>, Sig)> {
        let loc = self.loc(e);
        let gname = self.names.get(g).to_string();
        let Some(callee) = self.p.functions.get(&g) else {
            return Err(self.err(Code::E0603, loc, format!("`{gname}` is not a function of the program")));
        };
        if !callee.decl.kind.is_device_kernel() {
            return Err(self.err(
                Code::E0603,
                loc,
                format!(
                    "a device function calls `{gname}`, an {} function; a kernel can call only kernels",
                    callee.decl.kind
                ),
            ));
        }
        let sig = self.signature(g, loc)?;
        let mut texts = Vec::new();
        for (k, param) in sig.params.iter().enumerate() {
            let Some(a) = args.get(k).copied().flatten() else {
                return Err(self.err(
                    Code::E0707,
                    loc,
                    format!("internal error: the call of `{gname}` lacks argument {k}"),
                ));
            };
            let text = match param {
                Repr::Tile(t) => self.tile_arg_as(a, t)?,
                Repr::Tensor => {
                    let (t, r) = self.expr(a)?;
                    if r != Repr::Tensor {
                        let mut d = self.err(
                            Code::E0605,
                            self.loc(a),
                            format!("`{gname}` takes a tensor here and is given {}", r.describe()),
                        );
                        d.help = Some(format!(
                            "a value computed in a kernel is a tile, and `{gname}` reads a tensor in global memory (a core-group region nested in another is such a call): store the value into a tensor with `pl.store` and pass that, or compute it inside `{gname}`"
                        ));
                        return Err(d);
                    }
                    // The callee reads a tensor parameter in its declared layout from the
                    // view's start, as the runtime entry's wrapper hands it over.
                    let want = callee.params.get(k).and_then(|p| self.p.types.get(self.p.var(p.var).ty).layout());
                    let got = self.p.ty(a).layout();
                    if let Some(why) = want.zip(got).and_then(|(w, g)| w.param_refuses(g)) {
                        return Err(self.err(
                            Code::E0601,
                            self.loc(a),
                            format!("this call of `{gname}` has no CPU form: {why}"),
                        ));
                    }
                    if want == Some(crate::ir::Layout::Dn) {
                        format!("plc::as_dn_packed({t})")
                    } else {
                        t
                    }
                }
                Repr::Scalar(t) => self.typed_scalar(a, t)?,
                _ => return Err(self.err(Code::E0707, loc, "internal error: a parameter of no C++ form".to_string())),
            };
            texts.push(text);
        }
        if !self.callees.contains(&g) {
            self.callees.push(g);
        }
        Ok((texts, sig))
    }

    /// What a called device function takes and returns (emitting it once to learn that).
    fn signature(&mut self, g: Symbol, loc: Loc) -> Res<Sig> {
        if let Some(s) = self.sigs.get(&g) {
            return Ok(Sig { params: s.params.clone(), ret: s.ret.clone() });
        }
        if self.stack.contains(&g) {
            let cycle: Vec<&str> = self.stack.iter().chain(std::iter::once(&g)).map(|s| self.names.get(*s)).collect();
            return Err(self.err(
                Code::E0603,
                loc,
                format!("device functions call each other in a cycle: {}", cycle.join(" -> ")),
            ));
        }
        self.stack.push(g);
        let emitted = emit_function(self.p, self.names, g, self.sigs, self.stack);
        self.stack.pop();
        let emitted = emitted?;
        let sig = Sig { params: emitted.param_reprs, ret: emitted.ret };
        self.sigs.insert(g, Sig { params: sig.params.clone(), ret: sig.ret.clone() });
        Ok(sig)
    }

    // ------------------------------------------------------------------ operands of ops

    /// The element type of the tile an expression's IR type describes (float by default).
    fn elem_of(&self, e: ExprId) -> Res<&'static str> {
        let dtype = match self.p.ty(e) {
            Type::Tile { dtype, .. } => Some(*dtype),
            Type::Tensor { dtype, .. } => *dtype,
            Type::Scalar(d) => Some(*d),
            _ => None,
        };
        match dtype {
            None => Ok("float"),
            Some(d) => elem_ctype(d).ok_or_else(|| {
                self.err(Code::E0604, self.loc(e), format!("a tile of {d} has no C++ form in a kernel"))
            }),
        }
    }

    /// The element type of a tile holding the variable `v` (float by default).
    fn elem_of_var(&self, v: VarId) -> Res<&'static str> {
        let var = self.p.var(v);
        let dtype = match self.p.types.get(var.ty) {
            Type::Tile { dtype, .. } => Some(*dtype),
            Type::Tensor { dtype, .. } => *dtype,
            _ => None,
        };
        match dtype {
            None => Ok("float"),
            Some(d) => elem_ctype(d)
                .ok_or_else(|| self.err(Code::E0604, var.loc, format!("a tile of {d} has no C++ form in a kernel"))),
        }
    }

    /// An operand that must be a tile: a tensor value is read whole.
    fn tile_arg(&mut self, e: ExprId) -> Res<String> {
        let elem = self.elem_of(e)?;
        self.tile_arg_as(e, elem)
    }

    fn tile_arg_as(&mut self, e: ExprId, elem: &str) -> Res<String> {
        let (t, r) = self.expr(e)?;
        match r {
            Repr::Tile(_) => Ok(t),
            Repr::Tensor => Ok(format!("plc::load_tensor<{elem}>({t})")),
            other => Err(self.err(Code::E0602, self.loc(e), format!("{} where a tile is needed", other.describe()))),
        }
    }

    /// An operand that may be a tile (or tensor value) or a scalar.
    fn operand(&mut self, e: ExprId) -> Res<String> {
        match self.p.ty(e) {
            Type::Scalar(_) => Ok(self.expr(e)?.0),
            _ => {
                if matches!(self.p.expr(e).kind, ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_)) {
                    return Ok(self.expr(e)?.0);
                }
                self.tile_arg(e)
            }
        }
    }

    fn tensor_arg(&mut self, e: ExprId) -> Res<String> {
        let (t, r) = self.expr(e)?;
        match r {
            Repr::Tensor => Ok(t),
            other => Err(self.err(Code::E0605, self.loc(e), format!("{} where a tensor is needed", other.describe()))),
        }
    }

    /// A list of extents or offsets: `plc::Dims{a, b}` (`plc::Dims()` when absent).
    fn dims(&mut self, e: Option<ExprId>) -> Res<String> {
        let Some(e) = e else { return Ok("plc::Dims()".to_string()) };
        let p = self.p;
        let items: &[ExprId] = match &p.expr(e).kind {
            ExprKind::Tuple(items) => items,
            ExprKind::None => return Ok("plc::Dims()".to_string()),
            _ => std::slice::from_ref(&e),
        };
        // Written into one string, not gathered and joined.
        let mut out = String::with_capacity(16 + 8 * items.len());
        out.push_str("plc::Dims{");
        for (k, &i) in items.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            match p.expr(i).kind {
                // A literal as `typed_scalar` writes it, without a `String` of its own.
                ExprKind::Int(n) if n >= 0 => push_uint(&mut out, n.unsigned_abs()),
                _ => self.typed_scalar_into(i, "int64_t", &mut out)?,
            }
        }
        out.push('}');
        Ok(out)
    }

    /// A `True`/`False` argument (`false` when absent).
    fn flag(&mut self, e: Option<ExprId>) -> Res<String> {
        match e {
            None => Ok("false".to_string()),
            Some(e) => match self.p.expr(e).kind {
                ExprKind::None => Ok("false".to_string()),
                _ => self.typed_scalar(e, "bool"),
            },
        }
    }

    /// An integer argument with a default.
    fn int_arg(&mut self, e: Option<ExprId>, default: i64) -> Res<String> {
        match e {
            None => Ok(int_literal(default)),
            Some(e) => match self.p.expr(e).kind {
                ExprKind::None => Ok(int_literal(default)),
                _ => self.typed_scalar(e, "int64_t"),
            },
        }
    }

    fn enum_arg(&self, e: Option<ExprId>) -> Option<EnumValue> {
        match self.p.expr(e?).kind {
            ExprKind::Enum(v) => Some(v),
            _ => None,
        }
    }

    fn dtype_arg(&self, e: Option<ExprId>) -> Option<DType> {
        match self.p.expr(e?).kind {
            ExprKind::DType(d) => Some(d),
            _ => None,
        }
    }

    /// `atomic=pl.AtomicType.Add`.
    fn atomic(&self, e: Option<ExprId>) -> &'static str {
        match self.enum_arg(e) {
            Some(EnumValue::AtomicType(crate::ir::AtomicType::Add)) => "true",
            _ => "false",
        }
    }

    /// The rounding of a cast's `mode=`.
    fn round_mode(&self, e: Option<ExprId>) -> &'static str {
        let mode = match e.map(|e| &self.p.expr(e).kind) {
            Some(ExprKind::Str(s)) => self.names.get(*s).to_ascii_lowercase(),
            _ => String::new(),
        };
        match mode.as_str() {
            "rint" => "plc::Round::Rint",
            "round" => "plc::Round::Round",
            "floor" => "plc::Round::Floor",
            "ceil" => "plc::Round::Ceil",
            _ => "plc::Round::Trunc",
        }
    }

    /// The tile form of an op's result (its IR type's element type).
    fn tile_result(&self, e: ExprId) -> Res<Repr> {
        Ok(Repr::Tile(self.elem_of(e)?))
    }
}
