//! The document outline: the pl functions and `@pl.program` classes of a file (with their
//! methods), and inside each function its `pl.graph` regions (a region written inside
//! another is its child). Host code is not part of the outline: plc does not read it.
//!
//! ```text
//! @pl.program class Prog          Prog           Class     @pl.program
//!     @pl.function def main  ──►    main         Method    @pl.function(...)
//!         with pl.graph("a"):         a          Namespace pl.graph region
//! ```

use super::analysis::Syntax;
use super::convert;
use super::query;
use crate::intern::{Interner, Symbol};
use crate::source::SourceFile;
use crate::syntax::ast::{Ast, StmtId, StmtKind};
use lsp_types::{DocumentSymbol, Range, SymbolKind};

/// The outline of a file, from its parse tree.
pub fn document_symbols(file: &SourceFile, syntax: &Syntax) -> Vec<DocumentSymbol> {
    let cx = Outline { file, ast: &syntax.ast, names: &syntax.names, aliases: &syntax.aliases };
    syntax.ast.body.iter().filter_map(|&s| cx.top_level(s)).collect()
}

struct Outline<'a> {
    file: &'a SourceFile,
    ast: &'a Ast,
    names: &'a Interner,
    aliases: &'a [Symbol],
}

impl Outline<'_> {
    fn top_level(&self, s: StmtId) -> Option<DocumentSymbol> {
        match &self.ast.stmt(s).kind {
            StmtKind::FunctionDef(_) => self.function(s, SymbolKind::FUNCTION),
            StmtKind::ClassDef(class) => {
                let children: Vec<DocumentSymbol> =
                    self.ast.block(&class.body).iter().filter_map(|&m| self.function(m, SymbolKind::METHOD)).collect();
                let detail = class.decorators.first().map(|d| query::source(&self.file.text, d.span).to_string());
                Some(self.symbol(s, class.name.name, class.name.span, SymbolKind::CLASS, detail, children))
            }
            _ => None,
        }
    }

    fn function(&self, s: StmtId, kind: SymbolKind) -> Option<DocumentSymbol> {
        let StmtKind::FunctionDef(def) = &self.ast.stmt(s).kind else { return None };
        let detail = def.decorators.first().map(|d| query::source(&self.file.text, d.span).to_string());
        let children = self.regions_in(self.ast.block(&def.body));
        Some(self.symbol(s, def.name.name, def.name.span, kind, detail, children))
    }

    /// The graph regions in a block, each with the regions inside it. Blocks nest at most
    /// as deep as the layout stage allows, which bounds the recursion.
    fn regions_in(&self, block: &[StmtId]) -> Vec<DocumentSymbol> {
        let mut out = Vec::new();
        for &s in block {
            let inner: Vec<DocumentSymbol> =
                query::blocks(self.ast, s).into_iter().flat_map(|b| self.regions_in(self.ast.block(b))).collect();
            match query::region(self.ast, &self.file.text, self.aliases, s, None) {
                Some(region) => {
                    let (name, selection) = match &region.name {
                        Some((span, text)) => (text.clone(), *span),
                        None => ("pl.graph(...)".to_string(), region.header),
                    };
                    let range = convert::range(self.file, self.ast.stmt(s).span);
                    #[allow(deprecated)]
                    out.push(DocumentSymbol {
                        name: if name.is_empty() { "\"\"".to_string() } else { name },
                        detail: Some("pl.graph region".to_string()),
                        kind: SymbolKind::NAMESPACE,
                        tags: None,
                        deprecated: None,
                        range,
                        selection_range: within(range, convert::range(self.file, selection)),
                        children: Some(inner),
                    });
                }
                // Regions in other statements (loops, ifs, other scopes) belong to the
                // enclosing function or region.
                None => out.extend(inner),
            }
        }
        out
    }

    fn symbol(
        &self,
        s: StmtId,
        name: Symbol,
        name_span: crate::diag::Span,
        kind: SymbolKind,
        detail: Option<String>,
        children: Vec<DocumentSymbol>,
    ) -> DocumentSymbol {
        let name = self.names.get(name);
        let range = convert::range(self.file, self.ast.stmt(s).span);
        #[allow(deprecated)]
        DocumentSymbol {
            // An empty name is refused by some clients; a parse error can leave one.
            name: if name.is_empty() { "?".to_string() } else { name.to_string() },
            detail,
            kind,
            tags: None,
            deprecated: None,
            range,
            selection_range: within(range, convert::range(self.file, name_span)),
            children: Some(children),
        }
    }
}

/// The selection range of a symbol, which the protocol wants inside its range (a tree
/// repaired after a syntax error might not guarantee it).
fn within(range: Range, selection: Range) -> Range {
    if range.start <= selection.start && selection.end <= range.end {
        selection
    } else {
        Range::new(range.start, range.start)
    }
}
