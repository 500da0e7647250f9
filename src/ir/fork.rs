//! Forked arenas: a pass transforms runs of consecutive functions in parallel and gets the
//! program, ids and names of the serial run.
//!
//! A program's variables, expressions, statements and types, and the session's names, are
//! numbered by their position in append-only arenas, so what a pass makes depends on the
//! order it makes it in. For the parallel phase of a pass, [`Fork::with_room`] freezes the
//! arenas, the type table and the interner as a *base*; each run of functions gets a
//! [`Program`] without functions whose arenas read the base and number their new nodes after
//! it ([`Ordered::program`]), and an interner likewise. The ids a run makes are then those
//! the serial run would make if this run came first. The runs are joined in program order:
//! each run's new names and types are interned into the program's in the order the run made
//! them (a name or type an earlier run made too gets the earlier id, as in the serial run),
//! its new variables, expressions and statements are appended after the earlier runs', and
//! every id in them, in the base nodes the run changed and in its functions is moved
//! accordingly ([`Remap`], the one place that lists every id field of the IR). A run's code
//! may compare its ids by equality and by order among ids of one kind (the move keeps the
//! order of a run's ids, and base ids stay below them), and must not iterate a hash map or
//! set keyed by ids it made.
//!
//! [`Fork::ordered`] joins each run as soon as the runs before it are joined, on the thread
//! that finished it ([`Ordered::done`]), while later runs are still being made: the run's
//! names and types are interned (under a lock, in order) into tables forked from the base,
//! whose ids are the program's, and its nodes are moved straight into their final places in
//! the spare capacity of the base's arenas ([`Fork::with_room`] reserves it), while they are
//! still in the thread's cache; the run's emptied buffers go to a later run
//! ([`Ordered::program`]), whose nodes then go to memory already faulted in. With the runs
//! handed out in order ([`in_order`]), only the last run's move is left after the last run.
//! A run that gives up has the fork undone ([`Ordered::abandon`]).

use super::names::Version;
use super::{
    Block, Callee, Dim, Expr, ExprId, ExprKind, ForStmt, Function, Functions, IfStmt, Program, Scope, ScopeKind, Stmt,
    StmtId, StmtKind, Type, TypeId, Types, VarData, VarId, WhileStmt,
};
use crate::intern::{Interner, Symbol};
use std::mem::MaybeUninit;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The frozen base of a fork: the program's arenas and type table, and the interner.
pub(crate) struct Fork {
    name: Option<Symbol>,
    dynamic_dims: Vec<Symbol>,
    vars: Arc<Vec<VarData>>,
    exprs: Arc<Vec<Expr>>,
    stmts: Arc<Vec<Stmt>>,
    types: Arc<Types>,
    names: Arc<Interner>,
    /// The room reserved after the arenas' nodes ([`Fork::with_room`]).
    room: Kinds<usize, usize, usize>,
}

/// What one run made: its program (new nodes, changed base nodes), its interner (new
/// names) and its functions, in order.
pub(crate) struct Part {
    pub program: Program,
    pub names: Interner,
    pub functions: Vec<Function>,
}

/// The three node kinds' values of one arena each.
type Kinds<V, E, S> = (V, E, S);

/// The lengths of the base's arenas, type table and interner: where the ids the runs make
/// begin.
#[derive(Clone, Copy)]
struct Bases {
    vars: u32,
    exprs: u32,
    stmts: u32,
    types: u32,
    names: u32,
}

/// How many nodes of each kind the runs before one append.
type Lens = Kinds<u32, u32, u32>;

impl Fork {
    /// Freezes `program`'s arenas and `names` (both unforked). Until the join, the
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
            room: (0, 0, 0),
        }
    }

    /// [`Fork::new`] with room reserved after the arenas' nodes for about as many more
    /// variables, expressions and statements as the runs will make (`extra`), where
    /// [`Fork::ordered`] moves them. Room not used is address space only: no page of it
    /// is touched.
    pub(crate) fn with_room(program: &mut Program, names: &mut Interner, extra: Kinds<usize, usize, usize>) -> Fork {
        program.vars.reserve(extra.0);
        program.exprs.reserve(extra.1);
        program.stmts.reserve(extra.2);
        Fork { room: extra, ..Fork::new(program, names) }
    }

    /// A program without functions for one run, reading the base, whose own nodes go into
    /// `buffers` (empty).
    fn program_in(&self, (vars, exprs, stmts): Buffers) -> Program {
        Program {
            name: self.name,
            functions: Default::default(),
            vars: Arena::forked(&self.vars, vars),
            exprs: Arena::forked(&self.exprs, exprs),
            stmts: Arena::forked(&self.stmts, stmts),
            types: Types::forked(&self.types),
            dynamic_dims: self.dynamic_dims.clone(),
            built_by: None,
        }
    }

    /// An interner for one run, reading the base.
    pub(crate) fn names(&self) -> Interner {
        Interner::forked(&self.names)
    }

    fn bases(&self) -> Bases {
        Bases {
            vars: self.vars.len() as u32,
            exprs: self.exprs.len() as u32,
            stmts: self.stmts.len() as u32,
            types: self.types.len() as u32,
            names: self.names.len() as u32,
        }
    }

    /// The fork for `runs` runs joined one by one as they finish ([`Ordered::done`]), each
    /// into the room [`Fork::with_room`] reserved (a run that does not fit, and every run
    /// after it, is moved at [`Ordered::finish`] instead).
    pub(crate) fn ordered(mut self, runs: usize) -> Ordered {
        let room = self.room;
        let rooms =
            (Room::of(&mut self.vars, room.0), Room::of(&mut self.exprs, room.1), Room::of(&mut self.stmts, room.2));
        let joined = Joined {
            pending: InOrder::new(runs),
            lens: (0, 0, 0),
            overflow: None,
            names: Interner::forked(&self.names),
            types: Types::forked(&self.types),
            moved: (0..runs).map(|_| None).collect(),
            late: Vec::new(),
            spare: Spare::new(runs),
            map: None,
            mapped: 0,
        };
        Ordered { fork: self, rooms, joined: Mutex::new(joined) }
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

impl Own {
    /// A run's own nodes, taken from its program and interner (which release the base).
    fn of(Part { program: run, names, functions }: Part) -> Own {
        Own {
            vars: run.vars.into_own(),
            exprs: run.exprs.into_own(),
            stmts: run.stmts.into_own(),
            types: run.types.into_own(),
            names: names.into_own(),
            functions,
        }
    }

    fn lens(&self) -> Kinds<usize, usize, usize> {
        (self.vars.0.len(), self.exprs.0.len(), self.stmts.0.len())
    }
}

/// One run's changed base nodes and functions, their ids moved.
struct Moved {
    changed_vars: Vec<(u32, VarData)>,
    changed_exprs: Vec<(u32, Expr)>,
    changed_stmts: Vec<(u32, Stmt)>,
    functions: Vec<Function>,
}

/// A run's node buffers, emptied for another run.
type Buffers = Kinds<Vec<VarData>, Vec<Expr>, Vec<Stmt>>;

/// The arenas of the three node kinds.
type Arenas<'a> = Kinds<&'a mut Vec<VarData>, &'a mut Vec<Expr>, &'a mut Vec<Stmt>>;

/// The rooms of one run's nodes of the three kinds.
type Rooms<'a> = Kinds<&'a mut [MaybeUninit<VarData>], &'a mut [MaybeUninit<Expr>], &'a mut [MaybeUninit<Stmt>]>;

/// Interns `part`'s names into `names` and its types into `types`, in the order it made
/// them, and gives it the shifts `lens` (the nodes the runs before it append), which grow
/// by its own: how its ids move.
fn prep(bases: Bases, names: &mut Interner, types: &mut Types, lens: &mut Lens, part: &mut Own) -> Remap {
    let mut rm = Remap {
        vars: (bases.vars, lens.0),
        exprs: (bases.exprs, lens.1),
        stmts: (bases.stmts, lens.2),
        types_base: bases.types,
        types: Vec::with_capacity(part.types.len()),
        names_base: bases.names,
        names: part.names.iter().map(|n| names.intern(n)).collect(),
    };
    // A type mentions only types interned before it.
    for ty in std::mem::take(&mut part.types) {
        let ty = rm.ty(ty);
        rm.types.push(types.intern(ty));
    }
    let (v, e, s) = part.lens();
    *lens = (lens.0 + v as u32, lens.1 + e as u32, lens.2 + s as u32);
    rm
}

/// Moves `parts`' nodes (each run's with its [`Remap`]) into room made after `arenas`'
/// nodes, in order, a thread per run (each run's buffers freed as soon as they are
/// emptied); returns what each run changed.
fn append((vars, exprs, stmts): Arenas<'_>, parts: Vec<(Own, Remap)>) -> Vec<Moved> {
    use rayon::prelude::*;
    let var_rooms = rooms(vars, parts.iter().map(|(p, _)| p.vars.0.len()));
    let expr_rooms = rooms(exprs, parts.iter().map(|(p, _)| p.exprs.0.len()));
    let stmt_rooms = rooms(stmts, parts.iter().map(|(p, _)| p.stmts.0.len()));
    let rooms: Vec<_> = var_rooms.into_iter().zip(expr_rooms).zip(stmt_rooms).collect();
    let moved_len = |lens: &dyn Fn(&Own) -> usize| parts.iter().map(|(p, _)| lens(p)).sum::<usize>();
    let (vars_moved, exprs_moved, stmts_moved) =
        (moved_len(&|p| p.vars.0.len()), moved_len(&|p| p.exprs.0.len()), moved_len(&|p| p.stmts.0.len()));
    let moved = parts
        .into_par_iter()
        .zip(rooms)
        .map(|((own, rm), ((var_room, expr_room), stmt_room))| move_part(own, &rm, (var_room, expr_room, stmt_room)).0)
        .collect();
    // SAFETY: `rooms` split the first slots of each arena's spare capacity, one room per
    // run as long as that run's nodes of the kind (`*_moved` in all), and `move_part`
    // wrote every one of them.
    unsafe {
        vars.set_len(vars.len() + vars_moved);
        exprs.set_len(exprs.len() + exprs_moved);
        stmts.set_len(stmts.len() + stmts_moved);
    }
    moved
}

/// Moves one run's nodes into its rooms and the ids of its changed base nodes and
/// functions.
fn move_part(own: Own, rm: &Remap, (var_room, expr_room, stmt_room): Rooms<'_>) -> (Moved, Buffers) {
    let Own { vars: (mut vs, mut changed_vars), exprs: (mut es, mut changed_exprs), stmts, mut functions, .. } = own;
    let (mut ss, mut changed_stmts) = stmts;
    if rm.is_identity() {
        fill(var_room, &mut vs, |_| {});
        fill(expr_room, &mut es, |_| {});
        fill(stmt_room, &mut ss, |_| {});
    } else {
        fill(var_room, &mut vs, |v| rm.var_data(v));
        fill(expr_room, &mut es, |e| rm.expr(e));
        fill(stmt_room, &mut ss, |s| rm.stmt(s));
        changed_vars.iter_mut().for_each(|(_, v)| rm.var_data(v));
        changed_exprs.iter_mut().for_each(|(_, e)| rm.expr(e));
        changed_stmts.iter_mut().for_each(|(_, s)| rm.stmt(s));
        functions.iter_mut().for_each(|f| rm.function(f));
    }
    (Moved { changed_vars, changed_exprs, changed_stmts, functions }, (vs, es, ss))
}

/// Applies the runs' changes to base nodes, in order (a later run's change last); returns
/// each run's functions.
fn apply((vars, exprs, stmts): Arenas<'_>, moved: impl Iterator<Item = Moved>) -> Vec<Vec<Function>> {
    let mut out = Vec::new();
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
    out
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

/// Moves `nodes` (left empty, its capacity kept) into `room` (as long: every slot is
/// written), each changed by `remap` first.
fn fill<T>(room: &mut [MaybeUninit<T>], nodes: &mut Vec<T>, remap: impl Fn(&mut T)) {
    assert_eq!(room.len(), nodes.len(), "a room as long as its run's nodes");
    crate::mem::populate(room);
    for (slot, mut node) in room.iter_mut().zip(nodes.drain(..)) {
        remap(&mut node);
        slot.write(node);
    }
}

/// `m` locked, poisoned or not (a thread that panicked while holding it makes the whole
/// parallel phase panic anyway, through rayon).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Items finished in any order, handed on in order: item `k` once items `0..k` have been
/// (the runs of [`Ordered`], the front end's parts in `syntax::parallel`).
pub(crate) struct InOrder<T> {
    pending: Vec<Option<T>>,
    next: usize,
}

impl<T> InOrder<T> {
    pub(crate) fn new(items: usize) -> InOrder<T> {
        InOrder { pending: (0..items).map(|_| None).collect(), next: 0 }
    }

    /// Item `k` is finished (an index past the items is ignored).
    pub(crate) fn put(&mut self, k: usize, item: T) {
        if let Some(slot) = self.pending.get_mut(k) {
            *slot = Some(item);
        }
    }

    /// The next item in order, with its index, when it is finished.
    pub(crate) fn next(&mut self) -> Option<(usize, T)> {
        let item = self.pending.get_mut(self.next)?.take()?;
        self.next += 1;
        Some((self.next - 1, item))
    }

    /// Whether every item was handed on.
    pub(crate) fn all_handed_on(&self) -> bool {
        self.next == self.pending.len()
    }
}

/// The emptied buffers of joined items, for the items still to begin: kept while one is
/// still to begin, freed otherwise (memory that would stay faulted in with nothing to hold).
pub(crate) struct Spare<B> {
    buffers: Vec<B>,
    begun: usize,
    items: usize,
}

impl<B: Default> Spare<B> {
    pub(crate) fn new(items: usize) -> Spare<B> {
        Spare { buffers: Vec::new(), begun: 0, items }
    }

    /// Buffers for an item that begins: a joined item's, or new ones.
    pub(crate) fn take(&mut self) -> B {
        self.begun += 1;
        self.buffers.pop().unwrap_or_default()
    }

    /// A joined item's emptied buffers.
    pub(crate) fn give(&mut self, buffers: B) {
        if self.begun < self.items {
            self.buffers.push(buffers);
        }
    }
}

/// A fork whose runs are joined one by one, in order, each as soon as the runs before it
/// are, on the thread that finished it ([`Fork::ordered`]).
pub(crate) struct Ordered {
    fork: Fork,
    /// Where the joined runs' nodes go: the spare capacity of the base's arenas.
    rooms: Kinds<Room<VarData>, Room<Expr>, Room<Stmt>>,
    joined: Mutex<Joined>,
}

/// What the runs joined so far made, and the runs done but not joined yet.
struct Joined {
    /// The runs done and not joined yet.
    pending: InOrder<Part>,
    /// The nodes of each kind the joined runs appended.
    lens: Lens,
    /// `lens` before the first run that did not fit in the rooms: the nodes written into
    /// them (that run and the later ones are moved at the finish).
    overflow: Option<Lens>,
    /// The joined runs' names and types, interned in order over the base's: their ids are
    /// those of the program after the finish.
    names: Interner,
    types: Types,
    /// By run: the joined run's changed base nodes and functions, its ids moved.
    moved: Vec<Option<Moved>>,
    /// The runs that did not fit in the rooms, prepared, in order.
    late: Vec<(usize, Own, Remap)>,
    /// The emptied buffers of joined runs, for runs still to begin ([`Ordered::program`]).
    spare: Spare<Buffers>,
    /// With [`Ordered::finish_mapped`]: the functions of the first `mapped` runs by name,
    /// in order, made as the runs are joined (not after the last one, when the other
    /// threads are idle).
    map: Option<Functions>,
    mapped: usize,
}

/// Moves the functions of the runs after the first `*mapped` into `map`, in order, as far
/// as every run before has been moved ([`Moved`]); `insert` each, as the callers would.
fn map_moved(map: &mut Functions, moved: &mut [Option<Moved>], mapped: &mut usize) {
    while let Some(Some(m)) = moved.get_mut(*mapped) {
        let functions = std::mem::take(&mut m.functions);
        map.reserve(functions.len());
        for f in functions {
            map.insert(f.name, f);
        }
        *mapped += 1;
    }
}

impl Ordered {
    /// A program without functions for one run, reading the base; its own nodes go into
    /// the buffers of a joined run when there is one (memory already faulted in).
    pub(crate) fn program(&self) -> Program {
        let buffers = { lock(&self.joined).spare.take() };
        self.fork.program_in(buffers)
    }

    /// An interner for one run, reading the base.
    pub(crate) fn names(&self) -> Interner {
        self.fork.names()
    }

    /// Run `run` (of those [`Fork::ordered`] was made for) is done: it is joined now if the
    /// runs before it are, and so are the runs after it that were waiting for it (their
    /// names and types interned in order under the lock; their nodes moved into their
    /// rooms on this thread, after the lock is released).
    pub(crate) fn done(&self, run: usize, part: Part) {
        let bases = self.fork.bases();
        let mut ready = Vec::new();
        {
            let mut guard = lock(&self.joined);
            let joined = &mut *guard;
            joined.pending.put(run, part);
            while let Some((next, part)) = joined.pending.next() {
                let mut own = Own::of(part);
                let at = joined.lens;
                let rm = prep(bases, &mut joined.names, &mut joined.types, &mut joined.lens, &mut own);
                let (rooms, end) = (&self.rooms, joined.lens);
                if joined.overflow.is_none() && rooms.0.fits(end.0) && rooms.1.fits(end.1) && rooms.2.fits(end.2) {
                    ready.push((next, own, rm, at));
                } else {
                    joined.overflow.get_or_insert(at);
                    joined.late.push((next, own, rm));
                }
            }
        }
        for (k, own, rm, at) in ready {
            let (v, e, s) = own.lens();
            // SAFETY: the run's rooms end within the arenas' capacity (`fits`, checked
            // above) and begin where the rooms of the run before it end (`at`, the nodes
            // of the runs before it, counted in order under the lock): no two runs' rooms
            // overlap, and each is handed out once (the run left `pending` for good).
            let rooms =
                unsafe { (self.rooms.0.slots(at.0, v), self.rooms.1.slots(at.1, e), self.rooms.2.slots(at.2, s)) };
            let (moved, buffers) = move_part(own, &rm, rooms);
            let mut guard = lock(&self.joined);
            let joined = &mut *guard;
            joined.moved[k] = Some(moved);
            joined.spare.give(buffers);
            if let Some(map) = &mut joined.map {
                map_moved(map, &mut joined.moved, &mut joined.mapped);
            }
        }
    }

    /// Puts the base, with the joined runs' nodes after it, back into `program` and
    /// `names`, and appends what was not joined yet (the runs that did not fit in the
    /// rooms); returns each run's functions, their ids moved. Every run must be done.
    pub(crate) fn finish(self, program: &mut Program, names: &mut Interner) -> Vec<Vec<Function>> {
        debug_assert!(lock(&self.joined).map.is_none(), "a mapping fork is finished by `finish_mapped`");
        self.finish_parts(program, names).0
    }

    /// Has the functions of the runs put in a map by name as the runs are joined, in order
    /// (inserted one after another, as a caller of [`Ordered::finish`] would): for
    /// [`Ordered::finish_mapped`]. `expected`: about how many functions the runs make (the
    /// map's room, made once: growing it under the lock would rehash it there).
    pub(crate) fn mapping(mut self, expected: usize) -> Ordered {
        let map = Functions::with_capacity_and_hasher(expected, Default::default());
        self.joined.get_mut().unwrap_or_else(PoisonError::into_inner).map = Some(map);
        self
    }

    /// [`Ordered::finish`] of a fork made [`Ordered::mapping`]: the runs' functions by name,
    /// in order.
    pub(crate) fn finish_mapped(self, program: &mut Program, names: &mut Interner) -> Functions {
        self.finish_parts(program, names).1
    }

    fn finish_parts(self, program: &mut Program, names: &mut Interner) -> (Vec<Vec<Function>>, Functions) {
        let Ordered { fork, rooms, joined } = self;
        let Joined {
            pending,
            lens,
            overflow,
            names: made_names,
            types: made_types,
            mut moved,
            late,
            spare,
            map,
            mut mapped,
        } = joined.into_inner().unwrap_or_else(PoisonError::into_inner);
        // What holds the base goes first: the programs of runs not joined (none when every
        // run is done) and the tables of the joined runs' names and types.
        drop((pending, spare));
        let (made_names, made_types) = (made_names.own_names(), made_types.into_own());
        let filled = overflow.unwrap_or(lens);
        let mut vars = rooms.0.unwrap(fork.vars, filled.0);
        let mut exprs = rooms.1.unwrap(fork.exprs, filled.1);
        let mut stmts = rooms.2.unwrap(fork.stmts, filled.2);
        // The names and types the runs made, numbered after the base's as they were.
        let mut types = Arc::try_unwrap(fork.types).unwrap_or_else(|t| (*t).clone());
        made_types.into_iter().for_each(|ty| _ = types.intern(ty));
        *names = Arc::try_unwrap(fork.names).unwrap_or_else(|n| (*n).clone());
        names.absorb(made_names);
        let (runs, late): (Vec<usize>, Vec<(Own, Remap)>) = late.into_iter().map(|(k, own, rm)| (k, (own, rm))).unzip();
        let late = append((&mut vars, &mut exprs, &mut stmts), late);
        for (k, m) in runs.into_iter().zip(late) {
            moved[k] = Some(m);
        }
        let map = map.map(|mut map| {
            map_moved(&mut map, &mut moved, &mut mapped);
            map
        });
        let out = apply((&mut vars, &mut exprs, &mut stmts), moved.into_iter().flatten());
        program.vars = Arena::from(vars);
        program.exprs = Arena::from(exprs);
        program.stmts = Arena::from(stmts);
        program.types = types;
        (out, map.unwrap_or_default())
    }

    /// Puts the base back into `program` and `names` as it was before the fork, and drops
    /// what the runs made, joined or not: a run gave up, and the caller makes the program
    /// another way. Every run must be done or given up.
    pub(crate) fn abandon(self, program: &mut Program, names: &mut Interner) {
        let Ordered { fork, rooms, joined } = self;
        let joined = joined.into_inner().unwrap_or_else(PoisonError::into_inner);
        let filled = joined.overflow.unwrap_or(joined.lens);
        // What holds the base goes first (the runs not joined, the joined runs' tables).
        drop(joined);
        let base = (fork.vars.len(), fork.exprs.len(), fork.stmts.len());
        let mut vars = rooms.0.unwrap(fork.vars, filled.0);
        let mut exprs = rooms.1.unwrap(fork.exprs, filled.1);
        let mut stmts = rooms.2.unwrap(fork.stmts, filled.2);
        vars.truncate(base.0);
        exprs.truncate(base.1);
        stmts.truncate(base.2);
        program.vars = Arena::from(vars);
        program.exprs = Arena::from(exprs);
        program.stmts = Arena::from(stmts);
        program.types = Arc::try_unwrap(fork.types).unwrap_or_else(|t| (*t).clone());
        *names = Arc::try_unwrap(fork.names).unwrap_or_else(|n| (*n).clone());
    }
}

/// The spare capacity of a base arena, into which [`Ordered::done`] moves the joined
/// runs' nodes while other runs read the base's nodes below it.
struct Room<T> {
    /// The arena's buffer.
    start: *mut T,
    /// The base's nodes.
    len: usize,
    capacity: usize,
}

// SAFETY: a `Room` points into the buffer of a `Vec<T>` the fork owns (through its `Arc`),
// which is neither moved nor changed while the fork lives: runs read its nodes, and
// `Room::slots` hands out slots past them, each once, to the thread that moves a run's
// nodes there, so sharing it only moves `T`s between threads.
unsafe impl<T: Send> Send for Room<T> {}
unsafe impl<T: Send> Sync for Room<T> {}

impl<T> Room<T> {
    /// The room of `base`, `extra` slots (or the spare capacity, if less) past its nodes,
    /// while the fork holds it alone; none (every run moved at the finish) if not.
    fn of(base: &mut Arc<Vec<T>>, extra: usize) -> Room<T> {
        match Arc::get_mut(base) {
            Some(v) => Room { start: v.as_mut_ptr(), len: v.len(), capacity: v.capacity().min(v.len() + extra) },
            None => Room { start: std::ptr::null_mut(), len: base.len(), capacity: base.len() },
        }
    }

    /// Whether the first `end` slots past the base's nodes are in the room.
    fn fits(&self, end: u32) -> bool {
        self.len + end as usize <= self.capacity
    }

    /// Slots `from..from + n` past the base's nodes.
    ///
    /// # Safety
    /// They are in the room (`fits(from + n)`), and no other reference to any of them is
    /// alive while the slice is.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slots(&self, from: u32, n: usize) -> &mut [MaybeUninit<T>] {
        if n == 0 {
            return &mut [];
        }
        // SAFETY: in the buffer's capacity (the caller's `fits`), past its initialized
        // nodes (which the runs read), and not referenced elsewhere (the caller's word).
        unsafe { std::slice::from_raw_parts_mut(self.start.add(self.len + from as usize).cast(), n) }
    }

    /// The base's arena back, its first `filled` slots of room holding the nodes moved
    /// there.
    fn unwrap(self, base: Arc<Vec<T>>, filled: u32) -> Vec<T>
    where
        T: Clone,
    {
        match Arc::try_unwrap(base) {
            Ok(mut v) => {
                // SAFETY: the buffer is the one `start` points into (nothing could change
                // the `Vec` while it was shared), and every joined run wrote all its slots
                // (`move_part`), which follow one another from the base's end to `filled`.
                unsafe { v.set_len(v.len() + filled as usize) };
                v
            }
            // Still shared (a run's program kept): a copy of the base and the room's nodes.
            Err(shared) => {
                let mut v = (*shared).clone();
                if filled > 0 {
                    // SAFETY: as above, the first `filled` slots of the room hold nodes; they
                    // are copied, not moved (the shared `Vec` never drops them).
                    v.extend_from_slice(unsafe {
                        std::slice::from_raw_parts(self.start.add(self.len), filled as usize)
                    });
                }
                v
            }
        }
    }
}

/// The length of the next run (or part) of guided scheduling ([`guided`]) when `left`
/// items (or bytes) are left: a share of them per thread, at most `largest` and at least
/// `least` (at least 1).
pub(crate) fn guided_len(left: usize, threads: usize, largest: usize, least: usize) -> usize {
    let least = least.max(1);
    (left / (threads.max(1) * 2)).clamp(least, largest.max(least))
}

/// `items` cut into runs for [`in_order`] on `threads` threads: of `largest` items while
/// much is left, then of a share of what is left, down to `least` ("guided" scheduling: the
/// thread that finishes its last run first waits for the other's to end, so the last runs
/// are made short; same-sized runs left a tail of up to a whole run).
pub(crate) fn guided<T>(items: &[T], threads: usize, largest: usize, least: usize) -> Vec<&[T]> {
    let mut rest = items;
    let mut runs = Vec::new();
    while !rest.is_empty() {
        let len = guided_len(rest.len(), threads, largest, least).min(rest.len());
        let (run, after) = rest.split_at(len);
        runs.push(run);
        rest = after;
    }
    runs
}

/// `work` on each of `items` on the pool's threads, each thread taking the first item not
/// taken yet (so the items are begun in order, and a thread that finishes one takes the
/// next), with a state of its own (`init`) kept from item to item; the results in the
/// items' order.
pub(crate) fn in_order<T: Send, S, R: Send>(
    items: Vec<T>,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, T) -> R + Sync,
) -> Vec<R> {
    use rayon::prelude::*;
    let threads = rayon::current_num_threads().clamp(1, items.len().max(1));
    let queue = Mutex::new(items.into_iter().enumerate());
    let mut done: Vec<(usize, R)> = (0..threads)
        .into_par_iter()
        .flat_map_iter(|_| {
            let mut state = init();
            let mut out = Vec::new();
            loop {
                let next = lock(&queue).next();
                let Some((k, item)) = next else { break };
                out.push((k, work(&mut state, k, item)));
            }
            out
        })
        .collect();
    done.sort_unstable_by_key(|&(k, _)| k);
    done.into_iter().map(|(_, r)| r).collect()
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
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &mut **if_;
                *cond = self.e(*cond);
                self.block(then_body);
                if let Some(b) = else_body {
                    self.block(b);
                }
                self.vars(return_vars);
            }
            StmtKind::For(for_) => {
                let ForStmt { kind: _, var, start, stop, step, iter_args, body, return_vars, attrs } = &mut **for_;
                *var = self.var(*var);
                *start = self.e(*start);
                *stop = self.e(*stop);
                *step = self.e(*step);
                self.iter_args(iter_args);
                self.block(body);
                self.vars(return_vars);
                self.attrs(attrs);
            }
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = &mut **while_;
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

/// An arena of IR nodes addressed by position. A fork's arena ([`Ordered::program`]) reads the
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

    /// Every node of an unforked arena, to change in place (in parallel: see
    /// `passes::directions`); `None` for a fork.
    pub fn as_mut_slice(&mut self) -> Option<&mut [T]> {
        self.base.is_none().then_some(&mut self.items[..])
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

    /// An arena reading `base`, its own nodes going into `items` (empty).
    fn forked(base: &Arc<Vec<T>>, items: Vec<T>) -> Arena<T> {
        debug_assert!(items.is_empty());
        Arena { base: Some(base.clone()), base_len: base.len(), changed: Vec::new(), items }
    }

    /// Addresses in the own nodes' buffer: its start, and its reserved room (from where
    /// the next pushed node goes to the end of the capacity). Nothing is read or written
    /// through them (see [`super::prefault`]).
    pub fn spare_room(&self) -> (usize, std::ops::Range<usize>) {
        let size = std::mem::size_of::<T>();
        let start = self.items.as_ptr() as usize;
        (start, start + self.items.len() * size..start + self.items.capacity() * size)
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

#[cfg(test)]
mod tests {
    use super::guided;

    #[test]
    fn guided_runs_cover_the_items_in_order_and_shrink_toward_the_end() {
        let items: Vec<usize> = (0..10_000).collect();
        let runs = guided(&items, 2, 625, 64);
        // Every item once, in order.
        assert!(runs.iter().flat_map(|r| r.iter()).copied().eq(0..10_000));
        let lens: Vec<usize> = runs.iter().map(|r| r.len()).collect();
        // The largest while much is left, then a share of what is left, down to the least
        // (the very last run may be shorter: what was left).
        assert_eq!(lens[0], 625);
        assert!(lens.windows(2).all(|w| w[0] >= w[1]), "{lens:?}");
        assert!(lens[..lens.len() - 1].iter().all(|&l| (64..=625).contains(&l)), "{lens:?}");
        assert!(*lens.last().unwrap() <= 64, "a short last run: {lens:?}");
        // Same-sized runs would be 16; the guided ones end in shorter runs.
        assert!(lens.len() > 16 && lens.len() < 40, "{} runs", lens.len());
        // Fewer items than the least run: one run.
        assert_eq!(guided(&items[..10], 2, 625, 64).len(), 1);
        assert!(guided(&items[..0], 2, 625, 64).is_empty());
    }
}
