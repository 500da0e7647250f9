//! Publishing `plc compile`'s output: the whole set of files appears in the output
//! directory at once, or nothing changes.
//!
//! 1. A lock file beside the directory (`.<name>.plc-lock`, opened without following a
//!    symbolic link) is locked for the whole publication, so that two runs into one
//!    directory take turns; leftovers of runs that were killed are removed under it.
//! 2. Each file is written (with one write) as soon as it is emitted, by the thread `plc
//!    compile` hands it to ([`Publication::put`]; the files of a directory are created one
//!    at a time; a large file, `kernel_config.json`, is written in pieces as it is made,
//!    [`Publication::put_written`]), into a fresh staging directory beside the output
//!    directory (`.<name>.plc-stage-<random>`, created exclusively, readable by its owner
//!    only until it is published). Nothing in it can have been planted by anyone else, and every
//!    file is created new: no write follows a symbolic link. A file whose content did not
//!    change is linked from the old set instead, so it keeps its modification time.
//!    Each directory of the set is opened once (with the names the old set has in it, read
//!    once, and the old set's directory): a file is created relative to its directory
//!    (`openat`), and an old one read and linked relative to its own (`openat`, `linkat`),
//!    not by walking their whole paths again, and the old set is looked into only for the names it holds — for
//!    a new output directory, never (docs/performance.md: 206 000 files for a 50 MB
//!    program).
//! 3. The files of the old directory that plc did not write (listed in nobody's manifest,
//!    `.plc-manifest`, and not replaced by the new set) are linked into the staging
//!    directory too: the user's own files survive, plc's stale ones (a kernel that is gone)
//!    do not.
//! 4. The staging directory takes the place of the output directory in one step (Linux's
//!    `renameat2(RENAME_EXCHANGE)`; elsewhere two renames, the old directory kept until the
//!    second succeeded and put back if it failed); the old set is then removed (its
//!    directories side by side, on the pool's threads: the pool is idle by then). The
//!    manifest is sorted in two halves side by side, then merged; the old directory's
//!    entries are looked up in it (a binary search), with no set made of the new paths.
//!
//! The lock is taken and the staging directory made when the first file is emitted, so
//! the output is never whole in memory. On any failure (or an error found while emitting)
//! the staging directory is removed, and so is the output directory when this run created
//! it and it is still empty: the output directory is untouched;
//! a killed run leaves only a staging directory, which the next run removes. A failure
//! names the file and the operation (a write is reported under the file's final name).

use crate::source::{FileError, FileOp};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The list of the files plc wrote, kept in the output directory: the next publication
/// drops them (or replaces them) and keeps every other file.
pub const MANIFEST: &str = ".plc-manifest";

/// The buffer in front of a file written in pieces ([`Publication::put_written`]).
const WRITE_BUFFER: usize = 64 << 10;

/// Publishes `files` (paths relative to `dir`, with their contents) into `dir`: stages
/// them all (in parallel) and publishes the set.
pub fn publish(dir: &Path, files: &[(String, String)]) -> Result<(), FileError> {
    let publication = Publication::begin(dir)?;
    let staged: Vec<Result<(), FileError>> = files.par_iter().map(|(rel, text)| publication.put(rel, text)).collect();
    // The first failure in the files' order, reported as a serial run would.
    staged.into_iter().collect::<Result<(), FileError>>()?;
    let rels: Vec<&str> = files.iter().map(|(rel, _)| rel.as_str()).collect();
    publication.finish(rels)
}

/// The text of a file: whole, or written in pieces into the writer given.
enum Text<'a> {
    Whole(&'a [u8]),
    Pieces(&'a mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>),
}

/// One publication under way: its output directory locked and its staging directory
/// made, into which [`Publication::put`] writes each file as soon as it is made (from any
/// thread), until [`Publication::finish`] publishes the set. Dropped unfinished (an error,
/// a failure), it removes the staging directory and the directories [`Publication::begin`]
/// created for the output (when they are still empty): the output directory is as it was.
pub struct Publication {
    /// The output directory as it was named (for messages).
    dir: PathBuf,
    /// What it names (the target of a symbolic link, say), its parent and its name.
    real: PathBuf,
    parent: PathBuf,
    name: String,
    stage: PathBuf,
    /// The directories already made in the staging directory, relative to it (as `rel`
    /// names them: a string's hash, not a path's, which hashes component by component).
    made: Mutex<FxHashMap<Box<str>, Arc<StageDir>>>,
    /// The output directory and its ancestors that `begin` created, deepest first.
    created: Vec<PathBuf>,
    done: bool,
    /// Held until the publication is over (dropped after `Drop::drop` ran).
    _lock: std::fs::File,
}

impl Publication {
    /// Locks the output directory (creating it and its parents when missing), removes the
    /// leftovers of killed runs and makes a fresh staging directory beside it.
    pub fn begin(dir: &Path) -> Result<Publication, FileError> {
        let mut created: Vec<PathBuf> =
            dir.ancestors().take_while(|a| !a.as_os_str().is_empty() && !a.exists()).map(Path::to_path_buf).collect();
        std::fs::create_dir_all(dir).map_err(|e| FileError::new(FileOp::CreateDirectory, dir, e))?;
        let unmake = |created: &[PathBuf]| created.iter().for_each(|d| drop(std::fs::remove_dir(d)));
        let prepared = prepare(dir);
        let (real, parent, name, lock) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => {
                unmake(&created);
                return Err(e);
            }
        };
        remove_leftovers(&parent, &name);
        let stage_error = |e| FileError::new(FileOp::CreateDirectory, parent.join(format!(".{name}.plc-stage-*")), e);
        let stage =
            match tempfile::Builder::new().prefix(&format!(".{name}.plc-stage-")).rand_bytes(12).tempdir_in(&parent) {
                Ok(stage) => stage.keep(),
                Err(e) => {
                    unmake(&created);
                    return Err(stage_error(e));
                }
            };
        // Deepest first, so that each is empty when it is removed.
        created.shrink_to_fit();
        Ok(Publication {
            dir: dir.to_path_buf(),
            real,
            parent,
            name,
            stage,
            made: Mutex::default(),
            created,
            done: false,
            _lock: lock,
        })
    }

    /// Writes one file of the new set (`rel`, relative to the output directory) into the
    /// staging directory, or links the old file when its content is the same.
    pub fn put(&self, rel: &str, text: &str) -> Result<(), FileError> {
        self.put_text(rel, Text::Whole(text.as_bytes()))
    }

    /// Writes one file of the new set whose text `write` writes in pieces (through a
    /// buffer of [`WRITE_BUFFER`] bytes, so that a large file is never whole in memory), or
    /// links the old file when its content is the same (the text is then made in memory,
    /// to be compared).
    pub fn put_written(
        &self,
        rel: &str,
        write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<(), FileError> {
        self.put_text(rel, Text::Pieces(write))
    }

    fn put_text(&self, rel: &str, text: Text<'_>) -> Result<(), FileError> {
        let (d, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let dir = self.stage_dir(d)?;
        let write_error = |e| FileError::new(FileOp::Write, self.dir.join(rel), e);
        if dir.old_names.contains(std::ffi::OsStr::new(name)) {
            let made;
            let bytes = match text {
                Text::Whole(bytes) => bytes,
                Text::Pieces(write) => {
                    let mut bytes = Vec::new();
                    write(&mut bytes).map_err(write_error)?;
                    made = bytes;
                    &made
                }
            };
            return dir.put_kept(&self.stage, &self.real, rel, name, bytes).map_err(write_error);
        }
        let written = dir.create(&self.stage, rel, name).and_then(|mut file| match text {
            Text::Whole(bytes) => file.write_all(bytes),
            Text::Pieces(write) => {
                let mut file = std::io::BufWriter::with_capacity(WRITE_BUFFER, file);
                write(&mut file)?;
                file.flush()
            }
        });
        written.map_err(write_error)
    }

    /// A directory of the staging directory (made with its parents, and opened, once) and
    /// the names the old set has in it.
    fn stage_dir(&self, d: &str) -> Result<Arc<StageDir>, FileError> {
        let mut made = self.made.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(dir) = made.get(d) {
            return Ok(dir.clone());
        }
        let path = self.stage.join(d);
        let make_error = |e| FileError::new(FileOp::CreateDirectory, self.dir.join(d), e);
        std::fs::create_dir_all(&path).map_err(make_error)?;
        let dir = Arc::new(StageDir::open(&path, &self.real.join(d)).map_err(make_error)?);
        made.insert(d.into(), dir.clone());
        Ok(dir)
    }

    /// Publishes the staged set, whose files are `rels`: writes the manifest, links the
    /// user's files of the old directory in, and puts the staging directory in its place.
    pub fn finish(mut self, mut rels: Vec<&str>) -> Result<(), FileError> {
        // Sorted on the pool's threads (idle by now): the manifest's order, and the new set's
        // paths looked up by a binary search (`carry_over`), with no set built for them.
        let manifest = sorted(&mut rels);
        let mut list = String::with_capacity(manifest.iter().map(|rel| rel.len() + 1).sum());
        for rel in &manifest {
            list.push_str(rel);
            list.push('\n');
        }
        stage_file(&self.stage, &self.real, MANIFEST, list.as_bytes(), &Mutex::new(()))
            .map_err(|e| FileError::new(FileOp::Write, self.dir.join(MANIFEST), e))?;
        let old_list = std::fs::read_to_string(self.real.join(MANIFEST)).unwrap_or_default();
        let old_manifest: FxHashSet<&str> = old_list.lines().collect();
        carry_over(&self.real, &self.stage, Path::new(""), "", &manifest, &old_manifest)?;
        // The published directory gets the permissions the old one had.
        if let Ok(meta) = std::fs::metadata(&self.real) {
            let _ = std::fs::set_permissions(&self.stage, meta.permissions());
        }
        swap(&self.stage, &self.real, &self.parent, &self.name)?;
        // After the swap the staging path holds the old set (or nothing): remove it.
        self.done = true;
        remove_set(&self.stage);
        Ok(())
    }
}

/// `rels` sorted: its two halves sorted side by side (the standard library's sort on each,
/// cheaper than rayon's parallel one), then merged.
fn sorted<'a>(rels: &mut [&'a str]) -> Vec<&'a str> {
    let (a, b) = rels.split_at_mut(rels.len() / 2);
    rayon::join(|| a.sort_unstable(), || b.sort_unstable());
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if b[j] < a[i] {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Removes a directory and everything in it, its subdirectories on the pool's threads (one
/// each): the kernel removes a directory's entries one at a time, so `kernels/` and
/// `orchestration/` of an old set are removed side by side (at the end of a compile into
/// a directory that held an output, the pool is idle).
fn remove_set(dir: &Path) {
    let subdirs: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => {
            entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_dir())).map(|e| e.path()).collect()
        }
        Err(_) => Vec::new(),
    };
    if subdirs.len() > 1 {
        subdirs.par_iter().with_max_len(1).for_each(|d| drop(std::fs::remove_dir_all(d)));
    }
    let _ = std::fs::remove_dir_all(dir);
}

impl Drop for Publication {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.stage);
            for d in &self.created {
                let _ = std::fs::remove_dir(d);
            }
        }
    }
}

/// What an output directory (which exists) names, its parent and its name, and its lock,
/// taken: refused when it is (or holds) the current directory.
fn prepare(dir: &Path) -> Result<(PathBuf, PathBuf, String, std::fs::File), FileError> {
    // Publish into what the path names (the target of a symbolic link, say).
    let real = dir.canonicalize().map_err(|e| FileError::new(FileOp::Read, dir, e))?;
    let (Some(parent), Some(name)) = (real.parent(), real.file_name().and_then(|n| n.to_str())) else {
        let error = std::io::Error::new(std::io::ErrorKind::InvalidInput, "it has no parent directory to stage in");
        return Err(FileError::new(FileOp::Write, dir, error));
    };
    let cwd = std::env::current_dir().ok().and_then(|d| d.canonicalize().ok());
    if cwd.is_some_and(|cwd| cwd.starts_with(&real)) {
        let error = std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is (or holds) the current directory, which plc would replace; write the output to a directory of its own",
        );
        return Err(FileError::new(FileOp::Write, dir, error));
    }
    let lock = lock(&parent.join(format!(".{name}.plc-lock")))?;
    let (parent, name) = (parent.to_path_buf(), name.to_string());
    Ok((real, parent, name, lock))
}

/// Writes one file of the new set into the staging directory, or links the old file
/// when its content is the same. Its directory exists already.
fn stage_file(stage: &Path, old: &Path, rel: &str, text: &[u8], creating: &Mutex<()>) -> std::io::Result<()> {
    let path = stage.join(rel);
    let previous = old.join(rel);
    let unchanged = std::fs::symlink_metadata(&previous).is_ok_and(|m| m.is_file() && m.len() == text.len() as u64)
        && std::fs::read(&previous).is_ok_and(|bytes| bytes == text);
    if unchanged && std::fs::hard_link(&previous, &path).is_ok() {
        return Ok(());
    }
    let mut file = create_new(&path, creating)?;
    file.write_all(text)
}

/// Creates a file that must not exist yet (never through a symbolic link).
fn create_new(path: &Path, creating: &Mutex<()>) -> std::io::Result<std::fs::File> {
    let _guard = creating.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    std::fs::OpenOptions::new().write(true).create_new(true).open(path)
}

/// A directory of the staging directory, open, and the names of the entries the old set
/// has in the same directory (none when it has no such directory).
struct StageDir {
    /// The directory, opened to create files relative to it (Unix).
    #[cfg(unix)]
    fd: std::fs::File,
    /// The old set's directory, when it has entries: an unchanged file is read and linked
    /// relative to it (Unix), not through its whole path.
    #[cfg(unix)]
    old_fd: Option<std::fs::File>,
    old_names: FxHashSet<OsString>,
    /// Held while a file is created in this directory, so that one thread creates its
    /// files at a time: the kernel creates a directory's entries one at a time anyway
    /// (under the directory's lock), and a thread waiting for that lock spins on a core
    /// while the other creates (on ext4 the inode allocation can be long), which made two
    /// threads cost more CPU time than one (docs/performance.md). A thread waiting here
    /// sleeps instead; files of two directories are created at the same time. (`plc
    /// compile` hands the orchestration files, and the kernels, to one thread at a time,
    /// `emit::pipeline`, so that a thread seldom waits here: only for the kernel table or
    /// an AIC half, written into `kernels/` beside the last kernels.)
    creating: Mutex<()>,
}

impl StageDir {
    fn open(path: &Path, old: &Path) -> std::io::Result<StageDir> {
        let old_names: FxHashSet<OsString> = match std::fs::read_dir(old) {
            Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.file_name())).collect(),
            Err(_) => FxHashSet::default(),
        };
        let creating = Mutex::new(());
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let directory = |path: &Path, flags| {
                std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC | flags)
                    .open(path)
            };
            let fd = directory(path, libc::O_NOFOLLOW)?;
            // Followed as the old set's paths were (a link to a directory included).
            let old_fd = if old_names.is_empty() { None } else { directory(old, 0).ok() };
            Ok(StageDir { fd, old_fd, old_names, creating })
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            Ok(StageDir { old_names, creating })
        }
    }

    /// Creates the file `name` of this directory (`rel` in the staging directory `stage`),
    /// which must not exist yet (never through a symbolic link), for writing.
    #[cfg(unix)]
    fn create(&self, _stage: &Path, _rel: &str, name: &str) -> std::io::Result<std::fs::File> {
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        let _guard = self.creating.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        open_at(&self.fd, name, flags)
    }

    #[cfg(not(unix))]
    fn create(&self, stage: &Path, rel: &str, _name: &str) -> std::io::Result<std::fs::File> {
        create_new(&stage.join(rel), &self.creating)
    }

    /// Writes the file `name` of this directory (`rel` in the staging directory `stage`, the
    /// old set being `old`), whose name the old set has: linked from the old set when its
    /// content is the same (so that it keeps its modification time), created otherwise.
    #[cfg(unix)]
    fn put_kept(&self, stage: &Path, _old: &Path, rel: &str, name: &str, text: &[u8]) -> std::io::Result<()> {
        use std::os::unix::io::AsRawFd;
        if let Some(old) = &self.old_fd {
            // Not blocking on a FIFO, which is then no regular file: not the same.
            let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
            let same = open_at(old, name, flags).is_ok_and(|mut file| same_content(&mut file, text));
            let linked = same
                && with_c_name(name, |c_name| {
                    // SAFETY: both descriptors are open directories this value owns and
                    // `c_name` a NUL-terminated string that outlives the call; linkat
                    // touches no other memory.
                    let status = unsafe { libc::linkat(old.as_raw_fd(), c_name, self.fd.as_raw_fd(), c_name, 0) };
                    if status == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                })
                .is_ok();
            if linked {
                return Ok(());
            }
        }
        let mut file = self.create(stage, rel, name)?;
        file.write_all(text)
    }

    #[cfg(not(unix))]
    fn put_kept(&self, stage: &Path, old: &Path, rel: &str, _name: &str, text: &[u8]) -> std::io::Result<()> {
        stage_file(stage, old, rel, text, &self.creating)
    }
}

/// Whether the open file `file` is a regular file holding `text` (as [`stage_file`] asks of
/// the old file: a symbolic link was not followed), read with no more system calls than
/// needed (`read_to_end` asks for the size again).
#[cfg(unix)]
fn same_content(file: &mut std::fs::File, text: &[u8]) -> bool {
    use std::io::Read;
    if !file.metadata().is_ok_and(|m| m.is_file() && m.len() == text.len() as u64) {
        return false;
    }
    // One byte more than `text`: a file grown since is not the same.
    let mut bytes = vec![0u8; text.len() + 1];
    let mut filled = 0;
    loop {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if filled == bytes.len() {
                    return false;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    bytes[..filled] == *text
}

/// Calls `f` with `name` as a NUL-terminated string (on the stack when it is short).
#[cfg(unix)]
fn with_c_name<R>(name: &str, f: impl FnOnce(*const libc::c_char) -> std::io::Result<R>) -> std::io::Result<R> {
    let mut buf = [0u8; 256];
    match buf.get_mut(..=name.len()) {
        Some(room) if !name.as_bytes().contains(&0) => {
            room[..name.len()].copy_from_slice(name.as_bytes());
            room[name.len()] = 0;
            f(room.as_ptr().cast())
        }
        // Long, or with a NUL byte (the error `CString::new` gives).
        _ => {
            let c_name = std::ffi::CString::new(name)?;
            f(c_name.as_ptr())
        }
    }
}

/// Opens the entry `name` of the directory `dir` with `flags` (a new file gets the
/// permissions std's `create_new` gives, less the umask).
#[cfg(unix)]
fn open_at(dir: &std::fs::File, name: &str, flags: libc::c_int) -> std::io::Result<std::fs::File> {
    use std::os::unix::io::{AsRawFd, FromRawFd};
    let mode: libc::c_uint = 0o666;
    let fd = with_c_name(name, |c_name| {
        // SAFETY: `dir` is an open directory and `c_name` a NUL-terminated string that
        // outlives the call; openat touches no other memory.
        Ok(unsafe { libc::openat(dir.as_raw_fd(), c_name, flags, mode) })
    })?;
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// Links into the staging directory every entry of the old directory under `rel` that the
/// new set does not replace and that plc did not write: the user's files. `key` is `rel` as
/// the manifests name it (`/` between the names, empty or ending in `/`); `new_paths` is
/// sorted.
fn carry_over(
    old: &Path,
    stage: &Path,
    rel: &Path,
    key: &str,
    new_paths: &[&str],
    old_manifest: &FxHashSet<&str>,
) -> Result<(), FileError> {
    let dir = old.join(rel);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) => return Err(FileError::new(FileOp::Read, dir, e)),
    };
    // Each entry's key made in one buffer: most entries are the old set's, passed over.
    let mut entry_key = String::with_capacity(key.len() + 64);
    for entry in entries {
        let entry = entry.map_err(|e| FileError::new(FileOp::Read, &dir, e))?;
        let file_name = entry.file_name();
        let Some(name) = file_name.to_str() else { continue };
        entry_key.clear();
        entry_key.push_str(key);
        entry_key.extend(name.chars().map(|c| if c == '\\' { '/' } else { c }));
        let k = entry_key.as_str();
        if k == MANIFEST || new_paths.binary_search(&k).is_ok() || old_manifest.contains(k) {
            continue;
        }
        let entry_rel = rel.join(&file_name);
        let from = entry.path();
        let to = stage.join(&entry_rel);
        let file_type = entry.file_type().map_err(|e| FileError::new(FileOp::Read, &from, e))?;
        if file_type.is_dir() {
            if !to.exists() {
                std::fs::create_dir(&to).map_err(|e| FileError::new(FileOp::CreateDirectory, &to, e))?;
                if let Ok(meta) = std::fs::metadata(&from) {
                    let _ = std::fs::set_permissions(&to, meta.permissions());
                }
            } else if !to.is_dir() {
                // The new set has a file where the old directory was: the new file wins.
                continue;
            }
            let sub_key = [k, "/"].concat();
            carry_over(old, stage, &entry_rel, &sub_key, new_paths, old_manifest)?;
            continue;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| FileError::new(FileOp::CreateDirectory, parent, e))?;
        }
        keep_entry(&from, &to, file_type.is_symlink()).map_err(|e| FileError::new(FileOp::Write, &from, e))?;
    }
    Ok(())
}

/// Puts an entry of the old directory into the new one: a hard link (the same file, its
/// time and permissions), a copy of a symbolic link, or a copy of the file when links
/// are not possible.
fn keep_entry(from: &Path, to: &Path, symlink: bool) -> std::io::Result<()> {
    if symlink {
        #[cfg(unix)]
        return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
    }
    match std::fs::hard_link(from, to) {
        Ok(()) => Ok(()),
        Err(_) => std::fs::copy(from, to).map(|_| ()),
    }
}

/// Removes what killed runs left beside the directory (only ever called under the lock,
/// so no live run is staging there).
fn remove_leftovers(parent: &Path, name: &str) {
    let stage = format!(".{name}.plc-stage-");
    let old = format!(".{name}.plc-old-");
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(n) = file_name.to_str() else { continue };
        if n.starts_with(&stage) || n.starts_with(&old) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Puts the staging directory in the place of the output directory. Afterwards the
/// staging path holds the old set (after an exchange) or nothing.
fn swap(stage: &Path, real: &Path, parent: &Path, name: &str) -> Result<(), FileError> {
    if exchange(stage, real).is_ok() {
        return Ok(());
    }
    let rename_error = |from: &Path, to: &Path, e| FileError::new(FileOp::Rename { to: to.to_path_buf() }, from, e);
    let holder = tempfile::Builder::new()
        .prefix(&format!(".{name}.plc-old-"))
        .rand_bytes(12)
        .tempdir_in(parent)
        .map_err(|e| FileError::new(FileOp::CreateDirectory, parent.join(format!(".{name}.plc-old-*")), e))?
        .keep();
    let old = holder.join("old");
    std::fs::rename(real, &old).map_err(|e| {
        let _ = std::fs::remove_dir(&holder);
        rename_error(real, &old, e)
    })?;
    if let Err(e) = std::fs::rename(stage, real) {
        let _ = std::fs::rename(&old, real);
        let _ = std::fs::remove_dir_all(&holder);
        return Err(rename_error(stage, real, e));
    }
    let _ = std::fs::remove_dir_all(&holder);
    Ok(())
}

/// Exchanges two directories atomically (Linux): a reader sees one or the other, never
/// neither.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let a = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let b = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both paths are NUL-terminated strings that outlive the call; renameat2 reads
    // them and touches no other memory.
    let status = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// Takes the lock of an output directory, waiting for another run to finish. The lock
/// file is never followed if it is a symbolic link.
#[cfg(unix)]
fn lock(path: &Path) -> Result<std::fs::File, FileError> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    let lock_error = |e| FileError::new(FileOp::Lock, path, e);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(lock_error)?;
    loop {
        // SAFETY: flock on a file descriptor this function owns (through `file`).
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(file);
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(lock_error(error));
        }
    }
}

#[cfg(not(unix))]
fn lock(path: &Path) -> Result<std::fs::File, FileError> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| FileError::new(FileOp::Lock, path, e))
}

#[cfg(test)]
mod tests {
    use super::sorted;

    #[test]
    fn sorted_halves_merge_into_one_order() {
        for list in [
            vec![],
            vec!["b"],
            vec!["b", "a"],
            vec!["k/b", "o/a", "k/a", "o/a", "rt", "k/c", "a"],
            vec!["o/e_10", "o/e_9", "o/e_1", "k/x", "k/a", "kernel_config.json"],
        ] {
            let mut expected = list.clone();
            expected.sort_unstable();
            let mut rels = list.clone();
            assert_eq!(sorted(&mut rels), expected, "{list:?}");
        }
    }
}
