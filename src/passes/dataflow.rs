//! Variable uses and definitions over IR blocks, for the outlining passes: which variables
//! a region reads before it defines them (its parameters, in first-read order), which it
//! defines, which it writes through a store, and which the statements after it mention.
//!
//! The walks go through `ir::visit`; each is linear in the size of what it walks and
//! recurses on the block structure no deeper than the IR's own nesting.

use crate::ir::ops::Effect;
use crate::ir::visit;
use crate::ir::{Callee, ExprId, ExprKind, IfStmt, Program, StmtId, StmtKind, VarId};
use rustc_hash::FxHashSet;

/// Calls `f` on every variable mentioned anywhere in a block: read or defined.
pub fn mentioned(p: &Program, block: &[StmtId], f: &mut impl FnMut(VarId)) {
    visit::walk_stmts(p, block, |s| {
        visit::stmt_reads(p, s, &mut *f);
        visit::stmt_defs(p, s, &mut *f);
    });
}

/// Every variable a block defines, in pre-order (a statement's own definitions before
/// those of the statements nested in it, loop and branch results after their bodies).
pub fn defs_in_order(p: &Program, block: &[StmtId]) -> Vec<VarId> {
    let mut out = Vec::with_capacity(16);
    visit::walk_stmts(p, block, |s| visit::stmt_defs(p, s, |v| out.push(v)));
    out
}

/// The variables a block reads before defining them, in first-read order: the inputs of
/// the block as a region. Flow-sensitive: a variable defined in both arms of an `if` is
/// defined after it; one defined in a loop body is not defined after the loop (only the
/// loop's return variables are); a scope's body is part of the block around it.
pub fn live_in(p: &Program, block: &[StmtId]) -> Vec<VarId> {
    live_in_seeing(p, block, &mut ())
}

/// What a walk of a block's expressions sees besides its reads, for [`live_in_seeing`].
pub trait Seen {
    /// A node of an expression the block holds, in `visit::walk_block_exprs` order.
    fn node(&mut self, e: ExprId);
    /// A loop's iter arg and its initial value, in program order (before the loop's body).
    fn carry(&mut self, var: VarId, init: ExprId);
}

impl Seen for () {
    fn node(&mut self, _: ExprId) {}
    fn carry(&mut self, _: VarId, _: ExprId) {}
}

/// [`live_in`], showing `seen` every node of every expression of the block (the walk that
/// finds the inputs visits each node once, in the order `visit::walk_block_exprs` does)
/// and every loop's iter args: a caller that also needs what the block does with its
/// variables gathers it in the same walk.
pub fn live_in_seeing(p: &Program, block: &[StmtId], seen: &mut impl Seen) -> Vec<VarId> {
    // Sized for a small region: most have a few inputs and definitions, and a set grown
    // from empty is rehashed at its 4th and 8th entries (7 fit in 8 buckets).
    let set = || FxHashSet::with_capacity_and_hasher(7, Default::default());
    let mut walk = LiveIn { p, defined: set(), seen: set(), order: Vec::with_capacity(8), also: seen };
    walk.block(block);
    walk.order
}

struct LiveIn<'p, 's, S: Seen> {
    p: &'p Program,
    defined: FxHashSet<VarId>,
    seen: FxHashSet<VarId>,
    order: Vec<VarId>,
    also: &'s mut S,
}

impl<S: Seen> LiveIn<'_, '_, S> {
    fn read(&mut self, e: ExprId) {
        let p = self.p;
        visit::walk_expr(p, e, |x| {
            self.also.node(x);
            if let ExprKind::Var(v) = p.expr(x).kind {
                if !self.defined.contains(&v) && self.seen.insert(v) {
                    self.order.push(v);
                }
            }
        });
    }

    /// Walks a block whose definitions do not outlive it; returns what it defined, so that
    /// the caller can keep what every path defines.
    fn scoped(&mut self, block: &[StmtId]) -> Vec<VarId> {
        let mut added = Vec::new();
        let saved = std::mem::take(&mut self.defined);
        self.defined = saved.clone();
        self.block(block);
        for v in &self.defined {
            if !saved.contains(v) {
                added.push(*v);
            }
        }
        self.defined = saved;
        added.sort_unstable();
        added
    }

    fn block(&mut self, block: &[StmtId]) {
        for &s in block {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: StmtId) {
        let p = self.p;
        match &p.stmt(s).kind {
            StmtKind::Assign { var, value } => {
                self.read(*value);
                self.defined.insert(*var);
            }
            StmtKind::Eval(e) => self.read(*e),
            StmtKind::Return(values) | StmtKind::Yield(values) => values.iter().for_each(|&e| self.read(e)),
            StmtKind::If(IfStmt { cond, then_body, else_body, return_vars }) => {
                self.read(*cond);
                let then_defs = self.scoped(then_body);
                let else_defs = match else_body {
                    Some(b) => self.scoped(b),
                    None => Vec::new(),
                };
                for v in then_defs {
                    if else_defs.binary_search(&v).is_ok() {
                        self.defined.insert(v);
                    }
                }
                self.defined.extend(return_vars.iter().copied());
            }
            StmtKind::For { var, start, stop, step, iter_args, body, return_vars, attrs, .. } => {
                for e in [*start, *stop, *step] {
                    self.read(e);
                }
                iter_args.iter().for_each(|a| self.read(a.init));
                attrs.iter().for_each(|&(_, e)| self.read(e));
                iter_args.iter().for_each(|a| self.also.carry(a.var, a.init));
                let saved = self.defined.clone();
                self.defined.insert(*var);
                self.defined.extend(iter_args.iter().map(|a| a.var));
                self.block(body);
                self.defined = saved;
                self.defined.extend(return_vars.iter().copied());
            }
            StmtKind::While { cond, iter_args, body, return_vars } => {
                iter_args.iter().for_each(|a| self.read(a.init));
                iter_args.iter().for_each(|a| self.also.carry(a.var, a.init));
                let saved = self.defined.clone();
                self.defined.extend(iter_args.iter().map(|a| a.var));
                self.read(*cond);
                self.block(body);
                self.defined = saved;
                self.defined.extend(return_vars.iter().copied());
            }
            StmtKind::Scope(scope) => {
                visit::stmt_exprs(p, s, |e| self.read(e));
                self.block(&scope.body);
                if let Some(t) = scope.task_id {
                    self.defined.insert(t);
                }
            }
            StmtKind::Break | StmtKind::Continue => {}
        }
    }
}

/// Calls `f` on each variable the expression node `e` writes through a store
/// (`pl.store(tile, offsets, t)` and the other store forms: the argument the op table marks
/// as written, of an op whose result is that same tensor), in argument order. Narrower
/// than "written": `pl.assemble` returns the updated tensor, and so is not a store. A
/// block's store targets, in first-write order, are what this gives over
/// `visit::walk_block_exprs` (the outliner gathers them in its walk of a region's accesses).
pub fn stores_in(p: &Program, e: ExprId, mut f: impl FnMut(VarId)) {
    let ExprKind::Call { callee: Callee::Op(op), args, .. } = &p.expr(e).kind else { return };
    if !op.def().is_store() {
        return;
    }
    for (i, a) in args.iter().enumerate() {
        if let (Some(a), Effect::Write) = (a, op.def().effect(i)) {
            if let ExprKind::Var(v) = p.expr(*a).kind {
                f(v);
            }
        }
    }
}

/// The tensor a store expression writes (`pl.store(tile, offsets, t)` → `t`), if it is one.
pub fn stored_into(p: &Program, e: ExprId) -> Option<VarId> {
    let ExprKind::Call { callee: Callee::Op(op), args, .. } = &p.expr(e).kind else { return None };
    if !op.def().is_store() {
        return None;
    }
    args.iter().enumerate().find_map(|(i, a)| match (a, op.def().effect(i)) {
        (Some(a), Effect::Write) => match p.expr(*a).kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        },
        _ => None,
    })
}

/// For each statement of a block, whether it is, or contains, a statement for which
/// `is_target` holds: one walk per statement.
pub fn contains_target(p: &Program, block: &[StmtId], mut is_target: impl FnMut(StmtId) -> bool) -> Vec<bool> {
    block.iter().map(|&s| visit::any_stmt(p, std::slice::from_ref(&s), &mut is_target)).collect()
}

/// One scalar loop carry: the loop, the carry's position, its iter arg and return
/// variable, and the expressions that feed it (the init and the trailing yield's value).
struct Carry {
    stmt: StmtId,
    index: usize,
    iter_arg: VarId,
    result: VarId,
    feeds: [ExprId; 2],
}

/// Drops the dead scalar carries of the loops of `body`: a carry whose iter arg and result
/// nothing reads but the inits and yields of other dead carries (a scalar reassigned in a
/// loop and never read after it, which SSA still carries). A dead carry's value need not
/// leave a device region. Loops with `break` or `continue` keep their carries; so does a
/// body whose types name variables (a carried extent).
pub fn drop_dead_scalar_carries(p: &mut Program, body: &[StmtId]) {
    let carries = scalar_carries(p, body);
    if carries.is_empty() {
        return;
    }
    let mut bail = false;
    visit::walk_stmts(p, body, |s| {
        visit::stmt_defs(p, s, |v| bail |= visit::type_mentions_vars(&p.types, p.var(v).ty));
    });
    if bail {
        return;
    }
    // What is read other than by the carries' feeds, then what the live carries feed.
    let feeds: FxHashSet<ExprId> = carries.iter().flat_map(|c| c.feeds).collect();
    let mut live: FxHashSet<VarId> = FxHashSet::default();
    visit::walk_stmts(p, body, |s| {
        visit::stmt_exprs(p, s, |e| {
            if !feeds.contains(&e) {
                visit::expr_reads(p, e, |v| {
                    live.insert(v);
                });
            }
        });
    });
    let mut alive = vec![false; carries.len()];
    loop {
        let mut changed = false;
        for (i, c) in carries.iter().enumerate() {
            if !alive[i] && (live.contains(&c.iter_arg) || live.contains(&c.result)) {
                alive[i] = true;
                changed = true;
                for e in c.feeds {
                    visit::expr_reads(p, e, |v| {
                        live.insert(v);
                    });
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Highest position first, so that the positions of the others stay.
    let mut dead: Vec<&Carry> = carries.iter().zip(&alive).filter(|(_, &a)| !a).map(|(c, _)| c).collect();
    dead.sort_by_key(|c| std::cmp::Reverse(c.index));
    for c in dead {
        let (iter_args, body, return_vars) = match &mut p.stmts[c.stmt.index()].kind {
            StmtKind::For { iter_args, body, return_vars, .. }
            | StmtKind::While { iter_args, body, return_vars, .. } => (iter_args, body.clone(), return_vars),
            _ => unreachable!("a loop"),
        };
        iter_args.remove(c.index);
        return_vars.remove(c.index);
        let last = *body.last().expect("a carrying loop ends with its yield");
        if let StmtKind::Yield(values) = &mut p.stmts[last.index()].kind {
            values.remove(c.index);
        }
    }
}

/// The scalar carries of the loops of `body` that end with their yield and hold no
/// `break` or `continue`.
fn scalar_carries(p: &Program, body: &[StmtId]) -> Vec<Carry> {
    use crate::ir::{DType, Type};
    let mut out = Vec::new();
    visit::walk_stmts(p, body, |s| {
        let (iter_args, body, return_vars) = match &p.stmt(s).kind {
            StmtKind::For { iter_args, body, return_vars, .. }
            | StmtKind::While { iter_args, body, return_vars, .. } => (iter_args, body, return_vars),
            _ => return,
        };
        let Some(StmtKind::Yield(values)) = body.last().map(|&l| &p.stmt(l).kind) else { return };
        if values.len() != iter_args.len() || return_vars.len() != iter_args.len() {
            return;
        }
        if visit::any_stmt(p, body, |t| matches!(p.stmt(t).kind, StmtKind::Break | StmtKind::Continue)) {
            return;
        }
        for (index, ia) in iter_args.iter().enumerate() {
            if matches!(p.types.get(p.var(ia.var).ty), Type::Scalar(d) if *d != DType::TaskId) {
                let feeds = [ia.init, values[index]];
                out.push(Carry { stmt: s, index, iter_arg: ia.var, result: return_vars[index], feeds });
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Input, PipelineSpec, StopAt};
    use crate::ir::Block;
    use crate::session::Session;

    /// Lowers `src` and returns the program with the body of its function `f`.
    fn lower(src: &str) -> (Session, Program) {
        let mut c =
            driver::compile(Input::text("test.pl", src), &PipelineSpec::default(), StopAt::Lower).expect("in memory");
        assert!(!c.has_errors(), "{:?}", c.diags);
        (c.session, c.programs.remove(0))
    }

    fn names(s: &Session, p: &Program, vars: &[VarId]) -> Vec<String> {
        vars.iter().map(|&v| s.interner.get(p.var(v).name).to_string()).collect()
    }

    /// The body of the first `with` region of function `func`.
    fn region(s: &Session, p: &Program, func: &str) -> Block {
        let f = p.functions.values().find(|f| s.interner.get(f.name) == func).unwrap();
        let mut found = None;
        visit::walk_stmts(p, &f.body, |st| {
            if let (None, StmtKind::Scope(scope)) = (&found, &p.stmt(st).kind) {
                found = Some(scope.body.clone());
            }
        });
        found.unwrap()
    }

    /// The seed's program, as the examples hold it.
    const SEED: &str = include_str!("../../examples/accumulate_band.pl");

    #[test]
    fn the_seed_region_reads_i_w_acc_in_that_order_and_stores_acc() {
        let (s, p) = lower(SEED);
        let body = region(&s, &p, "entry");
        assert_eq!(names(&s, &p, &live_in(&p, &body)), ["i", "w", "acc"]);
        let mut stores = Vec::new();
        visit::walk_block_exprs(&p, &body, |_, e| stores_in(&p, e, |v| stores.push(v)));
        assert_eq!(names(&s, &p, &stores), ["acc"]);
        assert_eq!(names(&s, &p, &defs_in_order(&p, &body)), ["base", "band", "cur"]);
    }

    #[test]
    fn a_value_defined_on_one_branch_only_is_still_an_input_after_the_if() {
        let (s, p) = lower(
            r#"
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]):
    c = n + 1
    with pl.graph("g"):
        a = 1
        if n > 2:
            b = a + n
            c = b
        else:
            b = 3
        d = a + b + c
    return x
"#,
        );
        let body = region(&s, &p, "f");
        // `b` is defined on both paths; `c` only on one, so the read after the `if` may
        // see the value from before the region.
        assert_eq!(names(&s, &p, &live_in(&p, &body)), ["n", "c"]);
    }
}
