//! Runs the stages over files and collects their diagnostics; the CLI, the tests and the
//! benchmarks all go through here.

use crate::diag::{self, Diagnostic};
use crate::intern::Interner;
use crate::source::{FileId, SourceMap};
use crate::syntax::{self, ast::Ast};
use std::path::Path;

/// One compilation: the files read so far and the names interned from them.
#[derive(Default)]
pub struct Session {
    pub files: SourceMap,
    pub interner: Interner,
}

/// The front end's result for one file.
pub struct Parsed {
    pub file: FileId,
    pub ast: Ast,
    pub diags: Vec<Diagnostic>,
}

impl Session {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a file from disk. An unreadable file is an I/O error (exit status 2), not a
    /// diagnostic.
    pub fn load(&mut self, path: &Path) -> std::io::Result<(FileId, Option<Diagnostic>)> {
        self.files.load(path)
    }

    /// Adds source text held in memory (tests, the language server).
    pub fn add_source(&mut self, name: &str, bytes: Vec<u8>) -> (FileId, Option<Diagnostic>) {
        self.files.add_bytes(name, bytes)
    }

    /// Runs the front end on a loaded file. A file whose bytes are not UTF-8 is not parsed.
    pub fn parse(&mut self, file: FileId, load_error: Option<Diagnostic>) -> Parsed {
        let mut diags = Vec::new();
        let ast = match load_error {
            Some(d) => {
                diags.push(d);
                Ast::default()
            }
            None => syntax::parse(file, &self.files.get(file).text, &mut self.interner, &mut diags),
        };
        diag::sort(&mut diags);
        Parsed { file, ast, diags }
    }

    /// Loads and parses a file in one step.
    pub fn parse_path(&mut self, path: &Path) -> std::io::Result<Parsed> {
        let (file, load_error) = self.load(path)?;
        Ok(self.parse(file, load_error))
    }
}

impl Session {
    /// Reads a program's root file and lowers it, with every file it imports, to IR: one
    /// program for the module-level functions (when there are any) and one per
    /// `@pl.program` class.
    /// Diagnostics of all the files are returned together, sorted.
    pub fn lower_path(&mut self, path: &Path) -> std::io::Result<(Vec<crate::ir::Program>, Vec<Diagnostic>)> {
        let (file, load_error) = self.load(path)?;
        if let Some(d) = load_error {
            return Ok((Vec::new(), vec![d]));
        }
        Ok(crate::lower::lower(self, file, Some(path)))
    }

    /// What every compiling command does after lowering: unless lowering found errors,
    /// run the first `stop` passes of `pipeline` (whose own checks report errors too).
    /// Returns how long each pass took.
    pub fn run_passes(
        &mut self,
        pipeline: &crate::passes::Pipeline,
        stop: usize,
        verify: bool,
        programs: &mut [crate::ir::Program],
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<(&'static str, std::time::Duration)> {
        if diag::has_errors(diags) {
            return Vec::new();
        }
        crate::passes::run_timed(pipeline, stop, verify, programs, &mut self.interner, diags)
    }

    /// Lowers source text held in memory (no relative imports: it has no directory).
    pub fn lower_source(&mut self, name: &str, bytes: Vec<u8>) -> (Vec<crate::ir::Program>, Vec<Diagnostic>) {
        let (file, load_error) = self.add_source(name, bytes);
        if let Some(d) = load_error {
            return (Vec::new(), vec![d]);
        }
        crate::lower::lower(self, file, None)
    }
}
