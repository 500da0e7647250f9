//! `with` regions: `pl.at`, `pl.graph`, `pl.cluster`, `pl.spmd`, `pl.scope`,
//! `pl.manual_scope`, and the parser-level rules that need the source nesting, which is
//! visible only here: a graph region needs exactly one non-empty literal name that is an
//! identifier, takes no `as` and no other keyword than `dumps=`, and may not sit inside
//! another graph region, inside `pl.at`/`pl.cluster`/`pl.spmd`, or in a device kernel
//! (E0301–E0308).
//!
//! ```text
//! with pl.at(level=pl.Level.CORE_GROUP):
//!     with pl.graph("inner"):        error[E0306]: pl.graph() cannot be nested inside `pl.at(level=...)`
//! ```

use super::body::{FnLower, Frame, FrameKind};
use crate::diag::{Code, Label, Span};
use crate::intern::Symbol;
use crate::ir::ops::{self, Op};
use crate::ir::{
    Block, CallAttrs, Callee, DType, EnumValue, ExprId, ExprKind, ForKind, FuncKind, Level, Role, Scope, ScopeKind,
    ScopeMode, SplitMode, StmtKind, Type, Types,
};
use crate::syntax::ast::{self, ArgKind, ExprKind as E};

/// The keyword arguments each scope accepts (beyond those handled specially).
const AT_KEYWORDS: &[&str] = &[
    "level",
    "role",
    "name_hint",
    "deps",
    "optimizations",
    "no_dep_args",
    "dumps",
    "allow_early_resolve",
    "predicate",
    "windowize",
];
const SPMD_KEYWORDS: &[&str] =
    &["core_num", "sync_start", "name_hint", "optimizations", "deps", "dumps", "allow_early_resolve", "predicate"];

/// The keywords of `for i in pl.spmd(n, ...)`: those of the `with` form but `deps=`.
const SPMD_LOOP_KEYWORDS: &[&str] =
    &["core_num", "sync_start", "name_hint", "optimizations", "dumps", "allow_early_resolve", "predicate"];

/// A `with` statement's scope call: `pl.<path>(args)` as `item`, its body, and the
/// header's span (from `with` to the end of the item).
#[derive(Clone, Copy)]
struct ScopeHead<'a> {
    path: &'a str,
    item: &'a ast::WithItem,
    args: &'a [ast::Arg],
    body: &'a ast::Block,
    header: Span,
}

/// What a core-group region's older options (`pl.incore(split=)`, `pl.auto_incore()`,
/// `pl.at(optimization=, split=)`) ask for, in today's terms.
struct OlderOptions {
    auto_chunk: bool,
    split: Option<SplitMode>,
    /// Where the warning points: the older keyword, or the older scope call.
    span: Span,
    /// No error was found in them.
    ok: bool,
}

impl OlderOptions {
    /// Today's spelling of the region.
    fn today(&self) -> String {
        let mut entries = Vec::new();
        if self.auto_chunk {
            entries.push("pl.auto_chunk".to_string());
        }
        if let Some(m) = self.split.filter(|m| *m != SplitMode::None) {
            entries.push(format!("pl.split({})", EnumValue::SplitMode(m).spelling()));
        }
        match entries.is_empty() {
            true => "`pl.at(level=pl.Level.CORE_GROUP)`".to_string(),
            false => format!("`pl.at(level=pl.Level.CORE_GROUP, optimizations=[{}])`", entries.join(", ")),
        }
    }
}

/// The span of a `with` item's scope call (`pl.incore(...)`).
fn ctx_span(f: &FnLower, item: &ast::WithItem) -> Span {
    f.ast().expr(item.context).span
}

/// `for target in pl.spmd(...)` / `pl.split_aiv(...)`: a loop whose iterator makes a region.
#[derive(Clone, Copy)]
pub(crate) struct RegionLoop<'a> {
    pub target: ast::ExprId,
    pub args: &'a [ast::Arg],
    pub body: &'a ast::Block,
    /// The whole statement.
    pub span: Span,
    /// From `for` to the end of the iterator call.
    pub header: Span,
}

impl FnLower<'_, '_> {
    pub(crate) fn with_stmt(&mut self, items: &[ast::WithItem], body: &ast::Block, span: Span, out: &mut Block) {
        // Several items are refused by the syntax check; lower the first one.
        let item = &items[0];
        let header = Span::new(span.lo, item.span.hi);
        let ctx = self.ast().expr(item.context);
        let E::Call { func, args } = &ctx.kind else {
            self.not_a_scope(header);
            self.block(self.ast().block(body));
            return;
        };
        let args = self.ast().list(*args);
        let Some(path) = self.cx.pl_path(self.m, *func) else {
            self.not_a_scope(header);
            self.block(self.ast().block(body));
            return;
        };
        let head = ScopeHead { path: &path, item, args, body, header };
        match path.as_str() {
            "graph" => self.graph_scope(&head, out),
            "at" | "incore" | "auto_incore" => self.at_scope(&head, out),
            // An older release dispatched blocks with `pl.cluster(core_num=N)`: today's
            // `pl.spmd(core_num=N)` (W0002).
            "cluster"
                if args.iter().any(|a| matches!(a.kind, ArgKind::Keyword(k) if self.cx.name(k.name) == "core_num")) =>
            {
                let span = ctx_span(self, item);
                let message = "`pl.cluster(core_num=...)` is an older spelling that PyPTO no longer accepts; use `pl.spmd(core_num=...)`";
                self.warning(Code::W0002, span, message, "older spelling");
                self.spmd_scope(&head, out);
            }
            "cluster" => {
                self.no_as(item, "cluster", header);
                let (name, attrs) = self.keywords(args, &["name_hint", "dumps"], "pl.cluster", header);
                self.positional_none(args, "pl.cluster");
                self.scope(ScopeKind::Cluster, FrameKind::Cluster, name, None, attrs, body, header, out);
            }
            "spmd" => self.spmd_scope(&head, out),
            scope if super::RUNTIME_SCOPES.contains(&scope) => self.runtime_scope(&head, out),
            other => {
                let other = other.to_string();
                self.error_help(
                    Code::E0313,
                    header,
                    format!("`pl.{other}(...)` is not a pl scope"),
                    "unsupported context manager",
                    "pl scopes are pl.at, pl.graph, pl.cluster, pl.spmd, pl.scope, pl.manual_scope and pl.auto_scope",
                );
                self.block(self.ast().block(body));
            }
        }
    }

    fn not_a_scope(&mut self, header: Span) {
        self.error_help(
            Code::E0313,
            header,
            "Unsupported context manager in with statement",
            "not a pl scope",
            "pl scopes are pl.at, pl.graph, pl.cluster, pl.spmd, pl.scope, pl.manual_scope and pl.auto_scope",
        );
    }

    /// `as` is only for `pl.at` and `pl.spmd` (and never for `pl.graph`, see E0308).
    fn no_as(&mut self, item: &ast::WithItem, name: &str, header: Span) {
        if item.target.is_some() {
            self.error(
                Code::E0312,
                header,
                format!("`with pl.{name}(...) as ...:` is not supported — the `as` clause only applies to `with pl.at(...) as tid:` and `with pl.spmd(...) as tid:`"),
                "`as` not allowed here",
            );
        }
    }

    fn positional_none(&mut self, args: &[ast::Arg], what: &str) {
        if let Some(a) = args.iter().find(|a| matches!(a.kind, ArgKind::Positional)) {
            self.error(Code::E0202, a.span, format!("{what}() takes no positional arguments"), "positional argument");
        }
    }

    /// The keyword arguments of a scope: `name_hint` (checked), the others kept as attrs.
    fn keywords(
        &mut self,
        args: &[ast::Arg],
        allowed: &[&str],
        what: &str,
        _header: Span,
    ) -> (Option<Symbol>, Vec<(Symbol, ExprId)>) {
        let mut name = None;
        let mut attrs = Vec::new();
        let mut seen: Vec<Symbol> = Vec::new();
        for a in args {
            let ArgKind::Keyword(k) = a.kind else { continue };
            let key = self.cx.name(k.name).to_string();
            if seen.contains(&k.name) {
                self.error(
                    Code::E0204,
                    a.span,
                    format!("{what}() got multiple values for argument '{key}'"),
                    "given twice",
                );
                continue;
            }
            seen.push(k.name);
            if !allowed.contains(&key.as_str()) {
                self.error_help(
                    Code::E0310,
                    a.span,
                    format!("Unknown keyword argument '{key}' in {what}()"),
                    "unknown keyword",
                    if allowed.is_empty() {
                        format!("{what}() takes no arguments")
                    } else {
                        format!("{what}() takes: {}", allowed.join(", "))
                    },
                );
                continue;
            }
            match key.as_str() {
                "level" | "role" | "core_num" => {}
                "name_hint" => name = self.name_hint(a.value, what),
                "allow_early_resolve" | "windowize" | "sync_start" => {
                    if !matches!(self.ast().expr(a.value).kind, E::True | E::False) {
                        let span = self.ast().expr(a.value).span;
                        self.error(
                            Code::E0310,
                            span,
                            format!("{what}({key}=...) must be True or False"),
                            "not a bool literal",
                        );
                    } else if let Some(e) = self.expr(a.value) {
                        attrs.push((k.name, e));
                    }
                }
                _ => {
                    if matches!(key.as_str(), "no_dep_args" | "optimizations" | "dumps")
                        && !self.list_option(&key, a.value, what)
                    {
                        continue;
                    }
                    let e =
                        if key == "deps" { self.deps_value(a.value, &format!("{what}()")) } else { self.expr(a.value) };
                    if let Some(e) = e {
                        attrs.push((k.name, e));
                    }
                }
            }
        }
        (name, attrs)
    }

    /// The `predicate=` of a region's call (`pl.spmd(...)`, `pl.at(level=CORE_GROUP, ...)`),
    /// if any, checked as a launch's is ([`Self::predicate_ok`]). `what` is the construct
    /// after `pl.`.
    fn region_predicate_ok(&mut self, what: &str, args: &[ast::Arg]) -> bool {
        let keyword = |s: &Self, key: &str| {
            args.iter().find(|a| matches!(a.kind, ArgKind::Keyword(k) if s.cx.name(k.name) == key)).map(|a| a.value)
        };
        match keyword(self, "predicate") {
            // A region of a hand-written Group or Spmd function becomes a call inside that
            // function, never a task of its own: the predicate would guard nothing.
            Some(p) if matches!(self.info.decl.kind, FuncKind::Group | FuncKind::Spmd) => {
                let span = self.ast().expr(p).span;
                let kind = if self.info.decl.kind == FuncKind::Group { "Group" } else { "Spmd" };
                let d = self.error(
                    Code::E0318,
                    span,
                    format!(
                        "'pl.{what}(..., predicate=...)' inside a {kind} function cannot carry per-task dispatch metadata: the region runs inside the {kind} task, so the predicate would guard nothing"
                    ),
                    "per-task dispatch metadata",
                );
                d.help = Some("put the predicated region in an Orchestration function".to_string());
                false
            }
            Some(p) => {
                let deps = keyword(self, "deps");
                self.predicate_ok(what, p, deps)
            }
            None => true,
        }
    }

    /// PyPTO's checks of `no_dep_args=[...]`, `dumps=[...]` and `optimizations=[...]`
    /// (E0314): a list literal of valid entries (`option_entry_ok`); no name listed twice; at most one `pl.split(...)` and one
    /// `pl.cross_core_slot(...)`.
    fn list_option(&mut self, key: &str, value: ast::ExprId, what: &str) -> bool {
        let v = self.ast().expr(value);
        let E::List(items) = &v.kind else {
            self.error(Code::E0314, v.span, format!("{what}({key}=...) must be a list literal"), "not a list");
            return false;
        };
        let mut seen: Vec<String> = Vec::new();
        // Whether a `pl.split(..., slot_num=)` and a `pl.cross_core_slot(...)` came yet.
        let mut slot_setters = (false, false);
        for &item in self.ast().list(*items) {
            if !self.option_entry_ok(key, item, what) {
                return false;
            }
            let entry = match &self.ast().expr(item).kind {
                E::Name(n) if key != "optimizations" => self.cx.name(*n).to_string(),
                // Named by the row's canonical spelling: `pl.optimizations.split(...)` is
                // `pl.split(...)`.
                E::Call { func, .. } if key == "optimizations" => {
                    match self.cx.pl_path(self.m, *func).and_then(|p| ops::by_spelling(&format!("pl.{p}"))) {
                        Some(op) => format!("{}(...)", op.def().spellings[0]),
                        None => continue,
                    }
                }
                // A constant entry, `pl.auto_chunk`.
                E::Attribute { .. } if key == "optimizations" => {
                    match self.cx.pl_path(self.m, item).and_then(|p| ops::by_spelling(&format!("pl.{p}"))) {
                        Some(op) => op.def().spellings[0].to_string(),
                        None => continue,
                    }
                }
                _ => continue,
            };
            // The deprecated `pl.split(mode, slot_num=N)` and `pl.cross_core_slot(slot_num=N)`
            // both set the slot count: PyPTO refuses the pair in either order.
            if key == "optimizations" {
                let op = match &self.ast().expr(item).kind {
                    E::Call { func, args } => self
                        .cx
                        .pl_path(self.m, *func)
                        .and_then(|p| ops::by_spelling(&format!("pl.{p}")))
                        .map(|op| (op, self.ast().list(*args))),
                    _ => None,
                };
                let slots_set = match op {
                    Some((Op::OptimizationCrossCoreSlot, _)) => Some(&mut slot_setters.1),
                    Some((Op::OptimizationSplit, args))
                        if args
                            .iter()
                            .any(|a| matches!(a.kind, ArgKind::Keyword(k) if self.cx.name(k.name) == "slot_num")) =>
                    {
                        Some(&mut slot_setters.0)
                    }
                    _ => None,
                };
                if let Some(flag) = slots_set {
                    *flag = true;
                    if slot_setters.0 && slot_setters.1 {
                        let span = self.ast().expr(item).span;
                        let message = "optimizations=[...] sets the cross-core slot count twice: via the deprecated pl.split(slot_num=...) and via pl.cross_core_slot(...)";
                        self.error(Code::E0314, span, message, "slot count set again");
                        return false;
                    }
                }
            }
            if seen.contains(&entry) {
                let span = self.ast().expr(item).span;
                let message = match key {
                    "no_dep_args" | "dumps" => format!("{what}({key}=[...]) lists '{entry}' more than once"),
                    _ => format!("Duplicate '{entry}' in optimizations=[...]"),
                };
                self.error(Code::E0314, span, message, "listed twice");
                return false;
            }
            seen.push(entry);
        }
        true
    }

    /// `name_hint="ident"`: a string literal that is a valid non-keyword identifier (any
    /// string for the runtime scopes `pl.scope` and `pl.manual_scope`).
    fn name_hint(&mut self, value: ast::ExprId, what: &str) -> Option<Symbol> {
        let v = self.ast().expr(value);
        let E::Str(pieces) = &v.kind else {
            self.error(
                Code::E0311,
                v.span,
                format!("{what}() 'name_hint' argument must be a string literal"),
                "not a string literal",
            );
            return None;
        };
        if self.ast().list(*pieces).iter().any(|p| p.kind != ast::StrKind::Plain) {
            self.error(
                Code::E0311,
                v.span,
                format!("{what}() 'name_hint' argument must be a string literal"),
                "not a plain string literal",
            );
            return None;
        }
        let text = self.cx.string_value(self.m, *pieces)?;
        // A runtime scope's name is only a label (PyPTO takes any string); the other
        // scopes' names become function names.
        if !is_identifier(&text) && !matches!(what, "pl.scope" | "pl.manual_scope") {
            self.error(
                Code::E0311,
                v.span,
                format!("{what}() 'name_hint' must be a valid non-keyword identifier, got {text:?}"),
                "not an identifier",
            );
            return None;
        }
        Some(self.cx.intern(&text))
    }

    // ------------------------------------------------------------ pl.graph

    /// `with pl.graph("name"):` and its checks, in the reference parser's order; the first
    /// failing check is reported (once per region), and the body is still lowered so that
    /// errors inside it are found too.
    fn graph_scope(&mut self, head: &ScopeHead, out: &mut Block) {
        let ScopeHead { item, args, body, header, .. } = *head;
        let name = self.graph_checks(item, args, header);
        let mut attrs = Vec::new();
        for a in args {
            if let ArgKind::Keyword(k) = a.kind {
                if self.cx.name(k.name) == "dumps" {
                    if let Some(e) = self.expr(a.value) {
                        attrs.push((k.name, e));
                    }
                }
            }
        }
        let name_text = name.map(|n| self.cx.name(n).to_string());
        self.frames.push(Frame::Scope { kind: FrameKind::Graph, span: header, name: name_text });
        let block = self.block(self.ast().block(body));
        self.frames.pop();
        if let Some(name) = name {
            let s = self.new_stmt(
                StmtKind::Scope(Box::new(Scope {
                    kind: ScopeKind::Graph,
                    name: Some(name),
                    task_id: None,
                    body: block,
                    attrs,
                })),
                header,
            );
            out.push(s);
        }
    }

    /// The parser-level graph rules. Returns the region's name when all pass.
    fn graph_checks(&mut self, item: &ast::WithItem, args: &[ast::Arg], header: Span) -> Option<Symbol> {
        // `as` (E0308).
        if item.target.is_some() {
            self.error_help(
                Code::E0308,
                header,
                "`with pl.graph(...) as ...:` is not supported — the `as` clause only applies to `with pl.at(...) as tid:` and `with pl.spmd(...) as tid:`",
                "a graph region binds no name", "remove the `as ...` part");
            return None;
        }
        if !self.graph_placement(header) {
            return None;
        }
        self.graph_name(args, header)
    }

    /// The rules on where a graph region may be: not in a device kernel (E0307), not in a
    /// device scope (E0306), not in another graph region (E0305). Reports the first broken.
    fn graph_placement(&mut self, header: Span) -> bool {
        // The function kind (E0307).
        let kind = self.info.decl.kind;
        if kind.is_device_kernel() {
            let article =
                if matches!(kind.name().chars().next(), Some('A' | 'E' | 'I' | 'O' | 'U')) { "an" } else { "a" };
            let fname = self.cx.name(self.info.name).to_string();
            let file = self.file;
            let fspan = self.info.span;
            self.error(Code::E0307, header, format!("pl.graph() is not valid inside {article} {kind} function"), "a graph region in a device kernel")
                .with_label_mut(Label::secondary(file, fspan, format!("`{fname}` is {article} {kind} function")))
                .help = Some("A Graph region records orchestration task launches, so it belongs in the @pl.jit entry (or another orchestration function), not in a kernel body. To make a whole function a Graph, decorate it with @pl.jit.graph instead.".to_string());
            return false;
        }
        // Enclosing device scopes (E0306), checked as the reference parser does: InCore,
        // then Hierarchy, Cluster, Spmd.
        for wanted in [FrameKind::InCore, FrameKind::Hierarchy, FrameKind::Cluster, FrameKind::Spmd] {
            let found = self.frames.iter().rev().find_map(|f| match f {
                Frame::Scope { kind, span, name } if *kind == wanted => {
                    Some((*span, name.as_deref() == Some(SPMD_LOOP)))
                }
                _ => None,
            });
            if let Some((outer, spmd_loop)) = found {
                let construct = match wanted {
                    FrameKind::InCore => "pl.at(level=...)",
                    FrameKind::Hierarchy => "pl.at(level=..., role=...)",
                    FrameKind::Cluster => "pl.cluster()",
                    _ => "pl.spmd(...)",
                };
                let file = self.file;
                self.error(
                    Code::E0306,
                    header,
                    format!("pl.graph() cannot be nested inside `{construct}`"),
                    "this graph region",
                )
                .with_label_mut(Label::secondary(
                    file,
                    outer,
                    if spmd_loop {
                        "is inside this `for ... in pl.spmd(...)` loop, whose body is one device task".to_string()
                    } else {
                        format!("is inside this `{construct}` region")
                    },
                ))
                .help = Some(if wanted == FrameKind::Hierarchy {
                    "Graph regions inside a distributed hierarchy region are not supported yet. Move the `with pl.graph(...):` outside.".to_string()
                } else {
                    "A Graph region records a topology of task launches, so it must sit around the dispatches rather than inside one. Move the `with pl.graph(...):` outside.".to_string()
                });
                return false;
            }
        }
        // Another graph region around it (E0305).
        let outer = self.frames.iter().rev().find_map(|f| match f {
            Frame::Scope { kind: FrameKind::Graph, span, name } => Some((*span, name.clone())),
            _ => None,
        });
        if let Some((outer_span, outer_name)) = outer {
            let file = self.file;
            let outer_label = match outer_name {
                Some(n) => format!("inside the region `{n}`"),
                None => "inside this region".to_string(),
            };
            self.error(Code::E0305, header, "pl.graph() cannot be nested inside another pl.graph()", "the inner region")
                .with_label_mut(Label::secondary(file, outer_span, outer_label))
                .help = Some("The host_build_graph runtime cannot record a graph inside a graph. Mark either the outer region or the inner one, not both.".to_string());
            return false;
        }
        true
    }

    /// The rules on `pl.graph(...)`'s arguments: one positional (E0301), no keyword but
    /// `dumps=` (E0308), a string literal (E0302) that is a non-empty (E0303) identifier
    /// (E0304). Returns the region's name when all pass.
    fn graph_name(&mut self, args: &[ast::Arg], header: Span) -> Option<Symbol> {
        // Exactly one positional argument (E0301).
        let positional: Vec<&ast::Arg> = args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).collect();
        if positional.len() != 1 {
            self.error_help(
                Code::E0301,
                header,
                format!("pl.graph() takes exactly one positional argument (the region name), got {}", positional.len()),
                "needs one region name",
                "name the region: `with pl.graph(\"decoder_layer\"):`",
            );
            return None;
        }
        // No keyword but `dumps=` (E0308).
        let mut dumps_seen = false;
        for a in args {
            if let ArgKind::Keyword(k) = a.kind {
                let key = self.cx.name(k.name).to_string();
                if key != "dumps" {
                    self.error_help(
                        Code::E0308,
                        header,
                        format!("pl.graph() got unexpected keyword argument '{key}'"),
                        "unexpected keyword",
                        "pl.graph() takes the region name and, optionally, dumps=[...]",
                    );
                    return None;
                }
                if dumps_seen {
                    self.error(
                        Code::E0308,
                        header,
                        "pl.graph() got multiple values for argument 'dumps'",
                        "dumps given twice",
                    );
                    return None;
                }
                dumps_seen = true;
            }
        }
        // A string literal (E0302).
        let arg = self.ast().expr(positional[0].value);
        let literal = match &arg.kind {
            E::Str(pieces) if self.ast().list(*pieces).iter().all(|p| p.kind == ast::StrKind::Plain) => {
                self.cx.string_value(self.m, *pieces)
            }
            _ => None,
        };
        let Some(text) = literal else {
            let what = match &arg.kind {
                E::Str(_) => "an f-string",
                E::Name(_) => "a name (even a constant holding a string)",
                E::Int | E::Float => "a number",
                _ => "an expression",
            };
            self.error_help(
                Code::E0302,
                header,
                "pl.graph() 'name_hint' argument must be a string literal",
                format!("the region name is {what}"),
                "write the name itself, as in `with pl.graph(\"layer\"):`: it becomes the recorded graph's symbol, so it must be visible in the source",
            );
            return None;
        };
        // An identifier (E0304), not empty (E0303).
        if text.is_empty() {
            self.error_help(
                Code::E0303,
                header,
                "pl.graph() region name must not be empty",
                "empty name",
                "The name becomes the recorded graph's symbol: 'with pl.graph(\"decoder_layer\"):'",
            );
            return None;
        }
        if !is_identifier(&text) {
            self.error_help(
                Code::E0304,
                header,
                format!("pl.graph() 'name_hint' must be a valid non-keyword identifier, got {text:?}"),
                "not an identifier",
                "the name becomes a C++ and Python symbol: use letters, digits and `_`, not starting with a digit",
            );
            return None;
        }
        Some(self.cx.intern(&text))
    }

    // ------------------------------------------------------------ pl.at

    fn at_scope(&mut self, head: &ScopeHead, out: &mut Block) {
        let ScopeHead { path, item, args, body, header } = *head;
        let what = format!("pl.{path}");
        let positional: Vec<&ast::Arg> = args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).collect();
        let keyword = |s: &Self, key: &str| {
            args.iter().find(|a| matches!(a.kind, ArgKind::Keyword(k) if s.cx.name(k.name) == key)).map(|a| a.value)
        };
        let (mut level, mut role) = (None, None);
        let mut ok = true;
        if path == "incore" || path == "auto_incore" {
            level = Some(Level::CoreGroup);
        } else {
            if positional.len() > 2 {
                self.error(
                    Code::E0202,
                    header,
                    format!("pl.at() takes at most 2 positional arguments, got {}", positional.len()),
                    "too many",
                );
                ok = false;
            }
            let level_arg = match (positional.first(), keyword(self, "level")) {
                (Some(p), Some(_)) => {
                    self.error(Code::E0204, p.span, "pl.at() got multiple values for argument 'level'", "given twice");
                    ok = false;
                    Some(p.value)
                }
                (Some(p), None) => Some(p.value),
                (None, k) => k,
            };
            match level_arg {
                None => {
                    self.error_help(
                        Code::E0309,
                        header,
                        "pl.at() requires a level argument",
                        "no level",
                        "write `with pl.at(level=pl.Level.CORE_GROUP):`",
                    );
                    ok = false;
                }
                Some(l) => match self.enum_of(l) {
                    Some(EnumValue::Level(v)) => level = Some(v),
                    _ => {
                        let (span, text) = self.source_of(l);
                        let message = match text.strip_prefix("pl.Level.").or_else(|| text.strip_prefix("Level.")) {
                            Some(member) => format!("`pl.Level` has no member `{member}`"),
                            None => format!("the level of pl.at() must be pl.Level.<name>, not `{text}`"),
                        };
                        self.error_help(
                            Code::E0206,
                            span,
                            message,
                            "not a level",
                            format!("valid levels: {}", Level::names()),
                        );
                        ok = false;
                    }
                },
            }
            let role_arg = match (positional.get(1), keyword(self, "role")) {
                (Some(p), _) => Some(p.value),
                (None, k) => k,
            };
            if let Some(r) = role_arg {
                match self.enum_of(r) {
                    Some(EnumValue::Role(v)) => role = Some(v),
                    _ => {
                        let span = self.ast().expr(r).span;
                        self.error(Code::E0206, span, "the role of pl.at() must be pl.Role.<name>", "not a role");
                        ok = false;
                    }
                }
            }
        }
        let (rest, older) = self.older_region_options(path, args, ctx_span(self, item));
        let (name, mut attrs) = self.keywords(&rest, AT_KEYWORDS, &what, header);
        if let Some(older) = older {
            ok &= self.merge_older_options(older, &mut attrs, &what);
        }
        let incore = level == Some(Level::CoreGroup);
        if incore && role.is_some() {
            self.error_help(
                Code::E0314,
                header,
                "role= is not supported with level=pl.Level.CORE_GROUP",
                "a role on a core group",
                "remove `role=`",
            );
            ok = false;
        }
        if !incore && attrs.iter().any(|(k, _)| matches!(self.cx.name(*k), "optimizations" | "predicate")) {
            self.error(
                Code::E0314,
                header,
                "optimizations=[...] and predicate= are only supported with level=pl.Level.CORE_GROUP",
                "not a core-group region",
            );
            ok = false;
        }
        if level.is_some_and(|l| l >= Level::Host) && role == Some(Role::SubWorker) {
            self.error(
                Code::E0314,
                header,
                "Inline 'with pl.at(level>=HOST, role=pl.Role.SubWorker)' is not supported.",
                "an inline host sub-worker",
            );
            ok = false;
        }
        if incore {
            ok = ok && self.region_predicate_ok("at", args) && self.not_in_core_group(header, &mut attrs);
        }
        let task_id = self.task_id_target(item);
        let (kind, frame) = if incore {
            (ScopeKind::InCore, FrameKind::InCore)
        } else {
            (ScopeKind::Hierarchy { level: level.unwrap_or(Level::Host), role }, FrameKind::Hierarchy)
        };
        if ok {
            self.scope(kind, frame, name, task_id, attrs, body, header, out);
            self.record_region_targets(item, self.ast().block(body));
        } else {
            self.frames.push(Frame::Scope { kind: frame, span: header, name: None });
            self.block(self.ast().block(body));
            self.frames.pop();
        }
    }

    /// The options of a core-group region as older releases spelled them, each accepted
    /// with warning W0002 naming today's spelling: `pl.incore(split=mode)` and
    /// `pl.auto_incore(split=mode)` (today `pl.at(level=pl.Level.CORE_GROUP,
    /// optimizations=[...])`), and on `pl.at` the keywords `optimization=` (only
    /// `pl.chunked_loop_optimizer`, bare or called with `split=mode`: today
    /// `pl.auto_chunk`, with `pl.split(mode)` for a split) and `split=mode` (today
    /// `pl.split(mode)`). Returns the other arguments, and the entries of today's
    /// `optimizations=[...]` these options stand for (`None` when there are none to merge).
    fn older_region_options(
        &mut self,
        path: &str,
        args: &[ast::Arg],
        call: Span,
    ) -> (Vec<ast::Arg>, Option<OlderOptions>) {
        let older_scope = path == "incore" || path == "auto_incore";
        let mut rest = Vec::with_capacity(args.len());
        let (mut optimization, mut split) = (None, None);
        for a in args {
            let key = match a.kind {
                ArgKind::Keyword(k) => Some(self.cx.name(k.name).to_string()),
                ArgKind::Positional => None,
                _ => {
                    rest.push(a.clone());
                    continue;
                }
            };
            match key.as_deref() {
                Some("optimization") if !older_scope => optimization = Some(a.clone()),
                Some("split") => split = Some(a.clone()),
                None if older_scope && split.is_none() => split = Some(a.clone()),
                _ => rest.push(a.clone()),
            }
        }
        let mut older = OlderOptions { auto_chunk: path == "auto_incore", split: None, span: call, ok: true };
        if let (Some(o), Some(s)) = (&optimization, &split) {
            let file = self.file;
            self.error(
                Code::E0314,
                s.span,
                "Cannot use both optimization= and split= in pl.at()",
                "given with optimization=",
            )
            .secondary
            .push(Label::secondary(file, o.span, "optimization= given here"));
            older.ok = false;
        }
        if let Some(o) = &optimization {
            older.span = o.span;
            older.auto_chunk = true;
            older.ok &= self.chunked_loop_optimizer(o.value, &mut older.split);
        }
        if let Some(s) = &split {
            older.span = if older_scope { call } else { s.span };
            match self.enum_of(s.value) {
                Some(EnumValue::SplitMode(m)) => older.split = Some(m),
                _ => {
                    let span = self.ast().expr(s.value).span;
                    let message = format!("pl.{path}(split=...) must be a pl.SplitMode, e.g. pl.SplitMode.UP_DOWN");
                    self.error(Code::E0314, span, message, "not a split mode");
                    older.ok = false;
                }
            }
        }
        if !older_scope && optimization.is_none() && split.is_none() {
            return (rest, None);
        }
        let today = older.today();
        let message = match (older_scope, &optimization, &split) {
            (true, ..) => format!("`pl.{path}()` is an older spelling that PyPTO no longer accepts; use {today}"),
            (false, Some(_), _) => {
                format!("`optimization=` of pl.at() is an older spelling that PyPTO no longer accepts; use {today}")
            }
            _ => format!("`split=` of pl.at() is an older spelling that PyPTO no longer accepts; use {today}"),
        };
        if older.ok {
            self.warning(Code::W0002, older.span, message, "older spelling");
        }
        (rest, Some(older))
    }

    /// `optimization=pl.chunked_loop_optimizer` or `...chunked_loop_optimizer(split=mode)`:
    /// the split mode, if any, into `split`; `split=pl.SplitMode.NONE` (refused by the PyPTO
    /// releases that had the option) and anything else is E0314.
    fn chunked_loop_optimizer(&mut self, value: ast::ExprId, split: &mut Option<SplitMode>) -> bool {
        let v = self.ast().expr(value);
        let optimizer = |s: &Self, e: ast::ExprId| s.cx.is_pl_path(s.m, e, "chunked_loop_optimizer");
        let mode = match &v.kind {
            _ if optimizer(self, value) => return true,
            E::Call { func, args } if optimizer(self, *func) => match self.ast().list(*args) {
                [] => return true,
                [a] if matches!(a.kind, ArgKind::Keyword(k) if self.cx.name(k.name) == "split") => {
                    self.enum_of(a.value)
                }
                _ => None,
            },
            _ => {
                let message =
                    "pl.at(optimization=...) must be pl.chunked_loop_optimizer (today: optimizations=[pl.auto_chunk])";
                self.error(Code::E0314, v.span, message, "not pl.chunked_loop_optimizer");
                return false;
            }
        };
        match mode {
            // PyPTO refused NONE here: the optimizer without `split=` already means no split.
            Some(EnumValue::SplitMode(SplitMode::None)) => {
                let message =
                    "pl.chunked_loop_optimizer(split=pl.SplitMode.NONE) is not accepted: leave split= out for no split";
                self.error(Code::E0314, v.span, message, "SplitMode.NONE");
                false
            }
            Some(EnumValue::SplitMode(m)) => {
                *split = Some(m);
                true
            }
            _ => {
                let message = "pl.chunked_loop_optimizer() takes only split=pl.SplitMode.<mode>";
                self.error(Code::E0314, v.span, message, "not a split mode");
                false
            }
        }
    }

    /// Adds the entries older options stand for as today's `optimizations=[...]`; both
    /// spellings on one region is E0314.
    fn merge_older_options(&mut self, older: OlderOptions, attrs: &mut Vec<(Symbol, ExprId)>, what: &str) -> bool {
        if !older.ok {
            return false;
        }
        if attrs.iter().any(|(k, _)| self.cx.name(*k) == "optimizations") {
            let message = format!("{what}() cannot take both optimizations=[...] and the older optimization=/split=");
            self.error_help(Code::E0314, older.span, message, "given twice", format!("write {}", older.today()));
            return false;
        }
        let span = older.span;
        let mut entries = Vec::new();
        if older.auto_chunk {
            entries.extend(self.op_result(Op::OptimizationAutoChunk, Vec::new(), span));
        }
        if let Some(m) = older.split.filter(|m| *m != SplitMode::None) {
            let mode = self.new_expr(ExprKind::Enum(EnumValue::SplitMode(m)), Types::UNKNOWN, span);
            entries.extend(self.op_result(Op::OptimizationSplit, vec![Some(mode), None], span));
        }
        if !entries.is_empty() {
            let ty = self.tuple_type(&entries);
            let list = self.new_expr(ExprKind::Tuple(entries.into()), ty, span);
            attrs.push((self.cx.intern("optimizations"), list));
        }
        true
    }

    /// A core-group region inside another (a `pl.at(level=CORE_GROUP)`, the body of a
    /// `pl.spmd` loop, a host `pl.split_aiv` loop) is outlined from the function the outer
    /// one becomes, as PyPTO's OutlineIncoreScopes does; but a `predicate=` on it would
    /// have no task launch to guard (the call sits in device code), so that is E0317, as
    /// PyPTO's parser refuses it. Returns whether the region may stay. `deps=` and
    /// `allow_early_resolve=` on such a region are dropped: its call runs inside the outer
    /// kernel, in program order, after everything before it there (and `as tid` binds no
    /// launch there, see `passes/outline.rs`).
    fn not_in_core_group(&mut self, header: Span, attrs: &mut Vec<(Symbol, ExprId)>) -> bool {
        let outer = self.frames.iter().rev().find_map(|f| match f {
            Frame::Scope { kind: FrameKind::InCore, span, .. } => Some(*span),
            _ => None,
        });
        let predicated = attrs.iter().any(|(k, _)| self.cx.name(*k) == "predicate");
        if let Some(cluster) = self.enclosing_cluster().filter(|_| predicated) {
            let message = "pl.at(..., predicate=(...)) cannot be nested inside `pl.cluster()`: the cluster is dispatched as one Group task, so the predicate would guard nothing";
            self.cluster_metadata_error(
                header,
                cluster,
                message.to_string(),
                "move the predicated pl.at out of the `pl.cluster()` region",
            );
            return false;
        }
        let Some(outer) = outer else { return true };
        if !predicated {
            attrs.retain(|(k, _)| !matches!(self.cx.name(*k), "deps" | "allow_early_resolve"));
            return true;
        }
        let file = self.file;
        let d = self.error(
            Code::E0317,
            header,
            "pl.at(..., predicate=(...)) is not supported nested inside pl.spmd() or another pl.at(level=pl.Level.CORE_GROUP)",
            "a predicated region in device code",
        );
        d.secondary.push(Label::secondary(file, outer, "the enclosing core-group region"));
        d.help = Some(
            "the inner region becomes a call inside the outer region's InCore kernel, which no task launch guards: write the predicated pl.at at orchestration top level".to_string(),
        );
        false
    }

    /// `with ... as tid:` binds a task id.
    fn task_id_target(&mut self, item: &ast::WithItem) -> Option<crate::ir::VarId> {
        let t = item.target?;
        let n = self.name_target(t, Code::E0312, "`as` target on `with pl.at(...)` must be a plain variable name")?;
        let ty = self.intern_ty(crate::ir::Type::Scalar(DType::TaskId));
        Some(self.bind(n, ty, self.ast().expr(t).span))
    }

    fn enum_of(&mut self, e: ast::ExprId) -> Option<EnumValue> {
        // A dotted name ending `Family.MEMBER` (`pl.Level.CORE_GROUP`), read from the tree.
        self.cx.dotted_root(self.m, e)?;
        let E::Attribute { value, attr: member } = &self.ast().expr(e).kind else { return None };
        let family = match &self.ast().expr(*value).kind {
            E::Attribute { attr, .. } => attr.name,
            E::Name(n) => *n,
            _ => return None,
        };
        EnumValue::lookup(self.cx.name(family), self.cx.name(member.name))
    }

    // ------------------------------------------------------------ pl.spmd, runtime scopes

    fn spmd_scope(&mut self, head: &ScopeHead, out: &mut Block) {
        let ScopeHead { item, args, body, header, .. } = *head;
        let Some(core_num) = self.core_num(args, header) else {
            self.block(self.ast().block(body));
            return;
        };
        if !self.spmd_in_cluster_ok(item, args, header)
            || !self.region_predicate_ok("spmd", args)
            || !self.spmd_body_ok(self.ast().block(body), header)
        {
            self.block(self.ast().block(body));
            return;
        }
        let (name, mut attrs) = self.keywords(args, SPMD_KEYWORDS, "pl.spmd", header);
        let task_id = self.task_id_target(item);
        // A body that reads its block index or asks for core-group optimizations is device
        // code of its own: it runs in a core-group region inside the Spmd region, as the
        // body of `for i in pl.spmd(n)` does. A body that holds regions or dispatches a
        // kernel stays as it is.
        let has_optimizations = attrs.iter().any(|(k, _)| self.cx.name(*k) == "optimizations");
        let holds_region =
            self.ast().block(body).iter().any(|&st| matches!(self.ast().stmt(st).kind, ast::StmtKind::With { .. }));
        if holds_region || !(has_optimizations || self.reads_block_idx(self.ast().block(body))) {
            self.scope(ScopeKind::Spmd { core_num }, FrameKind::Spmd, name, task_id, attrs, body, header, out);
            self.record_region_targets(item, self.ast().block(body));
            return;
        }
        let incore_attrs = self.take_optimizations(&mut attrs);
        let name_text = name.map(|n| self.cx.name(n).to_string());
        self.frames.push(Frame::Scope { kind: FrameKind::Spmd, span: header, name: name_text.clone() });
        self.frames.push(Frame::Scope { kind: FrameKind::InCore, span: header, name: name_text });
        let block = self.block(self.ast().block(body));
        self.frames.pop();
        self.frames.pop();
        let spmd = SpmdRegion { core_num, name, task_id, attrs, incore_attrs };
        out.push(self.spmd_around_core_group(spmd, block, header));
        self.record_region_targets(item, self.ast().block(body));
    }

    /// A `with pl.spmd(...)` inside `pl.cluster()` is unwrapped into the cluster's Group
    /// function and never becomes a task of its own: it may not take the launch keywords
    /// `deps=`, `allow_early_resolve=`, `predicate=`, nor bind a task id with `as` (E0318).
    fn spmd_in_cluster_ok(&mut self, item: &ast::WithItem, args: &[ast::Arg], header: Span) -> bool {
        let Some(cluster) = self.enclosing_cluster() else { return true };
        let mut given: Vec<String> = args
            .iter()
            .filter_map(|a| match a.kind {
                ArgKind::Keyword(k) => Some(self.cx.name(k.name)),
                _ => None,
            })
            .filter(|k| matches!(*k, "deps" | "allow_early_resolve" | "predicate"))
            .map(|k| format!("{k}="))
            .collect();
        if item.target.is_some() {
            given.push("as tid".to_string());
        }
        if given.is_empty() {
            return true;
        }
        let message = format!(
            "'pl.spmd(..., {})' cannot be nested inside 'pl.cluster()' — a cluster-nested pl.spmd is unwrapped into the Group function and never produces a task of its own",
            given.join(", ")
        );
        let help = "drop these, or move the `with pl.spmd(...)` out of the `pl.cluster()` region";
        self.cluster_metadata_error(header, cluster, message, help);
        false
    }

    /// `pl.spmd(n)` around an implicit core-group region holding `body`: what a `for i in
    /// pl.spmd(n)` loop, and a `with pl.spmd(n)` body that reads its block index, become.
    fn spmd_around_core_group(&mut self, spmd: SpmdRegion, body: Block, span: Span) -> crate::ir::StmtId {
        let SpmdRegion { core_num, name, task_id, attrs, incore_attrs } = spmd;
        let incore = self.new_stmt(
            StmtKind::Scope(Box::new(Scope {
                kind: ScopeKind::InCore,
                name: None,
                task_id: None,
                body,
                attrs: incore_attrs,
            })),
            span,
        );
        let scope = Scope { kind: ScopeKind::Spmd { core_num }, name, task_id, body: vec![incore], attrs };
        self.new_stmt(StmtKind::Scope(Box::new(scope)), span)
    }

    /// Moves `optimizations=` out of an Spmd region's options: they belong to the
    /// core-group region inside it.
    fn take_optimizations(&self, attrs: &mut Vec<(Symbol, ExprId)>) -> Vec<(Symbol, ExprId)> {
        let (taken, kept): (Vec<_>, Vec<_>) = attrs.drain(..).partition(|(k, _)| self.cx.name(*k) == "optimizations");
        *attrs = kept;
        taken
    }

    /// Whether statements call an op that reads the block index (`pl.tile.get_block_idx()`,
    /// any of its spellings) anywhere.
    fn reads_block_idx(&self, stmts: &[ast::StmtId]) -> bool {
        self.calls_in(stmts).iter().any(|&func| {
            let op = self.cx.pl_path(self.m, func).and_then(|p| ops::by_spelling(&format!("pl.{p}")));
            op.is_some_and(|op| matches!(op.def().kind, ops::OpKind::Special(ops::Special::BlockIdx)))
        })
    }

    /// The callee of every call in `stmts`, nested ones included, in no particular order.
    fn calls_in(&self, stmts: &[ast::StmtId]) -> Vec<ast::ExprId> {
        let ast = self.ast();
        let mut stack: Vec<ast::Node> = stmts.iter().map(|&st| ast::Node::Stmt(st)).collect();
        let mut children = Vec::new();
        let mut calls = Vec::new();
        while let Some(node) = stack.pop() {
            match node {
                ast::Node::Stmt(id) => {
                    children.clear();
                    ast.stmt_children(id, &mut children);
                    stack.extend(children.iter().copied());
                }
                ast::Node::Expr(id) => {
                    if let E::Call { func, .. } = &ast.expr(id).kind {
                        calls.push(*func);
                    }
                    ast.expr_children(id, &mut |c| stack.push(ast::Node::Expr(c)));
                }
            }
        }
        calls
    }

    /// Whether `func` launches a pl function: `self.f`, the name of a module-level pl
    /// function, or `pl.submit`/`pl.spmd_submit`.
    fn is_dispatch(&self, func: ast::ExprId) -> bool {
        match &self.ast().expr(func).kind {
            E::Attribute { value, .. } if matches!(self.ast().expr(*value).kind, E::Name(n) if self.cx.name(n) == "self") => {
                true
            }
            E::Name(n) if !self.names.contains_key(n) => {
                matches!(self.cx.modules[self.m].names.get(n).map(|b| &b.0), Some(super::Binding::Function(_)))
            }
            _ => self.cx.pl_path(self.m, func).is_some_and(|p| matches!(p.as_str(), "submit" | "spmd_submit")),
        }
    }

    /// PyPTO's rule for the body of `with pl.spmd(...)` (E0319): it reads the per-block
    /// index (`pl.tile.get_block_idx()`, anywhere in it), or it dispatches exactly one
    /// kernel, which reads the index itself. Otherwise every block runs the same work.
    fn spmd_body_ok(&mut self, stmts: &[ast::StmtId], header: Span) -> bool {
        if self.reads_block_idx(stmts) {
            return true;
        }
        let dispatches = self.calls_in(stmts).into_iter().filter(|&f| self.is_dispatch(f)).count();
        let (message, label, help) = match dispatches {
            1 => return true,
            0 => (
                "`with pl.spmd(...)` body neither reads the per-block index via `pl.tile.get_block_idx()` nor dispatches a `self.<kernel>(...)` call, so every block would run identical work".to_string(),
                "no per-block index, no kernel dispatch",
                "read the block index (`i = pl.tile.get_block_idx()`) and offset the work by it, or dispatch one kernel: `out = self.kernel(...)`",
            ),
            n => (
                format!("`with pl.spmd(...)` dispatch body launches {n} kernels; only one kernel dispatch per SPMD scope is supported"),
                "several kernel dispatches",
                "give each kernel a `with pl.spmd(...)` of its own",
            ),
        };
        self.error_help(Code::E0319, header, message, label, help);
        false
    }

    /// `pl.spmd(n)` / `pl.spmd(core_num=n)`: a positive integer.
    fn core_num(&mut self, args: &[ast::Arg], header: Span) -> Option<ExprId> {
        let positional: Vec<&ast::Arg> = args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).collect();
        let keyword = args.iter().find(|a| matches!(a.kind, ArgKind::Keyword(k) if self.cx.name(k.name) == "core_num"));
        let arg = match (positional.as_slice(), keyword) {
            ([p], None) => p.value,
            ([], Some(k)) => k.value,
            _ => {
                self.error(
                    Code::E0202,
                    header,
                    "pl.spmd() takes the number of cores, positionally or as core_num=",
                    "one core count",
                );
                return None;
            }
        };
        let e = self.expr(arg)?;
        if !matches!(self.ty(e), Type::Scalar(d) if d.is_int()) && !matches!(self.ty(e), Type::Unknown) {
            let span = self.ast().expr(arg).span;
            self.error(Code::E0217, span, "core_num of pl.spmd() must be an integer expression", "not an integer");
            return None;
        }
        if let ExprKind::Int(n) = self.cx.program.expr(e).kind {
            if n <= 0 {
                let span = self.ast().expr(arg).span;
                self.error(Code::E0218, span, "the core count of pl.spmd() must be positive", "not positive");
                return None;
            }
        }
        Some(e)
    }

    /// `for i in pl.spmd(n):` — a Spmd region around a core-group region whose body starts
    /// with `i = pl.tile.get_block_idx()`.
    pub(crate) fn spmd_loop(&mut self, l: RegionLoop<'_>, out: &mut Block) {
        let RegionLoop { target, args, body, span, header } = l;
        let message = "the target of `for ... in pl.spmd(n)` must be a name";
        let Some(n) = self.name_target(target, Code::E0219, message) else { return };
        let target = self.ast().expr(target).span;
        let Some(core_num) = self.core_num(args, span) else { return };
        if !self.region_predicate_ok("spmd", args) {
            return;
        }
        let (name, mut attrs) = self.keywords(args, SPMD_LOOP_KEYWORDS, "pl.spmd", span);
        let incore_attrs = self.take_optimizations(&mut attrs);
        // The frames point at the loop's header, and say that it is a `pl.spmd` loop.
        self.frames.push(Frame::Scope { kind: FrameKind::Spmd, span: header, name: Some(SPMD_LOOP.to_string()) });
        self.frames.push(Frame::Scope { kind: FrameKind::InCore, span: header, name: Some(SPMD_LOOP.to_string()) });
        let op = ops::Op::TileGetBlockIdx;
        let idx_ty = self.intern_ty(crate::ir::Type::Scalar(DType::Index));
        let call = self.new_expr(
            ExprKind::Call { callee: Callee::Op(op), args: Vec::new().into(), attrs: CallAttrs::none() },
            idx_ty,
            target,
        );
        let var = self.bind(n, idx_ty, target);
        let first = self.new_stmt(StmtKind::Assign { var, value: call }, target);
        let mut inner = vec![first];
        inner.extend(self.block(self.ast().block(body)));
        self.frames.pop();
        self.frames.pop();
        let spmd = SpmdRegion { core_num, name, task_id: None, attrs, incore_attrs };
        out.push(self.spmd_around_core_group(spmd, inner, span));
    }

    /// `for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.X):` — the body run by the two AIV
    /// lanes of a core, `aiv_id` being the lane (0 or 1). plc runs the lanes one after the
    /// other, as a `pl.parallel(2)` loop over `aiv_id`; outside device code the loop sits
    /// in a core-group region of its own, as PyPTO wraps it.
    pub(crate) fn split_aiv_loop(&mut self, l: RegionLoop<'_>, out: &mut Block) {
        let outer = self.split_aiv;
        self.split_aiv_loop_inner(l, out);
        self.split_aiv = outer;
    }

    fn split_aiv_loop_inner(&mut self, l: RegionLoop<'_>, out: &mut Block) {
        let RegionLoop { target, args, body, span, header } = l;
        if self.frames.iter().any(|f| matches!(f, Frame::Loop { what, .. } if *what == SPLIT_AIV)) {
            self.error(
                Code::E0219,
                header,
                "a pl.split_aiv loop cannot be nested in another pl.split_aiv loop",
                "nested",
            );
            return;
        }
        let message = "the target of `for ... in pl.split_aiv(2, mode=...)` must be a name";
        if self.name_target(target, Code::E0219, message).is_none() {
            return;
        }
        let positional: Vec<ast::ExprId> =
            args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).map(|a| a.value).collect();
        let two = match positional.as_slice() {
            [n] => self.expr(*n).map(|e| (e, self.ast().expr(*n).span)),
            _ => {
                self.error(Code::E0202, header, "pl.split_aiv() takes the lane count 2 and mode=", "one count");
                None
            }
        };
        let Some((two, two_span)) = two else { return };
        if self.cx.program.expr(two).kind != ExprKind::Int(2) {
            self.error(Code::E0219, two_span, "pl.split_aiv() requires n == 2: a core has two AIV lanes", "not 2");
            return;
        }
        let (_, attrs) = self.keywords(args, &["mode"], "pl.split_aiv", header);
        let mode = attrs.iter().find(|(k, _)| self.cx.name(*k) == "mode").map(|&(_, e)| e);
        if !mode.is_some_and(|e| matches!(self.cx.program.expr(e).kind, ExprKind::Enum(EnumValue::SplitMode(_)))) {
            self.error(
                Code::E0219,
                header,
                "pl.split_aiv() requires mode=pl.SplitMode.NONE, UP_DOWN or LEFT_RIGHT",
                "no mode",
            );
            return;
        }
        if let Some(ExprKind::Enum(EnumValue::SplitMode(m))) = mode.map(|e| self.cx.program.expr(e).kind.clone()) {
            self.split_aiv = Some(m);
        }
        // The loop is marked as the lanes' loop, with its mode.
        let marker = mode.map(|e| (self.cx.intern(crate::ir::SPLIT_AIV_ATTR), e)).into_iter().collect();
        let (start, step) = (self.int(0, header), self.int(1, header));
        // Outside device code the loop gets a core-group region of its own, as PyPTO wraps it.
        let device = self.in_device_code();
        if !device {
            self.frames.push(Frame::Scope { kind: FrameKind::InCore, span: header, name: None });
        }
        let mut inner = Vec::new();
        let into = if device { &mut *out } else { &mut inner };
        self.loop_with(ForKind::Parallel, target, None, start, two, step, marker, body, span, false, SPLIT_AIV, into);
        if device {
            return;
        }
        self.frames.pop();
        let scope = Scope { kind: ScopeKind::InCore, name: None, task_id: None, body: inner, attrs: Vec::new() };
        out.push(self.new_stmt(StmtKind::Scope(Box::new(scope)), header));
    }

    fn runtime_scope(&mut self, head: &ScopeHead, out: &mut Block) {
        let ScopeHead { path, item, args, body, header } = *head;
        self.no_as(item, path, header);
        self.positional_none(args, &format!("pl.{path}"));
        let allowed: &[&str] = match path {
            "scope" => &["mode", "name_hint"],
            "auto_scope" => &[],
            _ => &["name_hint"],
        };
        let (name, attrs) = self.keywords(args, allowed, &format!("pl.{path}"), header);
        let manual = path == "manual_scope"
            || attrs.iter().any(|&(k, e)| {
                self.cx.name(k) == "mode"
                    && self.cx.program.expr(e).kind == ExprKind::Enum(EnumValue::ScopeMode(ScopeMode::Manual))
            });
        let attrs: Vec<(Symbol, ExprId)> = attrs.into_iter().filter(|&(k, _)| self.cx.name(k) != "mode").collect();
        let in_manual =
            self.frames.iter().any(|f| matches!(f, Frame::Scope { kind: FrameKind::Runtime { manual: true }, .. }));
        if in_manual {
            let message = if manual {
                "a manual scope may not be nested inside another manual scope"
            } else {
                "an AUTO scope may not be nested inside a manual scope"
            };
            self.error(Code::E0315, header, message, "nested runtime scope");
        } else if !manual && path != "auto_scope" && self.info.decl.auto_scope != Some(false) {
            self.error_help(
                Code::E0315,
                header,
                "a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)",
                "automatic scopes are placed by the compiler",
                "add `auto_scope=False` to the function's decorator, or remove this `with`",
            );
        }
        self.scope(ScopeKind::Runtime { manual }, FrameKind::Runtime { manual }, name, None, attrs, body, header, out);
    }

    /// Lowers a scope's body inside its frame and emits the scope.
    #[allow(clippy::too_many_arguments)]
    fn scope(
        &mut self,
        kind: ScopeKind,
        frame: FrameKind,
        name: Option<Symbol>,
        task_id: Option<crate::ir::VarId>,
        attrs: Vec<(Symbol, ExprId)>,
        body: &ast::Block,
        header: Span,
        out: &mut Block,
    ) {
        let name_text = name.map(|n| self.cx.name(n).to_string());
        self.frames.push(Frame::Scope { kind: frame, span: header, name: name_text });
        let block = self.block(self.ast().block(body));
        self.frames.pop();
        let s = self.new_stmt(StmtKind::Scope(Box::new(Scope { kind, name, task_id, body: block, attrs })), header);
        out.push(s);
    }
}

/// The parts of an Spmd region built around an implicit core-group region.
struct SpmdRegion {
    core_num: ExprId,
    name: Option<Symbol>,
    task_id: Option<crate::ir::VarId>,
    /// The Spmd region's options.
    attrs: Vec<(Symbol, ExprId)>,
    /// The core-group region's options (`optimizations=`).
    incore_attrs: Vec<(Symbol, ExprId)>,
}

/// What the messages call a `for ... in pl.split_aiv(2, mode=...)` loop.
const SPLIT_AIV: &str = "pl.split_aiv";

/// The frame name of the regions a `for ... in pl.spmd(n)` loop opens.
const SPMD_LOOP: &str = "for ... in pl.spmd(...)";

/// A valid Python identifier that is not a keyword.
pub(crate) fn is_identifier(text: &str) -> bool {
    let word = match text.as_bytes() {
        [] => false,
        // The usual name, read byte by byte (no decoding of characters).
        bytes if bytes.is_ascii() => {
            !bytes[0].is_ascii_digit() && bytes.iter().all(|&b| b == b'_' || b.is_ascii_alphanumeric())
        }
        _ => {
            let mut chars = text.chars();
            chars.next().is_some_and(|first| first == '_' || first.is_alphabetic())
                && chars.all(|c| c == '_' || c.is_alphanumeric())
        }
    };
    word && !matches!(
        text,
        "False"
            | "None"
            | "True"
            | "and"
            | "as"
            | "assert"
            | "async"
            | "await"
            | "break"
            | "class"
            | "continue"
            | "def"
            | "del"
            | "elif"
            | "else"
            | "except"
            | "finally"
            | "for"
            | "from"
            | "global"
            | "if"
            | "import"
            | "in"
            | "is"
            | "lambda"
            | "nonlocal"
            | "not"
            | "or"
            | "pass"
            | "raise"
            | "return"
            | "try"
            | "while"
            | "with"
            | "yield"
    )
}

trait WithLabel {
    fn with_label_mut(&mut self, label: Label) -> &mut Self;
}

impl WithLabel for crate::diag::Diagnostic {
    fn with_label_mut(&mut self, label: Label) -> &mut Self {
        self.secondary.push(label);
        self
    }
}

/// Whether an op is a split transfer: the gather (`Some(true)`), the shard (`Some(false)`),
/// or neither (`None`). Every spelling of the four rows (`pl.aiv_shard`, `pl.tile.`,
/// `pl.tensor.`) goes through [`FnLower::split_transfer`], which picks the row by operand.
pub(crate) fn split_transfer_kind(op: Op) -> Option<bool> {
    match op {
        Op::TileAivShard | Op::TensorAivShard => Some(false),
        Op::TileAicGather | Op::TensorAicGather => Some(true),
        _ => None,
    }
}

impl FnLower<'_, '_> {
    /// `pl.aiv_shard(x)` / `pl.aic_gather(x)` (ops.md §1.4): one positional operand; in a
    /// `pl.split_aiv` loop no keywords and the loop's mode as `split`; outside one an
    /// integer `split=` (and for the shard `lane_stride=`), tile operands only. A tensor
    /// operand is the `tensor.` op, any other the `tile.` op.
    pub(crate) fn split_transfer(
        &mut self,
        gather: bool,
        spelled: &str,
        args: &[ast::Arg],
        span: Span,
    ) -> Option<ExprId> {
        let name = if gather { "aic_gather" } else { "aiv_shard" };
        let positional: Vec<ast::ExprId> =
            args.iter().filter(|a| matches!(a.kind, ArgKind::Positional)).map(|a| a.value).collect();
        let [operand] = positional.as_slice() else {
            let n = positional.len();
            self.error(
                Code::E0202,
                span,
                format!("{spelled}() takes exactly one positional operand, got {n}"),
                "one operand",
            );
            return None;
        };
        let (mut split, mut stride) = (None, None);
        for a in args {
            let ArgKind::Keyword(k) = a.kind else { continue };
            let key = self.cx.name(k.name).to_string();
            let refusal = match key.as_str() {
                "split" | "lane_stride" if self.split_aiv.is_some() => Some(format!(
                    "pl.{name}() does not take a {key}= argument inside a 'for ... in pl.split_aiv(...)' loop: it follows the loop's mode"
                )),
                "lane_stride" if gather => Some(format!("pl.{name}() does not take a lane_stride= argument")),
                "split" => {
                    split = Some(a.value);
                    None
                }
                "lane_stride" => {
                    stride = Some(a.value);
                    None
                }
                _ => Some(format!("pl.{name}() does not accept keyword argument '{key}'")),
            };
            if let Some(message) = refusal {
                let code = if matches!(key.as_str(), "split" | "lane_stride") { Code::E0217 } else { Code::E0203 };
                self.error(code, a.span, message, "not accepted here");
                return None;
            }
        }
        let x = self.expr(*operand)?;
        let tensor = self.ty(x).is_tensor();
        let split = match (self.split_aiv, split) {
            (Some(mode), _) => {
                // PyPTO's SplitMode values: NONE 0, UP_DOWN 1, LEFT_RIGHT 2.
                let code = match mode {
                    crate::ir::SplitMode::None => 0,
                    crate::ir::SplitMode::UpDown => 1,
                    crate::ir::SplitMode::LeftRight => 2,
                };
                self.int(code, span)
            }
            (None, None) => {
                let message = format!(
                    "pl.{name}() must be used inside a 'for ... in pl.split_aiv(...)' loop, or given an integer split= in the outlined form"
                );
                self.error(Code::E0217, span, message, "no split mode");
                return None;
            }
            // plc prints a pl.split_aiv loop as the pl.parallel loop it runs, and the
            // tensor op in it as `pl.tensor.aiv_shard(t, split=N)`: that spelling reads back.
            (None, Some(_)) if tensor && !spelled.starts_with("pl.tensor.") => {
                let message = format!("pl.{name}(..., split=N) takes a tile: the outlined split= form is tile-only");
                self.error(Code::E0217, span, message, "a tensor operand");
                return None;
            }
            (None, Some(e)) => self.int_literal_arg(e, name, "split")?,
        };
        let stride = match stride {
            Some(e) => Some(self.int_literal_arg(e, name, "lane_stride")?),
            None => None,
        };
        let op = match (gather, tensor) {
            (false, true) => Op::TensorAivShard,
            (true, true) => Op::TensorAicGather,
            (false, false) => Op::TileAivShard,
            (true, false) => Op::TileAicGather,
        };
        let mut lowered = vec![Some(x), Some(split)];
        if stride.is_some() {
            lowered.push(stride);
        }
        self.op_result(op, lowered, span)
    }

    /// `key=` of a split transfer: an integer literal.
    fn int_literal_arg(&mut self, e: ast::ExprId, name: &str, key: &str) -> Option<ExprId> {
        let span = self.ast().expr(e).span;
        let v = self.expr(e)?;
        if !matches!(self.cx.program.expr(v).kind, ExprKind::Int(_)) {
            self.error(
                Code::E0217,
                span,
                format!("pl.{name}(..., {key}=N) requires an integer literal"),
                "not an integer",
            );
            return None;
        }
        Some(v)
    }
}
