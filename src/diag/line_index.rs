//! Byte offset → line and column, in UTF-8 bytes and in UTF-16 code units, computed in one
//! place for the renderers, the JSON output and the language server.

/// Line starts of one file, built once when the file is loaded.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the first byte of each line; `line_starts[0] == 0`.
    line_starts: Vec<u32>,
    len: u32,
}

/// A position in a file. Lines and columns are 1-based; `column` counts UTF-8 bytes and
/// `column_utf16` counts UTF-16 code units (what editors use), both from the line start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
    pub column_utf16: u32,
}

impl LineIndex {
    /// A line ends at `\n`, `\r\n` or a lone `\r` (as Python reads source); the line break
    /// belongs to the line it ends.
    pub fn new(text: &str) -> Self {
        // `memchr2` finds the breaks a word at a time (a byte-by-byte loop was 1 % of
        // `plc check`'s instructions on a large file).
        let bytes = text.as_bytes();
        let mut line_starts = Vec::with_capacity(bytes.len() / 32 + 1);
        line_starts.push(0u32);
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            let ends_line = bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n');
            if ends_line {
                line_starts.push(i as u32 + 1);
            }
        }
        LineIndex { line_starts, len: text.len() as u32 }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 0-based index of the line holding `offset` (offsets past the end map to the last line).
    pub fn line_of(&self, offset: u32) -> usize {
        let offset = offset.min(self.len);
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }

    /// Byte offset at which the 0-based `line` starts.
    pub fn line_start(&self, line: usize) -> u32 {
        self.line_starts.get(line).copied().unwrap_or(self.len)
    }

    /// Byte range of the 0-based `line`, including its line break.
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let start = self.line_start(line) as usize;
        let end = self.line_starts.get(line + 1).copied().unwrap_or(self.len) as usize;
        start..end
    }

    /// The position of `offset` in `text` (the text this index was built from). An offset
    /// inside a multi-byte character is moved back to the character's start.
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let mut offset = offset.min(self.len) as usize;
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset as u32);
        let start = self.line_starts[line] as usize;
        let prefix = &text[start..offset];
        let utf16: usize = if prefix.is_ascii() { prefix.len() } else { prefix.chars().map(char::len_utf16).sum() };
        Position { line: line as u32 + 1, column: (offset - start) as u32 + 1, column_utf16: utf16 as u32 + 1 }
    }

    /// The byte offset of a 0-based (line, UTF-16 column) position, as editors send it.
    /// A column past the end of the line maps to the line's end.
    pub fn offset_utf16(&self, text: &str, line: u32, column_utf16: u32) -> u32 {
        if line as usize >= self.line_starts.len() {
            return self.len;
        }
        let range = self.line_range(line as usize);
        let mut units = 0u32;
        for (i, ch) in text[range.clone()].char_indices() {
            if units >= column_utf16 || ch == '\n' || ch == '\r' {
                return (range.start + i) as u32;
            }
            units += ch.len_utf16() as u32;
        }
        range.end as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_in_utf8_and_utf16() {
        let text = "ab\nλx😀y\n\nz";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.position(text, 0), Position { line: 1, column: 1, column_utf16: 1 });
        assert_eq!(idx.position(text, 3), Position { line: 2, column: 1, column_utf16: 1 });
        // 'x' after the two-byte λ.
        assert_eq!(idx.position(text, 5), Position { line: 2, column: 3, column_utf16: 2 });
        // 'y' after the four-byte emoji, which is two UTF-16 units.
        let y = text.find('y').unwrap() as u32;
        assert_eq!(idx.position(text, y), Position { line: 2, column: 8, column_utf16: 5 });
        // Inside the emoji: moved back to its start.
        assert_eq!(idx.position(text, y - 2).column_utf16, 3);
        // End of file.
        let end = text.len() as u32;
        assert_eq!(idx.position(text, end), Position { line: 4, column: 2, column_utf16: 2 });
        assert_eq!(idx.position(text, end + 10), idx.position(text, end));
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        let text = "X = 1\rY = $\r\nZ";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 3);
        let dollar = text.find('$').unwrap() as u32;
        assert_eq!(idx.position(text, dollar), Position { line: 2, column: 5, column_utf16: 5 });
        assert_eq!(idx.position(text, text.len() as u32 - 1).line, 3);
    }

    #[test]
    fn utf16_round_trip_on_every_char_boundary() {
        let text = "a\r\nλ😀b\n\tc d\n😀\n";
        let idx = LineIndex::new(text);
        for (offset, ch) in text.char_indices() {
            // The `\n` of a `\r\n` pair is part of the line break, not a position on the line.
            if ch == '\n' && text[..offset].ends_with('\r') {
                continue;
            }
            let pos = idx.position(text, offset as u32);
            let back = idx.offset_utf16(text, pos.line - 1, pos.column_utf16 - 1);
            assert_eq!(back, offset as u32, "offset {offset} at {pos:?}");
        }
    }
}
