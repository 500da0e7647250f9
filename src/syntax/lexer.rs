//! The lexer: logos over the whole file, turning every lexing error into a `Tok::Error` token
//! plus one diagnostic, so that the parser can recover and later errors are still found.

use super::token::{LexError, Tok};
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::source::FileId;
use logos::Logos;

/// A token: its kind and its byte span. The text is `&source[span]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub span: Span,
}

impl Token {
    pub fn new(kind: Tok, lo: u32, hi: u32) -> Self {
        Token { kind, span: Span::new(lo, hi) }
    }

    pub fn text(self, src: &str) -> &str {
        &src[self.span.lo as usize..self.span.hi as usize]
    }
}

/// The most tokens room is made for before the lexer has seen them (12 MiB).
const MAX_INITIAL_TOKENS: usize = 1 << 20;

/// Lexes `src` (which is at most `MAX_FILE_LEN` bytes long). A UTF-8 byte order mark at the
/// start is skipped. Newlines are kept; layout is the next stage's business.
pub fn lex(file: FileId, src: &str, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    // Names need checking only where a file has non-ASCII text (one fast pass over it).
    lex_part(file, src, 0, src.len() as u32, !src.is_ascii(), diags).0
}

/// Lexes the part of `src` from `lo`, where the lexing of the whole file begins a token or
/// a run of whitespace, up to `hi`: the tokens the lexing of the whole file makes there,
/// and whether the whole file's lexing begins a token at `hi` too (or ends there), so that
/// the next part can be lexed from `hi` (a part of a large file lexed on a thread of its
/// own, `syntax::parallel`). Lexing stops at the first token that ends past `hi`: one that
/// begins before `hi` (a triple-quoted string across it) or after it (whitespace skipped
/// across it) means that `hi` is not where a token begins. `check_names`: the file has
/// non-ASCII text.
pub(super) fn lex_part(
    file: FileId,
    src: &str,
    lo: u32,
    hi: u32,
    check_names: bool,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Token>, bool) {
    let mut lexer = Lexer::new(file, src, lo, hi, check_names, diags);
    let mut tokens = Vec::with_capacity(initial_capacity(hi - lo));
    while lexer.lex_line(&mut tokens) {}
    (tokens, lexer.at_boundary)
}

/// Room for the tokens of `bytes` of text before they are seen. A typical file has one
/// token per three to four bytes after layout (the examples 3.6, gen(N) 3.4): room for one
/// per three, so that the vector is seldom grown (each growth of a large one remaps it, and
/// the other threads' translations of it are flushed); room not used is address space
/// only. The guess is capped, so that a huge file of comments, one string or NUL bytes
/// allocates what it needs only.
pub(super) fn initial_capacity(bytes: u32) -> usize {
    (bytes as usize / 3).min(MAX_INITIAL_TOKENS) + 16
}

/// The lexer of a part of a file ([`lex_part`]), which gives its tokens one physical line
/// at a time, so that the layout stage reads them as they are made (no vector of the
/// file's raw tokens).
pub(super) struct Lexer<'s, 'd> {
    file: FileId,
    src: &'s str,
    logos: logos::Lexer<'s, Tok>,
    hi: u32,
    check_names: bool,
    /// A run of adjacent invalid characters, reported once.
    invalid_run: Option<Span>,
    /// Whether the whole file's lexing begins a token at `hi` (or ends there).
    at_boundary: bool,
    done: bool,
    diags: &'d mut Vec<Diagnostic>,
    /// The tokens of the last line ([`super::layout::Lines`]).
    line: Vec<Token>,
}

impl<'s, 'd> Lexer<'s, 'd> {
    pub(super) fn new(
        file: FileId,
        src: &'s str,
        lo: u32,
        hi: u32,
        check_names: bool,
        diags: &'d mut Vec<Diagnostic>,
    ) -> Self {
        let mut logos = Tok::lexer(src);
        if lo > 0 {
            logos.bump(lo as usize);
        } else if src.starts_with('\u{FEFF}') {
            logos.bump('\u{FEFF}'.len_utf8());
        }
        Lexer {
            file,
            src,
            logos,
            hi,
            check_names,
            invalid_run: None,
            // Lexing ends at `hi` when `hi` is the end of the file.
            at_boundary: hi as usize == src.len(),
            done: false,
            diags,
            line: Vec::new(),
        }
    }

    /// Whether the whole file's lexing begins a token at `hi` too (or ends there); known
    /// once every token is read.
    pub(super) fn at_boundary(&self) -> bool {
        self.at_boundary
    }

    /// Appends the tokens up to the next NEWLINE, that one included, or up to the end of
    /// the part, to `tokens`; false when the part was lexed to its end already.
    fn lex_line(&mut self, tokens: &mut Vec<Token>) -> bool {
        if self.done {
            return false;
        }
        let (file, src) = (self.file, self.src);
        while let Some(result) = self.logos.next() {
            let range = self.logos.span();
            let span = Span::new(range.start as u32, range.end as u32);
            if span.hi > self.hi {
                self.at_boundary = span.lo == self.hi;
                break;
            }
            match result {
                Ok(kind) => {
                    flush_invalid(file, src, &mut self.invalid_run, tokens, self.diags);
                    if self.check_names && kind == Tok::Name {
                        check_identifier(file, src, span, self.diags);
                    }
                    tokens.push(Token { kind, span });
                    if kind == Tok::Newline {
                        return true;
                    }
                }
                Err(LexError::InvalidChar) if is_unicode_space(src, span) => {
                    // A no-break space or another Unicode space: reported, then read as the
                    // space it looks like, so that indentation and tokens are not disturbed.
                    flush_invalid(file, src, &mut self.invalid_run, tokens, self.diags);
                    let ch = src[span.lo as usize..].chars().next().unwrap_or(' ');
                    self.diags.push(
                        Diagnostic::error(
                            Code::E0001,
                            format!("invalid non-ASCII space U+{:04X}", ch as u32),
                            Label::primary(file, span, "this looks like a space but is not one"),
                        )
                        .with_help("replace it with an ordinary space"),
                    );
                }
                Err(LexError::InvalidChar) => match &mut self.invalid_run {
                    Some(run) if run.hi == span.lo && !special_invalid(src, span) => run.hi = span.hi,
                    _ => {
                        flush_invalid(file, src, &mut self.invalid_run, tokens, self.diags);
                        self.invalid_run = Some(span);
                    }
                },
                Err(err) => {
                    flush_invalid(file, src, &mut self.invalid_run, tokens, self.diags);
                    let (message, label) = match err {
                        LexError::UnterminatedTripleString => (
                            "unterminated triple-quoted string literal",
                            "this string is still open at the end of the file",
                        ),
                        _ => ("unterminated string literal", "the closing quote is missing on this line"),
                    };
                    self.diags.push(
                        Diagnostic::error(Code::E0002, message, Label::primary(file, span, label))
                            .with_help("add the closing quote"),
                    );
                    tokens.push(Token { kind: Tok::Error, span });
                }
            }
        }
        flush_invalid(file, src, &mut self.invalid_run, tokens, self.diags);
        self.done = true;
        true
    }
}

impl super::layout::Lines for Lexer<'_, '_> {
    fn next_line(&mut self) -> Option<&[Token]> {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let more = self.lex_line(&mut line);
        self.line = line;
        more.then_some(&self.line[..])
    }
}

/// A name with a character Python refuses in identifiers (a zero-width joiner), or whose
/// NFKC form is not an identifier: E0001. The token stays a name, so that parsing goes on.
fn check_identifier(file: FileId, src: &str, span: Span, diags: &mut Vec<Diagnostic>) {
    let text = &src[span.lo as usize..span.hi as usize];
    match super::ident::check(text) {
        Ok(()) => {}
        Err(Some((at, c))) => {
            let lo = span.lo + at as u32;
            let what = if c.is_whitespace() || c.is_control() || matches!(c, '\u{200B}'..='\u{200F}' | '\u{FEFF}') {
                "invalid non-printable character"
            } else {
                "invalid character"
            };
            diags.push(
                Diagnostic::error(
                    Code::E0001,
                    format!("{what} U+{:04X} in the name `{}`", c as u32, text.escape_debug()),
                    Label::primary(file, Span::new(lo, lo + c.len_utf8() as u32), "not allowed in a name"),
                )
                .with_help("remove it; Python does not accept it in identifiers"),
            );
        }
        Err(None) => diags.push(Diagnostic::error(
            Code::E0001,
            format!("`{text}` is not a valid name once normalised (NFKC), as Python reads names"),
            Label::primary(file, span, "not a valid name"),
        )),
    }
}

/// A NUL byte or a stray backslash gets its own diagnostic rather than joining a run.
fn is_unicode_space(src: &str, span: Span) -> bool {
    let mut chars = src[span.lo as usize..span.hi as usize].chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if c.is_whitespace() && !c.is_ascii())
}

fn special_invalid(src: &str, span: Span) -> bool {
    matches!(&src[span.lo as usize..span.hi as usize], "\0" | "\\")
}

/// Reports the run of invalid characters, if there is one, and makes it an error token.
#[inline]
fn flush_invalid(
    file: FileId,
    src: &str,
    run: &mut Option<Span>,
    tokens: &mut Vec<Token>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(span) = run.take() {
        report_invalid(file, src, span, tokens, diags);
    }
}

#[cold]
#[inline(never)]
fn report_invalid(file: FileId, src: &str, span: Span, tokens: &mut Vec<Token>, diags: &mut Vec<Diagnostic>) {
    let text = &src[span.lo as usize..span.hi as usize];
    let diag = if text.starts_with('\0') {
        Diagnostic::error(
            Code::E0004,
            "source code cannot contain NUL bytes",
            Label::primary(file, span, "NUL byte (0x00) here"),
        )
    } else if text.starts_with('\\') && span.hi as usize == src.len() {
        Diagnostic::error(
            Code::E0010,
            "line continuation at the end of the file",
            Label::primary(file, span, "a `\\` continues the line, but the file ends here"),
        )
        .with_help("remove the backslash, or add the rest of the statement")
    } else if text.starts_with('\\') {
        Diagnostic::error(
            Code::E0010,
            "unexpected character after line continuation character",
            Label::primary(file, span, "a `\\` outside a string must end the line"),
        )
        .with_help("put the line break right after the backslash, or remove it")
    } else {
        let mut chars = text.chars();
        let first = chars.next().expect("an invalid run is never empty");
        let (message, label) = if chars.next().is_none() {
            (
                format!("invalid character '{first}' (U+{:04X})", first as u32),
                "this character starts no token".to_string(),
            )
        } else {
            (format!("invalid characters '{text}'"), "these characters start no token".to_string())
        };
        Diagnostic::error(Code::E0001, message, Label::primary(file, span, label))
    };
    diags.push(diag);
    tokens.push(Token { kind: Tok::Error, span });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_input_without_tokens_allocates_little() {
        // 64 MiB of one comment: one token, not 16 million tokens' worth of room.
        let src = format!("#{}", "x".repeat(64 << 20));
        let tokens = lex(FileId(0), &src, &mut Vec::new());
        assert!(tokens.len() <= 1);
        assert!(tokens.capacity() <= MAX_INITIAL_TOKENS + 16, "{}", tokens.capacity());
    }
}
