//! The target's limits on shapes, which lowering checks so that no accepted program
//! overflows the C++ (`uint32_t` extents, `int64_t` element counts) or the runtime (five
//! dimensions a tensor, 16 scalars and 32 tensors a task). One place, so that lowering,
//! the emitters and the documentation agree (docs/language.md, "Limits").

use super::Dim;

/// Dimensions of a tensor or tile: the runtime's tensors hold five (`shapes[5]`).
pub const MAX_RANK: usize = 5;
/// An extent, offset or index: the runtime's `uint32_t` shapes, kept in `int32_t` range.
pub const MAX_EXTENT: i64 = (1 << 31) - 1;
/// Elements of one tensor: the runtime's strides are `uint32_t`.
pub const MAX_TENSOR_ELEMENTS: i64 = (1 << 32) - 1;
/// Elements of one tile: 16 Mi (64 MiB of FP32), far above a core's buffers and far below
/// what overflows the tile library's `rows * cols`.
pub const MAX_TILE_ELEMENTS: i64 = 1 << 24;
/// Scalar arguments of one task (the runtime's `CoreTaskArgs`, as in simpler).
pub const MAX_TASK_SCALARS: usize = 16;
/// Tensor arguments of one task.
pub const MAX_TASK_TENSORS: usize = 32;

/// What is wrong with a constant extent, offset or index (`what` names it, formatted only
/// when something is), if anything.
pub fn check_extent(n: i64, what: impl std::fmt::Display) -> Result<(), String> {
    if n < 0 {
        Err(format!("{what} {n} is negative"))
    } else if n > MAX_EXTENT {
        Err(format!("{what} {n} is larger than the target's limit of {MAX_EXTENT} (2**31 - 1)"))
    } else {
        Ok(())
    }
}

/// What is wrong with a shape as a whole (its rank, its element count over the constant
/// extents), if anything; `tile` picks the tile limit.
pub fn check_shape(dims: &[Dim], tile: bool) -> Result<(), String> {
    if dims.len() > MAX_RANK {
        return Err(format!("a shape of {} dimensions: the target takes at most {MAX_RANK}", dims.len()));
    }
    let (limit, kind, spelled) =
        if tile { (MAX_TILE_ELEMENTS, "tile", "2**24") } else { (MAX_TENSOR_ELEMENTS, "tensor", "2**32 - 1") };
    let mut elements: i64 = 1;
    for d in dims {
        if let Dim::Const(n) = d {
            elements = elements.checked_mul((*n).max(0)).unwrap_or(i64::MAX);
        }
    }
    if elements > limit {
        let shown = if elements == i64::MAX { "more than 2**63".to_string() } else { elements.to_string() };
        return Err(format!("a {kind} of {shown} elements: the target's limit is {limit} ({spelled})"));
    }
    Ok(())
}
