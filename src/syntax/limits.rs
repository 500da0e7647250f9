//! Nesting limits. Expressions nested more than [`MAX_EXPR_DEPTH`] deep are refused (blocks
//! are limited by the layout stage), as Python refuses them, so that every later stage may
//! walk a tree recursively without running out of stack.

use super::ast::{Ast, ExprId};
use crate::diag::{Code, Diagnostic, Label};
use crate::source::FileId;

/// CPython's parser refuses 200 nested parentheses; plc allows as deep an expression.
pub const MAX_EXPR_DEPTH: usize = 200;

/// Reports the first expression that is nested too deeply. Children are allocated before
/// their parents, so one forward pass over the arena computes every depth.
pub fn check(file: FileId, ast: &Ast, diags: &mut Vec<Diagnostic>) {
    let mut depth = vec![0u32; ast.exprs.len()];
    for i in 0..ast.exprs.len() {
        let mut deepest = 0;
        ast.expr_children(ExprId(i as u32), &mut |child| deepest = deepest.max(depth[child.0 as usize]));
        depth[i] = deepest + 1;
        if depth[i] as usize == MAX_EXPR_DEPTH + 1 {
            diags.push(
                Diagnostic::error(
                    Code::E0120,
                    format!("expression nested too deeply (plc allows {MAX_EXPR_DEPTH} levels)"),
                    Label::primary(file, ast.exprs[i].span, "this expression is nested too deeply"),
                )
                .with_help("split it into several statements with intermediate names"),
            );
            return;
        }
    }
}
