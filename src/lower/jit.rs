//! The forms of a `@pl.jit` body that PyPTO's specializer rewrites before its parser reads
//! the program (shared/spec/reference/language.md §2.2): a dynamic dimension declared in the
//! body, `d = pl.dynamic("D")`, and the calls that bind it to a tensor's extent,
//! `x.bind_dynamic(axis, d)`. The specializer drops both and writes a bound dimension's
//! uses as `pl.tensor.dim(x, axis)`; plc lowers them the same way. (`t.shape` of a bare
//! `pl.Tensor`, which the specializer replaces by the sample's extents, is read at run time
//! in `body.rs`.) Outside a `@pl.jit...` function neither form is pl code.

use super::body::FnLower;
use super::consts::Const;
use super::Binding;
use crate::diag::{Code, Span};
use crate::intern::Symbol;
use crate::ir::ops::Op;
use crate::ir::{Block, Callee, ExprId, ExprKind, StmtKind};
use crate::syntax::ast::{self, ArgKind, ExprKind as E};

impl FnLower<'_, '_> {
    /// `d = pl.dynamic(...)` in a `@pl.jit` body: `d` names a dynamic dimension until a
    /// `x.bind_dynamic(axis, d)` binds it. True when `value` is such a call (handled).
    pub(crate) fn jit_local_dynamic(&mut self, name: Symbol, value: ast::ExprId, span: Span) -> bool {
        if !self.info.jit {
            return false;
        }
        let E::Call { func, args } = &self.ast().expr(value).kind else { return false };
        if !self.cx.is_pl_path(self.m, *func, "dynamic") {
            return false;
        }
        // `pl.dynamic()` or `pl.dynamic("D")`: the name only labels the dimension.
        let named = match self.ast().list(*args) {
            [] => true,
            [a] => matches!(a.kind, ArgKind::Positional) && matches!(self.ast().expr(a.value).kind, E::Str(_)),
            _ => false,
        };
        if !named {
            let vspan = self.ast().expr(value).span;
            self.error(
                Code::E0217,
                vspan,
                "pl.dynamic() takes one argument, the dimension's name as a string",
                "expected `pl.dynamic(\"NAME\")`",
            );
        }
        self.names.remove(&name);
        self.bound_dyns.remove(&name);
        self.local_dyns.insert(name, span);
        true
    }

    /// A name declared by `d = pl.dynamic(...)` and not bound yet (E0201).
    pub(crate) fn unbound_local_dynamic(&mut self, name: Symbol, span: Span) -> bool {
        let Some(&declared) = self.local_dyns.get(&name) else { return false };
        let n = self.cx.name(name).to_string();
        let file = self.file;
        let d = self.error(
            Code::E0201,
            span,
            format!("the dynamic dimension `{n}` is not bound to an extent"),
            "no extent yet",
        );
        d.help = Some(format!("bind it to a tensor's axis first: `x.bind_dynamic(0, {n})`"));
        d.secondary.push(crate::diag::Label::secondary(file, declared, "declared here"));
        true
    }

    /// `x.bind_dynamic(axis, d)` as a statement of a `@pl.jit` body: `d` is a dimension of
    /// `pl.dynamic` (the module's or the body's) and `axis` a constant axis of the tensor
    /// `x`. A dimension the body declared is bound here to `pl.tensor.dim(x, axis)`; one of
    /// the module's is already read from the annotations. True when `call` is such a
    /// statement (handled, errors reported).
    pub(crate) fn jit_bind_dynamic(&mut self, call: ast::ExprId, span: Span, out: &mut Block) -> bool {
        let &E::Call { func, ref args } = &self.ast().expr(call).kind else { return false };
        let E::Attribute { value: receiver, attr } = self.ast().expr(func).kind else { return false };
        if !self.info.jit || self.cx.name(attr.name) != "bind_dynamic" {
            return false;
        }
        let Some(tensor) = self.expr(receiver) else { return true };
        let ty = self.ty(tensor).clone();
        if !ty.is_tensor() {
            let what = self.describe_type(&ty);
            let rspan = self.ast().expr(receiver).span;
            self.error(
                Code::E0217,
                rspan,
                format!("`bind_dynamic` binds an axis of a tensor, not of {what}"),
                "not a tensor",
            );
            return true;
        }
        if let Some(k) = self.ast().list(*args).iter().find(|a| !matches!(a.kind, ArgKind::Positional)) {
            self.error(Code::E0203, k.span, "`bind_dynamic` takes positional arguments only", "keyword argument");
            return true;
        }
        let [axis, dim] = self.ast().list(*args).iter().map(|a| a.value).collect::<Vec<_>>()[..] else {
            let message =
                format!("`bind_dynamic` takes an axis and a dynamic dimension, got {} argument(s)", args.len());
            self.error(Code::E0202, span, message, "expected `x.bind_dynamic(axis, dim)`");
            return true;
        };
        let Some(k) = self.bind_axis(axis, ty.shape().map(<[_]>::len)) else { return true };
        match self.dynamic_named(dim) {
            Some(Some(name)) => {
                // A dimension of the body: from here on, the tensor's extent.
                self.local_dyns.remove(&name);
                self.bound_dyns.insert(name);
                let Some(extent) = self.extent_of(tensor, k as i64, span) else { return true };
                let ety = self.cx.program.expr(extent).ty;
                let var = self.bind(name, ety, self.ast().expr(dim).span);
                let s = self.new_stmt(StmtKind::Assign { var, value: extent }, span);
                out.push(s);
            }
            Some(None) => {}
            None => {
                let text = self.text(self.ast().expr(dim).span);
                let dspan = self.ast().expr(dim).span;
                self.error_help(
                    Code::E0217,
                    dspan,
                    format!("the dimension bound by `bind_dynamic` must be a `pl.dynamic` name, not `{text}`"),
                    "not a dynamic dimension",
                    "declare it with `NAME = pl.dynamic(\"NAME\")`",
                );
            }
        }
        true
    }

    /// The constant axis of `bind_dynamic`, within the rank when it is known (E0217).
    fn bind_axis(&mut self, axis: ast::ExprId, rank: Option<usize>) -> Option<usize> {
        let k = self.constant_int(axis);
        let aspan = self.ast().expr(axis).span;
        match k {
            Some(k) if k >= 0 && rank.is_none_or(|r| (k as usize) < r) => Some(k as usize),
            _ => {
                let text = self.text(aspan);
                let within = rank.map_or(String::new(), |r| format!(" below the tensor's rank {r}"));
                self.error(
                    Code::E0217,
                    aspan,
                    format!("the axis of `bind_dynamic` must be a non-negative integer{within}, not `{text}`"),
                    "bad axis",
                );
                None
            }
        }
    }

    /// The value of `e` when it is an integer constant; nothing is reported otherwise.
    pub(crate) fn constant_int(&mut self, e: ast::ExprId) -> Option<i64> {
        let locals = &self.names;
        let before = self.cx.diags.len();
        let k = self.cx.eval_const_in(self.m, e, &|n| locals.contains_key(&n).then_some(Const::None));
        self.cx.diags.truncate(before);
        k.and_then(|k| k.as_int())
    }

    /// `Some(Some(name))` for a dimension the body declared and has not bound,
    /// `Some(None)` for one of the module's (or one already bound), `None` otherwise.
    fn dynamic_named(&self, dim: ast::ExprId) -> Option<Option<Symbol>> {
        let E::Name(n) = self.ast().expr(dim).kind else { return None };
        if self.local_dyns.contains_key(&n) {
            return Some(Some(n));
        }
        if self.names.contains_key(&n) {
            // A body dimension bound before: the name now holds its extent.
            return self.bound_dyns.contains(&n).then_some(None);
        }
        match self.cx.modules[self.m].names.get(&n) {
            Some((Binding::Const(Const::Dyn(_)) | Binding::DynExtent(_), _)) => Some(None),
            _ => None,
        }
    }

    /// The tensor whose shape `value` reads, when `value` is `t.shape` of a bare `pl.Tensor`
    /// (a tensor of no declared shape: PyPTO's `@pl.jit` functions take the shape from
    /// the arguments of the call).
    pub(crate) fn bare_shape_of(&self, value: ExprId) -> Option<ExprId> {
        match &self.cx.program.expr(value).kind {
            ExprKind::Call { callee: Callee::Op(Op::TensorShape), args, .. } => args.first().copied().flatten(),
            _ => None,
        }
    }

    /// `pl.tensor.dim(tensor, k)`: extent `k` of a tensor, read at run time.
    pub(crate) fn extent_of(&mut self, tensor: ExprId, k: i64, span: Span) -> Option<ExprId> {
        let axis = self.int(k, span);
        self.op_result(Op::TensorDim, vec![Some(tensor), Some(axis)], span)
    }

    /// `m, n = t.shape` of a bare tensor: each name is bound to its extent, as
    /// `pl.tensor.dim(t, k)`; the rank is the number of names.
    pub(crate) fn unpack_extents(&mut self, items: &[ast::ExprId], tensor: ExprId, span: Span, out: &mut Block) {
        for (k, &item) in items.iter().enumerate() {
            let Some((name, at)) = self.unpack_target(item) else { continue };
            let Some(extent) = self.extent_of(tensor, k as i64, at) else { continue };
            let ty = self.cx.program.expr(extent).ty;
            self.check_rebinding(name, ty, at);
            let var = self.bind(name, ty, at);
            let s = self.new_stmt(StmtKind::Assign { var, value: extent }, span);
            out.push(s);
        }
    }
}
