//! Which buffer a tensor variable names, for DeriveCallDirections, LegalizeGraphBoundary and
//! the orchestration emitter: SSA gives every write a new variable, but `b = pl.store(t, o, a)`,
//! `c = self.kernel(x, a)` (a kernel returning its `Out` parameter), a loop's iter arg and
//! result, and a slice of `a` all still name `a`'s buffer.
//!
//! [`Defs`] indexes a function's definitions in one walk; [`Lineage`] follows a variable
//! back to its root (a parameter or a fresh allocation) and knows, for each function,
//! which parameter each of its return values is (computed once per function).
//!
//! Also what lets DeriveCallDirections ask less of them: [`binds_a_param`] (a parameter
//! is its own root, known without [`Defs`]), [`calls_cycle`] (without a call cycle the
//! memo's answers do not depend on the order of the queries) and [`all_calls_seen`] (the
//! one-core kernels hold no call, known from one flat scan of the expression arena).

use crate::intern::Symbol;
use crate::ir::ops::{Effect, Op, OpKind, Special};
use crate::ir::visit::{self, Lifo, Stack};
use crate::ir::{Callee, ExprId, ExprKind, ForStmt, FuncKind, Function, IfStmt, Program, StmtKind, VarId, WhileStmt};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// How a variable gets its value.
#[derive(Clone, Debug)]
pub enum Def {
    Param(usize),
    /// `v = e`.
    Value(ExprId),
    /// A loop's iter arg or result: its value on entry.
    Carried(ExprId),
    /// An `if`'s result: the value each branch yields.
    Phi(Vec<ExprId>),
    /// A loop variable or a task id.
    Other,
}

/// The definitions of one function's variables, and the roots found so far (so that a
/// chain of N rebinds costs O(N) over all queries, not O(N) per query).
///
/// The maps are looked up, never iterated: a dropped `Defs` gives its (emptied) maps to the
/// next `Defs::of` on its thread, so a map's capacity, and with it the order it would
/// iterate in, depends on the functions before.
pub struct Defs {
    pub map: FxHashMap<VarId, Def>,
    roots: RefCell<FxHashMap<VarId, Root>>,
    /// The function's place in `p.functions` when known ([`Defs::at`]; 0 otherwise): its
    /// callees are looked for near it first ([`Program::callee_near`]).
    near: usize,
}

/// The maps of a [`Defs`].
type DefsMaps = (FxHashMap<VarId, Def>, FxHashMap<VarId, Root>);

thread_local! {
    /// Emptied maps of dropped [`Defs`], for the next [`Defs::of`]: the passes compute the
    /// definitions of every function, one after another, and each pair of maps allocated
    /// and freed cost more than filling them.
    static SPARE: RefCell<Vec<DefsMaps>> = const { RefCell::new(Vec::new()) };
}

/// At most this many spare pairs of maps per thread, each of at most [`SPARE_ENTRIES`]
/// entries (a large function's maps are freed, not kept).
const SPARE_MAPS: usize = 4;
const SPARE_ENTRIES: usize = 1024;

impl Drop for Defs {
    fn drop(&mut self) {
        let (mut map, mut roots) = (std::mem::take(&mut self.map), std::mem::take(self.roots.get_mut()));
        if map.capacity() > SPARE_ENTRIES || roots.capacity() > SPARE_ENTRIES {
            return;
        }
        map.clear();
        roots.clear();
        // Into the spares unless they are full (or the thread is ending).
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARE_MAPS {
                spare.push((map, roots));
            }
        });
    }
}

impl Defs {
    pub fn of(p: &Program, f: &Function) -> Defs {
        // Sized for the usual function up front (a map grown from empty rehashes at every
        // doubling), and filled in one walk: a definition later in the walk replaces an
        // earlier one of the same variable.
        let (mut map, roots) = SPARE.try_with(|spare| spare.borrow_mut().pop()).ok().flatten().unwrap_or_default();
        map.reserve(f.params.len() + 16);
        for (k, param) in f.params.iter().enumerate() {
            map.insert(param.var, Def::Param(k));
        }
        let out = &mut map;
        visit::walk_stmts(p, &f.body, |s| match &p.stmt(s).kind {
            StmtKind::Assign { var, value } => {
                out.insert(*var, Def::Value(*value));
            }
            StmtKind::For(for_) => {
                let ForStmt { var, iter_args, return_vars, .. } = &**for_;
                out.insert(*var, Def::Other);
                for (a, rv) in iter_args.iter().zip(return_vars) {
                    out.insert(a.var, Def::Carried(a.init));
                    out.insert(*rv, Def::Carried(a.init));
                }
            }
            StmtKind::While(while_) => {
                let WhileStmt { iter_args, return_vars, .. } = &**while_;
                for (a, rv) in iter_args.iter().zip(return_vars) {
                    out.insert(a.var, Def::Carried(a.init));
                    out.insert(*rv, Def::Carried(a.init));
                }
            }
            StmtKind::If(if_) => {
                let IfStmt { then_body, else_body, return_vars, .. } = &**if_;
                let yields = |b: &[crate::ir::StmtId]| match b.last().map(|&l| &p.stmt(l).kind) {
                    Some(StmtKind::Yield(values)) => values.as_slice(),
                    _ => &[],
                };
                let (t, e) = (yields(then_body), else_body.as_deref().map_or(&[][..], yields));
                for (i, rv) in return_vars.iter().enumerate() {
                    out.insert(*rv, Def::Phi(t.get(i).into_iter().chain(e.get(i)).copied().collect()));
                }
            }
            StmtKind::Scope(scope) => {
                if let Some(t) = scope.task_id {
                    out.insert(t, Def::Other);
                }
            }
            _ => {}
        });
        Defs { map, roots: RefCell::new(roots), near: 0 }
    }

    /// The definitions of the function at `place` in `p.functions`, which says where its
    /// callees are looked for first.
    pub fn at(mut self, place: usize) -> Defs {
        self.near = place;
        self
    }
}

/// Where a variable's buffer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// The variable that owns the buffer: a parameter, or one bound to a fresh allocation
    /// (or to anything else this analysis does not see through).
    Known(VarId),
    /// Different buffers on different paths (an `if` yielding different tensors).
    Ambiguous,
}

/// Roots of variables, with the returned-parameter map of every function, memoized.
#[derive(Default)]
pub struct Lineage {
    returned: FxHashMap<Symbol, Vec<Option<usize>>>,
    /// The functions whose returned parameters are being computed, innermost last.
    open: Vec<Symbol>,
    /// Whether a query met a call cycle (a function asked for while it is open), whose
    /// answer ("not a parameter") depends on where the cycle was entered: the memo's
    /// answers then depend on the order of the queries, and a parallel walk with a
    /// `Lineage` per thread is not the serial one (DeriveCallDirections falls back to it).
    pub met_cycle: bool,
}

impl Lineage {
    /// Takes in the memo of another `Lineage` that met no call cycle (its answers are the
    /// ones any order of queries gives), as if its queries had been made here.
    pub fn absorb(&mut self, other: Lineage) {
        debug_assert!(!other.met_cycle && other.open.is_empty());
        self.returned.extend(other.returned);
    }

    /// The root of `v` in a function whose definitions are `defs`.
    pub fn root(&mut self, p: &Program, defs: &Defs, v: VarId) -> Root {
        let mut visited: Lifo<VarId, 16> = Lifo::new();
        let r = self.find_root(p, defs, v, &mut visited);
        let mut roots = defs.roots.borrow_mut();
        if roots.capacity() == 0 {
            // Sized on first use for every definition, so that it is not grown from empty.
            roots.reserve(defs.map.len());
        }
        roots.reserve(visited.len());
        while let Some(w) = visited.pop() {
            roots.insert(w, r);
        }
        r
    }

    fn find_root(&mut self, p: &Program, defs: &Defs, v: VarId, visited: &mut Lifo<VarId, 16>) -> Root {
        let mut v = v;
        // Each step goes to an earlier definition, so the walk ends; the bound guards
        // against malformed input.
        for _ in 0..=defs.map.len() {
            if let Some(&r) = defs.roots.borrow().get(&v) {
                return r;
            }
            visited.push(v);
            let next = match defs.map.get(&v) {
                None | Some(Def::Param(_)) | Some(Def::Other) => return Root::Known(v),
                Some(Def::Value(e)) => self.value_source(p, defs, *e),
                Some(Def::Carried(init)) => as_var(p, *init),
                Some(Def::Phi(values)) => {
                    let values = values.clone();
                    let mut found: Option<Root> = None;
                    for e in values {
                        let r = match as_var(p, e) {
                            Some(w) => self.root(p, defs, w),
                            None => Root::Ambiguous,
                        };
                        match found {
                            None => found = Some(r),
                            Some(f) if f == r => {}
                            Some(_) => return Root::Ambiguous,
                        }
                    }
                    return found.unwrap_or(Root::Known(v));
                }
            };
            match next {
                Some(w) => v = w,
                None => return Root::Known(v),
            }
        }
        Root::Known(v)
    }

    /// The variable whose buffer the value of `e` is, when `e` passes a buffer on.
    fn value_source(&mut self, p: &Program, defs: &Defs, e: ExprId) -> Option<VarId> {
        match &p.expr(e).kind {
            ExprKind::Var(w) => Some(*w),
            ExprKind::Call { callee: Callee::Op(op), args, .. } => {
                let def = op.def();
                if matches!(op, Op::TensorSlice | Op::TensorView | Op::TensorReshape) {
                    return args.first().copied().flatten().and_then(|a| as_var(p, a));
                }
                // `gather_row` returns its destination, written in place.
                if def.is_store() || *op == Op::TensorAssemble || def.kind == OpKind::Special(Special::GatherRow) {
                    let written = args.iter().enumerate().find_map(|(i, a)| match (a, def.effect(i)) {
                        (Some(a), Effect::Write | Effect::ReadWrite) => Some(*a),
                        _ => None,
                    });
                    return written.and_then(|a| as_var(p, a));
                }
                None
            }
            ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), args, .. } => {
                let k = self.returned_params_near(p, *g, defs.near).first().copied().flatten()?;
                args.get(k).copied().flatten().and_then(|a| as_var(p, a))
            }
            ExprKind::TupleGet { tuple, index } => {
                let tmp = as_var(p, *tuple)?;
                let Some(Def::Value(call)) = defs.map.get(&tmp) else { return None };
                let ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), args, .. } = &p.expr(*call).kind
                else {
                    return None;
                };
                let k = self.returned_params_near(p, *g, defs.near).get(*index as usize).copied().flatten()?;
                args.get(k).copied().flatten().and_then(|a| as_var(p, a))
            }
            _ => None,
        }
    }

    /// For each value `g` returns, the index of the parameter it is (traced through
    /// stores, loops and the functions `g` calls), if it is one.
    pub fn returned_params(&mut self, p: &Program, g: Symbol) -> Vec<Option<usize>> {
        self.returned_params_near(p, g, 0)
    }

    /// [`Lineage::returned_params`] of `g` called from the function at place `near` in
    /// `p.functions` (where `g` is looked for first: [`Program::callee_near`]).
    fn returned_params_near(&mut self, p: &Program, g: Symbol, near: usize) -> Vec<Option<usize>> {
        if let Some(r) = self.returned.get(&g) {
            self.met_cycle |= self.open.contains(&g);
            return r.clone();
        }
        // A call cycle resolves to "not a parameter".
        self.returned.insert(g, Vec::new());
        let Some((place, f)) = p.callee_near(g, near) else { return Vec::new() };
        if let Some(out) = returned_without_defs(p, f) {
            self.returned.insert(g, out.clone());
            return out;
        }
        self.open.push(g);
        let defs = Defs::of(p, f).at(place);
        let mut out = Vec::new();
        if let Some(StmtKind::Return(values)) = f.body.last().map(|&s| &p.stmt(s).kind) {
            for &e in values {
                // A value returned as an expression (`return pl.store(t, o, out)`) names the
                // buffer it passes on, as when it is bound to a variable first.
                let var = as_var(p, e).or_else(|| self.value_source(p, &defs, e));
                let k = var.and_then(|v| match self.root(p, &defs, v) {
                    Root::Known(r) => match defs.map.get(&r) {
                        Some(Def::Param(k)) => Some(*k),
                        _ => None,
                    },
                    Root::Ambiguous => None,
                });
                out.push(k);
            }
        }
        self.open.pop();
        self.returned.insert(g, out.clone());
        out
    }
}

/// [`Lineage::returned_params`] of `g` asked of a memo of its own (what a new `Lineage`
/// answers), without making one when `g`'s answer needs no definitions (an external kernel,
/// or a kernel returning its own parameters: [`returned_without_defs`]).
pub fn returned_params_alone(p: &Program, g: Symbol) -> Vec<Option<usize>> {
    match p.callee_near(g, 0) {
        Some((_, f)) => match returned_without_defs(p, f) {
            Some(out) => out,
            None => Lineage::default().returned_params(p, g),
        },
        None => Vec::new(),
    }
}

/// What [`Lineage::returned_params`] finds for `f` without its definitions: an external
/// kernel's Out and InOut parameters, in order (it has no body to trace: the `-> T` of a
/// kernel that writes `out`), or [`returned_own_params`]. `None` otherwise.
fn returned_without_defs(p: &Program, f: &Function) -> Option<Vec<Option<usize>>> {
    if f.decl.external_source.is_some() {
        let mut outs = f.params.iter().enumerate().filter(|(_, q)| q.dir != crate::ir::Direction::In);
        return Some(f.returns.iter().map(|_| outs.next().map(|(k, _)| k)).collect());
    }
    returned_own_params(p, f)
}

/// At most this many parameters for [`binds_a_param`]'s question: it compares every
/// variable the body binds with each parameter.
const FEW_PARAMS: usize = 16;

/// Whether a statement of `f` binds one of its parameters (a function in SSA form binds
/// none): when not, [`Defs::of`] records each parameter as the parameter, and a
/// parameter's root is itself, known without the definitions' maps. `true` (the
/// definitions are needed) for a function of many parameters.
pub fn binds_a_param(p: &Program, f: &Function) -> bool {
    f.params.len() > FEW_PARAMS
        || visit::any_stmt(p, &f.body, |s| {
            let mut found = false;
            visit::stmt_defs(p, s, |v| found |= f.params.iter().any(|q| q.var == v));
            found
        })
}

/// What [`Lineage::returned_params`] finds for `f` when every value `f` returns is one of its
/// parameters, bare, and no statement binds a parameter ([`binds_a_param`]; [`Defs::of`]
/// would record each as the parameter, the last of that variable): the parameters'
/// places, known without the definitions' maps (a kernel returning the parameters it
/// wrote, as the outliners make them). `None` otherwise.
fn returned_own_params(p: &Program, f: &Function) -> Option<Vec<Option<usize>>> {
    let values = match f.body.last().map(|&s| &p.stmt(s).kind) {
        Some(StmtKind::Return(values)) => values,
        _ => return Some(Vec::new()),
    };
    let mut out = Vec::with_capacity(values.len());
    for &e in values {
        let v = as_var(p, e)?;
        out.push(Some(f.params.iter().rposition(|q| q.var == v)?));
    }
    (!binds_a_param(p, f)).then_some(out)
}

/// Whether `f` is a device kernel of one core (InCore, AIC, AIV): a function that seldom
/// calls one. DeriveCallDirections walks the other functions first, and these only when
/// [`all_calls_seen`] says the others do not hold every call there is (most programs'
/// kernels call none, and they are most of the nodes).
pub fn seldom_calls(f: &Function) -> bool {
    matches!(f.decl.kind, FuncKind::InCore | FuncKind::Aic | FuncKind::Aiv)
}

/// Below this many nodes [`all_calls_seen`] scans the arena on the calling thread.
const PARALLEL_MIN_NODES: usize = 1 << 16;

/// Whether the calls in `seen` (found in the trees of some functions, in any order, a call
/// met twice counted once) are every call the program's expression arena holds whose callee
/// `wanted` accepts, live or left behind by a rewrite: then no other function's tree holds
/// one, as no node belongs to two functions' trees (lowering, InlineFunctions' copies and
/// the outliners give each function nodes of its own; a rewrite's left-behind nodes belong
/// to none). One flat scan of the arena, in order (in parallel for a large one), which
/// reads every node, the nodes left behind included (about three for each live one after
/// the outliners): cheaper than DeriveCallDirections' walk of the kernels (a walk per
/// statement, with its calls and roots), not than LegalizeGraphBoundary's plain search
/// (tried: its CPU time rose).
pub fn all_calls_seen(p: &Program, seen: &[ExprId], wanted: impl Fn(Callee) -> bool + Sync) -> bool {
    use rayon::prelude::*;
    let n = p.exprs.len();
    // The distinct calls, counted in a set of one bit per node: the calls of the outlined
    // functions are later nodes than their callers', so `seen` is seldom sorted, and
    // sorting it took a millisecond of a serial path at gen(10000).
    let mut met = vec![0u64; n.div_ceil(64)];
    let mut distinct = 0;
    for e in seen {
        let Some(word) = met.get_mut(e.index() / 64) else { return false };
        let bit = 1u64 << (e.index() % 64);
        distinct += usize::from(*word & bit == 0);
        *word |= bit;
    }
    // The passes run on the driver's program, whose arenas are not forked (`Arena::iter`
    // reads an unforked arena's every node).
    let is_wanted = |e: &&crate::ir::Expr| matches!(&e.kind, ExprKind::Call { callee, .. } if wanted(*callee));
    let in_arena = if rayon::current_num_threads() < 2 || n < PARALLEL_MIN_NODES {
        p.exprs.iter().filter(is_wanted).count()
    } else {
        // Runs of consecutive nodes, each an iterator over the arena's slices.
        let run = PARALLEL_MIN_NODES / 4;
        (0..n.div_ceil(run))
            .into_par_iter()
            .map(|k| p.exprs.iter().skip(k * run).take(run).filter(is_wanted).count())
            .sum()
    };
    in_arena == distinct
}

/// Whether the calls `edges` (each the places in `p.functions` of a caller and of the
/// function it calls) make a cycle, a function calling itself included.
pub fn calls_cycle(p: &Program, edges: impl Iterator<Item = (u32, u32)> + Clone) -> bool {
    let n = p.functions.len();
    // The callees of each function: counted, then filled (one list for all).
    let mut start = vec![0u32; n + 1];
    let mut count = 0;
    for (from, _) in edges.clone() {
        count += 1;
        start[from as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut next = start.clone();
    let mut to = vec![0u32; count];
    for (from, t) in edges.clone() {
        to[next[from as usize] as usize] = t;
        next[from as usize] += 1;
    }
    // Depth-first, iterative: 0 not yet met, 1 on the path, 2 done.
    let mut state = vec![0u8; n];
    let mut path: Vec<(u32, u32)> = Vec::new();
    for root in edges.map(|e| e.0) {
        if state[root as usize] != 0 {
            continue;
        }
        state[root as usize] = 1;
        path.push((root, start[root as usize]));
        while let Some(&mut (f, ref mut k)) = path.last_mut() {
            if *k == start[f as usize + 1] {
                state[f as usize] = 2;
                path.pop();
                continue;
            }
            let g = to[*k as usize];
            *k += 1;
            match state[g as usize] {
                0 => {
                    state[g as usize] = 1;
                    path.push((g, start[g as usize]));
                }
                1 => return true,
                _ => {}
            }
        }
    }
    false
}

/// `a` and `b`, each in the order of the places `place` gives (of different functions,
/// say), as one list in that order.
pub fn merge_by_place<T>(a: Vec<T>, b: Vec<T>, place: impl Fn(&T) -> usize) -> Vec<T> {
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        let next = if place(y) < place(x) { b.next() } else { a.next() };
        out.extend(next);
    }
    out.extend(a);
    out.extend(b);
    out
}

/// The variable an expression is, if it is a bare variable.
pub fn as_var(p: &Program, e: ExprId) -> Option<VarId> {
    match p.expr(e).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    }
}

/// Which parameters of `entry` it, or a function it calls, adds into with an atomic store
/// or assemble (`atomic=pl.AtomicType.Add`) whose destination roots at the parameter. Such
/// a destination's contents are an operand of the sum: PyPTO derives its direction `InOut`
/// whatever its declaration, and its runtime stages the caller's data into it, so `plc
/// run` and the harness fill such an `Out` parameter of the entry as they fill an `InOut`
/// one. Computed for every function at once, to a fixed point over the calls.
pub fn accumulated_params(p: &Program, entry: Symbol) -> Vec<bool> {
    let defs: Vec<Defs> = p.functions.values().map(|f| Defs::of(p, f)).collect();
    let mut acc: FxHashMap<Symbol, Vec<bool>> =
        p.functions.iter().map(|(name, f)| (*name, vec![false; f.params.len()])).collect();
    let mut lineage = Lineage::default();
    // Each round marks at least one more parameter or ends: at most one round per parameter.
    loop {
        let mut changed = false;
        for ((name, f), defs) in p.functions.iter().zip(&defs) {
            let mut reached = Vec::new();
            visit::walk_block_exprs(p, &f.body, |_, e| {
                let ExprKind::Call { callee, args, .. } = &p.expr(e).kind else { return };
                let written: Vec<usize> = match callee {
                    Callee::Op(op) => {
                        let def = op.def();
                        let adds =
                            def.param_index(crate::ir::ops::Param::Atomic).and_then(|i| args.get(i).copied().flatten());
                        let adds = adds.is_some_and(|a| {
                            matches!(
                                p.expr(a).kind,
                                ExprKind::Enum(crate::ir::EnumValue::AtomicType(crate::ir::AtomicType::Add))
                            )
                        });
                        if !adds {
                            return;
                        }
                        (0..args.len())
                            .filter(|&i| matches!(def.effect(i), Effect::Write | Effect::ReadWrite))
                            .collect()
                    }
                    Callee::Func(g) | Callee::Submit(g) => match acc.get(g) {
                        Some(marks) => (0..marks.len()).filter(|&k| marks[k]).collect(),
                        None => return,
                    },
                };
                reached.extend(written.into_iter().filter_map(|i| args.get(i).copied().flatten()));
            });
            for a in reached {
                let Some(v) = as_var(p, a) else { continue };
                // A parameter itself (before ConvertToSSA a store rebinds it), else the
                // parameter its buffer roots at.
                let k = f.params.iter().position(|q| q.var == v).or_else(|| match lineage.root(p, defs, v) {
                    Root::Known(r) => match defs.map.get(&r) {
                        Some(Def::Param(k)) => Some(*k),
                        _ => None,
                    },
                    Root::Ambiguous => None,
                });
                if let Some(k) = k {
                    if let Some(mark) = acc.get_mut(name).and_then(|m| m.get_mut(k)).filter(|m| !**m) {
                        *mark = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    acc.remove(&entry).unwrap_or_default()
}
