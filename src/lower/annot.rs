//! The compile-time parts of a module: constant expressions, decorators, and type
//! annotations.

use super::consts::{self, Const};
use super::{Binding, Lowering, ModuleId};
use crate::diag::{Code, Span};
use crate::intern::Symbol;
use crate::ir::types::Handle;
use crate::ir::{
    BinOp, DType, Dim, Direction, EnumValue, FuncDecl, FuncKind, Layout, Level, Role, Type, TypeId,
    DUAL_AIV_DISPATCH_ATTR, EXTERNAL_INCLUDE_DIRS_ATTR,
};
use crate::syntax::ast::{self, ArgKind, ExprKind as E, UnaryOp};
use rustc_hash::FxHashSet;

/// A keyword argument of a decorator: where it is written and its value.
#[derive(Clone, Copy)]
struct Arg {
    span: Span,
    value: ast::ExprId,
}

/// The keyword arguments of `@pl.jit.extern` (PyPTO's `_ExternKernelDecorator.__call__`).
const JIT_EXTERN_KEYS: [&str; 6] =
    ["core_type", "source", "aic_source", "aiv_source", "dual_aiv_dispatch", "include_dirs"];

/// What `@pl.jit.extern(...)` declares.
struct JitExtern {
    sources: ExternSources,
    /// `include_dirs=`, absolute.
    include_dirs: Vec<String>,
}

/// The C++ file(s) of a `@pl.jit.extern` kernel, absolute.
enum ExternSources {
    /// `core_type` "aic" or "aiv": one kernel of that kind.
    Single { kind: FuncKind, source: String },
    /// `core_type="mixed"`: an AIC and an AIV kernel launched together.
    Mixed { aic: String, aiv: String, dual_aiv_dispatch: bool },
}

/// A mixed external kernel (`@pl.jit.extern(core_type="mixed", ...)`): PyPTO's specializer
/// makes of it an AIC member `<name>_aic`, an AIV member `<name>_aiv` and a Group `<name>`
/// calling both with its parameters; these are the members' declarations.
#[derive(Clone, Debug)]
pub(crate) struct MixedExtern {
    pub aic: FuncDecl,
    pub aiv: FuncDecl,
}

/// A path that exists, absolute (symbolic links resolved).
fn absolute(path: std::path::PathBuf) -> String {
    let resolved = path.canonicalize().or_else(|_| std::path::absolute(&path)).unwrap_or(path);
    resolved.display().to_string()
}

impl Lowering<'_> {
    pub(crate) fn ast(&self, m: ModuleId) -> &ast::Ast {
        &self.modules[m].ast
    }

    /// The dotted name of an expression made of names and attributes (`pl.jit.graph`).
    pub(crate) fn dotted(&self, m: ModuleId, e: ast::ExprId) -> Option<String> {
        let (root, attrs) = self.dotted_parts(m, e)?;
        Some(self.join_dotted(Some(root), &attrs))
    }

    /// The parts of a dotted name: its root name and its attributes, innermost (last)
    /// first; `None` when `e` is not made of names and attributes alone.
    fn dotted_parts(&self, m: ModuleId, e: ast::ExprId) -> Option<(Symbol, Vec<Symbol>)> {
        let mut attrs = Vec::with_capacity(4);
        let mut cur = e;
        loop {
            match &self.ast(m).expr(cur).kind {
                E::Name(n) => return Some((*n, attrs)),
                E::Attribute { value, attr } => {
                    attrs.push(attr.name);
                    cur = *value;
                }
                _ => return None,
            }
        }
    }

    /// `root.a.b` (or `a.b` without a root) from attributes listed last first.
    fn join_dotted(&self, root: Option<Symbol>, attrs: &[Symbol]) -> String {
        let len = root.iter().chain(attrs).map(|&part| self.name(part).len() + 1).sum();
        let mut text = String::with_capacity(len);
        for part in root.iter().chain(attrs.iter().rev()) {
            if !text.is_empty() {
                text.push('.');
            }
            text.push_str(self.name(*part));
        }
        text
    }

    /// Whether a dotted name starts with a name bound to the `pl` namespace; returns the
    /// rest (`"jit.graph"` for `pl.jit.graph`).
    pub(crate) fn pl_path(&self, m: ModuleId, e: ast::ExprId) -> Option<String> {
        match self.namespace_path(m, e)? {
            (Binding::Pl, rest) => Some(rest),
            _ => None,
        }
    }

    /// Whether `pl_path` has a path for `e` (without making it).
    pub(crate) fn is_pl_rooted(&self, m: ModuleId, e: ast::ExprId) -> bool {
        matches!(self.namespace_root(m, e), Some((Binding::Pl, ..)))
    }

    /// As `pl_path`, for the distributed namespace (`pld.tensor.put` → `"tensor.put"`).
    pub(crate) fn pld_path(&self, m: ModuleId, e: ast::ExprId) -> Option<String> {
        match self.namespace_path(m, e)? {
            (Binding::Pld, rest) => Some(rest),
            _ => None,
        }
    }

    /// `math.<member>`: one of the module's constants, or E0218.
    fn math_member(&mut self, m: ModuleId, member: &str, span: Span) -> Option<Const> {
        if let Some(v) = super::math_constant(member) {
            return Some(Const::Float(v));
        }
        let file = self.modules[m].file;
        self.error_help(
            Code::E0218,
            file,
            span,
            format!("`math.{member}` is not a compile-time constant"),
            "not a constant",
            "pl code may use the constants `math.inf`, `math.nan`, `math.pi`, `math.e` and `math.tau`",
        );
        None
    }

    /// Whether a dotted name starts with a name bound to `math`.
    pub(crate) fn is_math_path(&self, m: ModuleId, e: ast::ExprId) -> bool {
        matches!(self.dotted_root(m, e), Some((root, depth))
            if depth > 0 && matches!(self.modules[m].names.get(&root), Some((Binding::Math, _))))
    }

    /// The namespace (`pl`, `pld` or `math`) a dotted name starts with and the rest of the
    /// name (`"tile.load"` for `pl.tile.load`); a root bound to `pl.jit` is `pl`'s `jit`.
    pub(crate) fn namespace_path(&self, m: ModuleId, e: ast::ExprId) -> Option<(Binding, String)> {
        let (binding, depth, prefix) = self.namespace_root(m, e)?;
        Some((binding, self.join_attrs(m, e, depth, prefix)))
    }

    /// As `namespace_path` for `pl` and `pld`, spelled with the namespace as the op table
    /// names ops (`"pl.tile.load"`, `"pld.tensor.put"`): one string for a call's callee.
    pub(crate) fn namespace_spelled(&self, m: ModuleId, e: ast::ExprId) -> Option<(Binding, String)> {
        let (binding, depth, prefix) = self.namespace_root(m, e)?;
        let head = match (&binding, prefix) {
            (Binding::Pl, "jit") => "pl.jit",
            (Binding::Pl, _) => "pl",
            (Binding::Pld, _) => "pld",
            _ => return None,
        };
        Some((binding, self.join_attrs(m, e, depth, head)))
    }

    /// The namespace a dotted name starts with, the number of attributes after its root,
    /// and what the rest of the name starts with (`"jit"` for a root bound to `pl.jit`).
    fn namespace_root(&self, m: ModuleId, e: ast::ExprId) -> Option<(Binding, usize, &'static str)> {
        let (root, depth) = self.dotted_root(m, e)?;
        match self.modules[m].names.get(&root) {
            Some((Binding::Jit, _)) => Some((Binding::Pl, depth, "jit")),
            Some((b @ (Binding::Pl | Binding::Pld | Binding::Math), _)) if depth > 0 => Some((b.clone(), depth, "")),
            _ => None,
        }
    }

    /// The root name of a dotted name (`pl` of `pl.tile.load`) and how many attributes
    /// follow it; `None` when `e` is not made of names and attributes alone.
    pub(crate) fn dotted_root(&self, m: ModuleId, e: ast::ExprId) -> Option<(Symbol, usize)> {
        let tree = self.ast(m);
        let mut cur = e;
        let mut depth = 0;
        loop {
            match &tree.expr(cur).kind {
                E::Name(n) => return Some((*n, depth)),
                E::Attribute { value, .. } => {
                    depth += 1;
                    cur = *value;
                }
                _ => return None,
            }
        }
    }

    /// `prefix` and the `depth` attributes of the dotted name `e`, outermost first, joined
    /// with dots (`"tile.load"` of `pl.tile.load`, `"jit.graph"` with prefix `"jit"` of
    /// `jit.graph`).
    fn join_attrs(&self, m: ModuleId, e: ast::ExprId, depth: usize, prefix: &str) -> String {
        // The attributes are met innermost first: a usual name's few are put in order on
        // the stack, a longer one's in a vector.
        const SHORT: usize = 8;
        let tree = self.ast(m);
        let E::Attribute { attr: innermost, .. } = &tree.expr(e).kind else { return prefix.to_string() };
        let mut short = [innermost.name; SHORT];
        let mut long = Vec::new();
        let mut cur = e;
        let mut k = 0;
        while let E::Attribute { value, attr } = &tree.expr(cur).kind {
            if depth <= SHORT {
                short[depth - 1 - k] = attr.name;
            } else {
                long.push(attr.name);
            }
            k += 1;
            cur = *value;
        }
        long.reverse();
        let parts = if depth <= SHORT { &short[..depth] } else { &long[..] };
        let len = prefix.len() + parts.iter().map(|&part| self.name(part).len() + 1).sum::<usize>();
        let mut text = String::with_capacity(len);
        text.push_str(prefix);
        for &part in parts {
            if !text.is_empty() {
                text.push('.');
            }
            text.push_str(self.name(part));
        }
        text
    }

    /// Whether `e` is `pl.{want}`: `pl_path(m, e)` is `Some(want)`, told without making
    /// the path.
    pub(crate) fn is_pl_path(&self, m: ModuleId, e: ast::ExprId, want: &str) -> bool {
        let tree = self.ast(m);
        // The attributes are met innermost first, as `want`'s parts from its end: `rest`
        // is what is left of `want` (`None` once its first part was matched).
        let mut rest = Some(want);
        let mut cur = e;
        let mut depth = 0;
        loop {
            match &tree.expr(cur).kind {
                E::Attribute { value, attr } => {
                    let Some(left) = rest.and_then(|r| strip_last_part(r, self.name(attr.name))) else {
                        return false;
                    };
                    rest = left;
                    depth += 1;
                    cur = *value;
                }
                E::Name(n) => {
                    return match self.modules[m].names.get(n) {
                        Some((Binding::Jit, _)) => rest == Some("jit"),
                        Some((Binding::Pl, _)) => depth > 0 && rest.is_none(),
                        _ => false,
                    };
                }
                _ => return false,
            }
        }
    }

    // ------------------------------------------------------------ constants

    /// Evaluates a constant expression of a module (constants, arithmetic, lists,
    /// `pl.dynamic`, dtypes, enums, a few builtins). Reports and returns `None` otherwise.
    pub(crate) fn eval_const(&mut self, m: ModuleId, e: ast::ExprId) -> Option<Const> {
        self.eval_const_in(m, e, &|_| None)
    }

    /// As `eval_const`, with `local` consulted first for names (a function's parameters,
    /// which a shape may use).
    pub(crate) fn eval_const_in(
        &mut self,
        m: ModuleId,
        e: ast::ExprId,
        local: &dyn Fn(Symbol) -> Option<Const>,
    ) -> Option<Const> {
        let file = self.modules[m].file;
        let expr = self.ast(m).expr(e).clone();
        let span = expr.span;
        let result = match &expr.kind {
            E::Int => parse_int(self.text_of(m, span)),
            E::Float => parse_float(self.text_of(m, span)),
            E::True => Some(Const::Bool(true)),
            E::False => Some(Const::Bool(false)),
            E::None => Some(Const::None),
            E::Str(pieces) if self.ast(m).list(*pieces).iter().all(|p| p.kind == ast::StrKind::Plain) => {
                let text = self.string_value(m, *pieces)?;
                Some(Const::Str(self.intern(&text)))
            }
            E::List(items) | E::Tuple(items) => {
                let items = self.ast(m).list(*items).to_vec();
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval_const_in(m, item, local)?);
                }
                Some(if matches!(expr.kind, E::List(_)) { Const::List(values) } else { Const::Tuple(values) })
            }
            E::Name(n) => {
                if let Some(v) = local(*n) {
                    return Some(v);
                }
                match self.modules[m].names.get(n) {
                    Some((Binding::Const(c), _)) => Some(c.clone()),
                    _ => {
                        self.undefined_constant(m, *n, span);
                        return None;
                    }
                }
            }
            E::Attribute { .. } => {
                if let Some((Binding::Math, member)) = self.namespace_path(m, e) {
                    return self.math_member(m, &member, span);
                }
                let Some(path) = self.pl_path(m, e).or_else(|| self.pld_path(m, e)) else {
                    // `DataType.FP32` of a skipped import: known by its spelling only.
                    if let Some((root, _)) = self.dotted_parts(m, e) {
                        if matches!(self.modules[m].names.get(&root), Some((Binding::Outside, _))) {
                            let text: String = self.text_of(m, span).chars().filter(|c| !c.is_whitespace()).collect();
                            return Some(Const::Host(self.intern(&text)));
                        }
                        if self.modules[m].host_names.contains_key(&root) {
                            self.undefined_constant(m, root, span);
                            return None;
                        }
                    }
                    let text = self.text_of(m, span).to_string();
                    self.error(
                        Code::E0218,
                        file,
                        span,
                        format!("`{text}` is not a compile-time constant"),
                        "not a constant",
                    );
                    return None;
                };
                return self.pl_constant(m, &path, span);
            }
            E::Binary { .. } | E::Bool { .. } => return self.eval_chain(m, e, local),
            E::Unary { op: UnaryOp::Neg, operand } if self.negates_to_int_min(m, *operand) => {
                Some(Const::Int(i64::MIN))
            }
            E::Unary { op, operand } => {
                let v = self.eval_const_in(m, *operand, local)?;
                match (op, &v) {
                    (UnaryOp::Neg, Const::Int(i)) => i.checked_neg().map(Const::Int),
                    (UnaryOp::Neg, Const::Float(f)) => Some(Const::Float(-f)),
                    (UnaryOp::Invert, Const::Int(i)) => Some(Const::Int(!i)),
                    (UnaryOp::Not, v) => v.truthy().map(|b| Const::Bool(!b)),
                    _ => None,
                }
            }
            E::Compare { first, rest } if rest.len() == 1 => {
                let a = self.eval_const_in(m, *first, local)?;
                let b = self.eval_const_in(m, rest[0].1, local)?;
                match rest[0].0 {
                    ast::CmpOp::In => consts::contains(&b, &a).map(Const::Bool),
                    ast::CmpOp::NotIn => consts::contains(&b, &a).map(|c| Const::Bool(!c)),
                    op => cmp_binop(op).and_then(|op| consts::binary(op, &a, &b)),
                }
            }
            E::Subscript { value, index } => {
                let v = self.eval_const_in(m, *value, local)?;
                let i = self.eval_const_in(m, *index, local)?;
                if matches!(v, Const::Dict(_) | Const::List(_) | Const::Tuple(_)) && consts::lookup(&v, &i).is_none() {
                    let (what, key) = (v.kind_name(), i.describe(&self.session.interner));
                    let keys = match &v {
                        Const::Dict(entries) => {
                            let names: Vec<String> =
                                entries.iter().map(|(k, _)| k.describe(&self.session.interner)).collect();
                            format!("its keys: {}", names.join(", "))
                        }
                        Const::List(items) | Const::Tuple(items) => format!("it has {} entries", items.len()),
                        _ => String::new(),
                    };
                    self.error_help(
                        Code::E0218,
                        file,
                        span,
                        format!("the {what} has no entry {key}"),
                        "no such entry",
                        keys,
                    );
                    return None;
                }
                consts::lookup(&v, &i)
            }
            E::Dict(entries) => {
                let mut values = Vec::with_capacity(entries.len());
                for entry in entries {
                    let key = self.eval_const_in(m, entry.key?, local)?;
                    values.push((key, self.eval_const_in(m, entry.value, local)?));
                }
                Some(Const::Dict(values))
            }
            E::IfExp { test, body, orelse } => {
                let t = self.eval_const_in(m, *test, local)?;
                let taken = if t.truthy()? { *body } else { *orelse };
                return self.eval_const_in(m, taken, local);
            }
            E::Call { func, args } => {
                let args = self.ast(m).list(*args).to_vec();
                return self.const_call(m, *func, &args, span, local);
            }
            // What the parser or the nesting limits made of bad input, already reported.
            E::Error => return None,
            _ => None,
        };
        if result.is_none() {
            let text = self.text_of(m, span).to_string();
            self.error(Code::E0218, file, span, format!("`{text}` is not a compile-time constant"), "not a constant");
        }
        result
    }

    /// Folds a chain of binary operators (or of `and`/`or`), `1 + 1 + ... + 1`, with a loop
    /// over its left spine, so that a chain of any length costs no recursion (see
    /// `syntax::limits`). Each operator is folded as soon as its right operand is known;
    /// the first operand that is not a constant ends the chain.
    fn eval_chain(&mut self, m: ModuleId, e: ast::ExprId, local: &dyn Fn(Symbol) -> Option<Const>) -> Option<Const> {
        let file = self.modules[m].file;
        let (spine, first) = self.ast(m).chain_spine(e);
        let mut acc = self.eval_const_in(m, first, local)?;
        for node in spine {
            let expr = self.ast(m).expr(node).clone();
            let span = expr.span;
            acc = match expr.kind {
                E::Binary { op, rhs, .. } => {
                    let b = self.eval_const_in(m, rhs, local)?;
                    let Some(op) = ir_binop(op) else {
                        self.error(
                            Code::E0218,
                            file,
                            span,
                            "this operator cannot be folded",
                            "not a constant operation",
                        );
                        return None;
                    };
                    match consts::binary(op, &acc, &b) {
                        Some(v) => v,
                        None => {
                            let (a, b) = (acc.describe(&self.session.interner), b.describe(&self.session.interner));
                            self.error(
                                Code::E0218,
                                file,
                                span,
                                format!("cannot compute `{a} {} {b}` at compile time", op.spelling()),
                                "division by zero, overflow, or operands of the wrong kind",
                            );
                            return None;
                        }
                    }
                }
                E::Bool { op, rhs, .. } => {
                    let b = self.eval_const_in(m, rhs, local)?;
                    let (ta, _) = (acc.truthy()?, b.truthy()?);
                    match (op, ta) {
                        (ast::BoolOp::And, true) | (ast::BoolOp::Or, false) => b,
                        (ast::BoolOp::And, false) | (ast::BoolOp::Or, true) => acc,
                    }
                }
                _ => unreachable!("a chain's spine holds operators only"),
            };
        }
        Some(acc)
    }

    fn undefined_constant(&mut self, m: ModuleId, n: Symbol, span: Span) {
        let file = self.modules[m].file;
        let name = self.name(n).to_string();
        match self.modules[m].names.get(&n).map(|b| b.0.clone()) {
            Some(Binding::Poisoned) => {}
            Some(Binding::Function(_)) | Some(Binding::ProgramClass) | Some(Binding::Factory(_)) => {
                self.error(
                    Code::E0218,
                    file,
                    span,
                    format!("`{name}` is a function, not a constant"),
                    "not a constant",
                );
            }
            Some(Binding::Outside) => {
                self.error(
                    Code::E0222,
                    file,
                    span,
                    format!("`{name}` comes from an outside library, which pl code cannot use"),
                    "outside library",
                );
            }
            _ => {
                if let Some(&host) = self.modules[m].host_names.get(&n) {
                    self.error(
                        Code::E0222,
                        file,
                        span,
                        format!("`{name}` is defined by host code, which runs in Python"),
                        "host-code name",
                    )
                    .secondary
                    .push(crate::diag::Label::secondary(file, host, "defined here, in host code"));
                } else {
                    self.error(Code::E0201, file, span, format!("undefined name `{name}`"), "not defined");
                }
            }
        }
    }

    /// `pl.X`, `pl.X.Y` as a constant: dtypes, enums, and `pl.AUTO` (the sentinel −1 of
    /// `pl.reserve_buffer(base=pl.AUTO)`: let the compiler place the buffer).
    fn pl_constant(&mut self, m: ModuleId, path: &str, span: Span) -> Option<Const> {
        let file = self.modules[m].file;
        if let Some(d) = DType::from_name(path) {
            return Some(Const::DType(d));
        }
        if path == "AUTO" {
            return Some(Const::Int(crate::ir::ops::AUTO_BASE));
        }
        if let Some(layout) = crate::ir::Layout::from_name(path) {
            return Some(Const::Enum(EnumValue::Layout(layout)));
        }
        let parts: Vec<&str> = path.split('.').collect();
        let (family, member) = match parts.as_slice() {
            [family, member] => (*family, *member),
            ["tile", family, member] => (*family, *member),
            _ => ("", ""),
        };
        if let Some(v) = EnumValue::lookup(family, member) {
            return Some(Const::Enum(v));
        }
        if let Some(members) = EnumValue::family_members(family) {
            self.error_help(
                Code::E0206,
                file,
                span,
                format!("`pl.{family}` has no member `{member}`"),
                "unknown member",
                format!("valid values: {members}"),
            );
            return None;
        }
        if parts.len() == 1 && parts[0].chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
            self.error_help(
                Code::E0206,
                file,
                span,
                format!("unknown dtype `pl.{path}`"),
                "unknown dtype",
                format!("valid dtypes: {}", DType::names()),
            );
            return None;
        }
        self.error(Code::E0218, file, span, format!("`pl.{path}` is not a compile-time constant"), "not a constant");
        None
    }

    fn const_call(
        &mut self,
        m: ModuleId,
        func: ast::ExprId,
        args: &[ast::Arg],
        span: Span,
        local: &dyn Fn(Symbol) -> Option<Const>,
    ) -> Option<Const> {
        let file = self.modules[m].file;
        if let E::Name(n) = self.ast(m).expr(func).kind {
            if local(n).is_none() && !self.modules[m].names.contains_key(&n) {
                if let Some(def) = self.helper_def(m, n) {
                    return self.call_helper(m, def, args, span, local);
                }
            }
        }
        let callee = self.dotted(m, func).unwrap_or_default();
        let pl = self.pl_path(m, func);
        let mut values = Vec::new();
        for a in args {
            if !matches!(a.kind, ArgKind::Positional) {
                continue;
            }
            values.push(self.eval_const_in(m, a.value, local)?);
        }
        let result = match (pl.as_deref(), callee.as_str(), values.as_slice()) {
            (Some("dynamic"), _, [Const::Str(name)]) => {
                // PyPTO's DynVar: the name must be a Python identifier.
                let text = self.name(*name).to_string();
                let mut chars = text.chars();
                let identifier = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
                    && chars.all(|c| c == '_' || c.is_alphanumeric());
                if !identifier {
                    let message = format!("DynVar name must be a valid identifier, got '{text}'");
                    self.error(Code::E0217, file, span, message, "not an identifier");
                    return None;
                }
                if !self.program.dynamic_dims.contains(name) {
                    self.shared_changed();
                    self.program.dynamic_dims.push(*name);
                }
                Some(Const::Dyn(*name))
            }
            (Some("const"), _, [v, ..]) => Some(v.clone()),
            (Some(path), _, []) if path.ends_with(".get_byte") => {
                DType::from_name(path.trim_end_matches(".get_byte")).map(|d| Const::Int(d.bytes()))
            }
            (None, "len", [Const::List(items) | Const::Tuple(items)]) => Some(Const::Int(items.len() as i64)),
            (None, "max", items) if !items.is_empty() => fold_extreme(items, true),
            (None, "min", items) if !items.is_empty() => fold_extreme(items, false),
            (None, "abs", [Const::Int(v)]) => Some(Const::Int(v.abs())),
            (None, "abs", [Const::Float(v)]) => Some(Const::Float(v.abs())),
            (None, "int", [v]) => match v {
                Const::Float(f) => Some(Const::Int(f.trunc() as i64)),
                other => other.as_int().map(Const::Int),
            },
            (None, "float", [Const::Int(v)]) => Some(Const::Float(*v as f64)),
            (None, "float", [Const::Float(v)]) => Some(Const::Float(*v)),
            // `float("inf")`, `float("-inf")`, `float("nan")`, `float("2.5")`.
            (None, "float", [Const::Str(s)]) => self.name(*s).trim().parse().ok().map(Const::Float),
            (None, "bool", [v]) => v.truthy().map(Const::Bool),
            (None, "sum", [Const::List(items) | Const::Tuple(items)]) => {
                items.iter().try_fold(Const::Int(0), |acc, x| consts::binary(BinOp::Add, &acc, x))
            }
            (None, "list", [Const::List(items) | Const::Tuple(items)]) => Some(Const::List(items.clone())),
            (None, "tuple", [Const::List(items) | Const::Tuple(items)]) => Some(Const::Tuple(items.clone())),
            (None, "range", bounds) => range_values(bounds).map(Const::List),
            _ => None,
        };
        if result.is_none() {
            let text = self.text_of(m, span).to_string();
            self.error(
                Code::E0218,
                file,
                span,
                format!("`{text}` cannot be computed at compile time"),
                "not a constant",
            );
        }
        result
    }

    /// Whether `-operand` is the smallest 64-bit integer while `operand` is past 64 bits
    /// (`-(2**63)`, `-9223372036854775808`): Python computes the operand without bounds,
    /// so the negation is a valid constant though the operand alone is E0218.
    pub(crate) fn negates_to_int_min(&self, m: ModuleId, operand: ast::ExprId) -> bool {
        self.wide_int(m, operand) == Some(-i128::from(i64::MIN))
    }

    /// An integer constant expression (literals, `+ - * **` and `<<`) computed in 128
    /// bits; `None` for anything else or past 128 bits.
    fn wide_int(&self, m: ModuleId, id: ast::ExprId) -> Option<i128> {
        let expr = self.ast(m).expr(id);
        match &expr.kind {
            E::Int => {
                let text: String = self.text_of(m, expr.span).chars().filter(|&c| c != '_').collect();
                text.parse::<i128>().ok().or_else(|| match parse_int(&text) {
                    Some(Const::Int(v)) => Some(i128::from(v)),
                    _ => None,
                })
            }
            E::Unary { op: UnaryOp::Neg, operand } => self.wide_int(m, *operand)?.checked_neg(),
            E::Unary { op: UnaryOp::Pos, operand } => self.wide_int(m, *operand),
            E::Binary { op, lhs, rhs } => {
                let (x, y) = (self.wide_int(m, *lhs)?, self.wide_int(m, *rhs)?);
                match op {
                    ast::BinOp::Add => x.checked_add(y),
                    ast::BinOp::Sub => x.checked_sub(y),
                    ast::BinOp::Mul => x.checked_mul(y),
                    ast::BinOp::Pow => x.checked_pow(u32::try_from(y).ok()?),
                    ast::BinOp::LShift if (0..127).contains(&y) => x.checked_mul(1i128 << y),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(crate) fn text_of(&self, m: ModuleId, span: Span) -> &str {
        &self.files().get(self.modules[m].file).text[span.lo as usize..span.hi as usize]
    }

    /// The value of a plain string literal (adjacent pieces joined, escapes decoded).
    pub(crate) fn string_value(&self, m: ModuleId, pieces: ast::Seq<ast::StrPiece>) -> Option<String> {
        let pieces = self.ast(m).list(pieces);
        if let [one] = pieces {
            return decode_string(self.text_of(m, one.span));
        }
        let mut out = String::new();
        for p in pieces {
            out.push_str(&decode_string(self.text_of(m, p.span))?);
        }
        Some(out)
    }

    // ------------------------------------------------------------ decorators

    /// `@pl.program` / `@pl.program(strict_ssa=...)`: `Some(strict_ssa)` when the class is a
    /// pl program.
    pub(crate) fn program_decorator(&mut self, m: ModuleId, deco: &ast::Decorator) -> Option<bool> {
        let file = self.modules[m].file;
        let (target, args) = self.split_call(m, deco.expr);
        let path = self.pl_path(m, target)?;
        if path != "program" {
            self.error(
                Code::E0212,
                file,
                deco.span,
                format!("`@pl.{path}` does not apply to a class"),
                "use `@pl.program`",
            );
            return None;
        }
        let mut strict = false;
        for a in args {
            match a.kind {
                ArgKind::Keyword(k) if self.name(k.name) == "strict_ssa" => {
                    strict = self.bool_literal(m, a.value, "strict_ssa")?
                }
                _ => {
                    let text = self.text_of(m, a.span).to_string();
                    self.error_help(
                        Code::E0212,
                        file,
                        a.span,
                        format!("`@pl.program` does not take `{text}`"),
                        "unexpected argument",
                        "`@pl.program` takes only `strict_ssa=True`",
                    );
                }
            }
        }
        Some(strict)
    }

    /// The kind, explicit level and role, and options of a function decorator (the level
    /// and role the kind implies are the caller's to fill in).
    /// For `@pl.jit.extern(core_type="mixed")` the declaration is the Group's, with its
    /// members' beside it. Last, the decorator's path after `pl.` (`"jit.incore"`).
    pub(crate) fn function_decorator(
        &mut self,
        m: ModuleId,
        deco: &ast::Decorator,
    ) -> Option<(FuncDecl, Option<MixedExtern>, String)> {
        let file = self.modules[m].file;
        let (target, args) = self.split_call(m, deco.expr);
        let path = self.pl_path(m, target)?;
        let (mut auto_scope, mut strict_ssa) = (None, false);
        // The attributes an external kernel keeps from `attrs={...}` (PyPTO's printed
        // form of `include_dirs=` and `dual_aiv_dispatch=`).
        let mut kernel_attrs = None;
        let (mut kind, allows) = match path.as_str() {
            "jit" => (FuncKind::Orchestration, &["auto_scope"][..]),
            "jit.incore" => (FuncKind::InCore, &["level"][..]),
            "jit.inline" => (FuncKind::Inline, &["auto_scope"][..]),
            "jit.opaque" => (FuncKind::Opaque, &[][..]),
            "jit.graph" => (FuncKind::Graph, &[][..]),
            // A host-level orchestrator: an Opaque function at level HOST.
            "jit.host" => (FuncKind::Opaque, &["auto_scope"][..]),
            // An external kernel: an AIV (or AIC) signature whose kernel is a C++ file.
            "jit.extern" => (FuncKind::Aiv, &JIT_EXTERN_KEYS[..]),
            "function" => (FuncKind::Opaque, &["type", "level", "role", "auto_scope", "strict_ssa", "attrs"][..]),
            "inline" => (FuncKind::Inline, &[][..]),
            other => {
                self.error_help(
                    Code::E0212,
                    file,
                    deco.span,
                    format!("`@pl.{other}` is not a decorator plc knows"),
                    "unknown decorator",
                    "pl functions are decorated with @pl.jit, @pl.jit.graph, @pl.jit.inline, @pl.jit.incore, @pl.jit.opaque, @pl.jit.extern or @pl.function",
                );
                return None;
            }
        };
        // `external_source=`: the argument and its value, checked once the kind is known.
        let mut external = None;
        // The keyword arguments of `@pl.jit.extern`, read once all are known.
        let mut extern_args: Vec<(&'static str, ast::Arg)> = Vec::new();
        let (mut level, mut role) =
            if path == "jit.host" { (Some(Level::Host), Some(Role::Orchestrator)) } else { (None, None) };
        for a in args {
            let ArgKind::Keyword(k) = a.kind else {
                let text = self.text_of(m, a.span).to_string();
                self.error(
                    Code::E0212,
                    file,
                    a.span,
                    format!("`@pl.{path}` takes keyword arguments only, not `{text}`"),
                    "positional argument",
                );
                continue;
            };
            let key = self.name(k.name).to_string();
            if path == "function" && key == "external_source" {
                external = Some((a.span, a.value));
                continue;
            }
            if !allows.contains(&key.as_str()) {
                let message = match key.as_str() {
                    "level" => format!("@pl.{path} does not accept a level= argument"),
                    "auto_scope" => format!(
                        "@pl.{path} does not accept an auto_scope= argument (auto_scope is only meaningful for the Orchestration entry, the HOST orchestrator, and inline sub-functions)"
                    ),
                    _ => format!("@pl.{path} does not accept a {key}= argument"),
                };
                self.error(Code::E0212, file, a.span, message, "unexpected argument");
                continue;
            }
            if let Some(&extern_key) = JIT_EXTERN_KEYS.iter().find(|&&k| path == "jit.extern" && k == key) {
                extern_args.push((extern_key, a));
                continue;
            }
            match key.as_str() {
                "type" => match self.enum_arg(m, a.value) {
                    Some(Const::Enum(EnumValue::FuncKind(k))) => kind = k,
                    _ => self.not_an_enum(
                        m,
                        a.value,
                        "type",
                        "FunctionType.<kind>",
                        ("function type", "kinds", FuncKind::names()),
                    ),
                },
                "level" => match self.enum_arg(m, a.value) {
                    Some(Const::Enum(EnumValue::Level(l))) => level = Some(l),
                    Some(Const::None) => {}
                    _ => self.not_an_enum(m, a.value, "level", "Level.<name>", ("level", "levels", Level::names())),
                },
                "role" => match self.enum_arg(m, a.value) {
                    Some(Const::Enum(EnumValue::Role(r))) => role = Some(r),
                    Some(Const::None) => {}
                    _ => self.not_an_enum(m, a.value, "role", "Role.<name>", ("role", "roles", Role::names())),
                },
                "auto_scope" => auto_scope = Some(self.bool_literal(m, a.value, "auto_scope")?),
                "strict_ssa" => strict_ssa = self.bool_literal(m, a.value, "strict_ssa")?,
                "attrs" if !matches!(self.ast(m).expr(a.value).kind, E::Dict(_) | E::None) => {
                    let vspan = self.ast(m).expr(a.value).span;
                    self.error(
                        Code::E0212,
                        file,
                        vspan,
                        "'attrs=' of @pl.function must be a dict literal",
                        "not a dict",
                    );
                    return None;
                }
                "attrs" if !self.decorator_attr_keys_ok(m, a.value) => return None,
                "attrs" => kernel_attrs = Some(a.value),
                _ => {}
            }
        }
        let mut decl = FuncDecl { auto_scope, strict_ssa, ..FuncDecl::new(kind, level, role) };
        if path != "jit.extern" {
            decl.external_source = external.and_then(|(arg, value)| self.external_source(m, kind, arg, value));
            if let (Some(_), Some(attrs)) = (&decl.external_source, kernel_attrs) {
                self.external_kernel_attrs(m, attrs, &mut decl)?;
            }
            return Some((decl, None, path));
        }
        let JitExtern { sources, include_dirs } = self.jit_extern(m, deco.span, &extern_args)?;
        let kernel = |kind, source| FuncDecl {
            external_source: Some(source),
            include_dirs: include_dirs.clone(),
            ..FuncDecl::new(kind, level, role)
        };
        match sources {
            ExternSources::Single { kind, source } => Some((kernel(kind, source), None, path)),
            ExternSources::Mixed { aic, aiv, dual_aiv_dispatch } => {
                let aic = kernel(FuncKind::Aic, aic);
                let aiv = FuncDecl { dual_aiv_dispatch, ..kernel(FuncKind::Aiv, aiv) };
                Some((FuncDecl::new(FuncKind::Group, level, role), Some(MixedExtern { aic, aiv }), path))
            }
        }
    }

    /// The attributes of `@pl.function(external_source=..., attrs={...})` an external
    /// kernel keeps, as PyPTO's specializer writes them for `@pl.jit.extern`:
    /// `"external_include_dirs"`, a JSON list of existing directories (a string), and
    /// `"dual_aiv_dispatch"`, a bool literal. `None` after an E0212.
    fn external_kernel_attrs(&mut self, m: ModuleId, attrs: ast::ExprId, decl: &mut FuncDecl) -> Option<()> {
        let E::Dict(entries) = self.ast(m).expr(attrs).kind.clone() else { return Some(()) };
        for entry in entries {
            let Some(key) = entry.key else { continue };
            let key = match self.string_arg(m, key)? {
                Some(k) => k,
                None => continue,
            };
            if key == DUAL_AIV_DISPATCH_ATTR {
                decl.dual_aiv_dispatch = self.bool_literal(m, entry.value, DUAL_AIV_DISPATCH_ATTR)?;
                continue;
            }
            if key != EXTERNAL_INCLUDE_DIRS_ATTR {
                continue;
            }
            let list =
                self.string_arg(m, entry.value)?.and_then(|text| serde_json::from_str::<Vec<String>>(&text).ok());
            let Some(list) = list else {
                let message = format!("{EXTERNAL_INCLUDE_DIRS_ATTR} must encode a list of strings as JSON");
                self.expr_error(Code::E0212, m, entry.value, message, "not a JSON list of paths");
                return None;
            };
            for written in list {
                let path = self.beside_module(m, &written);
                if !path.is_dir() {
                    let message = format!("external kernel include directory not found: `{}`", path.display());
                    self.expr_error(Code::E0212, m, entry.value, message, "no such directory");
                    return None;
                }
                decl.include_dirs.push(absolute(path));
            }
        }
        Some(())
    }

    /// `external_source="k.cpp"` of an external kernel (PyPTO's `_resolve_external_source`
    /// and its parser's checks): valid on an AIC or AIV function only, naming an existing
    /// file ([`Lowering::kernel_source_file`]). The absolute path, or `None` after an E0212.
    fn external_source(&mut self, m: ModuleId, kind: FuncKind, arg: Span, value: ast::ExprId) -> Option<String> {
        let file = self.modules[m].file;
        if !matches!(kind, FuncKind::Aic | FuncKind::Aiv) {
            self.error_help(
                Code::E0212,
                file,
                arg,
                format!(
                    "external_source is only valid on FunctionType.AIC or FunctionType.AIV, got FunctionType.{kind}"
                ),
                "external kernel of another kind",
                "declare the external kernel with type=pl.FunctionType.AIC or type=pl.FunctionType.AIV",
            );
            return None;
        }
        self.kernel_source_file(m, value, "'external_source=' of @pl.function", "@pl.function(external_source=...)")
    }

    /// `@pl.jit.extern(core_type="aiv", source="k.cpp", ...)` (PyPTO's
    /// `_ExternKernelDecorator`): the kernel's kind and file (absolute) with its include
    /// directories, or for `core_type="mixed"` its two files. `core_type` is "aic", "aiv"
    /// (the default) or "mixed". A single kernel's file is `source=`, else `aic_source=` or
    /// `aiv_source=` (in that order, as PyPTO reads them); a mixed one needs both
    /// `aic_source=` and `aiv_source=`, and only it may set `dual_aiv_dispatch=True`.
    /// `include_dirs=` lists existing directories. Each refusal is E0212.
    fn jit_extern(&mut self, m: ModuleId, deco: Span, args: &[(&'static str, ast::Arg)]) -> Option<JitExtern> {
        let file = self.modules[m].file;
        let arg = |key: &str| args.iter().find(|(k, _)| *k == key).map(|(_, a)| Arg { span: a.span, value: a.value });
        let mut core = Some(FuncKind::Aiv);
        if let Some(a) = arg("core_type") {
            let text = {
                let span = self.ast(m).expr(a.value).span;
                self.text_of(m, span).to_string()
            };
            match self.string_arg(m, a.value)?.as_deref() {
                Some("aic") => core = Some(FuncKind::Aic),
                Some("aiv") => {}
                // Mixed: an AIC member, an AIV member and the Group calling both.
                Some("mixed") => core = None,
                _ => {
                    let message = format!("@pl.jit.extern core_type must be 'aic', 'aiv', or 'mixed', got {text}");
                    self.expr_error(Code::E0212, m, a.value, message, "no such core type");
                    return None;
                }
            }
        }
        let mut dual_aiv_dispatch = false;
        if let Some(a) = arg("dual_aiv_dispatch") {
            dual_aiv_dispatch = self.bool_literal(m, a.value, "dual_aiv_dispatch")?;
            if dual_aiv_dispatch && core.is_some() {
                let message = "@pl.jit.extern dual_aiv_dispatch=True requires core_type='mixed'";
                self.error(Code::E0212, file, a.span, message, "not a mixed kernel");
                return None;
            }
        }
        let what = "'source=' of @pl.jit.extern";
        let who = "@pl.jit.extern source";
        let sources = match core {
            None => {
                let (Some(aic), Some(aiv)) = (arg("aic_source"), arg("aiv_source")) else {
                    self.error_help(
                        Code::E0212,
                        file,
                        deco,
                        "@pl.jit.extern(core_type='mixed') requires both aic_source= and aiv_source=",
                        "no kernel source for a core",
                        "name both halves' C++ files: @pl.jit.extern(core_type=\"mixed\", aic_source=\"k_aic.cpp\", aiv_source=\"k_aiv.cpp\")",
                    );
                    return None;
                };
                let aic = self.kernel_source_file(m, aic.value, "'aic_source=' of @pl.jit.extern", who)?;
                let aiv = self.kernel_source_file(m, aiv.value, "'aiv_source=' of @pl.jit.extern", who)?;
                ExternSources::Mixed { aic, aiv, dual_aiv_dispatch }
            }
            Some(kind) => {
                let Some(source) = arg("source").or(arg("aic_source")).or(arg("aiv_source")) else {
                    let core_name = if kind == FuncKind::Aic { "aic" } else { "aiv" };
                    self.error_help(
                        Code::E0212,
                        file,
                        deco,
                        format!("@pl.jit.extern(core_type='{core_name}') requires source="),
                        "no kernel source",
                        "name the kernel's C++ file: @pl.jit.extern(core_type=\"aiv\", source=\"kernels/k.cpp\")",
                    );
                    return None;
                };
                ExternSources::Single { kind, source: self.kernel_source_file(m, source.value, what, who)? }
            }
        };
        let include_dirs = match arg("include_dirs") {
            Some(a) => self.extern_include_dirs(m, a.value)?,
            None => Vec::new(),
        };
        Some(JitExtern { sources, include_dirs })
    }

    /// `include_dirs=[...]` of `@pl.jit.extern`: a list or tuple of strings naming existing
    /// directories, absolute or relative to the file defining the kernel (PyPTO's
    /// `_resolve_extern_include_dirs`): the absolute paths in order, or `None` after an
    /// E0212.
    fn extern_include_dirs(&mut self, m: ModuleId, value: ast::ExprId) -> Option<Vec<String>> {
        let items = match &self.ast(m).expr(value).kind {
            E::None => return Some(Vec::new()),
            E::List(items) | E::Tuple(items) => self.ast(m).list(*items).to_vec(),
            _ => {
                let message = "@pl.jit.extern include_dirs must be a sequence of paths (a list of strings)";
                self.expr_error(Code::E0212, m, value, message, "not a list");
                return None;
            }
        };
        let mut dirs = Vec::with_capacity(items.len());
        for item in items {
            let Some(written) = self.string_arg(m, item)? else {
                self.expr_error(Code::E0212, m, item, "an include directory must be a string", "not a string");
                return None;
            };
            let path = self.beside_module(m, &written);
            if !path.is_dir() {
                let d = self.expr_error(
                    Code::E0212,
                    m,
                    item,
                    format!("@pl.jit.extern include directory not found: `{}`", path.display()),
                    "no such directory",
                );
                d.help = Some("give absolute paths, or paths relative to the file defining the kernel".to_string());
                return None;
            }
            dirs.push(absolute(path));
        }
        Some(dirs)
    }

    /// A string argument of a decorator, as Python evaluates it: a plain literal or a module
    /// constant holding one (`Some(None)` for another value; `None` when the evaluation of a
    /// name reported an error).
    fn string_arg(&mut self, m: ModuleId, value: ast::ExprId) -> Option<Option<String>> {
        Some(match &self.ast(m).expr(value).kind {
            E::Str(pieces) if self.ast(m).list(*pieces).iter().all(|p| p.kind == ast::StrKind::Plain) => {
                let pieces = *pieces;
                self.string_value(m, pieces)
            }
            E::Name(_) | E::Attribute { .. } => match self.eval_const(m, value)? {
                Const::Str(s) => Some(self.name(s).to_string()),
                _ => None,
            },
            _ => None,
        })
    }

    /// `written` as a path: itself when absolute, else relative to the directory of the file
    /// defining module `m` (to the working directory for a text without a file).
    fn beside_module(&self, m: ModuleId, written: &str) -> std::path::PathBuf {
        let written_path = std::path::Path::new(written);
        match self.modules[m].path.as_ref().and_then(|p| p.parent()) {
            Some(dir) if written_path.is_relative() => dir.join(written_path),
            _ => written_path.to_path_buf(),
        }
    }

    /// The C++ file of an external kernel, named by `value`: a string (a literal or a module
    /// constant) naming an existing file ([`Lowering::beside_module`]). The absolute path, or
    /// `None` after an E0212; `what` names the argument and `who` the decorator in messages.
    fn kernel_source_file(&mut self, m: ModuleId, value: ast::ExprId, what: &str, who: &str) -> Option<String> {
        let Some(written) = self.string_arg(m, value)? else {
            let message = format!("{what} must be a string naming the kernel's C++ file");
            self.expr_error(Code::E0212, m, value, message, "not a string");
            return None;
        };
        let path = self.beside_module(m, &written);
        if !path.is_file() {
            let d = self.expr_error(
                Code::E0212,
                m,
                value,
                format!("{who} file not found: `{}`", path.display()),
                "no such file",
            );
            d.help = Some("give an absolute path, or one relative to the file defining the program".to_string());
            return None;
        }
        Some(absolute(path))
    }

    /// The keys of `@pl.function(attrs={...})` (ops.md §4.2 `_normalize_attrs`,
    /// `_extract_function_attrs_from_decorator`): strings, no `**` unpacking (E0212).
    /// `false` after reporting.
    fn decorator_attr_keys_ok(&mut self, m: ModuleId, value: ast::ExprId) -> bool {
        let E::Dict(entries) = self.ast(m).expr(value).kind.clone() else { return true };
        for entry in entries {
            let Some(key) = entry.key else {
                let message = "Unsupported '**' unpacking in '@pl.function(attrs={...})'";
                self.expr_error(Code::E0212, m, entry.value, message, "unpacked mapping");
                return false;
            };
            // A name is evaluated, as Python runs a decorator outside a program class.
            let string = match &self.ast(m).expr(key).kind {
                E::Str(p) => self.ast(m).list(*p).iter().all(|p| p.kind == ast::StrKind::Plain),
                E::Name(_) | E::Attribute { .. } => match self.eval_const(m, key) {
                    Some(c) => matches!(c, Const::Str(_)),
                    None => return false,
                },
                _ => false,
            };
            if !string {
                let text = self.text_of(m, self.ast(m).expr(key).span).to_string();
                let message = format!("Attrs dict key must be a string literal, got {text}");
                self.expr_error(Code::E0212, m, key, message, "not a string literal");
                return false;
            }
        }
        true
    }

    /// An enum-valued argument (`pl.Level.CHIP`, `Level.CHIP`, `None`).
    /// E0212 on a decorator's `key=` whose value is not `pl.<form>`: `what` says what it is
    /// not (`a level`), with the valid names (`valid levels: ...`).
    fn not_an_enum(&mut self, m: ModuleId, e: ast::ExprId, key: &str, form: &str, what: (&str, &str, String)) {
        let (what, plural, names) = what;
        let d = self.expr_error(Code::E0212, m, e, format!("`{key}=` must be `pl.{form}`"), format!("not a {what}"));
        d.help = Some(format!("valid {plural}: {names}"));
    }

    fn enum_arg(&mut self, m: ModuleId, e: ast::ExprId) -> Option<Const> {
        // `Level.CHIP` / `FunctionType.X` without the `pl.` prefix, as PyPTO allows.
        if let Some(dotted) = self.dotted(m, e) {
            if let Some((family, member)) = dotted.split_once('.') {
                if let Some(v) = EnumValue::lookup(family, member) {
                    return Some(Const::Enum(v));
                }
            }
        }
        self.eval_const(m, e)
    }

    fn bool_literal(&mut self, m: ModuleId, e: ast::ExprId, what: &str) -> Option<bool> {
        match self.ast(m).expr(e).kind {
            E::True => Some(true),
            E::False => Some(false),
            _ => {
                let message = format!("`{what}=` must be a bool literal (True/False)");
                self.expr_error(Code::E0212, m, e, message, "not True or False");
                None
            }
        }
    }

    /// A decorator `@f(args)` as `(f, args)`; `@f` as `(f, [])`.
    pub(crate) fn split_call(&self, m: ModuleId, e: ast::ExprId) -> (ast::ExprId, Vec<ast::Arg>) {
        match &self.ast(m).expr(e).kind {
            E::Call { func, args } => (*func, self.ast(m).list(*args).to_vec()),
            _ => (e, Vec::new()),
        }
    }

    // ------------------------------------------------------------ annotations

    /// A parameter annotation: its type and direction.
    pub(crate) fn param_type(
        &mut self,
        m: ModuleId,
        e: ast::ExprId,
        scalars: &FxHashSet<Symbol>,
    ) -> Option<(TypeId, Direction)> {
        if let E::Subscript { value, index } = self.ast(m).expr(e).kind.clone() {
            let wrapper = self.pl_path(m, value).or_else(|| self.dotted(m, value));
            let dir = match wrapper.as_deref() {
                Some("Out") => Some(Direction::Out),
                Some("InOut") => Some(Direction::InOut),
                _ => None,
            };
            if let Some(dir) = dir {
                return Some((self.value_type(m, index, scalars)?, dir));
            }
        }
        Some((self.value_type(m, e, scalars)?, Direction::In))
    }

    /// The annotation of a local variable: a value type, or a tuple of them
    /// (`tuple[...]` / `pl.Tuple[...]`, for a value a call returns several of).
    /// `scalars` are the integer scalar variables in scope, which a shape may name as
    /// run-time extents (`pl.Tensor[[n], pl.FP32]`).
    pub(crate) fn local_type(&mut self, m: ModuleId, e: ast::ExprId, scalars: &FxHashSet<Symbol>) -> Option<TypeId> {
        match self.tuple_items(m, e) {
            Some(_) => {
                let types = self.annotated_types(m, e, scalars)?;
                Some(self.program.types.intern(Type::Tuple(types)))
            }
            None => self.value_type(m, e, scalars),
        }
    }

    /// The value types of a `tuple[...]` / `pl.Tuple[...]` annotation's items, or the one
    /// value type of another annotation.
    fn annotated_types(&mut self, m: ModuleId, e: ast::ExprId, scalars: &FxHashSet<Symbol>) -> Option<Vec<TypeId>> {
        let Some(items) = self.tuple_items(m, e) else { return Some(vec![self.value_type(m, e, scalars)?]) };
        items.into_iter().map(|item| self.value_type(m, item, scalars)).collect()
    }

    /// The element annotations of `tuple[A, B]` / `pl.Tuple[A, B]`; `None` for another
    /// annotation.
    fn tuple_items(&self, m: ModuleId, e: ast::ExprId) -> Option<Vec<ast::ExprId>> {
        let E::Subscript { value, index } = self.ast(m).expr(e).kind else { return None };
        let head = self.pl_path(m, value).or_else(|| self.dotted(m, value));
        if !matches!(head.as_deref(), Some("tuple" | "Tuple")) {
            return None;
        }
        Some(match &self.ast(m).expr(index).kind {
            E::Tuple(items) => self.ast(m).list(*items).to_vec(),
            _ => vec![index],
        })
    }

    /// A return annotation: one type, or several for `tuple[...]` / `pl.Tuple[...]`.
    pub(crate) fn return_types(&mut self, m: ModuleId, e: ast::ExprId) -> Option<Vec<TypeId>> {
        let file = self.modules[m].file;
        let expr = self.ast(m).expr(e).clone();
        if matches!(expr.kind, E::None) {
            self.error_help(
                Code::E0207,
                file,
                expr.span,
                "`-> None` is not a pl return annotation",
                "unsupported annotation",
                "leave the return annotation out when the function returns nothing",
            );
            return None;
        }
        self.annotated_types(m, e, &FxHashSet::default())
    }

    /// A value type: `pl.Tensor[...]`, bare `pl.Tensor`, `pl.Tile[...]`, `pl.Scalar[...]`,
    /// `pl.TaskId`, `pl.Array[...]`, or a bare dtype (a scalar).
    pub(crate) fn value_type(&mut self, m: ModuleId, e: ast::ExprId, scalars: &FxHashSet<Symbol>) -> Option<TypeId> {
        let file = self.modules[m].file;
        // The module's tree, read by reference (not a copy of the node) while the type is
        // made.
        let tree = std::sync::Arc::clone(&self.modules[m].ast);
        let expr = tree.expr(e);
        let (head, index) = match expr.kind {
            E::Subscript { value, index } => (value, Some(index)),
            _ => (e, None),
        };
        // `pld.DistributedTensor[...]` is written like a tensor and typed as one that every
        // rank can reach.
        let mut distributed = false;
        let path = self.pl_path(m, head).or_else(|| {
            self.pld_path(m, head).map(|p| {
                if p == "DistributedTensor" {
                    distributed = true;
                    "Tensor".to_string()
                } else {
                    p
                }
            })
        });
        let items: &[ast::ExprId] = match &index {
            Some(i) => match &tree.expr(*i).kind {
                E::Tuple(items) => tree.list(*items),
                _ => std::slice::from_ref(i),
            },
            None => &[],
        };
        let ty = match (path.as_deref(), index) {
            (Some("Tensor"), None) => Type::Tensor { shape: None, dtype: None, distributed, layout: Layout::Nd },
            (Some("Tensor"), Some(_)) => self.tensor_annotation(m, expr, items, scalars, distributed)?,
            (Some("Tile"), Some(_)) => {
                if !(2..=5).contains(&items.len()) {
                    self.error(
                        Code::E0207,
                        file,
                        expr.span,
                        "Tile subscript requires [shape, dtype, ...]",
                        "malformed tile type",
                    );
                    return None;
                }
                let shape = self.shape(m, items[0], scalars)?;
                let dtype = self.dtype(m, items[1])?;
                let memory = self.tile_extras(m, &items[2..])?;
                Type::Tile { shape, dtype, memory }
            }
            (Some("Scalar"), Some(_)) if items.len() == 1 => Type::Scalar(self.dtype(m, items[0])?),
            (Some("TaskId"), None) => Type::Scalar(DType::TaskId),
            // The address `pl.tile.alloc` gives, which a `pl.MemRef(...)` names.
            (Some("Ptr"), None) => Type::Unknown,
            // The prefetch handles, as PyPTO prints them (also their `*Type` spellings).
            (Some("PrefetchAsyncContext" | "PrefetchAsyncContextType"), None) => Type::Handle(Handle::PrefetchContext),
            (Some("AsyncEvent" | "AsyncEventType"), None) => Type::Handle(Handle::AsyncEvent),
            (Some("AsyncSession" | "AsyncSessionType"), None) => Type::Handle(Handle::AsyncSession),
            // A communication context parameter (`pld.CommCtx`, or the raw `pld.CommCtxType`).
            (Some("CommCtx" | "CommCtxType"), None) => Type::Handle(Handle::CommCtx),
            (Some("Array"), Some(_)) if items.len() == 2 => {
                let len = match self.eval_const(m, items[0])? {
                    Const::Int(n) if n >= 0 => n as u32,
                    _ => {
                        self.error(
                            Code::E0207,
                            file,
                            expr.span,
                            "the length of a pl.Array must be a non-negative integer",
                            "bad length",
                        );
                        return None;
                    }
                };
                Type::Array { len, dtype: self.dtype(m, items[1])? }
            }
            (Some(p), None) if DType::from_name(p).is_some() => Type::Scalar(DType::from_name(p).expect("checked")),
            (Some(p @ ("Tile" | "Scalar" | "Array")), None) => {
                self.error_help(
                    Code::E0207,
                    file,
                    expr.span,
                    format!("incomplete type annotation: pl.{p}"),
                    "needs its parameters",
                    match p {
                        "Tile" => "write pl.Tile[[rows, cols], pl.FP32]".to_string(),
                        "Scalar" => "write pl.Scalar[pl.INDEX]".to_string(),
                        _ => "write pl.Array[16, pl.INT32]".to_string(),
                    },
                );
                return None;
            }
            _ => {
                let text = self.text_of(m, expr.span).to_string();
                let tuple = path.as_deref().is_some_and(|p| p.ends_with("Tuple"))
                    || self.dotted(m, head).as_deref() == Some("tuple");
                let d = self.error(Code::E0207, file, expr.span, format!("`{text}` is not a pl type"), "unknown type");
                d.help = Some("pl types are pl.Tensor[[dims], dtype], pl.Tile[[dims], dtype], pl.Scalar[dtype] and the dtypes such as pl.INDEX".to_string());
                if tuple {
                    d.help = Some("a parameter cannot be a tuple; pass its parts as separate parameters".to_string());
                }
                return None;
            }
        };
        // Most annotations of a program are alike (`pl.Tensor`): the last one's id is
        // tried before the type table.
        if let Some(id) = self.last_value_type {
            if *self.program.types.get(id) == ty {
                return Some(id);
            }
        }
        let id = self.program.types.intern(ty);
        self.last_value_type = Some(id);
        Some(id)
    }

    /// The type of a `pl.Tensor[...]` annotation with its subscript `items`: `[shape,
    /// dtype]` and an optional layout or memref, or the older `[dtype, extents...]`.
    fn tensor_annotation(
        &mut self,
        m: ModuleId,
        expr: &ast::Expr,
        items: &[ast::ExprId],
        scalars: &FxHashSet<Symbol>,
        distributed: bool,
    ) -> Option<Type> {
        let file = self.modules[m].file;
        if !(2..=4).contains(&items.len()) {
            let text = self.text_of(m, expr.span).to_string();
            self.error(
                Code::E0207,
                file,
                expr.span,
                format!("Tensor subscript requires [shape, dtype], [shape, dtype, layout_or_memref], or [shape, dtype, layout, memref], got: {text}"),
                "malformed tensor type",
            );
            return None;
        }
        // An older form puts the dtype first and the extents after it:
        // `pl.Tensor[pl.FP32, 64, 1]`.
        if self.dotted(m, items[0]).is_some_and(|d| DType::from_name(d.rsplit('.').next().unwrap_or("")).is_some()) {
            let dtype = self.dtype(m, items[0])?;
            let mut shape = Vec::new();
            for &d in &items[1..] {
                let v = self.eval_const(m, d)?;
                shape.push(const_dim(&v).unwrap_or(Dim::Unknown));
            }
            return Some(Type::Tensor { shape: Some(shape), dtype: Some(dtype), distributed, layout: Layout::Nd });
        }
        let shape = self.shape(m, items[0], scalars)?;
        let dtype = self.dtype(m, items[1])?;
        let mut layout = Layout::Nd;
        for &extra in &items[2..] {
            if self.dotted(m, extra).is_some_and(|d| d.rsplit('.').next() == Some("DN")) {
                let span = self.ast(m).expr(extra).span;
                self.error_help(
                    Code::E0207,
                    file,
                    span,
                    "pl.Tensor[..., pl.DN] is refused: the DN shorthand mixes two coordinate systems",
                    "DN layout",
                    "describe the layout with pl.TensorView(stride=..., layout=pl.TensorLayout.DN)",
                );
                return None;
            }
            if !self.tensor_layout_ok(m, extra) {
                return None;
            }
            if let E::Call { func, args } = self.ast(m).expr(extra).kind.clone() {
                let args = self.ast(m).list(args).to_vec();
                match self.pl_path(m, func).as_deref() {
                    Some("MemRef") if !self.memref_ok(m, extra, &args) => return None,
                    Some("TensorView") if !self.view_ok(m, extra, &args, false) => return None,
                    Some("TensorView") => {
                        let given = args
                            .iter()
                            .find(|a| matches!(a.kind, ArgKind::Keyword(k) if self.name(k.name) == "layout"));
                        layout = given.and_then(|a| self.layout_of(m, a.value)).unwrap_or(layout);
                    }
                    _ => {}
                }
            } else if let Some(l) = self.layout_of(m, extra) {
                layout = l;
            }
        }
        Some(Type::Tensor { shape: Some(shape), dtype: Some(dtype), distributed, layout })
    }

    /// The tensor layout an annotation item names (`pl.NZ`, `pl.TensorLayout.DN`, a module
    /// constant holding one); `None` for anything else.
    fn layout_of(&mut self, m: ModuleId, e: ast::ExprId) -> Option<Layout> {
        if !matches!(self.ast(m).expr(e).kind, E::Name(_) | E::Attribute { .. }) {
            return None;
        }
        match self.eval_const(m, e)? {
            Const::Enum(EnumValue::Layout(l)) => Some(l),
            _ => None,
        }
    }

    /// An extra item of a Tensor annotation spelled as a `pl` attribute (`pl.NZ`,
    /// `pl.TensorLayout.ND`) names a known layout (ops.md §4.2 `resolve_layout`, *Unknown
    /// layout*): E0206 otherwise. Calls (`pl.MemRef(...)`, `pl.TensorView(...)`) and other
    /// forms are left to their own rules.
    fn tensor_layout_ok(&mut self, m: ModuleId, extra: ast::ExprId) -> bool {
        let e = self.ast(m).expr(extra).clone();
        if let E::Name(n) = e.kind {
            // A module constant holding something else than a layout (`L = 3`): PyPTO's
            // *Layout variable must be a TensorLayout*.
            let Some((Binding::Const(c), _)) = self.modules[m].names.get(&n) else { return true };
            if matches!(c, Const::Enum(_) | Const::Dyn(_)) {
                return true;
            }
            let what = c.describe(&self.session.interner);
            let file = self.modules[m].file;
            let message = format!("a layout variable must hold a pl.TensorLayout member, got {what}");
            let help = format!("the layouts are {}", crate::ir::Layout::names());
            self.error_help(Code::E0206, file, e.span, message, "not a layout", help);
            return false;
        }
        if !matches!(e.kind, E::Attribute { .. }) {
            return true;
        }
        let Some(path) = self.pl_path(m, extra) else { return true };
        let name = path.strip_prefix("TensorLayout.").unwrap_or(&path);
        if crate::ir::Layout::from_name(name).is_some() {
            return true;
        }
        let file = self.modules[m].file;
        let known = crate::ir::Layout::names();
        self.error_help(
            Code::E0206,
            file,
            e.span,
            format!("unknown tensor layout `pl.{path}`"),
            "not a layout",
            format!("the layouts are {known}"),
        );
        false
    }

    /// A dtype: `pl.FP32`, `FP32`, or a constant holding one.
    pub(crate) fn dtype(&mut self, m: ModuleId, e: ast::ExprId) -> Option<DType> {
        if let Some(dotted) = self.dotted(m, e) {
            let last = dotted.rsplit('.').next().unwrap_or("");
            if let Some(d) = DType::from_name(last) {
                return Some(d);
            }
        }
        match self.eval_const(m, e)? {
            Const::DType(d) => Some(d),
            other => {
                let what = other.describe(&self.session.interner);
                let message = format!("expected a dtype such as pl.FP32, found {what}");
                let d = self.expr_error(Code::E0206, m, e, message, "not a dtype");
                d.help = Some(format!("valid dtypes: {}", DType::names()));
                None
            }
        }
    }

    /// A shape: a list of extents (integers, constants, `pl.dynamic` dimensions, scalar
    /// parameters declared earlier), or a constant holding such a list.
    pub(crate) fn shape(&mut self, m: ModuleId, e: ast::ExprId, scalars: &FxHashSet<Symbol>) -> Option<Vec<Dim>> {
        let file = self.modules[m].file;
        let span = self.ast(m).expr(e).span;
        let items = match &self.ast(m).expr(e).kind {
            E::List(items) | E::Tuple(items) => self.ast(m).list(*items).to_vec(),
            _ => {
                return match self.eval_const(m, e)? {
                    Const::List(values) | Const::Tuple(values) => {
                        values.iter().map(const_dim).collect::<Option<Vec<_>>>().or_else(|| {
                            self.error(Code::E0207, file, span, "a shape must be a list of extents", "not a shape");
                            None
                        })
                    }
                    _ => {
                        self.error(
                            Code::E0207,
                            file,
                            span,
                            "a shape must be a list of extents, like [64, 128]",
                            "not a shape",
                        );
                        None
                    }
                };
            }
        };
        let mut dims = Vec::with_capacity(items.len());
        for item in items {
            // A scalar parameter named in a shape is a run-time extent.
            if let E::Name(n) = self.ast(m).expr(item).kind {
                let derived = matches!(self.modules[m].names.get(&n), Some((Binding::DynExtent(_), _)));
                if scalars.contains(&n) || derived {
                    dims.push(Dim::Unknown);
                    continue;
                }
            }
            // So is arithmetic on `pl.dynamic` dimensions or scalar parameters (`N * 2`),
            // which PyPTO keeps as a symbolic extent.
            if self.dynamic_arithmetic(m, item, scalars) {
                dims.push(Dim::Unknown);
                continue;
            }
            let v = self.eval_const(m, item)?;
            match const_dim(&v) {
                Some(Dim::Const(n)) if crate::ir::limits::check_extent(n, "the extent").is_err() => {
                    let item_span = self.ast(m).expr(item).span;
                    let message = crate::ir::limits::check_extent(n, "the extent").err().unwrap_or_default();
                    self.error(Code::E0229, file, item_span, format!("a shape's {}", &message[4..]), "out of range");
                    return None;
                }
                Some(d) => dims.push(d),
                None => {
                    let item_span = self.ast(m).expr(item).span;
                    let text = self.text_of(m, item_span).to_string();
                    if let Const::Host(value) = v {
                        let value = self.name(value).to_string();
                        self.error(
                            Code::E0222,
                            file,
                            item_span,
                            format!("`{text}` is `{value}`, a value of an outside library, which pl code cannot use"),
                            "outside-library value",
                        );
                        return None;
                    }
                    self.error(
                        Code::E0207,
                        file,
                        item_span,
                        format!("Shape dimension must be int literal, variable, or evaluable expression: {text}"),
                        "not an extent",
                    );
                    return None;
                }
            }
        }
        if let Err(message) = crate::ir::limits::check_shape(&dims, false) {
            self.error(Code::E0229, file, span, message, "beyond the target's limits");
            return None;
        }
        Some(dims)
    }
}

impl Lowering<'_> {
    /// Whether an extent is arithmetic (`+ - * // %`, unary minus) over integer literals,
    /// integer constants, `pl.dynamic` dimensions and scalar parameters, with at least one
    /// dimension or parameter: an extent known at run time. Walked with a stack, so that a
    /// long chain costs no recursion.
    pub(crate) fn dynamic_arithmetic(&self, m: ModuleId, item: ast::ExprId, scalars: &FxHashSet<Symbol>) -> bool {
        if !matches!(self.ast(m).expr(item).kind, E::Binary { .. } | E::Unary { .. }) {
            return false;
        }
        let mut dynamic = false;
        let mut stack = vec![item];
        while let Some(e) = stack.pop() {
            match &self.ast(m).expr(e).kind {
                E::Binary { op, lhs, rhs } => {
                    use ast::BinOp as B;
                    if !matches!(op, B::Add | B::Sub | B::Mul | B::FloorDiv | B::Mod) {
                        return false;
                    }
                    stack.push(*lhs);
                    stack.push(*rhs);
                }
                E::Unary { op: UnaryOp::Neg, operand } => stack.push(*operand),
                E::Int => {}
                E::Name(n) if scalars.contains(n) => dynamic = true,
                E::Name(n) => match self.modules[m].names.get(n) {
                    Some((Binding::Const(Const::Dyn(_)) | Binding::DynExtent(_), _)) => dynamic = true,
                    Some((Binding::Const(Const::Int(_)), _)) => {}
                    _ => return false,
                },
                _ => return false,
            }
        }
        dynamic
    }
}

/// `want` less its last dotted part when that part is `part`: `Some(None)` when `part`
/// was all of it, `Some(Some(rest))` for `rest.part`, `None` when it ends otherwise
/// (`is_pl_path`, without splitting `want`).
fn strip_last_part<'w>(want: &'w str, part: &str) -> Option<Option<&'w str>> {
    let rest = want.strip_suffix(part)?;
    if rest.is_empty() {
        return Some(None);
    }
    rest.strip_suffix('.').map(Some)
}

pub(crate) fn const_dim(v: &Const) -> Option<Dim> {
    match v {
        Const::Int(n) => Some(Dim::Const(*n)),
        Const::Dyn(name) => Some(Dim::Dyn(*name)),
        _ => None,
    }
}

fn fold_extreme(items: &[Const], max: bool) -> Option<Const> {
    let values: Vec<&Const> = match items {
        [Const::List(inner) | Const::Tuple(inner)] => inner.iter().collect(),
        _ => items.iter().collect(),
    };
    let mut best = values.first().copied()?.clone();
    for v in &values[1..] {
        let better = consts::binary(if max { BinOp::Gt } else { BinOp::Lt }, v, &best)?;
        if better == Const::Bool(true) {
            best = (*v).clone();
        }
    }
    Some(best)
}

fn range_values(bounds: &[Const]) -> Option<Vec<Const>> {
    let ints: Vec<i64> = bounds.iter().map(Const::as_int).collect::<Option<_>>()?;
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] if *step != 0 => (*start, *stop, *step),
        _ => return None,
    };
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(Const::Int(i));
        if out.len() > 1 << 20 {
            return None;
        }
        i += step;
    }
    Some(out)
}

pub(crate) fn ir_binop(op: ast::BinOp) -> Option<BinOp> {
    Some(match op {
        ast::BinOp::Add => BinOp::Add,
        ast::BinOp::Sub => BinOp::Sub,
        ast::BinOp::Mul => BinOp::Mul,
        ast::BinOp::Div => BinOp::Div,
        ast::BinOp::FloorDiv => BinOp::FloorDiv,
        ast::BinOp::Mod => BinOp::Mod,
        ast::BinOp::Pow => BinOp::Pow,
        ast::BinOp::LShift => BinOp::Shl,
        ast::BinOp::RShift => BinOp::Shr,
        ast::BinOp::BitAnd => BinOp::BitAnd,
        ast::BinOp::BitOr => BinOp::BitOr,
        ast::BinOp::BitXor => BinOp::BitXor,
        ast::BinOp::MatMul => return None,
    })
}

pub(crate) fn cmp_binop(op: ast::CmpOp) -> Option<BinOp> {
    Some(match op {
        ast::CmpOp::Eq => BinOp::Eq,
        ast::CmpOp::NotEq => BinOp::Ne,
        ast::CmpOp::Lt => BinOp::Lt,
        ast::CmpOp::Le => BinOp::Le,
        ast::CmpOp::Gt => BinOp::Gt,
        ast::CmpOp::Ge => BinOp::Ge,
        _ => return None,
    })
}

/// An integer literal's value (`0x1F`, `1_000`).
pub(crate) fn parse_int(text: &str) -> Option<Const> {
    // Plain decimal digits (nearly every literal): parsed as they are, without the copies
    // the other forms need.
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok().map(Const::Int);
    }
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    let value = if let Some(hex) = lower.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(oct) = lower.strip_prefix("0o") {
        i64::from_str_radix(oct, 8).ok()?
    } else if let Some(bin) = lower.strip_prefix("0b") {
        i64::from_str_radix(bin, 2).ok()?
    } else {
        clean.parse().ok()?
    };
    Some(Const::Int(value))
}

pub(crate) fn parse_float(text: &str) -> Option<Const> {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    clean.parse().ok().map(Const::Float)
}

/// Decodes one string literal token (prefix, quotes and escapes).
pub(crate) fn decode_string(token: &str) -> Option<String> {
    let prefix_len = token.find(['\'', '"'])?;
    let raw = token[..prefix_len].bytes().any(|b| b.eq_ignore_ascii_case(&b'r'));
    let body = &token[prefix_len..];
    let quote_len = if body.starts_with("'''") || body.starts_with("\"\"\"") { 3 } else { 1 };
    if body.len() < 2 * quote_len {
        return None;
    }
    let inner = &body[quote_len..body.len() - quote_len];
    // A raw string, or one without escapes (the usual), is its text.
    if raw || !inner.contains('\\') {
        return Some(inner.to_string());
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('\'') => out.push('\''),
            Some('"') => out.push('"'),
            Some('\n') => {}
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(parse_int("0x1F"), Some(Const::Int(31)));
        assert_eq!(parse_int("1_000"), Some(Const::Int(1000)));
        assert_eq!(parse_int("0b101"), Some(Const::Int(5)));
        assert_eq!(parse_float("1e-6"), Some(Const::Float(1e-6)));
        assert_eq!(decode_string("\"a\\tb\"").as_deref(), Some("a\tb"));
        assert_eq!(decode_string("r'\\d'").as_deref(), Some("\\d"));
        assert_eq!(decode_string("'''x'''").as_deref(), Some("x"));
    }
}
