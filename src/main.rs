mod small_alloc;

/// Small blocks from per-thread free lists (`src/small_alloc.rs`).
#[global_allocator]
static GLOBAL: small_alloc::SmallAlloc = small_alloc::SmallAlloc;

fn main() -> std::process::ExitCode {
    tune_allocator();
    plc::cli::main()
}

/// glibc raises its mmap threshold each time a large block is freed, after which the
/// compiler's growing arenas (IR expressions, statements, tokens) are reallocated inside
/// the heap: copied at each doubling, with the old copies left as holes. A fixed
/// threshold keeps every block of 1 MiB and more in its own mapping, grown in place by
/// `mremap`: about 20 % less peak memory on gen(10000) (docs/performance.md).
///
/// Every thread also allocates its larger blocks (the small ones come from
/// `src/small_alloc.rs`) from glibc's one main arena, not from an arena of its own: the
/// emitting threads' text and the passes' forks then reuse the same freed memory, where
/// each thread's own arena kept its own (peak memory of `plc compile` on gen(10000) about
/// 4 MiB lower, of `plc check` about as much, at the same CPU time).
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; it is called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
