//! OutlineClusterScopes: each `with pl.cluster():` region becomes a Group function, then
//! each `with pl.spmd(n):` region (or `for i in pl.spmd(n):` loop) an Spmd function whose
//! call carries the launch count `core_num=n`.
//!
//! Cluster regions are outlined first, so an Spmd region inside a cluster is outlined from
//! the new Group function. Both come from Opaque, Orchestration and Graph functions (and
//! Spmd regions from Group functions too); the parent keeps its type. By now the device
//! work inside the regions is InCore calls (OutlineIncoreScopes ran), so the new functions
//! dispatch kernels. A region in any other function type is E0412.

use super::outline::{self, Target};
use super::PassCx;
use crate::intern::Symbol;
use crate::ir::{FuncKind, Program, ScopeKind};
use rustc_hash::FxHashSet;

const CLUSTER: Target = Target {
    matches: |k| matches!(k, ScopeKind::Cluster),
    func_kind: |_| FuncKind::Group,
    suffix: |_| "_cluster_".to_string(),
    device: true,
    export_stores: true,
    level_role: |_| None,
};

const SPMD: Target = Target {
    matches: |k| matches!(k, ScopeKind::Spmd { .. }),
    func_kind: |_| FuncKind::Spmd,
    suffix: |_| "_spmd_".to_string(),
    device: true,
    export_stores: true,
    level_role: |_| None,
};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved: FxHashSet<Symbol> = program.functions.keys().copied().collect();
    for (target, also) in [(&CLUSTER, None), (&SPMD, Some(FuncKind::Group))] {
        let functions: Vec<Symbol> = program.functions.keys().copied().collect();
        let mut made = Vec::new();
        for func in functions {
            let kind = program.functions[&func].kind;
            let outlinable =
                matches!(kind, FuncKind::Opaque | FuncKind::Orchestration | FuncKind::Graph) || Some(kind) == also;
            if !outline::check_outlinable(cx, program, func, target, outlinable, "OutlineClusterScopes") {
                continue;
            }
            made.extend(outline::outline_function(program, cx.names, cx.diags, func, target, &mut reserved));
        }
        outline::insert_before_parents(program, made);
    }
}
