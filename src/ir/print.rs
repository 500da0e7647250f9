//! Prints a program as pl source in the `@pl.program` form: every function a
//! `@pl.function(type=...)` method, calls between functions as `self.f(...)`, constants
//! folded into literals. The text parses and lowers back to the same program, so printing
//! it again gives the same text (the round trip every test checks).
//!
//! ```text
//! @pl.program
//! class Program:
//!     @pl.function(type=pl.FunctionType.Orchestration)
//!     def entry(self, w: pl.Tensor, acc: pl.InOut[pl.Tensor]) -> pl.Tensor:
//!         for i in pl.range(0, 4, 1):
//!             ...
//! ```

use super::ops::{OpKind, Special};
use super::{
    BinOp, CallAttrs, Callee, Dim, Direction, ExprId, ExprKind, ForStmt, FuncKind, Function, IfStmt, Layout, Program,
    ScopeKind, StmtId, StmtKind, Type, TypeId, UnOp, VarId, WhileStmt,
};
use crate::intern::{Interner, Symbol};
use std::cell::Cell;
use std::fmt::Write;

/// Programs as pl source: the imports and `pl.dynamic` dimensions once, then each program
/// as an `@pl.program` class (a program without a class name is called `Program`, or
/// `Program_1`, ... when that name is taken).
pub fn programs(ps: &[Program], names: &Interner) -> String {
    let mut out = String::new();
    let mut uses_pld = false;
    let mut dims: Vec<crate::intern::Symbol> = Vec::new();
    for p in ps {
        for d in &p.dynamic_dims {
            if !dims.contains(d) {
                dims.push(*d);
            }
        }
    }
    if !dims.is_empty() {
        out.push('\n');
        for d in &dims {
            let n = names.get(*d);
            let _ = writeln!(out, "{n} = pl.dynamic({n:?})");
        }
    }
    let taken: Vec<&str> = ps.iter().filter_map(|p| p.name.map(|n| names.get(n))).collect();
    for p in ps {
        let class = match p.name {
            Some(n) => names.get(n).to_string(),
            None => {
                let mut candidate = "Program".to_string();
                let mut k = 0;
                while taken.contains(&candidate.as_str()) {
                    k += 1;
                    candidate = format!("Program_{k}");
                }
                candidate
            }
        };
        if p.functions.is_empty() {
            // Every function was Inline and InlineFunctions removed them. A class without
            // functions is refused on reading (E0224, as PyPTO's parser does), so the empty
            // program is printed as a comment: the text still checks, as a module with no
            // program.
            let _ = writeln!(
                out,
                "\n\n# @pl.program class {class}: no function is left (InlineFunctions removed the Inline ones)"
            );
            continue;
        }
        let _ = writeln!(out, "\n\n@pl.program\nclass {class}:");
        let mut first = true;
        for f in p.functions.values() {
            if !first {
                out.push('\n');
            }
            first = false;
            let mut pr = Printer::new(p, names, 1);
            pr.function(f);
            out.push_str(&pr.out);
            uses_pld |= pr.uses_pld.get();
        }
    }
    let imports = if uses_pld {
        "import pypto.language as pl\nimport pypto.language.distributed as pld\n"
    } else {
        "import pypto.language as pl\n"
    };
    out.insert_str(0, imports);
    out
}

/// One program as pl source.
pub fn program(p: &Program, names: &Interner) -> String {
    programs(std::slice::from_ref(p), names)
}

/// One expression as source text (for messages).
pub fn expr(p: &Program, names: &Interner, e: ExprId) -> String {
    let mut pr = Printer::new(p, names, 0);
    pr.expr(e, Prec::Lowest);
    pr.out
}

/// A type as source text: `pl.Tensor[[64, 128], pl.FP32]`.
pub fn type_text(p: &Program, names: &Interner, ty: TypeId) -> Option<String> {
    let pr = Printer::new(p, names, 0);
    pr.ty(ty)
}

struct Printer<'a> {
    p: &'a Program,
    names: &'a Interner,
    out: String,
    indent: usize,
    /// Whether anything printed is spelled `pld.` (the file then imports the distributed
    /// language as `pld`).
    uses_pld: Cell<bool>,
    /// Whether the function being printed places its own AUTO scopes
    /// (`@pl.function(auto_scope=False)`): they are then `pl.scope()`, else the explicit
    /// `pl.auto_scope()` (which a hand-placed `pl.scope()` there could not round-trip).
    manual_auto_scopes: bool,
    /// Whether an element read prints as a subscript `t[i, j]` (inside a `predicate=`,
    /// which PyPTO's parser and plc read as written: one subscript against a literal).
    reads_as_subscripts: bool,
}

impl<'a> Printer<'a> {
    fn new(p: &'a Program, names: &'a Interner, indent: usize) -> Self {
        Printer {
            p,
            names,
            out: String::new(),
            indent,
            uses_pld: Cell::new(false),
            manual_auto_scopes: false,
            reads_as_subscripts: false,
        }
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn var(&self, v: VarId) -> &'a str {
        self.names.get(self.p.var(v).name)
    }

    fn function(&mut self, f: &Function) {
        let mut options = Vec::new();
        if f.decl.kind != FuncKind::Opaque {
            options.push(format!("type=pl.FunctionType.{}", f.decl.kind));
        }
        let (derived_level, derived_role) = f.decl.kind.derived_level_role();
        if let Some(l) = f.decl.level.filter(|l| Some(*l) != derived_level) {
            options.push(format!("level=pl.Level.{l}"));
        }
        if let Some(r) = f.decl.role.filter(|r| Some(*r) != derived_role) {
            options.push(format!("role=pl.Role.{r}"));
        }
        if let Some(a) = f.decl.auto_scope {
            options.push(format!("auto_scope={}", if a { "True" } else { "False" }));
        }
        if f.decl.strict_ssa {
            options.push("strict_ssa=True".to_string());
        }
        if let Some(path) = &f.decl.external_source {
            // The absolute path lowering resolved: the printed program finds it from anywhere.
            options.push(format!("external_source={path:?}"));
            // The attributes PyPTO's specializer gives an external kernel of `@pl.jit.extern`.
            let mut attrs = Vec::new();
            if !f.decl.include_dirs.is_empty() {
                let json = serde_json::to_string(&f.decl.include_dirs).unwrap_or_default();
                attrs.push(format!("\"{}\": {json:?}", crate::ir::EXTERNAL_INCLUDE_DIRS_ATTR));
            }
            if f.decl.dual_aiv_dispatch {
                attrs.push(format!("\"{}\": True", crate::ir::DUAL_AIV_DISPATCH_ATTR));
            }
            if !attrs.is_empty() {
                options.push(format!("attrs={{{}}}", attrs.join(", ")));
            }
        }
        if options.is_empty() {
            self.line("@pl.function");
        } else {
            let decorator = format!("@pl.function({})", options.join(", "));
            self.line(&decorator);
        }
        // A HOST SubWorker is a plain Python function: no `self`.
        let mut params = if f.decl.python_body() { Vec::new() } else { vec!["self".to_string()] };
        for param in &f.params {
            let ty = self.annotation(self.p.var(param.var).ty).unwrap_or_else(|| "pl.Tensor".to_string());
            let ty = match param.dir {
                Direction::In => ty,
                Direction::Out => format!("pl.Out[{ty}]"),
                Direction::InOut => format!("pl.InOut[{ty}]"),
            };
            params.push(format!("{}: {ty}", self.var(param.var)));
        }
        let returns = match f.returns.as_slice() {
            [] => String::new(),
            [one] => self.annotation(*one).map_or(String::new(), |t| format!(" -> {t}")),
            many => {
                let items: Option<Vec<String>> = many.iter().map(|&t| self.annotation(t)).collect();
                items.map_or(String::new(), |items| format!(" -> tuple[{}]", items.join(", ")))
            }
        };
        let name = self.names.get(f.name);
        let header = format!("def {name}({}){returns}:", params.join(", "));
        self.line(&header);
        self.indent += 1;
        if !f.decl.extra.is_empty() {
            let entries: Vec<String> =
                f.decl.extra.iter().map(|&(k, v)| format!("\"{}\": {}", self.names.get(k), self.text(v))).collect();
            let directive = format!("pl.func_attr({{{}}})", entries.join(", "));
            self.line(&directive);
        }
        self.manual_auto_scopes = f.decl.auto_scope == Some(false);
        if f.decl.external_source.is_some() {
            // An external kernel's body is its C++ file.
            self.line("...");
        } else {
            self.block(&f.body, &[]);
        }
        self.indent -= 1;
    }

    /// A type in a signature: as `ty` writes it, and a tensor whose shape has no spelling
    /// (one computed from another tensor's) as a bare `pl.Tensor`.
    fn annotation(&self, id: TypeId) -> Option<String> {
        self.ty(id).or_else(|| match self.p.types.get(id) {
            // Lowering leaves a value whose type it cannot know (a tensor made with a
            // shape computed at run time) Unknown; in a signature it is a bare tensor.
            Type::Tensor { distributed: false, .. } | Type::Unknown => Some("pl.Tensor".to_string()),
            _ => None,
        })
    }

    /// A type as it is written in an annotation; `None` for types that have no spelling.
    fn ty(&self, id: TypeId) -> Option<String> {
        Some(match self.p.types.get(id) {
            Type::Scalar(d) => format!("pl.Scalar[pl.{d}]"),
            Type::Tensor { shape: Some(shape), dtype: Some(d), distributed, layout } => {
                let head = if *distributed {
                    self.uses_pld.set(true);
                    "pld.DistributedTensor"
                } else {
                    "pl.Tensor"
                };
                // PyPTO keeps a layout in the type's TensorView and prints the view only
                // when it says more than the default (ND, packed strides).
                let view = match layout {
                    Layout::Nd => String::new(),
                    l => format!(", pl.TensorView(stride=[], layout=pl.TensorLayout.{l})"),
                };
                format!("{head}[[{}], pl.{d}{view}]", self.dims(shape)?)
            }
            Type::Tensor { distributed: true, .. } => {
                self.uses_pld.set(true);
                "pld.DistributedTensor".to_string()
            }
            Type::Tensor { .. } => "pl.Tensor".to_string(),
            Type::Tile { shape, dtype, memory } => match memory {
                Some(m) => format!("pl.Tile[[{}], pl.{dtype}, pl.MemorySpace.{m}]", self.dims(shape)?),
                None => format!("pl.Tile[[{}], pl.{dtype}]", self.dims(shape)?),
            },
            Type::Array { len, dtype } => format!("pl.Array[{len}, pl.{dtype}]"),
            Type::Handle(h) => format!("{}.{}", h.module(), h.name()),
            Type::Tuple(_) | Type::None | Type::Unknown => return None,
        })
    }

    fn dims(&self, shape: &[Dim]) -> Option<String> {
        let parts: Option<Vec<String>> = shape
            .iter()
            .map(|d| match d {
                Dim::Const(v) => Some(v.to_string()),
                Dim::Dyn(n) => Some(self.names.get(*n).to_string()),
                Dim::Var(_) | Dim::Unknown => None,
            })
            .collect();
        parts.map(|p| p.join(", "))
    }

    /// A block; `yield_to` are the variables a trailing yield binds (the enclosing loop's
    /// or `if`'s return variables).
    fn block(&mut self, block: &[StmtId], yield_to: &[VarId]) {
        if block.is_empty() {
            self.line("pass");
            return;
        }
        for &s in block {
            self.stmt(s, yield_to);
        }
    }

    fn targets(&self, vars: &[VarId]) -> String {
        vars.iter().map(|&v| self.var(v).to_string()).collect::<Vec<_>>().join(", ")
    }

    fn exprs(&mut self, items: &[ExprId]) -> String {
        let saved = std::mem::take(&mut self.out);
        for (i, &e) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(e, Prec::Lowest);
        }
        std::mem::replace(&mut self.out, saved)
    }

    /// A keyword argument's value; a `predicate=` reads its element as a subscript.
    fn keyword_text(&mut self, key: &str, e: ExprId) -> String {
        let saved = self.reads_as_subscripts;
        self.reads_as_subscripts = key == "predicate";
        let text = self.text(e);
        self.reads_as_subscripts = saved;
        text
    }

    fn text(&mut self, e: ExprId) -> String {
        let saved = std::mem::take(&mut self.out);
        self.expr(e, Prec::Lowest);
        std::mem::replace(&mut self.out, saved)
    }

    /// The annotation an assignment prints: the variable's type where it is not the type
    /// of the value (an op typed by its target's annotation, `pl.tile.tpop_from_aiv()`, or
    /// an annotation narrower than what the value deduces), so that reading the text back
    /// gives the variable that type again; nothing where the value's type is the
    /// variable's or the type has no spelling.
    fn assign_annotation(&self, var: VarId, value: ExprId) -> Option<String> {
        let vt = self.p.var(var).ty;
        let typed_by_target = match &self.p.expr(value).kind {
            ExprKind::Call { callee: Callee::Op(op), args, .. } => {
                (op.def().result)(&Presence { p: self.p, args }) == Ok(Type::Unknown)
            }
            _ => false,
        };
        if !typed_by_target && self.p.types.get(vt) == self.p.types.get(self.p.expr(value).ty) {
            return None;
        }
        if matches!(self.p.types.get(vt), Type::Unknown) {
            return None;
        }
        self.ty(vt)
    }

    fn stmt(&mut self, id: StmtId, yield_to: &[VarId]) {
        match &self.p.stmt(id).kind {
            StmtKind::Assign { var, value } => {
                let line = match self.assign_annotation(*var, *value) {
                    Some(ty) => format!("{}: {ty} = {}", self.var(*var), self.text(*value)),
                    None => format!("{} = {}", self.var(*var), self.text(*value)),
                };
                self.line(&line);
            }
            StmtKind::Eval(e) => {
                let line = self.text(*e);
                self.line(&line);
            }
            StmtKind::Return(values) => {
                let line =
                    if values.is_empty() { "return".to_string() } else { format!("return {}", self.exprs(values)) };
                self.line(&line);
            }
            StmtKind::Yield(values) => {
                let line = format!("{} = pl.yield_({})", self.targets(yield_to), self.exprs(values));
                self.line(&line);
            }
            StmtKind::Break => self.line("break"),
            StmtKind::Continue => self.line("continue"),
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
                let line = format!("if {}:", self.text(*cond));
                self.line(&line);
                self.indent += 1;
                self.block(then_body, return_vars);
                self.indent -= 1;
                self.else_chain(else_body.as_deref(), return_vars);
            }
            StmtKind::For(for_) => {
                let ForStmt { kind, var, start, stop, step, iter_args, body, return_vars, attrs } = &**for_;
                let mut args = vec![self.text(*start), self.text(*stop), self.text(*step)];
                let target = if iter_args.is_empty() {
                    self.var(*var).to_string()
                } else {
                    let carried: Vec<&str> = iter_args.iter().map(|ia| self.var(ia.var)).collect();
                    let inits: Vec<ExprId> = iter_args.iter().map(|ia| ia.init).collect();
                    let comma = if inits.len() == 1 { "," } else { "" };
                    args.push(format!("init_values=({}{comma})", self.exprs(&inits)));
                    format!("{}, ({}{comma})", self.var(*var), carried.join(", "))
                };
                let mut dict = Vec::new();
                for &(k, v) in attrs {
                    match self.names.get(k).strip_prefix(crate::ir::LOOP_ATTR) {
                        Some(key) => dict.push(format!("\"{key}\": {}", self.text(v))),
                        None => args.push(format!("{}={}", self.names.get(k), self.text(v))),
                    }
                }
                if !dict.is_empty() {
                    args.push(format!("attrs={{{}}}", dict.join(", ")));
                }
                let line = format!("for {target} in pl.{}({}):", kind.name(), args.join(", "));
                self.line(&line);
                self.indent += 1;
                self.block(body, return_vars);
                self.indent -= 1;
            }
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                if iter_args.is_empty() {
                    let line = format!("while {}:", self.text(*cond));
                    self.line(&line);
                    self.indent += 1;
                    self.block(body, return_vars);
                    self.indent -= 1;
                } else {
                    let carried: Vec<&str> = iter_args.iter().map(|ia| self.var(ia.var)).collect();
                    let inits: Vec<ExprId> = iter_args.iter().map(|ia| ia.init).collect();
                    let comma = if inits.len() == 1 { "," } else { "" };
                    let line = format!(
                        "for ({}{comma}) in pl.while_(init_values=({}{comma})):",
                        carried.join(", "),
                        self.exprs(&inits)
                    );
                    self.line(&line);
                    self.indent += 1;
                    let cond_line = format!("pl.cond({})", self.text(*cond));
                    self.line(&cond_line);
                    self.block(body, return_vars);
                    self.indent -= 1;
                }
            }
            StmtKind::Scope(scope) => {
                let mut args = Vec::new();
                let head = match &scope.kind {
                    ScopeKind::InCore => {
                        args.push("level=pl.Level.CORE_GROUP".to_string());
                        "pl.at"
                    }
                    ScopeKind::Hierarchy { level, role } => {
                        args.push(format!("level=pl.Level.{level}"));
                        if let Some(r) = role {
                            args.push(format!("role=pl.Role.{r}"));
                        }
                        "pl.at"
                    }
                    ScopeKind::Cluster => "pl.cluster",
                    ScopeKind::Spmd { core_num } => {
                        args.push(self.text(*core_num));
                        "pl.spmd"
                    }
                    ScopeKind::Graph => {
                        args.push(format!("{:?}", scope.name.map_or("", |n| self.names.get(n))));
                        "pl.graph"
                    }
                    ScopeKind::Runtime { manual: true } => "pl.manual_scope",
                    ScopeKind::Runtime { manual: false } if self.manual_auto_scopes => "pl.scope",
                    ScopeKind::Runtime { manual: false } => "pl.auto_scope",
                };
                if !matches!(scope.kind, ScopeKind::Graph) {
                    if let Some(n) = scope.name {
                        args.push(format!("name_hint={:?}", self.names.get(n)));
                    }
                }
                for &(k, v) in &scope.attrs {
                    let key = self.names.get(k);
                    args.push(format!("{key}={}", self.keyword_text(key, v)));
                }
                let binding = scope.task_id.map_or(String::new(), |t| format!(" as {}", self.var(t)));
                let line = format!("with {head}({}){binding}:", args.join(", "));
                self.line(&line);
                self.indent += 1;
                self.block(&scope.body, &[]);
                self.indent -= 1;
            }
        }
    }

    /// The else part of an `if`: `elif` for a lone nested `if` without results.
    fn else_chain(&mut self, else_body: Option<&[StmtId]>, return_vars: &[VarId]) {
        let Some(body) = else_body else { return };
        if let [only] = body {
            if let StmtKind::If(if_) = &self.p.stmt(*only).kind {
                let IfStmt { cond, then_body, else_body, return_vars: inner } = &**if_;
                if inner.is_empty() && return_vars.is_empty() {
                    let line = format!("elif {}:", self.text(*cond));
                    self.line(&line);
                    self.indent += 1;
                    self.block(then_body, &[]);
                    self.indent -= 1;
                    self.else_chain(else_body.as_deref(), &[]);
                    return;
                }
            }
        }
        self.line("else:");
        self.indent += 1;
        self.block(body, return_vars);
        self.indent -= 1;
    }

    /// Writes an expression; `context` is the binding power of the surrounding operator,
    /// so that parentheses appear only where they are needed.
    fn expr(&mut self, id: ExprId, context: Prec) {
        let e = self.p.expr(id);
        match &e.kind {
            ExprKind::Var(v) => {
                let n = self.var(*v).to_string();
                self.out.push_str(&n);
            }
            ExprKind::Int(v) => {
                if *v < 0 && context > Prec::Unary {
                    let _ = write!(self.out, "({v})");
                } else {
                    let _ = write!(self.out, "{v}");
                }
            }
            ExprKind::Float(v) => {
                let text = format_float(*v);
                if *v < 0.0 && context > Prec::Unary {
                    let _ = write!(self.out, "({text})");
                } else {
                    self.out.push_str(&text);
                }
            }
            ExprKind::Bool(b) => self.out.push_str(if *b { "True" } else { "False" }),
            ExprKind::Str(s) => {
                let _ = write!(self.out, "{:?}", self.names.get(*s));
            }
            ExprKind::None => self.out.push_str("None"),
            ExprKind::DType(d) => {
                let _ = write!(self.out, "pl.{d}");
            }
            ExprKind::Enum(v) => {
                let text = v.spelling();
                if text.starts_with("pld.") {
                    self.uses_pld.set(true);
                }
                self.out.push_str(&text);
            }
            ExprKind::DynDim(n) => {
                let n = self.names.get(*n).to_string();
                self.out.push_str(&n);
            }
            ExprKind::Tuple(items) => {
                let text = self.exprs(items);
                let _ = write!(self.out, "[{text}]");
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let power = binding_power(*op);
                let parens = power < context;
                if parens {
                    self.out.push('(');
                }
                // Left-associative operators need parentheses on an equal-power right
                // operand; `**` on its left one. Comparisons never chain.
                let (left_ctx, right_ctx) = if *op == BinOp::Pow {
                    (power.tighter(), Prec::Unary)
                } else if power == Prec::Compare {
                    (power.tighter(), power.tighter())
                } else {
                    (power, power.tighter())
                };
                self.expr(*lhs, left_ctx);
                let _ = write!(self.out, " {} ", op.spelling());
                self.expr(*rhs, right_ctx);
                if parens {
                    self.out.push(')');
                }
            }
            ExprKind::Unary { op, operand } => {
                let power = if *op == UnOp::Not { Prec::Not } else { Prec::Unary };
                let parens = power < context;
                if parens {
                    self.out.push('(');
                }
                self.out.push_str(op.spelling());
                self.expr(*operand, power);
                if parens {
                    self.out.push(')');
                }
            }
            ExprKind::Call { callee, args, attrs } => match callee {
                Callee::Func(f) | Callee::Submit(f) => self.function_call(*callee, *f, args, attrs),
                Callee::Op(op)
                    if self.reads_as_subscripts && matches!(op.def().kind, OpKind::Special(Special::Read)) =>
                {
                    let (Some(t), Some(i)) = (args[0], args[1]) else { return };
                    self.expr(t, Prec::Postfix);
                    let index = match &self.p.expr(i).kind {
                        ExprKind::Tuple(items) => self.exprs(items),
                        _ => self.text(i),
                    };
                    let _ = write!(self.out, "[{index}]");
                }
                Callee::Op(op) => {
                    let def = op.def();
                    let mut parts = Vec::new();
                    for (i, arg) in args.iter().enumerate() {
                        let Some(a) = arg else { continue };
                        let text = self.text(*a);
                        let param = &def.params[i];
                        if param.required {
                            parts.push(text);
                        } else {
                            parts.push(format!("{}={text}", param.name));
                        }
                    }
                    let name = def.print_name();
                    if name.starts_with("pld.") {
                        self.uses_pld.set(true);
                    }
                    if def.is_bare_marker() {
                        let _ = write!(self.out, "{name}");
                    } else {
                        let _ = write!(self.out, "{name}({})", parts.join(", "));
                    }
                }
            },
            ExprKind::TupleGet { tuple, index } => {
                self.expr(*tuple, Prec::Postfix);
                let _ = write!(self.out, "[{index}]");
            }
        }
    }
}

impl Printer<'_> {
    /// `self.f(a, pl.no_dep(b), device=..., attrs={...})`, or for a task launch
    /// `pl.submit(self.f, a, b, deps=[...])` / `pl.spmd_submit(self.f, ..., core_num=n)`.
    fn function_call(&mut self, callee: Callee, f: Symbol, args: &[Option<ExprId>], attrs: &CallAttrs) {
        let submit = matches!(callee, Callee::Submit(_));
        let mut parts = Vec::new();
        if submit {
            parts.push(format!("self.{}", self.names.get(f)));
        }
        for (i, a) in args.iter().enumerate() {
            let Some(a) = *a else { continue };
            let text = self.text(a);
            if attrs.no_dep_positions().contains(&i) {
                parts.push(format!("pl.no_dep({text})"));
            } else {
                parts.push(text);
            }
        }
        if let Some(d) = attrs.device {
            parts.push(format!("device={}", self.text(d)));
        }
        // A launch's options are keywords of `pl.submit`; a plain call keeps them in `attrs=`.
        let mut dict = Vec::new();
        for (key, v) in attrs.launch.iter() {
            let text = self.keyword_text(key, v);
            if submit {
                parts.push(format!("{key}={text}"));
            } else {
                dict.push(format!("\"{key}\": {text}"));
            }
        }
        for &(k, v) in &attrs.extra {
            dict.push(format!("\"{}\": {}", self.names.get(k), self.text(v)));
        }
        if let Some(dirs) = &attrs.arg_directions {
            let names: Vec<String> = dirs.iter().map(|d| format!("\"{d}\"")).collect();
            dict.push(format!("\"arg_directions\": [{}]", names.join(", ")));
        }
        if !dict.is_empty() {
            parts.push(format!("attrs={{{}}}", dict.join(", ")));
        }
        let head = match (submit, attrs.launch.core_num.is_some()) {
            (false, _) => format!("self.{}", self.names.get(f)),
            (true, false) => "pl.submit".to_string(),
            (true, true) => "pl.spmd_submit".to_string(),
        };
        let _ = write!(self.out, "{head}({})", parts.join(", "));
    }
}

/// Python's precedence levels, loosest first: an operand is parenthesised when its
/// operator binds more loosely than its context.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Lowest,
    Or,
    And,
    Not,
    Compare,
    BitOr,
    BitXor,
    BitAnd,
    Shift,
    Arith,
    Term,
    Unary,
    Power,
    Postfix,
}

impl Prec {
    /// The next tighter level: the context of an operand that must not be an operator
    /// of this level unparenthesised.
    fn tighter(self) -> Prec {
        match self {
            Prec::Lowest => Prec::Or,
            Prec::Or => Prec::And,
            Prec::And => Prec::Not,
            Prec::Not => Prec::Compare,
            Prec::Compare => Prec::BitOr,
            Prec::BitOr => Prec::BitXor,
            Prec::BitXor => Prec::BitAnd,
            Prec::BitAnd => Prec::Shift,
            Prec::Shift => Prec::Arith,
            Prec::Arith => Prec::Term,
            Prec::Term => Prec::Unary,
            Prec::Unary => Prec::Power,
            Prec::Power | Prec::Postfix => Prec::Postfix,
        }
    }
}

/// Python's precedence of a binary operator.
fn binding_power(op: BinOp) -> Prec {
    match op {
        BinOp::Or => Prec::Or,
        BinOp::And => Prec::And,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Prec::Compare,
        BinOp::BitOr => Prec::BitOr,
        BinOp::BitXor => Prec::BitXor,
        BinOp::BitAnd => Prec::BitAnd,
        BinOp::Shl | BinOp::Shr => Prec::Shift,
        BinOp::Add | BinOp::Sub => Prec::Arith,
        BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod => Prec::Term,
        BinOp::Pow => Prec::Power,
    }
}

/// A float as Python prints it (`1.0`, `0.5`, `1e-06`).
pub fn format_float(v: f64) -> String {
    // Python has no literal for these; `float("inf")` reads back as the same constant.
    if v.is_nan() {
        return "float(\"nan\")".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "float(\"inf\")" } else { "float(\"-inf\")" }.to_string();
    }
    if v.is_finite() && v == v.trunc() && v.abs() < 1e16 {
        format!("{v:.1}")
    } else {
        let s = format!("{v}");
        if s.contains('e') || s.contains('.') || s.contains("inf") || s.contains("NaN") {
            s
        } else {
            format!("{s}.0")
        }
    }
}

/// A call's arguments as far as the printer knows them without evaluating any (which are
/// given, and their types): enough to see that an op's rule leaves the result untyped
/// when its typing arguments are absent (`pl.tile.tpop_from_aiv()` takes the type of its
/// target's annotation).
struct Presence<'a> {
    p: &'a Program,
    args: &'a [Option<ExprId>],
}

impl super::ops::Args for Presence<'_> {
    fn ty(&self, i: usize) -> Option<&Type> {
        self.args.get(i).copied().flatten().map(|e| self.p.ty(e))
    }
    fn dims(&self, _i: usize) -> Option<Vec<Dim>> {
        None
    }
    fn dtype(&self, _i: usize) -> Option<super::DType> {
        None
    }
    fn enum_value(&self, _i: usize) -> Option<super::EnumValue> {
        None
    }
    fn int(&self, _i: usize) -> Option<i64> {
        None
    }
    fn present(&self, i: usize) -> bool {
        self.args.get(i).copied().flatten().is_some()
    }
}
