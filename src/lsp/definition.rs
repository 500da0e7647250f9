//! Go to definition: from a call of a pl function (a bare name under `@pl.jit`, or
//! `self.f(...)` in a `@pl.program` class) or from a use of a module constant to the place
//! that defines it, following relative imports (`from .config import ROWS`,
//! `from ..config import HIDDEN as WIDTH`, `from .kernels import *`) into other files.
//!
//! Names are looked up as lowering binds them: a function's parameters and the names it
//! assigns are its own; other names are the module's top-level definitions, the last one
//! in source order winning; an imported name is looked up in the module it comes from.
//! Files open in the editor are read from their buffers, others from disk.

use super::analysis::Syntax;
use super::convert;
use super::query;
use crate::diag::Span;
use crate::intern::{Interner, Symbol};
use crate::source::SourceFile;
use crate::syntax::ast::{Ast, ExprId, ExprKind, FunctionDef, StmtId, StmtKind};
use lsp_types::{Location, Uri};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many imports a lookup follows before it gives up (an import cycle is an error
/// reported by lowering; here it must only end).
const MAX_IMPORT_DEPTH: usize = 32;

/// A file to look names up in.
pub struct SourceDoc {
    pub uri: Uri,
    /// Its path, from which relative imports are resolved (`None` if it is not a file).
    pub path: Option<PathBuf>,
    pub file: Arc<SourceFile>,
}

/// Reads the file at a path (an editor buffer when the file is open).
pub type ReadFile<'a> = &'a dyn Fn(&Path) -> Option<SourceDoc>;

/// The definition of the name at `offset` in `root`, or of the name that ends there: an
/// editor puts the cursor just after a word it was typing or double-clicked (`LAYERS|`).
/// `syntax` is the root's parse tree (from its analysis); other modules are parsed when a
/// lookup reaches them.
pub fn definition(root: SourceDoc, syntax: &Syntax, offset: u32, read: ReadFile<'_>) -> Option<Location> {
    let root = Module { doc: root, ast: Cow::Borrowed(&syntax.ast) };
    let names = Cow::Borrowed(&syntax.names);
    let mut r = Resolver { names, modules: vec![root], read, looked_up: FxHashMap::default() };
    let (m, span) = r.at(offset).or_else(|| r.at(offset.checked_sub(1)?))?;
    let module = &r.modules[m];
    Some(Location::new(module.doc.uri.clone(), convert::range(&module.doc.file, span)))
}

struct Module<'a> {
    doc: SourceDoc,
    ast: Cow<'a, Ast>,
}

struct Resolver<'a> {
    /// The root's names, copied only when another module is parsed.
    names: Cow<'a, Interner>,
    modules: Vec<Module<'a>>,
    read: ReadFile<'a>,
    looked_up: FxHashMap<(usize, Symbol), Option<(usize, Span)>>,
}

/// A module's binding of a name: defined in a module at a span, or imported (and looked
/// up only if it is the binding that counts).
enum Binding {
    At(usize, Span),
    Import { module: usize, level: u32, from: String, item: Symbol, span: Span },
}

impl Resolver<'_> {
    fn add(&mut self, doc: SourceDoc) -> usize {
        let ast = query::parse(&doc.file.text, self.names.to_mut());
        self.modules.push(Module { doc, ast: Cow::Owned(ast) });
        self.modules.len() - 1
    }

    /// The definition of what is at `offset` in the root module.
    fn at(&mut self, offset: u32) -> Option<(usize, Span)> {
        let ast = &self.modules[0].ast;
        let path = query::statements_at(ast, offset);
        let stmt = *path.last()?;
        // A name in `from .config import ROWS as R`: where the module defines it.
        if let StmtKind::ImportFrom { level, module, names, .. } = &ast.stmt(stmt).kind {
            let item = names.iter().find(|i| query::contains(i.span, offset))?;
            let from = module.as_ref().map(|d| query::source(&self.modules[0].doc.file.text, d.span).to_string());
            let (level, name) = (*level, item.name.parts[0].name);
            let target = (level > 0).then(|| self.import(0, level, &from.unwrap_or_default())).flatten()?;
            return self.lookup(target, name, 1);
        }
        let expr = query::expr_at(ast, stmt, offset)?;
        let function = path.iter().rev().find_map(|&s| match &ast.stmt(s).kind {
            StmtKind::FunctionDef(def) => Some(def),
            _ => None,
        });
        match ast.expr(expr).kind.clone() {
            ExprKind::Name(name) => {
                if let Some(span) = function.and_then(|f| local_binding(ast, f, name)) {
                    return Some((0, span));
                }
                self.lookup(0, name, 0)
            }
            ExprKind::Attribute { value, attr } if query::contains(attr.span, offset) => {
                // `self.f`: a method of the enclosing program class.
                let def = function?;
                let receiver = def.params.first()?.name?.name;
                if !matches!(ast.expr(value).kind, ExprKind::Name(n) if n == receiver) {
                    return None;
                }
                let class = path.iter().rev().find_map(|&s| match &ast.stmt(s).kind {
                    StmtKind::ClassDef(class) => Some(class),
                    _ => None,
                })?;
                ast.block(&class.body).iter().rev().find_map(|&s| match &ast.stmt(s).kind {
                    StmtKind::FunctionDef(method) if method.name.name == attr.name => Some((0, method.name.span)),
                    _ => None,
                })
            }
            _ => None,
        }
    }

    /// Where module `m` defines `name`, following its imports.
    /// Each (module, name) is looked up once per request, so that packages whose modules
    /// import each other with `*` cost no more than their size.
    fn lookup(&mut self, m: usize, name: Symbol, depth: usize) -> Option<(usize, Span)> {
        if let Some(&known) = self.looked_up.get(&(m, name)) {
            return known;
        }
        // A lookup that leads back to itself (an import cycle) finds nothing there.
        self.looked_up.insert((m, name), None);
        let found = match self.binding(m, name, depth) {
            None => None,
            Some(Binding::At(m, span)) => Some((m, span)),
            Some(Binding::Import { module, level, from, item, span }) => {
                // An import whose module or name cannot be found leads to the import itself.
                let found = (depth < MAX_IMPORT_DEPTH)
                    .then(|| self.import(module, level, &from))
                    .flatten()
                    .and_then(|target| self.lookup(target, item, depth + 1));
                Some(found.unwrap_or((module, span)))
            }
        };
        self.looked_up.insert((m, name), found);
        found
    }

    /// The last top-level binding of `name` in module `m`.
    fn binding(&mut self, m: usize, name: Symbol, depth: usize) -> Option<Binding> {
        let mut found = None;
        let body = self.modules[m].ast.body.clone();
        for s in body {
            let ast = &self.modules[m].ast;
            let text = &self.modules[m].doc.file.text;
            match &ast.stmt(s).kind {
                StmtKind::FunctionDef(def) if def.name.name == name => found = Some(Binding::At(m, def.name.span)),
                StmtKind::ClassDef(class) if class.name.name == name => found = Some(Binding::At(m, class.name.span)),
                StmtKind::Assign { targets, .. } => {
                    if let Some(span) = ast.list(*targets).iter().find_map(|&t| target_binding(ast, t, name)) {
                        found = Some(Binding::At(m, span));
                    }
                }
                StmtKind::AnnAssign { target, .. } => {
                    if let Some(span) = target_binding(ast, *target, name) {
                        found = Some(Binding::At(m, span));
                    }
                }
                StmtKind::Import(items) => {
                    for item in items {
                        let (bound, span) = match item.alias {
                            Some(a) => (a.name, a.span),
                            None => (item.name.parts[0].name, item.name.parts[0].span),
                        };
                        if bound == name {
                            found = Some(Binding::At(m, span));
                        }
                    }
                }
                StmtKind::ImportFrom { level, module, names, star } => {
                    let from = module.as_ref().map(|d| query::source(text, d.span).to_string()).unwrap_or_default();
                    let level = *level;
                    for item in names {
                        let bound = item.alias.map_or(item.name.parts[0].name, |a| a.name);
                        if bound != name {
                            continue;
                        }
                        found = Some(if level == 0 {
                            // An outside library (or pl itself): its import is as far as it goes.
                            Binding::At(m, item.span)
                        } else {
                            let item_name = item.name.parts[0].name;
                            Binding::Import { module: m, level, from: from.clone(), item: item_name, span: item.span }
                        });
                    }
                    if *star && level > 0 && depth < MAX_IMPORT_DEPTH {
                        if let Some(target) = self.import(m, level, &from) {
                            if let Some((module, span)) = self.lookup(target, name, depth + 1) {
                                found = Some(Binding::At(module, span));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// The module a relative import names, read and parsed once; the same files lowering
    /// looks for: `from .a.b import x` in `dir/m.pl` reads `dir/a/b.pl`, `dir/a/b.py`, or
    /// `dir/a/b/__init__.pl` / `.py`.
    fn import(&mut self, m: usize, level: u32, from: &str) -> Option<usize> {
        let base = self.modules[m].doc.path.as_ref()?.parent()?;
        let (_, candidates) = crate::source::import_candidates(base, level, from);
        let path = candidates.into_iter().find(|p| p.is_file())?;
        let path = path.canonicalize().unwrap_or(path);
        if let Some(i) = self.modules.iter().position(|md| md.doc.path.as_deref() == Some(path.as_path())) {
            return Some(i);
        }
        let doc = (self.read)(&path)?;
        Some(self.add(doc))
    }
}

/// Where a function binds `name` first: a parameter, or a target of an assignment, a
/// `for` or a `with ... as` in its body (nested functions are not looked into).
fn local_binding(ast: &Ast, def: &FunctionDef, name: Symbol) -> Option<Span> {
    if let Some(p) = def.params.iter().filter_map(|p| p.name).find(|n| n.name == name) {
        return Some(p.span);
    }
    let mut stack: Vec<StmtId> = ast.block(&def.body).iter().rev().copied().collect();
    while let Some(s) = stack.pop() {
        let targets: Vec<ExprId> = match &ast.stmt(s).kind {
            StmtKind::Assign { targets, .. } => ast.list(*targets).to_vec(),
            StmtKind::AnnAssign { target, .. } | StmtKind::AugAssign { target, .. } => vec![*target],
            StmtKind::For { target, .. } => vec![*target],
            StmtKind::With { items, .. } => ast.list(*items).iter().filter_map(|i| i.target).collect(),
            StmtKind::FunctionDef(_) | StmtKind::ClassDef(_) => continue,
            _ => Vec::new(),
        };
        if let Some(span) = targets.iter().find_map(|&t| target_binding(ast, t, name)) {
            return Some(span);
        }
        for block in query::blocks(ast, s).into_iter().rev() {
            stack.extend(ast.block(block).iter().rev());
        }
    }
    None
}

/// The span of `name` in an assignment target (a name, or names in tuples and lists).
fn target_binding(ast: &Ast, target: ExprId, name: Symbol) -> Option<Span> {
    let mut stack = vec![target];
    while let Some(e) = stack.pop() {
        match &ast.expr(e).kind {
            ExprKind::Name(n) if *n == name => return Some(ast.expr(e).span),
            ExprKind::Tuple(items) | ExprKind::List(items) => stack.extend(ast.list(*items).iter().rev()),
            ExprKind::Starred(inner) => stack.push(*inner),
            _ => {}
        }
    }
    None
}
