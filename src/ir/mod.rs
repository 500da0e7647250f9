//! The IR: a program of functions whose statements and expressions live in arenas shared
//! by the whole program and are addressed by typed ids. Every node has a location (file and
//! span); nodes a pass makes carry the location of the source they came from, or
//! [`Loc::COMPILER`].
//!
//! Before `ConvertToSSA` a source name is one [`VarId`] for all its assignments within a
//! function (as PyPTO's parser does); `ConvertToSSA` gives each definition a variable of its
//! own. Types are interned ([`TypeId`]): equal types have equal ids. Walks over the IR and
//! rewrites of it (deep copies, substitutions) live in [`visit`].
//!
//! ```text
//! Program ─ functions (ordered by name of insertion) ─ Function ─ params, body: Block
//! Block = [StmtId]; Stmt ─ Assign | Eval | Return | Yield | If | For | While | Scope | ...
//! Expr ─ Var | constants | Tuple | Binary | Unary | Call(op or function) | TupleGet
//! ```

pub(crate) mod arith;
pub(crate) mod enums;
pub(crate) mod fork;
pub(crate) mod group;
pub(crate) mod limits;
pub(crate) mod lineage;

pub mod names;
pub(crate) mod ops;
pub(crate) mod prefault;
pub mod print;
pub(crate) mod types;
pub mod verify;
pub(crate) mod visit;

pub use enums::*;
pub use fork::Arena;
/// PyPTO op spellings plc refuses by name, with the reason (tests/spellings.rs reads them).
pub use ops::{refusal, REFUSED};
pub use types::{Dim, Type, TypeId, Types};

use crate::diag::Span;
use crate::intern::{Interner, Symbol};
use crate::source::FileId;
use indexmap::IndexMap;
use ops::Op;
use rustc_hash::FxBuildHasher;

/// Where a node comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

impl Loc {
    /// The location of nodes the compiler made without a source to point at.
    pub const COMPILER: Loc = Loc { file: FileId(u32::MAX), span: Span { lo: 0, hi: 0 } };

    pub fn new(file: FileId, span: Span) -> Self {
        Loc { file, span }
    }

    pub fn is_compiler_made(self) -> bool {
        self.file == Loc::COMPILER.file
    }
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(
    /// A variable (a definition site and everything that refers to it).
    VarId,
    "v"
);
id_type!(
    /// An expression.
    ExprId,
    "e"
);
id_type!(
    /// A statement.
    StmtId,
    "s"
);

/// A variable: its name, type and the location of its (first) definition.
#[derive(Clone, Debug, PartialEq)]
pub struct VarData {
    /// The name as printed: a source name, or a versioned one (`acc__ssa_v3`; see
    /// [`names`]).
    pub name: Symbol,
    /// The name the user wrote (`acc`): `name` without its version suffixes.
    pub source: Symbol,
    /// The SSA version `name` carries, if any.
    pub version: Option<names::Version>,
    pub ty: TypeId,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
    pub loc: Loc,
}

/// An expression is 48 bytes: a call's arguments and a tuple's items are boxed slices (a
/// vector's capacity would make it 56), and the kind's tag lives in the callee's.
const _: () = assert!(std::mem::size_of::<Expr>() <= 48);

/// Scalar operators (tensor and tile arithmetic are op calls, never these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `/`: true division.
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn spelling(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

impl UnOp {
    pub fn spelling(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "not ",
            UnOp::BitNot => "~",
        }
    }
}

/// What a call calls: an operation of the op table, or a function of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    Op(Op),
    Func(Symbol),
    /// `pl.submit(self.f, ...)` / `pl.spmd_submit(self.f, ...)`, or a region with `as tid`
    /// or `deps=` once outlined: a launch of `f` as a task whose id the caller keeps. Its
    /// value is a tuple of `f`'s results followed by a `TASK_ID`. Its launch options are in
    /// the call's [`CallAttrs`].
    Submit(Symbol),
}

impl Callee {
    /// The function called or launched, if any.
    pub fn function(self) -> Option<Symbol> {
        match self {
            Callee::Func(f) | Callee::Submit(f) => Some(f),
            Callee::Op(_) => None,
        }
    }
}

/// The options of a task launch: `pl.submit(..., deps=[...])`, `pl.spmd_submit(...,
/// core_num=n)`, and what outlining a region with such options leaves on its call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchOptions {
    /// The number of blocks of an Spmd launch.
    pub core_num: Option<ExprId>,
    /// `True`: all blocks start together.
    pub sync_start: Option<ExprId>,
    /// The task ids (a list, task-id arrays allowed) the task waits for.
    pub deps: Option<ExprId>,
    pub allow_early_resolve: Option<ExprId>,
    pub predicate: Option<ExprId>,
    /// Tensors to dump after the task.
    pub dumps: Option<ExprId>,
    /// `timing_slot=n`: the device timing slot a profiling run records the task in (kept
    /// for the printer; the CPU runtimes ignore it).
    pub timing_slot: Option<ExprId>,
}

impl LaunchOptions {
    /// The keywords, in the order the printer writes them.
    pub const KEYWORDS: [&'static str; 7] =
        ["core_num", "sync_start", "deps", "allow_early_resolve", "predicate", "dumps", "timing_slot"];

    /// The option a keyword sets (`core_num=`), to fill in.
    pub fn slot_mut(&mut self, keyword: &str) -> Option<&mut Option<ExprId>> {
        Some(match keyword {
            "core_num" => &mut self.core_num,
            "sync_start" => &mut self.sync_start,
            "deps" => &mut self.deps,
            "allow_early_resolve" => &mut self.allow_early_resolve,
            "predicate" => &mut self.predicate,
            "dumps" => &mut self.dumps,
            "timing_slot" => &mut self.timing_slot,
            _ => return None,
        })
    }

    /// The options given, with their keywords, in the printer's order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, ExprId)> + '_ {
        let slots = [
            self.core_num,
            self.sync_start,
            self.deps,
            self.allow_early_resolve,
            self.predicate,
            self.dumps,
            self.timing_slot,
        ];
        Self::KEYWORDS.into_iter().zip(slots).filter_map(|(k, e)| Some((k, e?)))
    }

    fn map(&mut self, f: &mut impl FnMut(ExprId) -> ExprId) {
        let slots = [
            &mut self.core_num,
            &mut self.sync_start,
            &mut self.deps,
            &mut self.allow_early_resolve,
            &mut self.predicate,
            &mut self.dumps,
            &mut self.timing_slot,
        ];
        for e in slots.into_iter().flatten() {
            *e = f(*e);
        }
    }
}

/// What a call site says besides the arguments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallAttrsData {
    pub launch: LaunchOptions,
    /// `device=` on a call of an orchestrator.
    pub device: Option<ExprId>,
    /// The positions of the arguments written `pl.no_dep(x)`, ascending (`None`: none; read
    /// through [`CallAttrsData::no_dep_positions`]). A boxed slice, not a `Vec`: see the
    /// size below.
    pub no_dep: Option<Box<[usize]>>,
    /// How the callee uses each argument, from DeriveCallDirections (one per argument).
    pub arg_directions: Option<Vec<ArgDir>>,
    /// Other `attrs={...}` entries, in source order, kept for the printer.
    pub extra: Vec<(Symbol, ExprId)>,
}

/// A call's [`CallAttrsData`], allocated only for the calls that have some: read through
/// `Deref` (an empty set when there are none), written through [`CallAttrs::make_mut`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallAttrs(Option<Box<CallAttrsData>>);

static NO_ATTRS: CallAttrsData = CallAttrsData {
    launch: LaunchOptions {
        core_num: None,
        sync_start: None,
        deps: None,
        allow_early_resolve: None,
        predicate: None,
        dumps: None,
        timing_slot: None,
    },
    device: None,
    no_dep: None,
    arg_directions: None,
    extra: Vec::new(),
};

// At most the largest small block of the binary's allocator (`src/small_alloc.rs`, 128
// bytes): DeriveCallDirections gives most calls of a large program their data (20 000 at
// gen(10000)), on its serial path; at 136 bytes each went to the system allocator and its
// lock.
const _: () = assert!(std::mem::size_of::<CallAttrsData>() <= 128);

impl CallAttrsData {
    /// The positions of the arguments written `pl.no_dep(x)`, ascending.
    pub fn no_dep_positions(&self) -> &[usize] {
        self.no_dep.as_deref().unwrap_or(&[])
    }
}

impl std::ops::Deref for CallAttrs {
    type Target = CallAttrsData;

    fn deref(&self) -> &CallAttrsData {
        self.0.as_deref().unwrap_or(&NO_ATTRS)
    }
}

impl CallAttrs {
    /// No attributes.
    pub fn none() -> CallAttrs {
        CallAttrs(None)
    }

    pub fn make_mut(&mut self) -> &mut CallAttrsData {
        self.0.get_or_insert_with(Default::default)
    }

    /// The expressions the attributes hold: the launch options in the printer's order,
    /// `device`, then the other entries.
    pub fn exprs(&self) -> impl Iterator<Item = ExprId> + '_ {
        let launch = self.launch.iter().map(|(_, e)| e);
        launch.chain(self.device).chain(self.extra.iter().map(|&(_, e)| e))
    }

    /// The attributes with every expression replaced by `f`'s, in the order of [`exprs`].
    ///
    /// [`exprs`]: CallAttrs::exprs
    pub fn map_exprs(mut self, mut f: impl FnMut(ExprId) -> ExprId) -> CallAttrs {
        if let Some(data) = self.0.as_deref_mut() {
            data.launch.map(&mut f);
            if let Some(d) = &mut data.device {
                *d = f(*d);
            }
            for (_, e) in &mut data.extra {
                *e = f(*e);
            }
        }
        self
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Var(VarId),
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(Symbol),
    /// `None` where an argument may be absent (`deps=[tid, None]`).
    None,
    DType(DType),
    Enum(EnumValue),
    /// A `pl.dynamic("N")` dimension used as a value: its extent, known at run time.
    DynDim(Symbol),
    /// A list or tuple of values: shapes, offsets, `deps=[...]`, tuple returns.
    Tuple(Box<[ExprId]>),
    Binary {
        op: BinOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Unary {
        op: UnOp,
        operand: ExprId,
    },
    /// A call. For an op, `args` follows the op's parameter list (`None`: the default);
    /// for a function, its parameters in order.
    Call {
        callee: Callee,
        args: Box<[Option<ExprId>]>,
        /// What the call site says besides the arguments (none for most calls).
        attrs: CallAttrs,
    },
    /// `tuple[index]` with a constant index.
    TupleGet {
        tuple: ExprId,
        index: u32,
    },
}

impl ExprKind {
    /// A value written out in the node itself: a number, a bool, a string, `None`, a dtype
    /// or an enum value.
    pub fn is_literal(&self) -> bool {
        matches!(
            self,
            ExprKind::Int(_)
                | ExprKind::Float(_)
                | ExprKind::Bool(_)
                | ExprKind::Str(_)
                | ExprKind::None
                | ExprKind::DType(_)
                | ExprKind::Enum(_)
        )
    }
}

/// The prefix of a loop attribute that is an entry of the loop's `attrs={...}` dict
/// (`attrs={"k": v}` is the attribute `attrs:k`, printed back as the dict).
pub const LOOP_ATTR: &str = "attrs:";

/// The loop attribute that marks the `pl.parallel(2)` loop a `pl.split_aiv(2, mode=M)`
/// region is lowered to (`attrs={"split_aiv": M}`): the loop runs both lanes, so a value
/// its body defines has one after it (ConvertToSSA, `docs/passes.md`).
pub const SPLIT_AIV_ATTR: &str = "attrs:split_aiv";

pub type Block = Vec<StmtId>;

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
}

/// A loop-carried value: the variable the body sees, and its value on entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterArg {
    pub var: VarId,
    pub init: ExprId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Assign {
        var: VarId,
        value: ExprId,
    },
    /// An expression evaluated for its effect (`pl.store(...)` as a statement).
    Eval(ExprId),
    Return(Vec<ExprId>),
    /// The values a loop iteration or an `if` branch hands on; last in its block.
    Yield(Vec<ExprId>),
    /// The compound statements' payloads are boxed: most statements are assignments and
    /// calls, and every pass walks the statement arena.
    If(Box<IfStmt>),
    For(Box<ForStmt>),
    While(Box<WhileStmt>),
    Scope(Box<Scope>),
    Break,
    Continue,
}

/// A statement is about a third of what it was with the compound statements unboxed
/// (136 bytes); see `docs/ir.md`.
const _: () = assert!(std::mem::size_of::<Stmt>() <= 48);

/// `for var in range(start, stop, step): ...` (or `pl.range`, `pl.parallel`, ...), with
/// its loop-carried values.
#[derive(Clone, Debug, PartialEq)]
pub struct ForStmt {
    pub kind: ForKind,
    pub var: VarId,
    pub start: ExprId,
    pub stop: ExprId,
    pub step: ExprId,
    pub iter_args: Vec<IterArg>,
    pub body: Block,
    /// Bound to the final yield (`x = pl.yield_(...)` at the end of the body).
    pub return_vars: Vec<VarId>,
    /// Keyword arguments kept for the printer and later stages (`stage=`, `attrs=`).
    pub attrs: Vec<(Symbol, ExprId)>,
}

/// `while cond: ...`, with its loop-carried values.
#[derive(Clone, Debug, PartialEq)]
pub struct WhileStmt {
    pub cond: ExprId,
    pub iter_args: Vec<IterArg>,
    pub body: Block,
    pub return_vars: Vec<VarId>,
}

/// `if cond: ... else: ...`, with the names its branches' yields bind.
#[derive(Clone, Debug, PartialEq)]
pub struct IfStmt {
    pub cond: ExprId,
    pub then_body: Block,
    pub else_body: Option<Block>,
    /// Bound to the branches' yields (`x = pl.yield_(...)` in each branch).
    pub return_vars: Vec<VarId>,
}

/// A `with` region: device work (`pl.at`, `pl.cluster`, `pl.spmd`), a graph region
/// (`pl.graph`), or a runtime scope (`pl.scope`, `pl.manual_scope`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    pub kind: ScopeKind,
    /// `name_hint=` (the region name for a graph).
    pub name: Option<Symbol>,
    /// `as tid`.
    pub task_id: Option<VarId>,
    pub body: Block,
    /// Other keyword arguments, in source order (`deps=`, `optimizations=`, `dumps=`, ...).
    pub attrs: Vec<(Symbol, ExprId)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ScopeKind {
    /// `pl.at(level=pl.Level.CORE_GROUP)`.
    InCore,
    /// `pl.at(level=<another level>[, role=...])`.
    Hierarchy { level: Level, role: Option<Role> },
    /// `pl.cluster()`.
    Cluster,
    /// `pl.spmd(n)`.
    Spmd { core_num: ExprId },
    /// `pl.graph("name")`.
    Graph,
    /// `pl.scope()` / `pl.manual_scope()`.
    Runtime { manual: bool },
}

impl ScopeKind {
    /// How the scope is written, for messages: `pl.at(level=...)`, `pl.graph(...)`.
    pub fn construct(&self) -> &'static str {
        match self {
            ScopeKind::InCore => "pl.at(level=...)",
            ScopeKind::Hierarchy { .. } => "pl.at(level=..., role=...)",
            ScopeKind::Cluster => "pl.cluster()",
            ScopeKind::Spmd { .. } => "pl.spmd(...)",
            ScopeKind::Graph => "pl.graph(...)",
            ScopeKind::Runtime { manual: false } => "pl.scope()",
            ScopeKind::Runtime { manual: true } => "pl.manual_scope()",
        }
    }
}

/// The function attribute that carries an external kernel's include directories through a
/// printed program (PyPTO's `EXTERNAL_INCLUDE_DIRS_ATTR`): a JSON list of paths.
pub const EXTERNAL_INCLUDE_DIRS_ATTR: &str = "external_include_dirs";

/// The function attribute of an AIV kernel run on both AIV lanes of a mixed task.
pub const DUAL_AIV_DISPATCH_ATTR: &str = "dual_aiv_dispatch";

/// What a function's decorator declares of it (with `strict_ssa=` of its program and its
/// `pl.func_attr({...})`): its kind, where it runs, and its options. Lowering knows it
/// before the body (its `FuncInfo`); the IR function keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncDecl {
    pub kind: FuncKind,
    /// `strict_ssa=True` (function or program).
    pub strict_ssa: bool,
    /// The level it runs at: the one its kind implies ([`FuncKind::derived_level_role`]),
    /// else `level=`.
    pub level: Option<Level>,
    /// Its role: the one its kind implies, else `role=`.
    pub role: Option<Role>,
    /// `auto_scope=` of `@pl.jit`/`@pl.function`.
    pub auto_scope: Option<bool>,
    /// `pl.func_attr({...})` entries in source order: what an outlined region's options
    /// become (`split`, `slot_num`, `windowize`, ...).
    pub extra: Vec<(Symbol, ExprId)>,
    /// An external kernel's C++ source (`external_source=` of an AIC/AIV function), as the
    /// absolute path lowering resolved: the function is a signature without a body, and its
    /// kernel is that file.
    pub external_source: Option<String>,
    /// An external kernel's include directories (`include_dirs=` of `@pl.jit.extern`), as
    /// absolute paths in their order: PyPTO's `external_include_dirs` function attribute,
    /// which its backend hands to the kernel's compiler (`extra_include_dirs` of the
    /// kernel's entry in its kernel config).
    pub include_dirs: Vec<String>,
    /// An external AIV kernel written for both AIV lanes of a cluster (`dual_aiv_dispatch=`
    /// of a mixed `@pl.jit.extern`): a mixed task runs it on both.
    pub dual_aiv_dispatch: bool,
}

impl FuncDecl {
    /// A function of `kind` at `level` with `role`, without options (what a pass makes).
    pub fn new(kind: FuncKind, level: Option<Level>, role: Option<Role>) -> FuncDecl {
        FuncDecl {
            kind,
            level,
            role,
            auto_scope: None,
            strict_ssa: false,
            extra: Vec::new(),
            external_source: None,
            include_dirs: Vec::new(),
            dual_aiv_dispatch: false,
        }
    }

    /// A SubWorker at HOST level or above: PyPTO keeps its body as Python (an `InlineStmt`)
    /// and the function declares no `self`; plc reads its signature only.
    pub fn python_body(&self) -> bool {
        self.level.is_some_and(|l| l >= Level::Host) && self.role == Some(Role::SubWorker)
    }
}

/// A parameter of an IR function: its variable and how the function uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    pub var: VarId,
    pub dir: Direction,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Symbol,
    /// The location of the function's name.
    pub loc: Loc,
    pub decl: FuncDecl,
    pub params: Vec<Param>,
    /// The declared return types, or the types of the returned values when undeclared.
    pub returns: Vec<TypeId>,
    pub body: Block,
}

/// A program's functions, by name, in program order.
pub type Functions = IndexMap<Symbol, Function, FxBuildHasher>;

/// A whole program: its functions (in a deterministic order) and the arenas their nodes
/// live in.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The `@pl.program` class name (the printer's class name).
    pub name: Option<Symbol>,
    /// Functions in source order (outlined functions are inserted just before the function
    /// they came from).
    pub functions: Functions,
    pub vars: Arena<VarData>,
    pub exprs: Arena<Expr>,
    pub stmts: Arena<Stmt>,
    pub types: Types,
    /// The names of `pl.dynamic("N")` dimensions, in first-use order.
    pub dynamic_dims: Vec<Symbol>,
    /// The factory call that built the program's class, with every parameter's value
    /// (`BuildRowScale(batch=2, cols=32, precise=True)`); the C++ output names it.
    pub built_by: Option<String>,
}

impl Program {
    /// Whether `entry`, as `--entry` takes it (`name`, or `Class.name` when several programs
    /// have a function of that name), names this program's function `func`.
    pub fn is_entry(&self, func: Symbol, names: &Interner, entry: &str) -> bool {
        match entry.rsplit_once('.') {
            Some((class, name)) => self.name.map(|n| names.get(n)) == Some(class) && names.get(func) == name,
            None => names.get(func) == entry,
        }
    }

    pub fn var(&self, id: VarId) -> &VarData {
        &self.vars[id.index()]
    }

    /// The place in `functions` and the function called `name`, as `functions.get_full`
    /// finds them, for a call in the function at place `caller`: the few functions just
    /// before it are compared first (the outliners insert each function they make just
    /// before the function it came from, so the callee is usually there, in entries the
    /// caller's neighbours share), then the map is hashed. In a large program the hash
    /// table is not in the cache: a look-up reads it and the entry.
    pub fn callee_near(&self, name: Symbol, caller: usize) -> Option<(usize, &Function)> {
        const NEAR: usize = 2;
        for place in (caller.saturating_sub(NEAR)..caller).rev() {
            if let Some((&g, f)) = self.functions.get_index(place) {
                if g == name {
                    return Some((place, f));
                }
            }
        }
        self.functions.get_full(&name).map(|(place, _, f)| (place, f))
    }

    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id.index()]
    }

    /// A new variable named `name`; its source name and version are read off the name
    /// (the one rule of [`names`]), so a versioned name a pass makes and the same name
    /// read back from printed IR give the same variable data.
    pub fn new_var(&mut self, names: &mut Interner, name: Symbol, ty: TypeId, loc: Loc) -> VarId {
        let (source, version) = names::split(names, name);
        self.push_var(VarData { name, source, version, ty, loc })
    }

    /// [`Program::new_var`] for a name a pass has just composed from a known source name
    /// and version (`{source's base}__{role}_v{n}`), without taking the name apart again.
    pub fn new_version(
        &mut self,
        names: &mut Interner,
        name: Symbol,
        source: Symbol,
        version: names::Version,
        ty: TypeId,
        loc: Loc,
    ) -> VarId {
        debug_assert_eq!(names::split(names, name), (source, Some(version)), "{}", names.get(name));
        self.push_var(VarData { name, source, version: Some(version), ty, loc })
    }

    /// [`Program::new_var`] for a call site's local `name` = `<param's name>__graph_arg<k>`
    /// (`names::graph_arg`): its source name is `param`'s and it has no version, known
    /// without taking the name apart again (a nameless `param` goes through `new_var`).
    pub fn new_graph_arg(&mut self, names: &mut Interner, name: Symbol, param: VarId, ty: TypeId, loc: Loc) -> VarId {
        let source = self.var(param).source;
        if names.get(self.var(param).name).is_empty() {
            return self.new_var(names, name, ty, loc);
        }
        debug_assert_eq!(names::split(names, name), (source, None), "{}", names.get(name));
        self.push_var(VarData { name, source, version: None, ty, loc })
    }

    /// A new variable with the name, type and location of `v`.
    pub fn copy_var(&mut self, v: VarId) -> VarId {
        let data = self.var(v).clone();
        self.push_var(data)
    }

    fn push_var(&mut self, data: VarData) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(data);
        id
    }

    pub fn new_expr(&mut self, kind: ExprKind, ty: TypeId, loc: Loc) -> ExprId {
        let id = ExprId(self.exprs.len() as u32);
        self.exprs.push(Expr { kind, ty, loc });
        id
    }

    pub fn new_stmt(&mut self, kind: StmtKind, loc: Loc) -> StmtId {
        let id = StmtId(self.stmts.len() as u32);
        self.stmts.push(Stmt { kind, loc });
        id
    }

    /// The type of an expression.
    pub fn ty(&self, id: ExprId) -> &Type {
        self.types.get(self.expr(id).ty)
    }
}
