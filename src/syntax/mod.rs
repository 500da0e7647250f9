//! The front end: source text → tokens → logical lines → host code set aside → AST.
//!
//! Every function here reports into a diagnostics vector and always returns a result, so
//! one run finds every error in a file.

pub(crate) mod ast;
pub(crate) mod builder;
mod descent;
pub mod dump;
pub(crate) mod host;
pub(crate) mod ident;
pub(crate) mod layout;
pub mod lexer;
pub(crate) mod limits;
mod parallel;
pub use parallel::serially;
pub(crate) use parallel::threads as parallel_threads;
pub(crate) mod restrict;
pub(crate) mod token;
pub mod validate;

/// Whether `module.name` of a `from module import name` is PyPTO's `jit` decorator, the
/// object `pl.jit` names (`from pypto.jit.decorator import jit`): the name then stands for
/// `pl.jit` in decorators (`@jit`, `@jit.incore`). The host-code splitter and lowering
/// both ask this.
pub(crate) fn is_jit_decorator_path(path: &str) -> bool {
    matches!(path, "pypto.jit.jit" | "pypto.jit.decorator.jit" | "pypto.language.jit")
}

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
    let mut laid_diags = Vec::new();
    let laid = lay_out(file, src, src.is_ascii(), diags, &mut laid_diags, &[]);
    diags.append(&mut laid_diags);
    laid.tokens
}

/// The layout of the whole file, which reads the lexer's tokens as they are made: the
/// lexer's diagnostics go to `lexed`, the layout's to `diags`.
fn lay_out(
    file: FileId,
    src: &str,
    ascii: bool,
    lexed: &mut Vec<Diagnostic>,
    diags: &mut Vec<Diagnostic>,
    breaks: &[u32],
) -> layout::LaidOut {
    let len = src.len() as u32;
    let mut raw = lexer::Lexer::new(file, src, 0, len, !ascii, lexed);
    layout::layout_with_breaks(file, src, &mut raw, lexer::initial_capacity(len), diags, breaks)
}

/// Parses one file. Host code is recorded in `Ast::host` and noted; syntax the pl language
/// does not have is reported by `restrict`; too-deep nesting by `limits`.
///
/// When a syntax error follows a line inside brackets that may be a new statement after a
/// bracket left open (`layout::LaidOut::candidates`), the file is laid out again with that
/// line treated as one, and parsed again: valid code is never read this way, and a
/// forgotten `)` costs one error instead of hiding the rest of the file.
pub fn parse(file: FileId, src: &str, interner: &mut Interner, diags: &mut Vec<Diagnostic>) -> Ast {
    let ascii = src.is_ascii();
    // A large file is lexed, laid out, split and parsed in parts in parallel when it has
    // no errors; the serial front end gives the same result, and reports the errors.
    if let Some(front) = parallel::front(file, src, ascii, interner) {
        let parallel::Front { mut ast, checked, host, host_tokens, notes } = front;
        ast.host = host;
        diags.extend(notes);
        // A part where `restrict` found something has the whole tree checked again.
        let checks = if checked { Checks::NONE } else { Checks::ALL };
        finish(file, src, ascii, interner, &mut ast, checks, &host_tokens, diags);
        return ast;
    }
    // The lexer's diagnostics, the same on every attempt: those of the first.
    let (mut lexed, mut relexed) = (Vec::new(), Vec::new());
    let mut breaks: Vec<u32> = Vec::new();
    loop {
        let mut attempt = Vec::new();
        relexed.clear();
        let lexer_diags = if breaks.is_empty() { &mut lexed } else { &mut relexed };
        let laid = lay_out(file, src, ascii, lexer_diags, &mut attempt, &breaks);
        let (dsl, host, host_tokens) = host::split_in_place(file, src, laid.tokens, None, &mut attempt);
        let mut builder = Builder::new(file, src, interner, Ast::default(), ascii);
        // A large file without errors so far is parsed in parts in parallel; the serial
        // parse gives the same tree, and reports the errors when there are some.
        let clean = breaks.is_empty() && !attempt.iter().any(Diagnostic::is_error);
        let checks = match clean.then(|| parallel::parse(file, src, ascii, &dsl, builder.interner)).flatten() {
            Some((ast, found_nothing)) => {
                builder.ast = ast;
                if found_nothing {
                    Checks::NONE
                } else {
                    Checks::ALL
                }
            }
            None => {
                builder.ast.lists = ast::Lists::with_capacity(dsl.len());
                if let Err(error) = descent::parse(&mut builder, &dsl) {
                    builder.report(error);
                }
                let (restrict, restrict_exprs) = builder.restrict_may_refuse();
                Checks { limits: builder.limits_may_cut(), restrict, restrict_exprs }
            }
        };
        if breaks.len() < MAX_REPARSES {
            if let Some(at) = next_break(&laid.candidates, &breaks, &dsl, &builder.diags) {
                breaks.push(at);
                breaks.sort_unstable();
                continue;
            }
        }
        let mut ast = builder.ast;
        ast.host = host;
        diags.append(&mut lexed);
        diags.extend(attempt);
        diags.extend(builder.diags);
        finish(file, src, ascii, interner, &mut ast, checks, &host_tokens, diags);
        return ast;
    }
}

/// Which checks of the parsed module may find something, and run: `limits`, `restrict`,
/// and `restrict`'s walk of the expressions.
#[derive(Clone, Copy)]
struct Checks {
    limits: bool,
    restrict: bool,
    restrict_exprs: bool,
}

impl Checks {
    /// The checks ran on the parts and found nothing.
    const NONE: Checks = Checks { limits: false, restrict: false, restrict_exprs: false };
    const ALL: Checks = Checks { limits: true, restrict: true, restrict_exprs: true };
}

/// The host functions, main guards and simple statements among the host items (their
/// laid-out tokens, one list per host item; empty for the others), kept to be parsed once
/// the module is.
fn host_tokens(host: &[ast::HostItem], ranges: &[std::ops::Range<usize>], laid: &[Token]) -> Vec<Vec<Token>> {
    host.iter()
        .zip(ranges)
        .map(|(item, range)| match item.kind {
            ast::HostKind::Function
            | ast::HostKind::MainGuard
            | ast::HostKind::Assignment
            | ast::HostKind::Statement => laid[range.clone()].to_vec(),
            _ => Vec::new(),
        })
        .collect()
}

/// The checks of the parsed module (`limits`, `restrict`) that may find something
/// (`checks`: not those that ran on its parts and found nothing, nor those the builder saw
/// nothing for), then the parse of the host items.
#[allow(clippy::too_many_arguments)]
fn finish(
    file: FileId,
    src: &str,
    ascii: bool,
    interner: &mut Interner,
    ast: &mut Ast,
    checks: Checks,
    host_tokens: &[Vec<Token>],
    diags: &mut Vec<Diagnostic>,
) {
    if checks.limits {
        limits::check(file, ast, diags);
    }
    if checks.restrict {
        ast.role_body_checks = restrict::check(file, src, ast, checks.restrict_exprs, diags);
    }
    parse_host(file, src, ascii, interner, ast, host_tokens, diags);
}

/// Parses the host functions, main guards and simple statements (their tokens, one list per host item; empty
/// for the others) into the module's arenas, for lowering to find the calls of program
/// factories in them. Their syntax errors are dropped: host code only has to lex. An item
/// nested too deeply for Python (E0120, reported by the splitter) is not parsed.
fn parse_host(
    file: FileId,
    src: &str,
    ascii: bool,
    interner: &mut Interner,
    ast: &mut Ast,
    host_tokens: &[Vec<Token>],
    diags: &[Diagnostic],
) {
    let too_deep: Vec<crate::diag::Span> =
        diags.iter().filter(|d| d.code == crate::diag::Code::E0120).map(|d| d.primary.span).collect();
    let body = std::mem::take(&mut ast.body);
    let mut builder = Builder::new(file, src, interner, std::mem::take(ast), ascii);
    for (i, toks) in host_tokens.iter().enumerate() {
        let span = builder.ast.host[i].span;
        if toks.is_empty() || too_deep.iter().any(|d| span.lo <= d.lo && d.hi <= span.hi) {
            continue;
        }
        let parsed = descent::parse(&mut builder, toks).is_ok() && builder.diags.is_empty();
        let stmts = std::mem::take(&mut builder.ast.body);
        builder.diags.clear();
        if parsed {
            builder.ast.host[i].parsed = stmts;
        }
    }
    *ast = builder.ast;
    ast.body = body;
}

/// A file is parsed at most this many extra times for brackets left open.
const MAX_REPARSES: usize = 16;

/// The line to treat as a new statement: the last candidate before the first syntax error
/// that is still in the same logical line as the error.
fn next_break(candidates: &[u32], breaks: &[u32], dsl: &[Token], errors: &[Diagnostic]) -> Option<u32> {
    let first_error = errors.iter().map(|d| d.primary.span.lo).min()?;
    let error_index = dsl.partition_point(|t| t.span.lo < first_error);
    let candidate =
        candidates.iter().copied().filter(|&c| c <= first_error && breaks.binary_search(&c).is_err()).max()?;
    let candidate_index = dsl.partition_point(|t| t.span.lo < candidate);
    let same_line = dsl.get(candidate_index).is_some_and(|t| t.span.lo == candidate)
        && !dsl[candidate_index..error_index.min(dsl.len())].iter().any(|t| t.kind == token::Tok::Newline);
    same_line.then_some(candidate)
}
