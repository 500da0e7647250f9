//! Function bodies: statements and expressions, with names resolved, constants folded and
//! every expression typed.

use super::annot::{cmp_binop, ir_binop, parse_float, parse_int};
use super::consts::Const;
use super::scopes::RegionLoop;
use super::{Binding, FuncInfo, Lowering, MixedPart, ModuleId};
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::intern::Symbol;
use crate::ir::ops::{self, ArgKind as OpArg, Args, Op, OpDef, OpLevel};
use crate::ir::{
    BinOp, Block, CallAttrs, Callee, DType, Dim, Direction, EnumValue, ExprId, ExprKind, ForKind, Function, IfStmt,
    IterArg, Layout, Loc, Param, StmtId, StmtKind, Type, TypeId, Types, UnOp, VarId,
};
use crate::source::FileId;
use crate::syntax::ast::{self, ArgKind, ExprKind as E, StmtKind as S};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// How deep calls of functions without a return annotation may make lowering recurse.
const MAX_LOWERING_DEPTH: usize = 64;

/// Lowers the body of one function.
pub(crate) fn lower_function(cx: &mut Lowering<'_>, info: &FuncInfo) -> Function {
    let m = info.module;
    let file = cx.modules[m].file;
    // The module's syntax tree, held apart from `cx` so that the body reads it by
    // reference while it changes the rest of the lowering.
    let tree = Arc::clone(&cx.modules[m].ast);
    let def = match &tree.stmt(info.def).kind {
        S::FunctionDef(def) => def,
        _ => unreachable!("a FuncInfo always points at a def"),
    };
    let mut f = FnLower {
        cx,
        tree: &tree,
        m,
        file,
        info,
        // Sized for a usual function's names, so that they are not grown from empty.
        names: FxHashMap::with_capacity_and_hasher(16, Default::default()),
        frames: Vec::new(),
        returns: None,
        used: FxHashSet::default(),
        used_filled: false,
        unread_names: None,
        aliases: FxHashMap::default(),
        yield_reported: false,
        launches: Default::default(),
        buffers: FxHashSet::default(),
        carried: FxHashSet::default(),
        ssa: super::checks::SsaScopes::new(info.decl.strict_ssa, info.params.iter().map(|p| p.name)),
        pending: Vec::new(),
        hoisted_yield: None,
        split_aiv: None,
        window_target: None,
        local_dyns: FxHashMap::default(),
        bound_dyns: FxHashSet::default(),
        last_tuple: None,
        last_results: [None; 2],
    };
    let mut params = Vec::with_capacity(info.params.len());
    for p in &info.params {
        let ty = f.cx.import_type(p.ty);
        let var = f.cx.program.new_var(&mut f.cx.session.interner, p.name, ty, Loc::new(file, p.span));
        // A parameter named `pl` is E0228 (reported with the signature); the body's `pl.`
        // calls still name the module.
        if f.cx.namespace_named(m, p.name).is_none() {
            f.names.insert(p.name, var);
        }
        params.push(Param { var, dir: p.dir });
    }
    let deep = depth_guard(f.cx);
    // A HOST SubWorker's body is Python, kept by PyPTO as it is written: plc reads its
    // signature only (and `restrict`'s findings in it were dropped: `report_role_bodies`).
    let python = info.decl.python_body();
    // An external kernel's body is its C++ file: the `def` declares the signature only. So
    // is a mixed one's (its stub's body is checked once, with its Group).
    let mixed = info.mixed;
    let external = info.decl.external_source.is_some() || mixed.is_some();
    if python {
        f.python_body_note(def);
    } else if external {
        if mixed != Some(MixedPart::Member) {
            f.external_body_check(def);
        }
    } else {
        // Names assigned anywhere in the body are reserved for temporaries' sake (read at
        // the first temporary: `fresh_name`).
        f.unread_names = Some(tree.block(&def.body));
    }
    // PyPTO reads the `pl.func_attr` prologue of a Python body too (its values may name
    // the parameters), and refuses a directive after it.
    let (extra, prologue) =
        if deep || external { (Vec::new(), 0) } else { f.func_attr_prologue(tree.block(&def.body)) };
    if python && !deep {
        f.misplaced_func_attrs(&tree.block(&def.body)[prologue..]);
    }
    let body = match mixed {
        Some(MixedPart::Group { aic, aiv }) => f.mixed_group_body(&params, aic, aiv),
        _ if deep || python || external => Vec::new(),
        _ => f.block(&tree.block(&def.body)[prologue..]),
    };
    f.cx.depth_exit();
    let returns = match &info.returns {
        Some(r) => r.iter().map(|&t| f.cx.import_type(t)).collect(),
        None => f.returns.clone().unwrap_or_default(),
    };
    Function {
        name: info.name,
        loc: Loc::new(file, info.span),
        decl: crate::ir::FuncDecl { extra, ..info.decl.clone() },
        params,
        returns,
        body,
    }
}

fn depth_guard(cx: &mut Lowering<'_>) -> bool {
    cx.lowering_depth += 1;
    cx.lowering_depth > MAX_LOWERING_DEPTH
}

impl Lowering<'_> {
    fn depth_exit(&mut self) {
        self.lowering_depth -= 1;
    }
}

/// What encloses the statement being lowered.
#[derive(Clone, Debug)]
pub(crate) enum Frame {
    /// A `with` region.
    Scope { kind: FrameKind, span: Span, name: Option<String> },
    /// A loop, with whether `break`/`continue` are allowed in it.
    Loop { breakable: bool, what: &'static str },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameKind {
    InCore,
    Hierarchy,
    Cluster,
    Spmd,
    Graph,
    Runtime { manual: bool },
}

/// A source name and where it is written.
type Named = (Symbol, Span);

/// What a trailing `x, y = pl.yield_(a, b)` binds: the names and the types of the values.
type Yielded = (Vec<Named>, Vec<TypeId>);

pub(crate) struct FnLower<'a, 's> {
    /// The mode of the `pl.split_aiv` loop being lowered, which `pl.aiv_shard` and
    /// `pl.aic_gather` inside it take as their `split`.
    pub split_aiv: Option<crate::ir::SplitMode>,
    pub cx: &'a mut Lowering<'s>,
    /// The syntax tree of module `m` ([`FnLower::ast`]).
    tree: &'a ast::Ast,
    pub m: ModuleId,
    pub file: FileId,
    pub info: &'a FuncInfo,
    /// The variables visible by name.
    pub names: FxHashMap<Symbol, VarId>,
    pub frames: Vec<Frame>,
    /// The types of the values of the first `return`, for functions without a return
    /// annotation.
    returns: Option<Vec<TypeId>>,
    /// Every name of the function, so that temporaries get fresh ones: filled at the first
    /// temporary (`fresh_name`), most functions having none.
    used: FxHashSet<Symbol>,
    /// Whether `used` is filled.
    used_filled: bool,
    /// The body whose names `used` takes when it is filled (none for a body not lowered).
    unread_names: Option<&'a [ast::StmtId]>,
    /// Names standing for a value inside a comprehension (`t` in `[t for t in tids]`).
    aliases: FxHashMap<Symbol, ExprId>,
    /// Set when a `pl.yield_` in the body being lowered was already reported as misplaced
    /// or bare, so that its loop does not also report a missing yield.
    yield_reported: bool,
    /// The loop-carried variables (iter args), which PyPTO lets a body re-bind with
    /// another type.
    pub(crate) carried: FxHashSet<VarId>,
    /// The names each open block binds, for `strict_ssa=True`.
    pub(crate) ssa: super::checks::SsaScopes,
    /// Statements an expression of the statement being lowered needs before it (the
    /// tensors of the `pl.Out` parameters a `pl.submit` omits), spliced in front of it.
    pub(crate) pending: Vec<StmtId>,
    /// A trailing `x = pl.yield_(...)` at the end of a runtime scope that ends a loop body
    /// or branch: the scope is lowered without it, and the yield follows the scope.
    hoisted_yield: Option<ast::StmtId>,
    /// What the checks of task launches remember (`super::launch`).
    pub(crate) launches: super::launch::LaunchTrack,
    /// The variables holding a cross-core buffer's base (`buf = pl.reserve_buffer(...)`),
    /// which PyPTO also reads as `buf.base`.
    buffers: FxHashSet<VarId>,
    /// The name and the value's span of the single-name assignment being lowered, where
    /// `pld.alloc_window_buffer` may stand (`distributed.rs`).
    pub(crate) window_target: Option<(Symbol, Span)>,
    /// The dynamic dimensions a `@pl.jit` body declared (`d = pl.dynamic("D")`) and has not
    /// bound to an extent yet, with where (`jit.rs`).
    pub(crate) local_dyns: FxHashMap<Symbol, Span>,
    /// Those it has bound (`x.bind_dynamic(0, d)`): the name holds the extent.
    pub(crate) bound_dyns: FxHashSet<Symbol>,
    /// The last short tuple type a list literal got, by its element types: the lists of
    /// a body are mostly alike (`[0, 0]`, `[ROWS, COLS]`), and reusing the id spares
    /// making and hashing the type (`tuple_type`).
    last_tuple: Option<(usize, [TypeId; TUPLE_MEMO], TypeId)>,
    /// The types of the last two op results that were not already here, tried before the
    /// type table (`result_type`).
    last_results: [Option<TypeId>; 2],
}

/// The most elements a tuple type remembered by `FnLower::tuple_type` has.
const TUPLE_MEMO: usize = 4;

/// The most parameters of an op whose arguments `op_call_with` matches on the stack.
const INLINE_SLOTS: usize = 16;

/// An argument's syntax and the IR expression it lowered to.
type Lowered = (ast::ExprId, ExprId);

impl<'a> FnLower<'a, '_> {
    /// The syntax tree of the function's module, borrowed apart from `self`: what is read
    /// from it stays readable while `self` changes (no copy of a node to lower it).
    pub fn ast(&self) -> &'a ast::Ast {
        self.tree
    }
}

impl FnLower<'_, '_> {
    /// N0001 for a HOST SubWorker whose body does something (more than `pass`, `...` or a
    /// docstring): that Python is PyPTO's to run; plc keeps the signature and skips it.
    /// `pl.func_attr(...)` after another statement of the body: E0226.
    fn func_attr_misplaced(&mut self, span: Span) {
        let fname = self.cx.name(self.info.name).to_string();
        self.error(
            Code::E0226,
            span,
            format!("pl.func_attr() must appear before every other statement in '{fname}'"),
            "not at the start of the body",
        );
    }

    /// The `pl.func_attr(...)` statements among `stmts`, the top level of a Python body
    /// after its prologue (which is not lowered, so nothing else finds them).
    fn misplaced_func_attrs(&mut self, stmts: &[ast::StmtId]) {
        for &st in stmts {
            let S::Expr(e) = &self.ast().stmt(st).kind else { continue };
            let e = *e;
            if let E::Call { func, .. } = &self.ast().expr(e).kind {
                if self.cx.is_pl_path(self.m, *func, "func_attr") {
                    let span = self.ast().expr(e).span;
                    self.func_attr_misplaced(span);
                }
            }
        }
    }

    /// The body of a mixed external kernel's Group (PyPTO's specializer writes it so): the
    /// AIC member's call, bound to `_r` when the stub returns values, then the AIV member's,
    /// both with the Group's parameters; then `return _r` (its items, for several values).
    fn mixed_group_body(&mut self, params: &[Param], aic: Symbol, aiv: Symbol) -> Block {
        let span = self.info.span;
        let args: Vec<Option<ExprId>> = params
            .iter()
            .map(|p| {
                let ty = self.cx.program.var(p.var).ty;
                Some(self.new_expr(ExprKind::Var(p.var), ty, span))
            })
            .collect();
        let returns = self.info.returns.clone().unwrap_or_default();
        let returns: Vec<TypeId> = returns.iter().map(|&t| self.cx.import_type(t)).collect();
        let ty = match returns.as_slice() {
            [] => Types::NONE,
            [one] => *one,
            many => self.intern_ty(Type::Tuple(many.to_vec())),
        };
        let call = |f: &mut Self, callee: Symbol| {
            let kind =
                ExprKind::Call { callee: Callee::Func(callee), args: args.clone().into(), attrs: CallAttrs::none() };
            f.new_expr(kind, ty, span)
        };
        let mut body = Vec::with_capacity(3);
        let aic_call = call(self, aic);
        let aiv_call = call(self, aiv);
        if returns.is_empty() {
            body.push(self.new_stmt(StmtKind::Eval(aic_call), span));
            body.push(self.new_stmt(StmtKind::Eval(aiv_call), span));
            return body;
        }
        let r = self.cx.intern("_r");
        let loc = self.loc(span);
        let var = self.cx.program.new_var(&mut self.cx.session.interner, r, ty, loc);
        body.push(self.new_stmt(StmtKind::Assign { var, value: aic_call }, span));
        body.push(self.new_stmt(StmtKind::Eval(aiv_call), span));
        let values = match returns.as_slice() {
            [_] => vec![self.new_expr(ExprKind::Var(var), ty, span)],
            many => (0..many.len())
                .map(|index| {
                    let whole = self.new_expr(ExprKind::Var(var), ty, span);
                    self.new_expr(ExprKind::TupleGet { tuple: whole, index: index as u32 }, many[index], span)
                })
                .collect(),
        };
        body.push(self.new_stmt(StmtKind::Return(values), span));
        body
    }

    /// E0223 at the first statement of an external kernel's body that is not `...` (or a
    /// docstring): its implementation is the C++ file, as PyPTO's parser requires.
    fn external_body_check(&mut self, def: &ast::FunctionDef) {
        let extra = self.ast().block(&def.body).iter().find(|&&st| match &self.ast().stmt(st).kind {
            S::Expr(e) => !matches!(self.ast().expr(*e).kind, E::Str(_) | E::Ellipsis),
            _ => true,
        });
        let Some(&st) = extra else { return };
        let name = self.cx.name(self.info.name).to_string();
        let span = self.ast().stmt(st).span;
        self.cx.error_help(
            Code::E0223,
            self.file,
            span,
            format!("external kernel '{name}' must have an empty '...' body (signature only): its implementation is the C++ source given by external_source"),
            "a statement in an external kernel",
            "replace the function body with a bare '...'",
        );
    }

    fn python_body_note(&mut self, def: &ast::FunctionDef) {
        let trivial = self.ast().block(&def.body).iter().all(|&st| match &self.ast().stmt(st).kind {
            S::Pass => true,
            S::Expr(e) => matches!(self.ast().expr(*e).kind, E::Str(_) | E::Ellipsis),
            _ => false,
        });
        if trivial {
            return;
        }
        let name = self.cx.name(self.info.name).to_string();
        self.cx.diags.push(Diagnostic::note(
            Code::N0001,
            format!("host code skipped: the body of the HOST SubWorker `{name}` is Python, which plc does not run"),
            Label::primary(self.file, def.body.span, "Python, kept as written"),
        ));
    }

    pub fn loc(&self, span: Span) -> Loc {
        Loc::new(self.file, span)
    }

    /// A new variable of the function, defined at `span`.
    fn new_local(&mut self, name: Symbol, ty: TypeId, span: Span) -> VarId {
        let loc = self.loc(span);
        let var = self.cx.program.new_var(&mut self.cx.session.interner, name, ty, loc);
        self.note_scoped_task(var, ty);
        var
    }

    pub fn error(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> &mut crate::diag::Diagnostic {
        self.cx.error(code, self.file, span, message, label)
    }

    /// `error` with a help line: the one call for "report, suggest the fix".
    pub fn error_help<M: Into<String>, L: Into<String>, H: Into<String>>(
        &mut self,
        code: Code,
        span: Span,
        message: M,
        label: L,
        help: H,
    ) {
        self.error(code, span, message, label).help = Some(help.into());
    }

    /// E0219 for a loop (`pl.range`/`pl.while_`) whose iter-arg names and init values
    /// differ in number, in PyPTO's words.
    fn iter_args_mismatch(&mut self, span: Span, names: usize, inits: usize) {
        self.error(Code::E0219, span, format!("Mismatch: {names} iter_args but {inits} init_values"), "count mismatch");
    }

    pub fn warning(&mut self, code: Code, span: Span, message: impl Into<String>, label: impl Into<String>) {
        self.error(code, span, message, label).severity = crate::diag::Severity::Warning;
    }

    /// The name expression `e` is; otherwise `code` with `message` at `e`, labelled "not
    /// a name".
    pub(crate) fn name_target(&mut self, e: ast::ExprId, code: Code, message: &str) -> Option<Symbol> {
        let expr = self.ast().expr(e);
        if let E::Name(n) = expr.kind {
            return Some(n);
        }
        let span = expr.span;
        self.error(code, span, message, "not a name");
        None
    }

    /// The span of expression `e` and its source text, for a message that quotes it.
    pub(crate) fn source_of(&self, e: ast::ExprId) -> (Span, String) {
        let span = self.ast().expr(e).span;
        (span, self.text(span))
    }

    pub fn text(&self, span: Span) -> String {
        self.cx.text_of(self.m, span).to_string()
    }

    fn types(&mut self) -> &mut Types {
        &mut self.cx.program.types
    }

    pub fn ty(&self, e: ExprId) -> &Type {
        self.cx.program.ty(e)
    }

    pub fn intern_ty(&mut self, ty: Type) -> TypeId {
        self.cx.program.types.intern(ty)
    }

    /// The id of an op result's type: one of the last results' when it is theirs (a body's
    /// ops make few types), compared in place rather than hashed.
    fn result_type(&mut self, ty: Type) -> TypeId {
        for id in self.last_results.into_iter().flatten() {
            if *self.cx.program.types.get(id) == ty {
                return id;
            }
        }
        let id = self.intern_ty(ty);
        self.last_results = [Some(id), self.last_results[0]];
        id
    }

    /// The tuple type of `values`' types; a short one the same as the last is not made
    /// again (`last_tuple`).
    pub(crate) fn tuple_type(&mut self, values: &[ExprId]) -> TypeId {
        let len = values.len();
        if len > TUPLE_MEMO {
            let types = values.iter().map(|&v| self.cx.program.expr(v).ty).collect();
            return self.intern_ty(Type::Tuple(types));
        }
        let mut key = [Types::UNKNOWN; TUPLE_MEMO];
        for (k, &v) in key.iter_mut().zip(values) {
            *k = self.cx.program.expr(v).ty;
        }
        if let Some((n, memo, ty)) = self.last_tuple {
            if n == len && memo == key {
                return ty;
            }
        }
        let ty = self.intern_ty(Type::Tuple(key[..len].to_vec()));
        self.last_tuple = Some((len, key, ty));
        ty
    }

    pub fn new_expr(&mut self, kind: ExprKind, ty: TypeId, span: Span) -> ExprId {
        let loc = self.loc(span);
        self.cx.program.new_expr(kind, ty, loc)
    }

    pub fn new_stmt(&mut self, kind: StmtKind, span: Span) -> StmtId {
        let loc = self.loc(span);
        self.cx.program.new_stmt(kind, loc)
    }

    fn collect_names(&mut self, stmts: &[ast::StmtId]) {
        let mut nodes = Vec::new();
        let mut stack: Vec<ast::StmtId> = stmts.to_vec();
        while let Some(s) = stack.pop() {
            nodes.clear();
            self.ast().stmt_children(s, &mut nodes);
            for n in &nodes {
                match *n {
                    ast::Node::Stmt(c) => stack.push(c),
                    ast::Node::Expr(e) => {
                        if let E::Name(name) = self.ast().expr(e).kind {
                            self.used.insert(name);
                        }
                    }
                }
            }
        }
    }

    /// A name for a temporary, unused in the function.
    pub(crate) fn fresh_name(&mut self, base: &str) -> Symbol {
        if !self.used_filled {
            self.used_filled = true;
            self.used.extend(self.info.params.iter().map(|p| p.name));
            if let Some(stmts) = self.unread_names.take() {
                self.collect_names(stmts);
            }
        }
        self.cx.session.interner.fresh(base, &mut self.used)
    }

    // ------------------------------------------------------------ statements

    pub fn block(&mut self, stmts: &[ast::StmtId]) -> Block {
        let mut out = Vec::with_capacity(stmts.len());
        self.ssa.enter();
        for &s in stmts {
            self.stmt(s, &mut out);
        }
        self.ssa.leave();
        out
    }

    fn stmt(&mut self, id: ast::StmtId, out: &mut Block) {
        if self.hoisted_yield == Some(id) {
            return;
        }
        let start = out.len();
        let outer = std::mem::take(&mut self.pending);
        self.stmt_kind(id, out);
        let before = std::mem::replace(&mut self.pending, outer);
        if !before.is_empty() {
            out.splice(start..start, before);
        }
    }

    fn stmt_kind(&mut self, id: ast::StmtId, out: &mut Block) {
        let stmt = self.ast().stmt(id);
        let span = stmt.span;
        match &stmt.kind {
            S::Expr(e) => self.expr_stmt(*e, span, out),
            S::Assign { targets, value } => {
                if targets.len() > 1 {
                    // Refused by the syntax check (a chained assignment parses but is rare);
                    // lower the last target only.
                }
                self.assign(self.ast().list(*targets)[targets.len() - 1], None, *value, span, out);
            }
            S::AnnAssign { target, annotation, value } => match value {
                Some(v) => self.assign(*target, Some(*annotation), *v, span, out),
                None => {
                    self.error(
                        Code::E0223,
                        span,
                        "an annotation without a value declares nothing in pl",
                        "give it a value",
                    );
                }
            },
            S::Return(value) => self.return_stmt(*value, span, out),
            S::Pass => {}
            S::Break | S::Continue => self.break_continue(matches!(stmt.kind, S::Break), span, out),
            S::If { branches, orelse } => self.if_stmt(branches, orelse.as_ref(), out),
            S::For { target, iter, body, .. } => self.for_stmt(*target, *iter, body, span, out),
            S::While { test, body, .. } => self.while_stmt(*test, body, span, out),
            S::With { items, body } => self.with_stmt(self.ast().list(*items), body, span, out),
            S::Import(_) | S::ImportFrom { .. } => {
                self.error(
                    Code::E0223,
                    span,
                    "an import inside a pl function is not supported",
                    "move it to the top of the module",
                );
            }
            // Refused by the syntax check already, or parse errors.
            S::AugAssign { .. } | S::FunctionDef(_) | S::ClassDef(_) | S::Unsupported { .. } | S::Error => {}
        }
    }

    fn expr_stmt(&mut self, e: ast::ExprId, span: Span, out: &mut Block) {
        let expr = self.ast().expr(e);
        match &expr.kind {
            // A docstring or a bare literal: nothing to do.
            E::Str(_) | E::Ellipsis | E::Int | E::Float | E::None | E::True | E::False => {}
            E::Call { .. } if self.jit_bind_dynamic(e, span, out) => {}
            E::Call { func, args } => {
                match self.cx.pl_path(self.m, *func).as_deref() {
                    // `pl.yield_()` with no value yields nothing: PyPTO accepts it in a loop
                    // or branch that carries no values, where it changes nothing.
                    Some("yield_") if args.is_empty() => return,
                    Some("yield_") => {
                        self.error_help(
                            Code::E0221,
                            span,
                            "a bare `pl.yield_(...)` does not say which names receive the values",
                            "assign its result",
                            "write `x = pl.yield_(value)` as the last statement of the loop body or branch",
                        );
                        self.yield_reported = true;
                        return;
                    }
                    Some("static_print") if args.is_empty() => {
                        self.error(
                            Code::E0202,
                            span,
                            "pl.static_print() needs at least one argument",
                            "nothing to print",
                        );
                        return;
                    }
                    Some("dump_tag" | "tensor.dump_tag")
                        if !matches!(
                            self.info.decl.kind,
                            crate::ir::FuncKind::Orchestration | crate::ir::FuncKind::Inline
                        ) =>
                    {
                        self.error(
                            Code::E0223,
                            span,
                            "pl.dump_tag() is only valid inside an Orchestration or Inline function",
                            "not in orchestration code",
                        );
                        return;
                    }
                    Some("dump_tag" | "tensor.dump_tag") => {
                        self.dump_tag_args_ok(self.ast().list(*args), span);
                        return;
                    }
                    Some("static_print") => {
                        self.static_print_args(self.ast().list(*args));
                        return;
                    }
                    Some("set_cache_policy" | "tensor.set_cache_policy") => return,
                    Some("static_assert") => {
                        self.static_assert(self.ast().list(*args), span);
                        return;
                    }
                    Some("cond") => {
                        self.error(
                            Code::E0219,
                            span,
                            "pl.cond() can only be the first statement in a pl.while_() loop body",
                            "misplaced pl.cond",
                        );
                        return;
                    }
                    _ => {}
                }
                if let Some(value) = self.expr(e) {
                    let s = self.new_stmt(StmtKind::Eval(value), span);
                    out.push(s);
                }
            }
            _ => {
                if self.expr(e).is_some() {
                    self.error_help(
                        Code::E0223,
                        span,
                        "this expression is computed and thrown away",
                        "has no effect",
                        "assign it to a name, or remove it",
                    );
                }
            }
        }
    }

    /// `pl.static_print(...)`: PyPTO parses each argument but a plain string as an
    /// expression (an undefined name is E0201), and each replacement field of an f-string
    /// too, refusing a conversion (`!r`), a format spec (`:.2f`) or `{x=}` (E0110).
    fn static_print_args(&mut self, args: &[ast::Arg]) {
        for a in args {
            let arg = self.ast().expr(a.value);
            let E::Str(pieces) = &arg.kind else {
                self.expr(a.value);
                continue;
            };
            for p in self.ast().list(*pieces).iter().filter(|p| p.kind == ast::StrKind::Format) {
                let text = self.cx.text_of(self.m, p.span).to_string();
                for field in super::checks::fstring_fields(&text) {
                    if field.formatted {
                        self.error_help(
                            Code::E0110,
                            p.span,
                            "f-string conversions (!r, !s, !a), format specs (:.2f) and `{x=}` are not supported in static_print",
                            "a formatted field",
                            "use a plain placeholder such as f\"{x}\"",
                        );
                        return;
                    }
                    let name = text[field.expr].trim();
                    if name.bytes().next().is_some_and(|c| !c.is_ascii_digit())
                        && name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric())
                    {
                        let sym = self.cx.intern(name);
                        self.name_expr(sym, p.span);
                    }
                }
            }
        }
    }

    fn static_assert(&mut self, args: &[ast::Arg], span: Span) {
        if !self.static_assert_args_ok(args, span) {
            return;
        }
        let Some(cond) = args.first() else { return };
        if let Some(v) = self.cx.eval_const(self.m, cond.value) {
            if v.truthy() == Some(false) {
                let message = args
                    .get(1)
                    .and_then(|a| match &self.ast().expr(a.value).kind {
                        E::Str(p) => self.cx.string_value(self.m, *p),
                        _ => None,
                    })
                    .unwrap_or_else(|| "static assertion failed".to_string());
                self.error(Code::E0218, span, message, "this condition is false at compile time");
            }
        }
    }

    /// `target = value` or `target: annotation = value`.
    fn assign(
        &mut self,
        target: ast::ExprId,
        annotation: Option<ast::ExprId>,
        value: ast::ExprId,
        span: Span,
        out: &mut Block,
    ) {
        if self.is_yield(value) {
            self.error(
                Code::E0221,
                self.ast().expr(value).span,
                "`pl.yield_` must be the last statement of a loop body with init_values or of an `if` branch",
                "misplaced yield",
            );
            self.yield_reported = true;
            // Still define the names, so that later uses do not cascade.
            match &self.ast().expr(target).kind {
                E::Tuple(items) | E::List(items) => self.define_targets(self.ast().list(*items)),
                _ => self.define_targets(&[target]),
            }
            return;
        }
        let t = self.ast().expr(target);
        match &t.kind {
            E::Name(name) if annotation.is_none() && self.jit_local_dynamic(*name, value, t.span) => {}
            E::Name(name) => {
                // `res = pl.submit(...)` binds the whole tuple (results and task id).
                let value_span = self.ast().expr(value).span;
                let saved = self.launches.unpacked.replace(value_span);
                let window = self.window_target.replace((*name, value_span));
                let v = self.expr(value);
                self.launches.unpacked = saved;
                self.window_target = window;
                let Some(v) = v.filter(|&v| self.not_a_string(v)) else {
                    // Still define the name, so that later uses do not cascade.
                    self.define_unknown(*name, t.span);
                    return;
                };
                let v = match annotation {
                    Some(a) => self.annotated(a, v),
                    None => v,
                };
                self.check_rebinding(*name, self.cx.program.expr(v).ty, t.span);
                let var = self.bind(*name, self.cx.program.expr(v).ty, t.span);
                self.note_buffer(var, v);
                let s = self.new_stmt(StmtKind::Assign { var, value: v }, span);
                out.push(s);
            }
            E::Tuple(items) | E::List(items) => {
                let saved = self.launches.unpacked.replace(self.ast().expr(value).span);
                let v = self.expr(value);
                self.launches.unpacked = saved;
                let Some(v) = v else {
                    for &item in self.ast().list(*items) {
                        if let E::Name(n) = self.ast().expr(item).kind {
                            self.define_unknown(n, self.ast().expr(item).span);
                        }
                    }
                    return;
                };
                self.unpack(self.ast().list(*items), v, span, out);
                if self.is_launch(value) {
                    self.record_launch_targets(self.ast().list(*items));
                }
            }
            E::Subscript { value: base, index } => self.subscript_assign(*base, *index, value, span, out),
            _ => {
                let text = self.text(t.span);
                self.error(
                    Code::E0105,
                    t.span,
                    format!("only simple variable assignments are supported, not `{text} = ...`"),
                    "cannot be assigned",
                );
            }
        }
    }

    /// Checks an annotation against a value's type; a scalar literal takes the annotated
    /// dtype.
    fn annotated(&mut self, annotation: ast::ExprId, value: ExprId) -> ExprId {
        // Integer scalars in scope may stand in a shape as run-time extents.
        let scalars: FxHashSet<Symbol> = self
            .names
            .iter()
            .filter(|&(_, &v)| {
                matches!(self.cx.program.types.get(self.cx.program.var(v).ty), Type::Scalar(d) if d.is_int())
            })
            .map(|(&n, _)| n)
            .collect();
        let Some(ty) = self.cx.local_type(self.m, annotation, &scalars) else { return value };
        let vty = self.cx.program.expr(value).ty;
        if vty == ty {
            return value;
        }
        let (declared, actual) = (self.cx.program.types.get(ty).clone(), self.cx.program.types.get(vty).clone());
        match (&declared, &actual) {
            // A literal takes the annotated dtype: `x: pl.Scalar[pl.INT32] = 0`.
            (Type::Scalar(_), Type::Scalar(_)) => {
                if matches!(self.cx.program.expr(value).kind, ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_))
                {
                    let kind = self.cx.program.expr(value).kind.clone();
                    let span = self.cx.program.expr(value).loc.span;
                    return self.new_expr(kind, ty, span);
                }
                value
            }
            // A value typed by its target (`e: pl.Tile[...] = pl.tile.tpop_from_aiv()`) takes
            // the annotated type, as PyPTO's parser gives it.
            (_, Type::Unknown) if !matches!(declared, Type::Unknown) => {
                self.cx.program.exprs[value.index()].ty = ty;
                value
            }
            (Type::Unknown, _) | (_, Type::Unknown) => value,
            _ if self.flattened_tile(value, &declared, &actual).is_some() => {
                self.flatten_to(annotation, value, &declared, &actual)
            }
            _ => {
                let types = &self.cx.program.types;
                // A tuple fits element by element; the message names the first that does not.
                let misfit = match (&declared, &actual) {
                    (Type::Tuple(d), Type::Tuple(a)) if d.len() == a.len() => d
                        .iter()
                        .zip(a)
                        .enumerate()
                        .map(|(i, (&x, &y))| (i, types.get(x).clone(), types.get(y).clone()))
                        .find(|(_, x, y)| !compatible(x, y))
                        .map(|(i, x, y)| (Some(i), x, y)),
                    _ => (!compatible(&declared, &actual)).then(|| (None, declared.clone(), actual.clone())),
                };
                let Some((element, declared, actual)) = misfit else { return value };
                let span = self.ast().expr(annotation).span;
                let (d, a) = (self.describe_type(&declared), self.describe_type(&actual));
                let message = match element {
                    Some(i) => format!("element {i} of the tuple: the annotation says {d}, but the value is {a}"),
                    None => format!("the annotation says {d}, but the value is {a}"),
                };
                self.error(Code::E0210, span, message, "does not match the value");
                value
            }
        }
    }

    /// The 2-D shape an annotation gives a tile load or creation of more than two axes, as
    /// PyPTO's printer writes FlattenTileNdTo2D's output
    /// (`t: pl.Tile[[6, 4], pl.FP32] = pl.tile.load(x, [0, 0, 0], [2, 3, 4], [2, 3, 4])`):
    /// the call keeps its N-D region and the annotation alone holds the flattened shape,
    /// which PyPTO's parser trusts. `None` when the annotation is not such a flattening
    /// (another kind or dtype, a rank above 2, a value that is not a direct `tile.load` or
    /// `tile.create` of rank 3 or more).
    fn flattened_tile(&self, value: ExprId, declared: &Type, actual: &Type) -> Option<Vec<Dim>> {
        let (Type::Tile { shape: flat, dtype: d1, .. }, Type::Tile { shape: nd, dtype: d2, .. }) = (declared, actual)
        else {
            return None;
        };
        let ExprKind::Call { callee: Callee::Op(op), .. } = &self.cx.program.expr(value).kind else { return None };
        let source = matches!(op, Op::TileLoad | Op::TileCreate);
        (source && d1 == d2 && flat.len() <= 2 && nd.len() > 2).then(|| flat.clone())
    }

    /// The value of [`Self::flattened_tile`]'s form: `tile.reshape(value, flat)` typed as the
    /// annotation says, so that every later op sees the 2-D tile it is given. A flattening
    /// that changes the element count of static shapes is E0210 (PyPTO does not compare
    /// them; no flattening of the pass does it).
    fn flatten_to(&mut self, annotation: ast::ExprId, value: ExprId, declared: &Type, actual: &Type) -> ExprId {
        let span = self.ast().expr(annotation).span;
        let (Some(flat), Type::Tile { shape: nd, dtype, memory }) =
            (self.flattened_tile(value, declared, actual), actual)
        else {
            return value;
        };
        if let (Some(a), Some(b)) = (ops::element_count(&flat), ops::element_count(nd)) {
            if a != b {
                let (d, v) = (self.describe_type(declared), self.describe_type(actual));
                let message =
                    format!("the annotation says {d}, but the value is {v}: a flattening must keep the {b} elements");
                self.error(Code::E0210, span, message, "does not match the value");
                return value;
            }
        }
        let index = self.cx.program.types.scalar(DType::Index);
        let mut extents = Vec::with_capacity(flat.len());
        for d in &flat {
            let kind = match d {
                Dim::Const(n) => ExprKind::Int(*n),
                Dim::Dyn(name) => ExprKind::DynDim(*name),
                Dim::Var(v) => ExprKind::Var(*v),
                Dim::Unknown => return value,
            };
            extents.push(self.new_expr(kind, index, span));
        }
        let tuple_ty = self.cx.program.types.intern(Type::Tuple(vec![index; extents.len()]));
        let shape = self.new_expr(ExprKind::Tuple(extents.into()), tuple_ty, span);
        let def = Op::TileReshape.def();
        let mut args = vec![None; def.params.len()];
        let (Some(x), Some(s)) = (def.param_index(ops::Param::X), def.param_index(ops::Param::Shape)) else {
            return value;
        };
        args[x] = Some(value);
        args[s] = Some(shape);
        let memory = match declared {
            Type::Tile { memory: Some(m), .. } => Some(*m),
            _ => *memory,
        };
        let ty = self.cx.program.types.intern(Type::Tile { shape: flat, dtype: *dtype, memory });
        let kind = ExprKind::Call { callee: Callee::Op(Op::TileReshape), args: args.into(), attrs: CallAttrs::none() };
        self.new_expr(kind, ty, span)
    }

    /// A name that a tuple unpacking binds, with the target's span; E0105 for a target
    /// that is not a plain name.
    pub(crate) fn unpack_target(&mut self, item: ast::ExprId) -> Option<(Symbol, Span)> {
        let it = self.ast().expr(item);
        let E::Name(name) = it.kind else {
            let text = self.text(it.span);
            self.error(
                Code::E0105,
                it.span,
                format!("tuple unpacking target must be a variable name, got `{text}`"),
                "not a name",
            );
            return None;
        };
        Some((name, it.span))
    }

    /// `a, b = value`: a temporary for the tuple, then one assignment per element.
    fn unpack(&mut self, items: &[ast::ExprId], value: ExprId, span: Span, out: &mut Block) {
        let flat;
        let items = match self.launch_results(items, value) {
            Some(names) => {
                flat = names;
                flat.as_slice()
            }
            None => items,
        };
        // `m, n = t.shape` of a bare `pl.Tensor`: one run-time extent per name.
        if let Some(tensor) = self.bare_shape_of(value) {
            self.unpack_extents(items, tensor, span, out);
            return;
        }
        let ty = self.cx.program.types.get(self.cx.program.expr(value).ty).clone();
        let elements = match ty {
            Type::Tuple(elements) if elements.len() == items.len() => elements,
            Type::Tuple(elements) => {
                self.error(
                    Code::E0210,
                    span,
                    format!("cannot unpack {} values into {} names", elements.len(), items.len()),
                    "wrong number of names",
                );
                self.define_targets(items);
                return;
            }
            other => {
                let what = self.describe_type(&other);
                self.error(
                    Code::E0210,
                    span,
                    format!("cannot unpack {what} into {} names", items.len()),
                    "not a tuple",
                );
                return;
            }
        };
        let tmp_name = self.fresh_name("tuple_tmp");
        let ty = self.cx.program.expr(value).ty;
        let tmp = self.new_local(tmp_name, ty, span);
        let s = self.new_stmt(StmtKind::Assign { var: tmp, value }, span);
        out.push(s);
        let tuple_ty = self.cx.program.expr(value).ty;
        for (i, (&item, &elem_ty)) in items.iter().zip(&elements).enumerate() {
            let Some((name, at)) = self.unpack_target(item) else { continue };
            let tuple_ref = self.new_expr(ExprKind::Var(tmp), tuple_ty, span);
            let get = self.new_expr(ExprKind::TupleGet { tuple: tuple_ref, index: i as u32 }, elem_ty, at);
            self.check_rebinding(name, elem_ty, at);
            let var = self.bind(name, elem_ty, at);
            let s = self.new_stmt(StmtKind::Assign { var, value: get }, span);
            out.push(s);
        }
    }

    /// `(a, b), tid = pl.submit(self.k, ...)`: a launch's results may be unpacked as a tuple
    /// of names followed by the task id, the names standing for the function's results (of
    /// which the launch's value holds one element each). The flat targets, when `items` is
    /// so and `value` a launch; a deeper nesting is left to the usual check (E0105).
    fn launch_results(&self, items: &[ast::ExprId], value: ExprId) -> Option<Vec<ast::ExprId>> {
        if !matches!(self.cx.program.expr(value).kind, ExprKind::Call { callee: Callee::Submit(_), .. }) {
            return None;
        }
        let [results, tid] = items else { return None };
        let (E::Tuple(names) | E::List(names)) = &self.ast().expr(*results).kind else { return None };
        let mut flat = self.ast().list(*names).to_vec();
        flat.push(*tid);
        Some(flat)
    }

    /// Binds `name` for an assignment: a new variable, or the same one again when the
    /// name already holds a value of the same type (a reassignment).
    pub fn bind(&mut self, name: Symbol, ty: TypeId, span: Span) -> VarId {
        self.launches.bound(name);
        if !self.names.contains_key(&name) && self.cx.shadows_namespace(self.m, name, span) {
            return self.new_local(name, ty, span);
        }
        if let Some(&var) = self.names.get(&name) {
            self.rebound_task(var);
            let old = self.cx.program.var(var).ty;
            if old == ty || ty == Types::UNKNOWN {
                return var;
            }
            if old == Types::NONE && self.no_task_yet(var, ty) {
                return var;
            }
            let (a, b) = (self.cx.program.types.get(old).clone(), self.cx.program.types.get(ty).clone());
            if old == Types::UNKNOWN || compatible(&a, &b) {
                return var;
            }
            // The same kind with another shape or dtype (`t = pl.row_sum(t)`, a matmul that
            // widens): the name now holds a new variable, as PyPTO's examples expect; in a
            // `@pl.jit` function a value of any type does (the specializer renames it).
            let same_kind = std::mem::discriminant(&a) == std::mem::discriminant(&b);
            if self.info.jit {
                // Named as the specializer names it (`out_v1`), so that the printed
                // program, a plain `@pl.program`, reads back.
                let base = format!("{}_v1", self.cx.name(name));
                let fresh = self.fresh_name(&base);
                let var = self.new_local(fresh, ty, span);
                self.names.insert(name, var);
                return var;
            }
            if same_kind {
                let var = self.new_local(name, ty, span);
                self.names.insert(name, var);
                return var;
            }
            self.reassign_error(name, &a, &b, span);
            return var;
        }
        let var = self.new_local(name, ty, span);
        self.names.insert(name, var);
        var
    }

    /// `prev = None` before `..., prev = pl.submit(...)`: PyPTO's "no task yet". When `ty`
    /// is a task id, `var` (bound to `None`) becomes a task id and each `var = None` the
    /// id of no task (`pl.system.task_invalid()`, on which a dependency waits for
    /// nothing). `false` for any other type.
    fn no_task_yet(&mut self, var: VarId, ty: TypeId) -> bool {
        if !matches!(self.cx.program.types.get(ty), Type::Scalar(DType::TaskId)) {
            return false;
        }
        self.cx.program.vars[var.index()].ty = ty;
        let values: Vec<ExprId> = self
            .cx
            .program
            .stmts
            .iter()
            .filter_map(|s| match s.kind {
                StmtKind::Assign { var: v, value } if v == var => Some(value),
                _ => None,
            })
            .collect();
        for value in values {
            let e = &mut self.cx.program.exprs[value.index()];
            if matches!(e.kind, ExprKind::None) {
                e.kind = ExprKind::Call {
                    callee: Callee::Op(Op::SystemTaskInvalid),
                    args: vec![].into(),
                    attrs: CallAttrs::none(),
                };
                e.ty = ty;
            }
        }
        true
    }

    /// Defines the names of a target list with unknown types, after an error.
    fn define_targets(&mut self, items: &[ast::ExprId]) {
        for &item in items {
            if let E::Name(n) = self.ast().expr(item).kind {
                let span = self.ast().expr(item).span;
                self.define_unknown(n, span);
            }
        }
    }

    fn define_unknown(&mut self, name: Symbol, span: Span) {
        if !self.names.contains_key(&name) && self.cx.namespace_named(self.m, name).is_none() {
            let var = self.new_local(name, Types::UNKNOWN, span);
            self.names.insert(name, var);
        }
    }

    /// `dst[...] = src`: `dst = pl.assemble(dst, src, offsets)` for tensors and tiles,
    /// `arr = pl.array.update_element(arr, i, v)` for arrays.
    fn subscript_assign(
        &mut self,
        base: ast::ExprId,
        index: ast::ExprId,
        value: ast::ExprId,
        span: Span,
        out: &mut Block,
    ) {
        let message = "the target of a subscript assignment must be a variable name";
        let Some(name) = self.name_target(base, Code::E0105, message) else { return };
        let target = self.ast().expr(base).span;
        let Some(dst) = self.expr(base) else { return };
        let Some(src) = self.expr(value) else { return };
        let dst_ty = self.ty(dst).clone();
        let items: Vec<ast::ExprId> = match &self.ast().expr(index).kind {
            E::Tuple(items) => self.ast().list(*items).to_vec(),
            _ => vec![index],
        };
        let src_ty = self.ty(src).clone();
        let shaped = matches!(dst_ty, Type::Tensor { .. } | Type::Tile { .. });
        if shaped && self.check_subscript_rank(&dst_ty, &items, "subscript-write", span).is_none() {
            return;
        }
        if !self.subscript_write_ok(&dst_ty, &items, &src_ty, span) {
            return;
        }
        match &dst_ty {
            Type::Array { .. } => {
                let Some(i) = self.expr(items[0]) else { return };
                let op = Op::ArrayUpdateElement;
                let call = self.new_expr(
                    ExprKind::Call {
                        callee: Callee::Op(op),
                        args: vec![Some(dst), Some(i), Some(src)].into(),
                        attrs: CallAttrs::none(),
                    },
                    self.cx.program.expr(dst).ty,
                    span,
                );
                let var = self.bind(name, self.cx.program.expr(dst).ty, target);
                let s = self.new_stmt(StmtKind::Assign { var, value: call }, span);
                out.push(s);
            }
            Type::Tensor { .. } | Type::Tile { .. } => {
                let rank = dst_ty.shape().map_or(items.len(), <[Dim]>::len).max(items.len());
                let mut offsets = Vec::with_capacity(rank);
                for k in 0..rank {
                    let offset = match items.get(k).map(|&i| self.ast().expr(i)) {
                        Some(ast::Expr { kind: E::Slice { lower, .. }, span: s }) => match *lower {
                            Some(l) => self.expr(l),
                            None => Some(self.int(0, *s)),
                        },
                        Some(item) => self.expr(self.ast_id_of(item, &items, k)),
                        None => Some(self.int(0, span)),
                    };
                    let Some(offset) = offset else { return };
                    offsets.push(offset);
                }
                let idx_ty = self.intern_ty(Type::Tuple(Vec::new()));
                let offsets = self.new_expr(ExprKind::Tuple(offsets.into()), idx_ty, self.ast().expr(index).span);
                let op = if dst_ty.is_tile() { Op::TileAssemble } else { Op::TensorAssemble };
                let ty = self.cx.program.expr(dst).ty;
                let call = self.new_expr(
                    ExprKind::Call {
                        callee: Callee::Op(op),
                        args: vec![Some(dst), Some(src), Some(offsets)].into(),
                        attrs: CallAttrs::none(),
                    },
                    ty,
                    span,
                );
                let var = self.bind(name, ty, target);
                let s = self.new_stmt(StmtKind::Assign { var, value: call }, span);
                out.push(s);
            }
            other => {
                let what = self.describe_type(other);
                self.error(Code::E0217, target, format!("cannot assign into {what}"), "not a tensor, tile or array");
            }
        }
    }

    fn ast_id_of(&self, _item: &ast::Expr, items: &[ast::ExprId], k: usize) -> ast::ExprId {
        items[k]
    }

    /// The innermost region (`pl.graph`, `pl.at`, `pl.cluster`, `pl.spmd`) that a jump to
    /// the frame `stop` says is left: such regions become functions of their own, so
    /// control cannot leave them early.
    fn left_region(&self, stop: impl Fn(&Frame) -> bool) -> Option<(Span, &'static str)> {
        for f in self.frames.iter().rev() {
            if stop(f) {
                return None;
            }
            if let Frame::Scope { kind, span, .. } = f {
                let what = match kind {
                    FrameKind::Graph => "pl.graph(...)",
                    FrameKind::InCore | FrameKind::Hierarchy => "pl.at(...)",
                    FrameKind::Cluster => "pl.cluster()",
                    FrameKind::Spmd => "pl.spmd(...)",
                    FrameKind::Runtime { .. } => continue,
                };
                return Some((*span, what));
            }
        }
        None
    }

    fn return_stmt(&mut self, value: Option<ast::ExprId>, span: Span, out: &mut Block) {
        if let Some((region, what)) = self.left_region(|_| false) {
            let file = self.file;
            let d =
                self.error(Code::E0316, span, format!("`return` inside a `with {what}` region"), "leaves the region");
            d.secondary.push(Label::secondary(file, region, "the region"));
            d.help = Some(
                "the region becomes a function of its own: assign the value in the region and return it after the `with` block"
                    .to_string(),
            );
            return;
        }
        let values: &[ast::ExprId] = match value.map(|v| &self.ast().expr(v).kind) {
            Some(E::Tuple(items)) => self.ast().list(*items),
            _ => value.as_slice(),
        };
        let Some(mut lowered) = self.exprs(values) else { return };
        if let [one] = lowered[..] {
            // `return f(...)` of a call that returns several values returns each of them.
            lowered = self.spread_tuple(one, span, out).unwrap_or(lowered);
        }
        let types: Vec<TypeId> = lowered.iter().map(|&e| self.cx.program.expr(e).ty).collect();
        if self.info.returns.is_none() {
            // Without an annotation the first `return` sets the count; the others must
            // return as many values.
            match &self.returns {
                None => self.returns = Some(types.clone()),
                Some(first) if first.len() != types.len() => {
                    let n = first.len();
                    self.error_help(
                        Code::E0225,
                        span,
                        format!(
                            "an earlier `return` of this function returns {n} value(s), but this one returns {}",
                            types.len()
                        ),
                        "wrong number of values",
                        "every `return` of a function returns the same number of values",
                    );
                }
                Some(_) => {}
            }
        }
        if let Some(declared) = self.info.returns.clone() {
            if declared.len() != types.len() {
                self.error(
                    Code::E0225,
                    span,
                    format!(
                        "the function is declared to return {} value(s), but this returns {}",
                        declared.len(),
                        types.len()
                    ),
                    "wrong number of values",
                );
            }
        }
        let s = self.new_stmt(StmtKind::Return(lowered), span);
        out.push(s);
    }

    /// The elements of a tuple value (a call returning several values), read from a
    /// temporary assigned the value: `None` when the value is not a tuple.
    fn spread_tuple(&mut self, value: ExprId, span: Span, out: &mut Block) -> Option<Vec<ExprId>> {
        let tuple_ty = self.cx.program.expr(value).ty;
        let Type::Tuple(elements) = self.cx.program.types.get(tuple_ty).clone() else { return None };
        let tmp_name = self.fresh_name("tuple_tmp");
        let tmp = self.new_local(tmp_name, tuple_ty, span);
        let s = self.new_stmt(StmtKind::Assign { var: tmp, value }, span);
        out.push(s);
        let gets = elements
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                let tuple = self.new_expr(ExprKind::Var(tmp), tuple_ty, span);
                self.new_expr(ExprKind::TupleGet { tuple, index: i as u32 }, ty, span)
            })
            .collect();
        Some(gets)
    }

    fn break_continue(&mut self, is_break: bool, span: Span, out: &mut Block) {
        let kw = if is_break { "break" } else { "continue" };
        let innermost = self.frames.iter().rev().find_map(|f| match f {
            Frame::Loop { breakable, what } => Some((*breakable, *what)),
            _ => None,
        });
        match innermost {
            None => {
                self.error(Code::E0220, span, format!("`{kw}` outside a loop"), "not in a loop");
            }
            Some((false, what)) => {
                self.error(Code::E0220, span, format!("`{kw}` is not supported in {what} loops"), "not allowed here");
            }
            Some((true, _)) => {
                if let Some((region, what)) = self.left_region(|f| matches!(f, Frame::Loop { .. })) {
                    let file = self.file;
                    let d = self.error(
                        Code::E0316,
                        span,
                        format!("`{kw}` inside a `with {what}` region leaves the region for the loop around it"),
                        "leaves the region",
                    );
                    d.secondary.push(Label::secondary(file, region, "the region"));
                    d.help = Some(format!(
                        "the region becomes a function of its own: put the loop inside the region, or the `{kw}` outside it"
                    ));
                    return;
                }
                let s = self.new_stmt(if is_break { StmtKind::Break } else { StmtKind::Continue }, span);
                out.push(s);
            }
        }
    }

    // ------------------------------------------------------------ control flow

    pub fn is_yield(&self, e: ast::ExprId) -> bool {
        match &self.ast().expr(e).kind {
            E::Call { func, .. } => self.cx.is_pl_path(self.m, *func, "yield_"),
            _ => false,
        }
    }

    /// The names and values of a trailing `x, y = pl.yield_(a, b)`, when `s` is one.
    fn yield_parts(&self, s: ast::StmtId) -> Option<(Vec<Named>, Vec<ast::ExprId>)> {
        let (target, value) = match &self.ast().stmt(s).kind {
            S::Assign { targets, value } => (self.ast().list(*targets)[targets.len() - 1], *value),
            S::AnnAssign { target, value: Some(value), .. } => (*target, *value),
            _ => return None,
        };
        if !self.is_yield(value) {
            return None;
        }
        let E::Call { args, .. } = &self.ast().expr(value).kind else { return None };
        let target = self.ast().expr(target);
        let names = match &target.kind {
            E::Name(n) => vec![(*n, target.span)],
            E::Tuple(items) | E::List(items) => self.named_items(self.ast().list(*items)),
            _ => return None,
        };
        Some((names, self.ast().list(*args).iter().map(|a| a.value).collect()))
    }

    /// Lowers every expression (reporting the errors of each); `None` when one failed.
    fn exprs(&mut self, items: &[ast::ExprId]) -> Option<Vec<ExprId>> {
        let mut lowered = Vec::with_capacity(items.len());
        let mut ok = true;
        for &i in items {
            match self.expr(i) {
                Some(e) => lowered.push(e),
                None => ok = false,
            }
        }
        ok.then_some(lowered)
    }

    /// The names among the items of a tuple or list target, with their spans.
    fn named_items(&self, items: &[ast::ExprId]) -> Vec<Named> {
        items
            .iter()
            .filter_map(|&i| match self.ast().expr(i).kind {
                E::Name(n) => Some((n, self.ast().expr(i).span)),
                _ => None,
            })
            .collect()
    }

    /// The trailing yield of a runtime scope (`with pl.scope():` / `with
    /// pl.manual_scope():`, nested ones too) that is the last statement `s` of a loop body
    /// or branch: the yield is the body's, as in PyPTO, where a scope opens no new names.
    fn scoped_yield(&self, s: ast::StmtId) -> Option<ast::StmtId> {
        let S::With { items, body } = &self.ast().stmt(s).kind else { return None };
        let E::Call { func, .. } = &self.ast().expr(self.ast().list(*items).first()?.context).kind else { return None };
        if !self.cx.pl_path(self.m, *func).is_some_and(|p| super::RUNTIME_SCOPES.contains(&p.as_ref())) {
            return None;
        }
        let &last = self.ast().block(body).last()?;
        if self.yield_parts(last).is_some() {
            return Some(last);
        }
        self.scoped_yield(last)
    }

    /// Lowers a loop body or branch that may end in `names = pl.yield_(values)`: returns
    /// the block (ending in a Yield) and the yielded names.
    /// A loop body that carries values: as `body_with_yield`, and whether a yield in it was
    /// already reported as bare or misplaced (the loop then says nothing more).
    fn loop_body_with_yield(&mut self, stmts: &[ast::StmtId]) -> (Block, Option<Yielded>, bool) {
        let outer = std::mem::take(&mut self.yield_reported);
        let (block, yielded) = self.body_with_yield(stmts);
        let reported = self.yield_reported;
        self.yield_reported |= outer;
        (block, yielded, reported)
    }

    fn body_with_yield(&mut self, stmts: &[ast::StmtId]) -> (Block, Option<Yielded>) {
        let Some((&last, init)) = stmts.split_last() else { return (Vec::new(), None) };
        let scoped = self.scoped_yield(last);
        let Some((names, values)) = self.yield_parts(scoped.unwrap_or(last)) else {
            return (self.block(stmts), None);
        };
        let mut block = match scoped {
            Some(inner) => {
                let outer = self.hoisted_yield.replace(inner);
                let block = self.block(stmts);
                self.hoisted_yield = outer;
                block
            }
            None => self.block(init),
        };
        let mut lowered = Vec::new();
        // A value that failed (reported) still counts, typed Unknown, so that neither the
        // count nor the names that receive it give a second error.
        let mut types = Vec::new();
        for &v in &values {
            match self.expr(v) {
                Some(e) => {
                    lowered.push(e);
                    types.push(self.cx.program.expr(e).ty);
                }
                None => types.push(self.intern_ty(Type::Unknown)),
            }
        }
        let span = self.ast().stmt(last).span;
        if names.len() != values.len() {
            self.error(
                Code::E0221,
                span,
                format!("{} name(s) receive the {} value(s) of `pl.yield_`", names.len(), values.len()),
                "wrong number of names",
            );
            self.yield_reported = true;
        }
        let s = self.new_stmt(StmtKind::Yield(lowered), span);
        block.push(s);
        (block, Some((names, types)))
    }

    fn if_stmt(&mut self, branches: &[ast::IfBranch], orelse: Option<&ast::Block>, out: &mut Block) {
        // `elif` chains become nested ifs in the else block.
        let (first, rest) = branches.split_first().expect("an if has a branch");
        let cond = self.condition(first.test, "if");
        let (then_body, then_yield) = self.body_with_yield(self.ast().block(&first.body));
        let (else_body, else_yield) = if !rest.is_empty() {
            let mut block = Vec::new();
            self.if_stmt(rest, orelse, &mut block);
            (Some(block), None)
        } else if let Some(b) = orelse {
            let (block, y) = self.body_with_yield(self.ast().block(b));
            (Some(block), y)
        } else {
            (None, None)
        };
        let span = first.span.to(orelse.map_or(branches[branches.len() - 1].span, |b| b.span));
        let mut return_vars = Vec::new();
        match (then_yield, else_yield) {
            (None, None) => {}
            (Some((names, types)), Some((else_names, _))) => {
                let same = names.iter().map(|n| n.0).eq(else_names.iter().map(|n| n.0));
                if !same {
                    self.error(
                        Code::E0221,
                        span,
                        "both branches of an `if` must yield to the same names",
                        "different names",
                    );
                }
                for ((name, nspan), ty) in names.into_iter().zip(types) {
                    return_vars.push(self.bind(name, ty, nspan));
                }
            }
            _ => {
                self.error_help(
                    Code::E0221,
                    span,
                    "when one branch of an `if` ends in `pl.yield_`, the other must too",
                    "only one branch yields",
                    "add an `else` branch that yields the values the names keep otherwise",
                );
            }
        }
        let Some(cond) = cond else { return };
        let s = self.new_stmt(StmtKind::If(Box::new(IfStmt { cond, then_body, else_body, return_vars })), first.span);
        out.push(s);
    }

    /// A condition of `if`/`while`: a Scalar[BOOL] expression.
    fn condition(&mut self, test: ast::ExprId, what: &str) -> Option<ExprId> {
        let cond = self.expr(test)?;
        let ty = self.ty(cond).clone();
        if !matches!(ty, Type::Scalar(DType::Bool) | Type::Unknown) {
            let span = self.ast().expr(test).span;
            let got = self.describe_type(&ty);
            self.error_help(
                Code::E0209,
                span,
                format!("{what} condition must be a Bool-typed scalar expression, got {got}"),
                "not a bool",
                "compare it: `if n > 0:`",
            );
        }
        Some(cond)
    }

    fn while_stmt(&mut self, test: ast::ExprId, body: &ast::Block, span: Span, out: &mut Block) {
        let cond = self.condition(test, "while");
        self.frames.push(Frame::Loop { breakable: true, what: "while" });
        let body = self.block(self.ast().block(body));
        self.frames.pop();
        let Some(cond) = cond else { return };
        let s = self.new_stmt(
            StmtKind::While(Box::new(crate::ir::WhileStmt {
                cond,
                iter_args: Vec::new(),
                body,
                return_vars: Vec::new(),
            })),
            span,
        );
        out.push(s);
    }

    /// `pl.range(..., unroll=N)`: a hint to unroll the loop by a constant factor N >= 1,
    /// kept as the loop attribute `unroll` (the printer prints it back; plc's interpreter
    /// and C++ run the loop as written). PyPTO's parser refuses it beside `init_values=`;
    /// plc does not, since ConvertToSSA gives such a loop `init_values=` and its printed
    /// form must parse again.
    fn unroll_factor(&mut self, key: Symbol, factor: ast::ExprId, attrs: &mut Vec<(Symbol, ExprId)>) {
        let what = if self.cx.name(key) == "chunk" { "the chunk size" } else { "the unroll factor" };
        let span = self.ast().expr(factor).span;
        let Some(e) = self.expr(factor) else { return };
        match self.cx.program.expr(e).kind {
            ExprKind::Int(n) if n >= 1 => {
                attrs.push((key, e));
            }
            ExprKind::Int(_) => {
                let got = self.text(span);
                self.error(Code::E0219, span, format!("{what} must be an integer >= 1, got {got}"), "not >= 1");
            }
            _ => {
                self.error(
                    Code::E0218,
                    span,
                    format!("{what} must be a compile-time integer constant"),
                    "not a constant",
                );
            }
        }
    }

    /// `chunk_policy="guarded"` (one loop of chunks, the last one guarded) or
    /// `"leading_full"` (full chunks, then a remainder loop): a string literal.
    fn chunk_policy(&mut self, key: Symbol, policy: ast::ExprId, attrs: &mut Vec<(Symbol, ExprId)>) {
        let span = self.ast().expr(policy).span;
        let Some(e) = self.expr(policy) else { return };
        match self.cx.program.expr(e).kind {
            ExprKind::Str(s) if matches!(self.cx.name(s), "guarded" | "leading_full") => attrs.push((key, e)),
            ExprKind::Str(_) => {
                let got = self.text(span);
                self.error(Code::E0219, span, format!("Unsupported chunk_policy: {got}"), "unknown policy").help =
                    Some("the policies are \"guarded\" and \"leading_full\"".to_string());
            }
            _ => {
                self.error(Code::E0219, span, "chunk_policy must be a string literal", "not a string");
            }
        }
    }

    /// The values a loop carries: a variable per name, bound in the loop (unless it
    /// shadows a namespace), initialised from its init expression.
    fn carried_iter_args(&mut self, names: Vec<Named>, inits: Vec<ExprId>) -> Vec<IterArg> {
        let mut iter_args = Vec::new();
        for ((name, nspan), init) in names.into_iter().zip(inits) {
            let ty = self.cx.program.expr(init).ty;
            let v = self.new_local(name, ty, nspan);
            if !self.cx.shadows_namespace(self.m, name, nspan) {
                self.names.insert(name, v);
            }
            self.mark_carried(v);
            iter_args.push(IterArg { var: v, init });
        }
        iter_args
    }

    fn for_stmt(&mut self, target: ast::ExprId, iter: ast::ExprId, body: &ast::Block, span: Span, out: &mut Block) {
        let iter_expr = self.ast().expr(iter);
        let (func, args) = match &iter_expr.kind {
            E::Call { func, args } => (*func, self.ast().list(*args)),
            _ => {
                self.bad_iterator(iter_expr.span);
                return;
            }
        };
        let path = self.cx.pl_path(self.m, func);
        let kind = match path.as_deref() {
            Some("range") => ForKind::Sequential,
            Some("parallel") => ForKind::Parallel,
            Some("unroll") => ForKind::Unroll,
            Some("pipeline") => ForKind::Pipeline,
            Some(which @ ("spmd" | "split_aiv")) => {
                let header = Span::new(span.lo, iter_expr.span.hi);
                let l = RegionLoop { target, args, body, span, header };
                if which == "spmd" {
                    self.spmd_loop(l, out);
                } else {
                    self.split_aiv_loop(l, out);
                }
                return;
            }
            Some("while_") => {
                self.while_loop(target, args, body, span, out);
                return;
            }
            _ => {
                self.bad_iterator(iter_expr.span);
                return;
            }
        };
        let name = kind.name();
        let mut bounds = Vec::new();
        let mut init_values = None;
        let mut attrs = Vec::new();
        let mut stage = None;
        let mut unroll = None;
        let mut chunk = None;
        let mut chunk_policy = None;
        for a in args {
            match a.kind {
                ArgKind::Positional => bounds.push(a.value),
                ArgKind::Keyword(k) => match self.cx.name(k.name) {
                    "init_values" => init_values = Some(a.value),
                    "stage" if kind == ForKind::Pipeline => stage = Some(a.value),
                    "stage" => {
                        self.error(
                            Code::E0219,
                            a.span,
                            format!("stage= is only supported on pl.pipeline(), not pl.{name}()"),
                            "not a pipeline",
                        );
                    }
                    "attrs" => self.loop_attr_entries(a.value, name, &mut attrs),
                    "unroll" if kind == ForKind::Sequential => unroll = Some((k.name, a.value)),
                    // The iterations per chunk `pl.auto_chunk` makes of the loop (a
                    // scheduling hint, kept as a loop attribute).
                    "chunk" if matches!(kind, ForKind::Parallel | ForKind::Sequential | ForKind::Unroll) => {
                        chunk = Some((k.name, a.value))
                    }
                    // How a chunked loop treats the iterations past the last full chunk
                    // (PyPTO's SplitChunkedLoops): a scheduling hint, kept as an attribute.
                    "chunk_policy" if matches!(kind, ForKind::Parallel | ForKind::Sequential | ForKind::Unroll) => {
                        chunk_policy = Some((k.name, a.value))
                    }
                    other => {
                        let other = other.to_string();
                        self.error(
                            Code::E0203,
                            a.span,
                            format!("unknown keyword argument '{other}' in pl.{name}()"),
                            "unknown keyword",
                        );
                    }
                },
                _ => {}
            }
        }
        if kind == ForKind::Pipeline && stage.is_none() {
            self.error(Code::E0219, iter_expr.span, "pl.pipeline() requires stage= (positive integer)", "no stage=");
        }
        if let Some(st) = stage {
            self.pipeline_stage(st, &mut attrs);
        }
        if let (Some((_, factor)), Some(_)) = (unroll, chunk) {
            let span = self.ast().expr(factor).span;
            self.error_help(
                Code::E0219,
                span,
                format!("pl.{name}(): unroll= and chunk= are mutually exclusive"),
                "unroll= beside chunk=",
                "chunk the loop or unroll it, not both",
            );
            return;
        }
        if let Some((key, factor)) = unroll {
            self.unroll_factor(key, factor, &mut attrs);
        }
        if let Some((key, size)) = chunk {
            self.unroll_factor(key, size, &mut attrs);
        }
        if let Some((key, policy)) = chunk_policy {
            self.chunk_policy(key, policy, &mut attrs);
        }
        let Some((start, stop, step)) = self.loop_bounds(kind, &bounds, iter_expr.span) else { return };
        let breakable = kind == ForKind::Sequential || kind == ForKind::Pipeline;
        let what = match kind {
            ForKind::Parallel => "parallel",
            ForKind::Unroll => "unrolled",
            _ => "these",
        };
        self.loop_with(kind, target, init_values, start, stop, step, attrs, body, span, breakable, what, out);
    }

    /// The bounds of a `pl.range`-like loop (1 to 3 integer scalars; constants for
    /// `pl.unroll`; a step that is not zero) as start, stop and step.
    fn loop_bounds(&mut self, kind: ForKind, bounds: &[ast::ExprId], header: Span) -> Option<(ExprId, ExprId, ExprId)> {
        let name = kind.name();
        if !(1..=3).contains(&bounds.len()) {
            let message = format!("pl.{name}() takes 1 to 3 positional bounds, got {}", bounds.len());
            self.error(Code::E0202, header, message, "wrong number of bounds");
            return None;
        }
        // One to three bounds, checked above: lowered in place, not into a vector.
        let mut lowered = [None; 3];
        for (slot, &b) in lowered.iter_mut().zip(bounds) {
            let e = self.expr(b);
            if let Some(e) = e {
                let span = self.ast().expr(b).span;
                if !matches!(self.ty(e), Type::Scalar(d) if d.is_int()) && !matches!(self.ty(e), Type::Unknown) {
                    let message = format!("a bound of pl.{name}() must be an integer scalar");
                    self.error(Code::E0217, span, message, "not an integer");
                }
                if kind == ForKind::Unroll && !matches!(self.cx.program.expr(e).kind, ExprKind::Int(_)) {
                    let message = "the bounds of pl.unroll() must be compile-time constants";
                    self.error(Code::E0218, span, message, "not a constant");
                }
            }
            *slot = Some(e);
        }
        let (start, stop, step) = match lowered {
            [Some(Some(stop)), None, None] => (self.int(0, header), stop, self.int(1, header)),
            [Some(Some(start)), Some(Some(stop)), None] => (start, stop, self.int(1, header)),
            [Some(Some(start)), Some(Some(stop)), Some(Some(step))] => (start, stop, step),
            _ => return None,
        };
        // PyPTO's parser refuses a zero step only on pl.unroll(); on the other loops it is
        // a loop that runs zero times (as its static trip count says).
        if let (ExprKind::Int(0), ForKind::Unroll) = (&self.cx.program.expr(step).kind, kind) {
            let span = self.ast().expr(bounds[2]).span;
            self.error(Code::E0219, span, format!("the step of pl.{name}() must not be zero"), "zero step");
        }
        Some((start, stop, step))
    }

    /// `attrs={"key": value}` of a loop: each entry a loop attribute of its own, named
    /// `attrs:key` (the printer writes them back as one dict).
    fn loop_attr_entries(&mut self, value: ast::ExprId, name: &str, attrs: &mut Vec<(Symbol, ExprId)>) {
        if !self.loop_attrs_ok(value, name) {
            return;
        }
        let E::Dict(entries) = &self.ast().expr(value).kind else { return };
        for entry in entries {
            // loop_attrs_ok checked that every key is a plain string literal.
            let key = entry.key.and_then(|k| match &self.ast().expr(k).kind {
                E::Str(pieces) => self.cx.string_value(self.m, *pieces),
                _ => None,
            });
            let Some(key) = key else { continue };
            let name = self.cx.intern(&format!("{}{key}", crate::ir::LOOP_ATTR));
            if let Some(e) = self.expr(entry.value) {
                attrs.push((name, e));
            }
        }
    }

    /// `stage=` of `pl.pipeline()`: a positive integer (E0219), kept as the loop attribute
    /// `stage`.
    fn pipeline_stage(&mut self, st: ast::ExprId, attrs: &mut Vec<(Symbol, ExprId)>) {
        // A stage that is not a constant is reported by the evaluation (E0218).
        let value = self.cx.eval_const_in(self.m, st, &|_| None).map(|c| c.as_int());
        if matches!(value, Some(n) if n.is_none_or(|n| n < 1)) {
            let (span, got) = self.source_of(st);
            self.error(
                Code::E0219,
                span,
                format!("pl.pipeline() stage must be a positive integer, got {got}"),
                "not >= 1",
            );
        }
        if let Some(e) = self.expr(st) {
            let key = self.cx.intern("stage");
            attrs.push((key, e));
        }
    }

    fn bad_iterator(&mut self, span: Span) {
        self.error_help(
            Code::E0219,
            span,
            "For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), pl.while_(), pl.spmd(), or pl.split_aiv()",
            "not a pl loop iterator",
            "write `for i in pl.range(n):`",
        );
    }

    /// The names of a loop target: `i` alone, or `i, (a, b, ...)` with the carried
    /// values; `None` for any other form.
    fn loop_target(&self, t: &ast::Expr) -> Option<(Option<Named>, Option<Vec<Named>>)> {
        let named = |i: ast::ExprId| match self.ast().expr(i).kind {
            E::Name(n) => Some((n, self.ast().expr(i).span)),
            _ => None,
        };
        match &t.kind {
            E::Name(n) => Some((Some((*n, t.span)), None)),
            E::Tuple(items) if items.len() == 2 => {
                let carried = match &self.ast().expr(self.ast().list(*items)[1]).kind {
                    E::Tuple(inner) | E::List(inner) => {
                        self.ast().list(*inner).iter().map(|&i| named(i)).collect::<Option<Vec<_>>>()?
                    }
                    _ => return None,
                };
                Some((Some(named(self.ast().list(*items)[0])?), Some(carried)))
            }
            _ => None,
        }
    }

    /// The loop variable and iter args of `target`, the body, and the loop statement.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn loop_with(
        &mut self,
        kind: ForKind,
        target: ast::ExprId,
        init_values: Option<ast::ExprId>,
        start: ExprId,
        stop: ExprId,
        step: ExprId,
        attrs: Vec<(Symbol, ExprId)>,
        body: &ast::Block,
        span: Span,
        breakable: bool,
        what: &'static str,
        out: &mut Block,
    ) {
        let t = self.ast().expr(target);
        let index_ty = self.types().scalar(DType::Index);
        let Some((loop_name, carried)) = self.loop_target(t) else {
            self.error(Code::E0219, t.span, "the loop target must be `i` or `i, (a, b, ...)`", "unsupported target");
            return;
        };
        let inits: &[ast::ExprId] = match init_values.map(|iv| self.ast().expr(iv)) {
            None => &[],
            Some(ast::Expr { kind: E::Tuple(items) | E::List(items), .. }) => self.ast().list(*items),
            Some(other) => {
                self.error(Code::E0219, other.span, "init_values must be a tuple or list literal", "not a literal");
                return;
            }
        };
        match (&carried, init_values.is_some()) {
            (None, true) => {
                self.error(
                    Code::E0219,
                    t.span,
                    "For loop target must be a tuple when init_values is provided",
                    "write `i, (acc,)`",
                );
                return;
            }
            (Some(names), true) if names.len() != inits.len() => {
                self.iter_args_mismatch(t.span, names.len(), inits.len());
                return;
            }
            (Some(_), false) => {
                self.error(Code::E0219, t.span, "a loop target `i, (a, ...)` needs init_values=", "no init_values");
                return;
            }
            _ => {}
        }
        if let (ForKind::Unroll, Some(names), Some(iv)) = (kind, &carried, init_values) {
            if !self.printed_ssa_carry(names) {
                let span = self.ast().expr(iv).span;
                self.error_help(
                    Code::E0219,
                    span,
                    "pl.unroll() cannot be combined with init_values",
                    "values carried through an unrolled loop",
                    "reassign the names in the body (`x = pl.add(x, 1.0)`); ConvertToSSA threads them",
                );
                return;
            }
        }
        let Some(init_exprs) = self.exprs(inits) else { return };
        // Names bound inside a loop with iter args stay inside it.
        let saved = carried.as_ref().map(|_| self.names.clone());
        let (lname, lspan) = loop_name.expect("set above");
        let var = self.new_local(lname, index_ty, lspan);
        if !self.cx.shadows_namespace(self.m, lname, lspan) {
            self.names.insert(lname, var);
        }
        let iter_args = self.carried_iter_args(carried.clone().unwrap_or_default(), init_exprs);
        self.frames.push(Frame::Loop { breakable, what });
        let (mut body, yielded, yield_reported) = if iter_args.is_empty() {
            (self.block(self.ast().block(body)), None, false)
        } else {
            self.loop_body_with_yield(self.ast().block(body))
        };
        self.frames.pop();
        if let Some(saved) = saved {
            self.names = saved;
        }
        let mut return_vars = Vec::new();
        match yielded {
            Some((names, types)) => {
                if names.len() != iter_args.len() && !yield_reported {
                    self.error(
                        Code::E0221,
                        span,
                        format!("the loop carries {} value(s) but yields {}", iter_args.len(), names.len()),
                        "count mismatch",
                    );
                }
                for ((name, nspan), ty) in names.into_iter().zip(types) {
                    return_vars.push(self.bind(name, ty, nspan));
                }
            }
            None if !iter_args.is_empty() && !yield_reported => {
                return_vars = self.implicit_carry(&iter_args, span, &mut body);
            }
            None => {}
        }
        let s = self.new_stmt(
            StmtKind::For(Box::new(crate::ir::ForStmt {
                kind,
                var,
                start,
                stop,
                step,
                iter_args,
                body,
                return_vars,
                attrs,
            })),
            span,
        );
        out.push(s);
    }

    /// Whether the carried names of a loop are all versioned (`acc__iter_v1`): the printed IR
    /// of ConvertToSSA, which threads a value reassigned in a `pl.unroll` body through the
    /// loop (plc unrolls no loop before it), so that it reads back; a user's `pl.unroll`
    /// with `init_values=` is refused, as in PyPTO.
    fn printed_ssa_carry(&self, names: &[Named]) -> bool {
        names.iter().all(|&(name, _)| crate::ir::names::Versioned::parse(self.cx.name(name)).is_some())
    }

    /// A loop with `init_values=` whose body has no `pl.yield_` at all (PyPTO reads it; only
    /// a bare `pl.yield_(...)` is refused): each carried name's value at the end of the body
    /// is carried to the next iteration (a reassignment of the name updates it), and the
    /// loop's results are named `<name>_out`, as PyPTO names them.
    fn implicit_carry(&mut self, iter_args: &[IterArg], span: Span, body: &mut Block) -> Vec<VarId> {
        let mut carried = Vec::new();
        let mut return_vars = Vec::new();
        for arg in iter_args {
            let (name, ty) = {
                let var = self.cx.program.var(arg.var);
                (var.source, var.ty)
            };
            carried.push(self.new_expr(ExprKind::Var(arg.var), ty, span));
            let out = format!("{}_out", self.cx.name(name));
            let out = self.cx.intern(&out);
            return_vars.push(self.bind(out, ty, span));
        }
        let s = self.new_stmt(StmtKind::Yield(carried), span);
        body.push(s);
        return_vars
    }

    /// `for (x,) in pl.while_(init_values=(x0,)):` whose body starts with `pl.cond(c)`.
    fn while_loop(&mut self, target: ast::ExprId, args: &[ast::Arg], body: &ast::Block, span: Span, out: &mut Block) {
        let mut init = None;
        for a in args {
            match a.kind {
                ArgKind::Keyword(k) if self.cx.name(k.name) == "init_values" => init = Some(a.value),
                ArgKind::Positional => {
                    self.error(Code::E0219, a.span, "pl.while_() takes no positional arguments", "positional argument");
                    return;
                }
                _ => {
                    let text = self.text(a.span);
                    self.error(
                        Code::E0203,
                        a.span,
                        format!("unknown keyword argument `{text}` in pl.while_()"),
                        "unknown keyword",
                    );
                }
            }
        }
        let Some(init) = init else {
            self.error(Code::E0219, span, "pl.while_() requires init_values", "no init_values");
            return;
        };
        let names: Vec<(Symbol, Span)> = match &self.ast().expr(target).kind {
            E::Tuple(items) | E::List(items) => self.named_items(self.ast().list(*items)),
            _ => {
                let tspan = self.ast().expr(target).span;
                self.error(
                    Code::E0219,
                    tspan,
                    "the target of pl.while_() must be a tuple of names: `for (x,) in pl.while_(...)`",
                    "not a tuple",
                );
                return;
            }
        };
        let inits: Vec<ast::ExprId> = match &self.ast().expr(init).kind {
            E::Tuple(items) | E::List(items) => self.ast().list(*items).to_vec(),
            _ => vec![init],
        };
        if inits.len() != names.len() {
            self.iter_args_mismatch(span, names.len(), inits.len());
            return;
        }
        let first_is_cond = self.ast().block(body).first().is_some_and(|&s| match &self.ast().stmt(s).kind {
            S::Expr(e) => {
                matches!(&self.ast().expr(*e).kind, E::Call { func, .. } if self.cx.is_pl_path(self.m, *func, "cond"))
            }
            _ => false,
        });
        if !first_is_cond {
            self.error(
                Code::E0219,
                span,
                "First statement in pl.while_() body must be pl.cond(condition)",
                "no pl.cond(...) first",
            );
            return;
        }
        let Some(init_exprs) = self.exprs(&inits) else { return };
        let saved = self.names.clone();
        let iter_args = self.carried_iter_args(names, init_exprs);
        let cond_stmt = self.ast().block(body)[0];
        let cond_args = match &self.ast().stmt(cond_stmt).kind {
            S::Expr(e) => match &self.ast().expr(*e).kind {
                E::Call { args, .. } => self.ast().list(*args).to_vec(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        if cond_args.len() > 1 {
            let at = self.ast().stmt(cond_stmt).span;
            let message = format!("pl.cond() takes exactly one argument, the loop condition, got {}", cond_args.len());
            self.error_help(Code::E0202, at, message, "several arguments", "combine the conditions with `and` / `or`");
            return;
        }
        let cond_arg = cond_args.first().map(|a| a.value);
        let Some(cond_arg) = cond_arg else {
            self.error(Code::E0219, span, "pl.cond() takes the loop condition", "no condition");
            return;
        };
        let cond = self.condition(cond_arg, "pl.while_");
        self.frames.push(Frame::Loop { breakable: true, what: "while" });
        let (block, yielded, yield_reported) = self.loop_body_with_yield(&self.ast().block(body)[1..]);
        self.frames.pop();
        self.names = saved;
        let mut return_vars = Vec::new();
        if let Some((names, types)) = yielded {
            for ((name, nspan), ty) in names.into_iter().zip(types) {
                return_vars.push(self.bind(name, ty, nspan));
            }
        } else if !yield_reported {
            self.error(Code::E0221, span, "a pl.while_() loop must end in `x = pl.yield_(...)`", "no trailing yield");
        }
        let Some(cond) = cond else { return };
        let s = self.new_stmt(
            StmtKind::While(Box::new(crate::ir::WhileStmt { cond, iter_args, body: block, return_vars })),
            span,
        );
        out.push(s);
    }

    // ------------------------------------------------------------ expressions

    pub fn int(&mut self, v: i64, span: Span) -> ExprId {
        let ty = self.types().scalar(DType::Index);
        self.new_expr(ExprKind::Int(v), ty, span)
    }

    /// Lowers an expression; `None` after an error has been reported.
    pub fn expr(&mut self, id: ast::ExprId) -> Option<ExprId> {
        let expr = self.ast().expr(id);
        let span = expr.span;
        match &expr.kind {
            E::Int => match parse_int(self.cx.text_of(self.m, span)) {
                Some(Const::Int(v)) => Some(self.int(v, span)),
                _ => {
                    self.error(Code::E0218, span, "integer literal out of range (pl integers are 64-bit)", "too large");
                    None
                }
            },
            E::Float => {
                let Some(Const::Float(v)) = parse_float(self.cx.text_of(self.m, span)) else { return None };
                let ty = self.types().scalar(DType::Fp32);
                Some(self.new_expr(ExprKind::Float(v), ty, span))
            }
            E::True | E::False => {
                let ty = self.types().scalar(DType::Bool);
                Some(self.new_expr(ExprKind::Bool(matches!(expr.kind, E::True)), ty, span))
            }
            E::None => Some(self.new_expr(ExprKind::None, Types::NONE, span)),
            E::Str(pieces) => {
                if self.ast().list(*pieces).iter().any(|p| p.kind == ast::StrKind::Format) {
                    self.error(Code::E0223, span, "f-strings are only allowed in pl.static_print()", "an f-string");
                    return None;
                }
                let value = self.cx.string_value(self.m, *pieces)?;
                let sym = self.cx.intern(&value);
                Some(self.new_expr(ExprKind::Str(sym), Types::UNKNOWN, span))
            }
            E::Name(n) => self.name_expr(*n, span),
            E::Attribute { .. } => self.attribute(id, span),
            E::List(items) | E::Tuple(items) => {
                let values = self.exprs(self.ast().list(*items))?;
                let ty = self.tuple_type(&values);
                Some(self.new_expr(ExprKind::Tuple(values.into()), ty, span))
            }
            E::Binary { .. } | E::Bool { .. } => self.operator_chain(id),
            E::Compare { first, rest } => {
                let (cmp, second) = rest[0];
                let op = cmp_binop(cmp)?;
                let (a, b) = (self.expr(*first), self.expr(second));
                self.binary(op, a?, b?, span)
            }
            E::Unary { op, operand } => {
                // `-(2**63)`: Python computes the operand without bounds, so the negation
                // fits 64 bits though the operand does not.
                if *op == ast::UnaryOp::Neg && self.cx.negates_to_int_min(self.m, *operand) {
                    return Some(self.int(i64::MIN, span));
                }
                let v = self.expr(*operand)?;
                self.unary(*op, v, span)
            }
            E::Call { func, args } => self.call(*func, self.ast().list(*args), span),
            E::Subscript { value, index } => self.subscript(*value, *index, span),
            E::Slice { .. } => {
                self.error(Code::E0223, span, "a slice is only allowed inside a subscript", "a slice");
                None
            }
            E::Dict(_) => {
                self.error(
                    Code::E0223,
                    span,
                    "a dict literal is only allowed as `attrs=` or `pl.func_attr(...)`",
                    "a dict",
                );
                None
            }
            E::Comprehension { .. } if !self.comprehension_allowed(span) => None,
            E::Comprehension { .. } => self.comprehension(id, span),
            E::Ellipsis => {
                self.error(
                    Code::E0223,
                    span,
                    "`...` is only allowed as the body of a stub function",
                    "unexpected `...`",
                );
                None
            }
            // Refused by the syntax check already.
            _ => None,
        }
    }

    /// A chain of binary operators, `a + b - c ...` (or of `and`/`or`): its left spine is
    /// followed with a loop, so that a flat sum of thousands of terms needs no deeper
    /// recursion than one term; only the right operands, nested at most
    /// `syntax::limits::MAX_EXPR_DEPTH` deep, recurse. Both operands of each operator are
    /// lowered (and their errors reported) before it is.
    fn operator_chain(&mut self, id: ast::ExprId) -> Option<ExprId> {
        let (spine, first) = self.ast().chain_spine(id);
        let mut acc = self.expr(first);
        for node in spine {
            let expr = self.ast().expr(node);
            let (op, rhs) = match expr.kind {
                E::Binary { op, rhs, .. } => (ir_binop(op), rhs),
                E::Bool { op, rhs, .. } => (Some(if op == ast::BoolOp::And { BinOp::And } else { BinOp::Or }), rhs),
                _ => unreachable!("a chain's spine holds operators only"),
            };
            // `@` has no scalar form (the syntax check refused it already).
            let b = op.and_then(|_| self.expr(rhs));
            acc = match (op, acc, b) {
                (Some(op), Some(a), Some(b)) => self.binary(op, a, b, expr.span),
                _ => None,
            };
        }
        acc
    }

    fn name_expr(&mut self, n: Symbol, span: Span) -> Option<ExprId> {
        if let Some(&alias) = self.aliases.get(&n) {
            let (kind, ty) = (self.cx.program.expr(alias).kind.clone(), self.cx.program.expr(alias).ty);
            return Some(self.new_expr(kind, ty, span));
        }
        if let Some(&var) = self.names.get(&n) {
            let ty = self.cx.program.var(var).ty;
            return Some(self.new_expr(ExprKind::Var(var), ty, span));
        }
        if self.unbound_local_dynamic(n, span) {
            return None;
        }
        let binding = match self.cx.modules[self.m].names.get(&n) {
            // The usual constant, an integer, read in place.
            Some(&(Binding::Const(Const::Int(v)), _)) => return Some(self.int(v, span)),
            b => b.map(|b| b.0.clone()),
        };
        match binding {
            Some(Binding::Const(c)) => self.const_expr(&c, span),
            Some(Binding::Poisoned) => None,
            // A run-time extent over `pl.dynamic` dimensions: its defining arithmetic.
            Some(Binding::DynExtent(e)) => self.expr(e).map(|id| {
                let (kind, ty) = (self.cx.program.expr(id).kind.clone(), self.cx.program.expr(id).ty);
                self.new_expr(kind, ty, span)
            }),
            other => {
                self.not_a_value(n, other.as_ref(), span);
                None
            }
        }
    }

    /// A name that is not a value of pl code, by what it is bound to: a function (E0211),
    /// the `pl` namespace (E0223), the `math` module, an outside library or a host-code
    /// name (E0222), or nothing (E0201).
    fn not_a_value(&mut self, n: Symbol, binding: Option<&Binding>, span: Span) {
        let name = self.cx.name(n).to_string();
        let host = self.cx.modules[self.m].host_names.get(&n).copied();
        let (code, message, label, help) = match binding {
            Some(Binding::Function(_) | Binding::ProgramClass | Binding::Factory(_)) => {
                let message = format!("`{name}` is a function; pl code can call it but not use it as a value");
                (Code::E0211, message, "a function", None)
            }
            Some(Binding::Pl | Binding::Pld) => {
                (Code::E0223, "the `pl` namespace is not a value".to_string(), "`pl` alone", None)
            }
            Some(Binding::Math) => {
                let help = format!("pl code may use the module's constants: `{name}.inf`, `{name}.pi`");
                (Code::E0222, format!("the `{name}` module is not a value"), "a module", Some(help))
            }
            // `Binding::Outside`: the value bindings are lowered by `name_expr`.
            Some(_) => {
                let message = format!("`{name}` comes from an outside library, which pl code cannot use");
                (Code::E0222, message, "outside library", None)
            }
            None if host.is_some() => {
                let message = format!("`{name}` is defined by host code, which runs in Python; pl code cannot use it");
                (Code::E0222, message, "host-code name", None)
            }
            None => (Code::E0201, format!("undefined name `{name}`"), "not defined", None),
        };
        let file = self.file;
        let d = self.error(code, span, message, label);
        d.help = help;
        if let Some(host) = host.filter(|_| binding.is_none()) {
            d.secondary.push(Label::secondary(file, host, "defined here, in host code"));
        }
    }

    /// A compile-time value as an expression.
    pub fn const_expr(&mut self, c: &Const, span: Span) -> Option<ExprId> {
        Some(match c {
            Const::Int(v) => self.int(*v, span),
            Const::Float(v) => {
                let ty = self.types().scalar(DType::Fp32);
                self.new_expr(ExprKind::Float(*v), ty, span)
            }
            Const::Bool(b) => {
                let ty = self.types().scalar(DType::Bool);
                self.new_expr(ExprKind::Bool(*b), ty, span)
            }
            Const::Str(s) => self.new_expr(ExprKind::Str(*s), Types::UNKNOWN, span),
            Const::None => self.new_expr(ExprKind::None, Types::NONE, span),
            Const::List(items) | Const::Tuple(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.const_expr(item, span)?);
                }
                let ty = self.tuple_type(&values);
                self.new_expr(ExprKind::Tuple(values.into()), ty, span)
            }
            Const::DType(d) => self.new_expr(ExprKind::DType(*d), Types::UNKNOWN, span),
            Const::Enum(v) => self.new_expr(ExprKind::Enum(*v), Types::UNKNOWN, span),
            Const::Dict(_) => {
                self.error_help(
                    Code::E0218,
                    span,
                    "a dict is not a value of pl code",
                    "a dict",
                    "read one of its entries with a constant key: `TABLE[\"key\"]`",
                );
                return None;
            }
            Const::Dyn(name) => {
                let ty = self.types().scalar(DType::Index);
                self.new_expr(ExprKind::DynDim(*name), ty, span)
            }
            Const::Host(name) => {
                let text = self.cx.name(*name).to_string();
                self.error_help(
                    Code::E0222,
                    span,
                    format!("`{text}` is a value of an outside library, which pl code cannot use"),
                    "outside-library value",
                    "such a value may only key a dict constant: `TABLE[{text}]` reads the entry it names",
                );
                return None;
            }
        })
    }

    fn attribute(&mut self, id: ast::ExprId, span: Span) -> Option<ExprId> {
        // An optimisation entry written as a constant (`pl.auto_chunk`).
        let marker = self.cx.pl_path(self.m, id).and_then(|p| ops::by_spelling(&format!("pl.{p}")));
        if let Some(op) = marker.filter(|op| op.def().is_bare_marker()) {
            return self.op_result(op, Vec::new(), span);
        }
        let namespaced = self.cx.pl_path(self.m, id).or_else(|| self.cx.pld_path(self.m, id)).is_some();
        if namespaced || self.cx.is_math_path(self.m, id) {
            let c = self.cx.eval_const(self.m, id)?;
            return self.const_expr(&c, span);
        }
        // `x.shape`, `x.dtype` on a tensor or tile.
        if let E::Attribute { value, attr } = self.ast().expr(id).kind {
            let attr_name = self.cx.name(attr.name).to_string();
            if matches!(attr_name.as_str(), "shape" | "dtype") {
                let base = self.expr(value)?;
                let ty = self.ty(base).clone();
                match (attr_name.as_str(), &ty) {
                    ("dtype", _) if ty.dtype().is_some() => {
                        return Some(self.new_expr(
                            ExprKind::DType(ty.dtype().expect("checked")),
                            Types::UNKNOWN,
                            span,
                        ));
                    }
                    ("shape", _) if ty.shape().is_some() => {
                        let dims = ty.shape().expect("checked").to_vec();
                        let mut values = Vec::new();
                        for d in dims {
                            values.push(self.dim_expr(d, span)?);
                        }
                        let tty = self.tuple_type(&values);
                        return Some(self.new_expr(ExprKind::Tuple(values.into()), tty, span));
                    }
                    _ => {}
                }
                // A bare `pl.Tensor`: read at run time.
                if ty.is_tensor() {
                    let op = if attr_name == "shape" { Op::TensorShape } else { Op::TensorDtype };
                    return self.op_result(op, vec![Some(base)], span);
                }
                let what = self.describe_type(&ty);
                self.error(
                    Code::E0223,
                    span,
                    format!("`.{attr_name}` of {what} is not known at compile time"),
                    "unknown attribute",
                );
                return None;
            }
        }
        if let Some(result) = self.comm_attribute(id, span) {
            return result;
        }
        if let Some(base) = self.buffer_base(id, span) {
            return Some(base);
        }
        if self.outside_use(id) {
            return None;
        }
        let text = self.text(span);
        self.error(Code::E0223, span, format!("Standalone attribute access not supported: {text}"), "not a pl value");
        None
    }

    /// PyPTO's attribute sugar of the communication context: `data.comm` of a
    /// DistributedTensor is `pld.get_comm_ctx(data)`, `ctx.rank` / `ctx.nranks` of a
    /// CommCtx `pld.rank(ctx)` / `pld.nranks(ctx)` (so `data.comm.rank` reads the rank).
    /// `None` when `id` is no such attribute; another attribute of a DistributedTensor or
    /// a CommCtx is E0223.
    fn comm_attribute(&mut self, id: ast::ExprId, span: Span) -> Option<Option<ExprId>> {
        let E::Attribute { value, attr } = self.ast().expr(id).kind else { return None };
        let name = self.cx.name(attr.name).to_string();
        // The base is a local DistributedTensor or CommCtx (`data`, `ctx`), or a local
        // DistributedTensor's `.comm`; it is read only then.
        let local_ty = |s: &Self, e: ast::ExprId| match s.ast().expr(e).kind {
            E::Name(n) => s.names.get(&n).map(|&v| s.cx.program.types.get(s.cx.program.var(v).ty).clone()),
            _ => None,
        };
        let comm_like = |t: &Option<Type>| {
            matches!(t, Some(Type::Tensor { distributed: true, .. } | Type::Handle(crate::ir::types::Handle::CommCtx)))
        };
        let base_ok = comm_like(&local_ty(self, value))
            || matches!(self.ast().expr(value).kind, E::Attribute { value: inner, attr: a }
                if self.cx.name(a.name) == "comm"
                    && matches!(local_ty(self, inner), Some(Type::Tensor { distributed: true, .. })));
        if !base_ok {
            return None;
        }
        // A base that is not a value was reported as it was read.
        let Some(base) = self.expr(value) else { return Some(None) };
        let (op, what) = match self.ty(base) {
            Type::Tensor { distributed: true, .. } => (Op::PldSystemGetCommCtx, "DistributedTensor"),
            Type::Handle(crate::ir::types::Handle::CommCtx) => match name.as_str() {
                "rank" => (Op::PldSystemRank, "CommCtx"),
                _ => (Op::PldSystemNranks, "CommCtx"),
            },
            _ => return None,
        };
        let known =
            if what == "DistributedTensor" { name == "comm" } else { matches!(name.as_str(), "rank" | "nranks") };
        if !known {
            let message = format!("{what} has no attribute '{name}'");
            let help = if what == "DistributedTensor" {
                "`.comm` is its communication context"
            } else {
                "a CommCtx has `.rank` and `.nranks`"
            };
            self.error_help(Code::E0223, span, message, "unknown attribute", help);
            return Some(None);
        }
        Some(self.op_result(op, vec![Some(base)], span))
    }

    /// Remembers whether `var` now holds a cross-core buffer's base: the value of
    /// `pl.reserve_buffer(...)` / `pl.import_peer_buffer(...)`.
    fn note_buffer(&mut self, var: VarId, value: ExprId) {
        let is_buffer = matches!(
            &self.cx.program.expr(value).kind,
            ExprKind::Call { callee: Callee::Op(op), .. } if op.def().names_a_buffer()
        );
        if is_buffer {
            self.buffers.insert(var);
        } else {
            self.buffers.remove(&var);
        }
    }

    /// `buf.base` of a name holding a cross-core buffer's base: that base, as PyPTO's
    /// parser reads the buffer's metadata (ops.md §1 *Keyword arguments*).
    fn buffer_base(&mut self, id: ast::ExprId, span: Span) -> Option<ExprId> {
        let E::Attribute { value, attr } = self.ast().expr(id).kind else { return None };
        let E::Name(n) = self.ast().expr(value).kind else { return None };
        let var = *self.names.get(&n)?;
        (self.cx.name(attr.name) == "base" && self.buffers.contains(&var)).then(|| self.name_expr(n, span))?
    }

    fn dim_expr(&mut self, d: Dim, span: Span) -> Option<ExprId> {
        match d {
            Dim::Const(v) => Some(self.int(v, span)),
            Dim::Dyn(name) => self.const_expr(&Const::Dyn(name), span),
            Dim::Var(var) => {
                let ty = self.cx.program.var(var).ty;
                Some(self.new_expr(ExprKind::Var(var), ty, span))
            }
            Dim::Unknown => {
                self.error(Code::E0218, span, "this extent is only known at run time", "unknown extent");
                None
            }
        }
    }

    /// A scalar operator; folds constants; refuses tensors and tiles (use `pl.add` ...).
    pub fn binary(&mut self, op: BinOp, a: ExprId, b: ExprId, span: Span) -> Option<ExprId> {
        if !self.not_a_string(a) || !self.not_a_string(b) {
            return None;
        }
        let (ta, tb) = (self.ty(a).clone(), self.ty(b).clone());
        for t in [&ta, &tb] {
            if t.is_shaped() {
                let what = self.describe_type(t);
                let name = match op {
                    BinOp::Add => "pl.add(a, b)",
                    BinOp::Sub => "pl.sub(a, b)",
                    BinOp::Mul => "pl.mul(a, b)",
                    BinOp::Div => "pl.div(a, b)",
                    _ => "the pl operation",
                };
                self.error_help(
                    Code::E0217,
                    span,
                    format!("the operator `{}` works on scalars, not on {what}", op.spelling().trim()),
                    "a tensor or tile operand",
                    format!("for tensors and tiles write {name}"),
                );
                return None;
            }
        }
        // Constant folding, and the identities `x + 0`, `x - 0`, `0 + x`, `x * 1`, `1 * x`
        // on integers (slices of whole dimensions make them).
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            if let Some(v) = super::consts::binary(op, &x, &y) {
                return self.const_expr(&v, span);
            }
            // Two numbers whose result Python would not give (an overflow of 64 bits, a
            // division by zero, a negative shift count): refused here, as `plc run` would
            // fail on it and the C++ would compute something else.
            if x.as_f64().is_some() && y.as_f64().is_some() {
                self.error(Code::E0218, span, arith_error(op, &y), "fails when it runs");
                return None;
            }
        }
        // A constant divisor of 0 or a constant negative shift count fails whatever the other
        // operand is.
        if let Some(y @ (Const::Int(_) | Const::Float(_) | Const::Bool(_))) = self.as_const(b) {
            let zero = y.as_f64() == Some(0.0) && matches!(op, BinOp::Div | BinOp::FloorDiv | BinOp::Mod);
            let negative_shift = matches!(y, Const::Int(n) if n < 0) && matches!(op, BinOp::Shl | BinOp::Shr);
            if zero || negative_shift {
                self.error(Code::E0218, span, arith_error(op, &y), "fails when it runs");
                return None;
            }
        }
        let int_scalars = matches!((&ta, &tb), (Type::Scalar(x), Type::Scalar(y)) if x.is_int() && y.is_int());
        if int_scalars {
            match (op, self.as_const(a), self.as_const(b)) {
                (BinOp::Add | BinOp::Sub, _, Some(Const::Int(0))) | (BinOp::Mul, _, Some(Const::Int(1))) => {
                    return Some(a)
                }
                (BinOp::Add, Some(Const::Int(0)), _) | (BinOp::Mul, Some(Const::Int(1)), _) => return Some(b),
                _ => {}
            }
            // `(x + c) - x` is `c`: the extent of a slice `t[i : i + c]`.
            if op == BinOp::Sub {
                if let ExprKind::Binary { op: BinOp::Add, lhs, rhs } = self.cx.program.expr(a).kind {
                    let same = |p: &crate::ir::Program| match (&p.expr(lhs).kind, &p.expr(b).kind) {
                        (ExprKind::Var(x), ExprKind::Var(y)) => x == y,
                        _ => lhs == b,
                    };
                    if same(&self.cx.program) && matches!(self.as_const(rhs), Some(Const::Int(_))) {
                        return Some(rhs);
                    }
                }
            }
        }
        let dtype = if op.is_comparison() || op.is_logical() {
            DType::Bool
        } else {
            match (ta.dtype(), tb.dtype()) {
                (Some(x), _) if x.is_float() => x,
                (_, Some(y)) if y.is_float() => y,
                _ if op == BinOp::Div => DType::Fp32,
                (Some(x), _) => x,
                (_, Some(y)) => y,
                _ => DType::Index,
            }
        };
        let ty = self.types().scalar(dtype);
        Some(self.new_expr(ExprKind::Binary { op, lhs: a, rhs: b }, ty, span))
    }

    fn unary(&mut self, op: ast::UnaryOp, v: ExprId, span: Span) -> Option<ExprId> {
        let ty = self.ty(v).clone();
        if ty.is_shaped() {
            let what = self.describe_type(&ty);
            self.error_help(
                Code::E0217,
                span,
                format!("this operator works on scalars, not on {what}"),
                "a tensor or tile operand",
                "for tensors and tiles write pl.neg(x)",
            );
            return None;
        }
        let op = match op {
            ast::UnaryOp::Neg => UnOp::Neg,
            ast::UnaryOp::Not => UnOp::Not,
            ast::UnaryOp::Invert => UnOp::BitNot,
            ast::UnaryOp::Pos => return Some(v),
        };
        match (op, &self.cx.program.expr(v).kind) {
            (UnOp::Neg, ExprKind::Int(i)) => {
                let Some(n) = i.checked_neg() else {
                    self.error(Code::E0218, span, "integer overflow in `-`", "fails when it runs");
                    return None;
                };
                return Some(self.int(n, span));
            }
            (UnOp::Neg, ExprKind::Float(f)) => {
                let f = -f;
                let t = self.cx.program.expr(v).ty;
                return Some(self.new_expr(ExprKind::Float(f), t, span));
            }
            _ => {}
        }
        let out_ty = if op == UnOp::Not { self.types().scalar(DType::Bool) } else { self.cx.program.expr(v).ty };
        Some(self.new_expr(ExprKind::Unary { op, operand: v }, out_ty, span))
    }

    /// A number given for a padding mode, as PyPTO takes it (`pad_value=0`, `math.inf`,
    /// `-math.inf`): that mode; any other argument is kept for `check_arg` to judge.
    /// With `by_name` (an older `mode="zero"`), the mode's name as a string too.
    fn pad_value_sugar(&mut self, e: ExprId, by_name: bool) -> ExprId {
        let pad = match (self.as_const(e), &self.cx.program.expr(e).kind) {
            (Some(Const::Int(v)), _) => crate::ir::PadValue::from_number(v as f64),
            (Some(Const::Float(v)), _) => crate::ir::PadValue::from_number(v),
            (_, ExprKind::Str(name)) if by_name => crate::ir::PadValue::from_name(self.cx.name(*name)),
            _ => None,
        };
        let Some(pad) = pad else { return e };
        let span = self.cx.program.expr(e).loc.span;
        self.new_expr(ExprKind::Enum(EnumValue::PadValue(pad)), Types::UNKNOWN, span)
    }

    /// A code given for a named argument (`mode=3` of `cast`): the name at that position,
    /// as PyPTO's `resolve_cast_mode` takes it; a code out of range, or `True`/`False`, is
    /// E0217. Any other argument is kept for `check_arg` to judge.
    fn named_by_code(
        &mut self,
        def: &OpDef,
        p: &ops::ParamDef,
        names: &'static [&'static str],
        e: ExprId,
        a: ast::ExprId,
    ) -> Option<ExprId> {
        let code = match &self.cx.program.expr(e).kind {
            ExprKind::Bool(_) => None,
            _ => match self.as_const(e) {
                Some(Const::Int(v)) => Some(v),
                _ => return Some(e),
            },
        };
        let Some(name) = code.and_then(|v| usize::try_from(v).ok()).and_then(|k| names.get(k)) else {
            let span = self.ast().expr(a).span;
            let given = self.text(span);
            let quoted = names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ");
            self.error(
                Code::E0217,
                span,
                format!(
                    "argument `{}` of {}() must be one of {quoted} or its code in [0, {}], got {given}",
                    p.name,
                    def.print_name(),
                    names.len() - 1
                ),
                "no such code",
            );
            return None;
        };
        let sym = self.cx.intern(name);
        let span = self.cx.program.expr(e).loc.span;
        Some(self.new_expr(ExprKind::Str(sym), Types::UNKNOWN, span))
    }

    /// The compile-time value of a lowered expression, when it has one.
    pub fn as_const(&self, e: ExprId) -> Option<Const> {
        Some(match &self.cx.program.expr(e).kind {
            ExprKind::Int(v) => Const::Int(*v),
            ExprKind::Float(v) => Const::Float(*v),
            ExprKind::Bool(v) => Const::Bool(*v),
            _ => return None,
        })
    }

    /// `buffers[i]` of a set of tile buffers (a tuple of tiles of one type) with an index
    /// that is not a constant: `pl.tile.buffer_slot(buffers, i)`. `None` (nothing
    /// reported) for any other tuple or a constant index, which the caller reads itself.
    fn buffer_slot(
        &mut self,
        base: ExprId,
        elements: &[TypeId],
        index: ast::ExprId,
        span: Span,
    ) -> Option<Option<ExprId>> {
        let first = *elements.first()?;
        let one_tile = self.cx.program.types.get(first).is_tile() && elements.iter().all(|&t| t == first);
        if !one_tile {
            return None;
        }
        let before = self.cx.diags.len();
        let constant = self.cx.eval_const_in(self.m, index, &|_| None);
        self.cx.diags.truncate(before);
        if constant.is_some() {
            return None;
        }
        let Some(i) = self.expr(index) else { return Some(None) };
        Some(self.op_result(Op::TileBufferSlot, vec![Some(base), Some(i)], span))
    }

    fn subscript(&mut self, value: ast::ExprId, index: ast::ExprId, span: Span) -> Option<ExprId> {
        // A module constant read with a constant key (`_DT[dtype]`, `SIZES[2]`) is folded.
        if let E::Name(n) = self.ast().expr(value).kind {
            let module_const = !self.names.contains_key(&n) && !self.aliases.contains_key(&n);
            if let (true, Some((Binding::Const(table @ (Const::Dict(_) | Const::List(_) | Const::Tuple(_))), _))) =
                (module_const, self.cx.modules[self.m].names.get(&n).cloned())
            {
                let before = self.cx.diags.len();
                let key = self.cx.eval_const_in(self.m, index, &|_| None);
                self.cx.diags.truncate(before);
                if let Some(key) = key {
                    let Some(v) = super::consts::lookup(&table, &key) else {
                        let k = key.describe(&self.cx.session.interner);
                        self.error(Code::E0218, span, format!("the constant has no entry {k}"), "no such entry");
                        return None;
                    };
                    return self.const_expr(&v, span);
                }
            }
        }
        let base = self.expr(value)?;
        // `t.shape[k]` of a bare `pl.Tensor`: its extent `k`, read at run time.
        if let Some(tensor) = self.bare_shape_of(base) {
            let Some(k) = self.constant_int(index).filter(|&k| k >= 0) else {
                let text = self.text(self.ast().expr(index).span);
                self.error(
                    Code::E0217,
                    span,
                    format!("an axis of a shape is a non-negative integer, not `{text}`"),
                    "bad axis",
                );
                return None;
            };
            return self.extent_of(tensor, k, span);
        }
        let ty = self.ty(base).clone();
        let items: Vec<ast::ExprId> = match &self.ast().expr(index).kind {
            E::Tuple(items) => self.ast().list(*items).to_vec(),
            _ => vec![index],
        };
        match &ty {
            Type::Tuple(elements) => {
                if let Some(slot) = self.buffer_slot(base, elements, index, span) {
                    return slot;
                }
                let idx = self.cx.eval_const_in(self.m, index, &|_| None)?;
                let Some(i) = idx.as_int().filter(|&i| i >= 0 && (i as usize) < elements.len()) else {
                    self.error(
                        Code::E0217,
                        span,
                        format!("tuple index out of range (the tuple has {} elements)", elements.len()),
                        "bad index",
                    );
                    return None;
                };
                let ety = elements[i as usize];
                Some(self.new_expr(ExprKind::TupleGet { tuple: base, index: i as u32 }, ety, span))
            }
            Type::Array { dtype, .. } => {
                if items.len() != 1 {
                    let message = format!("an array takes a single index, got {}", items.len());
                    self.error_help(
                        Code::E0217,
                        self.ast().expr(index).span,
                        message,
                        "one index",
                        "pl.array values have one dimension: write `arr[i]`",
                    );
                    return None;
                }
                let i = self.expr(items[0])?;
                let op = Op::ArrayGetElement;
                let ety = self.types().scalar(*dtype);
                Some(self.new_expr(
                    ExprKind::Call {
                        callee: Callee::Op(op),
                        args: vec![Some(base), Some(i)].into(),
                        attrs: CallAttrs::none(),
                    },
                    ety,
                    span,
                ))
            }
            Type::Tensor { .. } | Type::Tile { .. } => {
                self.check_subscript_rank(&ty, &items, "subscript", span)?;
                let is_tile = ty.is_tile();
                let has_slice = items.iter().any(|&i| matches!(self.ast().expr(i).kind, E::Slice { .. }));
                let rank = ty.shape().map_or(items.len(), <[Dim]>::len);
                if !has_slice && items.len() == rank {
                    // A full index reads one element.
                    let mut idx = Vec::new();
                    for &i in &items {
                        idx.push(self.expr(i)?);
                    }
                    let tuple_ty = self.intern_ty(Type::Tuple(Vec::new()));
                    let indices = self.new_expr(ExprKind::Tuple(idx.into()), tuple_ty, self.ast().expr(index).span);
                    let op = if is_tile { Op::TileRead } else { Op::TensorRead };
                    return self.op_result(op, vec![Some(base), Some(indices)], span);
                }
                // A view: `t[a:b, :]` is `pl.slice(t, [b - a, dim1], [a, 0])`; an index among
                // the ranges (or fewer subscripts than dimensions, `t[i]`) selects one row of
                // that dimension and drops it: `t[i, :]` is `pl.slice(t, [1, dim1], [i, 0],
                // drop_dims=[0])`.
                let shape = ty.shape().map(<[Dim]>::to_vec).unwrap_or_default();
                let mut sizes = Vec::new();
                let mut offsets = Vec::new();
                let mut dropped = Vec::new();
                for k in 0..rank.max(items.len()) {
                    let extent = shape.get(k).copied().unwrap_or(Dim::Unknown);
                    let item = items.get(k).map(|&i| (i, self.ast().expr(i)));
                    let (lo, hi) = match item.as_ref().map(|(_, i)| &i.kind) {
                        Some(E::Slice { step: Some(_), .. }) => {
                            let item_span = item.expect("some").1.span;
                            self.error(Code::E0223, item_span, "a slice step is not supported", "a step");
                            return None;
                        }
                        Some(E::Slice { lower, upper, .. }) => (*lower, *upper),
                        Some(_) => {
                            let (id, _) = item.expect("some");
                            let index = self.expr(id)?;
                            offsets.push(index);
                            sizes.push(self.int(1, span));
                            dropped.push(k);
                            continue;
                        }
                        None => (None, None),
                    };
                    let lo_e = match lo {
                        Some(l) => self.expr(l)?,
                        None => self.int(0, span),
                    };
                    let hi_e = match (hi, extent) {
                        (Some(h), _) => self.expr(h)?,
                        // An extent known only at run time (a bare `pl.Tensor`): read it.
                        (None, Dim::Unknown) if !is_tile => {
                            let axis = self.int(k as i64, span);
                            let dim = Op::TensorDim;
                            self.op_result(dim, vec![Some(base), Some(axis)], span)?
                        }
                        (None, _) => self.dim_expr(extent, span)?,
                    };
                    let size = self.binary(BinOp::Sub, hi_e, lo_e, span)?;
                    if is_tile && self.info.decl.kind != crate::ir::FuncKind::Inline {
                        self.check_tile_subscript_range(lo_e, size, item.as_ref().map_or(span, |(_, i)| i.span))?;
                    }
                    sizes.push(size);
                    offsets.push(lo_e);
                }
                let tuple_ty = self.intern_ty(Type::Tuple(Vec::new()));
                let sizes = self.new_expr(ExprKind::Tuple(sizes.into()), tuple_ty, span);
                let offsets = self.new_expr(ExprKind::Tuple(offsets.into()), tuple_ty, span);
                let mut args = vec![Some(base), Some(sizes), Some(offsets)];
                if !dropped.is_empty() {
                    let dims: Vec<ExprId> = dropped.iter().map(|&k| self.int(k as i64, span)).collect();
                    let drop = self.new_expr(ExprKind::Tuple(dims.into()), tuple_ty, span);
                    args.extend([None, Some(drop)]);
                }
                let op = if is_tile { Op::TileSlice } else { Op::TensorSlice };
                self.op_result(op, args, span)
            }
            other => {
                let what = self.describe_type(other);
                self.error(Code::E0217, span, format!("cannot subscript {what}"), "not subscriptable");
                None
            }
        }
    }

    /// PyPTO's tile subscripts (`_build_tile_subscript_slice_args`,
    /// `_build_tile_alloc_extent`): a range `t[a:b]` of a tile starts at a compile-time
    /// integer and covers a positive number of elements known at compile time, since the
    /// result is a new tile of static shape. (In a `pl.inline` function a parameter stands
    /// for the caller's constant, so its ranges are left to the call site.)
    fn check_tile_subscript_range(&mut self, lower: ExprId, size: ExprId, span: Span) -> Option<()> {
        if !matches!(self.as_const(lower), Some(Const::Int(_))) {
            self.error(
                Code::E0217,
                span,
                "Dynamic lower bounds are not supported in tile subscript",
                "not a compile-time integer",
            );
            return None;
        }
        match self.as_const(size) {
            Some(Const::Int(n)) if n > 0 => Some(()),
            _ => {
                self.error(
                    Code::E0217,
                    span,
                    "Tile subscript must produce a positive static extent",
                    "not a positive compile-time extent",
                );
                None
            }
        }
    }

    /// E0217 unless a subscript of a tensor or tile of known rank has one item per
    /// dimension (a slice `:` counts as one), as PyPTO requires. Fewer items are accepted
    /// for a tensor written `t[:]` (the whole tensor) and in host functions (`rows[r]`, one
    /// rank's part).
    fn check_subscript_rank(&mut self, ty: &Type, items: &[ast::ExprId], what: &str, span: Span) -> Option<()> {
        let Some(rank) = ty.shape().map(<[Dim]>::len) else { return Some(()) };
        let whole = matches!(items, [i] if matches!(self.ast().expr(*i).kind, E::Slice { lower: None, upper: None, step: None }));
        let fewer_ok = ty.is_tensor() && (whole || self.info.decl.level == Some(crate::ir::Level::Host));
        let items = items.len();
        if items == rank || (items < rank && fewer_ok) {
            return Some(());
        }
        let (kind, noun) = if ty.is_tile() { ("Tile", "tile") } else { ("Tensor", "tensor") };
        self.error_help(
            Code::E0217,
            span,
            format!("{kind} {what} has {items} indices but the {noun} is {rank}D"),
            "wrong number of indices",
            format!("give {rank} indices; `:` keeps a whole dimension, as in `t[i, :]`"),
        );
        None
    }

    /// `[e for x in xs]` over a constant list (as in `deps=[t for t in tids]` when `tids` is
    /// a tuple of task ids, or a constant range): unrolled into a tuple.
    fn comprehension(&mut self, id: ast::ExprId, span: Span) -> Option<ExprId> {
        let &E::Comprehension { elt, ref generators, .. } = &self.ast().expr(id).kind else { return None };
        let g = &generators[0];
        let target = match self.ast().expr(g.target).kind {
            E::Name(n) => n,
            _ => {
                self.error(Code::E0223, g.span, "the target of a comprehension must be a name", "not a name");
                return None;
            }
        };
        let iterable = self.expr(g.iter)?;
        let items: Vec<ExprId> = match &self.cx.program.expr(iterable).kind {
            ExprKind::Tuple(items) => items.to_vec(),
            _ => {
                self.error(
                    Code::E0218,
                    g.span,
                    "a comprehension must iterate over a list known at compile time",
                    "not a constant list",
                );
                return None;
            }
        };
        let items = self.comprehension_filter(g, target, items)?;
        // The target names each element in turn: uses of it in `elt` become the element.
        let saved = self.aliases.remove(&target);
        let mut values = Vec::new();
        for item in items {
            self.aliases.insert(target, item);
            let v = self.expr(elt);
            values.push(v);
        }
        self.aliases.remove(&target);
        if let Some(s) = saved {
            self.aliases.insert(target, s);
        }
        let values = values.into_iter().collect::<Option<Vec<_>>>()?;
        let ty = self.tuple_type(&values);
        Some(self.new_expr(ExprKind::Tuple(values.into()), ty, span))
    }

    /// The elements of a comprehension's iterable its `if` filters keep. A filter is
    /// evaluated at compile time on each integer element; one that reads a variable of
    /// the function cannot be (PyPTO unrolls the comprehension when it parses it).
    fn comprehension_filter(&mut self, g: &ast::Generator, target: Symbol, items: Vec<ExprId>) -> Option<Vec<ExprId>> {
        if g.ifs.is_empty() {
            return Some(items);
        }
        for &f in &g.ifs {
            let mut stack = vec![f];
            while let Some(id) = stack.pop() {
                if let E::Name(n) = self.ast().expr(id).kind {
                    if n != target && self.names.contains_key(&n) {
                        let span = self.ast().expr(f).span;
                        self.error_help(
                            Code::E0218,
                            span,
                            "deps= comprehension filter depends on an IR variable; cannot unroll at parse time",
                            "reads a variable of the function",
                            "a filter may read the comprehension's own name and constants only",
                        );
                        return None;
                    }
                }
                self.ast().expr_children(id, &mut |c| stack.push(c));
            }
        }
        let mut kept = Vec::new();
        for item in items {
            let ExprKind::Int(k) = self.cx.program.expr(item).kind else {
                self.error(
                    Code::E0218,
                    g.span,
                    "a comprehension with a filter must iterate over integers known at compile time",
                    "not integers",
                );
                return None;
            };
            let mut keep = true;
            for &f in &g.ifs {
                let local = |n: Symbol| (n == target).then_some(super::consts::Const::Int(k));
                match self.cx.eval_const_in(self.m, f, &local)?.truthy() {
                    Some(b) => keep &= b,
                    None => {
                        let span = self.ast().expr(f).span;
                        self.error(
                            Code::E0218,
                            span,
                            "a comprehension filter must be true or false",
                            "not a condition",
                        );
                        return None;
                    }
                }
            }
            if keep {
                kept.push(item);
            }
        }
        Some(kept)
    }

    // ------------------------------------------------------------ calls

    fn call(&mut self, func: ast::ExprId, args: &[ast::Arg], span: Span) -> Option<ExprId> {
        for a in args {
            if matches!(a.kind, ArgKind::Star | ArgKind::DoubleStar) {
                return None; // refused by the syntax check
            }
        }
        // One reading of the callee's dotted name for both namespaces.
        let namespaced = self.cx.namespace_spelled(self.m, func);
        if let Some((Binding::Pl, spelled)) = &namespaced {
            return self.pl_call(spelled, args, span);
        }
        if let Some((Binding::Pld, spelled)) = namespaced {
            let Some(op) = ops::by_spelling(&spelled) else {
                self.unknown_op(&spelled, span);
                return None;
            };
            if !self.pld_position_ok(op, args, span) {
                return None;
            }
            // `pld.remote_store(src, ...)` of a tile is `pld.tile.remote_store`.
            let first = args.iter().find(|a| matches!(a.kind, ArgKind::Positional));
            let (Some(tile_op), Some(first)) = (ops::tile_operand_form(&spelled), first) else {
                return self.op_call(op, &spelled, args, span, None);
            };
            let v = self.expr(first.value)?;
            let op = if self.ty(v).is_tile() { tile_op } else { op };
            return self.op_call(op, &spelled, args, span, Some((first.value, v)));
        }
        let f = self.ast().expr(func);
        match &f.kind {
            // `self.f(...)` in a program method.
            E::Attribute { value, attr } if matches!(self.ast().expr(*value).kind, E::Name(n) if self.cx.name(n) == "self") =>
            {
                if !self.info.method {
                    self.error(
                        Code::E0211,
                        f.span,
                        "`self.` calls are only valid in methods of an @pl.program class",
                        "no `self` here",
                    );
                    return None;
                }
                let key = (self.info.namespace, attr.name);
                if self.cx.func(key).is_some() {
                    return self.function_call(key, args, span);
                }
                let name = self.cx.name(attr.name).to_string();
                self.error(
                    Code::E0201,
                    attr.span,
                    format!("Function '{name}' not defined in program"),
                    "no such function",
                );
                None
            }
            E::Name(n) => {
                if self.names.contains_key(n) {
                    let name = self.cx.name(*n).to_string();
                    self.error(Code::E0211, f.span, format!("`{name}` is a variable, not a function"), "not callable");
                    return None;
                }
                match self.cx.modules[self.m].names.get(n).map(|b| b.0.clone()) {
                    Some(Binding::Function(target)) => self.module_function_call(target, args, span, f.span),
                    Some(Binding::Poisoned) => None,
                    _ if matches!(
                        self.cx.name(*n),
                        "len" | "max" | "min" | "abs" | "int" | "float" | "bool" | "sum" | "range" | "list" | "tuple"
                    ) =>
                    {
                        // Python's builtins fold on constants; they do not exist on run-time values.
                        let uses_locals = args.iter().any(|a| self.mentions_local(a.value));
                        if uses_locals {
                            let text = self.text(span);
                            self.error_help(
                                Code::E0211,
                                span,
                                format!("Unsupported function call: {text}"),
                                "a builtin on run-time values",
                                "Python builtins only fold on constants; pl has no such operation on scalars",
                            );
                            return None;
                        }
                        let id = self.call_ast_id(func, span);
                        match id.and_then(|id| self.cx.eval_const(self.m, id)) {
                            Some(c) => self.const_expr(&c, span),
                            None => None,
                        }
                    }
                    _ => {
                        // Reports an undefined name, a host-code name, and so on; a name that
                        // is a value (a module constant) is not callable.
                        if self.name_expr(*n, f.span).is_some() {
                            let name = self.cx.name(*n).to_string();
                            self.error_help(
                                Code::E0211,
                                f.span,
                                format!("`{name}` is a constant, not a function"),
                                "not callable",
                                "call a pl function or operation, or a name bound to one (`f = kernel`)",
                            );
                        }
                        None
                    }
                }
            }
            _ => {
                if self.outside_use(func) {
                    return None;
                }
                let text = self.text(span);
                self.error(
                    Code::E0211,
                    span,
                    format!("Unsupported function call: {text}"),
                    "not a pl function or operation",
                );
                None
            }
        }
    }

    /// The AST id of the call expression whose callee is `func` (for constant folding).
    fn call_ast_id(&self, func: ast::ExprId, span: Span) -> Option<ast::ExprId> {
        // The call node follows its callee in the arena; find it by span.
        let start = func.0 as usize;
        (start..self.ast().exprs.len())
            .find(|&i| self.ast().exprs[i].span == span && matches!(self.ast().exprs[i].kind, E::Call { .. }))
            .map(|i| ast::ExprId(i as u32))
    }

    /// Reports `torch.zeros`, `np.float32`, ...: an attribute of an outside library (E0222).
    fn outside_use(&mut self, e: ast::ExprId) -> bool {
        let Some(dotted) = self.cx.dotted(self.m, e) else { return false };
        let root = dotted.split('.').next().unwrap_or("");
        let Some(sym) = self.cx.session.interner.lookup(root) else { return false };
        if self.names.contains_key(&sym)
            || !matches!(self.cx.modules[self.m].names.get(&sym), Some((Binding::Outside, _)))
        {
            return false;
        }
        let span = self.ast().expr(e).span;
        self.error_help(
            Code::E0222,
            span,
            format!("`{dotted}` comes from the outside library `{root}`, which pl code cannot use"),
            "outside library",
            "pl functions compute with pl operations and types (pl.full(...), pl.FP32, ...)",
        );
        true
    }

    /// Whether an expression mentions a local variable or parameter.
    fn mentions_local(&self, e: ast::ExprId) -> bool {
        let mut stack = vec![e];
        while let Some(id) = stack.pop() {
            if let E::Name(n) = self.ast().expr(id).kind {
                if self.names.contains_key(&n) {
                    return true;
                }
            }
            self.ast().expr_children(id, &mut |c| stack.push(c));
        }
        false
    }

    /// A bare-name call of a module-level pl function. A class's program gets the callee
    /// too; a method of the same name would clash with it in that program.
    fn module_function_call(
        &mut self,
        target: Symbol,
        args: &[ast::Arg],
        span: Span,
        callee_span: Span,
    ) -> Option<ExprId> {
        let key = (0, target);
        let current = self.cx.current;
        if current != 0 {
            if let Some(method) = self.cx.namespaces[current].functions.get(&target) {
                let method_at = Label::secondary(self.cx.modules[method.module].file, method.span, "the method");
                // A module-level function whose decorator was refused has no signature;
                // the error is reported already.
                let function = self.cx.func(key)?;
                let function_at =
                    Label::secondary(self.cx.modules[function.module].file, function.span, "the module-level function");
                let name = self.cx.name(target).to_string();
                let d = self.error(
                    Code::E0214,
                    callee_span,
                    format!("`{name}(...)` calls the module-level function `{name}`, but this program has a method `{name}` too"),
                    "ambiguous in the program",
                );
                d.secondary.push(method_at);
                d.secondary.push(function_at);
                d.help = Some(format!("rename one of them; call the method as `self.{name}(...)`"));
                return None;
            }
            // The callee becomes part of this program.
            self.cx.ensure_lowered(key);
        }
        if self.cx.func(key).is_some_and(|f| f.positional_only) {
            let keywords: Vec<(Symbol, Span)> = args
                .iter()
                .filter_map(|a| match a.kind {
                    ArgKind::Keyword(k) => Some((k.name, a.span)),
                    _ => None,
                })
                .collect();
            for (k, at) in &keywords {
                let (fname, kname) = (self.cx.name(target).to_string(), self.cx.name(*k).to_string());
                self.error_help(
                    Code::E0203,
                    *at,
                    format!("Function '{fname}' does not accept keyword argument '{kname}'"),
                    "keyword argument",
                    "a module-level @pl.function or @pl.inline function takes its arguments by position",
                );
            }
            if !keywords.is_empty() {
                return None;
            }
            if self.cx.func(key).is_some_and(|f| f.decl.kind == crate::ir::FuncKind::Inline)
                && self.cx.callee_returns(key).is_some_and(|r| r.is_empty())
            {
                let fname = self.cx.name(target).to_string();
                self.error_help(
                    Code::E0409,
                    span,
                    format!("Inline function '{fname}' has no return value"),
                    "a call of a module-level @pl.inline function",
                    "a module-level @pl.inline function must return a value, even when it is called as a statement (PyPTO refuses it)",
                );
                return None;
            }
        }
        self.function_call(key, args, span)
    }

    /// A call of a pl function (`self.f(...)` or `f(...)`).
    pub(crate) fn function_call(&mut self, key: super::FnKey, args: &[ast::Arg], span: Span) -> Option<ExprId> {
        self.call_of(key, args, span, false)
    }

    /// A call of a pl function; a launch (`launch`: `pl.submit`) may omit trailing `pl.Out`
    /// parameters, whose tensors are allocated before it ([`FnLower::runtime_outputs`]).
    pub(crate) fn call_of(&mut self, key: super::FnKey, args: &[ast::Arg], span: Span, launch: bool) -> Option<ExprId> {
        let target = key.1;
        let params: Vec<(Symbol, TypeId, Direction)> =
            self.cx.params_of(key)?.iter().map(|p| (p.name, p.ty, p.dir)).collect();
        let fname = self.cx.name(target).to_string();
        let mut slots: Vec<Option<ast::ExprId>> = vec![None; params.len()];
        let mut ok = true;
        let mut positional = 0;
        // `device=` chooses where an orchestrator runs (a call from a host orchestrator).
        let orchestrator = self.cx.func(key).is_some_and(|f| f.decl.role == Some(crate::ir::Role::Orchestrator));
        let mut device = None;
        let mut attrs_arg = None;
        let mut no_dep: Vec<usize> = Vec::new();
        // Whether each argument had a `pl.adir.<direction>(...)` marker: all or none.
        let mut marks: Vec<(bool, Span)> = Vec::new();
        for a in args {
            match a.kind {
                ArgKind::Positional => {
                    if positional < slots.len() {
                        let (value, wrapped, marked) = self.strip_markers(a.value)?;
                        slots[positional] = Some(value);
                        if wrapped {
                            no_dep.push(positional);
                        }
                        marks.push((marked, a.span));
                    }
                    positional += 1;
                }
                ArgKind::Keyword(k) if self.cx.name(k.name) == "attrs" && !params.iter().any(|p| p.0 == k.name) => {
                    attrs_arg = Some(a.value);
                }
                ArgKind::Keyword(k)
                    if orchestrator && self.cx.name(k.name) == "device" && !params.iter().any(|p| p.0 == k.name) =>
                {
                    device = Some((k.name, a.value));
                }
                ArgKind::Keyword(k) => match params.iter().position(|p| p.0 == k.name) {
                    Some(i) if slots[i].is_some() => {
                        let kname = self.cx.name(k.name).to_string();
                        self.error(
                            Code::E0204,
                            a.span,
                            format!("function `{fname}` got multiple values for argument '{kname}'"),
                            "given twice",
                        );
                        ok = false;
                    }
                    Some(i) => {
                        let (value, wrapped, marked) = self.strip_markers(a.value)?;
                        slots[i] = Some(value);
                        if wrapped {
                            no_dep.push(i);
                        }
                        marks.push((marked, a.span));
                    }
                    None => {
                        let kname = self.cx.name(k.name).to_string();
                        self.error(
                            Code::E0203,
                            a.span,
                            format!("Function '{fname}' does not accept keyword argument '{kname}'"),
                            "unknown keyword",
                        );
                        ok = false;
                    }
                },
                _ => {}
            }
        }
        if let Some(&(_, bare)) = marks.iter().find(|m| !m.0).filter(|_| marks.iter().any(|m| m.0)) {
            self.error(
                Code::E0217,
                bare,
                format!("the call of `{fname}` mixes wrapped and bare arguments: mark every argument with `pl.adir.<direction>(...)` or none"),
                "no direction marker",
            );
            return None;
        }
        let given = args.len() - usize::from(device.is_some()) - usize::from(attrs_arg.is_some());
        let first_omitted = slots.iter().position(Option::is_none).unwrap_or(slots.len());
        let tail_omitted = slots[first_omitted..].iter().all(Option::is_none);
        let mut allocated = Vec::new();
        if launch && ok && positional <= params.len() && tail_omitted && first_omitted < slots.len() {
            allocated = self.runtime_outputs(key, &params[first_omitted..], span)?;
        }
        if positional > params.len() || slots[..slots.len() - allocated.len()].iter().any(Option::is_none) {
            let defined = {
                let f = self.cx.func(key).expect("the callee exists");
                Label::secondary(self.cx.modules[f.module].file, f.span, "defined here")
            };
            if ok {
                self.error(
                    Code::E0202,
                    span,
                    format!("Function '{fname}' expects {} argument(s), got {given}", params.len()),
                    "wrong number of arguments",
                )
                .secondary
                .push(defined);
            }
            return None;
        }
        let mut lowered = self.call_arguments(&slots, &params, &fname)?;
        lowered.extend(allocated.into_iter().map(Some));
        let mut attrs = CallAttrs::none();
        if let Some((_, value)) = device {
            let d = self.expr(value)?;
            attrs.make_mut().device = Some(d);
        }
        if !no_dep.is_empty() {
            no_dep.sort_unstable();
            attrs.make_mut().no_dep = Some(no_dep.into_boxed_slice());
        }
        if let Some(value) = attrs_arg {
            self.attrs_dict(value, &mut attrs)?;
            self.dump_vars_ok(&attrs, &lowered, &fname)?;
            let given = attrs.arg_directions.as_ref().map_or(positional, Vec::len);
            if given != positional {
                let at = self.ast().expr(value).span;
                let message = format!(
                    "attrs[\"arg_directions\"] names {given} direction(s) for {positional} positional argument(s)"
                );
                self.error(Code::E0217, at, message, "one direction per positional argument");
                return None;
            }
        }
        let returns = self.cx.callee_returns(key).unwrap_or_default();
        let ty = match returns.as_slice() {
            [] => Types::NONE,
            [one] => *one,
            many => self.intern_ty(Type::Tuple(many.to_vec())),
        };
        Some(self.new_expr(ExprKind::Call { callee: Callee::Func(target), args: lowered.into(), attrs }, ty, span))
    }

    /// The given arguments of a call of `fname`, lowered in order up to the first one left
    /// out; each checked against its parameter's type (E0217).
    fn call_arguments(
        &mut self,
        slots: &[Option<ast::ExprId>],
        params: &[(Symbol, TypeId, Direction)],
        fname: &str,
    ) -> Option<Vec<Option<ExprId>>> {
        let mut lowered = Vec::with_capacity(params.len());
        for (slot, (pname, pty, _)) in slots.iter().zip(params) {
            let Some(slot) = slot else { break };
            let e = self.expr(*slot)?;
            let (want, got) = (self.cx.program.types.get(*pty).clone(), self.ty(e).clone());
            // An integer scalar passes for a BOOL one (`is_first = pl.yield_(1)`), as in PyPTO.
            let int_for_bool = matches!((&want, &got), (Type::Scalar(DType::Bool), Type::Scalar(d)) if d.is_int());
            if !compatible(&want, &got) && !int_for_bool && !same_elements(&want, &got) && !matches!(got, Type::Unknown)
            {
                let (w, g) = (self.describe_type(&want), self.describe_type(&got));
                let aspan = self.ast().expr(*slot).span;
                let pn = self.cx.name(*pname).to_string();
                self.error(
                    Code::E0217,
                    aspan,
                    format!("argument `{pn}` of `{fname}` must be {w}, got {g}"),
                    "wrong kind of argument",
                );
            } else if let Some((declared, given)) = layout_mismatch(&want, &got) {
                // PyPTO's TypeChecked verifier (*layout mismatch*): a layout is a claim
                // about the bytes in global memory, and both ends of a call must make it.
                let aspan = self.ast().expr(*slot).span;
                let pn = self.cx.name(*pname).to_string();
                self.error_help(
                    Code::E0217,
                    aspan,
                    format!("argument `{pn}` of `{fname}`: the parameter is declared {declared} but the argument is {given}"),
                    "another layout",
                    "pass a tensor in the parameter's layout, or declare the parameter in the argument's",
                );
            }
            lowered.push(Some(e));
        }
        Some(lowered)
    }

    /// Whether the statement being lowered runs on a core: in a kernel function or a
    /// `pl.at(level=pl.Level.CORE_GROUP)` region.
    pub(crate) fn in_device_code(&self) -> bool {
        self.info.decl.kind.is_device_kernel()
            || self.frames.iter().any(|f| matches!(f, Frame::Scope { kind: FrameKind::InCore, .. }))
    }

    /// `pl.<path>(...)`: an op of the table, or one of the parser constructs.
    /// A call of `pl.<path>`, `spelled` with the namespace (`"pl.tile.load"`).
    fn pl_call(&mut self, spelled: &str, args: &[ast::Arg], span: Span) -> Option<ExprId> {
        let path = spelled.strip_prefix("pl.").unwrap_or(spelled);
        if let Some(done) = self.pl_construct(path, args, span) {
            return done;
        }
        if let Some(dtype) = path.strip_suffix(".get_byte").and_then(DType::from_name) {
            return Some(self.int(dtype.bytes(), span));
        }
        if let Some(op) = ops::by_spelling(spelled) {
            if let Some(gather) = super::scopes::split_transfer_kind(op) {
                return self.split_transfer(gather, spelled, args, span);
            }
            let (op, first) = self.scalar_form(op, args)?;
            let op = self.keyword_form(op, args);
            return self.op_call(op, spelled, args, span, first);
        }
        let base = path.rsplit('.').next().unwrap_or(path);
        let level_prefix = path.split('.').next().unwrap_or("");
        if ops::is_unified(path) || (ops::is_unified(base) && matches!(level_prefix, "tensor" | "tile")) {
            return self.unified_call(base, level_prefix, spelled, args, span);
        }
        self.unknown_op(spelled, span);
        None
    }

    /// The parser constructs spelled as calls (`pl.yield_`, `pl.const`, a loop iterator or
    /// a scope out of place, a launch, ...): `Some` of the call's value when `path` is one.
    fn pl_construct(&mut self, path: &str, args: &[ast::Arg], span: Span) -> Option<Option<ExprId>> {
        match path {
            "yield_" => {
                self.error(
                    Code::E0221,
                    span,
                    "`pl.yield_` must be the last statement of a loop body with init_values or of an `if` branch",
                    "misplaced yield",
                );
                self.yield_reported = true;
                Some(None)
            }
            "const" => Some(self.const_call(args, span)),
            "range" | "parallel" | "unroll" | "pipeline" | "while_" | "spmd" | "split_aiv" => {
                self.error(
                    Code::E0219,
                    span,
                    format!("pl.{path}() is a loop iterator: use it as `for i in pl.{path}(...):`"),
                    "not in a for loop",
                );
                Some(None)
            }
            "at" | "graph" | "cluster" | "scope" | "manual_scope" | "auto_scope" | "incore" | "auto_incore" => {
                self.error(
                    Code::E0313,
                    span,
                    format!("pl.{path}() is a scope: use it as `with pl.{path}(...):`"),
                    "not in a with statement",
                );
                Some(None)
            }
            launch if super::LAUNCHES.contains(&launch) => {
                if !self.submit_position_ok(path, span) {
                    return Some(None);
                }
                Some(self.submit_call(path, args, span))
            }
            "no_dep" | "tensor.no_dep" => {
                self.error(
                    Code::E0223,
                    span,
                    "pl.no_dep(x) marks an argument of a function call, as in `self.kernel(pl.no_dep(x), y)`",
                    "not an argument",
                );
                Some(None)
            }
            "func_attr" => {
                self.func_attr_misplaced(span);
                Some(None)
            }
            "dynamic" => {
                self.error_help(
                    Code::E0223,
                    span,
                    "pl.dynamic() in a function body declares a dimension only in a `@pl.jit` function",
                    "not a value here",
                    "declare the dimension at the top level of the module: `M = pl.dynamic(\"M\")`",
                );
                Some(None)
            }
            _ => None,
        }
    }

    /// `pl.const(value, dtype)`: a number literal of that dtype.
    fn const_call(&mut self, args: &[ast::Arg], span: Span) -> Option<ExprId> {
        let [value, dtype] = args else {
            let message = format!("pl.const() takes a value and a dtype, got {} argument(s)", args.len());
            self.error_help(
                Code::E0202,
                span,
                message,
                "wrong number of arguments",
                "write a typed literal as pl.const(42, pl.INT32)",
            );
            return None;
        };
        if !self.numeric_literal(value.value) {
            let at = self.ast().expr(value.value).span;
            self.error_help(
                Code::E0217,
                at,
                "the value of pl.const() must be a number literal",
                "not a literal",
                "pl.const types a literal such as 42, -1 or 0.5",
            );
            return None;
        }
        let v = self.expr(value.value)?;
        let dtype = self.cx.dtype(self.m, dtype.value)?;
        let kind = self.cx.program.expr(v).kind.clone();
        let ty = self.types().scalar(dtype);
        Some(self.new_expr(kind, ty, span))
    }

    /// The row a call of `op` goes to: another form's when a keyword names it
    /// (`ops::keyword_form`: `pl.tile.gather(t, mask_pattern=...)` is `tile.gather_mask`).
    fn keyword_form(&self, op: Op, args: &[ast::Arg]) -> Op {
        args.iter()
            .find_map(|a| match a.kind {
                ArgKind::Keyword(k) => ops::keyword_form(op, self.cx.name(k.name)),
                _ => None,
            })
            .unwrap_or(op)
    }

    /// A unified op (`pl.add`, `pl.tile.add` spelled by its unified name): the row of the
    /// level of the first operand (tensor, tile or scalar), or a scalar operator.
    fn unified_call(
        &mut self,
        base: &str,
        level_prefix: &str,
        spelled: &str,
        args: &[ast::Arg],
        span: Span,
    ) -> Option<ExprId> {
        // Dispatch on the first argument: tensor, tile or scalar.
        let Some(first) = self.operand(args, 0, base) else {
            self.error_help(
                Code::E0202,
                span,
                format!("pl.{base}() needs its operands as positional arguments, and got none"),
                "no operand",
                format!("pl.{base}() works on tensors, tiles or scalars: pass the first operand first"),
            );
            return None;
        };
        let v = self.expr(first.value)?;
        let ty = self.ty(v).clone();
        let want = match (&ty, level_prefix) {
            (_, "tensor") => Some(OpLevel::Tensor),
            (_, "tile") => Some(OpLevel::Tile),
            (Type::Tensor { .. }, _) => Some(OpLevel::Tensor),
            (Type::Tile { .. }, _) => Some(OpLevel::Tile),
            (Type::Scalar(_), _) => Some(OpLevel::Scalar),
            // A value whose type is not known (a bare `pl.Tensor` parameter's shape, say):
            // tile ops in device code, tensor ops elsewhere.
            (Type::Unknown, _) if self.in_device_code() => Some(OpLevel::Tile),
            (Type::Unknown, _) => Some(OpLevel::Tensor),
            _ => None,
        };
        if let Some(level) = want {
            if let Some(op) = ops::unified(base).find(|o| o.def().level == level) {
                // A scalar second operand picks the op's scalar form (`pl.and_(tile, 3)`
                // is `tile.ands`), as PyPTO's unified wrappers do.
                let mut pre = vec![(first.value, v)];
                let mut op = op;
                if let (Some(scalar_op), Some(second)) = (ops::scalar_rhs_form(op), self.operand(args, 1, base)) {
                    let w = self.expr(second.value)?;
                    if self.ty(w).is_scalar() {
                        op = scalar_op;
                    }
                    pre.push((second.value, w));
                }
                let op = self.keyword_form(op, args);
                return self.op_call_with(op, spelled, args, span, &pre);
            }
        }
        if let (Type::Scalar(_), Some(op)) = (&ty, ops::scalar_operator(base)) {
            let Some(rest) = self.operand(args, 1, base) else {
                self.error(
                    Code::E0202,
                    span,
                    format!("pl.{base}() on scalars takes two operands, and got one"),
                    "one operand",
                );
                return None;
            };
            let b = self.expr(rest.value)?;
            return self.binary(op, v, b, span);
        }
        // An operand of unknown type follows an error already reported.
        if ty != Type::Unknown {
            let what = self.describe_type(&ty);
            self.error(Code::E0217, span, format!("pl.{base}() does not apply to {what}"), "wrong kind of operand");
        }
        None
    }

    /// Operand `k` of a call of the unified op `base` (`pl.add`): the `k`-th positional
    /// argument, or the keyword argument that names the op's parameter `k` in one of the
    /// op's rows (`pl.add(lhs=a, rhs=b)`: PyPTO's wrappers are Python functions, so any
    /// parameter may be passed by its name).
    fn operand<'x>(&self, args: &'x [ast::Arg], k: usize, base: &str) -> Option<&'x ast::Arg> {
        let positional = args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).nth(k);
        positional.or_else(|| {
            args.iter().find(|a| match a.kind {
                ArgKind::Keyword(kw) => {
                    let name = self.cx.name(kw.name);
                    // The name the row's own spelling or the unified one gives it
                    // (`pl.reshape(input=t)`, `pl.tensor.reshape(tensor=t)`).
                    let unified = format!("pl.{base}");
                    ops::unified(base).any(|o| {
                        let def = o.def();
                        [def.spellings[0], unified.as_str()].iter().any(|s| def.keyword_index_as(name, s) == Some(k))
                    })
                }
                _ => false,
            })
        })
    }

    /// A call of an op plc has no row for: one PyPTO has and plc refuses by name (E0223,
    /// with the reason), or an unknown one (E0205).
    fn unknown_op(&mut self, spelled: &str, span: Span) {
        if let Some(reason) = ops::refusal(spelled) {
            self.error(Code::E0223, span, format!("{spelled} is not supported by plc: {reason}"), "not supported");
            return;
        }
        self.error_help(
            Code::E0205,
            span,
            format!("Unknown operation '{spelled}'"),
            "not a pl operation",
            "see `docs/language.md` for the operations plc knows",
        );
    }

    /// The op a tensor or tile spelling means for this call: the scalar row of its unified
    /// name when the first operand is a scalar (`pl.tile.max(a, b)` of two scalars is
    /// today's scalar maximum, not the older axis reduction), else `op`; with the first
    /// operand when it had to be lowered to tell, so that it is lowered once. `None` when
    /// that operand failed (reported).
    fn scalar_form(&mut self, op: Op, args: &[ast::Arg]) -> Option<(Op, Option<Lowered>)> {
        let def = op.def();
        let scalar = match def.unified {
            Some(u) if def.level != OpLevel::Scalar => ops::unified(u).find(|o| o.def().level == OpLevel::Scalar),
            _ => None,
        };
        let first = def.unified.and_then(|u| self.operand(args, 0, u));
        let (Some(scalar), Some(first)) = (scalar, first) else {
            return Some((op, None));
        };
        let v = self.expr(first.value)?;
        Some((if self.ty(v).is_scalar() { scalar } else { op }, Some((first.value, v))))
    }

    /// A call of an op: arguments matched to its parameters by position and keyword,
    /// checked by kind, and the result typed by the op's rule. An older spelling is
    /// accepted with warning W0001 naming today's.
    /// `first` is an argument already lowered (to choose the op), not lowered again.
    fn op_call(
        &mut self,
        op: Op,
        spelled: &str,
        args: &[ast::Arg],
        span: Span,
        first: Option<Lowered>,
    ) -> Option<ExprId> {
        self.op_call_with(op, spelled, args, span, first.as_slice())
    }

    /// [`Self::op_call`] with the arguments already lowered (to choose the op) in `pre`.
    fn op_call_with(
        &mut self,
        op: Op,
        spelled: &str,
        args: &[ast::Arg],
        span: Span,
        pre: &[Lowered],
    ) -> Option<ExprId> {
        let def: &'static OpDef = op.def();
        if let Some(today) = def.older_spelling(spelled) {
            let message = format!("`{spelled}` is an older spelling that PyPTO no longer accepts; use {today}");
            self.warning(Code::W0001, span, message, "older spelling");
        }
        // The argument given for each of the op's parameters: on the stack for an op of at
        // most `INLINE_SLOTS` parameters (all of today's), not in a vector per call.
        let mut spilled = Vec::new();
        let mut inline = [None; INLINE_SLOTS];
        let slots: &mut [Option<ast::ExprId>] = match inline.get_mut(..def.params.len()) {
            Some(slots) => slots,
            None => {
                spilled.resize(def.params.len(), None);
                &mut spilled
            }
        };
        let mut positional = 0;
        let mut ok = true;
        let mut older_mode = false;
        let order = self.positional_order(def, args);
        for a in args {
            match a.kind {
                ArgKind::Positional => {
                    let slot = order.map_or(positional, |o| o[positional]);
                    if slot < slots.len() {
                        slots[slot] = Some(a.value);
                    }
                    positional += 1;
                }
                ArgKind::Keyword(k) => {
                    let mut kname = self.cx.name(k.name).to_string();
                    if kname == "mode" && def.kind == ops::OpKind::Special(ops::Special::Fillpad) {
                        // An older release took the padding mode of fillpad as
                        // `mode="zero"` (its parser passed keywords through as attributes).
                        let message =
                            format!("`{spelled}(..., mode=...)` is an older spelling that PyPTO no longer accepts; use pad_value=pl.PadValue.<mode>");
                        self.warning(Code::W0001, a.span, message, "older keyword");
                        older_mode = true;
                        kname = "pad_value".to_string();
                    }
                    match def.keyword_index_as(&kname, spelled) {
                        // PyPTO's generic attribute dict on an op call (the printer's
                        // round-trip surface), also on a row that lists it
                        // (`pl.system.task_dummy`): checked, not kept.
                        _ if kname == "attrs" => ok &= self.op_attrs(a.value).is_some(),
                        Some(i) if slots[i].is_some() => {
                            self.error(
                                Code::E0204,
                                a.span,
                                format!("{spelled}() got multiple values for argument '{kname}'"),
                                "given twice",
                            );
                            ok = false;
                        }
                        Some(i) => {
                            // A `deps=` list of an op (`pl.system.task_dummy`) follows
                            // the launches' rule on task ids of closed scopes.
                            if kname == "deps" {
                                ok &= self.deps_in_open_scopes(a.value, &format!("{spelled}()"));
                            }
                            slots[i] = Some(a.value)
                        }
                        None => {
                            let valid = (0..def.params.len())
                                .map(|i| def.param_spelling_as(i, spelled))
                                .collect::<Vec<_>>()
                                .join(", ");
                            self.error_help(
                                Code::E0203,
                                a.span,
                                format!("{spelled}() got an unexpected keyword argument '{kname}'"),
                                "unknown keyword",
                                format!("its parameters are: {valid}"),
                            );
                            ok = false;
                        }
                    }
                }
                _ => {}
            }
        }
        if positional > def.params.len() {
            self.error(
                Code::E0202,
                span,
                format!("{spelled}() takes at most {} argument(s), got {positional} positional", def.params.len()),
                "too many arguments",
            );
            return None;
        }
        let max_positional = def.positional_count();
        if positional > max_positional {
            let keywords: Vec<&str> =
                (max_positional..def.params.len()).map(|i| def.param_spelling_as(i, spelled)).collect();
            self.error_help(
                Code::E0202,
                span,
                format!("{spelled}() takes at most {max_positional} positional argument(s), got {positional}"),
                "too many positional arguments",
                format!("pass {} by keyword", keywords.join(", ")),
            );
            return None;
        }
        let lacking = |(p, s): (&ops::ParamDef, &Option<ast::ExprId>)| p.required && s.is_none();
        // A keyword given twice or unknown was reported: what is missing follows from it.
        if ok && def.params.iter().zip(slots.iter()).any(lacking) {
            let missing: Vec<&str> = def
                .params
                .iter()
                .zip(slots.iter())
                .enumerate()
                .filter(|&(_, ps)| lacking(ps))
                .map(|(i, _)| def.param_spelling_as(i, spelled))
                .collect();
            self.error(
                Code::E0202,
                span,
                format!("{spelled}() is missing required argument(s): {}", missing.join(", ")),
                "missing arguments",
            );
            return None;
        }
        if !ok {
            return None;
        }
        // The parameters after the last one given are left out (the list ends with a given
        // one).
        let given = slots.iter().rposition(Option::is_some).map_or(0, |last| last + 1);
        let mut lowered = Vec::with_capacity(given);
        for (slot, p) in slots[..given].iter().zip(def.params) {
            match slot {
                None => lowered.push(None),
                Some(a) => {
                    let mut e = match pre.iter().find(|(done, _)| done == a) {
                        Some(&(_, e)) => e,
                        None => self.expr(*a)?,
                    };
                    if p.kind == OpArg::Indices
                        && op.takes_lone_position()
                        && self.ty(e).is_scalar()
                        && self.first_is_1d(&lowered)
                    {
                        // `pl.read(t, i)` of a 1-D tensor or tile: the one position.
                        let ty = self.intern_ty(Type::Tuple(Vec::new()));
                        e = self.new_expr(ExprKind::Tuple(vec![e].into()), ty, self.ast().expr(*a).span);
                    }
                    if p.kind == OpArg::Enum("PadValue") {
                        e = self.pad_value_sugar(e, older_mode);
                    }
                    if let OpArg::Named(names) = p.kind {
                        e = self.named_by_code(def, p, names, e, *a)?;
                    }
                    self.check_arg(def, p, e, *a)?;
                    lowered.push(Some(e));
                }
            }
        }
        if def.kind == ops::OpKind::Microscaling {
            self.mx_raw_bytes(spelled, &lowered, span);
        }
        self.op_result(op, lowered, span)
    }

    /// W0003: an MX op given the raw bytes an older release's `pl.mx_quant` made (INT8
    /// data, UINT8 scales), which it reads as the FP8 values they hold; today's programs
    /// view them as FP8 first, with `pl.tile.reinterpret_view`.
    fn mx_raw_bytes(&mut self, spelled: &str, args: &[Option<ExprId>], span: Span) {
        let raw = args.iter().flatten().find_map(|&e| {
            let d = self.ty(e).dtype()?;
            ops::mx_raw_bytes(d).map(|fp8| (d, fp8))
        });
        if let Some((d, fp8)) = raw {
            let message = format!(
                "`{spelled}` of {} tiles: the raw bytes an older `pl.mx_quant` gave, read as {}; PyPTO no longer accepts them, use pl.tile.reinterpret_view(x, pl.{}) first",
                d.name(),
                fp8.name(),
                fp8.name()
            );
            self.warning(Code::W0003, span, message, "raw MX bytes");
        }
    }

    /// The older positional order of an op, when this call's positional arguments fit it
    /// and not the current order (a list literal where the current order wants a tensor).
    fn positional_order(&self, def: &OpDef, args: &[ast::Arg]) -> Option<&'static [usize]> {
        let order = def.older_order()?;
        let positional: Vec<ast::ExprId> =
            args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).map(|a| a.value).collect();
        if positional.len() != order.len() {
            return None;
        }
        let is_list = |e: ast::ExprId| matches!(self.ast().expr(e).kind, E::List(_) | E::Tuple(_));
        let wants_list = |i: usize| matches!(def.params[i].kind, OpArg::Shape | OpArg::Indices);
        // An integer parameter (`dim` of `scatter_update`) takes an integer literal.
        let is_int = |e: ast::ExprId| match &self.ast().expr(e).kind {
            E::Int => true,
            E::Unary { operand, .. } => matches!(self.ast().expr(*operand).kind, E::Int),
            _ => false,
        };
        let wants_int = |i: usize| def.params[i].kind == OpArg::Int;
        // An integer literal does not fit a tensor or tile parameter (`dim` where the
        // current order has the optional scratch tile of `tile.scatter_update`).
        let wants_shaped = |i: usize| matches!(def.params[i].kind, OpArg::Tensor | OpArg::Tile);
        let fits = |slot: &dyn Fn(usize) -> usize| {
            positional.iter().enumerate().all(|(i, &e)| {
                is_list(e) == wants_list(slot(i))
                    && (!wants_int(slot(i)) || is_int(e))
                    && !(is_int(e) && wants_shaped(slot(i)))
            })
        };
        (!fits(&|i| i) && fits(&|i| order[i])).then_some(order)
    }

    /// Whether the first argument lowered so far is a 1-D tensor or tile.
    fn first_is_1d(&self, lowered: &[Option<ExprId>]) -> bool {
        lowered.first().copied().flatten().and_then(|e| self.ty(e).shape().map(|s| s.len() == 1)).unwrap_or(false)
    }

    fn check_arg(&mut self, def: &OpDef, p: &ops::ParamDef, e: ExprId, a: ast::ExprId) -> Option<()> {
        let ty = self.ty(e);
        let kind = &self.cx.program.expr(e).kind;
        let fits = match p.kind {
            OpArg::Tensor => ty.is_tensor(),
            OpArg::Tile => ty.is_tile(),
            OpArg::Scalar => ty.is_scalar(),
            OpArg::Value => ty.is_shaped() || ty.is_scalar(),
            OpArg::Shape | OpArg::Indices => matches!(kind, ExprKind::Tuple(_)),
            OpArg::DType => matches!(kind, ExprKind::DType(_)),
            OpArg::Enum(family) => matches!(kind, ExprKind::Enum(v) if enum_family(*v) == family),
            OpArg::Bool => matches!(ty, Type::Scalar(DType::Bool)),
            OpArg::Int => matches!(kind, ExprKind::Int(_)),
            OpArg::Str | OpArg::Named(_) => matches!(kind, ExprKind::Str(_)),
            OpArg::Any => true,
        } || matches!(ty, Type::Unknown) && matches!(kind, ExprKind::Call { .. })
            || matches!(ty, Type::Unknown)
                && !matches!(
                    p.kind,
                    OpArg::Shape
                        | OpArg::Indices
                        | OpArg::DType
                        | OpArg::Enum(_)
                        | OpArg::Int
                        | OpArg::Str
                        | OpArg::Named(_)
                );
        // A string only where the op takes one; a list of extents or positions holds
        // scalars, not lists (PyPTO: *Unsupported closure variable type*, *got MakeTuple*).
        let stray_str =
            matches!(kind, ExprKind::Str(_)) && !matches!(p.kind, OpArg::Str | OpArg::Named(_) | OpArg::Any);
        let nested = matches!(p.kind, OpArg::Shape | OpArg::Indices)
            && matches!(kind, ExprKind::Tuple(items)
                if items.iter().any(|&i| matches!(self.cx.program.expr(i).kind, ExprKind::Tuple(_))));
        if fits && !stray_str && !nested {
            return self.check_extents(def, p, e);
        }
        let ty = ty.clone();
        let want = match p.kind {
            OpArg::Tensor => "a Tensor".to_string(),
            OpArg::Tile => "a Tile".to_string(),
            OpArg::Scalar => "a scalar".to_string(),
            OpArg::Value => "a tensor, tile or scalar".to_string(),
            OpArg::Shape => "a list of extents, like [64, 128]".to_string(),
            OpArg::Indices => "a list of positions, like [0, 0]".to_string(),
            OpArg::DType => "a dtype, like pl.FP32".to_string(),
            OpArg::Enum("PadValue") => "pl.PadValue.<name> (or 0, math.inf, -math.inf)".to_string(),
            OpArg::Enum(family) => format!("pl.{family}.<name>"),
            OpArg::Bool => "True or False".to_string(),
            OpArg::Int => "an integer constant".to_string(),
            OpArg::Str => "a string".to_string(),
            OpArg::Named(names) => format!("a name ({}) or its code", names.join(", ")),
            OpArg::Any => String::new(),
        };
        let got = if stray_str && matches!(self.ast().expr(a).kind, E::Name(_)) {
            "a string (Unsupported closure variable type: str)".to_string()
        } else if stray_str {
            "a string".to_string()
        } else if nested {
            "a list of lists".to_string()
        } else {
            self.describe_type(&ty)
        };
        let span = self.ast().expr(a).span;
        let name = def.print_name();
        self.error(
            Code::E0217,
            span,
            format!("argument `{}` of {name}() must be {want}, got {got}", p.name),
            "wrong kind of argument",
        );
        None
    }

    /// Whether `e` is made of literals and arithmetic on them only (its type is then the one
    /// written, not a guess).
    fn constant_tree(&self, e: ExprId) -> bool {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &self.cx.program.expr(e).kind {
                ExprKind::Binary { lhs, rhs, .. } => stack.extend([*lhs, *rhs]),
                ExprKind::Unary { operand, .. } => stack.push(*operand),
                kind if kind.is_literal() => {}
                _ => return false,
            }
        }
        true
    }

    /// E0229 for a list of extents, offsets or indices with a constant item out of range
    /// (negative, or beyond the target's limit) or more items than a shape has dimensions.
    fn check_extents(&mut self, def: &OpDef, p: &ops::ParamDef, e: ExprId) -> Option<()> {
        if !matches!(p.kind, OpArg::Shape | OpArg::Indices) {
            return Some(());
        }
        let ExprKind::Tuple(items) = &self.cx.program.expr(e).kind else { return Some(()) };
        let count = items.len();
        let what = match p.kind {
            OpArg::Shape => "extent",
            _ if p.name.spelling().contains("offset") => "offset",
            _ => "index",
        };
        // The op's printed name, made for a message only.
        let name = || def.print_name();
        let mut ok = true;
        for k in 0..count {
            let ExprKind::Tuple(items) = &self.cx.program.expr(e).kind else { break };
            let i = items[k];
            // PyPTO's extents and positions are integer scalars (INT64/UINT64/INDEX). Only a
            // float written in the item itself is refused: a value read from a bare
            // `pl.Tensor` is typed FP32 by guess (its element type is known at run time).
            if let Type::Scalar(d) = self.ty(i) {
                if d.is_float() && self.constant_tree(i) {
                    let span = self.cx.program.expr(i).loc.span;
                    let name = name();
                    let m = format!("argument `{}` of {name}(): each {what} must be an integer, got {d}", p.name);
                    self.error(Code::E0217, span, m, "not an integer");
                    ok = false;
                    continue;
                }
            }
            if let ExprKind::Int(n) = self.cx.program.expr(i).kind {
                if let Err(m) = crate::ir::limits::check_extent(n, format_args!("the {what}")) {
                    let span = self.cx.program.expr(i).loc.span;
                    let name = name();
                    self.error(Code::E0229, span, format!("argument `{}` of {name}(): {m}", p.name), "out of range");
                    ok = false;
                }
            }
        }
        if count > crate::ir::limits::MAX_RANK {
            let span = self.cx.program.expr(e).loc.span;
            let name = name();
            let m = format!(
                "argument `{}` of {name}() has {} items: the target's shapes have at most {} dimensions",
                p.name,
                count,
                crate::ir::limits::MAX_RANK
            );
            self.error(Code::E0229, span, m, "too many dimensions");
            ok = false;
        }
        ok.then_some(())
    }

    /// Types a call of `op` with lowered arguments through the op's result rule.
    pub fn op_result(&mut self, op: Op, args: Vec<Option<ExprId>>, span: Span) -> Option<ExprId> {
        // An argument of unknown type follows an error already reported: the result is
        // unknown too, and nothing more is said.
        let unknown = args.iter().flatten().any(|&a| {
            self.cx.program.expr(a).ty == Types::UNKNOWN
                && !matches!(self.cx.program.expr(a).kind, ExprKind::DType(_) | ExprKind::Enum(_) | ExprKind::Str(_))
        });
        let (result, elements) = if unknown {
            (Ok(Type::Unknown), Vec::new())
        } else {
            let view = ArgView::new(&self.cx.program, &self.cx.session.interner, &args);
            ((op.def().result)(&view), view.take_elements())
        };
        match result {
            Ok(ty) => {
                // A tuple result: its elements interned now (the rule could not).
                let ty = match ty {
                    Type::Tuple(_) => Type::Tuple(elements.into_iter().map(|t| self.intern_ty(t)).collect()),
                    ty => ty,
                };
                if let Some(dims) = ty.shape() {
                    if let Err(m) = crate::ir::limits::check_shape(dims, ty.is_tile()) {
                        let name = op.def().print_name();
                        self.error(Code::E0229, span, format!("{name}() makes {m}"), "too large");
                        return None;
                    }
                }
                let ty = self.result_type(ty);
                Some(self.new_expr(
                    ExprKind::Call { callee: Callee::Op(op), args: args.into(), attrs: CallAttrs::none() },
                    ty,
                    span,
                ))
            }
            Err(message) => {
                let name = op.def().print_name();
                self.error(Code::E0217, span, format!("{name}(): {message}"), "invalid arguments");
                None
            }
        }
    }

    /// A type as messages name it: `Tensor[[64, 128], FP32]`, `Scalar[INDEX]`.
    pub fn describe_type(&self, ty: &Type) -> String {
        describe_type(&self.cx.program, &self.cx.session.interner, ty)
    }
}

/// Whether a value of type `actual` may stand where `declared` is expected: equal, or
/// the same kind where one side's shape or dtype is not known yet.
pub(crate) fn compatible(declared: &Type, actual: &Type) -> bool {
    match (declared, actual) {
        (a, b) if a == b => true,
        (Type::Unknown, _) | (_, Type::Unknown) => true,
        (
            Type::Tensor { shape: s1, dtype: d1, distributed: want_distributed, .. },
            Type::Tensor { shape: s2, dtype: d2, distributed: is_distributed, .. },
        ) => {
            (!want_distributed || *is_distributed)
                && (s1.is_none()
                    || s2.is_none()
                    || dims_compatible(s1.as_deref().unwrap_or(&[]), s2.as_deref().unwrap_or(&[])))
                && (d1.is_none() || d2.is_none() || d1 == d2)
        }
        (Type::Tile { shape: s1, dtype: d1, .. }, Type::Tile { shape: s2, dtype: d2, .. }) => {
            d1 == d2 && dims_compatible(s1, s2)
        }
        (Type::Scalar(a), Type::Scalar(b)) => a == b || (a.is_int() && b.is_int()) || (a.is_float() && b.is_float()),
        (Type::Tuple(a), Type::Tuple(b)) => a.len() == b.len(),
        _ => false,
    }
}

/// The layouts of a tensor parameter and its argument when they differ: ND and DN pass
/// for each other (DN is derived at a use, by a transposing view, and cannot be declared
/// with the shorthand), other layouts must match (PyPTO's call-boundary layout check).
fn layout_mismatch(declared: &Type, actual: &Type) -> Option<(Layout, Layout)> {
    let (want, got) = (declared.layout()?, actual.layout()?);
    let plain = |l: Layout| matches!(l, Layout::Nd | Layout::Dn);
    (want != got && !(plain(want) && plain(got))).then_some((want, got))
}

/// A tensor argument holding the same elements in the same order as the parameter: equal
/// dtypes and equal static shapes once the extent-1 axes are dropped (`[1, 2, 4]` for a
/// `[2, 4]` parameter). PyPTO checks only the argument count of a call to a program
/// function; plc takes this case, which means one thing.
fn same_elements(declared: &Type, actual: &Type) -> bool {
    let (
        Type::Tensor { shape: Some(s1), dtype: d1, distributed: want, .. },
        Type::Tensor { shape: Some(s2), dtype: d2, distributed: is, .. },
    ) = (declared, actual)
    else {
        return false;
    };
    if want != is {
        return false;
    }
    let squeeze = |s: &[Dim]| -> Option<Vec<i64>> {
        s.iter()
            .filter_map(|d| match d {
                Dim::Const(1) => None,
                Dim::Const(n) => Some(Some(*n)),
                _ => Some(None),
            })
            .collect()
    };
    d1 == d2 && squeeze(s1).is_some() && squeeze(s1) == squeeze(s2)
}

fn dims_compatible(a: &[Dim], b: &[Dim]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Dim::Const(p), Dim::Const(q)) => p == q,
            _ => true,
        })
}

pub(crate) fn describe_type(program: &crate::ir::Program, names: &crate::intern::Interner, ty: &Type) -> String {
    let dims = |shape: &[Dim]| {
        shape
            .iter()
            .map(|d| match d {
                Dim::Const(v) => v.to_string(),
                Dim::Dyn(n) => names.get(*n).to_string(),
                Dim::Var(v) => names.get(program.var(*v).name).to_string(),
                Dim::Unknown => "?".to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match ty {
        Type::Scalar(d) => format!("Scalar[{d}]"),
        Type::Tensor { shape: Some(s), dtype: Some(d), distributed, layout } => {
            let head = if *distributed { "DistributedTensor" } else { "Tensor" };
            match layout {
                Layout::Nd => format!("{head}[[{}], {d}]", dims(s)),
                l => format!("{head}[[{}], {d}, {l}]", dims(s)),
            }
        }
        Type::Tensor { distributed: true, .. } => "DistributedTensor".to_string(),
        Type::Tensor { .. } => "Tensor".to_string(),
        Type::Tile { shape, dtype, .. } => format!("Tile[[{}], {dtype}]", dims(shape)),
        Type::Tuple(items) => format!("a tuple of {} values", items.len()),
        Type::Array { len, dtype } => format!("Array[{len}, {dtype}]"),
        Type::Handle(h) => h.name().to_string(),
        Type::None => "no value".to_string(),
        Type::Unknown => "an unknown value".to_string(),
    }
}

fn enum_family(v: EnumValue) -> &'static str {
    match v {
        EnumValue::Level(_) => "Level",
        EnumValue::Role(_) => "Role",
        EnumValue::FuncKind(_) => "FunctionType",
        EnumValue::MemorySpace(_) => "MemorySpace",
        EnumValue::PadValue(_) => "PadValue",
        EnumValue::AtomicType(_) => "AtomicType",
        EnumValue::SplitMode(_) => "SplitMode",
        EnumValue::ScopeMode(_) => "ScopeMode",
        EnumValue::Layout(_) => "TensorLayout",
        EnumValue::MaskPattern(_) => "MaskPattern",
        EnumValue::WaitCmp(_) => "WaitCmp",
        EnumValue::NotifyOp(_) => "NotifyOp",
        EnumValue::ReduceOp(_) => "ReduceOp",
        EnumValue::PipeType(_) => "PipeType",
        EnumValue::AccPhase(_) => "AccPhase",
        EnumValue::StPhase(_) => "STPhase",
        EnumValue::LoadL2Hint(_) => "LoadL2Hint",
        EnumValue::StoreL2Hint(_) => "StoreL2Hint",
        EnumValue::CachePolicy(_) => "CachePolicy",
        EnumValue::TileLayout(_) => "TileLayout",
    }
}

/// The op table's view of a call's lowered arguments.
pub(crate) struct ArgView<'p> {
    program: &'p crate::ir::Program,
    interner: &'p crate::intern::Interner,
    args: &'p [Option<ExprId>],
    /// The element types of a tuple result the rule made (`Args::tuple`), to be interned.
    elements: std::cell::RefCell<Vec<Type>>,
}

impl<'p> ArgView<'p> {
    pub(crate) fn new(
        program: &'p crate::ir::Program,
        interner: &'p crate::intern::Interner,
        args: &'p [Option<ExprId>],
    ) -> Self {
        ArgView { program, interner, args, elements: Default::default() }
    }

    /// The element types of the tuple the rule returned, in order.
    pub(crate) fn take_elements(&self) -> Vec<Type> {
        self.elements.take()
    }
}

impl ArgView<'_> {
    /// The lowered argument at `i`, when given.
    fn kind(&self, i: usize) -> Option<&ExprKind> {
        self.args.get(i).copied().flatten().map(|e| &self.program.expr(e).kind)
    }
}

impl Args for ArgView<'_> {
    fn ty(&self, i: usize) -> Option<&Type> {
        self.args.get(i).copied().flatten().map(|e| self.program.ty(e))
    }

    fn dims(&self, i: usize) -> Option<Vec<Dim>> {
        match self.kind(i)? {
            ExprKind::Tuple(items) => Some(
                items
                    .iter()
                    .map(|&x| match &self.program.expr(x).kind {
                        ExprKind::Int(v) => Dim::Const(*v),
                        ExprKind::DynDim(n) => Dim::Dyn(*n),
                        ExprKind::Var(v) => Dim::Var(*v),
                        _ => Dim::Unknown,
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    fn rank(&self, i: usize) -> Option<usize> {
        match self.kind(i)? {
            ExprKind::Tuple(items) => Some(items.len()),
            _ => None,
        }
    }

    fn dtype(&self, i: usize) -> Option<DType> {
        let ExprKind::DType(d) = self.kind(i)? else { return None };
        Some(*d)
    }

    fn enum_value(&self, i: usize) -> Option<EnumValue> {
        let ExprKind::Enum(v) = self.kind(i)? else { return None };
        Some(*v)
    }

    fn int(&self, i: usize) -> Option<i64> {
        let ExprKind::Int(v) = self.kind(i)? else { return None };
        Some(*v)
    }

    fn present(&self, i: usize) -> bool {
        self.args.get(i).copied().flatten().is_some()
    }

    fn flag(&self, i: usize) -> Option<bool> {
        let ExprKind::Bool(b) = self.kind(i)? else { return None };
        Some(*b)
    }

    fn text(&self, i: usize) -> Option<String> {
        let ExprKind::Str(s) = self.kind(i)? else { return None };
        Some(self.interner.get(*s).to_string())
    }

    fn is_literal(&self, i: usize) -> bool {
        matches!(self.kind(i), Some(ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_)))
    }

    fn item_types(&self, i: usize) -> Option<Vec<Type>> {
        let ExprKind::Tuple(items) = self.kind(i)? else { return None };
        Some(items.iter().map(|&x| self.program.ty(x).clone()).collect())
    }

    fn tuple(&self, elements: Vec<Type>) -> Option<Type> {
        let placeholders = vec![Types::UNKNOWN; elements.len()];
        *self.elements.borrow_mut() = elements;
        Some(Type::Tuple(placeholders))
    }

    fn tuple_items(&self, i: usize) -> Option<Vec<Type>> {
        let Type::Tuple(ids) = self.ty(i)? else { return None };
        Some(ids.iter().map(|&t| self.program.types.get(t).clone()).collect())
    }
}

/// Why Python's `op` fails with the right operand `y` (both operands numbers, folding
/// refused): a division by zero, a negative shift count, or an overflow of 64 bits.
fn arith_error(op: BinOp, y: &Const) -> String {
    let o = op.spelling().trim();
    match op {
        BinOp::Div | BinOp::FloorDiv | BinOp::Mod if y.as_f64() == Some(0.0) => format!("division by zero in `{o}`"),
        BinOp::Shl | BinOp::Shr if matches!(y, Const::Int(n) if *n < 0) => format!("negative shift count in `{o}`"),
        _ => format!("integer overflow in `{o}`: the result does not fit in 64 bits"),
    }
}
