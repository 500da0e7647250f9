//! The files and names of one compilation, and the front end run on a file: the state
//! that lowering reads and extends as it follows a program's imports.

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
}
