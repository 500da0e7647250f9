//! OutlineClusterScopes: each `with pl.cluster():` region becomes a Group function, then
//! each `with pl.spmd(n):` region (or `for i in pl.spmd(n):` loop) an Spmd function whose
//! call carries the launch count `core_num=n`.
//!
//! Cluster regions are outlined first, so an Spmd region inside a cluster is outlined from
//! the new Group function. Both come from Opaque, Orchestration and Graph functions (and
//! Spmd regions from Group functions too); the parent keeps its type. A region in any other
//! function type is E0412. The pass needs SSA form only, as PyPTO's does: in the default
//! pipeline OutlineIncoreScopes ran first, so the device work inside the regions is InCore
//! calls and the new functions dispatch kernels; run alone (PyPTO's tests do), a core-group
//! region inside a cluster moves into the Group function as it is.

use super::outline::{self, Target};
use super::{Handoff, PassCx};
use crate::intern::Symbol;
use crate::ir::visit;
use crate::ir::{FuncKind, Program, ScopeKind, StmtKind};
use rustc_hash::FxHashSet;

const CLUSTER: Target = Target {
    matches: |k| matches!(k, ScopeKind::Cluster),
    func_kind: FuncKind::Group,
    suffix: |_| "_cluster_".to_string(),
    ..Target::DEVICE_TASK
};

const SPMD: Target = Target {
    matches: |k| matches!(k, ScopeKind::Spmd { .. }),
    func_kind: FuncKind::Spmd,
    suffix: |_| "_spmd_".to_string(),
    ..Target::DEVICE_TASK
};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved = outline::Reserved::of(cx, program);
    // Only the functions OutlineIncoreScopes, run right before, left that may hold a region
    // (the others hold none), or else every function.
    let functions: Vec<usize> = match std::mem::take(&mut cx.given) {
        Handoff::Regions(holding) => holding,
        _ => (0..program.functions.len()).collect(),
    };
    // One walk of each function for both kinds of region, not one per kind: only the
    // functions holding a region of a kind are looked at for it (most hold neither). The
    // Spmd regions are then in those that held one (outlining a cluster region does not
    // add any) and in the Group functions made from cluster regions.
    let mut clusters: Vec<usize> = Vec::new();
    let mut spmds: FxHashSet<Symbol> = FxHashSet::default();
    for at in functions {
        let f = &program.functions[at];
        let (mut cluster, mut spmd) = (false, false);
        visit::any_stmt(program, &f.body, |s| {
            if let StmtKind::Scope(scope) = &program.stmt(s).kind {
                cluster |= (CLUSTER.matches)(&scope.kind);
                spmd |= (SPMD.matches)(&scope.kind);
            }
            cluster && spmd
        });
        if cluster {
            clusters.push(at);
        }
        if spmd {
            spmds.insert(f.name);
        }
    }
    let made = outline_from(cx, program, clusters, &CLUSTER, None, &mut reserved);
    spmds.extend(outline::with_scopes(&made));
    if !spmds.is_empty() {
        let functions: Vec<usize> =
            (program.functions.keys().enumerate()).filter_map(|(at, f)| spmds.contains(f).then_some(at)).collect();
        outline_from(cx, program, functions, &SPMD, Some(FuncKind::Group), &mut reserved);
    }
}

/// Outlines `target`'s regions from `functions`: from Opaque and orchestration-like ones,
/// and from those of type `also`; in any other, a region is E0412.
fn outline_from(
    cx: &mut PassCx<'_>,
    program: &mut Program,
    functions: Vec<usize>,
    target: &Target,
    also: Option<FuncKind>,
    reserved: &mut outline::Reserved,
) -> Vec<outline::Made> {
    let (made, _) = outline::outline_functions(cx, program, functions, target, reserved, |cx, program, at| {
        let kind = program.functions[at].decl.kind;
        let outlinable = kind == FuncKind::Opaque || kind.is_orchestration_like() || Some(kind) == also;
        outline::check_outlinable(cx, program, at, target, outlinable, "OutlineClusterScopes")
    });
    made
}
