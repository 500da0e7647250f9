//! Conversions of [`Diagnostic`]s to text: human (labelled snippets, by codespan-reporting),
//! short (`file:line:col: error[E0103]: message`) and JSON (one object per line).

use super::{Diagnostic, Label, Severity};
use crate::source::{FileId, SourceMap};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term;
use serde::Serialize;
use std::ops::Range;

/// The output formats (the CLI's `--message-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Short,
    Json,
}

/// Renders one diagnostic in `format`, ending with a newline. `color` applies to `Human` only.
pub fn render(files: &SourceMap, diag: &Diagnostic, format: Format) -> String {
    match format {
        Format::Human => human(files, diag),
        Format::Short => short(files, diag),
        Format::Json => {
            let mut line = json(files, diag);
            line.push('\n');
            line
        }
    }
}

/// Writes the human form to a terminal stream, with colour when `color` is set.
pub fn emit_human(
    files: &SourceMap,
    diag: &Diagnostic,
    out: &mut dyn term::termcolor::WriteColor,
) -> std::io::Result<()> {
    let config = term::Config::default();
    term::emit_to_write_style(out, &config, files, &to_codespan(diag)).map_err(std::io::Error::other)
}

pub fn human(files: &SourceMap, diag: &Diagnostic) -> String {
    let config = term::Config::default();
    term::emit_into_string(&config, files, &to_codespan(diag)).unwrap_or_else(|_| short(files, diag))
}

pub fn short(files: &SourceMap, diag: &Diagnostic) -> String {
    let file = files.get(diag.primary.file);
    let pos = file.lines().position(&file.text, diag.primary.span.lo);
    format!("{}:{}:{}: {}[{}]: {}\n", file.name, pos.line, pos.column, diag.severity.as_str(), diag.code, diag.message)
}

fn to_codespan(diag: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match diag.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let label = |style, l: &Label| {
        cs::Label::new(style, l.file, l.span.lo as usize..l.span.hi as usize).with_message(l.message.clone())
    };
    let mut labels = vec![label(cs::LabelStyle::Primary, &diag.primary)];
    labels.extend(diag.secondary.iter().map(|l| label(cs::LabelStyle::Secondary, l)));
    let mut notes = diag.notes.clone();
    if let Some(help) = &diag.help {
        notes.push(format!("help: {help}"));
    }
    cs::Diagnostic::new(severity)
        .with_code(diag.code.as_str())
        .with_message(diag.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

#[derive(Serialize)]
struct JsonSpan {
    start: u32,
    end: u32,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    column_utf16: u32,
    end_column_utf16: u32,
}

#[derive(Serialize)]
struct JsonLabel {
    span: JsonSpan,
    message: String,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    file: &'a str,
    span: JsonSpan,
    labels: Vec<JsonLabel>,
    notes: Vec<String>,
}

fn json_span(files: &SourceMap, file: FileId, lo: u32, hi: u32) -> JsonSpan {
    let f = files.get(file);
    let start = f.lines().position(&f.text, lo);
    let end = f.lines().position(&f.text, hi);
    JsonSpan {
        start: lo,
        end: hi,
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        column_utf16: start.column_utf16,
        end_column_utf16: end.column_utf16,
    }
}

/// The JSON object of one diagnostic (without a trailing newline). `labels` lists every
/// label, the primary one first; `help` is given as a note starting with `help: `.
pub fn json(files: &SourceMap, diag: &Diagnostic) -> String {
    let label =
        |l: &Label| JsonLabel { span: json_span(files, l.file, l.span.lo, l.span.hi), message: l.message.clone() };
    let mut labels = vec![label(&diag.primary)];
    labels.extend(diag.secondary.iter().map(label));
    let mut notes = diag.notes.clone();
    if let Some(help) = &diag.help {
        notes.push(format!("help: {help}"));
    }
    let out = JsonDiagnostic {
        severity: diag.severity.as_str(),
        code: diag.code.as_str(),
        message: &diag.message,
        file: &files.get(diag.primary.file).name,
        span: json_span(files, diag.primary.file, diag.primary.span.lo, diag.primary.span.hi),
        labels,
        notes,
    };
    serde_json::to_string(&out).expect("diagnostics always serialize")
}

impl<'a> Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.check(id)?;
        Ok(&self.get(id).name)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.check(id)?;
        Ok(&self.get(id).text)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        self.check(id)?;
        Ok(self.get(id).lines().line_of(byte_index as u32))
    }

    /// Columns count UTF-8 bytes in every format (human, short, JSON `column`), so that a
    /// position reads the same wherever it is shown.
    fn column_number(&'a self, id: FileId, line_index: usize, byte_index: usize) -> Result<usize, FilesError> {
        self.check(id)?;
        let start = self.get(id).lines().line_start(line_index) as usize;
        Ok(byte_index.saturating_sub(start) + 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        self.check(id)?;
        let file = self.get(id);
        if line_index >= file.lines().line_count() {
            return Err(FilesError::LineTooLarge { given: line_index, max: file.lines().line_count() - 1 });
        }
        Ok(file.lines().line_range(line_index))
    }
}

impl SourceMap {
    fn check(&self, id: FileId) -> Result<(), FilesError> {
        if (id.0 as usize) < self.len() {
            Ok(())
        } else {
            Err(FilesError::FileMissing)
        }
    }
}
