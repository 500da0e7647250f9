//! The orchestration emitter: an Orchestration function (after the whole pipeline) as the
//! C++ the task runtime runs, in the shape of PyPTO's older releases
//! (`aicpu_orchestration_config` / `aicpu_orchestration_entry(const ChipTaskArgs&)`).
//!
//! - Entry parameters become `ext_<name>` tensors and unpacked scalars.
//! - Each call of a kernel (InCore, AIC, AIV, Group, Spmd function) is one task
//!   submission: a `CoreTaskArgs` with the arguments in the call's directions, tensors
//!   before scalars, then `rt_submit_aiv_task(func_id, ...)`; func_ids in first-use order.
//! - Each call of a Graph function is a `GraphTaskArgs` boundary and
//!   `rt_submit_graph(&pypto_graph_<name>, ...)`; the Graph function itself is emitted once
//!   per file, keyed by its name, with its boundary scalars bound by reference to their
//!   argument slots.
//! - A call's results are the arguments it wrote (the callee returns its parameters): the
//!   result variables alias those arguments, nothing is copied.
//! - `pl.create_tensor` becomes `alloc_tensors` (one batch per block for constant shapes);
//!   views, reads, task-id arrays and scalar arithmetic are written out; loops and ifs keep
//!   their carries (a tensor carry that stays the same buffer is an alias, others are
//!   `ChipTensor` variables).

use super::assembly::{classify, expr_vars, Assemblies, Assembly};
use super::cpp::{
    self, cat, ctype, float_literal, identifier, runtime_dtype, sanitize, Digits, Namer, Writer, FEW_NAMES,
};
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::lineage::{Defs, Lineage};
use crate::ir::ops::{Op, OpKind, OpLevel, Param, Special};
use crate::ir::{
    ArgDir, BinOp, Callee, DType, Dim, EnumValue, ExprId, ExprKind, ForKind, FuncKind, Function, IfStmt, LaunchOptions,
    Layout, Loc, Program, ScopeKind, StmtId, StmtKind, Type, UnOp, VarId,
};
use indexmap::IndexMap;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

/// What the emitters share across the files of one compilation.
#[derive(Default)]
pub struct Shared {
    /// Kernel function → func_id, in first-use order.
    pub func_ids: IndexMap<Symbol, u32>,
    /// For each kernel, the directions of its tensor arguments at its first call
    /// (`IN`, `OUT`, `INOUT`), for kernel_config.json.
    pub signatures: FxHashMap<Symbol, Vec<&'static str>>,
    pub lineage: Lineage,
    /// Whether a mixed Group (`emit::pto::mixed`) is launched as one mixed task of its AIC
    /// and AIV halves (PTO-ISA kernels), rather than as one kernel calling both.
    pub split_mixed: bool,
    /// The func_id of each mixed Group's AIC half (its AIV half has the Group's own id).
    pub aic_halves: IndexMap<Symbol, u32>,
    /// Numbering one file alone (see [`Shared::per_file`]): each id is written as a
    /// placeholder, `\0` and the id in this file, which [`Shared::renumber`] replaces.
    per_file: bool,
    /// The placeholders written.
    placeholders: usize,
}

impl Shared {
    /// The numbering of one entry's file alone, so that the entries can be emitted in
    /// parallel: the ids are given in first-use order within the file and written as
    /// placeholders; [`Shared::merge`] then gives them their program-wide ids, in the
    /// entries' order, and [`Shared::renumber`] writes those in. (The lexer refuses NUL
    /// bytes, so no other `\0` is in the file; `renumber` checks it all the same.)
    pub fn per_file(split_mixed: bool) -> Shared {
        Shared { split_mixed, per_file: true, ..Default::default() }
    }

    /// The func_id of kernel `g`, or of its AIC half, given at its first use; and the
    /// signature of its first call.
    fn func_id(&mut self, g: Symbol, aic_half: bool, signature: &[&'static str]) -> u32 {
        let next = (self.func_ids.len() + self.aic_halves.len()) as u32;
        let ids = if aic_half { &mut self.aic_halves } else { &mut self.func_ids };
        let id = *ids.entry(g).or_insert(next);
        if !aic_half && !self.signatures.contains_key(&g) {
            self.signatures.insert(g, signature.to_vec());
        }
        id
    }

    /// What is written before a func_id: nothing, or (numbering per file) the `\0` that
    /// makes it a placeholder.
    fn id_mark(&mut self) -> &'static str {
        if self.per_file {
            self.placeholders += 1;
            "\0"
        } else {
            ""
        }
    }

    /// Takes in the numbering of one file (made by [`Shared::per_file`]), as if the file had
    /// been emitted with this numbering; returns the program-wide id of each id of the file.
    pub fn merge(&mut self, file: Shared) -> Vec<u32> {
        let n = file.func_ids.len() + file.aic_halves.len();
        let mut uses: Vec<Option<(Symbol, bool)>> = vec![None; n];
        for (ids, aic_half) in [(&file.func_ids, false), (&file.aic_halves, true)] {
            for (&g, &id) in ids {
                uses[id as usize] = Some((g, aic_half));
            }
        }
        uses.into_iter()
            .flatten()
            .map(|(g, aic_half)| {
                let signature = file.signatures.get(&g).map_or(&[][..], Vec::as_slice);
                self.func_id(g, aic_half, signature)
            })
            .collect()
    }

    /// The text of a file numbered per file with the program-wide ids `ids` (from
    /// [`Shared::merge`]); `None` when `text` holds another `\0` than the placeholders
    /// `file_placeholders` counted.
    pub fn renumber(text: &str, ids: &[u32], file_placeholders: usize) -> Option<String> {
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len() + 4 * file_placeholders);
        let mut count = 0;
        let mut from = 0;
        for at in memchr::memchr_iter(0, bytes) {
            count += 1;
            let digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            let id = ids.get(text[at + 1..at + 1 + digits].parse::<usize>().ok()?)?;
            out.push_str(&text[from..at]);
            out.push_str(super::cpp::Digits::new((*id).into()).as_str());
            from = at + 1 + digits;
        }
        out.push_str(&text[from..]);
        (count == file_placeholders).then_some(out)
    }

    /// A numbering with this one's ids, for emitting a file again: its ids are written as
    /// they are.
    pub fn numbered(&self) -> Shared {
        Shared {
            func_ids: self.func_ids.clone(),
            aic_halves: self.aic_halves.clone(),
            split_mixed: self.split_mixed,
            ..Default::default()
        }
    }

    /// The placeholders written so far.
    pub fn placeholders(&self) -> usize {
        self.placeholders
    }
}

/// The C++ of one orchestration entry, or the errors that prevent it.
pub fn emit_entry(
    p: &Program,
    names: &Interner,
    entry: Symbol,
    shared: &mut Shared,
) -> Result<String, Vec<Diagnostic>> {
    let f = &p.functions[&entry];
    let mut graphs: Vec<Symbol> = Vec::new();
    let mut e = Emitter::new(p, names, f, shared, String::new(), &mut graphs);
    let mut head = String::new();
    // External tensors and scalar parameters: two index spaces, in declaration order.
    let mut ext_lines = Vec::new();
    let mut scalar_lines = Vec::new();
    for (v, slot) in arg_slots(p, f) {
        match slot {
            ArgSlot::Scalar(s, d) => {
                // As `define`: the namer sanitizes the source name.
                let name = e.namer.fresh(names.get(p.var(v).source));
                scalar_lines.push(format!("{} {name} = from_u64<{}>(orch_args.scalar({s}));", ctype(d), ctype(d)));
                // A parameter the body never reads.
                if !e.read.contains(&v) {
                    scalar_lines.push(cat(&["(void)", &name, ";"]));
                }
                e.names_of.insert(v, name);
            }
            ArgSlot::Tensor(t) => {
                let name = e.fresh(&cat(&["ext_", &e.base_name(v)]));
                let i = Digits::new(t as u64);
                ext_lines.push(cat(&["const ChipTensor& ", &name, " = orch_args.tensor(", i.as_str(), ").ref();"]));
                if !e.read.contains(&v) {
                    ext_lines.push(cat(&["(void)", &name, ";"]));
                }
                e.tensor_params.push((v, t));
                e.names_of.insert(v, name);
            }
        }
    }
    let scoped = f.decl.auto_scope != Some(false);
    e.w.set_level(if scoped { 2 } else { 1 });
    let body = e.function_body(f);
    let dyn_lines = e.dynamic_dims(&body, "orch_args.tensor({i}).ref()");
    let errors = std::mem::take(&mut e.diags);
    drop(e);
    let mut all_errors = errors;

    // The Graph functions the entry launches, each once, in first-launch order, and the
    // orchestration functions it calls (as plain C++ functions); declared first, so that
    // they may call one another in any order.
    let mut graph_code = String::new();
    let mut prototypes = String::new();
    let mut k = 0;
    let mut emitted: FxHashSet<Symbol> = FxHashSet::default();
    let mut i = 0;
    while i < graphs.len() {
        let g = graphs[i];
        i += 1;
        if !emitted.insert(g) {
            continue;
        }
        match emit_graph(p, names, g, shared, k, &mut graphs) {
            // The first taken as it is (most entries launch one graph), not copied.
            Ok((proto, code)) if prototypes.is_empty() && graph_code.is_empty() => {
                (prototypes, graph_code) = (proto, code);
            }
            Ok((proto, code)) => {
                prototypes.push_str(&proto);
                graph_code.push_str(&code);
            }
            Err(errs) => all_errors.extend(errs),
        }
        k += 1;
    }
    if !prototypes.is_empty() {
        prototypes.push('\n');
    }
    if !all_errors.is_empty() {
        return Err(all_errors);
    }

    // Sized up front for the whole file (its arithmetic helpers too, mostly), not grown by
    // doubling from empty.
    let lines_len: usize =
        [&ext_lines, &scalar_lines, &dyn_lines].iter().flat_map(|l| l.iter()).map(|l| l.len() + 5).sum();
    head.reserve(prototypes.len() + graph_code.len() + body.len() + lines_len + 2048);
    for part in ["// Orchestration Function: ", names.get(entry), "\n"] {
        head.push_str(part);
    }
    if let Some(call) = &p.built_by {
        for part in ["// Program built by ", call, "\n"] {
            head.push_str(part);
        }
    }
    head.push_str(concat!(
        "// Generated by plc\n\n",
        "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n#include <algorithm>\n#include <cmath>\n\n",
        "#include \"pto_orchestration_api.h\"\n\n",
    ));
    // The arithmetic helpers the file calls go here, before `extern "C"`: found in the rest
    // of the file once it is written (whole lines; the fixed text calls none), in one scan.
    let helpers_at = head.len();
    head.push_str(concat!(
        "extern \"C\" {\n\n",
        "__attribute__((visibility(\"default\")))\n",
        "PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {\n",
        "    (void)orch_args;\n    return PTO2OrchestrationConfig{\n",
        "        .expected_arg_count = ",
    ));
    head.push_str(Digits::new(f.params.len() as u64).as_str());
    head.push_str(",\n    };\n}\n\n");
    head.push_str(&prototypes);
    head.push_str(&graph_code);
    head.push_str("__attribute__((visibility(\"default\")))\n");
    head.push_str("void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {\n");
    if f.params.is_empty() {
        head.push_str("    (void)orch_args;\n");
    }
    for (title, lines) in [
        ("    // External tensors\n", &ext_lines),
        ("    // Scalar params\n", &scalar_lines),
        ("    // Dynamic-dim symbols\n", &dyn_lines),
    ] {
        if !lines.is_empty() {
            head.push_str(title);
            for l in lines {
                head.push_str("    ");
                head.push_str(l);
                head.push('\n');
            }
            head.push('\n');
        }
    }
    if scoped {
        head.push_str("    PTO2_SCOPE() {\n");
        head.push_str(&body);
        head.push_str("    }\n");
    } else {
        head.push_str(&body);
    }
    head.push_str("}\n\n}  // extern \"C\"\n");
    let helpers = super::py_arith::definitions_for(&[&head]);
    head.insert_str(helpers_at, &helpers);
    Ok(head)
}

/// `static void pypto_graph_<name>(const GraphTaskArgs& args)`: the body of one Graph
/// function, its task variables prefixed `g<k>_`; or, for an orchestration function the
/// entry calls, `static void plc_orch_<name>(const ChipTensor& a, ..., int64_t n)`.
/// Returns the prototype and the definition.
fn emit_graph(
    p: &Program,
    names: &Interner,
    g: Symbol,
    shared: &mut Shared,
    k: usize,
    graphs: &mut Vec<Symbol>,
) -> Result<(String, String), Vec<Diagnostic>> {
    let f = &p.functions[&g];
    if f.decl.kind != FuncKind::Graph {
        return emit_helper(Emitter::new(p, names, f, shared, format!("o{k}_"), graphs), g);
    }
    let mut e = Emitter::new(p, names, f, shared, format!("g{k}_"), graphs);
    e.namer.reserve("args");
    // The parameters' lines, indented, written in one string.
    let mut decls = String::new();
    for (v, slot) in arg_slots(p, f) {
        let name = e.define(v);
        match slot {
            ArgSlot::Scalar(s, _) => {
                // By reference: the runtime re-reads the slot on replay.
                let s = Digits::new(s as u64);
                cpp::push_all(&mut decls, &["    const uint64_t& ", &name, " = args.scalar(", s.as_str(), ");\n"]);
                e.boundary_scalars.insert(v);
            }
            ArgSlot::Tensor(t) => {
                let i = Digits::new(t as u64);
                cpp::push_all(
                    &mut decls,
                    &["    const ChipTensor& ", &name, " = args.tensor(", i.as_str(), ").ref();\n"],
                );
                e.tensor_params.push((v, t));
            }
        }
    }
    let body = e.function_body(f);
    let dyn_lines = e.dynamic_dims(&body, "args.tensor({i}).ref()");
    if !e.diags.is_empty() {
        return Err(std::mem::take(&mut e.diags));
    }
    // Sized for the whole definition, not grown by doubling from empty.
    let mut out = String::with_capacity(decls.len() + body.len() + 512);
    let symbol = graph_symbol(names, g);
    let proto = cat(&["static void ", &symbol, "(const GraphTaskArgs& args);\n"]);
    for part in ["// Graph function: ", names.get(g), " (recorded on its first launch, replayed after)\n"] {
        out.push_str(part);
    }
    for part in ["static void ", &symbol, "(const GraphTaskArgs& args) {\n"] {
        out.push_str(part);
    }
    out.push_str(&decls);
    for l in &dyn_lines {
        out.push_str("    ");
        out.push_str(l);
        out.push('\n');
    }
    if f.params.is_empty() {
        out.push_str("    (void)args;\n");
    }
    for param in &f.params {
        // A parameter the body does not read (kept on the boundary all the same).
        for part in ["    (void)", &e.names_of[&param.var], ";\n"] {
            out.push_str(part);
        }
    }
    out.push_str(&body);
    out.push_str("}\n\n");
    Ok((proto, out))
}

/// Where a parameter's value is in a task's arguments: scalars and tensors are two index
/// spaces, each in declaration order.
enum ArgSlot {
    Scalar(usize, DType),
    Tensor(usize),
}

fn arg_slots(p: &Program, f: &Function) -> Vec<(VarId, ArgSlot)> {
    let (mut t, mut s) = (0, 0);
    let mut slots = Vec::with_capacity(f.params.len());
    for param in &f.params {
        let slot = match p.types.get(p.var(param.var).ty) {
            Type::Scalar(d) => {
                s += 1;
                ArgSlot::Scalar(s - 1, *d)
            }
            _ => {
                t += 1;
                ArgSlot::Tensor(t - 1)
            }
        };
        slots.push((param.var, slot));
    }
    slots
}

/// An Opaque or Orchestration function the entry calls: a plain C++ function over the
/// caller's tensors and scalars, whose launches are the caller's.
fn emit_helper(mut e: Emitter, g: Symbol) -> Result<(String, String), Vec<Diagnostic>> {
    let (p, names) = (e.p, e.names);
    let f = &p.functions[&g];
    let mut params = Vec::new();
    for param in &f.params {
        let v = param.var;
        let name = e.define(v);
        match p.types.get(p.var(v).ty) {
            Type::Scalar(d) => params.push(format!("{} {name}", ctype(*d))),
            _ => {
                params.push(format!("const ChipTensor& {name}"));
                let index = e.tensor_params.len();
                e.tensor_params.push((v, index));
            }
        }
    }
    let body = e.function_body(f);
    if !e.diags.is_empty() {
        return Err(std::mem::take(&mut e.diags));
    }
    let sym = helper_symbol(names, g);
    let signature = format!("static void {sym}({})", params.join(", "));
    let mut out = String::new();
    let _ = writeln!(out, "// Orchestration function {}, called by the entry", names.get(g));
    let _ = writeln!(out, "{signature} {{");
    for param in &f.params {
        let _ = writeln!(out, "    (void){};", e.names_of[&param.var]);
    }
    out.push_str(&body);
    out.push_str("}\n\n");
    Ok((format!("{signature};\n"), out))
}

/// Every variable an expression of the block tree reads.
/// An alias `x = w` emits nothing (`x` is written as `w`), so it reads `w` only when `x`
/// itself is read: an unread chain of aliases leaves `w` unread too (`-Wunused-variable`).
fn body_reads(p: &Program, body: &[StmtId]) -> FxHashSet<VarId> {
    let mut read = FxHashSet::with_capacity_and_hasher(FEW_NAMES, Default::default());
    let mut aliases: Vec<(VarId, VarId)> = Vec::new();
    crate::ir::visit::walk_stmts(p, body, |s| {
        if let StmtKind::Assign { var, value } = p.stmt(s).kind {
            if let ExprKind::Var(w) = p.expr(value).kind {
                aliases.push((var, w));
                return;
            }
        }
        crate::ir::visit::stmt_reads(p, s, |v| {
            read.insert(v);
        })
    });
    let mut of: FxHashMap<VarId, Vec<VarId>> = FxHashMap::default();
    for (var, w) in aliases {
        of.entry(var).or_default().push(w);
    }
    let mut work: Vec<VarId> = read.iter().copied().filter(|v| of.contains_key(v)).collect();
    while let Some(var) = work.pop() {
        for &w in of.get(&var).into_iter().flatten() {
            if read.insert(w) {
                work.push(w);
            }
        }
    }
    read
}

fn helper_symbol(names: &Interner, g: Symbol) -> String {
    format!("plc_orch_{}", super::cpp::stable_name(names.get(g), &[]))
}

/// The C++ symbol of a Graph function: one per function name, so two Graph functions
/// never share a recording.
pub fn graph_symbol(names: &Interner, g: Symbol) -> String {
    super::cpp::cat(&["pypto_graph_", &super::cpp::stable_name(names.get(g), &[])])
}

/// The `DataType` member for a tensor the runtime allocates (`TensorCreateInfo`), or `None`
/// for an element type the runtime's enum lacks: the simpler runtime's `DataType` has no
/// `FP8E5M2` and nothing for the 4-bit integers or HiFloats (plc's own CPU runtime adds
/// `FP8E5M2` and `UNKNOWN` for the kernels it runs, which the real one does not have).
fn allocatable_dtype(d: DType) -> Option<&'static str> {
    match runtime_dtype(d) {
        "DataType::FP8E5M2" | "DataType::UNKNOWN" => None,
        name => Some(name),
    }
}

/// The result of a call whose value is a tuple: what its elements are.
#[derive(Clone)]
struct TupleCall {
    call: ExprId,
    callee: Symbol,
    args: Vec<Option<ExprId>>,
    /// `task_<n>_outs`, when the launch keeps its handle (a `pl.submit`).
    outs: Option<String>,
    results: usize,
}

struct Emitter<'a> {
    p: &'a Program,
    names: &'a Interner,
    shared: &'a mut Shared,
    defs: Defs,
    func_loc: Loc,
    /// `""` for the entry, `g<k>_` in a Graph function.
    prefix: String,
    graphs: &'a mut Vec<Symbol>,
    w: Writer,
    task: u32,
    alloc: u32,
    /// The C++ expression each variable is (a name, or the name of what it aliases).
    names_of: FxHashMap<VarId, String>,
    namer: Namer,
    tuple_calls: FxHashMap<VarId, TupleCall>,
    /// Variables holding a tuple made in place (`ExprKind::Tuple`): their elements.
    tuple_values: FxHashMap<VarId, Vec<ExprId>>,
    /// Variables whose definition was refused with an error already (a launch of a function
    /// orchestration code cannot launch): their uses and elements are not errors of their own.
    refused: FxHashSet<VarId>,
    /// Runtime-allocated outputs: (call, result position) → `task_<n>_outs.get_ref(k)`.
    synthesized: FxHashMap<(ExprId, usize), String>,
    /// Tensor parameters with their index among tensor parameters.
    tensor_params: Vec<(VarId, usize)>,
    first_tensor: Option<VarId>,
    /// Scalar parameters of a Graph function (bound by reference to their slots).
    boundary_scalars: FxHashSet<VarId>,
    /// The variables the function's body reads: a scalar it never reads is declared and
    /// then cast to void, so that the C++ passes `-Wall -Wextra -Werror`.
    read: FxHashSet<VarId>,
    /// How many assemblies take each tensor this function makes as their source.
    assemblies: Assemblies,
    /// The tensors this function makes that are views of an assembly's target (PyPTO's
    /// FuseCreateAssembleToSlice): the made tensor → the assembly's target and offsets.
    fused: FxHashMap<VarId, (ExprId, Option<ExprId>)>,
    /// A kernel's new result that is fused: (call, result position) → the made tensor.
    fused_results: FxHashMap<(ExprId, usize), VarId>,
    /// The fused tensors emitted as views so far.
    fused_views: FxHashSet<VarId>,
    diags: Vec<Diagnostic>,
}

impl<'a> Emitter<'a> {
    fn new(
        p: &'a Program,
        names: &'a Interner,
        f: &'a Function,
        shared: &'a mut Shared,
        prefix: String,
        graphs: &'a mut Vec<Symbol>,
    ) -> Self {
        let defs = Defs::of(p, f);
        let assemblies = Assemblies::of(p, &defs, &mut shared.lineage, f);
        let mut e = Emitter {
            p,
            names,
            shared,
            defs,
            func_loc: f.loc,
            prefix,
            graphs,
            w: Writer::new(1),
            task: 0,
            alloc: 0,
            names_of: FxHashMap::with_capacity_and_hasher(FEW_NAMES, Default::default()),
            namer: Namer::new(),
            tuple_calls: FxHashMap::default(),
            tuple_values: FxHashMap::default(),
            refused: FxHashSet::default(),
            synthesized: FxHashMap::default(),
            tensor_params: Vec::new(),
            first_tensor: None,
            boundary_scalars: FxHashSet::default(),
            read: body_reads(p, &f.body),
            assemblies,
            fused: FxHashMap::default(),
            fused_results: FxHashMap::default(),
            fused_views: FxHashSet::default(),
            diags: Vec::new(),
        };
        e.find_fused(f);
        e
    }

    /// The tensors this function makes that become views of an assembly's target.
    fn find_fused(&mut self, f: &Function) {
        if !self.assemblies.any() {
            return;
        }
        let mut found = Vec::new();
        crate::ir::visit::walk_stmts(self.p, &f.body, |s| {
            let StmtKind::Assign { value, .. } = self.p.stmt(s).kind else { return };
            if let ExprKind::Call { callee: Callee::Op(Op::TensorAssemble), args, .. } = &self.p.expr(value).kind {
                found.push(args.clone());
            }
        });
        for args in found {
            let kind = classify(self.p, self.names, &self.defs, &mut self.shared.lineage, &self.assemblies, &args);
            let Assembly::Fused { made } = kind else { continue };
            let def = Op::TensorAssemble.def();
            let Some(target) = def.arg(&args, Param::Target) else { continue };
            self.fused.insert(made, (target, def.arg(&args, Param::Offset)));
            // A kernel's new result: found again at the launch by its call and position.
            if let Some(crate::ir::lineage::Def::Value(e)) = self.defs.map.get(&made) {
                match self.p.expr(*e).kind {
                    ExprKind::Call { .. } => {
                        self.fused_results.insert((*e, 0), made);
                    }
                    ExprKind::TupleGet { tuple, index } => {
                        if let Some(Some(crate::ir::lineage::Def::Value(call))) =
                            as_var(self.p, tuple).map(|t| self.defs.map.get(&t))
                        {
                            self.fused_results.insert((*call, index as usize), made);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// `(void)name;` after the declaration of a variable the body never reads.
    fn unless_read(&mut self, var: VarId, name: &str) {
        if !self.read.contains(&var) {
            self.line_fmt(format_args!("(void){name};"));
        }
    }

    fn line(&mut self, text: &str) {
        self.w.line(text);
    }

    fn line_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        self.w.line_fmt(args);
    }

    fn error(&mut self, code: Code, loc: Loc, message: String) {
        // A node the compiler made points at the function it is in.
        let loc = if loc.is_compiler_made() { self.func_loc } else { loc };
        let label = Label::primary(loc.file, loc.span, "here");
        self.diags.push(Diagnostic::error(code, message, label));
    }

    /// The source name of a variable, as a C++ identifier: `acc__ssa_v1` → `acc`.
    fn base_name(&self, v: VarId) -> String {
        sanitize(self.names.get(self.p.var(v).source))
    }

    /// `base`, or `base_1`, `base_2`, ... : a name not yet used in this C++ function.
    fn fresh(&mut self, base: &str) -> String {
        self.namer.fresh(base)
    }

    /// The C++ text of the body of `f`, whose parameters are named.
    fn function_body(&mut self, f: &Function) -> String {
        self.first_tensor =
            f.params.iter().find(|q| !self.p.types.get(self.p.var(q.var).ty).is_scalar()).map(|q| q.var);
        self.block(&f.body, None);
        self.w.take()
    }

    /// A fresh C++ name for the variable `v`, remembered.
    fn define(&mut self, v: VarId) -> String {
        // The source name made an identifier by the namer alone: `identifier` of a name is
        // that of its `sanitize`d form (`sanitize` is idempotent), so it is not sanitized twice.
        let name = self.namer.fresh(self.names.get(self.p.var(v).source));
        self.names_of.insert(v, name.clone());
        name
    }

    fn var_text(&mut self, v: VarId, loc: Loc) -> String {
        match self.names_of.get(&v) {
            Some(n) => n.clone(),
            None if self.tuple_values.contains_key(&v) => {
                self.error(Code::E0612, loc, "a tuple value in orchestration code".to_string());
                "0".to_string()
            }
            None => {
                let n = self.names.get(self.p.var(v).name).to_string();
                self.error(Code::E0708, loc, format!("internal error: `{n}` has no C++ value at this point"));
                "0".to_string()
            }
        }
    }

    fn scalar_dtype(&self, v: VarId) -> Option<DType> {
        match self.p.types.get(self.p.var(v).ty) {
            Type::Scalar(d) => Some(*d),
            _ => None,
        }
    }

    fn is_tensor_var(&self, v: VarId) -> bool {
        matches!(self.p.types.get(self.p.var(v).ty), Type::Tensor { .. } | Type::Unknown)
    }

    /// The lines declaring `pl.dynamic` extents the body mentions, read from the first
    /// tensor parameter declaring each (`access` formats the tensor's expression).
    fn dynamic_dims(&mut self, body: &str, access: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let mut seen: FxHashSet<Symbol> = FxHashSet::default();
        for &(v, i) in &self.tensor_params.clone() {
            let Some(shape) = self.p.types.get(self.p.var(v).ty).shape() else { continue };
            for (axis, d) in shape.iter().enumerate() {
                if let Dim::Dyn(sym) = d {
                    let name = identifier(self.names.get(*sym));
                    if seen.insert(*sym) && mentions(body, &name) && !self.namer.is_taken(&name) {
                        let tensor = access.replace("{i}", &i.to_string());
                        lines.push(format!("int64_t {name} = (int64_t){tensor}.shapes[{axis}];"));
                    }
                }
            }
        }
        lines
    }

    // ------------------------------------------------------------------ statements

    /// A block; `yield_to` are the C++ variables a trailing yield assigns (the carries of
    /// the loop or if around it), `None` where a yield assigns nothing.
    fn block(&mut self, block: &[StmtId], yield_to: Option<&[Option<String>]>) {
        // Allocations with constant shapes go first, in batches of 16.
        let creates: Vec<StmtId> =
            block.iter().copied().filter(|&s| self.constant_create(s) && !self.fused_create(s)).collect();
        if !creates.is_empty() {
            self.alloc_batch(&creates);
        }
        for &s in block {
            if creates.contains(&s) {
                continue;
            }
            self.stmt(s, yield_to);
        }
    }

    /// A `pl.create_tensor` made a view of an assembly's target, in place.
    fn fused_create(&self, s: StmtId) -> bool {
        matches!(self.p.stmt(s).kind, StmtKind::Assign { var, .. } if self.fused.contains_key(&var))
    }

    /// The tensor `made` as a view of the target of the assembly it is fused into, at its
    /// offsets, with extents `dims`; the view's C++ name (`name` when given, else a fresh
    /// one). `None`, with E0623, when the target or an offset is computed after this point.
    fn fused_view(&mut self, made: VarId, name: Option<VarId>, dims: &[String], loc: Loc) -> Option<String> {
        let (target, offsets) = *self.fused.get(&made)?;
        self.fused_views.insert(made);
        let mut vars = Vec::new();
        expr_vars(self.p, target, &mut vars);
        if let Some(o) = offsets {
            expr_vars(self.p, o, &mut vars);
        }
        if let Some(&late) = vars.iter().find(|v| !self.names_of.contains_key(v)) {
            let what = sanitize(self.names.get(self.p.var(late).source));
            let made_name = sanitize(self.names.get(self.p.var(made).source));
            self.error(
                Code::E0623,
                loc,
                format!("`{made_name}` is assembled once, so the runtime writes it in place, a view of the assembly's target; but `{what}`, which that view needs, is computed after `{made_name}` is made: make `{made_name}` after it"),
            );
            return None;
        }
        let t = self.expr(target);
        let offs = self.shape_dims(offsets);
        let v = match name {
            Some(var) => self.define(var),
            None => {
                let base = format!("{}_view", self.base_name(made));
                self.fresh(&base)
            }
        };
        self.window(&v, &t, dims, offs);
        Some(v)
    }

    fn constant_create(&self, s: StmtId) -> bool {
        let StmtKind::Assign { value, .. } = self.p.stmt(s).kind else { return false };
        let ExprKind::Call { callee: Callee::Op(op), args, .. } = &self.p.expr(value).kind else { return false };
        *op == Op::TensorCreate
            && args.first().copied().flatten().is_some_and(|sh| match &self.p.expr(sh).kind {
                ExprKind::Tuple(items) => items.iter().all(|&i| matches!(self.p.expr(i).kind, ExprKind::Int(_))),
                _ => false,
            })
    }

    /// `uint32_t x_ci_shapes[n] = {...}; TensorCreateInfo x_ci(...); ... alloc_tensors(...)`.
    fn alloc_batch(&mut self, creates: &[StmtId]) {
        for chunk in creates.chunks(16) {
            let mut infos = Vec::new();
            let mut bound = Vec::new();
            for &s in chunk {
                let StmtKind::Assign { var, value } = self.p.stmt(s).kind else { continue };
                let ExprKind::Call { args, .. } = self.p.expr(value).kind.clone() else { continue };
                self.check_init_value(&args, self.p.stmt(s).loc);
                let name = self.define(var);
                let ci = self.fresh(&format!("{name}_ci"));
                let dims = self.shape_dims(args.first().copied().flatten());
                let dtype = self.tensor_dtype_of(var, self.p.stmt(s).loc);
                let shapes = self.fresh(&format!("{ci}_shapes"));
                self.line_fmt(format_args!("uint32_t {shapes}[{}] = {{{}}};", dims.len().max(1), dims.join(", ")));
                let manual = self.create_manual_dep(value);
                let manual = if manual { ", /*manual_dep=*/true" } else { "" };
                self.line_fmt(format_args!("TensorCreateInfo {ci}({shapes}, {}, {dtype}{manual});", dims.len()));
                infos.push(ci);
                bound.push(name);
            }
            let alloc = self.fresh(&format!("{}alloc_{}", self.prefix, self.alloc));
            self.alloc += 1;
            self.line_fmt(format_args!("TaskOutputTensors {alloc} = alloc_tensors({});", infos.join(", ")));
            for (i, name) in bound.iter().enumerate() {
                self.line_fmt(format_args!("const ChipTensor& {name} = {alloc}.get_ref({i});"));
                self.line_fmt(format_args!("(void){name};"));
            }
        }
    }

    /// `pl.create_tensor(..., init_value=v)`: the simpler host_build_graph runtime fills no
    /// tensor when it allocates it (its `TensorCreateInfo` has no `set_initial_value`), so
    /// only a zero fill, which plc's CPU runtime gives every allocation, has a C++ form.
    fn check_init_value(&mut self, args: &[Option<ExprId>], loc: Loc) {
        let Some(a) = Op::TensorCreate.def().arg(args, Param::InitValue) else { return };
        let zero = match self.p.expr(a).kind {
            ExprKind::Int(n) => n == 0,
            ExprKind::Float(x) => x == 0.0,
            ExprKind::Bool(b) => !b,
            _ => false,
        };
        if !zero {
            self.error(
                Code::E0612,
                loc,
                "the runtime fills no tensor when it allocates it, so `init_value` can only be 0 in orchestration code; write the value with a task".to_string(),
            );
        }
    }

    /// `pl.create_tensor(..., manual_dep=True)`.
    fn create_manual_dep(&self, value: ExprId) -> bool {
        let ExprKind::Call { callee: Callee::Op(op), args, .. } = &self.p.expr(value).kind else { return false };
        op.def().arg(args, Param::ManualDep).is_some_and(|a| matches!(self.p.expr(a).kind, ExprKind::Bool(true)))
    }

    /// The `DataType` of a tensor this code allocates; an element type the runtime's
    /// `DataType` has no member for is an error here, at the allocation.
    fn tensor_dtype_of(&mut self, v: VarId, loc: Loc) -> &'static str {
        let d = self.p.types.get(self.p.var(v).ty).dtype().unwrap_or(DType::Fp32);
        self.allocatable(d, loc)
    }

    fn allocatable(&mut self, d: DType, loc: Loc) -> &'static str {
        match allocatable_dtype(d) {
            Some(name) => name,
            None => {
                self.error(
                    Code::E0612,
                    loc,
                    format!(
                        "the runtime cannot allocate a tensor of element type {d}: its DataType has no such member"
                    ),
                );
                runtime_dtype(d)
            }
        }
    }

    /// The extents or offsets of a list as C++: a computed one goes through
    /// `plc_py_extent`, which fails the run on a negative value or one beyond 32 bits, as
    /// `plc run` does (a cast would wrap it into an empty or out-of-bounds view).
    fn shape_dims(&mut self, shape: Option<ExprId>) -> Vec<String> {
        let Some(shape) = shape else { return Vec::new() };
        let items = match &self.p.expr(shape).kind {
            ExprKind::Tuple(items) => items.to_vec(),
            _ => vec![shape],
        };
        items
            .into_iter()
            .map(|i| match self.p.expr(i).kind {
                ExprKind::Int(n) => n.to_string(),
                _ => format!("plc_py_extent({})", self.expr(i)),
            })
            .collect()
    }

    fn stmt(&mut self, s: StmtId, yield_to: Option<&[Option<String>]>) {
        // Borrowed from the program (which outlives the emitter), not cloned: a loop's or
        // an if's statement lists are not copied for each statement.
        let p = self.p;
        let loc = p.stmt(s).loc;
        match &p.stmt(s).kind {
            &StmtKind::Assign { var, value } => self.assign(var, value, loc),
            &StmtKind::Eval(e) => match &p.expr(e).kind {
                ExprKind::Call { callee: Callee::Func(_) | Callee::Submit(_), .. } => self.launch(None, e),
                ExprKind::Call { callee: Callee::Op(op), args, .. } => self.effect_op(*op, args, loc),
                _ => {}
            },
            // The entry's results are its Out/InOut parameters, written in place; a task
            // launched in the return itself (`return kernel(x, out)`) still runs.
            StmtKind::Return(values) => {
                for &v in values {
                    if matches!(self.p.expr(v).kind, ExprKind::Call { callee: Callee::Func(_) | Callee::Submit(_), .. })
                    {
                        self.launch(None, v);
                    }
                }
            }
            StmtKind::Yield(values) => {
                let Some(targets) = yield_to else { return };
                for (t, &v) in targets.iter().zip(values) {
                    if let Some(t) = t {
                        let value = self.expr(v);
                        if *t != value {
                            self.line_fmt(format_args!("{t} = {value};"));
                        }
                    }
                }
            }
            StmtKind::For(for_) => {
                let crate::ir::ForStmt { kind, var, start, stop, step, iter_args, body, return_vars, .. } = &**for_;
                let (var, start, stop, step) = (*var, *start, *stop, *step);
                if matches!(kind, ForKind::Unroll | ForKind::Pipeline) {
                    // Unrolling is a scheduling hint: a sequential loop computes the same.
                }
                let carries = self.carries(&iter_args.iter().map(|a| (a.var, a.init)).collect::<Vec<_>>(), body);
                let i = self.define(var);
                let (a, b, c) = (self.expr(start), self.expr(stop), self.expr(step));
                let test = match self.p.expr(step).kind {
                    ExprKind::Int(n) if n > 0 => format!("{i} < {b}"),
                    ExprKind::Int(n) if n < 0 => format!("{i} > {b}"),
                    ExprKind::Int(_) => "false".to_string(),
                    _ => format!("(({c}) > 0 ? {i} < {b} : {i} > {b})"),
                };
                self.line_fmt(format_args!("for (int64_t {i} = {a}; {test}; {i} += {c}) {{"));
                self.w.indent();
                self.block(body, Some(&carries));
                self.w.dedent();
                self.line("}");
                self.bind_results(return_vars, &iter_args.iter().map(|a| a.var).collect::<Vec<_>>());
            }
            StmtKind::While(while_) => {
                let crate::ir::WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                let carries = self.carries(&iter_args.iter().map(|a| (a.var, a.init)).collect::<Vec<_>>(), body);
                self.line("while (true) {");
                self.w.indent();
                let c = self.expr(*cond);
                self.line_fmt(format_args!("if (!({c})) break;"));
                self.block(body, Some(&carries));
                self.w.dedent();
                self.line("}");
                self.bind_results(return_vars, &iter_args.iter().map(|a| a.var).collect::<Vec<_>>());
            }
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
                let phis = self.phis(return_vars, then_body, else_body.as_deref());
                let c = self.expr(*cond);
                self.line_fmt(format_args!("if ({c}) {{"));
                self.w.indent();
                self.block(then_body, Some(&phis));
                self.w.dedent();
                if let Some(e) = else_body {
                    self.line("} else {");
                    self.w.indent();
                    self.block(e, Some(&phis));
                    self.w.dedent();
                }
                self.line("}");
            }
            StmtKind::Scope(scope) => match scope.kind {
                ScopeKind::Runtime { manual } => {
                    self.line(if manual { "PTO2_SCOPE(PTO2ScopeMode::MANUAL) {" } else { "PTO2_SCOPE() {" });
                    self.w.indent();
                    self.block(&scope.body, yield_to);
                    self.w.dedent();
                    self.line("}");
                }
                ref other => self.error(
                    Code::E0611,
                    loc,
                    format!(
                        "a `{}` region is left in an orchestration function; the C++ backend cannot run it",
                        other.construct()
                    ),
                ),
            },
            StmtKind::Break => self.line("break;"),
            StmtKind::Continue => self.line("continue;"),
        }
    }

    /// The C++ variables that carry a loop's iter args. A tensor carry that stays the same
    /// buffer as its initial value is that buffer (no variable: the runtime tracks
    /// dependencies by tensor identity); other carries are variables assigned by the yield.
    fn carries(&mut self, iter_args: &[(VarId, ExprId)], body: &[StmtId]) -> Vec<Option<String>> {
        let yields: Vec<ExprId> = match body.last().map(|&l| &self.p.stmt(l).kind) {
            Some(StmtKind::Yield(values)) => values.clone(),
            _ => Vec::new(),
        };
        let mut out = Vec::new();
        for (k, &(var, init)) in iter_args.iter().enumerate() {
            let init_text = self.expr(init);
            if self.is_tensor_var(var) {
                let same = match (as_var(self.p, init), yields.get(k).and_then(|&y| as_var(self.p, y))) {
                    (Some(a), Some(b)) => self.same_buffer(a, b),
                    _ => false,
                };
                if same {
                    self.names_of.insert(var, init_text);
                    out.push(None);
                    continue;
                }
                let name = self.define(var);
                self.line_fmt(format_args!("ChipTensor {name} = {init_text};"));
                out.push(Some(name));
            } else if let Some(d) = self.scalar_dtype(var) {
                let name = self.define(var);
                self.line_fmt(format_args!("{} {name} = {init_text};", ctype(d)));
                self.unless_read(var, &name);
                out.push(Some(name));
            } else {
                // A task-id array carried by a loop is updated in place.
                self.names_of.insert(var, init_text);
                out.push(None);
            }
        }
        out
    }

    /// Whether two tensor variables name the same buffer.
    fn same_buffer(&mut self, a: VarId, b: VarId) -> bool {
        let ra = self.shared.lineage.root(self.p, &self.defs, a);
        let rb = self.shared.lineage.root(self.p, &self.defs, b);
        ra == rb
    }

    /// After a loop, its results are what its carries hold.
    fn bind_results(&mut self, return_vars: &[VarId], iter_vars: &[VarId]) {
        for (&rv, iv) in return_vars.iter().zip(iter_vars) {
            if let Some(n) = self.names_of.get(iv).cloned() {
                self.names_of.insert(rv, n);
            }
        }
    }

    /// The C++ variables of an `if`'s results, declared before it; a tensor result that is
    /// the same buffer on both branches is that buffer.
    fn phis(
        &mut self,
        return_vars: &[VarId],
        then_body: &[StmtId],
        else_body: Option<&[StmtId]>,
    ) -> Vec<Option<String>> {
        let yielded = |b: Option<&[StmtId]>, k: usize| -> Option<ExprId> {
            match b?.last().map(|&l| &self.p.stmt(l).kind) {
                Some(StmtKind::Yield(values)) => values.get(k).copied(),
                _ => None,
            }
        };
        let mut out = Vec::new();
        for (k, &rv) in return_vars.iter().enumerate() {
            if let Some(d) = self.scalar_dtype(rv) {
                let name = self.define(rv);
                self.line_fmt(format_args!("{} {name}{{}};", ctype(d)));
                // Set in both branches; cast to void when nothing reads it after.
                self.unless_read(rv, &name);
                out.push(Some(name));
                continue;
            }
            let (a, b) = (yielded(Some(then_body), k), yielded(else_body, k));
            let same = match (a.and_then(|e| as_var(self.p, e)), b.and_then(|e| as_var(self.p, e))) {
                (Some(x), Some(y)) => self.same_buffer(x, y),
                _ => false,
            };
            if same {
                // Both branches hand on the same buffer: the result is it.
                let x = as_var(self.p, a.expect("checked")).expect("checked");
                match self.shared.lineage.root(self.p, &self.defs, x) {
                    crate::ir::lineage::Root::Known(r) if self.names_of.contains_key(&r) => {
                        let n = self.names_of[&r].clone();
                        self.names_of.insert(rv, n);
                        out.push(None);
                        continue;
                    }
                    _ => {}
                }
            }
            let seed = self.first_tensor.and_then(|t| self.names_of.get(&t).cloned());
            let Some(seed) = seed else {
                self.error(
                    Code::E0612,
                    self.p.var(rv).loc,
                    "an `if` choosing between tensors in a function without tensor parameters".to_string(),
                );
                out.push(None);
                continue;
            };
            let name = self.define(rv);
            self.line_fmt(format_args!("ChipTensor {name} = {seed};"));
            out.push(Some(name));
        }
        out
    }

    fn assign(&mut self, var: VarId, value: ExprId, loc: Loc) {
        let p = self.p;
        match &p.expr(value).kind {
            ExprKind::Call { callee: Callee::Func(_) | Callee::Submit(_), .. } => self.launch(Some(var), value),
            ExprKind::Call { callee: Callee::Op(op), args, .. } => self.op(var, *op, args, loc),
            &ExprKind::TupleGet { tuple, index } => self.tuple_element(var, tuple, index as usize, loc),
            &ExprKind::Var(w) => self.copy(var, w, loc),
            ExprKind::None => {
                let name = self.define(var);
                self.line_fmt(format_args!("PTO2TaskId {name} = PTO2TaskId::invalid();"));
                self.unless_read(var, &name);
            }
            // `m, n = t.shape`, `a, b = x, y`: the elements are read where the tuple is
            // indexed (the program is in SSA form, so they mean the same there); a tuple
            // used as a whole has no C++ form (`var_text`).
            ExprKind::Tuple(elements) => {
                self.tuple_values.insert(var, elements.to_vec());
            }
            _ => {
                let text = self.expr(value);
                match self.scalar_dtype(var) {
                    Some(d) => {
                        let name = self.define(var);
                        self.line_fmt(format_args!("{} {name} = {text};", ctype(d)));
                        self.unless_read(var, &name);
                    }
                    None => {
                        self.names_of.insert(var, text);
                    }
                }
            }
        }
    }

    /// `var = w`: `var` names what `w` does. A tuple (a call's results, as
    /// `res = pl.submit(...)` then `return res` makes, or a tuple expression) is copied
    /// as a tuple: its elements are read where `var` is indexed.
    fn copy(&mut self, var: VarId, w: VarId, loc: Loc) {
        if let Some(call) = self.tuple_calls.get(&w) {
            let call = call.clone();
            self.tuple_calls.insert(var, call);
        } else if let Some(elements) = self.tuple_values.get(&w) {
            let elements = elements.clone();
            self.tuple_values.insert(var, elements);
        } else if self.refused.contains(&w) {
            self.refused.insert(var);
            self.names_of.insert(var, "0".to_string());
        } else {
            let n = self.var_text(w, loc);
            self.names_of.insert(var, n);
        }
    }

    /// `x = t[i]` where `t` holds a call's results: the argument the callee returns at
    /// position `i`, or the launch's task id.
    fn tuple_element(&mut self, var: VarId, tuple: ExprId, index: usize, loc: Loc) {
        let Some(tmp) = as_var(self.p, tuple) else { return };
        if let Some(element) = self.tuple_values.get(&tmp).and_then(|e| e.get(index)) {
            self.assign(var, *element, loc);
            return;
        }
        if self.refused.contains(&tmp) {
            // The call was refused where it stands; its elements are reported with it.
            self.refused.insert(var);
            self.names_of.insert(var, "0".to_string());
            return;
        }
        let Some(call) = self.tuple_calls.get(&tmp) else {
            self.error(Code::E0612, loc, "an element of a tuple that is not a call's results".to_string());
            return;
        };
        if index == call.results {
            if let Some(outs) = call.outs.clone() {
                let name = self.define(var);
                self.line_fmt(format_args!("PTO2TaskId {name} = {outs}.task_id();"));
                self.line_fmt(format_args!("(void){name};"));
            }
            return;
        }
        let (callee, args, id) = (call.callee, call.args.clone(), call.call);
        self.result_of(var, id, callee, &args, index, loc);
    }

    /// A call's result `var` at position `index` is the argument the callee returns there.
    fn alias_result(&mut self, var: VarId, callee: Symbol, args: &[Option<ExprId>], index: usize, loc: Loc) {
        let returned = self.shared.lineage.returned_params(self.p, callee);
        let arg = returned.get(index).copied().flatten().and_then(|k| args.get(k).copied().flatten());
        match arg {
            Some(a) => {
                let text = self.expr(a);
                self.names_of.insert(var, text);
            }
            None if self.scalar_dtype(var).is_some() => {
                let d = self.scalar_dtype(var).expect("checked");
                let name = self.define(var);
                self.line_fmt(format_args!("{} {name} = 0;", ctype(d)));
                self.unless_read(var, &name);
            }
            None => {
                let g = self.names.get(callee).to_string();
                self.error(
                    Code::E0613,
                    loc,
                    format!(
                        "result {index} of `{g}` is not one of its parameters, so the C++ cannot name the buffer it is"
                    ),
                );
                // Reported once: later uses of the result are not errors of their own.
                self.names_of.insert(var, "0".to_string());
            }
        }
    }

    // ------------------------------------------------------------------ launches

    /// A call of a kernel or a graph (a task), or of an orchestration helper (inline C++).
    fn launch(&mut self, result: Option<VarId>, call: ExprId) {
        // Borrowed from the program (which outlives the emitter), not cloned.
        let p = self.p;
        let loc = p.expr(call).loc;
        let ExprKind::Call { callee, args, attrs } = &p.expr(call).kind else { return };
        let g = callee.function().expect("a function call");
        let Some(callee_fn) = self.p.functions.get(&g) else { return };
        let kind = callee_fn.decl.kind;
        let names = self.names;
        let gname = names.get(g);
        // A call without arguments has no directions to derive (DeriveCallDirections leaves
        // it bare).
        let dirs = if args.is_empty() { Some(Vec::new()) } else { attrs.arg_directions.clone() };
        let Some(dirs) = dirs.filter(|d| d.len() == args.len()) else {
            self.error(Code::E0708, loc, format!("internal error: the call of `{gname}` has no argument directions (DeriveCallDirections must run first)"));
            return;
        };
        let is_graph = kind == FuncKind::Graph;
        if matches!(kind, FuncKind::Opaque | FuncKind::Orchestration) && !matches!(callee, Callee::Submit(_)) {
            self.call_helper(result, g, args, loc);
            return;
        }
        if !is_graph && !kind.is_device_kernel() {
            let message = if matches!(callee, Callee::Submit(_)) && kind == FuncKind::Opaque {
                // `pl.submit` of an "auto_tile" function: PyPTO's AutoTile pass makes it a
                // kernel, plc has no such pass.
                format!("`{gname}` is an Opaque function: plc cannot launch it, as it has no pass that makes it a kernel (PyPTO's AutoTile); write it as an InCore function, or its body in a `pl.at(level=pl.Level.CORE_GROUP)` region")
            } else {
                format!(
                    "`{gname}` is an {kind} function: orchestration code can launch kernels and graphs, not call it"
                )
            };
            self.error(Code::E0610, loc, message);
            // Reported once: the result's later uses are not errors of their own.
            if let Some(v) = result {
                self.refused.insert(v);
                self.names_of.insert(v, "0".to_string());
            }
            return;
        }
        // A kernel reads a tensor parameter in its declared layout from the view's start
        // (`Layout::param_refuses`; the kernel's wrapper re-views a DN parameter).
        if !is_graph {
            let refused = callee_fn.params.iter().zip(args).find_map(|(p, a)| {
                let a = (*a)?;
                if matches!(self.p.expr(a).kind, ExprKind::Var(v) if self.refused.contains(&v)) {
                    return None;
                }
                let want = self.p.types.get(self.p.var(p.var).ty).layout()?;
                want.param_refuses(self.p.ty(a).layout()?)
            });
            if let Some(why) = refused {
                self.error(Code::E0601, loc, format!("this launch of `{gname}` has no CPU form: {why}"));
                if let Some(v) = result {
                    self.refused.insert(v);
                    self.names_of.insert(v, "0".to_string());
                }
                return;
            }
        }
        let n = self.task;
        self.task += 1;
        // The lines written for every task are pushed in pieces, not formatted.
        let n_text = Digits::new(n.into());
        let params = self.fresh(&[self.prefix.as_str(), "params_t", n_text.as_str()].concat());
        self.w.push_str("\n");
        if is_graph {
            self.w.line_of(&["// Graph: ", gname, " (recorded once, then replayed)"]);
            self.w.line_of(&["GraphTaskArgs ", &params, ";"]);
        } else {
            self.w.line_of(&["// Task ", n_text.as_str(), ": ", gname]);
            self.w.line_of(&["CoreTaskArgs ", &params, ";"]);
        }
        let (scalars, mut signature) = self.task_args(&params, args, &dirs);
        let synthesized = if is_graph { Vec::new() } else { self.runtime_outputs(&params, call, g, &mut signature) };
        for s in scalars {
            self.w.line_of(&[&params, ".add_scalar(", &s, ");"]);
        }
        self.launch_options(&params, &attrs.launch);
        let submit = matches!(callee, Callee::Submit(_));
        let keep = submit || !synthesized.is_empty();
        // The outputs' handle, named only when it is kept.
        let outs = if keep { format!("task_{}{n}_outs", self.prefix) } else { String::new() };
        let capture = if keep { format!("TaskOutputTensors {outs} = ") } else { String::new() };
        if is_graph {
            if !self.graphs.contains(&g) {
                self.graphs.push(g);
            }
            let sym = graph_symbol(self.names, g);
            self.w.line_of(&[&capture, "rt_submit_graph(&", &sym, ", ", &params, ");"]);
        } else {
            if let Some((aic, aiv)) = crate::ir::group::external_pair(self.p, g) {
                // A Group of two external kernels (a mixed `@pl.jit.extern`) has no code of
                // its own: one task on a cluster runs the two files, the AIV one on both AIV
                // lanes when it is written for them (`dual_aiv_dispatch`).
                let aic_id = self.shared.func_id(aic, false, &signature);
                let aiv_id = self.shared.func_id(aiv, false, &signature);
                let (m1, m2) = (self.shared.id_mark(), self.shared.id_mark());
                let lane = if self.p.functions[&aiv].decl.dual_aiv_dispatch {
                    format!("{}{aiv_id}", self.shared.id_mark())
                } else {
                    "INVALID_KERNEL_ID".to_string()
                };
                self.line_fmt(format_args!("MixedKernels mixed_{n} = {{{m1}{aic_id}, {m2}{aiv_id}, {lane}}};"));
                self.line_fmt(format_args!("{capture}rt_submit_task(mixed_{n}, {params});"));
            } else if self.shared.split_mixed && crate::emit::pto::mixed(self.p, g) {
                // One task on a cluster: the AIC half (its id allocated first, as PyPTO does)
                // and the AIV half run at once, reading the same arguments.
                let aic = self.shared.func_id(g, true, &signature);
                let aiv = self.shared.func_id(g, false, &signature);
                let (m1, m2) = (self.shared.id_mark(), self.shared.id_mark());
                self.line_fmt(format_args!("MixedKernels mixed_{n} = {{{m1}{aic}, {m2}{aiv}, INVALID_KERNEL_ID}};"));
                self.line_fmt(format_args!("{capture}rt_submit_task(mixed_{n}, {params});"));
            } else {
                let id = self.shared.func_id(g, false, &signature);
                let mark = self.shared.id_mark();
                let submit_fn = if kind == FuncKind::Aic { "rt_submit_aic_task" } else { "rt_submit_aiv_task" };
                self.w.line_of(&[&capture, submit_fn, "(", mark, Digits::new(id.into()).as_str(), ", ", &params, ");"]);
            }
        }
        if keep {
            // Keep the handle even when no element is read, so `-Wall -Werror` is quiet.
            self.line_fmt(format_args!("(void){outs};"));
        }
        for &(i, k) in &synthesized {
            self.synthesized.insert((call, i), format!("{outs}.get_ref({k})"));
        }
        let Some(result) = result else { return };
        let results = callee_fn.returns.len();
        if submit || results > 1 {
            self.tuple_calls.insert(
                result,
                TupleCall { call, callee: g, args: args.to_vec(), outs: submit.then_some(outs), results },
            );
        } else if results == 1 {
            self.result_of(result, call, g, args, 0, loc);
        }
    }

    /// The tensor arguments of a task, each with its direction (`add_input`, ...); the
    /// scalar arguments' values (added after every tensor) and the tensors' signature.
    fn task_args(
        &mut self,
        params: &str,
        args: &[Option<ExprId>],
        dirs: &[ArgDir],
    ) -> (Vec<String>, Vec<&'static str>) {
        let mut scalars = Vec::new();
        let mut signature = Vec::new();
        for (a, d) in args.iter().zip(dirs) {
            let Some(a) = *a else { continue };
            let (method, sig) = match d {
                ArgDir::Scalar => {
                    scalars.push(self.scalar_arg(a));
                    continue;
                }
                ArgDir::Input => ("add_input", "IN"),
                ArgDir::InOut => ("add_inout", "INOUT"),
                ArgDir::NoDep => ("add_no_dep", "INOUT"),
                ArgDir::OutputExisting => ("add_output", "OUT"),
            };
            let text = self.expr(a);
            signature.push(sig);
            self.w.line_of(&[params, ".", method, "(", &text, ");"]);
        }
        (scalars, signature)
    }

    /// A result that is not one of the callee's parameters (a tensor the kernel makes) is
    /// allocated by the runtime: an extra output after the arguments' tensors. Returns
    /// (result position, output position) for each.
    fn runtime_outputs(
        &mut self,
        params: &str,
        call: ExprId,
        g: Symbol,
        signature: &mut Vec<&'static str>,
    ) -> Vec<(usize, usize)> {
        let loc = self.p.expr(call).loc;
        let callee_fn = &self.p.functions[&g];
        let gname = self.names.get(g);
        let returned = self.shared.lineage.returned_params(self.p, g);
        let mut synthesized: Vec<(usize, usize)> = Vec::new();
        for (i, &ty) in callee_fn.returns.iter().enumerate() {
            if returned.get(i).copied().flatten().is_some() {
                continue;
            }
            let t = self.p.types.get(ty).clone();
            let (Some(shape), Some(d)) = (t.shape().map(|s| s.to_vec()), t.dtype()) else { continue };
            let dims: Option<Vec<String>> =
                shape.iter().map(|d| if let Dim::Const(n) = d { Some(n.to_string()) } else { None }).collect();
            let dims = dims.or_else(|| self.run_time_extents(call, g, i));
            if let (Some(&made), Some(dims)) = (self.fused_results.get(&(call, i)), dims.as_ref()) {
                // Assembled once: the kernel writes a view of the assembly's target.
                if let Some(view) = self.fused_view(made, None, dims, loc) {
                    self.line_fmt(format_args!("{params}.add_output({view});"));
                    signature.push("OUT");
                    self.synthesized.insert((call, i), view);
                    continue;
                }
            }
            let Some(dims) = dims else {
                self.error(
                    Code::E0613,
                    loc,
                    format!("result {i} of `{gname}` is a new tensor whose shape is known only at run time, so the runtime cannot allocate it"),
                );
                // Reported here: the result's uses are not errors of their own.
                self.synthesized.insert((call, i), String::new());
                continue;
            };
            let ci = format!("{params}_synth_out_{i}");
            self.line_fmt(format_args!("uint32_t {ci}_shapes[{}] = {{{}}};", dims.len().max(1), dims.join(", ")));
            let dtype = self.allocatable(d, loc);
            self.line_fmt(format_args!("TensorCreateInfo {ci}({ci}_shapes, {}, {dtype});", dims.len()));
            self.line_fmt(format_args!("{params}.add_output({ci});"));
            signature.push("OUT");
            synthesized.push((i, synthesized.len()));
        }
        synthesized
    }

    /// The extents of result `i` of the call `call` of `g` as C++ expressions over its
    /// arguments (see [`super::result_shape`]), with a run-time check of each rank they
    /// assume of a tensor argument.
    fn run_time_extents(&mut self, call: ExprId, g: Symbol, i: usize) -> Option<Vec<String>> {
        let p = self.p;
        let ExprKind::Call { args, .. } = &p.expr(call).kind else { return None };
        let texts: Vec<Option<String>> = args.iter().map(|a| a.map(|a| self.expr(a))).collect();
        let shape = super::result_shape::result_extents(self.p, self.names, g, i, &texts)?;
        for (arg, rank) in &shape.ranks {
            self.line_fmt(format_args!("always_assert({arg}.ndims == {rank});"));
        }
        let extent = |e: &String| match e.parse::<u32>() {
            Ok(n) => n.to_string(),
            Err(_) => format!("static_cast<uint32_t>({e})"),
        };
        Some(shape.extents.iter().map(extent).collect())
    }

    /// Explicit dependencies, then the launch options.
    fn launch_options(&mut self, params: &str, launch: &LaunchOptions) {
        if let Some(deps) = launch.deps {
            self.dependencies(params, deps);
        }
        if let Some(c) = launch.core_num {
            let c = self.expr(c);
            self.line_fmt(format_args!("{params}.launch_spec.set_block_num(static_cast<int16_t>({c}));"));
        }
        let is_true = |v: Option<ExprId>| v.is_some_and(|v| matches!(self.p.expr(v).kind, ExprKind::Bool(true)));
        if is_true(launch.sync_start) {
            self.line_fmt(format_args!("{params}.launch_spec.set_require_sync_start(true);"));
        }
        if is_true(launch.allow_early_resolve) {
            self.line_fmt(format_args!("{params}.set_allow_early_resolve(true);"));
        }
        if let Some(d) = launch.dumps {
            let items = match &self.p.expr(d).kind {
                ExprKind::Tuple(items) => items.to_vec(),
                _ => vec![d],
            };
            let texts: Vec<String> = items.iter().map(|&i| self.expr(i)).collect();
            if !texts.is_empty() {
                self.line_fmt(format_args!("{params}.dump({});", texts.join(", ")));
            }
        }
    }

    /// `deps=[...]`: the valid task ids among the items (a task-id array contributes one
    /// guarded slot per element).
    fn dependencies(&mut self, params: &str, deps: ExprId) {
        let items = match &self.p.expr(deps).kind {
            ExprKind::Tuple(items) => items.to_vec(),
            _ => vec![deps],
        };
        let deps_name = format!("{params}_deps");
        let count = format!("{params}_deps_count");
        let array_len = |e: ExprId| match self.p.ty(e) {
            Type::Array { len, .. } => Some(*len as usize),
            _ => None,
        };
        let slots: usize = items.iter().map(|&i| array_len(i).unwrap_or(1)).sum();
        self.line_fmt(format_args!("PTO2TaskId {deps_name}[{}];", slots.max(1)));
        self.line_fmt(format_args!("uint32_t {count} = 0;"));
        for i in items {
            if matches!(self.p.expr(i).kind, ExprKind::None) {
                continue;
            }
            let len = array_len(i);
            let t = self.expr(i);
            match len {
                Some(n) => self.line_fmt(format_args!(
                    "for (int64_t k = 0; k < {n}; ++k) if ({t}[k].is_valid()) {deps_name}[{count}++] = {t}[k];"
                )),
                None => self.line_fmt(format_args!("if (({t}).is_valid()) {deps_name}[{count}++] = {t};")),
            }
        }
        self.line_fmt(format_args!("{params}.set_dependencies({deps_name}, {count});"));
    }

    /// A result of a call: a runtime-allocated output, or the argument the callee returns.
    fn result_of(&mut self, var: VarId, call: ExprId, callee: Symbol, args: &[Option<ExprId>], index: usize, loc: Loc) {
        if let Some(r) = self.synthesized.get(&(call, index)).cloned() {
            if r.is_empty() {
                self.names_of.insert(var, "0".to_string());
                return;
            }
            let name = self.define(var);
            self.line_fmt(format_args!("const ChipTensor& {name} = {r};"));
            self.line_fmt(format_args!("(void){name};"));
            return;
        }
        self.alias_result(var, callee, args, index, loc);
    }

    /// A call of an orchestration function: a C++ call of its helper function.
    fn call_helper(&mut self, result: Option<VarId>, g: Symbol, args: &[Option<ExprId>], loc: Loc) {
        if !self.graphs.contains(&g) {
            self.graphs.push(g);
        }
        let texts: Vec<String> = args.iter().flatten().map(|&a| self.expr(a)).collect();
        let sym = helper_symbol(self.names, g);
        self.line_fmt(format_args!("{sym}({});", texts.join(", ")));
        let Some(result) = result else { return };
        let results = self.p.functions[&g].returns.len();
        if results > 1 {
            let call = ExprId(u32::MAX);
            self.tuple_calls.insert(result, TupleCall { call, callee: g, args: args.to_vec(), outs: None, results });
        } else if results == 1 {
            self.alias_result(result, g, args, 0, loc);
        }
    }

    /// A scalar argument as `add_scalar` takes it.
    fn scalar_arg(&mut self, a: ExprId) -> String {
        match self.p.expr(a).kind {
            ExprKind::Int(n) => format!("(uint64_t){n}"),
            ExprKind::Float(x) => format!("to_u64(static_cast<float>({}))", float_literal(x)),
            ExprKind::Bool(b) => format!("(uint64_t){}", u8::from(b)),
            ExprKind::Var(v) => {
                let text = self.var_text(v, self.p.expr(a).loc);
                if self.scalar_dtype(v).is_some_and(|d| d.is_float()) && !self.boundary_scalars.contains(&v) {
                    format!("to_u64({text})")
                } else {
                    // `add_scalar` packs an integer; a Graph's boundary scalar is passed as
                    // its slot, so the runtime knows where the value came from.
                    text
                }
            }
            _ => {
                let text = self.expr(a);
                format!("to_u64({text})")
            }
        }
    }

    // ------------------------------------------------------------------ orchestration ops

    /// An op whose value the orchestration code computes. Lowering lets only the table's
    /// orchestration ops (and what the passes leave, `pl.assemble` into a kernel's output)
    /// stand outside a device region; any other op is E0615.
    fn op(&mut self, var: VarId, op: Op, args: &[Option<ExprId>], loc: Loc) {
        let reported = self.diags.len();
        self.op_value(var, op, args, loc);
        if self.diags.len() > reported && !self.names_of.contains_key(&var) {
            // Reported here: the result's uses are not errors of their own.
            self.names_of.insert(var, "0".to_string());
        }
    }

    fn op_value(&mut self, var: VarId, op: Op, args: &[Option<ExprId>], loc: Loc) {
        let def = op.def();
        let special = match def.kind {
            OpKind::CrossCore
            | OpKind::Prefetch
            | OpKind::PlannedMemory
            | OpKind::Microscaling
            | OpKind::SplitTransfer => {
                let why = def.kind.no_cpu_form().unwrap_or("cross-core pipes connect the kernels of a Group");
                let m = format!("`{}` has no form in the C++ backend ({why})", def.print_name());
                return self.error(Code::E0601, loc, m);
            }
            OpKind::Special(special) if def.level != OpLevel::Tile => special,
            _ => return self.misplaced(op, loc),
        };
        let given = |p: Param| def.arg(args, p).is_some_and(|e| !matches!(self.p.expr(e).kind, ExprKind::None));
        let arg_type = |i: usize| args.get(i).copied().flatten().map(|e| self.p.ty(e));
        if let Some(why) = def.no_cpu_form_of_layouts(given, arg_type, self.p.types.get(self.p.var(var).ty)) {
            let m = format!("`{}` has no form in the C++ backend ({why})", def.print_name());
            // Reported once: a launch taking the value is no error of its own.
            self.refused.insert(var);
            return self.error(Code::E0601, loc, m);
        }
        let arg = |p: Param| def.arg(args, p);
        match special {
            Special::CreateTensor if self.fused.contains_key(&var) => {
                // Assembled once: a view of the assembly's target (FuseCreateAssembleToSlice).
                let dims = self.shape_dims(Op::TensorCreate.def().arg(args, Param::Shape));
                if self.fused_view(var, Some(var), &dims, loc).is_none() {
                    self.create_tensor(var, args, loc);
                }
            }
            Special::CreateTensor => self.create_tensor(var, args, loc),
            Special::Slice | Special::View => self.view(var, op, args),
            Special::Reshape | Special::Transpose => self.reshape_or_transpose(var, special, op, args),
            Special::Read => {
                let Some(src) = arg(Param::Tensor) else { return };
                let src = self.expr(src);
                let idx = self.shape_dims(arg(Param::Indices));
                let d = self.scalar_dtype(var).unwrap_or(DType::Fp32);
                let v = self.define(var);
                let ct = ctype(d);
                if idx.is_empty() {
                    self.line_fmt(format_args!("{ct} {v} = get_tensor_data<{ct}>({src}, 0, nullptr);"));
                } else {
                    self.line_fmt(format_args!("uint32_t indices_{v}[{}] = {{{}}};", idx.len(), idx.join(", ")));
                    self.line_fmt(format_args!("{ct} {v} = get_tensor_data<{ct}>({src}, {}, indices_{v});", idx.len()));
                }
                self.unless_read(var, &v);
            }
            Special::TaskInvalid => {
                let v = self.define(var);
                self.line_fmt(format_args!("PTO2TaskId {v} = PTO2TaskId::invalid();"));
            }
            Special::TaskIdOf => {
                // The runtime keeps the last task that wrote each range of memory.
                let Some(t) = arg(Param::Producer) else { return };
                let t = self.expr(t);
                let v = self.define(var);
                self.line_fmt(format_args!("PTO2TaskId {v} = rt_task_id_of({t});"));
                self.unless_read(var, &v);
            }
            Special::TaskDummy => {
                // A task with no kernel and no arguments, ordered after `deps=`.
                let v = self.define(var);
                let params = format!("{v}_args");
                self.line_fmt(format_args!("CoreTaskArgs {params};"));
                if let Some(deps) = arg(Param::Deps) {
                    self.dependencies(&params, deps);
                }
                self.line_fmt(format_args!("PTO2TaskId {v} = rt_submit_dummy_task({params}).task_id();"));
                self.unless_read(var, &v);
            }
            Special::Dim => {
                let (Some(src), Some(k)) = (arg(Param::Tensor), arg(Param::Axis)) else { return };
                let src = self.expr(src);
                let k = self.expr(k);
                let v = self.define(var);
                self.line_fmt(format_args!("int64_t {v} = (int64_t){src}.shapes[{k}];"));
                self.unless_read(var, &v);
            }
            Special::Assemble => {
                // The kernel already wrote into the target: the result is the target.
                self.assembled_source(args, loc);
                if let Some(t) = arg(Param::Target) {
                    let t = self.expr(t);
                    self.names_of.insert(var, t);
                }
            }
            Special::ArrayCreate => {
                let (len, d) = match self.p.types.get(self.p.var(var).ty) {
                    Type::Array { len, dtype } => (*len, *dtype),
                    _ => (0, DType::Int32),
                };
                let v = self.define(var);
                if d == DType::TaskId {
                    self.line_fmt(format_args!("PTO2TaskId {v}[{}];", len.max(1)));
                    self.line_fmt(format_args!(
                        "for (int64_t {v}_i = 0; {v}_i < {len}; ++{v}_i) {v}[{v}_i] = PTO2TaskId::invalid();"
                    ));
                } else {
                    self.line_fmt(format_args!("{} {v}[{}] = {{0}};", ctype(d), len.max(1)));
                }
            }
            Special::ArrayGet => {
                let (Some(a), Some(i)) = (arg(Param::Array), arg(Param::Index)) else { return };
                let (a, i) = (self.expr(a), self.expr(i));
                let d = self.scalar_dtype(var).unwrap_or(DType::Int32);
                let v = self.define(var);
                self.line_fmt(format_args!("{} {v} = {a}[{i}];", ctype(d)));
                self.unless_read(var, &v);
            }
            // `t2 = pl.write(t, ...)`: written in place, `t2` is `t`.
            Special::Write => {
                self.effect_op(op, args, loc);
                if let Some(t) = arg(Param::Tensor) {
                    let t = self.expr(t);
                    self.names_of.insert(var, t);
                }
            }
            Special::ArrayUpdate => {
                let (Some(a), Some(i), Some(x)) = (arg(Param::Array), arg(Param::Index), arg(Param::Value)) else {
                    return;
                };
                let (at, i, x) = (self.expr(a), self.expr(i), self.expr(x));
                self.line_fmt(format_args!("{at}[{i}] = {x};"));
                self.names_of.insert(var, at);
            }
            Special::ScalarCast | Special::ScalarMin | Special::ScalarMax => {
                let Some(d) = self.scalar_dtype(var) else { return self.misplaced(op, loc) };
                let text = self.scalar_op(special, args, d);
                let v = self.define(var);
                self.line_fmt(format_args!("{} {v} = {text};", ctype(d)));
                self.unless_read(var, &v);
            }
            Special::Full
            | Special::ShapeOf
            | Special::DTypeOf
            | Special::BlockIdx
            | Special::BlockNum
            | Special::SubblockIdx
            | Special::Hardware
            | Special::RuntimePrint
            | Special::AvailableAivCount
            | Special::AvailableClusterCount
            | Special::Copy
            | Special::Ci
            | Special::Cast
            | Special::SetValidShape
            | crate::ir::ops::specials!(matmul)
            | crate::ir::ops::specials!(compute)
            | crate::ir::ops::specials!(shaping)
            | crate::ir::ops::specials!(scatter)
            | crate::ir::ops::specials!(placing)
            | crate::ir::ops::specials!(tuple)
            | Special::Load
            | Special::Store
            | Special::BlockLoad
            | Special::BlockStore
            | Special::CreateTile
            | crate::ir::ops::specials!(buffers)
            | Special::Move
            | Special::TransposeView
            | Special::SyncAll => self.misplaced(op, loc),
        }
    }

    /// `pl.reshape(t, shape)` and `pl.transpose(t, axis1, axis2)` of a tensor: a view.
    fn reshape_or_transpose(&mut self, var: VarId, special: Special, op: Op, args: &[Option<ExprId>]) {
        let arg = |p: Param| op.def().arg(args, p);
        match special {
            Special::Reshape => {
                let Some(src) = arg(Param::X) else { return };
                let src = self.expr(src);
                let shape = self.shape_dims(arg(Param::Shape));
                let v = self.define(var);
                self.line_fmt(format_args!("uint32_t {v}_shapes[{}] = {{{}}};", shape.len().max(1), shape.join(", ")));
                self.line_fmt(format_args!("ChipTensor {v} = {src}.reshape({v}_shapes, {});", shape.len()));
            }
            Special::Transpose => {
                let (Some(src), Some(a), Some(b)) = (arg(Param::X), arg(Param::Axis1), arg(Param::Axis2)) else {
                    return;
                };
                let (src, a, b) = (self.expr(src), self.expr(a), self.expr(b));
                let v = self.define(var);
                self.line_fmt(format_args!("ChipTensor {v} = {src}.transpose({a}, {b});"));
            }
            _ => {}
        }
    }

    /// `pl.slice(t, shape, offset)` / `pl.tensor.view(t, shape)`: a view of a window of `t`.
    fn view(&mut self, var: VarId, op: Op, args: &[Option<ExprId>]) {
        let Some(src) = args.first().copied().flatten() else { return };
        let src = self.expr(src);
        if op.def().arg(args, Param::Shape).is_none() {
            // `pl.tensor.view(t, layout=...)` without a shape, `pl.tensor.as_layout`: the
            // same tensor, its last two axes swapped when the layout flips the source's
            // (see the op's type rule), as PyPTO's orchestration codegen lowers it.
            let source = args.first().copied().flatten().and_then(|e| self.p.ty(e).layout()).unwrap_or(Layout::Nd);
            let flips = matches!(
                op.def().arg(args, Param::Layout).map(|e| &self.p.expr(e).kind),
                Some(ExprKind::Enum(EnumValue::Layout(l))) if source.flips_to(*l)
            );
            let v = self.define(var);
            if flips {
                self.line_fmt(format_args!("ChipTensor {v} = {src}.transpose({src}.ndims - 2, {src}.ndims - 1);"));
            } else {
                self.line_fmt(format_args!("ChipTensor {v} = {src};"));
            }
            return;
        }
        let shape = self.shape_dims(op.def().arg(args, Param::Shape));
        let offsets = self.shape_dims(op.def().arg(args, Param::Offset));
        let v = self.define(var);
        self.window(&v, &src, &shape, offsets);
    }

    /// `ChipTensor v = src.view(...)`: the window of `src` of extents `shape` at `offsets`
    /// (all zero when empty), clipped to the tensor, as the reference emitter does.
    fn window(&mut self, v: &str, src: &str, shape: &[String], offsets: Vec<String>) {
        let rank = shape.len();
        let offs = if offsets.is_empty() { vec!["0".to_string(); rank] } else { offsets };
        self.line_fmt(format_args!("uint32_t {v}_offsets[{}] = {{{}}};", rank.max(1), offs.join(", ")));
        let clipped: Vec<String> = shape
            .iter()
            .enumerate()
            .map(|(k, s)| {
                format!(
                    "({v}_offsets[{k}] >= {src}.shapes[{k}] ? 0u : std::min<uint32_t>({s}, {src}.shapes[{k}] - {v}_offsets[{k}]))"
                )
            })
            .collect();
        self.line_fmt(format_args!("uint32_t {v}_shapes[{}] = {{{}}};", rank.max(1), clipped.join(", ")));
        self.line_fmt(format_args!("ChipTensor {v} = {src}.view({v}_shapes, {v}_offsets);"));
    }

    /// `pl.create_tensor(shape, dtype)`: an allocation of its own, in place.
    fn create_tensor(&mut self, var: VarId, args: &[Option<ExprId>], loc: Loc) {
        let arg = |p: Param| Op::TensorCreate.def().arg(args, p);
        self.check_init_value(args, loc);
        let v;
        let ci;
        let shapes;
        if let Some(src) = self.shape_of_tensor(arg(Param::Shape)) {
            // `pl.create_tensor(pl.tensor.shape(x), pl.tensor.dtype(x))`: x's shape, read
            // at run time.
            let src = self.expr(src);
            let dtype = match arg(Param::Dtype).map(|d| self.p.expr(d).kind.clone()) {
                Some(ExprKind::Call { callee: Callee::Op(Op::TensorDtype), args: dargs, .. }) => {
                    match dargs.first().copied().flatten() {
                        Some(t) => format!("{}.dtype", self.expr(t)),
                        None => "DataType::FLOAT32".to_string(),
                    }
                }
                _ => self.tensor_dtype_of(var, loc).to_string(),
            };
            v = self.define(var);
            ci = self.fresh(&format!("{v}_ci"));
            shapes = self.fresh(&format!("{ci}_shapes"));
            self.line_fmt(format_args!("uint32_t {shapes}[5] = {{0}};"));
            self.line_fmt(format_args!("for (uint32_t k = 0; k < {src}.ndims; ++k) {shapes}[k] = {src}.shapes[k];"));
            self.line_fmt(format_args!("TensorCreateInfo {ci}({shapes}, {src}.ndims, {dtype});"));
        } else {
            // A shape computed here.
            let dims = self.shape_dims(arg(Param::Shape));
            v = self.define(var);
            ci = self.fresh(&format!("{v}_ci"));
            shapes = self.fresh(&format!("{ci}_shapes"));
            let dtype = self.tensor_dtype_of(var, loc);
            self.line_fmt(format_args!("uint32_t {shapes}[{}] = {{{}}};", dims.len().max(1), dims.join(", ")));
            self.line_fmt(format_args!("TensorCreateInfo {ci}({shapes}, {}, {dtype});", dims.len()));
        }
        let alloc = self.fresh(&format!("{}alloc_{}", self.prefix, self.alloc));
        self.alloc += 1;
        self.line_fmt(format_args!("TaskOutputTensors {alloc} = alloc_tensors({ci});"));
        self.line_fmt(format_args!("const ChipTensor& {v} = {alloc}.get_ref(0);"));
    }

    /// A scalar op (`pl.cast`, `pl.min`, `pl.max` of scalars) as an expression of type `d`.
    fn scalar_op(&mut self, special: Special, args: &[Option<ExprId>], d: DType) -> String {
        let arg = |i: usize| args.get(i).copied().flatten();
        let t = ctype(d);
        match special {
            Special::ScalarCast => {
                let x = arg(0).map_or("0".to_string(), |x| self.expr(x));
                format!("static_cast<{t}>({x})")
            }
            _ => {
                let a = arg(0).map_or("0".to_string(), |x| self.expr(x));
                let b = arg(1).map_or("0".to_string(), |x| self.expr(x));
                let f = if special == Special::ScalarMin { "min" } else { "max" };
                format!("std::{f}<{t}>({a}, {b})")
            }
        }
    }

    /// `pl.tensor.shape(x)` as a shape: x.
    fn shape_of_tensor(&self, shape: Option<ExprId>) -> Option<ExprId> {
        match &self.p.expr(shape?).kind {
            ExprKind::Call { callee: Callee::Op(Op::TensorShape), args, .. } => args.first().copied().flatten(),
            _ => None,
        }
    }

    /// An op used as a statement in orchestration code.
    fn effect_op(&mut self, op: Op, args: &[Option<ExprId>], loc: Loc) {
        let arg = |p: Param| op.def().arg(args, p);
        match op {
            Op::TensorWrite => {
                let (Some(t), Some(v)) = (arg(Param::Tensor), arg(Param::Value)) else { return };
                let t = self.expr(t);
                let idx = self.shape_dims(arg(Param::Indices));
                let value = self.expr(v);
                let d = self.p.ty(v).dtype().unwrap_or(DType::Fp32);
                let ct = ctype(d);
                let ind = self.fresh("indices");
                self.line_fmt(format_args!(
                    "{{ uint32_t {ind}[{}] = {{{}}}; set_tensor_data<{ct}>({t}, {}, {ind}, ({ct})({value})); }}",
                    idx.len().max(1),
                    idx.join(", "),
                    idx.len()
                ));
            }
            Op::ArrayUpdateElement => {
                let (Some(a), Some(i), Some(x)) = (arg(Param::Array), arg(Param::Index), arg(Param::Value)) else {
                    return;
                };
                let (a, i, x) = (self.expr(a), self.expr(i), self.expr(x));
                self.line_fmt(format_args!("{a}[{i}] = {x};"));
            }
            Op::TensorAssemble => self.assembled_source(args, loc),
            // A debug print changes no value; the CPU runtime prints nothing for it.
            Op::TensorRuntimePrint => self.line("// pl.runtime_print: no output on the CPU runtime"),
            _ => self.misplaced(op, loc),
        }
    }

    /// An assembly in orchestration code aliases its target (PyPTO's "alias only"): the data
    /// is already there, a kernel's output or a view. A source computed in place
    /// (`out[:] = pl.add(x, x)` in an `@pl.jit` body) would be dropped: it is the misplaced
    /// op, as PyPTO's codegen reports it once FlattenCallExpr has made it a statement.
    fn assembled_source(&mut self, args: &[Option<ExprId>], loc: Loc) {
        let Some(src) = Op::TensorAssemble.def().arg(args, Param::Source) else { return };
        if let ExprKind::Call { callee: Callee::Op(inner), .. } = self.p.expr(src).kind {
            let d = inner.def();
            if !(matches!(d.kind, OpKind::Special(_)) && d.level != OpLevel::Tile) {
                let at = self.p.expr(src).loc;
                self.misplaced(inner, at);
            }
            return;
        }
        // What the runtime leaves in the target (see `emit::assembly`).
        match classify(self.p, self.names, &self.defs, &mut self.shared.lineage, &self.assemblies, args) {
            Assembly::InPlace | Assembly::Computed => {}
            // Made a view of the target where it was made (or refused there).
            Assembly::Fused { made } if self.fused_views.contains(&made) => {}
            Assembly::Fused { made } => {
                let why = format!(
                    "`{}` was made where the assembly's target or offsets are not known yet",
                    sanitize(self.names.get(self.p.var(made).source))
                );
                self.diags.push(super::assembly::dropped(self.loc_or_function(loc), &why));
            }
            Assembly::Dropped { why } => self.diags.push(super::assembly::dropped(self.loc_or_function(loc), &why)),
        }
    }

    /// `loc`, or the function's when the compiler made the node.
    fn loc_or_function(&self, loc: Loc) -> Loc {
        if loc.is_compiler_made() {
            self.func_loc
        } else {
            loc
        }
    }

    fn misplaced(&mut self, op: Op, loc: Loc) {
        self.error(
            Code::E0615,
            loc,
            format!("`{op}` computes on data, which orchestration code cannot do: put it inside a `pl.at(level=pl.Level.CORE_GROUP)` region or a kernel"),
        );
    }

    // ------------------------------------------------------------------ expressions

    fn expr(&mut self, e: ExprId) -> String {
        // Borrowed from the program (which outlives the emitter), not cloned.
        let p = self.p;
        let loc = p.expr(e).loc;
        match &p.expr(e).kind {
            &ExprKind::Var(v) => {
                let text = self.var_text(v, loc);
                if self.boundary_scalars.contains(&v) {
                    // A slot holds the value's bits.
                    match self.scalar_dtype(v) {
                        Some(d) if d.is_float() => format!("from_u64<float>({text})"),
                        Some(d) => format!("static_cast<{}>({text})", ctype(d)),
                        None => text,
                    }
                } else {
                    text
                }
            }
            &ExprKind::Int(n) => Digits::signed(n).as_str().to_string(),
            &ExprKind::Float(x) => float_literal(x),
            &ExprKind::Bool(b) => (if b { "1" } else { "0" }).to_string(),
            ExprKind::None => "PTO2TaskId::invalid()".to_string(),
            &ExprKind::DynDim(s) => identifier(self.names.get(s)),
            &ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.expr(lhs), self.expr(rhs));
                let integral = |x: ExprId| self.p.ty(x).dtype().is_some_and(|d| d.is_int() || d == DType::Bool);
                let ints = integral(lhs) && integral(rhs);
                // Python's arithmetic, as `plc run` computes it (emit/py_arith.rs): checked
                // on integers, `//` and `%` rounding toward negative infinity, `**` exact.
                let helper = match op {
                    BinOp::Add if ints => "plc_py_add",
                    BinOp::Sub if ints => "plc_py_sub",
                    BinOp::Mul if ints => "plc_py_mul",
                    BinOp::FloorDiv if ints => "plc_py_floordiv",
                    BinOp::Mod if ints => "plc_py_mod",
                    BinOp::Pow if ints => "plc_py_pow",
                    BinOp::Shl => "plc_py_shl",
                    BinOp::Shr => "plc_py_shr",
                    BinOp::Div => return format!("plc_py_truediv((double)({a}), (double)({b}))"),
                    BinOp::FloorDiv => return format!("plc_py_ffloordiv((double)({a}), (double)({b}))"),
                    BinOp::Mod => return format!("plc_py_fmod((double)({a}), (double)({b}))"),
                    BinOp::Pow => return format!("std::pow((double)({a}), (double)({b}))"),
                    BinOp::And => return format!("({a} && {b})"),
                    BinOp::Or => return format!("({a} || {b})"),
                    other if a == b && other.is_comparison() => {
                        return format!("({a} {} plc_py_same({b}))", other.spelling())
                    }
                    other => return format!("({a} {} {b})", other.spelling()),
                };
                format!("{helper}({a}, {b})")
            }
            &ExprKind::Unary { op, operand } => {
                let a = self.expr(operand);
                let int = self.p.ty(operand).dtype().is_some_and(|d| d.is_int());
                match op {
                    UnOp::Neg if int => format!("plc_py_neg({a})"),
                    UnOp::Neg => format!("(-{a})"),
                    UnOp::Not => format!("(!{a})"),
                    UnOp::BitNot => format!("(~{a})"),
                }
            }
            ExprKind::Call { callee: Callee::Op(Op::TensorDim), args, .. } => {
                let (Some(t), Some(k)) = (args.first().copied().flatten(), args.get(1).copied().flatten()) else {
                    return "0".to_string();
                };
                let (t, k) = (self.expr(t), self.expr(k));
                format!("((int64_t){t}.shapes[{k}])")
            }
            ExprKind::Call { callee: Callee::Op(Op::ScalarCast), args, .. } => {
                let Some(x) = args.first().copied().flatten() else { return "0".to_string() };
                let x = self.expr(x);
                let t = self.p.ty(e).dtype().map_or("int64_t", ctype);
                format!("static_cast<{t}>({x})")
            }
            ExprKind::Call { callee: Callee::Op(op @ (Op::ScalarMin | Op::ScalarMax)), args, .. } => {
                let (Some(a), Some(b)) = (args.first().copied().flatten(), args.get(1).copied().flatten()) else {
                    return "0".to_string();
                };
                let (a, b) = (self.expr(a), self.expr(b));
                let t = self.p.ty(e).dtype().map_or("int64_t", ctype);
                let f = if *op == Op::ScalarMin { "min" } else { "max" };
                format!("std::{f}<{t}>({a}, {b})")
            }
            ExprKind::Call { callee: Callee::Op(Op::TensorRead), args, .. } => {
                // Read into a local first: the value is an expression's operand.
                let Some(src) = args.first().copied().flatten() else { return "0".to_string() };
                let src = self.expr(src);
                let idx = self.shape_dims(args.get(1).copied().flatten());
                let ct = self.p.ty(e).dtype().map_or("float", ctype);
                let v = self.fresh("read");
                if idx.is_empty() {
                    self.line_fmt(format_args!("{ct} {v} = get_tensor_data<{ct}>({src}, 0, nullptr);"));
                } else {
                    self.line_fmt(format_args!("uint32_t indices_{v}[{}] = {{{}}};", idx.len(), idx.join(", ")));
                    self.line_fmt(format_args!("{ct} {v} = get_tensor_data<{ct}>({src}, {}, indices_{v});", idx.len()));
                }
                v
            }
            ExprKind::Call { callee: Callee::Op(Op::ArrayGetElement), args, .. } => {
                let (Some(a), Some(i)) = (args.first().copied().flatten(), args.get(1).copied().flatten()) else {
                    return "0".to_string();
                };
                let (a, i) = (self.expr(a), self.expr(i));
                format!("{a}[{i}]")
            }
            ExprKind::TupleGet { .. } | ExprKind::Tuple(_) | ExprKind::Call { .. } => {
                self.error(
                    Code::E0612,
                    loc,
                    "an expression the orchestration code cannot compute in place".to_string(),
                );
                "0".to_string()
            }
            ExprKind::Str(_) | ExprKind::DType(_) | ExprKind::Enum(_) => {
                self.error(Code::E0612, loc, "a constant with no C++ value".to_string());
                "0".to_string()
            }
        }
    }
}

fn as_var(p: &Program, e: ExprId) -> Option<VarId> {
    match p.expr(e).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    }
}

/// Whether `text` mentions `name` as a whole identifier.
fn mentions(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut start = 0;
    while let Some(i) = text[start..].find(name) {
        let at = start + i;
        let end = at + name.len();
        let before_ok = at == 0 || !ident(bytes[at - 1]);
        let after_ok = end >= bytes.len() || !ident(bytes[end]);
        if before_ok && after_ok {
            return true;
        }
        start = at + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The element types a `TensorCreateInfo` can name are the members of the simpler
    /// runtime's `DataType` (host_build_graph, `src/common/task_interface/data_type.h`).
    #[test]
    fn allocations_name_only_the_runtimes_data_types() {
        const REAL: &[&str] = &[
            "FLOAT32",
            "FLOAT16",
            "INT32",
            "INT16",
            "INT8",
            "UINT8",
            "BFLOAT16",
            "INT64",
            "UINT64",
            "UINT16",
            "UINT32",
            "BOOL",
            "FP8E4M3FN",
            "FP8E8M0",
            "FP4E2M1",
        ];
        for &d in DType::ALL {
            match allocatable_dtype(d) {
                Some(name) => {
                    let member = name.strip_prefix("DataType::").expect("a DataType member");
                    assert!(REAL.contains(&member), "{d} -> {name}");
                }
                None => assert!(
                    matches!(
                        d,
                        DType::Fp8E5M2
                            | DType::Hf4
                            | DType::Hf8
                            | DType::Int4
                            | DType::UInt4
                            | DType::TaskId
                            | DType::Fp4E2M1X2
                    ),
                    "{d} has a DataType"
                ),
            }
        }
        assert_eq!(allocatable_dtype(DType::Index), Some("DataType::INT64"));
        assert_eq!(allocatable_dtype(DType::Fp4), Some("DataType::FP4E2M1"));
    }
}
