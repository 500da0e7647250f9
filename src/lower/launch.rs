//! PyPTO's parser checks on task launches (ops.md §4.1 "submit", "deps / predicate"):
//! where `pl.submit` / `pl.spmd_submit` may stand, the launch's `core_num=`, the entries
//! of `deps=` and `dumps=`, and the rule that a `predicate=` reading a tensor another
//! task produced lists that task in `deps=`.

use super::body::{FnLower, Frame, FrameKind};
use crate::diag::{Code, Label, Span};
use crate::intern::Symbol;
use crate::ir::{DType, ExprId, ExprKind, Type, TypeId, VarId};
use crate::syntax::ast::{self, CmpOp, ExprKind as E};
use rustc_hash::FxHashMap;

/// What the launch checks remember while a function body is lowered.
#[derive(Default)]
pub(crate) struct LaunchTrack {
    /// The span of the value of the assignment being lowered: the one place a
    /// `pl.submit(...)` may stand (`out, tid = pl.submit(...)`).
    pub unpacked: Option<Span>,
    /// Set while the value of a `deps=` is lowered: the one place a list comprehension
    /// may stand.
    pub in_deps: bool,
    /// How many times each name was bound since the first launch or region result was
    /// recorded (a re-bound name keeps its variable in plc, so the count tells the
    /// bindings apart). Counts are only compared with counts read after that point, so a
    /// function without a launch counts nothing (`tracking`).
    generation: FxHashMap<Symbol, u32>,
    /// Set at the first `produced` entry: from then on `bound` counts.
    tracking: bool,
    /// For a name bound to a result of a launch: its generation then, and the task-id
    /// name of that launch with the task-id name's generation then.
    produced: FxHashMap<Symbol, (u32, Symbol, u32)>,
    /// The task ids first bound inside a runtime scope (`with pl.scope()` /
    /// `pl.manual_scope()`), with the span of that scope's header: once the scope has
    /// closed, a `deps=` may not name them.
    scoped: FxHashMap<VarId, Span>,
}

impl LaunchTrack {
    /// Notes one more binding of `name`.
    pub fn bound(&mut self, name: Symbol) {
        if self.tracking {
            *self.generation.entry(name).or_default() += 1;
        }
    }

    fn generation(&self, name: Symbol) -> u32 {
        self.generation.get(&name).copied().unwrap_or(0)
    }

    /// The task-id name (and its generation) of the launch whose result `name` now holds.
    fn producer(&self, name: Symbol) -> Option<(Symbol, u32)> {
        let &(gen, tid, tid_gen) = self.produced.get(&name)?;
        (gen == self.generation(name)).then_some((tid, tid_gen))
    }
}

/// One entry of a `deps=` list, as far as the mixing rule cares.
#[derive(Clone, Copy, PartialEq)]
enum DepEntry {
    /// A whole TASK_ID array (`tids`).
    Array,
    /// An element of a TASK_ID array (`tids[i]`) or a comprehension of them.
    Element,
    /// A task id, or `None`.
    Other,
}

impl FnLower<'_, '_> {
    /// `pl.submit(...)` / `pl.spmd_submit(...)` anywhere but as the value of an assignment
    /// (`out, tid = pl.submit(...)`, or `res = pl.submit(...)` binding the whole tuple) is
    /// refused, as PyPTO refuses it.
    pub(crate) fn submit_position_ok(&mut self, path: &str, span: Span) -> bool {
        if self.launches.unpacked == Some(span) {
            return true;
        }
        let example = if path == "spmd_submit" {
            "out, tid = pl.spmd_submit(self.kernel, ..., core_num=N)"
        } else {
            "out, tid = pl.submit(self.kernel, ...)"
        };
        self.error_help(
            Code::E0223,
            span,
            format!("pl.{path}(...) must be unpacked as a 2-tuple: '{example}'"),
            "not unpacked",
            "name the task id even when nothing uses it: `out, _ = ...`",
        );
        false
    }

    /// The header of the innermost `pl.cluster()` region around the statement being
    /// lowered, if any.
    pub(crate) fn enclosing_cluster(&self) -> Option<Span> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Scope { kind: FrameKind::Cluster, span, .. } => Some(*span),
            _ => None,
        })
    }

    /// Per-task dispatch metadata (`keys`: the launch keywords given) on `what` (a launch,
    /// or a nested `with pl.spmd(...)`) inside `pl.cluster()` is E0318: the cluster is
    /// dispatched as one Group task, so the metadata would be dropped. An empty or all-`None`
    /// `deps=` and a `False` flag carry nothing.
    pub(crate) fn cluster_metadata_ok(&mut self, what: &str, keys: &[(Symbol, ast::ExprId)], span: Span) -> bool {
        let Some(cluster) = self.enclosing_cluster() else { return true };
        let mut carried = Vec::new();
        for &(k, v) in keys {
            let name = self.cx.name(k);
            let carries = match name {
                "deps" => match &self.ast().expr(v).kind {
                    E::List(items) => {
                        self.ast().list(*items).iter().any(|&i| !matches!(self.ast().expr(i).kind, E::None))
                    }
                    _ => true,
                },
                "allow_early_resolve" | "sync_start" => !matches!(self.ast().expr(v).kind, E::False),
                "predicate" | "core_num" => true,
                _ => false,
            };
            if carries {
                carried.push(format!("{name}="));
            }
        }
        if carried.is_empty() {
            return true;
        }
        let message = format!(
            "'{what}(...)' inside 'pl.cluster()' cannot carry per-task dispatch metadata ({}) — the cluster is dispatched as one Group task, so the metadata would be dropped",
            carried.join(", ")
        );
        self.cluster_metadata_error(
            span,
            cluster,
            message,
            "drop the metadata, or move the launch out of the `pl.cluster()` region",
        );
        false
    }

    /// E0318 at `span`, pointing at the enclosing `cluster` region too.
    pub(crate) fn cluster_metadata_error(&mut self, span: Span, cluster: Span, message: String, help: &str) {
        let file = self.file;
        let d = self.error(Code::E0318, span, message, "per-task dispatch metadata");
        d.secondary.push(Label::secondary(file, cluster, "the cluster region"));
        d.help = Some(help.to_string());
    }

    /// `core_num=` of `pl.spmd_submit`, lowered to `e` from `value`: an integer, and
    /// positive when it is a constant.
    pub(crate) fn launch_core_num_ok(&mut self, value: ast::ExprId, e: ExprId) -> bool {
        let span = self.ast().expr(value).span;
        let ty = self.cx.program.types.get(self.cx.program.expr(e).ty).clone();
        if !matches!(ty, Type::Scalar(d) if d.is_int()) && !matches!(ty, Type::Unknown) {
            let got = self.text(span);
            self.error(
                Code::E0217,
                span,
                format!("core_num of pl.spmd_submit() must be an integer expression, got {got}"),
                "not an integer",
            );
            return false;
        }
        if let ExprKind::Int(n) = self.cx.program.expr(e).kind {
            if n <= 0 {
                self.error(
                    Code::E0218,
                    span,
                    format!("core_num of pl.spmd_submit() must be a positive integer, got {n}"),
                    "not positive",
                );
                return false;
            }
        }
        true
    }

    /// The value of `deps=` of a launch or a scope, lowered: its entries may not mix a
    /// whole TASK_ID array with elements of one, and a list comprehension may stand in it.
    pub(crate) fn deps_value(&mut self, value: ast::ExprId, what: &str) -> Option<ExprId> {
        if !matches!(self.ast().expr(value).kind, E::List(_) | E::Tuple(_) | E::Comprehension { .. }) {
            // `[a] + [b for ...]` and any other computed value: PyPTO reads only the
            // literal forms.
            let (span, text) = self.source_of(value);
            self.error_help(
                Code::E0217,
                span,
                format!("{what} deps= must be a list / tuple / comprehension of TaskId values, got '{text}'"),
                "not a list",
                "write every entry in one list: deps=[tid, arr[i], ...], or one comprehension",
            );
            return None;
        }
        if let E::List(items) | E::Tuple(items) = &self.ast().expr(value).kind {
            let mut seen: Option<DepEntry> = None;
            for &item in self.ast().list(*items) {
                let entry = self.dep_entry(item);
                let clash = match (seen, entry) {
                    (Some(DepEntry::Array), DepEntry::Element) => Some("per-element entry"),
                    (Some(DepEntry::Element), DepEntry::Array) => Some("array entry"),
                    _ => None,
                };
                if let Some(kind) = clash {
                    let (span, text) = self.source_of(item);
                    let after =
                        if entry == DepEntry::Array { "a per-element / comprehension" } else { "a whole-array" };
                    self.error_help(
                        Code::E0217,
                        span,
                        format!(
                            "{what} deps= cannot mix a whole TASK_ID array with per-element entries (got {kind} '{text}' after {after} entry)"
                        ),
                        "mixes array and elements", "list the elements one by one, or pass the whole array alone");
                    return None;
                }
                if entry != DepEntry::Other {
                    seen = Some(entry);
                }
            }
        }
        if !self.deps_in_open_scopes(value, what) {
            return None;
        }
        let saved = std::mem::replace(&mut self.launches.in_deps, true);
        let e = self.expr(value);
        self.launches.in_deps = saved;
        self.deps_entries_ok(value, e?, what).then_some(e?)
    }

    /// The entries of a lowered `deps=` (`e`, written as `value`) are task ids (a TaskId
    /// variable, an element of a TASK_ID array, or a whole one) or `None`: PyPTO's
    /// "deps= entries must be a TaskId variable, a TASK_ID array element (e.g. 'arr[i]'),
    /// or None". A value of unknown type is left to later stages.
    fn deps_entries_ok(&mut self, value: ast::ExprId, e: ExprId, what: &str) -> bool {
        let ExprKind::Tuple(entries) = self.cx.program.expr(e).kind.clone() else { return true };
        let written = match &self.ast().expr(value).kind {
            E::List(items) | E::Tuple(items) if items.len() == entries.len() => Some(self.ast().list(*items)),
            _ => None,
        };
        for (k, entry) in entries.iter().copied().enumerate() {
            let ty = self.cx.program.types.get(self.cx.program.expr(entry).ty);
            let task = matches!(
                ty,
                Type::Scalar(DType::TaskId) | Type::Array { dtype: DType::TaskId, .. } | Type::None | Type::Unknown
            );
            if task || matches!(self.cx.program.expr(entry).kind, ExprKind::None) {
                continue;
            }
            let (span, text) = self.source_of(written.as_ref().map_or(value, |items| items[k]));
            self.error(
                Code::E0217,
                span,
                format!("{what} deps= entries must be a TaskId variable, a TASK_ID array element (e.g. 'arr[i]'), or None — got '{text}'"),
                "not a task id",
            );
            return false;
        }
        true
    }

    /// Remembers a new task-id variable created inside a runtime scope.
    pub(crate) fn note_scoped_task(&mut self, var: VarId, ty: TypeId) {
        if !matches!(self.cx.program.types.get(ty), Type::Scalar(DType::TaskId)) {
            return;
        }
        let scope = self.frames.iter().rev().find_map(|f| match f {
            Frame::Scope { kind: FrameKind::Runtime { .. }, span, .. } => Some(*span),
            _ => None,
        });
        if let Some(scope) = scope {
            self.launches.scoped.insert(var, scope);
        }
    }

    /// A task id re-bound outside the runtime scope that first bound it lives on after
    /// that scope.
    pub(crate) fn rebound_task(&mut self, var: VarId) {
        let Some(&scope) = self.launches.scoped.get(&var) else { return };
        if !self.runtime_scope_open(scope) {
            self.launches.scoped.remove(&var);
        }
    }

    fn runtime_scope_open(&self, scope: Span) -> bool {
        self.frames
            .iter()
            .any(|f| matches!(f, Frame::Scope { kind: FrameKind::Runtime { .. }, span, .. } if *span == scope))
    }

    /// The entries of a `deps=` list (of a launch, a region or `pl.system.task_dummy`)
    /// that name a task id first bound inside a runtime scope that has closed since: its
    /// variable does not outlive the scope, so the edge cannot be honored (E0315). A task
    /// id bound before the scope and re-bound inside it lives on after it.
    pub(crate) fn deps_in_open_scopes(&mut self, value: ast::ExprId, what: &str) -> bool {
        let (E::List(items) | E::Tuple(items)) = &self.ast().expr(value).kind else { return true };
        let mut ok = true;
        for &item in self.ast().list(*items) {
            let E::Name(n) = self.ast().expr(item).kind else { continue };
            let Some(&var) = self.names.get(&n) else { continue };
            let Some(&scope) = self.launches.scoped.get(&var) else { continue };
            if self.runtime_scope_open(scope) {
                continue;
            }
            let span = self.ast().expr(item).span;
            let name = self.cx.name(n).to_string();
            let file = self.file;
            let d = self.error(
                Code::E0315,
                span,
                format!("{what} deps= names '{name}', a task id from a runtime scope that has closed: the dependency cannot be honored"),
                "its scope has closed",
            );
            d.secondary.push(Label::secondary(file, scope, "the scope that produces it"));
            d.help = Some(format!(
                "move this use inside the scope that produces '{name}', or bind '{name}' before the scope (e.g. `{name} = pl.system.task_invalid()`)"
            ));
            ok = false;
        }
        ok
    }

    fn dep_entry(&mut self, item: ast::ExprId) -> DepEntry {
        match self.ast().expr(item).kind {
            E::Comprehension { .. } => DepEntry::Element,
            E::Subscript { value, .. } if self.is_task_array(value) => DepEntry::Element,
            E::Name(_) if self.is_task_array(item) => DepEntry::Array,
            _ => DepEntry::Other,
        }
    }

    /// Whether `e` is a name of a variable holding an array (a TASK_ID array in `deps=`).
    fn is_task_array(&self, e: ast::ExprId) -> bool {
        let E::Name(n) = self.ast().expr(e).kind else { return false };
        let Some(&var) = self.names.get(&n) else { return false };
        matches!(self.cx.program.types.get(self.cx.program.var(var).ty), Type::Array { .. })
    }

    /// `dumps=[a, b]` of a launch: each entry a name passed as an argument of the launch.
    pub(crate) fn launch_dumps_ok(&mut self, path: &str, value: ast::ExprId, call_args: &[ast::Arg]) -> bool {
        let (E::List(items) | E::Tuple(items)) = &self.ast().expr(value).kind else {
            let span = self.ast().expr(value).span;
            self.error(
                Code::E0217,
                span,
                format!("pl.{path}() dumps= must be a list / tuple of tensor arguments"),
                "not a list",
            );
            return false;
        };
        let passed: Vec<Symbol> = call_args
            .iter()
            .filter_map(|a| {
                let (inner, _) = self.strip_no_dep(a.value);
                match self.ast().expr(inner).kind {
                    E::Name(n) => Some(n),
                    _ => None,
                }
            })
            .collect();
        for &item in self.ast().list(*items) {
            let (span, text) = self.source_of(item);
            let E::Name(n) = self.ast().expr(item).kind else {
                self.error(
                    Code::E0217,
                    span,
                    format!("pl.{path}() dumps= entries must be tensor variables — got '{text}'"),
                    "not a name",
                );
                return false;
            };
            if !passed.contains(&n) {
                self.error_help(
                    Code::E0217,
                    span,
                    format!("pl.{path}() dumps= entry '{text}' is not an argument of this submit"),
                    "not an argument",
                    "dumps= names tensors the launch passes to the kernel",
                );
                return false;
            }
        }
        true
    }

    /// A `predicate=` of a launch reading a tensor that an earlier launch produced: that
    /// launch's task id must be an entry of `deps=` (and still name that launch).
    pub(crate) fn predicate_deps_ok(&mut self, path: &str, predicate: ast::ExprId, deps: Option<ast::ExprId>) -> bool {
        let mut entries = Vec::new();
        if let Some(d) = deps {
            match &self.ast().expr(d).kind {
                E::List(items) | E::Tuple(items) => {
                    for &item in self.ast().list(*items) {
                        match self.ast().expr(item).kind {
                            E::Name(n) => entries.push((n, self.launches.generation(n))),
                            E::None => {}
                            // An array or a comprehension: which tasks it holds is known at run time.
                            _ => return true,
                        }
                    }
                }
                _ => return true,
            }
        }
        let mut names = Vec::new();
        names_in(self.ast(), predicate, &mut names);
        for (n, span) in names {
            let Some((tid, gen)) = self.launches.producer(n) else { continue };
            if entries.contains(&(tid, gen)) {
                continue;
            }
            let (t, id) = (self.cx.name(n).to_string(), self.cx.name(tid).to_string());
            self.error_help(
                Code::E0217,
                span,
                format!(
                    "pl.{path}() predicate reads '{t}', which is produced by the task bound to '{id}', but '{id}' is not in deps="
                ),
                "its producer is not in deps=", format!(
                "add the producer's task id to deps= (a name re-bound since then no longer names that task): deps=[{id}]"
            ));
            return false;
        }
        true
    }

    /// A launch's `predicate=` (the call form, `pl.spmd(...)` and `pl.at(level=CORE_GROUP,
    /// ...)` regions): its shape ([`Self::predicate_shape_ok`]), then its producer in
    /// `deps=` ([`Self::predicate_deps_ok`]). `what` is the construct after `pl.`
    /// (`spmd_submit`, `spmd`, `at`).
    pub(crate) fn predicate_ok(&mut self, what: &str, predicate: ast::ExprId, deps: Option<ast::ExprId>) -> bool {
        self.predicate_shape_ok(what, predicate) && self.predicate_deps_ok(what, predicate, deps)
    }

    /// PyPTO's shape of a dispatch predicate, which the runtime evaluates as one
    /// `element OP constant` test: a single comparison (==, !=, <, <=, >, >=), either way
    /// round, of one element of a signed 8/16/32/64-bit integer tensor, `t[i, j]` with one
    /// non-negative integer index per axis, against an integer literal (E0217). A chained
    /// comparison or another operator is left to the expression's own lowering.
    pub(crate) fn predicate_shape_ok(&mut self, what: &str, p: ast::ExprId) -> bool {
        let pspan = self.ast().expr(p).span;
        let &E::Compare { first, ref rest } = &self.ast().expr(p).kind else {
            let message = format!("'pl.{what}' predicate must be a single comparison (==, !=, >, <, >=, <=)");
            self.error(Code::E0217, pspan, message, "not a comparison");
            return false;
        };
        let [(op, second)] = rest[..] else { return true };
        if matches!(op, CmpOp::In | CmpOp::NotIn | CmpOp::Is | CmpOp::IsNot) {
            return true;
        }
        let literal = |s: &Self, e: ast::ExprId| int_literal(s.ast(), e).is_some();
        let element = if literal(self, second) {
            first
        } else if literal(self, first) {
            second
        } else {
            p
        };
        let E::Subscript { value: base, index } = self.ast().expr(element).kind else {
            let message = format!(
                "'pl.{what}' predicate must compare one tensor element (e.g. t[i]) against an integer literal: the runtime tests a single element against a constant"
            );
            self.error(Code::E0217, pspan, message, "not element against literal");
            return false;
        };
        let Some(b) = self.expr(base) else { return false };
        let ty = self.ty(b).clone();
        let bspan = self.ast().expr(base).span;
        let Type::Tensor { shape, dtype, .. } = &ty else {
            let message = format!("predicate operand must be a tensor, got {}", self.describe_type(&ty));
            self.error(Code::E0217, bspan, message, "not a tensor");
            return false;
        };
        if let Some(d) = dtype.filter(|d| !matches!(d, DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64)) {
            let message = format!(
                "predicate operand must be a signed 8/16/32/64-bit integer tensor, got {}: the runtime sign-extends the element it reads",
                d.name()
            );
            self.error(Code::E0217, bspan, message, "not a signed integer tensor");
            return false;
        }
        let indices = match &self.ast().expr(index).kind {
            E::Tuple(items) => self.ast().list(*items).to_vec(),
            _ => vec![index],
        };
        if let Some(rank) = shape.as_ref().map(Vec::len).filter(|&r| r != indices.len()) {
            let message = format!(
                "predicate needs {rank} index(es) to locate a single element of a rank-{rank} tensor, got {}",
                indices.len()
            );
            self.error(Code::E0217, self.ast().expr(index).span, message, "not one element");
            return false;
        }
        indices.into_iter().all(|i| self.predicate_index_ok(i))
    }

    /// One index of a predicate's element: an integer scalar, not negative when constant.
    fn predicate_index_ok(&mut self, i: ast::ExprId) -> bool {
        let span = self.ast().expr(i).span;
        if let Some(v) = int_literal(self.ast(), i).and_then(|t| self.text(t.0).parse::<i64>().ok().map(|n| t.1 * n)) {
            if v < 0 {
                let message = format!(
                    "predicate index must be non-negative, got {v}: the runtime keeps indices as unsigned 32-bit values"
                );
                self.error(Code::E0217, span, message, "negative index");
                return false;
            }
            return true;
        }
        let Some(e) = self.expr(i) else { return false };
        let ty = self.ty(e).clone();
        if !matches!(ty, Type::Scalar(d) if d.is_int()) {
            let message = format!("predicate indices must be integer scalars, got {}", self.describe_type(&ty));
            self.error(Code::E0217, span, message, "not an integer index");
            return false;
        }
        true
    }

    /// After `a, b, tid = pl.submit(...)`: remember that `a` and `b` were produced by the
    /// task bound to `tid`.
    pub(crate) fn record_launch_targets(&mut self, items: &[ast::ExprId]) {
        let Some((&last, results)) = items.split_last() else { return };
        let E::Name(tid) = self.ast().expr(last).kind else { return };
        self.launches.tracking = true;
        let tid_gen = self.launches.generation(tid);
        let mut names = Vec::new();
        for &r in results {
            names_in(self.ast(), r, &mut names);
        }
        for (n, _) in names {
            let gen = self.launches.generation(n);
            self.launches.produced.insert(n, (gen, tid, tid_gen));
        }
    }

    /// After `with pl.spmd(...) as tid:` / `with pl.at(...) as tid:`: the names its body
    /// assigns were produced by the task bound to `tid` (PyPTO tracks a region's results
    /// for the `predicate=` / `deps=` rule as it tracks a launch's).
    pub(crate) fn record_region_targets(&mut self, item: &ast::WithItem, body: &[ast::StmtId]) {
        let Some(t) = item.target else { return };
        let E::Name(tid) = self.ast().expr(t).kind else { return };
        self.launches.tracking = true;
        let tid_gen = self.launches.generation(tid);
        let mut names = Vec::new();
        assigned_in(self.ast(), body, &mut names);
        for n in names {
            let gen = self.launches.generation(n);
            self.launches.produced.insert(n, (gen, tid, tid_gen));
        }
    }

    /// Whether the value `value` of a tuple assignment is a launch (`pl.submit(...)`).
    pub(crate) fn is_launch(&self, value: ast::ExprId) -> bool {
        let E::Call { func, .. } = &self.ast().expr(value).kind else { return false };
        self.cx.pl_path(self.m, *func).is_some_and(|p| super::LAUNCHES.contains(&p.as_ref()))
    }

    /// A list comprehension outside `deps=` is refused, as PyPTO refuses it.
    pub(crate) fn comprehension_allowed(&mut self, span: Span) -> bool {
        if self.launches.in_deps {
            return true;
        }
        self.error_help(
            Code::E0110,
            span,
            "Unsupported expression type: ListComp — a list comprehension is only supported as the deps= of a launch",
            "not in deps=",
            "write the comprehension directly in deps=[...]",
        );
        false
    }
}

/// The names `stmts` bind by assignment (plain, annotated, tuple targets), nested blocks
/// included.
fn assigned_in(ast: &ast::Ast, stmts: &[ast::StmtId], out: &mut Vec<Symbol>) {
    fn target(ast: &ast::Ast, e: ast::ExprId, out: &mut Vec<Symbol>) {
        match &ast.expr(e).kind {
            E::Name(n) => out.push(*n),
            E::Tuple(items) | E::List(items) => ast.list(*items).iter().for_each(|&i| target(ast, i, out)),
            _ => {}
        }
    }
    for &s in stmts {
        match &ast.stmt(s).kind {
            ast::StmtKind::Assign { targets, .. } => ast.list(*targets).iter().for_each(|&t| target(ast, t, out)),
            ast::StmtKind::AnnAssign { target: t, .. } => target(ast, *t, out),
            _ => {}
        }
        let mut children = Vec::new();
        ast.stmt_children(s, &mut children);
        let nested: Vec<ast::StmtId> =
            children.into_iter().filter_map(|c| if let ast::Node::Stmt(x) = c { Some(x) } else { None }).collect();
        assigned_in(ast, &nested, out);
    }
}

/// An integer literal, possibly signed (`3`, `-5`, `+5`): the literal's span and its sign.
fn int_literal(ast: &ast::Ast, e: ast::ExprId) -> Option<(Span, i64)> {
    match &ast.expr(e).kind {
        E::Int => Some((ast.expr(e).span, 1)),
        E::Unary { op: ast::UnaryOp::Neg, operand } => int_literal(ast, *operand).map(|(s, sign)| (s, -sign)),
        E::Unary { op: ast::UnaryOp::Pos, operand } => int_literal(ast, *operand),
        _ => None,
    }
}

/// The names `e` reads, with their spans, in source order.
fn names_in(ast: &ast::Ast, e: ast::ExprId, out: &mut Vec<(Symbol, Span)>) {
    if let E::Name(n) = ast.expr(e).kind {
        out.push((n, ast.expr(e).span));
    }
    ast.expr_children(e, &mut |c| names_in(ast, c, out));
}
