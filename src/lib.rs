//! plc: a compiler for the `pl` language of the PyPTO tile-programming system.
//!
//! The pipeline, one module per stage, data flowing one way:
//! `source → syntax (lexer, layout, host code, parser → AST) → …`.

#[cfg(feature = "cli")]
pub mod cli;
pub mod diag;
pub mod driver;
pub mod emit;
pub mod intern;
pub mod interp;
pub mod ir;
pub mod lint;
pub mod lower;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod mem;
pub mod passes;
pub mod session;
pub mod source;
pub mod syntax;
