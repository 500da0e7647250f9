//! The front of the pipeline fused: ConvertToSSA, OutlineHierarchyScopes,
//! OutlineGraphScopes, OutlineIncoreScopes and OutlineClusterScopes taken one run of
//! consecutive functions at a time, all five on a run while its nodes are in the cache,
//! the runs in parallel, with the program, names and diagnostics of the five passes run one
//! after another over the whole program.
//!
//! Each of these passes works on one function at a time (ConvertToSSA) or on one function
//! and the functions it outlines from it (the outliners), so a run of functions can be
//! taken through all five on its own: ConvertToSSA's runs on forks of the program
//! ([`ssa::forked_runs`]) are outlined right after their conversion, on the run's program,
//! before the run is joined. What a run cannot see is what the other runs do, and two
//! things of it matter:
//!
//! - **Names.** An outliner names a new function after its region or its parent, avoiding
//!   every name taken in the program, the names the serial pass chose before included. A
//!   run avoids the names of the program's functions and its own choices
//!   ([`outline::Reserved`]); it chooses what the serial passes choose unless another run
//!   chose the same name (the only way another run's names change a run's choice). So
//!   when two runs chose one name, the fused result is dropped.
//! - **Callees.** A region's call of a function passes its arguments in that function's
//!   directions; a run looks its callee up in its own program, then among the program's
//!   functions as they were before the runs (the directions of their parameters are what
//!   the serial passes see). A callee found in neither might be another run's new
//!   function: the fused result is dropped then too.
//!
//! A dropped result is undone ([`crate::ir::fork::Ordered::abandon`]; the runs worked on
//! copies of the functions) and the five passes run one after another. Each run stops at
//! its first pass that reports an error; the driver keeps the diagnostics of the passes up
//! to the first that reported an error in any run, as when the passes run one after another
//! (the program is not used after an error).
//!
//! The driver fuses the five only when they come together in the pipeline, unverified,
//! with no stop between them, and some program is large enough for ConvertToSSA's runs
//! ([`worth`]); `--time-passes` then shows them as one stage ([`NAME`]).

use super::{ssa, Handoff, PassCx, PassDef};
use crate::diag::{self, Diagnostic};
use crate::intern::Interner;
use crate::ir::Program;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// The passes fused, in the order the pipeline runs them.
pub const PASSES: [&str; 5] =
    ["ConvertToSSA", "OutlineHierarchyScopes", "OutlineGraphScopes", "OutlineIncoreScopes", "OutlineClusterScopes"];

/// The stage `--time-passes` shows for the fused passes.
pub const NAME: &str = "ConvertToSSA..OutlineClusterScopes (fused)";

/// The room reserved after the program's variables, expressions and statements for what
/// the runs make, against ConvertToSSA's alone ([`ssa::room_percent`]), in percent: a
/// region's fresh variables, its call and the versions it carries out come on top of the
/// conversion's (gen's functions: 350 %, 84 % and 162 % of the program's nodes in all,
/// against 100 % each for the conversion's room). And what a run reserves for its own
/// nodes, in percent of its share of the program's. Room not used is address space only;
/// the nodes past it are moved after the last run.
const ROOM: (usize, usize, usize) = (270, 100, 170);
const RUN_SHARE: (usize, usize, usize) = (360, 90, 170);

/// The functions the runs leave, in percent of the program's (gen's: each entry, its graph
/// and its kernel), for the room of the map they are put in as the runs are joined: more
/// is a few bytes of table per function not made, fewer a rehash of the map as it grows.
const FUNCTIONS_PERCENT: usize = 300;

/// Whether `passes` (the rest of a pipeline up to its stop) begins with the fused passes.
pub fn starts(passes: &[&'static PassDef]) -> bool {
    passes.len() >= PASSES.len() && passes.iter().zip(PASSES).all(|(def, name)| def.name == name)
}

/// Whether fusing pays for `program`: ConvertToSSA would run it on forks.
pub fn worth(program: &Program) -> bool {
    rayon::current_num_threads() >= 2 && program.functions.len() >= ssa::PARALLEL_MIN_FUNCTIONS
}

/// Runs the five passes (`group`, the pipeline's rows for [`PASSES`]) over `program`:
/// fused when it is [`worth`] it and the runs chose as the serial passes would, else one
/// after another. Returns what each pass reported, up to the first that reported an error
/// (those after it did not run, or their findings are dropped).
pub fn run(
    names: &mut Interner,
    program: &mut Program,
    check_only: bool,
    group: &[&'static PassDef],
) -> Vec<Vec<Diagnostic>> {
    debug_assert!(starts(group));
    let group = &group[..PASSES.len()];
    if worth(program) {
        if let Some(found) = fused(names, program, check_only, group) {
            return found;
        }
    }
    serially(names, program, check_only, group)
}

/// The passes one after another on `program`, each given what the one before left.
fn serially(
    names: &mut Interner,
    program: &mut Program,
    check_only: bool,
    group: &[&'static PassDef],
) -> Vec<Vec<Diagnostic>> {
    let mut found = Vec::with_capacity(group.len());
    let mut given = Handoff::Nothing;
    for def in group {
        let mut diags = Vec::new();
        let mut cx = PassCx::new(names, &mut diags, check_only);
        cx.given = given;
        (def.run)(&mut cx, program);
        given = std::mem::take(&mut cx.left);
        let error = diag::has_errors(&diags);
        found.push(diags);
        if error {
            break;
        }
    }
    found
}

/// A 64-bit hash of a name's text.
fn hash_of(name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    name.hash(&mut h);
    h.finish()
}

/// What one run found besides its program.
struct Ran {
    /// By pass, up to the run's first that reported an error.
    diags: Vec<Vec<Diagnostic>>,
    /// The hashes of the names the outliners chose, of their text (a run's new names are
    /// symbols of its own): two runs' equal hashes are taken for one name, which at worst
    /// drops a fused result that was right.
    chosen: Vec<u64>,
    /// A region called a function the run could not see ([`PassCx::missed`]).
    missed: bool,
}

/// The fused run, or `None` (`program` as it was) when a run may have chosen otherwise
/// than the serial passes.
fn fused(
    names: &mut Interner,
    program: &mut Program,
    check_only: bool,
    group: &[&'static PassDef],
) -> Option<Vec<Vec<Diagnostic>>> {
    let threads = rayon::current_num_threads();
    let dyn_dims = program.dynamic_dims.clone();
    // The functions as they were: for the runs' look-ups and names, and for the passes
    // one after another if the fused result is dropped. The runs convert copies.
    let outside = Arc::new(std::mem::take(&mut program.functions));
    let runs = ssa::in_runs(0..outside.len(), threads);
    let copies = |run: Vec<usize>| run.into_iter().map(|at| outside[at].clone()).collect();
    let outliners: Vec<_> = group[1..].iter().map(|def| def.run).collect();
    let (joins, ran) = {
        let r = ssa::room_percent();
        let sizing = ssa::Sizing {
            functions: outside.len(),
            room: (r * ROOM.0 / 100, r * ROOM.1 / 100, r * ROOM.2 / 100),
            share: RUN_SHARE,
            mapped: Some(outside.len() * FUNCTIONS_PERCENT / 100),
        };
        ssa::forked_runs(
            (&mut *names, check_only),
            program,
            runs,
            copies,
            &dyn_dims,
            &sizing,
            |names, p, functions, converted| {
                let mut ran = Ran { diags: Vec::with_capacity(PASSES.len()), chosen: Vec::new(), missed: false };
                let error = diag::has_errors(&converted);
                ran.diags.push(converted);
                if error {
                    return ran;
                }
                p.functions = functions.drain(..).map(|f| (f.name, f)).collect();
                let mut given = Handoff::Nothing;
                for run in &outliners {
                    let mut diags = Vec::new();
                    let mut cx = PassCx::new(names, &mut diags, check_only);
                    cx.outside = Some(Arc::clone(&outside));
                    cx.given = given;
                    run(&mut cx, p);
                    given = std::mem::take(&mut cx.left);
                    ran.missed |= cx.missed;
                    let chosen = std::mem::take(&mut cx.chosen);
                    ran.chosen.extend(chosen.into_iter().map(|n| hash_of(names.get(n))));
                    let error = diag::has_errors(&diags);
                    ran.diags.push(diags);
                    if error {
                        break;
                    }
                }
                functions.extend(p.functions.drain(..).map(|(_, f)| f));
                ran
            },
        )
    };
    let differs = {
        // Sized once: grown from empty, it was rehashed a dozen times at gen(10000).
        let chosen = ran.iter().map(|r| r.chosen.len()).sum();
        let mut seen: FxHashSet<u64> = FxHashSet::with_capacity_and_hasher(chosen, Default::default());
        ran.iter().any(|r| r.missed) || ran.iter().flat_map(|r| &r.chosen).any(|&n| !seen.insert(n))
    };
    if differs {
        #[cfg(test)]
        tests::DROPPED.with(|d| d.set(d.get() + 1));
        joins.abandon(program, names);
        program.functions = Arc::try_unwrap(outside).unwrap_or_else(|o| (*o).clone());
        return None;
    }
    // The program's functions were taken out (`outside`): it holds the runs' functions, in
    // order, mapped as the runs were joined.
    program.functions = joins.finish_mapped(program, names);
    // The copies the runs converted stand for the functions as they were, freed meanwhile.
    rayon::spawn(move || drop(outside));
    // By pass, every run's findings in run order, up to the first pass that found an error
    // in any run (every run ran it: a run stops only after a pass that found one).
    let passes = ran.iter().map(|r| r.diags.len()).min().unwrap_or(PASSES.len());
    let last = (0..passes).find(|&i| ran.iter().any(|r| diag::has_errors(&r.diags[i])));
    let kept = last.map_or(passes, |i| i + 1);
    let mut found: Vec<Vec<Diagnostic>> = vec![Vec::new(); kept];
    for r in ran {
        for (all, diags) in found.iter_mut().zip(r.diags) {
            all.extend(diags);
        }
    }
    Some(found)
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::driver::{self, Input, PipelineSpec, StopAt};
    use crate::passes::PassCx;
    use std::cell::Cell;

    thread_local! {
        /// How many fused results this thread dropped ([`super::fused`]).
        pub(crate) static DROPPED: Cell<usize> = const { Cell::new(0) };
    }

    const T: &str = "pl.Tensor[[128, 128], pl.FP32]";

    /// One function of each shape in turn, `n` in all: a graph region around a core-group
    /// region (gen's), a kernel writing an `Out` parameter, a core-group region calling the
    /// first kernel (in another run for most), cluster and spmd regions, host and global
    /// regions, nested core-group regions, a plain function, two graph regions and a carried
    /// loop. `extra(i)` is added after the `i`-th function.
    fn program(n: usize, extra: impl Fn(usize) -> String) -> String {
        let mut out = String::from("import pypto.language as pl\n\nROWS = 128\n");
        for i in 0..n {
            let f = match i % 8 {
                0 => format!(
                    "@pl.function\ndef entry_{i}(w: {T}, acc: pl.InOut[{T}]) -> {T}:\n    for i in pl.range(4):\n        with pl.graph(\"band_{i}\"):\n            base = i * ROWS\n            with pl.at(level=pl.Level.CORE_GROUP):\n                band = pl.load(w, [base, 0], [128, 128])\n                cur = pl.load(acc, [0, 0], [128, 128])\n                pl.store(pl.add(cur, band), [0, 0], acc)\n    return acc\n"
                ),
                1 => format!(
                    "@pl.function(type=pl.FunctionType.InCore)\ndef kern_{i}(x: {T}, y: pl.Out[{T}]) -> {T}:\n    t = pl.load(x, [0, 0], [128, 128])\n    y = pl.store(pl.mul(t, 2.0), [0, 0], y)\n    return y\n"
                ),
                2 => format!(
                    "@pl.function\ndef caller_{i}(x: {T}, y: pl.Out[{T}]) -> {T}:\n    with pl.graph(\"calls_{i}\"):\n        y = kern_1(x, y)\n    with pl.at(level=pl.Level.CORE_GROUP):\n        t = pl.load(x, [0, 0], [128, 128])\n        pl.store(t, [0, 0], y)\n    return y\n"
                ),
                3 => format!(
                    "@pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)\ndef blocks_{i}(a: {T}, s: pl.Out[{T}], m: pl.Out[{T}]) -> tuple[{T}, {T}]:\n    with pl.scope():\n        for k in pl.spmd(4):\n            t = pl.load(a, [0, 0], [128, 128])\n            s = pl.store(pl.add(t, t), [0, 0], s)\n    with pl.cluster():\n        with pl.at(level=pl.Level.CORE_GROUP):\n            u = pl.load(a, [0, 0], [128, 128])\n            pl.store(pl.sub(u, u), [0, 0], m)\n    return s, m\n"
                ),
                4 => format!(
                    "@pl.function\ndef levels_{i}(x: {T}) -> {T}:\n    with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):\n        y: {T} = pl.add(x, x)\n    with pl.at(level=pl.Level.GLOBAL):\n        z: {T} = pl.mul(y, y)\n    return z\n"
                ),
                5 => format!(
                    "@pl.function\ndef nested_{i}(x: {T}) -> {T}:\n    with pl.at(level=pl.Level.CORE_GROUP):\n        y: {T} = pl.add(x, x)\n        with pl.at(level=pl.Level.CORE_GROUP):\n            z: {T} = pl.mul(y, y)\n    return z\n"
                ),
                6 => format!(
                    "@pl.function\ndef plain_{i}(a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    b = a + 1\n    b = b * {i}\n    return b\n"
                ),
                _ => format!(
                    "@pl.function\ndef twice_{i}(w: {T}, acc: pl.InOut[{T}]) -> {T}:\n    for i in pl.range(2):\n        with pl.graph(\"first_{i}\"):\n            with pl.at(level=pl.Level.CORE_GROUP):\n                t = pl.load(w, [i * ROWS, 0], [128, 128])\n                pl.store(t, [0, 0], acc)\n        with pl.graph(\"second_{i}\"):\n            with pl.at(level=pl.Level.CORE_GROUP):\n                u = pl.load(acc, [0, 0], [128, 128])\n                pl.store(pl.add(u, u), [0, 0], acc)\n    return acc\n"
                ),
            };
            out.push_str("\n\n");
            out.push_str(&f);
            out.push_str(&extra(i));
        }
        out
    }

    /// The program after every pass (printed), the diagnostics and the stages timed, on a
    /// pool of `threads`, and how many fused results were dropped.
    fn compiled(source: &str, threads: usize) -> (String, String, Vec<&'static str>, usize) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            DROPPED.with(|d| d.set(0));
            let c = driver::compile(Input::text("test.pl", source), &PipelineSpec::default(), StopAt::End)
                .expect("in memory");
            let stages = c.timings.iter().map(|(s, _)| s.name()).collect();
            let found: Vec<String> = c
                .found
                .iter()
                .map(|(s, d)| format!("{}: {:?}", s.name(), d.iter().map(|d| d.code).collect::<Vec<_>>()))
                .collect();
            let text = if c.has_errors() {
                String::new()
            } else {
                crate::ir::print::programs(&c.programs, &c.session.interner)
            };
            (text, format!("{:?}\n{found:?}", c.diags), stages, DROPPED.with(Cell::get))
        })
    }

    /// The fused passes on two threads against the passes one after another on one.
    fn same_as_serial(source: &str) -> (String, String, usize) {
        let (text, diags, stages, dropped) = compiled(source, 2);
        let (serial_text, serial_diags, serial_stages, _) = compiled(source, 1);
        assert!(stages.contains(&super::NAME), "fused on two threads: {stages:?}");
        assert!(!serial_stages.contains(&super::NAME), "not fused on one: {serial_stages:?}");
        assert_eq!(diags, serial_diags);
        assert!(text == serial_text, "the programs differ");
        (text, diags, dropped)
    }

    #[test]
    fn the_fused_passes_leave_what_the_passes_one_after_another_leave() {
        let (text, diags, dropped) = same_as_serial(&program(400, |_| String::new()));
        assert_eq!(dropped, 0, "no two runs chose one name");
        assert!(diags.starts_with("[]"), "{diags}");
        // Every kind of region was outlined.
        for made in [
            "def band_0(",
            "def band_0_incore_0(",
            "def blocks_3_cluster_",
            "def blocks_3_spmd_",
            "def levels_4_host_orch_0(",
            "def nested_5_incore_0_incore_0(",
            "def second_399(",
        ] {
            assert!(text.contains(made), "no `{made}`");
        }
    }

    #[test]
    fn two_runs_choosing_one_name_fall_back_to_the_passes_one_after_another() {
        // Two functions far apart each have a region called `layer`: the serial pass names
        // the second after its function (`layer` being taken), which a run alone cannot
        // know.
        let layer = |i: usize| {
            format!("\n\n@pl.function\ndef layer_user_{i}(w: {T}, acc: pl.InOut[{T}]) -> {T}:\n    with pl.graph(\"layer\"):\n        with pl.at(level=pl.Level.CORE_GROUP):\n            t = pl.load(w, [0, 0], [128, 128])\n            pl.store(t, [0, 0], acc)\n    return acc\n")
        };
        let source = program(400, |i| if i == 0 || i == 399 { layer(i) } else { String::new() });
        let (text, _, dropped) = same_as_serial(&source);
        assert_eq!(dropped, 1);
        assert!(text.contains("def layer(") && text.contains("def layer_user_399_layer("), "both named");
    }

    /// On a run, an outliner reports the names it chose, and a callee found neither in the
    /// run's program nor among the functions outside it (what makes the driver drop a
    /// fused result); a callee outside the run is found there.
    #[test]
    fn a_run_reports_its_names_and_a_callee_it_cannot_see() {
        let source = format!(
            "import pypto.language as pl\n\n@pl.function(type=pl.FunctionType.InCore)\ndef kern(x: {T}, y: pl.Out[{T}]) -> {T}:\n    t = pl.load(x, [0, 0], [128, 128])\n    y = pl.store(t, [0, 0], y)\n    return y\n\n@pl.function\ndef main(x: {T}, y: pl.Out[{T}]) -> {T}:\n    with pl.at(level=pl.Level.CORE_GROUP):\n        y = kern(x, y)\n    return y\n"
        );
        let spec = PipelineSpec::passes("InlineFunctions,ConvertToSSA,OutlineGraphScopes,OutlineIncoreScopes");
        let stop = StopAt::After("OutlineGraphScopes".to_string());
        let incore = crate::passes::by_name("OutlineIncoreScopes").expect("a pass").run;
        for outside_holds_kern in [true, false] {
            let mut c =
                driver::compile(Input::text("test.pl", source.clone()), &spec, stop.clone()).expect("in memory");
            assert!(c.diags.is_empty(), "{:?}", c.diags);
            let program = &mut c.programs[0];
            // The run holds `main` only; `kern` is outside it, or nowhere.
            let kern = program.functions.shift_remove_index(0).expect("kern").1;
            let mut outside = crate::ir::Functions::default();
            if outside_holds_kern {
                outside.insert(kern.name, kern);
            }
            let mut diags = Vec::new();
            let mut cx = PassCx::new(&mut c.session.interner, &mut diags, false);
            cx.outside = Some(std::sync::Arc::new(outside));
            incore(&mut cx, program);
            assert_eq!(cx.missed, !outside_holds_kern);
            let chosen: Vec<&str> = cx.chosen.iter().map(|&n| cx.names.get(n)).collect();
            assert_eq!(chosen, ["main_incore_0"]);
            assert!(diags.is_empty(), "{diags:?}");
        }
    }

    #[test]
    fn errors_are_those_of_the_passes_one_after_another() {
        // Outliner errors alone (a device region computing a scalar read after it: E0410),
        // then with an error of ConvertToSSA in another run (E0420), which stops the
        // pipeline before the outliners: theirs are not reported.
        let device_scalar = "\n\n@pl.function\ndef device_scalar(counts: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:\n    with pl.at(level=pl.Level.CORE_GROUP):\n        n = pl.tensor.read(counts, [0])\n        t = pl.tile.full([64], dtype=pl.FP32, value=0.0)\n        pl.store(t, [0], out)\n    m = n * 2\n    return out\n".to_string();
        let undefined = "\n\n@pl.function\ndef maybe(x: pl.Tensor[[128, 128], pl.FP32], flag: pl.Scalar[pl.BOOL]) -> pl.Tensor[[128, 128], pl.FP32]:\n    if flag:\n        y = pl.add(x, 1.0)\n    return y\n".to_string();
        let (_, diags, _) =
            same_as_serial(&program(400, |i| if i == 200 { device_scalar.clone() } else { String::new() }));
        assert!(diags.contains("E0410") && !diags.contains("E0420"), "{diags}");
        let source = program(400, |i| match i {
            200 => device_scalar.clone(),
            390 => undefined.clone(),
            _ => String::new(),
        });
        let (_, diags, _) = same_as_serial(&source);
        assert!(diags.contains("E0420") && !diags.contains("E0410"), "{diags}");
    }
}
