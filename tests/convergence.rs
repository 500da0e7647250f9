//! The seed's convergence claim: after OutlineGraphScopes, a region marked in place with
//! `with pl.graph("name"):` and a function decorated `@pl.jit.graph` are the same program,
//! up to the order of the Graph function's parameters (and the names of variables).
//!
//! Two programs are compared structurally: the same functions (by name) with the same
//! types, levels, roles and directions; the same statements and expressions; variables
//! matched one to one from their definitions on (alpha-equivalence); and each function's
//! parameters matched through a permutation that the comparison searches for, applied to
//! the arguments of every call of that function.

use plc::driver::{self, Input, PipelineSpec, StopAt};
use plc::intern::Interner;
use plc::ir::{Callee, ExprId, ExprKind, ForStmt, Function, IfStmt, Program, StmtId, StmtKind, VarId};
use plc::session::Session;
use std::collections::HashMap;

fn compile(name: &str, src: &str) -> (Session, Program) {
    let spec = PipelineSpec::passes("InlineFunctions,ConvertToSSA,OutlineGraphScopes").verified();
    let mut c = driver::compile(Input::text(name, src), &spec, StopAt::End).expect("in memory");
    assert!(!c.has_errors(), "{:?}", c.diags);
    assert_eq!(c.programs.len(), 1);
    (c.session, c.programs.remove(0))
}

struct Side<'a> {
    p: &'a Program,
    names: &'a Interner,
}

struct Compare<'a> {
    a: Side<'a>,
    b: Side<'a>,
    vars: HashMap<VarId, VarId>,
    /// For each function name, parameter i of A is parameter perm[i] of B.
    perms: HashMap<String, Vec<usize>>,
}

impl Compare<'_> {
    fn fail(&self, what: &str) -> Result<(), String> {
        Err(what.to_string())
    }

    fn ty(&self, a: plc::ir::TypeId, b: plc::ir::TypeId) -> Result<(), String> {
        if self.a.p.types.get(a) == self.b.p.types.get(b) {
            Ok(())
        } else {
            self.fail(&format!("types differ: {:?} / {:?}", self.a.p.types.get(a), self.b.p.types.get(b)))
        }
    }

    fn def(&mut self, a: VarId, b: VarId) -> Result<(), String> {
        self.ty(self.a.p.var(a).ty, self.b.p.var(b).ty)?;
        if self.vars.insert(a, b).is_some() {
            return self.fail("a variable defined twice");
        }
        Ok(())
    }

    fn use_(&self, a: VarId, b: VarId) -> Result<(), String> {
        match self.vars.get(&a) {
            Some(&m) if m == b => Ok(()),
            _ => self.fail(&format!(
                "`{}` and `{}` are not the same variable",
                self.a.names.get(self.a.p.var(a).name),
                self.b.names.get(self.b.p.var(b).name)
            )),
        }
    }

    fn expr(&self, a: ExprId, b: ExprId) -> Result<(), String> {
        let (ea, eb) = (self.a.p.expr(a), self.b.p.expr(b));
        self.ty(ea.ty, eb.ty)?;
        match (&ea.kind, &eb.kind) {
            (ExprKind::Var(x), ExprKind::Var(y)) => self.use_(*x, *y),
            (ExprKind::Tuple(xs), ExprKind::Tuple(ys)) => self.exprs(xs, ys),
            (ExprKind::Binary { op: o1, lhs: l1, rhs: r1 }, ExprKind::Binary { op: o2, lhs: l2, rhs: r2 }) => {
                if o1 != o2 {
                    return self.fail("operators differ");
                }
                self.expr(*l1, *l2)?;
                self.expr(*r1, *r2)
            }
            (ExprKind::Unary { op: o1, operand: x }, ExprKind::Unary { op: o2, operand: y }) => {
                if o1 != o2 {
                    return self.fail("operators differ");
                }
                self.expr(*x, *y)
            }
            (ExprKind::TupleGet { tuple: x, index: i }, ExprKind::TupleGet { tuple: y, index: j }) => {
                if i != j {
                    return self.fail("tuple indices differ");
                }
                self.expr(*x, *y)
            }
            (
                ExprKind::Call { callee: c1, args: a1, attrs: t1 },
                ExprKind::Call { callee: c2, args: a2, attrs: t2 },
            ) => {
                let (x1, x2): (Vec<ExprId>, Vec<ExprId>) = (t1.exprs().collect(), t2.exprs().collect());
                if a1.len() != a2.len() || x1.len() != x2.len() {
                    return self.fail("calls differ in arity");
                }
                let perm: Vec<usize> = match (c1, c2) {
                    (Callee::Op(x), Callee::Op(y)) if x == y => (0..a1.len()).collect(),
                    (Callee::Func(f), Callee::Func(g)) if self.a.names.get(*f) == self.b.names.get(*g) => {
                        self.perms.get(self.a.names.get(*f)).cloned().unwrap_or_else(|| (0..a1.len()).collect())
                    }
                    _ => return self.fail("callees differ"),
                };
                for (i, x) in a1.iter().enumerate() {
                    match (x, a2[perm[i]]) {
                        (Some(x), Some(y)) => self.expr(*x, y)?,
                        (None, None) => {}
                        _ => return self.fail("an argument is missing on one side"),
                    }
                }
                let keys = |t: &plc::ir::CallAttrs, names: &Interner| {
                    let launch: Vec<&str> = t.launch.iter().map(|(k, _)| k).collect();
                    let extra: Vec<String> = t.extra.iter().map(|&(k, _)| names.get(k).to_string()).collect();
                    (launch, t.device.is_some(), extra, t.no_dep.clone(), t.arg_directions.clone())
                };
                if keys(t1, self.a.names) != keys(t2, self.b.names) {
                    return self.fail("call attributes differ");
                }
                for (v1, v2) in x1.into_iter().zip(x2) {
                    self.expr(v1, v2)?;
                }
                Ok(())
            }
            (x, y) => {
                // Constants: compared by value; symbols by their text.
                let text = |k: &ExprKind, names: &Interner| match k {
                    ExprKind::Str(s) | ExprKind::DynDim(s) => names.get(*s).to_string(),
                    other => format!("{other:?}"),
                };
                if text(x, self.a.names) == text(y, self.b.names) {
                    Ok(())
                } else {
                    self.fail(&format!("expressions differ: {x:?} / {y:?}"))
                }
            }
        }
    }

    fn exprs(&self, xs: &[ExprId], ys: &[ExprId]) -> Result<(), String> {
        if xs.len() != ys.len() {
            return self.fail("lists differ in length");
        }
        xs.iter().zip(ys).try_for_each(|(x, y)| self.expr(*x, *y))
    }

    fn defs(&mut self, xs: &[VarId], ys: &[VarId]) -> Result<(), String> {
        if xs.len() != ys.len() {
            return self.fail("definition lists differ in length");
        }
        xs.iter().zip(ys).try_for_each(|(x, y)| self.def(*x, *y))
    }

    fn block(&mut self, xs: &[StmtId], ys: &[StmtId]) -> Result<(), String> {
        if xs.len() != ys.len() {
            return self.fail(&format!("blocks of {} and {} statements", xs.len(), ys.len()));
        }
        xs.iter().zip(ys).try_for_each(|(x, y)| self.stmt(*x, *y))
    }

    fn stmt(&mut self, a: StmtId, b: StmtId) -> Result<(), String> {
        let (sa, sb) = (self.a.p.stmt(a).kind.clone(), self.b.p.stmt(b).kind.clone());
        match (sa, sb) {
            (StmtKind::Assign { var: v1, value: e1 }, StmtKind::Assign { var: v2, value: e2 }) => {
                self.expr(e1, e2)?;
                self.def(v1, v2)
            }
            (StmtKind::Eval(x), StmtKind::Eval(y)) => self.expr(x, y),
            (StmtKind::Return(xs), StmtKind::Return(ys)) | (StmtKind::Yield(xs), StmtKind::Yield(ys)) => {
                self.exprs(&xs, &ys)
            }
            (StmtKind::For(x), StmtKind::For(y)) => {
                let ForStmt {
                    kind: k1,
                    var: v1,
                    start: s1,
                    stop: e1,
                    step: t1,
                    iter_args: i1,
                    body: b1,
                    return_vars: r1,
                    ..
                } = *x;
                let ForStmt {
                    kind: k2,
                    var: v2,
                    start: s2,
                    stop: e2,
                    step: t2,
                    iter_args: i2,
                    body: b2,
                    return_vars: r2,
                    ..
                } = *y;
                if k1 != k2 || i1.len() != i2.len() {
                    return self.fail("loops differ");
                }
                self.exprs(&[s1, e1, t1], &[s2, e2, t2])?;
                for (x, y) in i1.iter().zip(&i2) {
                    self.expr(x.init, y.init)?;
                    self.def(x.var, y.var)?;
                }
                self.def(v1, v2)?;
                self.block(&b1, &b2)?;
                self.defs(&r1, &r2)
            }
            (StmtKind::If(x), StmtKind::If(y)) => {
                let IfStmt { cond: c1, then_body: t1, else_body: e1, return_vars: r1 } = *x;
                let IfStmt { cond: c2, then_body: t2, else_body: e2, return_vars: r2 } = *y;
                self.expr(c1, c2)?;
                self.block(&t1, &t2)?;
                match (e1, e2) {
                    (Some(x), Some(y)) => self.block(&x, &y)?,
                    (None, None) => {}
                    _ => return self.fail("an else branch on one side only"),
                }
                self.defs(&r1, &r2)
            }
            (StmtKind::Scope(x), StmtKind::Scope(y)) => {
                if x.kind != y.kind
                    && !matches!((&x.kind, &y.kind), (plc::ir::ScopeKind::Spmd { .. }, plc::ir::ScopeKind::Spmd { .. }))
                {
                    return self.fail("scopes differ");
                }
                let name = |n: Option<plc::intern::Symbol>, names: &Interner| n.map(|n| names.get(n).to_string());
                if name(x.name, self.a.names) != name(y.name, self.b.names) {
                    return self.fail("scope names differ");
                }
                self.block(&x.body, &y.body)
            }
            (x, y) => self.fail(&format!("statements differ: {x:?} / {y:?}")),
        }
    }

    fn function(&mut self, fa: &Function, fb: &Function) -> Result<(), String> {
        if (fa.decl.kind, fa.decl.level, fa.decl.role) != (fb.decl.kind, fb.decl.level, fb.decl.role) {
            return self.fail("function kinds differ");
        }
        let perm = self.perms[self.a.names.get(fa.name)].clone();
        for (i, pa) in fa.params.iter().enumerate() {
            let pb = &fb.params[perm[i]];
            if pa.dir != pb.dir {
                return self.fail("parameter directions differ");
            }
            self.def(pa.var, pb.var)?;
        }
        if fa.returns.len() != fb.returns.len() {
            return self.fail("return counts differ");
        }
        for (x, y) in fa.returns.iter().zip(&fb.returns) {
            self.ty(*x, *y)?;
        }
        self.block(&fa.body, &fb.body)
    }
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            out.push(p);
        }
    }
    out
}

/// Whether two programs are the same up to parameter order and variable names: tries the
/// parameter orders of each function (small in these tests) until every function matches.
fn same_up_to_parameter_order(a: (&Session, &Program), b: (&Session, &Program)) -> Result<(), String> {
    let names_a: Vec<String> = a.1.functions.values().map(|f| a.0.interner.get(f.name).to_string()).collect();
    let names_b: Vec<String> = b.1.functions.values().map(|f| b.0.interner.get(f.name).to_string()).collect();
    if names_a != names_b {
        return Err(format!("functions differ: {names_a:?} / {names_b:?}"));
    }
    let find =
        |s: &Session, p: &Program, n: &str| p.functions.values().find(|f| s.interner.get(f.name) == n).unwrap().clone();
    let choices: Vec<Vec<Vec<usize>>> = names_a.iter().map(|n| permutations(find(a.0, a.1, n).params.len())).collect();
    let mut index = vec![0usize; names_a.len()];
    loop {
        let perms: HashMap<String, Vec<usize>> =
            names_a.iter().enumerate().map(|(k, n)| (n.clone(), choices[k][index[k]].clone())).collect();
        let mut c = Compare {
            a: Side { p: a.1, names: &a.0.interner },
            b: Side { p: b.1, names: &b.0.interner },
            vars: HashMap::new(),
            perms,
        };
        let result = names_a.iter().try_for_each(|n| c.function(&find(a.0, a.1, n), &find(b.0, b.1, n)));
        if result.is_ok() {
            return Ok(());
        }
        // The next combination of parameter orders.
        let mut k = 0;
        loop {
            if k == index.len() {
                return result;
            }
            index[k] += 1;
            if index[k] < choices[k].len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

/// The seed's program, as the examples hold it.
const SCOPE_FORM: &str = include_str!("../examples/accumulate_band.pl");

/// The same computation with the layer as its own `@pl.jit.graph` function, whose
/// signature lists the parameters in another order than the region captures them.
const DECORATOR_FORM: &str = r#"
import pypto.language as pl

ROWS = 128
COLS = 128
LAYERS = 4


@pl.jit.graph
def accumulate_band(acc: pl.InOut[pl.Tensor], i: pl.INDEX, w: pl.Tensor):
    base = i * ROWS
    with pl.at(level=pl.Level.CORE_GROUP):
        band = pl.load(w, [base, 0], [ROWS, COLS])
        cur = pl.load(acc, [0, 0], [ROWS, COLS])
        pl.store(pl.add(cur, band), [0, 0], acc)
    return acc


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    for i in pl.range(LAYERS):
        acc = accumulate_band(acc, i, w)
    return acc
"#;

#[test]
fn the_scope_form_and_the_decorator_form_converge() {
    let (sa, pa) = compile("scope.pl", SCOPE_FORM);
    let (sb, pb) = compile("decorator.pl", DECORATOR_FORM);
    same_up_to_parameter_order((&sa, &pa), (&sb, &pb)).unwrap();
}

#[test]
fn the_comparison_tells_different_programs_apart() {
    // Sanity check of the comparison itself: a different offset is a different program.
    let (sa, pa) = compile("scope.pl", SCOPE_FORM);
    let (sb, pb) = compile("decorator.pl", &DECORATOR_FORM.replace("base = i * ROWS", "base = i * COLS + 1"));
    assert!(same_up_to_parameter_order((&sa, &pa), (&sb, &pb)).is_err());
    // And so is a region that stays inline where the other form calls a function.
    let (sc, pc) = compile("plain.pl", &SCOPE_FORM.replace("with pl.graph(\"accumulate_band\"):", "if True:"));
    assert!(same_up_to_parameter_order((&sa, &pa), (&sc, &pc)).is_err());
}
