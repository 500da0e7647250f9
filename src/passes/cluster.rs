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
use super::PassCx;
use crate::intern::Symbol;
use crate::ir::{FuncKind, Program, ScopeKind};
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
    let mut reserved: FxHashSet<Symbol> = program.functions.keys().copied().collect();
    for (target, also) in [(&CLUSTER, None), (&SPMD, Some(FuncKind::Group))] {
        let functions: Vec<Symbol> = program.functions.keys().copied().collect();
        outline::outline_functions(cx, program, functions, target, &mut reserved, |cx, program, func| {
            let kind = program.functions[&func].decl.kind;
            let outlinable = kind == FuncKind::Opaque || kind.is_orchestration_like() || Some(kind) == also;
            outline::check_outlinable(cx, program, func, target, outlinable, "OutlineClusterScopes")
        });
    }
}
