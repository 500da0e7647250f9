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
    /// Made when first asked for ([`SourceFile::lines`]): only a diagnostic's position or a
    /// token dump needs it, so a clean `plc check` or `plc compile` never scans the text for
    /// its lines.
    lines: std::sync::OnceLock<LineIndex>,
}

impl SourceFile {
    /// A file whose line index is made when first asked for.
    pub fn new(name: String, text: String) -> SourceFile {
        SourceFile { name, text, lines: std::sync::OnceLock::new() }
    }

    /// A file whose line index `lines` (of `text`) is already made.
    pub fn with_lines(name: String, text: String, lines: LineIndex) -> SourceFile {
        SourceFile { name, text, lines: std::sync::OnceLock::from(lines) }
    }

    /// The line index of the text.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }
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
        self.files.push(SourceFile::new(name.into(), text));
        id
    }

    /// Adds a file from raw bytes. Invalid UTF-8 is reported at the byte offset of the first
    /// bad sequence (as Python does, the rest of the file is not read further); the returned
    /// text then holds the bytes decoded lossily so that the diagnostic can still show the line.
    pub fn add_bytes(&mut self, name: impl Into<String>, bytes: Vec<u8>) -> (FileId, Option<Diagnostic>) {
        let name = name.into();
        if bytes.len() > MAX_FILE_LEN {
            return self.add_too_large(name, bytes.len() as u64);
        }
        match String::from_utf8(bytes) {
            Ok(text) => (self.add(name, text), None),
            Err(err) => {
                let at = err.utf8_error().valid_up_to();
                let bytes = err.into_bytes();
                // A sequence cut short by the end of the file runs to the end.
                let bad_len = err_len_or_rest(&bytes, at);
                let bad: Vec<String> = bytes[at..at + bad_len].iter().map(|b| format!("0x{b:02X}")).collect();
                let id = self.add(name, text_for_invalid_utf8(&bytes));
                // Offsets in the text are offsets in the file: the span is the bad bytes.
                let span = Span::new(at as u32, (at + bad_len) as u32);
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

    /// A file of `len` bytes, too large to be read: empty, with error E0014.
    fn add_too_large(&mut self, name: String, len: u64) -> (FileId, Option<Diagnostic>) {
        let id = self.add(name, String::new());
        let diag = Diagnostic::error(
            Code::E0014,
            format!("the file is {len} bytes long; plc reads files of up to 4 GiB"),
            Label::primary(id, Span::new(0, 0), "file too large"),
        );
        (id, Some(diag))
    }

    /// Reads a file from disk (see [`read_source`]): a file too large is E0014, found
    /// without reading it; anything but a regular file is an I/O error.
    pub fn load(&mut self, path: &Path) -> std::io::Result<(FileId, Option<Diagnostic>)> {
        let name = path.display().to_string();
        Ok(match read_source(path)? {
            Source::Bytes(bytes) => self.add_bytes(name, bytes),
            Source::TooLarge(len) => self.add_too_large(name, len),
        })
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

/// The length of the invalid sequence at `at` (`bytes[..at]` is valid UTF-8).
fn err_len_or_rest(bytes: &[u8], at: usize) -> usize {
    match std::str::from_utf8(&bytes[at..]) {
        Err(e) => e.error_len().unwrap_or(bytes.len() - at),
        Ok(_) => 0,
    }
}

/// The text shown for a file that is not UTF-8: each byte of an invalid sequence becomes
/// a `?`, so that every offset in the text is the same offset in the file (U+FFFD would
/// take three bytes) and a diagnostic's span, line and column agree with the file.
fn text_for_invalid_utf8(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    text
}

/// What [`read_source`] found.
pub enum Source {
    Bytes(Vec<u8>),
    /// A file longer than [`MAX_FILE_LEN`] bytes (its length), not read.
    TooLarge(u64),
}

/// Reads a source file. Only a regular file is read: a FIFO, a device (`/dev/zero`), a
/// socket or a directory is an I/O error that says what it is, found without waiting for
/// data (the file is opened without blocking, then examined). A file longer than
/// [`MAX_FILE_LEN`] is not read at all, and reading stops past that length should the
/// file grow meanwhile; the buffer is sized from the file's length, once.
pub fn read_source(path: &Path) -> std::io::Result<Source> {
    use std::io::Read;
    let file = open_without_blocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        let what = describe_file_type(&meta.file_type());
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("it is {what}, not a regular file")));
    }
    if meta.len() > MAX_FILE_LEN as u64 {
        return Ok(Source::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(meta.len() as usize + 1).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!("not enough memory to read its {} bytes", meta.len()),
        )
    })?;
    let mut file = file;
    if !read_in_halves(&file, &mut bytes, meta.len() as usize) {
        // The file changed meanwhile (or this is not Unix): read from its start again.
        use std::io::Seek;
        bytes.clear();
        file.seek(std::io::SeekFrom::Start(0))?;
    }
    // What the file holds past the length read (a file that grew meanwhile), or all of it.
    let read = bytes.len() as u64;
    file.take(MAX_FILE_LEN as u64 + 1 - read).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_FILE_LEN {
        return Ok(Source::TooLarge(bytes.len() as u64));
    }
    Ok(Source::Bytes(bytes))
}

/// From this length, a file is read in two halves side by side ([`read_in_halves`]).
const HALVES_MIN_LEN: usize = 1 << 20;

/// Reads the first `len` bytes of `file` (its length when opened) into `bytes` (empty, with
/// room for them), its two halves side by side on rayon's pool: the copy and the fresh pages
/// it writes cost half the time (4.9 MB: about 4 ms on one thread). True when both halves
/// were read whole, the file then positioned after them; false for a short file, one
/// thread, a file that got shorter, or an error: the caller then empties `bytes` and reads
/// the file from its start, as it would have.
fn read_in_halves(file: &std::fs::File, bytes: &mut Vec<u8>, len: usize) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // Inside `syntax::serially` (the language server's message loop, which must not
        // wait for a pool busy with long work), in one piece.
        if len < HALVES_MIN_LEN || crate::syntax::parallel_threads() < 2 || bytes.capacity() < len {
            return false;
        }
        let fd = file.as_raw_fd();
        let half = len / 2;
        let (first, second) = bytes.spare_capacity_mut()[..len].split_at_mut(half);
        // Fills `room` from offset `at` of the file; false at an error or the file's end.
        let fill = |room: &mut [std::mem::MaybeUninit<u8>], at: usize| {
            let mut done = 0;
            while done < room.len() {
                let Ok(offset) = libc::off_t::try_from(at + done) else { return false };
                // SAFETY: `pread` writes at most `room.len() - done` bytes into the room
                // past `done`, memory this closure holds the only reference to; nothing is
                // read from it before the caller knows every byte was written.
                let n = unsafe { libc::pread(fd, room.as_mut_ptr().add(done).cast(), room.len() - done, offset) };
                match n {
                    n if n > 0 => done += n as usize,
                    n if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                    _ => return false,
                }
            }
            true
        };
        let (a, b) = rayon::join(|| fill(first, 0), || fill(second, half));
        if a && b {
            // SAFETY: both halves, the first `len` bytes of the room, were written whole.
            unsafe { bytes.set_len(len) };
            // `pread` does not move the file's position: the rest is read from `len` on.
            use std::io::Seek;
            return (&*file).seek(std::io::SeekFrom::Start(len as u64)).is_ok();
        }
        false
    }
    #[cfg(not(unix))]
    {
        let _ = (file, bytes, len);
        false
    }
}

/// Opens a file for reading. On Unix the open does not block: opening a FIFO for reading
/// would otherwise wait for a writer before plc could see it is one.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

fn describe_file_type(file_type: &std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a file"
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
    /// Taking the lock of an output directory (its lock file).
    Lock,
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
            FileOp::Lock => write!(f, "cannot lock `{path}`")?,
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

/// Where a relative import `from <level dots><module> import ...` in a file of `base` (its
/// directory) is looked for: the directory (`level` - 1 parents up, then the module's
/// packages) and the candidate files, `<last>.pl`, `<last>.py`, `<last>/__init__.pl`,
/// `<last>/__init__.py` (`__init__.pl`/`.py` for `from . import x`).
pub fn import_candidates(base: &Path, level: u32, module: &str) -> (PathBuf, Vec<PathBuf>) {
    let mut dir = base.to_path_buf();
    for _ in 1..level {
        dir = dir.parent().map(Path::to_path_buf).unwrap_or(dir);
    }
    let parts: Vec<&str> = module.split('.').filter(|p| !p.is_empty()).collect();
    for p in parts.iter().take(parts.len().saturating_sub(1)) {
        dir.push(p);
    }
    let candidates = match parts.last() {
        Some(last) => vec![
            dir.join(format!("{last}.pl")),
            dir.join(format!("{last}.py")),
            dir.join(last).join("__init__.pl"),
            dir.join(last).join("__init__.py"),
        ],
        None => vec![dir.join("__init__.pl"), dir.join("__init__.py")],
    };
    (dir, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text of `len` bytes in which every offset's byte differs from its neighbours'
    /// (a half read into the wrong place would show).
    fn text(len: usize) -> Vec<u8> {
        (0..len).map(|i| b"abcdefghijklmnopqrstuvwxyz\n"[(i * 7 + i / 4096) % 27]).collect()
    }

    /// A file of [`text`]`(len)` in a temporary directory (kept while the first is), its
    /// path, its text, and the file opened.
    fn written(len: usize) -> (tempfile::TempDir, PathBuf, Vec<u8>, std::fs::File) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("file.pl");
        let want = text(len);
        std::fs::write(&path, &want).expect("written");
        let file = std::fs::File::open(&path).expect("opened");
        (dir, path, want, file)
    }

    fn on_two_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
        rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a pool").install(f)
    }

    #[test]
    fn a_large_file_is_read_in_halves_byte_for_byte() {
        let (_dir, path, want, file) = written(3 * HALVES_MIN_LEN + 12_345);
        let mut bytes = Vec::with_capacity(want.len() + 1);
        assert!(on_two_threads(|| read_in_halves(&file, &mut bytes, want.len())), "read in halves");
        assert!(bytes == want, "the halves in their places");
        match on_two_threads(|| read_source(&path)).expect("read") {
            Source::Bytes(read) => assert!(read == want, "read_source reads it whole"),
            Source::TooLarge(_) => panic!("not too large"),
        }
    }

    #[test]
    fn a_file_shorter_than_its_length_when_opened_is_read_from_its_start() {
        let (_dir, _, want, file) = written(2 * HALVES_MIN_LEN);
        // As if the file had been this much longer when its length was taken.
        let mut bytes = Vec::with_capacity(want.len() + 4097);
        assert!(!on_two_threads(|| read_in_halves(&file, &mut bytes, want.len() + 4096)), "a half came short");
        // Nor on one thread, nor for a file under the threshold: the serial read.
        let mut bytes = Vec::with_capacity(want.len() + 1);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
        assert!(!one.install(|| read_in_halves(&file, &mut bytes, want.len())));
        assert!(!on_two_threads(|| read_in_halves(&file, &mut bytes, HALVES_MIN_LEN - 1)));
        // Nor inside `syntax::serially` (the language server's message loop).
        assert!(!on_two_threads(|| crate::syntax::serially(|| read_in_halves(&file, &mut bytes, want.len()))));
    }

    #[test]
    fn a_file_that_grew_since_its_length_was_taken_is_read_to_its_end() {
        let (_dir, _, want, mut file) = written(2 * HALVES_MIN_LEN + 999);
        let len = 2 * HALVES_MIN_LEN;
        let mut bytes = Vec::with_capacity(want.len() + 1);
        assert!(on_two_threads(|| read_in_halves(&file, &mut bytes, len)));
        // What read_source does next: the rest from where the halves end.
        use std::io::Read;
        file.read_to_end(&mut bytes).expect("the rest read");
        assert!(bytes == want, "the halves and the rest, in order");
    }
}
