//! The kernels a Group function calls run together, as the runtime runs a mixed task: the
//! cube kernel and the vector kernels start at once and talk through cross-core pipes, so a
//! kernel that pops a pipe nothing has pushed on yet waits for the kernel that pushes it,
//! whatever order the Group calls them in.
//!
//! A pipe has a fixed number of slots (PTO-ISA's TPipe, [`Pipe`]): a push needs a free slot,
//! a pop takes the oldest tile pushed and holds its slot until the consumer's `tfree_*`
//! hands it back, so a producer more than the slots ahead of the consumer's frees waits too.
//!
//! The interpreter is a recursive walk, so a kernel that waits keeps its place on a stack of
//! its own: each kernel of a batch runs on a thread, and a baton (a mutex and a condition
//! variable) lets exactly one of them run at a time. A kernel runs until it finishes, pops
//! an empty pipe or pushes on a full one; the baton then goes to the next kernel, in call
//! order and round robin, that can go on (one not started, or one whose pipe now holds a
//! tile, or a free slot). The schedule depends only on the program, so the output is
//! deterministic. When every kernel left waits on a pipe, the one that blocked last reports
//! the deadlock (E0801), naming what each waits for; the others are then woken one by one
//! to unwind.

use super::exec::{Fault, Flow, Frame, Interp};
use super::value::{Dense, Value};
use crate::diag::Code;
use crate::intern::Symbol;
use crate::ir::group::{kernel_call, KernelCall};
use crate::ir::lineage::Lineage;
use crate::ir::{Block, Loc, VarId};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// One kernel call of a batch: the function, its argument values and where it is called.
pub(super) struct Pending {
    pub func: Symbol,
    pub args: Vec<Value>,
    pub loc: Loc,
}

/// A direction of a pipe: its `id=` and whether it carries tiles from the cube to the vector
/// core.
pub(super) type PipeKey = (i64, bool);

/// A cross-core pipe (one `id=`): a ring of slots that both directions share, as PTO-ISA's
/// TPipe (the CPU simulator's, which simpler's a2a3sim runs, and a5's hardware; on a2a3's
/// the pop itself frees). A slot is taken from the push until the consumer's `tfree_*`.
#[derive(Default)]
pub struct Pipe {
    /// The slots `*_initialize_pipe` set up (`ir::ops::pipe_slots`); `None` before any.
    set_up: Option<i64>,
    /// The tiles pushed and not popped yet, oldest first, by direction (`[to the cube, to the
    /// vector core]`).
    queued: [std::collections::VecDeque<Dense>; 2],
    /// The tiles popped and not freed yet, by direction.
    popped: [usize; 2],
}

impl Pipe {
    /// Its slots: as set up, or the default of a pipe of one direction.
    pub fn slots(&self) -> i64 {
        self.set_up.unwrap_or(crate::ir::ops::DEFAULT_PIPE_SLOTS)
    }

    fn taken(&self) -> usize {
        self.queued[0].len() + self.queued[1].len() + self.popped[0] + self.popped[1]
    }

    pub fn has_free_slot(&self) -> bool {
        (self.taken() as i64) < self.slots()
    }

    /// `*_initialize_pipe` with `slots` slots; both kernels set the pipe up, with the same
    /// count.
    pub fn set_up(&mut self, id: i64, slots: i64) -> Result<(), String> {
        match self.set_up {
            Some(n) if n != slots => Err(format!(
                "pipe {id} is set up with {slots} slots here and with {n} by the other kernel: the two ends must agree"
            )),
            _ => {
                self.set_up = Some(slots);
                Ok(())
            }
        }
    }

    /// Puts `tile` in a free slot (the caller waited for one).
    pub fn push(&mut self, to_vector: bool, tile: Dense) {
        self.queued[to_vector as usize].push_back(tile);
    }

    /// Takes the oldest tile pushed `to_vector`, its slot held until freed.
    pub fn pop(&mut self, to_vector: bool) -> Option<Dense> {
        let tile = self.queued[to_vector as usize].pop_front()?;
        self.popped[to_vector as usize] += 1;
        Some(tile)
    }

    /// `tfree_*`: hands the slot of the oldest tile popped `to_vector` and not freed back.
    pub fn free(&mut self, to_vector: bool) -> bool {
        let popped = &mut self.popped[to_vector as usize];
        *popped = match popped.checked_sub(1) {
            Some(n) => n,
            None => return false,
        };
        true
    }
}

/// What a kernel waits for.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Wait {
    /// A tile on this direction of a pipe (a pop of an empty one).
    Tile(PipeKey),
    /// A free slot of the pipe, to push this way (a push on a full one).
    Slot(PipeKey),
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    /// Not started, or able to go on.
    Ready,
    /// Popping an empty pipe or pushing on a full one.
    Waiting(Wait),
    Done,
}

struct Turn {
    /// The kernel that holds the baton; `None` once every kernel is done.
    running: Option<usize>,
    states: Vec<State>,
    /// Set when a kernel failed: the others unwind as they get the baton.
    abort: bool,
    /// The kernel whose failure was first.
    first_failure: Option<usize>,
}

/// The baton of one batch of kernels.
pub(super) struct Baton {
    turn: Mutex<Turn>,
    wake: Condvar,
    names: Vec<String>,
}

/// The interpreter's state that belongs to the kernel running, not to the batch: kept by
/// a kernel while it waits and restored when it gets the baton back.
#[derive(Clone, Copy)]
pub(super) struct Context {
    pub depth: usize,
    pub in_kernel: bool,
    pub block_idx: i64,
    pub block_num: i64,
    pub manual_since: Option<usize>,
    pub me: usize,
}

/// A value handed to or from the thread of a kernel. The values hold `Rc`s, which must
/// not be touched by two threads at once; the baton guarantees that only the thread holding
/// it runs interpreter code (so reads or writes any `Rc`), and hands over through a mutex,
/// which orders each thread's work after the previous holder's.
struct Unshared<T>(T);

// SAFETY: see `Unshared`: the kernel threads of a batch run one at a time under the baton,
// and the thread that starts them touches nothing they share until it has joined them all.
unsafe impl<T> Send for Unshared<T> {}

impl<T> Unshared<T> {
    fn into_inner(self) -> T {
        self.0
    }
}

/// What a kernel's thread hands back: its results, or the panic that stopped it.
type Outcome = Result<Result<Vec<Value>, Fault>, Box<dyn std::any::Any + Send>>;

impl Baton {
    fn lock(&self) -> MutexGuard<'_, Turn> {
        self.turn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until kernel `me` holds the baton.
    fn wait_for<'g>(&self, mut turn: MutexGuard<'g, Turn>, me: usize) -> MutexGuard<'g, Turn> {
        while turn.running != Some(me) {
            turn = self.wake.wait(turn).unwrap_or_else(|e| e.into_inner());
        }
        turn
    }

    /// Hands the baton on from `from` to the next kernel that can go on, if any.
    fn pass(&self, turn: &mut Turn, it: &Interp<'_>, from: usize) {
        turn.running = next(turn, it, from);
        self.wake.notify_all();
    }
}

/// The next kernel after `from` (in call order, round robin, `from` itself last) that can
/// go on: one not started, or one waiting on a pipe that now holds a tile or a free slot (any
/// waiting one once the batch is aborted).
fn next(turn: &Turn, it: &Interp<'_>, from: usize) -> Option<usize> {
    let n = turn.states.len();
    (1..=n).map(|k| (from + k) % n).find(|&j| match turn.states[j] {
        State::Ready => true,
        State::Waiting(wait) => turn.abort || it.can_go_on(wait),
        State::Done => false,
    })
}

/// How a waiting kernel is described in the deadlock's message (the CPU runtime's
/// `together::waits_for` says the same).
fn waits_for(wait: Wait, it: &Interp<'_>) -> String {
    match wait {
        Wait::Tile((id, to_vector)) => {
            let from = if to_vector { "the cube (AIC) kernel" } else { "a vector (AIV) kernel" };
            format!("pipe {id} from {from}")
        }
        Wait::Slot((id, to_vector)) => {
            let slots = it.pipes.get(&id).map_or(crate::ir::ops::DEFAULT_PIPE_SLOTS, Pipe::slots);
            let (to, free) = match to_vector {
                true => ("the vector (AIV) kernel", "tfree_to_aic"),
                false => ("the cube (AIC) kernel", "tfree_to_aiv"),
            };
            format!("a free slot of pipe {id} to {to} (its {slots} slots are taken until a `{free}` frees one)")
        }
    }
}

impl<'a> Interp<'a> {
    /// Runs a batch of kernel calls of a Group together; their results in call order.
    pub(super) fn run_together(&mut self, batch: Vec<Pending>) -> Result<Vec<Vec<Value>>, Fault> {
        let n = batch.len();
        let names = batch.iter().map(|p| format!("`{}`", self.names().get(p.func))).collect();
        let turn = Turn { running: None, states: vec![State::Ready; n], abort: false, first_failure: None };
        let baton = Arc::new(Baton { turn: Mutex::new(turn), wake: Condvar::new(), names });
        let outer = self.group.replace(baton.clone());
        let start = self.context();
        let interp: *mut Interp<'a> = self;
        let outcomes: Vec<Option<Outcome>> = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(n);
            for (i, call) in batch.into_iter().enumerate() {
                let payload = Unshared((interp, call, baton.clone()));
                let spawned = std::thread::Builder::new()
                    .name(format!("plc-kernel-{i}"))
                    .stack_size(256 << 20)
                    .spawn_scoped(scope, move || {
                        // A method call: the closure takes `payload` whole, not its fields.
                        let (interp, call, baton) = payload.into_inner();
                        Unshared(kernel_thread(interp, call, &baton, Context { me: i, ..start }))
                    });
                match spawned {
                    Ok(h) => handles.push(Some(h)),
                    Err(_) => {
                        // Nothing will run it: the batch fails.
                        let mut turn = baton.lock();
                        turn.states[i] = State::Done;
                        turn.abort = true;
                        handles.push(None);
                    }
                }
            }
            {
                let mut turn = baton.lock();
                // SAFETY: no kernel thread runs before it gets the baton, here.
                let it = unsafe { &*interp };
                turn.running = next(&turn, it, n - 1);
                baton.wake.notify_all();
            }
            handles.into_iter().map(|h| h.and_then(|h| h.join().ok()).map(|Unshared(o)| o)).collect()
        });
        self.restore(start);
        self.group = outer;
        let first_failure = baton.lock().first_failure;
        let mut results = Vec::with_capacity(n);
        let mut failure = None;
        for (i, outcome) in outcomes.into_iter().enumerate() {
            match outcome {
                Some(Ok(Ok(values))) => results.push(values),
                Some(Ok(Err(f))) => {
                    if first_failure == Some(i) || failure.is_none() {
                        failure = Some(f);
                    }
                }
                Some(Err(payload)) => panic::resume_unwind(payload),
                None => {
                    let message = "cannot start a thread for a kernel of the Group";
                    failure.get_or_insert(Fault { code: Code::E0801, message: message.into(), loc: Loc::COMPILER });
                }
            }
        }
        match failure {
            Some(f) => Err(f),
            None => Ok(results),
        }
    }

    /// Whether a kernel waiting for `wait` can go on.
    fn can_go_on(&self, wait: Wait) -> bool {
        match wait {
            Wait::Tile((id, to_vector)) => {
                self.pipes.get(&id).is_some_and(|p| !p.queued[to_vector as usize].is_empty())
            }
            Wait::Slot((id, _)) => self.pipes.get(&id).is_none_or(Pipe::has_free_slot),
        }
    }

    /// Called by a kernel of a batch whose pop found its pipe empty, or whose push found it
    /// full: hands the baton on and returns when the kernel may try again; an error when no
    /// kernel can go on (a deadlock) or another kernel failed.
    pub(super) fn wait_on_pipe(&mut self, wait: Wait) -> Result<(), String> {
        let Some(baton) = self.group.clone() else {
            return Err(match wait {
                Wait::Tile(_) => format!(
                    "nothing was pushed on {} and no other kernel runs beside this one to push it",
                    waits_for(wait, self)
                ),
                Wait::Slot(_) => format!(
                    "no kernel runs beside this one to free {}",
                    waits_for(wait, self).trim_start_matches("a free slot of ")
                ),
            });
        };
        let mine = self.context();
        let me = mine.me;
        let mut turn = baton.lock();
        turn.states[me] = State::Waiting(wait);
        match next(&turn, self, me) {
            Some(j) if j != me => {
                turn.running = Some(j);
                baton.wake.notify_all();
                turn = baton.wait_for(turn, me);
            }
            Some(_) => {}
            None => {
                let waiting: Vec<String> = turn
                    .states
                    .iter()
                    .zip(&baton.names)
                    .filter_map(|(s, name)| match s {
                        State::Waiting(w @ Wait::Tile(_)) => Some(format!("{name} waits on {}", waits_for(*w, self))),
                        State::Waiting(w @ Wait::Slot(_)) => Some(format!("{name} waits for {}", waits_for(*w, self))),
                        _ => None,
                    })
                    .collect();
                turn.states[me] = State::Ready;
                turn.abort = true;
                return Err(format!(
                    "a deadlock: every kernel of the Group still running waits on a pipe ({})",
                    waiting.join(", ")
                ));
            }
        }
        turn.states[me] = State::Ready;
        let abort = turn.abort;
        drop(turn);
        self.restore(mine);
        if abort {
            return Err("stopped: another kernel of the Group failed".to_string());
        }
        Ok(())
    }
}

/// The body of a kernel's thread: waits for the baton, runs the kernel, hands the baton on.
fn kernel_thread(interp: *mut Interp<'_>, call: Pending, baton: &Baton, start: Context) -> Outcome {
    let me = start.me;
    let turn = baton.wait_for(baton.lock(), me);
    let abort = turn.abort;
    drop(turn);
    // SAFETY: this thread holds the baton: no other thread runs interpreter code until it
    // hands it on (see `Unshared`).
    let it = unsafe { &mut *interp };
    it.restore(start);
    let outcome = if abort {
        drop(call);
        let message = "stopped: another kernel of the Group failed".to_string();
        Ok(Err(Fault { code: Code::E0801, message, loc: Loc::COMPILER }))
    } else {
        panic::catch_unwind(AssertUnwindSafe(|| it.call_kernel(call)))
    };
    let mut turn = baton.lock();
    turn.states[me] = State::Done;
    if !matches!(outcome, Ok(Ok(_))) {
        turn.abort = true;
        turn.first_failure.get_or_insert(me);
    }
    baton.pass(&mut turn, it, me);
    outcome
}

impl<'a> Interp<'a> {
    /// Runs the body of a Group function: each run of consecutive kernel calls is a batch
    /// that runs together ([`Interp::run_together`]); other statements run in order, after
    /// the batch before them. A kernel's result is bound at once to the arguments it returns
    /// (a kernel returns its `Out` parameters), so the calls of a batch need not wait for
    /// each other; a call whose result is not one of its arguments ends its batch.
    ///
    /// A Group is one mixed task, and the runtime makes a task's pipes afresh: the body runs
    /// with pipes of its own, empty at the start, and the caller's come back after it.
    pub(super) fn group_block(&mut self, body: &Block, frame: &mut Frame) -> Result<Flow, Fault> {
        let outer = std::mem::take(&mut self.pipes);
        let flow = self.group_batches(body, frame);
        self.pipes = outer;
        flow
    }

    fn group_batches(&mut self, body: &Block, frame: &mut Frame) -> Result<Flow, Fault> {
        let program = self.program();
        let mut batch: Vec<(Option<VarId>, Pending)> = Vec::new();
        let mut lineage = Lineage::default();
        for &stmt in body {
            if let Some(KernelCall { var, func, args: arg_exprs, .. }) = kernel_call(program, stmt) {
                self.charge(1, program.stmt(stmt).loc)?;
                let mut args = Vec::with_capacity(arg_exprs.len());
                for a in arg_exprs {
                    args.push(match a {
                        Some(a) => self.eval(*a, frame)?,
                        None => Value::None,
                    });
                }
                let returned = lineage.returned_params(program, func);
                let known: Option<Vec<Value>> = returned.iter().map(|k| k.and_then(|k| args.get(k).cloned())).collect();
                let loc = program.stmt(stmt).loc;
                batch.push((var, Pending { func, args, loc }));
                match (var, known) {
                    (Some(v), Some(values)) => frame.set(v, results_value(values)),
                    (None, _) => {}
                    (Some(_), None) => self.flush(&mut batch, frame)?,
                }
                continue;
            }
            self.flush(&mut batch, frame)?;
            match self.stmt_flow(stmt, frame)? {
                Flow::Next => {}
                flow => return Ok(flow),
            }
        }
        self.flush(&mut batch, frame)?;
        Ok(Flow::Next)
    }

    /// Runs the batch of kernel calls gathered so far and binds their results.
    fn flush(&mut self, batch: &mut Vec<(Option<VarId>, Pending)>, frame: &mut Frame) -> Result<(), Fault> {
        if batch.is_empty() {
            return Ok(());
        }
        let (vars, calls): (Vec<_>, Vec<_>) = std::mem::take(batch).into_iter().unzip();
        let results = if calls.len() == 1 {
            calls.into_iter().map(|c| self.call_kernel(c)).collect::<Result<Vec<_>, _>>()?
        } else {
            self.run_together(calls)?
        };
        for (var, values) in vars.into_iter().zip(results) {
            if let Some(v) = var {
                frame.set(v, results_value(values));
            }
        }
        Ok(())
    }
}

/// The value of a call from the values its function returns.
fn results_value(mut values: Vec<Value>) -> Value {
    match values.len() {
        0 => Value::None,
        1 => values.pop().unwrap_or(Value::None),
        _ => Value::tuple(values),
    }
}
