//! Program factories: a top-level `def` (without a decorator) that computes sizes from its
//! parameters and defines `@pl.program` classes or `@pl.` functions, which it returns.
//! PyPTO runs such a function in Python; plc evaluates it at compile time.
//!
//! ```text
//! def Build(batch, heads=16):           a factory: evaluated for one call
//!     rows = batch * heads              a constant of the instance
//!     @pl.program
//!     class P: ...                      compiled with rows, batch, heads bound
//!     return P
//! def main():
//!     program = Build(batch=2)          the call used (or `plc ... --factory 'Build(batch=2)'`)
//! ```
//!
//! Each instance is a module of its own (`Module`), sharing its file and syntax tree with the
//! module that defines the factory, whose names are the defining module's plus the
//! factory's parameters and constants: the `@pl.` definitions of the body become its
//! top-level definitions, collected and lowered as any others. Which calls are instantiated:
//! the one `--factory` gives; else, for each factory of the root module, the first call of
//! it found in host code (`main()`, the `__main__` block), whose local constants are
//! followed; else its defaults. Diagnostics inside a factory get the call as a secondary
//! label.

use super::{Binding, Lowering, Module, ModuleId};
use crate::diag::{Code, Diagnostic, Label, Severity, Span};
use crate::intern::Symbol;
use crate::source::FileId;
use crate::syntax::ast::{self, ArgKind, ExprKind as E, ParamKind, StmtId, StmtKind as S};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

use super::Const;

/// A factory definition.
#[derive(Clone, Debug)]
pub(crate) struct Factory {
    pub module: ModuleId,
    pub stmt: StmtId,
    pub name: Symbol,
    /// The span of the whole `def` (diagnostics inside it belong to its instances).
    pub span: Span,
    pub name_span: Span,
}

/// Where a factory is called from: a call in a file, or the `--factory` text.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub file: FileId,
    pub span: Span,
    /// The call with every parameter's value, `Build(batch=2, heads=16)`.
    pub text: String,
}

/// One argument of a call, evaluated.
#[derive(Clone, Debug)]
struct ArgValue {
    keyword: Option<Symbol>,
    value: Const,
    span: Span,
}

/// A call of a factory found in host code.
struct FoundCall {
    factory: usize,
    span: Span,
    /// The arguments, or the text of the first that is not a compile-time constant.
    args: Result<Vec<ArgValue>, String>,
    /// The host function (or block) it is in.
    place: String,
}

type Env = FxHashMap<Symbol, Const>;

/// An instance made: (factory, argument values) and what it returned.
pub(crate) type Instance = ((usize, Vec<Const>), Option<Binding>);

// A list read from a module's tree is copied before a call that takes `&mut self`
// (clippy's `unnecessary_to_owned` would keep `self` borrowed across it).
#[allow(clippy::unnecessary_to_owned)]
impl Lowering<'_> {
    /// Registers a factory defined at the top level of module `m`.
    pub(crate) fn bind_factory(&mut self, m: ModuleId, stmt: StmtId, def: &ast::FunctionDef) {
        let span = self.modules[m].ast.stmt(stmt).span;
        let idx = self.factories.len();
        self.factories.push(Factory { module: m, stmt, name: def.name.name, span, name_span: def.name.span });
        self.bind_name(m, def.name.name, (Binding::Factory(idx), def.name.span));
    }

    /// Chooses the factory calls of the root module and evaluates them (see the module doc).
    pub(crate) fn instantiate_factories(&mut self, root: ModuleId, choice: Option<&str>) {
        if let Some(text) = choice {
            self.instantiate_choice(root, text);
            return;
        }
        let roots: Vec<usize> = (0..self.factories.len()).filter(|&f| self.factories[f].module == root).collect();
        let mut calls = Vec::new();
        let host: Vec<(Vec<StmtId>, ast::HostKind)> =
            self.modules[root].ast.host.iter().map(|h| (h.parsed.clone(), h.kind)).collect();
        for (stmts, kind) in host {
            let place = match kind {
                ast::HostKind::MainGuard => "the `__main__` block".to_string(),
                _ => "a top-level statement".to_string(),
            };
            self.scan_block(root, &stmts, &mut Env::default(), &place, &mut calls);
        }
        let nested = self.called_by_factories();
        let mut chosen: Vec<usize> = roots.clone();
        for c in &calls {
            if !chosen.contains(&c.factory) {
                chosen.push(c.factory);
            }
        }
        for f in chosen {
            let mine: Vec<&FoundCall> = calls.iter().filter(|c| c.factory == f).collect();
            self.instantiate_default(root, f, &mine, nested.contains(&f));
        }
    }

    /// The instance of factory `f` that the root module's host code asks for.
    fn instantiate_default(&mut self, root: ModuleId, f: usize, calls: &[&FoundCall], nested: bool) {
        let fac = self.factories[f].clone();
        let root_file = self.modules[root].file;
        let fname = self.name(fac.name).to_string();
        let mut distinct: Vec<(Vec<(Symbol, Const)>, Site)> = Vec::new();
        let mut skipped = Vec::new();
        let mut refused = false;
        for c in calls {
            match &c.args {
                Ok(args) => {
                    let site = Site { file: root_file, span: c.span, text: String::new() };
                    let Some(bound) = self.bind_args(f, args, &site, true) else {
                        refused = true;
                        continue;
                    };
                    if distinct.iter().all(|(b, _)| *b != bound) {
                        let text = self.call_text(fac.name, &bound);
                        distinct.push((bound, Site { text, ..site }));
                    }
                }
                Err(arg) => skipped.push((c.span, arg.clone(), c.place.clone())),
            }
        }
        let fac_file = self.modules[fac.module].file;
        if let Some((bound, site)) = distinct.first().cloned() {
            let place = calls.iter().find(|c| c.span == site.span).map(|c| c.place.clone()).unwrap_or_default();
            let mut d = Diagnostic::note(
                Code::N0004,
                format!("program factory `{fname}` compiled as `{}`, the call in {place}", site.text),
                Label::primary(fac_file, fac.name_span, "evaluated at compile time"),
            )
            .with_label(Label::secondary(site.file, site.span, "this call"));
            for (_, other) in distinct.iter().skip(1) {
                d.notes.push(format!("also called as `{}`: select it with `--factory '{}'`", other.text, other.text));
            }
            self.diags.push(d);
            self.instantiate(f, bound, Some(site));
            return;
        }
        // A call that does not fit the factory was reported (E0231); a kernel factory that
        // other factories call is instantiated by them.
        if refused || (nested && skipped.is_empty()) {
            return;
        }
        let site = Site { file: fac_file, span: fac.name_span, text: String::new() };
        let defaults = self.bind_args(f, &[], &site, false);
        let text = defaults.as_ref().map(|bound| self.call_text(fac.name, bound));
        // N0004 (compiled with the defaults) or N0005 (not compiled), the arguments computed
        // at run time as secondary labels.
        let (code, message, label, unused, verb) = match &text {
            Some(text) => (
                Code::N0004,
                format!("program factory `{fname}` compiled with its defaults, as `{text}`"),
                "evaluated at compile time",
                "not used: ",
                "choose other",
            ),
            None => (
                Code::N0005,
                format!(
                    "program factory `{fname}` is not compiled: no call with constant arguments gives {}",
                    self.missing_params(f)
                ),
                "not evaluated",
                "",
                "give the",
            ),
        };
        let mut d = Diagnostic::note(code, message, Label::primary(fac_file, fac.name_span, label));
        for (span, arg, place) in &skipped {
            let message = format!("{unused}`{arg}` in {place} is computed at run time");
            d.secondary.push(Label::secondary(root_file, *span, message));
        }
        d.help = Some(format!("{verb} arguments with `--factory '{fname}(...)'`"));
        self.diags.push(d);
        if let (Some(bound), Some(text)) = (defaults, text) {
            let site = Site { text, ..site };
            self.instantiate(f, bound, Some(site));
        }
    }

    /// `--factory 'Build(batch=2)'`: the text is a file of its own (`<--factory>`), so that
    /// its errors point into it.
    fn instantiate_choice(&mut self, root: ModuleId, text: &str) {
        let file = self.session.files.add("<--factory>", text.to_string());
        let parsed = self.session.parse(file, None);
        let had_errors = crate::diag::has_errors(&parsed.diags);
        self.diags.extend(parsed.diags.into_iter().filter(|d| d.severity == Severity::Error));
        let call = parsed.ast.host.first().and_then(|h| h.parsed.first().copied());
        let m = self.modules.len();
        let names = self.modules[root].names.clone();
        let host_names = self.modules[root].host_names.clone();
        self.modules_mut().push(Module { file, path: None, ast: Arc::new(parsed.ast), names, host_names });
        let whole = Span::new(0, text.len() as u32);
        let call = call.and_then(|s| match &self.modules[m].ast.stmt(s).kind {
            S::Expr(e) => match &self.modules[m].ast.expr(*e).kind {
                E::Call { func, args } => Some((*func, *args, self.modules[m].ast.expr(*e).span)),
                _ => None,
            },
            _ => None,
        });
        let factories: Vec<String> = (0..self.factories.len())
            .filter(|&f| self.factories[f].module == root)
            .map(|f| self.name(self.factories[f].name).to_string())
            .collect();
        let known = if factories.is_empty() {
            "the file defines no program factory".to_string()
        } else {
            format!("the file's program factories: {}", factories.join(", "))
        };
        let Some((func, args, span)) = call else {
            if !had_errors {
                self.error_help(
                    Code::E0231,
                    file,
                    whole,
                    "`--factory` takes a call of a program factory",
                    "not a call",
                    format!("write `--factory 'Build(batch=2)'`; {known}"),
                );
            }
            return;
        };
        let fspan = self.modules[m].ast.expr(func).span;
        let f = match self.modules[m].ast.expr(func).kind {
            E::Name(n) => match self.modules[m].names.get(&n) {
                Some((Binding::Factory(f), _)) => Some(*f),
                _ => None,
            },
            _ => None,
        };
        let Some(f) = f else {
            let t = self.text_of(m, fspan).to_string();
            self.error_help(
                Code::E0231,
                file,
                fspan,
                format!("`{t}` is not a program factory of the file"),
                "not a factory",
                known,
            );
            return;
        };
        let Some(values) = self.eval_args(m, &self.ast(m).list(args).to_vec(), None) else { return };
        let values = match values {
            Ok(v) => v,
            Err(_) => return,
        };
        let site = Site { file, span, text: String::new() };
        let Some(bound) = self.bind_args(f, &values, &site, true) else { return };
        let text = self.call_text(self.factories[f].name, &bound);
        self.instantiate(f, bound, Some(Site { text, ..site }));
    }

    /// Evaluates the arguments of a call in module `m`; with `env`, silently (host code:
    /// an argument computed at run time makes the call unusable, `Err` with its text).
    fn eval_args(
        &mut self,
        m: ModuleId,
        args: &[ast::Arg],
        env: Option<&Env>,
    ) -> Option<Result<Vec<ArgValue>, String>> {
        let file = self.modules[m].file;
        let mut out = Vec::new();
        for a in args {
            let keyword = match a.kind {
                ArgKind::Positional => None,
                ArgKind::Keyword(k) => Some(k.name),
                ArgKind::Star | ArgKind::DoubleStar => {
                    if env.is_some() {
                        return Some(Err(self.text_of(m, a.span).to_string()));
                    }
                    self.error(Code::E0231, file, a.span, "a factory call takes no `*` or `**` arguments", "unpacking");
                    return None;
                }
            };
            let value = match env {
                Some(env) => {
                    let before = self.diags.len();
                    let v = self.eval_const_in(m, a.value, &|s| env.get(&s).cloned());
                    self.diags.truncate(before);
                    match v {
                        Some(v) => v,
                        None => return Some(Err(self.text_of(m, self.ast(m).expr(a.value).span).to_string())),
                    }
                }
                None => self.eval_const(m, a.value)?,
            };
            out.push(ArgValue { keyword, value, span: a.span });
        }
        Some(Ok(out))
    }

    /// Binds a call's arguments to the factory's parameters (defaults filled in). With
    /// `report`, errors go to the call; without, `None` says a parameter has no value.
    fn bind_args(&mut self, f: usize, args: &[ArgValue], site: &Site, report: bool) -> Option<Vec<(Symbol, Const)>> {
        let fac = self.factories[f].clone();
        let fname = self.name(fac.name).to_string();
        let S::FunctionDef(def) = self.modules[fac.module].ast.stmt(fac.stmt).kind.clone() else { return None };
        let mut values: Vec<(Symbol, Option<Const>)> = Vec::new();
        for p in &def.params {
            let Some(n) = p.name else { continue };
            if p.kind != ParamKind::Normal {
                let file = self.modules[fac.module].file;
                self.error(
                    Code::E0231,
                    file,
                    p.span,
                    format!("program factory `{fname}` can only have plain parameters"),
                    "not a plain parameter",
                );
                return None;
            }
            values.push((n.name, None));
        }
        let mut positional = 0;
        for a in args {
            let slot = match a.keyword {
                None => {
                    positional += 1;
                    positional - 1
                }
                Some(k) => match values.iter().position(|(n, _)| *n == k) {
                    Some(i) => i,
                    None => {
                        let k = self.name(k).to_string();
                        self.error(
                            Code::E0231,
                            site.file,
                            a.span,
                            format!("program factory `{fname}` has no parameter `{k}`"),
                            "unknown parameter",
                        );
                        return None;
                    }
                },
            };
            let Some((pname, v)) = values.get_mut(slot) else {
                self.error(
                    Code::E0231,
                    site.file,
                    a.span,
                    format!("program factory `{fname}` takes {} arguments", def.params.len()),
                    "one argument too many",
                );
                return None;
            };
            if v.is_some() {
                let n = self.session.interner.get(*pname).to_string();
                self.error(Code::E0231, site.file, a.span, format!("parameter `{n}` is given twice"), "given again");
                return None;
            }
            *v = Some(a.value.clone());
        }
        let mut bound = Vec::new();
        for (i, (n, v)) in values.into_iter().enumerate() {
            let v = match v {
                Some(v) => v,
                None => {
                    let default = def.params.iter().filter(|p| p.name.is_some()).nth(i).and_then(|p| p.default);
                    match default {
                        Some(d) => self.eval_const(fac.module, d)?,
                        None if report => {
                            let pn = self.name(n).to_string();
                            self.error(
                                Code::E0231,
                                site.file,
                                site.span,
                                format!("program factory `{fname}` needs a value for parameter `{pn}`"),
                                "missing argument",
                            );
                            return None;
                        }
                        None => return None,
                    }
                }
            };
            bound.push((n, v));
        }
        Some(bound)
    }

    fn missing_params(&self, f: usize) -> String {
        let fac = &self.factories[f];
        let S::FunctionDef(def) = &self.modules[fac.module].ast.stmt(fac.stmt).kind else { return String::new() };
        let names: Vec<String> = def
            .params
            .iter()
            .filter(|p| p.default.is_none())
            .filter_map(|p| p.name.map(|n| format!("`{}`", self.name(n.name))))
            .collect();
        names.join(", ")
    }

    fn call_text(&self, name: Symbol, bound: &[(Symbol, Const)]) -> String {
        let args: Vec<String> =
            bound.iter().map(|(n, v)| format!("{}={}", self.name(*n), v.describe(&self.session.interner))).collect();
        format!("{}({})", self.name(name), args.join(", "))
    }

    /// Evaluates factory `f` for bound parameters: a new module holding its constants and
    /// its `@pl.` definitions. Returns what it returns (a program class or a function). The
    /// same arguments give the same instance.
    fn instantiate(&mut self, f: usize, bound: Vec<(Symbol, Const)>, site: Option<Site>) -> Option<Binding> {
        let values: Vec<Const> = bound.iter().map(|(_, v)| v.clone()).collect();
        if let Some((_, b)) = self.factory_memo.iter().find(|(k, _)| k.0 == f && k.1 == values) {
            return b.clone();
        }
        let fac = self.factories[f].clone();
        let src = &self.modules[fac.module];
        let mut ast = ast::Ast::clone(&src.ast);
        ast.body = Vec::new();
        let module = Module {
            file: src.file,
            path: src.path.clone(),
            ast: Arc::new(ast),
            names: src.names.clone(),
            host_names: src.host_names.clone(),
        };
        let fm = self.modules.len();
        self.modules_mut().push(module);
        for (n, v) in bound {
            self.modules_mut()[fm].names.insert(n, (Binding::Const(v), fac.name_span));
        }
        if let Some(site) = site {
            self.factory_calls.insert(fm, site.text.clone());
            self.factory_sites.push((self.modules[fac.module].file, fac.span, site));
        }
        let S::FunctionDef(def) = self.modules[fm].ast.stmt(fac.stmt).kind.clone() else { return None };
        let result = self.run_block(fm, &fac, &self.ast(fm).block(&def.body).to_vec()).flatten();
        self.factory_memo.push(((f, values), result.clone()));
        result
    }

    /// Runs the statements of a factory's body (or of a branch of an `if` in it). `None`
    /// after an error; `Some(returned)` otherwise.
    fn run_block(&mut self, fm: ModuleId, fac: &Factory, stmts: &[StmtId]) -> Option<Option<Binding>> {
        let file = self.modules[fm].file;
        let fname = self.name(fac.name).to_string();
        for &s in stmts {
            let stmt = self.modules[fm].ast.stmt(s).clone();
            match &stmt.kind {
                S::Pass => {}
                S::Expr(e) if matches!(self.ast(fm).expr(*e).kind, E::Str(_)) => {}
                S::Assign { targets, value } => {
                    if !self.factory_call_assign(fm, &self.ast(fm).list(*targets).to_vec(), *value) {
                        self.module_constant(fm, &self.ast(fm).list(*targets).to_vec(), *value);
                    }
                }
                S::AnnAssign { target, value: Some(value), .. } => {
                    if !self.factory_call_assign(fm, &[*target], *value) {
                        self.module_constant(fm, &[*target], *value);
                    }
                }
                S::If { branches, orelse } => {
                    let mut taken = orelse.as_ref().map(|b| b.stmts);
                    for b in branches {
                        let v = self.eval_const(fm, b.test)?;
                        if v.truthy()? {
                            taken = Some(b.body.stmts);
                            break;
                        }
                    }
                    if let Some(block) = taken {
                        if let Some(returned) = self.run_block(fm, fac, &self.ast(fm).list(block).to_vec())? {
                            return Some(Some(returned));
                        }
                    }
                }
                S::Unsupported { construct: ast::Construct::Assert, exprs, .. } => {
                    let v = self.eval_const(fm, exprs[0])?;
                    if v.truthy() == Some(false) {
                        let msg = match exprs.get(1).and_then(|&m| self.eval_const(fm, m)) {
                            Some(Const::Str(s)) => format!(": {}", self.name(s)),
                            _ => String::new(),
                        };
                        self.error(
                            Code::E0232,
                            file,
                            stmt.span,
                            format!("an assertion of program factory `{fname}` fails for these arguments{msg}"),
                            "false for these arguments",
                        );
                        return None;
                    }
                }
                S::FunctionDef(def) if !def.decorators.is_empty() => {
                    Arc::make_mut(&mut self.modules_mut()[fm].ast).body.push(s);
                    self.bind_name(fm, def.name.name, (Binding::Function(def.name.name), def.name.span));
                }
                S::ClassDef(class) if !class.decorators.is_empty() => {
                    Arc::make_mut(&mut self.modules_mut()[fm].ast).body.push(s);
                    self.bind_name(fm, class.name.name, (Binding::ProgramClass, class.name.span));
                }
                S::Return(value) => {
                    let Some(value) = value else { return Some(None) };
                    let e = self.ast(fm).expr(*value).clone();
                    let binding = match e.kind {
                        E::Name(n) => self.modules[fm].names.get(&n).map(|b| b.0.clone()),
                        _ => None,
                    };
                    return match binding {
                        Some(b @ (Binding::Function(_) | Binding::ProgramClass)) => Some(Some(b)),
                        _ => {
                            self.error(
                                Code::E0230,
                                file,
                                e.span,
                                format!("program factory `{fname}` must return one of its `@pl.` definitions"),
                                "not a `@pl.program` class or `@pl.` function defined here",
                            );
                            None
                        }
                    };
                }
                S::Error => return None,
                kind => {
                    let what = construct_name(kind);
                    self.error_help(
                        Code::E0230,
                        file,
                        stmt.span,
                        format!("{what} in program factory `{fname}` cannot be evaluated at compile time"),
                        "not a compile-time statement",
                        "a factory may hold constant assignments, `if` on constants, `assert`, `@pl.` definitions and a `return`",
                    );
                    return None;
                }
            }
        }
        Some(None)
    }

    /// `k = make_kernel(16, 128)` in a factory: another factory's instance, bound to `k`.
    /// False when the value is not a call of a factory.
    fn factory_call_assign(&mut self, fm: ModuleId, targets: &[ast::ExprId], value: ast::ExprId) -> bool {
        let E::Call { func, args } = self.ast(fm).expr(value).kind.clone() else { return false };
        let E::Name(n) = self.ast(fm).expr(func).kind else { return false };
        let Some((Binding::Factory(g), _)) = self.modules[fm].names.get(&n).cloned() else { return false };
        let file = self.modules[fm].file;
        let span = self.ast(fm).expr(value).span;
        let result = match self.eval_args(fm, &self.ast(fm).list(args).to_vec(), None) {
            Some(Ok(values)) => {
                let site = Site { file, span, text: String::new() };
                match self.bind_args(g, &values, &site, true) {
                    Some(bound) => {
                        let text = self.call_text(self.factories[g].name, &bound);
                        self.instantiate(g, bound, Some(Site { text, ..site }))
                    }
                    None => None,
                }
            }
            _ => None,
        };
        let binding = result.unwrap_or(Binding::Poisoned);
        for &t in targets {
            let te = self.ast(fm).expr(t).clone();
            if let E::Name(name) = te.kind {
                self.bind_name(fm, name, (binding.clone(), te.span));
            }
        }
        true
    }

    /// The factories called inside other factories' bodies (kernel factories).
    fn called_by_factories(&self) -> FxHashSet<usize> {
        let mut out = FxHashSet::default();
        for fac in &self.factories {
            let ast = &self.modules[fac.module].ast;
            let names = &self.modules[fac.module].names;
            let mut stack = vec![crate::syntax::ast::Node::Stmt(fac.stmt)];
            while let Some(node) = stack.pop() {
                match node {
                    ast::Node::Stmt(s) => ast.stmt_children(s, &mut stack),
                    ast::Node::Expr(e) => {
                        if let E::Call { func, .. } = &ast.expr(e).kind {
                            if let E::Name(n) = ast.expr(*func).kind {
                                if let Some((Binding::Factory(g), _)) = names.get(&n) {
                                    out.insert(*g);
                                }
                            }
                        }
                        ast.expr_children(e, &mut |c| stack.push(ast::Node::Expr(c)));
                    }
                }
            }
        }
        out
    }

    /// Finds the calls of factories in host statements, following the constants assigned
    /// before them in the same function (`batch = 4` ... `Build(batch=batch)`).
    fn scan_block(&mut self, m: ModuleId, stmts: &[StmtId], env: &mut Env, place: &str, out: &mut Vec<FoundCall>) {
        for &s in stmts {
            let stmt = self.ast(m).stmt(s).clone();
            match &stmt.kind {
                S::FunctionDef(def) => {
                    let place = format!("`{}()`", self.name(def.name.name));
                    self.scan_block(m, &self.ast(m).block(&def.body).to_vec(), &mut Env::default(), &place, out);
                }
                S::Assign { targets, value } => {
                    self.scan_expr(m, *value, env, place, out);
                    self.track(m, &self.ast(m).list(*targets).to_vec(), *value, env);
                }
                S::AnnAssign { target, value: Some(value), .. } => {
                    self.scan_expr(m, *value, env, place, out);
                    self.track(m, &[*target], *value, env);
                }
                S::Expr(e) | S::Return(Some(e)) => self.scan_expr(m, *e, env, place, out),
                S::If { branches, orelse } => {
                    for b in branches {
                        self.scan_expr(m, b.test, env, place, out);
                        self.scan_block(m, &self.ast(m).block(&b.body).to_vec(), env, place, out);
                    }
                    if let Some(b) = orelse {
                        self.scan_block(m, &self.ast(m).block(b).to_vec(), env, place, out);
                    }
                }
                S::For { body, orelse, .. } | S::While { body, orelse, .. } => {
                    self.scan_block(m, &self.ast(m).block(body).to_vec(), env, place, out);
                    if let Some(b) = orelse {
                        self.scan_block(m, &self.ast(m).block(b).to_vec(), env, place, out);
                    }
                }
                S::With { body, .. } => self.scan_block(m, &self.ast(m).block(body).to_vec(), env, place, out),
                _ => {}
            }
        }
    }

    /// Follows `NAME = value` in host code: the name holds the value when it is a
    /// compile-time constant, and nothing known otherwise.
    fn track(&mut self, m: ModuleId, targets: &[ast::ExprId], value: ast::ExprId, env: &mut Env) {
        let before = self.diags.len();
        let v = self.eval_const_in(m, value, &|s| env.get(&s).cloned());
        self.diags.truncate(before);
        for &t in targets {
            if let E::Name(n) = self.ast(m).expr(t).kind {
                match &v {
                    Some(v) => env.insert(n, v.clone()),
                    None => env.remove(&n),
                };
            }
        }
    }

    fn scan_expr(&mut self, m: ModuleId, e: ast::ExprId, env: &Env, place: &str, out: &mut Vec<FoundCall>) {
        let mut stack = vec![e];
        while let Some(id) = stack.pop() {
            let expr = self.ast(m).expr(id).clone();
            if let E::Call { func, args } = &expr.kind {
                if let E::Name(n) = self.ast(m).expr(*func).kind {
                    if let Some((Binding::Factory(f), _)) = self.modules[m].names.get(&n).cloned() {
                        let args = self
                            .eval_args(m, &self.ast(m).list(*args).to_vec(), Some(env))
                            .unwrap_or(Err(String::new()));
                        out.push(FoundCall { factory: f, span: expr.span, args, place: place.to_string() });
                        continue;
                    }
                }
            }
            let ast = self.ast(m);
            ast.expr_children(id, &mut |c| stack.push(c));
        }
    }

    /// Adds the factory call as a secondary label to each error and warning inside a
    /// factory instance.
    pub(crate) fn label_factory_diags(&mut self) {
        for (file, span, site) in &self.factory_sites {
            for d in &mut self.diags {
                if d.severity == Severity::Note || d.primary.file != *file {
                    continue;
                }
                if d.primary.span.lo < span.lo || d.primary.span.hi > span.hi {
                    continue;
                }
                if d.secondary.iter().any(|l| l.file == site.file && l.span == site.span) {
                    continue;
                }
                d.secondary.push(Label::secondary(
                    site.file,
                    site.span,
                    format!("in the program built by `{}`", site.text),
                ));
            }
        }
    }
}

fn construct_name(kind: &S) -> &'static str {
    match kind {
        S::Expr(_) => "an expression statement",
        S::AnnAssign { .. } => "an annotation without a value",
        S::AugAssign { .. } => "an augmented assignment",
        S::Break | S::Continue => "a loop jump",
        S::For { .. } => "a `for` loop",
        S::While { .. } => "a `while` loop",
        S::With { .. } => "a `with` statement",
        S::FunctionDef(_) => "a function without a `@pl.` decorator",
        S::ClassDef(_) => "a class without a `@pl.` decorator",
        S::Import(_) | S::ImportFrom { .. } => "an import",
        S::Unsupported { construct, .. } => construct.describe(),
        _ => "this statement",
    }
}

/// The deepest chain of helper calls evaluated at compile time (a recursive helper stops
/// here with an error instead of overflowing the stack).
const MAX_HELPER_DEPTH: usize = 32;

// A list read from a module's tree is copied before a call that takes `&mut self`
// (clippy's `unnecessary_to_owned` would keep `self` borrowed across it).
#[allow(clippy::unnecessary_to_owned)]
impl Lowering<'_> {
    /// The parsed `def` of a host function of module `m` named `n` (a small pure helper a
    /// constant expression may call: `_ceil_div(a, b)`).
    pub(crate) fn helper_def(&self, m: ModuleId, n: Symbol) -> Option<StmtId> {
        let ast = &self.modules[m].ast;
        let mut found = ast
            .host
            .iter()
            .filter(|h| h.kind == ast::HostKind::Function)
            .flat_map(|h| h.parsed.iter().copied())
            .filter(|&s| matches!(&ast.stmt(s).kind, S::FunctionDef(d) if d.name.name == n && d.decorators.is_empty()));
        found.next_back()
    }

    /// Evaluates a call of a host helper function at compile time: its parameters bound to
    /// the arguments (constants), its body run as a factory's is (assignments, `if`,
    /// `assert`), its `return` value the result. Reports (E0218) and returns `None` when it
    /// does something else.
    pub(crate) fn call_helper(
        &mut self,
        m: ModuleId,
        def: StmtId,
        args: &[ast::Arg],
        span: Span,
        local: &dyn Fn(Symbol) -> Option<Const>,
    ) -> Option<Const> {
        let file = self.modules[m].file;
        let S::FunctionDef(d) = self.ast(m).stmt(def).kind.clone() else { return None };
        let name = self.name(d.name.name).to_string();
        if self.helper_depth >= MAX_HELPER_DEPTH {
            self.error(
                Code::E0218,
                file,
                span,
                format!("`{name}` calls helpers more than {MAX_HELPER_DEPTH} deep at compile time"),
                "too deep",
            );
            return None;
        }
        let mut env = Env::default();
        let mut positional = d.params.iter().filter(|p| p.kind == ParamKind::Normal);
        for a in args {
            let v = self.eval_const_in(m, a.value, local)?;
            let param = match a.kind {
                ArgKind::Positional => positional.next().and_then(|p| p.name),
                ArgKind::Keyword(k) => d.params.iter().filter_map(|p| p.name).find(|p| p.name == k.name),
                _ => None,
            };
            let Some(param) = param else {
                self.error(Code::E0218, file, a.span, format!("`{name}` takes no such argument"), "no such parameter");
                return None;
            };
            env.insert(param.name, v);
        }
        for p in &d.params {
            let Some(n) = p.name else { continue };
            if env.contains_key(&n.name) {
                continue;
            }
            let Some(default) = p.default else {
                let pn = self.name(n.name).to_string();
                self.error(Code::E0218, file, span, format!("`{name}` needs a value for `{pn}`"), "missing argument");
                return None;
            };
            let v = self.eval_const(m, default)?;
            env.insert(n.name, v);
        }
        self.helper_depth += 1;
        let result = self.run_helper(m, &self.ast(m).block(&d.body).to_vec(), &mut env, &name);
        self.helper_depth -= 1;
        match result {
            Some(Some(v)) => Some(v),
            Some(None) => {
                self.error(
                    Code::E0218,
                    file,
                    span,
                    format!("`{name}` returns no value at compile time"),
                    "no `return` reached",
                );
                None
            }
            None => None,
        }
    }

    fn run_helper(&mut self, m: ModuleId, stmts: &[StmtId], env: &mut Env, name: &str) -> Option<Option<Const>> {
        let file = self.modules[m].file;
        for &s in stmts {
            let stmt = self.ast(m).stmt(s).clone();
            match &stmt.kind {
                S::Pass => {}
                S::Expr(e) if matches!(self.ast(m).expr(*e).kind, E::Str(_)) => {}
                S::Assign { targets, value } => {
                    let v = self.eval_const_in(m, *value, &|s| env.get(&s).cloned())?;
                    for t in self.ast(m).list(*targets).to_vec() {
                        let E::Name(n) = self.ast(m).expr(t).kind else {
                            self.error(
                                Code::E0218,
                                file,
                                stmt.span,
                                format!("`{name}` assigns to something other than a name"),
                                "not a name",
                            );
                            return None;
                        };
                        env.insert(n, v.clone());
                    }
                }
                S::AnnAssign { target, value: Some(value), .. } => {
                    let v = self.eval_const_in(m, *value, &|s| env.get(&s).cloned())?;
                    if let E::Name(n) = self.ast(m).expr(*target).kind {
                        env.insert(n, v);
                    }
                }
                S::If { branches, orelse } => {
                    let mut taken = orelse.as_ref().map(|b| b.stmts);
                    for b in branches {
                        let t = self.eval_const_in(m, b.test, &|s| env.get(&s).cloned())?;
                        if t.truthy()? {
                            taken = Some(b.body.stmts);
                            break;
                        }
                    }
                    if let Some(block) = taken {
                        if let Some(v) = self.run_helper(m, &self.ast(m).list(block).to_vec(), env, name)? {
                            return Some(Some(v));
                        }
                    }
                }
                S::Unsupported { construct: ast::Construct::Assert, exprs, .. } => {
                    let t = self.eval_const_in(m, exprs[0], &|s| env.get(&s).cloned())?;
                    if t.truthy() == Some(false) {
                        self.error(Code::E0218, file, stmt.span, format!("an assertion of `{name}` fails"), "false");
                        return None;
                    }
                }
                S::Return(Some(e)) => return Some(Some(self.eval_const_in(m, *e, &|s| env.get(&s).cloned())?)),
                S::Return(None) => return Some(Some(Const::None)),
                kind => {
                    let what = construct_name(kind);
                    self.error(
                        Code::E0218,
                        file,
                        stmt.span,
                        format!("{what} in `{name}` cannot be evaluated at compile time"),
                        "not a compile-time statement",
                    );
                    return None;
                }
            }
        }
        Some(None)
    }
}
