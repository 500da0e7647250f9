//! The `plc` command line. Exit status: 0 success (warnings and notes allowed), 1 the
//! program has errors, 2 bad usage or an I/O failure.

use crate::diag::{self, render, render::Format, Code, Diagnostic};
use crate::driver::{self, Compilation, Input, PipelineSpec, Stage, StopAt};
use crate::passes;
use crate::session::Session;
use crate::source::{FileError, FileOp};
use crate::syntax;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "plc", version, about = "Compiler for the pl language of PyPTO")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--factory CALL`, shared by the commands that compile a program.
#[derive(clap::Args, Debug)]
struct FactoryArg {
    /// Compile the program a program factory builds for this call,
    /// `'Build(batch=2, heads=16)'` (default: the call in the file's `main()` or
    /// `__main__` block, else the factory's defaults; see docs/host-code.md).
    #[arg(long = "factory", value_name = "CALL")]
    call: Option<String>,
}

/// `--message-format` and `--time-passes`, shared by the commands that report on a
/// compilation (`check`, `emit`).
#[derive(clap::Args)]
struct ReportArgs {
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// Print the time each stage took, on stderr.
    #[arg(long)]
    time_passes: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Report every diagnostic in the given files.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The pipeline whose errors to report too, pass names separated by commas
        /// (default: the whole pipeline).
        #[arg(long)]
        passes: Option<String>,
        #[command(flatten)]
        factory: FactoryArg,
        #[command(flatten)]
        report: ReportArgs,
    },
    /// Print an intermediate form of a file.
    Emit {
        #[arg(value_enum)]
        what: EmitKind,
        file: PathBuf,
        /// For `emit ir`: the stage after which to print: `lower` (the IR straight from
        /// lowering) or a pass of the pipeline (`plc passes` lists them). Default: the end
        /// of the pipeline.
        #[arg(long)]
        after: Option<String>,
        /// For `emit ir`: the pipeline to run, pass names separated by commas (default: the
        /// whole pipeline). It is checked before anything runs.
        #[arg(long)]
        passes: Option<String>,
        /// For `emit ir`: after each pass, re-check the IR and every property the pass
        /// claims to produce.
        #[arg(long)]
        verify: bool,
        #[command(flatten)]
        factory: FactoryArg,
        #[command(flatten)]
        report: ReportArgs,
    },
    /// Write C++ for each Orchestration function: orchestration code, kernels,
    /// kernel_config.json and the CPU runtime (see docs/cli.md).
    Compile {
        file: PathBuf,
        /// The output directory (created if needed), replaced as a whole by the new set of
        /// files; files in it that plc did not write are kept (see docs/cli.md).
        #[arg(short = 'o', long = "out")]
        out: PathBuf,
        /// Only this Orchestration function.
        #[arg(long)]
        entry: Option<String>,
        /// The pipeline to run before emitting (default: the whole pipeline).
        #[arg(long)]
        passes: Option<String>,
        /// Re-check the IR after each pass.
        #[arg(long)]
        verify: bool,
        /// Also write harness/main.cpp and build.sh: `sh OUT/build.sh` builds OUT/prog,
        /// which runs the entry on the inputs `plc run` makes and prints what it prints.
        #[arg(long)]
        harness: bool,
        /// For the harness: a parameter's shape and dtype (`w=64x32:FP32`) or a scalar's
        /// value (`n=5`), as `plc run` takes them.
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        /// For the harness: the seed of the inputs (as `plc run --seed`).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The runtime to write for: plc's own CPU runtime (`cpu`, the default) or simpler's
        /// CPU simulation `a2a3sim` (with --harness: `sh OUT/run.sh` runs the entry there).
        #[arg(long, value_enum, default_value_t = TargetArg::Cpu)]
        target: TargetArg,
        #[command(flatten)]
        factory: FactoryArg,
        /// The form of the kernels: plain C++ over plc's CPU tile library (`cpu`, the
        /// default) or PTO-ISA instructions (`pto-isa`, with `--target a2a3sim`; see
        /// docs/kernels.md).
        #[arg(long, value_enum, default_value_t = KernelsArg::Cpu)]
        kernels: KernelsArg,
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
    },
    /// Interpret a function on deterministic inputs and print one checksum line per output
    /// tensor (see docs/interpreter.md).
    Run {
        file: PathBuf,
        /// The function to run: `name`, or `Class.name` when several programs have one.
        #[arg(long)]
        entry: String,
        /// A parameter's shape and dtype (`w=64x32:FP32`) or a scalar's value (`n=5`).
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        /// The seed of the inputs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The stage whose IR runs: `lower` or a pass (default: the end of the pipeline).
        #[arg(long)]
        after: Option<String>,
        /// The pipeline, pass names separated by commas (default: the whole pipeline).
        #[arg(long)]
        passes: Option<String>,
        /// The most steps (statements, loop iterations, element work) the run may take.
        #[arg(long, default_value_t = crate::interp::RunOptions::DEFAULT_MAX_STEPS)]
        max_steps: u64,
        #[command(flatten)]
        factory: FactoryArg,
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
    },
    /// Print the pass pipeline: each pass with what it requires and produces.
    Passes,
    /// Explain an error code, with an example.
    Explain { code: String },
    /// Run the language server on stdin/stdout (diagnostics, hover on graph regions, go to
    /// definition, outline; see docs/lsp.md).
    Lsp,
}

/// `--target`: the command line's spelling of [`crate::emit::Target`].
#[derive(Clone, Copy, ValueEnum)]
enum TargetArg {
    Cpu,
    A2a3sim,
}

/// `--kernels`: the command line's spelling of [`crate::emit::KernelForm`].
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum KernelsArg {
    Cpu,
    PtoIsa,
}

/// `--message-format`: the command line's spelling of the renderers' [`Format`].
#[derive(Clone, Copy, ValueEnum)]
enum MessageFormat {
    Human,
    Short,
    Json,
}

impl From<MessageFormat> for Format {
    fn from(format: MessageFormat) -> Format {
        match format {
            MessageFormat::Human => Format::Human,
            MessageFormat::Short => Format::Short,
            MessageFormat::Json => Format::Json,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum EmitKind {
    /// The token stream after the layout stage (NEWLINE/INDENT/DEDENT included).
    Tokens,
    /// The syntax tree, host code listed first.
    Ast,
    /// The IR, printed as pl source in the `@pl.program` form.
    Ir,
}

/// The stack of the thread that does plc's work. The front end bounds how deep any walk
/// over the syntax goes (`syntax::limits`), but accepted programs may still be deep: a sum
/// of 10 000 terms is an IR expression 10 000 levels high, which passes walk recursively.
/// The memory is only reserved; pages are used as the stack grows. The threads of rayon's
/// global pool get the same.
const STACK_SIZE: usize = 256 << 20;

/// Runs plc with the process arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The passes, lowering and the emitters run their parallel parts on rayon's global
    // pool: its threads get the same stack as the worker below (a deep expression lowered
    // or walked on a pool thread overflowed rayon's default 2 MiB). Fails only if a pool was
    // built already, which nothing does before this point.
    let _ = rayon::ThreadPoolBuilder::new().stack_size(STACK_SIZE).build_global();
    let worker =
        std::thread::Builder::new().name("plc".to_string()).stack_size(STACK_SIZE).spawn(move || dispatch(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(err) => {
            eprintln!("error: cannot start plc's worker thread: {err}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(cli: Cli) -> ExitCode {
    if !matches!(cli.command, Command::Lsp) {
        crate::mem::set_one_shot();
    }
    match cli.command {
        Command::Check { files, passes, factory, report } => check(
            &files,
            &PipelineSpec { passes, factory: factory.call, ..PipelineSpec::default() }.for_check().diagnostics_only(),
            report.message_format.into(),
            report.time_passes,
        ),
        Command::Emit { what: EmitKind::Ir, file, after, passes, verify, factory, report } => {
            let stop = StopAt::from_option(after.as_deref());
            // The IR prints whether or not the C++ output could replay a graph (E0501–E0517
            // are warnings, as for `check`): only `compile` and `run` need the replay.
            emit_ir(
                &file,
                &PipelineSpec { passes, verify, factory: factory.call, ..PipelineSpec::default() }.for_check(),
                stop,
                report.message_format.into(),
                report.time_passes,
            )
        }
        Command::Emit { what, file, report, .. } => emit(what, &file, report.message_format.into()),
        Command::Compile {
            file,
            out,
            entry,
            passes,
            verify,
            harness,
            args,
            seed,
            target,
            kernels,
            factory,
            message_format,
        } => {
            let harness = harness.then(|| crate::emit::Harness { seed, args: split_args(&args) });
            let target = match target {
                TargetArg::Cpu => crate::emit::Target::Cpu,
                TargetArg::A2a3sim => crate::emit::Target::A2a3Sim,
            };
            if kernels == KernelsArg::PtoIsa && target != crate::emit::Target::A2a3Sim {
                eprintln!(
                    "error: `--kernels pto-isa` needs `--target a2a3sim` (plc's CPU runtime runs the `cpu` kernels)"
                );
                return ExitCode::from(2);
            }
            let kernels = match kernels {
                KernelsArg::Cpu => crate::emit::KernelForm::Cpu,
                KernelsArg::PtoIsa => crate::emit::KernelForm::PtoIsa,
            };
            let opts = crate::emit::Options { entry, harness, target, kernels };
            compile(
                &file,
                &out,
                &PipelineSpec { passes, verify, factory: factory.call, ..PipelineSpec::default() },
                &opts,
                message_format.into(),
            )
        }
        Command::Run { file, entry, args, seed, after, passes, max_steps, factory, message_format } => {
            let mut options = crate::interp::RunOptions::new(entry);
            (options.seed, options.max_steps) = (seed, max_steps);
            let spec = PipelineSpec { passes, factory: factory.call, ..PipelineSpec::default() };
            run(&file, options, &args, &spec, StopAt::from_option(after.as_deref()), message_format.into())
        }
        Command::Passes => list_passes(),
        Command::Explain { code } => explain(&code),
        Command::Lsp => crate::lsp::main(),
    }
}

fn check(paths: &[PathBuf], spec: &PipelineSpec, format: Format, time_passes: bool) -> ExitCode {
    let mut errors = false;
    let mut times = Times::default();
    for (k, path) in paths.iter().enumerate() {
        // The passes report errors of their own (an inline cycle, a region spliced into a
        // region, a graph boundary that cannot replay).
        let c = match driver::compile(Input::file(path), spec, StopAt::End) {
            Ok(c) => c,
            Err(err) => return io_failure(&err),
        };
        print_diagnostics(&c.session, &c.diags, format);
        if c.root.is_none() {
            // The pipeline was refused before any file was read: the same for every file.
            return ExitCode::from(1);
        }
        errors |= c.has_errors();
        times.add_all(&c);
        if k + 1 == paths.len() {
            exit_without_freeing(c);
        }
    }
    if time_passes {
        times.print();
    }
    if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Drops what the process no longer needs without freeing it, piece by piece, when the
/// process is about to exit anyway: freeing the IR of a large program is millions of small
/// deallocations (a few per cent of `plc check`'s time on gen(10000), within the noise of
/// a busy machine). The operating system takes the memory back at exit. Only for data
/// whose drop does nothing else (no file, no lock).
fn exit_without_freeing<T>(data: T) {
    std::mem::forget(data);
}

/// The time each stage took, summed over the files, in the order the stages first ran.
#[derive(Default)]
struct Times(Vec<(&'static str, Duration)>);

impl Times {
    /// Adds the stages of one compilation.
    fn add_all(&mut self, c: &Compilation) {
        for &(stage, took) in &c.timings {
            let stage = match stage {
                Stage::Lower => "lower (parsing included)",
                Stage::Lint => "lint",
                Stage::Pass(pass) => pass,
            };
            match self.0.iter_mut().find(|(s, _)| *s == stage) {
                Some((_, total)) => *total += took,
                None => self.0.push((stage, took)),
            }
        }
    }

    /// `time: <stage>  <ms> ms`, one line per stage, then the total, on stderr.
    fn print(&self) {
        let width = self.0.iter().map(|(s, _)| s.len()).max().unwrap_or(0).max("total".len());
        let mut out = String::new();
        for (stage, took) in &self.0 {
            out.push_str(&format!("time: {stage:<width$}  {:>10.3} ms\n", took.as_secs_f64() * 1e3));
        }
        let total: Duration = self.0.iter().map(|(_, t)| *t).sum();
        out.push_str(&format!("time: {:<width$}  {:>10.3} ms\n", "total", total.as_secs_f64() * 1e3));
        let _ = std::io::stderr().lock().write_all(out.as_bytes());
    }
}

/// `plc emit ir`: the IR after a stage, printed as pl source.
fn emit_ir(path: &Path, spec: &PipelineSpec, stop: StopAt, format: Format, time_passes: bool) -> ExitCode {
    let c = match driver::compile(Input::file(path), spec, stop) {
        Ok(c) => c,
        Err(err) => return io_failure(&err),
    };
    if time_passes && c.root.is_some() {
        let mut times = Times::default();
        times.add_all(&c);
        times.print();
    }
    print_diagnostics(&c.session, &c.diags, format);
    if c.has_errors() {
        return ExitCode::from(1);
    }
    let text = crate::ir::print::programs(&c.programs, &c.session.interner);
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// `plc emit tokens|ast`: the front end's dumps, printed even when the file has errors.
fn emit(what: EmitKind, path: &Path, format: Format) -> ExitCode {
    let mut session = Session::new();
    let (file, load_error) = match session.load(path) {
        Ok(loaded) => loaded,
        Err(error) => return io_failure(&FileError::new(FileOp::Read, path, error)),
    };
    let (text, diags) = match what {
        EmitKind::Ir => unreachable!("`emit ir` runs the driver"),
        EmitKind::Tokens => {
            let mut diags: Vec<Diagnostic> = load_error.into_iter().collect();
            let f = session.files.get(file);
            let tokens = syntax::tokens(file, &f.text, &mut diags);
            (syntax::dump::tokens(&f.text, f.lines(), &tokens), diags)
        }
        EmitKind::Ast => {
            let parsed = session.parse(file, load_error);
            let f = session.files.get(file);
            (syntax::dump::ast(&f.text, &session.interner, &parsed.ast), parsed.diags)
        }
    };
    print_diagnostics(&session, &diags, format);
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).is_err() {
        return ExitCode::from(2);
    }
    if diag::has_errors(&diags) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `NAME=VALUE` pairs (a pair without `=` keeps an empty value, reported by the harness).
fn split_args(args: &[String]) -> Vec<(String, String)> {
    args.iter()
        .map(|a| match a.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (a.trim().to_string(), String::new()),
        })
        .collect()
}

fn compile(path: &Path, out: &Path, spec: &PipelineSpec, opts: &crate::emit::Options, format: Format) -> ExitCode {
    let mut c = match driver::compile(Input::file(path), spec, StopAt::End) {
        Ok(c) => c,
        Err(err) => return io_failure(&err),
    };
    if let (false, Some(root)) = (c.has_errors(), c.root) {
        // A harness for a2a3sim whose answer there would be undefined is refused before
        // anything is written.
        let refusals = simulator_refusals(&mut c, opts);
        if !refusals.is_empty() {
            c.diags.extend(refusals);
            print_diagnostics(&c.session, &c.diags, format);
            return ExitCode::from(1);
        }
        // Each file is written (staged) as soon as it is emitted, and the set published
        // only when the whole output was emitted without errors.
        let publisher = crate::emit::Publisher::new(out);
        match crate::emit::compile_into(&c.programs, &c.session.interner, root, opts, &publisher) {
            Ok(rels) => {
                print_diagnostics(&c.session, &c.diags, format);
                let written = publisher.finish(&rels);
                exit_without_freeing(c);
                return match written {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(err) => io_failure(&err),
                };
            }
            Err(crate::emit::Failure::Io(err)) => {
                drop(publisher);
                print_diagnostics(&c.session, &c.diags, format);
                exit_without_freeing(c);
                return io_failure(&err);
            }
            Err(crate::emit::Failure::Errors(errors)) => {
                drop(publisher);
                // Only `--arg` mistakes (E0811): bad usage, as for `plc run`.
                let usage = errors.iter().all(|d| d.code.is_usage());
                c.diags.extend(errors);
                if usage {
                    print_diagnostics(&c.session, &c.diags, format);
                    return ExitCode::from(2);
                }
            }
        }
    }
    print_diagnostics(&c.session, &c.diags, format);
    ExitCode::from(1)
}

/// `--target a2a3sim --harness`: the entry runs in the interpreter on the harness's inputs
/// first, and what would make `run.sh` print values simpler does not define is an error
/// here: a race between two tasks (E0805), a read of an undefined element (E0806) or an
/// `Out` tensor not written whole (E0804), whose answer on the real runtime depends on the
/// schedule or on what the memory held, and host code's access to a tensor a task uses
/// (E0807), which simpler makes after the orchestration or not at all.
/// A run that fails is not judged here (the compiled program fails the same way).
fn simulator_refusals(c: &mut driver::Compilation, opts: &crate::emit::Options) -> Vec<diag::Diagnostic> {
    let Some(h) = opts.harness.as_ref().filter(|_| opts.target == crate::emit::Target::A2a3Sim) else {
        return Vec::new();
    };
    let names = &c.session.interner;
    // Without `--entry` the harness runs the only Orchestration function; with several,
    // the emitter reports E0616 and there is nothing to judge here.
    let entry = opts.entry.clone().or_else(|| {
        let mut orchestration = c
            .programs
            .iter()
            .flat_map(|p| p.functions.values())
            .filter(|f| f.decl.kind == crate::ir::FuncKind::Orchestration);
        match (orchestration.next(), orchestration.next()) {
            (Some(f), None) => Some(names.get(f.name).to_string()),
            _ => None,
        }
    });
    let Some(entry) = entry else { return Vec::new() };
    let mut options = crate::interp::RunOptions::new(entry);
    (options.args, options.seed) = (h.args.clone(), h.seed);
    let Ok((outputs, warnings)) = crate::interp::run_checked(&c.programs, names, &mut c.session.files, &options) else {
        return Vec::new();
    };
    let unsound = |d: &diag::Diagnostic| matches!(d.code, diag::Code::E0805 | diag::Code::E0806 | diag::Code::E0807);
    warnings
        .into_iter()
        .filter(unsound)
        .chain(undefined_outputs(&outputs))
        .map(|mut d| {
            d.severity = diag::Severity::Error;
            let why = if d.code == diag::Code::E0807 {
                "on simpler the run stops or computes otherwise"
            } else {
                "on simpler the result depends on the schedule or on what the memory held"
            };
            d.with_note(format!(
                "`--target a2a3sim --harness` refuses this: {why}, so `run.sh` could not print what `plc run` prints"
            ))
        })
        .collect()
}

/// E0804 for each `Out` tensor of the entry that the run did not write whole.
fn undefined_outputs(outputs: &[crate::interp::Output]) -> Vec<diag::Diagnostic> {
    outputs
        .iter()
        .filter(|o| o.undefined > 0)
        .map(|o| {
            let total: i64 = o.shape.iter().product();
            diag::Diagnostic::new(
                diag::Severity::Warning,
                diag::Code::E0804,
                format!(
                    "{} of the {total} elements of the Out tensor `{}` were never written: they print as 0, but on simpler they are undefined",
                    o.undefined, o.name
                ),
                diag::Label::primary(o.loc.file, o.loc.span, "this Out tensor"),
            )
            .with_help("write every element, or declare the parameter `pl.InOut`")
        })
        .collect()
}

/// `plc run`: the program's output lines on stdout; exit 1 when it has errors or fails
/// while running, 2 for a bad command (no such entry, a missing or unknown `--arg`).
fn run(
    path: &Path,
    mut options: crate::interp::RunOptions,
    args: &[String],
    spec: &PipelineSpec,
    stop: StopAt,
    format: Format,
) -> ExitCode {
    for a in args {
        match a.split_once('=') {
            Some((k, v)) => options.args.push((k.trim().to_string(), v.trim().to_string())),
            None => {
                eprintln!("error: --arg `{a}` is not NAME=VALUE");
                return ExitCode::from(2);
            }
        }
    }
    let mut c = match driver::compile(Input::file(path), spec, stop) {
        Ok(c) => c,
        Err(err) => return io_failure(&err),
    };
    // Notes (skipped host code) would only bury the program's output.
    c.diags.retain(|d| d.severity != diag::Severity::Note);
    print_diagnostics(&c.session, &c.diags, format);
    if c.has_errors() {
        return ExitCode::from(1);
    }
    // An assembly the runtime would not copy (E0623): refused as `plc compile` refuses it,
    // rather than printing values the runtime never computes. Orchestration code is known
    // once its device regions are outlined.
    if c.produced(passes::Property::IncoreOutlined) {
        let refused = crate::emit::assembly::refusals(&c.programs, &c.session.interner, &options.entry);
        if !refused.is_empty() {
            print_diagnostics(&c.session, &refused, format);
            return ExitCode::from(1);
        }
    }
    match crate::interp::run_checked(&c.programs, &c.session.interner, &mut c.session.files, &options) {
        Ok((outputs, mut warnings)) => {
            warnings.extend(undefined_outputs(&outputs));
            print_diagnostics(&c.session, &warnings, format);
            let lines: Vec<String> = outputs.iter().map(crate::interp::Output::line).collect();
            let mut text = lines.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            print_diagnostics(&c.session, std::slice::from_ref(&*err), format);
            ExitCode::from(if err.code.is_usage() { 2 } else { 1 })
        }
    }
}

fn list_passes() -> ExitCode {
    let list = |props: &[passes::Property]| {
        if props.is_empty() {
            "-".to_string()
        } else {
            props.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
        }
    };
    let mut out = String::from("The default pipeline, in order:\n\n");
    for (i, p) in passes::PASSES.iter().enumerate() {
        out.push_str(&format!("{:>2}. {}\n    {}\n", i + 1, p.name, p.summary));
        out.push_str(&format!("    requires:    {}\n", list(p.requires)));
        out.push_str(&format!("    produces:    {}\n", list(p.produces)));
        if !p.invalidates.is_empty() {
            out.push_str(&format!("    invalidates: {}\n", list(p.invalidates)));
        }
    }
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush()).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

fn explain(code: &str) -> ExitCode {
    match Code::parse(code) {
        Some(code) => {
            let info = code.info();
            println!("{}: {}\n\n{}", code, info.title, info.explanation);
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("error: `{code}` is not a plc diagnostic code (they look like E0101; see `plc explain E0101`)");
            ExitCode::from(2)
        }
    }
}

/// Human and short diagnostics go to stderr; JSON goes to stdout, one object per line, so
/// that tools can read it while the program's own output stays apart.
fn print_diagnostics(session: &Session, diags: &[Diagnostic], format: Format) {
    // Many diagnostics of one kind in a file are summed up (`… and 2950 more like this`).
    let diags = &diag::cap_repeats(diags);
    match format {
        Format::Json => {
            let mut out = std::io::stdout().lock();
            for d in diags {
                let _ = writeln!(out, "{}", render::json(&session.files, d));
            }
        }
        Format::Short => {
            let mut err = std::io::stderr().lock();
            for d in diags {
                let _ = err.write_all(render::short(&session.files, d).as_bytes());
            }
        }
        Format::Human => {
            use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice};
            let choice = if std::io::stderr().is_terminal() { ColorChoice::Auto } else { ColorChoice::Never };
            // Buffered: the renderer writes a snippet in many small pieces.
            let mut err = BufferedStandardStream::stderr(choice);
            for d in diags {
                let _ = render::emit_human(&session.files, d, &mut err);
            }
            let _ = err.flush();
        }
    }
}

/// A file that could not be read or written: the operation, the file and the reason, on
/// stderr (`error: cannot create directory `out/kernels`: Not a directory`).
fn io_failure(err: &FileError) -> ExitCode {
    eprintln!("error: {err}");
    ExitCode::from(2)
}
