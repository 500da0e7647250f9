//! Lowering: from the syntax trees of a program's files to the IR.
//!
//! 1. **Modules**: the root file and every file it imports relatively
//!    (`from .config import HIDDEN`), each read and parsed once; an import cycle or a
//!    missing module is an error on the import line.
//! 2. **Module names**: constants are folded in source order; `import pypto.language as
//!    pl` binds the `pl` namespace; imports of outside libraries are skipped with a note.
//! 3. **Signatures**: every `@pl.*` function and every `@pl.function` method of an
//!    `@pl.program` class gets its kind (from the decorator), level and role, parameter
//!    types and directions, and declared return types.
//! 4. **Bodies** (`body.rs`): names are resolved, constants folded, expressions typed
//!    through the op table, and the parser-level rules checked while the source nesting is
//!    still visible (the `pl.graph` rules E0301–E0308 among them, in `scopes.rs`).
//!
//! ```text
//! @pl.jit                                   @pl.function(type=pl.FunctionType.Orchestration)
//! def entry(x: pl.Tensor):          ──►     def entry(self, x: pl.Tensor):
//!     y = pl.add(x, ROWS)                       y = pl.add(x, 128)
//! ```

mod annot;
pub(crate) mod body;
mod calls;
mod checks;
mod consts;
mod distributed;
mod factory;
mod jit;
mod launch;
mod memref;
mod parallel;
mod scopes;

/// `pl.scope` / `pl.manual_scope` / `pl.auto_scope`: the runtime scopes, which open no new
/// names. `pl.auto_scope()` is the explicit AUTO scope PyPTO's printer writes for the scopes
/// its compiler places; it takes no arguments.
const RUNTIME_SCOPES: [&str; 3] = ["scope", "manual_scope", "auto_scope"];
/// `pl.submit` / `pl.spmd_submit`: the task launches.
const LAUNCHES: [&str; 2] = ["submit", "spmd_submit"];

pub use consts::Const;

use crate::diag::{Code, Diagnostic, Label, Span};
use crate::intern::Symbol;
use crate::ir::{self, Direction, FuncDecl, FuncKind, Level, Program, Role, TypeId};
use crate::session::Session;
use crate::source::{FileId, SourceMap};
use crate::syntax::ast::{self, Ast, ExprKind as AstExpr, StmtId as AstStmtId, StmtKind as AstStmt};
use indexmap::IndexMap;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Lowers the program whose root file is `root` (already loaded in the session).
/// Returns the IR (possibly partial when there are errors) and every diagnostic found,
/// those of imported files included.
///
/// `factory` is a call of a program factory of the root file (`Build(batch=2)`, the
/// `--factory` option); without it, the calls in the file's host code choose (see
/// `factory.rs`).
pub fn lower(
    session: &mut Session,
    root: FileId,
    root_path: Option<&Path>,
    factory: Option<&str>,
) -> (Vec<Program>, Vec<Diagnostic>) {
    let mut cx = Lowering {
        session,
        files: None,
        program: Program::default(),
        diags: Vec::new(),
        modules: Arc::default(),
        by_path: FxHashMap::default(),
        loading: Vec::new(),
        namespaces: Arc::new(vec![Namespace::default()]),
        current: 0,
        states: FxHashMap::default(),
        sig_types: Arc::default(),
        imported: Vec::new(),
        last_value_type: None,
        finished: Vec::new(),
        syntax_errors: false,
        python_bodies: FxHashSet::default(),
        lowering_depth: 0,
        factories: Vec::new(),
        factory_memo: Vec::new(),
        factory_sites: Vec::new(),
        factory_calls: FxHashMap::default(),
        helper_depth: 0,
        memref_decls: FxHashMap::default(),
        window_buffers: Default::default(),
        run: None,
        module_changes: 0,
    };
    let root_module = cx.load_parsed(root, root_path.map(Path::to_path_buf));
    cx.bind_module(root_module);
    // After a syntax error, lowering would mostly report its consequences (a statement
    // that did not parse defines no name, so later uses look undefined): stop there. Other
    // errors of the module level (a missing import, a bad constant) poison the names they
    // define, and lowering goes on.
    if !cx.syntax_errors {
        cx.instantiate_factories(root_module, factory);
        cx.collect_functions();
        cx.report_role_bodies();
        if !cx.syntax_errors {
            cx.lower_bodies();
        }
        cx.label_factory_diags();
    }
    let Lowering { finished: programs, mut diags, modules, namespaces, .. } = cx;
    // The syntax trees and the signatures are not needed any more: freeing them (the
    // trees' arenas and lists, a few large blocks per part, and the rarer small blocks of
    // some nodes) is left to a thread of the pool, off the caller's path (it goes on with
    // the passes while they are freed); in a one-shot compile their small blocks are not
    // reused (`mem::drop_keeping_small_blocks`).
    rayon::spawn(move || crate::mem::drop_keeping_small_blocks((modules, namespaces)));
    crate::diag::sort(&mut diags);
    (programs, without_repeats(diags))
}

/// The diagnostics, each reported once: a module-level function that class programs call
/// is lowered once per program (its copies), and an error in its body once per lowering.
fn without_repeats(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    for d in diags {
        // Sorted by position: a repeat is among the kept ones at the same position.
        let repeat = kept
            .iter()
            .rev()
            .take_while(|k| k.primary.file == d.primary.file && k.primary.span == d.primary.span)
            .any(|k| *k == d);
        if !repeat {
            kept.push(d);
        }
    }
    kept
}

pub(crate) type ModuleId = usize;

/// What a top-level name of a module means.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    Const(Const),
    /// A pl function (its name in the program).
    Function(Symbol),
    /// The `pl` namespace (`import pypto.language as pl`).
    Pl,
    /// The distributed namespace (`import pypto.language.distributed as pld`).
    Pld,
    /// Python's `math` module (`import math`): its constants (`math.inf`, `math.pi`) are
    /// compile-time constants of pl code.
    Math,
    /// An outside library (`import torch`): using it in pl code is an error.
    Outside,
    /// PyPTO's `jit` decorator imported by name (`from pypto.jit.decorator import jit`):
    /// `jit.incore` reads as `pl.jit.incore`.
    Jit,
    /// An `@pl.program` class.
    ProgramClass,
    /// A program factory (`factory.rs`), by its index in `Lowering::factories`.
    Factory(usize),
    /// A name whose definition failed (an import or a constant): the error is reported
    /// there, and uses of the name say nothing more.
    Poisoned,
    /// `GATHERED = NR * 64` with `NR = pl.dynamic("NR")`: arithmetic over dynamic
    /// dimensions, an extent known at run time. Holds the defining expression, which a
    /// shape reads as a run-time extent and a body lowers in place of the name.
    DynExtent(ast::ExprId),
}

#[derive(Clone)]
pub(crate) struct Module {
    pub file: FileId,
    pub path: Option<PathBuf>,
    /// Shared, so that a function body being lowered borrows it while the lowering
    /// changes the rest (`body::lower_function`).
    pub ast: Arc<Ast>,
    pub names: FxHashMap<Symbol, (Binding, Span)>,
    /// Names bound by host code (with the span of the binding).
    pub host_names: FxHashMap<Symbol, Span>,
}

/// What lowering knows of a function before its body: enough to lower calls to it.
#[derive(Clone, Debug)]
pub(crate) struct FuncInfo {
    pub name: Symbol,
    pub module: ModuleId,
    /// The `def` statement.
    pub def: AstStmtId,
    /// Its kind, level and role (implied ones filled in) and options; `extra` is read with
    /// the body.
    pub decl: FuncDecl,
    /// A method of an `@pl.program` class (its first parameter is `self`).
    pub method: bool,
    /// Parameters, with types in `Lowering::sig_types`.
    pub params: Vec<ParamInfo>,
    /// Declared return types (in `Lowering::sig_types`); `None` without an annotation.
    pub returns: Option<Vec<TypeId>>,
    /// The namespace it belongs to (0: module level; else its program class).
    pub namespace: usize,
    /// The span of the function's name.
    pub span: Span,
    /// A module-level `@pl.function` or `@pl.inline` function: PyPTO's external and inline
    /// functions, whose bare-name calls take positional arguments only.
    pub positional_only: bool,
    /// Decorated with `@pl.jit...`: PyPTO's specializer gives each re-binding of a local a
    /// fresh name (`out` → `out_v1`), so a name may take a value of another type.
    pub jit: bool,
    /// Made of a mixed `@pl.jit.extern` (its `def` is that stub's).
    pub mixed: Option<MixedPart>,
}

/// A function's signature before it is declared in its namespace
/// ([`Lowering::signature`]): its `FuncInfo`, and the members' declarations of a mixed
/// `@pl.jit.extern`.
pub(crate) struct Signature {
    info: FuncInfo,
    /// Boxed: a signature waits in a run's plans (`parallel.rs`) until it is declared, and
    /// few functions are mixed.
    mixed: Option<Box<annot::MixedExtern>>,
}

/// The part a function plays in a mixed `@pl.jit.extern` (`annot::MixedExtern`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MixedPart {
    /// The Group, named as the stub: its body calls the AIC member, then the AIV member,
    /// with its parameters.
    Group { aic: Symbol, aiv: Symbol },
    /// `<name>_aic` or `<name>_aiv`: an external kernel with the stub's signature.
    Member,
}

#[derive(Clone, Debug)]
pub(crate) struct ParamInfo {
    pub name: Symbol,
    pub ty: TypeId,
    pub dir: Direction,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyState {
    NotLowered,
    Lowering,
    Lowered,
}

/// A function's identity: its namespace and its name.
pub(crate) type FnKey = (usize, Symbol);

/// The functions of one namespace: the module level, or one `@pl.program` class.
#[derive(Clone, Default)]
pub(crate) struct Namespace {
    /// The class name (with the file and span of its definition); `None` at module level.
    pub class: Option<(Symbol, FileId, Span)>,
    pub functions: IndexMap<Symbol, FuncInfo, FxBuildHasher>,
    /// The factory call whose instance defines the class (`Build(batch=2)`), if any.
    pub built_by: Option<String>,
}

pub(crate) struct Lowering<'s> {
    pub session: &'s mut Session,
    /// The files a run of functions lowered in parallel reads (`parallel.rs`): the
    /// session's, while the run's own session holds its interner only. `None`: the
    /// session's own ([`Lowering::files`]).
    files: Option<&'s SourceMap>,
    pub program: Program,
    pub diags: Vec<Diagnostic>,
    /// Shared with the runs lowered in parallel, which only read them; changed through
    /// [`Lowering::modules_mut`].
    pub modules: Arc<Vec<Module>>,
    by_path: FxHashMap<PathBuf, ModuleId>,
    /// Modules being loaded (for import cycles), innermost last.
    loading: Vec<ModuleId>,
    /// The function namespaces: 0 holds the module-level functions of every module (the
    /// `@pl.jit*` and standalone `@pl.function`s), each `@pl.program` class has its own.
    /// Changed through [`Lowering::namespaces_mut`].
    pub namespaces: Arc<Vec<Namespace>>,
    /// The namespace whose program is being lowered (`program` is its IR).
    pub current: usize,
    /// Which functions have been lowered into which program: (program, (namespace, name)).
    states: FxHashMap<(usize, FnKey), BodyState>,
    /// The types of the signatures (parameters and declared returns), before they are
    /// copied into each program's own type table.
    pub sig_types: Arc<ir::Types>,
    /// `import_type`'s answers for the current program, by signature type (`None`: not
    /// imported yet); emptied when the program changes.
    imported: Vec<Option<TypeId>>,
    /// The type `annot::value_type` made last, in the current program's type table;
    /// emptied when the program changes.
    last_value_type: Option<TypeId>,
    /// The programs lowered so far.
    finished: Vec<Program>,
    /// A file of the program has a syntax error: bodies are not lowered.
    syntax_errors: bool,
    /// The functions (file, statement) whose resolved decorator makes the body Python (a
    /// HOST SubWorker's): what `restrict` found in it is dropped (`report_role_bodies`).
    python_bodies: FxHashSet<(FileId, AstStmtId)>,
    /// How many function bodies are being lowered at once (a call of a function without a
    /// return annotation lowers the callee first).
    pub lowering_depth: usize,
    /// The program factories of every module.
    pub(crate) factories: Vec<factory::Factory>,
    /// The instances made so far: (factory, argument values) and what it returned.
    pub(crate) factory_memo: Vec<factory::Instance>,
    /// Each instance's factory (file, span of its `def`) and the call that made it.
    pub(crate) factory_sites: Vec<(FileId, Span, factory::Site)>,
    /// The call text of each factory instance's module (`Build(batch=2)`).
    pub(crate) factory_calls: FxHashMap<ModuleId, String>,
    /// How many host helper functions are being evaluated at once (`factory.rs`).
    pub(crate) helper_depth: usize,
    /// For each allocation name of a module's declared `pl.MemRef()`s that an annotation
    /// used, the module-level name that declared it (`memref.rs`).
    pub(crate) memref_decls: FxHashMap<(ModuleId, String), Symbol>,
    /// The window buffers allocated so far, to refuse a name declared twice
    /// (`distributed.rs`).
    pub(crate) window_buffers: distributed::WindowBuffers,
    /// The run of functions this lowering makes on a fork, in parallel with others
    /// (`parallel.rs`); `None` in the serial lowering.
    run: Option<parallel::Run>,
    /// How many times the modules were changed ([`Lowering::modules_mut`]): signatures
    /// read in parallel before a change are read again (`parallel.rs`).
    module_changes: usize,
}

impl Lowering<'_> {
    pub fn error(
        &mut self,
        code: Code,
        file: FileId,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, message, Label::primary(file, span, label)));
        self.diags.last_mut().expect("just pushed")
    }

    /// `error` at expression `e` of module `m`.
    pub fn expr_error(
        &mut self,
        code: Code,
        m: ModuleId,
        e: ast::ExprId,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> &mut Diagnostic {
        let (file, span) = (self.modules[m].file, self.modules[m].ast.expr(e).span);
        self.error(code, file, span, message, label)
    }

    /// `error` with a help line.
    pub fn error_help<M: Into<String>, L: Into<String>, H: Into<String>>(
        &mut self,
        code: Code,
        file: FileId,
        span: Span,
        message: M,
        label: L,
        help: H,
    ) {
        self.error(code, file, span, message, label).help = Some(help.into());
    }

    pub fn name(&self, sym: Symbol) -> &str {
        self.session.interner.get(sym)
    }

    pub fn intern(&mut self, text: &str) -> Symbol {
        self.session.interner.intern(text)
    }

    fn text(&self, file: FileId, span: Span) -> &str {
        &self.files().get(file).text[span.lo as usize..span.hi as usize]
    }

    /// The program's files.
    pub fn files(&self) -> &SourceMap {
        self.files.unwrap_or(&self.session.files)
    }

    /// The modules, to change (module names, factory instances): in a run lowered in
    /// parallel, the change makes the run's result unusable (`shared_changed`).
    pub(crate) fn modules_mut(&mut self) -> &mut Vec<Module> {
        self.shared_changed();
        self.module_changes += 1;
        Arc::make_mut(&mut self.modules)
    }

    /// The namespaces, to change (signatures, program classes).
    fn namespaces_mut(&mut self) -> &mut Vec<Namespace> {
        self.shared_changed();
        Arc::make_mut(&mut self.namespaces)
    }

    /// Notes a change to what every function's lowering shares (module names, factory
    /// instances, declared memrefs and window buffers, `pl.dynamic` dimensions): a run
    /// lowered in parallel that makes one is given up, and the functions are lowered
    /// serially, where later functions see the change (`parallel.rs`).
    pub(crate) fn shared_changed(&mut self) {
        if let Some(run) = &mut self.run {
            run.escaped = true;
        }
    }

    // ------------------------------------------------------------ modules

    /// Binds a top-level name of a module. A name bound to the `pl` (or `pld`) namespace is
    /// never bound to anything else afterwards (`pl = 3`, a function named `pl`, `import
    /// torch as pl`): every `@pl.` decorator and `pl.` call in the module depends on it, and
    /// rebinding it silently turned every pl function into host code. It is E0228 at the
    /// new binding, and the namespace stays bound.
    fn bind_name(&mut self, m: ModuleId, name: Symbol, (binding, span): (Binding, Span)) {
        // A function or program class bound again as it was bound where it is defined
        // (`bind_module`, then with its signature): nothing changes.
        if let Some((bound, at)) = self.modules[m].names.get(&name) {
            let same = match (bound, &binding) {
                (Binding::Function(a), Binding::Function(b)) => a == b,
                (Binding::ProgramClass, Binding::ProgramClass) => true,
                _ => false,
            };
            if same && *at == span {
                return;
            }
        }
        if let Some((existing @ (Binding::Pl | Binding::Pld), at)) = self.modules[m].names.get(&name).cloned() {
            if std::mem::discriminant(&existing) != std::mem::discriminant(&binding) {
                let file = self.modules[m].file;
                self.rebound_namespace(file, name, span, at, &existing);
                return;
            }
        }
        self.modules_mut()[m].names.insert(name, (binding, span));
    }

    /// The `pl` (or `pld`) namespace bound to `name` in module `m`, with where it is bound.
    pub(crate) fn namespace_named(&self, m: ModuleId, name: Symbol) -> Option<(Binding, Span)> {
        match self.modules[m].names.get(&name) {
            Some((ns @ (Binding::Pl | Binding::Pld), at)) => Some((ns.clone(), *at)),
            _ => None,
        }
    }

    /// E0228 for a parameter or variable of a pl function named as a namespace of its
    /// module (`pl = a`, `def f(pl: ...)`): true when it was reported, and then the name
    /// is not bound locally, so that the function's `pl.` calls keep their meaning.
    pub(crate) fn shadows_namespace(&mut self, m: ModuleId, name: Symbol, span: Span) -> bool {
        let Some((ns, at)) = self.namespace_named(m, name) else { return false };
        let file = self.modules[m].file;
        self.rebound_namespace(file, name, span, at, &ns);
        true
    }

    /// E0228: the name of a pl namespace is bound again at `span` (it was bound at `at`).
    pub(crate) fn rebound_namespace(&mut self, file: FileId, name: Symbol, span: Span, at: Span, ns: &Binding) {
        let n = self.name(name).to_string();
        let module = if matches!(ns, Binding::Pld) { "pypto.language.distributed" } else { "pypto.language" };
        let d = self.error(
            Code::E0228,
            file,
            span,
            format!("`{n}` is the name of the `{module}` module; plc does not let it be bound to anything else"),
            format!("binds `{n}` again"),
        );
        d.secondary.push(Label::secondary(file, at, format!("`{n}` names the module from here")));
        d.help = Some(format!(
            "choose another name: every `@{n}.` decorator and `{n}.` call of the module depends on this one"
        ));
    }

    /// Registers a parsed file as a module.
    fn load_parsed(&mut self, file: FileId, path: Option<PathBuf>) -> ModuleId {
        let parsed = self.session.parse(file, None);
        self.syntax_errors |= crate::diag::has_errors(&parsed.diags);
        self.diags.extend(parsed.diags);
        let id = self.modules.len();
        if let Some(p) = &path {
            if let Ok(canonical) = p.canonicalize() {
                self.by_path.insert(canonical, id);
            }
        }
        self.modules_mut().push(Module {
            file,
            path,
            ast: Arc::new(parsed.ast),
            names: FxHashMap::default(),
            host_names: FxHashMap::default(),
        });
        id
    }

    /// Binds the top-level names of a module: imports (loading the modules they name),
    /// constants, and host-code names; functions are bound by `collect_functions`.
    fn bind_module(&mut self, m: ModuleId) {
        self.loading.push(m);
        let file = self.modules[m].file;
        let host: Vec<Span> = self.modules[m].ast.host.iter().flat_map(|h| h.defines.clone()).collect();
        for span in host {
            let name = crate::syntax::ident::normalize(self.text(file, span)).into_owned();
            let sym = self.intern(&name);
            self.modules_mut()[m].host_names.insert(sym, span);
        }
        let tree = Arc::clone(&self.modules[m].ast);
        // The module's names sized once for its top-level statements (each definition binds
        // one), not grown by doubling.
        self.modules_mut()[m].names.reserve(tree.body.len());
        for &stmt in &tree.body {
            let s = tree.stmt(stmt);
            match &s.kind {
                AstStmt::Import(names) => {
                    for n in names {
                        self.import_absolute(m, n);
                    }
                }
                AstStmt::ImportFrom { level, module, names, star } => {
                    self.import_from(m, s.span, *level, module.as_ref(), names, *star);
                }
                AstStmt::Assign { targets, value } => {
                    let targets = self.modules[m].ast.list(*targets).to_vec();
                    self.module_constant(m, &targets, *value)
                }
                AstStmt::Expr(e) if matches!(self.modules[m].ast.expr(*e).kind, AstExpr::Str(_)) => {}
                AstStmt::Pass | AstStmt::Error => {}
                // A pl function is bound where it is defined, so that a module importing
                // this one finds it (its signature is collected later, with everyone's).
                AstStmt::FunctionDef(def) => {
                    let head = def.decorators.first().map(|d| match &self.modules[m].ast.expr(d.expr).kind {
                        AstExpr::Call { func, .. } => *func,
                        _ => d.expr,
                    });
                    if head.is_some_and(|h| self.is_pl_rooted(m, h)) {
                        self.bind_name(m, def.name.name, (Binding::Function(def.name.name), def.name.span));
                    } else if def.decorators.is_empty() {
                        // Only a program factory reaches the parser undecorated.
                        self.bind_factory(m, stmt, def);
                    }
                }
                // A program class is bound where it is defined (`Alias = Program` may
                // follow it).
                AstStmt::ClassDef(class) => {
                    let head = class.decorators.first().map(|d| match &self.modules[m].ast.expr(d.expr).kind {
                        AstExpr::Call { func, .. } => *func,
                        _ => d.expr,
                    });
                    if head.is_some_and(|h| self.is_pl_rooted(m, h)) {
                        self.bind_name(m, class.name.name, (Binding::ProgramClass, class.name.span));
                    }
                }
                _ => {
                    self.error(
                        Code::E0223,
                        file,
                        s.span,
                        "this statement is not allowed at the top level of a pl module",
                        "not an import, a constant or a definition",
                    );
                }
            }
        }
        // Host code that binds a namespace's name after the import rebinds it when Python
        // runs the module, before the decorators that follow.
        let host: Vec<Span> = self.modules[m].ast.host.iter().flat_map(|h| h.defines.clone()).collect();
        for span in host {
            let name = crate::syntax::ident::normalize(self.text(file, span)).into_owned();
            let sym = self.intern(&name);
            if let Some((ns, at)) = self.namespace_named(m, sym) {
                if at.lo < span.lo {
                    self.rebound_namespace(file, sym, span, at, &ns);
                }
            }
        }
        self.loading.pop();
    }

    fn import_absolute(&mut self, m: ModuleId, n: &ast::ImportName) {
        let file = self.modules[m].file;
        let dotted = self.text(file, n.name.span).to_string();
        let (bound, span) = match n.alias {
            Some(a) => (a.name, a.span),
            None => (n.name.parts[0].name, n.name.parts[0].span),
        };
        let binding = if dotted == "pypto.language" && n.alias.is_some() {
            Binding::Pl
        } else if dotted == "pypto.language.distributed" && n.alias.is_some() {
            Binding::Pld
        } else if dotted == "math" {
            Binding::Math
        } else {
            self.outside_library(file, n.span, &dotted);
            Binding::Outside
        };
        self.bind_name(m, bound, (binding, span));
    }

    fn outside_library(&mut self, file: FileId, span: Span, module: &str) {
        self.diags.push(Diagnostic::note(
            Code::N0003,
            format!("import of `{module}` skipped: plc compiles pl code, which does not use outside libraries"),
            Label::primary(file, span, "skipped"),
        ));
    }

    fn import_from(
        &mut self,
        m: ModuleId,
        span: Span,
        level: u32,
        module: Option<&ast::DottedName>,
        names: &[ast::ImportName],
        star: bool,
    ) {
        let file = self.modules[m].file;
        let module_text = module.map(|d| self.text(file, d.span).to_string()).unwrap_or_default();
        if level == 0 {
            // `from pypto import language as pl` binds the namespace; other libraries are
            // outside code.
            for n in names {
                let item = self.text(file, n.name.span).to_string();
                let bound = n.alias.map_or(n.name.parts[0].name, |a| a.name);
                let binding = match (module_text.as_str(), math_constant(&item)) {
                    ("pypto", _) if item == "language" => Binding::Pl,
                    (module, _) if crate::syntax::is_jit_decorator_path(&format!("{module}.{item}")) => Binding::Jit,
                    ("math", Some(v)) => Binding::Const(Const::Float(v)),
                    _ => Binding::Outside,
                };
                if matches!(binding, Binding::Outside) {
                    self.outside_library(file, n.span, &format!("{module_text}.{item}"));
                }
                self.bind_name(m, bound, (binding, n.span));
            }
            if star {
                self.outside_library(file, span, &module_text);
            }
            return;
        }
        let Some(target) = self.resolve_relative(m, span, level, &module_text) else {
            for n in names {
                let bound = n.alias.map_or(n.name.parts[0].name, |a| a.name);
                self.bind_name(m, bound, (Binding::Poisoned, n.span));
            }
            return;
        };
        if star {
            let names: Vec<_> = self.modules[target].names.iter().map(|(k, v)| (*k, v.clone())).collect();
            for (k, v) in names {
                self.bind_name(m, k, v);
            }
            return;
        }
        for n in names {
            let item = n.name.parts[0].name;
            let bound = n.alias.map_or(item, |a| a.name);
            match self.modules[target].names.get(&item).cloned() {
                Some((binding, _)) => {
                    self.bind_name(m, bound, (binding, n.span));
                }
                None => {
                    self.bind_name(m, bound, (Binding::Poisoned, n.span));
                    let what = self.name(item).to_string();
                    let module_name = self.files().get(self.modules[target].file).name.clone();
                    let host = self.modules[target].host_names.contains_key(&item);
                    let d = self.error(
                        Code::E0215,
                        file,
                        n.span,
                        format!("`{what}` is not a constant or a pl function of `{module_name}`"),
                        "cannot be imported",
                    );
                    if host {
                        d.notes.push(format!("`{what}` is defined by host code there, which runs in Python"));
                    }
                }
            }
        }
    }

    /// Finds, loads and binds the module of a relative import; `None` after an error.
    fn resolve_relative(&mut self, m: ModuleId, span: Span, level: u32, module: &str) -> Option<ModuleId> {
        let file = self.modules[m].file;
        let Some(base) = self.modules[m].path.as_ref().and_then(|p| p.parent()).map(Path::to_path_buf) else {
            self.error(
                Code::E0215,
                file,
                span,
                "a relative import needs the importing file's directory",
                "relative import",
            );
            return None;
        };
        let (dir, candidates) = crate::source::import_candidates(&base, level, module);
        let Some(path) = candidates.into_iter().find(|p| p.is_file()) else {
            let shown = format!("{}{}", ".".repeat(level as usize), module);
            self.error(Code::E0215, file, span, format!("module `{shown}` not found"), "no such module").notes.push(
                format!(
                    "looked for `{}.pl` and `{0}.py` (or a package directory) in `{}`",
                    module.rsplit('.').find(|p| !p.is_empty()).unwrap_or("__init__"),
                    dir.display()
                ),
            );
            return None;
        };
        let canonical = path.canonicalize().unwrap_or(path.clone());
        if let Some(&existing) = self.by_path.get(&canonical) {
            if self.loading.contains(&existing) {
                let from = self.loading.iter().position(|&l| l == existing).unwrap_or(0);
                let chain: Vec<String> =
                    self.loading[from..].iter().map(|&l| self.files().get(self.modules[l].file).name.clone()).collect();
                let note = format!(
                    "the cycle: {} -> {}",
                    chain.join(" -> "),
                    self.files().get(self.modules[existing].file).name
                );
                self.error(
                    Code::E0216,
                    file,
                    span,
                    "import cycle",
                    "this import leads back to a module being imported",
                )
                .notes
                .push(note);
                return None;
            }
            return Some(existing);
        }
        let (new_file, load_error) = match self.session.load(&path) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.error(Code::E0215, file, span, format!("cannot read `{}`: {e}", path.display()), "cannot be read");
                return None;
            }
        };
        if let Some(d) = load_error {
            self.diags.push(d);
            return None;
        }
        let id = self.load_parsed(new_file, Some(path));
        self.bind_module(id);
        // Its functions are collected with everyone else's, in load order.
        Some(id)
    }

    /// `NAME = value`, `A, B = value` or the chain `TR = TC = value` at module level: a
    /// constant (or another name for a program, function or namespace) bound to every
    /// target.
    fn module_constant(&mut self, m: ModuleId, targets: &[ast::ExprId], value: ast::ExprId) {
        // `Alias = SomeProgram`, `f2 = f`: another name for a program, function or namespace.
        if let AstExpr::Name(source) = self.modules[m].ast.expr(value).kind {
            if let Some((binding, _)) = self.modules[m].names.get(&source).cloned() {
                if !matches!(binding, Binding::Const(_)) {
                    for &target in targets {
                        let t = self.modules[m].ast.expr(target).clone();
                        if let AstExpr::Name(name) = t.kind {
                            self.bind_name(m, name, (binding.clone(), t.span));
                        }
                    }
                    return;
                }
            }
        }
        // A dict is a constant when its keys and values are (`{"fp32": pl.FP32}`); one that
        // holds anything else (`{"add": add_fn}`) is host code, as the splitter would have
        // said had it known the names.
        // A conditional expression that reads host code (`MODE = 1 if flag else 2`, `flag`
        // computed in Python) is host code too: only the constant ones fold.
        // (Any dict that does not fold is host code; a conditional expression only when what
        // stopped it is a host-code name, E0222.)
        let what = match self.modules[m].ast.expr(value).kind {
            AstExpr::Dict(_) => Some((true, "the dict assigned to `{}` holds values that are not constants")),
            AstExpr::IfExp { .. } => Some((false, "the conditional expression assigned to `{}` reads host code")),
            // `dt = TABLE[key]` where the table is host code (`_TORCH_DT[DataType.FP32]`).
            AstExpr::Subscript { .. } => Some((false, "the subscript assigned to `{}` reads host code")),
            // `n = cfg.rows` of a host object (`DataType.FP32` of an outside library folds).
            AstExpr::Attribute { .. } => Some((false, "the attribute assigned to `{}` reads host code")),
            _ => None,
        };
        if let Some((any_failure, what)) = what {
            let before = self.diags.len();
            let v = self.eval_const(m, value);
            if v.is_none() && (any_failure || self.diags[before..].iter().all(|d| d.code == Code::E0222)) {
                self.diags.truncate(before);
                self.host_value(m, targets, value, what);
                return;
            }
            for &target in targets {
                self.bind_constant(m, target, v.clone());
            }
            return;
        }
        // `GATHERED = NR * 64` over `pl.dynamic` dimensions: a run-time extent.
        if self.dynamic_arithmetic(m, value, &FxHashSet::default()) {
            for &target in targets {
                let t = self.modules[m].ast.expr(target).clone();
                if let AstExpr::Name(name) = t.kind {
                    self.bind_name(m, name, (Binding::DynExtent(value), t.span));
                }
            }
            return;
        }
        let v = self.eval_const(m, value);
        for &target in targets {
            self.bind_constant(m, target, v.clone());
        }
    }

    /// A module-level dict or conditional expression that is not a constant: its names are
    /// host names (N0001); `what` says why, `{}` standing for the first target.
    fn host_value(&mut self, m: ModuleId, targets: &[ast::ExprId], value: ast::ExprId, what: &str) {
        let file = self.modules[m].file;
        let first = self.modules[m].ast.expr(targets[0]).span;
        let span = first.to(self.modules[m].ast.expr(value).span);
        let name = self.text(file, first).to_string();
        self.diags.push(Diagnostic::note(
            Code::N0001,
            format!("host code skipped: {}", what.replace("{}", &name)),
            Label::primary(file, span, "runs in Python"),
        ));
        for &target in targets {
            let t = self.modules[m].ast.expr(target).clone();
            if let AstExpr::Name(n) = t.kind {
                self.modules_mut()[m].host_names.insert(n, t.span);
            }
        }
    }

    /// Binds one target of a module constant; `None` when the value is not a constant (the
    /// error is reported at the value, so uses of the names say nothing more).
    fn bind_constant(&mut self, m: ModuleId, target: ast::ExprId, v: Option<Const>) {
        let file = self.modules[m].file;
        let t = self.modules[m].ast.expr(target).clone();
        let Some(v) = v else {
            let items = match &t.kind {
                AstExpr::Tuple(items) => self.modules[m].ast.list(*items).to_vec(),
                _ => vec![target],
            };
            for item in items {
                let it = self.modules[m].ast.expr(item).clone();
                if let AstExpr::Name(name) = it.kind {
                    self.bind_name(m, name, (Binding::Poisoned, it.span));
                }
            }
            return;
        };
        match (&t.kind, &v) {
            (AstExpr::Name(name), _) => {
                self.bind_name(m, *name, (Binding::Const(v), t.span));
            }
            (AstExpr::Tuple(items), Const::Tuple(values) | Const::List(values)) if items.len() == values.len() => {
                for (item, value) in self.modules[m].ast.list(*items).to_vec().iter().zip(values) {
                    let it = self.modules[m].ast.expr(*item).clone();
                    if let AstExpr::Name(name) = it.kind {
                        self.bind_name(m, name, (Binding::Const(value.clone()), it.span));
                    }
                }
            }
            _ => {
                self.error(
                    Code::E0218,
                    file,
                    t.span,
                    "cannot unpack this constant into these names",
                    "mismatched unpacking",
                );
            }
        }
    }

    // ------------------------------------------------------------ signatures

    /// Collects every pl function of every module, in load order then source order.
    fn collect_functions(&mut self) {
        for m in 0..self.modules.len() {
            // The module's tree, read by reference while the signatures are collected.
            let tree = Arc::clone(&self.modules[m].ast);
            let defs: Vec<AstStmtId> =
                tree.body.iter().copied().filter(|&s| matches!(tree.stmt(s).kind, AstStmt::FunctionDef(_))).collect();
            // The module level's functions sized once (not grown, and copied, by doubling).
            self.namespaces_mut()[0].functions.reserve(defs.len());
            // Many functions: their signatures read on runs in parallel first, then declared
            // here in order.
            let mut planned = self.plan_signatures(m, &defs);
            for &stmt in &tree.body {
                match &tree.stmt(stmt).kind {
                    AstStmt::FunctionDef(def) => {
                        let declared = self.declare_planned(&mut planned);
                        if !declared {
                            self.collect_function(m, stmt, def, 0, None);
                        }
                    }
                    AstStmt::ClassDef(class) => self.collect_program(m, class),
                    _ => {}
                }
            }
        }
    }

    /// What `restrict` found in the bodies of functions whose decorator gives a `role=`
    /// (`Ast::role_body_checks`), now that every decorator is resolved: dropped for a body
    /// that is Python (`FuncDecl::python_body`, decided in `collect_function`), reported
    /// otherwise, as a syntax error (the bodies are then not lowered). A factory's instance
    /// shares its file's statements, so a body is Python when any reading of it says so;
    /// a report repeated by two instances is dropped with the other repeats.
    fn report_role_bodies(&mut self) {
        for m in 0..self.modules.len() {
            let file = self.modules[m].file;
            if self.modules[m].ast.role_body_checks.is_empty() {
                continue;
            }
            let checks = std::mem::take(&mut Arc::make_mut(&mut self.modules_mut()[m].ast).role_body_checks);
            for (stmt, d) in checks {
                if !self.python_bodies.contains(&(file, stmt)) {
                    self.syntax_errors |= d.severity == crate::diag::Severity::Error;
                    self.diags.push(d);
                }
            }
        }
    }

    fn collect_program(&mut self, m: ModuleId, class: &ast::ClassDef) {
        let file = self.modules[m].file;
        let Some(deco) = class.decorators.first() else { return };
        let options = self.program_decorator(m, deco);
        let Some(strict_ssa) = options else { return };
        self.bind_name(m, class.name.name, (Binding::ProgramClass, class.name.span));
        let ns = self.namespaces.len();
        let built_by = self.factory_calls.get(&m).cloned();
        self.namespaces_mut().push(Namespace {
            class: Some((class.name.name, file, class.name.span)),
            functions: IndexMap::default(),
            built_by,
        });
        let mut any = false;
        let tree = Arc::clone(&self.modules[m].ast);
        for &s in tree.block(&class.body) {
            if let AstStmt::FunctionDef(def) = &tree.stmt(s).kind {
                any = true;
                self.collect_function(m, s, def, ns, Some(strict_ssa));
            }
        }
        if !any {
            let name = self.name(class.name.name).to_string();
            self.error(
                Code::E0224,
                file,
                class.name.span,
                format!("class `{name}` contains no @pl.function methods"),
                "an empty program",
            );
        }
    }

    fn collect_function(
        &mut self,
        m: ModuleId,
        stmt: AstStmtId,
        def: &ast::FunctionDef,
        namespace: usize,
        program_strict: Option<bool>,
    ) {
        if let Some(sig) = self.signature(m, stmt, def, namespace, program_strict) {
            self.declare(sig);
        }
    }

    /// A function's signature, read from its decorator and annotations: what it reports,
    /// the types and names it interns and the rest of the lowering do not depend on one
    /// another, so the signatures of many functions are read on runs in parallel
    /// (`parallel.rs`). `None` when the decorator is not a pl function's.
    fn signature(
        &mut self,
        m: ModuleId,
        stmt: AstStmtId,
        def: &ast::FunctionDef,
        namespace: usize,
        program_strict: Option<bool>,
    ) -> Option<Signature> {
        let method = namespace != 0;
        let file = self.modules[m].file;
        let deco = def.decorators.first()?;
        let (mut decl, mixed, deco_path) = self.function_decorator(m, deco)?;
        let positional_only = !method && (deco_path == "function" || deco_path == "inline");
        let jit = deco_path == "jit" || deco_path.starts_with("jit.");
        decl.strict_ssa |= program_strict.unwrap_or(false);
        let name = def.name.name;
        (decl.level, decl.role) = self.level_role(file, def.name.span, name, decl.kind, decl.level, decl.role);
        // Parameters: a method's `self` is skipped. A method without `self` takes its
        // parameters as they are, as PyPTO reads it (`self.f(...)` still calls it).
        let mut params = Vec::with_capacity(def.params.len());
        let mut ast_params = def.params.iter();
        if method && ast_params.clone().next().is_some_and(|p| p.name.is_some_and(|n| self.name(n.name) == "self")) {
            let receiver = ast_params.next().expect("checked above");
            if decl.python_body() {
                let n = self.name(name).to_string();
                self.error_help(
                    Code::E0208,
                    file,
                    receiver.span,
                    format!("the SubWorker function `{n}` must not declare `self`"),
                    "a HOST SubWorker is self-contained",
                    "remove the `self` parameter: PyPTO runs the body as a plain Python function",
                );
            }
        }
        let mut scalars_seen = FxHashSet::default();
        // The `pl.dynamic` symbols the annotations read so far.
        let mut dyn_used: Vec<Symbol> = Vec::new();
        // Python refuses a name given to two parameters ("duplicate argument 'x' in
        // function definition"): the second is reported (and kept, so that calls of the
        // function are not reported for their number of arguments too).
        let mut first_of: FxHashMap<Symbol, Span> =
            FxHashMap::with_capacity_and_hasher(def.params.len(), Default::default());
        if def.params.len() > ast_params.len() {
            // The `self` of a method, skipped above.
            if let Some(receiver) = def.params.first().and_then(|p| p.name) {
                first_of.insert(receiver.name, receiver.span);
            }
        }
        for p in ast_params {
            let Some(pname) = p.name else { continue };
            self.shadows_namespace(m, pname.name, pname.span);
            if let Some(&first) = first_of.get(&pname.name) {
                let n = self.name(pname.name).to_string();
                self.error(
                    Code::E0227,
                    file,
                    pname.span,
                    format!("duplicate parameter `{n}` in the definition of `{}`", self.name(name)),
                    "this name is already a parameter",
                )
                .secondary
                .push(Label::secondary(file, first, "first parameter of this name"));
            } else {
                first_of.insert(pname.name, pname.span);
            }
            let Some(annotation) = p.annotation else {
                let n = self.name(pname.name).to_string();
                self.error(
                    Code::E0208,
                    file,
                    p.span,
                    format!("parameter `{n}` has no type annotation"),
                    "annotate it, e.g. `x: pl.Tensor[[64], pl.FP32]`",
                );
                // Bound with an unknown type, so that its uses add nothing.
                params.push(ParamInfo { name: pname.name, ty: ir::Types::UNKNOWN, dir: Direction::In, span: p.span });
                continue;
            };
            let Some((ty, dir)) = self.param_type(m, annotation, &scalars_seen) else {
                params.push(ParamInfo { name: pname.name, ty: ir::Types::UNKNOWN, dir: Direction::In, span: p.span });
                continue;
            };
            if dir == Direction::InOut && self.program.types.get(ty).is_scalar() {
                let n = self.name(pname.name).to_string();
                self.error_help(
                    Code::E0208,
                    file,
                    p.span,
                    format!("scalar parameter `{n}` cannot be InOut"),
                    "InOut on a scalar",
                    "a scalar is passed by value; return the new value instead",
                );
            }
            if self.program.types.get(ty).is_scalar() {
                scalars_seen.insert(pname.name);
                self.dynamic_after_use(m, pname, &dyn_used);
            }
            self.dynamic_names_in(m, annotation, &mut dyn_used);
            params.push(ParamInfo { name: pname.name, ty, dir, span: p.span });
        }
        let returns = def.returns.and_then(|r| self.return_types(m, r));
        let info = FuncInfo {
            name,
            module: m,
            def: stmt,
            decl,
            method,
            params,
            returns,
            namespace,
            span: def.name.span,
            positional_only,
            jit,
            mixed: None,
        };
        Some(Signature { info, mixed: mixed.map(Box::new) })
    }

    /// Declares a function of its signature in its namespace (E0214 when the name is
    /// taken) and binds its name in its module.
    fn declare(&mut self, Signature { info, mixed }: Signature) {
        let (m, name, namespace) = (info.module, info.name, info.namespace);
        let file = self.modules[m].file;
        if info.decl.python_body() {
            self.python_bodies.insert((file, info.def));
        }
        if let Some(existing) = self.namespaces[namespace].functions.get(&name) {
            let first = existing.span;
            let first_file = self.modules[existing.module].file;
            let n = self.name(name).to_string();
            self.error(Code::E0214, file, info.span, format!("function `{n}` is defined twice"), "second definition")
                .secondary
                .push(Label::secondary(first_file, first, "first definition"));
            return;
        }
        // A function named as a namespace was reported when the module was bound.
        if !info.method && self.namespace_named(m, name).is_none() {
            self.bind_name(m, name, (Binding::Function(name), info.span));
        }
        let Some(members) = mixed.map(|m| *m) else {
            self.namespaces_mut()[namespace].functions.insert(name, info);
            return;
        };
        // A mixed external kernel: its two members (named as PyPTO's specializer names
        // them, not bound to a Python name), then the Group the stub's name calls.
        let parts = [(members.aic, "_aic"), (members.aiv, "_aiv")].map(|(mut decl, suffix)| {
            let text = format!("{}{suffix}", self.name(name));
            let member = self.intern(&text);
            (decl.level, decl.role) = decl.kind.derived_level_role();
            (member, decl)
        });
        for (member, _) in &parts {
            if let Some(existing) = self.namespaces[namespace].functions.get(member) {
                let first = (self.modules[existing.module].file, existing.span);
                let n = self.name(*member).to_string();
                let stub = self.name(name).to_string();
                self.error(
                    Code::E0214,
                    file,
                    info.span,
                    format!(
                        "function `{n}` is defined twice: the mixed external kernel `{stub}` makes its member `{n}`"
                    ),
                    "makes a second definition",
                )
                .secondary
                .push(Label::secondary(first.0, first.1, "first definition"));
                return;
            }
        }
        for (member, decl) in parts.clone() {
            let member_info = FuncInfo { name: member, decl, mixed: Some(MixedPart::Member), ..info.clone() };
            self.namespaces_mut()[namespace].functions.insert(member, member_info);
        }
        let mixed = Some(MixedPart::Group { aic: parts[0].0, aiv: parts[1].0 });
        self.namespaces_mut()[namespace].functions.insert(name, FuncInfo { mixed, ..info });
    }

    /// Level and role from the kind, checked against explicit ones (E0213).
    fn level_role(
        &mut self,
        file: FileId,
        span: Span,
        name: Symbol,
        kind: FuncKind,
        level: Option<Level>,
        role: Option<Role>,
    ) -> (Option<Level>, Option<Role>) {
        let (derived_level, derived_role) = kind.derived_level_role();
        let fname = self.name(name).to_string();
        // (keyword, what the kind fixes, the implied and the given value where they differ)
        let conflicts = [
            (
                "level",
                "runs at level",
                derived_level.zip(level).filter(|(d, l)| d != l).map(|(d, l)| (d.to_string(), l.to_string())),
            ),
            (
                "role",
                "has role",
                derived_role.zip(role).filter(|(d, r)| d != r).map(|(d, r)| (d.to_string(), r.to_string())),
            ),
        ];
        for (key, verb, conflict) in conflicts {
            let Some((d, given)) = conflict else { continue };
            self.error_help(
                Code::E0213,
                file,
                span,
                format!("function `{fname}` has type {kind}, which implies {key}={d}, but {key}={given} was given"),
                format!("conflicting {key}"),
                format!("drop `{key}=`; a {kind} function always {verb} {d}"),
            );
        }
        (derived_level.or(level), derived_role.or(role))
    }

    // ------------------------------------------------------------ bodies

    /// Lowers every namespace into a program of its own: the module-level functions (when
    /// there are any), then each `@pl.program` class. A class's program also gets the
    /// module-level functions its methods call.
    fn lower_bodies(&mut self) {
        self.sig_types = Arc::new(std::mem::take(&mut self.program.types));
        self.last_value_type = None;
        let dynamic_dims = std::mem::take(&mut self.program.dynamic_dims);
        // The arenas sized from the syntax trees' (each namespace's share of them), so that
        // they are not grown, and copied, from empty: lowering makes about one IR node per
        // syntax node, and the passes add more.
        let lowered = self.namespaces.iter().filter(|n| !n.functions.is_empty()).count().max(1);
        let ast_exprs: usize = self.modules.iter().map(|m| m.ast.exprs.len()).sum::<usize>() / lowered;
        let ast_stmts: usize = self.modules.iter().map(|m| m.ast.stmts.len()).sum::<usize>() / lowered;
        for ns in 0..self.namespaces.len() {
            if self.namespaces[ns].functions.is_empty() {
                continue;
            }
            self.program = Program { dynamic_dims: dynamic_dims.clone(), ..Program::default() };
            self.imported.clear();
            self.last_value_type = None;
            self.program.exprs.reserve(ast_exprs);
            self.program.stmts.reserve(ast_stmts);
            self.program.vars.reserve(ast_stmts);
            self.program.name = self.namespaces[ns].class.map(|c| c.0);
            self.program.built_by = self.namespaces[ns].built_by.clone();
            self.current = ns;
            let names: Vec<Symbol> = self.namespaces[ns].functions.keys().copied().collect();
            self.program.functions.reserve(names.len());
            // Many functions: on runs in parallel, unless a run needs what another lowers.
            if !self.lower_in_parallel(ns, &names, (ast_stmts, ast_exprs, ast_stmts)) {
                for &name in &names {
                    self.ensure_lowered((ns, name));
                }
            }
            // The namespace's functions in source order, then the module-level functions
            // they called, in the order they were first needed: already so when each was
            // lowered in its turn (always on runs in parallel), which one look at the names
            // tells.
            if !self.program.functions.keys().eq(names.iter()) {
                self.in_source_order(names);
            }
            self.finished.push(std::mem::take(&mut self.program));
            self.last_value_type = None;
        }
    }

    /// Puts the current program's functions in the order of `names` (a namespace's, in
    /// source order), then the other functions they called, in the order they were first
    /// needed. One pass over the lowered functions (removing each from the middle of the
    /// map would make this quadratic in the number of functions).
    fn in_source_order(&mut self, names: Vec<Symbol>) {
        let functions = std::mem::take(&mut self.program.functions);
        self.program.functions.reserve(functions.len());
        let own: FxHashSet<Symbol> = names.iter().copied().collect();
        let mut mine = FxHashMap::with_capacity_and_hasher(names.len(), Default::default());
        let mut called = Vec::new();
        for (name, f) in functions {
            if own.contains(&name) {
                mine.insert(name, f);
            } else {
                called.push((name, f));
            }
        }
        for name in names {
            if let Some(f) = mine.remove(&name) {
                self.program.functions.insert(name, f);
            }
        }
        self.program.functions.extend(called);
    }

    /// The function a key names.
    pub fn func(&self, key: FnKey) -> Option<&FuncInfo> {
        self.namespaces.get(key.0)?.functions.get(&key.1)
    }

    /// Lowers a function's body into the current program unless done already. A call of a
    /// function without a return annotation needs the callee's body first, to know what it
    /// returns; a module-level function called from a class is lowered into the class's
    /// program too.
    pub fn ensure_lowered(&mut self, key: FnKey) {
        let Some(info) = self.func(key).cloned() else { return };
        if self.run.as_ref().is_some_and(|run| !run.owns(key)) {
            // Another run's function (or another namespace's): its body or its return
            // types are not this run's to make or read.
            self.shared_changed();
            return;
        }
        let state = self.states.entry((self.current, key)).or_insert(BodyState::NotLowered);
        if *state != BodyState::NotLowered {
            return;
        }
        *state = BodyState::Lowering;
        let function = body::lower_function(self, &info);
        self.program.functions.insert(key.1, function);
        self.states.insert((self.current, key), BodyState::Lowered);
    }

    /// The return types of a function, for a call to it: declared, or inferred from its
    /// lowered body; `None` while its body is being lowered (a recursive call).
    pub fn callee_returns(&mut self, key: FnKey) -> Option<Vec<TypeId>> {
        let info = self.func(key)?;
        if let Some(r) = info.returns.clone() {
            return Some(r.iter().map(|&t| self.import_type(t)).collect());
        }
        self.ensure_lowered(key);
        self.program.functions.get(&key.1).map(|f| f.returns.clone())
    }

    /// The parameters of a function with their types in the current program.
    pub fn params_of(&mut self, key: FnKey) -> Option<Vec<ParamInfo>> {
        let params = self.func(key)?.params.clone();
        Some(params.into_iter().map(|p| ParamInfo { ty: self.import_type(p.ty), ..p }).collect())
    }

    /// A signature type (in `sig_types`) in the current program's type table.
    pub fn import_type(&mut self, id: TypeId) -> TypeId {
        // Every function imports its parameters' types, mostly the same few: each is
        // interned once per program.
        let slot = id.0 as usize;
        if let Some(&Some(done)) = self.imported.get(slot) {
            return done;
        }
        let ty = self.sig_types.get(id).clone();
        let ty = match ty {
            ir::Type::Tuple(items) => ir::Type::Tuple(items.into_iter().map(|t| self.import_type(t)).collect()),
            other => other,
        };
        let done = self.program.types.intern(ty);
        if self.imported.len() <= slot {
            self.imported.resize(slot + 1, None);
        }
        self.imported[slot] = Some(done);
        done
    }
}

/// The constants of Python's `math` module that pl code may use (`math.inf`, `from math
/// import pi`).
pub(crate) fn math_constant(name: &str) -> Option<f64> {
    Some(match name {
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "tau" => std::f64::consts::TAU,
        _ => return None,
    })
}
