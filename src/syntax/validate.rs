//! Invariants of the front end's output, checked on every test input: token spans are in
//! bounds and in order, INDENT and DEDENT balance, and every AST node's span lies inside
//! the file and inside its parent's span.

use super::ast::{Ast, Node};
use super::lexer::Token;
use super::token::Tok;

/// Problems with a token stream from the layout stage, described in words.
pub fn tokens(src: &str, tokens: &[Token]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut prev_hi = 0;
    let mut depth: i64 = 0;
    for (i, tok) in tokens.iter().enumerate() {
        let span = tok.span;
        if span.lo > span.hi || span.hi as usize > src.len() {
            problems.push(format!("token {i} {:?}@{span} is out of bounds", tok.kind));
        }
        if span.lo < prev_hi {
            problems.push(format!("token {i} {:?}@{span} starts before the previous token ends ({prev_hi})", tok.kind));
        }
        if !src.is_char_boundary(span.lo as usize) || !src.is_char_boundary(span.hi as usize) {
            problems.push(format!("token {i} {:?}@{span} is not on character boundaries", tok.kind));
        }
        prev_hi = prev_hi.max(span.hi);
        match tok.kind {
            Tok::Indent => depth += 1,
            Tok::Dedent => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            problems.push(format!("token {i}: DEDENT without INDENT"));
            depth = 0;
        }
    }
    if depth != 0 {
        problems.push(format!("{depth} INDENT tokens are never closed"));
    }
    problems
}

/// Problems with the spans of an AST, described in words.
pub fn ast(src: &str, ast: &Ast) -> Vec<String> {
    let mut problems = Vec::new();
    let len = src.len() as u32;
    ast.walk(|node, parent, _depth| {
        let span = match node {
            Node::Stmt(id) => ast.stmt(id).span,
            Node::Expr(id) => ast.expr(id).span,
        };
        if span.lo > span.hi || span.hi > len {
            problems.push(format!("{node:?}@{span} is out of bounds"));
        }
        if let Some(parent) = parent {
            if !parent.contains(span) {
                problems.push(format!("{node:?}@{span} is not inside its parent @{parent}"));
            }
        }
    });
    for item in &ast.host {
        if item.span.hi > len {
            problems.push(format!("host item @{} is out of bounds", item.span));
        }
    }
    problems
}
