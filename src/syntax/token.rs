//! Token kinds. The context-free part is a logos lexer; `Newline` comes from it too, while
//! `Indent`, `Dedent` and `Error` are made by the layout stage and the lexer wrapper.

use logos::{Lexer, Logos};

/// Why the lexer could not make a token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LexError {
    /// A character that starts no token.
    #[default]
    InvalidChar,
    /// A quoted string whose closing quote is missing on its line.
    UnterminatedString,
    /// A triple-quoted string that is still open at the end of the file.
    UnterminatedTripleString,
}

/// A token kind. Token text is never stored: it is the source slice of the token's span.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\x0C]+")]
#[logos(skip(r"#[^\r\n]*", allow_greedy = true))]
#[logos(skip r"\\(\r\n|\n|\r)")]
pub enum Tok {
    // ---- layout ----
    #[regex(r"\r\n|\n|\r")]
    Newline,
    /// Made by the layout stage: the start of a more indented block.
    Indent,
    /// Made by the layout stage: the end of an indented block.
    Dedent,
    /// A lexing error; the diagnostic was reported when it was made.
    Error,

    // ---- names and literals ----
    #[regex(r"[\p{XID_Start}_][\p{XID_Continue}]*")]
    Name,
    #[regex(r"[0-9](_?[0-9])*")]
    #[regex(r"0[xX](_?[0-9a-fA-F])+")]
    #[regex(r"0[oO](_?[0-7])+")]
    #[regex(r"0[bB](_?[01])+")]
    Int,
    #[regex(r"[0-9](_?[0-9])*\.([0-9](_?[0-9])*)?([eE][+-]?[0-9](_?[0-9])*)?")]
    #[regex(r"\.[0-9](_?[0-9])*([eE][+-]?[0-9](_?[0-9])*)?")]
    #[regex(r"[0-9](_?[0-9])*[eE][+-]?[0-9](_?[0-9])*")]
    Float,
    #[regex(r"([0-9](_?[0-9])*(\.([0-9](_?[0-9])*)?)?|\.[0-9](_?[0-9])*)([eE][+-]?[0-9](_?[0-9])*)?[jJ]")]
    Imaginary,
    /// A plain, raw or unicode string literal: `'a'`, `"a"`, `r'\d'`, `u"x"`, `'''doc'''`.
    #[regex(r#"[rRuU]?['"]"#, quoted)]
    #[regex(r#"[rRuU]?('''|""")"#, triple_quoted)]
    Str,
    /// A bytes literal: `b'..'`, `rb"..."`.
    #[regex(r#"([bB]|[rR][bB]|[bB][rR])['"]"#, quoted)]
    #[regex(r#"([bB]|[rR][bB]|[bB][rR])('''|""")"#, triple_quoted)]
    Bytes,
    /// A formatted string literal: `f'..{x}..'`. Kept apart so that lowering can refuse it
    /// where a literal string is required (a graph name).
    #[regex(r#"([fF]|[rR][fF]|[fF][rR])['"]"#, f_quoted)]
    #[regex(r#"([fF]|[rR][fF]|[fF][rR])('''|""")"#, f_triple_quoted)]
    FStr,

    // ---- keywords ----
    #[token("False")]
    False,
    #[token("None")]
    None,
    #[token("True")]
    True,
    #[token("and")]
    And,
    #[token("as")]
    As,
    #[token("assert")]
    Assert,
    #[token("async")]
    Async,
    #[token("await")]
    Await,
    #[token("break")]
    Break,
    #[token("class")]
    Class,
    #[token("continue")]
    Continue,
    #[token("def")]
    Def,
    #[token("del")]
    Del,
    #[token("elif")]
    Elif,
    #[token("else")]
    Else,
    #[token("except")]
    Except,
    #[token("finally")]
    Finally,
    #[token("for")]
    For,
    #[token("from")]
    From,
    #[token("global")]
    Global,
    #[token("if")]
    If,
    #[token("import")]
    Import,
    #[token("in")]
    In,
    #[token("is")]
    Is,
    #[token("lambda")]
    Lambda,
    #[token("nonlocal")]
    Nonlocal,
    #[token("not")]
    Not,
    #[token("or")]
    Or,
    #[token("pass")]
    Pass,
    #[token("raise")]
    Raise,
    #[token("return")]
    Return,
    #[token("try")]
    Try,
    #[token("while")]
    While,
    #[token("with")]
    With,
    #[token("yield")]
    Yield,

    // ---- brackets ----
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,

    // ---- operators and delimiters ----
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(";")]
    Semi,
    #[token(".")]
    Dot,
    #[token("...")]
    Ellipsis,
    #[token("->")]
    Arrow,
    #[token("@")]
    At,
    #[token("=")]
    Assign,
    #[token(":=")]
    Walrus,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    DoubleStar,
    #[token("/")]
    Slash,
    #[token("//")]
    DoubleSlash,
    #[token("%")]
    Percent,
    #[token("<<")]
    LShift,
    #[token(">>")]
    RShift,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("+=")]
    PlusAssign,
    #[token("-=")]
    MinusAssign,
    #[token("*=")]
    StarAssign,
    #[token("/=")]
    SlashAssign,
    #[token("//=")]
    DoubleSlashAssign,
    #[token("%=")]
    PercentAssign,
    #[token("@=")]
    AtAssign,
    #[token("&=")]
    AmpAssign,
    #[token("|=")]
    PipeAssign,
    #[token("^=")]
    CaretAssign,
    #[token("<<=")]
    LShiftAssign,
    #[token(">>=")]
    RShiftAssign,
    #[token("**=")]
    DoubleStarAssign,
}

/// Byte length of the UTF-8 sequence that starts with `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Finishes a single-quoted string after its opening quote: the closing quote must come
/// before the end of the line (a backslash escapes the next character, a line break too).
fn quoted(lex: &mut Lexer<Tok>) -> Result<(), LexError> {
    finish(lex, false, false)
}

/// Finishes a triple-quoted string after its opening quotes; it may span lines.
fn triple_quoted(lex: &mut Lexer<Tok>) -> Result<(), LexError> {
    finish(lex, true, false)
}

/// Finishes an f-string. As in Python 3.12, a replacement field `{...}` may hold strings
/// with any quotes, further f-strings and line breaks.
fn f_quoted(lex: &mut Lexer<Tok>) -> Result<(), LexError> {
    finish(lex, false, true)
}

fn f_triple_quoted(lex: &mut Lexer<Tok>) -> Result<(), LexError> {
    finish(lex, true, true)
}

fn finish(lex: &mut Lexer<Tok>, triple: bool, format: bool) -> Result<(), LexError> {
    let quote = *lex.slice().as_bytes().last().expect("the opener matched a quote");
    match scan_string(lex.remainder().as_bytes(), quote, triple, format) {
        Ok(len) => {
            lex.bump(len);
            Ok(())
        }
        Err(len) => {
            lex.bump(len);
            Err(if triple { LexError::UnterminatedTripleString } else { LexError::UnterminatedString })
        }
    }
}

/// Scans the body of a string literal after its opening quote(s). Returns the length up to
/// and including the closing quote(s), or, when the string is not closed, the length to
/// leave in the error token (the rest of the line, or of the file for a triple quote).
fn scan_string(rest: &[u8], quote: u8, triple: bool, format: bool) -> Result<usize, usize> {
    let closes = |i: usize| {
        rest[i] == quote && (!triple || (rest.get(i + 1) == Some(&quote) && rest.get(i + 2) == Some(&quote)))
    };
    let quote_len = if triple { 3 } else { 1 };
    let mut i = 0;
    // Depth of braces inside a replacement field of an f-string.
    let mut depth = 0usize;
    while i < rest.len() {
        let b = rest[i];
        if depth > 0 {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b'\'' | b'"' => {
                    // A string inside the replacement field; an `f` prefix makes it an f-string.
                    let prefix = rest[..i].iter().rev().take_while(|c| c.is_ascii_alphabetic());
                    let nested_format = prefix.clone().any(|c| c.eq_ignore_ascii_case(&b'f'));
                    let nested_triple = rest.get(i + 1) == Some(&b) && rest.get(i + 2) == Some(&b);
                    let open = if nested_triple { 3 } else { 1 };
                    match scan_string(&rest[i + open..], b, nested_triple, nested_format) {
                        Ok(len) => i += open + len,
                        Err(len) => return Err(i + open + len),
                    }
                    continue;
                }
                _ => {}
            }
            i += utf8_len(b);
            continue;
        }
        match b {
            b'\\' => {
                i += 1;
                if i < rest.len() {
                    i += if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') { 2 } else { utf8_len(rest[i]) };
                }
            }
            b'\n' | b'\r' if !triple => return Err(i),
            _ if closes(i) => return Ok(i + quote_len),
            b'{' if format && rest.get(i + 1) == Some(&b'{') => i += 2,
            b'{' if format => {
                depth = 1;
                i += 1;
            }
            b => i += utf8_len(b),
        }
    }
    Err(rest.len())
}

impl Tok {
    /// How the token is named in messages, in words a Python programmer knows.
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Newline => "end of line",
            Tok::Indent => "indentation",
            Tok::Dedent => "dedent",
            Tok::Error => "invalid token",
            Tok::Name => "name",
            Tok::Int => "integer",
            Tok::Float => "float",
            Tok::Imaginary => "imaginary number",
            Tok::Str => "string",
            Tok::Bytes => "bytes literal",
            Tok::FStr => "f-string",
            other => other.spelling().unwrap_or("token"),
        }
    }

    /// The fixed spelling of keywords, brackets and operators.
    pub fn spelling(self) -> Option<&'static str> {
        Some(match self {
            Tok::False => "False",
            Tok::None => "None",
            Tok::True => "True",
            Tok::And => "and",
            Tok::As => "as",
            Tok::Assert => "assert",
            Tok::Async => "async",
            Tok::Await => "await",
            Tok::Break => "break",
            Tok::Class => "class",
            Tok::Continue => "continue",
            Tok::Def => "def",
            Tok::Del => "del",
            Tok::Elif => "elif",
            Tok::Else => "else",
            Tok::Except => "except",
            Tok::Finally => "finally",
            Tok::For => "for",
            Tok::From => "from",
            Tok::Global => "global",
            Tok::If => "if",
            Tok::Import => "import",
            Tok::In => "in",
            Tok::Is => "is",
            Tok::Lambda => "lambda",
            Tok::Nonlocal => "nonlocal",
            Tok::Not => "not",
            Tok::Or => "or",
            Tok::Pass => "pass",
            Tok::Raise => "raise",
            Tok::Return => "return",
            Tok::Try => "try",
            Tok::While => "while",
            Tok::With => "with",
            Tok::Yield => "yield",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Semi => ";",
            Tok::Dot => ".",
            Tok::Ellipsis => "...",
            Tok::Arrow => "->",
            Tok::At => "@",
            Tok::Assign => "=",
            Tok::Walrus => ":=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::DoubleStar => "**",
            Tok::Slash => "/",
            Tok::DoubleSlash => "//",
            Tok::Percent => "%",
            Tok::LShift => "<<",
            Tok::RShift => ">>",
            Tok::Amp => "&",
            Tok::Pipe => "|",
            Tok::Caret => "^",
            Tok::Tilde => "~",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::PlusAssign => "+=",
            Tok::MinusAssign => "-=",
            Tok::StarAssign => "*=",
            Tok::SlashAssign => "/=",
            Tok::DoubleSlashAssign => "//=",
            Tok::PercentAssign => "%=",
            Tok::AtAssign => "@=",
            Tok::AmpAssign => "&=",
            Tok::PipeAssign => "|=",
            Tok::CaretAssign => "^=",
            Tok::LShiftAssign => "<<=",
            Tok::RShiftAssign => ">>=",
            Tok::DoubleStarAssign => "**=",
            _ => return None,
        })
    }

    pub fn is_open_bracket(self) -> bool {
        matches!(self, Tok::LParen | Tok::LBracket | Tok::LBrace)
    }

    pub fn is_close_bracket(self) -> bool {
        matches!(self, Tok::RParen | Tok::RBracket | Tok::RBrace)
    }

    /// The closing bracket for an opening one.
    pub fn closer(self) -> Tok {
        match self {
            Tok::LParen => Tok::RParen,
            Tok::LBracket => Tok::RBracket,
            _ => Tok::RBrace,
        }
    }

    pub fn is_string(self) -> bool {
        matches!(self, Tok::Str | Tok::Bytes | Tok::FStr)
    }
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.spelling() {
            Some(s) => write!(f, "'{s}'"),
            None => f.write_str(self.describe()),
        }
    }
}
