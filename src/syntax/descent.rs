//! The fast path of the parser: a hand-written recursive-descent parser (operator
//! precedence for the binary operators, as the grammar's flat runs) over the laid-out
//! tokens, for the forms real programs use. It calls the `Builder` methods the grammar's
//! actions call, in the order LALRPOP reduces (children before their parent, left to
//! right), with the spans the actions compute, so it makes the same tree: the same nodes
//! with the same ids, the same names interned in the same order.
//!
//! It never reports: on a syntax error, or a form it does not handle (`lambda`, `yield`,
//! `await`, `async`, `try`, `raise`, `assert`, `del`, `global`, `nonlocal`, `:=`, `x += 1`,
//! a line indented deeper than its block, an expression or block nesting deeper than
//! [`MAX_DEPTH`]), it undoes what it built (nodes and names) and [`parse`] gives the
//! tokens to the LALRPOP parser, which makes the tree and the diagnostics as always.

use super::ast::*;
use super::builder::{self, Builder};
use super::grammar;
use super::lexer::Token;
use super::token::Tok;
use crate::diag::Span;

/// How deep expressions (through a unary operator, an operand, a bracket) and blocks may
/// nest before the fast path gives up: recursion costs stack, the LALRPOP parser's stack is
/// on the heap.
const MAX_DEPTH: u32 = 100;

/// Parses `tokens` as a module into `b` (as `grammar::ModuleParser` does): the fast path,
/// and the LALRPOP parser when the fast path gives up.
pub(crate) fn parse(b: &mut Builder<'_>, tokens: &[Token]) -> Result<(), builder::Error> {
    if fast(b, tokens) {
        return Ok(());
    }
    let input = tokens.iter().map(|t| Ok::<_, std::convert::Infallible>((t.span.lo, t.kind, t.span.hi)));
    grammar::ModuleParser::new().parse(b, input)
}

/// The fast path alone: whether it parsed `tokens`. When it did not, `b` is as it was.
pub(crate) fn fast(b: &mut Builder<'_>, tokens: &[Token]) -> bool {
    let (exprs, stmts, lists, names) = (b.ast.exprs.len(), b.ast.stmts.len(), b.ast.lists.lens(), b.interner.len());
    let mut p =
        P { b, toks: tokens, pos: 0, prev_hi: 0, depth: 0, items: Vec::new(), args: Vec::new(), params: Vec::new() };
    match p.module() {
        Ok(()) => true,
        Err(GiveUp) => {
            p.b.truncate(exprs, stmts, lists, names);
            false
        }
    }
}

/// An `and`/`or` run whose nodes are not made yet ([`P::or_test_pending`]).
struct PendingOr {
    l: u32,
    first: PendingNot,
    /// The end of the first operand.
    r: u32,
    rest: Vec<(BoolOp, u32, ExprId, u32)>,
}

/// `not`s and a comparison whose nodes are not made yet: the comparison `first rest...`
/// from `l` to `hi`, then a `not` node for each prefix.
struct PendingNot {
    nots: Vec<u32>,
    l: u32,
    first: ExprId,
    rest: Vec<(CmpOp, ExprId)>,
    hi: u32,
}

/// The fast path does not handle what follows (a syntax error, or a form left to LALRPOP).
struct GiveUp;

type R<T> = Result<T, GiveUp>;

struct P<'t, 'b, 's> {
    b: &'b mut Builder<'s>,
    toks: &'t [Token],
    pos: usize,
    /// The end of the last token taken (LALRPOP's `@R`).
    prev_hi: u32,
    depth: u32,
    /// The items of the bracketed lists and the arguments of the calls being parsed, the
    /// innermost last: each list is gathered here, then copied into a vector of its size.
    items: Vec<ExprId>,
    args: Vec<Arg>,
    /// The parameters of the definitions being parsed, gathered here, then copied into a
    /// vector of their number: grown from empty, a definition's own vector took room for
    /// four (160 bytes, past the small blocks of `src/small_alloc.rs`), and the system
    /// allocator's lock, shared by the threads parsing the parts of a large file, made
    /// them wait for each other (docs/performance.md).
    params: Vec<Param>,
}

/// Whether a token can begin an expression, a starred one included.
fn starts_expr(t: Tok) -> bool {
    matches!(
        t,
        Tok::Name
            | Tok::Int
            | Tok::Float
            | Tok::Imaginary
            | Tok::Str
            | Tok::Bytes
            | Tok::FStr
            | Tok::True
            | Tok::False
            | Tok::None
            | Tok::Ellipsis
            | Tok::LParen
            | Tok::LBracket
            | Tok::LBrace
            | Tok::Minus
            | Tok::Plus
            | Tok::Tilde
            | Tok::Not
            | Tok::Lambda
            | Tok::Await
            | Tok::Star
    )
}

/// Whether a token after an operand continues a comparison or an `and`/`or` run
/// ([`P::not_test_rest`], [`P::or_test_rest`]): `not` only before `in`, but the full path
/// tells.
fn continues_or_test(t: Tok) -> bool {
    matches!(
        t,
        Tok::EqEq
            | Tok::NotEq
            | Tok::Lt
            | Tok::Le
            | Tok::Gt
            | Tok::Ge
            | Tok::In
            | Tok::Not
            | Tok::Is
            | Tok::Or
            | Tok::And
    )
}

fn bin_op(t: Tok) -> Option<BinOp> {
    Some(match t {
        Tok::Pipe => BinOp::BitOr,
        Tok::Caret => BinOp::BitXor,
        Tok::Amp => BinOp::BitAnd,
        Tok::LShift => BinOp::LShift,
        Tok::RShift => BinOp::RShift,
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::DoubleSlash => BinOp::FloorDiv,
        Tok::Percent => BinOp::Mod,
        Tok::At => BinOp::MatMul,
        _ => return None,
    })
}

impl P<'_, '_, '_> {
    // ------------------------------------------------------------ tokens

    #[inline]
    fn peek(&self) -> Tok {
        self.toks.get(self.pos).map_or(Tok::Error, |t| t.kind)
    }

    #[inline]
    fn peek2(&self) -> Tok {
        self.toks.get(self.pos + 1).map_or(Tok::Error, |t| t.kind)
    }

    /// The start of the next token (LALRPOP's `@L`).
    #[inline]
    fn lo(&self) -> u32 {
        self.toks.get(self.pos).map_or(self.prev_hi, |t| t.span.lo)
    }

    /// Takes the next token; returns its span.
    #[inline]
    fn bump(&mut self) -> Span {
        let span = self.toks[self.pos].span;
        self.pos += 1;
        self.prev_hi = span.hi;
        span
    }

    #[inline]
    fn expect(&mut self, t: Tok) -> R<Span> {
        if self.peek() == t {
            Ok(self.bump())
        } else {
            Err(GiveUp)
        }
    }

    #[inline]
    fn eat(&mut self, t: Tok) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(GiveUp)
        } else {
            Ok(())
        }
    }

    // ------------------------------------------------------------ module and blocks

    fn module(&mut self) -> R<()> {
        if self.toks.is_empty() {
            return Ok(());
        }
        let mut stmts = Vec::new();
        while self.pos < self.toks.len() {
            self.stmt_line(&mut stmts)?;
        }
        self.b.ast.body = stmts;
        Ok(())
    }

    /// One line of statements, or a compound statement, into `list`.
    fn stmt_line(&mut self, list: &mut Vec<StmtId>) -> R<()> {
        let s = match self.peek() {
            Tok::If => self.if_stmt()?,
            Tok::While => self.while_stmt()?,
            Tok::For => self.for_stmt()?,
            Tok::With => self.with_stmt()?,
            Tok::Def | Tok::Class | Tok::At => self.definition()?,
            Tok::Try | Tok::Async | Tok::Indent | Tok::Dedent | Tok::Newline => return Err(GiveUp),
            _ => return self.simple_line(list),
        };
        list.push(s);
        Ok(())
    }

    fn simple_line(&mut self, list: &mut Vec<StmtId>) -> R<()> {
        let first = self.small_stmt()?;
        list.push(first);
        while self.eat(Tok::Semi) {
            if self.peek() == Tok::Newline {
                break;
            }
            let s = self.small_stmt()?;
            list.push(s);
        }
        self.expect(Tok::Newline)?;
        Ok(())
    }

    fn suite(&mut self) -> R<Block> {
        self.deeper()?;
        let mut stmts = Vec::new();
        if self.eat(Tok::Newline) {
            self.expect(Tok::Indent)?;
            loop {
                self.stmt_line(&mut stmts)?;
                if self.eat(Tok::Dedent) {
                    break;
                }
            }
        } else {
            self.simple_line(&mut stmts)?;
        }
        self.depth -= 1;
        Ok(self.b.block(stmts))
    }

    // ------------------------------------------------------------ simple statements

    fn small_stmt(&mut self) -> R<StmtId> {
        let l = self.lo();
        let kind = match self.peek() {
            Tok::Pass => {
                self.bump();
                StmtKind::Pass
            }
            Tok::Break => {
                self.bump();
                StmtKind::Break
            }
            Tok::Continue => {
                self.bump();
                StmtKind::Continue
            }
            Tok::Return => {
                self.bump();
                let value = match self.peek() {
                    Tok::Newline | Tok::Semi => None,
                    _ => Some(self.test_list_star_expr()?.0),
                };
                StmtKind::Return(value)
            }
            Tok::Import | Tok::From => return self.import_stmt(),
            t if starts_expr(t) => return self.expr_stmt(),
            _ => return Err(GiveUp),
        };
        Ok(self.b.stmt(l, self.prev_hi, kind))
    }

    /// An expression statement, an assignment or an annotated assignment.
    fn expr_stmt(&mut self) -> R<StmtId> {
        let l = self.lo();
        let (first, plain) = self.test_list_star_expr()?;
        match self.peek() {
            Tok::Assign => {
                let mut rest = Vec::new();
                while self.eat(Tok::Assign) {
                    rest.push(self.assign_value()?);
                }
                Ok(self.b.assign(l, self.prev_hi, first, rest))
            }
            Tok::Colon if plain => {
                self.bump();
                let annotation = self.test()?;
                let value = if self.eat(Tok::Assign) { Some(self.assign_value()?) } else { None };
                Ok(self.b.stmt(l, self.prev_hi, StmtKind::AnnAssign { target: first, annotation, value }))
            }
            Tok::Newline | Tok::Semi => Ok(self.b.stmt(l, self.prev_hi, StmtKind::Expr(first))),
            _ => Err(GiveUp),
        }
    }

    fn assign_value(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Yield {
            return Err(GiveUp);
        }
        Ok(self.test_list_star_expr()?.0)
    }

    fn import_stmt(&mut self) -> R<StmtId> {
        let l = self.lo();
        if self.eat(Tok::Import) {
            let mut names = Vec::new();
            loop {
                let nl = self.lo();
                let name = self.dotted_name()?;
                let alias = self.alias()?;
                names.push(ImportName { name, alias, span: Span::new(nl, self.prev_hi) });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            return Ok(self.b.stmt(l, self.prev_hi, StmtKind::Import(names)));
        }
        self.expect(Tok::From)?;
        let mut level = 0;
        loop {
            match self.peek() {
                Tok::Dot => level += 1,
                Tok::Ellipsis => level += 3,
                _ => break,
            }
            self.bump();
        }
        let module = if self.peek() == Tok::Import {
            if level == 0 {
                return Err(GiveUp);
            }
            None
        } else {
            Some(self.dotted_name()?)
        };
        self.expect(Tok::Import)?;
        let (names, star) = match self.peek() {
            Tok::Star => {
                self.bump();
                (Vec::new(), true)
            }
            Tok::LParen => {
                self.bump();
                let mut names = vec![self.import_as_name()?];
                while self.eat(Tok::Comma) {
                    if self.peek() == Tok::RParen {
                        break;
                    }
                    names.push(self.import_as_name()?);
                }
                self.expect(Tok::RParen)?;
                (names, false)
            }
            _ => {
                let mut names = vec![self.import_as_name()?];
                while self.eat(Tok::Comma) {
                    names.push(self.import_as_name()?);
                }
                (names, false)
            }
        };
        Ok(self.b.stmt(l, self.prev_hi, StmtKind::ImportFrom { level, module, names, star }))
    }

    fn import_as_name(&mut self) -> R<ImportName> {
        let l = self.lo();
        let n = self.ident()?;
        let alias = self.alias()?;
        Ok(ImportName { name: DottedName { parts: vec![n], span: n.span }, alias, span: Span::new(l, self.prev_hi) })
    }

    fn alias(&mut self) -> R<Option<Ident>> {
        if self.eat(Tok::As) {
            Ok(Some(self.ident()?))
        } else {
            Ok(None)
        }
    }

    fn dotted_name(&mut self) -> R<DottedName> {
        let l = self.lo();
        let mut parts = vec![self.ident()?];
        while self.eat(Tok::Dot) {
            parts.push(self.ident()?);
        }
        Ok(DottedName { parts, span: Span::new(l, self.prev_hi) })
    }

    fn ident(&mut self) -> R<Ident> {
        let span = self.expect(Tok::Name)?;
        Ok(self.b.ident(span.lo, span.hi))
    }

    // ------------------------------------------------------------ compound statements

    fn if_stmt(&mut self) -> R<StmtId> {
        let l = self.bump().lo;
        let test = self.named_expr_test()?;
        self.expect(Tok::Colon)?;
        let body = self.suite()?;
        let mut hi = body.span.hi;
        let mut branches = vec![IfBranch { test, span: Span::new(l, body.span.hi), body }];
        while self.peek() == Tok::Elif {
            let el = self.bump().lo;
            let test = self.named_expr_test()?;
            self.expect(Tok::Colon)?;
            let body = self.suite()?;
            hi = body.span.hi;
            branches.push(IfBranch { test, span: Span::new(el, body.span.hi), body });
        }
        let orelse = self.else_clause()?;
        if let Some(e) = &orelse {
            hi = hi.max(e.span.hi);
        }
        Ok(self.b.stmt(l, hi, StmtKind::If { branches, orelse }))
    }

    fn else_clause(&mut self) -> R<Option<Block>> {
        if self.peek() != Tok::Else {
            return Ok(None);
        }
        let l = self.bump().lo;
        self.expect(Tok::Colon)?;
        let body = self.suite()?;
        Ok(Some(Block { span: Span::new(l, body.span.hi), ..body }))
    }

    fn while_stmt(&mut self) -> R<StmtId> {
        let l = self.bump().lo;
        let test = self.named_expr_test()?;
        self.expect(Tok::Colon)?;
        let body = self.suite()?;
        let orelse = self.else_clause()?;
        let hi = Builder::end_of(&[&body]).max(orelse.as_ref().map_or(0, |e| e.span.hi));
        Ok(self.b.stmt(l, hi, StmtKind::While { test, body, orelse }))
    }

    fn for_stmt(&mut self) -> R<StmtId> {
        let l = self.bump().lo;
        let target = self.expr_list()?;
        self.expect(Tok::In)?;
        let iter = self.test_list_star_expr()?.0;
        self.expect(Tok::Colon)?;
        let body = self.suite()?;
        let orelse = self.else_clause()?;
        let hi = body.span.hi.max(orelse.as_ref().map_or(0, |e| e.span.hi));
        Ok(self.b.stmt(l, hi, StmtKind::For { target, iter, body, orelse }))
    }

    fn with_stmt(&mut self) -> R<StmtId> {
        let l = self.bump().lo;
        let mut items = Vec::new();
        loop {
            let il = self.lo();
            let context = self.test()?;
            let target = if self.eat(Tok::As) { Some(self.expr()?) } else { None };
            items.push(WithItem { context, target, span: Span::new(il, self.prev_hi) });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Colon)?;
        let body = self.suite()?;
        let hi = body.span.hi;
        let items = self.b.ast.lists.add(items);
        Ok(self.b.stmt(l, hi, StmtKind::With { items, body }))
    }

    /// A function or class definition with its decorators.
    fn definition(&mut self) -> R<StmtId> {
        let l = self.lo();
        let mut decorators = Vec::new();
        while self.peek() == Tok::At {
            let dl = self.bump().lo;
            let expr = self.named_expr_test()?;
            decorators.push(Decorator { expr, span: Span::new(dl, self.prev_hi) });
            self.expect(Tok::Newline)?;
        }
        match self.peek() {
            Tok::Def => {
                self.bump();
                let name = self.ident()?;
                self.expect(Tok::LParen)?;
                let start = self.params.len();
                while self.peek() != Tok::RParen {
                    let param = self.param()?;
                    self.params.push(param);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                let params: Vec<Param> = self.params.drain(start..).collect();
                self.expect(Tok::RParen)?;
                let returns = if self.eat(Tok::Arrow) { Some(self.test()?) } else { None };
                self.expect(Tok::Colon)?;
                let body = self.suite()?;
                let def =
                    Box::new(FunctionDef { decorators: Vec::new(), name, params, returns, body, is_async: false });
                Ok(self.b.function_def(l, decorators, def))
            }
            Tok::Class => {
                self.bump();
                let name = self.ident()?;
                let bases = if self.eat(Tok::LParen) {
                    let args = self.arguments()?;
                    self.expect(Tok::RParen)?;
                    self.args.drain(args..).collect()
                } else {
                    Vec::new()
                };
                self.expect(Tok::Colon)?;
                let body = self.suite()?;
                Ok(self.b.class_def(l, decorators, Box::new(ClassDef { decorators: Vec::new(), name, bases, body })))
            }
            _ => Err(GiveUp),
        }
    }

    fn param(&mut self) -> R<Param> {
        let l = self.lo();
        let (kind, name, annotation, default) = match self.peek() {
            Tok::Name => {
                let n = self.ident()?;
                let annotation = if self.eat(Tok::Colon) { Some(self.test()?) } else { None };
                let default = if self.eat(Tok::Assign) { Some(self.test()?) } else { None };
                (ParamKind::Normal, Some(n), annotation, default)
            }
            Tok::Star => {
                self.bump();
                let n = if self.peek() == Tok::Name { Some(self.ident()?) } else { None };
                let annotation = if self.eat(Tok::Colon) { Some(self.test()?) } else { None };
                (ParamKind::VarArgs, n, annotation, None)
            }
            Tok::DoubleStar => {
                self.bump();
                let n = self.ident()?;
                let annotation = if self.eat(Tok::Colon) { Some(self.test()?) } else { None };
                (ParamKind::KwArgs, Some(n), annotation, None)
            }
            Tok::Slash => {
                self.bump();
                (ParamKind::PosOnlyMarker, None, None, None)
            }
            _ => return Err(GiveUp),
        };
        Ok(Param { kind, name, annotation, default, span: Span::new(l, self.prev_hi) })
    }

    // ------------------------------------------------------------ expressions

    /// `a, b` or one expression (`TestListStarExpr`), and whether it is one `Test` (no
    /// comma, not starred).
    fn test_list_star_expr(&mut self) -> R<(ExprId, bool)> {
        let l = self.lo();
        let starred = self.peek() == Tok::Star;
        let first = self.test_or_star()?;
        if self.peek() != Tok::Comma {
            return Ok((first, !starred));
        }
        let mut rest = Vec::new();
        while self.eat(Tok::Comma) {
            if !starts_expr(self.peek()) {
                break;
            }
            rest.push(self.test_or_star()?);
        }
        Ok((self.b.tuple(l, self.prev_hi, first, rest), false))
    }

    /// Assignment and loop targets (`ExprList`).
    fn expr_list(&mut self) -> R<ExprId> {
        let l = self.lo();
        let first = self.expr_or_star()?;
        if self.peek() != Tok::Comma {
            return Ok(first);
        }
        let mut rest = Vec::new();
        while self.eat(Tok::Comma) {
            if !starts_expr(self.peek()) {
                break;
            }
            rest.push(self.expr_or_star()?);
        }
        Ok(self.b.tuple(l, self.prev_hi, first, rest))
    }

    fn test_or_star(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Star {
            self.star_expr()
        } else {
            self.test()
        }
    }

    fn expr_or_star(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Star {
            self.star_expr()
        } else {
            self.expr()
        }
    }

    fn elem_or_star(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Star {
            self.star_expr()
        } else {
            self.named_expr_test()
        }
    }

    fn star_expr(&mut self) -> R<ExprId> {
        let l = self.bump().lo;
        let e = self.expr()?;
        Ok(self.b.expr(l, self.prev_hi, ExprKind::Starred(e)))
    }

    fn named_expr_test(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Name && self.peek2() == Tok::Walrus {
            return Err(GiveUp);
        }
        self.test()
    }

    fn test(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Lambda {
            return Err(GiveUp);
        }
        let l = self.lo();
        let body = self.or_test()?;
        if !self.eat(Tok::If) {
            return Ok(body);
        }
        let test = self.or_test()?;
        self.expect(Tok::Else)?;
        let orelse = self.test()?;
        Ok(self.b.expr(l, self.prev_hi, ExprKind::IfExp { test, body, orelse }))
    }

    fn or_test(&mut self) -> R<ExprId> {
        if self.peek() == Tok::Not {
            let pending = self.or_test_pending()?;
            return Ok(self.finish_or(pending));
        }
        // The common case, an operand alone (no `not`, comparison, `and` or `or`), is
        // made without the pending run: the same node, made at the same point.
        let l = self.lo();
        let first = self.expr()?;
        if !continues_or_test(self.peek()) {
            return Ok(first);
        }
        let not = self.not_test_rest(Vec::new(), l, first)?;
        let pending = self.or_test_rest(l, not)?;
        Ok(self.finish_or(pending))
    }

    /// `and` and `or`: a flat run folded by `Builder::fold_bool`. The grammar writes
    /// `OrTest`, `NotTest` and `Comparison` into their uses (`#[inline]`), so the nodes of
    /// the run and of its first operand's comparison and `not`s are made when the
    /// enclosing rule is reduced: after the other operands, and in a comprehension's `for`
    /// after its `if`s ([`P::finish_or`] makes them).
    fn or_test_pending(&mut self) -> R<PendingOr> {
        let l = self.lo();
        let first = self.not_test_pending()?;
        self.or_test_rest(l, first)
    }

    /// The rest of an `and`/`or` run from `l`, after its first operand (`first`).
    fn or_test_rest(&mut self, l: u32, first: PendingNot) -> R<PendingOr> {
        let r = self.prev_hi;
        let mut rest = Vec::new();
        loop {
            let o = match self.peek() {
                Tok::Or => BoolOp::Or,
                Tok::And => BoolOp::And,
                _ => break,
            };
            self.bump();
            let ol = self.lo();
            let e = self.not_test()?;
            rest.push((o, ol, e, self.prev_hi));
        }
        Ok(PendingOr { l, first, r, rest })
    }

    fn finish_or(&mut self, p: PendingOr) -> ExprId {
        let first = self.finish_not(p.first);
        if p.rest.is_empty() {
            return first;
        }
        self.b.fold_bool((p.l, first, p.r), p.rest)
    }

    fn not_test(&mut self) -> R<ExprId> {
        let pending = self.not_test_pending()?;
        Ok(self.finish_not(pending))
    }

    /// `not`s and a comparison, their nodes left to [`P::finish_not`].
    fn not_test_pending(&mut self) -> R<PendingNot> {
        let mut nots = Vec::new();
        while self.peek() == Tok::Not {
            nots.push(self.bump().lo);
        }
        let l = self.lo();
        let first = self.expr()?;
        self.not_test_rest(nots, l, first)
    }

    /// The rest of a comparison from `l`, after its first operand (`first`) and the `not`s
    /// before it (`nots`).
    fn not_test_rest(&mut self, nots: Vec<u32>, l: u32, first: ExprId) -> R<PendingNot> {
        let mut rest = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::EqEq => CmpOp::Eq,
                Tok::NotEq => CmpOp::NotEq,
                Tok::Lt => CmpOp::Lt,
                Tok::Le => CmpOp::Le,
                Tok::Gt => CmpOp::Gt,
                Tok::Ge => CmpOp::Ge,
                Tok::In => CmpOp::In,
                Tok::Not if self.peek2() == Tok::In => {
                    self.bump();
                    CmpOp::NotIn
                }
                Tok::Is if self.peek2() == Tok::Not => {
                    self.bump();
                    CmpOp::IsNot
                }
                Tok::Is => CmpOp::Is,
                _ => break,
            };
            self.bump();
            rest.push((op, self.expr()?));
        }
        Ok(PendingNot { nots, l, first, rest, hi: self.prev_hi })
    }

    fn finish_not(&mut self, p: PendingNot) -> ExprId {
        let mut e = p.first;
        if !p.rest.is_empty() {
            e = self.b.expr(p.l, p.hi, ExprKind::Compare { first: p.first, rest: p.rest });
        }
        if p.nots.is_empty() {
            return e;
        }
        self.b.nots(p.nots, e, p.hi)
    }

    /// The binary operators below `**`: a flat run folded by `Builder::fold`. `Factor` and
    /// `Power` are written into `Expr` (`#[inline]`), so the `**` node of the first operand
    /// is made after the other operands.
    fn expr(&mut self) -> R<ExprId> {
        let l = self.lo();
        let mut pow = None;
        let first = match self.peek() {
            Tok::Minus | Tok::Plus | Tok::Tilde => self.factor()?,
            _ => {
                self.deeper()?;
                let lhs = self.primary()?;
                let e = if self.eat(Tok::DoubleStar) {
                    let rhs = self.factor()?;
                    pow = Some((lhs, rhs));
                    lhs
                } else {
                    lhs
                };
                self.depth -= 1;
                e
            }
        };
        let r = self.prev_hi;
        let mut rest = Vec::new();
        while let Some(op) = bin_op(self.peek()) {
            self.bump();
            let ol = self.lo();
            let e = self.factor()?;
            rest.push((op, ol, e, self.prev_hi));
        }
        let first = match pow {
            Some((lhs, rhs)) => self.b.binary(l, r, BinOp::Pow, lhs, rhs),
            None => first,
        };
        if rest.is_empty() {
            return Ok(first);
        }
        Ok(self.b.fold((l, first, r), rest))
    }

    fn factor(&mut self) -> R<ExprId> {
        self.deeper()?;
        let op = match self.peek() {
            Tok::Minus => Some(UnaryOp::Neg),
            Tok::Plus => Some(UnaryOp::Pos),
            Tok::Tilde => Some(UnaryOp::Invert),
            _ => None,
        };
        let e = match op {
            Some(op) => {
                let l = self.bump().lo;
                let operand = self.factor()?;
                self.b.expr(l, self.prev_hi, ExprKind::Unary { op, operand })
            }
            None => self.power()?,
        };
        self.depth -= 1;
        Ok(e)
    }

    fn power(&mut self) -> R<ExprId> {
        let l = self.lo();
        let lhs = self.primary()?;
        if !self.eat(Tok::DoubleStar) {
            return Ok(lhs);
        }
        let rhs = self.factor()?;
        Ok(self.b.binary(l, self.prev_hi, BinOp::Pow, lhs, rhs))
    }

    fn primary(&mut self) -> R<ExprId> {
        let l = self.lo();
        let mut e = self.atom()?;
        loop {
            let kind = match self.peek() {
                Tok::Dot => {
                    self.bump();
                    let attr = self.ident()?;
                    ExprKind::Attribute { value: e, attr }
                }
                Tok::LParen => {
                    self.bump();
                    let args = self.arguments()?;
                    self.expect(Tok::RParen)?;
                    ExprKind::Call { func: e, args: self.b.ast.lists.add(self.args.drain(args..)) }
                }
                Tok::LBracket => {
                    self.bump();
                    let index = self.subscript_list()?;
                    self.expect(Tok::RBracket)?;
                    ExprKind::Subscript { value: e, index }
                }
                _ => return Ok(e),
            };
            e = self.b.expr(l, self.prev_hi, kind);
        }
    }

    fn atom(&mut self) -> R<ExprId> {
        let t = self.peek();
        let kind = match t {
            Tok::Name => {
                let span = self.bump();
                return Ok(self.b.name(span.lo, span.hi));
            }
            Tok::Int => ExprKind::Int,
            Tok::Float => ExprKind::Float,
            Tok::Imaginary => ExprKind::Imaginary,
            Tok::True => ExprKind::True,
            Tok::False => ExprKind::False,
            Tok::None => ExprKind::None,
            Tok::Ellipsis => ExprKind::Ellipsis,
            Tok::Str | Tok::Bytes | Tok::FStr => {
                let l = self.lo();
                let mut pieces = Vec::new();
                loop {
                    let kind = match self.peek() {
                        Tok::Str => StrKind::Plain,
                        Tok::Bytes => StrKind::Bytes,
                        Tok::FStr => StrKind::Format,
                        _ => break,
                    };
                    pieces.push(StrPiece { kind, span: self.bump() });
                }
                let pieces = self.b.ast.lists.add(pieces);
                return Ok(self.b.expr(l, self.prev_hi, ExprKind::Str(pieces)));
            }
            Tok::LParen => return self.paren(),
            Tok::LBracket => return self.list(),
            Tok::LBrace => return self.brace(),
            _ => return Err(GiveUp),
        };
        let span = self.bump();
        Ok(self.b.expr(span.lo, span.hi, kind))
    }

    /// The items of a bracketed list, `first` and those after it up to the closing bracket
    /// (taken), a trailing comma allowed.
    fn items_after(&mut self, first: ExprId, close: Tok) -> R<Seq<ExprId>> {
        let start = self.items.len();
        self.items.push(first);
        while self.eat(Tok::Comma) {
            if self.peek() == close {
                break;
            }
            let e = self.elem_or_star()?;
            self.items.push(e);
        }
        self.expect(close)?;
        Ok(self.b.ast.lists.add(self.items.drain(start..)))
    }

    fn paren(&mut self) -> R<ExprId> {
        let l = self.bump().lo;
        match self.peek() {
            Tok::RParen => {
                self.bump();
                return Ok(self.b.expr(l, self.prev_hi, ExprKind::Tuple(Seq::EMPTY)));
            }
            Tok::Yield => return Err(GiveUp),
            _ => {}
        }
        let starred = self.peek() == Tok::Star;
        let first = self.elem_or_star()?;
        match self.peek() {
            Tok::RParen => {
                self.bump();
                Ok(first)
            }
            Tok::For if !starred => {
                let generators = self.comp_fors()?;
                self.expect(Tok::RParen)?;
                let kind =
                    ExprKind::Comprehension { kind: ComprehensionKind::Generator, elt: first, value: None, generators };
                Ok(self.b.expr(l, self.prev_hi, kind))
            }
            Tok::Comma => {
                let items = self.items_after(first, Tok::RParen)?;
                Ok(self.b.expr(l, self.prev_hi, ExprKind::Tuple(items)))
            }
            _ => Err(GiveUp),
        }
    }

    fn list(&mut self) -> R<ExprId> {
        let l = self.bump().lo;
        if self.eat(Tok::RBracket) {
            return Ok(self.b.expr(l, self.prev_hi, ExprKind::List(Seq::EMPTY)));
        }
        let starred = self.peek() == Tok::Star;
        let first = self.elem_or_star()?;
        if self.peek() == Tok::For && !starred {
            let generators = self.comp_fors()?;
            self.expect(Tok::RBracket)?;
            let kind = ExprKind::Comprehension { kind: ComprehensionKind::List, elt: first, value: None, generators };
            return Ok(self.b.expr(l, self.prev_hi, kind));
        }
        let items = self.items_after(first, Tok::RBracket)?;
        Ok(self.b.expr(l, self.prev_hi, ExprKind::List(items)))
    }

    fn brace(&mut self) -> R<ExprId> {
        let l = self.bump().lo;
        if self.eat(Tok::RBrace) {
            return Ok(self.b.expr(l, self.prev_hi, ExprKind::Dict(Vec::new())));
        }
        let first_key = match self.peek() {
            Tok::DoubleStar | Tok::Star => return Err(GiveUp),
            Tok::Name if self.peek2() == Tok::Walrus => return Err(GiveUp),
            _ => self.test()?,
        };
        if !self.eat(Tok::Colon) {
            // A set.
            if self.peek() == Tok::For {
                let generators = self.comp_fors()?;
                self.expect(Tok::RBrace)?;
                let kind =
                    ExprKind::Comprehension { kind: ComprehensionKind::Set, elt: first_key, value: None, generators };
                return Ok(self.b.expr(l, self.prev_hi, kind));
            }
            let items = self.items_after(first_key, Tok::RBrace)?;
            return Ok(self.b.expr(l, self.prev_hi, ExprKind::Set(items)));
        }
        let value = self.test()?;
        if self.peek() == Tok::For {
            let generators = self.comp_fors()?;
            self.expect(Tok::RBrace)?;
            let kind = ExprKind::Comprehension {
                kind: ComprehensionKind::Dict,
                elt: first_key,
                value: Some(value),
                generators,
            };
            return Ok(self.b.expr(l, self.prev_hi, kind));
        }
        let mut entries = vec![DictEntry { key: Some(first_key), value }];
        while self.eat(Tok::Comma) {
            match self.peek() {
                Tok::RBrace => break,
                Tok::DoubleStar => {
                    self.bump();
                    let value = self.expr()?;
                    entries.push(DictEntry { key: None, value });
                }
                _ => {
                    let key = self.test()?;
                    self.expect(Tok::Colon)?;
                    let value = self.test()?;
                    entries.push(DictEntry { key: Some(key), value });
                }
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(self.b.expr(l, self.prev_hi, ExprKind::Dict(entries)))
    }

    /// One or more `for ... in ... if ...` clauses.
    fn comp_fors(&mut self) -> R<Box<[Generator]>> {
        let mut generators = Vec::new();
        while self.peek() == Tok::For {
            let l = self.bump().lo;
            let target = self.expr_list()?;
            self.expect(Tok::In)?;
            let iter = self.or_test_pending()?;
            let mut ifs = Vec::new();
            while self.eat(Tok::If) {
                ifs.push(self.or_test()?);
            }
            let iter = self.finish_or(iter);
            generators.push(Generator { target, iter, ifs, span: Span::new(l, self.prev_hi) });
        }
        Ok(generators.into_boxed_slice())
    }

    fn subscript_list(&mut self) -> R<ExprId> {
        let l = self.lo();
        let first = self.subscript()?;
        if self.peek() != Tok::Comma {
            return Ok(first);
        }
        let mut rest = Vec::new();
        while self.eat(Tok::Comma) {
            if self.peek() == Tok::RBracket {
                break;
            }
            rest.push(self.subscript()?);
        }
        Ok(self.b.tuple(l, self.prev_hi, first, rest))
    }

    fn subscript(&mut self) -> R<ExprId> {
        let l = self.lo();
        let lower = match self.peek() {
            Tok::Star => return self.star_expr(),
            Tok::Colon => None,
            _ => Some(self.named_expr_test()?),
        };
        if !self.eat(Tok::Colon) {
            return lower.ok_or(GiveUp);
        }
        let upper = match self.peek() {
            Tok::Colon | Tok::Comma | Tok::RBracket => None,
            _ => Some(self.test()?),
        };
        let step = if self.eat(Tok::Colon) {
            match self.peek() {
                Tok::Comma | Tok::RBracket => None,
                _ => Some(self.test()?),
            }
        } else {
            None
        };
        Ok(self.b.expr(l, self.prev_hi, ExprKind::Slice { lower, upper, step }))
    }

    /// The arguments of a call or the bases of a class, up to the `)` (not taken), left at
    /// the end of `self.args` from the index returned.
    fn arguments(&mut self) -> R<usize> {
        let start = self.args.len();
        while self.peek() != Tok::RParen {
            let arg = self.argument()?;
            self.args.push(arg);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        Ok(start)
    }

    fn argument(&mut self) -> R<Arg> {
        let l = self.lo();
        let (kind, value) = match self.peek() {
            Tok::Star | Tok::DoubleStar => {
                let kind = if self.bump_is(Tok::Star) { ArgKind::Star } else { ArgKind::DoubleStar };
                (kind, self.test()?)
            }
            Tok::Name if self.peek2() == Tok::Assign => {
                let name = self.ident()?;
                self.bump();
                (ArgKind::Keyword(name), self.test()?)
            }
            _ => {
                let elt = self.named_expr_test()?;
                if self.peek() != Tok::For {
                    (ArgKind::Positional, elt)
                } else {
                    let generators = self.comp_fors()?;
                    let kind =
                        ExprKind::Comprehension { kind: ComprehensionKind::Generator, elt, value: None, generators };
                    (ArgKind::Positional, self.b.expr(l, self.prev_hi, kind))
                }
            }
        };
        Ok(Arg { kind, value, span: Span::new(l, self.prev_hi) })
    }

    /// Takes the next token; whether it is `t`.
    fn bump_is(&mut self, t: Tok) -> bool {
        let is = self.peek() == t;
        self.bump();
        is
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostic;
    use crate::intern::Interner;
    use crate::source::FileId;
    use std::path::{Path, PathBuf};

    /// What one parser made of some tokens: the tree's arenas and body, the names in
    /// interning order, whether it reported (an error or a diagnostic).
    struct Parsed {
        exprs: Nodes<Expr>,
        stmts: Nodes<Stmt>,
        body: Vec<StmtId>,
        lists: Lists,
        names: Vec<String>,
        failed: bool,
    }

    fn run(src: &str, tokens: &[Token], fast_path: bool) -> Parsed {
        let mut interner = Interner::new();
        let mut b = Builder::new(FileId(0), src, &mut interner, Ast::default(), src.is_ascii());
        let failed = if fast_path {
            !fast(&mut b, tokens)
        } else {
            let input = tokens.iter().map(|t| Ok::<_, std::convert::Infallible>((t.span.lo, t.kind, t.span.hi)));
            let ok = grammar::ModuleParser::new().parse(&mut b, input).is_ok();
            !ok || !b.diags.is_empty()
        };
        let Builder { ast, .. } = b;
        Parsed {
            exprs: ast.exprs,
            stmts: ast.stmts,
            body: ast.body,
            lists: ast.lists,
            names: interner.names().map(String::from).collect(),
            failed,
        }
    }

    /// Parses `tokens` with both parsers: when the fast path succeeds, LALRPOP parses them
    /// without an error and makes the same tree with the same names; when LALRPOP reports,
    /// the fast path gave up. Returns whether the fast path succeeded.
    fn agree(what: &str, src: &str, tokens: &[Token]) -> bool {
        let fast = run(src, tokens, true);
        let slow = run(src, tokens, false);
        if fast.failed {
            assert!(fast.exprs.is_empty() && fast.stmts.is_empty() && fast.names.is_empty(), "{what}: not undone");
            assert_eq!(fast.lists.lens(), [0; 5], "{what}: lists not undone");
            return false;
        }
        assert!(!slow.failed, "{what}: the fast path accepted what LALRPOP refuses");
        assert_eq!(fast.names, slow.names, "{what}: names");
        assert_eq!(fast.body, slow.body, "{what}: body");
        assert!(fast.lists == slow.lists, "{what}: lists");
        assert_eq!(fast.stmts.len(), slow.stmts.len(), "{what}: statements");
        for (i, (f, s)) in fast.stmts.iter().zip(slow.stmts.iter()).enumerate() {
            assert_eq!(f, s, "{what}: statement {i}");
        }
        assert_eq!(fast.exprs.len(), slow.exprs.len(), "{what}: expressions");
        for (i, (f, s)) in fast.exprs.iter().zip(slow.exprs.iter()).enumerate() {
            assert_eq!(f, s, "{what}: expression {i}");
        }
        true
    }

    fn pl_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                pl_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "pl" || e == "py") {
                out.push(path);
            }
        }
    }

    /// The example, case, emit and run programs, and the files under `PLC_DESCENT_CORPUS`
    /// (for example PyPTO's test programs extracted by `scripts/pypto-corpus.py`).
    fn corpus() -> Vec<(String, String)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = Vec::new();
        for dir in ["examples", "tests/cases", "tests/emit", "tests/runs"] {
            pl_files(&root.join(dir), &mut paths);
        }
        if let Some(extra) = std::env::var_os("PLC_DESCENT_CORPUS") {
            pl_files(Path::new(&extra), &mut paths);
        }
        paths.into_iter().filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(&p).ok()?))).collect()
    }

    /// The parser's input for a file: its laid-out pl tokens, and those of each host item.
    fn inputs(src: &str) -> Vec<Vec<Token>> {
        let mut diags: Vec<Diagnostic> = Vec::new();
        let laid = super::super::tokens(FileId(0), src, &mut diags);
        let (dsl, _, ranges) = super::super::host::split(FileId(0), src, &laid, &mut diags);
        let mut all = vec![dsl];
        all.extend(ranges.into_iter().map(|r| laid[r].to_vec()));
        all
    }

    #[test]
    fn both_parsers_make_the_same_trees() {
        let (mut files, mut fast, mut clean) = (0, 0, 0);
        for (name, src) in corpus() {
            for (i, tokens) in inputs(&src).iter().enumerate() {
                let slow_failed = run(&src, tokens, false).failed;
                let ok = agree(&format!("{name} (input {i})"), &src, tokens);
                if !ok && !slow_failed {
                    eprintln!("left to LALRPOP: {name} (input {i})");
                }
                files += 1;
                fast += usize::from(ok);
                clean += usize::from(!slow_failed);
            }
        }
        eprintln!("{files} inputs, {clean} without a syntax error, {fast} parsed by the fast path");
        assert!(files > 500, "the corpus was found");
        // Most inputs without an error use the fast path (the others have forms it leaves
        // to LALRPOP: lambdas, `x += 1`, `try`, ...).
        assert!(fast * 10 >= clean * 9, "{fast} of {clean}");
    }

    /// Random edits of the token lists (a token dropped, doubled, replaced by another kind,
    /// two swapped): the fast path accepts only what LALRPOP accepts, with the same tree.
    #[test]
    fn random_token_edits_agree() {
        const KINDS: [Tok; 24] = [
            Tok::Newline,
            Tok::Indent,
            Tok::Dedent,
            Tok::Name,
            Tok::Int,
            Tok::Str,
            Tok::LParen,
            Tok::RParen,
            Tok::LBracket,
            Tok::RBracket,
            Tok::Comma,
            Tok::Colon,
            Tok::Assign,
            Tok::Star,
            Tok::DoubleStar,
            Tok::Dot,
            Tok::If,
            Tok::Else,
            Tok::For,
            Tok::In,
            Tok::Not,
            Tok::Minus,
            Tok::At,
            Tok::Def,
        ];
        let mut seed: u64 = 0x5eed;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n.max(1)
        };
        let (mut edits, mut accepted) = (0, 0);
        for (name, src) in &corpus() {
            let tokens = inputs(src).swap_remove(0);
            if tokens.len() < 2 || tokens.len() > 4000 {
                continue;
            }
            for round in 0..40 {
                let mut t = tokens.clone();
                let at = next(t.len() - 1);
                match next(4) {
                    0 => {
                        t.remove(at);
                    }
                    1 => t.insert(at, t[at]),
                    2 => t[at].kind = KINDS[next(KINDS.len())],
                    _ => t.swap(at, at + 1),
                }
                edits += 1;
                accepted += usize::from(agree(&format!("{name} (edit {round} at {at})"), src, &t));
            }
        }
        eprintln!("{edits} edits, {accepted} accepted by the fast path");
        assert!(edits > 10_000);
    }
}
