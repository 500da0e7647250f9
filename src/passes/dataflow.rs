//! Variable uses and definitions over IR blocks, for the outlining passes: which variables
//! a region reads before it defines them (its parameters, in first-read order), which it
//! defines, which it writes through a store, and which the statements after it mention.
//!
//! The walks go through `ir::visit`; each is linear in the size of what it walks and
//! recurses on the block structure no deeper than the IR's own nesting.

use crate::ir::ops::Effect;
use crate::ir::visit;
use crate::ir::{Callee, ExprId, ExprKind, ForStmt, IfStmt, Program, StmtId, StmtKind, VarId, WhileStmt};
use rustc_hash::{FxHashMap, FxHashSet};

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
    let mut walk = LiveIn::default();
    walk.run(p, block, &mut ());
    walk.order
}

/// Dense numbers for the variables a walk meets (0, 1, 2, ... in the order first met),
/// with what the walk learns of each ([`Facts`]) in a vector indexed by them: one hash
/// look-up per mention rather than one per set or map the walk keeps.
#[derive(Default)]
pub struct Numbering {
    of: FxHashMap<VarId, u32>,
    /// By number: what the walk learnt of the variable.
    pub facts: Vec<Facts>,
}

/// What a walk learns of one variable: [`LiveIn`]'s own facts, and the outliner's, which
/// it gathers in the same walk ([`Seen`]).
#[derive(Clone, Copy, Default)]
pub struct Facts {
    /// Defined on the path walked so far.
    defined: bool,
    /// Read before being defined: an input.
    input: bool,
    /// How many times the variable is read (each `Var` node).
    pub reads: u32,
    /// How many times it is an argument the callee only writes.
    pub written_only: u32,
    /// Whether an argument writes it.
    pub written: bool,
    /// Whether a store writes it.
    pub stored: bool,
}

impl Numbering {
    /// `v`'s number, given it now if it has none.
    pub fn number(&mut self, v: VarId) -> usize {
        let next = self.facts.len() as u32;
        let n = *self.of.entry(v).or_insert(next);
        if n == next {
            self.facts.push(Facts::default());
        }
        n as usize
    }

    /// `v`'s number, if it has one.
    pub fn get(&self, v: VarId) -> Option<usize> {
        self.of.get(&v).map(|&n| n as usize)
    }

    fn clear(&mut self) {
        empty_map(&mut self.of);
        self.facts.clear();
    }
}

/// Empties a map kept from one use to the next. Emptying costs the map's capacity, so one
/// that grew far beyond its last use's size is dropped instead: each use then pays for no
/// more than it filled, and a run of small uses after a large one stays linear.
pub fn empty_map<K, V>(m: &mut FxHashMap<K, V>) {
    if m.capacity() > 64 && m.capacity() > 8 * m.len() {
        *m = FxHashMap::default();
    } else {
        m.clear();
    }
}

/// What a walk of a block's expressions sees besides its reads, for [`LiveIn::run`].
pub trait Seen {
    /// A node of an expression the block holds, in `visit::walk_block_exprs` order (the
    /// walk's variables are numbered in `numbers`, which gives more as asked).
    fn node(&mut self, p: &Program, e: ExprId, numbers: &mut Numbering);
    /// A loop's iter arg and its initial value, in program order (before the loop's body).
    fn carry(&mut self, var: VarId, init: ExprId);
}

impl Seen for () {
    fn node(&mut self, _: &Program, _: ExprId, _: &mut Numbering) {}
    fn carry(&mut self, _: VarId, _: ExprId) {}
}

/// The walk behind [`live_in`], kept from one block to the next by a caller that walks
/// many (its vectors and map are emptied, not freed). [`LiveIn::run`] shows a [`Seen`]
/// every node of every expression of the block (the walk that finds the inputs visits
/// each node once, in the order `visit::walk_block_exprs` does) and every loop's iter
/// args: a caller that also needs what the block does with its variables gathers it in
/// the same walk.
#[derive(Default)]
pub struct LiveIn {
    /// The variables the last walk met, numbered, with what it learnt of each.
    pub numbers: Numbering,
    /// The numbers of the variables defined on the path walked so far, in the order they
    /// were: a block whose definitions do not outlive it undoes those it added.
    defined: Vec<usize>,
    /// The inputs, in first-read order.
    pub order: Vec<VarId>,
    /// Every variable the block defines, in [`defs_in_order`]'s order.
    pub defs: Vec<VarId>,
    /// Whether the block holds a region (a scope statement) of any kind.
    pub scopes: bool,
}

impl LiveIn {
    /// Finds the inputs of `block` (in `order`), showing `seen` what it walks.
    pub fn run(&mut self, p: &Program, block: &[StmtId], seen: &mut impl Seen) {
        self.numbers.clear();
        self.defined.clear();
        self.order.clear();
        self.defs.clear();
        self.scopes = false;
        self.block(p, block, seen);
    }

    fn define(&mut self, v: VarId) {
        let n = self.numbers.number(v);
        self.define_number(n);
    }

    fn define_number(&mut self, n: usize) {
        let facts = &mut self.numbers.facts[n];
        if !facts.defined {
            facts.defined = true;
            self.defined.push(n);
        }
    }

    /// Forgets the definitions made since `mark` (a length of `defined`).
    fn undo(&mut self, mark: usize) {
        for &n in &self.defined[mark..] {
            self.numbers.facts[n].defined = false;
        }
        self.defined.truncate(mark);
    }

    fn read(&mut self, p: &Program, e: ExprId, seen: &mut impl Seen) {
        visit::walk_expr(p, e, |x| {
            seen.node(p, x, &mut self.numbers);
            if let ExprKind::Var(v) = p.expr(x).kind {
                let n = self.numbers.number(v);
                let facts = &mut self.numbers.facts[n];
                facts.reads += 1;
                if !facts.defined && !facts.input {
                    facts.input = true;
                    self.order.push(v);
                }
            }
        });
    }

    /// Walks a block whose definitions do not outlive it; returns the numbers of what it
    /// defined, in increasing order, so that the caller can keep what every path defines.
    fn scoped(&mut self, p: &Program, block: &[StmtId], seen: &mut impl Seen) -> Vec<usize> {
        let mark = self.defined.len();
        self.block(p, block, seen);
        let mut added = self.defined[mark..].to_vec();
        self.undo(mark);
        added.sort_unstable();
        added
    }

    fn block(&mut self, p: &Program, block: &[StmtId], seen: &mut impl Seen) {
        for &s in block {
            self.stmt(p, s, seen);
        }
    }

    fn stmt(&mut self, p: &Program, s: StmtId, seen: &mut impl Seen) {
        // A statement's own definitions before those of the statements nested in it.
        visit::stmt_defs(p, s, |v| self.defs.push(v));
        match &p.stmt(s).kind {
            StmtKind::Assign { var, value } => {
                self.read(p, *value, seen);
                self.define(*var);
            }
            StmtKind::Eval(e) => self.read(p, *e, seen),
            StmtKind::Return(values) | StmtKind::Yield(values) => values.iter().for_each(|&e| self.read(p, e, seen)),
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
                self.read(p, *cond, seen);
                let then_defs = self.scoped(p, then_body, seen);
                let else_defs = match else_body {
                    Some(b) => self.scoped(p, b, seen),
                    None => Vec::new(),
                };
                for n in then_defs {
                    if else_defs.binary_search(&n).is_ok() {
                        self.define_number(n);
                    }
                }
                return_vars.iter().for_each(|&v| self.define(v));
            }
            StmtKind::For(for_) => {
                let ForStmt { var, start, stop, step, iter_args, body, return_vars, attrs, .. } = &**for_;
                for e in [*start, *stop, *step] {
                    self.read(p, e, seen);
                }
                iter_args.iter().for_each(|a| self.read(p, a.init, seen));
                attrs.iter().for_each(|&(_, e)| self.read(p, e, seen));
                iter_args.iter().for_each(|a| seen.carry(a.var, a.init));
                let mark = self.defined.len();
                self.define(*var);
                iter_args.iter().for_each(|a| self.define(a.var));
                self.block(p, body, seen);
                self.undo(mark);
                return_vars.iter().for_each(|&v| self.define(v));
            }
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                iter_args.iter().for_each(|a| self.read(p, a.init, seen));
                iter_args.iter().for_each(|a| seen.carry(a.var, a.init));
                let mark = self.defined.len();
                iter_args.iter().for_each(|a| self.define(a.var));
                self.read(p, *cond, seen);
                self.block(p, body, seen);
                self.undo(mark);
                return_vars.iter().for_each(|&v| self.define(v));
            }
            StmtKind::Scope(scope) => {
                self.scopes = true;
                visit::stmt_exprs(p, s, |e| self.read(p, e, seen));
                self.block(p, &scope.body, seen);
                if let Some(t) = scope.task_id {
                    self.define(t);
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
            StmtKind::For(for_) => (&mut for_.iter_args, for_.body.clone(), &mut for_.return_vars),
            StmtKind::While(while_) => (&mut while_.iter_args, while_.body.clone(), &mut while_.return_vars),
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
            StmtKind::For(for_) => (&for_.iter_args, &for_.body, &for_.return_vars),
            StmtKind::While(while_) => (&while_.iter_args, &while_.body, &while_.return_vars),
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
