//! One run of plc over an open document, as `plc check` runs it ([`crate::driver`]): the
//! front end and lowering of the document and of every file it imports, then the default
//! pass pipeline (when lowering found no error). The result is kept until the next change
//! of the document has been analysed: its diagnostics are published, and every request
//! (hover, definition, outline, pulled diagnostics) is answered from it — from its program
//! and from the parse tree of the same text ([`Syntax`]), never by reading the text again.
//!
//! An analysis can be cancelled: the server asks, between lowering and each pass, whether
//! the version being compiled is still the newest, and drops the work when it is not.

use super::query;
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::driver::{self, Input, PipelineSpec, Stage, StopAt};
use crate::intern::{Interner, Symbol};
use crate::ir::Program;
use crate::session::Session;
use crate::source::{FileId, SourceFile};
use crate::syntax::ast::Ast;
use lsp_types::DocumentSymbolResponse;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// What plc found in one document and the files it imports.
pub struct Analysis {
    /// The files read (the document as `root`, the imported files from disk) and the names.
    pub session: Arc<Session>,
    pub root: FileId,
    /// The programs after the passes that ran (shared with the next analyses, whose units
    /// the edit did not touch: [`Part`]).
    pub programs: Arc<Vec<Program>>,
    /// Every diagnostic, of every file, sorted.
    pub diags: Vec<Diagnostic>,
    /// What each stage of the compilation found, apart ([`driver::Compilation::found`]);
    /// empty when the stages are not known (an analysis that crashed).
    pub found: Vec<(Stage, Vec<Diagnostic>)>,
    /// Whether `programs` is the compilation of the whole document. An analysis made of
    /// parts (`incremental.rs`) has the whole document's diagnostics but not its programs:
    /// it has `parts` instead.
    pub complete: bool,
    /// For an analysis made of parts, each unit (a decorated `def` or `class`) with the
    /// compilation its programs come from: the one of this analysis for the units it
    /// compiled, an earlier one for the units it reused. Empty when complete, or when some
    /// unit has none.
    pub parts: Vec<Part>,
}

/// A unit of a document and the compilation that has its programs ([`Analysis::parts`]).
#[derive(Clone)]
pub struct Part {
    /// The unit's bytes in the analysed text.
    pub range: Range<u32>,
    pub source: Source,
}

/// A compilation that a unit's programs come from, and where the unit started in the text
/// it compiled: the unit's positions there are its positions now moved by the change of
/// its start (its text is the same).
#[derive(Clone)]
pub struct Source {
    pub session: Arc<Session>,
    pub root: FileId,
    pub programs: Arc<Vec<Program>>,
    pub start: u32,
}

impl Analysis {
    /// Whether a hover can be answered from this analysis: it compiled the whole
    /// document, or it is made of parts that all have their programs and it found no
    /// error (an error stops the passes of the whole document, which the parts, compiled
    /// apart, do not show).
    pub fn hoverable(&self) -> bool {
        self.complete || (!self.parts.is_empty() && !crate::diag::has_errors(&self.diags))
    }

    /// The programs that hold what was made of the text at `offset` of the document, the
    /// names they use, the file they call the document, and by how much their positions
    /// are before the document's (a position `p` of the document is `p - by` there).
    pub fn programs_at(&self, offset: u32) -> (&[Program], &Interner, FileId, i64) {
        if self.complete {
            return (&self.programs, &self.session.interner, self.root, 0);
        }
        let i = self.parts.partition_point(|p| p.range.end <= offset);
        let Some(part) = self.parts.get(i).filter(|p| p.range.start <= offset) else {
            // The header: nothing there is compiled (a pl function is a unit).
            return (&[], &self.session.interner, self.root, 0);
        };
        let s = &part.source;
        (&s.programs, &s.session.interner, s.root, i64::from(part.range.start) - i64::from(s.start))
    }
}

/// The parse tree of a document as the editor features read it: the tree, the names it
/// interns, and the names the module binds to `pypto.language`. The worker makes it once
/// per version of the text, after the analysis (whose diagnostics are published first),
/// with the outline of the text as the JSON of its answer.
pub struct Syntax {
    pub names: Interner,
    pub ast: Ast,
    pub aliases: Vec<Symbol>,
    /// The answer to `textDocument/documentSymbol` as JSON text ([`Syntax::with_outline`]):
    /// made once per version, so that a request copies nothing (20 000 lines are about
    /// 3 400 symbols, 700 KB of JSON). `None` for a tree made for a hover.
    pub outline: Option<Arc<str>>,
}

impl Syntax {
    /// The tree of an empty text (for a document whose parse failed).
    pub fn empty() -> Syntax {
        Syntax { names: Interner::new(), ast: Ast::default(), aliases: Vec::new(), outline: Some(Arc::from("[]")) }
    }

    /// Parses a document's text (its diagnostics are the compilation's business).
    pub fn parse(text: &str) -> Syntax {
        let mut names = Interner::new();
        let ast = query::parse(text, &mut names);
        let aliases = query::pl_aliases(&ast, text, &mut names);
        Syntax { names, ast, aliases, outline: None }
    }

    /// The tree with the outline of `file`, the text it was parsed from.
    pub fn with_outline(mut self, file: &SourceFile) -> Syntax {
        let outline = DocumentSymbolResponse::Nested(super::symbols::document_symbols(file, &self));
        // The protocol types serialize to JSON without fail (no maps with non-string keys).
        self.outline = Some(Arc::from(serde_json::to_string(&outline).unwrap_or_else(|_| "null".to_string())));
        self
    }
}

impl Syntax {
    /// The parse tree of the header (imports, constants, host code) of an analysis made of
    /// parts and of the unit that holds `offset`, if one does: the other units are
    /// blanked, so the tree's positions are the document's. Enough for a hover, which asks
    /// about one place, before the whole text is parsed.
    pub fn of_unit(text: &str, parts: &[Part], offset: u32) -> Syntax {
        let units: Vec<Range<u32>> = parts.iter().map(|p| p.range.clone()).collect();
        let i = units.partition_point(|r| r.end <= offset);
        let inside = units.get(i).is_some_and(|r| r.start <= offset);
        let keep: Vec<bool> = (0..units.len()).map(|k| inside && k == i).collect();
        // Parsed on this thread (the message loop's) alone: the pool may be busy with a
        // worker's parse of the whole text, and a part handed to it would wait.
        crate::syntax::serially(|| Syntax::parse(&super::incremental::blank(text, &units, &keep)))
    }
}

/// Whether the work in hand is no longer wanted (a newer version of the document came).
pub type Cancelled<'a> = &'a dyn Fn() -> bool;

/// Compiles the text of a document. `path` is the document's file, from which relative
/// imports are resolved (`None` for a document that is not a file).
pub fn analyze(name: &str, path: Option<&Path>, text: &str) -> Analysis {
    analyze_unless(name, path, text, &|| false).unwrap_or_else(|| unreachable!("never cancelled"))
}

/// As [`analyze`], but gives up (`None`) when `cancelled` says so: it is asked after
/// lowering and after each pass.
pub fn analyze_unless(name: &str, path: Option<&Path>, text: &str, cancelled: Cancelled<'_>) -> Option<Analysis> {
    let input =
        Input::Text { name: name.to_string(), bytes: text.as_bytes().to_vec(), path: path.map(Path::to_path_buf) };
    // Text in memory is never read from disk, so compiling it cannot fail.
    let mut c = driver::compile(input, &PipelineSpec::default().for_check(), StopAt::Lower)
        .unwrap_or_else(|err| unreachable!("{err}"));
    loop {
        if cancelled() {
            return None;
        }
        if c.step().is_none() {
            break;
        }
    }
    // The default pipeline is well ordered (a test of the pass table checks it), so the
    // document is always read.
    let root = c.root.expect("the default pipeline is never refused");
    Some(Analysis {
        session: Arc::new(c.session),
        root,
        programs: Arc::new(c.programs),
        diags: c.diags,
        found: c.found,
        complete: true,
        parts: Vec::new(),
    })
}

/// The analysis of a document whose compilation panicked: no program, and one internal
/// error (E0700) at the start of the document that says so, so that the
/// editor shows it and the server goes on.
pub fn crashed(name: &str, text: &str, message: &str) -> Analysis {
    let mut session = Session::new();
    let root = session.files.add(name, text);
    let diag = Diagnostic::error(
        Code::E0700,
        format!("internal error: plc failed while checking this file ({message})"),
        Label::primary(root, Span::new(0, 0), "plc failed on this file"),
    )
    .with_help("this is a bug in plc; please report it with the file");
    Analysis {
        session: Arc::new(session),
        root,
        programs: Arc::default(),
        diags: vec![diag],
        found: Vec::new(),
        complete: true,
        parts: Vec::new(),
    }
}
