//! Nesting limits. Expressions nested more than [`MAX_EXPR_DEPTH`] deep are refused (blocks
//! are limited by the layout stage), as Python refuses them, so that every later stage may
//! walk a tree recursively without running out of stack.
//!
//! A flat chain of binary operators, `a + b - c + ...` (or of `and`/`or`), is not nesting:
//! its AST is a left spine of operator nodes, which every walk that recurses (lowering,
//! constant folding) follows with a loop ([`Ast::chain_spine`]). Such a chain counts as
//! one level however long it is, as CPython's parser sees it, so that the sums of a few
//! thousand terms that CPython compiles are accepted too. The whole tree's height (every
//! node counted, chains included) is bounded separately by [`MAX_TREE_HEIGHT`], for the
//! IR, whose expressions are trees of the same height.
//!
//! A refused expression is reported once and replaced by an `Error` node in the tree, so
//! that no later stage ever sees it: a module constant, an annotation and a function body
//! are all safe to walk after this check.

use super::ast::{Ast, ExprId, ExprKind};
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::source::FileId;

/// CPython refuses more than 200 nested brackets; plc allows as deep an expression.
pub const MAX_EXPR_DEPTH: usize = 200;

/// The most nodes on one path from an expression down to a leaf, chains of operators
/// included: a flat sum of up to about this many terms is accepted.
pub const MAX_TREE_HEIGHT: usize = 10_000;

/// Reports the first expression that is nested too deeply or that is too long, and cuts
/// every such expression out of the tree (its node becomes `ExprKind::Error`). Children
/// are allocated before their parents, so one forward pass over the arena computes every
/// depth. An expression holding an E0120 that an earlier stage reported (too many nested
/// brackets in the layout stage) is cut without a second report.
pub fn check(file: FileId, ast: &mut Ast, diags: &mut Vec<Diagnostic>) {
    let reported_before: Vec<Span> =
        diags.iter().filter(|d| d.code == Code::E0120 && d.primary.file == file).map(|d| d.primary.span).collect();
    let mut reported = false;
    // Per node: its nesting depth (chains counted once) and its height (every node
    // counted), at most `MAX_EXPR_DEPTH + 1` and `MAX_TREE_HEIGHT + 1` (a node past either
    // is cut, and counts 1): two halves of one `u32` (an array made zero by the allocator).
    let mut levels = vec![0u32; ast.exprs.len()];
    for i in 0..ast.exprs.len() {
        let id = ExprId(i as u32);
        let chained = ast.chain_continuation(id);
        let (mut deepest, mut highest) = (0, 0);
        ast.expr_children(id, &mut |child| {
            let c = Level(levels[child.0 as usize]);
            // The operand that continues a chain (`a + b` in `a + b + c`) is at the chain's
            // own level; every other child is one level down.
            let d = if Some(child) == chained { c.depth() } else { c.depth() + 1 };
            deepest = deepest.max(d);
            highest = highest.max(c.height());
        });
        let level = Level::new(deepest.max(1), highest + 1);
        levels[i] = level.0;
        let too_deep = level.depth() as usize > MAX_EXPR_DEPTH;
        let too_long = level.height() as usize > MAX_TREE_HEIGHT;
        if !too_deep && !too_long {
            continue;
        }
        let span = ast.exprs[i].span;
        if !reported && !reported_before.iter().any(|r| span.contains(*r)) {
            reported = true;
            let diag = if too_deep {
                Diagnostic::error(
                    Code::E0120,
                    format!("expression nested too deeply (plc allows {MAX_EXPR_DEPTH} levels)"),
                    Label::primary(file, span, "this expression is nested too deeply"),
                )
            } else {
                Diagnostic::error(
                    Code::E0120,
                    format!("expression too long (plc allows chains of up to {MAX_TREE_HEIGHT} operations)"),
                    Label::primary(file, span, "this expression is too long"),
                )
            };
            diags.push(diag.with_help("split it into several statements with intermediate names"));
        }
        ast.exprs[i].kind = ExprKind::Error;
        levels[i] = Level::new(1, 1).0;
    }
}

/// Whether some of `made` expressions, made one after another, may be past a limit: the
/// builder counts the nodes made between two statements, which hold every node of the
/// trees they finish (an expression holds no statement), and [`check`] runs only when a
/// count may be. A tree's height is at most its number of nodes, its depth at most its
/// height, and `MAX_EXPR_DEPTH` is the lower limit.
pub fn may_exceed(made: usize) -> bool {
    made > MAX_EXPR_DEPTH
}

/// A node's nesting depth (the low half) and height (the high half) in `check`'s array.
#[derive(Clone, Copy)]
struct Level(u32);

impl Level {
    fn new(depth: u32, height: u32) -> Level {
        Level(height << 16 | depth)
    }

    fn depth(self) -> u32 {
        self.0 & 0xFFFF
    }

    fn height(self) -> u32 {
        self.0 >> 16
    }
}

const _: () = assert!(MAX_EXPR_DEPTH < u16::MAX as usize);
const _: () = assert!(MAX_TREE_HEIGHT < u16::MAX as usize);
