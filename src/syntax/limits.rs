use super::ast::Ast;
use crate::diag::Diagnostic;
use crate::source::FileId;
pub fn check(_file: FileId, _ast: &Ast, _diags: &mut Vec<Diagnostic>) {}
