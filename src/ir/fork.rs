//! Forked arenas: a pass transforms runs of consecutive functions in parallel and gets the
//! program, ids and names of the serial run.
//!
//! A program's variables, expressions, statements and types, and the session's names, are
//! numbered by their position in append-only arenas, so what a pass makes depends on the
//! order it makes it in. For the parallel phase of a pass, [`Fork::new`] freezes the
//! arenas, the type table and the interner as a *base*; each run of functions gets a
//! [`Program`] without functions whose arenas read the base and number their new nodes after
//! it ([`Fork::program`]), and an interner likewise. The ids a run makes are then those the
//! serial run would make if this run came first. [`Fork::join`] takes the runs in program
//! order: each run's new names and types are interned into the program's in the order the
//! run made them (a name or type an earlier run made too gets the earlier id, as in the
//! serial run), its new variables, expressions and statements are appended after the
//! earlier runs', and every id in them, in the base nodes the run changed and in its
//! functions is moved accordingly ([`Remap`], the one place that lists every id field of the
//! IR). A run's code may compare its ids by equality and by order among ids of one kind
//! (the move keeps the order of a run's ids, and base ids stay below them), and must not
//! iterate a hash map or set keyed by ids it made.

use super::names::Version;
use super::{
    Block, Callee, Dim, Expr, ExprId, ExprKind, Function, IfStmt, Program, Scope, ScopeKind, Stmt, StmtId, StmtKind,
    Type, TypeId, Types, VarData, VarId,
};
use crate::intern::{Interner, Symbol};
use std::mem::MaybeUninit;
use std::sync::Arc;

/// The frozen base of a fork: the program's arenas and type table, and the interner.
pub(crate) struct Fork {
    name: Option<Symbol>,
    dynamic_dims: Vec<Symbol>,
    vars: Arc<Vec<VarData>>,
    exprs: Arc<Vec<Expr>>,
    stmts: Arc<Vec<Stmt>>,
    types: Arc<Types>,
    names: Arc<Interner>,
}

/// What one run made: its program (new nodes, changed base nodes), its interner (new
/// names) and its functions, in order.
pub(crate) struct Part {
    pub program: Program,
    pub names: Interner,
    pub functions: Vec<Function>,
}

impl Fork {
    /// Freezes `program`'s arenas and `names` (both unforked). Until [`Fork::join`], the
    /// program's arenas and `names` are empty: the runs read the base.
    pub(crate) fn new(program: &mut Program, names: &mut Interner) -> Fork {
        Fork {
            name: program.name,
            dynamic_dims: program.dynamic_dims.clone(),
            vars: Arc::new(program.vars.take_all()),
            exprs: Arc::new(program.exprs.take_all()),
            stmts: Arc::new(program.stmts.take_all()),
            types: Arc::new(std::mem::take(&mut program.types)),
            names: Arc::new(std::mem::take(names)),
        }
    }

    /// A program without functions for one run, reading the base.
    pub(crate) fn program(&self) -> Program {
        Program {
            name: self.name,
            functions: Default::default(),
            vars: Arena::forked(&self.vars),
            exprs: Arena::forked(&self.exprs),
            stmts: Arena::forked(&self.stmts),
            types: Types::forked(&self.types),
            dynamic_dims: self.dynamic_dims.clone(),
            built_by: None,
        }
    }

    /// An interner for one run, reading the base.
    pub(crate) fn names(&self) -> Interner {
        Interner::forked(&self.names)
    }

    /// Puts the base back into `program` and `names`, then appends the runs' nodes and
    /// names in order, moving their ids; returns each run's functions, their ids moved.
    ///
    /// Only the names and types are interned one run after another (a name two runs made
    /// takes the earlier run's symbol); where each run's nodes go follows from the lengths
    /// of the runs before it, so the moves of the nodes (each id rewritten, the node written
    /// into its place in the program's arena) run on a thread per run.
    pub(crate) fn join(self, program: &mut Program, names: &mut Interner, parts: Vec<Part>) -> Vec<Vec<Function>> {
        use rayon::prelude::*;
        let (vars_base, exprs_base, stmts_base) =
            (self.vars.len() as u32, self.exprs.len() as u32, self.stmts.len() as u32);
        let (types_base, names_base) = (self.types.len() as u32, self.names.len() as u32);
        // Each run's own nodes, taken from its program and interner, which hold the base:
        // once they are dropped the base is unwrapped without a copy.
        let mut parts: Vec<Own> = parts
            .into_iter()
            .map(|Part { program: run, names: run_names, functions }| Own {
                vars: run.vars.into_own(),
                exprs: run.exprs.into_own(),
                stmts: run.stmts.into_own(),
                types: run.types.into_own(),
                names: run_names.into_own(),
                functions,
            })
            .collect();
        let mut vars = unwrap(self.vars);
        let mut exprs = unwrap(self.exprs);
        let mut stmts = unwrap(self.stmts);
        let mut types = Arc::try_unwrap(self.types).unwrap_or_else(|t| (*t).clone());
        *names = Arc::try_unwrap(self.names).unwrap_or_else(|n| (*n).clone());
        // In order: each run's names and types interned, and its shifts (the nodes the runs
        // before it append).
        let mut remaps = Vec::with_capacity(parts.len());
        let (mut vars_len, mut exprs_len, mut stmts_len) = (0, 0, 0);
        for part in &mut parts {
            let mut rm = Remap {
                vars: (vars_base, vars_len),
                exprs: (exprs_base, exprs_len),
                stmts: (stmts_base, stmts_len),
                types_base,
                types: Vec::with_capacity(part.types.len()),
                names_base,
                names: part.names.iter().map(|n| names.intern(n)).collect(),
            };
            // A type mentions only types interned before it.
            for ty in std::mem::take(&mut part.types) {
                let ty = rm.ty(ty);
                rm.types.push(types.intern(ty));
            }
            vars_len += part.vars.0.len() as u32;
            exprs_len += part.exprs.0.len() as u32;
            stmts_len += part.stmts.0.len() as u32;
            remaps.push(rm);
        }
        // The first run's ids need no move when its new names and types are the program's
        // next ones (checked, not assumed); then an arena whose base is empty (lowering's
        // fork) takes the first run's nodes as they are, neither copied nor faulted again.
        let first_stays = remaps.first().is_some_and(Remap::is_identity);
        if let (true, Some(first)) = (first_stays, parts.first_mut()) {
            adopt(&mut vars, &mut first.vars.0);
            adopt(&mut exprs, &mut first.exprs.0);
            adopt(&mut stmts, &mut first.stmts.0);
        }
        let var_rooms = rooms(&mut vars, parts.iter().map(|p| p.vars.0.len()));
        let expr_rooms = rooms(&mut exprs, parts.iter().map(|p| p.exprs.0.len()));
        let stmt_rooms = rooms(&mut stmts, parts.iter().map(|p| p.stmts.0.len()));
        let rooms: Vec<_> = var_rooms.into_iter().zip(expr_rooms).zip(stmt_rooms).collect();
        let moved_len = |lens: &dyn Fn(&Own) -> usize| parts.iter().map(lens).sum::<usize>();
        let (vars_moved, exprs_moved, stmts_moved) =
            (moved_len(&|p| p.vars.0.len()), moved_len(&|p| p.exprs.0.len()), moved_len(&|p| p.stmts.0.len()));
        // Each run's nodes moved into their rooms; its changed base nodes and functions moved.
        let moved: Vec<Moved> = parts
            .into_par_iter()
            .zip(remaps)
            .zip(rooms)
            .map(|((part, rm), ((var_room, expr_room), stmt_room))| {
                let Own { vars: (vs, mut changed_vars), exprs: (es, mut changed_exprs), stmts, functions, .. } = part;
                let (ss, mut changed_stmts) = stmts;
                let mut functions = functions;
                if rm.is_identity() {
                    fill(var_room, vs, |_| {});
                    fill(expr_room, es, |_| {});
                    fill(stmt_room, ss, |_| {});
                } else {
                    fill(var_room, vs, |v| rm.var_data(v));
                    fill(expr_room, es, |e| rm.expr(e));
                    fill(stmt_room, ss, |s| rm.stmt(s));
                    changed_vars.iter_mut().for_each(|(_, v)| rm.var_data(v));
                    changed_exprs.iter_mut().for_each(|(_, e)| rm.expr(e));
                    changed_stmts.iter_mut().for_each(|(_, s)| rm.stmt(s));
                    functions.iter_mut().for_each(|f| rm.function(f));
                }
                Moved { changed_vars, changed_exprs, changed_stmts, functions }
            })
            .collect();
        // SAFETY: `rooms` split the first slots of each arena's spare capacity, one room per
        // run as long as that run's nodes of the kind still to move (`*_moved` in all), and
        // `fill` wrote every one of them.
        unsafe {
            vars.set_len(vars.len() + vars_moved);
            exprs.set_len(exprs.len() + exprs_moved);
            stmts.set_len(stmts.len() + stmts_moved);
        }
        let mut out = Vec::with_capacity(moved.len());
        for Moved { changed_vars, changed_exprs, changed_stmts, functions } in moved {
            for (i, v) in changed_vars {
                vars[i as usize] = v;
            }
            for (i, e) in changed_exprs {
                exprs[i as usize] = e;
            }
            for (i, s) in changed_stmts {
                stmts[i as usize] = s;
            }
            out.push(functions);
        }
        program.vars = Arena::from(vars);
        program.exprs = Arena::from(exprs);
        program.stmts = Arena::from(stmts);
        program.types = types;
        out
    }
}

/// One run's own nodes and changed base nodes of each kind, types, names and functions.
struct Own {
    vars: (Vec<VarData>, Vec<(u32, VarData)>),
    exprs: (Vec<Expr>, Vec<(u32, Expr)>),
    stmts: (Vec<Stmt>, Vec<(u32, Stmt)>),
    types: Vec<Type>,
    names: Vec<Box<str>>,
    functions: Vec<Function>,
}

/// One run's changed base nodes and functions, their ids moved.
struct Moved {
    changed_vars: Vec<(u32, VarData)>,
    changed_exprs: Vec<(u32, Expr)>,
    changed_stmts: Vec<(u32, Stmt)>,
    functions: Vec<Function>,
}

/// Room for `lens`' nodes after `arena`'s: its spare capacity (reserved here) split into one
/// room per length, in order.
fn rooms<T>(arena: &mut Vec<T>, lens: impl Iterator<Item = usize> + Clone) -> Vec<&mut [MaybeUninit<T>]> {
    arena.reserve(lens.clone().sum());
    let mut rest = arena.spare_capacity_mut();
    lens.map(|len| {
        let (room, after) = std::mem::take(&mut rest).split_at_mut(len);
        rest = after;
        room
    })
    .collect()
}

/// Moves `nodes` into `room` (as long: every slot is written), each changed by `remap`
/// first.
fn fill<T>(room: &mut [MaybeUninit<T>], nodes: Vec<T>, remap: impl Fn(&mut T)) {
    assert_eq!(room.len(), nodes.len(), "a room as long as its run's nodes");
    for (slot, mut node) in room.iter_mut().zip(nodes) {
        remap(&mut node);
        slot.write(node);
    }
}

/// `nodes` (left empty) made `arena`, if `arena` is empty: the first run's nodes kept
/// where they are when no base node comes before them.
fn adopt<T>(arena: &mut Vec<T>, nodes: &mut Vec<T>) {
    if arena.is_empty() {
        std::mem::swap(arena, nodes);
    }
}

fn unwrap<T: Clone>(base: Arc<Vec<T>>) -> Vec<T> {
    Arc::try_unwrap(base).unwrap_or_else(|b| (*b).clone())
}

/// How the ids of one run move at the join: a variable, expression or statement id at or
/// past its base's length by the nodes earlier runs appended; a type or name the run made
/// to the program's id for it.
struct Remap {
    /// (base length, shift) of each node kind.
    vars: (u32, u32),
    exprs: (u32, u32),
    stmts: (u32, u32),
    types_base: u32,
    /// The program's id of each type the run made, in order.
    types: Vec<TypeId>,
    names_base: u32,
    /// The program's symbol of each name the run made, in order.
    names: Vec<Symbol>,
}

fn shift(id: u32, (base, by): (u32, u32)) -> u32 {
    if id < base {
        id
    } else {
        id + by
    }
}

impl Remap {
    /// Whether every id stays as it is: no shift, and the run's names and types got the
    /// program's next ids in order (as the first run's do).
    fn is_identity(&self) -> bool {
        let (base, names_base) = (self.types_base as usize, self.names_base as usize);
        self.vars.1 == 0
            && self.exprs.1 == 0
            && self.stmts.1 == 0
            && self.types.iter().enumerate().all(|(i, t)| t.0 as usize == base + i)
            && self.names.iter().enumerate().all(|(i, s)| s.index() == names_base + i)
    }

    fn var(&self, v: VarId) -> VarId {
        VarId(shift(v.0, self.vars))
    }

    fn e(&self, e: ExprId) -> ExprId {
        ExprId(shift(e.0, self.exprs))
    }

    fn s(&self, s: StmtId) -> StmtId {
        StmtId(shift(s.0, self.stmts))
    }

    fn t(&self, t: TypeId) -> TypeId {
        match t.0.checked_sub(self.types_base) {
            Some(i) => self.types[i as usize],
            None => t,
        }
    }

    fn sym(&self, s: Symbol) -> Symbol {
        match (s.index() as u32).checked_sub(self.names_base) {
            Some(i) => self.names[i as usize],
            None => s,
        }
    }

    fn block(&self, b: &mut Block) {
        for s in b {
            *s = self.s(*s);
        }
    }

    fn exprs(&self, es: &mut [ExprId]) {
        for e in es {
            *e = self.e(*e);
        }
    }

    fn attrs(&self, attrs: &mut [(Symbol, ExprId)]) {
        for (k, e) in attrs {
            *k = self.sym(*k);
            *e = self.e(*e);
        }
    }

    fn dims(&self, dims: &mut [Dim]) {
        for d in dims {
            match d {
                Dim::Var(v) => *v = self.var(*v),
                Dim::Dyn(s) => *s = self.sym(*s),
                Dim::Const(_) | Dim::Unknown => {}
            }
        }
    }

    fn ty(&self, mut ty: Type) -> Type {
        match &mut ty {
            Type::Tensor { shape, .. } => {
                if let Some(shape) = shape {
                    self.dims(shape);
                }
            }
            Type::Tile { shape, .. } => self.dims(shape),
            Type::Tuple(items) => {
                for t in items {
                    *t = self.t(*t);
                }
            }
            Type::Scalar(_) | Type::Array { .. } | Type::Handle(_) | Type::None | Type::Unknown => {}
        }
        ty
    }

    fn var_data(&self, v: &mut VarData) {
        let VarData { name, source, version, ty, loc: _ } = v;
        *name = self.sym(*name);
        *source = self.sym(*source);
        if let Some(Version { qualifier: Some(q), .. }) = version {
            *q = self.sym(*q);
        }
        *ty = self.t(*ty);
    }

    fn expr(&self, e: &mut Expr) {
        e.ty = self.t(e.ty);
        match &mut e.kind {
            ExprKind::Var(v) => *v = self.var(*v),
            ExprKind::Str(s) | ExprKind::DynDim(s) => *s = self.sym(*s),
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::DType(_)
            | ExprKind::Enum(_) => {}
            ExprKind::Tuple(items) => self.exprs(items),
            ExprKind::Binary { op: _, lhs, rhs } => {
                *lhs = self.e(*lhs);
                *rhs = self.e(*rhs);
            }
            ExprKind::Unary { op: _, operand } => *operand = self.e(*operand),
            ExprKind::Call { callee, args, attrs } => {
                match callee {
                    Callee::Op(_) => {}
                    Callee::Func(f) | Callee::Submit(f) => *f = self.sym(*f),
                }
                for a in args.iter_mut().flatten() {
                    *a = self.e(*a);
                }
                *attrs = std::mem::take(attrs).map_exprs(|e| self.e(e));
                if let Some(data) = attrs.0.as_deref_mut() {
                    for (k, _) in &mut data.extra {
                        *k = self.sym(*k);
                    }
                }
            }
            ExprKind::TupleGet { tuple, index: _ } => *tuple = self.e(*tuple),
        }
    }

    fn iter_args(&self, iter_args: &mut [super::IterArg]) {
        for a in iter_args {
            a.var = self.var(a.var);
            a.init = self.e(a.init);
        }
    }

    fn vars(&self, vs: &mut [VarId]) {
        for v in vs {
            *v = self.var(*v);
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Assign { var, value } => {
                *var = self.var(*var);
                *value = self.e(*value);
            }
            StmtKind::Eval(e) => *e = self.e(*e),
            StmtKind::Return(es) | StmtKind::Yield(es) => self.exprs(es),
            StmtKind::If(IfStmt { cond, then_body, else_body, return_vars }) => {
                *cond = self.e(*cond);
                self.block(then_body);
                if let Some(b) = else_body {
                    self.block(b);
                }
                self.vars(return_vars);
            }
            StmtKind::For { kind: _, var, start, stop, step, iter_args, body, return_vars, attrs } => {
                *var = self.var(*var);
                *start = self.e(*start);
                *stop = self.e(*stop);
                *step = self.e(*step);
                self.iter_args(iter_args);
                self.block(body);
                self.vars(return_vars);
                self.attrs(attrs);
            }
            StmtKind::While { cond, iter_args, body, return_vars } => {
                *cond = self.e(*cond);
                self.iter_args(iter_args);
                self.block(body);
                self.vars(return_vars);
            }
            StmtKind::Scope(scope) => {
                let Scope { kind, name, task_id, body, attrs } = &mut **scope;
                match kind {
                    ScopeKind::Spmd { core_num } => *core_num = self.e(*core_num),
                    ScopeKind::InCore
                    | ScopeKind::Hierarchy { .. }
                    | ScopeKind::Cluster
                    | ScopeKind::Graph
                    | ScopeKind::Runtime { .. } => {}
                }
                if let Some(n) = name {
                    *n = self.sym(*n);
                }
                if let Some(t) = task_id {
                    *t = self.var(*t);
                }
                self.block(body);
                self.attrs(attrs);
            }
            StmtKind::Break | StmtKind::Continue => {}
        }
    }

    fn function(&self, f: &mut Function) {
        let Function { name, loc: _, decl, params, returns, body } = f;
        *name = self.sym(*name);
        self.attrs(&mut decl.extra);
        for p in params {
            p.var = self.var(p.var);
        }
        for t in returns {
            *t = self.t(*t);
        }
        self.block(body);
    }
}

/// An arena of IR nodes addressed by position. A fork's arena ([`Fork::program`]) reads the
/// frozen base below its own nodes; a change to a base node is kept as a copy in the fork
/// (`changed`) and applied at the join.
#[derive(Clone, Debug)]
pub struct Arena<T> {
    base: Option<Arc<Vec<T>>>,
    /// The length of `base` (0 without one).
    base_len: usize,
    /// Base nodes changed in this fork, by index, each once.
    changed: Vec<(u32, T)>,
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { base: None, base_len: 0, changed: Vec::new(), items: Vec::new() }
    }
}

impl<T> From<Vec<T>> for Arena<T> {
    fn from(items: Vec<T>) -> Self {
        Arena { items, ..Arena::default() }
    }
}

impl<T> Arena<T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.base_len + self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, node: T) {
        self.items.push(node);
    }

    pub fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        (i < self.len()).then(|| &self[i])
    }

    /// Every node in order (of an unforked arena; a fork's changes to base nodes are not
    /// seen).
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.into_iter()
    }

    /// The nodes of an unforked arena, leaving it empty.
    fn take_all(&mut self) -> Vec<T> {
        debug_assert!(self.base.is_none(), "a forked arena is not forked again");
        std::mem::take(&mut self.items)
    }

    fn forked(base: &Arc<Vec<T>>) -> Arena<T> {
        Arena { base: Some(base.clone()), base_len: base.len(), changed: Vec::new(), items: Vec::new() }
    }

    /// A fork's own nodes and its changed base nodes; the base is released.
    fn into_own(self) -> (Vec<T>, Vec<(u32, T)>) {
        (self.items, self.changed)
    }

    /// Base node `i` (as this fork changed it), or an index past the end (which panics as
    /// a `Vec`'s index does). A fork that changed no base node (ConvertToSSA's and
    /// lowering's runs) reads the base straight away (a ConvertToSSA run reads about 230
    /// base nodes per function). Out of line and cold: the callers' own-node path stays as
    /// short as a `Vec`'s index.
    #[cold]
    #[inline(never)]
    fn base_node(&self, i: usize) -> &T {
        match &self.base {
            Some(b) if self.changed.is_empty() => &b[i],
            _ => self.changed_base_node(i),
        }
    }

    /// [`Self::base_node`] of a fork that changed base nodes, or of an unforked arena.
    #[cold]
    #[inline(never)]
    fn changed_base_node(&self, i: usize) -> &T {
        if let Some((_, node)) = self.changed.iter().find(|(j, _)| *j as usize == i) {
            return node;
        }
        match &self.base {
            Some(b) if i < self.base_len => &b[i],
            _ => &self.items[i.wrapping_sub(self.base_len)],
        }
    }
}

impl<T: Clone> Arena<T> {
    /// Base node `i` to change: a copy kept in `changed`, applied at the join.
    #[cold]
    #[inline(never)]
    fn changed_node(&mut self, i: usize) -> &mut T {
        let at = match self.changed.iter().position(|(j, _)| *j as usize == i) {
            Some(at) => at,
            None => {
                let node = match &self.base {
                    Some(b) if i < self.base_len => b[i].clone(),
                    _ => return &mut self.items[i.wrapping_sub(self.base_len)],
                };
                self.changed.push((i as u32, node));
                self.changed.len() - 1
            }
        };
        &mut self.changed[at].1
    }
}

impl<'a, T> IntoIterator for &'a Arena<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Chain<std::slice::Iter<'a, T>, std::slice::Iter<'a, T>>;

    fn into_iter(self) -> Self::IntoIter {
        let base: &[T] = self.base.as_deref().map_or(&[], Vec::as_slice);
        base.iter().chain(&self.items)
    }
}

impl<T> std::ops::Index<usize> for Arena<T> {
    type Output = T;

    /// An own node, or a base node: one subtraction more than a `Vec`'s index, the base's
    /// length being 0 in an unforked arena.
    #[inline]
    fn index(&self, i: usize) -> &T {
        match self.items.get(i.wrapping_sub(self.base_len)) {
            Some(node) => node,
            None => self.base_node(i),
        }
    }
}

impl<T: Clone> std::ops::IndexMut<usize> for Arena<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        let own = i.wrapping_sub(self.base_len);
        if own < self.items.len() {
            return &mut self.items[own];
        }
        self.changed_node(i)
    }
}
