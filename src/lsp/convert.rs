//! Conversions between plc's data and the protocol's: positions and ranges (in UTF-16 code
//! units, the encoding every client supports), file URIs, and diagnostics. Every use of the
//! protocol's position and diagnostic types by the server goes through here, so that a
//! change of the types crate touches this module only.

use crate::diag::{self, LineIndex, Severity, Span};
use crate::source::{FileId, SourceFile, SourceMap};
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The protocol position (0-based line, UTF-16 column) of a byte offset.
pub fn position(file: &SourceFile, offset: u32) -> Position {
    let p = file.lines().position(&file.text, offset);
    Position::new(p.line - 1, p.column_utf16 - 1)
}

/// The protocol range of a byte span.
pub fn range(file: &SourceFile, span: Span) -> Range {
    Range::new(position(file, span.lo), position(file, span.hi))
}

/// The byte offset a protocol position names. A column past the end of its line is the
/// line's end, a line past the end of the text is the text's end.
pub fn offset(text: &str, lines: &LineIndex, position: Position) -> u32 {
    lines.offset_utf16(text, position.line, position.character)
}

/// Applies one ranged change of an editor (`textDocument/didChange` with incremental
/// sync) to a text whose line index is `lines`: the UTF-16 positions of the range name
/// bytes of the text as it is before this change. Reversed ends are put in order, and
/// positions past a line's end or the text's end are clamped (see [`offset`]).
pub fn apply_change(text: &mut String, lines: &LineIndex, range: Range, new_text: &str) {
    let start = offset(text, lines, range.start) as usize;
    let end = offset(text, lines, range.end) as usize;
    text.replace_range(start.min(end)..start.max(end), new_text);
}

/// A source file made from text held in memory (an editor buffer, an imported file).
pub fn source_file(name: String, text: String) -> SourceFile {
    let lines = LineIndex::new(&text);
    SourceFile::with_lines(name, text, lines)
}

/// The protocol form of a plc diagnostic whose primary label is in `files`. Secondary
/// labels become `relatedInformation` (those in files `uri_of` knows no URI for are left
/// out); notes and the help follow the message on lines of their own, as `note: ...` and
/// `help: ...`. Notes are hints (the host code plc skipped, an outside import): shown,
/// but not as problems.
pub fn diagnostic(
    files: &SourceMap,
    d: &diag::Diagnostic,
    uri_of: &mut dyn FnMut(FileId) -> Option<Uri>,
) -> lsp_types::Diagnostic {
    let severity = match d.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::HINT,
    };
    let mut message = d.message.clone();
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .filter_map(|label| {
            let uri = uri_of(label.file)?;
            let range = range(files.get(label.file), label.span);
            Some(DiagnosticRelatedInformation { location: Location::new(uri, range), message: label.message.clone() })
        })
        .collect();
    lsp_types::Diagnostic {
        range: range(files.get(d.primary.file), d.primary.span),
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("plc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

/// The path of a `file:` URI (percent-decoded); `None` for other schemes and for URIs
/// naming another host.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let (scheme, rest) = text.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    let rest = rest.strip_prefix("//")?;
    let (host, path) = rest.split_at(rest.find('/')?);
    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = percent_decode(path)?;
    bytes_to_path(bytes)
}

/// The `file:` URI of an absolute path; bytes other than unreserved ones and `/` are
/// percent-encoded.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let text = path.to_str()?.replace('\\', "/");
    let mut uri = String::from("file://");
    // A Windows path `C:/x` is `file:///C:/x`.
    let rest = match text.as_bytes() {
        [drive, b':', ..] if drive.is_ascii_alphabetic() => {
            uri.push('/');
            uri.push_str(&text[..2]);
            &text[2..]
        }
        _ => &text[..],
    };
    for &b in rest.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

/// One spelling for every spelling of a URI, to compare and key documents by: clients
/// and plc may percent-encode the same name differently (`caf%c3%a9`, `caf%C3%A9`,
/// `caf%C3%a9`; `%7E` or `~`). A `file:` URI is spelled as [`path_to_uri`] spells its path
/// (upper-case hex, unreserved bytes as they are); any other URI gets upper-case hex in
/// its escapes, unreserved bytes unescaped, and a lower-case scheme.
pub fn canonical_uri(uri: &Uri) -> Uri {
    if let Some(canonical) = uri_to_path(uri).and_then(|path| path_to_uri(&path)) {
        return canonical;
    }
    let text = uri.as_str();
    let (scheme, rest) = text.split_once(':').unwrap_or(("", text));
    let mut out = scheme.to_ascii_lowercase();
    out.push(':');
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).filter(|h| bytes[i] == b'%' && h.iter().all(u8::is_ascii_hexdigit));
        match hex.and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()) {
            Some(b) if b.is_ascii_alphanumeric() || b"-._~".contains(&b) => {
                out.push(b as char);
                i += 3;
            }
            Some(b) => {
                out.push_str(&format!("%{b:02X}"));
                i += 3;
            }
            None => {
                // The text is a valid URI, so a byte that is not an escape is ASCII.
                out.push(bytes[i] as char);
                i += 1;
            }
        }
    }
    Uri::from_str(&out).unwrap_or_else(|_| uri.clone())
}

fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(unix)]
fn bytes_to_path(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn bytes_to_path(bytes: Vec<u8>) -> Option<PathBuf> {
    let text = String::from_utf8(bytes).ok()?;
    // `/C:/x` names the Windows path `C:/x`.
    let text = match text.as_bytes() {
        [b'/', drive, b':', ..] if drive.is_ascii_alphabetic() => text[1..].to_string(),
        _ => text,
    };
    Some(PathBuf::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_round_trip_with_escapes() {
        let path = Path::new("/tmp/a dir/café 数据.pl");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/caf%C3%A9%20%E6%95%B0%E6%8D%AE.pl");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        let other = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(uri_to_path(&other), None);
        let localhost = Uri::from_str("file://localhost/x/y.pl").unwrap();
        assert_eq!(uri_to_path(&localhost).unwrap(), Path::new("/x/y.pl"));
    }

    #[test]
    fn uris_spelled_differently_have_one_canonical_spelling() {
        let canonical = |text: &str| canonical_uri(&Uri::from_str(text).unwrap()).as_str().to_string();
        let upper = "file:///tmp/caf%C3%A9.pl";
        for spelling in ["file:///tmp/caf%c3%a9.pl", "file:///tmp/caf%C3%a9.pl", "FILE:///tmp/caf%C3%A9.pl", upper] {
            assert_eq!(canonical(spelling), upper, "{spelling}");
        }
        assert_eq!(canonical("file:///tmp/%7Ea%2Db.pl"), "file:///tmp/~a-b.pl");
        assert_eq!(canonical("untitled:Caf%c3%a9%7e"), "untitled:Caf%C3%A9~");
        assert_eq!(canonical("Untitled:x"), "untitled:x");
    }

    #[test]
    fn ranged_changes_count_utf16_units() {
        let edit = |text: &str, (l0, c0, l1, c1): (u32, u32, u32, u32), new: &str| {
            let mut text = text.to_string();
            let lines = LineIndex::new(&text);
            apply_change(&mut text, &lines, Range::new(Position::new(l0, c0), Position::new(l1, c1)), new);
            text
        };
        // `😀` is two units: column 3 of line 1 is after it, before `b`.
        assert_eq!(edit("x\né😀b\n", (1, 3, 1, 4), "数"), "x\né😀数\n");
        assert_eq!(edit("x\né😀b\n", (1, 1, 1, 3), ""), "x\néb\n");
        // Across lines, reversed, and past the end of a line and of the text.
        assert_eq!(edit("ab\ncd\nef", (2, 1, 0, 1), "-"), "a-f");
        assert_eq!(edit("ab\ncd", (0, 99, 1, 0), ""), "abcd");
        assert_eq!(edit("ab\r\ncd", (0, 2, 0, 9), "Z"), "abZ\r\ncd");
        assert_eq!(edit("ab", (7, 0, 9, 9), "\n"), "ab\n");
    }

    #[test]
    fn positions_count_utf16_units() {
        let file = source_file("t.pl".to_string(), "a\n# café 数据 😀 x\n".to_string());
        let x = file.text.find('x').unwrap() as u32;
        // "# café 数据 😀 " is 13 UTF-16 units (the emoji is two) but 20 bytes.
        assert_eq!(position(&file, x), Position::new(1, 13));
        assert_eq!(offset(&file.text, file.lines(), Position::new(1, 13)), x);
    }
}
