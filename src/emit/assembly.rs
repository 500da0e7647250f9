//! What an assembly in orchestration code (`out[a:b, :] = t`, `pl.assemble(out, t, [..])`
//! outside a `pl.at` region or kernel) leaves in its target on the real runtime.
//!
//! PyPTO's orchestration codegen emits nothing for `tensor.assemble`: its result aliases
//! the target (`reference/codegen.md` §2.5), and plc's C++ does the same. The data is in the
//! target only when a kernel already wrote it there. PyPTO arranges that in one case,
//! FuseCreateAssembleToSlice: a tensor the orchestration function makes (`pl.create_tensor`,
//! or the output PyPTO's ConvertTensorToTileOps makes for a region's new result) that is
//! assembled exactly once becomes a view of the target at the assembly's offsets, so the
//! kernel that writes it writes the target. Otherwise nothing is copied:
//!
//! ```text
//! y = region(x)             # a kernel's new result, assembled once: made a view of out
//! out[0:4, :] = y           # in place on the runtime
//! v = pl.slice(out, [4, 8], [4, 0]); v = kernel(x, v)
//! out = pl.assemble(out, v, [4, 0])   # the same window of out: in place
//! out[:] = x                # a parameter: the runtime copies nothing (refused)
//! ```
//!
//! [`classify`] says which case an assembly is; the emitter makes the fused tensors views
//! and refuses the rest (E0623), and `plc run` refuses the same assemblies before running
//! ([`refusals`]), so that it never prints values the runtime does not compute.

use crate::diag::{Code, Diagnostic, Label};
use crate::intern::Interner;
use crate::ir::lineage::{as_var, Def, Defs, Lineage, Root};
use crate::ir::ops::{Op, Param};
use crate::ir::{visit, Callee, ExprId, ExprKind, FuncKind, Function, Program, StmtId, StmtKind, VarId};
use rustc_hash::FxHashMap;

/// What the runtime leaves in the target of an assembly in orchestration code.
#[derive(Clone, Debug, PartialEq)]
pub enum Assembly {
    /// The source is the target's own window (a view of it that a kernel wrote, or the
    /// target itself at offset 0): the data is already there.
    InPlace,
    /// The source is a tensor this function makes (`pl.create_tensor`, or a kernel's new
    /// result), assembled only here: the tensor is made a view of the target at the
    /// assembly's offsets, so the kernel writing it writes the target.
    Fused { made: VarId },
    /// The runtime copies nothing: the source is not in the target. `why` says what it is.
    Dropped { why: String },
    /// A value computed in place (E0615, reported as the misplaced op).
    Computed,
}

/// Where a tensor this function makes comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Made {
    /// `v = pl.create_tensor(...)`.
    Create,
    /// `v = kernel(...)`, a result that is none of the kernel's parameters.
    KernelResult,
}

/// The assemblies of one orchestration function: for each tensor it makes, how many
/// assemblies take it as their source (PyPTO fuses only a tensor assembled once).
pub struct Assemblies {
    sources: FxHashMap<VarId, usize>,
    /// Each variable's definition, as a position in the function's statements in order (a
    /// parameter has none: it is defined before them all).
    defined_at: FxHashMap<VarId, usize>,
    /// Whether the body holds an assembly at all (most do not: then nothing else is
    /// gathered, and the emitter looks for none).
    any: bool,
}

impl Assemblies {
    /// Counts, in `f`'s body outside device regions, the assemblies whose source is a
    /// tensor `f` makes.
    pub fn of(p: &Program, defs: &Defs, lineage: &mut Lineage, f: &Function) -> Assemblies {
        let mut sources: FxHashMap<VarId, usize> = FxHashMap::default();
        let found = orchestration_assemblies(p, &f.body);
        if found.is_empty() {
            // No assembly to classify: its sources and definitions' order are not needed.
            return Assemblies { sources, defined_at: FxHashMap::default(), any: false };
        }
        for (_, args) in found {
            let Some(src) = Op::TensorAssemble.def().arg(&args, Param::Source).and_then(|s| as_var(p, s)) else {
                continue;
            };
            if let Root::Known(r) = lineage.root(p, defs, src) {
                if made(p, defs, lineage, r).is_some() {
                    *sources.entry(r).or_default() += 1;
                }
            }
        }
        let mut defined_at: FxHashMap<VarId, usize> = FxHashMap::default();
        let mut at = 0;
        visit::walk_stmts(p, &f.body, |s| {
            at += 1;
            let mut define = |v: VarId| {
                defined_at.insert(v, at);
            };
            match &p.stmt(s).kind {
                StmtKind::Assign { var, .. } => define(*var),
                StmtKind::For(for_) => {
                    let crate::ir::ForStmt { var, iter_args, return_vars, .. } = &**for_;
                    define(*var);
                    iter_args.iter().for_each(|a| define(a.var));
                    return_vars.iter().for_each(|&v| define(v));
                }
                StmtKind::While(while_) => {
                    let crate::ir::WhileStmt { iter_args, return_vars, .. } = &**while_;
                    iter_args.iter().for_each(|a| define(a.var));
                    return_vars.iter().for_each(|&v| define(v));
                }
                StmtKind::If(i) => i.return_vars.iter().for_each(|&v| define(v)),
                StmtKind::Scope(scope) => {
                    if let Some(t) = scope.task_id {
                        define(t);
                    }
                }
                _ => {}
            }
        });
        Assemblies { sources, defined_at, any: true }
    }

    /// The first variable of `needed` defined after `made` (so not known where `made` is
    /// made): in SSA form, all of them and `made` come before the assembly that reads them,
    /// so one defined earlier than `made` is known there.
    fn defined_after(&self, p: &Program, made: VarId, needed: &[ExprId]) -> Option<VarId> {
        let made_at = self.defined_at.get(&made).copied().unwrap_or(0);
        let mut vars = Vec::new();
        for &e in needed {
            expr_vars(p, e, &mut vars);
        }
        vars.into_iter().find(|v| self.defined_at.get(v).is_some_and(|&at| at >= made_at))
    }

    /// Whether the body holds an assembly (in its orchestration code).
    pub fn any(&self) -> bool {
        self.any
    }

    /// Whether the tensor `v` (a root) is the source of exactly one assembly.
    pub fn assembled_once(&self, v: VarId) -> bool {
        self.sources.get(&v) == Some(&1)
    }
}

/// How `v`, the root of a buffer, is made in its function, if the function makes it.
pub fn made(p: &Program, defs: &Defs, lineage: &mut Lineage, v: VarId) -> Option<Made> {
    let Some(Def::Value(e)) = defs.map.get(&v) else { return None };
    match &p.expr(*e).kind {
        ExprKind::Call { callee: Callee::Op(Op::TensorCreate), .. } => Some(Made::Create),
        ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), .. } => {
            let device = p.functions.get(g).is_some_and(|f| f.decl.kind.is_device_kernel());
            let returned = lineage.returned_params(p, *g);
            (device && returned.first().copied().flatten().is_none()).then_some(Made::KernelResult)
        }
        ExprKind::TupleGet { tuple, index } => {
            let t = as_var(p, *tuple)?;
            let Some(Def::Value(call)) = defs.map.get(&t) else { return None };
            let ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), .. } = &p.expr(*call).kind else {
                return None;
            };
            let device = p.functions.get(g).is_some_and(|f| f.decl.kind.is_device_kernel());
            let returned = lineage.returned_params(p, *g);
            let index = *index as usize;
            let result = index < p.functions.get(g).map_or(0, |f| f.returns.len());
            (device && result && returned.get(index).copied().flatten().is_none()).then_some(Made::KernelResult)
        }
        _ => None,
    }
}

/// What the runtime leaves in the target of the assembly with arguments `args`.
pub fn classify(
    p: &Program,
    names: &Interner,
    defs: &Defs,
    lineage: &mut Lineage,
    assemblies: &Assemblies,
    args: &[Option<ExprId>],
) -> Assembly {
    let def = Op::TensorAssemble.def();
    let (Some(target), Some(src)) = (def.arg(args, Param::Target), def.arg(args, Param::Source)) else {
        return Assembly::InPlace;
    };
    let Some(src_var) = as_var(p, src) else { return Assembly::Computed };
    let Some(target_var) = as_var(p, target) else { return Assembly::InPlace };
    let offsets = def.arg(args, Param::Offset);
    let name = |v: VarId| names.get(p.var(v).source).to_string();
    let (rs, rt) = (lineage.root(p, defs, src_var), lineage.root(p, defs, target_var));
    if let (Root::Known(s), Root::Known(t)) = (rs, rt) {
        if s == t {
            // The target's own buffer: in place when the source is the assembled window.
            return match window_of(p, defs, lineage, src_var, t) {
                Some(window) if same_offsets(p, window, offsets) => Assembly::InPlace,
                _ => Assembly::Dropped {
                    why: format!("`{}` is another window of `{}`", name(src_var), name(target_var)),
                },
            };
        }
        if let Some(how) = made(p, defs, lineage, s) {
            if assemblies.assembled_once(s) {
                let needed: Vec<ExprId> = [Some(target), offsets].into_iter().flatten().collect();
                if let Some(late) = assemblies.defined_after(p, s, &needed) {
                    return Assembly::Dropped {
                        why: format!(
                            "`{}` would be made a view of the target there (it is assembled once), but it is made before `{}`, which that view needs; make it after",
                            name(s),
                            name(late)
                        ),
                    };
                }
                return Assembly::Fused { made: s };
            }
            let what = match how {
                Made::Create => "a tensor made here",
                Made::KernelResult => "a kernel's new result",
            };
            return Assembly::Dropped {
                why: format!("`{}` is {what} that is assembled more than once", name(src_var)),
            };
        }
        let what = match defs.map.get(&s) {
            Some(Def::Param(_)) if name(s) == name(src_var) => "a parameter".to_string(),
            Some(Def::Param(_)) => format!("a view of the parameter `{}`", name(s)),
            _ if name(s) == name(src_var) => "a tensor".to_string(),
            _ => format!("a view of `{}`", name(s)),
        };
        return Assembly::Dropped {
            why: format!("`{}` is {what}, not data a kernel wrote into `{}`", name(src_var), name(target_var)),
        };
    }
    Assembly::Dropped { why: format!("`{}` may be one of several tensors", name(src_var)) }
}

/// The offsets of the window of `root` that `v` is: `None` for the whole tensor (offsets
/// all zero), `Some(offsets)` for a `pl.slice` of it; `Err` when `v` is some other view.
fn window_of(p: &Program, defs: &Defs, lineage: &mut Lineage, v: VarId, root: VarId) -> Option<Option<ExprId>> {
    let mut v = v;
    for _ in 0..=defs.map.len() {
        if v == root {
            return Some(None);
        }
        let next = match defs.map.get(&v)? {
            Def::Value(e) => match &p.expr(*e).kind {
                ExprKind::Var(w) => *w,
                ExprKind::Call { callee: Callee::Op(Op::TensorSlice), args, .. } => {
                    let base = args.first().copied().flatten().and_then(|a| as_var(p, a))?;
                    // A slice of the root itself (a slice of a slice has offsets of its own).
                    if lineage.root(p, defs, base) == Root::Known(root)
                        && window_of(p, defs, lineage, base, root)?.is_none()
                    {
                        return Some(Op::TensorSlice.def().arg(args, Param::Offset));
                    }
                    return None;
                }
                // An assembly returns its target.
                ExprKind::Call { callee: Callee::Op(Op::TensorAssemble), args, .. } => {
                    Op::TensorAssemble.def().arg(args, Param::Target).and_then(|a| as_var(p, a))?
                }
                ExprKind::Call { callee: Callee::Op(op), args, .. } if op.def().is_store() => {
                    // A store returns its destination.
                    let written = args.iter().enumerate().find_map(|(i, a)| match (a, op.def().effect(i)) {
                        (Some(a), crate::ir::ops::Effect::Write | crate::ir::ops::Effect::ReadWrite) => Some(*a),
                        _ => None,
                    });
                    written.and_then(|a| as_var(p, a))?
                }
                ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), args, .. } => {
                    let k = lineage.returned_params(p, *g).first().copied().flatten()?;
                    args.get(k).copied().flatten().and_then(|a| as_var(p, a))?
                }
                ExprKind::TupleGet { tuple, index } => {
                    let t = as_var(p, *tuple)?;
                    let Some(Def::Value(call)) = defs.map.get(&t) else { return None };
                    let ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), args, .. } = &p.expr(*call).kind
                    else {
                        return None;
                    };
                    let k = lineage.returned_params(p, *g).get(*index as usize).copied().flatten()?;
                    args.get(k).copied().flatten().and_then(|a| as_var(p, a))?
                }
                _ => return None,
            },
            Def::Carried(init) => as_var(p, *init)?,
            _ => return None,
        };
        v = next;
    }
    None
}

/// Whether the window `window` (a slice's offsets, `None` for offset 0) is at `offsets`.
fn same_offsets(p: &Program, window: Option<ExprId>, offsets: Option<ExprId>) -> bool {
    let items = |e: Option<ExprId>| -> Vec<ExprId> {
        match e.map(|e| &p.expr(e).kind) {
            Some(ExprKind::Tuple(items)) => items.to_vec(),
            Some(_) => vec![e.expect("some")],
            None => Vec::new(),
        }
    };
    let zero = |e: ExprId| matches!(p.expr(e).kind, ExprKind::Int(0));
    let (a, b) = (items(window), items(offsets));
    if window.is_none() {
        return b.iter().all(|&e| zero(e));
    }
    a.len() == b.len() && a.iter().zip(&b).all(|(&x, &y)| same_expr(p, x, y))
}

/// Structural equality of two scalar expressions.
fn same_expr(p: &Program, a: ExprId, b: ExprId) -> bool {
    match (&p.expr(a).kind, &p.expr(b).kind) {
        (ExprKind::Int(x), ExprKind::Int(y)) => x == y,
        (ExprKind::Var(x), ExprKind::Var(y)) => x == y,
        (ExprKind::DynDim(x), ExprKind::DynDim(y)) => x == y,
        (ExprKind::Binary { op: o1, lhs: l1, rhs: r1 }, ExprKind::Binary { op: o2, lhs: l2, rhs: r2 }) => {
            o1 == o2 && same_expr(p, *l1, *l2) && same_expr(p, *r1, *r2)
        }
        (ExprKind::Unary { op: o1, operand: x }, ExprKind::Unary { op: o2, operand: y }) => {
            o1 == o2 && same_expr(p, *x, *y)
        }
        _ => false,
    }
}

/// The assemblies of a block written as orchestration code (not inside a region that is
/// still to be outlined): each statement's id and the call's arguments.
fn orchestration_assemblies(p: &Program, body: &[StmtId]) -> Vec<(StmtId, Vec<Option<ExprId>>)> {
    let mut out = Vec::new();
    visit::walk_stmts(p, body, |s| {
        let value = match &p.stmt(s).kind {
            StmtKind::Assign { value, .. } => *value,
            StmtKind::Eval(e) => *e,
            _ => return,
        };
        if let ExprKind::Call { callee: Callee::Op(Op::TensorAssemble), args, .. } = &p.expr(value).kind {
            out.push((s, args.to_vec()));
        }
    });
    out
}

/// The assemblies of orchestration code the runtime would not write (the source is not
/// already in the target), each an E0623 at the assembly: `plc run` refuses to run an entry
/// that reaches one, as `plc compile` refuses to compile it. The functions looked at are
/// the entry (`name`, or `Class.name`'s function `name`) and the orchestration functions
/// and Graph functions it calls, when they are orchestration code (their device regions
/// outlined: the passes ran). An Opaque function is not: it has no region to outline, so
/// `plc compile` makes no C++ of it (E0616), and PyPTO's passes make its tensor ops device
/// code, where an assembly is a copy, as `plc run` computes it.
pub fn refusals(programs: &[Program], names: &Interner, entry: &str) -> Vec<Diagnostic> {
    let entry = entry.rsplit_once('.').map_or(entry, |(_, f)| f);
    let mut out = Vec::new();
    for p in programs {
        let mut lineage = Lineage::default();
        let mut todo: Vec<crate::intern::Symbol> =
            p.functions.keys().copied().filter(|&g| names.get(g) == entry).collect();
        let mut seen: rustc_hash::FxHashSet<crate::intern::Symbol> = todo.iter().copied().collect();
        while let Some(g) = todo.pop() {
            let f = &p.functions[&g];
            if !matches!(f.decl.kind, FuncKind::Orchestration | FuncKind::Graph) || has_region(p, &f.body) {
                continue;
            }
            visit::walk_block_exprs(p, &f.body, |_, e| {
                if let ExprKind::Call { callee: Callee::Func(h) | Callee::Submit(h), .. } = &p.expr(e).kind {
                    if p.functions.contains_key(h) && seen.insert(*h) {
                        todo.push(*h);
                    }
                }
            });
            let defs = Defs::of(p, f);
            let assemblies = Assemblies::of(p, &defs, &mut lineage, f);
            for (s, args) in orchestration_assemblies(p, &f.body) {
                if let Assembly::Dropped { why } = classify(p, names, &defs, &mut lineage, &assemblies, &args) {
                    let loc = p.stmt(s).loc;
                    out.push(dropped(if loc.is_compiler_made() { f.loc } else { loc }, &why));
                }
            }
        }
    }
    out
}

/// Whether a block still holds a scope a pass outlines (the program is before the passes).
fn has_region(p: &Program, body: &[StmtId]) -> bool {
    let mut found = false;
    visit::walk_stmts(p, body, |s| {
        if let StmtKind::Scope(scope) = &p.stmt(s).kind {
            if !matches!(scope.kind, crate::ir::ScopeKind::Runtime { .. }) {
                found = true;
            }
        }
    });
    found
}

/// E0623 at an assembly the runtime would not write.
pub fn dropped(loc: crate::ir::Loc, why: &str) -> Diagnostic {
    let message = format!(
        "this assembly copies nothing on the runtime (in orchestration code it only names its target): {why}; write the data into the target inside a `pl.at(level=pl.Level.CORE_GROUP)` region or a kernel (`out[...] = ...` there), or assemble the result of the kernel that computes it"
    );
    Diagnostic::error(Code::E0623, message, Label::primary(loc.file, loc.span, "nothing is copied here"))
}

/// The variables an expression reads, into `out`.
pub fn expr_vars(p: &Program, e: ExprId, out: &mut Vec<VarId>) {
    match &p.expr(e).kind {
        ExprKind::Var(v) => out.push(*v),
        ExprKind::Tuple(items) => items.iter().for_each(|&i| expr_vars(p, i, out)),
        ExprKind::Binary { lhs, rhs, .. } => {
            expr_vars(p, *lhs, out);
            expr_vars(p, *rhs, out);
        }
        ExprKind::Unary { operand, .. } => expr_vars(p, *operand, out),
        ExprKind::Call { args, .. } => args.iter().flatten().for_each(|&a| expr_vars(p, a, out)),
        ExprKind::TupleGet { tuple, .. } => expr_vars(p, *tuple, out),
        _ => {}
    }
}
