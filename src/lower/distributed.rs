//! Where the host-orchestration ops of the distributed language may stand (ops.md §1.1
//! step 5, §2.9, §4.1 "window buffers" and "world_size"): `pld.world_size()` and
//! `buf = pld.alloc_window_buffer(...)` only in a function of level HOST (or above),
//! outside core-group and SPMD regions; the allocation only as the value of a simple
//! assignment to one name, which names the buffer (no `name=`), once per program.

use super::body::{FnLower, Frame, FrameKind};
use crate::diag::{Code, Span};
use crate::intern::Symbol;
use crate::ir::ops::Op;
use crate::ir::Level;
use crate::syntax::ast::{self, ArgKind};

impl FnLower<'_, '_> {
    /// Checks the position of a `pld.*` call of `op` (at `span`) that has one; false when
    /// it was reported.
    pub(crate) fn pld_position_ok(&mut self, op: Op, args: &[ast::Arg], span: Span) -> bool {
        match op {
            Op::PldTensorAllocWindowBuffer => self.window_alloc_ok(args, span),
            Op::PldSystemWorldSize => self.host_orchestration(op, span),
            _ => true,
        }
    }

    /// Whether the statement being lowered is host orchestration code: a function of level
    /// HOST or above, outside `pl.at(level=CORE_GROUP)` and `pl.spmd` regions. Reports
    /// `op` at `span` otherwise.
    fn host_orchestration(&mut self, op: Op, span: Span) -> bool {
        let level = self.info.decl.level;
        let in_spmd = self.frames.iter().any(|f| matches!(f, Frame::Scope { kind: FrameKind::Spmd, .. }));
        if level.is_some_and(|l| l >= Level::Host) && !self.in_device_code() && !in_spmd {
            return true;
        }
        let level = level.map_or("None", Level::name);
        self.error_help(
            Code::E0223,
            span,
            format!(
                "{}() can only be called in HOST orchestration context (not inside InCore / SPMD scopes); \
                 current function level: {level}",
                op.def().name
            ),
            "not host orchestration code",
            "call it in a function of level=pl.Level.HOST (such as @pl.jit.host), outside pl.at(level=pl.Level.CORE_GROUP) and pl.spmd",
        );
        false
    }

    /// `buf = pld.alloc_window_buffer(...)`: the value of a simple assignment to one name in
    /// host orchestration code, named by that name only, and only once in a program.
    fn window_alloc_ok(&mut self, args: &[ast::Arg], span: Span) -> bool {
        let name = match self.window_target {
            Some((name, value)) if value == span => name,
            _ => {
                self.error_help(
                    Code::E0223,
                    span,
                    "pld.tensor.alloc_window_buffer must appear as the RHS of a simple assignment \
                     (its result must be bound to a named variable)",
                    "not assigned to one name",
                    "write `buf = pld.alloc_window_buffer(size)`: the name is the buffer's",
                );
                return false;
            }
        };
        if !self.host_orchestration(Op::PldTensorAllocWindowBuffer, span) {
            return false;
        }
        let lhs = self.cx.name(name).to_string();
        for a in args {
            if matches!(a.kind, ArgKind::Keyword(k) if self.cx.name(k.name) == "name") {
                self.error(
                    Code::E0203,
                    a.span,
                    format!(
                        "pld.tensor.alloc_window_buffer 'name' kwarg cannot be passed explicitly \
                         — it is auto-derived from the assignment LHS ('{lhs}')"
                    ),
                    "not a keyword of the call",
                );
                return false;
            }
        }
        // One program: an @pl.program class; a module-level function on its own, as each
        // @pl.jit entry is a program of its own in PyPTO.
        let scope = if self.info.namespace == 0 { Some(self.info.name) } else { None };
        self.cx.shared_changed();
        if !self.cx.window_buffers.insert((self.info.namespace, scope, name)) {
            self.error(
                Code::E0214,
                span,
                format!("pld.tensor.alloc_window_buffer name '{lhs}' is already declared in this program"),
                "a second buffer of this name",
            );
            return false;
        }
        true
    }
}

/// The names of the window buffers a program allocates: (namespace, the function for a
/// module-level one, buffer name).
pub(crate) type WindowBuffers = rustc_hash::FxHashSet<(usize, Option<Symbol>, Symbol)>;
