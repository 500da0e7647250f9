//! The one way through the compiler: plan the pipeline, read the root file, lower it with
//! every file it imports, and run the passes. The CLI, the language server, the tests and
//! the benchmarks all call [`compile`]; what they do afterwards (print the IR, emit C++,
//! interpret, publish diagnostics) is theirs.
//!
//! ```text
//! let c = driver::compile(Input::file("prog.pl"), &PipelineSpec::default(), StopAt::End)?;
//! // c.session (files + names), c.root, c.programs, c.diags (sorted), c.timings
//! ```
//!
//! The rules every caller gets:
//! - the pipeline (and the `--after` stop point) is checked before any file is read; a
//!   refused pipeline gives a compilation with its errors and no root file;
//! - the passes run only when lowering reported no error, and nothing runs after a pass
//!   that reported one;
//! - with `verify`, each pass's result is re-checked (the verifier and the properties the
//!   pass produces) before the next pass runs.
//!
//! A caller that needs the IR between passes (the example tests print it after each)
//! compiles with [`StopAt::Lower`] and then calls [`Compilation::step`] once per pass.

use crate::diag::{self, Diagnostic};
use crate::ir::Program;
use crate::passes::{self, PassDef, Pipeline};
use crate::session::Session;
use crate::source::{FileError, FileId, FileOp};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The root file of a program.
pub enum Input {
    /// A file on disk, read by the driver. Relative imports resolve from its directory.
    File(PathBuf),
    /// Text held in memory (a test's source, an editor's buffer): the name diagnostics
    /// show, the bytes, and the file the text stands for, if any, from whose directory
    /// relative imports resolve (without one, a relative import is an error).
    Text { name: String, bytes: Vec<u8>, path: Option<PathBuf> },
}

impl Input {
    pub fn file(path: impl Into<PathBuf>) -> Input {
        Input::File(path.into())
    }

    /// Text with no file behind it.
    pub fn text(name: impl Into<String>, text: impl Into<Vec<u8>>) -> Input {
        Input::Text { name: name.into(), bytes: text.into(), path: None }
    }
}

/// Which passes run, and whether each one's result is re-checked.
#[derive(Clone, Debug, Default)]
pub struct PipelineSpec {
    /// `--passes`: pass names separated by commas, checked before anything runs (E0403,
    /// E0404, shown against this text as the file `<pipeline>`). `None`: the default
    /// pipeline, every pass of [`passes::PASSES`] in order.
    pub passes: Option<String>,
    /// `--verify`: after each pass, the verifier and the checks of every property it
    /// produces (E07xx: a bug in plc).
    pub verify: bool,
    /// `--factory`: the call of a program factory of the root file to compile
    /// (`Build(batch=2)`, shown against this text as the file `<--factory>`). `None`: the
    /// call the file's host code makes, or the factory's defaults (`lower/factory.rs`).
    pub factory: Option<String>,
    /// `plc check`, `plc emit ir` and the language server: the checks that only the C++
    /// output needs (LegalizeGraphBoundary's E0501–E0517, what the host_build_graph
    /// runtime could not replay) are warnings, as PyPTO's parser accepts these programs
    /// and only its pass for that runtime refuses them. `false` (`plc compile`, `run`,
    /// the tests): errors.
    pub check_only: bool,
    /// `plc check`: only the diagnostics are wanted, and the programs are dropped after
    /// the pipeline. The last pass may then leave out a rewrite that no diagnostic depends
    /// on ([`passes::Mode::discarded`]); the diagnostics are the same either way.
    pub diagnostics_only: bool,
}

impl PipelineSpec {
    /// The pipeline written as text (`"InlineFunctions,ConvertToSSA"`).
    pub fn passes(text: impl Into<String>) -> PipelineSpec {
        PipelineSpec { passes: Some(text.into()), ..PipelineSpec::default() }
    }

    /// The same pipeline, with every pass's result re-checked.
    pub fn verified(self) -> PipelineSpec {
        PipelineSpec { verify: true, ..self }
    }

    /// The same pipeline, compiling the program factory call `call`.
    pub fn with_factory(self, call: Option<String>) -> PipelineSpec {
        PipelineSpec { factory: call, ..self }
    }

    /// The same pipeline as `plc check` runs it (see [`PipelineSpec::check_only`]).
    pub fn for_check(self) -> PipelineSpec {
        PipelineSpec { check_only: true, ..self }
    }

    /// The same pipeline, for its diagnostics only (see [`PipelineSpec::diagnostics_only`]).
    pub fn diagnostics_only(self) -> PipelineSpec {
        PipelineSpec { diagnostics_only: true, ..self }
    }
}

/// Where [`compile`] stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopAt {
    /// Straight after lowering: no pass runs.
    Lower,
    /// After the named pass, which must be in the pipeline (E0404 otherwise, shown
    /// against the name as the file `<--after>`).
    After(String),
    /// After the whole pipeline.
    End,
}

impl StopAt {
    /// The `--after lower|PASS` option; without it, the end of the pipeline.
    pub fn from_option(after: Option<&str>) -> StopAt {
        match after {
            None => StopAt::End,
            Some("lower") => StopAt::Lower,
            Some(pass) => StopAt::After(pass.to_string()),
        }
    }
}

/// A stage whose time [`Compilation::timings`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading, parsing and lowering the root file and every file it imports.
    Lower,
    /// The warnings about the lowered program (`lint.rs`), which run when lowering found
    /// no error (its time is lowering's).
    Lint,
    /// One pass (with its checks under `verify`).
    Pass(&'static str),
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Lower => "lower",
            Stage::Lint => "lint",
            Stage::Pass(name) => name,
        }
    }
}

/// One program compiled as far as it was asked to go.
pub struct Compilation {
    /// The files read (the pipeline's text among them, when it was given as text) and the
    /// names interned from them: what the diagnostics and the IR refer to.
    pub session: Session,
    /// The root file; `None` when the pipeline or the stop point was refused and no file
    /// was read.
    pub root: Option<FileId>,
    /// The IR: one program for the module-level functions (when there are any) and one
    /// per `@pl.program` class, after the passes that ran.
    pub programs: Vec<Program>,
    /// Every diagnostic, of every file, sorted by file, position and severity.
    pub diags: Vec<Diagnostic>,
    /// How long each stage that ran took, in order.
    pub timings: Vec<(Stage, Duration)>,
    /// What each stage that ran found, apart (each list sorted), in order: lowering, the
    /// lint (when lowering found no error), then each pass. The language server merges
    /// the stages of parts of a document as the whole would have run them.
    pub found: Vec<(Stage, Vec<Diagnostic>)>,
    pipeline: Pipeline,
    verify: bool,
    check_only: bool,
    diagnostics_only: bool,
    /// The index in `pipeline` of the pass that runs next.
    next: usize,
    /// What the pass that ran last left for the next one, per program.
    handoffs: Vec<passes::Handoff>,
}

/// Compiles a program: checks the pipeline and the stop point, reads and lowers the root
/// file and the files it imports, and runs the passes up to `stop` (none after an error).
/// The only failure is a root file that cannot be read; everything else is a diagnostic.
pub fn compile(input: Input, spec: &PipelineSpec, stop: StopAt) -> Result<Compilation, FileError> {
    let mut session = Session::new();
    let planned = match &spec.passes {
        None => Ok(Pipeline::default_pipeline()),
        Some(text) => passes::plan(&mut session.files, text),
    };
    let planned = planned.and_then(|pipeline| {
        let stop = match &stop {
            StopAt::Lower => 0,
            StopAt::After(pass) => passes::stop_index(&mut session.files, &pipeline, pass)?,
            StopAt::End => pipeline.passes.len(),
        };
        Ok((pipeline, stop))
    });
    let (pipeline, stop, diags) = match planned {
        Ok((pipeline, stop)) => (pipeline, stop, Vec::new()),
        Err(diags) => (Pipeline { passes: Vec::new() }, 0, diags),
    };
    let mut c = Compilation {
        session,
        root: None,
        programs: Vec::new(),
        diags,
        timings: Vec::new(),
        found: Vec::new(),
        pipeline,
        verify: spec.verify,
        check_only: spec.check_only,
        diagnostics_only: spec.diagnostics_only,
        next: 0,
        handoffs: Vec::new(),
    };
    if !c.diags.is_empty() {
        diag::sort(&mut c.diags);
        return Ok(c);
    }
    let started = Instant::now();
    let (root, load_error, root_path) = match input {
        Input::File(path) => match c.session.load(&path) {
            Ok((root, load_error)) => (root, load_error, Some(path)),
            Err(error) => return Err(FileError { op: FileOp::Read, path, error }),
        },
        Input::Text { name, bytes, path } => {
            let (root, load_error) = c.session.add_source(&name, bytes);
            (root, load_error, path)
        }
    };
    c.root = Some(root);
    match load_error {
        // Bytes that are not UTF-8 (or too many of them) are not parsed.
        Some(d) => c.diags.push(d),
        None => {
            let (programs, mut diags) =
                crate::lower::lower(&mut c.session, root, root_path.as_deref(), spec.factory.as_deref());
            c.found.push((Stage::Lower, diags.clone()));
            if !diag::has_errors(&diags) {
                let mut linted = Vec::new();
                crate::lint::check(&programs, &c.session.interner, &mut linted);
                diag::sort(&mut linted);
                diags.extend(linted.iter().cloned());
                diag::sort(&mut diags);
                c.found.push((Stage::Lint, linted));
            }
            (c.programs, c.diags) = (programs, diags);
        }
    }
    c.timings.push((Stage::Lower, started.elapsed()));
    c.run_to(stop);
    Ok(c)
}

impl Compilation {
    pub fn has_errors(&self) -> bool {
        diag::has_errors(&self.diags)
    }

    /// Whether a pass that ran produced `property`.
    pub fn produced(&self, property: passes::Property) -> bool {
        self.pipeline.passes[..self.next].iter().any(|p| p.produces.contains(&property))
    }

    /// The passes of the pipeline, in order.
    pub fn pipeline(&self) -> &[&'static PassDef] {
        &self.pipeline.passes
    }

    /// Runs the next pass of the pipeline, whatever the stop point [`compile`] was given,
    /// and returns it; `None`, running nothing, when every pass has run or there are
    /// errors (lowering's or a pass's). Its diagnostics join [`Compilation::diags`], sorted.
    pub fn step(&mut self) -> Option<&'static PassDef> {
        let def = *self.pipeline.passes.get(self.next)?;
        if self.has_errors() {
            return None;
        }
        let started = Instant::now();
        let mut found = Vec::new();
        // Nothing reads the programs after the last pass of a run for diagnostics only
        // (the verifier would).
        let discarded = self.diagnostics_only && !self.verify && self.next + 1 == self.pipeline.passes.len();
        passes::run_pass(
            def,
            passes::Mode { verify: self.verify, check_only: self.check_only, discarded },
            &mut self.programs,
            &mut self.handoffs,
            &mut self.session.interner,
            &mut found,
        );
        self.timings.push((Stage::Pass(def.name), started.elapsed()));
        self.ran(def, found);
        Some(def)
    }

    /// `def` ran and reported `found`: its diagnostics join [`Compilation::diags`] and
    /// [`Compilation::found`], and the next pass is the one after it.
    fn ran(&mut self, def: &'static PassDef, mut found: Vec<Diagnostic>) {
        self.next += 1;
        diag::sort(&mut found);
        if !found.is_empty() {
            self.diags.extend(found.iter().cloned());
            diag::sort(&mut self.diags);
        }
        self.found.push((Stage::Pass(def.name), found));
    }

    /// Runs the passes that have not run yet, up to the end of the pipeline (none after an
    /// error).
    pub fn finish(&mut self) {
        self.run_to(self.pipeline.passes.len());
    }

    /// Runs the passes up to the one at `stop` (none after an error), the passes of
    /// [`passes::fused`] fused when they come together before `stop`, unverified, and some
    /// program is large enough.
    fn run_to(&mut self, stop: usize) {
        while self.next < stop {
            let rest = &self.pipeline.passes[self.next..stop];
            let fuse = !self.verify
                && passes::fused::starts(rest)
                && !self.has_errors()
                && self.programs.iter().any(passes::fused::worth);
            if fuse {
                self.step_fused();
            } else if self.step().is_none() {
                break;
            }
        }
    }

    /// Runs the passes of [`passes::fused`] over every program, as [`Compilation::step`]
    /// runs each: their diagnostics join [`Compilation::diags`], those of each pass that ran
    /// (up to the first that reported an error) its entry of [`Compilation::found`]; the
    /// time is one stage, [`passes::fused::NAME`].
    fn step_fused(&mut self) {
        let group: Vec<&'static PassDef> =
            self.pipeline.passes[self.next..self.next + passes::fused::PASSES.len()].to_vec();
        let started = Instant::now();
        let mut found: Vec<Vec<Diagnostic>> = Vec::new();
        for program in &mut self.programs {
            let ran = passes::fused::run(&mut self.session.interner, program, self.check_only, &group);
            found.resize_with(found.len().max(ran.len()), Vec::new);
            for (all, diags) in found.iter_mut().zip(ran) {
                all.extend(diags);
            }
        }
        // As one pass after another over every program: up to the first pass that reported
        // an error in any program.
        if let Some(i) = found.iter().position(|d| diag::has_errors(d)) {
            found.truncate(i + 1);
        }
        self.timings.push((Stage::Pass(passes::fused::NAME), started.elapsed()));
        self.handoffs.clear();
        for (def, found) in group.into_iter().zip(found) {
            self.ran(def, found);
        }
    }
}
