//! Readable dumps of the token stream and the AST (`plc emit tokens|ast`), also used as the
//! snapshots of the example tests.

use super::ast::*;
use super::lexer::Token;
use super::token::Tok;
use crate::diag::LineIndex;
use crate::intern::Interner;
use std::fmt::Write;

/// One token per line: `line:col Kind@lo..hi "text"`.
pub fn tokens(src: &str, lines: &LineIndex, tokens: &[Token]) -> String {
    let mut out = String::with_capacity(tokens.len() * 32);
    for tok in tokens {
        let pos = lines.position(src, tok.span.lo);
        let _ = write!(out, "{}:{} {:?}@{}", pos.line, pos.column, tok.kind, tok.span);
        match tok.kind {
            Tok::Newline | Tok::Indent | Tok::Dedent => {}
            _ => {
                let _ = write!(out, " {:?}", tok.text(src));
            }
        }
        out.push('\n');
    }
    out
}

/// Walks deeper than this are cut short in the dump; the limits check has reported them.
const MAX_DUMP_DEPTH: usize = 400;

/// The AST as an indented tree, one node per line with its byte span.
pub fn ast(src: &str, names: &Interner, ast: &Ast) -> String {
    let mut d = Dumper { src, names, ast, out: String::new(), depth: 0 };
    d.line(format_args!("Module"));
    d.depth += 1;
    for item in &ast.host {
        d.line(format_args!("Host {:?} @{}", item.kind, item.span));
    }
    for &s in &ast.body {
        d.stmt(s);
    }
    d.out
}

struct Dumper<'a> {
    src: &'a str,
    names: &'a Interner,
    ast: &'a Ast,
    out: String,
    depth: usize,
}

impl<'a> Dumper<'a> {
    fn line(&mut self, args: std::fmt::Arguments) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    fn nested(&mut self, label: &str, f: impl FnOnce(&mut Self)) {
        self.line(format_args!("{label}"));
        self.depth += 1;
        if self.depth < MAX_DUMP_DEPTH {
            f(self);
        } else {
            self.line(format_args!("..."));
        }
        self.depth -= 1;
    }

    fn text(&self, span: crate::diag::Span) -> &'a str {
        &self.src[span.lo as usize..span.hi as usize]
    }

    fn block(&mut self, label: &str, block: &Block) {
        let stmts = self.ast.block(block);
        self.nested(label, |d| stmts.iter().for_each(|&s| d.stmt(s)));
    }

    fn opt_expr(&mut self, label: &str, e: Option<ExprId>) {
        if let Some(e) = e {
            self.nested(label, |d| d.expr(e));
        }
    }

    fn params(&mut self, params: &[Param]) {
        for p in params {
            let name = p.name.map(|n| self.names.get(n.name)).unwrap_or("");
            self.nested(&format!("Param {:?} {} @{}", p.kind, name, p.span), |d| {
                d.opt_expr("annotation", p.annotation);
                d.opt_expr("default", p.default);
            });
        }
    }

    fn args(&mut self, args: &[Arg]) {
        for a in args {
            let label = match a.kind {
                ArgKind::Positional => format!("arg @{}", a.span),
                ArgKind::Keyword(k) => format!("kwarg {} @{}", self.names.get(k.name), a.span),
                ArgKind::Star => format!("arg * @{}", a.span),
                ArgKind::DoubleStar => format!("arg ** @{}", a.span),
            };
            self.nested(&label, |d| d.expr(a.value));
        }
    }

    fn decorators(&mut self, decorators: &[Decorator]) {
        for dec in decorators {
            self.nested(&format!("decorator @{}", dec.span), |d| d.expr(dec.expr));
        }
    }

    fn stmt(&mut self, id: StmtId) {
        let stmt = self.ast.stmt(id);
        let at = stmt.span;
        match &stmt.kind {
            StmtKind::Expr(e) => self.nested(&format!("Expr @{at}"), |d| d.expr(*e)),
            StmtKind::Assign { targets, value } => self.nested(&format!("Assign @{at}"), |d| {
                for &t in d.ast.list(*targets) {
                    d.nested("target", |d| d.expr(t));
                }
                d.nested("value", |d| d.expr(*value));
            }),
            StmtKind::AnnAssign { target, annotation, value } => self.nested(&format!("AnnAssign @{at}"), |d| {
                d.nested("target", |d| d.expr(*target));
                d.nested("annotation", |d| d.expr(*annotation));
                d.opt_expr("value", *value);
            }),
            StmtKind::AugAssign { target, op, value } => self.nested(&format!("AugAssign {op:?} @{at}"), |d| {
                d.nested("target", |d| d.expr(*target));
                d.nested("value", |d| d.expr(*value));
            }),
            StmtKind::Return(v) => self.nested(&format!("Return @{at}"), |d| {
                if let Some(v) = v {
                    d.expr(*v);
                }
            }),
            StmtKind::Pass => self.line(format_args!("Pass @{at}")),
            StmtKind::Break => self.line(format_args!("Break @{at}")),
            StmtKind::Continue => self.line(format_args!("Continue @{at}")),
            StmtKind::Error => self.line(format_args!("ErrorStmt @{at}")),
            StmtKind::If { branches, orelse } => self.nested(&format!("If @{at}"), |d| {
                for br in branches {
                    d.nested(&format!("branch @{}", br.span), |d| {
                        d.nested("test", |d| d.expr(br.test));
                        d.block("body", &br.body);
                    });
                }
                if let Some(b) = orelse {
                    d.block("else", b);
                }
            }),
            StmtKind::For { target, iter, body, orelse } => self.nested(&format!("For @{at}"), |d| {
                d.nested("target", |d| d.expr(*target));
                d.nested("iter", |d| d.expr(*iter));
                d.block("body", body);
                if let Some(b) = orelse {
                    d.block("else", b);
                }
            }),
            StmtKind::While { test, body, orelse } => self.nested(&format!("While @{at}"), |d| {
                d.nested("test", |d| d.expr(*test));
                d.block("body", body);
                if let Some(b) = orelse {
                    d.block("else", b);
                }
            }),
            StmtKind::With { items, body } => self.nested(&format!("With @{at}"), |d| {
                for item in self.ast.list(*items) {
                    d.nested(&format!("item @{}", item.span), |d| {
                        d.expr(item.context);
                        d.opt_expr("as", item.target);
                    });
                }
                d.block("body", body);
            }),
            StmtKind::FunctionDef(def) => {
                let name = self.names.get(def.name.name);
                let kw = if def.is_async { "AsyncFunctionDef" } else { "FunctionDef" };
                self.nested(&format!("{kw} {name} @{at}"), |d| {
                    d.decorators(&def.decorators);
                    d.params(&def.params);
                    d.opt_expr("returns", def.returns);
                    d.block("body", &def.body);
                });
            }
            StmtKind::ClassDef(def) => {
                let name = self.names.get(def.name.name);
                self.nested(&format!("ClassDef {name} @{at}"), |d| {
                    d.decorators(&def.decorators);
                    d.args(&def.bases);
                    d.block("body", &def.body);
                });
            }
            StmtKind::Import(names) => self.nested(&format!("Import @{at}"), |d| {
                for n in names {
                    d.import_name(n);
                }
            }),
            StmtKind::ImportFrom { level, module, names, star } => {
                let module = module.as_ref().map(|m| self.text(m.span).to_string()).unwrap_or_default();
                self.nested(&format!("ImportFrom {}{} @{at}", ".".repeat(*level as usize), module), |d| {
                    if *star {
                        d.line(format_args!("*"));
                    }
                    for n in names {
                        d.import_name(n);
                    }
                });
            }
            StmtKind::Unsupported { construct, exprs, blocks } => {
                self.nested(&format!("Unsupported {construct:?} @{at}"), |d| {
                    exprs.iter().for_each(|&e| d.expr(e));
                    blocks.iter().for_each(|b| d.block("block", b));
                });
            }
        }
    }

    fn import_name(&mut self, n: &ImportName) {
        let name = self.text(n.name.span).to_string();
        match n.alias {
            Some(alias) => {
                let alias = self.names.get(alias.name);
                self.line(format_args!("{name} as {alias} @{}", n.span));
            }
            None => self.line(format_args!("{name} @{}", n.span)),
        }
    }

    fn expr(&mut self, id: ExprId) {
        let expr = self.ast.expr(id);
        let at = expr.span;
        match &expr.kind {
            ExprKind::Name(n) => self.line(format_args!("Name {} @{at}", self.names.get(*n))),
            ExprKind::Int => self.line(format_args!("Int {} @{at}", self.text(at))),
            ExprKind::Float => self.line(format_args!("Float {} @{at}", self.text(at))),
            ExprKind::Imaginary => self.line(format_args!("Imaginary {} @{at}", self.text(at))),
            ExprKind::Str(pieces) => {
                let kinds: Vec<String> = self.ast.list(*pieces).iter().map(|p| format!("{:?}", p.kind)).collect();
                self.line(format_args!("Str[{}] {} @{at}", kinds.join(","), self.text(at).escape_debug()))
            }
            ExprKind::True => self.line(format_args!("True @{at}")),
            ExprKind::False => self.line(format_args!("False @{at}")),
            ExprKind::None => self.line(format_args!("None @{at}")),
            ExprKind::Ellipsis => self.line(format_args!("Ellipsis @{at}")),
            ExprKind::Error => self.line(format_args!("ErrorExpr @{at}")),
            ExprKind::Attribute { value, attr } => {
                let attr = self.names.get(attr.name);
                self.nested(&format!("Attribute .{attr} @{at}"), |d| d.expr(*value))
            }
            ExprKind::Call { func, args } => self.nested(&format!("Call @{at}"), |d| {
                d.expr(*func);
                d.args(d.ast.list(*args));
            }),
            ExprKind::Subscript { value, index } => self.nested(&format!("Subscript @{at}"), |d| {
                d.expr(*value);
                d.nested("index", |d| d.expr(*index));
            }),
            ExprKind::Slice { lower, upper, step } => self.nested(&format!("Slice @{at}"), |d| {
                d.opt_expr("lower", *lower);
                d.opt_expr("upper", *upper);
                d.opt_expr("step", *step);
            }),
            ExprKind::List(items) => {
                let items = self.ast.list(*items);
                self.nested(&format!("List @{at}"), |d| items.iter().for_each(|&e| d.expr(e)))
            }
            ExprKind::Tuple(items) => {
                let items = self.ast.list(*items);
                self.nested(&format!("Tuple @{at}"), |d| items.iter().for_each(|&e| d.expr(e)))
            }
            ExprKind::Set(items) => {
                let items = self.ast.list(*items);
                self.nested(&format!("Set @{at}"), |d| items.iter().for_each(|&e| d.expr(e)))
            }
            ExprKind::Dict(entries) => self.nested(&format!("Dict @{at}"), |d| {
                for entry in entries {
                    match entry.key {
                        Some(k) => d.nested("entry", |d| {
                            d.expr(k);
                            d.expr(entry.value);
                        }),
                        None => d.nested("entry **", |d| d.expr(entry.value)),
                    }
                }
            }),
            ExprKind::Comprehension { kind, elt, value, generators } => {
                self.nested(&format!("Comprehension {kind:?} @{at}"), |d| {
                    d.expr(*elt);
                    d.opt_expr("value", *value);
                    for g in generators {
                        d.nested(&format!("for @{}", g.span), |d| {
                            d.expr(g.target);
                            d.nested("in", |d| d.expr(g.iter));
                            for &cond in &g.ifs {
                                d.nested("if", |d| d.expr(cond));
                            }
                        });
                    }
                })
            }
            ExprKind::Unary { op, operand } => self.nested(&format!("Unary {op:?} @{at}"), |d| d.expr(*operand)),
            ExprKind::Binary { op, lhs, rhs } => self.nested(&format!("Binary {op:?} @{at}"), |d| {
                d.expr(*lhs);
                d.expr(*rhs);
            }),
            ExprKind::Bool { op, lhs, rhs } => self.nested(&format!("Bool {op:?} @{at}"), |d| {
                d.expr(*lhs);
                d.expr(*rhs);
            }),
            ExprKind::Compare { first, rest } => self.nested(&format!("Compare @{at}"), |d| {
                d.expr(*first);
                for &(op, e) in rest {
                    d.nested(&format!("{op:?}"), |d| d.expr(e));
                }
            }),
            ExprKind::IfExp { test, body, orelse } => self.nested(&format!("IfExp @{at}"), |d| {
                d.expr(*body);
                d.nested("if", |d| d.expr(*test));
                d.nested("else", |d| d.expr(*orelse));
            }),
            ExprKind::Lambda { params, body } => self.nested(&format!("Lambda @{at}"), |d| {
                d.params(params);
                d.expr(*body);
            }),
            ExprKind::Starred(e) => self.nested(&format!("Starred @{at}"), |d| d.expr(*e)),
            ExprKind::Await(e) => self.nested(&format!("Await @{at}"), |d| d.expr(*e)),
            ExprKind::NamedExpr { target, value } => self.nested(&format!("NamedExpr @{at}"), |d| {
                d.expr(*target);
                d.expr(*value);
            }),
            ExprKind::Yield(e) => self.nested(&format!("Yield @{at}"), |d| {
                if let Some(e) = e {
                    d.expr(*e);
                }
            }),
        }
    }
}
