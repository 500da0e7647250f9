//! Source files: loading, UTF-8 validation and the file table every diagnostic refers to.

use crate::diag::{Code, Diagnostic, Label, LineIndex, Span};
use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// One source file: its display name, its text and its line index.
pub struct SourceFile {
    pub name: String,
    pub text: String,
    pub lines: LineIndex,
}

/// The files of one compilation. Files are never removed, so a `FileId` stays valid.
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

/// Spans are `u32` byte offsets, so a file must be smaller than 4 GiB.
pub const MAX_FILE_LEN: usize = u32::MAX as usize - 1;

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file whose text is already known to be UTF-8.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text = text.into();
        let id = FileId(self.files.len() as u32);
        let lines = LineIndex::new(&text);
        self.files.push(SourceFile { name: name.into(), text, lines });
        id
    }

    /// Adds a file from raw bytes. Invalid UTF-8 is reported at the byte offset of the first
    /// bad sequence (as Python does, the rest of the file is not read further); the returned
    /// text then holds the bytes decoded lossily so that the diagnostic can still show the line.
    pub fn add_bytes(&mut self, name: impl Into<String>, bytes: Vec<u8>) -> (FileId, Option<Diagnostic>) {
        let name = name.into();
        if bytes.len() > MAX_FILE_LEN {
            let id = self.add(name, String::new());
            let diag = Diagnostic::error(
                Code::E0014,
                format!("the file is {} bytes long; plc reads files of up to 4 GiB", bytes.len()),
                Label::primary(id, Span::new(0, 0), "file too large"),
            );
            return (id, Some(diag));
        }
        match String::from_utf8(bytes) {
            Ok(text) => (self.add(name, text), None),
            Err(err) => {
                let at = err.utf8_error().valid_up_to();
                let bad_len = err.utf8_error().error_len().unwrap_or(1);
                let bytes = err.into_bytes();
                let bad: Vec<String> = bytes[at..at + bad_len].iter().map(|b| format!("0x{b:02X}")).collect();
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let id = self.add(name, text);
                // The lossy text is byte-identical up to `at`; U+FFFD takes 3 bytes there.
                let span = Span::new(at as u32, at as u32 + 3);
                let diag = Diagnostic::error(
                    Code::E0003,
                    format!("the file is not valid UTF-8: byte {} is {}", at, bad.join(" ")),
                    Label::primary(id, span, "invalid UTF-8 here"),
                )
                .with_help("save the file as UTF-8; plc reads source text as UTF-8 only");
                (id, Some(diag))
            }
        }
    }

    /// Reads a file from disk.
    pub fn load(&mut self, path: &Path) -> std::io::Result<(FileId, Option<Diagnostic>)> {
        let bytes = std::fs::read(path)?;
        Ok(self.add_bytes(path.display().to_string(), bytes))
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// A file-system operation that failed: what plc was doing, on which file, and why. Shown
/// as `cannot read `PATH`: REASON` (exit status 2).
#[derive(Debug)]
pub struct FileError {
    pub op: FileOp,
    pub path: PathBuf,
    pub error: std::io::Error,
}

/// What plc was doing to a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileOp {
    Read,
    Write,
    CreateDirectory,
    /// Renaming the file to `to` (to replace `to` whole).
    Rename {
        to: PathBuf,
    },
}

impl FileError {
    pub fn new(op: FileOp, path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        FileError { op, path: path.into(), error }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match &self.op {
            FileOp::Read => write!(f, "cannot read `{path}`")?,
            FileOp::Write => write!(f, "cannot write `{path}`")?,
            FileOp::CreateDirectory => write!(f, "cannot create directory `{path}`")?,
            FileOp::Rename { to } => write!(f, "cannot rename `{path}` to `{}`", to.display())?,
        }
        write!(f, ": {}", self.error)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}
