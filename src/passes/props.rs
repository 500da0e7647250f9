//! Checks of the properties passes produce, run after each pass with `--verify` (and by
//! the tests after every pass). A failure is a bug in plc (E0706), reported at the node
//! that breaks the property.

use super::Property;
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::Interner;
use crate::ir::visit;
use crate::ir::{ExprKind, FuncKind, Loc, Program, ScopeKind, StmtKind};

/// The findings that show `property` does not hold of `program` after pass `pass`.
pub fn check(property: Property, pass: &str, program: &Program, names: &Interner) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut report = |loc: Loc, what: String| {
        out.push(Diagnostic::error(
            Code::E0706,
            format!("after {pass}, {} does not hold: {what}", property.name()),
            Label::primary(loc.file, loc.span, "here"),
        ));
    };
    match property {
        Property::InlineFunctionsEliminated => {
            for f in program.functions.values() {
                if f.decl.kind == FuncKind::Inline {
                    report(f.loc, format!("the Inline function `{}` is still there", names.get(f.name)));
                }
            }
        }
        Property::SsaForm => {
            for d in crate::ir::verify::verify(program, names, true) {
                if d.code == Code::E0705 {
                    out.push(d);
                }
            }
        }
        Property::HierarchyOutlined => {
            for f in program.functions.values().filter(|f| f.decl.kind == FuncKind::Opaque) {
                visit::walk_stmts(program, &f.body, |s| {
                    if let StmtKind::Scope(scope) = &program.stmt(s).kind {
                        if matches!(scope.kind, ScopeKind::Hierarchy { level, .. } if level != crate::ir::Level::CoreGroup)
                        {
                            report(
                                program.stmt(s).loc,
                                format!("a `{}` region is left in `{}`", scope.kind.construct(), names.get(f.name)),
                            );
                        }
                    }
                });
            }
        }
        Property::GraphOutlined | Property::IncoreOutlined | Property::ClusterOutlined => {
            let left = |kind: &ScopeKind| match property {
                Property::GraphOutlined => matches!(kind, ScopeKind::Graph),
                Property::IncoreOutlined => matches!(kind, ScopeKind::InCore),
                _ => matches!(kind, ScopeKind::Cluster | ScopeKind::Spmd { .. }),
            };
            for f in program.functions.values() {
                let kept = super::outline::kernel_spmd_regions(program, f);
                visit::walk_stmts(program, &f.body, |s| {
                    if let StmtKind::Scope(scope) = &program.stmt(s).kind {
                        if left(&scope.kind) && !kept.contains(&s) {
                            report(
                                program.stmt(s).loc,
                                format!("a `{}` region is left in `{}`", scope.kind.construct(), names.get(f.name)),
                            );
                        }
                    }
                });
            }
        }
        Property::CallDirectionsResolved => {
            for f in program.functions.values() {
                visit::walk_block_exprs(program, &f.body, |_, e| {
                    let ExprKind::Call { callee, args, attrs } = &program.expr(e).kind else { return };
                    let Some(g) = callee.function() else { return };
                    if args.is_empty() || !program.functions.contains_key(&g) {
                        return;
                    }
                    let ok = attrs.arg_directions.as_ref().is_some_and(|dirs| dirs.len() == args.len());
                    if !ok {
                        report(
                            program.expr(e).loc,
                            format!(
                                "the call of `{}` in `{}` has no direction for each argument",
                                names.get(g),
                                names.get(f.name)
                            ),
                        );
                    }
                });
            }
        }
        // Checked by the pass's own checks (E05xx), which run on every program it changes.
        Property::GraphBoundaryLegalized => {}
    }
    out
}
