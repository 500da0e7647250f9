//! The CPU reference runtime and tile library that the generated C++ runs on, shipped
//! inside plc: `plc compile` writes each file to `OUT/runtime/<name>`.
//!
//! - `pto_orchestration_api.h`: the task runtime's API as the orchestration code calls it
//!   (`ChipTensor`, `CoreTaskArgs`, `rt_submit_aiv_task`, `PTO2_SCOPE`, `rt_submit_graph`,
//!   ...), the kernel ABI (`plc_kernel_table`) and plc's counters and checks.
//! - `pto_runtime.cpp`: its implementation (task queue with dependency tracking, Graph
//!   record and replay). Build it with the orchestration and kernel files.
//! - `pto_tile.h`: the tile library the kernels (`kernels/<name>.cpp`) are written over.
//!
//! `docs/runtime.md` and `docs/kernels.md` describe them.

/// Every file of the runtime, as (file name, contents), in a fixed order.
pub const RUNTIME_FILES: &[(&str, &str)] = &[
    ("pto_orchestration_api.h", include_str!("runtime/pto_orchestration_api.h")),
    ("pto_runtime.cpp", include_str!("runtime/pto_runtime.cpp")),
    ("pto_tile.h", include_str!("runtime/pto_tile.h")),
];

/// Writes the runtime files into `dir` (created if needed).
pub fn write_runtime(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in RUNTIME_FILES {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::RUNTIME_FILES;

    /// The tile library's pipes keep `ir::ops::DEFAULT_PIPE_SLOTS` for a pipe no
    /// `*_initialize_pipe` set up, as `plc run` does: the header restates it, so this checks it.
    #[test]
    fn the_tile_library_has_the_default_slot_count_of_plc_run() {
        let header = RUNTIME_FILES.iter().find(|(name, _)| *name == "pto_tile.h").map(|(_, text)| *text).unwrap();
        let line = format!("static constexpr int64_t DEFAULT_PIPE_SLOTS = {};", crate::ir::ops::DEFAULT_PIPE_SLOTS);
        assert!(header.contains(&line), "pto_tile.h lacks `{line}`");
    }
}
