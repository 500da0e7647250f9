//! Questions about a parsed file that the editor features ask: which names mean
//! `pypto.language`, where the `pl.graph` regions are, which statements enclose a position,
//! which expression is at it. The walks are iterative or follow statement nesting only,
//! which the layout stage limits, so any parse tree is safe to query.

use crate::diag::Span;
use crate::intern::{Interner, Symbol};
use crate::source::FileId;
use crate::syntax::{
    self,
    ast::{ArgKind, Ast, Block, ExprId, ExprKind, Node, StmtId, StmtKind, StrKind},
};

/// Parses text for a query; the diagnostics are the analysis's business, not the query's.
pub fn parse(text: &str, names: &mut Interner) -> Ast {
    syntax::parse(FileId(0), text, names, &mut Vec::new())
}

/// The names a module binds to `pypto.language` (`import pypto.language as pl`, `from
/// pypto import language as pl`); `pl` when it binds none, as in a file being written.
pub fn pl_aliases(ast: &Ast, text: &str, names: &mut Interner) -> Vec<Symbol> {
    let mut aliases = Vec::new();
    for &s in &ast.body {
        match &ast.stmt(s).kind {
            StmtKind::Import(items) => {
                for item in items {
                    if let Some(alias) = item.alias {
                        if source(text, item.name.span) == "pypto.language" {
                            aliases.push(alias.name);
                        }
                    }
                }
            }
            StmtKind::ImportFrom { level: 0, module: Some(module), names: items, .. }
                if source(text, module.span) == "pypto" =>
            {
                for item in items {
                    if source(text, item.name.span) == "language" {
                        aliases.push(item.alias.map_or(item.name.parts[0].name, |a| a.name));
                    }
                }
            }
            _ => {}
        }
    }
    if aliases.is_empty() {
        aliases.push(names.intern("pl"));
    }
    aliases
}

/// A `with pl.graph("name"):` region.
#[derive(Clone, Debug)]
pub struct Region {
    /// From `with` to the end of `pl.graph(...)`: the location lowering gives the region,
    /// and OutlineGraphScopes the Graph function made from it.
    pub header: Span,
    /// The string literal naming the region, and its text between the quotes.
    pub name: Option<(Span, String)>,
    /// The function the region is written in (its `def` statement).
    pub function: Option<StmtId>,
}

/// The region a `with` statement opens, if it is `with pl.graph(...)`.
pub fn region(ast: &Ast, text: &str, aliases: &[Symbol], stmt: StmtId, function: Option<StmtId>) -> Option<Region> {
    let s = ast.stmt(stmt);
    let StmtKind::With { items, .. } = &s.kind else { return None };
    let item = ast.list(*items).first()?;
    let ExprKind::Call { func, args } = &ast.expr(item.context).kind else { return None };
    let ExprKind::Attribute { value, attr } = &ast.expr(*func).kind else { return None };
    let is_pl = matches!(ast.expr(*value).kind, ExprKind::Name(n) if aliases.contains(&n));
    if !is_pl || source(text, attr.span) != "graph" {
        return None;
    }
    let name = ast.list(*args).iter().find(|a| a.kind == ArgKind::Positional).and_then(|a| {
        let e = ast.expr(a.value);
        match &e.kind {
            ExprKind::Str(pieces) if matches!(ast.list(*pieces), [one] if one.kind == StrKind::Plain) => {
                Some((e.span, literal_text(source(text, e.span)).to_string()))
            }
            _ => None,
        }
    });
    Some(Region { header: Span::new(s.span.lo, item.span.hi), name, function })
}

/// Every graph region of a file, in source order (the tests check [`region`] with it; the
/// server looks regions up along [`statements_at`]).
#[cfg(test)]
pub fn regions(ast: &Ast, text: &str, aliases: &[Symbol]) -> Vec<Region> {
    let mut out = Vec::new();
    let mut stack: Vec<(StmtId, Option<StmtId>)> = ast.body.iter().rev().map(|&s| (s, None)).collect();
    let mut children = Vec::new();
    while let Some((s, function)) = stack.pop() {
        if let Some(r) = region(ast, text, aliases, s, function) {
            out.push(r);
        }
        let inner = if matches!(ast.stmt(s).kind, StmtKind::FunctionDef(_)) { Some(s) } else { function };
        children.clear();
        ast.stmt_children(s, &mut children);
        stack.extend(children.iter().rev().filter_map(|c| match c {
            Node::Stmt(c) => Some((*c, inner)),
            Node::Expr(_) => None,
        }));
    }
    out
}

/// The statements around a position, outermost first.
pub fn statements_at(ast: &Ast, offset: u32) -> Vec<StmtId> {
    let mut path = Vec::new();
    let mut block: Vec<StmtId> = ast.body.clone();
    let mut children = Vec::new();
    while let Some(&s) = block.iter().find(|&&s| contains(ast.stmt(s).span, offset)) {
        path.push(s);
        children.clear();
        ast.stmt_children(s, &mut children);
        block = children
            .iter()
            .filter_map(|c| match c {
                Node::Stmt(c) => Some(*c),
                Node::Expr(_) => None,
            })
            .collect();
    }
    path
}

/// The innermost expression of a statement (not of the statements in its blocks) at a
/// position.
pub fn expr_at(ast: &Ast, stmt: StmtId, offset: u32) -> Option<ExprId> {
    let mut children = Vec::new();
    ast.stmt_children(stmt, &mut children);
    let mut found = children.iter().find_map(|c| match c {
        Node::Expr(e) if contains(ast.expr(*e).span, offset) => Some(*e),
        _ => None,
    })?;
    loop {
        let mut next = None;
        ast.expr_children(found, &mut |c| {
            if next.is_none() && contains(ast.expr(c).span, offset) {
                next = Some(c);
            }
        });
        match next {
            Some(c) => found = c,
            None => return Some(found),
        }
    }
}

/// The blocks of a compound statement.
pub fn blocks(ast: &Ast, stmt: StmtId) -> Vec<&Block> {
    match &ast.stmt(stmt).kind {
        StmtKind::If { branches, orelse } => branches.iter().map(|b| &b.body).chain(orelse.iter()).collect(),
        StmtKind::For { body, orelse, .. } | StmtKind::While { body, orelse, .. } => {
            std::iter::once(body).chain(orelse.iter()).collect()
        }
        StmtKind::With { body, .. } => vec![body],
        StmtKind::FunctionDef(def) => vec![&def.body],
        StmtKind::ClassDef(class) => vec![&class.body],
        StmtKind::Unsupported { blocks, .. } => blocks.iter().collect(),
        _ => Vec::new(),
    }
}

/// Whether a position is on a span: its first character up to its last.
pub fn contains(span: Span, offset: u32) -> bool {
    span.lo <= offset && offset < span.hi
}

pub fn source(text: &str, span: Span) -> &str {
    text.get(span.lo as usize..span.hi as usize).unwrap_or("")
}

/// The text between the quotes of a string literal (`r"x"`, `'''x'''`, ...).
pub fn literal_text(literal: &str) -> &str {
    let body = literal.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    for quote in ["\"\"\"", "'''", "\"", "'"] {
        if let Some(inner) = body.strip_prefix(quote).and_then(|b| b.strip_suffix(quote)) {
            return inner;
        }
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_texts() {
        for (literal, text) in
            [("\"layer\"", "layer"), ("r'a'", "a"), ("'''x'''", "x"), ("\"unterminated", "\"unterminated")]
        {
            assert_eq!(literal_text(literal), text);
        }
    }

    #[test]
    fn regions_with_their_headers_and_functions() {
        let text = "import pypto.language as pl\n\n@pl.jit\ndef f(x: pl.Tensor):\n    for i in pl.range(2):\n        with pl.graph(\"a\"):\n            x = pl.add(x, x)\n    with pl.graph(name):\n        pass\n    with other.graph(\"b\"):\n        pass\n    return x\n";
        let mut names = Interner::new();
        let ast = parse(text, &mut names);
        let aliases = pl_aliases(&ast, text, &mut names);
        let found = regions(&ast, text, &aliases);
        assert_eq!(found.len(), 2);
        assert_eq!(source(text, found[0].header), "with pl.graph(\"a\")");
        assert_eq!(found[0].name.as_ref().map(|(s, t)| (source(text, *s), t.as_str())), Some(("\"a\"", "a")));
        assert!(found[1].name.is_none());
        let def = found[0].function.unwrap();
        assert!(matches!(&ast.stmt(def).kind, StmtKind::FunctionDef(d) if names.get(d.name.name) == "f"));
    }
}
