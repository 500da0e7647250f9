//! Memory about to be written, faulted in ahead.
//!
//! A page of fresh memory costs a page fault when it is first written: 2–5 µs each on the
//! virtual machines measured (docs/performance.md), about a third of `plc check`'s time on
//! a large file. Where a stage knows it is about to fill a large block (a forked run's nodes
//! moved into their room, a chunk of the small-block allocator), [`populate`] asks the
//! kernel to map the block's pages in one call, about 1.3 µs a page.

use std::mem::MaybeUninit;

/// Blocks smaller than this are left to fault in page by page (a system call each would
/// cost more than the faults it saves).
const MIN_BYTES: usize = 64 << 10;

/// The page size assumed for rounding; on a larger page the call fails and is ignored.
const PAGE: usize = 4096;

/// Maps the whole pages inside `room` writable now, in one call (Linux 5.14 and later:
/// `madvise(MADV_POPULATE_WRITE)`), instead of one fault per page as they are first
/// written. The contents are not changed; on any error (an older kernel, another page
/// size) nothing is done and the pages fault in as before.
pub fn populate<T>(room: &mut [MaybeUninit<T>]) {
    populate_bytes(room.as_mut_ptr().cast(), std::mem::size_of_val(room));
}

/// [`populate`] on `len` bytes at `start`, which the caller may write.
pub fn populate_bytes(start: *mut u8, len: usize) {
    if len < MIN_BYTES {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let first = (start as usize).next_multiple_of(PAGE);
        let end = (start as usize + len) / PAGE * PAGE;
        if end > first {
            // SAFETY: `madvise` with MADV_POPULATE_WRITE only faults in the pages of the
            // range, which lies inside memory the caller owns and may write; it reads and
            // writes no byte of it (the pages' contents are kept).
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_POPULATE_WRITE) };
        }
    }
}
