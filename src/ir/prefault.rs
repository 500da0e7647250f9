//! Pages faulted in ahead of a serial pass that appends nodes, on a pool thread.
//!
//! A pass that runs on the driver thread alone (the outliners; LegalizeGraphBoundary's
//! apply of the edits its pool threads prepared, `passes::legalize`) appends new statements,
//! expressions and variables to the program's arenas; each new page of an arena's
//! reserved room costs a page fault (2–5 µs on the benchmark machine) on the thread that
//! first writes it, which is the driver. [`Ahead::keep_up`], called between functions,
//! asks a pool thread (idle while the pass runs) to fault in the next pages of each
//! arena's room with `madvise(MADV_POPULATE_WRITE)` (about 1.3 µs a page, off the driver
//! thread), a bounded window ahead of the nodes written so far: the memory faulted in is
//! the memory the pass is about to write, and at most [`WINDOW`] bytes per arena more.

use super::Program;
use std::ops::Range;

/// How far ahead of an arena's last node its room is faulted in, in bytes.
const WINDOW: usize = 256 << 10;

/// When the part faulted in ahead is shorter than this, the next part is asked for.
const LOW: usize = WINDOW / 2;

use crate::mem::PAGE;

/// What has been asked for in each arena (variables, expressions, statements, and the
/// function map's entries): the buffer's start address when it was, and the address up
/// to which its room is (or is being) faulted in.
#[derive(Default)]
pub struct Ahead {
    asked: [(usize, usize); 4],
}

impl Ahead {
    /// Asks a pool thread to fault in the next [`WINDOW`] bytes of each arena's reserved
    /// room, for each arena whose part faulted in ahead is shorter than [`LOW`]. The room
    /// past an arena's capacity is not touched: the buffer that a push past it allocates
    /// is seen at the next call (by its new start address).
    pub fn keep_up(&mut self, p: &Program) {
        if !cfg!(target_os = "linux") {
            return;
        }
        let rooms = [p.vars.spare_room(), p.exprs.spare_room(), p.stmts.spare_room(), functions_room(p)];
        for (asked, (base, room)) in self.asked.iter_mut().zip(rooms) {
            if asked.0 != base {
                *asked = (base, room.start);
            }
            let from = asked.1.max(room.start);
            if from >= room.start + LOW {
                continue;
            }
            let to = room.end.min(room.start + WINDOW);
            // Whole pages: the first one holds the last node written (already in), the
            // last part of a page past `to` is left to fault as usual.
            let pages = from & !(PAGE - 1)..to & !(PAGE - 1);
            asked.1 = to;
            if pages.end > pages.start {
                rayon::spawn(move || crate::mem::populate_pages(pages));
            }
        }
    }
}

/// The function map's entries buffer and its reserved room, as [`super::Arena::spare_room`]
/// gives an arena's: the entries are one slice (`IndexMap::as_slice`), and the map's
/// capacity is at most its entries' (the room may end before the buffer does).
fn functions_room(p: &Program) -> (usize, Range<usize>) {
    let entries = p.functions.as_slice();
    let start = std::ptr::from_ref(entries).cast::<u8>() as usize;
    let used = std::mem::size_of_val(entries);
    let capacity = match p.functions.len() {
        0 => 0,
        n => p.functions.capacity() * (used / n),
    };
    (start, start + used..start + capacity.max(used))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{ExprKind, Loc, Program};

    /// What is asked for stays inside each arena's reserved room, follows the nodes as they
    /// are pushed and the buffer when it moves, and the program is the same as without.
    #[test]
    fn the_pages_asked_for_stay_in_the_reserved_room() {
        let mut p = Program::default();
        let mut q = Program::default();
        let mut ahead = Ahead::default();
        let ty = p.types.intern(crate::ir::Type::None);
        q.types.intern(crate::ir::Type::None);
        for i in 0..200_000i64 {
            if i % 1000 == 0 {
                ahead.keep_up(&p);
                let (base, room) = p.exprs.spare_room();
                let (asked_base, asked) = ahead.asked[1];
                assert_eq!(asked_base, base);
                assert!(room.start <= asked && asked <= room.end, "{room:?} {asked}");
            }
            p.new_expr(ExprKind::Int(i), ty, Loc::COMPILER);
            q.new_expr(ExprKind::Int(i), ty, Loc::COMPILER);
        }
        assert!(p.exprs.iter().eq(q.exprs.iter()));
    }
}
