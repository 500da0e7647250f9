//! The layout stage: turns physical lines into logical ones for the grammar.
//!
//! It drops the newlines of blank lines, of comment-only lines and of lines inside brackets,
//! and measures the indentation of the first token of every logical line against a stack of
//! open blocks, emitting `Indent` and `Dedent` (zero-width, at that token). At the end of the
//! file every open block is closed. Indentation is measured as Python does, with tabs taken
//! as 8 and as 1 columns; when the two measures disagree on the line's meaning, the line is
//! ambiguous and an error.
//!
//! ```text
//! for i in pl.range(4):        For Name In Name Dot Name ( Int ) Colon Newline
//!     x = f(a,                 Indent Name Assign Name ( Name Comma
//!           b)                 Name ) Newline
//! y = 1                        Dedent Name Assign Int Newline
//! ```

use super::lexer::Token;
use super::token::Tok;
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::source::FileId;

/// Python refuses more than 100 levels of indentation; so does plc, which keeps every
/// recursive walk over statements shallow.
pub const MAX_BLOCK_DEPTH: usize = 100;

/// The indentation of a line measured with tabs as 8 columns and as 1 column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Indentation {
    tab8: u32,
    tab1: u32,
}

impl Indentation {
    const ZERO: Indentation = Indentation { tab8: 0, tab1: 0 };

    fn measure(whitespace: &str) -> Indentation {
        let mut ind = Indentation::ZERO;
        for b in whitespace.bytes() {
            match b {
                b' ' => {
                    ind.tab8 += 1;
                    ind.tab1 += 1;
                }
                b'\t' => {
                    ind.tab8 = (ind.tab8 / 8 + 1) * 8;
                    ind.tab1 += 1;
                }
                // A form feed resets the column, as in Python; so does a line break (only
                // seen after a backslash continuation that precedes the first token).
                b'\x0C' | b'\n' | b'\r' => ind = Indentation::ZERO,
                _ => {}
            }
        }
        ind
    }
}

/// Where a line's indentation stands against an open block.
enum Compare {
    Greater,
    Equal,
    Less,
    /// Greater with one tab width and not with the other.
    Ambiguous,
}

fn compare(line: Indentation, block: Indentation) -> Compare {
    use std::cmp::Ordering::*;
    match (line.tab8.cmp(&block.tab8), line.tab1.cmp(&block.tab1)) {
        (Greater, Greater) => Compare::Greater,
        (Equal, Equal) => Compare::Equal,
        (Less, Less) => Compare::Less,
        _ => Compare::Ambiguous,
    }
}

/// Runs the layout stage over the lexer's tokens.
pub fn layout(file: FileId, src: &str, raw: &[Token], diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    Layout {
        file,
        src,
        diags,
        out: Vec::with_capacity(raw.len() + raw.len() / 8 + 4),
    }
    .run(raw)
}

struct Layout<'a> {
    file: FileId,
    src: &'a str,
    diags: &'a mut Vec<Diagnostic>,
    out: Vec<Token>,
}

impl Layout<'_> {
    fn run(mut self, raw: &[Token]) -> Vec<Token> {
        let mut blocks: Vec<Indentation> = vec![Indentation::ZERO];
        let mut brackets: Vec<Token> = Vec::new();
        // Offset at which the current physical line starts.
        let mut line_start = if self.src.starts_with('\u{FEFF}') {
            3
        } else {
            0
        };
        // True until the first token of a logical line has been emitted.
        let mut at_line_start = true;
        let mut depth_reported = false;

        for &tok in raw {
            if tok.kind == Tok::Newline {
                if brackets.is_empty() {
                    if !at_line_start {
                        self.out.push(tok);
                        at_line_start = true;
                    }
                    line_start = tok.span.hi;
                }
                continue;
            }
            if at_line_start {
                at_line_start = false;
                let ws = &self.src[line_start as usize..tok.span.lo as usize];
                let line = Indentation::measure(ws);
                self.indent_line(tok, line, &mut blocks);
                if blocks.len() > MAX_BLOCK_DEPTH + 1 && !depth_reported {
                    depth_reported = true;
                    self.diags.push(
                        Diagnostic::error(
                            Code::E0120,
                            format!(
                                "too many levels of indentation (plc allows {MAX_BLOCK_DEPTH})"
                            ),
                            Label::primary(self.file, tok.span, "this line is nested too deeply"),
                        )
                        .with_help("move the inner blocks into a function of their own"),
                    );
                }
            }
            let kind = if tok.kind.is_open_bracket() {
                brackets.push(tok);
                tok.kind
            } else if tok.kind.is_close_bracket() {
                self.close_bracket(tok, &mut brackets)
            } else {
                tok.kind
            };
            self.out.push(Token {
                kind,
                span: tok.span,
            });
        }

        // End of file: unclosed brackets, the last line's newline, every open block.
        let end = self.src.len() as u32;
        if !brackets.is_empty() {
            for open in brackets.iter().rev() {
                self.diags.push(
                    Diagnostic::error(
                        Code::E0007,
                        format!("'{}' was never closed", open.text(self.src)),
                        Label::primary(
                            self.file,
                            open.span,
                            "this bracket is still open at the end of the file",
                        ),
                    )
                    .with_help(format!(
                        "add the matching '{}'",
                        open.kind.closer().spelling().unwrap_or(")")
                    )),
                );
            }
            // The parser stops at this token silently: the error is already reported.
            self.out.push(Token::new(Tok::Error, end, end));
        }
        if !at_line_start {
            self.out.push(Token::new(Tok::Newline, end, end));
        }
        for _ in 1..blocks.len() {
            self.out.push(Token::new(Tok::Dedent, end, end));
        }
        self.out
    }

    /// Compares the first token's indentation with the open blocks and emits Indent/Dedent.
    fn indent_line(&mut self, tok: Token, line: Indentation, blocks: &mut Vec<Indentation>) {
        let at = Span::new(tok.span.lo, tok.span.lo);
        let top = *blocks.last().expect("the root block is never popped");
        match compare(line, top) {
            Compare::Equal => {}
            Compare::Greater => {
                blocks.push(line);
                self.out.push(Token {
                    kind: Tok::Indent,
                    span: at,
                });
            }
            Compare::Less => {
                while blocks.len() > 1 {
                    let top = *blocks.last().expect("checked non-empty");
                    match compare(line, top) {
                        Compare::Less => {
                            blocks.pop();
                            self.out.push(Token {
                                kind: Tok::Dedent,
                                span: at,
                            });
                        }
                        Compare::Equal => return,
                        Compare::Greater => break,
                        Compare::Ambiguous => {
                            self.ambiguous_tabs(tok);
                            return;
                        }
                    }
                }
                if compare(line, *blocks.last().expect("root")) != Compare::Equal {
                    // Treat the line as part of the enclosing block so the stack stays sane.
                    self.diags.push(
                        Diagnostic::error(
                            Code::E0006,
                            "unindent does not match any outer indentation level",
                            Label::primary(
                                self.file,
                                tok.span,
                                "this line's indentation matches no enclosing block",
                            ),
                        )
                        .with_help("indent the line to the column of the block it belongs to"),
                    );
                }
            }
            Compare::Ambiguous => self.ambiguous_tabs(tok),
        }
    }

    fn ambiguous_tabs(&mut self, tok: Token) {
        self.diags.push(
            Diagnostic::error(
                Code::E0005,
                "inconsistent use of tabs and spaces in indentation",
                Label::primary(
                    self.file,
                    tok.span,
                    "whether this line is inside the block above depends on the width of a tab",
                ),
            )
            .with_help("indent with spaces only"),
        );
    }

    /// Matches a closing bracket. A closer that matches nothing, or that skips over an
    /// unclosed inner bracket, becomes an error token (the parser then recovers silently).
    fn close_bracket(&mut self, tok: Token, brackets: &mut Vec<Token>) -> Tok {
        let closer = tok.text(self.src).to_string();
        match brackets
            .iter()
            .rposition(|open| open.kind.closer() == tok.kind)
        {
            Some(i) if i + 1 == brackets.len() => {
                brackets.pop();
                tok.kind
            }
            Some(i) => {
                let inner = brackets[brackets.len() - 1];
                self.diags.push(
                    Diagnostic::error(
                        Code::E0009,
                        format!(
                            "closing '{}' does not match '{}'",
                            closer,
                            inner.text(self.src)
                        ),
                        Label::primary(self.file, tok.span, format!("'{closer}' here")),
                    )
                    .with_label(Label::secondary(
                        self.file,
                        inner.span,
                        format!("this '{}' is not closed", inner.text(self.src)),
                    ))
                    .with_help(format!(
                        "close the inner bracket with '{}' first",
                        inner.kind.closer().spelling().unwrap_or(")")
                    )),
                );
                brackets.truncate(i);
                Tok::Error
            }
            None => {
                self.diags.push(Diagnostic::error(
                    Code::E0008,
                    format!("unmatched '{closer}'"),
                    Label::primary(self.file, tok.span, "no open bracket to close here"),
                ));
                Tok::Error
            }
        }
    }
}

impl PartialEq for Compare {
    fn eq(&self, other: &Self) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}
