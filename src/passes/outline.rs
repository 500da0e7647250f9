//! The scope outliner shared by the outlining passes: a region of one kind (`pl.graph`,
//! `pl.at(level=CORE_GROUP)`, ...) becomes a function of its own, called where the region
//! was.
//!
//! - Parameters: the variables the region reads before defining them, in first-read order
//!   (`dataflow::live_in`).
//! - Results: the variables the region defines that the statements after it mention (or
//!   that an enclosing region must hand on), in definition order; then each outside
//!   tensor the region stores into (`pl.store(..., t)`): the function returns that
//!   parameter, and the caller binds a new version of `t`, which the statements after the
//!   call read. When the call sits in a loop or a branch and `t` comes from outside it, the
//!   new version is carried out (a new iter arg and return variable of the loop, a new
//!   return variable of the `if`), as ConvertToSSA would have done.
//! - Directions: `In`, `Out` or `InOut` from the op table's effects and from the
//!   directions of called functions (`In < Out < InOut`).
//! - Names: the region's name, else `<function><suffix><n>`; a name already taken in the
//!   program (any function) or in the function (any variable) gets a suffix.
//!
//! The "used after" set is computed only at statements that are, or contain, a region of
//! the kind being outlined, so a block of M statements with few regions costs O(M).

use super::dataflow;
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::names::{Role, Version, Versioned};
use crate::ir::ops::{Effect, Op};
use crate::ir::visit::{self, FreshVars};
use crate::ir::{
    Block, CallAttrs, Callee, DType, Direction, ExprId, ExprKind, FuncDecl, FuncKind, Function, Functions, IfStmt,
    IterArg, Loc, Param, Program, Scope, ScopeKind, StmtId, StmtKind, Type, TypeId, VarId,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The function names an outlining pass's new names avoid: the program's and those the pass
/// chose so far, and on a run of [`super::fused`] the names of the functions outside the
/// run's program ([`super::PassCx::outside`]).
pub struct Reserved {
    own: FxHashSet<Symbol>,
    outside: Option<Arc<Functions>>,
}

impl Reserved {
    /// The names of `program`'s functions, and of those outside it on a fused run.
    pub fn of(cx: &super::PassCx<'_>, program: &Program) -> Reserved {
        Reserved { own: program.functions.keys().copied().collect(), outside: cx.outside.clone() }
    }

    fn contains(&self, name: Symbol) -> bool {
        self.own.contains(&name) || self.outside.as_ref().is_some_and(|o| o.contains_key(&name))
    }

    fn insert(&mut self, name: Symbol) {
        self.own.insert(name);
    }
}

/// What one outlining pass outlines.
pub struct Target {
    /// Whether a scope is of the kind this pass outlines.
    pub matches: fn(&ScopeKind) -> bool,
    /// The function type a region of that kind becomes.
    pub func_kind: FuncKind,
    /// The middle of an automatic name: `<function><suffix><n>`.
    pub suffix: fn(&ScopeKind) -> String,
    /// Whether the region runs on a device: a scalar it computes and the code after it
    /// reads must then be computed by the caller instead (a task cannot return a scalar).
    pub device: bool,
    /// Whether a tensor the region stores into, defined outside it, is returned (with a new
    /// version bound by the caller). Hierarchy regions never export their stores: the
    /// tensor is a parameter the new function writes (`Out`/`InOut`).
    pub export_stores: bool,
    /// The level and role of the new function: the region's own (Hierarchy regions), or
    /// `None` for those its function type implies.
    pub level_role: fn(&ScopeKind) -> Option<LevelRole>,
}

impl Target {
    /// The settings of a region run as a device task: a scalar it computes is recomputed by
    /// the caller, a tensor it stores into is returned, and the new function has the level
    /// and role its type implies (`matches`, `func_kind` and `suffix` are for each pass to
    /// set).
    pub const DEVICE_TASK: Target = Target {
        matches: |_| false,
        func_kind: FuncKind::InCore,
        suffix: |_| String::new(),
        device: true,
        export_stores: true,
        level_role: |_| None,
    };
}

/// A function's level and role, as `Function` holds them.
pub type LevelRole = (Option<crate::ir::Level>, Option<crate::ir::Role>);

/// Outlines the regions of `target` in one function. `reserved` holds every function name
/// of the program and every name outlined so far; the new names are added to it. The new
/// functions go at the end of `program.functions` (in the order they are made, each one's
/// name and its parent's appended to `made`): [`insert_before_parents`] moves them into
/// place once the pass has outlined every function. `at` is the function's position,
/// which stays while the pass appends new ones.
#[allow(clippy::too_many_arguments)]
fn outline_function(
    program: &mut Program,
    names: &mut Interner,
    diags: &mut Vec<Diagnostic>,
    at: usize,
    target: &Target,
    reserved: &mut Reserved,
    made: &mut Vec<Made>,
    scratch: &mut Scratch,
) {
    let func = program.functions[at].name;
    // Taken out while the function is outlined (nothing reads a function's body meanwhile;
    // its place stays), not copied; the new body is put in its place.
    let body = std::mem::take(&mut program.functions[at].body);
    if target.device {
        // A scalar only dead loop carries read need not leave a device region.
        dataflow::drop_dead_scalar_carries(program, &body);
    }
    let f = &program.functions[at];
    scratch.known.start();
    dataflow::empty_map(&mut scratch.next_version);
    dataflow::empty_map(&mut scratch.next_text);
    let known = &mut scratch.known;
    for p in &f.params {
        known.insert(program.var(p.var).name);
    }
    visit::walk_stmts(program, &body, |s| {
        visit::stmt_defs(program, s, |v| {
            known.insert(program.var(v).name);
        })
    });
    let in_kernel = matches!(f.decl.kind, FuncKind::InCore | FuncKind::Aic | FuncKind::Aiv);
    let mut o = Outliner { program, names, diags, target, reserved, func, in_kernel, counter: 0, made, s: scratch };
    let none = FxHashMap::default();
    let top = After { last: &none, index: 0, outer: None };
    let body = o.block(&body, &top, &mut FxHashMap::default());
    program.functions[at].body = body;
}

/// A function an outlining pass made.
pub struct Made {
    pub name: Symbol,
    /// The function it was outlined from.
    pub parent: Symbol,
    /// Whether its body holds a region of any kind: one without holds none to outline, so
    /// a later run of the pass need not look at it.
    pub has_scopes: bool,
}

/// The names of the functions in `made` that hold a region of some kind, in order: those a
/// pass outlining nested regions looks at.
pub fn with_scopes(made: &[Made]) -> Vec<Symbol> {
    made.iter().filter(|m| m.has_scopes).map(|m| m.name).collect()
}

/// The positions of the functions named in `names`, in that order (those not in the
/// program left out).
pub fn positions(program: &Program, names: impl IntoIterator<Item = Symbol>) -> Vec<usize> {
    names.into_iter().filter_map(|f| program.functions.get_index_of(&f)).collect()
}

struct Outliner<'a> {
    program: &'a mut Program,
    names: &'a mut Interner,
    diags: &'a mut Vec<Diagnostic>,
    target: &'a Target,
    reserved: &'a mut Reserved,
    func: Symbol,
    /// The function is a kernel (InCore, AIC, AIV): the regions nested in it are calls.
    in_kernel: bool,
    counter: u32,
    /// The functions made so far in the pass.
    made: &'a mut Vec<Made>,
    s: &'a mut Scratch,
}

thread_local! {
    /// The outliner's scratch, kept on each thread from one call of [`outline_functions`]
    /// to the next: the runs of [`super::fused`] on the pool threads each call it four
    /// times, and [`NameSet`]'s marks alone span every name of the program.
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

/// What the outliner keeps from one function and one region to the next (emptied, not
/// freed): the sets, maps and vectors it fills for each, which would otherwise be
/// allocated and grown from empty each time; and from one call of [`outline_functions`]
/// to the next ([`SCRATCH`]).
#[derive(Default)]
struct Scratch {
    /// Every variable name of the function being outlined, and the names outlined from it
    /// so far.
    known: NameSet,
    /// For each version stem (`acc__ssa_v`: a source name and a role), the number to try
    /// first (see `free_number`).
    next_version: FxHashMap<(Symbol, Role), u32>,
    /// The same for the other name prefixes (`<region name>_`, see `region_name`); no such
    /// prefix ends like a version stem (in `_v`), so the two maps never share a prefix.
    next_text: FxHashMap<String, u32>,
    /// The buffer new names are composed in.
    text: String,
    /// The walk that finds a region's inputs, with the variables it met numbered.
    live: dataflow::LiveIn,
    /// What the region does with its variables, by their numbers in `live`.
    uses: RegionUses,
    /// By a variable's number in `live`: the input it is, or [`NOT_INPUT`].
    input_of: Vec<u32>,
    /// By input: its mentions, those as an argument the callee only writes, and whether
    /// an argument writes it.
    sums: Vec<(u32, u32, bool)>,
    /// A region's variables and the function's (`function_body`).
    fresh: FxHashMap<VarId, VarId>,
}

/// A set of names, one function's at a time: a mark per interned name (indexed by its
/// symbol), the names of the current function marked with its number. Emptied by moving
/// to the next number, not by clearing; a test or an insert is an index, not a hash.
#[derive(Default)]
struct NameSet {
    marks: Vec<u32>,
    current: u32,
}

impl NameSet {
    /// Empties the set.
    fn start(&mut self) {
        if self.current == u32::MAX {
            self.marks.fill(0);
            self.current = 0;
        }
        self.current += 1;
    }

    fn contains(&self, name: Symbol) -> bool {
        self.marks.get(name.index()) == Some(&self.current)
    }

    /// Adds `name`; whether it was not in the set.
    fn insert(&mut self, name: Symbol) -> bool {
        let i = name.index();
        if i >= self.marks.len() {
            self.marks.resize(i + 1, 0);
        }
        let new = self.marks[i] != self.current;
        self.marks[i] = self.current;
        new
    }
}

/// In [`Scratch::input_of`]: a variable that is not an input of the region.
const NOT_INPUT: u32 = u32::MAX;

/// Which variables are used after a statement: those a later statement of its block
/// mentions (`last` holds, for each variable, the index of the last statement of the
/// block that mentions it), and those used after the enclosing statements. Built with one
/// walk per block that holds a region, so a query costs O(depth), not a walk of the tail.
struct After<'a> {
    last: &'a FxHashMap<VarId, usize>,
    index: usize,
    outer: Option<&'a After<'a>>,
}

impl After<'_> {
    fn contains(&self, v: VarId) -> bool {
        self.last.get(&v).is_some_and(|&j| j > self.index) || self.outer.is_some_and(|o| o.contains(v))
    }
}

/// The latest version of each variable a store output rebound: original → latest.
type Renames = FxHashMap<VarId, VarId>;

/// Records that `old` (itself perhaps the latest version of an older variable) now has
/// the newer version `new`: every variable that led to `old` leads to `new`.
fn rebind(renames: &mut Renames, old: VarId, new: VarId) {
    for v in renames.values_mut() {
        if *v == old {
            *v = new;
        }
    }
    renames.insert(old, new);
}

impl Outliner<'_> {
    fn is_target(&self, s: StmtId) -> bool {
        matches!(&self.program.stmt(s).kind, StmtKind::Scope(scope) if (self.target.matches)(&scope.kind))
    }

    /// Rewrites a block: regions become calls, statements holding regions are rewritten
    /// inside. `required` are variables an enclosing region must hand on. Returns the new
    /// block; `renames` gains the variables rebound in it (visible after it).
    fn block(&mut self, block: &[StmtId], required: &After<'_>, renames: &mut Renames) -> Block {
        let needs = dataflow::contains_target(self.program, block, |t| self.is_target(t));
        let mut last: FxHashMap<VarId, usize> = FxHashMap::default();
        if let Some(first) = needs.iter().position(|&n| n) {
            // The mentions gathered first, then hashed into a map of their number (a map
            // grown from empty rehashes at every doubling); a later mention overwrites.
            // `After` asks only whether a variable is mentioned after a statement holding a
            // region, so the statements up to the first such one need no walk.
            let mut mentions: Vec<(VarId, usize)> = Vec::new();
            for (i, &s) in block.iter().enumerate().skip(first + 1) {
                dataflow::mentioned(self.program, std::slice::from_ref(&s), &mut |v| mentions.push((v, i)));
            }
            last.reserve(mentions.len());
            last.extend(mentions);
        }
        let mut out = Vec::with_capacity(block.len());
        for (i, &s) in block.iter().enumerate() {
            if !renames.is_empty() {
                visit::rename_reads(self.program, std::slice::from_ref(&s), |v| renames.get(&v).copied());
            }
            if !needs[i] {
                out.push(s);
                continue;
            }
            let after = After { last: &last, index: i, outer: Some(required) };
            if self.is_target(s) {
                let stmts = self.outline(s, &after, renames);
                out.extend(stmts);
            } else {
                self.nested(s, &after, renames);
                out.push(s);
            }
        }
        out
    }

    /// A statement that contains a region: its blocks are rewritten, and the variables
    /// rebound inside a loop or a branch are carried out of it.
    fn nested(&mut self, s: StmtId, after: &After<'_>, renames: &mut Renames) {
        // Taken out while its blocks are rewritten (nothing reads it meanwhile), then put
        // back: not copied.
        let kind = std::mem::replace(&mut self.program.stmts[s.index()].kind, StmtKind::Break);
        let loc = self.program.stmt(s).loc;
        match kind {
            StmtKind::Scope(mut scope) => {
                // Transparent: what is rebound inside is rebound after it.
                let body = self.block(&scope.body, after, renames);
                scope.body = body;
                self.program.stmts[s.index()].kind = StmtKind::Scope(scope);
            }
            StmtKind::For(mut for_) => {
                let crate::ir::ForStmt { iter_args, body, return_vars, .. } = &mut *for_;
                let mut inner = Renames::default();
                *body = self.block(body, after, &mut inner);
                self.carry_loop(iter_args, body, return_vars, &inner, renames, loc);
                self.program.stmts[s.index()].kind = StmtKind::For(for_);
            }
            StmtKind::While(mut while_) => {
                let crate::ir::WhileStmt { iter_args, body, return_vars, .. } = &mut *while_;
                let mut inner = Renames::default();
                *body = self.block(body, after, &mut inner);
                self.carry_loop(iter_args, body, return_vars, &inner, renames, loc);
                self.program.stmts[s.index()].kind = StmtKind::While(while_);
            }
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, mut return_vars } = *if_;
                let mut then_renames = Renames::default();
                let mut then_body = self.block(&then_body, after, &mut then_renames);
                let mut else_renames = Renames::default();
                let mut else_body = else_body.map(|b| self.block(&b, after, &mut else_renames));
                // A variable a branch defines itself does not outlive the `if`.
                let mut local = dataflow::defs_in_order(self.program, &then_body);
                if let Some(e) = &else_body {
                    local.extend(dataflow::defs_in_order(self.program, e));
                }
                local.sort_unstable();
                let mut carried: Vec<VarId> = then_renames
                    .keys()
                    .chain(else_renames.keys())
                    .copied()
                    .filter(|v| local.binary_search(v).is_err())
                    .collect();
                carried.sort_unstable();
                carried.dedup();
                for v in carried {
                    let entry = renames.get(&v).copied().unwrap_or(v);
                    let then_value = then_renames.get(&v).copied().unwrap_or(entry);
                    let else_value = else_renames.get(&v).copied().unwrap_or(entry);
                    self.append_yield(&mut then_body, then_value, loc);
                    let block = else_body.get_or_insert_with(Vec::new);
                    self.append_yield(block, else_value, loc);
                    let rv = self.fresh_like(v, Role::Rv, loc);
                    return_vars.push(rv);
                    rebind(renames, v, rv);
                }
                self.program.stmts[s.index()].kind =
                    StmtKind::If(Box::new(IfStmt { cond, then_body, else_body, return_vars }));
            }
            other => self.program.stmts[s.index()].kind = other,
        }
    }

    /// Carries out of a loop each variable rebound in its body (`inner`) that lives outside
    /// it: a new iter arg (initialised with the value on entry, read by the body where it
    /// read the variable), the new version appended to the trailing yield, and a new return
    /// variable, which the statements after the loop read.
    fn carry_loop(
        &mut self,
        iter_args: &mut Vec<IterArg>,
        body: &mut Block,
        return_vars: &mut Vec<VarId>,
        inner: &Renames,
        renames: &mut Renames,
        loc: Loc,
    ) {
        // A variable the body defines itself is new on each iteration: nothing to carry.
        // (Sorted, for a binary search: a set would be allocated and hashed into.)
        let mut local = if inner.is_empty() { Vec::new() } else { dataflow::defs_in_order(self.program, body) };
        local.sort_unstable();
        let mut carried: Vec<(VarId, VarId)> =
            inner.iter().filter(|(k, _)| local.binary_search(k).is_err()).map(|(&k, &v)| (k, v)).collect();
        carried.sort_unstable();
        for (v, latest) in carried {
            // Already one of this loop's own iter args: its yield is rebound in place.
            if let Some(k) = iter_args.iter().position(|a| a.var == v) {
                self.replace_in_yield(body, k, latest);
                continue;
            }
            let entry = renames.get(&v).copied().unwrap_or(v);
            let ia = self.fresh_like(v, Role::Iter, loc);
            visit::rename_reads(self.program, body, |w| (w == v).then_some(ia));
            let ty = self.program.var(entry).ty;
            let init = self.program.new_expr(ExprKind::Var(entry), ty, loc);
            iter_args.push(IterArg { var: ia, init });
            self.append_yield(body, latest, loc);
            let rv = self.fresh_like(v, Role::Rv, loc);
            return_vars.push(rv);
            rebind(renames, v, rv);
        }
    }

    /// Appends `value` to the block's trailing yield, or ends the block with a new one.
    fn append_yield(&mut self, block: &mut Block, value: VarId, loc: Loc) {
        let ty = self.program.var(value).ty;
        let e = self.program.new_expr(ExprKind::Var(value), ty, loc);
        if let Some(&last) = block.last() {
            if let StmtKind::Yield(values) = &mut self.program.stmts[last.index()].kind {
                values.push(e);
                return;
            }
        }
        let y = self.program.new_stmt(StmtKind::Yield(vec![e]), loc);
        block.push(y);
    }

    /// Makes the `k`-th value of the block's trailing yield read `latest`.
    fn replace_in_yield(&mut self, body: &Block, k: usize, latest: VarId) {
        if let Some(&last) = body.last() {
            if let StmtKind::Yield(values) = &self.program.stmt(last).kind {
                if let Some(&e) = values.get(k) {
                    self.program.exprs[e.index()].kind = ExprKind::Var(latest);
                }
            }
        }
    }

    /// A new version of `v`, named as ConvertToSSA names versions: the source name, a tag
    /// (`ssa` for a value, `iter` for an iter arg, `rv` for a loop's or an if's result) and
    /// the first free number: `acc__ssa_v0` → `acc__ssa_v1`, `acc__iter_v0`, `acc__rv_v0`.
    fn fresh_like(&mut self, v: VarId, role: Role, loc: Loc) -> VarId {
        let (source, ty) = (self.program.var(v).source, self.program.var(v).ty);
        let (name, n) = self.free_number(source, role);
        if self.names.get(source).is_empty() {
            return self.program.new_var(self.names, name, ty, loc);
        }
        let version = Version { qualifier: None, role, n };
        self.program.new_version(self.names, name, source, version, ty, loc)
    }

    /// The stem of `base`'s versions in `role` (`Versioned::push_stem`: `tid__ssa_v`) followed
    /// by the first number that makes a name not yet used here.
    fn free_name(&mut self, base: &str, role: Role) -> Symbol {
        let base = self.names.intern(base);
        self.free_number(base, role).0
    }

    /// [`Outliner::free_name`] for the source name `base`, with the number it chose. The
    /// search for a stem resumes where the last one stopped, so that naming N versions
    /// costs O(N), not O(N²). The name is composed in the reused buffer, not in a `String`
    /// of its own.
    fn free_number(&mut self, base: Symbol, role: Role) -> (Symbol, u32) {
        let Scratch { text, known, next_version, .. } = &mut *self.s;
        let next = next_version.entry((base, role)).or_insert(0);
        text.clear();
        Versioned::push_stem(text, self.names.get(base), role);
        let stem = text.len();
        let mut k = *next;
        loop {
            text.truncate(stem);
            crate::ir::names::push_decimal(text, k);
            let candidate = self.names.intern(text);
            if known.insert(candidate) {
                *next = k + 1;
                return (candidate, k);
            }
            k += 1;
        }
    }

    /// The function name for a region: its own name, or an automatic one; made unique
    /// against every function of the program and every name in this function.
    fn region_name(&mut self, hint: Option<Symbol>, kind: &ScopeKind) -> Symbol {
        // Composed in the reused buffer: most names are taken as they are.
        let text = &mut self.s.text;
        text.clear();
        // The region's own name is interned already: not looked up again.
        let first = match hint {
            Some(n) if !self.names.get(n).is_empty() => {
                text.push_str(self.names.get(n));
                n
            }
            _ => {
                text.push_str(self.names.get(self.func));
                text.push_str(&(self.target.suffix)(kind));
                crate::ir::names::push_decimal(text, self.counter);
                self.names.intern(text)
            }
        };
        self.counter += 1;
        let taken = |o: &Self, s: Symbol| o.s.known.contains(s) || o.reserved.contains(s);
        let chosen = if !taken(self, first) {
            first
        } else {
            let func = self.names.get(self.func).to_string();
            let wanted = self.s.text.clone();
            // A clash with another function's name: qualify it with this function's name;
            // a clash inside this function: number it.
            let base = if self.s.known.contains(first) { wanted } else { format!("{func}_{wanted}") };
            let qualified = self.names.intern(&base);
            if base != self.names.get(first) && !taken(self, qualified) {
                qualified
            } else {
                let prefix = format!("{base}_");
                let mut k = self.s.next_text.get(&prefix).copied().unwrap_or(0);
                let c = loop {
                    let c = self.names.intern(&format!("{prefix}{k}"));
                    if !taken(self, c) {
                        break c;
                    }
                    k += 1;
                };
                self.s.next_text.insert(prefix, k + 1);
                c
            }
        };
        self.s.known.insert(chosen);
        self.reserved.insert(chosen);
        chosen
    }

    /// Outlines one region; returns the statements that replace it.
    fn outline(&mut self, s: StmtId, used_after: &After<'_>, renames: &mut Renames) -> Vec<StmtId> {
        let loc = self.program.stmt(s).loc;
        // Taken out of the statement, which the call replaces (put back on an error).
        let kind = std::mem::replace(&mut self.program.stmts[s.index()].kind, StmtKind::Break);
        let StmtKind::Scope(scope) = kind else {
            self.program.stmts[s.index()].kind = kind;
            return vec![s];
        };
        let Scope { kind, name, task_id, mut body, attrs } = *scope;
        let fname = self.region_name(name, &kind);
        let func_kind = self.target.func_kind;

        // Regions nested in this one (of the same kind) were rejected or are outlined
        // from the new function by the pass's later runs; here the body moves as it is.
        // The walk that finds the inputs gives the definitions too.
        self.walk(&body);
        let mut outputs: Vec<VarId> = Vec::new();
        let defs = &self.s.live.defs;
        let defined = defs.len();
        for &v in defs {
            if used_after.contains(v) && !outputs.contains(&v) {
                outputs.push(v);
            }
        }
        // A device task cannot return a scalar: one the caller reads afterwards is computed
        // by the caller, in front of the call, from the same inputs.
        let mut hoisted = Vec::new();
        if self.target.device {
            let scalars: Vec<VarId> = if outputs.iter().any(|&v| self.is_value_scalar(v)) {
                outputs.iter().copied().filter(|&v| self.is_value_scalar(v)).collect()
            } else {
                Vec::new()
            };
            if !scalars.is_empty() {
                match self.plan_scalar_hoist(&body, &scalars) {
                    Ok(stmts) => {
                        body.retain(|t| !stmts.contains(t));
                        outputs.retain(|v| !scalars.contains(v));
                        hoisted = stmts;
                        // The body changed: walked again.
                        self.walk(&body);
                    }
                    Err(v) => {
                        self.region_error(RegionError::ScalarLeavesDevice(v), fname, loc);
                        let scope = Scope { kind, name, task_id, body, attrs };
                        self.program.stmts[s.index()].kind = StmtKind::Scope(Box::new(scope));
                        return vec![s];
                    }
                }
            }
        }
        // Before the body moves into the new function (which renames its variables).
        let (inputs, Accesses { mut dirs, stores }) = self.inputs_and_accesses();
        let stores = if self.target.export_stores { stores } else { Vec::new() };
        // `v = pl.store(tile, offsets, t)` at the region's top level, with `v` read after
        // it: `v` is the new version of `t`, so the caller binds `v` itself to the call's
        // result for `t` rather than returning both.
        let mut alias_of: FxHashMap<VarId, VarId> = FxHashMap::default();
        for &st in &body {
            if let StmtKind::Assign { var, value } = self.program.stmt(st).kind {
                if let Some(t) = dataflow::stored_into(self.program, value) {
                    if stores.contains(&t) && outputs.contains(&var) {
                        alias_of.insert(t, var);
                    }
                }
            }
        }
        outputs.retain(|v| !alias_of.values().any(|a| a == v));
        let options = self.region_options(fname, &kind, &attrs, &inputs, loc);

        let results: Vec<VarId> = outputs.iter().chain(&stores).copied().collect();
        let (params, new_body, return_types) = self.function_body(&inputs, body, defined, &results, loc);
        if func_kind == FuncKind::Graph {
            // A graph's boundary tensors all exist before the call (the region captured
            // them): one the region only writes is InOut, not Out, which on a graph would
            // ask the runtime to allocate it.
            dirs.iter_mut().filter(|d| **d == Direction::Out).for_each(|d| *d = Direction::InOut);
        }
        let (level, role) = (self.target.level_role)(&kind).unwrap_or_else(|| func_kind.derived_level_role());
        let function = Function {
            name: fname,
            loc,
            decl: FuncDecl { extra: options.function, ..FuncDecl::new(func_kind, level, role) },
            params: params.iter().zip(&dirs).map(|(&var, &dir)| Param { var, dir }).collect(),
            returns: return_types.clone(),
            body: new_body,
        };
        // At the end for now (`insert_before_parents`); the name is new to the program.
        self.program.functions.insert(fname, function);
        // The last walk of the body (`Outliner::walk`) saw whether it holds a region.
        self.made.push(Made { name: fname, parent: self.func, has_scopes: self.s.live.scopes });

        // The call, and the variables it binds: the region's own outputs keep their
        // variables; each stored tensor gets a new version; a launch with a task id binds
        // it last.
        let args: Vec<Option<ExprId>> = inputs
            .iter()
            .map(|&v| {
                let ty = self.program.var(v).ty;
                Some(self.program.new_expr(ExprKind::Var(v), ty, loc))
            })
            .collect();
        let mut bound: Vec<VarId> = Vec::with_capacity(outputs.len() + stores.len() + 1);
        bound.extend_from_slice(&outputs);
        for &t in &stores {
            let newer = match alias_of.get(&t) {
                Some(&v) => v,
                None => self.fresh_like(t, Role::Ssa, loc),
            };
            bound.push(newer);
        }
        // In a kernel (a region nested in another) the call runs in program order: no task
        // is launched, so there is no task id to bind (`deps=` was dropped by lowering).
        let submit = !self.in_kernel && (task_id.is_some() || options.submit);
        let mut result_types = return_types;
        if submit {
            let tid = match task_id {
                Some(t) => t,
                None => {
                    let name = self.free_name("tid", Role::Ssa);
                    let ty = self.program.types.intern(Type::Scalar(DType::TaskId));
                    self.program.new_var(self.names, name, ty, loc)
                }
            };
            bound.push(tid);
            result_types.push(self.program.var(tid).ty);
        }
        let call_ty = match (result_types.len(), submit) {
            (0, _) => self.program.types.intern(Type::None),
            (1, false) => result_types[0],
            _ => self.program.types.intern(Type::Tuple(result_types)),
        };
        let callee = if submit { Callee::Submit(fname) } else { Callee::Func(fname) };
        let call =
            self.program.new_expr(ExprKind::Call { callee, args: args.into(), attrs: options.call }, call_ty, loc);
        let mut out = hoisted;
        out.reserve(bound.len() + 1);
        match bound.len() {
            0 => out.push(self.program.new_stmt(StmtKind::Eval(call), loc)),
            1 if !submit => out.push(self.program.new_stmt(StmtKind::Assign { var: bound[0], value: call }, loc)),
            _ => {
                let tmp_name = self.free_name("ret", Role::Tmp);
                let tmp = self.program.new_var(self.names, tmp_name, call_ty, loc);
                out.push(self.program.new_stmt(StmtKind::Assign { var: tmp, value: call }, loc));
                for (i, &v) in bound.iter().enumerate() {
                    let ty = self.program.var(v).ty;
                    let t = self.program.new_expr(ExprKind::Var(tmp), call_ty, loc);
                    let get = self.program.new_expr(ExprKind::TupleGet { tuple: t, index: i as u32 }, ty, loc);
                    out.push(self.program.new_stmt(StmtKind::Assign { var: v, value: get }, loc));
                }
            }
        }
        for (k, &t) in stores.iter().enumerate() {
            rebind(renames, t, bound[outputs.len() + k]);
        }
        out
    }

    /// The body of the function a region becomes: a parameter for each input, the region's
    /// own statements with fresh variables (the function has names of its own; the region
    /// is replaced by a call, so its statements move rather than being copied), then a
    /// return of the results. Returns the parameters, the body and the result types.
    /// `defined` is how many variables the body defines (the map of fresh variables is
    /// sized for them and the inputs, not grown from empty).
    fn function_body(
        &mut self,
        inputs: &[VarId],
        body: Block,
        defined: usize,
        results: &[VarId],
        loc: Loc,
    ) -> (Vec<VarId>, Block, Vec<TypeId>) {
        let mut map = std::mem::take(&mut self.s.fresh);
        dataflow::empty_map(&mut map);
        map.reserve(inputs.len() + defined);
        let mut params = Vec::with_capacity(inputs.len());
        for &v in inputs {
            let pv = self.program.copy_var(v);
            map.insert(v, pv);
            params.push(pv);
        }
        let mut fresh = FreshVars { program: self.program, map };
        visit::freshen_block(&mut fresh, &body);
        let mut new_body = body;
        let map = fresh.map;
        let mut returned = Vec::with_capacity(results.len());
        let mut return_types = Vec::with_capacity(results.len());
        for &v in results {
            let inner = map.get(&v).copied().unwrap_or(v);
            let ty = self.program.var(inner).ty;
            returned.push(self.program.new_expr(ExprKind::Var(inner), ty, loc));
            return_types.push(ty);
        }
        self.s.fresh = map;
        if !returned.is_empty() {
            let r = self.program.new_stmt(StmtKind::Return(returned), loc);
            new_body.push(r);
        }
        (params, new_body, return_types)
    }

    /// Whether a variable holds a scalar a task would have to return (a task id is the
    /// launch's own result, not a returned value).
    fn is_value_scalar(&self, v: VarId) -> bool {
        matches!(self.program.types.get(self.program.var(v).ty), Type::Scalar(d) if *d != DType::TaskId)
    }

    /// The top-level assignments of `body` that compute `scalars` (and what they need)
    /// from literals, scalar arithmetic and values the caller has, in body order; or the
    /// first scalar that only the device can compute.
    fn plan_scalar_hoist(&self, body: &[StmtId], scalars: &[VarId]) -> Result<Vec<StmtId>, VarId> {
        let p = &*self.program;
        let outside: FxHashSet<VarId> = dataflow::live_in(p, body).into_iter().collect();
        let mut candidates: FxHashMap<VarId, StmtId> = FxHashMap::default();
        for &s in body {
            let StmtKind::Assign { var, value } = p.stmt(s).kind else { continue };
            if !matches!(p.types.get(p.var(var).ty), Type::Scalar(_)) {
                continue;
            }
            if caller_computable(p, value, |v| outside.contains(&v) || candidates.contains_key(&v)) {
                candidates.insert(var, s);
            }
        }
        let mut needed: FxHashSet<StmtId> = FxHashSet::default();
        let mut work: Vec<VarId> = scalars.to_vec();
        while let Some(v) = work.pop() {
            let Some(&s) = candidates.get(&v) else { return Err(v) };
            if needed.insert(s) {
                if let StmtKind::Assign { value, .. } = p.stmt(s).kind {
                    visit::expr_reads(p, value, |u| {
                        if candidates.contains_key(&u) {
                            work.push(u);
                        }
                    });
                }
            }
        }
        Ok(body.iter().copied().filter(|s| needed.contains(s)).collect())
    }

    /// Reports `e`, with the region (`region`, at `loc` unless the compiler made it) as a
    /// secondary label: the one way an outlined region's errors are written.
    fn region_error(&mut self, e: RegionError, region: Symbol, loc: Loc) {
        let rname = self.names.get(region).to_string();
        let (code, at, label, message, help) = match e {
            RegionError::ScalarLeavesDevice(v) => {
                let vname = self.source_name(v);
                let message = format!(
                    "region `{rname}` computes scalar `{vname}` from device-side data and the code after it reads `{vname}`, so the kernel would have to return a scalar"
                );
                let help = format!(
                    "a device kernel cannot return a scalar: write the value into a [1] tensor output and read it back after the region with pl.tensor.read(t, [0]), or compute `{vname}` before the region"
                );
                (Code::E0410, self.program.var(v).loc, "computed on the device", message, help)
            }
            RegionError::NoDepNotCaptured { tensor, entry } => {
                let tname = self.source_name(tensor);
                let message = format!(
                    "no_dep_args=[...] of region `{rname}` names tensor `{tname}`, which the region does not use"
                );
                let help = "list only tensors the region reads or writes, or remove the entry".to_string();
                (Code::E0411, entry, "not captured by the region", message, help)
            }
        };
        let mut d = Diagnostic::error(code, message, Label::primary(at.file, at.span, label)).with_help(help);
        if !loc.is_compiler_made() {
            d = d.with_label(Label::secondary(loc.file, loc.span, "the region"));
        }
        self.diags.push(d);
    }

    /// The name `v` was written with (`acc` for `acc__ssa_v3`).
    fn source_name(&self, v: VarId) -> String {
        self.names.get(self.program.var(v).source).to_string()
    }

    /// The items of a tuple-valued option (`no_dep_args=[a, b]`), or the one value.
    fn option_items(&self, v: ExprId) -> Vec<ExprId> {
        match &self.program.expr(v).kind {
            ExprKind::Tuple(items) => items.to_vec(),
            _ => vec![v],
        }
    }

    /// What the region's options become: launch options on the call (`deps=`, `as tid`
    /// make it a task launch), `no_dep_args=` as `pl.no_dep` arguments, and
    /// `optimizations=` / `windowize=` as attributes of the new function.
    fn region_options(
        &mut self,
        fname: Symbol,
        kind: &ScopeKind,
        attrs: &[(Symbol, ExprId)],
        inputs: &[VarId],
        loc: Loc,
    ) -> RegionOptions {
        let mut o = RegionOptions::default();
        let mut no_dep: Vec<usize> = Vec::new();
        if let ScopeKind::Spmd { core_num } = kind {
            o.call.make_mut().launch.core_num = Some(*core_num);
        }
        for &(k, v) in attrs {
            let key = self.names.get(k).to_string();
            match key.as_str() {
                "deps" | "allow_early_resolve" | "predicate" | "dumps" | "sync_start" => {
                    // A dependency or a predicate needs a task of its own, with an id.
                    o.submit |= matches!(key.as_str(), "deps" | "allow_early_resolve" | "predicate");
                    *o.call.make_mut().launch.slot_mut(&key).expect("a launch keyword") = Some(v);
                }
                "windowize" => o.function.push((k, v)),
                "optimizations" => {
                    for item in self.option_items(v) {
                        if let ExprKind::Call { callee: Callee::Op(op), args, .. } = &self.program.expr(item).kind {
                            let key = match op {
                                Op::OptimizationSplit => "split",
                                Op::OptimizationCrossCoreSlot => "slot_num",
                                _ => continue,
                            };
                            if let Some(Some(a)) = args.first() {
                                o.function.push((self.names.intern(key), *a));
                            }
                        }
                    }
                }
                "no_dep_args" => {
                    for item in self.option_items(v) {
                        let ExprKind::Var(t) = self.program.expr(item).kind else { continue };
                        match inputs.iter().position(|&i| i == t) {
                            Some(i) => no_dep.push(i),
                            None => {
                                let entry =
                                    RegionError::NoDepNotCaptured { tensor: t, entry: self.program.expr(item).loc };
                                self.region_error(entry, fname, loc);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if !no_dep.is_empty() {
            no_dep.sort_unstable();
            no_dep.dedup();
            o.call.make_mut().no_dep = Some(no_dep.into_boxed_slice());
        }
        o
    }

    /// The walk of a region's body that finds its inputs and definitions and gathers what
    /// it does with its variables ([`Outliner::inputs_and_accesses`]).
    fn walk(&mut self, body: &[StmtId]) {
        let Scratch { live, uses, .. } = &mut *self.s;
        uses.clear();
        live.run(self.program, body, uses);
    }

    /// After [`Outliner::walk`]: a region's inputs (`dataflow::live_in`) and what it does with them, in one walk of
    /// its expressions: the direction of each input (written, by an op's written argument
    /// or as the argument of a called function's Out/InOut parameter, makes it Out, or
    /// InOut when it is also read; otherwise In; a stored tensor is written, so at least
    /// Out), and the inputs the region stores into (`dataflow::stores_in`), in first-write
    /// order. The walk numbers the variables it meets and counts the mentions and writes
    /// of each by its number (the inputs are known only at its end); they are added up per
    /// input afterwards.
    fn inputs_and_accesses(&mut self) -> (Vec<VarId>, Accesses) {
        let p = &*self.program;
        let Scratch { live, uses, input_of, sums, .. } = &mut *self.s;
        let inputs = live.order.clone();
        // Every variable the walk met has a number (`None` is not expected).
        let numbers = &live.numbers;
        input_of.clear();
        input_of.resize(numbers.facts.len(), NOT_INPUT);
        for (i, &v) in inputs.iter().enumerate() {
            if let Some(n) = numbers.get(v) {
                input_of[n] = i as u32;
            }
        }
        let input = |input_of: &[u32], v: VarId| numbers.get(v).map_or(NOT_INPUT, |n| input_of[n]);
        // The inputs stored into, before the loop carries below count as inputs too.
        let stores: Vec<VarId> = uses.stores.iter().copied().filter(|&v| input(input_of, v) != NOT_INPUT).collect();
        // A loop carry that starts as an input is that input: a write through it (a kernel
        // called with the carried tensor) writes the input. Outer loops come first.
        for &(var, init) in &uses.carries {
            if let ExprKind::Var(v) = p.expr(init).kind {
                let i = input(input_of, v);
                if let (true, Some(n)) = (i != NOT_INPUT, numbers.get(var)) {
                    input_of[n] = i;
                }
            }
        }
        // An input is read where it is mentioned other than as a written argument: per
        // input, its mentions, those as an argument only written, and whether any writes it.
        sums.clear();
        sums.resize(inputs.len(), (0, 0, false));
        for (n, &i) in input_of.iter().enumerate() {
            if i != NOT_INPUT {
                let facts = &numbers.facts[n];
                let (mentions, written_only, written) = &mut sums[i as usize];
                *mentions += facts.reads;
                *written_only += facts.written_only;
                *written |= facts.written;
            }
        }
        // A store's target is its op's written argument, counted above.
        let dirs = sums
            .iter()
            .map(|&(mentions, written_only, written)| match (mentions > written_only, written) {
                (_, false) => Direction::In,
                (false, true) => Direction::Out,
                (true, true) => Direction::InOut,
            })
            .collect();
        (inputs, Accesses { dirs, stores })
    }
}

/// What a region does with its variables besides reading them, gathered in the walk that
/// finds its inputs ([`Outliner::inputs_and_accesses`]; the writes are counted in each
/// variable's `dataflow::Facts`).
#[derive(Default)]
struct RegionUses {
    /// Each loop's iter args with their initial values, outer loops first.
    carries: Vec<(VarId, ExprId)>,
    /// The variables stored into, in first-write order.
    stores: Vec<VarId>,
    /// On a run of [`super::fused`]: the functions outside the run's program, where a
    /// callee the run's program does not hold is looked up ([`super::PassCx::outside`]).
    outside: Option<Arc<Functions>>,
    /// On such a run: a region called a function neither holds.
    missed: bool,
}

impl RegionUses {
    fn clear(&mut self) {
        self.carries.clear();
        self.stores.clear();
    }
}

impl dataflow::Seen for RegionUses {
    #[inline]
    fn node(&mut self, p: &Program, e: ExprId, numbers: &mut dataflow::Numbering) {
        let ExprKind::Call { callee, args, .. } = &p.expr(e).kind else { return };
        dataflow::stores_in(p, e, |v| {
            let n = numbers.number(v);
            let facts = &mut numbers.facts[n];
            if !facts.stored {
                facts.stored = true;
                self.stores.push(v);
            }
        });
        for (k, a) in args.iter().enumerate() {
            let Some(ExprKind::Var(v)) = a.map(|a| &p.expr(a).kind) else { continue };
            let effect = match callee {
                Callee::Op(op) => op.def().effect(k),
                Callee::Func(f) | Callee::Submit(f) => {
                    let callee = match (p.functions.get(f), &self.outside) {
                        (None, Some(outside)) => {
                            let g = outside.get(f);
                            self.missed |= g.is_none();
                            g
                        }
                        (g, _) => g,
                    };
                    match callee.and_then(|g| g.params.get(k)) {
                        Some(param) if param.dir == Direction::Out => Effect::Write,
                        Some(param) if param.dir == Direction::InOut => Effect::ReadWrite,
                        _ => Effect::Read,
                    }
                }
            };
            if effect == Effect::Read {
                continue;
            }
            let n = numbers.number(*v);
            let facts = &mut numbers.facts[n];
            facts.written = true;
            if effect == Effect::Write {
                facts.written_only += 1;
            }
        }
    }

    fn carry(&mut self, var: VarId, init: ExprId) {
        self.carries.push((var, init));
    }
}

/// What a region does with its inputs and the tensors it stores into ([`Outliner::accesses`]).
struct Accesses {
    /// The direction of each input, in the inputs' order.
    dirs: Vec<Direction>,
    /// Every input the region stores into, in first-write order.
    stores: Vec<VarId>,
}

/// An error in a region being outlined, at the variable or the option entry it is about.
enum RegionError {
    /// E0410: the region computes scalar `v` from device-side data and the code after it
    /// reads `v`.
    ScalarLeavesDevice(VarId),
    /// E0411: a `no_dep_args=` entry names a tensor the region does not use.
    NoDepNotCaptured { tensor: VarId, entry: Loc },
}

/// What a region's options become.
#[derive(Default)]
struct RegionOptions {
    /// Attributes of the call (launch options, `no_dep`).
    call: CallAttrs,
    /// Attributes of the new function (`split`, `slot_num`, `windowize`).
    function: Vec<(Symbol, ExprId)>,
    /// Whether the call is a task launch that yields a task id.
    submit: bool,
}

/// Whether the caller can compute `e`: literals, scalar arithmetic and variables it has.
fn caller_computable(p: &Program, e: ExprId, has: impl Fn(VarId) -> bool) -> bool {
    visit::all_exprs(p, e, |x| match &p.expr(x).kind {
        ExprKind::Var(v) => has(*v),
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::DynDim(_) => true,
        ExprKind::Binary { .. } | ExprKind::Unary { .. } => true,
        _ => false,
    })
}

/// Whether the function at `at` has a region of `target`'s kind to outline: false when it has none (one
/// scan of the body) or when its type is not one the pass outlines (`outlinable`), which
/// is E0412 at the first such region.
pub fn check_outlinable(
    cx: &mut super::PassCx<'_>,
    program: &Program,
    at: usize,
    target: &Target,
    outlinable: bool,
    pass: &str,
) -> bool {
    let f = &program.functions[at];
    let func = f.name;
    // The regions a kernel keeps (`kernel_spmd_regions`), found in the same walk: a
    // statement comes before those nested in it, so an Spmd region is seen before the
    // core-group regions directly inside it.
    let kernel = matches!(f.decl.kind, FuncKind::InCore | FuncKind::Aic | FuncKind::Aiv);
    let mut kept: FxHashSet<StmtId> = FxHashSet::default();
    let mut first = None;
    visit::any_stmt(program, &f.body, |s| {
        let StmtKind::Scope(scope) = &program.stmt(s).kind else { return false };
        let spmd = kernel && matches!(scope.kind, ScopeKind::Spmd { .. });
        if spmd {
            kept.extend(scope.body.iter().copied().filter(|&inner| is_core_group_scope(program, inner)));
        }
        if spmd || !(target.matches)(&scope.kind) || kept.contains(&s) {
            return false;
        }
        first = Some((s, scope.kind.construct()));
        true
    });
    let Some((s, construct)) = first else { return false };
    if outlinable {
        return true;
    }
    let loc = program.stmt(s).loc;
    let fname = cx.names.get(func).to_string();
    cx.diags.push(
        Diagnostic::error(
            Code::E0412,
            format!(
                "a `{construct}` region survives in function `{fname}` (type {}), which {pass} does not outline",
                f.decl.kind
            ),
            Label::primary(loc.file, loc.span, "not outlined"),
        )
        .with_help("move the region into an orchestration function (Opaque, Orchestration or Graph)".to_string()),
    );
    false
}

/// The regions a kernel (an InCore, AIC or AIV function) keeps in place: each
/// `pl.spmd(n)` region and the core-group region directly inside one (the body of
/// `for i in pl.spmd(n):`). PyPTO's parser accepts them and its outlining passes skip
/// kernels, so they are neither outlined nor E0412; the interpreter runs such a region's
/// body once per block.
pub fn kernel_spmd_regions(program: &Program, f: &crate::ir::Function) -> FxHashSet<StmtId> {
    let mut kept = FxHashSet::default();
    if !matches!(f.decl.kind, FuncKind::InCore | FuncKind::Aic | FuncKind::Aiv) {
        return kept;
    }
    visit::walk_stmts(program, &f.body, |s| {
        let StmtKind::Scope(scope) = &program.stmt(s).kind else { return };
        if !matches!(scope.kind, ScopeKind::Spmd { .. }) {
            return;
        }
        kept.insert(s);
        kept.extend(scope.body.iter().copied().filter(|&inner| is_core_group_scope(program, inner)));
    });
    kept
}

/// Whether `s` is a core-group region (`pl.at(level=CORE_GROUP)`).
fn is_core_group_scope(program: &Program, s: StmtId) -> bool {
    matches!(&program.stmt(s).kind, StmtKind::Scope(sc) if matches!(sc.kind, ScopeKind::InCore))
}

/// The loop every outlining pass runs: outlines `target`'s regions from each function at
/// the positions `functions` (see [`positions`]), in that order, that `check` (given a
/// function's position) lets through (it reports why it does not), then moves the new
/// functions just before the function each came from. Returns the new functions, in the
/// order they were made, and where each function ended up: the new position of the
/// function that was at position `e` before (`e` below the number of functions before the
/// call) or of the `j`-th function made (`e` that number plus `j`), empty when no function
/// was made (none moved; see [`placed_at`]). Functions are addressed by position, not
/// looked up by name: the positions stay while the pass appends the new functions.
pub fn outline_functions(
    cx: &mut super::PassCx<'_>,
    program: &mut Program,
    functions: Vec<usize>,
    target: &Target,
    reserved: &mut Reserved,
    mut check: impl FnMut(&mut super::PassCx<'_>, &Program, usize) -> bool,
) -> (Vec<Made>, Vec<u32>) {
    let before = program.functions.len();
    let mut made = Vec::new();
    // The position of each new function's parent.
    let mut parents = Vec::new();
    let mut scratch = SCRATCH.take().unwrap_or_default();
    (scratch.uses.outside, scratch.uses.missed) = (cx.outside.clone(), false);
    // The pages the new nodes go into, faulted in by a pool thread (idle meanwhile; not on
    // a fused run, whose pool threads are all busy and whose buffers are reused).
    let mut ahead = cx.outside.is_none().then(crate::ir::prefault::Ahead::default);
    for at in functions {
        if let Some(ahead) = &mut ahead {
            ahead.keep_up(program);
        }
        if check(cx, program, at) {
            outline_function(program, cx.names, cx.diags, at, target, reserved, &mut made, &mut scratch);
            parents.resize(made.len(), at);
        }
    }
    if cx.outside.is_some() {
        cx.chosen.extend(made.iter().map(|m| m.name));
        cx.missed |= scratch.uses.missed;
    }
    scratch.uses.outside = None;
    SCRATCH.set(Some(scratch));
    let placed = insert_before_parents(program, before, &parents);
    (made, placed)
}

/// Where the function at position `e` before a pass ended up, by the `placed` that
/// [`outline_functions`] gave.
pub fn placed_at(placed: &[u32], e: usize) -> usize {
    placed.get(e).map_or(e, |&p| p as usize)
}

/// Moves the functions outlined in a pass, the entries from `before` on (`parents[j]` is
/// the position of entry `before + j`'s parent), just before the function each came from, in the
/// order they were made, keeping the order of the others. In place: the final positions
/// are filled in order, each by swapping in the entry it takes (one swap per misplaced
/// entry), not by moving every entry into a new map, whose fresh pages would all be
/// faulted in. Filling the positions in order keeps the swaps within two runs of the
/// entries that move forward together (following the permutation's cycles instead would
/// jump across the whole map at each swap). Returns the new position of each entry (by
/// its position before), or nothing when no entry moved.
fn insert_before_parents(program: &mut Program, before: usize, parents: &[usize]) -> Vec<u32> {
    if parents.is_empty() {
        return Vec::new();
    }
    let functions = &mut program.functions;
    let total = functions.len();
    debug_assert_eq!(total, before + parents.len());
    // The new entries by their parent's position (a stable sort keeps the order they were
    // made in; it is linear when the parents come in program order, as they usually do).
    let mut by_parent: Vec<(usize, usize)> =
        parents.iter().enumerate().map(|(j, &parent)| (parent, before + j)).collect();
    by_parent.sort_by_key(|&(parent, _)| parent);
    // `at[k]`: the entry now at position `k`; `position[e]`: where entry `e` now is.
    let mut at: Vec<u32> = (0..total as u32).collect();
    let mut position: Vec<u32> = at.clone();
    let mut k = 0;
    let mut place = |e: usize| {
        let from = position[e] as usize;
        if from != k {
            functions.swap_indices(k, from);
            let displaced = at[k];
            at[from] = displaced;
            position[displaced as usize] = from as u32;
            at[k] = e as u32;
            position[e] = k as u32;
        }
        k += 1;
    };
    let mut next = by_parent.iter().peekable();
    for i in 0..before {
        while let Some(&(_, new)) = next.next_if(|&&(parent, _)| parent == i) {
            place(new);
        }
        place(i);
    }
    position
}
