//! Which statements of a Group function's body call its kernels, for the two consumers that
//! run a Group's kernels together, as the runtime runs a mixed task: the interpreter
//! (`interp/group.rs`) and the CPU kernel emitter (`emit/kernel`, `plc::run_together`).
//! Both gather each run of consecutive kernel calls into a batch that runs at once; this
//! is the one rule of what such a call is.

use crate::intern::Symbol;
use crate::ir::{Callee, ExprId, ExprKind, FuncKind, Program, StmtId, StmtKind, VarId};

/// A statement of a Group's body that calls a kernel.
pub struct KernelCall<'p> {
    /// The variable the call's result is bound to, if any.
    pub var: Option<VarId>,
    /// The call expression.
    pub call: ExprId,
    pub func: Symbol,
    pub args: &'p [Option<ExprId>],
}

/// `stmt` as a call of a kernel (an AIC, AIV or InCore function, launched without
/// `core_num`), bound to a variable or evaluated for its effect.
pub fn kernel_call(program: &Program, stmt: StmtId) -> Option<KernelCall<'_>> {
    let (var, e) = match &program.stmt(stmt).kind {
        StmtKind::Assign { var, value } => (Some(*var), *value),
        StmtKind::Eval(e) => (None, *e),
        _ => return None,
    };
    let ExprKind::Call { callee: Callee::Func(f), args, attrs } = &program.expr(e).kind else { return None };
    let kind = program.functions.get(f)?.decl.kind;
    let kernel = matches!(kind, FuncKind::Aic | FuncKind::Aiv | FuncKind::InCore);
    (kernel && attrs.launch.core_num.is_none()).then_some(KernelCall { var, call: e, func: *f, args: &args[..] })
}

/// The two external kernels of a Group that is PyPTO's mixed external kernel
/// (`@pl.jit.extern(core_type="mixed")`, or the same written out in a `@pl.program`): a
/// Group whose body calls one external AIC kernel and one external AIV kernel and nothing
/// else. It has no code of its own: a launch of it is one mixed task of those two files
/// (`(aic, aiv)`), as PyPTO's backend skips an all-external group and launches its members.
pub fn external_pair(program: &Program, group: Symbol) -> Option<(Symbol, Symbol)> {
    let f = program.functions.get(&group)?;
    if f.decl.kind != FuncKind::Group {
        return None;
    }
    let (mut aic, mut aiv) = (None, None);
    for &s in &f.body {
        if matches!(program.stmt(s).kind, StmtKind::Return(_)) {
            continue;
        }
        let call = kernel_call(program, s)?;
        let callee = &program.functions[&call.func];
        callee.decl.external_source.as_ref()?;
        let slot = match callee.decl.kind {
            FuncKind::Aic => &mut aic,
            FuncKind::Aiv => &mut aiv,
            _ => return None,
        };
        if slot.replace(call.func).is_some() {
            return None;
        }
    }
    Some((aic?, aiv?))
}
