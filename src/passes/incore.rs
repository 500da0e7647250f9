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
    func_kind: FuncKind::InCore,
    suffix: |_| "_incore_".to_string(),
    ..Target::DEVICE_TASK
};

pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let mut reserved: FxHashSet<Symbol> = program.functions.keys().copied().collect();
    let functions: Vec<Symbol> = program.functions.keys().copied().collect();
    let made = outline::outline_functions(cx, program, functions, &INCORE, &mut reserved, |cx, program, func| {
        let kind = program.functions[&func].decl.kind;
        let outlinable = kind == FuncKind::Opaque || kind.is_orchestration_like();
        outline::check_outlinable(cx, program, func, &INCORE, outlinable, "OutlineIncoreScopes")
    });
    // An Opaque function that had a region now launches tasks.
    for (_, parent) in made {
        let f = program.functions.get_mut(&parent).expect("the function exists");
        if f.decl.kind == FuncKind::Opaque {
            f.decl.kind = FuncKind::Orchestration;
            (f.decl.level, f.decl.role) = FuncKind::Orchestration.derived_level_role();
        }
    }
}
