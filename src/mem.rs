//! Memory about to be written, faulted in ahead.
//!
//! A page of fresh memory costs a page fault when it is first written: 2–5 µs each on the
//! virtual machines measured (docs/performance.md). Where the compiler knows it is about
//! to fill a large block (a forked run's nodes moved into their room, a chunk of the
//! small-block allocator, the outliners' arenas through [`crate::ir::prefault`]), it asks
//! the kernel to map the block's pages in one call instead, about 1.3 µs a page — on the
//! thread that writes next, or on an idle one ahead of it.
//!
//! Also: the syntax trees' small blocks kept out of reuse in a one-shot compile
//! ([`drop_keeping_small_blocks`]).

use std::mem::MaybeUninit;
use std::ops::Range;

/// Blocks smaller than this are left to fault in page by page (a system call would cost
/// more than the faults it saves).
const MIN_BYTES: usize = 64 << 10;

/// The page size assumed for rounding; on a larger page the call fails and is ignored.
pub(crate) const PAGE: usize = 4096;

/// Faults in the whole pages inside `room`, which the caller is about to write.
pub fn populate<T>(room: &mut [MaybeUninit<T>]) {
    populate_bytes(room.as_mut_ptr().cast(), std::mem::size_of_val(room));
}

/// How far ahead [`ahead`] faults in a vector's room: about this many bytes of nodes.
const AHEAD_BYTES: usize = 128 << 10;

/// The nodes of `T` [`ahead`] faults in at a time: about [`AHEAD_BYTES`] of them, rounded
/// down to a power of two (so that the test per push is a mask).
const fn ahead_nodes<T>() -> usize {
    let n = AHEAD_BYTES / if std::mem::size_of::<T>() == 0 { 1 } else { std::mem::size_of::<T>() };
    let n = if n == 0 { 1 } else { n };
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// Called before each push onto `nodes`, a vector with room reserved for many nodes that
/// is filled by pushes (the syntax tree's arenas, the laid-out tokens): at every
/// [`AHEAD_BYTES`] or so of nodes, the pages of the next ones in its room are faulted in at
/// once ([`populate`]), not one fault per page as the pushes reach them. At most that
/// much of the room is mapped before it is written.
#[inline]
pub fn ahead<T>(nodes: &mut Vec<T>) {
    if nodes.len() & (const { ahead_nodes::<T>() } - 1) == 0 {
        populate_next(nodes);
    }
}

#[cold]
#[inline(never)]
fn populate_next<T>(nodes: &mut Vec<T>) {
    let room = nodes.spare_capacity_mut();
    let n = room.len().min(ahead_nodes::<T>());
    populate(&mut room[..n]);
}

/// [`populate`] on `len` bytes at `start`, memory the caller owns and is about to write:
/// the whole pages inside it, when it is at least [`MIN_BYTES`] long.
pub fn populate_bytes(start: *mut u8, len: usize) {
    if len < MIN_BYTES {
        return;
    }
    let first = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + len) / PAGE * PAGE;
    if end > first {
        populate_pages(first..end);
    }
}

/// Faults in the pages of `range` (page-aligned addresses) for writing, in one call
/// (Linux 5.14 and later: `madvise(MADV_POPULATE_WRITE)`), without writing them. On any
/// error (an older kernel, another page size, a range no longer mapped) nothing is done
/// and the pages fault in as before; elsewhere than on Linux, nothing is done.
#[cfg(target_os = "linux")]
pub(crate) fn populate_pages(range: Range<usize>) {
    // SAFETY: `madvise(MADV_POPULATE_WRITE)` maps the pages of the range as a write to
    // each would, without reading or writing their contents: no memory the program sees
    // changes. Nothing is dereferenced here. A range that is no longer the caller's (an
    // arena's room asked for ahead, whose buffer has since moved or been freed: see
    // `ir::prefault`) makes the call fail (ignored) or fault in pages of a later
    // allocation, which is still invisible to the program.
    let _ =
        unsafe { libc::madvise(range.start as *mut libc::c_void, range.end - range.start, libc::MADV_POPULATE_WRITE) };
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn populate_pages(_range: Range<usize>) {}

/// Whether this process compiles once and exits (every command but the language server):
/// see [`drop_keeping_small_blocks`].
static ONE_SHOT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

thread_local! {
    /// Set while [`drop_keeping_small_blocks`] drops its value on this thread. `const`,
    /// with no destructor: the allocator reads it on any thread in any state.
    static KEEPING_SMALL_BLOCKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the process as one that compiles once and exits (set by the command line for
/// every command but `lsp`, before any compiling).
pub fn set_one_shot() {
    ONE_SHOT.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`set_one_shot`] was called: asked by the binary's allocator
/// (`src/small_alloc.rs`) before it keeps a large block freed for reuse.
#[inline]
pub fn one_shot() -> bool {
    ONE_SHOT.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether the small blocks freed on this thread now are to be kept out of reuse: asked
/// by the binary's allocator (`src/small_alloc.rs`) for each small block freed.
#[inline]
pub fn keeping_small_blocks() -> bool {
    KEEPING_SMALL_BLOCKS.with(std::cell::Cell::get)
}

/// Drops `value` (the syntax trees when lowering ends), and in a one-shot process keeps
/// the small blocks it frees out of reuse: the allocator does not put them back on its
/// free lists. Put back, they were handed to every pass after lowering, scattered over the
/// trees' old chunks, where those passes otherwise carve their small blocks one after
/// another from fresh chunks; the passes after lowering ran 15–25 % slower on gen(10000)
/// (docs/performance.md, "The syntax tree's free"). The cost is the memory of those
/// blocks, not given back until the process ends (about 5 MiB on gen(10000) when every
/// list of the tree was a block; under 1 MiB since the frequent lists share vectors). The
/// language server, which lives on, reuses them.
pub fn drop_keeping_small_blocks<T>(value: T) {
    if !ONE_SHOT.load(std::sync::atomic::Ordering::Relaxed) {
        drop(value);
        return;
    }
    /// Clears the flag even if a destructor panics.
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            KEEPING_SMALL_BLOCKS.with(|k| k.set(false));
        }
    }
    KEEPING_SMALL_BLOCKS.with(|k| k.set(true));
    let _clear = Clear;
    drop(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Faulting a block in keeps what it holds (the call maps pages, it writes none), for a
    /// block too small to be worth a call and for one that is not page-aligned.
    #[test]
    fn populating_a_block_keeps_its_contents() {
        for len in [MIN_BYTES / 2, 3 * MIN_BYTES + 123] {
            let mut buf: Vec<u8> = (0..len + 1).map(|i| (i % 251) as u8).collect();
            // From the second byte: a start that is not on a page boundary.
            populate_bytes(buf[1..].as_mut_ptr(), len);
            assert!(buf.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8), "len {len}");
            let mut room: Vec<u64> = Vec::with_capacity(len);
            room.push(7);
            populate(room.spare_capacity_mut());
            room.resize(len, 9);
            assert_eq!((room[0], room[len - 1], room.len()), (7, 9, len));
        }
    }

    /// The allocator is told to keep the small blocks out of reuse only while a one-shot
    /// process drops what it hands to `drop_keeping_small_blocks`, and on that thread.
    #[test]
    fn small_blocks_are_kept_out_of_reuse_only_inside_a_one_shot_drop() {
        use std::sync::{Arc, Mutex};
        struct Probe(Arc<Mutex<Vec<bool>>>);
        impl Drop for Probe {
            fn drop(&mut self) {
                self.0.lock().unwrap().push(keeping_small_blocks());
            }
        }
        let seen = Arc::new(Mutex::new(Vec::new()));
        // Nothing in this test binary marks it one-shot before this point.
        drop_keeping_small_blocks(Probe(seen.clone()));
        set_one_shot();
        drop_keeping_small_blocks(Probe(seen.clone()));
        let elsewhere = std::thread::spawn(keeping_small_blocks);
        drop(Probe(seen.clone()));
        assert_eq!(*seen.lock().unwrap(), [false, true, false]);
        assert!(!elsewhere.join().unwrap());
        assert!(!keeping_small_blocks());
    }
}
