//! A Group function's body: the kernels it calls run together, as the runtime runs a
//! mixed task, and as `plc run` runs them (`interp/group.rs`).
//!
//! Each run of consecutive kernel calls (`ir::group::kernel_call`, the rule the interpreter
//! uses) is one batch. A batch of one kernel is a plain call; a batch of several is one
//! `plc::run_together` over a lambda per call, which runs each on a thread of its own under
//! a baton, so a kernel that pops a pipe waits for the kernel that pushes it whatever the
//! order of the calls:
//!
//! ```text
//! plc::GroupPipes plc_group_pipes;
//! [[maybe_unused]] ChipTensor out_1 = out;
//! plc::run_together({"finish", "multiply", "scale"},
//!     [&] { plc_kernels::finish(out); },
//!     [&] { plc_kernels::multiply(w); },
//!     [&] { plc_kernels::scale(x); });
//! ```
//!
//! A call's result is bound at the call to the tensor arguments its kernel returns (its
//! `Out` parameters, `ir::lineage`), so later calls of the batch need not wait for it; a
//! call whose result is something else ends its batch, and the batch's `run_together`
//! gives that result.

use super::{impl_symbol, Emitter, Repr, Res};
use crate::emit::cpp::string_literal;
use crate::ir::group::{kernel_call, KernelCall};
use crate::ir::lineage::Lineage;
use crate::ir::{ExprId, StmtId, VarId};

/// A kernel call waiting for its batch to run.
struct Queued {
    /// The kernel's name, for the deadlock message.
    name: String,
    /// `plc_kernels::f(args)`.
    call: String,
}

/// The call that ends a batch with a result to bind: the variable, the call expression and
/// the result's form.
type Tail = (VarId, ExprId, Repr);

impl Emitter<'_> {
    /// The body of a Group function (see the module's doc). A Group is one mixed task, whose
    /// pipes the runtime makes afresh: `plc::GroupPipes` gives the body pipes of its own, as
    /// `plc run` does.
    pub(super) fn group_block(&mut self, body: &[StmtId]) -> Res<()> {
        self.line_fmt(format_args!("plc::GroupPipes plc_group_pipes;"));
        let mut batch = Vec::new();
        let mut lineage = Lineage::default();
        for &s in body {
            let Some(KernelCall { var, call, func, args }) = kernel_call(self.p, s) else {
                self.run_batch(&mut batch, None)?;
                self.stmt(s)?;
                continue;
            };
            let (texts, sig) = self.call_args(call, func, args)?;
            let text = format!("plc_kernels::{}({})", impl_symbol(self.names, func), texts.join(", "));
            batch.push(Queued { name: self.names.get(func).to_string(), call: text });
            let Some(var) = var else { continue };
            // The arguments the results are, when each is a tensor argument.
            let returned = lineage.returned_params(self.p, func);
            let known: Option<Vec<&String>> = (returned.len() == sig.ret.len() && !sig.ret.is_empty())
                .then(|| {
                    returned
                        .iter()
                        .zip(&sig.ret)
                        .map(|(k, r)| match (k, r) {
                            (Some(k), Repr::Tensor) if sig.params.get(*k) == Some(&Repr::Tensor) => texts.get(*k),
                            _ => None,
                        })
                        .collect()
                })
                .flatten();
            match known {
                Some(values) if values.len() == 1 => self.bind(var, call, values[0].clone(), Repr::Tensor)?,
                Some(values) => {
                    let list: Vec<&str> = values.iter().map(|v| v.as_str()).collect();
                    let text = format!("std::make_tuple({})", list.join(", "));
                    self.bind(var, call, text, Repr::Tuple(vec![Repr::Tensor; list.len()]))?;
                }
                None => {
                    let repr = match sig.ret.as_slice() {
                        [] => Repr::None,
                        [one] => one.clone(),
                        many => Repr::Tuple(many.to_vec()),
                    };
                    self.run_batch(&mut batch, Some((var, call, repr)))?;
                }
            }
        }
        self.run_batch(&mut batch, None)
    }

    /// Writes the batch gathered so far: a plain call for one kernel, `plc::run_together`
    /// for several; `tail` binds the last call's result.
    fn run_batch(&mut self, batch: &mut Vec<Queued>, tail: Option<Tail>) -> Res<()> {
        let calls = std::mem::take(batch);
        match (calls.as_slice(), tail) {
            ([], _) => Ok(()),
            ([one], None) => {
                self.line_fmt(format_args!("{};", one.call));
                Ok(())
            }
            ([one], Some((var, call, repr))) => self.bind(var, call, one.call.clone(), repr),
            (_, tail) => {
                let names: Vec<String> = calls.iter().map(|c| string_literal(&c.name)).collect();
                let mut text = format!("plc::run_together({{{}}},", names.join(", "));
                for (k, c) in calls.iter().enumerate() {
                    let last = k + 1 == calls.len();
                    let ret = if last && tail.is_some() { "return " } else { "" };
                    let end = if last { ")" } else { "," };
                    text.push_str(&format!("\n        [&] {{ {ret}{}; }}{end}", c.call));
                }
                match tail {
                    None => {
                        self.line_fmt(format_args!("{text};"));
                        Ok(())
                    }
                    Some((var, call, repr)) => self.bind(var, call, text, repr),
                }
            }
        }
    }
}
