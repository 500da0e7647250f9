//! LegalizeGraphBoundary: makes every Graph function's boundary replay correctly.
//!
//! The runtime records a Graph call's tasks once and replays them on later calls, patching
//! only the boundary: the tensor arguments' addresses and the scalar arguments' slots.
//! Anything else the body computes is frozen at the first call. So:
//!
//! - **Step A**: a scalar the body derives from its scalar parameters (`base = i * ROWS`)
//!   is computed at each call site and passed as a new `In` scalar parameter; a bare alias
//!   of a scalar parameter (`j = i`) is removed and its readers read the parameter.
//! - **Step B**: a view (`pl.slice` / `pl.tensor.view`) of a boundary tensor whose window
//!   the call site can compute moves to the call site as a new tensor parameter (with the
//!   direction of the tensor it views); one whose window is the same on every replay stays.
//! - **Step C**: a top-level `pl.create_tensor` moves to the call site as a new `InOut`
//!   parameter (created per call, patched on replay).
//! - **Step D**: what cannot be made to replay is an error, each with its own code
//!   (E0501–E0517) and a message that says how to fix the program.
//!
//! New parameters are appended tensors first (creates, views), then scalars; at each call
//! site the values are bound, in definition order, to locals `<param>__graph_arg<k>`
//! right before the statement with the call, and appended to its arguments.

use super::directions::{CallSite, Handed, Place};
use super::{Handoff, PassCx};
use crate::diag::{Code, Diagnostic, Label, Severity};
use crate::intern::{Interner, Symbol};
use crate::ir::lineage::{as_var, Defs, Lineage, Root};
use crate::ir::ops::Op;
use crate::ir::visit;
use crate::ir::{
    ArgDir, Block, Callee, DType, Direction, Expr, ExprId, ExprKind, ForStmt, FuncKind, Function, IfStmt, Loc, Param,
    Program, Stmt, StmtId, StmtKind, Type, TypeId, VarData, VarId, WhileStmt,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// The runtime's boundary limits and per-graph task limit.
const MAX_TENSOR_PARAMS: usize = 128;
const MAX_SCALAR_PARAMS: usize = 64;
const MAX_GRAPH_TASKS: u64 = 1024;

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let start = cx.diags.len();
    legalize(cx, program);
    if cx.check_only {
        // PyPTO's parser accepts these programs; only its pass for the host_build_graph
        // runtime refuses them. `plc check` says so and goes on; `plc compile` refuses.
        for d in cx.diags[start..].iter_mut().filter(|d| d.is_error()) {
            d.severity = Severity::Warning;
            d.notes.push("`plc compile` refuses this: the C++ output records the graph once and replays it".into());
        }
    }
}

fn legalize(cx: &mut PassCx<'_>, program: &mut Program) {
    // The Graph functions by their place in `program.functions` (the pass adds and removes
    // no function): each is found without hashing its name.
    let graphs: Vec<usize> =
        (0..program.functions.len()).filter(|&i| program.functions[i].decl.kind == FuncKind::Graph).collect();
    if graphs.is_empty() {
        return;
    }
    let errors = |cx: &PassCx<'_>| cx.diags.iter().filter(|d| d.is_error()).count();
    let before = errors(cx);
    // The calls of Graph functions, by caller in program order: the checks and rewrites of
    // call sites below look at these calls, or walk only their callers (the kernels and
    // most graphs call none). Taken from the calls DeriveCallDirections found when it ran
    // right before, found in one walk of each function otherwise.
    // The findings of the static rules of the graphs' bodies likewise, when handed on.
    let (calls, statics) = match std::mem::take(&mut cx.given) {
        Handoff::Calls(Handed { sites, statics }) => (graph_calls_among(program, &graphs, sites), Some(statics)),
        Handoff::Nothing | Handoff::Regions(_) => (graph_calls(program, &graphs), None),
    };
    // The first checks and the plans in one visit of each graph: a graph's plan is made
    // when its own first checks found no error, its E0516 errors kept apart; the plans
    // count only when no graph's first checks and no E0517 found an error (then every
    // graph has its plan), and their errors follow E0517's, as when planned after them.
    let (planned, found, lineages) = per_graph(cx.names, program, &graphs, |c, lineage| {
        let start = c.diags.len();
        c.signature(&[]);
        c.static_body(statics.as_deref());
        c.returns(lineage);
        let clean = !c.diags[start..].iter().any(Diagnostic::is_error);
        // The plan, or its E0516 errors: no larger than the plan (the results of a large
        // program are held twice while the runs are joined).
        if clean {
            build_plan(c.names, c.p, c.f, c.sets)
        } else {
            Err(Vec::new())
        }
    });
    cx.diags.extend(found);
    check_graph_submits(cx, program, &calls);
    if errors(cx) > before {
        return;
    }
    // Sized once for every graph (most have a plan), not grown by doubling: the plans were
    // copied at each growth, on the calling thread with the pool's threads idle (0.8 ms of
    // 1 at gen(10000)).
    let mut plans: Vec<(usize, Plan)> = Vec::with_capacity(graphs.len());
    for (&g, planned) in graphs.iter().zip(planned) {
        match planned {
            Ok(plan) if !plan.is_empty() => plans.push((g, plan)),
            Ok(_) => {}
            Err(found) => cx.diags.extend(found),
        }
    }
    if errors(cx) > before {
        return;
    }
    // The plan of each function, by its place (the calls found name the graph called by its
    // place too).
    let mut plan_of = vec![NO_PLAN; program.functions.len()];
    for (k, (g, _)) in plans.iter().enumerate() {
        plan_of[*g] = k as u32;
    }
    rewrite_bodies(program, cx.names, &mut plans);
    // The call sites' rewrite changes the callers of planned graphs, and no graph is one
    // here (a graph calling a graph is E0508, reported above). So the last checks (which
    // read the graphs) see the same program before it as after, and in a run for
    // diagnostics only ([`PassCx::discarded`]) it is needed only by E0518's analysis: left
    // out unless some graph makes a view.
    let sites_later = cx.discarded;
    if !sites_later {
        rewrite_call_sites(cx, program, &plans, &plan_of, &calls);
    }
    // The last checks read the program only: they run before E0518's analysis, which is
    // needed only when some graph makes a view (they say so), and their diagnostics follow.
    let (views, found, _) = per_graph(cx.names, program, &graphs, |c, _| {
        // The parameters the rewrite added.
        let added = match plan_of[c.i] {
            NO_PLAN => Vec::new(),
            k => plans[k as usize].1.params(),
        };
        c.signature(&added);
        let (views, tasks) = c.task_scalars();
        c.launch_control();
        c.node_count(tasks);
        views
    });
    if views.contains(&true) {
        if sites_later {
            rewrite_call_sites(cx, program, &plans, &plan_of, &calls);
        }
        ambiguous_views(cx, program, &graphs, &calls, &mut merged(lineages));
    }
    cx.diags.extend(found);
    // Freed on a pool thread: on the calling thread, the last step of the pass with the
    // other threads idle (0.5–0.8 ms at gen(10000)).
    if graphs.len() >= PARALLEL_MIN_GRAPHS {
        rayon::spawn(move || drop((plans, calls)));
    }
}

/// Below this many Graph functions the per-graph checks run on the calling thread.
const PARALLEL_MIN_GRAPHS: usize = 128;

/// Runs `each` on every Graph function, which reads the program only, in parallel for a
/// large program: runs of consecutive graphs, each with its own diagnostics and
/// [`Lineage`], joined in the graphs' order (results and diagnostics; the lineages, whose
/// answers do not depend on the order of the queries unless a call cycle is met, then the
/// serial run is made instead, are given apart, to be merged by [`merged`] when needed).
/// The result is the serial run's.
fn per_graph<T: Send>(
    names: &Interner,
    p: &Program,
    graphs: &[usize],
    each: impl Fn(&mut Checker<'_>, &mut Lineage) -> T + Sync,
) -> (Vec<T>, Vec<Diagnostic>, Vec<Lineage>) {
    use rayon::prelude::*;
    let serial = |run: &[usize]| {
        let (mut diags, mut lineage, mut sets) = (Vec::new(), Lineage::default(), Sets::default());
        let out = run
            .iter()
            .map(|&i| {
                let (&g, f) = p.functions.get_index(i).expect("a graph");
                each(&mut Checker { names, diags: &mut diags, p, i, g, f, sets: &mut sets }, &mut lineage)
            })
            .collect();
        (out, diags, lineage)
    };
    let threads = rayon::current_num_threads();
    let alone = |(out, diags, lineage)| (out, diags, vec![lineage]);
    if threads < 2 || graphs.len() < PARALLEL_MIN_GRAPHS {
        return alone(serial(graphs));
    }
    let run = graphs.len().div_ceil(threads * 4).max(PARALLEL_MIN_GRAPHS / 4);
    let parts: Vec<(Vec<T>, Vec<Diagnostic>, Lineage)> = graphs.par_chunks(run).map(serial).collect();
    if parts.iter().any(|(_, _, lineage)| lineage.met_cycle) {
        return alone(serial(graphs));
    }
    let (mut out, mut diags, mut lineages) = (Vec::with_capacity(graphs.len()), Vec::new(), Vec::new());
    for (o, d, l) in parts {
        out.extend(o);
        diags.extend(d);
        lineages.push(l);
    }
    (out, diags, lineages)
}

/// The lineages [`per_graph`] gave as one: the first, with the others' memos absorbed.
fn merged(lineages: Vec<Lineage>) -> Lineage {
    let mut all = lineages.into_iter();
    let mut lineage = all.next().unwrap_or_default();
    for l in all {
        lineage.absorb(l);
    }
    lineage
}

// ------------------------------------------------------------------ replay invariance

/// Which scalar values are the same on every replay: literals, loop variables of loops
/// with constant bounds, `pl.tensor.dim` of a boundary tensor with a constant axis, and
/// arithmetic on those. Scalar parameters are not: they are patched per call.
#[derive(Default)]
struct Invariant {
    vars: FxHashSet<VarId>,
    tensors: FxHashSet<VarId>,
}

impl Invariant {
    /// Whether every node of `e` is one of those. The expressions asked about are scalars
    /// and shapes, in which a tensor is read only as the operand of `pl.tensor.dim`: a read
    /// of a boundary tensor passes wherever it is met.
    fn expr(&self, p: &Program, e: ExprId) -> bool {
        visit::all_exprs(p, e, |x| match &p.expr(x).kind {
            ExprKind::Var(v) => self.vars.contains(v) || self.tensors.contains(v),
            k if k.is_literal() => true,
            ExprKind::Tuple(_) | ExprKind::Binary { .. } | ExprKind::Unary { .. } => true,
            ExprKind::Call { callee: Callee::Op(Op::TensorDim), args, .. } => {
                let tensor = args.first().copied().flatten().and_then(|a| as_var(p, a));
                let axis = args.get(1).copied().flatten().map(|a| &p.expr(a).kind);
                tensor.is_some_and(|t| self.tensors.contains(&t)) && matches!(axis, Some(ExprKind::Int(_)))
            }
            _ => false,
        })
    }
}

/// Warns (E0518) about a view made inside a Graph function that the real runtime may
/// re-base onto the wrong tensor on replay: simpler matches each tensor of a recorded task
/// to the boundary by address and shape, so a view of tensor parameter `P` with the shape
/// and dtype of another tensor parameter `Q`, where some call passes `P` and `Q` views of
/// one buffer, is taken for `Q` whenever the two start at the same address when the graph
/// is recorded.
fn ambiguous_views(cx: &mut PassCx<'_>, p: &Program, graphs: &[usize], calls: &[Calls], lineage: &mut Lineage) {
    let tensor_params = |g: Symbol| -> Vec<(usize, VarId)> {
        p.functions.get(&g).map_or_else(Vec::new, |gf| {
            gf.params.iter().enumerate().filter(|(_, q)| !is_scalar(p, q.var)).map(|(i, q)| (i, q.var)).collect()
        })
    };
    // For each graph, the parameter positions some call binds to views of one buffer: one
    // walk over every function's calls, whatever the number of graphs.
    // The calls `graph_calls` found are still every call of a graph, in the same order:
    // the rewrites only added arguments to them and statements with no call in front.
    let mut aliased_in: FxHashMap<Symbol, FxHashSet<(usize, usize)>> = FxHashMap::default();
    for (f, calls) in calls {
        let defs = Defs::of(p, &p.functions[*f]).at(*f);
        for &(_, e, ..) in calls {
            let ExprKind::Call { callee, args, .. } = &p.expr(e).kind else { continue };
            let Some(g) = callee.function() else { continue };
            let roots: Vec<(usize, VarId)> = tensor_params(g)
                .iter()
                .filter_map(|&(i, _)| match args.get(i).copied().flatten().and_then(|a| as_var(p, a)) {
                    Some(v) => match lineage.root(p, &defs, v) {
                        Root::Known(r) => Some((i, r)),
                        Root::Ambiguous => None,
                    },
                    None => None,
                })
                .collect();
            for &(i, r) in &roots {
                for &(j, s) in &roots {
                    if i != j && r == s {
                        aliased_in.entry(g).or_default().insert((i, j));
                    }
                }
            }
        }
    }
    for &g in graphs {
        let (place, (&g, gf)) = (g, p.functions.get_index(g).expect("a graph"));
        let tensors = tensor_params(g);
        let Some(aliased) = aliased_in.get(&g) else { continue };
        let defs = Defs::of(p, gf).at(place);
        let mut found = Vec::new();
        visit::walk_block_exprs(p, &gf.body, |_, e| {
            let ExprKind::Call { callee: Callee::Op(Op::TensorSlice | Op::TensorView), args, .. } = &p.expr(e).kind
            else {
                return;
            };
            let Some(src) = args.first().copied().flatten().and_then(|a| as_var(p, a)) else { return };
            let Root::Known(root) = lineage.root(p, &defs, src) else { return };
            let Some(&(i, _)) = tensors.iter().find(|(_, v)| *v == root) else { return };
            let view = p.ty(e);
            for &(j, q) in &tensors {
                let other = p.types.get(p.var(q).ty);
                let same = view.shape().is_some() && view.shape() == other.shape() && view.dtype() == other.dtype();
                if j != i && same && aliased.contains(&(i, j)) {
                    found.push((e, root, q));
                    break;
                }
            }
        });
        for (e, src, q) in found {
            let name = |v: VarId| cx.names.get(p.var(v).source).to_string();
            let (view, boundary) = (name(src), name(q));
            let at = p.expr(e).loc;
            let mut d = Diagnostic::new(
                crate::diag::Severity::Warning,
                Code::E0518,
                format!("this view of `{view}` has the shape of the boundary tensor `{boundary}`, a view of the same buffer: on replay the real runtime may take one for the other"),
                Label::primary(at.file, at.span, format!("same shape and dtype as `{boundary}`")),
            )
            .with_help(format!("simpler re-bases a graph's tensors by address and shape: when this view and `{boundary}` start at the same address at the first call, every replay uses `{boundary}` here; pass this view as a parameter too, or give the two different shapes"));
            let qloc = p.var(q).loc;
            if !qloc.is_compiler_made() {
                d = d.with_label(Label::secondary(qloc.file, qloc.span, format!("`{boundary}` is on the boundary")));
            }
            cx.diags.push(d);
        }
    }
}

/// The nodes of an expression tree (as many as `visit::copy_expr` makes of it).
fn tree_size(p: &Program, e: ExprId) -> u32 {
    let mut n = 1;
    visit::expr_children(p, e, |c| n += tree_size(p, c));
    n
}

/// Whether an expression is made of literals only (a compile-time constant).
fn literal(p: &Program, e: ExprId) -> bool {
    visit::all_exprs(p, e, |x| {
        matches!(
            p.expr(x).kind,
            ExprKind::Int(_)
                | ExprKind::Float(_)
                | ExprKind::Bool(_)
                | ExprKind::Tuple(_)
                | ExprKind::Binary { .. }
                | ExprKind::Unary { .. }
        )
    })
}

fn is_scalar(p: &Program, v: VarId) -> bool {
    matches!(p.types.get(p.var(v).ty), Type::Scalar(d) if *d != DType::TaskId)
}

/// Whether `e` allocates a tensor (`pl.create_tensor`).
fn is_create(p: &Program, e: ExprId) -> bool {
    matches!(p.expr(e).kind, ExprKind::Call { callee: Callee::Op(Op::TensorCreate), .. })
}

/// A task launch: a call of a function (a kernel, a wrapper), a launch with `pl.submit`, or
/// `pl.system.task_dummy` (a node of the recorded graph too).
fn is_launch(p: &Program, e: ExprId) -> bool {
    matches!(
        p.expr(e).kind,
        ExprKind::Call { callee: Callee::Func(_) | Callee::Submit(_) | Callee::Op(Op::SystemTaskDummy), .. }
    )
}

/// A loop's trip count when its bounds are constants.
fn trip_count(p: &Program, start: ExprId, stop: ExprId, step: ExprId) -> Option<u64> {
    let int = |e: ExprId| match p.expr(e).kind {
        ExprKind::Int(n) => Some(n),
        _ => None,
    };
    let (a, b, s) = (int(start)?, int(stop)?, int(step)?);
    if s == 0 {
        // A zero step runs zero times (PyPTO's static trip count).
        return Some(0);
    }
    let n = if s > 0 { (b - a + s - 1).div_euclid(s) } else { (a - b - s - 1).div_euclid(-s) };
    Some(n.max(0) as u64)
}

// ------------------------------------------------------------------ checks

struct Checker<'a> {
    names: &'a Interner,
    diags: &'a mut Vec<Diagnostic>,
    p: &'a Program,
    /// The graph checked (its place in `p.functions`, its name), and its function.
    i: usize,
    g: Symbol,
    f: &'a Function,
    /// The sets of the checks and plans, kept from graph to graph.
    sets: &'a mut Sets,
}

/// The sets [`Checker::task_scalars`] and [`build_plan`] fill for each graph, emptied and
/// kept from graph to graph of a run: sets made from empty for every graph (and grown,
/// and freed) cost more than filling them.
#[derive(Default)]
struct Sets {
    params: FxHashSet<VarId>,
    scalar_params: FxHashSet<VarId>,
    derived: FxHashSet<VarId>,
    aliases: FxHashSet<VarId>,
    boundary: FxHashMap<VarId, Direction>,
    in_place: FxHashSet<VarId>,
    inv: Invariant,
}

impl Sets {
    /// Empties the sets (an empty one is left as it is).
    fn clear(&mut self) {
        let Sets { params, scalar_params, derived, aliases, boundary, in_place, inv } = self;
        for set in [params, scalar_params, derived, aliases, in_place, &mut inv.vars, &mut inv.tensors] {
            if !set.is_empty() {
                set.clear();
            }
        }
        if !boundary.is_empty() {
            boundary.clear();
        }
    }
}

impl Checker<'_> {
    fn var_name(&self, v: VarId) -> String {
        self.names.get(self.p.var(v).source).to_string()
    }

    fn error(&mut self, code: Code, loc: Loc, message: String, label: &str, help: &str) {
        self.diags.push(
            Diagnostic::error(code, message, Label::primary(loc.file, loc.span, label)).with_help(help.to_string()),
        );
    }

    /// The parameter rules; `added` are the parameters Step A–C appended (for the message
    /// when they push a count over its limit).
    fn signature(&mut self, added: &[VarId]) {
        let f = self.f;
        let (mut tensors, mut scalars) = (0usize, 0usize);
        let mut findings = Vec::new();
        for param in &f.params {
            let loc = self.p.var(param.var).loc;
            match self.p.types.get(self.p.var(param.var).ty) {
                Type::Scalar(_) => {
                    scalars += 1;
                    if param.dir != Direction::In && added.is_empty() {
                        findings.push((Code::E0501, loc, param.var, param.dir));
                    }
                }
                _ => {
                    tensors += 1;
                    if param.dir == Direction::Out && added.is_empty() {
                        findings.push((Code::E0502, loc, param.var, param.dir));
                    }
                }
            }
        }
        // Borrowed from the interner, not from `self`: no copy of the name per check.
        let names = self.names;
        let g = names.get(self.g);
        for (code, loc, v, dir) in findings {
            let pn = self.var_name(v);
            let (message, help) = if code == Code::E0501 {
                (
                    format!("Graph function '{g}' declares scalar parameter '{pn}' as {dir}"),
                    "a boundary scalar is passed by value and replayed from the call site, so it can only be an input: declare it without pl.Out/pl.InOut",
                )
            } else {
                (
                    format!("Graph function '{g}' declares tensor parameter '{pn}' as Out, meaning the runtime allocates it"),
                    "a replayed graph cannot allocate its outputs: allocate the tensor at the call site and pass it in as pl.InOut",
                )
            };
            self.error(code, loc, message, "not replayable", help);
        }
        let loc = f.loc;
        if added.is_empty() && tensors == 0 {
            self.error(
                Code::E0503,
                loc,
                format!("Graph function '{g}' takes no tensor parameters"),
                "an empty boundary",
                "a graph with no tensor on its boundary has nothing to patch on replay: pass the tensors it works on as parameters",
            );
        }
        if tensors > MAX_TENSOR_PARAMS {
            self.error(
                Code::E0504,
                loc,
                format!(
                    "Graph function '{g}' takes {tensors} tensor parameters, over the runtime's boundary limit of {MAX_TENSOR_PARAMS}"
                ),
                "too many tensors",
                "split the region into several graphs",
            );
        }
        if scalars > MAX_SCALAR_PARAMS {
            let extra = added.iter().filter(|&&v| is_scalar(self.p, v)).count();
            let help = if extra > 0 {
                format!("{extra} of them were added for scalars the body derives from its parameters; split the region into several graphs")
            } else {
                "split the region into several graphs".to_string()
            };
            self.error(
                Code::E0504,
                loc,
                format!(
                    "Graph function '{g}' takes {scalars} scalar parameters, over the runtime's boundary limit of {MAX_SCALAR_PARAMS}"
                ),
                "too many scalars",
                &help,
            );
        }
    }

    /// Rules on the body that hold before any rewriting: no `pl.full`, constant
    /// allocation shapes, constant launch counts, no nested graphs. `handed`: what
    /// DeriveCallDirections found of them in every graph (by the graph's place), when it
    /// ran right before: then the body is not walked.
    fn static_body(&mut self, handed: Option<&[(u32, StaticFinding)]>) {
        let p = self.p;
        let mut findings = Vec::new();
        match handed {
            Some(all) => {
                let from = all.partition_point(|x| (x.0 as usize) < self.i);
                let to = from + all[from..].partition_point(|x| x.0 as usize == self.i);
                findings.extend(all[from..to].iter().map(|x| x.1));
            }
            None => visit::walk_block_exprs(p, &self.f.body, |_, e| static_findings(p, self.i, e, &mut findings)),
        }
        // Borrowed from the interner, not from `self`: no copy of the name per check.
        let names = self.names;
        let g = names.get(self.g);
        for (code, loc, callee) in findings {
            let what = || callee.map_or("", |h| names.get(h));
            match code {
                Code::E0505 => self.error(
                    code,
                    loc,
                    format!("Graph function '{g}' calls pl.full inside the region"),
                    "not replayable",
                    "create the tensor at the call site (pl.full there, or pl.create_tensor plus a fill kernel) and pass it in as pl.InOut",
                ),
                Code::E0506 => self.error(
                    code,
                    loc,
                    format!("Graph function '{g}' allocates a tensor whose shape is not a compile-time constant"),
                    "shape known only at run time",
                    "a replayed graph keeps the shapes of its first call: use a constant shape, or allocate the tensor at the call site and pass it in",
                ),
                Code::E0507 => self.error(
                    code,
                    loc,
                    format!("Graph function '{g}' launches a task whose core_num is not a compile-time constant"),
                    "not a constant",
                    "a replayed graph keeps the launch sizes of its first call: use a constant block count",
                ),
                _ => self.error(
                    code,
                    loc,
                    format!("Graph function '{g}' calls Graph function '{}'", what()),
                    "a graph inside a graph",
                    "nested graphs are not supported: inline the inner graph's work, or call both graphs from the orchestration function",
                ),
            }
        }
    }

    /// Each returned value must be one of the function's own parameters.
    fn returns(&mut self, lineage: &mut Lineage) {
        let f = self.f;
        let Some(&last) = f.body.last() else { return };
        let StmtKind::Return(values) = &self.p.stmt(last).kind else { return };
        let defs = Defs::of(self.p, f).at(self.i);
        let mut bad = Vec::new();
        for &e in values {
            let ok = match as_var(self.p, e) {
                Some(v) if is_scalar(self.p, v) => matches!(defs.map.get(&v), Some(crate::ir::lineage::Def::Param(_))),
                Some(v) => match lineage.root(self.p, &defs, v) {
                    Root::Known(r) => matches!(defs.map.get(&r), Some(crate::ir::lineage::Def::Param(_))),
                    Root::Ambiguous => false,
                },
                None => false,
            };
            if !ok {
                bad.push(self.p.expr(e).loc);
            }
        }
        // Borrowed from the interner, not from `self`: no copy of the name per check.
        let names = self.names;
        let g = names.get(self.g);
        for loc in bad {
            self.error(
                Code::E0509,
                loc,
                format!("Graph function '{g}' returns a value it computed rather than one of its own parameters"),
                "computed in the graph",
                "a replay patches only the boundary: write the result into a pl.InOut parameter and return that parameter",
            );
        }
    }

    /// Scalars handed to tasks must be patched per call or be the same on every replay.
    /// Returns whether the body makes a view (`pl.slice` / `pl.tensor.view`), and the tasks
    /// it launches for [`Checker::node_count`] (counted in the same walk).
    fn task_scalars(&mut self) -> (bool, u64) {
        let f = self.f;
        let sets = &mut *self.sets;
        sets.clear();
        invariant_set(self.p, f, &mut sets.inv);
        sets.params.extend(f.params.iter().map(|p| p.var));
        let mut scan = BodyScan { p: self.p, params: &sets.params, inv: &sets.inv, findings: Vec::new(), views: false };
        let tasks = scan.count(&f.body);
        let BodyScan { findings, views, .. } = scan;
        // Borrowed from the interner, not from `self`: no copy of the name per check.
        let names = self.names;
        let g = names.get(self.g);
        for (code, loc, v) in findings {
            let (message, label, help) = match v {
                Some(v) => (
                    format!(
                        "Graph function '{g}' passes scalar '{}' to a task, but its value can differ between calls and has nowhere to be patched",
                        self.var_name(v)
                    ),
                    "frozen at the first call",
                    "compute the value from the graph's scalar parameters only (plc then passes it from the call site), or pass it in as a parameter",
                ),
                None => (
                    format!("Graph function '{g}' computes a scalar inline in a task argument"),
                    "computed in the argument",
                    "bind the value to a name first (`off = i * ROWS`), so that it can be passed from the call site",
                ),
            };
            self.error(code, loc, message, label, help);
        }
        (views, tasks)
    }

    /// No task launches under control flow a replay cannot repeat.
    fn launch_control(&mut self) {
        let f = self.f;
        let mut findings = Vec::new();
        self.control(&f.body, None, &mut findings);
        // Borrowed from the interner, not from `self`: no copy of the name per check.
        let names = self.names;
        let g = names.get(self.g);
        for (code, launch, around) in findings {
            let (message, label, help) = match code {
                Code::E0510 => (
                    format!("Graph function '{g}' launches tasks inside a loop whose trip count is not a compile-time constant"),
                    "a launch in the loop",
                    "a replay repeats the first call's tasks: give the loop constant bounds, or move it to the call site",
                ),
                Code::E0511 => (
                    format!("Graph function '{g}' launches tasks inside a while loop"),
                    "a launch in the loop",
                    "a replay repeats the first call's tasks: use a pl.range loop with constant bounds, or move the loop to the call site",
                ),
                _ => (
                    format!("Graph function '{g}' launches tasks inside a conditional"),
                    "a launch under the condition",
                    "a replay repeats the branch the first call took: hoist the branch to the call site and give each arm its own Graph function",
                ),
            };
            self.diags.push(
                Diagnostic::error(code, message, Label::primary(launch.file, launch.span, label))
                    .with_label(Label::secondary(around.file, around.span, "here"))
                    .with_help(help.to_string()),
            );
        }
    }

    /// `around`: the innermost enclosing construct a replay cannot repeat, with its code.
    fn control(&self, block: &[StmtId], around: Option<(Code, Loc)>, out: &mut Vec<(Code, Loc, Loc)>) {
        for &s in block {
            let loc = self.p.stmt(s).loc;
            if let Some((code, at)) = around {
                let mut launch = None;
                visit::walk_stmt_exprs(self.p, s, |e| {
                    if launch.is_none() && (is_launch(self.p, e) || is_create(self.p, e)) {
                        launch = Some(self.p.expr(e).loc);
                    }
                });
                if let Some(l) = launch {
                    out.push((code, l, at));
                    return;
                }
            }
            match &self.p.stmt(s).kind {
                StmtKind::For(for_) => {
                    let ForStmt { start, stop, step, body, .. } = &**for_;
                    let inner = match trip_count(self.p, *start, *stop, *step) {
                        Some(_) => around,
                        None => Some((Code::E0510, loc)),
                    };
                    self.control(body, inner, out);
                }
                StmtKind::While(while_) => {
                    let WhileStmt { body, .. } = &**while_;
                    self.control(body, Some((Code::E0511, loc)), out)
                }
                StmtKind::If(if_) => {
                    let IfStmt { then_body, else_body, .. } = &**if_;
                    self.control(then_body, Some((Code::E0512, loc)), out);
                    if let Some(e) = else_body {
                        self.control(e, Some((Code::E0512, loc)), out);
                    }
                }
                StmtKind::Scope(scope) => self.control(&scope.body, around, out),
                _ => {}
            }
        }
    }

    /// Between 1 and 1024 tasks per recorded graph (loops multiply by their trip counts):
    /// `n`, as [`Checker::task_scalars`] counted them.
    fn node_count(&mut self, n: u64) {
        let f = self.f;
        // Borrowed from the interner, not from `self`: no copy of the name per check.
        let names = self.names;
        let g = names.get(self.g);
        let loc = f.loc;
        if n == 0 {
            self.error(
                Code::E0513,
                loc,
                format!("Graph function '{g}' launches no tasks"),
                "an empty graph",
                "a graph records task launches: call kernels in it, or make it an ordinary function",
            );
        } else if n > MAX_GRAPH_TASKS {
            self.error(
                Code::E0513,
                loc,
                format!(
                    "Graph function '{g}' launches {n} tasks, over the runtime's per-graph limit of {MAX_GRAPH_TASKS}"
                ),
                "too many tasks",
                "split the region into several graphs",
            );
        }
    }
}

/// One walk of a Graph function's body for [`Checker::task_scalars`]: the scalars its
/// tasks get, whether it makes a view, and the tasks it launches.
struct BodyScan<'a> {
    p: &'a Program,
    params: &'a FxHashSet<VarId>,
    inv: &'a Invariant,
    findings: Vec<(Code, Loc, Option<VarId>)>,
    views: bool,
}

impl BodyScan<'_> {
    /// The tasks `block` launches (loops multiply by their trip counts; a branch counts as
    /// its larger arm), each node of its expressions checked on the way (in
    /// `visit::walk_block_exprs` order).
    fn count(&mut self, block: &[StmtId]) -> u64 {
        let p = self.p;
        let mut n: u64 = 0;
        for &s in block {
            visit::walk_stmt_exprs(p, s, |e| {
                if is_launch(p, e) || is_create(p, e) {
                    n = n.saturating_add(1);
                }
                self.node(e);
            });
            n = n.saturating_add(match &p.stmt(s).kind {
                StmtKind::For(for_) => {
                    let ForStmt { start, stop, step, body, .. } = &**for_;
                    let trips = trip_count(p, *start, *stop, *step).unwrap_or(1);
                    self.count(body).saturating_mul(trips)
                }
                StmtKind::While(while_) => {
                    let WhileStmt { body, .. } = &**while_;
                    self.count(body)
                }
                StmtKind::If(if_) => {
                    let IfStmt { then_body, else_body, .. } = &**if_;
                    let then = self.count(then_body);
                    then.max(else_body.as_deref().map_or(0, |e| self.count(e)))
                }
                StmtKind::Scope(scope) => self.count(&scope.body),
                _ => 0,
            });
        }
        n
    }

    /// A task's scalar arguments must be parameters or the same on every replay.
    fn node(&mut self, e: ExprId) {
        let p = self.p;
        let args = match &p.expr(e).kind {
            ExprKind::Call { callee: Callee::Func(_) | Callee::Submit(_), args, .. } => args,
            ExprKind::Call { callee: Callee::Op(Op::TensorSlice | Op::TensorView), .. } => {
                self.views = true;
                return;
            }
            _ => return,
        };
        for &a in args.iter().flatten() {
            if !matches!(p.ty(a), Type::Scalar(d) if *d != DType::TaskId) {
                continue;
            }
            match as_var(p, a) {
                Some(v) if self.params.contains(&v) || self.inv.vars.contains(&v) => {}
                Some(v) => self.findings.push((Code::E0515, p.expr(a).loc, Some(v))),
                None if self.inv.expr(p, a) => {}
                None => self.findings.push((Code::E0514, p.expr(a).loc, None)),
            }
        }
    }
}

/// A Graph launched with `pl.submit(..., deps=...)` or a predicate cannot be cached.
fn check_graph_submits(cx: &mut PassCx<'_>, p: &Program, calls: &[Calls]) {
    let mut findings = Vec::new();
    for (caller, calls) in calls {
        let caller = p.functions.get_index(*caller).expect("a function").0;
        for &(_, e, ..) in calls {
            let ExprKind::Call { callee: Callee::Submit(g), attrs, .. } = &p.expr(e).kind else { continue };
            if p.functions.get(g).is_none_or(|c| c.decl.kind != FuncKind::Graph) {
                continue;
            }
            for (key, v) in attrs.launch.iter() {
                if key == "deps" || key == "predicate" {
                    findings.push((p.expr(v).loc, *g, *caller, key == "deps"));
                }
            }
        }
    }
    for (loc, g, caller, deps) in findings {
        let (gn, cn) = (cx.names.get(g).to_string(), cx.names.get(caller).to_string());
        let (what, help) = if deps {
            ("explicit dependencies", "an explicit dependency edge makes the launch uncacheable: drop deps= and let the runtime track the tensors")
        } else {
            (
                "a dispatch predicate",
                "a predicate on a graph launch would be frozen into the recording: branch at the call site instead",
            )
        };
        cx.diags.push(
            Diagnostic::error(
                Code::E0517,
                format!("Graph function '{gn}' is submitted from '{cn}' with {what}"),
                Label::primary(loc.file, loc.span, "not allowed on a graph launch"),
            )
            .with_help(help.to_string()),
        );
    }
}

/// The replay-invariant scalars and the boundary tensors of a Graph function.
/// Fills `inv` (empty).
fn invariant_set(p: &Program, f: &Function, inv: &mut Invariant) {
    for param in &f.params {
        if !matches!(p.types.get(p.var(param.var).ty), Type::Scalar(_)) {
            inv.tensors.insert(param.var);
        }
    }
    visit::walk_stmts(p, &f.body, |s| match &p.stmt(s).kind {
        StmtKind::Assign { var, value } => {
            if matches!(p.types.get(p.var(*var).ty), Type::Scalar(_)) && inv.expr(p, *value) {
                inv.vars.insert(*var);
            } else if let ExprKind::Var(w) = p.expr(*value).kind {
                if inv.tensors.contains(&w) {
                    inv.tensors.insert(*var);
                }
            }
        }
        StmtKind::For(for_) if trip_count(p, for_.start, for_.stop, for_.step).is_some() => {
            inv.vars.insert(for_.var);
        }
        _ => {}
    });
}

// ------------------------------------------------------------------ the plan

#[derive(Clone, Copy, PartialEq, Eq)]
enum HoistKind {
    Create,
    View,
    Scalar,
}

struct Hoist {
    original: VarId,
    value: ExprId,
    kind: HoistKind,
    dir: Direction,
    /// The new parameter (made when the plan is applied).
    param: VarId,
}

/// What moves out of one Graph function, in definition order.
#[derive(Default)]
struct Plan {
    /// Hoisted values and aliases, in definition order: `Ok(hoist index)`, `Err((alias,
    /// target))`.
    order: Vec<Result<usize, (VarId, VarId)>>,
    hoists: Vec<Hoist>,
    /// The statements that define what moved (deleted from the body).
    delete: FxHashSet<StmtId>,
    /// [`Plan::param_order`], kept when the plan is applied.
    params_order: Vec<usize>,
    /// The expressions each call site's rewrite makes: a copy of each moved value, a read
    /// of the local bound to it, and the new argument.
    call_exprs: u32,
}

impl Plan {
    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Hoists in parameter order: creates, views, then scalars.
    fn param_order(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.hoists.len()).collect();
        idx.sort_by_key(|&i| match self.hoists[i].kind {
            HoistKind::Create => 0,
            HoistKind::View => 1,
            HoistKind::Scalar => 2,
        });
        idx
    }

    fn params(&self) -> Vec<VarId> {
        self.params_order.iter().map(|&i| self.hoists[i].param).collect()
    }
}

struct Planner<'a> {
    p: &'a Program,
    /// `params`, `scalar_params`, `derived`, `aliases`, `in_place`, `inv`, and `boundary`:
    /// the boundary tensors (parameters, hoisted creates and views) with their direction;
    /// `in_place` the views that stay in the body (the same window on every replay).
    s: &'a mut Sets,
    plan: Plan,
    errors: Vec<(Loc, VarId, VarId, bool)>,
}

impl Planner<'_> {
    fn derivable(&self, e: ExprId) -> bool {
        visit::all_exprs(self.p, e, |x| match &self.p.expr(x).kind {
            ExprKind::Var(v) => {
                self.s.scalar_params.contains(v) || self.s.derived.contains(v) || self.s.aliases.contains(v)
            }
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::DType(_) => true,
            ExprKind::Tuple(_) | ExprKind::Binary { .. } | ExprKind::Unary { .. } => true,
            _ => false,
        })
    }

    /// Plans a statement, given how many loops enclose it and whether a branch does;
    /// returns the same for the statements nested in it.
    fn stmt(&mut self, s: StmtId, (loop_depth, in_branch): (u32, bool)) -> (u32, bool) {
        match &self.p.stmt(s).kind {
            StmtKind::Assign { var, value } => self.assign(s, *var, *value, loop_depth, in_branch),
            StmtKind::For(for_) => {
                let ForStmt { var, start, stop, step, .. } = &**for_;
                if trip_count(self.p, *start, *stop, *step).is_some() {
                    self.s.inv.vars.insert(*var);
                }
                return (loop_depth + 1, in_branch);
            }
            StmtKind::While(_) => return (loop_depth + 1, in_branch),
            StmtKind::If(_) => return (loop_depth, true),
            _ => {}
        }
        (loop_depth, in_branch)
    }

    fn hoist(&mut self, s: StmtId, original: VarId, value: ExprId, kind: HoistKind, dir: Direction) {
        self.plan.order.push(Ok(self.plan.hoists.len()));
        self.plan.hoists.push(Hoist { original, value, kind, dir, param: original });
        self.plan.delete.insert(s);
    }

    fn assign(&mut self, s: StmtId, var: VarId, value: ExprId, loop_depth: u32, in_branch: bool) {
        let p = self.p;
        if is_scalar(p, var) {
            if self.derivable(value) {
                if let ExprKind::Var(target) = p.expr(value).kind {
                    self.s.aliases.insert(var);
                    self.plan.order.push(Err((var, target)));
                    self.plan.delete.insert(s);
                } else {
                    self.s.derived.insert(var);
                    self.hoist(s, var, value, HoistKind::Scalar, Direction::In);
                }
            } else if self.s.inv.expr(p, value) {
                self.s.inv.vars.insert(var);
            }
            return;
        }
        match &p.expr(value).kind {
            ExprKind::Var(w) if self.s.boundary.contains_key(w) => {
                let d = self.s.boundary[w];
                self.s.boundary.insert(var, d);
                self.s.inv.tensors.insert(var);
            }
            ExprKind::Call { callee: Callee::Op(op), args, .. } => match op {
                Op::TensorCreate if loop_depth == 0 && !in_branch => {
                    self.hoist(s, var, value, HoistKind::Create, Direction::InOut);
                    self.s.boundary.insert(var, Direction::InOut);
                    self.s.inv.tensors.insert(var);
                }
                Op::TensorSlice | Op::TensorView => {
                    let Some(src) = args.first().copied().flatten().and_then(|a| as_var(p, a)) else { return };
                    let Some(&dir) = self.s.boundary.get(&src) else { return };
                    let operands: Vec<ExprId> = args.iter().skip(1).flatten().copied().collect();
                    // The call site can rebuild the view when it has the source: a parameter
                    // or a value moved there before.
                    let hoistable = !self.s.in_place.contains(&src)
                        && (self.s.params.contains(&src) || self.plan.hoists.iter().any(|h| h.original == src))
                        && operands.iter().all(|&o| self.derivable(o));
                    if hoistable && loop_depth == 0 && !in_branch {
                        self.hoist(s, var, value, HoistKind::View, dir);
                        self.s.boundary.insert(var, dir);
                        self.s.inv.tensors.insert(var);
                    } else if operands.iter().all(|&o| self.s.inv.expr(p, o)) {
                        self.s.in_place.insert(var);
                    } else {
                        let shape_ok = args.get(1).copied().flatten().is_none_or(|sh| self.s.inv.expr(p, sh));
                        self.errors.push((p.expr(value).loc, var, src, shape_ok));
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
}

/// The plan of one Graph function, or its E0516 errors.
fn build_plan(names: &Interner, p: &Program, f: &Function, sets: &mut Sets) -> Result<Plan, Vec<Diagnostic>> {
    let s = sets;
    s.clear();
    for q in &f.params {
        s.params.insert(q.var);
        if is_scalar(p, q.var) {
            s.scalar_params.insert(q.var);
        } else {
            s.boundary.insert(q.var, q.dir);
            s.inv.tensors.insert(q.var);
        }
    }
    let mut planner = Planner { p, s, plan: Plan::default(), errors: Vec::new() };
    visit::walk_stmts_in(p, &f.body, (0, false), |s, ctx| planner.stmt(s, ctx));
    let gn = names.get(f.name);
    if planner.errors.is_empty() {
        let mut plan = planner.plan;
        plan.call_exprs = plan.hoists.iter().map(|h| tree_size(p, h.value) + 2).sum();
        return Ok(plan);
    }
    let mut diags = Vec::new();
    for (loc, v, src, shape_ok) in planner.errors {
        let name = |v: VarId| names.get(p.var(v).source).to_string();
        let (vn, sn) = (name(v), name(src));
        let message = if shape_ok {
            format!("Graph function '{gn}' derives '{vn}' from boundary tensor '{sn}' using a value that is neither reconstructible at the call site nor the same on every replay")
        } else {
            format!("Graph function '{gn}' takes a view '{vn}' of boundary tensor '{sn}' whose shape is not a compile-time constant")
        };
        diags.push(
            Diagnostic::error(Code::E0516, message, Label::primary(loc.file, loc.span, "frozen at the first call"))
                .with_help("compute the window from the graph's scalar parameters only (it then moves to the call site), or from constants and constant-bound loop variables".to_string()),
        );
    }
    Err(diags)
}

// ------------------------------------------------------------------ rewrites

/// Deletes what moved, makes the new parameters and points the body's reads at them, in
/// every planned graph. The graphs are rewritten in parallel for a large program, reading
/// the program only: runs of consecutive graphs, each into a [`BodyEdits`] (the new
/// parameters numbered as the serial rewrite numbers them: each graph's first follows from
/// the plans before it), applied in the graphs' order.
fn rewrite_bodies(p: &mut Program, names: &mut Interner, plans: &mut [(usize, Plan)]) {
    let first = p.vars.len() as u32;
    let mut next = first;
    let mut items: Vec<(usize, &mut Plan, u32)> = plans
        .iter_mut()
        .map(|(g, plan)| {
            let start = next;
            next += plan.hoists.len() as u32;
            (*g, plan, start)
        })
        .collect();
    p.vars.reserve((next - first) as usize);
    in_waves(
        p,
        names,
        &mut items,
        |q, _, run| {
            let mut edits = BodyEdits::default();
            let mut subst = FxHashMap::default();
            for (g, plan, start) in run {
                edits.graph(q, *g, plan, *start, &mut subst);
            }
            edits
        },
        |p, _, edits| edits.apply(p),
    );
}

/// At most this many graphs or callers are rewritten before their edits are applied: the
/// edits of a large program held at once would raise the peak memory.
const WAVE: usize = 1024;

/// Prepares the edits of runs of consecutive `items`, reading the program only (in
/// parallel for a large program), and applies them in order, a wave of at most [`WAVE`]
/// items at a time. While the calling thread applies a wave's edits (the pool's threads
/// idle), the pages of the arenas' room its new nodes go into are faulted in ahead by a
/// pool thread ([`crate::ir::prefault`]), asked for before each run's edits are applied
/// and before the wave is prepared (a head start for its first run).
fn in_waves<I: Send, R: Send>(
    p: &mut Program,
    names: &mut Interner,
    items: &mut [I],
    prepare: impl Fn(&Program, &Interner, &mut [I]) -> R + Sync,
    mut apply: impl FnMut(&mut Program, &mut Interner, R),
) {
    use rayon::prelude::*;
    let threads = rayon::current_num_threads();
    let mut ahead = crate::ir::prefault::Ahead::default();
    for wave in items.chunks_mut(WAVE) {
        let parallel = threads >= 2 && wave.len() >= PARALLEL_MIN_GRAPHS;
        if parallel {
            ahead.keep_up(p);
        }
        let (q, n): (&Program, &Interner) = (p, names);
        let done: Vec<R> = if parallel {
            let run = wave.len().div_ceil(threads * 4).max(PARALLEL_MIN_GRAPHS / 4);
            wave.par_chunks_mut(run).map(|run| prepare(q, n, run)).collect()
        } else {
            vec![prepare(q, n, wave)]
        };
        for r in done {
            if parallel {
                ahead.keep_up(p);
            }
            apply(p, names, r);
        }
    }
}

/// What the rewrite of a run of graphs changes, in the graphs' order.
#[derive(Default)]
struct BodyEdits {
    /// The new parameters (copies of the values moved), numbered after the program's
    /// variables and the earlier runs'.
    vars: Vec<VarData>,
    /// Each graph's parameters, the new ones appended.
    params: Vec<(usize, Vec<Param>)>,
    /// The graphs whose own body lost a statement, with the body left.
    bodies: Vec<(usize, Block)>,
    /// The statements whose nested blocks lost a statement: the blocks left, in
    /// `visit::map_stmt_blocks` order (`None`: unchanged).
    blocks: Vec<(StmtId, [Option<Block>; 2])>,
    /// The reads of a moved value or an alias, with what they read instead.
    renames: Vec<(ExprId, VarId)>,
}

impl BodyEdits {
    /// The rewrite of graph `g` with its new parameters numbered from `start`; fills
    /// `plan`'s parameter order and new parameters.
    fn graph(&mut self, p: &Program, g: usize, plan: &mut Plan, start: u32, subst: &mut FxHashMap<VarId, VarId>) {
        plan.params_order = plan.param_order();
        let f = &p.functions[g];
        let mut params = Vec::with_capacity(f.params.len() + plan.params_order.len());
        params.extend_from_slice(&f.params);
        for (k, &i) in plan.params_order.iter().enumerate() {
            let param = VarId(start + k as u32);
            let h = &mut plan.hoists[i];
            h.param = param;
            self.vars.push(p.var(h.original).clone());
            params.push(Param { var: param, dir: h.dir });
        }
        self.params.push((g, params));
        // Reads of a moved value read its parameter; reads of an alias read what it aliases.
        subst.clear();
        subst.extend(plan.hoists.iter().map(|h| (h.original, h.param)));
        for item in &plan.order {
            if let Err((alias, target)) = *item {
                let to = subst.get(&target).copied().unwrap_or(target);
                subst.insert(alias, to);
            }
        }
        if let Some(body) = self.retain(p, &f.body, &plan.delete, subst) {
            self.bodies.push((g, body));
        }
    }

    /// `block` without the statements in `delete` (`None` when it has none), the blocks
    /// nested in what is left likewise; the reads in what is left renamed by `subst`.
    fn retain(
        &mut self,
        p: &Program,
        block: &[StmtId],
        delete: &FxHashSet<StmtId>,
        subst: &FxHashMap<VarId, VarId>,
    ) -> Option<Block> {
        let kept: Option<Block> = block
            .iter()
            .any(|s| delete.contains(s))
            .then(|| block.iter().copied().filter(|s| !delete.contains(s)).collect());
        for &s in kept.as_deref().unwrap_or(block) {
            visit::stmt_exprs(p, s, |root| {
                visit::walk_expr(p, root, |e| {
                    if let ExprKind::Var(v) = p.expr(e).kind {
                        if let Some(&w) = subst.get(&v) {
                            self.renames.push((e, w));
                        }
                    }
                });
            });
            let nested = visit::stmt_blocks(&p.stmt(s).kind);
            if nested[0].is_some() {
                let new = nested.map(|b| b.and_then(|b| self.retain(p, b, delete, subst)));
                if new.iter().any(Option::is_some) {
                    self.blocks.push((s, new));
                }
            }
        }
        kept
    }

    fn apply(self, p: &mut Program) {
        let BodyEdits { vars, params, bodies, blocks, renames } = self;
        for v in vars {
            p.vars.push(v);
        }
        for (g, params) in params {
            p.functions[g].params = params;
        }
        for (g, body) in bodies {
            p.functions[g].body = body;
        }
        replace_blocks(p, blocks);
        for (e, v) in renames {
            p.exprs[e.index()].kind = ExprKind::Var(v);
        }
    }
}

/// Replaces the nested blocks of each statement by the new ones given (in
/// `visit::map_stmt_blocks` order; `None` leaves a block as it is).
fn replace_blocks(p: &mut Program, blocks: Vec<(StmtId, [Option<Block>; 2])>) {
    for (s, new) in blocks {
        let mut new = new.into_iter();
        visit::map_stmt_blocks(&mut p.stmts[s.index()].kind, |b| new.next().flatten().unwrap_or(b));
    }
}

/// Every call of a planned Graph function computes the moved values in front of it and
/// passes them as the new arguments.
///
/// The callers are rewritten in parallel for a large program, reading the program only:
/// runs of consecutive callers, each into a [`Batch`] of new nodes numbered as the serial
/// rewrite numbers them (a caller's first ids, and the first number of its locals' names,
/// follow from the plans of the planned calls before it, as each call makes the same
/// number of nodes). The batches are then applied in the callers' order: the locals'
/// names interned and the nodes appended, the calls' arguments extended, the blocks
/// replaced.
fn rewrite_call_sites(cx: &mut PassCx<'_>, p: &mut Program, plans: &[(usize, Plan)], plan_of: &[u32], calls: &[Calls]) {
    // The planned calls of each caller (most functions, the kernels and the graphs, call
    // none), and the first ids its rewrite makes.
    let mut planned: Vec<(StmtId, ExprId, usize, Place)> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut next =
        Ids { vars: p.vars.len() as u32, exprs: p.exprs.len() as u32, stmts: p.stmts.len() as u32, number: 0 };
    for (f, calls) in calls {
        let from = planned.len();
        for &(s, e, g, place) in calls {
            let k = plan_of[g as usize];
            if k != NO_PLAN {
                planned.push((s, e, k as usize, place));
            }
        }
        if planned.len() == from {
            continue;
        }
        let start = next;
        for &(_, _, k, _) in &planned[from..] {
            let plan = &plans[k].1;
            let n = plan.hoists.len() as u32;
            next.vars += n;
            next.stmts += n;
            next.number += n;
            next.exprs += plan.call_exprs;
        }
        jobs.push(Job { f: *f, planned: from..planned.len(), start, end: next });
    }
    if jobs.is_empty() {
        return;
    }
    p.exprs.reserve((next.exprs - jobs[0].start.exprs) as usize);
    p.stmts.reserve((next.stmts - jobs[0].start.stmts) as usize);
    p.vars.reserve((next.vars - jobs[0].start.vars) as usize);
    let planned = &planned;
    in_waves(
        p,
        cx.names,
        &mut jobs,
        |p, names, run| {
            let mut prep = Prep {
                p,
                names,
                plans,
                planned,
                at: FxHashMap::default(),
                edited: FxHashMap::default(),
                binding: FxHashMap::default(),
                locals: Vec::new(),
                groups: Vec::new(),
                b: Batch::sized(run[0].start, run[run.len() - 1].end),
            };
            for job in run.iter() {
                prep.job(job);
            }
            prep.b
        },
        |p, names, b| b.apply(names, p),
    );
}

/// The first ids a caller's rewrite makes of each kind, and the first number of its
/// locals' names (`names::graph_arg`).
#[derive(Clone, Copy, Default)]
struct Ids {
    vars: u32,
    exprs: u32,
    stmts: u32,
    number: u32,
}

/// One caller to rewrite: its function, its planned calls (a range of the list of all) and
/// its first ids and those after it.
struct Job {
    f: usize,
    planned: std::ops::Range<usize>,
    start: Ids,
    end: Ids,
}

/// In [`legalize`]'s table of the plan of each function: none.
const NO_PLAN: u32 = u32::MAX;

/// A local a call site binds a moved value to: the value it moves, its type and location,
/// and the end of its name in [`Batch::names`].
struct Local {
    original: VarId,
    ty: TypeId,
    loc: Loc,
    name_end: u32,
}

/// What the rewrite of a run of callers makes, in the serial rewrite's order, its nodes
/// numbered from `start`.
#[derive(Default)]
struct Batch {
    start: Ids,
    exprs: Vec<Expr>,
    stmts: Vec<Stmt>,
    locals: Vec<Local>,
    /// The locals' names, one after another.
    names: String,
    /// Each planned call, with its arguments and their directions (when it has them),
    /// the new ones appended.
    calls: Vec<(ExprId, NewArgs)>,
    /// The statements whose nested blocks changed: the new blocks, in
    /// `visit::map_stmt_blocks` order (`None`: unchanged).
    blocks: Vec<(StmtId, [Option<Block>; 2])>,
    /// The callers whose own body changed, with their new body.
    bodies: Vec<(usize, Block)>,
}

/// A planned call's arguments and their directions (when it has them), the new ones
/// appended.
type NewArgs = (Vec<Option<ExprId>>, Option<Vec<ArgDir>>);

impl Batch {
    /// An empty batch with room for the nodes made from ids `start` to `end`.
    fn sized(start: Ids, end: Ids) -> Batch {
        let locals = (end.vars - start.vars) as usize;
        Batch {
            start,
            exprs: Vec::with_capacity((end.exprs - start.exprs) as usize),
            stmts: Vec::with_capacity((end.stmts - start.stmts) as usize),
            locals: Vec::with_capacity(locals),
            names: String::with_capacity(locals * 32),
            ..Batch::default()
        }
    }

    fn apply(self, names: &mut Interner, p: &mut Program) {
        let Batch { start, exprs, stmts, locals, names: text, calls, blocks, bodies } = self;
        debug_assert_eq!(
            (p.vars.len(), p.exprs.len(), p.stmts.len()),
            (start.vars as usize, start.exprs as usize, start.stmts as usize),
            "a batch's ids follow the earlier batches'"
        );
        let mut from = 0;
        for l in locals {
            let end = l.name_end as usize;
            let sym = names.intern(&text[from..end]);
            from = end;
            p.new_graph_arg(names, sym, l.original, l.ty, l.loc);
        }
        for e in exprs {
            p.exprs.push(e);
        }
        for s in stmts {
            p.stmts.push(s);
        }
        for (c, (args, dirs)) in calls {
            set_args(&mut p.exprs[c.index()].kind, args, dirs);
        }
        replace_blocks(p, blocks);
        for (f, body) in bodies {
            p.functions[f].body = body;
        }
    }
}

/// Gives a planned call its arguments and their directions, the new ones appended (the
/// directions when it has them).
fn set_args(kind: &mut ExprKind, new_args: Vec<Option<ExprId>>, new_dirs: Option<Vec<ArgDir>>) {
    if let ExprKind::Call { args, attrs, .. } = kind {
        *args = new_args.into();
        let attrs = attrs.make_mut();
        if new_dirs.is_some() {
            attrs.arg_directions = new_dirs;
        }
    }
}

/// The rewrite of a run of callers into a [`Batch`], reading the program only.
struct Prep<'a> {
    p: &'a Program,
    names: &'a Interner,
    plans: &'a [(usize, Plan)],
    /// Every planned call: its statement, the call, its plan's index in `plans`, and where
    /// the statement sits (when known).
    planned: &'a [(StmtId, ExprId, usize, Place)],
    /// The caller's statements holding a planned call, each with its calls (consecutive
    /// in `planned`, in `visit::walk_block_exprs` order).
    at: FxHashMap<StmtId, (usize, usize)>,
    /// The caller's calls rewritten so far, by their index in `b.calls`.
    edited: FxHashMap<ExprId, usize>,
    /// The arguments bound to the graph's parameters (and the locals made for the moved
    /// values), and the local of each moved value by its index in the plan.
    binding: FxHashMap<VarId, ExprId>,
    locals: Vec<Option<VarId>>,
    /// The blocks [`Prep::direct`] rebuilds for a caller (a buffer kept from caller to
    /// caller).
    groups: Vec<Group<'a>>,
    b: Batch,
}

/// A block holding planned calls, as [`Prep::direct`] rebuilds it: the statement whose
/// block it is ([`Place::BODY`]: the caller's body) and which, its statements, how many of
/// them the new block has passed, and the new block.
struct Group<'a> {
    parent: u32,
    which: usize,
    block: &'a [StmtId],
    copied: usize,
    out: Block,
}

impl<'a> Prep<'a> {
    fn job(&mut self, job: &Job) {
        debug_assert_eq!(
            (self.b.start.exprs + self.b.exprs.len() as u32, self.b.start.vars + self.b.locals.len() as u32),
            (job.start.exprs, job.start.vars),
            "a caller's ids follow the run's earlier callers'"
        );
        self.edited.clear();
        if self.direct(job) {
            return;
        }
        self.at.clear();
        for k in job.planned.clone() {
            let s = self.planned[k].0;
            self.at.entry(s).and_modify(|r| r.1 = k + 1).or_insert((k, k + 1));
        }
        let p = self.p;
        if let Some(body) = self.block(&p.functions[job.f].body) {
            self.b.bodies.push((job.f, body));
        }
    }

    /// [`Prep::job`] when DeriveCallDirections handed on where each planned call's
    /// statement sits and none of them holds a block: only the blocks holding them are
    /// read and rebuilt, not the caller's every statement. The walk of [`Prep::block`]
    /// then meets the calls in the order of `planned` (a statement holding no block is met
    /// in its block's order, its calls in their order), so the nodes are made in the same
    /// order. Returns false, having made nothing, when a place is not known or not where
    /// the statement is.
    fn direct(&mut self, job: &Job) -> bool {
        let (p, f, planned) = (self.p, job.f, self.planned);
        let planned = &planned[job.planned.clone()];
        let mut groups = std::mem::take(&mut self.groups);
        groups.clear();
        // The blocks first, each place checked (the statements in order in their block).
        for &(s, _, _, place) in planned {
            if !place.known_leaf() {
                return false;
            }
            let (parent, which, i) = (place.parent(), place.block(), place.index());
            let g = match groups.iter().position(|g| g.parent == parent && g.which == which) {
                Some(g) => g,
                None => {
                    let block = match parent {
                        Place::BODY => Some(&p.functions[f].body),
                        parent => visit::stmt_blocks(&p.stmt(StmtId(parent)).kind)[which],
                    };
                    let Some(block) = block else { return false };
                    groups.push(Group { parent, which, block, copied: 0, out: Vec::new() });
                    groups.len() - 1
                }
            };
            let g = &mut groups[g];
            if g.block.get(i) != Some(&s) || i + 1 < g.copied {
                return false;
            }
            g.copied = i + 1;
        }
        for g in &mut groups {
            g.copied = 0;
            g.out = Vec::with_capacity(g.block.len() + 4);
        }
        for &(s, c, plan, place) in planned {
            let (parent, which, i) = (place.parent(), place.block(), place.index());
            let Some(g) = groups.iter_mut().find(|g| g.parent == parent && g.which == which) else {
                continue;
            };
            // A statement with several planned calls: each call's statements go in front
            // of it.
            if g.copied == i + 1 {
                g.out.pop();
            } else {
                g.out.extend_from_slice(&g.block[g.copied..i]);
            }
            self.call(c, plan, &mut g.out);
            g.out.push(s);
            g.copied = i + 1;
        }
        for g in groups.drain(..) {
            let Group { parent, which, block, copied, mut out } = g;
            out.extend_from_slice(&block[copied..]);
            match parent {
                Place::BODY => self.b.bodies.push((f, out)),
                parent if which == 0 => self.b.blocks.push((StmtId(parent), [Some(out), None])),
                parent => self.b.blocks.push((StmtId(parent), [None, Some(out)])),
            }
        }
        self.groups = groups;
        true
    }

    /// Puts in front of each statement of `block` (and of the blocks nested in it, those
    /// first) that holds planned calls the statements computing their new arguments: the
    /// new block, or `None` when it has no such statement.
    fn block(&mut self, block: &[StmtId]) -> Option<Block> {
        let p = self.p;
        let mut out: Option<Block> = None;
        for (i, &s) in block.iter().enumerate() {
            let nested = visit::stmt_blocks(&p.stmt(s).kind);
            if nested[0].is_some() {
                let new = nested.map(|b| b.and_then(|b| self.block(b)));
                if new.iter().any(Option::is_some) {
                    self.b.blocks.push((s, new));
                }
            }
            if let Some(&(from, to)) = self.at.get(&s) {
                let o = out.get_or_insert_with(|| {
                    let mut o = Vec::with_capacity(block.len() + 4);
                    o.extend_from_slice(&block[..i]);
                    o
                });
                for k in from..to {
                    let (_, c, plan, _) = self.planned[k];
                    self.call(c, plan, o);
                }
            }
            if let Some(o) = &mut out {
                o.push(s);
            }
        }
        out
    }

    fn new_expr(&mut self, kind: ExprKind, ty: TypeId, loc: Loc) -> ExprId {
        let id = ExprId(self.b.start.exprs + self.b.exprs.len() as u32);
        self.b.exprs.push(Expr { kind, ty, loc });
        id
    }

    fn new_stmt(&mut self, kind: StmtKind, loc: Loc) -> StmtId {
        let id = StmtId(self.b.start.stmts + self.b.stmts.len() as u32);
        self.b.stmts.push(Stmt { kind, loc });
        id
    }

    /// Appends the moved values to one call's arguments; puts the statements that compute
    /// them in `pre`.
    fn call(&mut self, call: ExprId, k: usize, pre: &mut Vec<StmtId>) {
        let (p, plans) = (self.p, self.plans);
        let (g, plan) = (plans[k].0, &plans[k].1);
        let loc = p.expr(call).loc;
        let ExprKind::Call { args, attrs, .. } = &p.expr(call).kind else { return };
        let params = &p.functions[g].params;
        let original = params.len() - plan.hoists.len();
        self.binding.clear();
        for (param, arg) in params[..original].iter().zip(args) {
            if let Some(a) = arg {
                self.binding.insert(param.var, *a);
            }
        }
        self.locals.clear();
        self.locals.resize(plan.hoists.len(), None);
        for item in &plan.order {
            match *item {
                Err((alias, target)) => {
                    if let Some(&e) = self.binding.get(&target) {
                        self.binding.insert(alias, e);
                    }
                }
                Ok(i) => {
                    let h = &plan.hoists[i];
                    let value = self.copy(h.value, loc);
                    let b = &mut self.b;
                    let n = b.locals.len() as u32;
                    let local = VarId(b.start.vars + n);
                    crate::ir::names::push_graph_arg(
                        &mut b.names,
                        self.names.get(p.var(h.original).name),
                        b.start.number + n,
                    );
                    let ty = p.var(h.original).ty;
                    b.locals.push(Local { original: h.original, ty, loc, name_end: b.names.len() as u32 });
                    pre.push(self.new_stmt(StmtKind::Assign { var: local, value }, loc));
                    let bound = self.new_expr(ExprKind::Var(local), ty, loc);
                    self.binding.insert(h.original, bound);
                    self.locals[i] = Some(local);
                }
            }
        }
        let added = plan.params_order.len();
        let mut new_args = Vec::with_capacity(args.len() + added);
        new_args.extend_from_slice(args);
        let mut new_dirs = attrs.arg_directions.as_ref().map(|d| {
            let mut new = Vec::with_capacity(d.len() + added);
            new.extend_from_slice(d);
            new
        });
        for &i in &plan.params_order {
            let h = &plan.hoists[i];
            let v = self.locals[i].expect("a hoist bound at the call site");
            new_args.push(Some(self.new_expr(ExprKind::Var(v), p.var(h.original).ty, loc)));
            if let Some(d) = &mut new_dirs {
                d.push(match (h.kind, h.dir) {
                    (HoistKind::Scalar, _) => ArgDir::Scalar,
                    (_, Direction::In) => ArgDir::Input,
                    _ => ArgDir::InOut,
                });
            }
        }
        self.edited.insert(call, self.b.calls.len());
        self.b.calls.push((call, (new_args, new_dirs)));
    }

    /// A deep copy of a moved value (as `visit::copy_expr` makes it): each variable bound
    /// to an argument reads the argument instead (its kind, with the variable's type), and
    /// every node gets the call's location.
    fn copy(&mut self, e: ExprId, loc: Loc) -> ExprId {
        let Expr { kind, ty, .. } = self.p.expr(e).clone();
        let kind = match kind {
            ExprKind::Var(v) => match self.binding.get(&v) {
                Some(&a) => self.kind_of(a),
                None => ExprKind::Var(v),
            },
            kind => visit::map_expr_children(kind, |c| self.copy(c, loc)),
        };
        self.new_expr(kind, ty, loc)
    }

    /// The kind of `a` as the serial rewrite would read it: a node of this batch, or a
    /// call of this caller already given its new arguments.
    fn kind_of(&self, a: ExprId) -> ExprKind {
        let b = &self.b;
        if let Some(i) = a.0.checked_sub(b.start.exprs) {
            return b.exprs[i as usize].kind.clone();
        }
        let mut kind = self.p.expr(a).kind.clone();
        if let Some(&i) = self.edited.get(&a) {
            let (_, (args, dirs)) = &b.calls[i];
            set_args(&mut kind, args.clone(), dirs.clone());
        }
        kind
    }
}

/// A finding of [`Checker::static_body`]: its code, where, and the Graph function called
/// (E0508).
pub(super) type StaticFinding = (Code, Loc, Option<Symbol>);

/// [`Checker::static_body`]'s rules at one node of the body of the Graph function at place
/// `at` (in `visit::walk_block_exprs` order).
pub(super) fn static_findings(p: &Program, at: usize, e: ExprId, out: &mut Vec<StaticFinding>) {
    let ExprKind::Call { callee, args, attrs } = &p.expr(e).kind else { return };
    let loc = p.expr(e).loc;
    match callee {
        Callee::Op(op) => match op {
            Op::TensorFull => out.push((Code::E0505, loc, None)),
            Op::TensorCreate if !args.first().copied().flatten().is_some_and(|s| literal(p, s)) => {
                out.push((Code::E0506, loc, None));
            }
            _ => {}
        },
        Callee::Func(h) | Callee::Submit(h) => {
            if p.callee_near(*h, at).is_some_and(|(_, c)| c.decl.kind == FuncKind::Graph) {
                out.push((Code::E0508, loc, Some(*h)));
            }
            if let Some(v) = attrs.launch.core_num.filter(|&v| !literal(p, v)) {
                out.push((Code::E0507, p.expr(v).loc, None));
            }
        }
    }
}

/// The functions (in program order) whose bodies call one of `graphs`, each with those
/// calls and the statements that hold them (in `visit::walk_block_exprs` order), found in
/// one walk of each function.
fn graph_calls(p: &Program, graphs: &[usize]) -> Vec<Calls> {
    use rayon::prelude::*;
    let wanted: FxHashMap<Symbol, u32> = graphs.iter().map(|&i| (p.functions[i].name, i as u32)).collect();
    let of = |(i, f): (usize, &Function)| {
        let mut calls = Vec::new();
        visit::walk_block_exprs(p, &f.body, |s, e| {
            if let ExprKind::Call { callee, .. } = &p.expr(e).kind {
                if let Some(&g) = callee.function().and_then(|g| wanted.get(&g)) {
                    calls.push((s, e, g, Place::UNKNOWN));
                }
            }
        });
        (!calls.is_empty()).then_some((i, calls))
    };
    // One walk of each function, which reads the program only: in parallel for a large
    // program, gathered in the functions' order.
    let funcs: Vec<(usize, &Function)> = p.functions.values().enumerate().collect();
    let threads = rayon::current_num_threads();
    if threads < 2 || funcs.len() < PARALLEL_MIN_GRAPHS * 2 {
        funcs.into_iter().filter_map(of).collect()
    } else {
        let run = funcs.len().div_ceil(threads * 4).max(PARALLEL_MIN_GRAPHS / 2);
        let found: Vec<_> = funcs.par_iter().with_min_len(run).map(|&f| of(f)).collect();
        found.into_iter().flatten().collect()
    }
}

/// What [`graph_calls`] finds, taken from `sites`, every call of a function of the program
/// in that order (as DeriveCallDirections hands them on): no walk of a function.
fn graph_calls_among(p: &Program, graphs: &[usize], sites: Vec<CallSite>) -> Vec<Calls> {
    let mut is_graph = vec![false; p.functions.len()];
    for &g in graphs {
        is_graph[g] = true;
    }
    let mut all: Vec<Calls> = Vec::new();
    for (caller, call) in sites {
        if !is_graph[call.2 as usize] {
            continue;
        }
        match all.last_mut() {
            Some((c, calls)) if *c == caller as usize => calls.push(call),
            _ => all.push((caller as usize, vec![call])),
        }
    }
    all
}

/// A function (by its place in `program.functions`) with its calls of Graph functions: the
/// statement holding each, the call, the graph's place, and where the statement sits
/// ([`Place::UNKNOWN`] when found by [`graph_calls`]).
type Calls = (usize, Vec<(StmtId, ExprId, u32, Place)>);

#[cfg(test)]
mod tests {
    use crate::driver::{self, Input, PipelineSpec, StopAt};
    use crate::passes::PASSES;

    /// The diagnostics and the printed IR of `input` through the default pipeline, or, when
    /// `handed` is false, with OutlineClusterScopes (which finds nothing left to do) run
    /// again between DeriveCallDirections and LegalizeGraphBoundary: then
    /// LegalizeGraphBoundary is handed no calls and walks every function for them.
    fn outputs(input: impl Fn() -> Input + Sync, handed: bool, threads: usize) -> String {
        let mut names: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
        if !handed {
            let at = names.len() - 1;
            names.insert(at, "OutlineClusterScopes");
        }
        let spec = PipelineSpec::passes(names.join(",")).verified();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            let c = driver::compile(input(), &spec, StopAt::End).expect("readable");
            let diags: Vec<String> =
                c.diags.iter().map(|d| format!("{:?} {} {:?}", d.code, d.message, d.primary)).collect();
            format!("{diags:#?}\n{}", crate::ir::print::programs(&c.programs, &c.session.interner))
        })
    }

    #[test]
    fn the_calls_handed_on_are_the_calls_a_walk_finds() {
        // Every case and example with a graph, and a program of 300 graphs (the parallel
        // paths: at least 128 graphs, 256 functions), on one thread and on two.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["examples", "tests/cases/errors", "tests/cases/warnings"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("a folder").flatten() {
                let path = entry.path();
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if path.extension().is_some_and(|e| e == "pl") && text.contains("graph") {
                    files.push(path);
                }
            }
        }
        files.sort();
        assert!(files.len() > 10, "{files:?}");
        for path in &files {
            let a = outputs(|| Input::file(path.clone()), true, 1);
            assert_eq!(a, outputs(|| Input::file(path.clone()), false, 1), "{}", path.display());
        }
        let mut text = String::from("import pypto.language as pl\n\nROWS = 128\nCOLS = 128\n");
        for k in 0..300 {
            text.push_str(&format!(
                "\n@pl.jit\ndef entry_{k}(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):\n    for i in pl.range(4):\n        with pl.graph(\"band_{k}\"):\n            base = i * ROWS\n            with pl.at(level=pl.Level.CORE_GROUP):\n                band = pl.load(w, [base, 0], [ROWS, COLS])\n                cur = pl.load(acc, [0, 0], [ROWS, COLS])\n                pl.store(pl.add(cur, band), [0, 0], acc)\n    return acc\n"
            ));
        }
        let input = || Input::text("many.pl", text.clone());
        let serial = outputs(input, false, 1);
        assert!(serial.contains("base__ssa_v0__graph_arg299"), "{serial}");
        for threads in [1, 2] {
            assert_eq!(outputs(input, true, threads), serial);
            assert_eq!(outputs(input, false, threads), serial);
        }
    }
}
