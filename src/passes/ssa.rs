//! ConvertToSSA: every definition gets a variable of its own.
//!
//! Before this pass a source name is one variable (the *key*) for all its assignments in a
//! function; afterwards each assignment, parameter, loop variable, iter arg, return
//! variable and task id defines a fresh variable named `base__role_vN`
//! (`x__ssa_v0`, `acc__iter_v1`, `acc__rv_v2`, `t__phi_v4`, `i__idx_v0`). Values that flow
//! around a loop become iter args with a trailing yield and return variables; an `if` that
//! changes a value in a branch gets phis (return variables bound to both branches'
//! yields); scopes are transparent. See `docs/passes.md` (ConvertToSSA) for the details
//! and the reference's behaviour this follows.
//!
//! Cost: one backward liveness walk per function (which also records, for each loop, the
//! keys its body assigns and which of them are read after it), then one forward walk. The
//! current version of each key lives in one map with an undo trail, so an `if` or a loop
//! restores the state before it by popping what its body changed, never by copying the map.

use super::PassCx;
use crate::diag::{Code, Diagnostic, Label};
use crate::ir::names::{versioned_name, Role, Version, Versioned};
use crate::ir::ops::{Op, Param};
use crate::ir::visit::{self, Rewriter};
use crate::ir::Type;
use crate::ir::{
    Block, CallAttrs, Callee, DType, Dim, Direction, EnumValue, ExprId, ExprKind, ForStmt, Function, IfStmt, IterArg,
    Loc, Program, Scope, ScopeKind, StmtId, StmtKind, TypeId, Types, VarId, WhileStmt,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Runs the pass over every function of the program, in order; on a large program, runs
/// of consecutive functions in parallel, each on a fork of the program's arenas
/// (`ir::fork`), joined in order: the same program, ids and names as the serial run.
pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let dyn_dims: Vec<_> = program.dynamic_dims.clone();
    let threads = rayon::current_num_threads();
    if threads >= 2 && program.functions.len() >= PARALLEL_MIN_FUNCTIONS {
        return run_forked(cx, program, &dyn_dims, threads);
    }
    let mut scratch = Scratch::default();
    for i in 0..program.functions.len() {
        let slot = program.functions.get_index_mut(i).expect("in range").1;
        let mut f = std::mem::replace(slot, placeholder(slot.name));
        convert_function(cx, program, &mut f, &dyn_dims, &mut scratch);
        *program.functions.get_index_mut(i).expect("in range").1 = f;
    }
}

/// What stands in a function's place while it is converted.
fn placeholder(name: crate::intern::Symbol) -> Function {
    Function {
        name,
        loc: Loc::COMPILER,
        decl: crate::ir::FuncDecl::new(crate::ir::FuncKind::Opaque, None, None),
        params: Vec::new(),
        returns: Vec::new(),
        body: Vec::new(),
    }
}

/// The conversion of runs of consecutive functions in parallel (the conversion of one
/// function reads no other function): each run converts its functions in order on a fork of
/// the program (`ir::fork`), with its own interner and diagnostics; the runs are handed to
/// the threads in order, and each is joined as soon as the runs before it are, by the thread
/// that finished it ([`Ordered`](crate::ir::fork::Ordered)): its names and types interned in
/// order, its nodes moved into their places after the program's, so the result is the
/// serial run's. A thread keeps its scratch from run to run.
fn run_forked(cx: &mut PassCx<'_>, program: &mut Program, dyn_dims: &[crate::intern::Symbol], threads: usize) {
    let funcs: Vec<Function> =
        program.functions.values_mut().map(|f| std::mem::replace(f, placeholder(f.name))).collect();
    let sizing = Sizing {
        functions: funcs.len(),
        room: (room_percent(), room_percent(), room_percent()),
        share: (100, 100, 100),
        mapped: None,
    };
    let runs = in_runs(funcs, threads);
    let (joins, diags) =
        forked_runs((cx.names, cx.check_only), program, runs, |fs| fs, dyn_dims, &sizing, |_, _, _, diags| diags);
    let converted = joins.finish(program, cx.names);
    for (slot, f) in program.functions.values_mut().zip(converted.into_iter().flatten()) {
        *slot = f;
    }
    cx.diags.extend(diags.into_iter().flatten());
}

/// How [`forked_runs`] sizes the room for the runs' nodes.
pub(crate) struct Sizing {
    /// The program's functions.
    pub functions: usize,
    /// The room reserved after the program's variables, expressions and statements, in
    /// percent of each: what the runs make in all.
    pub room: (usize, usize, usize),
    /// What a run reserves for its own nodes of each kind, in percent of its share of the
    /// program's.
    pub share: (usize, usize, usize),
    /// Whether the runs' functions are put in a map by name as the runs are joined
    /// ([`Ordered::mapping`](crate::ir::fork::Ordered::mapping)), and about how many
    /// functions the runs make then.
    pub mapped: Option<usize>,
}

/// `funcs` cut into runs of consecutive functions: about [`RUNS_PER_THREAD`] per thread
/// for `threads`, of [`RUN_MIN`] to [`RUN_MAX`] functions.
pub(crate) fn in_runs<T>(funcs: impl IntoIterator<Item = T>, threads: usize) -> Vec<Vec<T>> {
    let mut funcs = funcs.into_iter().peekable();
    let total = funcs.size_hint().0;
    let run = total.div_ceil(threads * RUNS_PER_THREAD).clamp(RUN_MIN, RUN_MAX);
    let mut runs = Vec::with_capacity(total.div_ceil(run));
    while funcs.peek().is_some() {
        runs.push(funcs.by_ref().take(run).collect());
    }
    runs
}

/// [`run_forked`]'s runs (`runs`, each made the run's functions by `take`: the program's
/// functions, in order, the program's map left with others in their places): each run's
/// functions converted, then `then` given the run's interner, program (without
/// functions), functions and diagnostics, before the run is joined
/// ([`fused`](super::fused) outlines them there). `names` is the session's interner,
/// forked meanwhile. Returns the fork, for the caller to finish or abandon, and `then`'s
/// result for each run, in order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn forked_runs<T: Send, R: Send>(
    (names, check_only): (&mut crate::intern::Interner, bool),
    program: &mut Program,
    runs: Vec<T>,
    take: impl Fn(T) -> Vec<Function> + Sync,
    dyn_dims: &[crate::intern::Symbol],
    sizing: &Sizing,
    then: impl Fn(&mut crate::intern::Interner, &mut Program, &mut Vec<Function>, Vec<Diagnostic>) -> R + Sync,
) -> (crate::ir::fork::Ordered, Vec<R>) {
    use crate::ir::fork::{self, Fork, Part};
    let (total, room, share_percent) = (sizing.functions.max(1), sizing.room, sizing.share);
    let base_types = program.types.len();
    let sizes = (program.vars.len(), program.exprs.len(), program.stmts.len());
    let room = (sizes.0 * room.0 / 100, sizes.1 * room.1 / 100, sizes.2 * room.2 / 100);
    let joins = Fork::with_room(program, names, room).ordered(runs.len());
    let joins = match sizing.mapped {
        Some(expected) => joins.mapping(expected),
        None => joins,
    };
    let results = fork::in_order(runs, Scratch::default, |scratch, k, run| {
        let mut functions = take(run);
        let (mut p, mut names, mut diags) = (joins.program(), joins.names(), Vec::new());
        // The run's arenas sized once, for about its share of the base's nodes (a no-op on
        // the buffers of an earlier run, which are large enough already).
        let share = |base: usize, percent: usize| base / total * functions.len() * percent / 100;
        p.vars.reserve(share(sizes.0, share_percent.0));
        p.exprs.reserve(share(sizes.1, share_percent.1));
        p.stmts.reserve(share(sizes.2, share_percent.2));
        // Type ids past the base's are the run's own: what the scratch knows of them was
        // of another run's types.
        scratch.plain.truncate(base_types);
        let mut cx = PassCx::new(&mut names, &mut diags, check_only);
        for f in functions.iter_mut() {
            convert_function(&mut cx, &mut p, f, dyn_dims, scratch);
        }
        let out = then(&mut names, &mut p, &mut functions, diags);
        joins.done(k, Part { program: p, names, functions });
        out
    });
    (joins, results)
}

/// About this many runs per thread (so that the last run's join, left after the last run,
/// is small, and a run's new nodes are still in the cache when they are moved), of
/// [`RUN_MIN`] to [`RUN_MAX`] functions (each run costs an interner and a type table, in
/// which it interns again the names and types an earlier run made).
const RUNS_PER_THREAD: usize = 16;
const RUN_MIN: usize = 8;
const RUN_MAX: usize = 128;

/// The room reserved after the program's nodes for the runs' nodes, in percent of the
/// program's nodes of each kind: the conversion makes every statement again, a variable per
/// definition and about half as many expressions (gen's functions: 100 %, 45 % and 100 %).
/// Room not used is address space, never touched; nodes beyond it are moved after the last
/// run.
const ROOM_PERCENT: usize = 150;

#[cfg(not(test))]
pub(crate) fn room_percent() -> usize {
    ROOM_PERCENT
}

/// [`ROOM_PERCENT`], or what a test set (the result is the same with any room).
#[cfg(test)]
pub(crate) fn room_percent() -> usize {
    match forked::ROOM.load(std::sync::atomic::Ordering::Relaxed) {
        0 => ROOM_PERCENT,
        n => n - 1,
    }
}

/// The maps and buffers of one function's conversion, kept (emptied) for the next function,
/// so that each function does not grow its own from empty. Only looked up, never iterated
/// in an order that depends on their capacity (`cur` only for a minimum).
#[derive(Default)]
struct Scratch {
    /// Key → its current SSA variable.
    cur: FxHashMap<VarId, VarId>,
    /// Every change of `cur`, with the value it replaced, so that a construct can undo what
    /// its body did.
    trail: Vec<(VarId, Option<VarId>)>,
    /// Name prefixes (`base__` or `base__qual_`): each a range of `prefix_text`, with its
    /// next version and the previous prefix of the same hash (`NO_PREFIX` for none).
    prefixes: Vec<Prefix>,
    prefix_text: String,
    /// The hash of a prefix's text → the last prefix with that hash (the others chained
    /// through [`Prefix::prev`]): found without a `String` per prefix.
    prefix_index: FxHashMap<u64, u32>,
    prefix_of: FxHashMap<VarId, u32>,
    /// The buffer new names are composed in.
    text: String,
    /// Names given in this function (and `pl.dynamic` names): never given twice.
    used: FxHashSet<crate::intern::Symbol>,
    gone: FxHashMap<VarId, Gone>,
    reported: FxHashSet<VarId>,
    /// The keys of the parameters with their directions, in declaration order.
    params: Vec<(VarId, Direction)>,
    /// By type id: whether the type is known to name no variable (its substitution is
    /// itself). Types are only added to a program, so an answer stays true.
    plain: Vec<bool>,
    /// The liveness walk's maps and sets, kept from function to function.
    live: Liveness,
}

/// A name prefix of [`Scratch::prefixes`].
struct Prefix {
    start: u32,
    end: u32,
    next: u32,
    prev: u32,
}

const NO_PREFIX: u32 = u32::MAX;

impl Scratch {
    /// Empties every map and list, keeping their capacity (`text` is cleared where a name
    /// is composed).
    fn clear(&mut self) {
        self.cur.clear();
        self.trail.clear();
        self.prefixes.clear();
        self.prefix_text.clear();
        self.prefix_index.clear();
        self.prefix_of.clear();
        self.used.clear();
        self.gone.clear();
        self.reported.clear();
        self.params.clear();
        self.live.loops.clear();
        self.live.keys.clear();
    }
}

/// Below this many functions the liveness walks run on the calling thread.
pub(crate) const PARALLEL_MIN_FUNCTIONS: usize = 256;

fn convert_function(
    cx: &mut PassCx<'_>,
    program: &mut Program,
    f: &mut Function,
    dyn_dims: &[crate::intern::Symbol],
    scratch: &mut Scratch,
) {
    let mut st = std::mem::take(scratch);
    st.live.function(program, &f.body);
    st.used.extend(dyn_dims.iter().copied());
    st.params.extend(f.params.iter().map(|p| (p.var, p.dir)));
    let mut ssa = Ssa { p: program, cx, floc: f.loc, st };
    let mut renamed = Vec::with_capacity(f.params.len());
    for p in &mut f.params {
        let ty = ssa.subst_ty(ssa.p.var(p.var).ty);
        let loc = ssa.p.var(p.var).loc;
        let v = ssa.fresh(p.var, Role::Ssa, ty, loc);
        ssa.bind(p.var, v);
        renamed.push((p.var, v));
        p.var = v;
    }
    // A `pl.func_attr({"stationary": w})` value naming a parameter names its new version.
    if !f.decl.extra.is_empty() {
        let values = f.decl.extra.iter().map(|&(_, v)| v).collect();
        crate::ir::visit::rename_reads_in(ssa.p, values, |v| renamed.iter().find(|r| r.0 == v).map(|r| r.1));
    }
    f.returns = f.returns.iter().map(|&t| ssa.subst_ty(t)).collect();
    let body = std::mem::take(&mut f.body);
    f.body = ssa.block(&body);
    let mut st = ssa.st;
    st.clear();
    *scratch = st;
}

// ---------------------------------------------------------------- liveness

/// What the forward walk needs to know about a loop before it converts the body.
#[derive(Clone, Copy, Default)]
struct LoopInfo {
    /// The keys the body defines (assignments, nested return variables, task ids), sorted
    /// by id; not the loop's own variable, iter args or return variables. A range of
    /// [`Liveness::keys`].
    assigned: (u32, u32),
    /// Those of `assigned` that are read after the loop before being assigned again.
    live_after: (u32, u32),
}

/// A backward walk computing, at each loop, which keys are live after it. What is live after
/// a nested block's end is what is live after its statement (a loop body's end is
/// approximated the same way), so the keys read after an enclosing statement count too,
/// except across a region that is outlined later (`pl.at`, `pl.cluster`, `pl.spmd`,
/// `pl.graph`): inside one, only what is read later inside it counts.
///
/// Made once per thread and kept from function to function: its map, lists and sets are
/// emptied, not dropped, so that each function does not allocate and grow its own.
///
/// A read matters only to a loop before it (in the order of the source) that does not
/// hold it: what a loop's body reads is live before the loop, not after it. The walk
/// meets the loops backwards, so once it has entered all of them (`unentered` is 0), no
/// loop is left that a read could be live after, and the reads are not walked (for
/// gen's functions, all but the `return` after the loop).
#[derive(Default)]
struct Liveness {
    /// The loops of the function the walk has not entered yet.
    unentered: usize,
    defs: Vec<VarId>,
    loops: FxHashMap<StmtId, LoopInfo>,
    /// The keys of every loop's [`LoopInfo`], one range each.
    keys: Vec<VarId>,
    /// Emptied sets for the walk's copies of the live set.
    pool: Vec<FxHashSet<VarId>>,
}

/// A set kept in [`Liveness::pool`] at most this large (a larger one is dropped, so that
/// emptying it does not cost the later small functions its size).
const POOLED_SET_MAX: usize = 1024;

impl Liveness {
    /// The loops of the function whose body is `body` (in [`Self::loops`]).
    fn function(&mut self, p: &Program, body: &[StmtId]) {
        self.defs.clear();
        self.unentered = 0;
        visit::walk_stmts(p, body, |s| {
            if matches!(p.stmt(s).kind, StmtKind::For { .. } | StmtKind::While { .. }) {
                self.unentered += 1;
            }
        });
        if self.unentered == 0 {
            return;
        }
        let mut live = self.set();
        self.block(p, body, &mut live);
        self.put(live);
    }

    fn set(&mut self) -> FxHashSet<VarId> {
        self.pool.pop().unwrap_or_default()
    }

    fn put(&mut self, mut set: FxHashSet<VarId>) {
        if set.capacity() <= POOLED_SET_MAX {
            set.clear();
            self.pool.push(set);
        }
    }

    /// A copy of `live` in a pooled set.
    fn copy(&mut self, live: &FxHashSet<VarId>) -> FxHashSet<VarId> {
        let mut set = self.set();
        set.clone_from(live);
        set
    }

    /// The keys of a range of [`Self::keys`].
    fn keys(&self, (start, end): (u32, u32)) -> &[VarId] {
        &self.keys[start as usize..end as usize]
    }

    fn block(&mut self, p: &Program, block: &[StmtId], live: &mut FxHashSet<VarId>) {
        for &s in block.iter().rev() {
            self.stmt(p, s, live);
        }
    }

    /// Adds the variables `root` reads to `live`, while a loop is left that they may be
    /// live after.
    fn reads(&self, p: &Program, root: ExprId, live: &mut FxHashSet<VarId>) {
        if self.unentered == 0 {
            return;
        }
        visit::expr_reads(p, root, |v| {
            live.insert(v);
        });
    }

    fn stmt(&mut self, p: &Program, s: StmtId, live: &mut FxHashSet<VarId>) {
        match &p.stmt(s).kind {
            StmtKind::Assign { var, value } => {
                live.remove(var);
                self.defs.push(*var);
                self.reads(p, *value, live);
            }
            StmtKind::Eval(e) => self.reads(p, *e, live),
            StmtKind::Return(values) | StmtKind::Yield(values) => values.iter().for_each(|&e| self.reads(p, e, live)),
            StmtKind::Break | StmtKind::Continue => {}
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
                for v in return_vars {
                    live.remove(v);
                }
                let mut other = self.copy(live);
                self.block(p, then_body, live);
                if let Some(b) = else_body {
                    self.block(p, b, &mut other);
                }
                live.extend(other.iter().copied());
                self.put(other);
                self.reads(p, *cond, live);
                self.defs.extend(return_vars.iter().copied());
            }
            StmtKind::For(for_) => {
                let ForStmt { var, start, stop, step, iter_args, body, return_vars, attrs, .. } = &**for_;
                for v in return_vars {
                    live.remove(v);
                }
                self.loop_body(p, s, body, live, Some(*var), iter_args, return_vars, None);
                for e in [*start, *stop, *step].into_iter().chain(iter_args.iter().map(|ia| ia.init)) {
                    self.reads(p, e, live);
                }
                attrs.iter().for_each(|&(_, e)| self.reads(p, e, live));
                self.defs.extend(return_vars.iter().copied());
            }
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                for v in return_vars {
                    live.remove(v);
                }
                self.loop_body(p, s, body, live, None, iter_args, return_vars, Some(*cond));
                iter_args.iter().for_each(|ia| self.reads(p, ia.init, live));
                self.defs.extend(return_vars.iter().copied());
            }
            StmtKind::Scope(scope) => {
                if outlined_later(&scope.kind) {
                    let fresh = self.set();
                    let mut rest = std::mem::replace(live, fresh);
                    self.block(p, &scope.body, live);
                    // What the region assigns at its top level is not live before it.
                    for &b in &scope.body {
                        if let StmtKind::Assign { var, .. } = &p.stmt(b).kind {
                            rest.remove(var);
                        }
                    }
                    live.extend(rest.iter().copied());
                    self.put(rest);
                } else {
                    self.block(p, &scope.body, live);
                }
                if let Some(t) = scope.task_id {
                    live.remove(&t);
                    self.defs.push(t);
                }
                if let ScopeKind::Spmd { core_num } = &scope.kind {
                    self.reads(p, *core_num, live);
                }
                scope.attrs.iter().for_each(|&(_, e)| self.reads(p, e, live));
            }
        }
    }

    /// A loop's body: `live` is what is live after the loop on entry and before it on exit
    /// (the loop may run zero times, so what is live after it stays live). The loop's own
    /// variables: `var` (a `for` loop's) and the iter args'.
    #[allow(clippy::too_many_arguments)]
    fn loop_body(
        &mut self,
        p: &Program,
        s: StmtId,
        body: &[StmtId],
        live: &mut FxHashSet<VarId>,
        var: Option<VarId>,
        iter_args: &[IterArg],
        return_vars: &[VarId],
        cond: Option<ExprId>,
    ) {
        let own = |k: &VarId| Some(*k) == var || iter_args.iter().any(|ia| ia.var == *k);
        self.unentered = self.unentered.saturating_sub(1);
        let start = self.defs.len();
        let mut inner = self.copy(live);
        if let Some(c) = cond {
            self.reads(p, c, &mut inner);
        }
        self.block(p, body, &mut inner);
        let first = self.keys.len();
        self.keys.extend_from_slice(&self.defs[start..]);
        self.keys[first..].sort_unstable();
        let mut kept = first;
        for i in first..self.keys.len() {
            let k = self.keys[i];
            if (kept == first || self.keys[kept - 1] != k) && !own(&k) && !return_vars.contains(&k) {
                self.keys[kept] = k;
                kept += 1;
            }
        }
        self.keys.truncate(kept);
        for i in first..kept {
            let k = self.keys[i];
            if live.contains(&k) {
                self.keys.push(k);
            }
        }
        let assigned = (first as u32, kept as u32);
        let live_after = (kept as u32, self.keys.len() as u32);
        self.loops.insert(s, LoopInfo { assigned, live_after });
        live.extend(inner.iter().copied());
        self.put(inner);
        for o in var.iter().chain(iter_args.iter().map(|ia| &ia.var)) {
            live.remove(o);
        }
    }
}

/// Regions a later pass turns into functions. A loop inside one does not promote a value
/// first defined in the region for a read after the region (as the reference does).
fn outlined_later(kind: &ScopeKind) -> bool {
    !matches!(kind, ScopeKind::Runtime { .. })
}

// ---------------------------------------------------------------- conversion

/// Why a key has no current version at a use.
#[derive(Clone, Copy)]
enum Gone {
    /// First assigned inside the loop at this location, and not carried out of it.
    Loop(Loc),
    /// Assigned in one branch only of the `if` at this location.
    Branch(Loc),
    /// The variable of the loop at this location.
    LoopVar(Loc),
}

struct Ssa<'a, 'b> {
    p: &'a mut Program,
    cx: &'a mut PassCx<'b>,
    floc: Loc,
    /// The maps and buffers kept from function to function (with the function's loops).
    st: Scratch,
}

/// A key's versions around an `if`: before it, at the end of the then-branch, at the end
/// of the else-branch.
type Versions = (Option<VarId>, Option<VarId>, Option<VarId>);

impl Ssa<'_, '_> {
    // ------------------------------------------------------------ names and state

    fn name_of(&self, v: VarId) -> &str {
        self.cx.names.get(self.p.var(v).name)
    }

    /// A new variable for `key` in `role`: `base__role_vN` with the key's next version.
    fn fresh(&mut self, key: VarId, role: Role, ty: TypeId, loc: Loc) -> VarId {
        let index = match self.st.prefix_of.get(&key) {
            Some(&i) => i as usize,
            None => {
                let i = self.prefix_of_name(key);
                self.st.prefix_of.insert(key, i);
                i as usize
            }
        };
        // A name that already has a role keeps it (converting twice changes nothing).
        let key_var = self.p.var(key);
        let (source, qualifier) = (key_var.source, key_var.version.and_then(|v| v.qualifier));
        let role = key_var.version.map_or(role, |v| v.role);
        let (sym, n) = loop {
            let Prefix { start, end, next, .. } = &mut self.st.prefixes[index];
            let n = *next;
            *next += 1;
            let prefix = &self.st.prefix_text[*start as usize..*end as usize];
            let sym = self.cx.names.intern(versioned_name(&mut self.st.text, prefix, role, n));
            if self.st.used.insert(sym) {
                break (sym, n);
            }
        };
        // The new name's source is the key's, and its qualifier the key's (`prefix` is
        // the key's name without its version).
        let version = Version { qualifier, role, n };
        self.p.new_version(self.cx.names, sym, source, version, ty, loc)
    }

    /// The index of the prefix of `key`'s name (`Versioned::prefix` of its base and
    /// qualifier), added to the prefixes when new: composed at the end of `prefix_text`,
    /// which keeps it only when no earlier prefix has the same text.
    fn prefix_of_name(&mut self, key: VarId) -> u32 {
        use std::hash::BuildHasher;
        let name = self.cx.names.get(self.p.var(key).name);
        let text = &mut self.st.prefix_text;
        let start = text.len();
        match Versioned::parse(name) {
            Some(v) => {
                text.extend([v.base, "__"]);
                if let Some(q) = v.qualifier {
                    text.extend([q, "_"]);
                }
            }
            None => text.extend([name, "__"]),
        }
        let prefix = &text[start..];
        let hash = rustc_hash::FxBuildHasher.hash_one(prefix);
        let last = self.st.prefix_index.get(&hash).copied().unwrap_or(NO_PREFIX);
        let mut i = last;
        while i != NO_PREFIX {
            let Prefix { start: s, end: e, prev, .. } = self.st.prefixes[i as usize];
            if &text[s as usize..e as usize] == prefix {
                text.truncate(start);
                return i;
            }
            i = prev;
        }
        let end = text.len() as u32;
        let i = self.st.prefixes.len() as u32;
        self.st.prefixes.push(Prefix { start: start as u32, end, next: 0, prev: last });
        self.st.prefix_index.insert(hash, i);
        i
    }

    fn bind(&mut self, key: VarId, v: VarId) {
        let old = self.st.cur.insert(key, v);
        self.st.trail.push((key, old));
    }

    fn rollback(&mut self, mark: usize) {
        while self.st.trail.len() > mark {
            let (k, old) = self.st.trail.pop().expect("longer than mark");
            match old {
                Some(o) => self.st.cur.insert(k, o),
                None => self.st.cur.remove(&k),
            };
        }
    }

    /// The keys changed since `mark`, in first-change order: (key, value at mark, value now).
    fn changes_since(&self, mark: usize) -> Vec<(VarId, Option<VarId>, Option<VarId>)> {
        let mut seen = FxHashSet::default();
        let mut out = Vec::new();
        for &(k, old) in &self.st.trail[mark..] {
            if seen.insert(k) {
                out.push((k, old, self.st.cur.get(&k).copied()));
            }
        }
        out
    }

    /// Sorts keys by their source name (then id), as the reference orders carried values
    /// and phis.
    fn sort_by_name<T>(&self, items: &mut [T], key: impl Fn(&T) -> VarId) {
        items.sort_by(|a, b| {
            let (ka, kb) = (key(a), key(b));
            self.name_of(ka).cmp(self.name_of(kb)).then(ka.cmp(&kb))
        });
    }

    // ------------------------------------------------------------ uses

    /// The current version of `key` at a use; a key without one is E0420.
    fn lookup(&mut self, key: VarId, loc: Loc) -> VarId {
        if let Some(&v) = self.st.cur.get(&key) {
            return v;
        }
        if self.st.reported.insert(key) {
            self.undefined(key, loc);
        }
        key
    }

    fn undefined(&mut self, key: VarId, loc: Loc) {
        let loc = if loc.is_compiler_made() { self.floc } else { loc };
        let name = self.name_of(key).to_string();
        let at = |l: Loc| (!l.is_compiler_made()).then_some(l);
        let (message, secondary, help) = match self.st.gone.get(&key).copied() {
            Some(Gone::Loop(l)) => (
                format!("`{name}` has no value here when the loop that assigns it runs zero times"),
                at(l).map(|l| (l, format!("`{name}` is first assigned inside this loop"))),
                format!("assign `{name}` before the loop"),
            ),
            Some(Gone::Branch(l)) => (
                format!("`{name}` has no value here when the `if` takes the branch that does not assign it"),
                at(l).map(|l| (l, format!("`{name}` is assigned in only one branch of this `if`"))),
                format!("assign `{name}` in both branches, or before the `if`"),
            ),
            Some(Gone::LoopVar(l)) => (
                format!("`{name}` is the variable of a loop and has no value after it"),
                at(l).map(|l| (l, "the loop".to_string())),
                format!("copy `{name}` into another variable inside the loop"),
            ),
            None => (
                format!("`{name}` may have no value here"),
                None,
                format!("assign `{name}` on every path before this use"),
            ),
        };
        let mut d = Diagnostic::error(Code::E0420, message, Label::primary(loc.file, loc.span, "read here"));
        if let Some((l, text)) = secondary {
            d = d.with_label(Label::secondary(l.file, l.span, text));
        }
        self.cx.diags.push(d.with_help(help));
    }

    /// A type with its extent variables replaced by their current versions.
    fn subst_ty(&mut self, ty: TypeId) -> TypeId {
        let at = ty.0 as usize;
        if self.st.plain.get(at) == Some(&true) {
            return ty;
        }
        if !visit::type_mentions_vars(&self.p.types, ty) {
            if self.st.plain.len() <= at {
                self.st.plain.resize(at + 1, false);
            }
            self.st.plain[at] = true;
            return ty;
        }
        visit::map_type_vars(self, ty, &mut |ssa, v| Dim::Var(ssa.st.cur.get(&v).copied().unwrap_or(v)))
    }

    /// An expression with every variable replaced by its current version (new nodes only
    /// where something changes): `visit::substitute` with this pass's reads and types
    /// ([`Rewriter`] below).
    fn subst(&mut self, e: ExprId) -> ExprId {
        visit::substitute(self, e)
    }

    fn var_expr(&mut self, v: VarId, loc: Loc) -> ExprId {
        let ty = self.p.var(v).ty;
        self.p.new_expr(ExprKind::Var(v), ty, loc)
    }

    // ------------------------------------------------------------ statements

    fn block(&mut self, block: &[StmtId]) -> Block {
        let mut out = Vec::with_capacity(block.len());
        for &s in block {
            let loc = self.p.stmt(s).loc;
            let kind = self.stmt(s);
            out.push(self.p.new_stmt(kind, loc));
        }
        out
    }

    fn stmt(&mut self, id: StmtId) -> StmtKind {
        let loc = self.p.stmt(id).loc;
        match self.p.stmt(id).kind.clone() {
            StmtKind::Assign { var, value } => {
                let value = self.subst(value);
                // The value's type when it has one, else what the name was declared with.
                let vty = self.p.expr(value).ty;
                let ty = if vty == crate::ir::Types::UNKNOWN { self.subst_ty(self.p.var(var).ty) } else { vty };
                let v = self.fresh(var, Role::Ssa, ty, loc);
                self.bind(var, v);
                StmtKind::Assign { var: v, value }
            }
            StmtKind::Eval(e) => StmtKind::Eval(self.subst(e)),
            StmtKind::Return(values) => StmtKind::Return(values.iter().map(|&e| self.subst(e)).collect()),
            StmtKind::Yield(values) => StmtKind::Yield(values.iter().map(|&e| self.subst(e)).collect()),
            k @ (StmtKind::Break | StmtKind::Continue) => k,
            StmtKind::If(s) => self.if_stmt(&s, loc),
            StmtKind::For(for_) => {
                let ForStmt { kind, var, start, stop, step, iter_args, body, return_vars, attrs } = *for_;
                let start = self.subst(start);
                let stop = self.subst(stop);
                let step = self.subst(step);
                let attrs: Vec<_> = attrs.iter().map(|&(k, e)| (k, self.subst(e))).collect();
                let lanes = attrs.iter().any(|&(k, _)| self.cx.names.get(k) == crate::ir::SPLIT_AIV_ATTR);
                let lp = self.loop_stmt(id, Some(var), None, lanes, &iter_args, &body, &return_vars, loc);
                StmtKind::For(Box::new(ForStmt {
                    kind,
                    var: lp.var.expect("a for loop has a variable"),
                    start,
                    stop,
                    step,
                    iter_args: lp.iter_args,
                    body: lp.body,
                    return_vars: lp.return_vars,
                    attrs,
                }))
            }
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = *while_;
                let lp = self.loop_stmt(id, None, Some(cond), false, &iter_args, &body, &return_vars, loc);
                StmtKind::While(Box::new(WhileStmt {
                    cond: lp.cond.expect("a while loop has a condition"),
                    iter_args: lp.iter_args,
                    body: lp.body,
                    return_vars: lp.return_vars,
                }))
            }
            StmtKind::Scope(scope) => {
                let Scope { kind, name, task_id, body, attrs } = *scope;
                // Transparent: what the body assigns stays visible after it.
                let kind = match kind {
                    ScopeKind::Spmd { core_num } => ScopeKind::Spmd { core_num: self.subst(core_num) },
                    k => k,
                };
                let attrs = attrs.iter().map(|&(k, e)| (k, self.subst(e))).collect();
                let task_id = task_id.map(|t| {
                    let ty = self.subst_ty(self.p.var(t).ty);
                    let v = self.fresh(t, Role::Ssa, ty, loc);
                    self.bind(t, v);
                    v
                });
                let body = self.block(&body);
                StmtKind::Scope(Box::new(Scope { kind, name, task_id, body, attrs }))
            }
        }
    }

    /// Puts `values` into the trailing yield of `block` (`first`: before the values it
    /// already has), or appends a yield of them.
    fn add_yield(&mut self, block: &mut Block, values: Vec<ExprId>, first: bool, loc: Loc) {
        if let Some(&last) = block.last() {
            if let StmtKind::Yield(existing) = &self.p.stmt(last).kind {
                let merged: Vec<ExprId> = if first {
                    values.into_iter().chain(existing.iter().copied()).collect()
                } else {
                    existing.iter().copied().chain(values).collect()
                };
                // The yield is a statement this pass just made: safe to change in place.
                self.p.stmts[last.index()].kind = StmtKind::Yield(merged);
                return;
            }
        }
        let s = self.p.new_stmt(StmtKind::Yield(values), loc);
        block.push(s);
    }

    fn if_stmt(&mut self, s: &IfStmt, loc: Loc) -> StmtKind {
        let IfStmt { cond, then_body, else_body, return_vars } = s;
        let (then_body, else_body) = (then_body.as_slice(), else_body.as_deref());
        let cond = self.subst(*cond);
        let mark = self.st.trail.len();
        let mut then_b = self.block(then_body);
        let then_changes = self.changes_since(mark);
        self.rollback(mark);
        let mut else_b = else_body.map(|b| self.block(b));
        let else_changes = self.changes_since(mark);
        self.rollback(mark);

        // (before, then, else) of every key a branch changed, in first-change order.
        let mut order: Vec<VarId> = Vec::new();
        let mut seen: FxHashMap<VarId, Versions> = FxHashMap::default();
        for (k, before, now) in then_changes {
            order.push(k);
            seen.insert(k, (before, now, before));
        }
        for (k, before, now) in else_changes {
            seen.entry(k)
                .or_insert_with(|| {
                    order.push(k);
                    (before, before, before)
                })
                .2 = now;
        }
        let mut phis: Vec<(VarId, VarId, VarId)> = Vec::new();
        for k in order {
            if return_vars.contains(&k) {
                continue;
            }
            match seen[&k] {
                (Some(b), t, e) if t != Some(b) || e != Some(b) => {
                    phis.push((k, t.unwrap_or(b), e.unwrap_or(b)));
                }
                (None, Some(t), Some(e)) => phis.push((k, t, e)),
                (None, t, e) if t.is_some() || e.is_some() => {
                    // Assigned in one branch only: after the `if` the value is defined when
                    // the other branch never reaches it (it ends in `continue`, `break` or
                    // `return`); that branch yields a stand-in no path reads.
                    let (defined, other) = match t {
                        Some(t) => (t, else_body),
                        None => (e.unwrap_or(k), Some(then_body)),
                    };
                    let stand = other.filter(|b| self.diverges(b)).and_then(|_| self.stand_in(self.p.var(defined).ty));
                    match stand {
                        Some(s) => phis.push((k, t.unwrap_or(s), e.unwrap_or(s))),
                        None => {
                            self.st.gone.insert(k, Gone::Branch(loc));
                        }
                    }
                }
                _ => {}
            }
        }
        if phis.is_empty() && return_vars.is_empty() {
            return StmtKind::If(Box::new(IfStmt {
                cond,
                then_body: then_b,
                else_body: else_b,
                return_vars: Vec::new(),
            }));
        }
        self.sort_by_name(&mut phis, |p| p.0);
        let mut new_rvs = Vec::new();
        let mut then_vals = Vec::new();
        let mut else_vals = Vec::new();
        let mut binds = Vec::new();
        for &(k, t, e) in &phis {
            let ty = self.p.var(t).ty;
            let phi = self.fresh(k, Role::Phi, ty, loc);
            new_rvs.push(phi);
            binds.push((k, phi));
            then_vals.push(self.var_expr(t, loc));
            else_vals.push(self.var_expr(e, loc));
        }
        // Return variables the source already has (`x = pl.yield_(...)` in both branches).
        let yielded: Vec<ExprId> = match then_b.last().map(|&s| &self.p.stmt(s).kind) {
            Some(StmtKind::Yield(values)) => values.clone(),
            _ => Vec::new(),
        };
        for (i, &rk) in return_vars.iter().enumerate() {
            let ty = match yielded.get(i) {
                Some(&e) if self.p.expr(e).ty != crate::ir::Types::UNKNOWN => self.p.expr(e).ty,
                _ => self.subst_ty(self.p.var(rk).ty),
            };
            let v = self.fresh(rk, Role::Rv, ty, loc);
            new_rvs.push(v);
            binds.push((rk, v));
        }
        for (k, v) in binds {
            self.bind(k, v);
        }
        if !phis.is_empty() {
            self.add_yield(&mut then_b, then_vals, true, loc);
            match &mut else_b {
                Some(b) => self.add_yield(b, else_vals, true, loc),
                None => else_b = Some(vec![self.p.new_stmt(StmtKind::Yield(else_vals), loc)]),
            }
        }
        StmtKind::If(Box::new(IfStmt { cond, then_body: then_b, else_body: else_b, return_vars: new_rvs }))
    }

    /// Whether a block never reaches its end: its last statement leaves it.
    fn diverges(&self, block: &[StmtId]) -> bool {
        matches!(
            block.last().map(|&s| &self.p.stmt(s).kind),
            Some(StmtKind::Break | StmtKind::Continue | StmtKind::Return(_))
        )
    }

    /// The value an escaping variable (first assigned in a loop, read after it) starts
    /// with, as the reference chooses it: the first Out/InOut parameter of the same type,
    /// else the earliest current variable of the same type; `None` when there is none.
    fn stand_in(&self, ty: TypeId) -> Option<VarId> {
        for &(k, dir) in &self.st.params {
            if dir == Direction::In {
                continue;
            }
            if let Some(&v) = self.st.cur.get(&k) {
                if self.p.var(v).ty == ty {
                    return Some(v);
                }
            }
        }
        self.st.cur.values().copied().filter(|&v| self.p.var(v).ty == ty).min()
    }

    /// The initial value of an escaping loop variable: its [`Self::stand_in`]; for a task
    /// id without one (`tid` of `out, tid = pl.submit(...)` in a loop, read by a later
    /// `deps=[tid]`), PyPTO's "no task yet", the id of no task, on which a dependency waits
    /// for nothing (the path where the loop runs zero times).
    fn escaping_init(&mut self, ty: TypeId, loc: Loc) -> Option<ExprId> {
        if let Some(v) = self.stand_in(ty) {
            return Some(self.var_expr(v, loc));
        }
        matches!(self.p.types.get(ty), Type::Scalar(DType::TaskId)).then(|| {
            let kind = ExprKind::Call {
                callee: Callee::Op(Op::SystemTaskInvalid),
                args: vec![].into(),
                attrs: CallAttrs::none(),
            };
            self.p.new_expr(kind, ty, loc)
        })
    }

    /// The initial value of a value first defined in the body of a `pl.split_aiv` region
    /// (the lanes' loop) and read after it, when nothing of its type stands in: a new value
    /// of the type (a tile or tensor created with its shape, a scalar zero). The loop runs
    /// both lanes, so no path reads it; after the region the value is the last lane's.
    /// `None` for other types and for shapes with extents known only inside the body.
    fn lane_stand_in(&mut self, ty: TypeId, loc: Loc) -> Option<ExprId> {
        let (op, shape, dtype, memory) = match self.p.types.get(ty).clone() {
            Type::Scalar(d) => {
                let kind = match d {
                    DType::Bool => ExprKind::Bool(false),
                    d if d.is_float() => ExprKind::Float(0.0),
                    _ => ExprKind::Int(0),
                };
                return Some(self.p.new_expr(kind, ty, loc));
            }
            Type::Tile { shape, dtype, memory } => (Op::TileCreate, shape, dtype, memory),
            Type::Tensor { shape: Some(shape), dtype: Some(dtype), distributed: false, .. } => {
                (Op::TensorCreate, shape, dtype, None)
            }
            _ => return None,
        };
        let index = self.p.types.scalar(DType::Index);
        let mut extents = Vec::with_capacity(shape.len());
        for d in shape {
            let kind = match d {
                Dim::Const(n) => ExprKind::Int(n),
                Dim::Dyn(name) => ExprKind::DynDim(name),
                Dim::Var(_) | Dim::Unknown => return None,
            };
            extents.push(self.p.new_expr(kind, index, loc));
        }
        let tuple_ty = self.p.types.intern(Type::Tuple(vec![index; extents.len()]));
        let shape = self.p.new_expr(ExprKind::Tuple(extents.into()), tuple_ty, loc);
        let dtype = self.p.new_expr(ExprKind::DType(dtype), Types::UNKNOWN, loc);
        let def = op.def();
        let mut args = vec![None; def.params.len()];
        args[def.param_index(Param::Shape)?] = Some(shape);
        args[def.param_index(Param::Dtype)?] = Some(dtype);
        if let Some(m) = memory {
            let m = self.p.new_expr(ExprKind::Enum(EnumValue::MemorySpace(m)), Types::UNKNOWN, loc);
            args[def.param_index(Param::TargetMemory)?] = Some(m);
        }
        let kind = ExprKind::Call { callee: Callee::Op(op), args: args.into(), attrs: CallAttrs::none() };
        Some(self.p.new_expr(kind, ty, loc))
    }

    #[allow(clippy::too_many_arguments)]
    fn loop_stmt(
        &mut self,
        id: StmtId,
        loop_var: Option<VarId>,
        cond: Option<ExprId>,
        lanes: bool,
        iter_args: &[IterArg],
        body: &[StmtId],
        return_vars: &[VarId],
        loc: Loc,
    ) -> Loop {
        let inits: Vec<ExprId> = iter_args.iter().map(|ia| self.subst(ia.init)).collect();
        let info = self.st.live.loops.get(&id).copied().unwrap_or_default();
        // Carried: assigned in the body and defined before the loop. Escaping: first
        // assigned in the body and read after the loop.
        let live = &self.st.live;
        let mut carried: Vec<(VarId, VarId)> =
            live.keys(info.assigned).iter().filter_map(|k| self.st.cur.get(k).map(|&v| (*k, v))).collect();
        self.sort_by_name(&mut carried, |c| c.0);
        let mut escaping: Vec<(VarId, ExprId)> = Vec::new();
        for i in info.live_after.0..info.live_after.1 {
            let k = self.st.live.keys[i as usize];
            if self.st.cur.contains_key(&k) {
                continue;
            }
            let ty = self.subst_ty(self.p.var(k).ty);
            let init = self.escaping_init(ty, loc).or_else(|| lanes.then(|| self.lane_stand_in(ty, loc)).flatten());
            if let Some(init) = init {
                escaping.push((k, init));
            }
        }
        self.sort_by_name(&mut escaping, |c| c.0);
        let carried: Vec<(VarId, ExprId)> = carried.into_iter().map(|(k, v)| (k, self.var_expr(v, loc))).collect();

        let mark = self.st.trail.len();
        let mut new_iter_args = Vec::new();
        let mut binds = Vec::new();
        for (ia, &init) in iter_args.iter().zip(&inits) {
            let ty = self.p.expr(init).ty;
            let ty = if ty == crate::ir::Types::UNKNOWN { self.subst_ty(self.p.var(ia.var).ty) } else { ty };
            let v = self.fresh(ia.var, Role::Iter, ty, loc);
            new_iter_args.push(IterArg { var: v, init });
            binds.push((ia.var, v));
        }
        // The source's own return variables are named before the body, as the reference
        // does, so that converting converted IR again gives the same names.
        let mut new_rvs = Vec::new();
        for (i, &rk) in return_vars.iter().enumerate() {
            let ty = match new_iter_args.get(i) {
                Some(ia) => self.p.var(ia.var).ty,
                None => self.subst_ty(self.p.var(rk).ty),
            };
            let v = self.fresh(rk, Role::Rv, ty, loc);
            new_rvs.push(v);
        }
        let mut added: Vec<(VarId, VarId, VarId)> = Vec::new(); // (key, iter arg, return var)
        for &(k, init) in carried.iter().chain(&escaping) {
            let ty = self.p.expr(init).ty;
            let ia = self.fresh(k, Role::Iter, ty, loc);
            let rv = self.fresh(k, Role::Rv, ty, loc);
            new_iter_args.push(IterArg { var: ia, init });
            added.push((k, ia, rv));
            binds.push((k, ia));
        }
        let var = loop_var.map(|lv| {
            let ty = self.subst_ty(self.p.var(lv).ty);
            let v = self.fresh(lv, Role::Idx, ty, loc);
            binds.push((lv, v));
            v
        });
        for (k, v) in binds {
            self.bind(k, v);
        }
        let cond = cond.map(|c| self.subst(c));
        let mut body = self.block(body);
        let after: Vec<ExprId> = added
            .iter()
            .map(|&(k, ia, _)| {
                let v = self.st.cur.get(&k).copied().unwrap_or(ia);
                self.var_expr(v, loc)
            })
            .collect();
        self.rollback(mark);

        for (&rk, &v) in return_vars.iter().zip(&new_rvs) {
            self.bind(rk, v);
        }
        for &(k, _, rv) in &added {
            new_rvs.push(rv);
            self.bind(k, rv);
        }
        if let Some(lv) = loop_var {
            if !self.st.cur.contains_key(&lv) {
                self.st.gone.insert(lv, Gone::LoopVar(loc));
            }
        }
        for &k in self.st.live.keys(info.assigned) {
            if !self.st.cur.contains_key(&k) {
                self.st.gone.insert(k, Gone::Loop(loc));
            }
        }
        if !added.is_empty() {
            self.add_yield(&mut body, after, false, loc);
        }
        Loop { var, cond, iter_args: new_iter_args, body, return_vars: new_rvs }
    }
}

/// The substitution of current versions: a read of a key reads its current version (E0420
/// when it has none), a type's extents follow.
impl Rewriter for Ssa<'_, '_> {
    fn program(&mut self) -> &mut Program {
        self.p
    }

    fn replace_read(&mut self, e: ExprId, key: VarId) -> Option<ExprId> {
        let loc = self.p.expr(e).loc;
        let v = self.lookup(key, loc);
        if v == key {
            return Some(e);
        }
        let ty = self.p.var(v).ty;
        Some(self.p.new_expr(ExprKind::Var(v), ty, loc))
    }

    fn map_type(&mut self, ty: TypeId) -> TypeId {
        self.subst_ty(ty)
    }
}

/// A converted loop.
struct Loop {
    var: Option<VarId>,
    cond: Option<ExprId>,
    iter_args: Vec<IterArg>,
    body: Block,
    return_vars: Vec<VarId>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Input, PipelineSpec, StopAt};

    /// The IR of `source` after ConvertToSSA (verified when the pass reported nothing), and
    /// the codes of the pass's diagnostics.
    fn ssa(source: &str) -> (String, Vec<Code>) {
        let spec = PipelineSpec::passes("ConvertToSSA").verified();
        let mut c = driver::compile(Input::text("test.pl", source), &spec, StopAt::Lower).expect("in memory");
        assert!(!c.has_errors(), "lowering reported: {:?}", c.diags);
        // Lowering's warnings (E0414 for an Out parameter a test does not write) are not
        // the pass's.
        let mut lowered: Vec<Code> = c.diags.iter().map(|d| d.code).collect();
        c.step();
        assert!(!c.diags.iter().any(|d| d.code.as_str().starts_with("E07")), "verifier: {:?}", c.diags);
        let mut codes = Vec::new();
        for d in &c.diags {
            match lowered.iter().position(|&l| l == d.code) {
                Some(i) => {
                    lowered.swap_remove(i);
                }
                None => codes.push(d.code),
            }
        }
        (crate::ir::print::programs(&c.programs, &c.session.interner), codes)
    }

    fn body(text: &str) -> Vec<String> {
        text.lines().skip_while(|l| !l.trim_start().starts_with("def ")).skip(1).map(|l| l.trim().to_string()).collect()
    }

    const HEAD: &str = "import pypto.language as pl\n\n@pl.function\ndef main(";

    /// The body of `main` after the pass, which must report nothing: `main` is what
    /// follows `def main(` (the parameters, the return type, the body).
    fn converted(main: &str) -> Vec<String> {
        let (text, codes) = ssa(&format!("{HEAD}{main}"));
        assert!(codes.is_empty(), "{codes:?}");
        body(&text)
    }

    #[test]
    fn straight_line_and_parameters() {
        let src = format!(
            "{HEAD}x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n    result = pl.add(x, 1.0)\n    result = pl.add(result, 2.0)\n    return result\n"
        );
        let (text, codes) = ssa(&src);
        assert!(codes.is_empty());
        assert!(text.contains("def main(self, x__ssa_v0: pl.Tensor[[64], pl.FP32])"), "{text}");
        assert_eq!(
            body(&text),
            [
                "result__ssa_v0 = pl.add(x__ssa_v0, 1.0)",
                "result__ssa_v1 = pl.add(result__ssa_v0, 2.0)",
                "return result__ssa_v1"
            ]
        );
    }

    #[test]
    fn task_id_first_assigned_in_a_loop_starts_as_no_task() {
        // `tid` has no value before the loop: on the path where the loop runs zero times
        // it is the id of no task, so the later `deps=[tid]` waits for nothing.
        let src = "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def fill(self, out: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:\n        return out\n\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n        with pl.manual_scope():\n            for _i in pl.range(0, 4):\n                x, tid = pl.submit(self.fill, x)\n            y, _ = pl.submit(self.fill, x, deps=[tid])\n        return y\n";
        let (text, codes) = ssa(src);
        assert!(codes.is_empty(), "{codes:?}");
        assert!(text.contains("init_values=(x__ssa_v0, pl.system.task_invalid())"), "{text}");
    }

    #[test]
    fn loop_carried_value() {
        assert_eq!(
            converted(
                "x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n    result = x\n    for i in pl.range(5):\n        result = pl.add(result, 1.0)\n    final = pl.mul(result, 2.0)\n    return final\n"
            ),
            [
                "result__ssa_v0 = x__ssa_v0",
                "for i__idx_v0, (result__iter_v1,) in pl.range(0, 5, 1, init_values=(result__ssa_v0,)):",
                "result__ssa_v3 = pl.add(result__iter_v1, 1.0)",
                "result__rv_v2 = pl.yield_(result__ssa_v3)",
                "final__ssa_v0 = pl.mul(result__rv_v2, 2.0)",
                "return final__ssa_v0"
            ]
        );
    }

    #[test]
    fn if_in_loop_gets_phis() {
        assert_eq!(
            converted(
                "x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n    a = x\n    b = pl.mul(x, 2.0)\n    for i in pl.range(1):\n        if i == 0:\n            a = pl.add(a, 1.0)\n        else:\n            b = pl.add(b, 1.0)\n    result = pl.add(a, b)\n    return result\n"
            )[2..10],
            [
                "for i__idx_v0, (a__iter_v1, b__iter_v1) in pl.range(0, 1, 1, init_values=(a__ssa_v0, b__ssa_v0)):",
                "if i__idx_v0 == 0:",
                "a__ssa_v3 = pl.add(a__iter_v1, 1.0)",
                "a__phi_v4, b__phi_v4 = pl.yield_(a__ssa_v3, b__iter_v1)",
                "else:",
                "b__ssa_v3 = pl.add(b__iter_v1, 1.0)",
                "a__phi_v4, b__phi_v4 = pl.yield_(a__iter_v1, b__ssa_v3)",
                "a__rv_v2, b__rv_v2 = pl.yield_(a__phi_v4, b__phi_v4)",
            ]
        );
    }

    #[test]
    fn escaping_value_starts_from_the_out_parameter() {
        assert_eq!(
            converted(
                "a: pl.Tensor[[64], pl.FP32], c: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:\n    for i in pl.range(4):\n        out = pl.add(a, c)\n    return out\n"
            ),
            [
                "for i__idx_v0, (out__iter_v0,) in pl.range(0, 4, 1, init_values=(c__ssa_v0,)):",
                "out__ssa_v2 = pl.add(a__ssa_v0, c__ssa_v0)",
                "out__rv_v1 = pl.yield_(out__ssa_v2)",
                "return out__rv_v1"
            ]
        );
    }

    /// A read of a name no path before it defines: a definition in one branch only, a loop
    /// variable after its loop.
    #[test]
    fn read_of_a_name_not_defined_on_every_path_is_e0420() {
        for body in [
            "x: pl.Tensor[[64], pl.FP32], flag: pl.Scalar[pl.BOOL]) -> pl.Tensor[[64], pl.FP32]:\n    if flag:\n        y = pl.add(x, 1.0)\n    return y\n",
            "n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    for i in pl.range(n):\n        pass\n    return i\n",
        ] {
            assert_eq!(ssa(&format!("{HEAD}{body}")).1, [Code::E0420], "{body}");
        }
    }

    #[test]
    fn one_branch_definition_with_a_jumping_other_branch_is_defined() {
        let body = "    for i in pl.range(4):\n        if i > 1:\n            y = pl.add(x, 1.0)\n        else:\n            JUMP\n        x = y\n    return x\n";
        for jump in ["continue", "break"] {
            let src = format!(
                "{HEAD}x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n{}",
                body.replace("JUMP", jump)
            );
            assert_eq!(ssa(&src).1, Vec::<Code>::new(), "{jump}");
        }
        // Without the jump the other branch reaches the read: still E0420.
        let src = format!(
            "{HEAD}x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n{}",
            body.replace("JUMP", "pass")
        );
        assert_eq!(ssa(&src).1, [Code::E0420]);
    }

    #[test]
    fn extents_in_types_follow_the_versions() {
        let src = format!(
            "{HEAD}n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    m = n + 1\n    buf = pl.create_tensor([m, 64], dtype=pl.FP32)\n    m = m * 2\n    return m\n"
        );
        let c = driver::compile(Input::text("test.pl", src), &PipelineSpec::passes("ConvertToSSA"), StopAt::End)
            .expect("in memory");
        let (session, p) = (&c.session, &c.programs[0]);
        let f = p.functions.values().next().unwrap();
        let StmtKind::Assign { var, .. } = p.stmt(f.body[1]).kind else { panic!("an assignment") };
        let Type::Tensor { shape: Some(shape), .. } = p.types.get(p.var(var).ty) else { panic!("a tensor") };
        let Dim::Var(m) = shape[0] else { panic!("a variable extent") };
        assert_eq!(session.interner.get(p.var(m).name), "m__ssa_v0");
    }

    #[test]
    fn converting_twice_keeps_the_names() {
        let src = format!(
            "{HEAD}x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n    result = x\n    for i in pl.range(5):\n        result = pl.add(result, 1.0)\n    return result\n"
        );
        let (once, _) = ssa(&src);
        let (twice, _) = ssa(&once);
        assert_eq!(once, twice);
    }
}

#[cfg(test)]
mod forked {
    use crate::driver::{self, Input, PipelineSpec, StopAt};
    use crate::ir::TypeId;

    /// 300 functions (more than the parallel threshold) of several shapes: values carried
    /// around loops and merged after ifs, a `pl.func_attr` value naming a parameter (a base
    /// node the conversion changes), tuple types made by the pass, and reads of undefined
    /// names (E0420) spread through them.
    fn mixed(n: usize) -> String {
        let mut out = String::from("import pypto.language as pl\n\nN = pl.dynamic(\"N\")\n");
        for i in 0..n {
            out.push_str(&match i % 4 {
                0 => format!(
                    "\n@pl.function\ndef loop_{i}(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:\n    acc = x\n    k = 0\n    for j in pl.range(n):\n        if j > {i}:\n            acc = pl.add(acc, 1.0)\n            k = k + j\n        else:\n            w_{i} = pl.mul(acc, 2.0)\n            acc = w_{i}\n    return acc\n"
                ),
                1 => format!(
                    "\n@pl.function(type=pl.FunctionType.InCore)\ndef kernel_{i}(x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:\n    pl.func_attr({{\"slot_num\": 2, \"stationary\": x}})\n    t = pl.load(x, [0, 0], [64, 128])\n    out = pl.store(pl.mul(t, 2.0), [0, 0], out)\n    return out\n"
                ),
                2 => format!(
                    "\n@pl.function\ndef dyn_{i}(x: pl.Tensor[[N, {}], pl.FP32]) -> pl.Tensor[[N, {}], pl.FP32]:\n    y = x\n    for j in pl.range(4):\n        y = pl.add(y, x)\n    return y\n",
                    i + 1,
                    i + 1
                ),
                _ if i % 7 == 3 => format!(
                    "\n@pl.function\ndef bad_{i}(x: pl.Tensor[[64], pl.FP32], flag: pl.Scalar[pl.BOOL]) -> pl.Tensor[[64], pl.FP32]:\n    if flag:\n        y_{i} = pl.add(x, 1.0)\n    return y_{i}\n"
                ),
                _ => format!(
                    "\n@pl.function\ndef plain_{i}(a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    b = a + 1\n    b = b * {i}\n    return b\n"
                ),
            });
        }
        out
    }

    /// Everything ConvertToSSA leaves: the programs (functions and arenas, every type by
    /// id), every name by symbol, and the diagnostics.
    fn converted(source: &str, threads: usize) -> String {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            let spec = PipelineSpec::passes("ConvertToSSA");
            let mut c = driver::compile(Input::text("test.pl", source), &spec, StopAt::Lower).expect("in memory");
            assert!(!c.has_errors(), "lowering reported: {:?}", c.diags);
            c.step();
            let mut out = String::new();
            for p in &c.programs {
                let types: Vec<_> = (0..p.types.len()).map(|i| p.types.get(TypeId(i as u32))).collect();
                out.push_str(&format!("{:?}\n{:?}\n{:?}\n{:?}\n{types:?}\n", p.functions, p.vars, p.exprs, p.stmts));
            }
            out.push_str(&format!("{:?}\n{:?}", c.session.interner.names().collect::<Vec<_>>(), c.diags));
            out
        })
    }

    #[test]
    fn the_conversion_on_runs_in_parallel_is_the_serial_one() {
        // More functions than the threshold: four threads take the forked path.
        const { assert!(300 >= super::PARALLEL_MIN_FUNCTIONS) };
        let source = mixed(300);
        let serial = converted(&source, 1);
        assert!(serial.contains("E0420"), "the program has errors to join");
        assert!(serial.contains("stationary"));
        assert_eq!(converted(&source, 4), serial);
        assert_eq!(converted(&source, 3), serial);
    }

    /// The room after the program's nodes for the runs' nodes, in percent plus one (0: the
    /// pass's own), as a test sets it (any room gives the same result, so the tests that run
    /// meanwhile are not changed by it).
    pub(super) static ROOM: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    #[test]
    fn runs_that_do_not_fit_in_the_room_are_moved_at_the_end() {
        let source = mixed(300);
        let serial = converted(&source, 1);
        // No room (every run moved after the last) and room for the first runs only.
        for percent in [0, 20] {
            ROOM.store(percent + 1, std::sync::atomic::Ordering::Relaxed);
            let forked = converted(&source, 2);
            ROOM.store(0, std::sync::atomic::Ordering::Relaxed);
            assert_eq!(forked, serial, "room {percent} %");
        }
    }
}
