//! One way to walk the IR and one way to rewrite it, shared by the passes and the verifier.
//!
//! **Visiting** (read-only, in program order):
//!
//! - [`walk_stmts`]: every statement of a block tree, each before the statements nested in
//!   it, a then-block before its else-block. [`walk_stmts_in`] also hands every statement
//!   the context its enclosing statement chose for it (the innermost region, the loop
//!   depth, ...); [`any_stmt`] stops at the first statement that matches.
//! - [`stmt_exprs`], [`expr_children`]: the direct children of a statement (its own
//!   expressions) or an expression.
//! - [`walk_expr`]: every node of an expression tree, a node before its children, children
//!   left to right; [`walk_stmt_exprs`] and [`walk_block_exprs`] do the same for the
//!   expressions a statement holds and for every statement of a block tree; [`all_exprs`]
//!   stops at the first node that fails a test.
//! - [`expr_reads`] and [`stmt_reads`]: the variables read, left to right; [`stmt_defs`]: the
//!   variables a statement itself defines.
//!
//! **Rewriting**:
//!
//! - [`map_expr_children`] and [`map_stmt_blocks`]: a node with each direct child mapped.
//! - [`stmt_blocks`]: the blocks nested directly in a statement, read only.
//! - [`rename_reads`]: in place, in a block tree, reads of some variables become reads of
//!   others.
//! - [`copy_expr`], [`copy_stmt`], [`copy_block`]: a deep copy, every node new, under a
//!   [`Rewriter`] that says what each defined variable, read, type and location becomes.
//!   [`FreshVars`] gives every variable the copy defines a fresh variable (same name, type
//!   and location) and maps reads through the same map; a [`Program`] itself is the
//!   rewriter of a plain copy.
//! - [`freshen_block`]: in place, what a copy under [`FreshVars`] would make of a block
//!   that moves (the same fresh variables, in the same order), without new nodes.
//! - [`substitute`]: an expression under a [`Rewriter`], copy-on-write: only the nodes in
//!   which a read, a type or a child changes are new.
//! - [`map_type_vars`]: a type with the variables in its extents (`Dim::Var`) mapped.
//!
//! A copy makes its nodes in a fixed order, on which the passes' fresh names and ids
//! depend: a statement's expressions before the variables it defines; for a `for` loop the
//! start, stop and step, its attributes, each iter arg (initial value, then variable), the
//! loop variable, the body and the return variables; for a scope its attributes, its body,
//! then its task id.
//!
//! Depth: the statement walks and the expression walks are iterative, so any nesting is
//! safe. Copies and substitutions recurse once per nested block and once per expression
//! level, which the syntax limits (100 block levels, 200 expression levels) keep shallow;
//! nothing recurses once per statement of a block.

use super::{
    Block, Dim, Expr, ExprId, ExprKind, ForStmt, IfStmt, IterArg, Loc, Program, Scope, ScopeKind, Stmt, StmtId,
    StmtKind, Type, TypeId, Types, VarId, WhileStmt,
};
use crate::intern::Symbol;
use rustc_hash::FxHashMap;
use std::mem::MaybeUninit;
use std::ops::ControlFlow;

// ---------------------------------------------------------------- statements

/// Every statement of a block and of the blocks nested in it, in order: a statement before
/// the statements nested in it, a then-block before its else-block.
pub fn walk_stmts(p: &Program, block: &[StmtId], mut f: impl FnMut(StmtId)) {
    let _ = walk(p, block, (), |s, ()| {
        f(s);
        ControlFlow::Continue(())
    });
}

/// [`walk_stmts`] with a context: the statements of `block` get `ctx`, and the statements
/// nested in a statement `s` get what `f` returned for `s`.
pub fn walk_stmts_in<C: Copy>(p: &Program, block: &[StmtId], ctx: C, mut f: impl FnMut(StmtId, C) -> C) {
    let _ = walk(p, block, ctx, |s, c| ControlFlow::Continue(f(s, c)));
}

/// Whether a statement of the block tree (in [`walk_stmts`] order) satisfies `pred`; the
/// walk stops at the first that does.
pub fn any_stmt(p: &Program, block: &[StmtId], mut pred: impl FnMut(StmtId) -> bool) -> bool {
    walk(p, block, (), |s, ()| if pred(s) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }).is_break()
}

/// The statement walk behind [`walk_stmts`], [`walk_stmts_in`] and [`any_stmt`]: iterative,
/// with a stack of the blocks left to finish (one entry per level of nesting).
fn walk<'p, C: Copy>(
    p: &'p Program,
    block: &'p [StmtId],
    ctx: C,
    mut f: impl FnMut(StmtId, C) -> ControlFlow<(), C>,
) -> ControlFlow<()> {
    // In place for the usual nesting: the passes make many small walks, for which a heap
    // stack (allocated, grown, freed) cost more than the walk itself.
    let mut pending: Lifo<(&'p [StmtId], C), 16> = Lifo::new();
    let (mut current, mut current_ctx) = (block, ctx);
    loop {
        while let Some((&s, rest)) = current.split_first() {
            let inner = f(s, current_ctx)?;
            current = rest;
            let (first, second): (&[StmtId], Option<&[StmtId]>) = match &p.stmt(s).kind {
                StmtKind::If(i) => (&i.then_body, i.else_body.as_deref()),
                StmtKind::For(f) => (&f.body, None),
                StmtKind::While(w) => (&w.body, None),
                StmtKind::Scope(scope) => (&scope.body, None),
                _ => continue,
            };
            if !rest.is_empty() {
                pending.push((rest, current_ctx));
            }
            if let Some(second) = second {
                pending.push((second, inner));
            }
            (current, current_ctx) = (first, inner);
        }
        match pending.pop() {
            Some((b, c)) => (current, current_ctx) = (b, c),
            None => return ControlFlow::Continue(()),
        }
    }
}

/// A last-in first-out stack of up to `N` entries in place, then on the heap: the walks'
/// stacks, which the usual trees and nestings keep shallow, allocate nothing. The entries
/// in place are not initialized until pushed: a walk begins without writing `N` of them
/// (filling them cost 4 % of the outliners' instructions, a walk per expression root).
pub(super) struct Lifo<T: Copy, const N: usize> {
    near: [MaybeUninit<T>; N],
    /// The entries in `near` (those written, below this); `far` holds entries only when
    /// `near` is full.
    len: usize,
    far: Vec<T>,
}

impl<T: Copy, const N: usize> Lifo<T, N> {
    /// An empty stack.
    #[inline]
    pub(super) fn new() -> Self {
        Lifo { near: [const { MaybeUninit::uninit() }; N], len: 0, far: Vec::new() }
    }

    /// The number of entries.
    pub(super) fn len(&self) -> usize {
        self.len + self.far.len()
    }
}

/// A stack an expression walk pushes children on: a [`Lifo`], or a caller's `Vec`.
pub(super) trait Stack<T> {
    fn push(&mut self, x: T);
    fn pop(&mut self) -> Option<T>;
}

impl<T: Copy, const N: usize> Stack<T> for Lifo<T, N> {
    #[inline]
    fn push(&mut self, x: T) {
        match self.near.get_mut(self.len) {
            Some(slot) => {
                slot.write(x);
                self.len += 1;
            }
            None => self.far.push(x),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if let Some(x) = self.far.pop() {
            return Some(x);
        }
        self.len = self.len.checked_sub(1)?;
        // SAFETY: every entry of `near` below the old `len` was written by `push` (`len`
        // grows only there, by one, after the write, and shrinks only here), and `T` is
        // `Copy`: reading it leaves nothing to drop twice.
        self.near.get(self.len).map(|slot| unsafe { slot.assume_init() })
    }
}

impl<T> Stack<T> for Vec<T> {
    #[inline]
    fn push(&mut self, x: T) {
        Vec::push(self, x);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        Vec::pop(self)
    }
}

/// The expressions a statement holds directly (not those of the statements nested in it),
/// in order.
pub fn stmt_exprs(p: &Program, s: StmtId, mut f: impl FnMut(ExprId)) {
    match &p.stmt(s).kind {
        StmtKind::Assign { value, .. } => f(*value),
        StmtKind::Eval(e) => f(*e),
        StmtKind::Return(values) | StmtKind::Yield(values) => values.iter().for_each(|&e| f(e)),
        StmtKind::If(i) => f(i.cond),
        StmtKind::For(fs) => {
            let ForStmt { start, stop, step, iter_args, attrs, .. } = &**fs;
            f(*start);
            f(*stop);
            f(*step);
            iter_args.iter().for_each(|ia| f(ia.init));
            attrs.iter().for_each(|&(_, e)| f(e));
        }
        StmtKind::While(w) => {
            w.iter_args.iter().for_each(|ia| f(ia.init));
            f(w.cond);
        }
        StmtKind::Scope(scope) => {
            if let ScopeKind::Spmd { core_num } = &scope.kind {
                f(*core_num);
            }
            scope.attrs.iter().for_each(|&(_, e)| f(e));
        }
        StmtKind::Break | StmtKind::Continue => {}
    }
}

/// The variables a statement itself binds (not those of the statements nested in it): an
/// assignment's target; a loop's variable, iter args and return variables; an `if`'s
/// return variables; a scope's task id.
pub fn stmt_defs(p: &Program, s: StmtId, mut f: impl FnMut(VarId)) {
    match &p.stmt(s).kind {
        StmtKind::Assign { var, .. } => f(*var),
        StmtKind::If(i) => i.return_vars.iter().for_each(|&v| f(v)),
        StmtKind::For(fs) => {
            let ForStmt { var, iter_args, return_vars, .. } = &**fs;
            f(*var);
            iter_args.iter().for_each(|ia| f(ia.var));
            return_vars.iter().for_each(|&v| f(v));
        }
        StmtKind::While(w) => {
            w.iter_args.iter().for_each(|ia| f(ia.var));
            w.return_vars.iter().for_each(|&v| f(v));
        }
        StmtKind::Scope(scope) => scope.task_id.iter().for_each(|&v| f(v)),
        StmtKind::Eval(_) | StmtKind::Return(_) | StmtKind::Yield(_) | StmtKind::Break | StmtKind::Continue => {}
    }
}

// ---------------------------------------------------------------- expressions

/// The direct sub-expressions of an expression, left to right (a call's arguments, then
/// its attributes).
pub fn expr_children(p: &Program, e: ExprId, mut f: impl FnMut(ExprId)) {
    match &p.expr(e).kind {
        ExprKind::Tuple(items) => items.iter().for_each(|&c| f(c)),
        ExprKind::Binary { lhs, rhs, .. } => {
            f(*lhs);
            f(*rhs);
        }
        ExprKind::Unary { operand, .. } => f(*operand),
        ExprKind::Call { args, attrs, .. } => {
            args.iter().flatten().for_each(|&c| f(c));
            attrs.exprs().for_each(f);
        }
        ExprKind::TupleGet { tuple, .. } => f(*tuple),
        _ => {}
    }
}

/// The stack of an expression walk: in place up to 32 pending nodes.
type ExprStack = Lifo<ExprId, 32>;

/// The first child of `e` (in [`expr_children`] order), with the others pushed so that
/// popping them gives them left to right; `None` for a leaf (then nothing is pushed but a
/// call's attributes, when it has no argument). A single child is not pushed at all.
#[inline(always)]
fn descend(p: &Program, e: ExprId, stack: &mut impl Stack<ExprId>) -> Option<ExprId> {
    match &p.expr(e).kind {
        ExprKind::Binary { lhs, rhs, .. } => {
            stack.push(*rhs);
            Some(*lhs)
        }
        ExprKind::Unary { operand, .. } => Some(*operand),
        ExprKind::TupleGet { tuple, .. } => Some(*tuple),
        ExprKind::Call { args, attrs, .. } => {
            // Most calls have no attributes: no iterator chain to build for them.
            if attrs.0.is_some() {
                push_attrs(attrs, stack);
            }
            let mut first = None;
            for &arg in args.iter().rev().flatten() {
                if let Some(later) = first.replace(arg) {
                    stack.push(later);
                }
            }
            first
        }
        ExprKind::Tuple(items) => {
            let (&first, rest) = items.split_first()?;
            for &c in rest.iter().rev() {
                stack.push(c);
            }
            Some(first)
        }
        _ => None,
    }
}

/// Pushes a call's attribute expressions so that popping them gives them in order.
#[cold]
#[inline(never)]
fn push_attrs(attrs: &super::CallAttrs, stack: &mut impl Stack<ExprId>) {
    let exprs: Vec<ExprId> = attrs.exprs().collect();
    for &e in exprs.iter().rev() {
        stack.push(e);
    }
}

/// The node after `e` in a walk: its first child, else the next pending one.
#[inline(always)]
fn next_node(p: &Program, e: ExprId, stack: &mut impl Stack<ExprId>) -> Option<ExprId> {
    match descend(p, e, stack) {
        Some(c) => Some(c),
        None => stack.pop(),
    }
}

/// Every node of the expression tree under `root`: a node before its children, children
/// left to right (iterative).
pub fn walk_expr(p: &Program, root: ExprId, mut f: impl FnMut(ExprId)) {
    walk_tree(p, root, &mut ExprStack::new(), &mut f);
}

/// [`walk_expr`] with a stack that the caller keeps between walks (empty on entry and on
/// return).
#[inline(always)]
fn walk_tree(p: &Program, root: ExprId, stack: &mut ExprStack, f: &mut impl FnMut(ExprId)) {
    let mut next = root;
    loop {
        f(next);
        match next_node(p, next, stack) {
            Some(e) => next = e,
            None => return,
        }
    }
}

/// Whether every node of the expression tree under `root` satisfies `pred`; the walk
/// stops at the first that does not.
pub fn all_exprs(p: &Program, root: ExprId, mut pred: impl FnMut(ExprId) -> bool) -> bool {
    let mut stack = ExprStack::new();
    let mut next = root;
    loop {
        if !pred(next) {
            return false;
        }
        match next_node(p, next, &mut stack) {
            Some(e) => next = e,
            None => return true,
        }
    }
}

/// Every node of every expression a statement holds directly, each tree as [`walk_expr`]
/// walks it, the trees in [`stmt_exprs`] order.
pub fn walk_stmt_exprs(p: &Program, s: StmtId, mut f: impl FnMut(ExprId)) {
    let mut stack = ExprStack::new();
    stmt_exprs(p, s, |root| walk_tree(p, root, &mut stack, &mut f));
}

/// Every node of every expression of a block tree, with its statement: the statements in
/// [`walk_stmts`] order, each as [`walk_stmt_exprs`] walks it.
pub fn walk_block_exprs(p: &Program, block: &[StmtId], mut f: impl FnMut(StmtId, ExprId)) {
    let mut stack = ExprStack::new();
    walk_stmts(p, block, |s| stmt_exprs(p, s, |root| walk_tree(p, root, &mut stack, &mut |e| f(s, e))));
}

/// The variables an expression reads, left to right (once per read).
pub fn expr_reads(p: &Program, e: ExprId, mut f: impl FnMut(VarId)) {
    walk_expr(p, e, |x| {
        if let ExprKind::Var(v) = p.expr(x).kind {
            f(v);
        }
    });
}

/// The variables the expressions a statement holds directly read, left to right.
pub fn stmt_reads(p: &Program, s: StmtId, mut f: impl FnMut(VarId)) {
    walk_stmt_exprs(p, s, |x| {
        if let ExprKind::Var(v) = p.expr(x).kind {
            f(v);
        }
    });
}

// ---------------------------------------------------------------- rewriting

/// `kind` with each direct child `c` replaced by `f(c)`, called left to right (a call's
/// arguments, then its attributes).
pub fn map_expr_children(kind: ExprKind, mut f: impl FnMut(ExprId) -> ExprId) -> ExprKind {
    match kind {
        ExprKind::Tuple(mut items) => {
            items.iter_mut().for_each(|e| *e = f(*e));
            ExprKind::Tuple(items)
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let lhs = f(lhs);
            ExprKind::Binary { op, lhs, rhs: f(rhs) }
        }
        ExprKind::Unary { op, operand } => ExprKind::Unary { op, operand: f(operand) },
        ExprKind::Call { callee, mut args, attrs } => {
            args.iter_mut().flatten().for_each(|e| *e = f(*e));
            let attrs = attrs.map_exprs(&mut f);
            ExprKind::Call { callee, args, attrs }
        }
        ExprKind::TupleGet { tuple, index } => ExprKind::TupleGet { tuple: f(tuple), index },
        leaf => leaf,
    }
}

/// The blocks nested directly in a statement, in [`map_stmt_blocks`] order: a loop's body,
/// an `if`'s two branches (the `else` when there is one), a scope's body.
pub fn stmt_blocks(kind: &StmtKind) -> [Option<&Block>; 2] {
    match kind {
        StmtKind::For(f) => [Some(&f.body), None],
        StmtKind::While(w) => [Some(&w.body), None],
        StmtKind::If(i) => [Some(&i.then_body), i.else_body.as_ref()],
        StmtKind::Scope(scope) => [Some(&scope.body), None],
        _ => [None, None],
    }
}

/// Replaces each block nested directly in a statement by `f(block)`, in order (a
/// then-block before its else-block).
pub fn map_stmt_blocks(kind: &mut StmtKind, mut f: impl FnMut(Block) -> Block) {
    match kind {
        StmtKind::If(i) => {
            let IfStmt { then_body, else_body, .. } = &mut **i;
            *then_body = f(std::mem::take(then_body));
            if let Some(e) = else_body {
                *e = f(std::mem::take(e));
            }
        }
        StmtKind::For(fs) => fs.body = f(std::mem::take(&mut fs.body)),
        StmtKind::While(w) => w.body = f(std::mem::take(&mut w.body)),
        StmtKind::Scope(scope) => scope.body = f(std::mem::take(&mut scope.body)),
        _ => {}
    }
}

/// In place, in every expression of a block tree: each read of a variable `v` for which
/// `f(v)` is `Some(w)` becomes a read of `w`. Definitions are left as they are.
pub fn rename_reads(p: &mut Program, block: &[StmtId], f: impl FnMut(VarId) -> Option<VarId>) {
    let mut stack = Vec::new();
    walk_stmts(p, block, |s| stmt_exprs(p, s, |e| stack.push(e)));
    rename_reads_in(p, stack, f);
}

/// [`rename_reads`] in the given expression trees (a function's `pl.func_attr` values, ...).
pub fn rename_reads_in(p: &mut Program, mut stack: Vec<ExprId>, mut f: impl FnMut(VarId) -> Option<VarId>) {
    while let Some(e) = stack.pop() {
        if let ExprKind::Var(v) = p.expr(e).kind {
            if let Some(w) = f(v) {
                p.exprs[e.index()].kind = ExprKind::Var(w);
            }
            continue;
        }
        if let Some(first) = descend(p, e, &mut stack) {
            stack.push(first);
        }
    }
}

/// What a copy ([`copy_expr`], [`copy_stmt`], [`copy_block`]) or a substitution
/// ([`substitute`]) makes of each variable, read, type and location. Every hook but
/// [`Rewriter::program`] defaults to keeping things as they are.
pub trait Rewriter {
    /// The program whose nodes are rewritten, and in which the new ones are made.
    fn program(&mut self) -> &mut Program;

    /// The variable a definition of `v` (an assignment's target, a loop variable, an iter
    /// arg, a return variable, a task id) becomes. Copies only.
    fn def_var(&mut self, v: VarId) -> VarId {
        v
    }

    /// The variable a read of `v` becomes.
    fn read_var(&mut self, v: VarId) -> VarId {
        v
    }

    /// The whole node a read `e` of `v` becomes, when it is not a read of [`Rewriter::read_var`]
    /// (an argument substituted for a parameter, ...). In a substitution, `Some(e)` keeps
    /// the read as it is.
    fn replace_read(&mut self, e: ExprId, v: VarId) -> Option<ExprId> {
        let _ = (e, v);
        None
    }

    /// The type of a rewritten expression.
    fn map_type(&mut self, ty: TypeId) -> TypeId {
        ty
    }

    /// The location of a new node.
    fn map_loc(&mut self, loc: Loc) -> Loc {
        loc
    }
}

/// The rewriter of a plain deep copy.
impl Rewriter for Program {
    fn program(&mut self) -> &mut Program {
        self
    }
}

/// A deep copy of an expression: every node new, reads and types through `rw`.
pub fn copy_expr<R: Rewriter + ?Sized>(rw: &mut R, e: ExprId) -> ExprId {
    let Expr { kind, ty, loc } = rw.program().expr(e).clone();
    let kind = match kind {
        ExprKind::Var(v) => {
            if let Some(done) = rw.replace_read(e, v) {
                return done;
            }
            ExprKind::Var(rw.read_var(v))
        }
        kind => map_expr_children(kind, |c| copy_expr(rw, c)),
    };
    let ty = rw.map_type(ty);
    let loc = rw.map_loc(loc);
    rw.program().new_expr(kind, ty, loc)
}

/// An expression under `rw`, copy-on-write: a node is new only when a read in it, its
/// type or one of its children changes; otherwise it is `e` itself.
pub fn substitute<R: Rewriter + ?Sized>(rw: &mut R, e: ExprId) -> ExprId {
    let ty = rw.program().expr(e).ty;
    // The node's kind, copied only once a child changes (most nodes keep theirs).
    let mut copy: Option<ExprKind> = None;
    if let ExprKind::Var(v) = rw.program().expr(e).kind {
        if let Some(done) = rw.replace_read(e, v) {
            return done;
        }
        let w = rw.read_var(v);
        if w != v {
            copy = Some(ExprKind::Var(w));
        }
    } else {
        let slots = own_slots(&rw.program().expr(e).kind);
        for k in 0..slots {
            let Some(c) = slot(copy.as_ref().unwrap_or(&rw.program().expr(e).kind), k) else { continue };
            let n = substitute(rw, c);
            if n != c {
                let kind = copy.get_or_insert_with(|| rw.program().expr(e).kind.clone());
                if let Some(at) = slot_mut(kind, k) {
                    *at = n;
                }
            }
        }
        // A call's attributes (few calls have any).
        let old: Vec<ExprId> = match &rw.program().expr(e).kind {
            ExprKind::Call { attrs, .. } if attrs.0.is_some() => attrs.exprs().collect(),
            _ => Vec::new(),
        };
        let new: Vec<ExprId> = old.iter().map(|&c| substitute(rw, c)).collect();
        if new != old {
            let kind = copy.get_or_insert_with(|| rw.program().expr(e).kind.clone());
            if let ExprKind::Call { attrs, .. } = kind {
                let mut new = new.into_iter();
                *attrs = std::mem::take(attrs).map_exprs(|c| new.next().unwrap_or(c));
            }
        }
    }
    let new_ty = rw.map_type(ty);
    let kind = match copy {
        Some(kind) => kind,
        None if new_ty == ty => return e,
        None => rw.program().expr(e).kind.clone(),
    };
    let loc = rw.program().expr(e).loc;
    let loc = rw.map_loc(loc);
    rw.program().new_expr(kind, new_ty, loc)
}

/// The number of a node's child slots besides a call's attributes (a tuple's items, a
/// binary's two operands, a call's arguments): [`slot`] `k` for `k` below it.
fn own_slots(kind: &ExprKind) -> usize {
    match kind {
        ExprKind::Tuple(items) => items.len(),
        ExprKind::Binary { .. } => 2,
        ExprKind::Unary { .. } | ExprKind::TupleGet { .. } => 1,
        ExprKind::Call { args, .. } => args.len(),
        _ => 0,
    }
}

/// The child in slot `k` (`None` for an absent argument), in [`expr_children`] order.
fn slot(kind: &ExprKind, k: usize) -> Option<ExprId> {
    match (kind, k) {
        (ExprKind::Tuple(items), _) => items.get(k).copied(),
        (ExprKind::Binary { lhs, .. }, 0) => Some(*lhs),
        (ExprKind::Binary { rhs, .. }, 1) => Some(*rhs),
        (ExprKind::Unary { operand: c, .. } | ExprKind::TupleGet { tuple: c, .. }, 0) => Some(*c),
        (ExprKind::Call { args, .. }, _) => args.get(k).copied().flatten(),
        _ => None,
    }
}

/// [`slot`], to change.
fn slot_mut(kind: &mut ExprKind, k: usize) -> Option<&mut ExprId> {
    match (kind, k) {
        (ExprKind::Tuple(items), _) => items.get_mut(k),
        (ExprKind::Binary { lhs, .. }, 0) => Some(lhs),
        (ExprKind::Binary { rhs, .. }, 1) => Some(rhs),
        (ExprKind::Unary { operand: c, .. } | ExprKind::TupleGet { tuple: c, .. }, 0) => Some(c),
        (ExprKind::Call { args, .. }, _) => args.get_mut(k).and_then(Option::as_mut),
        _ => None,
    }
}

/// A deep copy of a block (see [`copy_stmt`]).
pub fn copy_block<R: Rewriter + ?Sized>(rw: &mut R, block: &[StmtId]) -> Block {
    block.iter().map(|&s| copy_stmt(rw, s)).collect()
}

/// A deep copy of a statement and everything nested in it: every node new, definitions,
/// reads and types through `rw`, in the order the module documentation gives.
pub fn copy_stmt<R: Rewriter + ?Sized>(rw: &mut R, s: StmtId) -> StmtId {
    let Stmt { kind, loc } = rw.program().stmt(s).clone();
    let kind = match kind {
        StmtKind::Assign { var, value } => {
            let value = copy_expr(rw, value);
            StmtKind::Assign { var: rw.def_var(var), value }
        }
        StmtKind::Eval(e) => StmtKind::Eval(copy_expr(rw, e)),
        StmtKind::Return(values) => StmtKind::Return(copy_exprs(rw, values)),
        StmtKind::Yield(values) => StmtKind::Yield(copy_exprs(rw, values)),
        StmtKind::If(i) => {
            let IfStmt { cond, then_body, else_body, return_vars } = *i;
            let cond = copy_expr(rw, cond);
            let then_body = copy_block(rw, &then_body);
            let else_body = else_body.map(|b| copy_block(rw, &b));
            let return_vars = copy_defs(rw, return_vars);
            StmtKind::If(Box::new(IfStmt { cond, then_body, else_body, return_vars }))
        }
        StmtKind::For(f) => {
            let ForStmt { kind, var, start, stop, step, iter_args, body, return_vars, attrs } = *f;
            let start = copy_expr(rw, start);
            let stop = copy_expr(rw, stop);
            let step = copy_expr(rw, step);
            let attrs = copy_attrs(rw, attrs);
            let iter_args = copy_iter_args(rw, iter_args);
            let var = rw.def_var(var);
            let body = copy_block(rw, &body);
            let return_vars = copy_defs(rw, return_vars);
            StmtKind::For(Box::new(ForStmt { kind, var, start, stop, step, iter_args, body, return_vars, attrs }))
        }
        StmtKind::While(w) => {
            let WhileStmt { cond, iter_args, body, return_vars } = *w;
            let iter_args = copy_iter_args(rw, iter_args);
            let cond = copy_expr(rw, cond);
            let body = copy_block(rw, &body);
            let return_vars = copy_defs(rw, return_vars);
            StmtKind::While(Box::new(WhileStmt { cond, iter_args, body, return_vars }))
        }
        StmtKind::Scope(scope) => {
            let Scope { kind, name, task_id, body, attrs } = *scope;
            let kind = match kind {
                ScopeKind::Spmd { core_num } => ScopeKind::Spmd { core_num: copy_expr(rw, core_num) },
                other => other,
            };
            let attrs = copy_attrs(rw, attrs);
            let body = copy_block(rw, &body);
            let task_id = task_id.map(|t| rw.def_var(t));
            StmtKind::Scope(Box::new(Scope { kind, name, task_id, body, attrs }))
        }
        StmtKind::Break => StmtKind::Break,
        StmtKind::Continue => StmtKind::Continue,
    };
    let loc = rw.map_loc(loc);
    rw.program().new_stmt(kind, loc)
}

fn copy_exprs<R: Rewriter + ?Sized>(rw: &mut R, exprs: Vec<ExprId>) -> Vec<ExprId> {
    exprs.into_iter().map(|e| copy_expr(rw, e)).collect()
}

fn copy_attrs<R: Rewriter + ?Sized>(rw: &mut R, attrs: Vec<(Symbol, ExprId)>) -> Vec<(Symbol, ExprId)> {
    attrs.into_iter().map(|(k, e)| (k, copy_expr(rw, e))).collect()
}

fn copy_defs<R: Rewriter + ?Sized>(rw: &mut R, vars: Vec<VarId>) -> Vec<VarId> {
    vars.into_iter().map(|v| rw.def_var(v)).collect()
}

/// Each iter arg's initial value, then its variable.
fn copy_iter_args<R: Rewriter + ?Sized>(rw: &mut R, iter_args: Vec<IterArg>) -> Vec<IterArg> {
    iter_args
        .into_iter()
        .map(|ia| {
            let init = copy_expr(rw, ia.init);
            IterArg { var: rw.def_var(ia.var), init }
        })
        .collect()
}

/// Whether a type names a variable in an extent (its own, or an element's of a tuple).
pub fn type_mentions_vars(types: &Types, ty: TypeId) -> bool {
    match types.get(ty) {
        Type::Tensor { shape: Some(shape), .. } | Type::Tile { shape, .. } => {
            shape.iter().any(|d| matches!(d, Dim::Var(_)))
        }
        Type::Tuple(items) => items.iter().any(|&t| type_mentions_vars(types, t)),
        _ => false,
    }
}

/// `ty` with each extent `Dim::Var(v)` replaced by `dim(rw, v)`, extents first to last and
/// tuple elements in order; `ty` itself when it names no variable.
pub fn map_type_vars<R: Rewriter + ?Sized>(
    rw: &mut R,
    ty: TypeId,
    dim: &mut impl FnMut(&mut R, VarId) -> Dim,
) -> TypeId {
    if !type_mentions_vars(&rw.program().types, ty) {
        return ty;
    }
    let mapped = match rw.program().types.get(ty).clone() {
        Type::Tensor { shape, dtype, distributed, layout } => {
            Type::Tensor { shape: shape.map(|s| map_dims(rw, s, dim)), dtype, distributed, layout }
        }
        Type::Tile { shape, dtype, memory } => Type::Tile { shape: map_dims(rw, shape, dim), dtype, memory },
        Type::Tuple(items) => Type::Tuple(items.into_iter().map(|t| map_type_vars(rw, t, dim)).collect()),
        other => other,
    };
    rw.program().types.intern(mapped)
}

fn map_dims<R: Rewriter + ?Sized>(rw: &mut R, shape: Vec<Dim>, dim: &mut impl FnMut(&mut R, VarId) -> Dim) -> Vec<Dim> {
    shape
        .into_iter()
        .map(|d| match d {
            Dim::Var(v) => dim(rw, v),
            other => other,
        })
        .collect()
}

/// The rewriter of a copy into a new namespace (a function outlined from a region): each
/// variable the copy defines gets a fresh variable with the same name, type and location,
/// and reads of it read the fresh one; reads of variables in `map` (parameters for the
/// values a region reads) read what they map to; other reads stay.
pub struct FreshVars<'p> {
    pub program: &'p mut Program,
    pub map: FxHashMap<VarId, VarId>,
}

impl Rewriter for FreshVars<'_> {
    fn program(&mut self) -> &mut Program {
        self.program
    }

    fn def_var(&mut self, v: VarId) -> VarId {
        // One look-up: the fresh variable is made only when `v` has none yet.
        let program = &mut *self.program;
        *self.map.entry(v).or_insert_with(|| program.copy_var(v))
    }

    fn read_var(&mut self, v: VarId) -> VarId {
        self.map.get(&v).copied().unwrap_or(v)
    }
}

/// In place, what [`copy_block`] under [`FreshVars`] makes of a block that is not used
/// any more where it was (a region moving into the function it becomes): the same fresh
/// variables, made in the same order, but the statements and expressions are the block's
/// own, rewritten where they are instead of copied.
pub fn freshen_block(fv: &mut FreshVars<'_>, block: &[StmtId]) {
    for &s in block {
        freshen_stmt(fv, s);
    }
}

/// One statement of [`freshen_block`], in [`copy_stmt`]'s order.
fn freshen_stmt(fv: &mut FreshVars<'_>, s: StmtId) {
    let mut kind = std::mem::replace(&mut fv.program.stmts[s.index()].kind, StmtKind::Break);
    match &mut kind {
        StmtKind::Assign { var, value } => {
            freshen_expr(fv, *value);
            *var = fv.def_var(*var);
        }
        StmtKind::Eval(e) => freshen_expr(fv, *e),
        StmtKind::Return(values) | StmtKind::Yield(values) => values.iter().for_each(|&e| freshen_expr(fv, e)),
        StmtKind::If(i) => {
            let IfStmt { cond, then_body, else_body, return_vars } = &mut **i;
            freshen_expr(fv, *cond);
            freshen_block(fv, then_body);
            if let Some(b) = else_body {
                freshen_block(fv, b);
            }
            freshen_defs(fv, return_vars);
        }
        StmtKind::For(f) => {
            let ForStmt { var, start, stop, step, iter_args, body, return_vars, attrs, .. } = &mut **f;
            for &e in [*start, *stop, *step].iter().chain(attrs.iter().map(|(_, e)| e)) {
                freshen_expr(fv, e);
            }
            freshen_iter_args(fv, iter_args);
            *var = fv.def_var(*var);
            freshen_block(fv, body);
            freshen_defs(fv, return_vars);
        }
        StmtKind::While(w) => {
            let WhileStmt { cond, iter_args, body, return_vars } = &mut **w;
            freshen_iter_args(fv, iter_args);
            freshen_expr(fv, *cond);
            freshen_block(fv, body);
            freshen_defs(fv, return_vars);
        }
        StmtKind::Scope(scope) => {
            if let ScopeKind::Spmd { core_num } = &scope.kind {
                freshen_expr(fv, *core_num);
            }
            scope.attrs.iter().for_each(|&(_, e)| freshen_expr(fv, e));
            freshen_block(fv, &scope.body);
            scope.task_id = scope.task_id.map(|t| fv.def_var(t));
        }
        StmtKind::Break | StmtKind::Continue => {}
    }
    fv.program.stmts[s.index()].kind = kind;
}

/// Each read in the tree under `root` through [`FreshVars::read_var`], in place.
fn freshen_expr(fv: &mut FreshVars<'_>, root: ExprId) {
    let mut stack = ExprStack::new();
    let mut next = Some(root);
    while let Some(e) = next {
        next = match fv.program.expr(e).kind {
            ExprKind::Var(v) => {
                let w = fv.read_var(v);
                fv.program.exprs[e.index()].kind = ExprKind::Var(w);
                stack.pop()
            }
            _ => next_node(fv.program, e, &mut stack),
        };
    }
}

fn freshen_defs(fv: &mut FreshVars<'_>, vars: &mut [VarId]) {
    for v in vars {
        *v = fv.def_var(*v);
    }
}

/// Each iter arg's initial value, then its variable (as [`copy_iter_args`]).
fn freshen_iter_args(fv: &mut FreshVars<'_>, iter_args: &mut [IterArg]) {
    for ia in iter_args {
        freshen_expr(fv, ia.init);
        ia.var = fv.def_var(ia.var);
    }
}

/// The functions `roots` call or launch, directly or through the functions they call, the
/// roots included, in no particular order.
pub fn reachable_functions(p: &Program, roots: &[Symbol]) -> rustc_hash::FxHashSet<Symbol> {
    let mut seen: rustc_hash::FxHashSet<Symbol> = roots.iter().copied().collect();
    let mut work: Vec<Symbol> = roots.to_vec();
    while let Some(name) = work.pop() {
        let Some(f) = p.functions.get(&name) else { continue };
        walk_block_exprs(p, &f.body, |_, e| {
            if let ExprKind::Call { callee, .. } = &p.expr(e).kind {
                if let Some(g) = callee.function() {
                    if seen.insert(g) {
                        work.push(g);
                    }
                }
            }
        });
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intern::Interner;
    use crate::ir::{BinOp, CallAttrs, Callee, DType, ForKind, UnOp};

    /// The in-place stack (whose entries are written only when pushed) gives back what
    /// was pushed, last first, within its room and past it (on the heap), however the
    /// pushes and pops interleave.
    #[test]
    fn the_in_place_stack_pops_what_was_pushed_last_first_within_and_past_its_room() {
        let mut stack: Lifo<u32, 4> = Lifo::new();
        let mut model: Vec<u32> = Vec::new();
        assert_eq!(stack.pop(), None);
        for round in 0..3u32 {
            for i in 0..(3 + 4 * round) {
                stack.push(round * 100 + i);
                model.push(round * 100 + i);
            }
            for _ in 0..(2 + round) {
                assert_eq!(stack.pop(), model.pop());
            }
            assert_eq!(stack.len(), model.len());
        }
        while let Some(x) = model.pop() {
            assert_eq!(stack.pop(), Some(x));
        }
        assert_eq!(stack.pop(), None);
        assert_eq!(stack.len(), 0);
    }

    /// A small function body, built by hand:
    ///
    /// ```text
    /// s0: x = a + 1
    /// s1: for i, (acc,) in pl.range(0, n, 1, init_values=(x,)):
    /// s2:     if i < n:
    /// s3:         y = pl.yield_(acc)
    ///         else:
    /// s4:         y = pl.yield_(x)
    /// s5:     r = pl.yield_(y)
    /// s6: with pl.scope() as tid:
    /// s7:     (r, a)
    /// s8: return r
    /// ```
    struct Fixture {
        p: Program,
        body: Block,
        s: Vec<StmtId>,
        v: FxHashMap<&'static str, VarId>,
        names: Interner,
    }

    fn fixture() -> Fixture {
        let mut names = Interner::new();
        let mut p = Program::default();
        let index = p.types.scalar(DType::Index);
        let at = Loc::COMPILER;
        let mut v = FxHashMap::default();
        for name in ["a", "n", "x", "i", "acc", "y", "r", "tid"] {
            let sym = names.intern(name);
            v.insert(name, p.new_var(&mut names, sym, index, at));
        }
        let read = |p: &mut Program, name: &str| p.new_expr(ExprKind::Var(v[name]), index, at);
        let int = |p: &mut Program, n: i64| p.new_expr(ExprKind::Int(n), index, at);
        let (a, one) = (read(&mut p, "a"), int(&mut p, 1));
        let sum = p.new_expr(ExprKind::Binary { op: BinOp::Add, lhs: a, rhs: one }, index, at);
        let s0 = p.new_stmt(StmtKind::Assign { var: v["x"], value: sum }, at);
        let (i, n) = (read(&mut p, "i"), read(&mut p, "n"));
        let cond = p.new_expr(ExprKind::Binary { op: BinOp::Lt, lhs: i, rhs: n }, index, at);
        let acc = read(&mut p, "acc");
        let s3 = p.new_stmt(StmtKind::Yield(vec![acc]), at);
        let x = read(&mut p, "x");
        let s4 = p.new_stmt(StmtKind::Yield(vec![x]), at);
        let s2 = p.new_stmt(
            StmtKind::If(Box::new(IfStmt {
                cond,
                then_body: vec![s3],
                else_body: Some(vec![s4]),
                return_vars: vec![v["y"]],
            })),
            at,
        );
        let y = read(&mut p, "y");
        let s5 = p.new_stmt(StmtKind::Yield(vec![y]), at);
        let (start, stop, step, init) = (int(&mut p, 0), read(&mut p, "n"), int(&mut p, 1), read(&mut p, "x"));
        let s1 = p.new_stmt(
            StmtKind::For(Box::new(ForStmt {
                kind: ForKind::Sequential,
                var: v["i"],
                start,
                stop,
                step,
                iter_args: vec![IterArg { var: v["acc"], init }],
                body: vec![s2, s5],
                return_vars: vec![v["r"]],
                attrs: Vec::new(),
            })),
            at,
        );
        let (r, a) = (read(&mut p, "r"), read(&mut p, "a"));
        let pair = p.new_expr(ExprKind::Tuple(vec![r, a].into()), index, at);
        let s7 = p.new_stmt(StmtKind::Eval(pair), at);
        let scope = Scope {
            kind: ScopeKind::Runtime { manual: false },
            name: None,
            task_id: Some(v["tid"]),
            body: vec![s7],
            attrs: Vec::new(),
        };
        let s6 = p.new_stmt(StmtKind::Scope(Box::new(scope)), at);
        let r = read(&mut p, "r");
        let s8 = p.new_stmt(StmtKind::Return(vec![r]), at);
        let body = vec![s0, s1, s6, s8];
        Fixture { p, body, s: vec![s0, s1, s2, s3, s4, s5, s6, s7, s8], v, names }
    }

    fn var_names(f: &Fixture, vars: &[VarId]) -> Vec<String> {
        vars.iter().map(|&v| f.names.get(f.p.var(v).name).to_string()).collect()
    }

    #[test]
    fn statements_are_walked_in_program_order_with_contexts() {
        let f = fixture();
        let mut order = Vec::new();
        walk_stmts(&f.p, &f.body, |s| order.push(s));
        assert_eq!(order, f.s);
        let mut depths = Vec::new();
        walk_stmts_in(&f.p, &f.body, 0, |_, d| {
            depths.push(d);
            d + 1
        });
        assert_eq!(depths, [0, 0, 1, 2, 2, 1, 0, 1, 0]);
        let mut seen = 0;
        assert!(any_stmt(&f.p, &f.body, |s| {
            seen += 1;
            matches!(f.p.stmt(s).kind, StmtKind::Yield(_))
        }));
        assert_eq!(seen, 4, "the walk stops at the first yield");
        assert!(!any_stmt(&f.p, &f.body, |s| matches!(f.p.stmt(s).kind, StmtKind::Break)));
    }

    #[test]
    fn definitions_and_reads_come_in_program_order() {
        let f = fixture();
        let mut defs = Vec::new();
        walk_stmts(&f.p, &f.body, |s| stmt_defs(&f.p, s, |v| defs.push(v)));
        assert_eq!(var_names(&f, &defs), ["x", "i", "acc", "r", "y", "tid"]);
        let mut reads = Vec::new();
        walk_stmts(&f.p, &f.body, |s| stmt_reads(&f.p, s, |v| reads.push(v)));
        assert_eq!(var_names(&f, &reads), ["a", "n", "x", "i", "n", "acc", "x", "y", "r", "a", "r"]);
        // Every node of `a + 1`, the operator first; then the reads of `(r, a)`.
        let StmtKind::Assign { value, .. } = f.p.stmt(f.s[0]).kind else { panic!("an assignment") };
        let mut nodes = Vec::new();
        walk_expr(&f.p, value, |e| nodes.push(f.p.expr(e).kind.clone()));
        assert_eq!(nodes, [f.p.expr(value).kind.clone(), ExprKind::Var(f.v["a"]), ExprKind::Int(1)]);
        let mut by_stmt = Vec::new();
        walk_block_exprs(&f.p, &f.body, |s, e| {
            if let ExprKind::Var(v) = f.p.expr(e).kind {
                by_stmt.push((s, v));
            }
        });
        assert_eq!(by_stmt.first(), Some(&(f.s[0], f.v["a"])));
        assert_eq!(by_stmt.last(), Some(&(f.s[8], f.v["r"])));
    }

    #[test]
    fn a_copy_under_fresh_vars_makes_new_nodes_and_variables_in_order() {
        let mut f = fixture();
        let (vars, exprs, stmts) = (f.p.vars.len(), f.p.exprs.len(), f.p.stmts.len());
        let a2 = f.p.copy_var(f.v["a"]);
        let mut fresh = FreshVars { program: &mut f.p, map: FxHashMap::default() };
        fresh.map.insert(f.v["a"], a2);
        let body = f.body.clone();
        let copy = copy_block(&mut fresh, &body);
        let map = fresh.map;
        // Definitions get fresh variables in the documented order, with the same names.
        let made: Vec<VarId> = (vars as u32 + 1..f.p.vars.len() as u32).map(VarId).collect();
        assert_eq!(var_names(&f, &made), ["x", "acc", "i", "y", "r", "tid"]);
        for name in ["x", "acc", "i", "y", "r", "tid"] {
            assert!(made.contains(&map[&f.v[name]]), "{name}");
        }
        // Every node is new; reads go through the map; `n` is read as it was.
        assert!(copy.iter().all(|s| s.index() >= stmts));
        let mut reads = Vec::new();
        walk_block_exprs(&f.p, &copy, |_, e| {
            assert!(e.index() >= exprs);
            if let ExprKind::Var(v) = f.p.expr(e).kind {
                reads.push(v);
            }
        });
        assert_eq!(reads[0], a2);
        assert!(reads.contains(&f.v["n"]) && !reads.contains(&f.v["x"]) && reads.contains(&map[&f.v["x"]]));
    }

    /// A substitution of reads of `from` by reads of `to`.
    struct Swap<'p> {
        p: &'p mut Program,
        from: VarId,
        to: VarId,
    }

    impl Rewriter for Swap<'_> {
        fn program(&mut self) -> &mut Program {
            self.p
        }
        fn read_var(&mut self, v: VarId) -> VarId {
            if v == self.from {
                self.to
            } else {
                v
            }
        }
    }

    #[test]
    fn a_substitution_copies_only_what_changes() {
        let mut f = fixture();
        let StmtKind::Assign { value, .. } = f.p.stmt(f.s[0]).kind else { panic!("an assignment") };
        let ExprKind::Binary { rhs: one, .. } = f.p.expr(value).kind else { panic!("a sum") };
        let (a, n) = (f.v["a"], f.v["n"]);
        let mut swap = Swap { p: &mut f.p, from: a, to: n };
        let new = substitute(&mut swap, value);
        assert_ne!(new, value);
        let ExprKind::Binary { lhs, rhs, .. } = f.p.expr(new).kind else { panic!("a sum") };
        assert_eq!((f.p.expr(lhs).kind.clone(), rhs), (ExprKind::Var(n), one), "the constant is shared");
        let mut keep = Swap { p: &mut f.p, from: f.v["tid"], to: n };
        assert_eq!(substitute(&mut keep, value), value, "nothing to change: the same node");
        // A plain copy.
        let copy = copy_expr(&mut f.p, value);
        assert_ne!(copy, value);
        assert_eq!(f.p.expr(copy).ty, f.p.expr(value).ty);
    }

    #[test]
    fn reads_are_renamed_in_place_and_types_follow_their_extents() {
        let mut f = fixture();
        let (x, a) = (f.v["x"], f.v["a"]);
        let body = f.body.clone();
        rename_reads(&mut f.p, &body, |v| (v == x).then_some(a));
        let mut reads = Vec::new();
        walk_block_exprs(&f.p, &body, |_, e| {
            if let ExprKind::Var(v) = f.p.expr(e).kind {
                reads.push(v);
            }
        });
        assert!(!reads.contains(&x));
        let mut defs = Vec::new();
        walk_stmts(&f.p, &body, |s| stmt_defs(&f.p, s, |v| defs.push(v)));
        assert_eq!(defs[0], x, "definitions stay");

        let n = f.v["n"];
        let tensor = |d: Dim| Type::tensor(vec![d, Dim::Const(64)], DType::Fp32);
        let with_n = f.p.types.intern(tensor(Dim::Var(n)));
        let with_a = f.p.types.intern(tensor(Dim::Var(a)));
        let pair = f.p.types.intern(Type::Tuple(vec![with_n, Types::NONE]));
        assert!(type_mentions_vars(&f.p.types, pair));
        let mapped = map_type_vars(&mut f.p, pair, &mut |_, v| Dim::Var(if v == n { a } else { v }));
        assert_eq!(f.p.types.get(mapped), &Type::Tuple(vec![with_a, Types::NONE]));
        let constant = f.p.types.intern(tensor(Dim::Const(8)));
        assert_eq!(map_type_vars(&mut f.p, constant, &mut |_, _| unreachable!("no variable")), constant);
    }

    #[test]
    fn wide_trees_are_walked_and_substituted_in_order() {
        let mut f = fixture();
        let index = f.p.types.scalar(DType::Index);
        let at = Loc::COMPILER;
        let (a, n, x) = (f.v["a"], f.v["n"], f.v["x"]);
        // A tuple wider than a walk's in-place stack: `x + 0, ..., x + 98, a + 99`.
        let (mut items, mut preorder) = (Vec::new(), Vec::new());
        for i in 0..100 {
            let r = f.p.new_expr(ExprKind::Var(if i == 99 { a } else { x }), index, at);
            let c = f.p.new_expr(ExprKind::Int(i), index, at);
            let sum = f.p.new_expr(ExprKind::Binary { op: BinOp::Add, lhs: r, rhs: c }, index, at);
            items.push(sum);
            preorder.extend([sum, r, c]);
        }
        let tuple = f.p.new_expr(ExprKind::Tuple(items.clone().into()), index, at);
        let mut order = Vec::new();
        walk_expr(&f.p, tuple, |e| order.push(e));
        assert_eq!(order[0], tuple);
        assert_eq!(order[1..], preorder[..]);
        let mut seen = 0;
        assert!(!all_exprs(&f.p, tuple, |e| {
            seen += 1;
            !matches!(f.p.expr(e).kind, ExprKind::Var(v) if v == a)
        }));
        assert_eq!(seen, 1 + 3 * 99 + 2, "the walk stops at the read of `a`");
        // A call `g(x, <absent>, x, device=a)`: arguments, then attributes.
        let g = f.names.intern("g");
        let (x1, x2, dev) = (
            f.p.new_expr(ExprKind::Var(x), index, at),
            f.p.new_expr(ExprKind::Var(x), index, at),
            f.p.new_expr(ExprKind::Var(a), index, at),
        );
        let mut attrs = CallAttrs::none();
        attrs.make_mut().device = Some(dev);
        let callee = Callee::Func(g);
        let call =
            f.p.new_expr(ExprKind::Call { callee, args: vec![Some(x1), None, Some(x2)].into(), attrs }, index, at);
        let mut order = Vec::new();
        walk_expr(&f.p, call, |e| order.push(e));
        assert_eq!(order, [call, x1, x2, dev]);
        // Only the nodes on the way to a read of `a` are new; the rest are shared.
        let mut swap = Swap { p: &mut f.p, from: a, to: n };
        let new_tuple = substitute(&mut swap, tuple);
        let new_call = substitute(&mut swap, call);
        let ExprKind::Tuple(new_items) = &f.p.expr(new_tuple).kind else { panic!("a tuple") };
        assert_eq!(new_items[..99], items[..99]);
        assert_ne!(new_items[99], items[99]);
        let ExprKind::Call { args, attrs, .. } = &f.p.expr(new_call).kind else { panic!("a call") };
        assert_eq!(&args[..], &[Some(x1), None, Some(x2)]);
        let device = attrs.device.map(|d| f.p.expr(d).kind.clone());
        assert_eq!(device, Some(ExprKind::Var(n)));
    }

    #[test]
    fn walks_are_iterative_at_any_depth() {
        let mut f = fixture();
        let index = f.p.types.scalar(DType::Index);
        let mut e = f.p.new_expr(ExprKind::Var(f.v["a"]), index, Loc::COMPILER);
        let mut block = f.body.clone();
        for _ in 0..100_000 {
            e = f.p.new_expr(ExprKind::Unary { op: UnOp::Neg, operand: e }, index, Loc::COMPILER);
            let scope = Scope {
                kind: ScopeKind::Runtime { manual: true },
                name: None,
                task_id: None,
                body: block,
                attrs: Vec::new(),
            };
            block = vec![f.p.new_stmt(StmtKind::Scope(Box::new(scope)), Loc::COMPILER)];
        }
        let mut count = 0;
        walk_stmts(&f.p, &block, |_| count += 1);
        assert_eq!(count, 100_000 + 9);
        let mut reads = Vec::new();
        expr_reads(&f.p, e, |v| reads.push(v));
        assert_eq!(reads, [f.v["a"]]);
    }
}
