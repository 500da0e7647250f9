//! The bodies of a namespace's functions lowered on runs in parallel.
//!
//! What a body reads of the rest of the program is made before any body: the modules'
//! names (constants, imports, `pl.dynamic` dimensions), the factories' instances and every
//! function's signature. So the bodies of a namespace with many functions are lowered on
//! runs of consecutive functions, each on a fork of the program (`ir::fork`: the run's
//! variables, expressions, statements, types and names numbered after the base, moved at
//! the join), with its own diagnostics, joined in source order: the program, every id,
//! name and type and the diagnostics are the serial lowering's.
//!
//! A run lowers its own functions only, in order, as the serial lowering does. What the
//! serial lowering would do differently after an earlier run makes a run give up
//! ([`Lowering::shared_changed`]): a call that needs another run's function (a callee
//! without a return annotation, lowered first for its return types; a module-level
//! function a class program takes in), or a change to what every body reads (a module's
//! names, a declared memref or window buffer, a `pl.dynamic` dimension made in a body).
//! Then the fork is undone and the namespace lowered serially.
//!
//! The signatures of a module's many functions are read on runs the same way, before the
//! bodies ([`Lowering::plan_signatures`]), and declared in source order on the calling
//! thread ([`Lowering::declare_planned`]).

use super::{FnKey, Lowering, ModuleId, Signature};
use crate::diag::Diagnostic;
use crate::intern::{Interner, Symbol};
use crate::ir::fork::{self, Fork, Ordered, Part};
use crate::ir::{Dim, Function, Program, Type, TypeId, Types};
use crate::session::Session;
use crate::source::SourceMap;
use crate::syntax::ast::{StmtId as AstStmtId, StmtKind as AstStmt};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// From this many functions in a namespace, and two threads, the bodies are lowered on
/// runs in parallel.
pub(super) const PARALLEL_MIN_FUNCTIONS: usize = 256;

/// About this many runs per thread: the last run's move into the program is left after the
/// last run, the others' are made while later runs are lowered; smaller runs also leave
/// less of a thread's time idle at the end (the other still lowering its last run).
const RUNS_PER_THREAD: usize = 8;

/// A run of functions lowered on a fork.
pub(crate) struct Run {
    /// The namespace and the names of the run's functions.
    ns: usize,
    own: FxHashSet<Symbol>,
    /// The run read or changed what the serial lowering would have had from an earlier
    /// function, or gave to a later one: its result is not the serial one.
    pub escaped: bool,
}

impl Run {
    /// Whether the function is one of the run's.
    pub(super) fn owns(&self, key: FnKey) -> bool {
        key.0 == self.ns && self.own.contains(&key.1)
    }
}

/// What a run made: its fork's part (nodes, names, functions in the order lowered) and its
/// diagnostics; `None` when it escaped.
type Lowered = Option<(Part, Vec<Diagnostic>)>;

impl Lowering<'_> {
    /// Lowers the bodies of namespace `ns`'s functions (`names`, in source order) into the
    /// current program on runs in parallel, when there are enough of them and threads;
    /// false (the program as it was) when they were not, or a run escaped: the caller then
    /// lowers them serially. `sizes`: the expected number of the namespace's variables, expressions and
    /// statements.
    pub(super) fn lower_in_parallel(&mut self, ns: usize, names: &[Symbol], sizes: (usize, usize, usize)) -> bool {
        let threads = rayon::current_num_threads();
        if threads < 2 || names.len() < PARALLEL_MIN_FUNCTIONS {
            return false;
        }
        let run_len = names.len().div_ceil(threads * RUNS_PER_THREAD).max(PARALLEL_MIN_FUNCTIONS / 4);
        let runs = fork::guided(names, threads, run_len, PARALLEL_MIN_FUNCTIONS / 4);
        // Each run's arenas sized for its share of the program's (about one IR node per
        // syntax node), so that they are not grown from empty; the program's arenas, where
        // each run's nodes are moved as soon as the runs before it are (`Fork::ordered`),
        // sized for them all.
        let share = |total: usize, run: &[Symbol]| total / names.len() * run.len();
        let fork = Fork::with_room(&mut self.program, &mut self.session.interner, sizes)
            .ordered(runs.len())
            .mapping(names.len());
        let escaped = AtomicBool::new(false);
        let this: &Lowering<'_> = self;
        // On rayon's global pool, whose threads `plc` gives the serial thread's stack
        // (`cli::STACK_SIZE`: an accepted expression may be thousands of levels high); the
        // runs handed out in order, so that each is joined soon after it is done.
        let done: Vec<Option<Vec<Diagnostic>>> = fork::in_order(
            runs,
            || (),
            |_, k, run| {
                if escaped.load(Ordering::Relaxed) {
                    return None;
                }
                let sizes = (share(sizes.0, run), share(sizes.1, run), share(sizes.2, run));
                let Some((part, diags)) = this.lower_run(&fork, ns, run, sizes) else {
                    escaped.store(true, Ordering::Relaxed);
                    return None;
                };
                fork.done(k, part);
                Some(diags)
            },
        );
        let Some(diags) = done.into_iter().collect::<Option<Vec<_>>>() else {
            fork.abandon(&mut self.program, &mut self.session.interner);
            return false;
        };
        let lowered = fork.finish_mapped(&mut self.program, &mut self.session.interner);
        // Their states are not recorded: `ensure_lowered` reads the states of the current
        // program only, and no function of this namespace is lowered into it again (the
        // next namespace has a program of its own).
        if self.program.functions.is_empty() {
            self.program.functions = lowered;
        } else {
            self.program.functions.extend(lowered);
        }
        self.diags.extend(diags.into_iter().flatten());
        #[cfg(test)]
        JOINED.set(JOINED.get() + 1);
        true
    }

    /// Lowers one run's functions in order on a fork of the program, with the run's own
    /// session (the fork's interner; the files read from this one).
    fn lower_run(
        &self,
        fork: &Ordered,
        ns: usize,
        run: &[Symbol],
        (vars, exprs, stmts): (usize, usize, usize),
    ) -> Lowered {
        let mut session = Session { files: SourceMap::default(), interner: fork.names() };
        let mut program = fork.program();
        program.vars.reserve(vars);
        program.exprs.reserve(exprs);
        program.stmts.reserve(stmts);
        program.functions.reserve(run.len());
        let mut cx =
            self.for_run(&mut session, program, Run { ns, own: run.iter().copied().collect(), escaped: false });
        for (k, &name) in run.iter().enumerate() {
            cx.prefetch_body(ns, name, run.get(k + 1).copied());
            cx.ensure_lowered((ns, name));
            if cx.run.as_ref().is_some_and(|r| r.escaped) {
                return None;
            }
        }
        let functions: Vec<Function> = std::mem::take(&mut cx.program.functions).into_values().collect();
        let Lowering { program, diags, .. } = cx;
        Some((Part { program, names: session.interner, functions }, diags))
    }

    /// Brings the syntax nodes of the definition of `name` into the cache before it is
    /// lowered (`syntax::ast::Ast::prefetch_def`); `next`, the function after it in the
    /// run, bounds them.
    fn prefetch_body(&self, ns: usize, name: Symbol, next: Option<Symbol>) {
        let functions = &self.namespaces[ns].functions;
        let Some(info) = functions.get(&name) else { return };
        // The next definition bounds this one's nodes when it is in the same module, after
        // it (the member of a mixed kernel shares its stub's definition).
        let next = next.and_then(|n| functions.get(&n)).filter(|f| f.module == info.module && f.def.0 > info.def.0);
        self.modules[info.module].ast.prefetch_def(info.def, next.map(|f| f.def));
    }

    /// A lowering for a run on another thread: its own session (`session`, whose interner
    /// reads this one's), program and diagnostics; the rest read from this lowering.
    fn for_run<'r>(&'r self, session: &'r mut Session, program: Program, run: Run) -> Lowering<'r> {
        Lowering {
            session,
            files: Some(self.files()),
            program,
            diags: Vec::new(),
            modules: self.modules.clone(),
            by_path: FxHashMap::default(),
            loading: Vec::new(),
            namespaces: self.namespaces.clone(),
            current: self.current,
            states: FxHashMap::default(),
            sig_types: self.sig_types.clone(),
            imported: Vec::new(),
            last_value_type: None,
            finished: Vec::new(),
            syntax_errors: self.syntax_errors,
            python_bodies: self.python_bodies.clone(),
            lowering_depth: 0,
            factories: self.factories.clone(),
            factory_memo: self.factory_memo.clone(),
            factory_sites: self.factory_sites.clone(),
            factory_calls: self.factory_calls.clone(),
            helper_depth: 0,
            memref_decls: self.memref_decls.clone(),
            window_buffers: self.window_buffers.clone(),
            run: Some(run),
            module_changes: 0,
        }
    }
}

// ------------------------------------------------------------ signatures

/// One function's signature read on a run (`Lowering::plan_signatures`): what the serial
/// reading would have reported, the types it interned first (in order), and the signature,
/// whose types made by the run are numbered after the base table's.
struct Plan {
    run: usize,
    sig: Option<Signature>,
    diags: Vec<Diagnostic>,
    types: Vec<Type>,
}

/// The signatures of a module's functions read on runs, declared one by one in source
/// order ([`Lowering::declare_planned`]).
pub(super) struct Planned {
    plans: std::iter::Flatten<std::vec::IntoIter<Vec<Plan>>>,
    /// The length of the type table the runs read.
    base: u32,
    /// The program's id of each type the current run made, in order.
    ids: Vec<TypeId>,
    run: usize,
    /// [`Lowering::module_changes`] when the signatures were read.
    stamp: usize,
}

impl Lowering<'_> {
    /// Reads the signatures of module `m`'s functions (`defs`, its `def` statements at the
    /// top level, in order) on runs in parallel, when there are enough of them and threads:
    /// a signature reads the module's names and the files, reports, and interns types, none
    /// of which another signature's reading depends on; its declaration (duplicates, the
    /// name bound) is left to [`Lowering::declare_planned`], in order. `None` (read them
    /// serially) when there were too few, or a run made a name (a new symbol) or a type
    /// that holds ids (a tuple), or changed what every function reads (`shared_changed`).
    pub(super) fn plan_signatures(&mut self, m: ModuleId, defs: &[AstStmtId]) -> Option<Planned> {
        let threads = rayon::current_num_threads();
        if threads < 2 || defs.len() < PARALLEL_MIN_FUNCTIONS {
            return None;
        }
        let run_len = defs.len().div_ceil(threads * 4).max(PARALLEL_MIN_FUNCTIONS / 4);
        let types = Arc::new(std::mem::take(&mut self.program.types));
        let names = Arc::new(std::mem::take(&mut self.session.interner));
        let done: Vec<Option<Vec<Plan>>> = {
            use rayon::prelude::*;
            let this: &Lowering<'_> = self;
            defs.par_chunks(run_len).enumerate().map(|(i, run)| this.plan_run(&types, &names, m, run, i)).collect()
        };
        self.program.types = Arc::try_unwrap(types).unwrap_or_else(|t| (*t).clone());
        self.session.interner = Arc::try_unwrap(names).unwrap_or_else(|n| (*n).clone());
        let runs = done.into_iter().collect::<Option<Vec<_>>>()?;
        #[cfg(test)]
        PLANNED.set(PLANNED.get() + 1);
        Some(Planned {
            plans: runs.into_iter().flatten(),
            base: self.program.types.len() as u32,
            ids: Vec::new(),
            run: 0,
            stamp: self.module_changes,
        })
    }

    /// One run's signatures, read on a table of types and an interner forked from `types`
    /// and `names`.
    fn plan_run(
        &self,
        types: &Arc<Types>,
        names: &Arc<Interner>,
        m: ModuleId,
        defs: &[AstStmtId],
        run: usize,
    ) -> Option<Vec<Plan>> {
        let mut session = Session { files: SourceMap::default(), interner: Interner::forked(names) };
        let program = Program {
            types: Types::forked(types),
            dynamic_dims: self.program.dynamic_dims.clone(),
            ..Program::default()
        };
        let mut cx = self.for_run(&mut session, program, Run { ns: 0, own: FxHashSet::default(), escaped: false });
        let tree = Arc::clone(&self.modules[m].ast);
        let mut plans = Vec::with_capacity(defs.len());
        let mut typed = cx.program.types.len();
        for &stmt in defs {
            let AstStmt::FunctionDef(def) = &tree.stmt(stmt).kind else { return None };
            let sig = cx.signature(m, stmt, def, 0, None);
            if cx.run.as_ref().is_some_and(|r| r.escaped) {
                return None;
            }
            let now = cx.program.types.len();
            let made: Vec<Type> = (typed..now).map(|i| cx.program.types.get(TypeId(i as u32)).clone()).collect();
            if !made.iter().all(without_ids) {
                return None;
            }
            typed = now;
            plans.push(Plan { run, sig, diags: std::mem::take(&mut cx.diags), types: made });
        }
        drop(cx);
        (session.interner.len() == names.len()).then_some(plans)
    }

    /// Declares the next planned signature, as `collect_function` would have: its types
    /// interned, its reports and the declaration's in order. False, with nothing done, when
    /// there is none, or the modules changed since the signatures were read (a name bound
    /// anew, which a later signature may read): the rest are then read again serially.
    pub(super) fn declare_planned(&mut self, planned: &mut Option<Planned>) -> bool {
        let Some(p) = planned else { return false };
        let next = if p.stamp == self.module_changes { p.plans.next() } else { None };
        let Some(Plan { run, sig, diags, types }) = next else {
            *planned = None;
            return false;
        };
        if run != p.run {
            p.ids.clear();
            p.run = run;
        }
        for ty in types {
            p.ids.push(self.program.types.intern(ty));
        }
        self.diags.extend(diags);
        let Some(mut sig) = sig else { return true };
        let (base, ids) = (p.base, &p.ids);
        let id = |t: TypeId| if t.0 < base { t } else { ids[(t.0 - base) as usize] };
        for param in &mut sig.info.params {
            param.ty = id(param.ty);
        }
        for t in sig.info.returns.iter_mut().flatten() {
            *t = id(*t);
        }
        self.declare(sig);
        true
    }
}

/// Whether a type holds no ids of the arena or the type table (no tuple, no extent held
/// by a variable): what a signature's types are, moved as they are from a run.
fn without_ids(ty: &Type) -> bool {
    let dims_ok = |dims: &[Dim]| !dims.iter().any(|d| matches!(d, Dim::Var(_)));
    match ty {
        Type::Tuple(_) => false,
        Type::Tensor { shape: Some(shape), .. } | Type::Tile { shape, .. } => dims_ok(shape),
        _ => true,
    }
}

#[cfg(test)]
thread_local! {
    /// How many modules' signatures this thread read on runs in parallel.
    pub(super) static PLANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// How many namespaces this thread lowered on runs in parallel (the tests' proof that
    /// the parallel path was taken, not given up).
    pub(super) static JOINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use crate::driver::{self, Input, PipelineSpec, StopAt};
    use crate::ir::TypeId;

    /// `n` functions of several kinds using the module's constants and `pl.dynamic`
    /// dimension: callers of helpers in other runs (declared return types), InCore kernels
    /// with `pl.func_attr` strings (names several runs intern), gen's `pl.graph` entries,
    /// and functions with errors (E0201, E0202) spread through the runs. With `escape`, a
    /// helper without a return annotation at the end, called from the first run (whose
    /// lowering then needs another run's body).
    fn mixed(n: usize, escape: bool) -> String {
        let mut out = String::from("import pypto.language as pl\n\nROWS = 64\nSCALE = 2.0\nN = pl.dynamic(\"N\")\n");
        for i in 0..n {
            let j = (i * 37) % n / 6 * 6;
            out.push_str(&match i % 6 {
                0 => format!(
                    "\n@pl.function\ndef helper_{i}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    y = pl.add(x, SCALE)\n    return y\n"
                ),
                1 => format!(
                    "\n@pl.function\ndef caller_{i}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    y = helper_{j}(x)\n    z_{i} = pl.mul(y, {i}.0)\n    return z_{i}\n"
                ),
                2 => format!(
                    "\n@pl.function(type=pl.FunctionType.InCore)\ndef kernel_{i}(x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:\n    pl.func_attr({{\"slot_num\": 2, \"stationary\": x, \"tag_{}\": \"v{}\"}})\n    t = pl.load(x, [0, 0], [64, 128])\n    out = pl.store(pl.mul(t, SCALE), [0, 0], out)\n    return out\n",
                    i % 5,
                    i % 3
                ),
                3 if i % 5 == 3 => format!(
                    "\n@pl.function\ndef bad_{i}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    y = pl.add(x, missing_{})\n    return helper_0(y, y)\n",
                    i % 4
                ),
                3 => format!(
                    "\n@pl.function\ndef dyn_{i}(x: pl.Tensor[[N, {}], pl.FP32]) -> pl.Tensor[[N, {}], pl.FP32]:\n    y = x\n    for j in pl.range(4):\n        y = pl.add(y, x)\n    return y\n",
                    i + 1,
                    i + 1
                ),
                4 => format!(
                    "\n@pl.jit\ndef entry_{i}(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):\n    for i in pl.range(4):\n        with pl.graph(\"band_{i}\"):\n            base = i * ROWS\n            with pl.at(level=pl.Level.CORE_GROUP):\n                band = pl.load(w, [base, 0], [ROWS, ROWS])\n                cur = pl.load(acc, [0, 0], [ROWS, ROWS])\n                pl.store(pl.add(cur, band), [0, 0], acc)\n    return acc\n"
                ),
                _ if escape && i == 5 => "\n@pl.function\ndef first(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    return last(x)\n".to_string(),
                _ => format!(
                    "\n@pl.function\ndef plain_{i}(a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    b = a + ROWS\n    s_{} = b * {i}\n    return s_{}\n",
                    i % 7,
                    i % 7
                ),
            });
        }
        if escape {
            out.push_str(
                "\n@pl.function\ndef last(x: pl.Tensor[[ROWS], pl.FP32]):\n    y = pl.add(x, SCALE)\n    return y\n",
            );
        }
        out
    }

    /// Everything lowering makes: the programs (functions and arenas, every type by id),
    /// every name by symbol and the diagnostics; and whether a namespace was lowered on
    /// runs in parallel.
    fn lowered(source: &str, threads: usize) -> (String, bool) {
        let (out, joined, _) = lowered_planned(source, threads);
        (out, joined)
    }

    /// As `lowered`, and whether a module's signatures were read on runs in parallel.
    fn lowered_planned(source: &str, threads: usize) -> (String, bool, bool) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            let (joined, planned) = (super::JOINED.get(), super::PLANNED.get());
            let c = driver::compile(Input::text("test.pl", source), &PipelineSpec::default(), StopAt::Lower)
                .expect("in memory");
            let mut out = String::new();
            for p in &c.programs {
                let types: Vec<_> = (0..p.types.len()).map(|i| p.types.get(TypeId(i as u32))).collect();
                out.push_str(&format!(
                    "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{types:?}\n",
                    p.functions, p.vars, p.exprs, p.stmts, p.dynamic_dims
                ));
            }
            out.push_str(&format!("{:?}\n{:?}", c.session.interner.names().collect::<Vec<_>>(), c.diags));
            (out, super::JOINED.get() > joined, super::PLANNED.get() > planned)
        })
    }

    #[test]
    fn bodies_lowered_on_runs_in_parallel_are_the_serial_ones() {
        // More functions than the threshold: two threads or more take the parallel path.
        const { assert!(600 >= 2 * super::PARALLEL_MIN_FUNCTIONS) };
        let source = mixed(600, false);
        let (serial, parallel) = lowered(&source, 1);
        assert!(!parallel);
        assert!(serial.contains("E0201") && serial.contains("E0202"), "the runs have errors to join");
        assert!(serial.contains("tag_4"));
        for threads in [2, 3, 4] {
            let (out, parallel) = lowered(&source, threads);
            assert!(parallel, "{threads} threads lowered in parallel");
            assert!(out == serial, "{threads} threads: not the serial lowering");
        }
    }

    /// `n` functions whose signatures report (a name defined twice, a parameter without an
    /// annotation, an unknown type, a bad decorator argument) between good ones with
    /// declared returns; with `rebind`, a function whose name a constant took after its
    /// `def`, so that declaring it binds the name anew (the later signatures are then read
    /// again serially).
    fn signature_errors(n: usize, rebind: bool) -> String {
        let mut out = String::from("import pypto.language as pl\n\nROWS = 64\n");
        for i in 0..n {
            out.push_str(&match i % 5 {
                0 if i >= 5 => format!("\n@pl.function\ndef good_{}(x: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:\n    return x\n", i - 1),
                1 => format!("\n@pl.function\ndef bare_{i}(x, y: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    return y\n"),
                2 => format!("\n@pl.function\ndef odd_{i}(x: pl.Tensr[[{i}], pl.FP16]):\n    return x\n"),
                3 => format!("\n@pl.function(level=3, type=pl.FunctionType.InCore)\ndef deco_{i}(x: pl.Tensor[[{i}, 8], pl.BF16]) -> pl.Tensor[[{i}, 8], pl.BF16]:\n    return x\n"),
                _ => format!("\n@pl.function\ndef good_{i}(x: pl.Tensor[[ROWS], pl.FP32], n: pl.Scalar[pl.INDEX]) -> tuple[pl.Tensor[[ROWS], pl.FP32], pl.Scalar[pl.INDEX]]:\n    return x, n\n"),
            });
            if rebind && i == n / 2 {
                out.push_str(&format!("\ngood_{} = 3\n", i - i % 5 + 4 - 5));
            }
        }
        out
    }

    #[test]
    fn signatures_read_on_runs_in_parallel_are_the_serial_ones() {
        for rebind in [false, true] {
            let source = signature_errors(600, rebind);
            let (serial, _) = lowered(&source, 1);
            for code in ["E0214", "E0208", "E0207", "E0212"] {
                assert!(serial.contains(code), "{code} reported");
            }
            for threads in [2, 3, 4] {
                let (out, _, planned) = lowered_planned(&source, threads);
                assert!(planned, "{threads} threads read the signatures in parallel");
                assert!(out == serial, "{threads} threads: not the serial lowering");
            }
        }
    }

    #[test]
    fn a_run_needing_another_runs_body_is_lowered_serially() {
        let source = mixed(600, true);
        let (serial, _) = lowered(&source, 1);
        assert!(serial.contains("last"));
        let (out, parallel) = lowered(&source, 4);
        assert!(!parallel, "the first run needs `last`'s body for its return types");
        assert!(out == serial);
    }
}
