//! Pipe synchronisation: the step that makes a kernel's instructions wait for each other.
//! Each PTO-ISA instruction runs on one pipe (MTE2 loads, V computes on vectors, MTE3
//! stores; on the cube MTE1 moves into L0A/L0B, M multiplies, FIX stores L0C); a pipe runs
//! its instructions in order, and pipes run concurrently. The rules (docs/kernels.md):
//!
//! - An instruction on pipe P that touches a buffer (a tile's bytes, or a tensor in global
//!   memory) an earlier instruction on pipe Q != P touched, where one of the two writes it,
//!   waits for Q: `set_flag(Q, P, EVENT_ID0); wait_flag(Q, P, EVENT_ID0);` just before it,
//!   unless Q's earlier instructions are already ordered before P (directly or through a
//!   chain of flags).
//! - On the same pipe, a vector instruction that reads or writes what an earlier one wrote
//!   (or writes what it read) is preceded by `pipe_barrier(PIPE_V)`; likewise for M.
//! - A loop body, and each branch of an `if`, starts and ends with `pipe_barrier(PIPE_ALL)`
//!   (the body's buffers are reused by the next iteration; a branch may or may not run).
//! - The kernel ends by draining its output pipe onto the scalar pipe (simpler's
//!   `pipe_sync()`: MTE3 for a vector kernel, FIX for a cube kernel).
//!
//! The simulator runs instructions one after another and does not check any of this; the
//! unit tests below check the flags statically.

/// The pipes of an a2a3 core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pipe {
    Mte2,
    V,
    Mte3,
    Mte1,
    M,
    Fix,
    S,
}

impl Pipe {
    pub fn spelling(self) -> &'static str {
        match self {
            Pipe::Mte2 => "PIPE_MTE2",
            Pipe::V => "PIPE_V",
            Pipe::Mte3 => "PIPE_MTE3",
            Pipe::Mte1 => "PIPE_MTE1",
            Pipe::M => "PIPE_M",
            Pipe::Fix => "PIPE_FIX",
            Pipe::S => "PIPE_S",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

const PIPES: usize = 7;

/// A buffer an instruction touches: bytes `[lo, hi)` of an on-chip memory (`space` numbers
/// the memory), or a tensor argument in global memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buffer {
    OnChip { space: u8, lo: u64, hi: u64 },
    Global(usize),
}

impl Buffer {
    fn overlaps(self, other: Buffer) -> bool {
        match (self, other) {
            (Buffer::OnChip { space: a, lo, hi }, Buffer::OnChip { space: b, lo: lo2, hi: hi2 }) => {
                a == b && lo < hi2 && lo2 < hi
            }
            (Buffer::Global(a), Buffer::Global(b)) => a == b,
            _ => false,
        }
    }
}

/// An instruction as the step sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Access {
    pub pipe: Pipe,
    pub reads: Vec<Buffer>,
    pub writes: Vec<Buffer>,
}

/// The step's input: the kernel's instructions, with loop boundaries.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Inst(Access),
    LoopStart,
    LoopEnd,
}

/// One earlier access still to order against.
struct Record {
    pipe: Pipe,
    buffer: Buffer,
    write: bool,
    /// The pipes this access is known to complete before (through flags).
    ordered: [bool; PIPES],
    /// Whether a barrier on its own pipe has passed since.
    barrier: bool,
}

/// The sync lines to put before each step (by index), and after the last one.
pub fn insert(steps: &[Step], drain: Pipe) -> (Vec<Vec<String>>, Vec<String>) {
    let mut before = vec![Vec::new(); steps.len()];
    let mut records: Vec<Record> = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        let a = match step {
            Step::LoopStart | Step::LoopEnd => {
                before[k].push("pipe_barrier(PIPE_ALL);".to_string());
                records.clear();
                continue;
            }
            Step::Inst(a) => a,
        };
        let p = a.pipe;
        let touches: Vec<(Buffer, bool)> =
            a.reads.iter().map(|&b| (b, false)).chain(a.writes.iter().map(|&b| (b, true))).collect();
        let conflicts = |r: &Record| touches.iter().any(|&(b, w)| r.buffer.overlaps(b) && (w || r.write));
        let barrier =
            records.iter().any(|r| conflicts(r) && r.pipe == p && !r.barrier && matches!(p, Pipe::V | Pipe::M));
        // Wait for the fewest pipes: each flag also orders what was ordered before its
        // source pipe, so the pipe that orders the most pending accesses goes first.
        loop {
            let pending: Vec<usize> = (0..records.len())
                .filter(|&i| conflicts(&records[i]) && records[i].pipe != p && !records[i].ordered[p.index()])
                .collect();
            let covers =
                |q: Pipe| pending.iter().filter(|&&i| records[i].pipe == q || records[i].ordered[q.index()]).count();
            let Some(q) = pending.iter().map(|&i| records[i].pipe).max_by_key(|&q| (covers(q), std::cmp::Reverse(q)))
            else {
                break;
            };
            before[k].push(format!("set_flag({}, {}, EVENT_ID0);", q.spelling(), p.spelling()));
            before[k].push(format!("wait_flag({}, {}, EVENT_ID0);", q.spelling(), p.spelling()));
            for r in records.iter_mut().filter(|r| r.pipe == q || r.ordered[q.index()]) {
                r.ordered[p.index()] = true;
            }
        }
        if barrier {
            before[k].push(format!("pipe_barrier({});", p.spelling()));
            for r in records.iter_mut().filter(|r| r.pipe == p) {
                r.barrier = true;
            }
        }
        for (b, w) in touches {
            records.push(Record { pipe: p, buffer: b, write: w, ordered: [false; PIPES], barrier: false });
        }
    }
    let end = vec![
        format!("set_flag({}, PIPE_S, EVENT_ID7);", drain.spelling()),
        format!("wait_flag({}, PIPE_S, EVENT_ID7);", drain.spelling()),
    ];
    (before, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(lo: u64) -> Buffer {
        Buffer::OnChip { space: 0, lo, hi: lo + 1024 }
    }

    fn inst(pipe: Pipe, reads: Vec<Buffer>, writes: Vec<Buffer>) -> Step {
        Step::Inst(Access { pipe, reads, writes })
    }

    /// MTE2: global `from` into the tile at byte `to`.
    fn load(from: Buffer, to: u64) -> Step {
        inst(Pipe::Mte2, vec![from], vec![tile(to)])
    }

    /// V: the tiles at `reads` into the tile at `write`.
    fn v(reads: &[u64], write: u64) -> Step {
        inst(Pipe::V, reads.iter().map(|&lo| tile(lo)).collect(), vec![tile(write)])
    }

    /// MTE3: the tile at `from` into global `to`.
    fn store(from: u64, to: Buffer) -> Step {
        inst(Pipe::Mte3, vec![tile(from)], vec![to])
    }

    /// The flags of `x = load(a); y = load(b); z = x + y; w = z * 2; store(w, out)`.
    #[test]
    fn load_compute_store_waits_once_per_pipe_pair() {
        let (a, b, out) = (Buffer::Global(0), Buffer::Global(1), Buffer::Global(2));
        let steps = [load(a, 0), load(b, 1024), v(&[0, 1024], 2048), v(&[2048], 3072), store(3072, out)];
        let (before, end) = insert(&steps, Pipe::Mte3);
        assert!(before[0].is_empty() && before[1].is_empty());
        assert_eq!(before[2], ["set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);", "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);"]);
        assert_eq!(before[3], ["pipe_barrier(PIPE_V);"]);
        assert_eq!(before[4], ["set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);", "wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);"]);
        assert_eq!(end, ["set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);", "wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);"]);
    }

    /// A load into bytes a store still reads (write after read), and a load of a tensor a
    /// store wrote (read after write in global memory).
    #[test]
    fn reuse_and_global_memory_hazards_wait() {
        let (a, out) = (Buffer::Global(0), Buffer::Global(1));
        let steps = [load(a, 0), store(0, out), load(out, 0)];
        let (before, _) = insert(&steps, Pipe::Mte3);
        assert_eq!(
            before[1],
            ["set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);", "wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);"]
        );
        assert_eq!(
            before[2],
            ["set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);", "wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);"]
        );
    }

    /// Independent instructions do not wait, and an order already established through
    /// another pipe is not flagged again.
    #[test]
    fn no_flag_without_a_hazard_or_when_already_ordered() {
        let a = Buffer::Global(0);
        let steps = [
            load(a, 0),
            load(a, 1024),
            v(&[0], 2048),
            // Reads tile(1024), loaded by MTE2 before the flag MTE2 -> V: ordered already.
            v(&[1024], 4096),
            v(&[], 8192),
        ];
        let (before, _) = insert(&steps, Pipe::Mte3);
        assert_eq!(before[2].len(), 2);
        assert!(before[3].is_empty() && before[4].is_empty(), "{before:?}");
    }

    /// `t` reuses the bytes of `x` (loaded by MTE2): the store of `t` waits for V only, since
    /// MTE2 was ordered before V already.
    #[test]
    fn a_chain_of_flags_orders_transitively() {
        let (x, y, out) = (Buffer::Global(0), Buffer::Global(1), Buffer::Global(2));
        let steps = [load(x, 0), load(y, 1024), v(&[0], 2048), v(&[2048, 1024], 0), store(0, out)];
        let (before, _) = insert(&steps, Pipe::Mte3);
        assert_eq!(before[2].len(), 2);
        assert_eq!(before[3], ["pipe_barrier(PIPE_V);"]);
        assert_eq!(before[4], ["set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);", "wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);"]);
    }

    #[test]
    fn loops_are_fenced() {
        let steps = [Step::LoopStart, load(Buffer::Global(0), 0), Step::LoopEnd];
        let (before, _) = insert(&steps, Pipe::Mte3);
        assert_eq!(before[0], ["pipe_barrier(PIPE_ALL);"]);
        assert_eq!(before[2], ["pipe_barrier(PIPE_ALL);"]);
    }

    /// `if c: r = yield(a + 1) else: r = yield(a * 2)` then a store of `r`: each branch is
    /// fenced like a loop body (the lowering opens one block per branch), so nothing in a
    /// branch waits for the load before the `if`, the copy into the merged tile (`TMOV`, V)
    /// waits for its branch's computation with a V barrier, and the store after the `if`
    /// waits for nothing.
    #[test]
    fn branches_are_fenced_like_loop_bodies() {
        let steps = [
            load(Buffer::Global(0), 0),
            Step::LoopStart,
            v(&[0], 2048),
            v(&[2048], 1024),
            Step::LoopEnd,
            Step::LoopStart,
            v(&[0], 3072),
            v(&[3072], 1024),
            Step::LoopEnd,
            store(1024, Buffer::Global(1)),
        ];
        let (before, _) = insert(&steps, Pipe::Mte3);
        let fence = ["pipe_barrier(PIPE_ALL);"];
        for k in [1, 4, 5, 8] {
            assert_eq!(before[k], fence, "{before:?}");
        }
        assert!(before[2].is_empty() && before[6].is_empty() && before[9].is_empty(), "{before:?}");
        assert_eq!(before[3], ["pipe_barrier(PIPE_V);"]);
        assert_eq!(before[7], ["pipe_barrier(PIPE_V);"]);
    }
}
