use super::ast::HostItem;
use super::lexer::Token;
use crate::diag::Diagnostic;
use crate::source::FileId;
pub fn split(
    _file: FileId,
    _src: &str,
    tokens: &[Token],
    _diags: &mut Vec<Diagnostic>,
) -> (Vec<Token>, Vec<HostItem>) {
    (tokens.to_vec(), Vec::new())
}
