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

use super::{BodyState, FnKey, Lowering};
use crate::diag::Diagnostic;
use crate::intern::Symbol;
use crate::ir::fork::{Fork, Part};
use crate::ir::Function;
use crate::session::Session;
use crate::source::SourceMap;
use rustc_hash::{FxHashMap, FxHashSet};

/// From this many functions in a namespace, and two threads, the bodies are lowered on
/// runs in parallel.
pub(super) const PARALLEL_MIN_FUNCTIONS: usize = 256;

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
        let run_len = names.len().div_ceil(threads * 4).max(PARALLEL_MIN_FUNCTIONS / 4);
        // Each run's arenas sized for its share of the program's (about one IR node per
        // syntax node), so that they are not grown from empty.
        let share = |total: usize, run: &[Symbol]| total / names.len() * run.len();
        let fork = Fork::new(&mut self.program, &mut self.session.interner);
        let this: &Lowering<'_> = self;
        // On rayon's global pool, whose threads `plc` gives the serial thread's stack
        // (`cli::STACK_SIZE`: an accepted expression may be thousands of levels high).
        let done: Vec<Lowered> = {
            use rayon::prelude::*;
            names
                .par_chunks(run_len)
                .map(|run| {
                    let sizes = (share(sizes.0, run), share(sizes.1, run), share(sizes.2, run));
                    this.lower_run(&fork, ns, run, sizes)
                })
                .collect()
        };
        let Some(done) = done.into_iter().collect::<Option<Vec<_>>>() else {
            fork.join(&mut self.program, &mut self.session.interner, Vec::new());
            return false;
        };
        let (parts, diags): (Vec<Part>, Vec<Vec<Diagnostic>>) = done.into_iter().unzip();
        let lowered = fork.join(&mut self.program, &mut self.session.interner, parts);
        for f in lowered.into_iter().flatten() {
            self.states.insert((self.current, (ns, f.name)), BodyState::Lowered);
            self.program.functions.insert(f.name, f);
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
        fork: &Fork,
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
        let mut cx = Lowering {
            session: &mut session,
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
            run: Some(Run { ns, own: run.iter().copied().collect(), escaped: false }),
        };
        for &name in run {
            cx.ensure_lowered((ns, name));
            if cx.run.as_ref().is_some_and(|r| r.escaped) {
                return None;
            }
        }
        let functions: Vec<Function> = std::mem::take(&mut cx.program.functions).into_values().collect();
        let Lowering { program, diags, .. } = cx;
        Some((Part { program, names: session.interner, functions }, diags))
    }
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
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            let joined = super::JOINED.get();
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
            (out, super::JOINED.get() > joined)
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
