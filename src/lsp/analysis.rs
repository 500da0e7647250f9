//! One run of plc over an open document, as `plc check` runs it: the front end and lowering
//! of the document and of every file it imports, then the default pass pipeline as far as
//! its passes are built (when lowering found no error). The result is kept until the next
//! change of the document: its diagnostics are published, and hover reads its program.

use crate::diag::{self, Diagnostic};
use crate::driver::Session;
use crate::ir::Program;
use crate::passes;
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
    let mut session = Session::new();
    // The same steps as `plc check`: plan the default pipeline, lower, run the built passes.
    let pipeline = passes::plan(&mut session.files, &passes::default_pipeline_text());
    let (root, load_error) = session.add_source(name, text.as_bytes().to_vec());
    let (mut programs, mut diags) = match load_error {
        Some(d) => (Vec::new(), vec![d]),
        None => crate::lower::lower(&mut session, root, path),
    };
    match pipeline {
        Ok(pipeline) => {
            let stop = pipeline.passes.len();
            session.run_passes(&pipeline, stop, false, &mut programs, &mut diags);
        }
        Err(errors) => diags.extend(errors),
    }
    diag::sort(&mut diags);
    Analysis { session, root, programs, diags }
}
