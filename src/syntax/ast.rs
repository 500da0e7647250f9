//! The abstract syntax tree. Nodes live in two arenas (`exprs`, `stmts`) and refer to each
//! other by typed ids, so the tree is dropped and walked without recursion limits of its
//! own; every node has a byte span. A child is always allocated before its parent, so
//! `child id < parent id` holds throughout (the depth check in `syntax::limits` relies on it).
//!
//! The tree follows Python's own AST closely: it says what was written, not what it means.
//! Forms the pl language does not have (`lambda`, `x += 1`, `try`, ...) are still parsed into
//! nodes so that a later check can refuse them by name.

use crate::diag::Span;
use crate::intern::Symbol;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExprId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StmtId(pub u32);

/// A parsed file.
#[derive(Clone, Default)]
pub struct Ast {
    pub exprs: Nodes<Expr>,
    pub stmts: Nodes<Stmt>,
    /// The module's top-level statements (host code excluded).
    pub body: Vec<StmtId>,
    /// Host code recognised and skipped before parsing, in source order.
    pub host: Vec<HostItem>,
    /// What `restrict` found in the bodies of functions whose decorator gives a `role=`,
    /// each with its function's statement: such a body may be Python (a HOST SubWorker's),
    /// which only the resolved decorator tells, so lowering reports these or drops them.
    pub role_body_checks: Vec<(StmtId, crate::diag::Diagnostic)>,
    /// The nodes' frequent lists (a call's arguments, a display's items, a block's
    /// statements, ...), each a [`Seq`] into these: no heap block per list.
    pub lists: Lists,
}

/// The shared vectors of the tree's lists, by the kind of their items, in parts as
/// [`Nodes`] (a list never spans two parts: each part's parser makes its own).
#[derive(Clone, Default, PartialEq)]
pub struct Lists {
    pub exprs: Nodes<ExprId>,
    pub stmts: Nodes<StmtId>,
    pub args: Nodes<Arg>,
    pub with_items: Nodes<WithItem>,
    pub pieces: Nodes<StrPiece>,
}

impl Lists {
    /// Empty lists with room for what `tokens` tokens usually make (pl code makes about
    /// one list item and one argument every 10 tokens, a statement in a block every 18):
    /// grown, they would be copied.
    pub fn with_capacity(tokens: usize) -> Lists {
        Lists {
            exprs: Nodes::with_capacity(tokens / 8),
            stmts: Nodes::with_capacity(tokens / 14),
            args: Nodes::with_capacity(tokens / 8),
            with_items: Nodes::with_capacity(tokens / 64),
            pieces: Nodes::with_capacity(tokens / 64),
        }
    }

    /// These lists' lengths (for [`Lists::truncate`]).
    pub fn lens(&self) -> [usize; 5] {
        [self.exprs.len(), self.stmts.len(), self.args.len(), self.with_items.len(), self.pieces.len()]
    }

    /// Keeps the lists' items made before `lens`.
    pub fn truncate(&mut self, [exprs, stmts, args, with_items, pieces]: [usize; 5]) {
        self.exprs.truncate(exprs);
        self.stmts.truncate(stmts);
        self.args.truncate(args);
        self.with_items.truncate(with_items);
        self.pieces.truncate(pieces);
    }

    /// `other`'s lists after these, as [`Nodes::append`] (the caller moves the `Seq`s).
    pub fn append(&mut self, other: Lists) {
        self.exprs.append(other.exprs);
        self.stmts.append(other.stmts);
        self.args.append(other.args);
        self.with_items.append(other.with_items);
        self.pieces.append(other.pieces);
    }
}

/// A list of a node: `len` items from `start` in the tree's shared vector of `T`s
/// ([`Ast::list`] gives the slice). Copied, compared and hashed as the range it is.
pub struct Seq<T> {
    pub start: u32,
    pub len: u32,
    item: std::marker::PhantomData<fn() -> T>,
}

impl<T> Seq<T> {
    pub const EMPTY: Seq<T> = Seq { start: 0, len: 0, item: std::marker::PhantomData };

    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

impl<T> Clone for Seq<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Seq<T> {}

impl<T> Default for Seq<T> {
    fn default() -> Self {
        Seq::EMPTY
    }
}

impl<T> PartialEq for Seq<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.start, self.len) == (other.start, other.len)
    }
}

impl<T> Eq for Seq<T> {}

impl<T> std::fmt::Debug for Seq<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seq({}+{})", self.start, self.len)
    }
}

/// An item kind with a shared vector in [`Lists`].
pub trait Listed: Sized {
    fn of(lists: &Lists) -> &Nodes<Self>;
    fn of_mut(lists: &mut Lists) -> &mut Nodes<Self>;
}

macro_rules! listed {
    ($t:ty, $field:ident) => {
        impl Listed for $t {
            fn of(lists: &Lists) -> &Nodes<Self> {
                &lists.$field
            }
            fn of_mut(lists: &mut Lists) -> &mut Nodes<Self> {
                &mut lists.$field
            }
        }
    };
}
listed!(ExprId, exprs);
listed!(StmtId, stmts);
listed!(Arg, args);
listed!(WithItem, with_items);
listed!(StrPiece, pieces);

impl Lists {
    /// The items of `seq`.
    pub fn get<T: Listed>(&self, seq: Seq<T>) -> &[T] {
        T::of(self).slice(seq.start as usize, seq.len as usize)
    }

    /// A new list of `items`, after every list made before ([`Seq::EMPTY`] when empty).
    pub fn add<T: Listed>(&mut self, items: impl IntoIterator<Item = T>) -> Seq<T> {
        let nodes = T::of_mut(self);
        let start = nodes.len();
        nodes.extend(items);
        match nodes.len() - start {
            // One empty list for every parser and part (the trees compare equal).
            0 => Seq::EMPTY,
            len => Seq { start: start as u32, len: len as u32, item: std::marker::PhantomData },
        }
    }
}

impl Ast {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.0 as usize]
    }

    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id.0 as usize]
    }

    /// The items of one of the nodes' lists (a call's arguments, a block's statements, ...).
    pub fn list<T: Listed>(&self, seq: Seq<T>) -> &[T] {
        self.lists.get(seq)
    }

    /// The statements of `block`.
    pub fn block(&self, block: &Block) -> &[StmtId] {
        self.lists.get(block.stmts)
    }
}

/// An arena of nodes, indexed by id: one vector, or, for a file parsed in parts
/// (`syntax::parallel`), each part's vector as the part's parser made it, its ids moved
/// past the parts' before it; the parts are never copied into one. New nodes go to the
/// last part. A node of a later part is found through an index of the ids by blocks of
/// [`INDEX_BLOCK`] (a binary search over the parts at each read of a node was 3.5 % of
/// `plc check`'s time, docs/performance.md).
#[derive(Clone)]
pub struct Nodes<T> {
    /// The nodes from id 0 (the first part's).
    first: Vec<T>,
    /// The later parts, each with the id of its first node (none empty).
    later: Vec<(u32, Vec<T>)>,
    /// For each block of [`INDEX_BLOCK`] ids from id 0, up to the nodes there were when the
    /// parts last changed: how many later parts begin at or before the block's first id.
    /// Empty without later parts.
    index: Vec<u32>,
}

/// The ids of a block of [`Nodes::index`], as a power of two; a part is seldom shorter
/// (`syntax::parallel` cuts parts of at least 16 KiB of text).
const INDEX_SHIFT: u32 = 10;
const INDEX_BLOCK: usize = 1 << INDEX_SHIFT;

impl<T> Default for Nodes<T> {
    fn default() -> Self {
        Nodes { first: Vec::new(), later: Vec::new(), index: Vec::new() }
    }
}

impl<T> Nodes<T> {
    /// No nodes, with room for `capacity`.
    pub fn with_capacity(capacity: usize) -> Self {
        Nodes { first: Vec::with_capacity(capacity), later: Vec::new(), index: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.later.last().map_or(self.first.len(), |(start, nodes)| *start as usize + nodes.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, node: T) {
        let nodes = match self.later.last_mut() {
            Some((_, nodes)) => nodes,
            None => &mut self.first,
        };
        // A part's arenas are reserved for its whole tree: their pages faulted in a block
        // at a time.
        crate::mem::ahead(nodes);
        nodes.push(node);
    }

    /// Keeps the first `len` nodes.
    pub fn truncate(&mut self, len: usize) {
        let parts = self.later.len();
        while let Some((start, nodes)) = self.later.last_mut() {
            match len.checked_sub(*start as usize) {
                Some(0) | None => _ = self.later.pop(),
                Some(keep) => {
                    nodes.truncate(keep);
                    break;
                }
            }
        }
        if self.later.is_empty() {
            self.first.truncate(len);
        }
        if self.later.len() != parts {
            self.reindex();
        }
    }

    /// `other`'s nodes after these, without a copy: its parts become parts of these (the
    /// ids in them are the caller's to move past these).
    pub fn append(&mut self, other: Nodes<T>) {
        for part in std::iter::once(other.first).chain(other.later.into_iter().map(|(_, nodes)| nodes)) {
            match self.is_empty() {
                true => self.first = part,
                false if part.is_empty() => {}
                false => self.later.push((self.len() as u32, part)),
            }
        }
        self.reindex();
    }

    /// Makes [`Nodes::index`] anew for the parts there are now.
    fn reindex(&mut self) {
        self.index.clear();
        if self.later.is_empty() {
            return;
        }
        let mut k = 0;
        for block in 0..self.len().div_ceil(INDEX_BLOCK) {
            let at = block * INDEX_BLOCK;
            while self.later.get(k).is_some_and(|&(start, _)| start as usize <= at) {
                k += 1;
            }
            self.index.push(k as u32);
        }
    }

    /// Pushes `items` onto the last part (one list: it stays in one part).
    pub fn extend(&mut self, items: impl IntoIterator<Item = T>) {
        let nodes = match self.later.last_mut() {
            Some((_, nodes)) => nodes,
            None => &mut self.first,
        };
        for item in items {
            crate::mem::ahead(nodes);
            nodes.push(item);
        }
    }

    /// `len` nodes from node `start`, all in one part (empty when `len` is 0).
    pub fn slice(&self, start: usize, len: usize) -> &[T] {
        if len == 0 {
            return &[];
        }
        let (part, at) = self.locate(start);
        part.get(at..at + len).unwrap_or(&[])
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.first.iter().chain(self.later.iter().flat_map(|(_, nodes)| nodes))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.first.iter_mut().chain(self.later.iter_mut().flat_map(|(_, nodes)| nodes))
    }

    /// The part holding node `i` and `i`'s index in it (an empty part past the end).
    #[inline]
    fn locate(&self, i: usize) -> (&[T], usize) {
        if i < self.first.len() {
            return (&self.first, i);
        }
        let (k, at) = self.later_part(i);
        (self.later.get(k).map_or(&[][..], |(_, nodes)| nodes), at)
    }

    /// The later part holding node `i` (past the first) and `i`'s index in it.
    #[inline]
    fn later_part(&self, i: usize) -> (usize, usize) {
        // The parts that begin at or before `i`'s block, then those that begin in it at or
        // before `i` (past the index, only the last part's nodes: new nodes go there).
        let mut k = self.index.get(i >> INDEX_SHIFT).map_or(self.later.len(), |&k| k as usize);
        while self.later.get(k).is_some_and(|&(start, _)| start as usize <= i) {
            k += 1;
        }
        let k = k.saturating_sub(1);
        (k, i - self.later.get(k).map_or(0, |&(start, _)| start as usize))
    }
}

impl<T> Nodes<T> {
    /// Asks the processor to bring the nodes of `ids` into its cache, at most
    /// [`PREFETCH_MAX`] bytes of them (a hint: nothing is read, and ids past the end are
    /// left out). On other processors than x86-64, nothing.
    pub fn prefetch(&self, ids: std::ops::Range<usize>) {
        let end = ids.end.min(self.len());
        let mut i = ids.start;
        let mut budget = PREFETCH_MAX;
        while i < end && budget > 0 {
            let (part, at) = self.locate(i);
            let Some(nodes) = part.get(at..part.len().min(at + (end - i))).filter(|n| !n.is_empty()) else { break };
            let bytes = std::mem::size_of_val(nodes).min(budget);
            prefetch_bytes(nodes.as_ptr().cast(), bytes);
            budget -= bytes;
            i += nodes.len();
        }
    }
}

/// The most bytes [`Nodes::prefetch`] asks for at a time (a function's nodes are a few
/// KiB; the processor's first-level cache holds 32 or 48).
const PREFETCH_MAX: usize = 16 << 10;

/// A prefetch of each cache line of `len` bytes at `start`.
fn prefetch_bytes(start: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    for off in (0..len).step_by(64) {
        // SAFETY: a prefetch reads and writes nothing, and cannot fault; the address is
        // within the caller's slice.
        unsafe { core::arch::x86_64::_mm_prefetch(start.add(off).cast::<i8>(), core::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, len);
}

impl Ast {
    /// Brings the nodes of the function defined by `def` into the processor's cache,
    /// ahead of a walk of it that would otherwise wait for them one by one (lowering reads
    /// the tree long after the parse wrote it; docs/performance.md). The parser makes a
    /// definition's nodes one after another, its statement last: its expressions are those
    /// from its first decorator or annotation to the first of `next` (the definition after
    /// it, when known), its statements the [`DEF_STMTS`] before it and itself.
    pub fn prefetch_def(&self, def: StmtId, next: Option<StmtId>) {
        let first_expr = |s: StmtId| match &self.stmt(s).kind {
            StmtKind::FunctionDef(f) => f
                .decorators
                .first()
                .map(|d| d.expr)
                .or_else(|| f.params.iter().find_map(|p| p.annotation.or(p.default)))
                .map(|e| e.0 as usize),
            _ => None,
        };
        let Some(lo) = first_expr(def) else { return };
        // A decorator's or annotation's own parts come before it.
        let lo = lo.saturating_sub(DEF_HEAD_NODES);
        let hi = next.and_then(first_expr).filter(|&hi| hi > lo).unwrap_or(usize::MAX);
        self.exprs.prefetch(lo..hi);
        let s = def.0 as usize;
        self.stmts.prefetch(s.saturating_sub(DEF_STMTS)..s + 1);
    }
}

/// The statements [`Ast::prefetch_def`] brings in before a definition's own: a function's
/// body is rarely longer (the definition before it is not looked up, which costs as much
/// as it saves).
const DEF_STMTS: usize = 64;

/// About how many nodes a decorator (`pl.function(type=pl.FunctionType.Orchestration)`)
/// makes before its own.
const DEF_HEAD_NODES: usize = 8;

impl<T> std::ops::Index<usize> for Nodes<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        let (part, at) = self.locate(i);
        &part[at]
    }
}

impl<T> std::ops::IndexMut<usize> for Nodes<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        if i < self.first.len() {
            return &mut self.first[i];
        }
        let (k, at) = self.later_part(i);
        &mut self.later[k].1[at]
    }
}

impl<T: PartialEq> PartialEq for Nodes<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: Symbol,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Name(Symbol),
    /// An integer literal; its text is the span's source.
    Int,
    Float,
    Imaginary,
    /// One or more adjacent string literals (`"a" "b"`), each piece with its kind.
    Str(Seq<StrPiece>),
    True,
    False,
    None,
    /// `...`
    Ellipsis,
    Attribute {
        value: ExprId,
        attr: Ident,
    },
    Call {
        func: ExprId,
        args: Seq<Arg>,
    },
    /// `value[index]`; several subscripts make `index` a `Tuple`, slices are `Slice` nodes.
    Subscript {
        value: ExprId,
        index: ExprId,
    },
    Slice {
        lower: Option<ExprId>,
        upper: Option<ExprId>,
        step: Option<ExprId>,
    },
    List(Seq<ExprId>),
    Tuple(Seq<ExprId>),
    Set(Seq<ExprId>),
    Dict(Vec<DictEntry>),
    Comprehension {
        kind: ComprehensionKind,
        elt: ExprId,
        value: Option<ExprId>,
        /// A boxed slice, not a vector: the largest variant, it sets `Expr`'s size.
        generators: Box<[Generator]>,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    /// `a and b`, `a or b` (left-folded).
    Bool {
        op: BoolOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    /// `a < b`, or a chain `a < b <= c` (`rest` has one entry per operator).
    Compare {
        first: ExprId,
        rest: Vec<(CmpOp, ExprId)>,
    },
    /// `body if test else orelse`
    IfExp {
        test: ExprId,
        body: ExprId,
        orelse: ExprId,
    },
    Lambda {
        params: Vec<Param>,
        body: ExprId,
    },
    /// `*x` in a call, list or target.
    Starred(ExprId),
    /// `name := value`
    NamedExpr {
        target: ExprId,
        value: ExprId,
    },
    Yield(Option<ExprId>),
    Await(ExprId),
    /// What the parser made of input it could not parse (the error is already reported).
    Error,
}

/// The pattern of the literal expression kinds: a number, string, `True`, `False`, `None`
/// or `...` (one list for `ExprKind::is_literal` and the exhaustive matches).
macro_rules! literal_kinds {
    () => {
        ExprKind::Int
            | ExprKind::Float
            | ExprKind::Imaginary
            | ExprKind::Str(_)
            | ExprKind::True
            | ExprKind::False
            | ExprKind::None
            | ExprKind::Ellipsis
    };
}
pub(crate) use literal_kinds;

impl ExprKind {
    /// A literal: a number, string, `True`, `False`, `None` or `...`.
    pub fn is_literal(&self) -> bool {
        matches!(self, literal_kinds!())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrKind {
    Plain,
    Bytes,
    Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrPiece {
    pub kind: StrKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComprehensionKind {
    List,
    Set,
    Dict,
    Generator,
}

/// One `for target in iter if cond ...` clause of a comprehension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// The name or tuple of names bound by the clause.
    pub target: ExprId,
    /// What the clause iterates over.
    pub iter: ExprId,
    /// The `if` filters, in source order.
    pub ifs: Vec<ExprId>,
    /// From `for` to the end of the last filter.
    pub span: Span,
}

/// One `key: value` (or `**mapping`) entry of a dict display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DictEntry {
    /// `None` for `**mapping`.
    pub key: Option<ExprId>,
    /// The value, or the mapping unpacked by `**`.
    pub value: ExprId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub kind: ArgKind,
    pub value: ExprId,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    Positional,
    Keyword(Ident),
    /// `*args`
    Star,
    /// `**kwargs`
    DoubleStar,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Pos,
    Invert,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    MatMul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    LShift,
    RShift,
    BitAnd,
    BitOr,
    BitXor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// A block of statements (the body of a compound statement).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    /// Read by [`Ast::block`].
    pub stmts: Seq<StmtId>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(ExprId),
    /// `a = b = value`: one or more targets.
    Assign {
        targets: Seq<ExprId>,
        value: ExprId,
    },
    AnnAssign {
        target: ExprId,
        annotation: ExprId,
        value: Option<ExprId>,
    },
    AugAssign {
        target: ExprId,
        op: BinOp,
        value: ExprId,
    },
    Return(Option<ExprId>),
    Pass,
    Break,
    Continue,
    /// `if`/`elif`/`else`: one branch per `if` and `elif`.
    If {
        branches: Vec<IfBranch>,
        orelse: Option<Block>,
    },
    For {
        target: ExprId,
        iter: ExprId,
        body: Block,
        orelse: Option<Block>,
    },
    While {
        test: ExprId,
        body: Block,
        orelse: Option<Block>,
    },
    With {
        items: Seq<WithItem>,
        body: Block,
    },
    FunctionDef(Box<FunctionDef>),
    ClassDef(Box<ClassDef>),
    Import(Vec<ImportName>),
    ImportFrom {
        level: u32,
        module: Option<DottedName>,
        names: Vec<ImportName>,
        star: bool,
    },
    /// A statement form of Python the pl language does not have. Its parts are kept so
    /// that every span stays inside the file's tree.
    Unsupported {
        construct: Construct,
        exprs: Vec<ExprId>,
        blocks: Vec<Block>,
    },
    /// What the parser made of a statement it could not parse (the error is reported).
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construct {
    Try,
    Raise,
    Assert,
    Del,
    Global,
    Nonlocal,
    Async,
}

impl Construct {
    pub fn describe(self) -> &'static str {
        match self {
            Construct::Try => "a `try` statement",
            Construct::Raise => "a `raise` statement",
            Construct::Assert => "an `assert` statement",
            Construct::Del => "a `del` statement",
            Construct::Global => "a `global` statement",
            Construct::Nonlocal => "a `nonlocal` statement",
            Construct::Async => "an `async` statement",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct IfBranch {
    pub test: ExprId,
    pub body: Block,
    /// From the `if`/`elif` keyword to the end of the body.
    pub span: Span,
}

/// One `context as target` item of a `with` statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WithItem {
    /// The context expression (`pl.at(...)`, `pl.cluster()`, ...).
    pub context: ExprId,
    /// The `as` target, if any.
    pub target: Option<ExprId>,
    pub span: Span,
}

/// A `def` (or `async def`) statement.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub decorators: Vec<Decorator>,
    pub name: Ident,
    pub params: Vec<Param>,
    /// The `-> annotation`, if any.
    pub returns: Option<ExprId>,
    pub body: Block,
    /// `async def`.
    pub is_async: bool,
}

/// A `class` statement (a `@pl.program` is one).
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDef {
    pub decorators: Vec<Decorator>,
    /// The bases in parentheses (none for a `@pl.program`).
    pub bases: Vec<Arg>,
    pub name: Ident,
    pub body: Block,
}

/// One `@expr` line above a `def` or `class`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decorator {
    /// The expression after `@` (`pl.function`, `pl.jit(...)`, ...).
    pub expr: ExprId,
    /// From `@` to the end of the expression.
    pub span: Span,
}

/// One parameter of a `def` (or a bare `*` / `/` marker).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub kind: ParamKind,
    /// `None` only for the bare `*` and `/` markers.
    pub name: Option<Ident>,
    /// The `: annotation`, if any.
    pub annotation: Option<ExprId>,
    /// The `= default`, if any.
    pub default: Option<ExprId>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Normal,
    /// `*args`, or the bare `*` marker when the name is absent.
    VarArgs,
    /// `**kwargs`
    KwArgs,
    /// The `/` marker of positional-only parameters.
    PosOnlyMarker,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DottedName {
    pub parts: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ImportName {
    pub name: DottedName,
    pub alias: Option<Ident>,
    pub span: Span,
}

/// Host code: Python that runs around the pl program and is skipped, not parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct HostItem {
    pub kind: HostKind,
    pub span: Span,
    /// `@pl.*`-decorated definitions found inside it: (decorator span, defined name span).
    pub dsl_defs: Vec<(Span, Span)>,
    /// The names it binds at the top level (a `def`'s or `class`'s name, assignment
    /// targets), so that a pl function using one can be told it is host code.
    pub defines: Vec<Span>,
    /// A host function, main guard or simple statement, parsed after the module (into the same arenas, not
    /// into `Ast::body`) so that lowering can find the calls of program factories in it;
    /// empty when it does not parse. Nothing checks or lowers these statements.
    pub parsed: Vec<StmtId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    /// `if __name__ == "__main__":`
    MainGuard,
    /// A top-level compound statement (`if`, `for`, `try`, ...), named by its keyword.
    Compound(&'static str),
    /// A `def` without a `@pl.` decorator.
    Function,
    /// A `class` without a `@pl.` decorator.
    Class,
    /// An assignment whose value is not a constant expression.
    Assignment,
    /// Any other statement (a call such as `print(...)`, `del`, `assert`, ...).
    Statement,
}

/// A node reached by [`Ast::walk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Stmt(StmtId),
    Expr(ExprId),
}

impl Ast {
    /// Calls `f(node, parent_span, depth)` for every statement and expression reachable from
    /// the module body, parents before children, in source order. The walk is iterative, so
    /// it works on trees of any depth.
    pub fn walk(&self, mut f: impl FnMut(Node, Option<Span>, usize)) {
        let mut stack: Vec<(Node, Option<Span>, usize)> =
            self.body.iter().rev().map(|&s| (Node::Stmt(s), None, 0)).collect();
        let mut children = Vec::new();
        while let Some((node, parent, depth)) = stack.pop() {
            f(node, parent, depth);
            children.clear();
            let span = match node {
                Node::Stmt(id) => {
                    self.stmt_children(id, &mut children);
                    self.stmt(id).span
                }
                Node::Expr(id) => {
                    self.expr_children(id, &mut |c| children.push(Node::Expr(c)));
                    self.expr(id).span
                }
            };
            stack.extend(children.iter().rev().map(|&c| (c, Some(span), depth + 1)));
        }
    }

    /// The left operand of a binary operator (or of `and`/`or`) when it continues a chain of
    /// such operators: `a + b` in `a + b - c`. A flat chain is a left spine of these nodes;
    /// walks that recurse follow it with a loop ([`Ast::chain_spine`]), so that a sum of
    /// thousands of terms needs no more stack than one term (`syntax::limits`).
    pub fn chain_continuation(&self, id: ExprId) -> Option<ExprId> {
        match self.expr(id).kind {
            ExprKind::Binary { lhs, .. } if matches!(self.expr(lhs).kind, ExprKind::Binary { .. }) => Some(lhs),
            ExprKind::Bool { lhs, .. } if matches!(self.expr(lhs).kind, ExprKind::Bool { .. }) => Some(lhs),
            _ => None,
        }
    }

    /// The operator nodes of the chain `id` heads, innermost (first evaluated) first, and
    /// the chain's first operand: for `a + b - c`, `([a + b, a + b - c], a)`. For a node
    /// that is not a binary operator, `([], id)`.
    pub fn chain_spine(&self, id: ExprId) -> (Vec<ExprId>, ExprId) {
        let mut spine = Vec::new();
        let mut cur = id;
        while let ExprKind::Binary { lhs, .. } | ExprKind::Bool { lhs, .. } = self.expr(cur).kind {
            spine.push(cur);
            let continues = self.chain_continuation(cur).is_some();
            cur = lhs;
            if !continues {
                break;
            }
        }
        spine.reverse();
        (spine, cur)
    }

    /// The direct sub-expressions of an expression, in source order.
    pub fn expr_children(&self, id: ExprId, f: &mut impl FnMut(ExprId)) {
        match &self.expr(id).kind {
            ExprKind::Name(_) | literal_kinds!() | ExprKind::Error => {}
            ExprKind::Attribute { value, .. } => f(*value),
            ExprKind::Call { func, args } => {
                f(*func);
                self.list(*args).iter().for_each(|a| f(a.value));
            }
            ExprKind::Subscript { value, index } => {
                f(*value);
                f(*index);
            }
            ExprKind::Slice { lower, upper, step } => {
                [lower, upper, step].into_iter().flatten().for_each(|&e| f(e));
            }
            ExprKind::List(items) | ExprKind::Tuple(items) | ExprKind::Set(items) => {
                self.list(*items).iter().for_each(|&e| f(e))
            }
            ExprKind::Dict(entries) => {
                for entry in entries {
                    if let Some(key) = entry.key {
                        f(key);
                    }
                    f(entry.value);
                }
            }
            ExprKind::Comprehension { elt, value, generators, .. } => {
                f(*elt);
                if let Some(v) = value {
                    f(*v);
                }
                for g in generators {
                    f(g.target);
                    f(g.iter);
                    g.ifs.iter().for_each(|&e| f(e));
                }
            }
            ExprKind::Unary { operand, .. } => f(*operand),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Bool { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            ExprKind::Compare { first, rest } => {
                f(*first);
                rest.iter().for_each(|&(_, e)| f(e));
            }
            ExprKind::IfExp { test, body, orelse } => {
                f(*body);
                f(*test);
                f(*orelse);
            }
            ExprKind::Lambda { params, body } => {
                params_children(params, f);
                f(*body);
            }
            ExprKind::Starred(e) | ExprKind::Await(e) => f(*e),
            ExprKind::NamedExpr { target, value } => {
                f(*target);
                f(*value);
            }
            ExprKind::Yield(e) => {
                if let Some(e) = e {
                    f(*e)
                }
            }
        }
    }

    /// The direct children of a statement (expressions and statements), in source order.
    pub fn stmt_children(&self, id: StmtId, out: &mut Vec<Node>) {
        let e = |out: &mut Vec<Node>, id: ExprId| out.push(Node::Expr(id));
        let block = |out: &mut Vec<Node>, b: &Block| out.extend(self.block(b).iter().map(|&s| Node::Stmt(s)));
        match &self.stmt(id).kind {
            StmtKind::Expr(x) => e(out, *x),
            StmtKind::Assign { targets, value } => {
                self.list(*targets).iter().for_each(|&t| e(out, t));
                e(out, *value);
            }
            StmtKind::AnnAssign { target, annotation, value } => {
                e(out, *target);
                e(out, *annotation);
                if let Some(v) = value {
                    e(out, *v);
                }
            }
            StmtKind::AugAssign { target, value, .. } => {
                e(out, *target);
                e(out, *value);
            }
            StmtKind::Return(v) => {
                if let Some(v) = v {
                    e(out, *v);
                }
            }
            StmtKind::Pass | StmtKind::Break | StmtKind::Continue | StmtKind::Error => {}
            StmtKind::Import(_) | StmtKind::ImportFrom { .. } => {}
            StmtKind::If { branches, orelse } => {
                for br in branches {
                    e(out, br.test);
                    block(out, &br.body);
                }
                if let Some(b) = orelse {
                    block(out, b);
                }
            }
            StmtKind::For { target, iter, body, orelse } => {
                e(out, *target);
                e(out, *iter);
                block(out, body);
                if let Some(b) = orelse {
                    block(out, b);
                }
            }
            StmtKind::While { test, body, orelse } => {
                e(out, *test);
                block(out, body);
                if let Some(b) = orelse {
                    block(out, b);
                }
            }
            StmtKind::With { items, body } => {
                for item in self.list(*items) {
                    e(out, item.context);
                    if let Some(t) = item.target {
                        e(out, t);
                    }
                }
                block(out, body);
            }
            StmtKind::FunctionDef(def) => {
                def.decorators.iter().for_each(|d| e(out, d.expr));
                params_children(&def.params, &mut |x| e(out, x));
                if let Some(r) = def.returns {
                    e(out, r);
                }
                block(out, &def.body);
            }
            StmtKind::ClassDef(def) => {
                def.decorators.iter().for_each(|d| e(out, d.expr));
                def.bases.iter().for_each(|a| e(out, a.value));
                block(out, &def.body);
            }
            StmtKind::Unsupported { exprs, blocks, .. } => {
                exprs.iter().for_each(|&x| e(out, x));
                blocks.iter().for_each(|b| block(out, b));
            }
        }
    }
}

fn params_children(params: &[Param], f: &mut impl FnMut(ExprId)) {
    for p in params {
        if let Some(a) = p.annotation {
            f(a);
        }
        if let Some(d) = p.default {
            f(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Nodes;

    /// Parts `[0, 1]`, `[]` (dropped), `[2, 3, 4]` and `[5]`, as the front end in parts
    /// joins them.
    fn parts() -> Nodes<u32> {
        let mut nodes = Nodes::default();
        for part in [vec![0, 1], vec![], vec![2, 3, 4], vec![5]] {
            let mut each = Nodes::with_capacity(part.len());
            part.into_iter().for_each(|n| each.push(n));
            nodes.append(each);
        }
        nodes
    }

    #[test]
    fn nodes_in_parts_read_as_one_arena() {
        let mut nodes = parts();
        assert_eq!(nodes.len(), 6);
        assert!((0..6).all(|i| nodes[i] == i as u32));
        assert!(nodes.iter().copied().eq(0..6));
        assert!(nodes == parts());
        nodes[3] = 30;
        nodes.iter_mut().for_each(|n| *n += 1);
        assert_eq!(nodes[3], 31);
        // New nodes go to the last part; undone nodes leave whole parts when they go back
        // past their start.
        nodes.push(6);
        assert_eq!((nodes.len(), nodes[6]), (7, 6));
        nodes.truncate(5);
        assert_eq!(nodes.len(), 5);
        nodes.push(50);
        assert_eq!(nodes[5], 50);
        nodes.truncate(2);
        nodes.push(20);
        assert!(nodes.iter().copied().eq([1, 2, 20]));
        nodes.truncate(0);
        assert!(nodes.is_empty());
    }

    /// Many parts, some shorter than a block of the index and some longer, read node for
    /// node as one arena, after nodes are pushed past the index and parts truncated away.
    #[test]
    fn the_index_of_many_parts_finds_every_node() {
        use super::INDEX_BLOCK;
        let lens = [3, INDEX_BLOCK + 5, 1, 2, 2 * INDEX_BLOCK, INDEX_BLOCK - 1, 7, 3 * INDEX_BLOCK + 2];
        let mut nodes = Nodes::default();
        let mut next = 0u32;
        for len in lens {
            let mut part = Nodes::with_capacity(len);
            for _ in 0..len {
                part.push(next);
                next += 1;
            }
            nodes.append(part);
        }
        let reads = |nodes: &Nodes<u32>| (0..nodes.len()).all(|i| nodes[i] == i as u32);
        assert!(reads(&nodes) && nodes.len() == next as usize);
        for _ in 0..2 * INDEX_BLOCK {
            nodes.push(next);
            next += 1;
        }
        assert!(reads(&nodes));
        for len in [next as usize - 10, INDEX_BLOCK + 6, 4, 2] {
            nodes.truncate(len);
            assert!(reads(&nodes) && nodes.len() == len, "truncated to {len}");
        }
    }

    #[test]
    fn a_prefetch_of_any_range_of_parts_reads_and_changes_nothing() {
        let nodes = parts();
        // Within a part, across parts, past the end, empty, reversed, and nowhere.
        let (five, two) = (5, 2);
        for range in [0..2, 1..5, 4..100, 3..3, five..two, 50..60, 0..usize::MAX] {
            nodes.prefetch(range);
        }
        assert!(nodes == parts());
        Nodes::<u32>::default().prefetch(0..10);
    }
}
