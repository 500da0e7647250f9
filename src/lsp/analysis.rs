//! One run of plc over an open document, as `plc check` runs it ([`crate::driver`]): the
//! front end and lowering of the document and of every file it imports, then the default
//! pass pipeline (when lowering found no error). The result is kept until the next change
//! of the document: its diagnostics are published, and hover reads its program.

use crate::diag::{Code, Diagnostic, Label, Span};
use crate::driver::{self, Input, PipelineSpec, StopAt};
use crate::ir::Program;
use crate::session::Session;
use crate::source::FileId;
use std::path::Path;

/// What plc found in one document and the files it imports.
pub struct Analysis {
    /// The files read (the document as `root`, the imported files from disk) and the names.
    pub session: Session,
    pub root: FileId,
    /// The programs after the passes that ran.
    pub programs: Vec<Program>,
    /// Every diagnostic, of every file, sorted.
    pub diags: Vec<Diagnostic>,
}

/// Compiles the text of a document. `path` is the document's file, from which relative
/// imports are resolved (`None` for a document that is not a file).
pub fn analyze(name: &str, path: Option<&Path>, text: &str) -> Analysis {
    let input =
        Input::Text { name: name.to_string(), bytes: text.as_bytes().to_vec(), path: path.map(Path::to_path_buf) };
    // Text in memory is never read from disk, so compiling it cannot fail.
    let c = driver::compile(input, &PipelineSpec::default(), StopAt::End).unwrap_or_else(|err| unreachable!("{err}"));
    // The default pipeline is well ordered (a test of the pass table checks it), so the
    // document is always read.
    let root = c.root.expect("the default pipeline is never refused");
    Analysis { session: c.session, root, programs: c.programs, diags: c.diags }
}

/// The analysis of a document whose compilation panicked: no program, and one internal
/// error (E0700) at the start of the document that says so, so that the editor shows it
/// and the server goes on.
pub fn crashed(name: &str, text: &str, message: &str) -> Analysis {
    let mut session = Session::new();
    let root = session.files.add(name, text);
    let diag = Diagnostic::error(
        Code::E0700,
        format!("internal error: plc failed while checking this file ({message})"),
        Label::primary(root, Span::new(0, 0), "plc failed on this file"),
    )
    .with_help("this is a bug in plc; please report it with the file");
    Analysis { session, root, programs: Vec::new(), diags: vec![diag] }
}
