//! OutlineHierarchyScopes: each `with pl.at(level=L[, role=R]):` region whose level is not
//! CORE_GROUP (those are OutlineIncoreScopes' InCore regions) becomes an Opaque function
//! carrying the region's level and role, called where the region was.
//!
//! As in PyPTO, only Opaque functions are outlined from, and the parent keeps its type. The
//! new function is named by the region's `name_hint=`, else
//! `<function>_<level>[_orch|_sub_worker]_<n>` (`main_host_orch_0`, `main_global_0`). Unlike
//! the other outlining passes, a tensor the region stores into is not returned as a new
//! version: it stays a parameter the new function writes (`Out` or `InOut`), and a scalar
//! the region computes may be returned (the new function runs on the host side, not as a
//! device task). A region nested in another is outlined from the function the outer one
//! became, so its name starts with that function's (`main_global_orch_0_host_orch_0`); the
//! CORE_GROUP regions inside stay for OutlineIncoreScopes.

use super::outline::{self, Target};
use super::PassCx;
use crate::intern::Symbol;
use crate::ir::{FuncKind, Level, Program, Role, ScopeKind};

const HIERARCHY: Target = Target {
    matches: |k| matches!(k, ScopeKind::Hierarchy { level, .. } if *level != Level::CoreGroup),
    func_kind: FuncKind::Opaque,
    suffix,
    device: false,
    export_stores: false,
    level_role: |k| match k {
        ScopeKind::Hierarchy { level, role } => Some((Some(*level), *role)),
        _ => None,
    },
};

/// `_<level>[_orch|_sub_worker|_worker]_`: the level's canonical name in lower case without
/// the underscore before a cluster's number (`cluster0`), then the role (`_worker` for the
/// older releases' `pl.Role.Worker`, as they named it).
fn suffix(kind: &ScopeKind) -> String {
    let ScopeKind::Hierarchy { level, role } = kind else { return "_hierarchy_".to_string() };
    let level = match level {
        Level::Cluster0 => "cluster0".to_string(),
        Level::Cluster1 => "cluster1".to_string(),
        Level::Cluster2 => "cluster2".to_string(),
        other => other.name().to_ascii_lowercase(),
    };
    let role = match role {
        Some(Role::Orchestrator) => "_orch",
        Some(Role::SubWorker) => "_sub_worker",
        Some(Role::Worker) => "_worker",
        None => "",
    };
    format!("_{level}{role}_")
}

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved = outline::Reserved::of(cx, program);
    // The functions to outline from: the program's Opaque functions, then (for regions
    // nested in outlined ones) each function made, until none is.
    let mut pending: Vec<Symbol> =
        program.functions.values().filter(|f| f.decl.kind == FuncKind::Opaque).map(|f| f.name).collect();
    while !pending.is_empty() {
        let functions = outline::positions(program, pending);
        let (made, _) =
            outline::outline_functions(cx, program, functions, &HIERARCHY, &mut reserved, |cx, program, at| {
                outline::check_outlinable(cx, program, at, &HIERARCHY, true, "OutlineHierarchyScopes")
            });
        pending = outline::with_scopes(&made);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Input, PipelineSpec, StopAt};

    const PASSES: &str = "ConvertToSSA,OutlineHierarchyScopes";

    /// The program after the passes, for a function `main(self, x)` with this body; the
    /// program must compile without errors.
    fn outlined(body: &str) -> String {
        let src = format!(
            "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function\n    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n{body}"
        );
        let spec = PipelineSpec::passes(PASSES).verified();
        let c = driver::compile(Input::text("h.pl", src), &spec, StopAt::End).expect("in memory");
        let errors: Vec<&str> = c.diags.iter().map(|d| d.message.as_str()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        crate::ir::print::programs(&c.programs, &c.session.interner)
    }

    /// Asserts that `text` defines the functions `names`, in that order.
    fn defined_in_order(text: &str, names: &[&str]) {
        let at: Vec<usize> = names
            .iter()
            .map(|n| text.find(&format!("def {n}(")).unwrap_or_else(|| panic!("no `{n}`:\n{text}")))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "not in the order {names:?}:\n{text}");
        assert!(!text.contains("pl.at(level=pl.Level.HOST") && !text.contains("pl.at(level=pl.Level.GLOBAL"), "{text}");
    }

    #[test]
    fn a_host_region_becomes_an_opaque_function_with_its_level_and_role() {
        let text = outlined(
            "        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):\n            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n        with pl.at(level=pl.Level.GLOBAL):\n            z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)\n        return z\n",
        );
        defined_in_order(&text, &["main_host_orch_0", "main_global_1", "main"]);
        assert!(
            text.contains("@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def main_host_orch_0(")
        );
        assert!(text.contains("@pl.function(level=pl.Level.GLOBAL)\n    def main_global_1("), "{text}");
        assert!(text.contains("= self.main_host_orch_0(x__ssa_v0)"), "{text}");
        // The parent keeps its type.
        assert!(text.contains("    @pl.function\n    def main("), "{text}");
    }

    #[test]
    fn nested_regions_are_named_after_the_function_the_outer_one_became() {
        let text = outlined(
            "        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):\n            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):\n                z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)\n        return z\n",
        );
        defined_in_order(&text, &["main_global_orch_0_host_orch_0", "main_global_orch_0", "main"]);
    }

    #[test]
    fn core_group_regions_and_orchestration_functions_are_left_alone() {
        let text = outlined(
            "        with pl.at(level=pl.Level.CORE_GROUP):\n            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n        return y\n",
        );
        assert!(text.contains("with pl.at(level=pl.Level.CORE_GROUP)"), "{text}");
        assert_eq!(text.matches("def ").count(), 1, "{text}");
    }

    #[test]
    fn suffixes_follow_pypto() {
        let k = |level, role| suffix(&ScopeKind::Hierarchy { level, role });
        assert_eq!(k(Level::Host, Some(Role::SubWorker)), "_host_sub_worker_");
        assert_eq!(k(Level::Cluster1, None), "_cluster1_");
        assert_eq!(k(Level::ChipDie, Some(Role::Orchestrator)), "_chip_die_orch_");
        assert_eq!(k(Level::Cluster0, Some(Role::Worker)), "_cluster0_worker_");
    }
}
