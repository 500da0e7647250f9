//! OutlineIncoreScopes: each `with pl.at(level=pl.Level.CORE_GROUP):` region becomes an
//! InCore function, called (or, with `as tid` / `deps=`, launched with `pl.submit`) where
//! the region was.
//!
//! Regions are outlined from Opaque, Orchestration and Graph functions, including Graph
//! functions OutlineGraphScopes just made, which are outlined exactly as a hand-written
//! `@pl.jit.graph` function is. A function is named by the region's `name_hint=`, else
//! `<function>_incore_<n>`. An Opaque function that had a region becomes Orchestration (it
//! now launches tasks); Orchestration and Graph keep their type. A region in any other
//! function type is E0412, never skipped.

use super::outline::{self, Target};
use super::PassCx;
use crate::intern::Symbol;
use crate::ir::{FuncKind, Program, ScopeKind};
use rustc_hash::FxHashSet;

const INCORE: Target = Target {
    matches: |k| matches!(k, ScopeKind::InCore),
    func_kind: |_| FuncKind::InCore,
    suffix: |_| "_incore_".to_string(),
    device: true,
    export_stores: true,
    level_role: |_| None,
};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved: FxHashSet<Symbol> = program.functions.keys().copied().collect();
    let functions: Vec<Symbol> = program.functions.keys().copied().collect();
    let mut made = Vec::new();
    for func in functions {
        let kind = program.functions[&func].kind;
        let outlinable = matches!(kind, FuncKind::Opaque | FuncKind::Orchestration | FuncKind::Graph);
        if !outline::check_outlinable(cx, program, func, &INCORE, outlinable, "OutlineIncoreScopes") {
            continue;
        }
        let new = outline::outline_function(program, cx.names, cx.diags, func, &INCORE, &mut reserved);
        if !new.is_empty() && kind == FuncKind::Opaque {
            let f = program.functions.get_mut(&func).expect("the function exists");
            f.kind = FuncKind::Orchestration;
            (f.level, f.role) = FuncKind::Orchestration.derived_level_role();
        }
        made.extend(new);
    }
    outline::insert_before_parents(program, made);
}
