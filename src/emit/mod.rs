//! The C++ backend: `plc compile` turns the program after the whole pipeline into C++
//! that builds and runs on any machine with a C++17 compiler.
//!
//! - `orchestration`: each Orchestration function as `orchestration/<entry>.cpp`, with the
//!   Graph functions it launches emitted once each, keyed by name.
//! - `kernel`: each device function (InCore, AIC, AIV, Group, Spmd) as
//!   `kernels/<name>.cpp` over the CPU tile library.
//! - `runtime`: the CPU reference runtime and tile library headers, written to `runtime/`.
//! - `assembly`: which assemblies in orchestration code the runtime writes (the rest are
//!   E0623, at `plc compile` and `plc run`).

pub mod assembly;
mod config;
pub(crate) mod cpp;
pub(crate) mod harness;
pub mod kernel;
pub(crate) mod orchestration;
pub mod pto;
pub(crate) mod publish;
pub(crate) mod py_arith;
pub(crate) mod result_shape;
pub mod runtime;
pub(crate) mod simpler;

use crate::diag::Span;
use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::{FuncKind, Program};
use crate::source::{FileError, FileId};
use rayon::prelude::*;

/// What `plc compile` was asked for.
#[derive(Default)]
pub struct Options {
    /// Only this Orchestration function (default: every one).
    pub entry: Option<String>,
    /// Also write `harness/main.cpp` and `build.sh` (`run.sh` for a2a3sim).
    pub harness: Option<Harness>,
    /// The runtime the output runs on.
    pub target: Target,
    /// The form of the kernels (`--kernels`; PTO-ISA only for a2a3sim).
    pub kernels: KernelForm,
}

/// The form of the kernels (`--kernels`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KernelForm {
    /// Plain C++ over plc's CPU tile library (the default).
    #[default]
    Cpu,
    /// PTO-ISA instructions over tiles in on-chip memory (see [`pto`]; a2a3sim only).
    PtoIsa,
}

/// The runtime `plc compile`'s output is for (`--target`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// plc's own CPU runtime, written to `runtime/` (the default).
    #[default]
    Cpu,
    /// simpler's CPU simulation platform a2a3sim, `host_build_graph` runtime (see [`simpler`]).
    A2a3Sim,
}

/// The inputs the harness makes: the same as `plc run` with the same values.
#[derive(Default)]
pub struct Harness {
    pub seed: u64,
    /// `--arg NAME=VALUE`, as given.
    pub args: Vec<(String, String)>,
}

/// The files of one compilation, relative to the output directory, in a fixed order.
pub type Files = Vec<(String, String)>;

/// Where [`compile_into`] puts each file as soon as it is emitted (from any thread; the
/// kernels are emitted in parallel). It gives the text back when it keeps the files in
/// memory, nothing when it wrote it.
pub trait Sink: Sync {
    fn put(&self, rel: &str, text: String) -> Result<Option<String>, FileError>;

    /// A file whose text `write` writes in pieces, as it makes them (a large file, so that
    /// it need not be whole in memory). By default the pieces are gathered and [`Sink::put`].
    fn put_written(&self, rel: &str, write: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>) -> Taken {
        let mut bytes = Vec::new();
        // Writing into a `Vec` fails only on the writer's own errors (none here).
        let _ = write(&mut bytes);
        self.put(rel, String::from_utf8(bytes).unwrap_or_default())
    }
}

/// Why [`compile_into`] failed: the program's errors (nothing is published), or a file that
/// could not be written (the first one in the files' order).
pub enum Failure {
    Errors(Vec<Diagnostic>),
    Io(FileError),
}

/// The files kept in memory, each without the spare capacity its `String` grew (up to as
/// much again as its length), given back as soon as the file is emitted so that the next
/// files reuse it.
struct InMemory;

impl Sink for InMemory {
    fn put(&self, _: &str, mut text: String) -> Result<Option<String>, FileError> {
        text.shrink_to_fit();
        Ok(Some(text))
    }
}

/// Writes each file into a [`publish::Publication`] as soon as it is emitted, so that the
/// output is never whole in memory (docs/performance.md). The publication begins with the
/// first file: a program whose errors are found before it (no Orchestration function)
/// touches no directory.
pub struct Publisher {
    dir: std::path::PathBuf,
    /// Begun by the first file; a failure to begin is every file's failure.
    publication: std::sync::OnceLock<Result<publish::Publication, FileError>>,
}

impl Publisher {
    /// A publication into `dir`, not begun yet.
    pub fn new(dir: &std::path::Path) -> Publisher {
        Publisher { dir: dir.to_path_buf(), publication: Default::default() }
    }

    /// The publication, begun by the first file (of whichever thread); when it could not
    /// begin, the same error for every file, whichever asks first.
    fn publication(&self) -> Result<&publish::Publication, FileError> {
        match self.publication.get_or_init(|| publish::Publication::begin(&self.dir)) {
            Ok(p) => Ok(p),
            Err(e) => {
                let error = match e.error.raw_os_error() {
                    Some(code) => std::io::Error::from_raw_os_error(code),
                    None => std::io::Error::new(e.error.kind(), e.error.to_string()),
                };
                Err(FileError::new(e.op.clone(), e.path.clone(), error))
            }
        }
    }

    /// Publishes the files written, `rels`, as one set (see [`publish`]).
    pub fn finish(self, rels: &[String]) -> Result<(), FileError> {
        self.publication()?;
        let rels: Vec<&str> = rels.iter().map(String::as_str).collect();
        match self.publication.into_inner() {
            Some(Ok(p)) => p.finish(rels),
            _ => Ok(()),
        }
    }
}

impl Sink for Publisher {
    fn put(&self, rel: &str, text: String) -> Result<Option<String>, FileError> {
        self.publication()?.put(rel, &text).map(|()| None)
    }

    fn put_written(&self, rel: &str, write: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>) -> Taken {
        self.publication()?.put_written(rel, write).map(|()| None)
    }
}

/// What a [`Sink`] did with a file.
type Taken = Result<Option<String>, FileError>;

/// The files handed to a [`Sink`] so far, in order, and the first write that failed.
struct Out<'a> {
    sink: &'a dyn Sink,
    files: Vec<(String, Option<String>)>,
    failed: Option<FileError>,
}

impl<'a> Out<'a> {
    fn new(sink: &'a dyn Sink) -> Out<'a> {
        Out { sink, files: Vec::new(), failed: None }
    }

    fn put(&mut self, rel: String, text: String) {
        let result = self.sink.put(&rel, text);
        self.took(rel, result);
    }

    /// A file written in pieces (see [`Sink::put_written`]).
    fn put_written(&mut self, rel: &str, mut write: impl FnMut(&mut dyn std::io::Write) -> std::io::Result<()>) {
        let result = self.sink.put_written(rel, &mut write);
        self.took(rel.to_string(), result);
    }

    /// The files of `later` after this one's (the first failure in that order).
    fn append(&mut self, later: Out<'_>) {
        self.files.extend(later.files);
        if self.failed.is_none() {
            self.failed = later.failed;
        }
    }

    /// Records a file the sink took (or failed to).
    fn took(&mut self, rel: String, result: Result<Option<String>, FileError>) {
        match result {
            Ok(kept) => self.files.push((rel, kept)),
            Err(e) => {
                self.failed.get_or_insert(e);
                self.files.push((rel, None));
            }
        }
    }
}

/// The items a job of [`pipeline`] makes at most: a chunk is split into many jobs (rayon
/// splits a slice into about two per thread unless they are stolen), so that the thread
/// that takes a chunk, done, finds some left to make.
const PIPELINE_JOB: usize = 4;

/// Makes the items' files in chunks of `chunk`, each chunk in parallel (rayon, `make`), and
/// hands each chunk's results to `take` in the items' order, one chunk at a time, while the
/// next chunk is made: `take` (which writes the files) runs on one thread at a time, so
/// that no two threads create files in one directory at once (the kernel creates a
/// directory's entries one at a time: a second thread would wait), and the thread that
/// takes a chunk helps make the next one when it is done. The same results, in the same
/// order, as a serial run's.
fn pipeline<T: Sync, R: Send>(
    items: &[T],
    chunk: usize,
    make: impl Fn(&T) -> R + Sync,
    mut take: impl FnMut(&[T], Vec<R>) + Send,
) {
    let mut made: Option<(&[T], Vec<R>)> = None;
    let mut chunks = items.chunks(chunk);
    loop {
        let next = chunks.next();
        if next.is_none() && made.is_none() {
            return;
        }
        let (next_made, ()) = rayon::join(
            || next.map(|c| c.par_iter().with_max_len(PIPELINE_JOB).map(&make).collect::<Vec<R>>()),
            || {
                if let Some((c, results)) = made.take() {
                    take(c, results);
                }
            },
        );
        made = next.zip(next_made);
    }
}

/// Emits the C++ for the programs (after the whole pipeline), the files in memory.
pub fn compile(programs: &[Program], names: &Interner, root: FileId, opts: &Options) -> Result<Files, Vec<Diagnostic>> {
    match emit_files(programs, names, root, opts, &InMemory) {
        Ok(files) => Ok(files.into_iter().map(|(rel, text)| (rel, text.unwrap_or_default())).collect()),
        Err(Failure::Errors(errors)) => Err(errors),
        // InMemory never fails.
        Err(Failure::Io(_)) => Ok(Files::new()),
    }
}

/// Emits the C++ for the programs into `sink`, each file as soon as it is made, and returns
/// the files' paths in order. The program's errors take precedence over a failed write.
pub fn compile_into(
    programs: &[Program],
    names: &Interner,
    root: FileId,
    opts: &Options,
    sink: &dyn Sink,
) -> Result<Vec<String>, Failure> {
    emit_files(programs, names, root, opts, sink).map(|files| files.into_iter().map(|(rel, _)| rel).collect())
}

fn emit_files(
    programs: &[Program],
    names: &Interner,
    root: FileId,
    opts: &Options,
    sink: &dyn Sink,
) -> Result<Vec<(String, Option<String>)>, Failure> {
    let mut entries: Vec<(usize, Symbol)> = Vec::new();
    for (i, p) in programs.iter().enumerate() {
        for f in p.functions.values() {
            let wanted = opts.entry.as_deref().is_none_or(|e| p.is_entry(f.name, names, e));
            if f.decl.kind == FuncKind::Orchestration && wanted {
                entries.push((i, f.name));
            }
        }
    }
    let nowhere = || Label::primary(root, Span::new(0, 0), "in this program");
    if entries.is_empty() {
        let message = match &opts.entry {
            Some(e) => format!("there is no Orchestration function `{e}` to compile"),
            None => "the program has no Orchestration function to compile".to_string(),
        };
        return Err(Failure::Errors(vec![Diagnostic::error(Code::E0616, message, nowhere()).with_help(
            "an Opaque function becomes Orchestration when it holds a `pl.at(level=pl.Level.CORE_GROUP)` region; `@pl.jit` functions are Orchestration".to_string(),
        )]));
    }
    let program = entries[0].0;
    if entries.iter().any(|&(i, _)| i != program) {
        return Err(Failure::Errors(vec![Diagnostic::error(
            Code::E0616,
            "Orchestration functions in several programs (module-level functions and a `@pl.program` class, or two classes): choose one with `--entry`".to_string(),
            nowhere(),
        )]));
    }
    let p = &programs[program];
    let mut shared = orchestration::Shared::default();
    shared.split_mixed = opts.target == Target::A2a3Sim && opts.kernels == KernelForm::PtoIsa;
    // With `--entry`, only the device functions that entry reaches: another entry's kernel
    // (one with no CPU form, say) does not stop this one.
    let reached = opts.entry.as_ref().map(|_| {
        let roots: Vec<Symbol> = entries.iter().map(|&(_, e)| e).collect();
        crate::ir::visit::reachable_functions(p, &roots)
    });
    // The kernels read the program only: most of them are emitted beside the orchestration
    // files (which number them), the rest beside the files made from that numbering (the
    // AIC halves, the runtime, kernel_config.json, the kernel table), so that the serial
    // writing of those leaves no thread idle. The files and errors are taken in the serial
    // order: the entries', then the kernels', then the rest; an entry's errors are the only
    // ones reported.
    let kernels = kernel_list(p, reached.as_ref());
    let (early, late) = kernels.split_at(kernels.len() - kernels.len() / LATE_KERNELS);
    let kernels_of = |list: &[Symbol]| {
        let mut out = Out::new(sink);
        let mut errors = Vec::new();
        emit_kernels(p, names, opts, list, &mut out, &mut errors);
        (out, errors)
    };
    let ((mut out, entry_errors), (early_out, mut errors)) = rayon::join(
        || {
            let mut out = Out::new(sink);
            let mut errors = Vec::new();
            emit_entries(p, names, &entries, &mut shared, &mut out, &mut errors);
            (out, errors)
        },
        || kernels_of(early),
    );
    if !entry_errors.is_empty() {
        return Err(Failure::Errors(entry_errors));
    }
    let ((rest, aic_errors), (late_out, late_errors)) =
        rayon::join(|| emit_rest(p, names, &entries, &shared, opts, sink), || kernels_of(late));
    errors.extend(late_errors);
    errors.extend(aic_errors);
    if !errors.is_empty() {
        return Err(Failure::Errors(errors));
    }
    out.append(early_out);
    out.append(late_out);
    out.append(rest);
    if let Some(h) = &opts.harness {
        harness_files(p, names, root, &entries, h, opts, &mut out)?;
    }
    match out.failed {
        Some(e) => Err(Failure::Io(e)),
        None => Ok(out.files),
    }
}

/// The files after the kernels': the AIC half of each mixed Group launched as a mixed task
/// (its AIV half is its kernel), the runtime, `kernel_config.json` and the kernel table;
/// and the errors of the AIC halves.
fn emit_rest<'a>(
    p: &Program,
    names: &Interner,
    entries: &[(usize, Symbol)],
    shared: &orchestration::Shared,
    opts: &Options,
    sink: &'a dyn Sink,
) -> (Out<'a>, Vec<Diagnostic>) {
    let mut out = Out::new(sink);
    let mut errors = Vec::new();
    for &g in shared.aic_halves.keys() {
        match pto::aic_half(p, names, g) {
            Ok(code) => out.put(pto::aic_half_file(names, g), code),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return (out, errors);
    }
    if opts.target == Target::Cpu {
        for (name, text) in runtime::RUNTIME_FILES {
            out.put(format!("runtime/{name}"), text.to_string());
        }
    }
    out.put_written("kernel_config.json", |w| config::kernel_config(p, names, entries, shared, opts, w));
    if opts.target == Target::Cpu {
        out.put_written("kernels/kernel_table.cpp", |w| kernel_table(names, shared, w));
    }
    (out, errors)
}

/// The entries emitted in parallel at a time (their files are held until they are
/// renumbered and handed to the sink).
const ENTRY_BATCH: usize = 128;

/// The kernels emitted in parallel at a time (their files are held until they are handed
/// to the sink).
const KERNEL_BATCH: usize = 64;

/// One kernel in this many is emitted after the orchestration files, beside
/// kernel_config.json (which costs about what a twelfth of the kernels do): the rest beside
/// the orchestration files.
const LATE_KERNELS: usize = 8;

/// Every entry's file, `orchestration/<entry>.cpp`, handed to the sink in the entries'
/// order, and their errors; the files are the same as a serial run's. The kernels' func_ids
/// are numbered across the files in first-use order, so each file is emitted (in parallel,
/// a batch at a time) with a numbering of its own ([`orchestration::Shared::per_file`]);
/// then, in the entries' order, its numbering joins the program's
/// ([`orchestration::Shared::merge`]), its ids are replaced by the program's and it goes to
/// the sink, beside the emitting of the next batch ([`pipeline`]).
fn emit_entries(
    p: &Program,
    names: &Interner,
    entries: &[(usize, Symbol)],
    shared: &mut orchestration::Shared,
    out: &mut Out,
    errors: &mut Vec<Diagnostic>,
) {
    let split_mixed = shared.split_mixed;
    let make = |&(_, e): &(usize, Symbol)| {
        let mut file = orchestration::Shared::per_file(split_mixed);
        let code = orchestration::emit_entry(p, names, e, &mut file);
        (code, file)
    };
    let take = |batch: &[(usize, Symbol)], emitted: Vec<(Result<String, Vec<Diagnostic>>, orchestration::Shared)>| {
        let mut ready = Vec::new();
        for ((code, file), &(_, e)) in emitted.into_iter().zip(batch) {
            let placeholders = file.placeholders();
            let ids = shared.merge(file);
            match code {
                Ok(code) if errors.is_empty() => ready.push((e, code, ids, placeholders)),
                Ok(_) => {}
                Err(d) => errors.extend(d),
            }
        }
        for (e, code, ids, placeholders) in ready {
            let code = match orchestration::Shared::renumber(&code, &ids, placeholders) {
                Some(code) => code,
                // Never (see `per_file`): emitted again with the program's numbering.
                None => match orchestration::emit_entry(p, names, e, &mut shared.numbered()) {
                    Ok(code) => code,
                    Err(d) => {
                        errors.extend(d);
                        continue;
                    }
                },
            };
            out.put(entry_file(names, e), code);
        }
    };
    pipeline(entries, ENTRY_BATCH, make, take);
}

/// The files of the kernels `kernels` (see [`kernel_list`]). Each kernel reads the program
/// only, so they are emitted in parallel (rayon, as many threads as cores,
/// `RAYON_NUM_THREADS` to choose), a batch at a time, and handed to the sink in program
/// order beside the emitting of the next batch ([`pipeline`]): the files and the errors are
/// the same, in the same order, as a serial run's.
fn emit_kernels(
    p: &Program,
    names: &Interner,
    opts: &Options,
    kernels: &[Symbol],
    out: &mut Out,
    errors: &mut Vec<Diagnostic>,
) {
    let emit = |&name: &Symbol| {
        // An external kernel's file is its C++ source, passed through as it is.
        if let Some(path) = &p.functions[&name].decl.external_source {
            let code =
                std::fs::read_to_string(path).map_err(|e| vec![external_unreadable(p, names, name, path, &e)])?;
            return Ok((kernel::kernel_file(names, name), code));
        }
        let code = match (opts.target, opts.kernels) {
            (Target::Cpu, _) => kernel::emit_kernel(p, names, name),
            (Target::A2a3Sim, KernelForm::Cpu) => simpler::kernel(p, names, name),
            (Target::A2a3Sim, KernelForm::PtoIsa) => pto::kernel(p, names, name),
        }
        .map_err(|d| vec![d])?;
        Ok((kernel::kernel_file(names, name), code))
    };
    let take = |_: &[Symbol], emitted: Vec<Result<(String, String), Vec<Diagnostic>>>| {
        for e in emitted {
            match e {
                Ok((rel, code)) => out.put(rel, code),
                Err(d) => errors.extend(d),
            }
        }
    };
    pipeline(kernels, KERNEL_BATCH, emit, take);
}

/// The device functions with a file of their own (of those in `reached`, when given): the
/// launched kernels and the kernels wrappers call, in program order.
fn kernel_list(p: &Program, reached: Option<&rustc_hash::FxHashSet<Symbol>>) -> Vec<Symbol> {
    p.functions
        .values()
        .filter(|f| f.decl.kind.is_device_kernel() && reached.is_none_or(|r| r.contains(&f.name)))
        // A Group of two external kernels has no code of its own: its members' files are
        // the task's.
        .filter(|f| crate::ir::group::external_pair(p, f.name).is_none())
        .map(|f| f.name)
        .collect()
}

/// E0602 for an external kernel whose C++ file cannot be read at emit time.
fn external_unreadable(p: &Program, names: &Interner, k: Symbol, path: &str, e: &std::io::Error) -> Diagnostic {
    let f = &p.functions[&k];
    Diagnostic::error(
        Code::E0602,
        format!("cannot read `{path}`, the C++ source of the external kernel `{}`: {e}", names.get(k)),
        Label::primary(f.loc.file, f.loc.span, "external kernel"),
    )
}

/// The harness's files (`--harness`): for one entry only.
fn harness_files(
    p: &Program,
    names: &Interner,
    root: FileId,
    entries: &[(usize, Symbol)],
    h: &Harness,
    opts: &Options,
    out: &mut Out,
) -> Result<(), Failure> {
    if entries.len() != 1 {
        return Err(Failure::Errors(vec![Diagnostic::error(
            Code::E0616,
            "the harness runs one entry, and the program has several Orchestration functions: choose one with `--entry`"
                .to_string(),
            Label::primary(root, Span::new(0, 0), "in this program"),
        )]));
    }
    let entry = entries[0].1;
    let inputs = harness::inputs(p, names, entry, h, root).map_err(Failure::Errors)?;
    if opts.target == Target::A2a3Sim {
        for (rel, text) in simpler::harness(names, entry, &inputs, h) {
            out.put(rel, text);
        }
        return Ok(());
    }
    // The runtime's own sources are compiled by build.sh's loop over runtime/.
    let mut sources: Vec<String> = out
        .files
        .iter()
        .map(|(rel, _)| rel.clone())
        .filter(|rel| rel.ends_with(".cpp") && !rel.starts_with("runtime/"))
        .collect();
    sources.sort();
    for (rel, text) in harness::harness(&inputs, h, &sources) {
        out.put(rel, text);
    }
    Ok(())
}

/// The file of an Orchestration function, `orchestration/<stem>.cpp` (a long or unsafe
/// name gets its [`cpp::stable_name`]).
fn entry_file(names: &Interner, e: Symbol) -> String {
    cpp::cat(&["orchestration/", &cpp::stable_file_stem(names.get(e), &[]), ".cpp"])
}

/// Publishes the files into `dir` as one set: a reader of `dir` sees the old set or the
/// new one, never a mix, and a failure leaves `dir` as it was (see [`publish`]). Files
/// in `dir` that plc did not write are kept. A failure names the operation and the file
/// it failed on.
pub fn write_files(dir: &std::path::Path, files: &Files) -> Result<(), crate::source::FileError> {
    publish::publish(dir, files)
}

/// `kernels/kernel_table.cpp`: the kernels by func_id, for the CPU runtime's dispatch,
/// written into `w` line by line.
fn kernel_table(names: &Interner, shared: &orchestration::Shared, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    w.write_all(b"// The kernels by func_id (see kernel_config.json).\n// Generated by plc\n\n")?;
    w.write_all(b"#include <stdint.h>\n\nextern \"C\" {\n\n")?;
    w.write_all(b"typedef void (*plc_kernel_fn)(int64_t*);\n")?;
    // Each kernel's symbol made once, for both lists.
    let symbols: Vec<String> = shared.func_ids.keys().map(|k| kernel::kernel_symbol(names, *k)).collect();
    for symbol in &symbols {
        for part in ["void ", symbol, "(int64_t* args);\n"] {
            w.write_all(part.as_bytes())?;
        }
    }
    w.write_all(b"\nextern const plc_kernel_fn plc_kernel_table[];\nextern const int plc_kernel_count;\n")?;
    if shared.func_ids.is_empty() {
        w.write_all(b"const plc_kernel_fn plc_kernel_table[] = {nullptr};\nconst int plc_kernel_count = 0;\n")?;
    } else {
        w.write_all(b"const plc_kernel_fn plc_kernel_table[] = {\n")?;
        for symbol in &symbols {
            for part in ["    &", symbol, ",\n"] {
                w.write_all(part.as_bytes())?;
            }
        }
        w.write_all(b"};\n")?;
        let count = cpp::Digits::new(shared.func_ids.len() as u64);
        for part in ["const int plc_kernel_count = ", count.as_str(), ";\n"] {
            w.write_all(part.as_bytes())?;
        }
    }
    w.write_all(b"\n}  // extern \"C\"\n")
}
