//! PyPTO's parser-level checks on re-binding a name (ops.md §4.1 "re-binding" and "SSA"):
//! a plain assignment may not give a name a value of another type, and under
//! `strict_ssa=True` may not bind a name its scope already holds; the entries of a
//! scope's list options (§4.1 "at", "optimizations").

use super::annot::parse_int;
use super::body::{compatible, FnLower};
use crate::diag::{Code, Span};
use crate::intern::Symbol;
use crate::ir::ops::Op;
use crate::ir::{Type, TypeId, Types};
use crate::syntax::ast::{self, ArgKind, ExprKind as E};
use rustc_hash::FxHashSet;

/// The names each open block binds, innermost last, for `strict_ssa=True` (PyPTO's
/// scope manager: a loop or branch body is a scope of its own, whose names stay visible
/// in the enclosing one afterwards).
#[derive(Default)]
pub(crate) struct SsaScopes {
    scopes: Vec<FxHashSet<Symbol>>,
    /// `strict_ssa=True`: without it no scope is kept (`define` is not asked).
    strict: bool,
}

impl SsaScopes {
    /// The scopes of a function body whose parameters are `params`, kept when `strict`.
    pub fn new(strict: bool, params: impl IntoIterator<Item = Symbol>) -> SsaScopes {
        let scopes = if strict { vec![params.into_iter().collect()] } else { Vec::new() };
        SsaScopes { scopes, strict }
    }

    pub fn enter(&mut self) {
        if self.strict {
            self.scopes.push(FxHashSet::default());
        }
    }

    /// Leaves the innermost scope; its names become names of the enclosing one.
    pub fn leave(&mut self) {
        if !self.strict {
            return;
        }
        if let Some(inner) = self.scopes.pop() {
            if let Some(outer) = self.scopes.last_mut() {
                outer.extend(inner);
            }
        }
    }

    /// Records `name` as bound in the innermost scope; `false` when it was already. The
    /// function's parameters and its top-level statements share one scope.
    fn define(&mut self, name: Symbol) -> bool {
        let n = self.scopes.len();
        let already = match n {
            0 => false,
            1 | 2 => self.scopes.iter().any(|s| s.contains(&name)),
            _ => self.scopes[n - 1].contains(&name),
        };
        if let Some(top) = self.scopes.last_mut() {
            top.insert(name);
        }
        !already
    }
}

impl FnLower<'_, '_> {
    /// Checks a plain assignment of a value of type `ty` to `name` (`x = e`, `x: T = e`,
    /// `a, b = e`) against the name's current binding, before it is bound.
    pub(crate) fn check_rebinding(&mut self, name: Symbol, ty: TypeId, span: Span) {
        let strict = self.info.decl.strict_ssa;
        if strict && !self.ssa.define(name) {
            let n = self.cx.name(name).to_string();
            self.error_help(
                Code::E0233,
                span,
                format!("Variable '{n}' is already defined"),
                "bound a second time",
                "with strict_ssa=True each name is assigned once per scope: use a new name",
            );
            return;
        }
        let Some(&var) = self.names.get(&name) else { return };
        // A `@pl.jit` function's re-bindings are fresh names once specialized.
        if strict || self.info.jit || self.carried.contains(&var) {
            return;
        }
        let old = self.cx.program.var(var).ty;
        if old == ty || old == Types::UNKNOWN || ty == Types::UNKNOWN {
            return;
        }
        let (a, b) = (self.cx.program.types.get(old).clone(), self.cx.program.types.get(ty).clone());
        // A value of another kind is reported by `bind` itself.
        if std::mem::discriminant(&a) != std::mem::discriminant(&b) || compatible(&a, &b) {
            return;
        }
        self.reassign_error(name, &a, &b, span);
    }

    /// E0210: `name`, which holds a value of type `old`, assigned a value of type `new`.
    /// Another kind of value (from `bind`), or another shape or dtype of the same kind (from
    /// `check_rebinding`): each in its own words.
    pub(crate) fn reassign_error(&mut self, name: Symbol, old: &Type, new: &Type, span: Span) {
        let n = self.cx.name(name).to_string();
        let same_kind = std::mem::discriminant(old) == std::mem::discriminant(new);
        let (a, b) = (self.describe_type(old), self.describe_type(new));
        let (message, label, help) = if same_kind {
            let help = "use a different variable name for a value with another shape or dtype".to_string();
            (
                format!("Cannot reassign '{n}' with a different type: was {a}, got {b}"),
                "a value of another shape or dtype",
                help,
            )
        } else {
            let help = format!("use a new name for the {b}");
            (format!("cannot reassign `{n}` with a different type: was {a}, now {b}"), "a value of another type", help)
        };
        self.error_help(Code::E0210, span, message, label, help);
    }

    /// Marks `var` as a loop-carried value (an iter arg), which PyPTO lets a body re-bind
    /// with another type.
    pub(crate) fn mark_carried(&mut self, var: crate::ir::VarId) {
        self.carried.insert(var);
    }
}

impl FnLower<'_, '_> {
    /// PyPTO's checks of one entry of a scope's list option (E0314): `no_dep_args=[...]`
    /// and `dumps=[...]` list bare names of tensors defined here; `optimizations=[...]`
    /// lists `pl.split(...)` and `pl.cross_core_slot(slot_num=N)` (N a positive integer
    /// literal, no positional argument). Returns `false` after reporting the first failure.
    pub(crate) fn option_entry_ok(&mut self, key: &str, item: ast::ExprId, what: &str) -> bool {
        let e = self.ast().expr(item);
        if key == "optimizations" {
            return self.optimization_entry_ok(item, e, what);
        }
        let (message, label) = match self.tensor_name(e) {
            Ok(()) => return true,
            Err(NotATensor::NotAName) => {
                (format!("{what}({key}=[...]) entries must be bare tensor names"), "not a name")
            }
            Err(NotATensor::Unknown(name)) => {
                (format!("{what}({key}=[...]) references unknown name '{name}'"), "not defined here")
            }
            Err(NotATensor::OtherType(name, got)) => {
                (format!("{what}({key}=[...]) entry '{name}' is not a tensor (got type {got})"), "not a tensor")
            }
        };
        self.error(Code::E0314, e.span, message, label);
        false
    }

    /// Whether `e` is the bare name of a tensor defined at this point (or of a value of
    /// unknown type), and what it is when not.
    fn tensor_name(&mut self, e: &ast::Expr) -> Result<(), NotATensor> {
        let E::Name(n) = e.kind else { return Err(NotATensor::NotAName) };
        let name = self.cx.name(n).to_string();
        let Some(&var) = self.names.get(&n) else { return Err(NotATensor::Unknown(name)) };
        let ty = self.cx.program.types.get(self.cx.program.var(var).ty).clone();
        if !matches!(ty, Type::Tensor { .. } | Type::Unknown) {
            return Err(NotATensor::OtherType(name, self.describe_type(&ty)));
        }
        Ok(())
    }

    fn optimization_entry_ok(&mut self, item: ast::ExprId, e: &ast::Expr, what: &str) -> bool {
        let path = match &e.kind {
            E::Call { func, .. } => self.cx.pl_path(self.m, *func),
            // `pl.auto_chunk`: a constant of the optimisation rows.
            E::Attribute { .. } => {
                let bare = self.cx.pl_path(self.m, item).and_then(|p| crate::ir::ops::by_spelling(&format!("pl.{p}")));
                if bare.is_some_and(|op| op.def().is_bare_marker()) {
                    return true;
                }
                None
            }
            _ => None,
        };
        let E::Call { args, .. } = &e.kind else { return self.unsupported_optimization(e.span, what) };
        match path.and_then(|p| crate::ir::ops::by_spelling(&format!("pl.{p}"))) {
            Some(Op::OptimizationSplit) => true,
            Some(Op::OptimizationCrossCoreSlot) => {
                if let Some(a) = self.ast().list(*args).iter().find(|a| a.kind == ArgKind::Positional) {
                    let n = self.ast().list(*args).iter().filter(|a| a.kind == ArgKind::Positional).count();
                    let message = format!("pl.cross_core_slot() takes no positional arguments, got {n}");
                    self.error(Code::E0314, a.span, message, "positional argument");
                    return false;
                }
                let slot = self
                    .ast()
                    .list(*args)
                    .iter()
                    .find(|a| matches!(a.kind, ArgKind::Keyword(k) if self.cx.name(k.name) == "slot_num"));
                match slot {
                    Some(a) => self.positive_int_literal(a.value, "pl.cross_core_slot() slot_num"),
                    // A missing slot_num= is reported with the call's other arguments (E0202).
                    None => true,
                }
            }
            _ => self.unsupported_optimization(e.span, what),
        }
    }

    fn unsupported_optimization(&mut self, span: Span, what: &str) -> bool {
        self.error_help(
            Code::E0314,
            span,
            format!("Unsupported entry in {what}(optimizations=[...])"),
            "not an optimization",
            "the entries are pl.split(mode), pl.cross_core_slot(slot_num=N) and pl.auto_chunk",
        );
        false
    }

    /// `value` is an integer literal greater than zero (E0314 otherwise).
    fn positive_int_literal(&mut self, value: ast::ExprId, what: &str) -> bool {
        let v = self.ast().expr(value);
        let text = self.text(v.span);
        if !matches!(v.kind, E::Int) {
            self.error(Code::E0314, v.span, format!("{what} must be an integer literal"), "not an integer literal");
            return false;
        }
        if parse_int(&text).and_then(|c| c.as_int()).is_some_and(|n| n <= 0) {
            self.error(Code::E0314, v.span, format!("{what} must be positive, got {text}"), "not positive");
            return false;
        }
        true
    }
}

impl FnLower<'_, '_> {
    /// PyPTO's checks of `dst[...] = src` (ops.md §4.2 `_parse_subscript_assignment`): not
    /// under `strict_ssa=True` (E0233); an array takes one index; a tensor or tile target
    /// takes a source of its kind whose extents fit the window (E0217). `false` after
    /// reporting.
    pub(crate) fn subscript_write_ok(&mut self, dst: &Type, items: &[ast::ExprId], src: &Type, span: Span) -> bool {
        if self.info.decl.strict_ssa {
            self.error_help(
                Code::E0233,
                span,
                "Subscript-write syntax 'dst[...] = src' is only supported before SSA conversion",
                "a subscript-write under strict_ssa",
                "write the update as `dst = pl.assemble(dst, src, offsets)`",
            );
            return false;
        }
        let kind = match dst {
            Type::Array { .. } if items.len() != 1 => {
                self.error(Code::E0217, span, "Array subscript-write requires a single index", "one index");
                return false;
            }
            Type::Tensor { .. } => "Tensor",
            Type::Tile { .. } => "Tile",
            _ => return true,
        };
        let stepped =
            items.iter().map(|&i| self.ast().expr(i)).find(|e| matches!(e.kind, E::Slice { step: Some(_), .. }));
        if let Some(item) = stepped {
            let message = format!("a slice step is not supported in a {kind} subscript-write");
            self.error(Code::E0223, item.span, message, "a step");
            return false;
        }
        let same_kind =
            matches!((dst, src), (Type::Tensor { .. }, Type::Tensor { .. }) | (Type::Tile { .. }, Type::Tile { .. }));
        if !same_kind && !matches!(src, Type::Unknown) {
            let got = self.describe_type(src);
            let message = format!("Subscript-write source must also be a {kind}, got {got}");
            self.error(Code::E0217, span, message, "a source of another kind");
            return false;
        }
        let (Some(dims), Some(src_dims)) = (dst.shape(), src.shape()) else { return true };
        let window = self.window_extents(dims, items);
        if window.len() != src_dims.len() {
            // A scalar index drops its axis: the source must have the rank of what is left.
            let reduced = items.iter().any(|&i| !matches!(self.ast().expr(i).kind, E::Slice { .. }));
            if reduced {
                let message = format!(
                    "Subscript-write source must be {}D to match the rank-reduced {kind} window, got {}D",
                    window.len(),
                    src_dims.len()
                );
                self.error(Code::E0217, span, message, "source of another rank");
                return false;
            }
            return true;
        }
        for (axis, (w, s)) in window.iter().zip(src_dims).enumerate() {
            if let (Some(w), crate::ir::Dim::Const(s)) = (w, s) {
                if w != s {
                    let message = format!(
                        "Subscript-write shape mismatch on source axis {axis}: window expects {w} elements, source has {s}"
                    );
                    self.error(Code::E0217, span, message, "extents differ");
                    return false;
                }
            }
        }
        true
    }

    /// The extents of the window `dst[items]` selects, one per kept (sliced or omitted)
    /// axis; `None` for an extent not known from literals.
    fn window_extents(&self, dims: &[crate::ir::Dim], items: &[ast::ExprId]) -> Vec<Option<i64>> {
        // A bound: `absent` when not written, its value when an integer literal.
        let bound = |e: Option<ast::ExprId>, absent: Option<i64>| -> Option<i64> {
            match e {
                None => absent,
                Some(e) if matches!(self.ast().expr(e).kind, E::Int) => {
                    parse_int(&self.text(self.ast().expr(e).span)).and_then(|c| c.as_int())
                }
                Some(_) => None,
            }
        };
        let dim = |k: usize| match dims.get(k) {
            Some(crate::ir::Dim::Const(n)) => Some(*n),
            _ => None,
        };
        let mut out = Vec::new();
        for k in 0..dims.len().max(items.len()) {
            let Some(&item) = items.get(k) else {
                out.push(dim(k));
                continue;
            };
            let E::Slice { lower, upper, step } = self.ast().expr(item).kind else { continue };
            let extent = match (step, bound(lower, Some(0)), bound(upper, dim(k))) {
                (None, Some(lo), Some(hi)) => Some(hi - lo),
                _ => None,
            };
            out.push(extent);
        }
        out
    }
}

impl FnLower<'_, '_> {
    /// `pl.static_assert(cond[, "message"])` (ops.md §4.2 `_handle_static_assert`): one or
    /// two arguments (E0202), the message a string literal (E0217). `false` after reporting.
    pub(crate) fn static_assert_args_ok(&mut self, args: &[ast::Arg], span: Span) -> bool {
        if args.is_empty() || args.len() > 2 {
            let message = format!("static_assert() requires 1 or 2 arguments, got {}", args.len());
            self.error(Code::E0202, span, message, "wrong number of arguments");
            return false;
        }
        if let Some(m) = args.get(1) {
            let plain = matches!(&self.ast().expr(m.value).kind,
                E::Str(p) if self.ast().list(*p).iter().all(|p| p.kind == ast::StrKind::Plain));
            if !plain {
                let mspan = self.ast().expr(m.value).span;
                self.error(Code::E0217, mspan, "static_assert() message must be a string literal", "not a string");
                return false;
            }
        }
        true
    }

    /// `pl.dump_tag(t)` (ops.md §4.2 `_handle_dump_tag`): exactly one positional argument
    /// (E0202), the bare name (E0217) of a tensor (E0217) defined at this point (E0201).
    pub(crate) fn dump_tag_args_ok(&mut self, args: &[ast::Arg], span: Span) -> bool {
        let [one] = args else {
            self.error(Code::E0202, span, "pl.dump_tag() takes exactly one positional argument", "wrong arguments");
            return false;
        };
        if one.kind != ArgKind::Positional {
            self.error(
                Code::E0202,
                one.span,
                "pl.dump_tag() takes exactly one positional argument (no keywords)",
                "a keyword",
            );
            return false;
        }
        let e = self.ast().expr(one.value);
        let (code, message, label) = match self.tensor_name(e) {
            Ok(()) => return true,
            Err(NotATensor::NotAName) => {
                (Code::E0217, "pl.dump_tag() argument must be a bare variable name".to_string(), "not a name")
            }
            Err(NotATensor::Unknown(name)) => (
                Code::E0201,
                format!("pl.dump_tag() argument '{name}' is not defined at this point"),
                "not defined here",
            ),
            Err(NotATensor::OtherType(name, got)) => {
                (Code::E0217, format!("pl.dump_tag() argument '{name}' is not a tensor (got {got})"), "not a tensor")
            }
        };
        self.error(code, e.span, message, label);
        false
    }

    /// A key `pl.func_attr({...})` sets twice, across the directives of one function
    /// (ops.md §4.2 `_merge_func_attr_directive`): E0226.
    pub(crate) fn func_attr_key_twice(
        &mut self,
        seen: &[(Symbol, crate::ir::ExprId)],
        key: Symbol,
        span: Span,
    ) -> bool {
        if !seen.iter().any(|&(k, _)| k == key) {
            return false;
        }
        let k = self.cx.name(key).to_string();
        self.error(
            Code::E0226,
            span,
            format!("Duplicate function attribute '{k}' in pl.func_attr({{...}})"),
            "set twice",
        );
        true
    }
}

impl FnLower<'_, '_> {
    /// `attrs=` of a loop (`pl.range(..., attrs={...})`, ops.md §4.2 `_parse_range_keyword`,
    /// `_parse_attrs_dict`): a dict literal with string-literal keys (E0217). `false` after
    /// reporting.
    pub(crate) fn loop_attrs_ok(&mut self, value: ast::ExprId, iterator: &str) -> bool {
        let e = self.ast().expr(value);
        let E::Dict(entries) = &e.kind else {
            let message = format!("attrs= of pl.{iterator}() must be a dict literal");
            self.error_help(
                Code::E0217,
                e.span,
                message,
                "not a dict",
                "write the attributes as {\"name\": value, ...}",
            );
            return false;
        };
        for entry in entries {
            let key = entry.key.map(|k| self.ast().expr(k));
            let plain = matches!(&key, Some(ast::Expr { kind: E::Str(p), .. })
                if self.ast().list(*p).iter().all(|p| p.kind == ast::StrKind::Plain));
            if !plain {
                let at = key.map_or(e.span, |k| k.span);
                let message = format!("the keys of attrs= of pl.{iterator}() must be string literals");
                self.error(Code::E0217, at, message, "not a string");
                return false;
            }
        }
        true
    }
}

impl FnLower<'_, '_> {
    /// An int or float literal, possibly negated: what `pl.const(value, dtype)` takes
    /// (ops.md §4.2 `_parse_typed_constant`).
    pub(crate) fn numeric_literal(&self, value: ast::ExprId) -> bool {
        match &self.ast().expr(value).kind {
            E::Int | E::Float => true,
            E::Unary { op: ast::UnaryOp::Neg, operand } => matches!(self.ast().expr(*operand).kind, E::Int | E::Float),
            _ => false,
        }
    }
}

impl FnLower<'_, '_> {
    /// A string constant is not a value of pl code (ops.md §4.2 `parse_constant`,
    /// *Unsupported constant type*): it may only stand where an op or a directive takes
    /// a name (`mode="round"`, `name_hint=`, attributes). E0217 when `value` is one.
    pub(crate) fn not_a_string(&mut self, value: crate::ir::ExprId) -> bool {
        if !matches!(self.cx.program.expr(value).kind, crate::ir::ExprKind::Str(_)) {
            return true;
        }
        let span = self.cx.program.expr(value).loc.span;
        self.error_help(
            Code::E0217,
            span,
            "a string is not a value in pl code",
            "a string constant",
            "strings are only taken by op arguments and directives that expect a name",
        );
        false
    }
}

/// Why an expression is not the bare name of a tensor: not a name, a name not defined
/// (`Unknown(name)`), or one of another type (`OtherType(name, the type described)`).
enum NotATensor {
    NotAName,
    Unknown(String),
    OtherType(String, String),
}

impl super::Lowering<'_> {
    /// The module's `pl.dynamic` symbols `e` reads, added to `out`.
    pub(crate) fn dynamic_names_in(&self, m: super::ModuleId, e: ast::ExprId, out: &mut Vec<Symbol>) {
        let mut stack = vec![e];
        while let Some(id) = stack.pop() {
            if let E::Name(n) = self.ast(m).expr(id).kind {
                let dynamic = matches!(
                    self.modules[m].names.get(&n),
                    Some((super::Binding::Const(super::consts::Const::Dyn(_)), _))
                );
                if dynamic && !out.contains(&n) {
                    out.push(n);
                }
            }
            self.ast(m).expr_children(id, &mut |c| stack.push(c));
        }
    }

    /// A scalar parameter named as a `pl.dynamic` symbol binds that symbol; PyPTO refuses
    /// it after a parameter whose annotation already used the symbol (`used`).
    pub(crate) fn dynamic_after_use(&mut self, m: super::ModuleId, name: ast::Ident, used: &[Symbol]) {
        if !used.contains(&name.name) {
            return;
        }
        let file = self.modules[m].file;
        let n = self.name(name.name).to_string();
        self.error_help(
            Code::E0208,
            file,
            name.span,
            format!("Parameter '{n}' shadows the dynamic symbol '{n}', which an earlier parameter's type annotation already uses"),
            "declared after its use",
            format!("declare the scalar parameter `{n}` before the parameters whose types use it"),
        );
    }
}

/// One replacement field `{...}` of an f-string: the byte range of its expression in the
/// literal's text, and whether it carries a conversion (`!r`), a format spec (`:.2f`) or
/// the `=` self-documenting form, which PyPTO's `pl.static_print` refuses.
pub(crate) struct FstringField {
    pub expr: std::ops::Range<usize>,
    pub formatted: bool,
}

/// The replacement fields of one f-string literal, written `f"..."` (any prefix and quotes).
pub(crate) fn fstring_fields(text: &str) -> Vec<FstringField> {
    let b = text.as_bytes();
    let mut i = b.iter().position(|&c| c == b'"' || c == b'\'').unwrap_or(b.len());
    let quote = b.get(i).copied().unwrap_or(b'"');
    let triple = b.len() >= i + 3 && b[i + 1] == quote && b[i + 2] == quote;
    i += if triple { 3 } else { 1 };
    let end = b.len().saturating_sub(if triple { 3 } else { 1 }).max(i);
    let mut fields = Vec::new();
    while i < end {
        match b[i] {
            b'{' if b.get(i + 1) == Some(&b'{') => i += 2,
            b'{' => {
                let (field, next) = fstring_field(b, i + 1, end);
                fields.push(field);
                i = next;
            }
            _ => i += 1,
        }
    }
    fields
}

/// The field whose expression starts at `start`; returns it and the index after its `}`.
fn fstring_field(b: &[u8], start: usize, end: usize) -> (FstringField, usize) {
    let (mut depth, mut i, mut in_str) = (0usize, start, None::<u8>);
    let mut expr_end = None;
    while i < end {
        let c = b[i];
        if let Some(q) = in_str {
            if c == q {
                in_str = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'\'' | b'"' => in_str = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' if depth > 0 => depth -= 1,
            b'}' => break,
            b'!' if depth == 0 && b.get(i + 1) != Some(&b'=') => {
                expr_end.get_or_insert(i);
            }
            b':' if depth == 0 => {
                expr_end.get_or_insert(i);
            }
            _ => {}
        }
        i += 1;
    }
    let close = i;
    let mut formatted = expr_end.is_some();
    let mut stop = expr_end.unwrap_or(close);
    // `{x=}`: a trailing `=` that is not part of `==`, `!=`, `<=` or `>=`.
    let trimmed = b[start..stop].trim_ascii_end();
    if let [.., prev, b'='] = trimmed {
        if !matches!(prev, b'=' | b'!' | b'<' | b'>') {
            formatted = true;
            stop = start + trimmed.len() - 1;
        }
    }
    (FstringField { expr: start..stop, formatted }, close + 1)
}
