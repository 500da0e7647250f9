//! The IR verifier: structural invariants every stage must keep. Lowering establishes
//! them and each pass must preserve them; the tests run the verifier after lowering (and
//! later after every pass), and `--verify` runs it in the compiler.
//!
//! A finding is a compiler bug, not a user error, so it is reported as an internal error
//! (E07xx) pointing at the node that breaks the invariant.
//!
//! Checked: every variable is defined before it is used (parameters, assignments, loop
//! variables, iter args, return variables, task ids); a `Yield` is the last statement of
//! its block and yields as many values as its loop or `if` has return variables; a loop
//! with iter args ends in a `Yield`; calls of functions name a function of the program and
//! pass one argument per parameter; op calls pass every required argument and no more
//! than the op takes; conditions are boolean scalars; every `Return` returns as many
//! values as the function declares; with `ssa`, every variable is assigned once; no
//! statement or expression node belongs to two functions.

use super::ops::Op;
use super::visit;
use super::{
    Callee, DType, ExprId, ExprKind, ForStmt, Function, IfStmt, Program, StmtId, StmtKind, Type, VarId, WhileStmt,
};
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::Interner;
use rustc_hash::FxHashSet;

/// Verifies every function of a program. `ssa` also requires single assignment.
pub fn verify(program: &Program, names: &Interner, ssa: bool) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for f in program.functions.values() {
        Verifier {
            p: program,
            names,
            f,
            defined: FxHashSet::default(),
            assigned: FxHashSet::default(),
            ssa,
            diags: &mut diags,
        }
        .function();
    }
    shared_nodes(program, names, &mut diags);
    diags
}

/// Every statement and expression node belongs to one function's tree at most: lowering,
/// InlineFunctions' copies and the outliners give each function nodes of its own (a
/// rewrite's left-behind nodes belong to none). The call searches rely on it
/// (`lineage::all_calls_seen` counts the arena's calls against the calls found in some
/// functions' trees), as does every pass that rewrites one function's nodes in place.
fn shared_nodes(p: &Program, names: &Interner, diags: &mut Vec<Diagnostic>) {
    const NONE: u32 = u32::MAX;
    let mut stmt_owner = vec![NONE; p.stmts.len()];
    let mut expr_owner = vec![NONE; p.exprs.len()];
    for (k, f) in p.functions.values().enumerate() {
        let mut shared: Option<(super::Loc, u32)> = None;
        let mut claim = |owner: &mut u32, loc: super::Loc| {
            if *owner == NONE {
                *owner = k as u32;
            } else if *owner != k as u32 && shared.is_none() {
                shared = Some((loc, *owner));
            }
        };
        visit::walk_stmts(p, &f.body, |s| {
            if let Some(owner) = stmt_owner.get_mut(s.0 as usize) {
                claim(owner, p.stmt(s).loc);
            }
            visit::walk_stmt_exprs(p, s, |e| {
                if let Some(owner) = expr_owner.get_mut(e.0 as usize) {
                    claim(owner, p.expr(e).loc);
                }
            });
        });
        if let Some((loc, other)) = shared {
            let other = p.functions.get_index(other as usize).map_or("?", |(n, _)| names.get(*n));
            let mut d = Diagnostic::error(
                Code::E0710,
                format!("internal error in `{}`: a node of this function also belongs to `{other}`", names.get(f.name)),
                Label::primary(loc.file, loc.span, "here"),
            );
            d.notes.push("this is a bug in plc, not in your program".to_string());
            diags.push(d);
        }
    }
}

struct Verifier<'a> {
    p: &'a Program,
    names: &'a Interner,
    f: &'a Function,
    defined: FxHashSet<VarId>,
    assigned: FxHashSet<VarId>,
    ssa: bool,
    diags: &'a mut Vec<Diagnostic>,
}

impl Verifier<'_> {
    fn report(&mut self, code: crate::diag::Code, loc: super::Loc, message: String) {
        let fname = self.names.get(self.f.name);
        let mut d = Diagnostic::error(
            code,
            format!("internal error in `{fname}`: {message}"),
            Label::primary(loc.file, loc.span, "here"),
        );
        d.notes.push("this is a bug in plc, not in your program".to_string());
        self.diags.push(d);
    }

    fn function(mut self) {
        for p in &self.f.params {
            self.define(p.var, self.f.loc);
        }
        let body = self.f.body.clone();
        self.block(&body, None);
    }

    fn define(&mut self, v: VarId, loc: super::Loc) {
        self.defined.insert(v);
        if !self.assigned.insert(v) && self.ssa {
            let n = self.names.get(self.p.var(v).name).to_string();
            self.report(Code::E0705, loc, format!("`{n}` is assigned more than once in SSA form"));
        }
    }

    /// A block; `yield_arity` is the number of values a trailing yield must carry (`None`:
    /// no yield allowed).
    fn block(&mut self, block: &[StmtId], yield_arity: Option<usize>) {
        for (i, &s) in block.iter().enumerate() {
            let last = i + 1 == block.len();
            if let StmtKind::Yield(values) = &self.p.stmt(s).kind {
                let loc = self.p.stmt(s).loc;
                if !last {
                    self.report(Code::E0702, loc, "a yield must be the last statement of its block".to_string());
                }
                match yield_arity {
                    None => self.report(Code::E0702, loc, "a yield outside a loop body or an if branch".to_string()),
                    Some(n) if n != values.len() => self.report(
                        Code::E0702,
                        loc,
                        format!("the yield carries {} values, its statement expects {n}", values.len()),
                    ),
                    _ => {}
                }
            }
            self.stmt(s);
        }
    }

    fn ends_in_yield(&self, block: &[StmtId]) -> bool {
        block.last().is_some_and(|&s| matches!(self.p.stmt(s).kind, StmtKind::Yield(_)))
    }

    fn stmt(&mut self, id: StmtId) {
        let stmt = self.p.stmt(id);
        let loc = stmt.loc;
        match &stmt.kind {
            StmtKind::Assign { var, value } => {
                self.expr(*value);
                self.define(*var, loc);
            }
            StmtKind::Eval(e) => self.expr(*e),
            StmtKind::Return(values) => {
                values.iter().for_each(|&e| self.expr(e));
                if values.len() != self.f.returns.len() {
                    self.report(
                        Code::E0703,
                        loc,
                        format!("returns {} values, the function declares {}", values.len(), self.f.returns.len()),
                    );
                }
            }
            StmtKind::Yield(values) => values.iter().for_each(|&e| self.expr(e)),
            StmtKind::Break | StmtKind::Continue => {}
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
                self.expr(*cond);
                self.condition(*cond);
                let arity = (!return_vars.is_empty()).then_some(return_vars.len());
                if arity.is_some()
                    && (!self.ends_in_yield(then_body) || !else_body.as_ref().is_some_and(|b| self.ends_in_yield(b)))
                {
                    self.report(
                        Code::E0702,
                        loc,
                        "an if with return variables needs a yield at the end of both branches".to_string(),
                    );
                }
                self.block(then_body, arity);
                if let Some(b) = else_body {
                    self.block(b, arity);
                }
                for &v in return_vars {
                    self.define(v, loc);
                }
            }
            StmtKind::For(for_) => {
                let ForStmt { var, start, stop, step, iter_args, body, return_vars, attrs, .. } = &**for_;
                for e in [*start, *stop, *step] {
                    self.expr(e);
                }
                attrs.iter().for_each(|&(_, e)| self.expr(e));
                iter_args.iter().for_each(|ia| self.expr(ia.init));
                self.define(*var, loc);
                iter_args.iter().for_each(|ia| self.define(ia.var, loc));
                self.loop_body(body, iter_args.len(), return_vars, loc);
            }
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                iter_args.iter().for_each(|ia| self.expr(ia.init));
                iter_args.iter().for_each(|ia| self.define(ia.var, loc));
                self.expr(*cond);
                self.condition(*cond);
                self.loop_body(body, iter_args.len(), return_vars, loc);
            }
            StmtKind::Scope(scope) => {
                if let super::ScopeKind::Spmd { core_num } = &scope.kind {
                    self.expr(*core_num);
                }
                scope.attrs.iter().for_each(|&(_, e)| self.expr(e));
                if let Some(t) = scope.task_id {
                    self.define(t, loc);
                }
                self.block(&scope.body, None);
            }
        }
    }

    fn loop_body(&mut self, body: &[StmtId], carried: usize, return_vars: &[VarId], loc: super::Loc) {
        if carried != return_vars.len() {
            self.report(Code::E0702, loc, format!("{carried} iter args but {} return variables", return_vars.len()));
        }
        if carried > 0 && !self.ends_in_yield(body) {
            self.report(Code::E0702, loc, "a loop with iter args must end its body with a yield".to_string());
        }
        self.block(body, (carried > 0).then_some(carried));
        for &v in return_vars {
            self.define(v, loc);
        }
    }

    fn condition(&mut self, cond: ExprId) {
        let e = self.p.expr(cond);
        if !matches!(self.p.types.get(e.ty), Type::Scalar(DType::Bool) | Type::Unknown) {
            self.report(Code::E0704, e.loc, "a condition that is not a boolean scalar".to_string());
        }
    }

    /// Checks an expression tree.
    fn expr(&mut self, root: ExprId) {
        let p = self.p;
        visit::walk_expr(p, root, |id| {
            let e = p.expr(id);
            match &e.kind {
                ExprKind::Var(v) if !self.defined.contains(v) => {
                    let n = self.names.get(self.p.var(*v).name).to_string();
                    self.report(Code::E0701, e.loc, format!("`{n}` is used before it is defined"));
                }
                ExprKind::Call { callee: Callee::Func(f) | Callee::Submit(f), args, .. } => match self
                    .p
                    .functions
                    .get(f)
                {
                    None => {
                        let n = self.names.get(*f).to_string();
                        self.report(
                            Code::E0703,
                            e.loc,
                            format!("a call of `{n}`, which is not a function of the program"),
                        );
                    }
                    Some(callee) if callee.params.len() != args.len() || args.iter().any(Option::is_none) => {
                        let n = self.names.get(*f).to_string();
                        self.report(
                            Code::E0703,
                            e.loc,
                            format!("`{n}` takes {} arguments, the call passes {}", callee.params.len(), args.len()),
                        );
                    }
                    _ => {}
                },
                ExprKind::Call { callee: Callee::Op(op), args, .. } => self.op_args(*op, args, e.loc),
                _ => {}
            }
        });
    }

    fn op_args(&mut self, op: Op, args: &[Option<ExprId>], loc: super::Loc) {
        let def = op.def();
        if args.len() > def.params.len() {
            self.report(
                Code::E0703,
                loc,
                format!("{} takes {} arguments, the call passes {}", def.name, def.params.len(), args.len()),
            );
            return;
        }
        for (i, p) in def.params.iter().enumerate() {
            if p.required && args.get(i).copied().flatten().is_none() {
                self.report(Code::E0703, loc, format!("{} is missing its argument `{}`", def.name, p.name));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Code;
    use crate::driver::{compile, Input, PipelineSpec, StopAt};

    const TWO: &str = "import pypto.language as pl\n\n\
        @pl.function\ndef first(x: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:\n    y = x + 1\n    return y\n\n\
        @pl.function\ndef second(x: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:\n    z = x + 2\n    return z\n";

    fn codes(share: bool) -> Vec<Code> {
        let c = compile(Input::text("two.pl", TWO), &PipelineSpec::default(), StopAt::Lower).expect("in memory");
        assert!(!c.has_errors(), "{:?}", c.diags);
        let mut p = c.programs[0].clone();
        if share {
            // `second` given `first`'s first statement too.
            let s = p.functions[0].body[0];
            p.functions[1].body.insert(0, s);
        }
        super::verify(&p, &c.session.interner, false).into_iter().map(|d| d.code).collect()
    }

    #[test]
    fn a_node_two_functions_hold_is_an_internal_error() {
        assert!(!codes(false).contains(&Code::E0710));
        assert!(codes(true).contains(&Code::E0710));
    }
}
