//! The call forms around task launches: `pl.submit(self.f, ...)` and
//! `pl.spmd_submit(self.f, ..., core_num=n)`, `pl.no_dep(x)` on an argument, `attrs={...}`
//! on a function call, and the `pl.func_attr({...})` prologue of a function.
//!
//! These are what the outlining passes print for a region with `as tid`, `deps=`,
//! `no_dep_args=` or `optimizations=`, so the printed program lowers to the same IR again.

use super::body::FnLower;
use super::Binding;
use crate::diag::{Code, Label, Span};
use crate::intern::Symbol;
use crate::ir::ops::{Op, Param as OpParam};
use crate::ir::{ArgDir, CallAttrs, Callee, DType, Dim, Direction, ExprId, ExprKind, FuncKind, Type};
use crate::syntax::ast::{self, ArgKind, ExprKind as E, StmtKind as S};

/// The direction markers `pl.adir.<name>(x)` of PyPTO's printer (`ArgDirection`), with the
/// direction each stands for.
const ADIR_MARKERS: &[(&str, ArgDir)] = &[
    ("input", ArgDir::Input),
    ("output", ArgDir::OutputExisting),
    ("inout", ArgDir::InOut),
    ("output_existing", ArgDir::OutputExisting),
    ("no_dep", ArgDir::NoDep),
    ("scalar", ArgDir::Scalar),
];

/// The direction the marker `pl.adir.<name>` stands for.
fn adir_marker(name: &str) -> Option<ArgDir> {
    ADIR_MARKERS.iter().find(|(n, _)| *n == name).map(|&(_, dir)| dir)
}
/// The keywords `pl.submit` takes besides the function's own arguments.
const SUBMIT_KEYWORDS: &[&str] = &["deps", "dumps", "allow_early_resolve", "predicate", "attrs", "timing_slot"];
/// The keywords `pl.spmd_submit` takes besides the function's own arguments.
const SPMD_SUBMIT_KEYWORDS: &[&str] =
    &["core_num", "sync_start", "deps", "dumps", "allow_early_resolve", "predicate", "attrs", "timing_slot"];

impl FnLower<'_, '_> {
    /// `pl.submit(self.f, a, b, deps=[...])` / `pl.spmd_submit(self.f, a, core_num=n)`: a
    /// launch of `f` whose value is `f`'s results followed by the task id.
    pub(crate) fn submit_call(&mut self, path: &str, args: &[ast::Arg], span: Span) -> Option<ExprId> {
        let spmd = path == "spmd_submit";
        let launch_keys = if spmd { SPMD_SUBMIT_KEYWORDS } else { SUBMIT_KEYWORDS };
        let Some(first) = args.iter().find(|a| matches!(a.kind, ArgKind::Positional)) else {
            self.error(
                Code::E0202,
                span,
                format!("pl.{path}() takes the function to launch first, as in `pl.{path}(self.kernel, a, b)`"),
                "no function",
            );
            return None;
        };
        let key = self.launched_function(first.value, path)?;
        let mut call_args = Vec::new();
        let mut launch = Vec::new();
        let mut skipped_first = false;
        for a in args {
            match a.kind {
                ArgKind::Positional if !skipped_first => skipped_first = true,
                ArgKind::Keyword(k) if launch_keys.contains(&self.cx.name(k.name)) => launch.push((k.name, a.value)),
                _ => call_args.push(a.clone()),
            }
        }
        if !self.cluster_metadata_ok(&format!("pl.{path}"), &launch, span) {
            return None;
        }
        let call = self.call_of(key, &call_args, span, true)?;
        let ExprKind::Call { callee: Callee::Func(f), args: lowered, mut attrs } =
            self.cx.program.expr(call).kind.clone()
        else {
            return None;
        };
        let mut has_core_num = false;
        let mut deps = None;
        let mut predicate = None;
        for (k, value) in launch {
            let name = self.cx.name(k).to_string();
            match name.as_str() {
                "attrs" => self.attrs_dict(value, &mut attrs)?,
                "allow_early_resolve" | "sync_start" => {
                    if !matches!(self.ast().expr(value).kind, E::True | E::False) {
                        let vspan = self.ast().expr(value).span;
                        self.error(
                            Code::E0310,
                            vspan,
                            format!("pl.{path}({name}=...) must be True or False"),
                            "not a bool literal",
                        );
                        return None;
                    }
                    let e = self.expr(value)?;
                    *attrs.make_mut().launch.slot_mut(&name).expect("a launch keyword") = Some(e);
                }
                _ => {
                    has_core_num |= name == "core_num";
                    let e = match name.as_str() {
                        "deps" => {
                            deps = Some(value);
                            self.deps_value(value, &format!("pl.{path}()"))?
                        }
                        "dumps" if !self.launch_dumps_ok(path, value, &call_args) => return None,
                        "timing_slot" if !matches!(self.ast().expr(value).kind, E::Int) => {
                            let vspan = self.ast().expr(value).span;
                            let message = format!("pl.{path}(timing_slot=...) must be a non-negative integer literal");
                            self.error(Code::E0310, vspan, message, "not an integer literal");
                            return None;
                        }
                        "predicate" => {
                            predicate = Some(value);
                            if !self.predicate_shape_ok(path, value) {
                                return None;
                            }
                            self.expr(value)?
                        }
                        _ => self.expr(value)?,
                    };
                    if name == "core_num" && !self.launch_core_num_ok(value, e) {
                        return None;
                    }
                    *attrs.make_mut().launch.slot_mut(&name).expect("a launch keyword") = Some(e);
                }
            }
        }
        if let Some(p) = predicate {
            if !self.predicate_deps_ok(path, p, deps) {
                return None;
            }
        }
        if spmd && !has_core_num {
            self.error(
                Code::E0202,
                span,
                "pl.spmd_submit() requires core_num=: the number of blocks to launch",
                "no core_num",
            );
            return None;
        }
        let mut items = match self.cx.program.types.get(self.cx.program.expr(call).ty).clone() {
            Type::None => Vec::new(),
            Type::Tuple(items) => items,
            _ => vec![self.cx.program.expr(call).ty],
        };
        items.push(self.intern_ty(Type::Scalar(DType::TaskId)));
        let ty = self.intern_ty(Type::Tuple(items));
        Some(self.new_expr(ExprKind::Call { callee: Callee::Submit(f), args: lowered, attrs }, ty, span))
    }

    /// The tensors of the trailing parameters a launch omits (`pl.submit(self.k, a)` for
    /// `k(a, out: pl.Out[...])`): each must be a `pl.Out` tensor of a constant shape, which
    /// the runtime allocates, as for PyPTO's runtime-allocated outputs. Each becomes
    /// `out = pl.create_tensor(shape, dtype)` before the launch's statement (an allocation
    /// of the orchestration, which the runtime makes), and the launch passes it.
    pub(crate) fn runtime_outputs(
        &mut self,
        key: super::FnKey,
        omitted: &[(Symbol, crate::ir::TypeId, Direction)],
        span: Span,
    ) -> Option<Vec<ExprId>> {
        let fname = self.cx.name(key.1).to_string();
        let mut exprs = Vec::with_capacity(omitted.len());
        for &(pname, pty, dir) in omitted {
            let pn = self.cx.name(pname).to_string();
            let ty = self.cx.program.types.get(pty).clone();
            let dims = match (&ty, ty.shape(), ty.dtype()) {
                (Type::Tensor { .. }, Some(shape), Some(dtype)) => shape
                    .iter()
                    .map(|d| if let Dim::Const(v) = d { Some(*v) } else { None })
                    .collect::<Option<Vec<_>>>()
                    .map(|s| (s, dtype)),
                _ => None,
            };
            let problem = if dir != Direction::Out {
                Some(format!("`{pn}` is {} parameter", if dir == Direction::In { "an input" } else { "an InOut" }))
            } else if dims.is_none() {
                Some(format!("`{pn}` is not a tensor of a constant shape, which the runtime could allocate"))
            } else {
                None
            };
            if let Some(problem) = problem {
                let defined = {
                    let f = self.cx.func(key).expect("the callee exists");
                    Label::secondary(self.cx.modules[f.module].file, f.span, "defined here")
                };
                let d = self.error(
                    Code::E0202,
                    span,
                    format!("Function '{fname}' expects {} more argument(s): a launch may omit only trailing pl.Out parameters, and {problem}", omitted.len()),
                    "missing arguments",
                );
                d.secondary.push(defined);
                d.help =
                    Some(format!("pass `{pn}`, or move the pl.Out parameters to the end of `{fname}`'s parameters"));
                return None;
            }
            let (shape, dtype) = dims.expect("checked");
            let extents = shape.iter().map(|&v| self.int(v, span)).collect::<Vec<_>>();
            let ety = extents.iter().map(|&e| self.cx.program.expr(e).ty).collect();
            let sty = self.intern_ty(Type::Tuple(ety));
            let shape = self.new_expr(ExprKind::Tuple(extents.into()), sty, span);
            let dtype = self.new_expr(ExprKind::DType(dtype), crate::ir::Types::UNKNOWN, span);
            let def = Op::TensorCreate.def();
            let mut args = vec![None; def.params.len()];
            args[def.param_index(OpParam::Shape).expect("a shape")] = Some(shape);
            args[def.param_index(OpParam::Dtype).expect("a dtype")] = Some(dtype);
            let create = self.new_expr(
                ExprKind::Call { callee: Callee::Op(Op::TensorCreate), args: args.into(), attrs: CallAttrs::none() },
                pty,
                span,
            );
            let name = self.fresh_name(&pn);
            let loc = self.loc(span);
            let var = self.cx.program.new_var(&mut self.cx.session.interner, name, pty, loc);
            let s = self.new_stmt(crate::ir::StmtKind::Assign { var, value: create }, span);
            self.pending.push(s);
            exprs.push(self.new_expr(ExprKind::Var(var), pty, span));
        }
        Some(exprs)
    }

    /// The function `pl.submit` launches: `self.f` in a program method, or the name of a
    /// module-level pl function. It must be a kernel or a graph, not something inlined or
    /// run on the host.
    fn launched_function(&mut self, e: ast::ExprId, path: &str) -> Option<super::FnKey> {
        let expr = self.ast().expr(e);
        let key = match &expr.kind {
            E::Attribute { value, attr }
                if self.info.method
                    && matches!(self.ast().expr(*value).kind, E::Name(n) if self.cx.name(n) == "self") =>
            {
                Some((self.info.namespace, attr.name))
            }
            E::Name(n) if !self.names.contains_key(n) => {
                match self.cx.modules[self.m].names.get(n).map(|b| b.0.clone()) {
                    Some(Binding::Function(target)) => {
                        if self.cx.current != 0 {
                            self.cx.ensure_lowered((0, target));
                        }
                        Some((0, target))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(key) = key.filter(|&k| self.cx.func(k).is_some()) else {
            self.error(
                Code::E0217,
                expr.span,
                format!(
                    "pl.{path}() launches a pl function: its first argument must be `self.kernel` or a function's name"
                ),
                "not a pl function",
            );
            return None;
        };
        let decl = &self.cx.func(key).expect("checked").decl;
        let kind = decl.kind;
        // An Opaque function with a level is a hierarchy function (what OutlineHierarchyScopes
        // makes of `with pl.at(level=..., ...) as tid:`), which PyPTO launches as a task.
        let hierarchy = kind == FuncKind::Opaque && decl.level.is_some();
        let hierarchy = hierarchy || (kind == FuncKind::Opaque && self.auto_tiled(key));
        if matches!(kind, FuncKind::Inline | FuncKind::Opaque | FuncKind::Orchestration) && !hierarchy {
            let name = self.cx.name(key.1).to_string();
            self.error_help(
                Code::E0217,
                expr.span,
                format!(
                    "pl.{path}() launches a task, but `{name}` is an {kind} function, which does not run as a task"
                ),
                "not a kernel",
                "launch an InCore, AIC, AIV, Group, Spmd or Graph function or a function with a `level=`, or call it directly",
            );
            return None;
        }
        Some(key)
    }

    /// `pl.no_dep(x)` as an argument of a function call: `x`, and whether it was wrapped.
    /// An argument of a function call without its markers: `pl.no_dep(x)` (the second
    /// value is `true`), and the direction marker `pl.adir.<direction>(x)` PyPTO's printer
    /// writes around every argument of a call whose directions DeriveCallDirections derived
    /// (the third value is `true`). plc derives the directions itself, so a marker is
    /// checked and dropped, but for `pl.adir.no_dep`, which is `pl.no_dep`. `None` after an
    /// error: an unknown direction, or a marker not around exactly one positional argument.
    pub(crate) fn strip_markers(&mut self, e: ast::ExprId) -> Option<(ast::ExprId, bool, bool)> {
        let (e, no_dep) = self.strip_no_dep(e);
        if no_dep {
            return Some((e, true, false));
        }
        let E::Call { func, args } = &self.ast().expr(e).kind else { return Some((e, false, false)) };
        let Some(dir) = self.cx.pl_path(self.m, *func).and_then(|p| p.strip_prefix("adir.").map(str::to_string)) else {
            return Some((e, false, false));
        };
        let args = *args;
        let span = self.ast().expr(e).span;
        let Some(marked) = adir_marker(&dir) else {
            let names: Vec<&str> = ADIR_MARKERS.iter().map(|&(n, _)| n).collect();
            let message =
                format!("Unknown argument direction marker `pl.adir.{dir}`: write one of {}", names.join(", "));
            self.error(Code::E0205, span, message, "unknown direction");
            return None;
        };
        match self.ast().list(args) {
            [one] if matches!(one.kind, ArgKind::Positional) => Some((one.value, marked == ArgDir::NoDep, true)),
            _ => {
                self.error(
                    Code::E0202,
                    span,
                    format!("pl.adir.{dir}() takes exactly one positional argument, the argument it marks"),
                    "not one argument",
                );
                None
            }
        }
    }

    pub(crate) fn strip_no_dep(&mut self, e: ast::ExprId) -> (ast::ExprId, bool) {
        let E::Call { func, args } = &self.ast().expr(e).kind else { return (e, false) };
        if !matches!(self.cx.pl_path(self.m, *func).as_deref(), Some("no_dep" | "tensor.no_dep")) {
            return (e, false);
        }
        match self.ast().list(*args) {
            [one] if matches!(one.kind, ArgKind::Positional) => (one.value, true),
            _ => (e, false), // reported when the argument is lowered
        }
    }

    /// `attrs={"key": value, ...}` of a call: `arg_directions` (a list of direction names),
    /// the launch options, and other entries kept as they are.
    pub(crate) fn attrs_dict(&mut self, value: ast::ExprId, attrs: &mut CallAttrs) -> Option<()> {
        for (key, e, span) in self.dict_entries(value)? {
            let name = self.cx.name(key).to_string();
            if self.dependency_attr(&name, span, false) {
                return None;
            }
            if name == "arg_directions" {
                let dirs = self.arg_directions(e, span)?;
                attrs.make_mut().arg_directions = Some(dirs);
            } else if let Some(slot) = attrs.make_mut().launch.slot_mut(&name) {
                *slot = Some(e);
            } else {
                attrs.make_mut().extra.push((key, e));
            }
        }
        Some(())
    }

    /// PyPTO's `_extract_dump_vars_from_attrs`: `attrs={"dump_vars": [...]}` on a call is a
    /// list literal of tensor variables, each an argument of the call (E0217 otherwise).
    pub(crate) fn dump_vars_ok(&mut self, attrs: &CallAttrs, args: &[Option<ExprId>], callee: &str) -> Option<()> {
        let Some(&(_, list)) = attrs.extra.iter().find(|(k, _)| self.cx.name(*k) == "dump_vars") else {
            return Some(());
        };
        let span = self.cx.program.expr(list).loc.span;
        let ExprKind::Tuple(items) = self.cx.program.expr(list).kind.clone() else {
            let message = format!("attrs['dump_vars'] on call to '{callee}' must be a list literal");
            self.error(Code::E0217, span, message, "not a list");
            return None;
        };
        for item in items {
            let ispan = self.cx.program.expr(item).loc.span;
            let var = match self.cx.program.expr(item).kind {
                ExprKind::Var(v)
                    if matches!(self.cx.program.types.get(self.cx.program.expr(item).ty), Type::Tensor { .. }) =>
                {
                    v
                }
                _ => {
                    let message = format!("attrs['dump_vars'] entries on call to '{callee}' must be tensor variables");
                    self.error(Code::E0217, ispan, message, "not a tensor variable");
                    return None;
                }
            };
            let passed =
                args.iter().flatten().any(|&a| matches!(self.cx.program.expr(a).kind, ExprKind::Var(v) if v == var));
            if !passed {
                let name = self.cx.name(self.cx.program.var(var).name).to_string();
                let message = format!("attrs['dump_vars'] entry '{name}' is not an argument of call to '{callee}'");
                self.error(Code::E0217, ispan, message, "not an argument");
                return None;
            }
        }
        Some(())
    }

    /// `attrs={...}` on an op call: a dict literal with string keys, none of them a
    /// dependency edge (PyPTO writes those as `deps=` on `pl.submit`/`task_dummy`). plc
    /// keeps no op attribute from it.
    pub(crate) fn op_attrs(&mut self, value: ast::ExprId) -> Option<()> {
        for (key, _, span) in self.dict_entries(value)? {
            let name = self.cx.name(key).to_string();
            if self.dependency_attr(&name, span, true) {
                return None;
            }
        }
        Some(())
    }

    /// E0217 on an `attrs=` entry that is a dependency edge, which PyPTO writes as `deps=`
    /// on `pl.submit`/`task_dummy`: `manual_dep_edges`, and on an op call (`op`) also
    /// `dummy_task`. `true` when reported.
    fn dependency_attr(&mut self, name: &str, span: crate::diag::Span, op: bool) -> bool {
        let message = match name {
            "manual_dep_edges" | "dummy_task" if op => {
                format!("attrs['{name}'] on an op call is not a writable attribute")
            }
            "manual_dep_edges" => "attrs={'manual_dep_edges': ...} is not accepted on a call".to_string(),
            _ => return false,
        };
        let help = "write manual dependency edges as deps=[...] on pl.submit or pl.system.task_dummy";
        self.error_help(Code::E0217, span, message, "not a call attribute", help);
        true
    }

    /// `["Input", "OutputExisting", ...]`: one direction per argument.
    fn arg_directions(&mut self, list: ExprId, span: crate::diag::Span) -> Option<Vec<ArgDir>> {
        let items = match &self.cx.program.expr(list).kind {
            ExprKind::Tuple(items) => items.to_vec(),
            _ => vec![list],
        };
        let mut dirs = Vec::with_capacity(items.len());
        for item in items {
            let dir = match self.cx.program.expr(item).kind {
                ExprKind::Str(s) => ArgDir::from_name(self.cx.name(s)),
                _ => None,
            };
            let Some(dir) = dir else {
                self.error(
                    Code::E0217,
                    span,
                    format!("\"arg_directions\" takes a list of direction names: {}", ArgDir::names()),
                    "not a list of directions",
                );
                return None;
            };
            dirs.push(dir);
        }
        Some(dirs)
    }

    /// The entries of a dict literal with string keys: key, lowered value, value's span.
    fn dict_entries(&mut self, value: ast::ExprId) -> Option<Vec<(Symbol, ExprId, crate::diag::Span)>> {
        let expr = self.ast().expr(value);
        let E::Dict(entries) = &expr.kind else {
            self.error(Code::E0217, expr.span, "attrs= takes a dict literal with string keys", "not a dict");
            return None;
        };
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            let key = entry.key.and_then(|k| match &self.ast().expr(k).kind {
                E::Str(pieces) if self.ast().list(*pieces).iter().all(|p| p.kind == ast::StrKind::Plain) => {
                    self.cx.string_value(self.m, *pieces)
                }
                _ => None,
            });
            let Some(key) = key else {
                let kspan = entry.key.map_or(expr.span, |k| self.ast().expr(k).span);
                self.error(Code::E0217, kspan, "the keys of an attribute dict must be string literals", "not a string");
                return None;
            };
            let vspan = self.ast().expr(entry.value).span;
            let v = match self.adir_value(&key, entry.value) {
                Some(v) => v,
                None => self.expr(entry.value)?,
            };
            out.push((self.cx.intern(&key), v, vspan));
        }
        Some(out)
    }

    /// An attribute value made of `pl.adir.<direction>` markers, read as the directions'
    /// names: `"arg_directions": [pl.adir.input, ...]`, PyPTO's printed form of a call's
    /// derived directions (`pl.adir.output`, a tensor the runtime allocates, is an existing
    /// output in plc, where the caller always passes it), or any other key's single marker
    /// or list of markers (PyPTO's generic attribute values). `None` when `value` is not
    /// made of markers.
    fn adir_value(&mut self, key: &str, value: ast::ExprId) -> Option<ExprId> {
        let expr = self.ast().expr(value);
        let (E::List(items) | E::Tuple(items)) = &expr.kind else {
            return if key == "arg_directions" { None } else { self.adir_name(value) };
        };
        let mut names = Vec::with_capacity(items.len());
        for &item in self.ast().list(*items) {
            names.push(self.adir_name(item)?);
        }
        Some(self.new_expr(ExprKind::Tuple(names.into()), crate::ir::Types::UNKNOWN, expr.span))
    }

    /// `pl.adir.<direction>` as the direction's name (a string); `None` for anything else.
    fn adir_name(&mut self, item: ast::ExprId) -> Option<ExprId> {
        let path = self.cx.pl_path(self.m, item)?;
        let dir = adir_marker(path.strip_prefix("adir.")?)?;
        let sym = self.cx.intern(dir.name());
        Some(self.new_expr(ExprKind::Str(sym), crate::ir::Types::UNKNOWN, self.ast().expr(item).span))
    }

    /// The `pl.func_attr({...})` directives at the start of a body (after a docstring):
    /// their entries, and how many statements they take.
    /// The decorator's `attrs={...}` come first: PyPTO merges them with the directives into
    /// the function's attributes, and prints them all as a `pl.func_attr({...})` prologue.
    pub(crate) fn func_attr_prologue(&mut self, stmts: &[ast::StmtId]) -> (Vec<(Symbol, ExprId)>, usize) {
        let mut extra = self.decorator_attr_entries();
        let mut taken = 0;
        let decorator_keys = self.decorator_attr_keys();
        for (i, &s) in stmts.iter().enumerate() {
            let S::Expr(e) = &self.ast().stmt(s).kind else { break };
            let e = *e;
            match &self.ast().expr(e).kind {
                E::Str(_) if i == 0 => {
                    taken = 1;
                    continue;
                }
                E::Call { func, args } if self.cx.is_pl_path(self.m, *func, "func_attr") => {
                    let args = *args;
                    let span = self.ast().expr(e).span;
                    match self.ast().list(args) {
                        [one]
                            if matches!(one.kind, ArgKind::Positional)
                                && !matches!(self.ast().expr(one.value).kind, E::Dict(_)) =>
                        {
                            let vspan = self.ast().expr(one.value).span;
                            self.error(
                                Code::E0217,
                                vspan,
                                "pl.func_attr() argument must be a dict literal",
                                "not a dict",
                            );
                        }
                        [one] if matches!(one.kind, ArgKind::Positional) => {
                            if let Some(entries) = self.dict_entries(one.value) {
                                for (k, v, _) in entries {
                                    let key = self.cx.name(k).to_string();
                                    if matches!(key.as_str(), "auto_scope" | "external_source") {
                                        self.error(
                                            Code::E0217,
                                            span,
                                            format!("'{key}' cannot be set with pl.func_attr()"),
                                            "not a function attribute",
                                        );
                                    } else if decorator_keys.contains(&key) {
                                        self.error_help(
                                            Code::E0226,
                                            span,
                                            format!(
                                                "Duplicate function attribute '{key}': set by both @pl.function(attrs={{...}}) and pl.func_attr({{...}})"
                                            ),
                                            "set twice", "set it in one place");
                                    } else if !self.attr_list_ok(&key, v, span) {
                                        // reported
                                    } else if !self.func_attr_key_twice(&extra, k, span) {
                                        extra.push((k, v));
                                    }
                                }
                            }
                        }
                        _ => {
                            self.error(Code::E0202, span, "pl.func_attr() takes one dict literal", "wrong arguments");
                        }
                    }
                    taken = i + 1;
                }
                _ => break,
            }
        }
        (extra, taken)
    }

    /// A list value of a function attribute holds variables (`{"stationary": [w, x]}`) or
    /// argument directions (`pl.adir.*`, the reserved direction keys); any other element
    /// (`{"tile_sizes": [16, 32]}`) is E0217, as PyPTO has no attribute type for it.
    fn attr_list_ok(&mut self, key: &str, v: ExprId, span: Span) -> bool {
        let ExprKind::Tuple(items) = &self.cx.program.expr(v).kind else { return true };
        // `cache_policy` (newer than ops.md) holds `(parameter index, policy)` pairs of
        // integer literals, the form PyPTO's ConvertTensorToTileOps writes.
        let int_pair = |i: ExprId| match &self.cx.program.expr(i).kind {
            ExprKind::Tuple(pair) => {
                pair.len() == 2 && pair.iter().all(|&x| matches!(self.cx.program.expr(x).kind, ExprKind::Int(_)))
            }
            _ => false,
        };
        let fine = items.iter().all(|&i| {
            matches!(self.cx.program.expr(i).kind, ExprKind::Var(_) | ExprKind::Str(_))
                || (key == "cache_policy" && int_pair(i))
        });
        if !fine {
            self.error_help(
                Code::E0217,
                span,
                format!("Unsupported list element type for key: {key}"),
                "not a list of variables",
                "a list attribute holds variables (Var) or argument directions (ArgDirection, under the reserved key arg_direction_overrides)",
            );
        }
        fine
    }

    /// The entries of the decorator's `attrs={...}`, lowered as the values of a
    /// `pl.func_attr({...})` directive are (the keys were checked with the decorator). A
    /// dict, list or tuple value (other than argument directions) is left out, as before:
    /// the printed `pl.func_attr` would not take it back.
    fn decorator_attr_entries(&mut self) -> Vec<(Symbol, ExprId)> {
        let mut out = Vec::new();
        for (key, value) in self.decorator_attrs(self.m, self.info.def) {
            let v = match self.adir_value(&key, value) {
                Some(v) => Some(v),
                None if matches!(self.ast().expr(value).kind, E::Dict(_) | E::List(_) | E::Tuple(_)) => None,
                None => self.expr(value),
            };
            if let Some(v) = v {
                out.push((self.cx.intern(&key), v));
            }
        }
        out
    }

    /// The string keys of the decorator's `attrs={...}` (`@pl.function(attrs={"split": ...})`).
    fn decorator_attr_keys(&self) -> Vec<String> {
        self.decorator_attrs(self.m, self.info.def).into_iter().map(|(k, _)| k).collect()
    }

    /// The entries of `attrs={...}` in the decorators of the function `def` of module `m`,
    /// with string keys: (key, value).
    fn decorator_attrs(&self, m: super::ModuleId, def: ast::StmtId) -> Vec<(String, ast::ExprId)> {
        let tree = &self.cx.modules[m].ast;
        let S::FunctionDef(def) = &tree.stmt(def).kind else { return Vec::new() };
        let mut out = Vec::new();
        for d in &def.decorators {
            let E::Call { args, .. } = &tree.expr(d.expr).kind else { continue };
            for a in tree.list(*args) {
                let ArgKind::Keyword(k) = a.kind else { continue };
                if self.cx.name(k.name) != "attrs" {
                    continue;
                }
                let E::Dict(entries) = &tree.expr(a.value).kind else { continue };
                for entry in entries {
                    let Some(key) = entry.key else { continue };
                    if let E::Str(pieces) = &tree.expr(key).kind {
                        if let Some(v) = self.cx.string_value(m, *pieces) {
                            out.push((v, entry.value));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the function `key` is an Opaque function marked `attrs={"auto_tile": True}`
    /// (or `pl.func_attr({"auto_tile": True})`, the form printed IR writes), which PyPTO's
    /// AutoTile pass turns into a kernel schedule: one `pl.submit` may launch.
    fn auto_tiled(&self, key: super::FnKey) -> bool {
        let Some(f) = self.cx.func(key) else { return false };
        let (m, def) = (f.module, f.def);
        let mut attrs = self.decorator_attrs(m, def);
        attrs.extend(self.prologue_attrs(m, def));
        attrs.into_iter().any(|(k, v)| k == "auto_tile" && matches!(self.cx.modules[m].ast.expr(v).kind, E::True))
    }

    /// The string-keyed entries of the `pl.func_attr({...})` directives that open the body
    /// of the function `def` of module `m` (after a docstring), unlowered.
    fn prologue_attrs(&self, m: super::ModuleId, def: ast::StmtId) -> Vec<(String, ast::ExprId)> {
        let tree = &self.cx.modules[m].ast;
        let S::FunctionDef(def) = &tree.stmt(def).kind else { return Vec::new() };
        let mut out = Vec::new();
        for (i, &s) in tree.block(&def.body).iter().enumerate() {
            let S::Expr(e) = &tree.stmt(s).kind else { break };
            match &tree.expr(*e).kind {
                E::Str(_) if i == 0 => continue,
                E::Call { func, args } if self.cx.is_pl_path(m, *func, "func_attr") => {
                    let Some(E::Dict(entries)) = tree.list(*args).first().map(|a| &tree.expr(a.value).kind) else {
                        continue;
                    };
                    for entry in entries {
                        let Some(key) = entry.key else { continue };
                        if let E::Str(pieces) = &tree.expr(key).kind {
                            if let Some(v) = self.cx.string_value(m, *pieces) {
                                out.push((v, entry.value));
                            }
                        }
                    }
                }
                _ => break,
            }
        }
        out
    }
}
