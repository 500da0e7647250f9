//! DeriveCallDirections: the direction of each argument at each call of a function, from
//! the callee's parameter directions and where the call sits. Stored on the call as
//! `arg_directions` (one of `Input`, `InOut`, `OutputExisting`, `NoDep`, `Scalar` per
//! argument), which the C++ emitter turns into task argument kinds.
//!
//! - A scalar argument is `Scalar`; one bound to an `In` parameter is `Input`, to an
//!   `InOut` parameter `InOut`.
//! - One bound to an `Out` parameter is `OutputExisting` (the task writes a buffer the
//!   caller already has) unless the write must also wait for earlier contents, which makes
//!   it `InOut`: inside a sequential loop or a `while` (R-seq), when the buffer differs by
//!   path (an `if` yielding different tensors), when an earlier call in the same scope
//!   wrote the same buffer (R-prior), or when the buffer is a parameter of the enclosing
//!   function declared `InOut` (R-enclosing).
//! - R-seq has PyPTO's exception for disjoint writes: when every `pl.store` the callee makes
//!   into the `Out` parameter (or a store or assemble result derived from it) has an offset
//!   that reads another parameter, and the argument given to one of those parameters (in
//!   every such store) reads the variable of an enclosing sequential loop, each iteration
//!   writes its own part of the buffer: the argument stays `OutputExisting` (unless R-prior
//!   or R-enclosing apply).
//! - An argument written `pl.no_dep(x)` (or listed in `no_dep_args=`) is `NoDep`.
//!
//! First, the parameters of Group and Spmd wrappers are promoted (never demoted) to the
//! directions of the kernel parameters they are passed to, up to a fixed point.
//! A call that already has `arg_directions` keeps them, so the pass is idempotent; an entry
//! the argument or the callee's parameter contradicts (`Input` for an `Out` parameter,
//! `Scalar` for a tensor) is E0416, as PyPTO's CallDirectionsResolved verifier rejects it.
//!
//! The walk reads the program only and runs on runs of consecutive functions in parallel.
//! It visits the one-core kernels (InCore, AIC, AIV: most of the nodes, and seldom a
//! call) only when the other functions do not hold every call of a function the arena
//! has (`lineage::all_calls_seen`); and it asks the roots a call does not need (for what
//! they do to the memo of returned parameters) only when the calls make a cycle
//! (`lineage::calls_cycle`), so that a graph calling its kernel builds no `Defs`. The
//! root of an argument bound to an `InOut` parameter (`InOut` whatever its root) is asked
//! only when a later call needs the buffers written before it (R-prior, a `pl.no_dep`
//! race), so an orchestration function whose launch writes its `InOut` argument builds
//! none either. The walk also applies LegalizeGraphBoundary's static rules of each Graph
//! function's body, whose expressions it reads anyway, and hands their findings on with
//! the calls ([`Handed`]), each call with where its statement sits ([`Place`]: the
//! rewrite of its call site then reads only the block that holds it).
//!
//! A task launch (a call in a function that is not a device kernel) that passes
//! `pl.no_dep(x)` where an earlier launch in scope wrote `x`'s buffer, and that declares no
//! `deps=`, leaves the two unordered: the warning E0413 says so (on the real runtime the two
//! tasks may run at the same time; plc's runtime and `plc run` run them in program order).

use super::legalize::{self, StaticFinding};
use super::{Handoff, PassCx};
use crate::diag::{Code, Diagnostic, Label, Severity};
use crate::intern::Symbol;
use crate::ir::lineage::{self, Def, Defs, Lineage, Root};
use crate::ir::ops::Op;
use crate::ir::visit;
use crate::ir::{
    ArgDir, Callee, Direction, Expr, ExprId, ExprKind, ForKind, ForStmt, FuncKind, IfStmt, Program, StmtId, StmtKind,
    Type, VarId, WhileStmt,
};
use rustc_hash::{FxHashMap, FxHashSet};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    promote_wrappers(program);
    let Found { found, races, written_no_dep, contradictions, sites, statics, .. } = walk_functions(program);
    // The pass changes the calls' attributes only: the calls found, and what the static
    // rules of the graphs' bodies find, stay the program's.
    cx.left = Handoff::Calls(Handed { sites, statics });
    for (_, c) in contradictions {
        report_contradiction(cx, program, &c);
    }
    for (_, (arg, dir)) in written_no_dep {
        let at = program.expr(arg).loc;
        cx.diags.push(
            Diagnostic::new(
                Severity::Warning,
                Code::E0415,
                format!("`pl.no_dep` on an argument the callee writes (its parameter is {dir})"),
                Label::primary(at.file, at.span, "this write is not tracked"),
            )
            .with_help(
                "later tasks that read this buffer will not wait for this one; pass the argument without `pl.no_dep` \
                 unless something else orders them",
            ),
        );
    }
    for (_, (arg, writer, buffer)) in races {
        let name = cx.names.get(program.var(buffer).source).to_string();
        let at = program.expr(arg).loc;
        let wloc = program.expr(writer).loc;
        let mut d = Diagnostic::new(
            Severity::Warning,
            Code::E0413,
            format!("`pl.no_dep` leaves this task's access to `{name}` unordered with an earlier task that writes it"),
            Label::primary(at.file, at.span, "not tracked, and no `deps=` orders it"),
        )
        .with_help("add the earlier task's id to `deps=`, or pass the argument without `pl.no_dep`");
        if !wloc.is_compiler_made() {
            d = d.with_label(Label::secondary(wloc.file, wloc.span, format!("this task writes `{name}`")));
        }
        cx.diags.push(d);
    }
    apply_directions(program, found);
}

/// Below this many calls found, their directions are given on the calling thread.
const PARALLEL_MIN_CALLS: usize = 4096;

/// Gives each call found its directions. For many calls, in parallel: the expression
/// arena cut into ranges, each written by one thread with the calls that fall in it (the
/// serial loop was 1–1.5 ms at gen(10000), mostly waiting for the calls' nodes to come
/// from memory). A call found twice gets its later directions either way.
fn apply_directions(program: &mut Program, found: Vec<(u32, (ExprId, Vec<ArgDir>))>) {
    use rayon::prelude::*;
    let set = |e: &mut Expr, dirs: Vec<ArgDir>| {
        if let ExprKind::Call { attrs, .. } = &mut e.kind {
            attrs.make_mut().arg_directions = Some(dirs);
        }
    };
    let threads = rayon::current_num_threads();
    let exprs = match program.exprs.as_mut_slice() {
        Some(exprs) if threads >= 2 && found.len() >= PARALLEL_MIN_CALLS => exprs,
        _ => {
            for (_, (call, dirs)) in found {
                set(&mut program.exprs[call.index()], dirs);
            }
            return;
        }
    };
    let range = exprs.len().div_ceil(threads * 8);
    let mut in_range: Vec<Vec<(ExprId, Vec<ArgDir>)>> = (0..exprs.len().div_ceil(range)).map(|_| Vec::new()).collect();
    for (_, (call, dirs)) in found {
        in_range[call.index() / range].push((call, dirs));
    }
    exprs.par_chunks_mut(range).zip(in_range).enumerate().for_each(|(k, (nodes, calls))| {
        for (call, dirs) in calls {
            set(&mut nodes[call.index() - k * range], dirs);
        }
    });
}

/// What the walk of the functions found, in the order of the functions and, within one, of
/// the walk; each finding with its function's place in the program.
#[derive(Default)]
struct Found {
    /// Each call without `arg_directions`, with the directions derived for it.
    found: Vec<(u32, (ExprId, Vec<ArgDir>))>,
    races: Vec<(u32, (ExprId, ExprId, VarId))>,
    written_no_dep: Vec<(u32, (ExprId, Direction))>,
    contradictions: Vec<(u32, Contradiction)>,
    /// Every call of a function met (for [`lineage::all_calls_seen`]), and each call of a
    /// function of the program (for [`lineage::calls_cycle`], and handed on to
    /// LegalizeGraphBoundary).
    seen: Vec<ExprId>,
    sites: Vec<CallSite>,
    /// What LegalizeGraphBoundary's static rules of a Graph function's body find
    /// ([`legalize::static_findings`]), with the graph's place: found in this walk, which
    /// reads those nodes anyway, and handed on.
    statics: Vec<(u32, StaticFinding)>,
    /// Whether a root query met a call cycle ([`Lineage::met_cycle`]).
    met_cycle: bool,
}

impl Found {
    /// The findings of runs of functions, in order, as one: each list made once at its
    /// final length (appended run by run, the lists grew by doubling, copied and faulted
    /// in on the serial path: 1–2 ms at gen(10000)).
    fn concat(parts: Vec<Found>) -> Found {
        fn total<T>(parts: &[Found], list: impl Fn(&Found) -> &Vec<T>) -> Vec<T> {
            Vec::with_capacity(parts.iter().map(|p| list(p).len()).sum())
        }
        let mut all = Found {
            found: total(&parts, |p| &p.found),
            races: total(&parts, |p| &p.races),
            written_no_dep: total(&parts, |p| &p.written_no_dep),
            contradictions: total(&parts, |p| &p.contradictions),
            seen: total(&parts, |p| &p.seen),
            sites: total(&parts, |p| &p.sites),
            statics: total(&parts, |p| &p.statics),
            met_cycle: false,
        };
        for part in parts {
            all.append(part);
        }
        all
    }

    /// Appends the findings of functions after these.
    fn append(&mut self, mut other: Found) {
        self.found.append(&mut other.found);
        self.races.append(&mut other.races);
        self.written_no_dep.append(&mut other.written_no_dep);
        self.contradictions.append(&mut other.contradictions);
        self.seen.append(&mut other.seen);
        self.sites.append(&mut other.sites);
        self.statics.append(&mut other.statics);
        self.met_cycle |= other.met_cycle;
    }

    /// Takes in the findings of other functions, each list kept in the functions' order.
    fn merge(&mut self, other: Found) {
        merge_by_function(&mut self.sites, other.sites);
        merge_by_function(&mut self.statics, other.statics);
        merge_by_function(&mut self.found, other.found);
        merge_by_function(&mut self.races, other.races);
        merge_by_function(&mut self.written_no_dep, other.written_no_dep);
        merge_by_function(&mut self.contradictions, other.contradictions);
        self.met_cycle |= other.met_cycle;
    }
}

/// `into` and `from` (each in the order of the functions' places, of different functions)
/// as one list in that order.
fn merge_by_function<T>(into: &mut Vec<(u32, T)>, from: Vec<(u32, T)>) {
    *into = lineage::merge_by_place(std::mem::take(into), from, |x| x.0 as usize);
}

/// A call of a function of the program: the caller's place in `program.functions`, the
/// statement holding the call, the call, the callee's place, and where the statement sits.
pub type CallSite = (u32, (StmtId, ExprId, u32, Place));

/// Where a statement sits in its function: the statement whose block holds it (or the
/// function's body), which of that statement's blocks (in `visit::stmt_blocks` order), and
/// its position in the block; and whether it holds a block itself. Handed on with the
/// calls, so that LegalizeGraphBoundary's rewrite of a call site reads only the block that
/// holds the call. Eight bytes: the block, the position and whether the statement holds a
/// block share one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The statement whose block holds it; [`Place::BODY`]: the function's body.
    parent: u32,
    /// Its position in the block (from bit 2), which block of `parent` (bit 1: an `else`
    /// block), and whether the statement holds a block or the place is not known (bit 0).
    slot: u32,
}

impl Place {
    /// In [`Place::parent`]: the function's body.
    pub const BODY: u32 = u32::MAX;
    /// Where a statement sits when not known (as if it held a block).
    pub const UNKNOWN: Place = Place { parent: Place::BODY, slot: 1 };

    /// The place of the statement at `index` in block `which` (0, or 1 for an `else`
    /// block) of `parent`; [`Place::UNKNOWN`] for a position too large to keep.
    pub fn new(parent: u32, which: u8, index: usize, holds_block: bool) -> Place {
        match u32::try_from(index) {
            Ok(i) if i < 1 << 30 => Place { parent, slot: i << 2 | u32::from(which & 1) << 1 | u32::from(holds_block) },
            _ => Place::UNKNOWN,
        }
    }

    /// The statement whose block holds it ([`Place::BODY`]: the function's body).
    pub fn parent(self) -> u32 {
        self.parent
    }

    /// Which block of [`Place::parent`] (in `visit::stmt_blocks` order).
    pub fn block(self) -> usize {
        (self.slot >> 1 & 1) as usize
    }

    /// The statement's position in its block.
    pub fn index(self) -> usize {
        (self.slot >> 2) as usize
    }

    /// Whether the place is known and the statement holds no block.
    pub fn known_leaf(self) -> bool {
        self.slot & 1 == 0
    }
}

/// What the pass hands to LegalizeGraphBoundary ([`Handoff::Calls`]): every call of a
/// function of the program ([`CallSite`]), and the findings of the static rules of each
/// Graph function's body with the graph's place, both in the order of the functions'
/// places and, within one, of `visit::walk_block_exprs`.
pub struct Handed {
    pub sites: Vec<CallSite>,
    pub statics: Vec<(u32, StaticFinding)>,
}

/// Below this many functions the walk runs on the calling thread.
const PARALLEL_MIN_FUNCTIONS: usize = 256;

/// A function with its place in the program.
type Placed<'p> = (u32, &'p crate::ir::Function);

/// Walks every function that calls one (reading the program only): the functions other than
/// the one-core kernels first, then the kernels only when the calls found are not all the
/// calls of functions the program holds ([`lineage::all_calls_seen`]), their findings
/// merged in the functions' order. A function without a call finds nothing: skipping it
/// changes nothing.
///
/// The roots a call does not need are not asked at first: they are asked only for what
/// they do to the memo of returned parameters, whose answers depend on the order of the
/// queries only around a call cycle. When the calls found make a cycle, the walk is made
/// again asking them (and serially, every function in order, when a query met one).
fn walk_functions(program: &Program) -> Found {
    let all: Vec<Placed<'_>> = program.functions.values().enumerate().map(|(i, f)| (i as u32, f)).collect();
    let (kernels, others): (Vec<Placed<'_>>, Vec<Placed<'_>>) = all.iter().partition(|(_, f)| lineage::seldom_calls(f));
    let walk = |ask_unneeded: bool| {
        let mut found = walk_list(program, &others, ask_unneeded);
        let any_call = |c: Callee| matches!(c, Callee::Func(_) | Callee::Submit(_));
        if !kernels.is_empty() && !found.met_cycle && !lineage::all_calls_seen(program, &found.seen, any_call) {
            found.merge(walk_list(program, &kernels, ask_unneeded));
        }
        found
    };
    let mut found = walk(false);
    if found.met_cycle || lineage::calls_cycle(program, found.sites.iter().map(|&(from, (_, _, to, _))| (from, to))) {
        found = walk(true);
    }
    if found.met_cycle {
        // The memo's answers depend on the order of the queries: the serial walk, every
        // function in order.
        return walk_run(program, &all, true);
    }
    found
}

/// Walks `funcs` (reading the program only), in parallel for many: runs of consecutive
/// functions, each with its own memos (roots, returned parameters, offset parameters),
/// whose findings are joined in the functions' order. The memos' answers do not depend on
/// the order of the queries unless a call cycle is met (then [`walk_functions`] makes the
/// serial walk instead).
fn walk_list(program: &Program, funcs: &[Placed<'_>], ask_unneeded: bool) -> Found {
    use rayon::prelude::*;
    let threads = rayon::current_num_threads();
    if threads < 2 || funcs.len() < PARALLEL_MIN_FUNCTIONS {
        return walk_run(program, funcs, ask_unneeded);
    }
    let run = funcs.len().div_ceil(threads * 4).max(PARALLEL_MIN_FUNCTIONS / 4);
    let parts: Vec<Found> = funcs.par_chunks(run).map(|part| walk_run(program, part, ask_unneeded)).collect();
    Found::concat(parts)
}

/// The walk of a run of functions, in order, with memos of its own. One walker for the
/// run: its sets, maps and buffers are emptied from one function to the next, not made
/// again.
/// `ask_unneeded`: whether the roots a call does not need are asked.
fn walk_run(program: &Program, funcs: &[Placed<'_>], ask_unneeded: bool) -> Found {
    let Some(&(_, first)) = funcs.first() else { return Found::default() };
    let mut w = Walker {
        p: program,
        func: first,
        at: 0,
        ask_unneeded,
        binds_param: None,
        defs: None,
        lineage: Lineage::default(),
        inout_params: FxHashSet::default(),
        inout_known: false,
        written: FxHashSet::default(),
        log: Vec::new(),
        counted: false,
        root_count: FxHashMap::default(),
        launches: false,
        writers: FxHashMap::default(),
        pending_writers: Vec::new(),
        loop_vars: Vec::new(),
        offset_params: FxHashMap::default(),
        out: Found::default(),
        calls: Vec::new(),
        writes: Vec::new(),
        graph: false,
        statics: Vec::new(),
        place: Place::UNKNOWN,
    };
    for &(at, f) in funcs {
        w.func = f;
        w.at = at;
        w.binds_param = None;
        w.defs = None;
        if w.inout_known {
            w.inout_params.clear();
            w.inout_known = false;
        }
        w.written.clear();
        w.log.clear();
        w.counted = ask_unneeded;
        w.root_count.clear();
        w.launches = !f.decl.kind.is_device_kernel();
        w.graph = f.decl.kind == FuncKind::Graph;
        w.writers.clear();
        w.pending_writers.clear();
        w.block(&f.body, 0, (Place::BODY, 0));
    }
    w.out.met_cycle = w.lineage.met_cycle;
    w.out
}

/// Group and Spmd functions forward their parameters to kernels: each parameter takes at
/// least the direction of the kernel parameters it is passed to.
fn promote_wrappers(program: &mut Program) {
    let wrappers: Vec<Symbol> = program
        .functions
        .values()
        .filter(|f| matches!(f.decl.kind, FuncKind::Group | FuncKind::Spmd))
        .map(|f| f.name)
        .collect();
    // Each round can only raise directions, and each of them at most twice.
    for _ in 0..=2 * program.functions.len() {
        let mut changed = false;
        for &w in &wrappers {
            let f = &program.functions[&w];
            let mut dirs: Vec<Direction> = f.params.iter().map(|p| p.dir).collect();
            visit::walk_stmts(program, &f.body, |s| {
                visit::stmt_exprs(program, s, |e| {
                    let ExprKind::Call { callee: Callee::Func(g) | Callee::Submit(g), args, .. } =
                        &program.expr(e).kind
                    else {
                        return;
                    };
                    let Some(callee) = program.functions.get(g) else { return };
                    for (i, a) in args.iter().enumerate() {
                        let (Some(a), Some(cp)) = (a, callee.params.get(i)) else { continue };
                        let ExprKind::Var(v) = program.expr(*a).kind else { continue };
                        if let Some(k) = f.params.iter().position(|p| p.var == v) {
                            dirs[k] = merge(dirs[k], cp.dir);
                        }
                    }
                });
            });
            let f = program.functions.get_mut(&w).expect("a wrapper");
            for (p, d) in f.params.iter_mut().zip(dirs) {
                if p.dir != d {
                    p.dir = d;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// `In < Out < InOut`.
fn merge(a: Direction, b: Direction) -> Direction {
    let rank = |d| match d {
        Direction::In => 0,
        Direction::Out => 1,
        Direction::InOut => 2,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

struct Walker<'a> {
    p: &'a Program,
    /// The function walked, and its place in the program.
    func: &'a crate::ir::Function,
    at: u32,
    /// Whether the roots a call does not need are asked ([`walk_functions`]).
    ask_unneeded: bool,
    /// Whether the function walked binds a parameter ([`lineage::binds_a_param`]), once
    /// asked.
    binds_param: Option<bool>,
    /// Its definitions, made at the first root asked for (a function that calls no
    /// function, as a kernel, never needs them).
    defs: Option<Defs>,
    lineage: Lineage,
    /// The function's `InOut` parameters, filled at the first question in a function (as
    /// `inout_known` says): most functions never ask.
    inout_params: FxHashSet<VarId>,
    inout_known: bool,
    /// The arguments (variables) earlier calls in scope wrote into: the buffers written are
    /// their roots, asked only when a later call needs to know ([`Walker::was_written`]).
    written: FxHashSet<VarId>,
    /// The arguments added to `written`, in order, so that a branch's writes can be undone
    /// before the other branch is walked.
    log: Vec<VarId>,
    /// Whether the roots of `written` are counted in `root_count` (from the first question
    /// about them in the function; from its start when `ask_unneeded`).
    counted: bool,
    /// How many arguments of `written` have each (known) root, when `counted`.
    root_count: FxHashMap<VarId, u32>,
    /// Whether the calls here are task launches (the function is not a device kernel).
    launches: bool,
    /// The last launch that wrote each buffer, for the launches up to `pending_writers`.
    writers: FxHashMap<VarId, ExprId>,
    /// The later launches' written arguments, in order, whose roots are asked (and put in
    /// `writers`) only when a race is looked for.
    pending_writers: Vec<(VarId, ExprId)>,
    /// The variables of the enclosing sequential `for` loops.
    loop_vars: Vec<VarId>,
    /// [`disjoint_store_params`] of (callee, Out parameter index), computed once.
    offset_params: FxHashMap<(Symbol, usize), Vec<usize>>,
    /// What the walk found so far.
    out: Found,
    /// The calls of the statement walked (a buffer kept from statement to statement).
    calls: Vec<ExprId>,
    /// The arguments (variables) the call walked writes into (a buffer kept from call to call).
    writes: Vec<VarId>,
    /// Whether the function walked is a Graph function, and the findings of its static
    /// rules in the statement walked (a buffer kept from statement to statement).
    graph: bool,
    statics: Vec<StaticFinding>,
    /// Where the statement walked sits.
    place: Place,
}

/// An `arg_directions` entry written on a call that its argument or the callee's parameter
/// contradicts: the call, the argument, the entry, the parameter and its direction, and
/// whether the argument is a scalar.
struct Contradiction {
    call: ExprId,
    arg: ExprId,
    given: ArgDir,
    param: VarId,
    dir: Direction,
    scalar: bool,
}

/// Whether a task may use an argument as `given` says: a scalar only as `Scalar`; a tensor
/// bound to an `In` parameter as `Input`, one bound to an `Out` or `InOut` parameter as
/// `InOut` or `OutputExisting`; `NoDep` on any tensor (PyPTO's CallDirectionsResolved rules).
fn allowed(given: ArgDir, dir: Direction, scalar: bool) -> bool {
    match (scalar, given) {
        (true, g) => g == ArgDir::Scalar,
        (false, ArgDir::Scalar) => false,
        (false, ArgDir::NoDep) => true,
        (false, ArgDir::Input) => dir == Direction::In,
        (false, ArgDir::InOut | ArgDir::OutputExisting) => dir != Direction::In,
    }
}

fn report_contradiction(cx: &mut PassCx<'_>, p: &Program, c: &Contradiction) {
    let name = cx.names.get(p.var(c.param).source).to_string();
    let loc = if p.expr(c.arg).loc.is_compiler_made() { p.expr(c.call).loc } else { p.expr(c.arg).loc };
    let what = if c.scalar { "a scalar argument".to_string() } else { format!("a pl.{} parameter", c.dir) };
    let takes = match (c.scalar, c.dir) {
        (true, _) => "Scalar",
        (false, Direction::In) => "Input or NoDep",
        (false, _) => "InOut, OutputExisting or NoDep",
    };
    cx.diags.push(
        Diagnostic::new(
            Severity::Error,
            Code::E0416,
            format!("attrs[\"arg_directions\"] gives {} for `{name}`, {what}", c.given),
            Label::primary(loc.file, loc.span, format!("takes {takes}")),
        )
        .with_help("write the direction the parameter allows, or drop `arg_directions` and let plc derive them"),
    );
}

/// The parameters of `f` that the offsets of its stores into its `Out` parameter `out`
/// read, when every such store's offset reads one: PyPTO's test for writes that land in a
/// different part of the buffer for each value of those parameters. The stores are
/// `x = pl.store(t, offsets, target)` where the target is the parameter or a value derived
/// from it by an earlier store or assemble; the result is the parameters every store's
/// offset reads. Empty when there is no such store, when one offset reads no other
/// parameter, and for Group and Spmd wrappers.
fn disjoint_store_params(p: &Program, f: Symbol, out: usize) -> Vec<usize> {
    let func = &p.functions[&f];
    if matches!(func.decl.kind, FuncKind::Group | FuncKind::Spmd) || out >= func.params.len() {
        return Vec::new();
    }
    let others: FxHashMap<VarId, usize> =
        func.params.iter().enumerate().filter(|&(i, _)| i != out).map(|(i, prm)| (prm.var, i)).collect();
    let mut aliases: FxHashSet<VarId> = [func.params[out].var].into_iter().collect();
    let mut common: Option<Vec<usize>> = None;
    let mut all_variable = true;
    let target_of = |e: ExprId, k: usize| match &p.expr(e).kind {
        ExprKind::Call { args, .. } => args.get(k).copied().flatten().and_then(|a| match p.expr(a).kind {
            ExprKind::Var(v) => Some((v, args.get(1).copied().flatten())),
            _ => None,
        }),
        _ => None,
    };
    visit::walk_stmts(p, &func.body, |s| {
        let StmtKind::Assign { var, value } = p.stmt(s).kind else { return };
        let ExprKind::Call { callee: Callee::Op(op), .. } = p.expr(value).kind else { return };
        if op == Op::TileStore {
            let Some((target, offsets)) = target_of(value, 2) else { return };
            if !aliases.contains(&target) {
                return;
            }
            aliases.insert(var);
            let mut read = Vec::new();
            if let Some(o) = offsets {
                visit::expr_reads(p, o, |v| {
                    if let Some(&i) = others.get(&v) {
                        if !read.contains(&i) {
                            read.push(i);
                        }
                    }
                });
            }
            if read.is_empty() {
                all_variable = false;
            }
            common = Some(match common.take() {
                None => read,
                Some(c) => c.into_iter().filter(|i| read.contains(i)).collect(),
            });
        } else if op == Op::TensorAssemble {
            if let Some((target, _)) = target_of(value, 0) {
                if aliases.contains(&target) {
                    aliases.insert(var);
                }
            }
        }
    });
    match common {
        Some(c) if all_variable => c,
        _ => Vec::new(),
    }
}

impl Walker<'_> {
    /// `sequential`: how many sequential loops (`pl.range`, `while`) enclose the block;
    /// `(parent, which)`: the statement whose block it is and which ([`Place`]).
    fn block(&mut self, block: &[StmtId], sequential: u32, (parent, which): (u32, u8)) {
        for (index, &s) in block.iter().enumerate() {
            let kind = &self.p.stmt(s).kind;
            let holds_block =
                matches!(kind, StmtKind::For(_) | StmtKind::While(_) | StmtKind::If(_) | StmtKind::Scope(_));
            self.place = Place::new(parent, which, index, holds_block);
            let own = (s.0, 0);
            match kind {
                StmtKind::For(for_) => {
                    let ForStmt { kind, var, body, .. } = &**for_;
                    self.exprs_of(s, sequential);
                    let seq = *kind != ForKind::Parallel;
                    if seq {
                        self.loop_vars.push(*var);
                    }
                    self.block(body, sequential + u32::from(seq), own);
                    if seq {
                        self.loop_vars.pop();
                    }
                }
                StmtKind::While(while_) => {
                    let WhileStmt { body, .. } = &**while_;
                    self.exprs_of(s, sequential);
                    self.block(body, sequential + 1, own);
                }
                StmtKind::If(if_) => {
                    let IfStmt { then_body, else_body, .. } = &**if_;
                    self.exprs_of(s, sequential);
                    let start = self.log.len();
                    self.block(then_body, sequential, own);
                    let then_writes: Vec<VarId> = self.log.drain(start..).collect();
                    for &v in &then_writes {
                        self.unwrite(v);
                    }
                    if let Some(e) = else_body {
                        self.block(e, sequential, (s.0, 1));
                    }
                    for v in then_writes {
                        self.write(v);
                    }
                }
                StmtKind::Scope(scope) => {
                    self.exprs_of(s, sequential);
                    self.block(&scope.body, sequential, own);
                }
                _ => self.exprs_of(s, sequential),
            }
        }
    }

    /// Whether the calls of `g` with `args` in the current sequential loops write disjoint
    /// parts of the buffer given to the Out parameter `i` (the R-seq exception): an
    /// argument for an offset parameter of [`disjoint_store_params`] reads a loop variable.
    fn disjoint(&mut self, g: Symbol, i: usize, args: &[Option<ExprId>]) -> bool {
        let p = self.p;
        let params = self.offset_params.entry((g, i)).or_insert_with(|| disjoint_store_params(p, g, i));
        params.iter().any(|&k| {
            let Some(a) = args.get(k).copied().flatten() else { return false };
            let mut reads = false;
            visit::expr_reads(p, a, |v| reads |= self.loop_vars.contains(&v));
            reads
        })
    }

    /// Whether `v` is an `InOut` parameter of the function walked.
    fn is_inout_param(&mut self, v: VarId) -> bool {
        if !self.inout_known {
            self.inout_known = true;
            self.inout_params.extend(self.func.params.iter().filter(|p| p.dir == Direction::InOut).map(|p| p.var));
        }
        self.inout_params.contains(&v)
    }

    /// The root of the argument `v` when it is known (not ambiguous).
    fn known_root(&mut self, v: VarId) -> Option<VarId> {
        match self.root(v, true) {
            Root::Known(r) => Some(r),
            Root::Ambiguous => None,
        }
    }

    /// An earlier call in scope wrote into the argument `v`.
    fn write(&mut self, v: VarId) {
        if self.written.insert(v) {
            self.log.push(v);
            if self.counted {
                if let Some(r) = self.known_root(v) {
                    *self.root_count.entry(r).or_insert(0) += 1;
                }
            }
        }
    }

    /// Undoes [`Walker::write`] of `v` (a branch's write, before the other branch).
    fn unwrite(&mut self, v: VarId) {
        if self.written.remove(&v) && self.counted {
            if let Some(r) = self.known_root(v) {
                if let Some(n) = self.root_count.get_mut(&r) {
                    *n -= 1;
                }
            }
        }
    }

    /// Whether an earlier call in scope wrote the buffer `r` (a root): the roots of the
    /// arguments written are asked at the first such question in a function (most functions
    /// never ask: a call whose written arguments are all `InOut` needs no root), then kept
    /// counted. Without a call cycle (else `counted` from the start) a root's answer does
    /// not depend on when it is asked.
    fn was_written(&mut self, r: VarId) -> bool {
        if !self.counted {
            self.counted = true;
            let vars: Vec<VarId> = self.written.iter().copied().collect();
            for v in vars {
                if let Some(r) = self.known_root(v) {
                    *self.root_count.entry(r).or_insert(0) += 1;
                }
            }
        }
        self.root_count.get(&r).is_some_and(|&n| n > 0)
    }

    /// The last launch that wrote the buffer `r`: the pending launches' roots asked first,
    /// in order.
    fn last_writer(&mut self, r: VarId) -> Option<ExprId> {
        for k in 0..self.pending_writers.len() {
            let (v, e) = self.pending_writers[k];
            if let Some(root) = self.known_root(v) {
                self.writers.insert(root, e);
            }
        }
        self.pending_writers.clear();
        self.writers.get(&r).copied()
    }

    /// The calls among a statement's own expressions.
    fn exprs_of(&mut self, s: StmtId, sequential: u32) {
        let mut calls = std::mem::take(&mut self.calls);
        calls.clear();
        let (p, at, graph) = (self.p, self.at, self.graph);
        let statics = &mut self.statics;
        visit::walk_stmt_exprs(p, s, |e| {
            if graph {
                legalize::static_findings(p, at as usize, e, statics);
            }
            if matches!(p.expr(e).kind, ExprKind::Call { callee: Callee::Func(_) | Callee::Submit(_), .. }) {
                calls.push(e);
            }
        });
        self.out.statics.extend(self.statics.drain(..).map(|f| (at, f)));
        self.out.seen.extend_from_slice(&calls);
        for &c in &calls {
            self.call(s, c, sequential);
        }
        self.calls = calls;
    }

    /// The root of `v` in the function walked; when the caller does not `need` it (the
    /// answer is then not used), it is asked only when `ask_unneeded` says so, and a
    /// variable that roots at itself (a parameter, a loop variable, a value computed by
    /// arithmetic) is not looked up. (A root not needed is asked when it may ask for a
    /// callee's returned parameters: under a call cycle the memo's answers depend on the
    /// order of the queries.) A parameter, in a function that binds none, is its own root,
    /// known without the function's definitions.
    fn root(&mut self, v: VarId, need: bool) -> Root {
        let (p, func) = (self.p, self.func);
        if !need && !self.ask_unneeded {
            return Root::Known(v);
        }
        if self.defs.is_none()
            && func.params.iter().any(|q| q.var == v)
            && !*self.binds_param.get_or_insert_with(|| lineage::binds_a_param(p, func))
        {
            return Root::Known(v);
        }
        let at = self.at as usize;
        let defs = self.defs.get_or_insert_with(|| Defs::of(p, func).at(at));
        if !need {
            let own = match defs.map.get(&v) {
                None | Some(Def::Param(_) | Def::Other) => true,
                Some(Def::Value(e)) => {
                    !matches!(p.expr(*e).kind, ExprKind::Var(_) | ExprKind::Call { .. } | ExprKind::TupleGet { .. })
                }
                Some(Def::Carried(_) | Def::Phi(_)) => false,
            };
            if own {
                return Root::Known(v);
            }
        }
        self.lineage.root(p, defs, v)
    }

    /// The call `e`, held by the statement `s`.
    fn call(&mut self, s: StmtId, e: ExprId, sequential: u32) {
        let ExprKind::Call { callee, args, attrs } = &self.p.expr(e).kind else { return };
        let Some(g) = callee.function() else { return };
        let Some((place, callee_fn)) = self.p.callee_near(g, self.at as usize) else { return };
        self.out.sites.push((self.at, (s, e, place as u32, self.place)));
        let arity_ok = match callee {
            Callee::Submit(_) => args.len() <= callee_fn.params.len(),
            _ => args.len() == callee_fn.params.len(),
        };
        if !arity_ok || args.is_empty() {
            return;
        }
        let already = attrs.arg_directions.is_some();
        if let Some(given) = &attrs.arg_directions {
            for ((a, param), &g) in args.iter().zip(&callee_fn.params).zip(given) {
                let Some(a) = *a else { continue };
                let scalar = matches!(self.p.ty(a), Type::Scalar(_));
                if !allowed(g, param.dir, scalar) {
                    let (param, dir) = (param.var, param.dir);
                    let c = Contradiction { call: e, arg: a, given: g, param, dir, scalar };
                    self.out.contradictions.push((self.at, c));
                }
            }
        }
        let no_dep = attrs.no_dep_positions();
        let mut dirs = Vec::with_capacity(args.len());
        let mut writes = std::mem::take(&mut self.writes);
        writes.clear();
        for (i, (a, param)) in args.iter().zip(&callee_fn.params).enumerate() {
            let Some(a) = *a else {
                dirs.push(ArgDir::Input);
                continue;
            };
            let scalar = matches!(self.p.ty(a), Type::Scalar(_));
            let no_dep_race = no_dep.contains(&i) && self.launches && attrs.launch.deps.is_none();
            let var = match self.p.expr(a).kind {
                ExprKind::Var(v) => Some(v),
                _ => None,
            };
            let writes_arg = !scalar && param.dir != Direction::In;
            // An `InOut` argument's direction does not depend on its root, which only a later
            // call may need ([`Walker::was_written`], [`Walker::last_writer`]): asked then.
            let later = writes_arg && param.dir == Direction::InOut && !no_dep_race && !self.ask_unneeded;
            let root = match var {
                Some(v) if !later => Some(self.root(v, writes_arg || no_dep_race)),
                _ => None,
            };
            let d = if scalar {
                ArgDir::Scalar
            } else {
                match param.dir {
                    Direction::In => ArgDir::Input,
                    Direction::InOut => ArgDir::InOut,
                    Direction::Out => match root {
                        _ if sequential > 0 && !self.disjoint(g, i, args) => ArgDir::InOut,
                        Some(Root::Ambiguous) => ArgDir::InOut,
                        Some(Root::Known(r)) if self.was_written(r) || self.is_inout_param(r) => ArgDir::InOut,
                        _ => ArgDir::OutputExisting,
                    },
                }
            };
            if writes_arg {
                // Its root, when asked, is the root asked before, or the one `later` defers.
                if let Some(v) = var.filter(|_| later || matches!(root, Some(Root::Known(_)))) {
                    writes.push(v);
                }
            }
            if no_dep_race {
                if let Some(Root::Known(r)) = root {
                    if let Some(w) = self.last_writer(r) {
                        self.out.races.push((self.at, (a, w, r)));
                    }
                }
            }
            if no_dep.contains(&i) && !scalar && param.dir != Direction::In {
                self.out.written_no_dep.push((self.at, (a, param.dir)));
            }
            dirs.push(if no_dep.contains(&i) { ArgDir::NoDep } else { d });
        }
        if self.launches {
            self.pending_writers.extend(writes.iter().map(|&v| (v, e)));
        }
        for &v in &writes {
            self.write(v);
        }
        self.writes = writes;
        if !already {
            self.out.found.push((self.at, (e, dirs)));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::driver::{self, Input, PipelineSpec, StopAt};

    /// The directions of the call of `kernel` once DeriveCallDirections ran on a program
    /// whose kernel stores a 64-element tile into its Out parameter at `[offset]`, called
    /// in a sequential loop with `offset_arg`.
    fn kernel_directions(offset_arg: &str) -> String {
        let src = format!(
            "import pypto.language as pl\n\n@pl.program\nclass P:\n\
             \x20   @pl.function(type=pl.FunctionType.InCore)\n\
             \x20   def kernel(self, x: pl.Tensor[[64], pl.FP32], offset: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[256], pl.FP32]]) -> pl.Tensor[[256], pl.FP32]:\n\
             \x20       t: pl.Tile[[64], pl.FP32] = pl.load(x, [0], [64])\n\
             \x20       ret: pl.Tensor[[256], pl.FP32] = pl.store(t, [offset], out)\n\
             \x20       return ret\n\n\
             \x20   @pl.function\n\
             \x20   def main(self, x: pl.Tensor[[64], pl.FP32], dst: pl.Tensor[[256], pl.FP32]) -> pl.Tensor[[256], pl.FP32]:\n\
             \x20       for i in pl.range(4):\n\
             \x20           dst = self.kernel(x, {offset_arg}, dst)\n\
             \x20       return dst\n"
        );
        let spec = PipelineSpec::passes(
            "InlineFunctions,ConvertToSSA,OutlineGraphScopes,OutlineIncoreScopes,DeriveCallDirections",
        )
        .verified();
        let c = driver::compile(Input::text("d.pl", src), &spec, StopAt::End).expect("in memory");
        let errors: Vec<&str> = c.diags.iter().map(|d| d.message.as_str()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let text = crate::ir::print::programs(&c.programs, &c.session.interner);
        let at = text.find("\"arg_directions\": [").unwrap_or_else(|| panic!("{text}"));
        text[at..].split(['[', ']']).nth(1).unwrap().to_string()
    }

    #[test]
    fn a_store_at_an_offset_that_follows_the_loop_keeps_output_existing() {
        // PyPTO's test_out_param_variable_offset_store_in_seq_loop_not_promoted.
        assert_eq!(kernel_directions("i * 64"), "\"Input\", \"Scalar\", \"OutputExisting\"");
    }

    #[test]
    fn a_store_at_an_offset_the_loop_does_not_change_is_in_out() {
        // PyPTO's test_out_param_invariant_offset_in_seq_loop_promoted.
        assert_eq!(kernel_directions("64"), "\"Input\", \"Scalar\", \"InOut\"");
    }
}
