//! plc's own diagnostic type. Every stage reports through it; the terminal, JSON and editor
//! forms are conversions at the edge (`render`).

mod codes;
mod line_index;
pub mod render;

pub use codes::{Code, CodeInfo, CODES};
pub use line_index::{LineIndex, Position};

use crate::source::FileId;

/// A half-open byte range `lo..hi` in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub const fn new(lo: u32, hi: u32) -> Self {
        Span { lo, hi }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    pub fn contains(self, other: Span) -> bool {
        self.lo <= other.lo && other.hi <= self.hi
    }

    pub fn len(self) -> u32 {
        self.hi - self.lo
    }

    pub fn is_empty(self) -> bool {
        self.hi == self.lo
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A span in a file with a short text that explains the span's part in the diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

impl Label {
    pub fn primary(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label { file, span, message: message.into() }
    }

    pub fn secondary(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label { file, span, message: message.into() }
    }
}

/// One problem found in the user's program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// One sentence, no final period.
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: Code, message: impl Into<String>, primary: Label) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn error(code: Code, message: impl Into<String>, primary: Label) -> Self {
        Self::new(Severity::Error, code, message, primary)
    }

    pub fn note(code: Code, message: impl Into<String>, primary: Label) -> Self {
        Self::new(Severity::Note, code, message, primary)
    }

    pub fn with_label(mut self, label: Label) -> Self {
        self.secondary.push(label);
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sorts diagnostics by file and position (errors before notes at the same place) so that
/// output is deterministic whatever order the stages reported in.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (a.primary.file, a.primary.span.lo, a.severity, a.primary.span.hi).cmp(&(
            b.primary.file,
            b.primary.span.lo,
            b.severity,
            b.primary.span.hi,
        ))
    });
}

pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// At most this many diagnostics with the same code and severity are shown for one file;
/// the others are summed up in one note (see [`cap_repeats`]).
pub const MAX_REPEATS: usize = 50;

/// The diagnostics to show: for each file, the first [`MAX_REPEATS`] of each code and
/// severity, then in place of the next one a note with the same code that counts the
/// rest: `… and 2950 more like this`. A line of 3 000 unmatched `)` gives 3 000 errors,
/// each of which shows the whole line: without the cap the human form is quadratic in
/// the line's length. Errors stay errors (the note does not change the exit status).
pub fn cap_repeats(diags: &[Diagnostic]) -> Vec<Diagnostic> {
    let key = |d: &Diagnostic| (d.primary.file, d.code, d.severity);
    let mut totals: rustc_hash::FxHashMap<(FileId, Code, Severity), usize> = Default::default();
    for d in diags {
        *totals.entry(key(d)).or_default() += 1;
    }
    if totals.values().all(|&n| n <= MAX_REPEATS) {
        return diags.to_vec();
    }
    let mut seen: rustc_hash::FxHashMap<(FileId, Code, Severity), usize> = Default::default();
    let mut out = Vec::new();
    for d in diags {
        let n = seen.entry(key(d)).or_default();
        *n += 1;
        if *n <= MAX_REPEATS {
            out.push(d.clone());
        } else if *n == MAX_REPEATS + 1 {
            let rest = totals[&key(d)] - MAX_REPEATS;
            out.push(Diagnostic::note(
                d.code,
                format!("\u{2026} and {rest} more like this"),
                Label::primary(d.primary.file, d.primary.span, "the first of them"),
            ));
        }
    }
    out
}
