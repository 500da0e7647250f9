//! The front end: source text → tokens → logical lines → host code set aside → AST.
//!
//! Every function here reports into a diagnostics vector and always returns a result, so
//! one run finds every error in a file.

pub mod ast;
pub mod builder;
pub mod dump;
pub mod host;
pub mod layout;
pub mod lexer;
pub mod limits;
pub mod restrict;
pub mod token;
pub mod validate;

lalrpop_util::lalrpop_mod!(
    #[allow(
        clippy::all,
        clippy::pedantic,
        unused_parens,
        unused_imports,
        dead_code
    )]
    pub grammar,
    "/pl.rs"
);

use crate::diag::Diagnostic;
use crate::intern::Interner;
use crate::source::FileId;
use ast::Ast;
use builder::Builder;
use lexer::Token;

/// The tokens of a file after the layout stage, as `plc emit tokens` shows them.
pub fn tokens(file: FileId, src: &str, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let raw = lexer::lex(file, src, diags);
    layout::layout(file, src, &raw, diags)
}

/// Parses one file. Host code is recorded in `Ast::host` and noted; syntax the pl language
/// does not have is reported by `restrict`; too-deep nesting by `limits`.
pub fn parse(file: FileId, src: &str, interner: &mut Interner, diags: &mut Vec<Diagnostic>) -> Ast {
    // The full token stream is dropped before parsing: only the pl tokens are needed.
    let (dsl, host) = host::split(file, src, &tokens(file, src, diags), diags);
    let mut builder = Builder {
        file,
        src,
        interner,
        ast: Ast::default(),
        diags: Vec::new(),
    };
    let input = dsl
        .iter()
        .map(|t| Ok::<_, std::convert::Infallible>((t.span.lo, t.kind, t.span.hi)));
    if let Err(error) = grammar::ModuleParser::new().parse(&mut builder, input) {
        builder.report(error);
    }
    let mut ast = builder.ast;
    ast.host = host;
    diags.extend(builder.diags);
    limits::check(file, &ast, diags);
    restrict::check(file, src, &ast, diags);
    ast
}
