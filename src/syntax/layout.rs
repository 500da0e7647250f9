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
//!
//! Layout mistakes are reported here, where they are plain to see, and repaired so that the
//! parser goes on without a cascade of errors:
//! - a line indented deeper although the line before does not end in `:` (E0103) opens a
//!   "phantom" level that emits no tokens, so the parser reads it as part of its block;
//! - a line ending in `:` not followed by a deeper line (E0104) gets an empty block made of
//!   an error token;
//! - a bracket left open (E0007) is closed when a later line starts with a statement keyword
//!   or with `name =` at the indentation of the line that opened it, so the error does not
//!   swallow the rest of the file; closing brackets that match nothing (E0008) or the wrong
//!   opener (E0009) become error tokens.

use super::lexer::Token;
use super::token::Tok;
use crate::diag::{Code, Diagnostic, Label};
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
        // The common case: spaces only, one column each.
        if whitespace.bytes().all(|b| b == b' ') {
            let n = whitespace.len() as u32;
            return Indentation { tab8: n, tab1: n };
        }
        let mut ind = Indentation::ZERO;
        for ch in whitespace.chars() {
            match ch {
                '\t' => {
                    ind.tab8 = (ind.tab8 / 8 + 1) * 8;
                    ind.tab1 += 1;
                }
                // A form feed resets the column, as in Python; so does a line break (only
                // seen after a backslash continuation that precedes the first token).
                '\x0C' | '\n' | '\r' => ind = Indentation::ZERO,
                // A space, or a Unicode space the lexer reported (it counts as a space).
                c if c.is_whitespace() => {
                    ind.tab8 += 1;
                    ind.tab1 += 1;
                }
                _ => {}
            }
        }
        ind
    }
}

/// Where a line's indentation stands against an open block.
#[derive(Clone, Copy, PartialEq, Eq)]
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

/// An open block: its indentation, and whether the parser knows of it (a phantom block,
/// opened by an unexpected indentation, emits no Indent/Dedent).
#[derive(Clone, Copy)]
struct Level {
    indentation: Indentation,
    phantom: bool,
}

/// An open bracket and the indentation of the logical line it was opened on.
#[derive(Clone, Copy)]
struct OpenBracket {
    token: Token,
    line_indentation: Indentation,
}

/// The first token of the logical line being emitted (its last is the last emitted), its
/// indentation, and whether it holds an error token.
#[derive(Clone, Copy)]
struct LogicalLine {
    first: Token,
    indentation: Indentation,
    has_error: bool,
    /// An unterminated string is on the line: the brackets it swallowed are not reported.
    unterminated_string: bool,
}

/// The layout stage's input, one physical line at a time: the raw tokens up to a NEWLINE,
/// that one included (the last line may have none). A line is all the layout looks ahead
/// at, so the lexer can make the tokens as they are read (`lexer::Lexer`).
pub trait Lines {
    /// The next line's tokens; `None` after the last.
    fn next_line(&mut self) -> Option<&[Token]>;
}

/// The lexer's tokens, all made already.
impl Lines for &[Token] {
    fn next_line(&mut self) -> Option<&[Token]> {
        if self.is_empty() {
            return None;
        }
        let len = self.iter().position(|t| t.kind == Tok::Newline).map_or(self.len(), |i| i + 1);
        let (line, rest) = self.split_at(len);
        *self = rest;
        Some(line)
    }
}

/// Runs the layout stage over the lexer's tokens.
#[cfg(test)]
pub fn layout(file: FileId, src: &str, raw: &[Token], diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    layout_with_breaks(file, src, &mut &raw[..], raw.len(), diags, &[]).tokens
}

/// The layout stage's output when run with [`layout_with_breaks`].
pub struct LaidOut {
    pub tokens: Vec<Token>,
    /// Offsets of the lines inside brackets that may show a bracket left open: a name at or
    /// left of the indentation of the line that opened the outermost bracket, on a line
    /// that does not close it. Valid code can look like this, so such a line is only
    /// treated as a new statement when the parser fails after it (see `syntax::parse`).
    pub candidates: Vec<u32>,
}

/// Runs the layout stage over the raw tokens of the whole file (`raw`; room is made for
/// `capacity` tokens), treating the lines that start at the offsets in `breaks` (sorted)
/// as new statements after a bracket left open (E0007).
pub fn layout_with_breaks(
    file: FileId,
    src: &str,
    raw: &mut impl Lines,
    capacity: usize,
    diags: &mut Vec<Diagnostic>,
    breaks: &[u32],
) -> LaidOut {
    let line_start = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut candidates = Vec::new();
    let tokens = Layout::new(file, src, diags, capacity, line_start, src.len() as u32)
        .run(raw, breaks, &mut candidates)
        .unwrap_or_default();
    LaidOut { tokens, candidates }
}

/// The layout of a part of a large file (`syntax::parallel`): `raw` is what
/// `lexer::lex_part` made from `lo`, the start of a line at column 0 where the layout of
/// the whole file is at the top level (no bracket open, no logical line begun, no block
/// expected), up to `hi`. The tokens are those the layout of the whole file makes for the
/// part, the Dedents that close its blocks included (zero-width at `hi`, as the whole
/// file's layout makes them before the token at `hi`); `None` when the part does not end
/// at the top level, after a line that is not a decorator (a bracket or a line still open,
/// a block expected, a decorator line last), so that `hi` cannot begin the next part.
pub(super) fn layout_part(
    file: FileId,
    src: &str,
    raw: &mut impl Lines,
    lo: u32,
    hi: u32,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Token>> {
    let line_start = if lo == 0 && src.starts_with('\u{FEFF}') { 3 } else { lo };
    let capacity = super::lexer::initial_capacity(hi - lo);
    Layout::new(file, src, diags, capacity, line_start, hi).run(raw, &[], &mut Vec::new())
}

struct Layout<'a> {
    file: FileId,
    src: &'a str,
    diags: &'a mut Vec<Diagnostic>,
    out: Vec<Token>,
    /// Every open block; the root (column 0) is never popped.
    levels: Vec<Level>,
    /// Open brackets, innermost last.
    brackets: Vec<OpenBracket>,
    /// Offset at which the current physical line starts.
    line_start: u32,
    /// The logical line being emitted; `None` until its first token.
    line: Option<LogicalLine>,
    /// Set when the previous logical line ended in `:`: its first token (the keyword).
    block_expected: Option<Token>,
    /// The previous logical line had an error token: its indentation mistakes are cascades.
    after_error_line: bool,
    depth_reported: bool,
    /// E0005 was reported: later ambiguities in the same top-level statement are resolved
    /// silently.
    tabs_reported: bool,
    /// The offset where the tokens end: the end of the file, or of a part of it.
    end: u32,
    /// The last logical line begun at the top level is a decorator (`@...`).
    top_decorator: bool,
}

impl<'a> Layout<'a> {
    fn new(
        file: FileId,
        src: &'a str,
        diags: &'a mut Vec<Diagnostic>,
        capacity: usize,
        line_start: u32,
        end: u32,
    ) -> Self {
        Layout {
            file,
            src,
            diags,
            out: Vec::with_capacity(capacity),
            levels: vec![Level { indentation: Indentation::ZERO, phantom: false }],
            brackets: Vec::new(),
            line_start,
            line: None,
            block_expected: None,
            after_error_line: false,
            depth_reported: false,
            tabs_reported: false,
            end,
            top_decorator: false,
        }
    }

    /// The laid-out tokens; `None` when the tokens end before the end of the file
    /// (`layout_part`) and not at the top level after a line that is not a decorator.
    fn run(mut self, raw: &mut impl Lines, breaks: &[u32], candidates: &mut Vec<u32>) -> Option<Vec<Token>> {
        // The last newline dropped inside brackets, while no token has followed it yet.
        let mut joined_newline: Option<Token> = None;

        while let Some(line) = raw.next_line() {
            for (i, &tok) in line.iter().enumerate() {
                if tok.kind == Tok::Newline {
                    self.line_start = tok.span.hi;
                    if self.brackets.is_empty() {
                        self.end_line(tok);
                    } else {
                        joined_newline = Some(tok);
                    }
                    continue;
                }
                if let Some(newline) = joined_newline.take() {
                    let left_open = starts_statement(tok.kind) || {
                        let candidate = self.may_start_statement(tok, &line[i..]);
                        if candidate {
                            candidates.push(tok.span.lo);
                        }
                        candidate && breaks.binary_search(&tok.span.lo).is_ok()
                    };
                    if left_open {
                        self.unclosed();
                        self.push(Token::new(Tok::Error, newline.span.lo, newline.span.lo));
                        self.end_line(newline);
                    }
                }
                if self.line.is_none() {
                    self.start_line(tok);
                }
                if tok.kind.is_open_bracket() {
                    let line_indentation = self.line.map_or(Indentation::ZERO, |l| l.indentation);
                    self.brackets.push(OpenBracket { token: tok, line_indentation });
                    self.push(tok);
                } else if tok.kind.is_close_bracket() {
                    self.close_bracket(tok, &line[i + 1..]);
                } else {
                    self.push(tok);
                }
            }
        }

        let end = self.end;
        let top_level = self.brackets.is_empty() && self.line.is_none() && self.block_expected.is_none();
        let next_may_begin = top_level && !self.top_decorator;
        if end as usize != self.src.len() && !next_may_begin {
            return None;
        }
        // End of file: unclosed brackets, the last line's newline, every open block.
        let eof = Token::new(Tok::Newline, end, end);
        if !self.brackets.is_empty() {
            self.unclosed();
            // The parser stops at this token silently: the error is already reported.
            self.push(Token::new(Tok::Error, end, end));
        }
        self.end_line(eof);
        if let Some(header) = self.block_expected.take() {
            self.missing_block(header, eof);
        }
        let open_blocks = self.levels.drain(1..).filter(|l| !l.phantom).count();
        for _ in 0..open_blocks {
            self.out.push(Token::new(Tok::Dedent, end, end));
        }
        Some(self.out)
    }

    /// Emits a token of the current logical line (which `start_line` has begun). Every
    /// token of a line goes through here, its first right after `start_line`, so the last
    /// token emitted is the line's last (`end_line`).
    #[inline]
    fn push(&mut self, tok: Token) {
        if tok.kind == Tok::Error {
            self.note_error(tok);
        }
        // The tokens' room is reserved for the whole text: its pages faulted in a block at
        // a time.
        crate::mem::ahead(&mut self.out);
        self.out.push(tok);
    }

    /// Notes an error token on the current line.
    #[cold]
    fn note_error(&mut self, tok: Token) {
        if let Some(line) = &mut self.line {
            line.has_error = true;
            let text = tok.text(self.src);
            line.unterminated_string |= text.trim_start_matches(char::is_alphabetic).starts_with(['\'', '"']);
        }
    }

    /// Ends the current logical line (if it has tokens) with `newline`.
    fn end_line(&mut self, newline: Token) {
        let Some(line) = self.line.take() else { return };
        let ends_in_colon = self.out.last().is_some_and(|last| last.kind == Tok::Colon);
        crate::mem::ahead(&mut self.out);
        self.out.push(newline);
        self.block_expected = ends_in_colon.then_some(line.first);
        self.after_error_line = line.has_error;
    }

    /// Begins a logical line at its first token: measures its indentation and emits the
    /// Indent/Dedent tokens it implies.
    fn start_line(&mut self, tok: Token) {
        let ws = &self.src[self.line_start as usize..tok.span.lo as usize];
        let indentation = Indentation::measure(ws);
        if indentation == Indentation::ZERO {
            // A new top-level statement: its own tab mix-up is worth a report of its own.
            self.tabs_reported = false;
        }
        let top = self.top().indentation;
        let deeper = self.compare(tok, indentation, top) == Compare::Greater;
        let mut phantom = false;
        if let Some(header) = self.block_expected.take() {
            if !deeper {
                self.missing_block(header, tok);
            }
        } else if deeper {
            phantom = true;
            if !self.after_error_line {
                self.diags.push(
                    Diagnostic::error(
                        Code::E0103,
                        "unexpected indentation",
                        Label::primary(self.file, tok.span, "this line is indented more than the one before"),
                    )
                    .with_help("only a line ending in `:` opens a block; dedent this line to the column of its block"),
                );
            }
        }
        self.indent(tok, indentation, phantom);
        if self.levels.len() == 1 {
            self.top_decorator = tok.kind == Tok::At;
        }
        self.line = Some(LogicalLine { first: tok, indentation, has_error: false, unterminated_string: false });
        if self.levels.len() > MAX_BLOCK_DEPTH + 1 && !self.depth_reported {
            self.depth_reported = true;
            self.diags.push(
                Diagnostic::error(
                    Code::E0120,
                    format!("too many levels of indentation (plc allows {MAX_BLOCK_DEPTH})"),
                    Label::primary(self.file, tok.span, "this line is nested too deeply"),
                )
                .with_help("move the inner blocks into a function of their own"),
            );
        }
    }

    fn top(&self) -> Level {
        *self.levels.last().expect("the root block is never popped")
    }

    /// Opens or closes blocks for a line at `indentation`.
    fn indent(&mut self, tok: Token, indentation: Indentation, phantom: bool) {
        let at = Token::new(Tok::Indent, tok.span.lo, tok.span.lo);
        match self.compare(tok, indentation, self.top().indentation) {
            Compare::Equal | Compare::Ambiguous => {}
            Compare::Greater => {
                self.levels.push(Level { indentation, phantom });
                if !phantom {
                    self.out.push(at);
                }
            }
            Compare::Less => {
                while self.levels.len() > 1 && self.compare(tok, indentation, self.top().indentation) == Compare::Less {
                    if !self.levels.pop().expect("more than the root").phantom {
                        self.out.push(Token { kind: Tok::Dedent, ..at });
                    }
                }
                if self.compare(tok, indentation, self.top().indentation) != Compare::Equal {
                    // Between two levels: the line joins the enclosing block, so the stack
                    // stays consistent.
                    self.diags.push(
                        Diagnostic::error(
                            Code::E0006,
                            "unindent does not match any outer indentation level",
                            Label::primary(self.file, tok.span, "this line's indentation matches no enclosing block"),
                        )
                        .with_help("indent the line to the column of the block it belongs to"),
                    );
                }
            }
        }
    }

    /// Compares a line's indentation with a block's. When tabs make the comparison depend
    /// on the tab width, reports E0005 (once per top-level statement: one mix of tabs and
    /// spaces usually makes many lines ambiguous) and decides with tabs as 8 columns.
    fn compare(&mut self, tok: Token, line: Indentation, block: Indentation) -> Compare {
        match compare(line, block) {
            Compare::Ambiguous => {
                if !self.tabs_reported {
                    self.tabs_reported = true;
                    self.ambiguous_tabs(tok);
                }
                match line.tab8.cmp(&block.tab8) {
                    std::cmp::Ordering::Greater => Compare::Greater,
                    std::cmp::Ordering::Equal => Compare::Equal,
                    std::cmp::Ordering::Less => Compare::Less,
                }
            }
            other => other,
        }
    }

    /// A line ending in `:` not followed by a more indented line. Reports it and emits an
    /// empty block (an error token inside) so that the parser goes on silently.
    fn missing_block(&mut self, header: Token, next: Token) {
        if !self.after_error_line {
            let keyword = match header.kind {
                Tok::At => "",
                kind => kind.spelling().filter(|s| s.chars().all(char::is_alphabetic)).unwrap_or(""),
            };
            let message = if keyword.is_empty() {
                "expected an indented block".to_string()
            } else {
                format!("expected an indented block after the `{keyword}` statement")
            };
            let label = if next.span.is_empty() && next.span.lo as usize == self.src.len() {
                "the file ends before the block"
            } else {
                "this line should be indented"
            };
            self.diags.push(
                Diagnostic::error(Code::E0104, message, Label::primary(self.file, next.span, label))
                    .with_label(Label::secondary(self.file, header.span, "the block of this statement is missing"))
                    .with_help("indent the block one level more than its header; write `pass` for an empty block"),
            );
        }
        let at = next.span.lo;
        for kind in [Tok::Indent, Tok::Error, Tok::Newline, Tok::Dedent] {
            self.out.push(Token::new(kind, at, at));
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

    /// Whether the first token of a physical line inside brackets may start a statement
    /// after a bracket left open: a name at or left of the indentation of the line that
    /// opened the outermost bracket, on a line that does not close the open brackets
    /// (`rest` is the raw input from this token on).
    fn may_start_statement(&self, tok: Token, rest: &[Token]) -> bool {
        let Some(outermost) = self.brackets.first() else {
            return false;
        };
        if tok.kind != Tok::Name {
            return false;
        }
        let ws = &self.src[self.line_start as usize..tok.span.lo as usize];
        if Indentation::measure(ws).tab8 > outermost.line_indentation.tab8 {
            return false;
        }
        let mut depth = self.brackets.len();
        for t in rest.iter().take_while(|t| t.kind != Tok::Newline) {
            if t.kind.is_open_bracket() {
                depth += 1;
            } else if t.kind.is_close_bracket() {
                depth -= 1;
                if depth == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Reports the innermost open bracket as never closed (the outer ones, which are open
    /// because of it or as well, as labels) and forgets them all.
    fn unclosed(&mut self) {
        let brackets = std::mem::take(&mut self.brackets);
        if self.line.is_some_and(|l| l.unterminated_string) {
            return;
        }
        let Some((inner, outer)) = brackets.split_last() else {
            return;
        };
        let open = inner.token;
        let mut diag = Diagnostic::error(
            Code::E0007,
            format!("'{}' was never closed", open.text(self.src)),
            Label::primary(self.file, open.span, "this bracket is never closed"),
        )
        .with_help(format!("add the matching '{}'", open.kind.closer().spelling().unwrap_or(")")));
        for b in outer.iter().rev().take(3) {
            diag = diag.with_label(Label::secondary(self.file, b.token.span, "inside this one, also open"));
        }
        if outer.len() > 3 {
            diag = diag.with_note(format!("{} more brackets are open around these", outer.len() - 3));
        }
        self.diags.push(diag);
    }

    /// Matches a closing bracket and emits it. A closer with nothing open becomes an error
    /// token (E0008). A closer that does not match the innermost open bracket (E0009) is
    /// repaired so that the parser goes on quietly, in whichever of two readings makes the
    /// rest of the line (`rest`) balance: a mistyped closer of the innermost bracket
    /// (`[0, 0)`), or closers forgotten before it (`f(a, [0, 0)` closes `[` and `(`).
    fn close_bracket(&mut self, tok: Token, rest: &[Token]) {
        let Some(inner) = self.brackets.last().map(|b| b.token) else {
            let closer = tok.text(self.src);
            self.diags.push(Diagnostic::error(
                Code::E0008,
                format!("unmatched '{closer}'"),
                Label::primary(self.file, tok.span, "no open bracket to close here"),
            ));
            self.push(Token { kind: Tok::Error, ..tok });
            return;
        };
        if inner.kind.closer() == tok.kind {
            self.brackets.pop();
            self.push(tok);
            return;
        }
        let (opener, closer) = (inner.text(self.src), tok.text(self.src));
        let expected = inner.kind.closer().spelling().unwrap_or(")");
        self.diags.push(
            Diagnostic::error(
                Code::E0009,
                format!("closing '{closer}' does not match '{opener}'"),
                Label::primary(self.file, tok.span, format!("'{closer}' here")),
            )
            .with_label(Label::secondary(self.file, inner.span, format!("this '{opener}' is not closed")))
            .with_help(format!("close the '{opener}' with '{expected}' first")),
        );
        let kinds: Vec<Tok> = self.brackets.iter().map(|b| b.token.kind).collect();
        let mistyped = balance(&kinds[..kinds.len() - 1], rest);
        let forgotten = kinds.iter().rposition(|k| k.closer() == tok.kind);
        match forgotten {
            Some(i) if balance(&kinds[..i], rest) > mistyped => {
                // Close the inner brackets with zero-width closers, then this one.
                while self.brackets.len() > i + 1 {
                    let open = self.brackets.pop().expect("deeper than i");
                    self.push(Token::new(open.token.kind.closer(), tok.span.lo, tok.span.lo));
                }
                self.brackets.pop();
                self.push(tok);
            }
            _ => {
                self.brackets.pop();
                self.push(Token { kind: inner.kind.closer(), ..tok });
            }
        }
    }
}

/// How well the brackets of `rest` (up to the end of its line) fit after `open`: 0 they
/// mismatch, 1 they fit, 2 they fit and close everything.
fn balance(open: &[Tok], rest: &[Token]) -> u8 {
    let mut stack = open.to_vec();
    for t in rest.iter().take_while(|t| t.kind != Tok::Newline) {
        if t.kind.is_open_bracket() {
            stack.push(t.kind);
        } else if t.kind.is_close_bracket() {
            match stack.pop() {
                Some(open) if open.closer() == t.kind => {}
                _ => return 0,
            }
        }
    }
    if stack.is_empty() {
        2
    } else {
        1
    }
}

/// Keywords that start a statement and can never continue an expression, so a line inside
/// brackets that begins with one shows that a bracket was left open.
fn starts_statement(kind: Tok) -> bool {
    matches!(
        kind,
        Tok::Def
            | Tok::Class
            | Tok::Return
            | Tok::Import
            | Tok::From
            | Tok::Pass
            | Tok::Break
            | Tok::Continue
            | Tok::Raise
            | Tok::While
            | Tok::With
            | Tok::Try
            | Tok::Except
            | Tok::Finally
            | Tok::Elif
            | Tok::Del
            | Tok::Global
            | Tok::Nonlocal
            | Tok::Assert
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::lexer::lex;

    /// The kinds of the laid-out tokens, and the diagnostic codes.
    fn run(src: &str) -> (Vec<Tok>, Vec<&'static str>) {
        let mut diags = Vec::new();
        let raw = lex(FileId(0), src, &mut diags);
        let toks = layout(FileId(0), src, &raw, &mut diags);
        (toks.iter().map(|t| t.kind).collect(), diags.iter().map(|d| d.code.as_str()).collect())
    }

    /// The kinds of the laid-out tokens of a source without errors.
    fn tokens(src: &str) -> Vec<Tok> {
        let (toks, diags) = run(src);
        assert!(diags.is_empty(), "{diags:?}");
        toks
    }

    fn count(toks: &[Tok], kind: Tok) -> usize {
        toks.iter().filter(|&&k| k == kind).count()
    }

    #[test]
    fn blocks_open_and_close() {
        use Tok::*;
        let toks = tokens("if a:\n    if b:\n        x\n\n  # c\ny\n");
        assert_eq!(
            toks,
            [
                If, Name, Colon, Newline, Indent, If, Name, Colon, Newline, Indent, Name, Newline, Dedent, Dedent,
                Name, Newline
            ]
        );
    }

    #[test]
    fn brackets_join_lines_and_eof_closes_blocks() {
        use Tok::*;
        let toks = tokens("f(a,\n  b)\nif x:\n    y");
        assert_eq!(
            toks,
            [Name, LParen, Name, Comma, Name, RParen, Newline, If, Name, Colon, Newline, Indent, Name, Newline, Dedent]
        );
    }

    #[test]
    fn continuation_and_crlf() {
        let toks = tokens("x = 1 + \\\r\n    2\r\ny = 3\r\n");
        assert_eq!(count(&toks, Tok::Newline), 2);
        assert_eq!(count(&toks, Tok::Indent), 0);
    }

    #[test]
    fn layout_errors() {
        assert_eq!(run("if a:\n        x\n    y\n").1, ["E0006"]);
        assert_eq!(run("if a:\n        x\n\ty\n").1, ["E0005"]);
        assert_eq!(run("x = (1,\n").1, ["E0007"]);
        assert_eq!(run("x = 1)\n").1, ["E0008"]);
        assert_eq!(run("x = (1]\n").1, ["E0009"]);
        assert_eq!(run("x = 1\n    y = 2\n    z = 3\n").1, ["E0103"]);
        assert_eq!(run("for i in r:\nx = 1\n").1, ["E0104"]);
        assert_eq!(run("for i in r:\n").1, ["E0104"]);
    }

    #[test]
    fn indentation_balances_even_after_errors() {
        for src in ["if a:\n        x\n    y\n", "x\n  y\n    z\n w\n", "if a:\nif b:\n", "(\n  return\n"] {
            let (toks, _) = run(src);
            assert_eq!(count(&toks, Tok::Indent), count(&toks, Tok::Dedent), "{src:?}");
        }
    }

    #[test]
    fn open_bracket_is_closed_at_a_statement_keyword() {
        let (toks, diags) = run("y = f(x,\nreturn y\n");
        assert_eq!(diags, ["E0007"]);
        assert_eq!(count(&toks, Tok::Newline), 2);
    }

    #[test]
    fn a_name_line_inside_brackets_is_only_a_candidate() {
        let src = "y = f(x,\nz = 3\nw = 4\n";
        let mut diags = Vec::new();
        let raw = lex(FileId(0), src, &mut diags);
        let laid = layout_with_breaks(FileId(0), src, &mut &raw[..], raw.len(), &mut diags, &[]);
        assert_eq!(laid.candidates, [9, 15]);
        assert_eq!(count(&laid.tokens.iter().map(|t| t.kind).collect::<Vec<_>>(), Tok::Newline), 1);
        let laid = layout_with_breaks(FileId(0), src, &mut &raw[..], raw.len(), &mut diags, &[9]);
        assert_eq!(count(&laid.tokens.iter().map(|t| t.kind).collect::<Vec<_>>(), Tok::Newline), 3);
    }
}
