//! OutlineGraphScopes: each `with pl.graph("name"):` region becomes a Graph function named
//! after it, called where the region was, so that a region marked in place and a function
//! decorated `@pl.jit.graph` are the same program afterwards.
//!
//! One scan per function finds its regions and, in the same walk, a region nested in
//! another (E0401, naming both regions and the function). A function without a region is
//! left untouched. A region in a function type this pass does not outline (anything but
//! Opaque, Orchestration and Graph) is E0402, never skipped. The parent keeps its type
//! (an Opaque parent stays Opaque); the Graph function gets CHIP + Orchestrator. Names come
//! from the regions; duplicates are made distinct from one program-wide set of taken names,
//! never merged.

use super::outline::{self, Target};
use super::{Handoff, PassCx};
use crate::diag::{Code, Diagnostic, Label};
use crate::ir::visit;
use crate::ir::{FuncKind, Program, ScopeKind, StmtId, StmtKind};

const GRAPH: Target = Target {
    matches: |k| matches!(k, ScopeKind::Graph),
    func_kind: FuncKind::Graph,
    suffix: |_| "_graph_".to_string(),
    device: false,
    ..Target::DEVICE_TASK
};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved = outline::Reserved::of(cx, program);
    let functions: Vec<usize> = (0..program.functions.len()).collect();
    let diags = cx.diags.len();
    // By position: whether the function may hold a region once the pass is done.
    let mut keeps = vec![false; functions.len()];
    let (made, placed) =
        outline::outline_functions(cx, program, functions, &GRAPH, &mut reserved, |cx, program, at| {
            let (outline, keeps_one) = check(cx, program, at);
            keeps[at] = keeps_one;
            outline
        });
    // The scans saw every region: OutlineIncoreScopes, run next, need look only at the
    // functions that hold one (a pass that reported something hands nothing on).
    if cx.diags.len() == diags {
        cx.left = Handoff::Regions(holding(&keeps, &made, &placed));
    }
}

/// The positions, in program order, of the functions that may hold a region after the
/// pass: those that kept one (`keeps`, by their position before the pass) and those made
/// whose body holds one; `placed` is where each function ended up
/// ([`outline::outline_functions`]).
fn holding(keeps: &[bool], made: &[outline::Made], placed: &[u32]) -> Vec<usize> {
    let at = |e: usize| outline::placed_at(placed, e);
    let kept = keeps.iter().enumerate().filter(|&(_, &k)| k).map(|(e, _)| at(e));
    let new = made.iter().enumerate().filter(|(_, m)| m.has_scopes).map(|(j, _)| at(keeps.len() + j));
    let mut out: Vec<usize> = kept.chain(new).collect();
    out.sort_unstable();
    out
}

/// Whether the function at `at` has graph regions to outline: not when it has none, nor
/// when one is nested in another (E0401) or its type is not one this pass outlines (E0402).
/// Then whether it may still hold a region once the pass is done: one of another kind
/// outside its graph regions, or inside one that stays.
fn check(cx: &mut PassCx<'_>, program: &Program, at: usize) -> (bool, bool) {
    let f = &program.functions[at];
    let func = f.name;
    let scan = scan(program, f);
    let (outside, inside) = scan.others;
    if scan.regions == 0 {
        return (false, outside + inside > 0);
    }
    let fname = cx.names.get(func).to_string();
    let region_name = |s: StmtId| match &program.stmt(s).kind {
        StmtKind::Scope(scope) => scope.name.map_or(String::new(), |n| cx.names.get(n).to_string()),
        _ => String::new(),
    };
    let mut failed = false;
    for &(inner, outer) in &scan.nested {
        let (i, o) = (program.stmt(inner).loc, program.stmt(outer).loc);
        let (iname, oname) = (region_name(inner), region_name(outer));
        cx.diags.push(
            Diagnostic::error(
                Code::E0401,
                format!("pl.graph(\"{iname}\") is nested inside pl.graph(\"{oname}\") in function `{fname}`"),
                Label::primary(i.file, i.span, "the inner region"),
            )
            .with_label(Label::secondary(o.file, o.span, "the outer region"))
            .with_help(
                "a graph cannot be recorded inside another graph: keep the regions disjoint, marking either the outer region or the inner one, not both"
                    .to_string(),
            ),
        );
        failed = true;
    }
    let outlinable = f.decl.kind == FuncKind::Opaque || f.decl.kind.is_orchestration_like();
    if !outlinable {
        let first = scan.first.expect("a region was found");
        let loc = program.stmt(first).loc;
        cx.diags.push(
            Diagnostic::error(
                Code::E0402,
                format!(
                    "pl.graph(\"{}\") survives in function `{fname}` (type {}), which OutlineGraphScopes does not outline",
                    region_name(first),
                    f.decl.kind
                ),
                Label::primary(loc.file, loc.span, "not outlined"),
            )
            .with_help(
                "run InlineFunctions before OutlineGraphScopes, so that an Inline body carrying a graph region is spliced into its orchestration caller first"
                    .to_string(),
            ),
        );
        failed = true;
    }
    (!failed, if failed { outside + inside > 0 } else { outside > 0 })
}

struct Scan {
    regions: usize,
    first: Option<StmtId>,
    /// (inner, outer) for each region found inside another.
    nested: Vec<(StmtId, StmtId)>,
    /// The regions of other kinds outside any graph region, and inside one.
    others: (usize, usize),
}

/// One walk over a function: its graph regions, and each one nested in another.
fn scan(program: &Program, f: &crate::ir::Function) -> Scan {
    let mut out = Scan { regions: 0, first: None, nested: Vec::new(), others: (0, 0) };
    // The context of a statement: the innermost graph region around it.
    visit::walk_stmts_in(program, &f.body, None, |s, around| match &program.stmt(s).kind {
        StmtKind::Scope(scope) if matches!(scope.kind, ScopeKind::Graph) => {
            out.regions += 1;
            out.first.get_or_insert(s);
            if let Some(outer) = around {
                out.nested.push((s, outer));
            }
            Some(s)
        }
        StmtKind::Scope(_) => {
            match around {
                None => out.others.0 += 1,
                Some(_) => out.others.1 += 1,
            }
            around
        }
        _ => around,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostic;
    use crate::driver::{self, Input, PipelineSpec, StopAt};
    use crate::passes::{props, Property};
    use crate::session::Session;

    /// Lowers `src` and runs `pipeline` over it.
    fn compile(src: &str, pipeline: &str) -> (Session, Program, Vec<Diagnostic>) {
        let spec = PipelineSpec::passes(pipeline).verified();
        let mut c = driver::compile(Input::text("test.pl", src), &spec, StopAt::Lower).expect("in memory");
        assert!(c.root.is_some(), "a well-ordered pipeline: {:?}", c.diags);
        assert!(!c.has_errors(), "{:?}", c.diags);
        c.finish();
        (c.session, c.programs.remove(0), c.diags)
    }

    /// `src` after the whole front of the pipeline, which must report nothing.
    fn outlined(src: &str) -> (Session, Program) {
        let (s, p, diags) = compile(src, FULL);
        assert!(diags.is_empty(), "{diags:?}");
        (s, p)
    }

    fn function<'p>(s: &Session, p: &'p Program, name: &str) -> &'p crate::ir::Function {
        p.functions.values().find(|f| s.interner.get(f.name) == name).unwrap_or_else(|| panic!("no `{name}`"))
    }

    const FULL: &str = "InlineFunctions,ConvertToSSA,OutlineGraphScopes";

    const KERNEL: &str = r#"
import pypto.language as pl

@pl.jit.incore
def kern(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [64, 64])
    pl.store(t, [0, 0], y)
    return y
"#;

    /// OutlineIncoreScopes, given the functions OutlineGraphScopes saw holding a region,
    /// and OutlineClusterScopes, given those OutlineIncoreScopes left, look at those only and
    /// make what they make given nothing (looking at every function): handed on are a graph
    /// function holding a core-group region, a function keeping one outside its graph
    /// region, one without a graph region, one with a cluster region; not a function left
    /// with none.
    #[test]
    fn the_outliners_look_only_at_the_functions_handed_on_and_make_the_same() {
        let region = "with pl.at(level=pl.Level.CORE_GROUP):\n        t = pl.load(w, [0, 0], [64, 64])\n        pl.store(t, [0, 0], acc)\n";
        let graph = "for i in pl.range(4):\n        with pl.graph(\"band\"):\n            base = i * 64\n            with pl.at(level=pl.Level.CORE_GROUP):\n                t = pl.load(w, [base, 0], [64, 64])\n                pl.store(t, [0, 0], acc)\n";
        let def = |name: &str, body: &str| {
            format!("\n@pl.jit\ndef {name}(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):\n    {body}    return acc\n")
        };
        let src = [
            "import pypto.language as pl\n".to_string(),
            def("graphed", graph),
            def("both", &format!("{region}    {graph}")),
            def("plain", "acc = pl.add(acc, acc)\n"),
            def("only", region),
            def("graphed_again", graph),
            def("clustered", &format!("with pl.cluster():\n        {}", region.replace("\n    ", "\n        "))),
        ]
        .concat();
        let spec = PipelineSpec::passes("InlineFunctions,ConvertToSSA,OutlineGraphScopes,OutlineIncoreScopes");
        let stop = StopAt::After("ConvertToSSA".to_string());
        let mut c = driver::compile(Input::text("test.pl", src), &spec, stop).expect("in memory");
        assert!(c.diags.is_empty(), "{:?}", c.diags);
        let pass = |name| crate::passes::by_name(name).expect("a pass");
        let (mut handoffs, mut diags) = (Vec::new(), Vec::new());
        let names = &mut c.session.interner;
        let verified = crate::passes::Mode { verify: true, ..Default::default() };
        crate::passes::run_pass(
            pass("OutlineGraphScopes"),
            verified,
            &mut c.programs,
            &mut handoffs,
            names,
            &mut diags,
        );
        assert!(diags.is_empty(), "{diags:?}");
        let Some(Handoff::Regions(holding)) = handoffs.first() else { panic!("nothing handed on") };
        let handed: Vec<&str> = holding.iter().map(|&at| names.get(c.programs[0].functions[at].name)).collect();
        assert_eq!(handed, ["band", "both_band", "both", "only", "graphed_again_band", "clustered"]);
        // The same passes given nothing, on a copy; OutlineClusterScopes after each (given
        // what OutlineIncoreScopes left, and nothing).
        let (mut programs, mut other_names) = (c.programs.clone(), names.clone());
        for pass in [pass("OutlineIncoreScopes"), pass("OutlineClusterScopes")] {
            crate::passes::run_pass(pass, verified, &mut c.programs, &mut handoffs, names, &mut diags);
            crate::passes::run_pass(pass, verified, &mut programs, &mut Vec::new(), &mut other_names, &mut diags);
        }
        assert!(diags.is_empty(), "{diags:?}");
        let text = crate::ir::print::programs(&c.programs, names);
        assert_eq!(text, crate::ir::print::programs(&programs, &other_names));
        for outlined in [
            "band_incore_0",
            "both_band_incore_0",
            "both_incore_0",
            "only_incore_0",
            "graphed_again_band_incore_0",
            "clustered_cluster_0",
        ] {
            assert!(text.contains(&format!("def {outlined}(")), "{text}");
        }
    }

    #[test]
    fn a_function_without_a_region_is_left_untouched() {
        let src = format!(
            "{KERNEL}\n@pl.jit\ndef main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n    y = kern(x, y)\n    return y\n"
        );
        let spec = PipelineSpec::passes(FULL);
        let stop = StopAt::After("ConvertToSSA".to_string());
        let mut c = driver::compile(Input::text("test.pl", src), &spec, stop).expect("in memory");
        assert!(c.diags.is_empty(), "{:?}", c.diags);
        let bodies =
            |p: &Program| -> Vec<_> { p.functions.values().map(|f| (f.name, f.decl.kind, f.body.clone())).collect() };
        let arena = |p: &Program| (p.stmts.len(), p.exprs.len(), p.vars.len());
        let before = (bodies(&c.programs[0]), arena(&c.programs[0]));
        assert_eq!(c.step().map(|pass| pass.name), Some("OutlineGraphScopes"));
        assert!(c.diags.is_empty(), "{:?}", c.diags);
        assert_eq!(before, (bodies(&c.programs[0]), arena(&c.programs[0])), "nothing changed, nothing new was built");
    }

    #[test]
    fn an_opaque_parent_stays_opaque_and_the_graph_function_is_chip_orchestrator() {
        let src = format!(
            "{KERNEL}\n@pl.jit.opaque\ndef helper(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n    with pl.graph(\"band\"):\n        y = kern(x, y)\n    return y\n"
        );
        let (s, p) = outlined(&src);
        assert_eq!(function(&s, &p, "helper").decl.kind, FuncKind::Opaque);
        let g = function(&s, &p, "band");
        assert_eq!(g.decl.kind, FuncKind::Graph);
        assert_eq!((g.decl.level, g.decl.role), (Some(crate::ir::Level::Chip), Some(crate::ir::Role::Orchestrator)));
        // The outlined function sits just before the function it came from.
        let order: Vec<&str> = p.functions.values().map(|f| s.interner.get(f.name)).collect();
        assert_eq!(order, ["kern", "band", "helper"]);
        assert!(props::check(Property::GraphOutlined, "OutlineGraphScopes", &p, &s.interner).is_empty());
    }

    #[test]
    fn duplicate_names_get_distinct_functions_never_merged() {
        let src = format!(
            "{KERNEL}\n@pl.jit\ndef main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n    with pl.graph(\"layer\"):\n        y = kern(x, y)\n    with pl.graph(\"layer\"):\n        y = kern(y, y)\n    with pl.graph(\"kern\"):\n        y = kern(x, y)\n    return y\n"
        );
        let (s, p) = outlined(&src);
        let graphs: Vec<&str> =
            p.functions.values().filter(|f| f.decl.kind == FuncKind::Graph).map(|f| s.interner.get(f.name)).collect();
        // A region named like another function is qualified with its function's name.
        assert_eq!(graphs, ["layer", "layer_0", "main_kern"]);
    }

    #[test]
    fn a_region_left_in_a_function_the_pass_does_not_outline_is_e0402() {
        // Without InlineFunctions the inline body keeps its region. The pass is run directly:
        // the driver refuses a pipeline that lacks a pass's requirements.
        let src = format!(
            "{KERNEL}\n@pl.jit.inline\ndef wrap(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n    with pl.graph(\"inside\"):\n        y = kern(x, y)\n    return y\n"
        );
        let (mut s, mut p, _) = compile(&src, "ConvertToSSA");
        let mut diags = Vec::new();
        run(&mut PassCx::new(&mut s.interner, &mut diags, false), &mut p);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, Code::E0402);
        assert!(diags[0].message.contains("survives in function `wrap`"), "{}", diags[0].message);
    }
}
