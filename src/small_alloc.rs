//! The binary's global allocator: small blocks from per-thread free lists, the rest from
//! the system allocator.
//!
//! A compilation makes and frees about 50 small blocks per source line (AST and IR
//! vectors, names, hash tables); glibc's `malloc` and `free` cost 60 and 100 instructions
//! each on them, a fifth of `plc check` (docs/performance.md). Here a block of at most
//! [`MAX_SMALL`] bytes (alignment at most [`ALIGN`]) belongs to one of 8 size classes
//! (multiples of 16 bytes; larger classes cost more memory, the blocks of one class serving
//! no other, and save little more time); each thread keeps one free list per class and carves new
//! blocks from chunks it takes from the system allocator. Allocating pops a list or bumps
//! a pointer, freeing pushes onto the freeing thread's list: a dozen instructions each.
//! Small blocks are never given back to the system (glibc keeps them too, in its bins).
//! A block freed by another thread than the one that made it joins the freeing thread's
//! lists; so that a thread that frees what others made (the language server's message
//! loop drops what its workers built) does not hoard blocks, a list longer than
//! [`CACHE`] hands a batch of [`BATCH`] blocks to a shared pool, from which a thread whose
//! list is empty takes a batch before it carves new blocks.
//! A thread that ends leaves what its lists hold unused (at most [`CACHE`] blocks a class).
//! The blocks freed while a one-shot compile drops its syntax trees are not put back at all
//! (`plc::mem::drop_keeping_small_blocks`): the passes after lowering then carve fresh,
//! contiguous blocks instead of reusing the trees' scattered ones.
//! Everything larger, or more aligned, goes to the system allocator, and in a one-shot
//! compile a large block freed is kept for a later large block ([`Kept`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The largest block served from the free lists.
const MAX_SMALL: usize = 128;
/// The granularity and the alignment of the size classes.
const ALIGN: usize = 16;
const CLASSES: usize = MAX_SMALL / ALIGN;
/// The size of the chunks the small blocks are carved from.
const CHUNK: usize = 256 << 10;
/// The most blocks a thread keeps in one free list ...
const CACHE: u32 = 512;
/// ... and how many it hands to the shared pool, or takes from it, at a time.
const BATCH: u32 = 256;

/// The smallest block [`Kept`] keeps: glibc maps each block of 1 MiB and more on its own
/// (`M_MMAP_THRESHOLD`, set in `main.rs`) and unmaps it when it is freed.
const LARGE: usize = 1 << 20;
/// The most blocks, and bytes, [`Kept`] holds.
const KEPT_BLOCKS: usize = 16;
const KEPT_BYTES: usize = 8 << 20;

/// Large blocks freed in a one-shot compile (`plc::mem::one_shot`), kept (mapped, their
/// pages written) for the next large block that fits in one, instead of unmapped by glibc:
/// a fresh block's pages each cost a page fault (the kernel clears and accounts them) when
/// first written, and page faults are a fifth of `plc check`'s CPU time. A front end's
/// parts free their tokens as the next parts make their syntax trees' lists, of about the
/// same size, and lowering's runs take their buffers from them too (docs/performance.md,
/// the seventeenth round). A block kept is still the
/// system allocator's: it is given out again whole (a request from half its size up), and
/// freed or reallocated by it as any other. At most [`KEPT_BLOCKS`] blocks and
/// [`KEPT_BYTES`] bytes are kept (a block past those is freed), so peak memory grows by at
/// most that much; the language server keeps none.
struct Kept {
    /// Address and usable size of each block kept, the first `len`.
    blocks: [(usize, usize); KEPT_BLOCKS],
    len: usize,
    bytes: usize,
}

static KEPT: Mutex<Kept> = Mutex::new(Kept { blocks: [(0, 0); KEPT_BLOCKS], len: 0, bytes: 0 });

impl Kept {
    /// The smallest block kept that holds `size` bytes and is at most twice that, taken.
    fn take(&mut self, size: usize) -> Option<*mut u8> {
        let (k, _) = self.blocks[..self.len]
            .iter()
            .enumerate()
            .filter(|(_, &(_, room))| room >= size && room / 2 <= size)
            .min_by_key(|(_, &(_, room))| room)?;
        let (at, room) = self.blocks[k];
        self.len -= 1;
        self.blocks[k] = self.blocks[self.len];
        self.bytes -= room;
        Some(at as *mut u8)
    }

    /// Keeps `block`, of `room` usable bytes; false (nothing kept) when full.
    fn keep(&mut self, block: *mut u8, room: usize) -> bool {
        if self.len == KEPT_BLOCKS || self.bytes + room > KEPT_BYTES {
            return false;
        }
        self.blocks[self.len] = (block as usize, room);
        self.len += 1;
        self.bytes += room;
        true
    }
}

/// Whether blocks of `layout` may be kept and reused ([`Kept`]): large, aligned as glibc
/// aligns every block, on Linux with glibc (whose `malloc_usable_size` tells a block's room).
#[inline]
fn keepable(layout: &Layout) -> bool {
    cfg!(all(target_os = "linux", target_env = "gnu")) && layout.size() >= LARGE && layout.align() <= ALIGN
}

/// The bytes the system allocator's block `block` holds (at least what it was asked for).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn room(block: *mut u8) -> usize {
    // SAFETY: `block` is a live block of the system allocator (glibc's malloc).
    unsafe { libc::malloc_usable_size(block.cast()) }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn room(_block: *mut u8) -> usize {
    0
}

/// A kept block for `size` bytes, if one fits.
#[cold]
fn take_kept(size: usize) -> Option<*mut u8> {
    KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take(size)
}

/// Keeps the system allocator's block `block` (of a [`keepable`] layout) in a one-shot
/// compile; false when it was not kept (the caller frees it).
#[cold]
fn keep_freed(block: *mut u8) -> bool {
    plc::mem::one_shot() && KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner).keep(block, room(block))
}

/// The allocator (see the module documentation).
pub struct SmallAlloc;

/// One thread's free lists (heads of intrusive singly linked lists) and the rest of its
/// current chunk.
struct Lists {
    heads: [*mut u8; CLASSES],
    /// The length of each list.
    counts: [u32; CLASSES],
    next: *mut u8,
    end: *mut u8,
}

/// The shared pool: per class, a stack of batches of [`BATCH`] free blocks. A batch is a
/// list linked through the blocks' first words (as a thread's lists); its first block's
/// second word links to the next batch.
struct Pool([*mut u8; CLASSES]);

// SAFETY: the pool holds only free blocks, which belong to no thread.
unsafe impl Send for Pool {}

static POOL: Mutex<Pool> = Mutex::new(Pool([ptr::null_mut(); CLASSES]));
/// The number of batches in the pool, per class, read without the lock: a thread whose
/// list of a class is empty looks into the pool only when it holds a batch of that class
/// (in a batch compilation, almost never). One count for all classes made every carve of
/// a class the pool had none of take the lock for nothing while another class had a batch
/// (42 000 times in the outliners on gen(2000)).
static POOLED: [AtomicUsize; CLASSES] = [const { AtomicUsize::new(0) }; CLASSES];

thread_local! {
    // `const`, with no destructor: the access works in any state of the thread, even
    // while its other thread-locals are being destroyed.
    static LISTS: UnsafeCell<Lists> = const {
        UnsafeCell::new(Lists {
            heads: [ptr::null_mut(); CLASSES],
            counts: [0; CLASSES],
            next: ptr::null_mut(),
            end: ptr::null_mut(),
        })
    };
}

/// The size class of a layout served from the free lists, or `None` for the system
/// allocator.
#[inline]
fn class(layout: &Layout) -> Option<usize> {
    (layout.size() <= MAX_SMALL && layout.align() <= ALIGN).then(|| layout.size().max(1).div_ceil(ALIGN) - 1)
}

impl Lists {
    /// A block of class `c`: the head of its list, or carved from the current chunk.
    ///
    /// # Safety
    /// The lists hold only free blocks of their class.
    #[inline]
    unsafe fn alloc(&mut self, c: usize) -> *mut u8 {
        if self.heads[c].is_null() && POOLED[c].load(Ordering::Relaxed) > 0 {
            self.take_batch(c);
        }
        let head = self.heads[c];
        if !head.is_null() {
            // SAFETY: a free block's first word is the next free block of its list.
            self.heads[c] = unsafe { *(head as *mut *mut u8) };
            self.counts[c] -= 1;
            return head;
        }
        let size = (c + 1) * ALIGN;
        if (self.end as usize) - (self.next as usize) < size {
            // SAFETY: CHUNK is non-zero and ALIGN a power of two.
            let chunk = unsafe { System.alloc(Layout::from_size_align_unchecked(CHUNK, ALIGN)) };
            if chunk.is_null() {
                return chunk;
            }
            // Its pages are all about to be written: mapped in one call, not a fault each.
            plc::mem::populate_bytes(chunk, CHUNK);
            // The rest of the old chunk is left unused (less than MAX_SMALL bytes).
            self.next = chunk;
            // SAFETY: within the chunk just allocated.
            self.end = unsafe { chunk.add(CHUNK) };
        }
        let block = self.next;
        // SAFETY: `size` bytes fit before `end` (checked above).
        self.next = unsafe { block.add(size) };
        block
    }

    /// Puts a block of class `c` on its list.
    ///
    /// # Safety
    /// `block` is a block of class `c` that nothing uses any more.
    #[inline]
    unsafe fn free(&mut self, block: *mut u8, c: usize) {
        // SAFETY: every class is at least one word long and 16-byte aligned.
        unsafe { *(block as *mut *mut u8) = self.heads[c] };
        self.heads[c] = block;
        self.counts[c] += 1;
        if self.counts[c] > CACHE {
            // SAFETY: the list holds more than BATCH free blocks.
            unsafe { self.give_batch(c) };
        }
    }

    /// Moves the first [`BATCH`] blocks of list `c` to the shared pool.
    ///
    /// # Safety
    /// List `c` holds more than `BATCH` blocks.
    #[cold]
    unsafe fn give_batch(&mut self, c: usize) {
        let first = self.heads[c];
        let mut last = first;
        // SAFETY: the first BATCH blocks of the list exist, each linking to the next.
        unsafe {
            for _ in 1..BATCH {
                last = *(last as *mut *mut u8);
            }
            self.heads[c] = *(last as *mut *mut u8);
            *(last as *mut *mut u8) = ptr::null_mut();
        }
        self.counts[c] -= BATCH;
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the block's second word is free (every class is at least 16 bytes).
        unsafe { *(first as *mut *mut u8).add(1) = pool.0[c] };
        pool.0[c] = first;
        POOLED[c].fetch_add(1, Ordering::Relaxed);
    }

    /// Makes a batch of the shared pool list `c` (empty), if the pool has one.
    #[cold]
    fn take_batch(&mut self, c: usize) {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let first = pool.0[c];
        if !first.is_null() {
            // SAFETY: a batch's first block links to the next batch by its second word.
            pool.0[c] = unsafe { *(first as *mut *mut u8).add(1) };
            self.heads[c] = first;
            self.counts[c] = BATCH;
            POOLED[c].fetch_sub(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: a small block is handed out by one thread's lists at a time (the lists are
// thread-local) and is at least `layout.size()` bytes long and ALIGN-aligned; every other
// layout is served by `System` with the same layout, and `dealloc`/`realloc` find which by
// the layout, which is the one the block was allocated with.
unsafe impl GlobalAlloc for SmallAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class(&layout) {
            // SAFETY: the lists are this thread's, used by nothing else meanwhile.
            Some(c) => LISTS.with(|l| unsafe { (*l.get()).alloc(c) }),
            None if keepable(&layout) => match take_kept(layout.size()) {
                Some(block) => block,
                // SAFETY: forwarded unchanged.
                None => unsafe { System.alloc(layout) },
            },
            // SAFETY: forwarded unchanged.
            None => unsafe { System.alloc(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        match class(&layout) {
            // A block freed while the syntax trees are dropped in a one-shot compile is
            // left unused (`plc::mem::drop_keeping_small_blocks`): leaking is sound.
            Some(_) if plc::mem::keeping_small_blocks() => {}
            // SAFETY: the caller frees a block of this layout, so of this class.
            Some(c) => LISTS.with(|l| unsafe { (*l.get()).free(block, c) }),
            None if keepable(&layout) && keep_freed(block) => {}
            // SAFETY: forwarded unchanged.
            None => unsafe { System.dealloc(block, layout) },
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if class(&layout).is_none() {
            // SAFETY: forwarded unchanged (calloc gets fresh pages already zeroed).
            return unsafe { System.alloc_zeroed(layout) };
        }
        // SAFETY: as `alloc`; the block is `layout.size()` bytes long.
        unsafe {
            let block = self.alloc(layout);
            if !block.is_null() {
                ptr::write_bytes(block, 0, layout.size());
            }
            block
        }
    }

    #[inline]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees that the new layout is valid.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class(&layout), class(&new_layout)) {
            (Some(old), Some(new)) if old == new => block,
            // A block kept and given out again may hold the new size already; or a kept block
            // holds it, its pages written: the contents copied there, the old block kept
            // (glibc would map fresh pages for the growth).
            // SAFETY: `block` is a live block of the system allocator, of `layout` (the
            // caller's guarantee); a kept block is another live one of at least `new_size`
            // bytes, so the copy stays within both; the old block is then freed (or kept).
            (None, None) if keepable(&new_layout) && keepable(&layout) => unsafe {
                if room(block) >= new_size {
                    return block;
                }
                match take_kept(new_size) {
                    Some(moved) => {
                        ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                        self.dealloc(block, layout);
                        moved
                    }
                    None => System.realloc(block, layout, new_size),
                }
            },
            // SAFETY: forwarded unchanged.
            (None, None) => unsafe { System.realloc(block, layout, new_size) },
            // SAFETY: a new block, the contents copied, the old one freed.
            _ => unsafe {
                let moved = self.alloc(new_layout);
                if !moved.is_null() {
                    ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                    self.dealloc(block, layout);
                }
                moved
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(blocks: &[(usize, usize)]) -> Kept {
        let mut k = Kept { blocks: [(0, 0); KEPT_BLOCKS], len: 0, bytes: 0 };
        for &(at, room) in blocks {
            assert!(k.keep(at as *mut u8, room));
        }
        k
    }

    #[test]
    fn a_kept_block_is_the_smallest_that_holds_the_request_and_at_most_twice_it() {
        let mut k = kept(&[(0x1000, 3 << 20), (0x2000, 2 << 20), (0x3000, 5 << 19)]);
        assert_eq!(k.take(4 << 20), None, "none holds it");
        assert_eq!(k.take(1 << 19), None, "each is more than twice the request");
        assert_eq!(k.take(5 << 18), Some(0x2000 as *mut u8));
        assert_eq!(k.take(5 << 18), Some(0x3000 as *mut u8));
        assert_eq!(k.take(5 << 18), None, "the one left is more than twice the request");
        assert_eq!((k.len, k.bytes), (1, 3 << 20));
        assert_eq!(k.take(3 << 20), Some(0x1000 as *mut u8));
        assert_eq!((k.len, k.bytes), (0, 0));
    }

    #[test]
    fn the_kept_blocks_are_bounded_in_number_and_bytes() {
        let mut k = kept(&[(0x1000, KEPT_BYTES - (1 << 20))]);
        assert!(!k.keep(0x2000 as *mut u8, 2 << 20), "past the bytes");
        assert!(k.keep(0x2000 as *mut u8, 1 << 20));
        let mut k = kept(&[]);
        for i in 0..KEPT_BLOCKS {
            assert!(k.keep((0x1000 * (i + 1)) as *mut u8, 1));
        }
        assert!(!k.keep(0x100000 as *mut u8, 1), "past the blocks");
    }

    #[test]
    fn a_large_block_freed_in_a_one_shot_compile_is_given_out_again_and_grows_in_place() {
        // (The binary's tests run with this allocator too; no other test frees a large block.)
        plc::mem::set_one_shot();
        let a = SmallAlloc;
        let big = Layout::from_size_align(3 << 20, 8).unwrap();
        unsafe {
            let first = a.alloc(big);
            assert!(!first.is_null());
            first.write_bytes(1, big.size());
            a.dealloc(first, big);
            // A request of two thirds of it takes it, its pages written already.
            let smaller = Layout::from_size_align(2 << 20, 8).unwrap();
            let again = a.alloc(smaller);
            assert_eq!(again, first);
            // The block kept, not a fresh one at the same address (which would hold 2 MiB).
            assert!(room(again) >= big.size());
            // Grown within its room: not moved.
            let grown = a.realloc(again, smaller, 3 << 20);
            assert_eq!(grown, first);
            a.dealloc(grown, big);
            // A request of less than half of it does not take it.
            let small = Layout::from_size_align(1 << 20, 8).unwrap();
            let other = a.alloc(small);
            assert_ne!(other, first);
            a.dealloc(other, small);
        }
    }
}
