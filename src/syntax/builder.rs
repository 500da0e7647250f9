//! What the grammar's actions call: allocation of AST nodes, and the conversion of LALRPOP's
//! parse errors into plc diagnostics with messages in a Python programmer's words.

use super::ast::*;
use super::token::Tok;
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::intern::{Interner, Symbol};
use crate::source::FileId;
use lalrpop_util::{ErrorRecovery, ParseError};
use std::convert::Infallible;

pub type Recovery = ErrorRecovery<u32, Tok, Infallible>;
pub type Error = ParseError<u32, Tok, Infallible>;

/// The statements of one logical line (`a = 1; b = 2` has two).
pub struct Line {
    pub first: StmtId,
    pub rest: Vec<StmtId>,
}

pub struct Builder<'s> {
    pub file: FileId,
    pub src: &'s str,
    pub interner: &'s mut Interner,
    pub ast: Ast,
    pub diags: Vec<Diagnostic>,
    /// Whether the whole source is ASCII: its names then need no normalization (NFKC
    /// leaves ASCII text as it is), which saves a scan of each identifier.
    pub ascii: bool,
    pub seen: Seen,
    /// The names met last, in front of the interner (ASCII sources only).
    recent: Recent,
}

/// A small cache of names in front of the interner: a name met again (most are) finds its
/// symbol by a cheap hash of its spelling and a comparison with the bytes of the source
/// where it was met last, without hashing it into the interner's table. An entry holds
/// where that spelling is in the source (start, length) and its symbol.
struct Recent(Vec<Option<(u32, u32, Symbol)>>);

impl Recent {
    const SLOTS: usize = 1024;

    fn new() -> Recent {
        Recent(vec![None; Self::SLOTS])
    }

    /// The slot of a name, from its length and three of its bytes (its first, middle and
    /// last), mixed by a multiplication whose top bits index the slots.
    fn slot(text: &[u8]) -> usize {
        let n = text.len();
        let byte = |i: usize| text.get(i).map_or(0, |&b| u64::from(b));
        let key = n as u64 | byte(0) << 16 | byte(n / 2) << 24 | byte(n.wrapping_sub(1)) << 32;
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize
    }

    /// The symbol of the name at `lo..hi` of `src`, from the cache or the interner.
    fn intern(&mut self, interner: &mut Interner, src: &str, lo: u32, hi: u32) -> Symbol {
        let text = &src.as_bytes()[lo as usize..hi as usize];
        let Some(slot) = self.0.get_mut(Self::slot(text)) else {
            return interner.intern(&src[lo as usize..hi as usize]);
        };
        if let Some((at, len, sym)) = *slot {
            // Byte by byte: names are short, shorter than a call of `memcmp` costs.
            let met = src.as_bytes().get(at as usize..(at + len) as usize);
            if met.is_some_and(|met| met.len() == text.len() && met.iter().zip(text).all(|(a, b)| a == b)) {
                return sym;
            }
        }
        let sym = interner.intern(&src[lo as usize..hi as usize]);
        *slot = Some((lo, hi - lo, sym));
        sym
    }
}

/// What the builder notes of the nodes as it makes them, so that the checks after the
/// parse walk the tree only when they may find something: `limits::check` when many
/// expressions were made between two statements (`limits::may_exceed`), `restrict` when a
/// statement may be refused, and its walk of the expressions when an expression may be.
pub struct Seen {
    /// The number of expressions when the last statement was made.
    mark: usize,
    /// Many expressions were made between two statements.
    many: bool,
    /// An expression made is of a kind `restrict` may refuse (`restrict::may_refuse`).
    pub refusable: bool,
    /// A statement made may be refused (`restrict::may_refuse_stmt`), or is a `def` or a
    /// `class` holding a `def` or a `class` that may be (a `def` inside a function, a
    /// `class` inside a function or a class).
    pub refusable_stmt: bool,
    /// The spans of the last `def` or `class` made, and of the last `class`: a `def` or a
    /// `class` holds one when it holds the last made before it (its body's are made just
    /// before it).
    last_def: Option<Span>,
    last_class: Option<Span>,
    /// An `Error` node was made (the parser recovered from an error).
    pub error_node: bool,
}

impl<'s> Builder<'s> {
    /// A builder adding to `ast`.
    pub fn new(file: FileId, src: &'s str, interner: &'s mut Interner, ast: Ast, ascii: bool) -> Self {
        let seen = Seen {
            mark: ast.exprs.len(),
            many: false,
            refusable: false,
            refusable_stmt: false,
            last_def: None,
            last_class: None,
            error_node: false,
        };
        Builder { file, src, interner, ast, diags: Vec::new(), ascii, seen, recent: Recent::new() }
    }

    pub fn expr(&mut self, lo: u32, hi: u32, kind: ExprKind) -> ExprId {
        let id = ExprId(self.ast.exprs.len() as u32);
        self.seen.refusable |= super::restrict::may_refuse(&self.ast, &kind);
        self.seen.error_node |= matches!(kind, ExprKind::Error);
        self.ast.exprs.push(Expr { kind, span: Span::new(lo, hi) });
        id
    }

    pub fn stmt(&mut self, lo: u32, hi: u32, kind: StmtKind) -> StmtId {
        let id = StmtId(self.ast.stmts.len() as u32);
        let span = Span::new(lo, hi);
        let seen = &mut self.seen;
        seen.error_node |= matches!(kind, StmtKind::Error);
        seen.refusable_stmt |= super::restrict::may_refuse_stmt(&self.ast, &kind);
        let holds = |last: Option<Span>| last.is_some_and(|last| span.contains(last));
        match kind {
            StmtKind::FunctionDef(_) => {
                seen.refusable_stmt |= holds(seen.last_def);
                seen.last_def = Some(span);
            }
            StmtKind::ClassDef(_) => {
                seen.refusable_stmt |= holds(seen.last_class);
                (seen.last_def, seen.last_class) = (Some(span), Some(span));
            }
            _ => {}
        }
        self.note_made();
        self.ast.stmts.push(Stmt { kind, span });
        id
    }

    /// Whether `restrict` may find something in what was made, and in its expressions.
    pub fn restrict_may_refuse(&self) -> (bool, bool) {
        (self.seen.refusable_stmt || self.seen.refusable, self.seen.refusable)
    }

    /// Counts the expressions made since the last statement (or the start).
    fn note_made(&mut self) {
        let len = self.ast.exprs.len();
        self.seen.many |= super::limits::may_exceed(len - self.seen.mark);
        self.seen.mark = len;
    }

    /// Whether `limits::check` may find an expression past a limit among those made: many
    /// were made between two statements, or the parser recovered from an error.
    pub fn limits_may_cut(&mut self) -> bool {
        self.note_made();
        self.seen.many || self.seen.error_node
    }

    /// Undoes the nodes and names made since the arenas and the interner had these lengths
    /// (what [`Seen`] noted of them stays: the checks it spares then run).
    pub fn truncate(&mut self, exprs: usize, stmts: usize, lists: [usize; 5], names: usize) {
        self.ast.lists.truncate(lists);
        self.ast.exprs.truncate(exprs);
        self.ast.stmts.truncate(stmts);
        self.interner.truncate(names);
        self.recent = Recent::new();
        self.seen.mark = self.seen.mark.min(exprs);
    }

    pub fn ident(&mut self, lo: u32, hi: u32) -> Ident {
        let name = if self.ascii {
            self.recent.intern(self.interner, self.src, lo, hi)
        } else {
            self.interner.intern(&super::ident::normalize(&self.src[lo as usize..hi as usize]))
        };
        Ident { name, span: Span::new(lo, hi) }
    }

    pub fn name(&mut self, lo: u32, hi: u32) -> ExprId {
        let ident = self.ident(lo, hi);
        self.expr(lo, hi, ExprKind::Name(ident.name))
    }

    pub fn binary(&mut self, lo: u32, hi: u32, op: BinOp, lhs: ExprId, rhs: ExprId) -> ExprId {
        self.expr(lo, hi, ExprKind::Binary { op, lhs, rhs })
    }

    /// A run of binary operators and their operands (each with the bytes it covers, its
    /// brackets included), folded by precedence, every operator left-associative: the
    /// tree the grammar with one level per precedence made, `a + b * c` as `a + (b * c)`.
    /// A node is made when an operator of the same or a lower level follows it, as the
    /// levelled grammar reduced it.
    pub fn fold(&mut self, first: (u32, ExprId, u32), rest: Vec<(BinOp, u32, ExprId, u32)>) -> ExprId {
        self.fold_run(first, rest, level, |op, lhs, rhs| ExprKind::Binary { op, lhs, rhs })
    }

    /// As [`Builder::fold`], for a run of `and` and `or` (`and` binding tighter).
    pub fn fold_bool(&mut self, first: (u32, ExprId, u32), rest: Vec<(BoolOp, u32, ExprId, u32)>) -> ExprId {
        self.fold_run(first, rest, |op| u8::from(op == BoolOp::And), |op, lhs, rhs| ExprKind::Bool { op, lhs, rhs })
    }

    /// `not not x`: one `not` node per prefix (each starting at its `not`, all ending at
    /// `hi`), the innermost made first, as the recursive grammar made them.
    pub fn nots(&mut self, nots: Vec<u32>, mut operand: ExprId, hi: u32) -> ExprId {
        for &lo in nots.iter().rev() {
            operand = self.expr(lo, hi, ExprKind::Unary { op: UnaryOp::Not, operand });
        }
        operand
    }

    /// The fold behind [`Builder::fold`] and [`Builder::fold_bool`]: operator precedence
    /// with a stack, `level` giving each operator's precedence and `node` its node.
    fn fold_run<Op: Copy>(
        &mut self,
        first: (u32, ExprId, u32),
        rest: Vec<(Op, u32, ExprId, u32)>,
        level: impl Fn(Op) -> u8,
        node: impl Fn(Op, ExprId, ExprId) -> ExprKind,
    ) -> ExprId {
        let mut operands = Vec::with_capacity(rest.len() + 1);
        let mut ops: Vec<Op> = Vec::with_capacity(rest.len());
        operands.push(first);
        // Makes the node of the last operator and its two operands (the grammar gives one
        // operand more than operators, and each call pops one).
        let fold_top = |b: &mut Self, operands: &mut Vec<(u32, ExprId, u32)>, ops: &mut Vec<Op>| {
            let (Some(op), Some((_, rhs, hi)), Some((lo, lhs, _))) = (ops.pop(), operands.pop(), operands.pop()) else {
                return;
            };
            let id = b.expr(lo, hi, node(op, lhs, rhs));
            operands.push((lo, id, hi));
        };
        for (op, lo, e, hi) in rest {
            while ops.last().is_some_and(|&top| level(top) >= level(op)) {
                fold_top(self, &mut operands, &mut ops);
            }
            ops.push(op);
            operands.push((lo, e, hi));
        }
        while !ops.is_empty() {
            fold_top(self, &mut operands, &mut ops);
        }
        operands[0].1
    }

    pub fn expr_span(&self, id: ExprId) -> Span {
        self.ast.expr(id).span
    }

    pub fn stmt_span(&self, id: StmtId) -> Span {
        self.ast.stmt(id).span
    }

    /// `a, b` or `(a, b)` from a first element and the rest.
    pub fn tuple(&mut self, lo: u32, hi: u32, first: ExprId, rest: Vec<ExprId>) -> ExprId {
        self.list(lo, hi, ExprKind::Tuple, first, rest)
    }

    /// A display (`kind`: a tuple, list or set) of a first item and the rest.
    pub fn list(
        &mut self,
        lo: u32,
        hi: u32,
        kind: fn(Seq<ExprId>) -> ExprKind,
        first: ExprId,
        rest: Vec<ExprId>,
    ) -> ExprId {
        let items = self.ast.lists.add(std::iter::once(first).chain(rest));
        self.expr(lo, hi, kind(items))
    }

    /// A block from the lines of an indented suite; its span runs from its first statement
    /// to the end of its last one.
    pub fn block(&mut self, lines: Vec<StmtId>) -> Block {
        self.block_of(&lines)
    }

    /// [`Builder::block`] from a slice (the fast path's scratch list).
    pub fn block_of(&mut self, lines: &[StmtId]) -> Block {
        let span = match (lines.first(), lines.last()) {
            (Some(&a), Some(&b)) => self.stmt_span(a).to(self.stmt_span(b)),
            _ => Span::default(),
        };
        Block { stmts: self.ast.lists.add(lines.iter().copied()), span }
    }

    pub fn push_line(&self, list: &mut Vec<StmtId>, line: Line) {
        list.push(line.first);
        list.extend(line.rest);
    }

    /// An assignment `t1 = t2 = ... = value` from the parts after the first target.
    pub fn assign(&mut self, lo: u32, hi: u32, first: ExprId, mut rest: Vec<ExprId>) -> StmtId {
        let value = rest.pop().expect("an assignment has a value");
        let targets = self.ast.lists.add(std::iter::once(first).chain(rest));
        self.stmt(lo, hi, StmtKind::Assign { targets, value })
    }

    /// The end of a compound statement: the end of its last block.
    pub fn end_of(blocks: &[&Block]) -> u32 {
        blocks.iter().map(|b| b.span.hi).max().unwrap_or(0)
    }

    /// Lines indented deeper than the block they are in. The layout stage reported them;
    /// one error statement stands for them.
    pub fn unexpected_indent(&mut self, at: u32, lines: Vec<StmtId>) -> StmtId {
        let hi = lines.last().map_or(at, |&s| self.stmt_span(s).hi);
        self.stmt(at, hi, StmtKind::Error)
    }

    /// Reports a recovered syntax error and makes the node that stands for the bad input.
    pub fn recover_stmt(&mut self, recovery: Recovery) -> StmtId {
        let span = self.recovery_span(&recovery);
        self.report(recovery.error);
        self.stmt(span.lo, span.hi, StmtKind::Error)
    }

    fn recovery_span(&self, recovery: &Recovery) -> Span {
        let at = match &recovery.error {
            ParseError::UnrecognizedToken { token: (lo, _, hi), .. }
            | ParseError::ExtraToken { token: (lo, _, hi) } => Span::new(*lo, *hi),
            ParseError::UnrecognizedEof { location, .. } | ParseError::InvalidToken { location } => {
                Span::new(*location, *location)
            }
            ParseError::User { error } => match *error {},
        };
        recovery.dropped_tokens.iter().fold(at, |span, &(lo, _, hi)| span.to(Span::new(lo, hi)))
    }

    /// Turns a parse error into a diagnostic. Errors at an error token are not reported: the
    /// lexer or the layout stage reported that token already.
    pub fn report(&mut self, error: Error) {
        let diag = match error {
            ParseError::UnrecognizedToken { token: (lo, tok, hi), expected } => {
                // An error token was reported by the lexer or the layout stage; so was an
                // INDENT the grammar does not expect (a line indented after a line that
                // does not end in `:`, or after a line with an error).
                if matches!(tok, Tok::Error | Tok::Indent) {
                    return;
                }
                self.unexpected(lo, tok, hi, &expected)
            }
            ParseError::ExtraToken { token: (lo, tok, hi) } => {
                if tok == Tok::Error {
                    return;
                }
                self.unexpected(lo, tok, hi, &[])
            }
            ParseError::UnrecognizedEof { location, expected } => Diagnostic::error(
                Code::E0102,
                format!("unexpected end of file; expected {}", describe_expected(&expected)),
                Label::primary(self.file, Span::new(location, location), "the file ends here"),
            ),
            ParseError::InvalidToken { location } => Diagnostic::error(
                Code::E0101,
                "invalid token",
                Label::primary(self.file, Span::new(location, location), "here"),
            ),
            ParseError::User { error } => match error {},
        };
        self.diags.push(diag);
    }

    fn unexpected(&mut self, lo: u32, tok: Tok, hi: u32, expected: &[String]) -> Diagnostic {
        let span = Span::new(lo, hi);
        let found = match tok {
            Tok::Newline | Tok::Dedent if span.is_empty() && span.lo as usize == self.src.len() => {
                "end of file".to_string()
            }
            Tok::Newline => "end of line".to_string(),
            Tok::Dedent => "end of the block".to_string(),
            Tok::Name => format!("name `{}`", &self.src[lo as usize..hi as usize]),
            Tok::Int | Tok::Float | Tok::Imaginary => {
                format!("number `{}`", &self.src[lo as usize..hi as usize])
            }
            Tok::Str | Tok::Bytes | Tok::FStr => "string".to_string(),
            other if other.spelling().map(|s| s.chars().all(char::is_alphabetic)).unwrap_or(false) => {
                format!("keyword `{}`", other.spelling().unwrap_or_default())
            }
            other => format!("'{}'", other.spelling().unwrap_or("?")),
        };
        let message = if expected.is_empty() {
            format!("unexpected {found}")
        } else {
            format!("expected {}, found {found}", describe_expected(expected))
        };
        let label = if expected.is_empty() {
            "unexpected here".to_string()
        } else {
            format!("expected {}", describe_expected(expected))
        };
        // The layout stage ends the file with zero-width NEWLINE and DEDENT tokens.
        let at_eof = span.is_empty() && span.lo as usize == self.src.len();
        let code = if at_eof { Code::E0102 } else { Code::E0101 };
        let mut diag = Diagnostic::error(code, message, Label::primary(self.file, span, label));
        if tok == Tok::Walrus {
            diag = diag.with_help("`:=` is only allowed inside an expression");
        }
        diag
    }
}

/// Describes LALRPOP's list of expected terminals in words. The terminal names are the
/// grammar's: quoted spellings (`"\"(\""`) and the named classes (`Name`, `NEWLINE`, ...).
pub fn describe_expected(expected: &[String]) -> String {
    let mut words: Vec<String> = Vec::new();
    let has = |name: &str| expected.iter().any(|e| e == name);
    let starts_expression = has("Name") && has("Int");
    // After a complete expression the parser accepts any binary operator; say so once.
    let continues_expression = has("\"+\"") && has("\"*\"") && has("\"==\"");
    if starts_expression {
        words.push("an expression".to_string());
    } else if has("Name") {
        words.push("a name".to_string());
    }
    for e in expected {
        let word = match e.as_str() {
            quoted if continues_expression && is_operator(quoted) => continue,
            "Name" | "Int" | "Float" | "Imaginary" | "String" | "Bytes" | "FString" if starts_expression => continue,
            "Name" => continue,
            "Int" | "Float" | "Imaginary" => "a number".to_string(),
            "String" | "Bytes" | "FString" => "a string".to_string(),
            "NEWLINE" => "end of line".to_string(),
            "INDENT" => "an indented block".to_string(),
            "DEDENT" => "the end of the block".to_string(),
            // Tokens that can only start an expression are covered by "an expression".
            quoted if starts_expression && is_expression_start(quoted) => continue,
            quoted => format!("'{}'", quoted.trim_matches('"')),
        };
        if !words.contains(&word) {
            words.push(word);
        }
    }
    if continues_expression {
        words.push("an operator".to_string());
    }
    match words.len() {
        0 => "something else".to_string(),
        1 => words.pop().unwrap_or_default(),
        n if n <= 6 => {
            let last = words.pop().unwrap_or_default();
            format!("{} or {}", words.join(", "), last)
        }
        _ => format!("{} or one of {} other tokens", words[..4].join(", "), words.len() - 4),
    }
}

/// Binary operators, and the keywords that continue an expression (`x if c else y`, a
/// comprehension's `for`, `in`, `not in`, `is`).
fn is_operator(quoted: &str) -> bool {
    matches!(
        quoted.trim_matches('"'),
        "+" | "-"
            | "*"
            | "/"
            | "//"
            | "%"
            | "**"
            | "@"
            | "<<"
            | ">>"
            | "&"
            | "|"
            | "^"
            | "<"
            | ">"
            | "<="
            | ">="
            | "=="
            | "!="
            | "and"
            | "or"
            | "not"
            | "in"
            | "is"
            | "if"
            | "else"
            | "for"
            | "."
            | "("
            | "["
    )
}

fn is_expression_start(quoted: &str) -> bool {
    matches!(
        quoted.trim_matches('"'),
        "(" | "["
            | "{"
            | "-"
            | "+"
            | "~"
            | "not"
            | "lambda"
            | "await"
            | "True"
            | "False"
            | "None"
            | "..."
            | "*"
            | "**"
            | "yield"
    )
}

impl Builder<'_> {
    pub fn function_def(&mut self, lo: u32, decorators: Vec<Decorator>, mut def: Box<FunctionDef>) -> StmtId {
        def.decorators = decorators;
        let hi = def.body.span.hi;
        self.stmt(lo, hi, StmtKind::FunctionDef(def))
    }

    pub fn class_def(&mut self, lo: u32, decorators: Vec<Decorator>, mut def: Box<ClassDef>) -> StmtId {
        def.decorators = decorators;
        let hi = def.body.span.hi;
        self.stmt(lo, hi, StmtKind::ClassDef(def))
    }
}

/// The precedence level of a binary operator of a flat run ([`Builder::fold`]): `|`, `^`,
/// `&`, shifts, `+ -`, then `* / // % @` binding tightest (`**` is not in a run: it binds
/// tighter than a unary operator, in the grammar).
fn level(op: BinOp) -> u8 {
    match op {
        BinOp::BitOr => 1,
        BinOp::BitXor => 2,
        BinOp::BitAnd => 3,
        BinOp::LShift | BinOp::RShift => 4,
        BinOp::Add | BinOp::Sub => 5,
        BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod | BinOp::MatMul => 6,
        BinOp::Pow => 7,
    }
}
