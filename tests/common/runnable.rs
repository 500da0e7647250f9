//! The example entries that run: each with the `--arg`s its parameters need (shared by
//! `tests/compile.rs`, which runs them on plc's CPU runtime, and `tests/simpler.rs`, which
//! runs them on simpler's a2a3sim). Included with `#[path = "common/runnable.rs"] mod runnable;`.

/// An example, the entry to run and the `--arg`s it needs.
pub struct Runnable {
    pub file: &'static str,
    pub entry: &'static str,
    pub args: &'static [&'static str],
}

pub const RUNNABLE: &[Runnable] = &[
    Runnable { file: "accumulate_band", entry: "entry", args: &["w=512x128", "acc=128x128"] },
    Runnable { file: "graph_boundary", entry: "model", args: &[] },
    // The Orchestration function OutlineHierarchyScopes made from `main`'s host region.
    Runnable { file: "hierarchy_regions", entry: "main_host_orch_0", args: &[] },
    Runnable { file: "incore_regions", entry: "banded", args: &[] },
    Runnable { file: "incore_regions", entry: "accumulate", args: &[] },
    Runnable { file: "incore_regions", entry: "named_twice", args: &[] },
    Runnable { file: "cluster_spmd_scopes", entry: "main", args: &[] },
    Runnable { file: "cube_vector_pipe", entry: "main", args: &[] },
    Runnable { file: "task_launches", entry: "main", args: &[] },
    Runnable { file: "runtime_outputs", entry: "main", args: &[] },
    Runnable { file: "call_forms", entry: "main", args: &[] },
    Runnable { file: "unit_axis_arguments", entry: "main", args: &[] },
    Runnable { file: "tile_layouts", entry: "main", args: &[] },
    Runnable { file: "scratch_tiles", entry: "main", args: &[] },
    Runnable { file: "elementwise_scale_add", entry: "scale_add", args: &["x=64x64", "y=64x64", "out=64x64"] },
    Runnable {
        file: "declared_task_edges",
        entry: "staged_square",
        args: &["x=64x64", "doubled=64x64", "squared=64x64"],
    },
    Runnable { file: "declared_task_edges", entry: "banded_negate", args: &["src=128x128", "out=128x128"] },
    Runnable { file: "graph_regions_in_control_flow", entry: "entry", args: &["n=3"] },
    Runnable { file: "graph_duplicate_names", entry: "refine_twice", args: &["step=64x64", "acc=64x64", "out=64x64"] },
    Runnable { file: "host_module_runner", entry: "main", args: &[] },
    Runnable {
        file: "host_module_runner",
        entry: "residual_add",
        args: &["x=128x128", "residual=128x128", "out=128x128"],
    },
    Runnable { file: "half_precision", entry: "blend", args: &[] },
    Runnable { file: "half_precision", entry: "widen", args: &[] },
    Runnable { file: "inline_program", entry: "main", args: &[] },
    Runnable {
        file: "inline_splicing",
        entry: "entry",
        args: &["x=64x64", "w=256x64", "lo=64x64", "hi=64x64", "acc=64x64"],
    },
    Runnable {
        file: "jit_shape_of_argument",
        entry: "square_then_product",
        args: &["x=64x64", "w=64x64", "out=64x64"],
    },
    Runnable { file: "loop_carried_ssa", entry: "main", args: &[] },
    Runnable { file: "dead_scalar_carry", entry: "main", args: &["row_start=3"] },
    Runnable { file: "program_form_graph", entry: "main", args: &[] },
    Runnable { file: "scalar_control_flow", entry: "main", args: &["which=2"] },
    // `out`'s dynamic extent is bound by `x`'s shape: no `--arg` for it.
    Runnable { file: "scalar_control_flow", entry: "rowwise_exp", args: &["x=64x64"] },
    Runnable { file: "ssa_forms", entry: "scaled_copy", args: &[] },
    Runnable { file: "standalone_functions", entry: "double_entry", args: &[] },
    Runnable { file: "tiled_matmul", entry: "main", args: &[] },
];
