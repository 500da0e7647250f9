//! OutlineIncoreScopes: each `with pl.at(level=pl.Level.CORE_GROUP):` region becomes an
//! InCore function, called (or, with `as tid` / `deps=`, launched with `pl.submit`) where
//! the region was.
//!
//! Regions are outlined from Opaque, Orchestration and Graph functions, including Graph
//! functions OutlineGraphScopes just made, which are outlined exactly as a hand-written
//! `@pl.jit.graph` function is, and from Group and Spmd functions written by hand (PyPTO's
//! tests print a Group function holding a core-group region: outlining it gives the Group
//! function calling an InCore one, the form a cluster region around a core-group region
//! takes in the default pipeline). A function is named by the region's `name_hint=`, else
//! `<function>_incore_<n>`. An Opaque function that had a region becomes Orchestration (it
//! now launches tasks); the others keep their type. A region in any other function type
//! (InCore, AIC, AIV) is E0412, never skipped.
//!
//! A region nested in another is outlined, as in PyPTO, from the InCore function the outer
//! one became: its name starts with that function's (`main_incore_0_incore_0`), it is
//! placed just before it, and the outer function calls it.

use super::outline::{self, Target};
use super::{Handoff, PassCx};
use crate::ir::{FuncKind, Program, ScopeKind};

const INCORE: Target = Target {
    matches: |k| matches!(k, ScopeKind::InCore),
    func_kind: FuncKind::InCore,
    suffix: |_| "_incore_".to_string(),
    ..Target::DEVICE_TASK
};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved = outline::Reserved::of(cx, program);
    // Only the functions OutlineGraphScopes, run right before, saw holding a region (the
    // others hold none: their check would find nothing), or else every function.
    let functions: Vec<usize> = match std::mem::take(&mut cx.given) {
        Handoff::Regions(holding) => holding,
        _ => (0..program.functions.len()).collect(),
    };
    let diags = cx.diags.len();
    let (made, placed) =
        outline::outline_functions(cx, program, functions.clone(), &INCORE, &mut reserved, |cx, program, at| {
            let kind = program.functions[at].decl.kind;
            let outlinable = kind == FuncKind::Opaque
                || kind.is_orchestration_like()
                || matches!(kind, FuncKind::Group | FuncKind::Spmd);
            outline::check_outlinable(cx, program, at, &INCORE, outlinable, "OutlineIncoreScopes")
        });
    // The functions looked at, by their positions now: only they may still hold a region
    // (of another kind), besides the functions made whose body holds one.
    let mut looked: Vec<usize> = functions.iter().map(|&e| outline::placed_at(&placed, e)).collect();
    // Regions nested in outlined ones, from each function made until none is (only those
    // whose body holds a region are looked at).
    let mut pending = outline::with_scopes(&made);
    while !pending.is_empty() {
        let functions = outline::positions(program, pending);
        looked.extend_from_slice(&functions);
        let (inner, placed) =
            outline::outline_functions(cx, program, functions, &INCORE, &mut reserved, |cx, program, at| {
                outline::check_outlinable(cx, program, at, &INCORE, true, "OutlineIncoreScopes")
            });
        looked.iter_mut().for_each(|e| *e = outline::placed_at(&placed, *e));
        pending = outline::with_scopes(&inner);
    }
    // For OutlineClusterScopes, run next (a pass that reported something hands nothing on).
    if cx.diags.len() == diags {
        looked.sort_unstable();
        looked.dedup();
        cx.left = Handoff::Regions(looked);
    }
    // An Opaque function that had a region now launches tasks.
    for m in made {
        let f = program.functions.get_mut(&m.parent).expect("the function exists");
        if f.decl.kind == FuncKind::Opaque {
            f.decl.kind = FuncKind::Orchestration;
            (f.decl.level, f.decl.role) = FuncKind::Orchestration.derived_level_role();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::driver::{self, Input, PipelineSpec, StopAt};

    /// PyPTO's test_outline_nested_incore_scopes: the inner region is outlined from the
    /// function the outer one became, named after it, placed before it and called by it.
    #[test]
    fn a_nested_region_is_outlined_from_the_outer_regions_function() {
        let src = "import pypto.language as pl\n\n@pl.program\nclass Before:\n    @pl.function\n    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n        with pl.at(level=pl.Level.CORE_GROUP):\n            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n            with pl.at(level=pl.Level.CORE_GROUP):\n                z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)\n        return z\n";
        let spec =
            PipelineSpec::passes("InlineFunctions,ConvertToSSA,OutlineGraphScopes,OutlineIncoreScopes").verified();
        let c = driver::compile(Input::text("n.pl", src.to_string()), &spec, StopAt::End).expect("in memory");
        let errors: Vec<&str> = c.diags.iter().map(|d| d.message.as_str()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let text = crate::ir::print::programs(&c.programs, &c.session.interner);
        let expected = "    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0_incore_0(self, y__ssa_v0: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        z__ssa_v0 = pl.mul(y__ssa_v0, y__ssa_v0)
        return z__ssa_v0

    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0(self, x__ssa_v0: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y__ssa_v0 = pl.add(x__ssa_v0, x__ssa_v0)
        z__ssa_v0 = self.main_incore_0_incore_0(y__ssa_v0)
        return z__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x__ssa_v0: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        z__ssa_v0 = self.main_incore_0(x__ssa_v0)
        return z__ssa_v0
";
        assert!(text.contains(expected), "{text}");
    }
}
