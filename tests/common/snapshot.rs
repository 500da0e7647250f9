//! Expected-output files and blessing: the one rule for every test that compares plc's
//! output with files in the repository (`tests/cases.rs`, `tests/compile.rs`).
//!
//! A test makes a [`Snapshots`], calls [`Snapshots::check`] for each output it produced
//! (or must not produce), [`Snapshots::check_no_others`] for a folder whose files it owns,
//! and ends with [`Snapshots::finish`]. Normally nothing is written: a differing file fails
//! with a unified diff, a missing one fails, a stale one (an output that is no longer
//! produced) fails. With `PLC_BLESS` set to anything but `0`, the same calls make
//! the files what the test produced instead: they write changed files, create missing
//! ones (and their folders) and delete stale ones. Read the diff before committing them;
//! CI fails when the tests change a file.
//!
//! The expected outputs of an example `examples/P.pl` live in `tests/snapshots/P/`
//! ([`snapshot_dir`]), so that `examples/` shows only programs; those of the cases under
//! `tests/cases/` sit beside them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Whether this run blesses (writes expected files) instead of comparing: `PLC_BLESS` set
/// to anything but `0`.
pub fn blessing() -> bool {
    std::env::var_os("PLC_BLESS").is_some_and(|v| v != "0")
}

/// The crate root, against which relative paths are resolved and shown.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of the expected outputs of the example `examples/P.pl` (relative to the
/// crate root, or absolute): `tests/snapshots/P/`. A package's files each have their own,
/// under the package's: `examples/decoder_package/kernels/mlp.pl` →
/// `tests/snapshots/decoder_package/kernels/mlp/`.
pub fn snapshot_dir(example: &Path) -> PathBuf {
    let relative = example.strip_prefix(root()).unwrap_or(example);
    let inside =
        relative.strip_prefix("examples").unwrap_or_else(|_| panic!("{} is not under examples/", example.display()));
    root().join("tests/snapshots").join(inside.with_extension(""))
}

/// The expected files one test compares, and what went wrong.
pub struct Snapshots {
    bless: bool,
    checked: BTreeSet<PathBuf>,
    failures: Vec<String>,
}

impl Snapshots {
    pub fn new() -> Snapshots {
        Snapshots { bless: blessing(), checked: BTreeSet::new(), failures: Vec::new() }
    }

    /// Compares `actual` with the file at `path`; `None` means the file must not exist.
    /// When blessing, writes the file (creating its folder) or deletes it instead.
    pub fn check(&mut self, path: &Path, actual: Option<&str>) {
        self.checked.insert(path.to_path_buf());
        let existing = match std::fs::read(path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => panic!("cannot read {}: {e}", shown(path)),
        };
        if existing.as_deref() == actual.map(str::as_bytes) {
            return;
        }
        if self.bless {
            match actual {
                Some(text) => {
                    if let Some(dir) = path.parent() {
                        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", shown(dir)));
                    }
                    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", shown(path)));
                }
                None => remove(path),
            }
            return;
        }
        let old = existing.as_deref().map(String::from_utf8_lossy);
        self.failures.push(match (old.as_deref(), actual) {
            (Some(_), None) => format!("{} is stale: the test produces no such output", shown(path)),
            (None, Some(new)) => format!("{} is missing; it would hold:\n{}", shown(path), diff("", new, "(missing)")),
            (Some(old), Some(new)) => format!("{} differs:\n{}", shown(path), diff(old, new, "expected")),
            (None, None) => unreachable!("equal above"),
        });
    }

    /// Every file directly inside `dir` for which `owned` holds must have been checked:
    /// any other is stale (deleted when blessing). A test calls this for a folder whose
    /// files it produces, after checking each file it expects there.
    pub fn check_no_others(&mut self, dir: &Path, owned: impl Fn(&Path) -> bool) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut stale: Vec<PathBuf> = entries
            .map(|e| e.unwrap_or_else(|e| panic!("cannot list {}: {e}", shown(dir))).path())
            .filter(|p| p.is_file() && owned(p) && !self.checked.contains(p))
            .collect();
        stale.sort();
        for path in stale {
            self.check(&path, None);
        }
    }

    /// Succeeds when every file matched (or was blessed); otherwise lists each failure,
    /// with its diff, and how to accept the new output.
    pub fn finish(self) -> Result<(), String> {
        if self.failures.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{}\nif the new output is right, rerun with PLC_BLESS=1 cargo test --test {} and read the diff",
            self.failures.join("\n"),
            env!("CARGO_CRATE_NAME")
        ))
    }
}

/// Deletes a stale file, and the folders it leaves empty (as blessing the removal of an
/// example leaves nothing behind).
fn remove(path: &Path) {
    std::fs::remove_file(path).unwrap_or_else(|e| panic!("cannot delete {}: {e}", shown(path)));
    let mut dir = path.parent();
    while let Some(d) = dir {
        // Fails, and stops, at the first folder that still holds something.
        if d == root() || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

fn diff(old: &str, new: &str, old_name: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().context_radius(2).header(old_name, "actual").to_string()
}

/// A path as the messages show it: relative to the crate root.
fn shown(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}
