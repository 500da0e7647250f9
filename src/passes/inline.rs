//! InlineFunctions: every call of an `Inline` function is replaced by a copy of the
//! function's body, and then the Inline functions are removed from the program.
//!
//! ```text
//! def square(self, x): y = pl.mul(x, x); return y        # Inline
//! def main(self, a, q: Out):
//!     z = self.square(a)              ->    y_inline0 = pl.mul(a, a)
//!                                           z = y_inline0
//! ```
//!
//! The pass runs first, on IR that is not in SSA form yet, in four steps:
//!
//! 1. One scan of every function finds its calls of Inline functions and the calls that
//!    cannot be spliced: one in a `while` condition (E0408), the value of a function that
//!    returns nothing (E0409). An Inline function that is called and has a `return` that is
//!    not its last statement is E0407. A program without Inline functions is left as it is.
//! 2. A depth-first search over the calls between Inline functions finds the cycles (E0406,
//!    `a -> b -> a`, at the first function of the cycle). Any error stops the pass before
//!    anything is spliced.
//! 3. The Inline functions are rewritten callee first (the search's post-order), so that
//!    each body is spliced already free of Inline calls; then every other function that
//!    calls one, in program order. Functions without such calls are not touched.
//! 4. The Inline functions are removed.
//!
//! Splicing a call `f(args)` puts the body's statements before the statement that holds the
//! call, and replaces the call by the returned value:
//!
//! * a parameter stands for its argument: an `Out`/`InOut` parameter given a variable *is*
//!   that variable, also where the body assigns it (`o = pl.assemble(o, ...)` rebinds the
//!   caller's variable); an `In` parameter given a variable or a constant is replaced by it
//!   when the body does not assign it (and, for a constant, does not use it as an operand
//!   of a scalar operator: `3 - 1` would be folded when the printed IR is read again); any
//!   other argument is first bound to a fresh variable;
//! * every variable the body defines gets a fresh variable named `<name>_inline<N>`, where
//!   `N` counts the splices in the calling function (0, 1, ...), with `_<k>` added when the
//!   name is already taken in the caller;
//! * `x = f(...)` becomes `x = <returned value>` (nothing when the value is `x` itself), a
//!   call as a statement drops the value, a call inside an expression (`pl.add(f(a), a)`,
//!   `f(n) + 1`, a loop bound) has its value bound to a variable `<f>_inline<N>` that the
//!   expression reads, as PyPTO hoists such a call, `return f(...)` returns the values (also in lowering's form of it for several
//!   values, `t = f(...)` then `return t[0], t[1]`);
//! * a function returning several values is called as `t = f(...)` followed by `a = t[0]`,
//!   `b = t[1]` (tuple unpacking): these become `a = r0`, `b = r1`. When the temporary is
//!   used otherwise (assigned twice, used as a whole, or a target would overwrite a value
//!   a later element reads), each element gets a variable `<t>_item<k>` and `t[k]` reads it.

use super::PassCx;
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::visit::{self, Rewriter};
use crate::ir::{
    Block, Callee, Dim, Direction, Expr, ExprId, ExprKind, FuncKind, Loc, Param, Program, StmtId, StmtKind, Type,
    TypeId, VarId,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Runs InlineFunctions over one program.
pub fn run(cx: &mut PassCx<'_>, program: &mut Program) {
    let inline: Vec<Symbol> =
        program.functions.values().filter(|f| f.decl.kind == FuncKind::Inline).map(|f| f.name).collect();
    if inline.is_empty() {
        return;
    }
    let is_inline: FxHashSet<Symbol> = inline.iter().copied().collect();
    // Whether each Inline function's body ends in a return of at least one value.
    let gives_value: FxHashSet<Symbol> =
        inline.iter().copied().filter(|f| !trailing_return(program, *f).is_empty()).collect();

    // 1. The calls of every function, and the ones that cannot be spliced.
    let mut errors = Vec::new();
    let mut calls: FxHashMap<Symbol, Vec<(Symbol, Loc)>> = FxHashMap::default();
    let mut called: FxHashMap<Symbol, Loc> = FxHashMap::default();
    for f in program.functions.values() {
        let found = scan(program, cx.names, &f.body, &is_inline, &gives_value, &mut errors);
        for &(g, loc) in &found {
            called.entry(g).or_insert(loc);
        }
        calls.insert(f.name, found);
    }
    for &f in &inline {
        if let Some(&at) = called.get(&f) {
            early_returns(program, cx.names, f, at, &mut errors);
        }
    }

    // 2. Cycles among Inline functions, and the order to rewrite them in.
    let order = callee_first(program, cx.names, &inline, &calls, &mut errors);
    if !errors.is_empty() {
        crate::diag::sort(&mut errors);
        cx.diags.extend(errors);
        return;
    }

    // 3. Splice, callee first.
    let mut bodies: FxHashMap<Symbol, Body> = FxHashMap::default();
    for &f in &order {
        if !calls[&f].is_empty() {
            rewrite_function(program, cx.names, &bodies, &is_inline, f);
        }
        bodies.insert(f, Body::of(program, f));
    }
    let callers: Vec<Symbol> = program
        .functions
        .values()
        .filter(|f| f.decl.kind != FuncKind::Inline && !calls[&f.name].is_empty())
        .map(|f| f.name)
        .collect();
    for f in callers {
        rewrite_function(program, cx.names, &bodies, &is_inline, f);
    }

    // 4. The Inline functions go.
    program.functions.retain(|_, f| f.decl.kind != FuncKind::Inline);
}

/// The values of the `return` that ends a function's body (empty when there is none).
fn trailing_return(program: &Program, f: Symbol) -> Vec<ExprId> {
    let body = &program.functions[&f].body;
    match body.last().map(|&s| &program.stmt(s).kind) {
        Some(StmtKind::Return(values)) => values.clone(),
        _ => Vec::new(),
    }
}

/// The calls of Inline functions in a function body, in order, with their locations.
/// Reports a call in a `while` condition (E0408) and the use of the value of a function that
/// returns none (E0409).
fn scan(
    program: &Program,
    names: &Interner,
    body: &[StmtId],
    is_inline: &FxHashSet<Symbol>,
    gives_value: &FxHashSet<Symbol>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(Symbol, Loc)> {
    let mut found = Vec::new();
    visit::walk_stmts(program, body, |s| {
        let kind = &program.stmt(s).kind;
        let in_while = match kind {
            StmtKind::While(while_) => Some(while_.cond),
            _ => None,
        };
        visit::stmt_exprs(program, s, |root| {
            visit::walk_expr(program, root, |e| {
                // A call that is a statement of its own does not need a value.
                let needs_value = e != root || !matches!(kind, StmtKind::Eval(x) if *x == root);
                let expr = program.expr(e);
                if let ExprKind::Call { callee: Callee::Func(g), .. } = &expr.kind {
                    if is_inline.contains(g) {
                        found.push((*g, expr.loc));
                        let name = names.get(*g);
                        if in_while == Some(root) {
                            errors.push(
                                Diagnostic::error(
                                    Code::E0408,
                                    format!("the Inline function `{name}` is called in a `while` condition"),
                                    Label::primary(expr.loc.file, expr.loc.span, "evaluated before every iteration"),
                                )
                                .with_help(
                                    "compute the condition into a variable before the loop and at the end of its body"
                                        .to_string(),
                                ),
                            );
                        } else if needs_value && !gives_value.contains(g) {
                            let at = program.functions[g].loc;
                            errors.push(
                                Diagnostic::error(
                                    Code::E0409,
                                    format!("the Inline function `{name}` returns no value, but this call uses one"),
                                    Label::primary(expr.loc.file, expr.loc.span, "used as a value"),
                                )
                                .with_label(Label::secondary(
                                    at.file,
                                    at.span,
                                    format!("`{name}` is defined here"),
                                )),
                            );
                        }
                    }
                }
            });
        });
    });
    found
}

/// E0407 for each `return` of an Inline function that is not its last statement.
fn early_returns(program: &Program, names: &Interner, f: Symbol, call: Loc, errors: &mut Vec<Diagnostic>) {
    let func = &program.functions[&f];
    let last = func.body.last().copied();
    let name = names.get(f);
    visit::walk_stmts(program, &func.body, |s| {
        if matches!(program.stmt(s).kind, StmtKind::Return(_)) && Some(s) != last {
            let loc = program.stmt(s).loc;
            errors.push(
                Diagnostic::error(
                    Code::E0407,
                    format!("the Inline function `{name}` returns before its last statement"),
                    Label::primary(loc.file, loc.span, "an early return cannot be spliced into a caller"),
                )
                .with_label(Label::secondary(call.file, call.span, format!("`{name}` is called here")))
                .with_help("assign the value to a variable and return it once, at the end of the function".to_string()),
            );
        }
    });
}

/// A depth-first search over the calls between Inline functions (in program order): each
/// back edge is a cycle, reported as E0406 at the function where the cycle starts. Returns
/// the Inline functions in post-order (every function after the Inline functions it calls).
fn callee_first(
    program: &Program,
    names: &Interner,
    inline: &[Symbol],
    calls: &FxHashMap<Symbol, Vec<(Symbol, Loc)>>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Symbol> {
    // The distinct Inline callees of each Inline function, with the first call of each.
    let mut edges: FxHashMap<Symbol, Vec<(Symbol, Loc)>> = FxHashMap::default();
    for &f in inline {
        let mut seen = FxHashSet::default();
        edges.insert(f, calls[&f].iter().copied().filter(|(g, _)| seen.insert(*g)).collect());
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Color {
        White,
        Gray,
        Black,
    }
    let mut color: FxHashMap<Symbol, Color> = inline.iter().map(|&f| (f, Color::White)).collect();
    let mut order = Vec::with_capacity(inline.len());
    for &root in inline {
        if color[&root] != Color::White {
            continue;
        }
        // (function, index of its next edge, the call that led to it)
        let mut stack: Vec<(Symbol, usize, Loc)> = vec![(root, 0, Loc::COMPILER)];
        color.insert(root, Color::Gray);
        while let Some(top) = stack.last_mut() {
            let (f, next, _) = *top;
            let Some(&(g, at)) = edges[&f].get(next) else {
                color.insert(f, Color::Black);
                order.push(f);
                stack.pop();
                continue;
            };
            top.1 += 1;
            match color[&g] {
                Color::White => {
                    color.insert(g, Color::Gray);
                    stack.push((g, 0, at));
                }
                Color::Gray => {
                    let start = stack.iter().position(|frame| frame.0 == g).expect("a gray function is on the stack");
                    errors.push(cycle(program, names, &stack[start..], at));
                }
                Color::Black => {}
            }
        }
    }
    order
}

/// The E0406 diagnostic of a cycle: `path` from the function the cycle starts at to the one
/// whose call `back` closes it.
fn cycle(program: &Program, names: &Interner, path: &[(Symbol, usize, Loc)], back: Loc) -> Diagnostic {
    let first = path[0].0;
    let mut text: Vec<&str> = path.iter().map(|frame| names.get(frame.0)).collect();
    text.push(names.get(first));
    let text = text.join(" -> ");
    let message = if path.len() == 1 {
        format!("the Inline function `{}` calls itself: {text}", names.get(first))
    } else {
        format!("Inline functions call each other in a cycle: {text}")
    };
    let at = program.functions[&first].loc;
    let mut d = Diagnostic::error(Code::E0406, message, Label::primary(at.file, at.span, "the cycle starts here"));
    // The call each function of the cycle makes of the next one.
    for (k, frame) in path.iter().enumerate() {
        let (callee, loc) = match path.get(k + 1) {
            Some(next) => (next.0, next.2),
            None => (first, back),
        };
        d = d.with_label(Label::secondary(
            loc.file,
            loc.span,
            format!("`{}` calls `{}` here", names.get(frame.0), names.get(callee)),
        ));
    }
    d.with_help("make one of them a function of its own (drop `Inline`), or break the cycle".to_string())
}

/// An Inline function ready to be spliced (its own Inline calls already are).
struct Body {
    params: Vec<Param>,
    /// The statements before the trailing `return`.
    stmts: Vec<StmtId>,
    /// The values of the trailing `return`.
    values: Vec<ExprId>,
    /// For each parameter: whether the body assigns it.
    assigned: Vec<bool>,
    /// For each parameter: whether it is an operand of a scalar operator (`n - 1`), where a
    /// constant would be folded when the printed IR is read again.
    operand: Vec<bool>,
}

impl Body {
    fn of(program: &Program, f: Symbol) -> Body {
        let func = &program.functions[&f];
        let values = trailing_return(program, f);
        let mut stmts = func.body.clone();
        if matches!(stmts.last().map(|&s| &program.stmt(s).kind), Some(StmtKind::Return(_))) {
            stmts.pop();
        }
        let mut defined = FxHashSet::default();
        visit::walk_stmts(program, &stmts, |s| {
            visit::stmt_defs(program, s, |v| {
                defined.insert(v);
            })
        });
        let assigned = func.params.iter().map(|p| defined.contains(&p.var)).collect();
        let mut operands = FxHashSet::default();
        let mut operand_of = |e: ExprId| match program.expr(e).kind {
            ExprKind::Binary { lhs, rhs, .. } => {
                for x in [lhs, rhs] {
                    if let ExprKind::Var(v) = program.expr(x).kind {
                        operands.insert(v);
                    }
                }
            }
            ExprKind::Unary { operand, .. } => {
                if let ExprKind::Var(v) = program.expr(operand).kind {
                    operands.insert(v);
                }
            }
            _ => {}
        };
        for &e in &values {
            visit::walk_expr(program, e, &mut operand_of);
        }
        visit::walk_block_exprs(program, &stmts, |_, e| operand_of(e));
        let operand = func.params.iter().map(|p| operands.contains(&p.var)).collect();
        Body { params: func.params.clone(), stmts, values, assigned, operand }
    }
}

/// Splices every Inline call of function `f`.
fn rewrite_function(
    program: &mut Program,
    names: &mut Interner,
    bodies: &FxHashMap<Symbol, Body>,
    is_inline: &FxHashSet<Symbol>,
    f: Symbol,
) {
    let func = &program.functions[&f];
    let body = func.body.clone();
    // The names the caller uses, and how often each tuple-valued variable is defined and
    // read (for the tuple unpacking pattern).
    let mut used: FxHashSet<Symbol> = program.dynamic_dims.iter().copied().collect();
    let mut tuple_defs: FxHashMap<VarId, u32> = FxHashMap::default();
    let mut tuple_uses: FxHashMap<VarId, u32> = FxHashMap::default();
    for p in &func.params {
        used.insert(program.var(p.var).name);
    }
    let is_tuple = |v: VarId| matches!(program.types.get(program.var(v).ty), Type::Tuple(_));
    visit::walk_stmts(program, &body, |s| {
        visit::stmt_defs(program, s, |v| {
            used.insert(program.var(v).name);
            if is_tuple(v) {
                *tuple_defs.entry(v).or_default() += 1;
            }
        });
        visit::stmt_reads(program, s, |v| {
            used.insert(program.var(v).name);
            if is_tuple(v) {
                *tuple_uses.entry(v).or_default() += 1;
            }
        });
    });
    let mut splicer = Splicer {
        p: program,
        names,
        bodies,
        is_inline,
        used,
        splices: 0,
        tuple_defs,
        tuple_uses,
        items: FxHashMap::default(),
    };
    let body = splicer.block(body);
    program.functions.get_mut(&f).expect("the function exists").body = body;
}

/// Rewrites one calling function, in place.
struct Splicer<'a> {
    p: &'a mut Program,
    names: &'a mut Interner,
    bodies: &'a FxHashMap<Symbol, Body>,
    is_inline: &'a FxHashSet<Symbol>,
    /// Every variable name of the caller, the fresh ones included.
    used: FxHashSet<Symbol>,
    /// The number of calls spliced so far (the `N` of `_inline<N>`).
    splices: u32,
    tuple_defs: FxHashMap<VarId, u32>,
    tuple_uses: FxHashMap<VarId, u32>,
    /// Tuple temporaries replaced by one variable per element.
    items: FxHashMap<VarId, Vec<VarId>>,
}

/// The renaming of one splice: callee variables to caller variables, parameters to the
/// constants they stand for.
#[derive(Default)]
struct Renaming {
    vars: FxHashMap<VarId, VarId>,
    consts: FxHashMap<VarId, ExprId>,
    names: FxHashMap<Symbol, Symbol>,
    types: FxHashMap<TypeId, TypeId>,
    n: u32,
}

impl Splicer<'_> {
    /// The callee and arguments of `e` when it calls an Inline function.
    fn inline_call(&self, e: ExprId) -> Option<(Symbol, Vec<Option<ExprId>>)> {
        match &self.p.expr(e).kind {
            ExprKind::Call { callee: Callee::Func(f), args, .. } if self.is_inline.contains(f) => {
                Some((*f, args.to_vec()))
            }
            _ => None,
        }
    }

    fn block(&mut self, block: Block) -> Block {
        let mut out = Vec::with_capacity(block.len());
        let mut i = 0;
        while i < block.len() {
            i += self.stmt(&block, i, &mut out);
        }
        out
    }

    fn set_kind(&mut self, s: StmtId, kind: StmtKind) {
        self.p.stmts[s.index()].kind = kind;
    }

    /// Rewrites `block[i]` into `out`; returns how many statements of `block` it consumed.
    fn stmt(&mut self, block: &[StmtId], i: usize, out: &mut Block) -> usize {
        let s = block[i];
        match self.p.stmt(s).kind.clone() {
            StmtKind::Assign { var, value } => {
                let Some((f, args)) = self.inline_call(value) else {
                    self.expr(value, out);
                    out.push(s);
                    return 1;
                };
                let values = self.splice(f, &args, out);
                match values.as_slice() {
                    [] => {}
                    [one] => {
                        if !matches!(self.p.expr(*one).kind, ExprKind::Var(v) if v == var) {
                            self.replace(value, *one);
                            out.push(s);
                        }
                    }
                    _ => return self.tuple_assign(block, i, var, &values, out),
                }
            }
            StmtKind::Eval(e) => match self.inline_call(e) {
                Some((f, args)) => {
                    self.splice(f, &args, out);
                }
                None => {
                    self.expr(e, out);
                    out.push(s);
                }
            },
            StmtKind::Return(values) => {
                let expanded = match values.as_slice() {
                    [one] => self.inline_call(*one),
                    _ => None,
                };
                match expanded {
                    Some((f, args)) => {
                        let values = self.splice(f, &args, out);
                        self.set_kind(s, StmtKind::Return(values));
                    }
                    None => values.iter().for_each(|&e| self.expr(e, out)),
                }
                out.push(s);
            }
            mut kind => {
                // Any other statement: its expressions in order, then its blocks. (A `while`
                // condition holds no Inline call, the scan refused those: only tuple
                // temporaries are rewritten in it.)
                let mut roots = Vec::new();
                visit::stmt_exprs(self.p, s, |e| roots.push(e));
                for e in roots {
                    self.expr(e, out);
                }
                visit::map_stmt_blocks(&mut kind, |b| self.block(b));
                self.set_kind(s, kind);
                out.push(s);
            }
        }
        1
    }

    /// `t = f(...)` where `f` returns several values: the unpacking assignments that follow
    /// take the values directly when that is safe, otherwise each element gets a variable.
    fn tuple_assign(&mut self, block: &[StmtId], i: usize, t: VarId, values: &[ExprId], out: &mut Block) -> usize {
        let uses = self.tuple_uses.get(&t).copied().unwrap_or(0) as usize;
        if let Some(consumed) = self.tuple_return(block, i, t, values, uses, out) {
            return consumed;
        }
        let mut group = Vec::new();
        for &s in block[i + 1..].iter().take(uses) {
            let StmtKind::Assign { var, value } = self.p.stmt(s).kind else { break };
            let ExprKind::TupleGet { tuple, index } = self.p.expr(value).kind else { break };
            if !matches!(self.p.expr(tuple).kind, ExprKind::Var(v) if v == t) || index as usize >= values.len() {
                break;
            }
            group.push((s, var, value, index as usize));
        }
        let direct = self.tuple_defs.get(&t) == Some(&1)
            && group.len() == uses
            && group.iter().enumerate().all(|(k, &(_, _, _, index))| {
                // No earlier target of the group may be read by this element's value.
                let read = self.vars_of(values[index]);
                group[..k].iter().all(|&(_, earlier, _, _)| !read.contains(&earlier))
            });
        if direct {
            for &(s, var, value, index) in &group {
                if matches!(self.p.expr(values[index]).kind, ExprKind::Var(v) if v == var) {
                    continue;
                }
                let copy = self.copy(values[index]);
                self.replace(value, copy);
                out.push(s);
            }
            return 1 + group.len();
        }
        let items = match self.items.get(&t) {
            Some(items) => items.clone(),
            None => {
                let base = self.names.get(self.p.var(t).name).to_string();
                let loc = self.p.var(t).loc;
                let items: Vec<VarId> = values
                    .iter()
                    .enumerate()
                    .map(|(k, &e)| {
                        let name = self.fresh_name(&format!("{base}_item{k}"));
                        let ty = self.p.expr(e).ty;
                        self.p.new_var(self.names, name, ty, loc)
                    })
                    .collect();
                self.items.insert(t, items.clone());
                items
            }
        };
        let loc = self.p.stmt(block[i]).loc;
        for (&var, &value) in items.iter().zip(values) {
            let s = self.p.new_stmt(StmtKind::Assign { var, value }, loc);
            out.push(s);
        }
        1
    }

    /// `t = f(...)` followed by `return t[0], t[1], ...` (lowering's form of
    /// `return f(...)`): the return takes the values directly, as PyPTO's
    /// `return inline_call(...)` does, when `t` is read nowhere else.
    fn tuple_return(
        &mut self,
        block: &[StmtId],
        i: usize,
        t: VarId,
        values: &[ExprId],
        uses: usize,
        out: &mut Block,
    ) -> Option<usize> {
        let &s = block.get(i + 1)?;
        let StmtKind::Return(read) = self.p.stmt(s).kind.clone() else { return None };
        let all = read.len() == values.len()
            && read.len() == uses
            && self.tuple_defs.get(&t) == Some(&1)
            && read.iter().enumerate().all(|(k, &e)| match self.p.expr(e).kind {
                ExprKind::TupleGet { tuple, index } => {
                    index as usize == k && matches!(self.p.expr(tuple).kind, ExprKind::Var(v) if v == t)
                }
                _ => false,
            });
        if !all {
            return None;
        }
        let direct = values.iter().map(|&e| self.copy(e)).collect();
        self.set_kind(s, StmtKind::Return(direct));
        out.push(s);
        Some(2)
    }

    /// The variables an expression reads.
    fn vars_of(&self, root: ExprId) -> Vec<VarId> {
        let mut vars = Vec::new();
        visit::expr_reads(self.p, root, |v| vars.push(v));
        vars
    }

    /// Rewrites an expression of the caller in place: Inline calls inside it are spliced
    /// (their statements go to `out`) and replaced by their values; reads of tuple
    /// temporaries become reads of their elements.
    fn expr(&mut self, e: ExprId, out: &mut Block) {
        self.operand(e, false, out);
    }

    /// [`Self::expr`] of an expression that is (`operand`) or is not an operand of a scalar
    /// operator.
    fn operand(&mut self, e: ExprId, operand: bool, out: &mut Block) {
        match self.p.expr(e).kind.clone() {
            ExprKind::Call { callee: Callee::Func(f), args, .. } if self.is_inline.contains(&f) => {
                let values = self.splice(f, &args, out);
                match values.as_slice() {
                    // A call nested in an expression: its value is bound to a variable
                    // first, as PyPTO hoists such a call (`pl.add(f(a), a)` becomes
                    // `t = <value>` then `pl.add(t, a)`).
                    [one] => self.bind(e, *one, f, out),
                    _ => {
                        let ty = self.p.expr(e).ty;
                        let value = self.p.new_expr(ExprKind::Tuple(values.into()), ty, self.p.expr(e).loc);
                        self.place(e, value, operand, f, out);
                    }
                }
            }
            ExprKind::TupleGet { tuple, index } => {
                let index = index as usize;
                match self.p.expr(tuple).kind.clone() {
                    ExprKind::Var(t) if self.items.contains_key(&t) => {
                        let item = self.items[&t][index];
                        let ty = self.p.var(item).ty;
                        self.p.exprs[e.index()].kind = ExprKind::Var(item);
                        self.p.exprs[e.index()].ty = ty;
                    }
                    ExprKind::Call { callee: Callee::Func(f), args, .. } if self.is_inline.contains(&f) => {
                        let values = self.splice(f, &args, out);
                        self.place(e, values[index], operand, f, out);
                    }
                    _ => self.expr(tuple, out),
                }
            }
            ExprKind::Var(t) if self.items.contains_key(&t) => {
                let items = self.items[&t].clone();
                let loc = self.p.expr(e).loc;
                let reads = items
                    .iter()
                    .map(|&v| {
                        let ty = self.p.var(v).ty;
                        self.p.new_expr(ExprKind::Var(v), ty, loc)
                    })
                    .collect();
                self.p.exprs[e.index()].kind = ExprKind::Tuple(reads);
            }
            kind => {
                let arithmetic = matches!(kind, ExprKind::Binary { .. } | ExprKind::Unary { .. });
                let mut children = Vec::new();
                visit::expr_children(self.p, e, |c| children.push(c));
                for c in children {
                    self.operand(c, arithmetic, out);
                }
            }
        }
    }

    /// Puts the value of a spliced call of `f` in the place of the call `e`. A constant
    /// operand of a scalar operator (`four() + 1`) is bound to a variable `<f>_inline<N>`
    /// first: reading `4 + 1` back would fold it, and the printed IR would not read back to
    /// itself.
    fn place(&mut self, e: ExprId, value: ExprId, operand: bool, f: Symbol, out: &mut Block) {
        let constant = matches!(self.p.expr(value).kind, ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_));
        if !(operand && constant) {
            self.replace(e, value);
            return;
        }
        self.bind(e, value, f, out);
    }

    /// Binds `value` to a fresh variable `<f>_inline<N>` (an assignment in `out`) and
    /// makes the call `e` a read of it.
    fn bind(&mut self, e: ExprId, value: ExprId, f: Symbol, out: &mut Block) {
        let base = format!("{}_inline{}", self.names.get(f), self.splices - 1);
        let name = self.fresh_name(&base);
        let Expr { ty, loc, .. } = *self.p.expr(value);
        let var = self.p.new_var(self.names, name, ty, loc);
        let s = self.p.new_stmt(StmtKind::Assign { var, value }, loc);
        out.push(s);
        let slot = &mut self.p.exprs[e.index()];
        slot.kind = ExprKind::Var(var);
        slot.ty = ty;
    }

    /// Makes expression `e` (a call) the value `with` (a node made for it), keeping the
    /// call's location.
    fn replace(&mut self, e: ExprId, with: ExprId) {
        let Expr { kind, ty, .. } = self.p.expr(with).clone();
        let slot = &mut self.p.exprs[e.index()];
        slot.kind = kind;
        slot.ty = ty;
    }

    /// A deep copy of an expression.
    fn copy(&mut self, e: ExprId) -> ExprId {
        visit::copy_expr(self.p, e)
    }

    /// A name not used in the caller yet: `base`, or `base_1`, `base_2`, ...
    fn fresh_name(&mut self, base: &str) -> Symbol {
        self.names.fresh(base, &mut self.used)
    }

    /// Splices a call of `f` with `args` (the caller's expressions): the arguments' own
    /// Inline calls first, then bindings of the arguments that need a variable, then a copy
    /// of the body, all into `out`. Returns copies of the returned values.
    fn splice(&mut self, f: Symbol, args: &[Option<ExprId>], out: &mut Block) -> Vec<ExprId> {
        for a in args.iter().flatten() {
            self.expr(*a, out);
        }
        let bodies = self.bodies;
        let body = &bodies[&f];
        let mut r = Renaming { n: self.splices, ..Renaming::default() };
        self.splices += 1;
        let mut rw = Splice { sp: self, r: &mut r };
        for (k, (param, &arg)) in body.params.iter().zip(args).enumerate() {
            let arg = arg.expect("the verifier requires every argument of a function call");
            let (assigned, operand) = (body.assigned[k], body.operand[k]);
            match &rw.sp.p.expr(arg).kind {
                &ExprKind::Var(v) if param.dir != Direction::In || !assigned => {
                    rw.r.vars.insert(param.var, v);
                }
                k if (k.is_literal() || matches!(k, ExprKind::DynDim(_))) && !assigned && !operand => {
                    rw.r.consts.insert(param.var, arg);
                }
                _ => {
                    let var = rw.var(param.var);
                    let loc = rw.sp.p.expr(arg).loc;
                    let s = rw.sp.p.new_stmt(StmtKind::Assign { var, value: arg }, loc);
                    out.push(s);
                }
            }
        }
        for &s in &body.stmts {
            let s = visit::copy_stmt(&mut rw, s);
            out.push(s);
        }
        body.values.iter().map(|&e| visit::copy_expr(&mut rw, e)).collect()
    }
}

/// The rewriter of one splice: the callee's variables become the caller's (an argument, or
/// a fresh `<name>_inline<N>`), a parameter bound to a constant becomes a copy of it, and
/// the types of the copy follow (`pl.Tensor[[n, n], ...]` with `n` bound to 4 becomes
/// `pl.Tensor[[4, 4], ...]`).
struct Splice<'s, 'a> {
    sp: &'s mut Splicer<'a>,
    r: &'s mut Renaming,
}

impl Rewriter for Splice<'_, '_> {
    fn program(&mut self) -> &mut Program {
        self.sp.p
    }

    fn def_var(&mut self, v: VarId) -> VarId {
        self.var(v)
    }

    fn read_var(&mut self, v: VarId) -> VarId {
        self.var(v)
    }

    fn replace_read(&mut self, _: ExprId, v: VarId) -> Option<ExprId> {
        let c = *self.r.consts.get(&v)?;
        Some(visit::copy_expr(self.sp.p, c))
    }

    /// A callee type with the callee's variables in its extents renamed.
    fn map_type(&mut self, ty: TypeId) -> TypeId {
        if !visit::type_mentions_vars(&self.sp.p.types, ty) {
            return ty;
        }
        if let Some(&done) = self.r.types.get(&ty) {
            return done;
        }
        let id = visit::map_type_vars(self, ty, &mut |rw, v| rw.dim(v));
        self.r.types.insert(ty, id);
        id
    }
}

impl Splice<'_, '_> {
    /// The caller's variable for callee variable `v`: the argument it stands for, or a fresh
    /// variable `<name>_inline<N>`.
    fn var(&mut self, v: VarId) -> VarId {
        if let Some(&mapped) = self.r.vars.get(&v) {
            return mapped;
        }
        let data = self.sp.p.var(v).clone();
        let name = match self.r.names.get(&data.name) {
            Some(&name) => name,
            None => {
                let base = format!("{}_inline{}", self.sp.names.get(data.name), self.r.n);
                let name = self.sp.fresh_name(&base);
                self.r.names.insert(data.name, name);
                name
            }
        };
        let ty = self.map_type(data.ty);
        let fresh = self.sp.p.new_var(self.sp.names, name, ty, data.loc);
        self.r.vars.insert(v, fresh);
        fresh
    }

    /// An extent naming callee variable `v`: the constant the parameter stands for, or the
    /// caller's variable.
    fn dim(&mut self, v: VarId) -> Dim {
        match self.r.consts.get(&v).map(|&c| &self.sp.p.expr(c).kind) {
            Some(ExprKind::Int(n)) => Dim::Const(*n),
            Some(ExprKind::DynDim(n)) => Dim::Dyn(*n),
            Some(_) => Dim::Unknown,
            None => Dim::Var(self.var(v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Compilation, Input, PipelineSpec, StopAt};

    const T: &str = "pl.Tensor[[64], pl.FP32]";

    /// A program whose `@pl.program class P:` has the body `body`, in which `$I` stands
    /// for the decorator of an Inline function and `$T` for a tensor type.
    fn program(body: &str) -> String {
        let body = body.replace("$I", "@pl.function(type=pl.FunctionType.Inline)").replace("$T", T);
        format!("import pypto.language as pl\n\n@pl.program\nclass P:\n{body}")
    }

    /// `body`'s program, lowered without a diagnostic; InlineFunctions runs at the next
    /// [`Compilation::step`], its result verified.
    fn lowered(body: &str) -> Compilation {
        let spec = PipelineSpec::passes("InlineFunctions").verified();
        let c = driver::compile(Input::text("t.pl", program(body)), &spec, StopAt::Lower).expect("in memory");
        assert!(c.diags.is_empty(), "{:?}", c.diags);
        c
    }

    /// Runs the pass on `body`'s program; returns the printed program (`None` after an
    /// error) and the short diagnostics.
    fn inline(body: &str) -> (Option<String>, String) {
        let mut c = lowered(body);
        c.step();
        let text: String = c.diags.iter().map(|d| crate::diag::render::short(&c.session.files, d)).collect();
        let printed = (!c.has_errors()).then(|| crate::ir::print::programs(&c.programs, &c.session.interner));
        (printed, text)
    }

    /// The body of function `main` in printed text, without indentation.
    fn main_body(text: &str) -> Vec<String> {
        let start = text.find("def main(").expect("main is printed");
        text[start..].lines().skip(1).take_while(|l| l.starts_with("        ")).map(|l| l.trim().to_string()).collect()
    }

    /// The body of function `main` once the pass has run on `body`'s program.
    fn inlined_main(body: &str) -> Vec<String> {
        let (text, diags) = inline(body);
        main_body(&text.unwrap_or_else(|| panic!("{diags}")))
    }

    #[test]
    fn out_parameters_rebind_and_tuples_unpack_directly() {
        // E5 of the reference: `square` and `proj` are spliced and removed.
        let (text, _) = inline(
            "    $I\n\
             \x20   def square(self, x: $T) -> $T:\n        y = pl.mul(x, x)\n        return y\n\n\
             \x20   $I\n\
             \x20   def proj(self, x: $T, o0: pl.Out[$T], o1: pl.Out[$T]) -> tuple[$T, $T]:\n\
             \x20       o0 = pl.assemble(o0, x, [0])\n        o1 = pl.assemble(o1, x, [0])\n        return o0, o1\n\n\
             \x20   @pl.function\n    def main(self, a: $T, q: pl.Out[$T], k: pl.Out[$T]) -> tuple[$T, $T, $T]:\n\
             \x20       z = self.square(a)\n        y0, y1 = self.proj(a, q, k)\n        return z, y0, y1\n",
        );
        let text = text.unwrap();
        assert!(!text.contains("def square") && !text.contains("def proj"), "{text}");
        assert_eq!(
            main_body(&text),
            [
                "y_inline0 = pl.mul(a, a)",
                "z = y_inline0",
                "q = pl.assemble(q, a, [0])",
                "k = pl.assemble(k, a, [0])",
                "y0 = q",
                "y1 = k",
                "return z, y0, y1",
            ]
        );
    }

    #[test]
    fn returning_a_call_of_several_values_returns_them_directly() {
        // PyPTO's test_return_inline_call_multi_return: no `t_item<k>` copies.
        let main = inlined_main(
            "    $I\n\
             \x20   def proj(self, x: $T, o0: pl.Out[$T], o1: pl.Out[$T]) -> tuple[$T, $T]:\n\
             \x20       o0 = pl.assemble(o0, x, [0])\n        o1 = pl.assemble(o1, x, [0])\n        return o0, o1\n\n\
             \x20   @pl.function\n    def main(self, a: $T, q: pl.Out[$T], k: pl.Out[$T]) -> tuple[$T, $T]:\n\
             \x20       return self.proj(a, q, k)\n",
        );
        assert_eq!(main, ["q = pl.assemble(q, a, [0])", "k = pl.assemble(k, a, [0])", "return q, k"]);
    }

    #[test]
    fn a_passthrough_of_the_target_emits_nothing() {
        let main = inlined_main(
            "    $I\n    def same(self, x: pl.InOut[$T]) -> $T:\n        return x\n\n\
             \x20   @pl.function\n    def main(self, a: pl.InOut[$T]) -> $T:\n        a = self.same(a)\n        return a\n",
        );
        assert_eq!(main, ["return a"]);
    }

    #[test]
    fn each_splice_gets_fresh_names_that_do_not_clash() {
        assert_eq!(
            inlined_main(
                "    $I\n    def sq(self, x: $T) -> $T:\n        y = pl.mul(x, x)\n        return y\n\n\
                 \x20   @pl.function\n    def main(self, a: $T) -> $T:\n        y_inline0 = pl.add(a, a)\n\
                 \x20       b = self.sq(y_inline0)\n        c = self.sq(b)\n        return c\n",
            ),
            [
                "y_inline0 = pl.add(a, a)",
                "y_inline0_1 = pl.mul(y_inline0, y_inline0)",
                "b = y_inline0_1",
                "y_inline1 = pl.mul(b, b)",
                "c = y_inline1",
                "return c",
            ]
        );
    }

    #[test]
    fn an_in_parameter_the_body_assigns_is_a_copy() {
        // Rebinding `n` inside the callee must not rebind the caller's `i`.
        assert_eq!(
            inlined_main(
                "    $I\n\
                 \x20   def bump(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n        n = n + 1\n        return n\n\n\
                 \x20   @pl.function\n    def main(self, i: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n\
                 \x20       j = self.bump(i)\n        return i + j\n",
            ),
            ["n_inline0 = i", "n_inline0 = n_inline0 + 1", "j = n_inline0", "return i + j"]
        );
    }

    #[test]
    fn constants_that_lowering_would_fold_are_bound_to_variables() {
        // `4 + 1` and `3 - 1` would read back as `5` and `2`: the printed IR must lower to
        // itself.
        assert_eq!(
            inlined_main(
                "    $I\n    def four(self) -> pl.Scalar[pl.INDEX]:\n        return 4\n\n\
                 \x20   $I\n\
                 \x20   def dec(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n        m = n - 1\n        return m\n\n\
                 \x20   @pl.function\n    def main(self, i: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n\
                 \x20       x = self.four() + 1\n        y = self.dec(3)\n        z = self.four()\n        return x + y + z\n",
            ),
            [
                "four_inline0 = 4",
                "x = four_inline0 + 1",
                "n_inline1 = 3",
                "m_inline1 = n_inline1 - 1",
                "y = m_inline1",
                "z = 4",
                "return x + y + z",
            ]
        );
    }

    #[test]
    fn unpacking_that_reads_an_earlier_target_goes_through_element_variables() {
        // `q, p = pair(q)`: the second value reads the `q` the first assignment replaces.
        assert_eq!(
            inlined_main(
                "    $I\n\
                 \x20   def pair(self, n: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:\n\
                 \x20       return n + 1, n\n\n\
                 \x20   @pl.function\n    def main(self, q: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n\
                 \x20       p, r = self.pair(q)\n        q, p = self.pair(q)\n        return p + q + r\n",
            ),
            [
                "p = q + 1",
                "r = q",
                "tuple_tmp_1_item0 = q + 1",
                "tuple_tmp_1_item1 = q",
                "q = tuple_tmp_1_item0",
                "p = tuple_tmp_1_item1",
                "return p + q + r",
            ]
        );
    }

    #[test]
    fn a_call_nested_in_an_expression_is_bound_to_a_variable_first() {
        // PyPTO's test_nested_in_call_argument and test_nested_in_binary_operand.
        let main = inlined_main(
            "    $I\n    def helper(self, x: $T) -> $T:\n        y = pl.mul(x, x)\n        return y\n\n\
             \x20   @pl.function\n    def main(self, a: $T) -> $T:\n        z = pl.add(self.helper(a), a)\n        return z\n",
        );
        assert_eq!(
            main,
            ["y_inline0 = pl.mul(a, a)", "helper_inline0 = y_inline0", "z = pl.add(helper_inline0, a)", "return z"]
        );
        let main = inlined_main(
            "    $I\n    def half(self, n: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:\n        m = n // 2\n        return m\n\n\
             \x20   @pl.function\n    def main(self, n: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:\n        k = self.half(n) + 1\n        return k\n",
        );
        assert_eq!(main, ["m_inline0 = n // 2", "half_inline0 = m_inline0", "k = half_inline0 + 1", "return k"]);
    }

    #[test]
    fn nested_inline_calls_are_spliced_callee_first() {
        // `outer` is defined before the `inner` it calls.
        let (text, _) = inline(
            "    $I\n    def outer(self, x: $T) -> $T:\n\
             \x20       y = self.inner(x)\n        return pl.add(y, self.inner(y))\n\n\
             \x20   $I\n    def inner(self, x: $T) -> $T:\n        t = pl.mul(x, x)\n        return t\n\n\
             \x20   @pl.function\n    def main(self, a: $T) -> $T:\n        return self.outer(a)\n",
        );
        let text = text.unwrap();
        assert!(!text.contains("Inline"), "{text}");
        assert_eq!(
            main_body(&text),
            [
                "t_inline0_inline0 = pl.mul(a, a)",
                "y_inline0 = t_inline0_inline0",
                "t_inline1_inline0 = pl.mul(y_inline0, y_inline0)",
                // The nested call's value is bound first, as PyPTO hoists it.
                "inner_inline1_inline0 = t_inline1_inline0",
                "return pl.add(y_inline0, inner_inline1_inline0)",
            ]
        );
    }

    #[test]
    fn functions_without_inline_calls_are_untouched() {
        let mut c = lowered(
            "    $I\n    def sq(self, x: $T) -> $T:\n        y = pl.mul(x, x)\n        return y\n\n\
             \x20   @pl.function\n    def plain(self, a: $T) -> $T:\n        b = pl.add(a, a)\n        return b\n\n\
             \x20   @pl.function\n    def main(self, a: $T) -> $T:\n        return self.sq(a)\n",
        );
        let plain = c.session.interner.lookup("plain").unwrap();
        let before = c.programs[0].functions[&plain].clone();
        let stmts: Vec<_> = before.body.iter().map(|&s| c.programs[0].stmt(s).clone()).collect();
        c.step();
        assert!(c.diags.is_empty(), "{:?}", c.diags);
        let p = &c.programs[0];
        assert_eq!(p.functions[&plain], before);
        assert_eq!(before.body.iter().map(|&s| p.stmt(s).clone()).collect::<Vec<_>>(), stmts);
        assert_eq!(p.functions.len(), 2);
    }

    #[test]
    fn a_program_without_inline_functions_is_left_as_it_is() {
        let mut c =
            lowered("    @pl.function\n    def main(self, a: $T) -> $T:\n        b = pl.add(a, a)\n        return b\n");
        let count = |p: &Program| (p.vars.len(), p.exprs.len(), p.stmts.len());
        let before = count(&c.programs[0]);
        c.step();
        assert_eq!(count(&c.programs[0]), before);
    }

    #[test]
    fn cycles_are_named_in_search_order_before_any_splicing() {
        let (text, diags) = inline(
            "    $I\n    def a(self, x: $T) -> $T:\n        return self.b(x)\n\n\
             \x20   $I\n    def b(self, x: $T) -> $T:\n        return self.c(x)\n\n\
             \x20   $I\n    def c(self, x: $T) -> $T:\n        return self.b(x)\n\n\
             \x20   @pl.function\n    def main(self, x: $T) -> $T:\n        return self.a(x)\n",
        );
        assert!(text.is_none());
        assert_eq!(diags.lines().count(), 1, "{diags}");
        assert!(diags.contains("error[E0406]: Inline functions call each other in a cycle: b -> c -> b"), "{diags}");
    }

    #[test]
    fn the_same_input_gives_the_same_output() {
        let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/inline_splicing.pl"))
            .expect("the example exists");
        let once = || {
            let spec = PipelineSpec::passes("InlineFunctions");
            let c = driver::compile(Input::text("t.pl", source.clone()), &spec, StopAt::End).expect("in memory");
            crate::ir::print::programs(&c.programs, &c.session.interner)
        };
        assert_eq!(once(), once());
    }
}
