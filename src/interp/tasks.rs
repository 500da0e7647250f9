//! What the real runtime does around the task launches that the interpreter runs in
//! program order: the declared accesses of each task and the order the runtime guarantees
//! between them (to report races), and Graph record and replay as simpler does it (to
//! compute what a replay computes).
//!
//! - **Races.** Each task launch (a call of a device kernel from host code) declares its
//!   tensor arguments' buffer ranges: `In` reads, `Out`/`InOut` write, a `pl.no_dep`
//!   argument is not tracked. The runtime orders a task after every earlier task whose
//!   tracked ranges overlap its own with a write on either side (not among the tasks of one
//!   `pl.manual_scope`), and after its `deps=`. Two tasks that touch overlapping ranges,
//!   one writing, with no chain of such orders between them may run in either order or at
//!   once on the real runtime: a race, reported once per pair of call sites (E0805).
//! - **Graphs.** The first call of a Graph function records its task launches: each
//!   tensor argument classified against the boundary tensors (the Graph's tensor
//!   parameters) by value, as simpler's `graph_tensor_from_boundary` does (a boundary
//!   tensor equal in buffer, offset, shape, strides and dtype first, else the first
//!   boundary tensor over the same buffer starting at or before it, as a view of it); each
//!   scalar argument that is a scalar parameter of the Graph as that slot, any other as the
//!   value it had. Later calls with the same boundary signature do not run the body: the
//!   recorded tasks run again over the new boundary.

use super::value::{Data, Tensor, Value};
use crate::intern::Symbol;
use crate::ir::{DType, Loc};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;

/// The most tasks whose accesses are kept for race checks (later ones are not checked).
pub(super) const MAX_CHECKED_TASKS: usize = 20_000;
/// The most Graph functions recorded in one run, as the CPU runtime keeps.
pub(super) const MAX_RECORDINGS: usize = 16;

/// The identity of a tensor's buffer.
pub(super) fn buffer_id(t: &Tensor) -> usize {
    Rc::as_ptr(&t.buf) as usize
}

/// The element range `[lo, hi)` of its buffer a view touches (`None` when it is empty).
pub(super) fn extent(t: &Tensor) -> Option<(i64, i64)> {
    if t.shape.iter().any(|&d| d <= 0) {
        return None;
    }
    let (mut lo, mut hi) = (t.offset, t.offset);
    for (&d, &s) in t.shape.iter().zip(&t.strides) {
        let span = (d - 1).saturating_mul(s);
        if span < 0 {
            lo = lo.saturating_add(span);
        } else {
            hi = hi.saturating_add(span);
        }
    }
    Some((lo, hi.saturating_add(1)))
}

/// One tensor argument of a task as the runtime sees it.
#[derive(Clone, Debug)]
pub(super) struct Access {
    pub buf: usize,
    pub lo: i64,
    pub hi: i64,
    pub write: bool,
    /// False for a `pl.no_dep` argument: the runtime orders nothing by it.
    pub tracked: bool,
    /// What the program calls the tensor at the launch, for messages.
    pub name: String,
}

/// A dependency a launch declares with `deps=`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Dep {
    /// A task launched before (its index).
    Task(usize),
    /// A task id the interpreter does not know as a launch (a region's `as tid`): the task
    /// is taken to wait for everything before it.
    Unknown,
}

struct TaskRec {
    /// The function the task runs (`None`: a dummy task, which runs nothing).
    func: Option<Symbol>,
    loc: Loc,
    accesses: Vec<Access>,
    deps: Vec<usize>,
    /// Ordered after every task before this index (a dependency on an unknown id).
    after_all: usize,
}

/// A race found at a launch: the earlier task and the later one, with the buffer's name.
pub(super) struct Race {
    pub first: (Option<Symbol>, Loc),
    pub first_writes: bool,
    pub second: (Option<Symbol>, Loc),
    pub second_writes: bool,
    pub name: String,
}

/// The tasks launched so far.
#[derive(Default)]
pub(super) struct Tasks {
    tasks: Vec<TaskRec>,
    by_buffer: FxHashMap<usize, Vec<(usize, usize)>>,
    /// Task ids (`pl.submit`) → task index.
    pub ids: FxHashMap<i64, usize>,
    reported: FxHashSet<(Loc, Loc)>,
}

impl Tasks {
    /// The last task that writes part of `lo..hi` of buffer `buf`.
    pub fn last_writer(&self, buf: usize, lo: i64, hi: i64) -> Option<usize> {
        let writes = self.by_buffer.get(&buf)?;
        writes
            .iter()
            .filter(|&&(t, k)| {
                let a = &self.tasks[t].accesses[k];
                a.write && a.lo < hi && lo < a.hi
            })
            .map(|&(t, _)| t)
            .max()
    }

    /// The last task that writes part of `lo..hi` of buffer `buf`, or with `reads` the
    /// last that reads or writes it: its function, launch site and access (whether it
    /// writes, whether the runtime tracks it, the tensor's name at the launch).
    pub fn last_conflict(&self, buf: usize, lo: i64, hi: i64, reads: bool) -> Option<(Option<Symbol>, Loc, &Access)> {
        let accesses = self.by_buffer.get(&buf)?;
        accesses
            .iter()
            .filter(|&&(t, k)| {
                let a = &self.tasks[t].accesses[k];
                (a.write || reads) && a.lo < hi && lo < a.hi
            })
            .max_by_key(|&&(t, k)| (t, self.tasks[t].accesses[k].write))
            .map(|&(t, k)| (self.tasks[t].func, self.tasks[t].loc, &self.tasks[t].accesses[k]))
    }

    /// Records a launch whose tasks of index `manual_since..` share its manual scope (no
    /// automatic order among them); returns its index and the races it has with earlier
    /// tasks.
    pub fn launch(
        &mut self,
        func: Option<Symbol>,
        loc: Loc,
        accesses: Vec<Access>,
        deps: &[Dep],
        manual_since: Option<usize>,
    ) -> (usize, Vec<Race>) {
        let me = self.tasks.len();
        if me >= MAX_CHECKED_TASKS {
            return (me, Vec::new());
        }
        let mut rec = TaskRec { func, loc, accesses, deps: Vec::new(), after_all: 0 };
        for d in deps {
            match d {
                Dep::Task(t) if *t < me => rec.deps.push(*t),
                Dep::Task(_) => {}
                Dep::Unknown => rec.after_all = me,
            }
        }
        // The automatic order: overlapping tracked ranges with a write on either side.
        let mut conflicts = Vec::new();
        for a in &rec.accesses {
            for &(t, k) in self.by_buffer.get(&a.buf).map(Vec::as_slice).unwrap_or(&[]) {
                let b = &self.tasks[t].accesses[k];
                if b.lo >= a.hi || a.lo >= b.hi || !(a.write || b.write) {
                    continue;
                }
                let manual = manual_since.is_some_and(|since| t >= since);
                if a.tracked && b.tracked && !manual {
                    rec.deps.push(t);
                } else {
                    conflicts.push((t, k, a.clone()));
                }
            }
        }
        rec.deps.sort_unstable();
        rec.deps.dedup();
        let mut races = Vec::new();
        if !conflicts.is_empty() {
            let before = self.ancestors(&rec);
            for (t, k, a) in conflicts {
                if t < rec.after_all || before.contains(&t) {
                    continue;
                }
                let first = &self.tasks[t];
                if !self.reported.insert((first.loc, loc)) {
                    continue;
                }
                races.push(Race {
                    first: (first.func, first.loc),
                    first_writes: first.accesses[k].write,
                    second: (func, loc),
                    second_writes: a.write,
                    name: a.name.clone(),
                });
            }
        }
        for (k, a) in rec.accesses.iter().enumerate() {
            self.by_buffer.entry(a.buf).or_default().push((me, k));
        }
        self.tasks.push(rec);
        (me, races)
    }

    /// The tasks a new task is ordered after, directly or through others.
    fn ancestors(&self, rec: &TaskRec) -> FxHashSet<usize> {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<usize> = rec.deps.clone();
        let mut floor = rec.after_all;
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            let r = &self.tasks[t];
            floor = floor.max(r.after_all);
            stack.extend(r.deps.iter().copied());
        }
        seen.extend(0..floor);
        seen
    }

    /// The number of tasks launched so far.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }
}

// ------------------------------------------------------------------ graph record and replay

/// Where a tensor of a recorded task comes from.
#[derive(Clone, Debug)]
pub(super) enum Source {
    /// Boundary tensor `i` itself (simpler's BOUNDARY_EXACT).
    Exact(usize),
    /// A view of boundary tensor `i`, `delta` elements after its origin (BOUNDARY_VIEW).
    View(usize, i64),
    /// A buffer the Graph made (`k`-th), with its contents when the recording first used it.
    Internal(usize, i64),
}

/// A recorded argument or result.
#[derive(Clone, Debug)]
pub(super) enum Recorded {
    Tensor {
        source: Source,
        dtype: DType,
        shape: Vec<i64>,
        strides: Vec<i64>,
    },
    /// The Graph's scalar parameter `i`.
    Slot(usize),
    /// Anything else, as it was.
    Fixed(Value),
}

/// A recorded task launch.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub func: Symbol,
    pub loc: Loc,
    pub core_num: Option<i64>,
    pub args: Vec<Recorded>,
    /// Earlier nodes it waits for (`deps=` naming tasks of the same recording).
    pub deps: Vec<usize>,
    /// Each tensor argument: its position, written, tracked, name (see [`Access`]).
    pub modes: Vec<(usize, bool, bool, String)>,
    pub manual: bool,
}

/// The boundary of a Graph call: each tensor's shape, strides, dtype and the first tensor
/// sharing its buffer; the number of scalars.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Signature {
    tensors: Vec<(Vec<i64>, Vec<i64>, DType, usize)>,
    scalars: usize,
}

impl Signature {
    pub fn of(tensors: &[Tensor], scalars: usize) -> Signature {
        let tensors = tensors
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let alias = tensors.iter().position(|o| buffer_id(o) == buffer_id(t)).unwrap_or(i);
                (t.shape.clone(), t.strides.clone(), t.dtype, alias)
            })
            .collect();
        Signature { tensors, scalars }
    }
}

/// A Graph function's recording.
pub(super) struct Definition {
    pub signature: Signature,
    pub nodes: Vec<Node>,
    /// The initial contents of each internal buffer.
    pub internals: Vec<Data>,
    pub results: Vec<Recorded>,
}

/// A recording in progress.
pub(super) struct Recording {
    pub boundary: Vec<Tensor>,
    pub scalar_params: Vec<crate::ir::VarId>,
    pub signature: Signature,
    pub nodes: Vec<Node>,
    internal: FxHashMap<usize, usize>,
    pub internals: Vec<Data>,
    /// Task ids of recorded launches → node.
    pub node_of_id: FxHashMap<i64, usize>,
}

impl Recording {
    pub fn new(boundary: Vec<Tensor>, scalar_params: Vec<crate::ir::VarId>) -> Recording {
        let signature = Signature::of(&boundary, scalar_params.len());
        Recording {
            boundary,
            scalar_params,
            signature,
            nodes: Vec::new(),
            internal: FxHashMap::default(),
            internals: Vec::new(),
            node_of_id: FxHashMap::default(),
        }
    }

    /// Classifies a value passed to a recorded task (`slot`: the Graph's scalar parameter
    /// the argument names, if it is one).
    pub fn classify(&mut self, value: &Value, slot: Option<usize>) -> Recorded {
        match value {
            Value::Tensor(t) => {
                let meta = |source| Recorded::Tensor {
                    source,
                    dtype: t.dtype,
                    shape: t.shape.clone(),
                    strides: t.strides.clone(),
                };
                let exact = self.boundary.iter().position(|b| {
                    buffer_id(b) == buffer_id(t)
                        && b.offset == t.offset
                        && b.shape == t.shape
                        && b.strides == t.strides
                        && b.dtype == t.dtype
                });
                if let Some(i) = exact {
                    return meta(Source::Exact(i));
                }
                let view = self.boundary.iter().position(|b| buffer_id(b) == buffer_id(t) && t.offset >= b.offset);
                if let Some(i) = view {
                    return meta(Source::View(i, t.offset - self.boundary[i].offset));
                }
                let next = self.internals.len();
                let k = *self.internal.entry(buffer_id(t)).or_insert(next);
                if k == next {
                    self.internals.push(t.buf.borrow().clone());
                }
                meta(Source::Internal(k, t.offset))
            }
            Value::Int(_) | Value::Float(_) | Value::Bool(_) if slot.is_some() => Recorded::Slot(slot.unwrap_or(0)),
            other => Recorded::Fixed(other.clone()),
        }
    }

    pub fn finish(self, results: Vec<Recorded>) -> Definition {
        Definition { signature: self.signature, nodes: self.nodes, internals: self.internals, results }
    }
}

/// A recorded value over a new boundary: boundary tensors re-based on the call's, scalar
/// slots re-read, internal buffers taken from `internals` (made afresh for the replay).
pub(super) fn rebase(
    r: &Recorded,
    boundary: &[Tensor],
    scalars: &[Value],
    internals: &[Rc<RefCell<Data>>],
) -> Result<Value, String> {
    Ok(match r {
        Recorded::Tensor { source, dtype, shape, strides } => {
            let (buf, offset) = match source {
                Source::Exact(i) => return Ok(Value::Tensor(boundary[*i].clone())),
                Source::View(i, delta) => (boundary[*i].buf.clone(), boundary[*i].offset + delta),
                Source::Internal(k, offset) => (internals[*k].clone(), *offset),
            };
            let t = Tensor { buf, dtype: *dtype, shape: shape.clone(), strides: strides.clone(), offset, valid: None };
            let len = t.buf.borrow().len() as i64;
            if let Some((lo, hi)) = extent(&t) {
                if lo < 0 || hi > len {
                    return Err(format!(
                        "on replay a recorded view (elements {lo}..{hi}) reaches past its {len}-element buffer"
                    ));
                }
            }
            Value::Tensor(t)
        }
        Recorded::Slot(i) => scalars[*i].clone(),
        Recorded::Fixed(v) => v.clone(),
    })
}
