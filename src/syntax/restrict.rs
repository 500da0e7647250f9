//! Python forms the pl language does not have. The grammar parses them, so that this check
//! can refuse each one by name, with what to write instead (E0110), and report assignments
//! to things that cannot be assigned (E0105). Host code never reaches here: it was set aside
//! before parsing.
//!
//! ```text
//! x += 1            error[E0110]: augmented assignment `+=` is not supported in pl
//!                   help: write `x = x + ...`
//! ```

use super::ast::*;
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::source::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

/// Walks everything reachable from the module body and reports every unsupported form; the
/// expressions only when `exprs` (false when the builder made none that [`may_refuse`]:
/// their walk would find nothing).
///
/// What it finds in the body of a function whose decorator gives a `role=` is returned
/// instead, with the function's statement (the outermost such function): with
/// `role=SubWorker` at HOST level or above, the body is Python that PyPTO keeps as written
/// (an `InlineStmt`), and only the decorator resolved against the module's names says so
/// (`import pypto.language as p`, a constant bound to the role). Lowering decides, once,
/// when it reads the decorator (`FuncDecl::python_body`), and reports the others.
pub fn check(
    file: FileId,
    src: &str,
    ast: &Ast,
    exprs: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(StmtId, Diagnostic)> {
    let mut r = Restrict {
        file,
        src,
        ast,
        diags,
        starred_targets: FxHashSet::default(),
        predicate_literals: FxHashSet::default(),
        reported: FxHashMap::default(),
        compile_time: false,
        stack: Vec::new(),
    };
    let mut deferred = Vec::new();
    // Statements with their context (whether they sit inside a function or a class body)
    // and the function with a `role=` whose body holds them, if any.
    let mut stack: Vec<(StmtId, Context, Option<StmtId>)> =
        ast.body.iter().rev().map(|&s| (s, Context::Module, None)).collect();
    let mut nodes = Vec::new();
    while let Some((id, context, owner)) = stack.pop() {
        let before = r.diags.len();
        r.stmt(id, context);
        let inner = match &ast.stmt(id).kind {
            // An undecorated top-level `def` reaches the parser only as a program factory
            // (see `host.rs`): its body is evaluated at compile time by lowering.
            StmtKind::FunctionDef(def) if context == Context::Module && def.decorators.is_empty() => Context::Factory,
            StmtKind::FunctionDef(_) => Context::Function,
            StmtKind::ClassDef(_) if matches!(context, Context::Module | Context::Factory) => Context::Class,
            _ => context,
        };
        // A module constant's value is evaluated at compile time, as a factory's statements.
        let module_constant = inner == Context::Module && matches!(ast.stmt(id).kind, StmtKind::Assign { .. });
        let body_owner = owner.or_else(|| match &ast.stmt(id).kind {
            StmtKind::FunctionDef(def) if gives_role(ast, src, def) => Some(id),
            _ => None,
        });
        nodes.clear();
        ast.stmt_children(id, &mut nodes);
        for node in nodes.iter().rev() {
            match *node {
                Node::Stmt(s) => stack.push((s, inner, body_owner)),
                Node::Expr(_) if !exprs => {}
                Node::Expr(e) => {
                    r.compile_time = inner == Context::Factory || module_constant;
                    r.expr_tree(e)
                }
            }
        }
        if let Some(owner) = owner {
            deferred.extend(r.diags.drain(before..).map(|d| (owner, d)));
        }
    }
    deferred
}

/// Whether one of the function's decorators is a call with a `role=` keyword (what a HOST
/// SubWorker's decorator needs; its value is read by lowering, after names resolve).
fn gives_role(ast: &Ast, src: &str, def: &FunctionDef) -> bool {
    def.decorators.iter().any(|d| match &ast.expr(d.expr).kind {
        ExprKind::Call { args, .. } => ast.list(*args).iter().any(
            |a| matches!(a.kind, ArgKind::Keyword(key) if &src[key.span.lo as usize..key.span.hi as usize] == "role"),
        ),
        _ => false,
    })
}

/// Whether `restrict` may refuse an expression of this kind, in some context: what the
/// builder notes of each node it makes, so that a tree without one is not walked. It
/// covers every report of `Restrict::expr` (a `+5` allowed as a `predicate=` operand is
/// still a unary `+` here).
pub fn may_refuse(ast: &Ast, kind: &ExprKind) -> bool {
    match kind {
        ExprKind::Lambda { .. }
        | ExprKind::IfExp { .. }
        | ExprKind::Unary { op: UnaryOp::Pos, .. }
        | ExprKind::Binary { op: BinOp::MatMul, .. }
        | ExprKind::Set(_)
        | ExprKind::Starred(_)
        | ExprKind::NamedExpr { .. }
        | ExprKind::Yield(_)
        | ExprKind::Await(_)
        | ExprKind::Imaginary => true,
        ExprKind::Compare { rest, .. } => {
            rest.len() > 1
                || rest.iter().any(|(op, _)| matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn))
        }
        ExprKind::Comprehension { kind, generators, .. } => *kind != ComprehensionKind::List || generators.len() > 1,
        ExprKind::Call { args, .. } => {
            ast.list(*args).iter().any(|a| matches!(a.kind, ArgKind::Star | ArgKind::DoubleStar))
        }
        ExprKind::Dict(entries) => entries.iter().any(|e| e.key.is_none()),
        ExprKind::Str(pieces) => ast.list(*pieces).iter().any(|p| p.kind == StrKind::Bytes),
        _ => false,
    }
}

/// Whether `restrict` may refuse a statement of this kind itself (not its expressions:
/// [`may_refuse`]), in some context: what the builder notes of each statement it makes.
/// A `def` or a `class` inside another, refused in some contexts, is the builder's to
/// note (the order it makes them in tells), as are the statements' contexts.
pub fn may_refuse_stmt(ast: &Ast, kind: &StmtKind) -> bool {
    // A target `Restrict::target` accepts without a look at its parts.
    let plain = |t: ExprId| {
        matches!(ast.expr(t).kind, ExprKind::Name(_) | ExprKind::Attribute { .. } | ExprKind::Subscript { .. })
    };
    match kind {
        StmtKind::AugAssign { .. } | StmtKind::Unsupported { .. } | StmtKind::While { orelse: Some(_), .. } => true,
        StmtKind::Assign { targets, .. } => !ast.list(*targets).iter().all(|&t| plain(t)),
        StmtKind::AnnAssign { target, .. } => !plain(*target),
        StmtKind::For { target, orelse, .. } => orelse.is_some() || !plain(*target),
        StmtKind::With { items, .. } => {
            items.len() > 1 || ast.list(*items).iter().any(|i| i.target.is_some_and(|t| !plain(t)))
        }
        StmtKind::FunctionDef(def) => def.is_async || def.params.iter().any(|p| p.kind != ParamKind::Normal),
        _ => false,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Module,
    Class,
    Function,
    /// The body of a program factory: its `@pl.` definitions and its `assert`s are allowed.
    Factory,
}

struct Restrict<'a> {
    file: FileId,
    src: &'a str,
    ast: &'a Ast,
    diags: &'a mut Vec<Diagnostic>,
    /// Starred elements of targets, which are allowed (`a, *rest = ...`). A statement's
    /// targets are checked before its expressions are walked.
    starred_targets: FxHashSet<ExprId>,
    /// `+5` operands of a `predicate=` comparison, which PyPTO reads as the literal they
    /// sign (it matches a predicate's operands syntactically); unary `+` is refused elsewhere.
    predicate_literals: FxHashSet<ExprId>,
    /// The span of the last report of each construct.
    reported: FxHashMap<String, Span>,
    /// The expressions checked are those of a program factory's own statements or of a
    /// module constant's value, which are evaluated at compile time: conditional expressions
    /// and dicts are allowed there.
    compile_time: bool,
    /// The stack of `expr_tree`'s walks, kept from one tree to the next.
    stack: Vec<ExprId>,
}

impl Restrict<'_> {
    fn unsupported(&mut self, span: Span, what: impl Into<String>, help: &str) {
        let what = what.into();
        // One report for a construct nested in itself (`a if b else c if d else e`): nodes
        // are visited parents first, and a nested one lies inside its parent's span.
        if let Some(&outer) = self.reported.get(&what) {
            if outer.contains(span) {
                return;
            }
        }
        self.reported.insert(what.clone(), span);
        let mut diag = Diagnostic::error(
            Code::E0110,
            format!("{what} is not supported in pl"),
            Label::primary(self.file, span, "not part of the pl language"),
        );
        if !help.is_empty() {
            diag = diag.with_help(help.to_string());
        }
        self.diags.push(diag);
    }

    fn text(&self, span: Span) -> &str {
        &self.src[span.lo as usize..span.hi as usize]
    }

    fn stmt(&mut self, id: StmtId, context: Context) {
        let stmt = self.ast.stmt(id);
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::AugAssign { target, op, value: _ } => {
                let target_text = self.text(self.ast.expr(*target).span).to_string();
                let op = binop_spelling(*op);
                self.unsupported(
                    span,
                    format!("augmented assignment `{op}=`"),
                    &format!("write `{target_text} = {target_text} {op} ...`"),
                );
                self.target(*target);
            }
            StmtKind::Assign { targets, .. } => self.ast.list(*targets).iter().for_each(|&t| self.target(t)),
            StmtKind::AnnAssign { target, .. }
                if !matches!(
                    self.ast.expr(*target).kind,
                    ExprKind::Name(_) | ExprKind::Attribute { .. } | ExprKind::Subscript { .. }
                ) =>
            {
                self.invalid_target(*target, "an annotated assignment needs a single name");
            }
            StmtKind::For { target, orelse, .. } => {
                self.target(*target);
                if let Some(b) = orelse {
                    self.unsupported(b.span, "`for ... else`", "move the `else` block after the loop");
                }
            }
            StmtKind::While { orelse: Some(b), .. } => {
                self.unsupported(b.span, "`while ... else`", "move the `else` block after the loop");
            }
            StmtKind::With { items, .. } => {
                let items = self.ast.list(*items);
                if items.len() > 1 {
                    let extra = items[1].span.to(items[items.len() - 1].span);
                    self.unsupported(
                        extra,
                        "a `with` statement with several context managers",
                        "nest one `with` statement inside the other",
                    );
                }
                for item in items {
                    if let Some(t) = item.target {
                        self.target(t);
                    }
                }
            }
            StmtKind::FunctionDef(def) => {
                if context == Context::Function || (context == Context::Factory && def.decorators.is_empty()) {
                    self.unsupported(
                        def.name.span,
                        "a function defined inside a function",
                        "define it at the top level of the module",
                    );
                }
                if def.is_async {
                    self.unsupported(def.name.span, "`async def`", "");
                }
                for p in &def.params {
                    match p.kind {
                        ParamKind::Normal => {}
                        ParamKind::VarArgs if p.name.is_none() => {
                            self.unsupported(p.span, "a keyword-only parameter marker `*`", "remove the `*`")
                        }
                        ParamKind::VarArgs => self.unsupported(p.span, "a `*args` parameter", "list each parameter"),
                        ParamKind::KwArgs => self.unsupported(p.span, "a `**kwargs` parameter", "list each parameter"),
                        ParamKind::PosOnlyMarker => {
                            self.unsupported(p.span, "a positional-only parameter marker `/`", "remove the `/`")
                        }
                    }
                }
            }
            StmtKind::ClassDef(def) if !matches!(context, Context::Module | Context::Factory) => {
                self.unsupported(
                    def.name.span,
                    "a class defined inside a function or class",
                    "define it at the top level of the module",
                );
            }
            StmtKind::Unsupported { construct: Construct::Assert, .. } if context == Context::Factory => {}
            StmtKind::Unsupported { construct, .. } => {
                let help = match construct {
                    Construct::Try => "pl functions are compiled; errors are reported by the compiler, not raised",
                    Construct::Raise | Construct::Assert => "check the condition outside the pl function, in host code",
                    Construct::Del => "names in pl functions need no deleting",
                    Construct::Global | Construct::Nonlocal => "pass the value as a parameter",
                    Construct::Async => "",
                };
                self.unsupported(span, construct.describe(), help);
            }
            _ => {}
        }
    }

    /// Checks an assignment target: names, tuples and lists of targets, attributes,
    /// subscripts and starred targets.
    fn target(&mut self, root: ExprId) {
        // Iterative: a target may be a tuple nested as deep as the input makes it.
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            match &self.ast.expr(id).kind {
                ExprKind::Name(_) | ExprKind::Attribute { .. } | ExprKind::Subscript { .. } | ExprKind::Error => {}
                ExprKind::Tuple(items) | ExprKind::List(items) => stack.extend(self.ast.list(*items).iter().rev()),
                ExprKind::Starred(inner) => {
                    self.starred_targets.insert(id);
                    stack.push(*inner);
                }
                kind => {
                    let what = match kind {
                        ExprKind::Call { .. } => "cannot assign to a function call",
                        kind if kind.is_literal() => "cannot assign to a literal",
                        _ => "cannot assign to an expression",
                    };
                    self.invalid_target(id, what);
                }
            }
        }
    }

    /// Allows a signed literal `+N` as an operand of the comparison `value` of a
    /// `predicate=` keyword.
    fn predicate_literal(&mut self, value: ExprId) {
        let ExprKind::Compare { first, rest } = &self.ast.expr(value).kind else { return };
        for e in std::iter::once(*first).chain(rest.iter().map(|&(_, e)| e)) {
            if let ExprKind::Unary { op: UnaryOp::Pos, operand } = &self.ast.expr(e).kind {
                if matches!(self.ast.expr(*operand).kind, ExprKind::Int) {
                    self.predicate_literals.insert(e);
                }
            }
        }
    }

    fn invalid_target(&mut self, id: ExprId, what: &str) {
        self.diags.push(
            Diagnostic::error(
                Code::E0105,
                format!("invalid assignment target: {what}"),
                Label::primary(self.file, self.ast.expr(id).span, "cannot be assigned to"),
            )
            .with_help("assign to a name, or to a tuple of names"),
        );
    }

    /// Checks every expression of a tree, iteratively.
    fn expr_tree(&mut self, root: ExprId) {
        // One stack for every tree of the file, not one allocated per statement.
        let mut stack = std::mem::take(&mut self.stack);
        stack.push(root);
        while let Some(id) = stack.pop() {
            self.expr(id);
            self.ast.expr_children(id, &mut |c| stack.push(c));
        }
        self.stack = stack;
    }

    fn expr(&mut self, id: ExprId) {
        let expr = self.ast.expr(id);
        let span = expr.span;
        match &expr.kind {
            ExprKind::Lambda { .. } => {
                self.unsupported(span, "a `lambda` expression", "define a function with `@pl.jit.inline` and call it")
            }
            ExprKind::IfExp { .. } if self.compile_time => {}
            ExprKind::IfExp { .. } => self.unsupported(
                span,
                "a conditional expression `a if c else b`",
                "use an `if` statement that assigns the name in both branches",
            ),
            ExprKind::Compare { first, rest } => {
                if rest.len() > 1 {
                    let (op, second) = rest[0];
                    let (a, b) = (self.text(self.ast.expr(*first).span), self.text(self.ast.expr(second).span));
                    let help = format!("write `{a} {} {b} and {b} ...`", cmpop_spelling(op));
                    self.unsupported(span, "a chained comparison", &help);
                }
                for &(op, _) in rest {
                    // Membership folds at compile time (a module constant, a factory's
                    // statements); pl code has no containers to search.
                    let membership = matches!(op, CmpOp::In | CmpOp::NotIn);
                    if matches!(op, CmpOp::Is | CmpOp::IsNot) || (membership && !self.compile_time) {
                        let what = format!("the `{}` comparison", cmpop_spelling(op));
                        self.unsupported(span, what, "compare values with `==`, `!=`, `<`, `<=`, `>` or `>=`");
                    }
                }
            }
            ExprKind::Unary { op: UnaryOp::Pos, .. } if !self.predicate_literals.contains(&id) => {
                self.unsupported(span, "unary `+`", "remove the `+`")
            }
            ExprKind::Binary { op: BinOp::MatMul, .. } => {
                self.unsupported(span, "the `@` operator", "multiply matrices with `pl.matmul(a, b)`")
            }
            ExprKind::Comprehension { kind, generators, .. } => {
                let what = match kind {
                    ComprehensionKind::List => None,
                    ComprehensionKind::Set => Some("a set comprehension"),
                    ComprehensionKind::Dict => Some("a dict comprehension"),
                    ComprehensionKind::Generator => Some("a generator expression"),
                };
                match what {
                    Some(what) => self.unsupported(
                        span,
                        what,
                        "only a list comprehension `[e for x in xs]` is allowed, as in `deps=[...]`",
                    ),
                    None if generators.len() > 1 => self.unsupported(
                        generators[1].span,
                        "a list comprehension with more than one `for`",
                        "use a single `for` clause",
                    ),
                    None => {}
                }
            }
            ExprKind::Set(_) => self.unsupported(span, "a set literal", "use a list `[...]`"),
            ExprKind::Call { args, .. } => {
                for arg in self.ast.list(*args) {
                    match arg.kind {
                        ArgKind::Keyword(k) if self.text(k.span) == "predicate" => self.predicate_literal(arg.value),
                        ArgKind::Star => self.unsupported(arg.span, "`*` unpacking in a call", "pass each argument"),
                        ArgKind::DoubleStar => {
                            self.unsupported(arg.span, "`**` unpacking in a call", "pass each keyword argument")
                        }
                        _ => {}
                    }
                }
            }
            ExprKind::Dict(entries) if entries.iter().any(|e| e.key.is_none()) => {
                self.unsupported(span, "`**` unpacking in a dict", "write each entry");
            }
            // Allowed as an element of an assignment or loop target only.
            ExprKind::Starred(_) if !self.starred_targets.contains(&id) => {
                self.unsupported(span, "a starred expression `*x`", "write the elements out")
            }
            ExprKind::NamedExpr { .. } => {
                self.unsupported(span, "an assignment expression `:=`", "assign the name in a statement of its own")
            }
            ExprKind::Yield(_) => self.unsupported(span, "`yield`", "pl functions return their results with `return`"),
            ExprKind::Await(_) => self.unsupported(span, "`await`", ""),
            ExprKind::Imaginary => self.unsupported(span, "a complex number literal", ""),
            ExprKind::Str(pieces) if self.ast.list(*pieces).iter().any(|p| p.kind == StrKind::Bytes) => {
                self.unsupported(span, "a bytes literal", "use a plain string")
            }
            _ => {}
        }
    }
}

pub fn binop_spelling(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::MatMul => "@",
        BinOp::Div => "/",
        BinOp::FloorDiv => "//",
        BinOp::Mod => "%",
        BinOp::Pow => "**",
        BinOp::LShift => "<<",
        BinOp::RShift => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
    }
}

pub fn cmpop_spelling(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::NotEq => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
        CmpOp::In => "in",
        CmpOp::NotIn => "not in",
        CmpOp::Is => "is",
        CmpOp::IsNot => "is not",
    }
}
