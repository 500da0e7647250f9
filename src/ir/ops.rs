//! The op table: one description per `pl.*` operation. Lowering reads it to resolve names,
//! match arguments and type results; the passes read each argument's effect; the printer
//! reads the spellings; the interpreter and the emitters dispatch on each op's [`OpKind`]. No other
//! module keeps a list of op names.
//!
//! An op has an IR name (`tile.add`), the spellings that reach it (`pl.tile.add`), and
//! optionally a *unified* name (`add`): `pl.add(x, y)` is dispatched on the first
//! argument's type to `tensor.add`, `tile.add` or, for scalars, the scalar operator.
//!
//! Spellings start with `pl.` or, for the distributed namespace
//! (`import pypto.language.distributed as pld`), with `pld.`. Parameter names and order
//! follow PyPTO's Python signatures, since users pass arguments by keyword; PyPTO's
//! keyword-only parameters are listed after the positional ones. Where PyPTO releases
//! disagree, a row accepts the union (an older keyword kept as an optional parameter)
//! or the older API has its own row (`pl.op.block.load(t, row, col, h, w)`).

use super::enums::{DType, EnumValue, Layout, MaskPattern, MemorySpace, ReduceOp, WaitCmp};
use super::types::{Dim, Handle, Type};
use super::BinOp as ScalarOp;

impl Op {
    /// The op's row of the table.
    pub fn def(self) -> &'static OpDef {
        &OPS[self as usize]
    }

    /// Whether the op's positions may be one scalar for a 1-D operand (`pl.read(t, i)`),
    /// as PyPTO's element read and write take them; other ops' offsets are lists (PyPTO's
    /// `_normalize_intlike` refuses a lone scalar: `pld.tile.remote_load(t, peer, 0, ...)`).
    pub fn takes_lone_position(self) -> bool {
        matches!(self, Op::TensorRead | Op::TileRead | Op::TensorWrite | Op::TileWrite)
    }
}

impl std::fmt::Display for Op {
    /// The IR name (`tile.load`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.def().name)
    }
}

/// What an op computes. The interpreter and the emitters match on it exhaustively: the
/// families (elementwise, reductions, ...) share one semantics per member function, and
/// every op with a meaning of its own is a [`Special`], so a row whose meaning no
/// consumer knows does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// `f(lhs, rhs)` element by element, broadcasting; `rhs` may be a scalar (`adds`).
    Binary(BinaryFn),
    /// `f(x)` element by element.
    Unary(UnaryFn),
    /// `f(lhs, rhs) + rhs2`: `addc`, `subc`, `addsc`, `subsc` (PTO-ISA's TSUBC and TSUBSC
    /// add their third operand: `lhs - rhs + rhs2`).
    Chain(BinaryFn),
    /// `f(x, v)` with the vector `v` broadcast along the axis (`row_expand_mul`);
    /// without a function, `v` itself broadcast to `x`'s shape (`col_expand`).
    Expand(Axis, Option<BinaryFn>),
    /// `row_sum`, `col_max`, ...: the axis reduced and kept as 1.
    Reduce(Axis, ReduceFn),
    /// `row_argmax`, `col_argmin`, ...: the INT32 position of the first maximum (minimum)
    /// along the axis over its valid extent, the axis kept as 1.
    ArgReduce(Axis, ReduceFn),
    /// `part_add`, ...: `f(lhs, rhs)` where both operands are valid, the valid one where
    /// only one is, over the union of the two valid regions (PTO's `TPARTADD`).
    Part(BinaryFn),
    /// `sum`/`max`/`min` along `axis=` (default `default_axis`), the axis kept as 1 or
    /// dropped (`keep_dim=`/`keepdim=`, default `default_keep`).
    AxisReduce { f: ReduceFn, default_axis: i64, default_keep: bool },
    /// `cmp`/`cmps`: 1 where `lhs <cmp_type> rhs` holds, 0 elsewhere.
    Compare,
    /// An op with a semantics of its own.
    Special(Special),
    /// An entry of `pl.at(..., optimizations=[...])`: a marker, no computation.
    Marker,
    /// Communication between ranks (`pld.*`): no CPU form, since it needs several ranks
    /// running at once.
    Distributed,
    /// The cross-core pipes of a mixed kernel (`tpush_to_aiv`, `tpop_from_aic`, `tfree_*`,
    /// `aic_initialize_pipe`, `reserve_buffer`, ...): on the CPU, a pipe of slots
    /// ([`pipe_slots`]) between the kernels a Group runs together (`interp::group::Pipe`).
    CrossCore,
    /// Asynchronous cache prefetch (`pl.prefetch.*`): no CPU form (its context, session
    /// and event values have none).
    Prefetch,
    /// The printed form of PyPTO's memory planning (`pl.tile.alloc`, `pl.tensor.alloc`): a
    /// buffer of `size` bytes in a memory space, whose address the `pl.MemRef(...)` of a
    /// tile annotation names. No CPU form: there every tile has storage of its own.
    PlannedMemory,
    /// The MX (microscaling) ops: the matmuls and their scale addresses (`matmul_mx*`,
    /// `tget_scale_addr`), FP8 data with FP8E8M0 block scales in the cube's scale buffers,
    /// and the quantizer that makes such pairs (`quant_mx`); no CPU form.
    Microscaling,
    /// The lane transfers of a `pl.split_aiv` region (`aiv_shard`, `aic_gather`): a lane's
    /// share of a cube tile, and the cube tile gathered back from the two lanes' shares.
    /// No CPU form yet: plc runs the two lanes one after the other, and the share needs
    /// the lane, which the op does not carry.
    SplitTransfer,
}

impl OpKind {
    /// For the families (elementwise, reductions, comparisons), how many operands lead the
    /// op's parameters (the consumers read them by position); `None` for the other kinds.
    pub fn family_operands(self) -> Option<usize> {
        match self {
            OpKind::Chain(_) => Some(3),
            OpKind::Binary(_) | OpKind::Compare | OpKind::Expand(..) | OpKind::Part(_) => Some(2),
            OpKind::Unary(_) | OpKind::Reduce(..) | OpKind::ArgReduce(..) | OpKind::AxisReduce { .. } => Some(1),
            OpKind::Special(_)
            | OpKind::Marker
            | OpKind::Distributed
            | OpKind::CrossCore
            | OpKind::Prefetch
            | OpKind::PlannedMemory
            | OpKind::Microscaling
            | OpKind::SplitTransfer => None,
        }
    }

    /// Why an op of this kind has no form on the CPU, when it has none.
    pub fn no_cpu_form(self) -> Option<&'static str> {
        match self {
            OpKind::Distributed => Some("the distributed ops need a runtime with several ranks running at once"),
            OpKind::Prefetch => Some("asynchronous prefetch contexts, sessions and events have no form in plc's CPU runtime"),
            OpKind::PlannedMemory => Some(
                "buffers placed by PyPTO's memory planning have no form in plc's CPU runtime, where every tile has storage of its own",
            ),
            OpKind::SplitTransfer => Some(
                "a lane's share of a pl.split_aiv region needs the lane, which plc's CPU runtime, running the two lanes one after the other, does not give the op",
            ),
            OpKind::Microscaling => Some(
                "the MX ops (matmul_mx*, tget_scale_addr, quant_mx, tquant) work on FP8 data scaled by FP8E8M0 blocks of 32 elements, held in the cube's scale buffers, which plc's CPU runtime does not model",
            ),
            _ => None,
        }
    }
}

/// An argument of an op call: by parameter, or by position — for the leading operands of
/// a family, whose parameter names differ between its levels (`lhs`, `x`, `tile`).
#[derive(Clone, Copy, Debug)]
pub enum Slot {
    Named(Param),
    Nth(usize),
}

impl From<Param> for Slot {
    fn from(p: Param) -> Slot {
        Slot::Named(p)
    }
}

/// The elementwise binary functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryFn {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    /// The remainder, with the sign of the divisor (as Python's `%`).
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    /// The remainder with the sign of the dividend (C's `fmod`, PyTorch's `fmod`).
    Fmod,
    /// `exp(lhs - rhs)` (the `expdif` members of the expand families).
    ExpDif,
}

impl BinaryFn {
    /// The function of the CPU tile library (`plc::add`) and the suffix of the expand
    /// family (`plc::row_expand_add`).
    pub fn tile_fn(self) -> &'static str {
        match self {
            BinaryFn::Add => "add",
            BinaryFn::Sub => "sub",
            BinaryFn::Mul => "mul",
            BinaryFn::Div => "div",
            BinaryFn::Max => "maximum",
            BinaryFn::Min => "minimum",
            BinaryFn::Rem => "rem",
            BinaryFn::And => "bit_and",
            BinaryFn::Or => "bit_or",
            BinaryFn::Xor => "bit_xor",
            BinaryFn::Shl => "shl",
            BinaryFn::Shr => "shr",
            BinaryFn::Fmod => "fmod",
            BinaryFn::ExpDif => "expdif",
        }
    }

    /// The suffix of the expand and part families (`row_expand_max`, `part_add`).
    pub fn family_suffix(self) -> &'static str {
        match self {
            BinaryFn::Max => "max",
            BinaryFn::Min => "min",
            other => other.tile_fn(),
        }
    }
}

/// The elementwise unary functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryFn {
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Recip,
    Neg,
    Abs,
    Relu,
    /// Bitwise not.
    Not,
    Sin,
    Cos,
}

impl UnaryFn {
    /// The function of the CPU tile library (`plc::exp`).
    pub fn tile_fn(self) -> &'static str {
        match self {
            UnaryFn::Exp => "exp",
            UnaryFn::Log => "log",
            UnaryFn::Sqrt => "sqrt",
            UnaryFn::Rsqrt => "rsqrt",
            UnaryFn::Recip => "recip",
            UnaryFn::Neg => "neg",
            UnaryFn::Abs => "abs",
            UnaryFn::Relu => "relu",
            UnaryFn::Not => "bit_not",
            UnaryFn::Sin => "sin",
            UnaryFn::Cos => "cos",
        }
    }
}

/// The reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceFn {
    Sum,
    Max,
    Min,
    Prod,
}

impl ReduceFn {
    /// `sum`, `max`, `min`: the suffix of the CPU tile library's reductions (`plc::row_sum`).
    pub fn tile_fn(self) -> &'static str {
        match self {
            ReduceFn::Sum => "sum",
            ReduceFn::Max => "max",
            ReduceFn::Min => "min",
            ReduceFn::Prod => "prod",
        }
    }
}

/// The axis of a row or column family: `Row` works along the last axis (one value per
/// row), `Col` along a leading one (see [`Axis::col_axis`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    Row,
    Col,
}

impl Axis {
    /// `row` or `col`, as the family's names start.
    pub fn prefix(self) -> &'static str {
        match self {
            Axis::Row => "row",
            Axis::Col => "col",
        }
    }

    /// The axis a column reduction (`col_sum`, ..., `col_argmax`) collapses to 1, counted
    /// from the end when negative: PyPTO's tensor rule (TRED, default `axis=-2`) reduces the
    /// axis before the last and keeps the leading ones (`[2, 4, 8]` gives `[2, 1, 8]`), its
    /// tile rule (COLRED, `[1] + shape[1:]`) the first (`[2, 4, 8]` gives `[1, 4, 8]`); the
    /// two agree on 2 axes. The type rule, the interpreter and the C++ runtime all use it.
    pub fn col_axis(tile: bool) -> i64 {
        if tile {
            0
        } else {
            -2
        }
    }

    /// [`Axis::col_axis`] as an index into `rank` axes; `None` below 2 axes.
    pub fn col_axis_of(tile: bool, rank: usize) -> Option<usize> {
        if rank < 2 {
            return None;
        }
        axis_in_range(Axis::col_axis(tile), rank).ok()
    }
}

/// Groups of [`Special`] members that the interpreter, the kernel emitter and the
/// orchestration emitter each treat alike, as patterns: a consumer's `match` on `Special`
/// names the group once (`specials!(compute)`) and stays exhaustive.
///
/// - `matmul`: the matrix products.
/// - `compute`: the computations of a new value from their operands' elements, besides
///   conversion and the matrix products: activations, selects, fills, concatenation,
///   sorts and gathers.
/// - `shaping`: the values of a new shape made from a pattern or a part of a value.
/// - `scatter`: the rows added for issue 11 that write a value into another (scatters),
///   draw counter-based random numbers or reinterpret a value's bits.
/// - `placing`: the ops that write elements read elsewhere into an operand in place
///   (`mscatter` into a tensor, `gather_row` into a tile or an L1 tensor).
/// - `buffers`: the explicit tile buffers (a set of them, a slot of one, a tile pinned to
///   one).
macro_rules! specials {
    (matmul) => { $crate::ir::ops::specials!(@ Matmul MatmulAcc MatmulBias BatchMatmul BatchMatmulAcc) };
    (compute) => {
        $crate::ir::ops::specials!(@ Lrelu Prelu Sel Sels Expands Concat Fillpad Sort32 Mrgsort Gather GatherMask
            GatherB MGather PagedGather)
    };
    (tuple) => { $crate::ir::ops::specials!(@ GatherCompare)
    };
    (placing) => { $crate::ir::ops::specials!(@ MScatter GatherRow) };
    (buffers) => { $crate::ir::ops::specials!(@ CreateBufferSet BufferSlot PinBuffer) };
    (shaping) => { $crate::ir::ops::specials!(@ Tri FillpadExpand FillpadInplace ExpandClone Extract Img2col) };
    (scatter) => { $crate::ir::ops::specials!(@ Scatter ScatterMask ScatterUpdate Random ReinterpretView) };
    (@ $($member:ident)*) => { $($crate::ir::ops::Special::$member)|* };
}
pub(crate) use specials;

/// The ops with a semantics of their own. Ops of several levels that mean the same share a
/// member (`tensor.read` and `tile.read` are both [`Special::Read`]); their arguments are
/// read by parameter name ([`OpDef::arg`]), so rows with other parameter orders share it
/// too (`tile.store` and `tile.l0c_store`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `pl.create_tensor(shape, dtype)`.
    CreateTensor,
    /// A tensor or a tile of one value.
    Full,
    /// `t.shape` of a bare `pl.Tensor`: its extents at run time.
    ShapeOf,
    /// `t.dtype` of a bare `pl.Tensor`.
    DTypeOf,
    /// One extent of a tensor.
    Dim,
    /// One element.
    Read,
    /// One element written in place.
    Write,
    Slice,
    Reshape,
    Transpose,
    /// `pl.tensor.view(t, shape=...)`: a reshape or a window from the origin.
    View,
    /// `source` written into `target` at `offset`; the result is the target.
    Assemble,
    BlockIdx,
    BlockNum,
    /// `pl.copy(dst, src, ...)`.
    Copy,
    /// `start, start+1, ...` (or descending) in a new tensor or tile.
    Ci,
    /// Elementwise conversion to `target_type`, rounding by `mode`.
    Cast,
    /// `pl.cast` of a scalar.
    ScalarCast,
    ScalarMax,
    ScalarMin,
    /// `lhs @ rhs` (`matmul`, `gemv`), transposing by `a_trans`/`b_trans`.
    Matmul,
    /// `acc + lhs @ rhs` (`init_cond`: the product alone).
    MatmulAcc,
    /// `lhs @ rhs + bias`.
    MatmulBias,
    /// `x` where `x > 0`, `slope * x` elsewhere (a scalar slope).
    Lrelu,
    /// The same with a slope per element.
    Prelu,
    /// `mask ? lhs : rhs`. A tile mask is PyPTO's packed compare mask (one bit per column,
    /// bit `c % w` of element `c / w` of a row for a mask of `w`-bit elements); a tensor
    /// mask holds one 0/1 value per element.
    Sel,
    /// `mask ? src : scalar` (tiles: `sels(mask, src, tmp, scalar)`, and the older
    /// `sels(mask, src, scalar)` whose third argument is the scalar; tensors, an older row:
    /// `sels(lhs, rhs, select_mode)` as `lhs ? rhs : select_mode`).
    Sels,
    /// A tensor or a tile of the target's shape filled with a scalar.
    Expands,
    /// Along the last axis.
    Concat,
    /// The part outside the valid region filled with `pad_value`.
    Fillpad,
    SetValidShape,
    Sort32,
    Mrgsort,
    /// Elements picked by an index (or, for tensors, a mask pattern).
    Gather,
    /// Elements picked by a hardware mask pattern.
    GatherMask,
    /// `gather_compare(src, kvalue, ...)`, and `tensor.gather`'s compare form: per row of
    /// a 2-D source, the positions of the elements that compare true with `kvalue` and how
    /// many there were. A position is `offset + row * columns + column` (the element's
    /// place in the source's row-major storage, as PTO-ISA's compare form of `TGATHER`
    /// numbers them); the first `out_cols` are written, in column order, the rest of the
    /// row is 0; the count is every match, one per row in a `[1, rows]` result.
    GatherCompare,
    /// A window of a tensor into a new tile (`pl.load`).
    Load,
    /// A tile's valid region written into a tensor (`pl.store`, `pl.l0c_store`).
    Store,
    /// The older `pl.op.block.load(t, row, col, height, width)`.
    BlockLoad,
    /// The older `pl.op.block.store(tile, row, col, height, width, out)`.
    BlockStore,
    /// `pl.create_tile(shape, dtype)`.
    CreateTile,
    /// `pl.create_tile_buffers(count, shape, dtype, memory_space)`: a tuple of `count` zero
    /// tiles of `shape`.
    CreateBufferSet,
    /// `buffers[i]` of a set of tile buffers, `i` known at run time: slot `i` (in range).
    BufferSlot,
    /// A tile copied to another memory (`transpose=`: with its last two axes swapped).
    Move,
    /// The last two extents of a tile swapped, with no copy.
    TransposeView,
    ArrayCreate,
    ArrayGet,
    ArrayUpdate,
    /// `pl.system.syncall`: a barrier across cores.
    SyncAll,
    /// The index of the vector core within its cluster (0 on the CPU's one core).
    SubblockIdx,
    /// Hardware synchronisation and cache control (`pl.system.bar_all`, `sync_set`,
    /// `fence`, `cacheinvalid`, ...), and a tile buffer handed back to a pipeline's
    /// rotation (`pl.tile.release`): no effect on a sequential CPU, where every write is
    /// seen by the next read and every tile has storage of its own.
    Hardware,
    /// `pl.tile.alloc_buffer(tile, addr, size, id)`: a tile pinned to a buffer of the
    /// user's at a byte address of its memory. No effect on the CPU, where every tile has
    /// storage of its own.
    PinBuffer,
    /// `pl.system.available_aiv_count()`: the vector cores of the device (48 on the CPU
    /// runtime, which stands for an a2a3 device).
    AvailableAivCount,
    /// `pl.system.available_cluster_count()`: its clusters (24).
    AvailableClusterCount,
    /// `pl.system.task_invalid()`: the id of no task.
    TaskInvalid,
    /// `pl.runtime_print(x)`: the device prints a tile or a tensor for debugging. It
    /// changes no value; plc's CPU interpreter and kernels print nothing (their output is
    /// the checksum lines of `plc run`, which a debug print would interleave with).
    RuntimePrint,
    /// `pl.tri(diagonal, shape, ...)`: 1 on and below (`upper=True`: on and above) the
    /// `diagonal`-th diagonal, 0 elsewhere (`torch.tril`/`triu` of ones).
    Tri,
    /// `fillpad_expand(x, shape, pad_value)`: `x`'s valid region at the origin of a larger
    /// value of `shape`, the rest `pad_value`; fully valid.
    FillpadExpand,
    /// `pl.tile.fillpad_inplace(tile, pad_value)`: `fillpad` written into the tile.
    FillpadInplace,
    /// `pl.expand_clone(src, target)`: `src` broadcast (from extents of 1) to `target`'s shape.
    ExpandClone,
    /// `pl.tile.extract(src, index_row, index_col, shape)`: a window of a 2-D tile.
    Extract,
    /// `img2col(src, pos_m, pos_k, shape, image_shape=, kernel_size=, ...)`: a window of the
    /// unfolded matrix of a convolution (PTO's `TIMG2COL`): row `m` is the output position
    /// `pos_m + m` (row-major over the output image), column `k` the input element at
    /// `pos_k + k` of the (C1, KH, KW, C0) order; 0 where the window reads padding.
    Img2col,
    /// Elements written at positions an index gives: `tensor.scatter` writes
    /// `out[b, index[b, k]] = src[b, k]` into a copy of `input`; `tile.scatter` writes
    /// `dst.flat[indexes[i, j]] = src[i, j]` into `dst` (PTO's `TSCATTER`, index form).
    Scatter,
    /// The elements of each row written, in order, into the columns of the destination's
    /// row a hardware mask pattern selects (PTO's `TSCATTER`, mask form).
    ScatterMask,
    /// Rows of `src` written into the rows of `input` that a 2-D index names
    /// (`input[index.flat[k]] = src[k]` over rows of the last extent; `dim=-2`).
    ScatterUpdate,
    /// Philox4x32 random numbers from two key words and four counter words, laid out as
    /// PTO-ISA's `TRANDOM` lays them out (docs/interpreter.md).
    Random,
    /// The same bytes read as another dtype (the last extent rescaled by the widths).
    ReinterpretView,
    /// `pl.system.task_dummy(deps=[...])`: a task that runs nothing and completes once its
    /// dependencies have; its id orders later tasks after all of them.
    TaskDummy,
    /// `pl.task_id_of(t)`: the id of the last task that wrote the tensor `t` (the id of no
    /// task when none did).
    TaskIdOf,
    /// `batch_matmul(lhs, rhs)`: `lhs[..., M, K] @ rhs[..., K, N]` per batch, the batch
    /// axes broadcast.
    BatchMatmul,
    /// `batch_matmul_acc(acc, lhs, rhs, init_cond)`: `acc + lhs @ rhs` per batch, in place
    /// (`init_cond`: the product alone).
    BatchMatmulAcc,
    /// `gatherb(src, offset)`: 32-byte blocks of the source picked by byte offsets.
    GatherB,
    /// `mgather(mem, idx, coalesce)`: rows (or elements) of a tensor picked by an index tile.
    MGather,
    /// `mscatter(src, idx, output_tensor)`: elements of a tile written into a tensor at
    /// flat positions.
    MScatter,
    /// `gather_row(dst, src, dst_offset, src_offset, shapes)`: a window of a tensor written
    /// into `dst` (a tile, or an L1 tensor) at `dst_offset`, in place.
    GatherRow,
    /// `paged_gather(src, indices, block_table, ...)`: the rows of a paged pool picked by
    /// logical indices through a block table.
    PagedGather,
}

macro_rules! params {
    ($($id:ident = $spelling:literal,)*) => {
        /// The parameters of the ops, by name: the keyword a caller writes (`transpose=`)
        /// and how the consumers read an argument ([`OpDef::arg`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Param {
            $($id,)*
        }

        impl Param {
            /// The keyword (`transpose`).
            pub fn spelling(self) -> &'static str {
                match self {
                    $(Param::$id => $spelling,)*
                }
            }
        }
    };
}

params! {
    ATrans = "a_trans", Acc = "acc", AccPhase = "acc_phase", Array = "array", Atomic = "atomic", Axis = "axis", Axis1 = "axis1",
    Axis2 = "axis2", BTrans = "b_trans", Bias = "bias", Blayout = "blayout", BlockLen = "block_len",
    Buf = "buf", CMatrixNz = "c_matrix_nz", ChunkCols = "chunk_cols", ChunkRows = "chunk_rows",
    Clamp = "clamp", Cmp = "cmp", CmpMode = "cmp_mode", CmpType = "cmp_type", ColOffset = "col_offset",
    ColVec = "col_vec", CoreNum = "core_num", CoreType = "core_type", CountDtype = "count_dtype", Ctx = "ctx",
    Defer = "defer", Descending = "descending", Dim = "dim", DistTensor = "dist_tensor", DropDims = "drop_dims", Dst = "dst",
    DstOffsets = "dst_offsets", Dtype = "dtype", Executed = "executed", Exhausted = "exhausted",
    Expected = "expected", FlatLayout = "flat_layout", GmWorkspace = "gm_workspace", Height = "height", HighPrecision = "high_precision",
    Idx = "idx", Index = "index", Indices = "indices", InitCond = "init_cond", InitValue = "init_value",
    Input = "input", KeepDim = "keep_dim", Keepdim = "keepdim", Kvalue = "kvalue", Layout = "layout",
    Length = "length", Lhs = "lhs", LocalData = "local_data", ManualDep = "manual_dep", Mask = "mask",
    MaskPattern = "mask_pattern", MemoryType = "memory_type", Mode = "mode", Name = "name", Nranks = "nranks", Offset = "offset",
    Offsets = "offsets", Op = "op", OutCols = "out_cols", OutDtype = "out_dtype",
    OutputDtype = "output_dtype", OutputTensor = "output_tensor", PadValue = "pad_value", Peer = "peer",
    Pipeline = "pipeline", Rhs = "rhs", Rhs2 = "rhs2", Root = "root", RowOffset = "row_offset",
    Scalar = "scalar", Scratch = "scratch", ScratchL1 = "scratch_l1", SelectMode = "select_mode",
    Shape = "shape", Shapes = "shapes", Signal = "signal", Size = "size", Slayout = "slayout",
    Slope = "slope", SlotNum = "slot_num", Source = "source", SourceMemory = "source_memory", Src = "src",
    Src0 = "src0", Src1 = "src1", Src2 = "src2", Src3 = "src3", SrcOffsets = "src_offsets", Start = "start",
    T = "t", Target = "target", TargetMemory = "target_memory", TargetType = "target_type", Tensor = "tensor",
    Tile = "tile", Tmp = "tmp", TmpTile = "tmp_tile", Transpose = "transpose", UsedCores = "used_cores",
    ValidCols = "valid_cols", ValidRows = "valid_rows", ValidShape = "valid_shape",
    ValidShapes = "valid_shapes", Value = "value", Vec = "vec", Width = "width", X = "x",
    // Parameters of the rows added for ops.md §5.1.
    RowVec = "row_vec", EventId = "event_id", Pipe = "pipe", FftsMode = "ffts_mode", SetPipe = "set_pipe",
    WaitPipe = "wait_pipe", Workspace = "workspace", C2vConsumerBuf = "c2v_consumer_buf",
    V2cConsumerBuf = "v2c_consumer_buf", DirMask = "dir_mask", SlotSize = "slot_size", LocalSlotNum = "local_slot_num",
    Id = "id", Base = "base", PeerFunc = "peer_func", Split = "split", LaneStride = "lane_stride", Event = "event",
    SessionHandle = "session_handle", Stage = "stage", Stage2 = "stage2", SendCounts = "send_counts",
    RecvCounts = "recv_counts", SrcTile = "src_tile", Diagonal = "diagonal", Upper = "upper", IndexRow = "index_row",
    IndexCol = "index_col", LhsScale = "lhs_scale", RhsScale = "rhs_scale", DstScale = "dst_scale",
        MemorySpace = "memory_space", Pinned = "pinned", SaturationMode = "saturation_mode",
    // Parameters of the scatter, random, reinterpret and hint rows (issue 11).
    Indexes = "indexes", Key0 = "key0", Key1 = "key1", Counter0 = "counter0", Counter1 = "counter1",
    Counter2 = "counter2", Counter3 = "counter3", Rounds = "rounds", Data = "data", Deps = "deps", Attrs = "attrs",
    Cache = "cache", L2Hint = "l2_hint", PreQuant = "pre_quant", PreRelu = "pre_relu", StPhase = "st_phase",
    Producer = "producer",
    // Parameters of the gather, scatter and batch matmul rows (issue 11).
    Mem = "mem", Coalesce = "coalesce", GatherOob = "gather_oob", DstOffset = "dst_offset", SrcOffset = "src_offset",
    BlockTable = "block_table", BlockSize = "block_size", MaxIndices = "max_indices", Space = "space",
    Addr = "addr",
    ColOff = "col_off", IsTrans = "is_trans", IsBMatrix = "is_b_matrix",
    // Parameters of the MX rows newer than ops.md (PyPTO's tests use them).
    GroupAxis = "group_axis", MxLayout = "mx_layout",
    // Parameters of the explicit tile buffers (newer than ops.md).
    Count = "count", Out = "out", Buffers = "buffers",
    // Parameters of the cross-rank signal tile ops (newer than ops.md).
    CmpValue = "cmp_value",
    // Parameters of `img2col` (newer than ops.md).
    PosM = "pos_m", PosK = "pos_k", ImageShape = "image_shape", KernelSize = "kernel_size", Stride = "stride",
    Padding = "padding", Dilation = "dilation",
}

impl std::fmt::Display for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.spelling())
    }
}

/// The memory an op works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpLevel {
    Tensor,
    Tile,
    /// Operations on scalars that are not operators (`pl.cast(n, target_type=...)`).
    Scalar,
    System,
    Array,
    /// `pld.*`: communication between ranks (windows, notify/wait, collectives).
    Distributed,
    /// Entries of `pl.at(..., optimizations=[...])` (`pl.split`, `pl.cross_core_slot`):
    /// markers, not computations.
    Optimization,
}

/// What an op does to an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Read,
    Write,
    ReadWrite,
}

/// What an argument must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A tensor, a tile or a scalar.
    Value,
    Tensor,
    Tile,
    Scalar,
    /// A list of extents: `[ROWS, COLS]`.
    Shape,
    /// A list of scalar positions: `[0, base]`.
    Indices,
    DType,
    /// A member of a `pl.X` enumeration, named by its family (`"MemorySpace"`).
    Enum(&'static str),
    Bool,
    Int,
    Str,
    /// One of these names as a string, or its code: its position in the list (the
    /// rounding `mode` of `cast`, `mode="floor"` or `mode=3`). Lowering turns a code into
    /// the name, so the rules, the interpreter and the emitters see the name.
    Named(&'static [&'static str]),
    /// Anything (a list of tensors, an optimisation, ...).
    Any,
}

#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    pub name: Param,
    pub kind: ArgKind,
    pub required: bool,
    pub effect: Effect,
    /// Keyword-only in PyPTO's signature (after its `*`): a call may not pass it
    /// positionally. Such parameters come after every positional one in a row.
    pub keyword_only: bool,
}

/// What a result-type rule can ask about the arguments of a call.
pub trait Args {
    /// The type of argument `i`; `None` when it is absent.
    fn ty(&self, i: usize) -> Option<&Type>;
    /// Argument `i` as a list of extents.
    fn dims(&self, i: usize) -> Option<Vec<Dim>>;
    /// The number of extents of argument `i` as a list ([`Args::dims`]'s length), for the
    /// rules that check ranks only: a view may count them without making the list.
    fn rank(&self, i: usize) -> Option<usize> {
        self.dims(i).map(|d| d.len())
    }
    fn dtype(&self, i: usize) -> Option<DType>;
    fn enum_value(&self, i: usize) -> Option<EnumValue>;
    fn int(&self, i: usize) -> Option<i64>;
    fn present(&self, i: usize) -> bool;
    /// Argument `i` as a `True`/`False` constant. The default knows none; rules then
    /// take a flag that is given at all to mean the non-default value (see `bool_arg`).
    fn flag(&self, _i: usize) -> Option<bool> {
        None
    }
    /// Argument `i` as a string constant. The default knows none.
    fn text(&self, _i: usize) -> Option<String> {
        None
    }
    /// Whether argument `i` is a literal number or `True`/`False` (which takes the dtype
    /// the op needs). The default knows none.
    fn is_literal(&self, _i: usize) -> bool {
        false
    }
    /// The types of the items of argument `i` when it is a list (`[0, k]`). The default
    /// knows none.
    fn item_types(&self, _i: usize) -> Option<Vec<Type>> {
        None
    }
    /// The tuple of `elements`, for an op with several results (`gather_compare`); `None`
    /// where no type can be made (the default). The caller of the rule interns the elements.
    fn tuple(&self, _elements: Vec<Type>) -> Option<Type> {
        None
    }
    /// The element types of argument `i` when it is a tuple value (a set of tile buffers);
    /// `None` where they are not known here (the default).
    fn tuple_items(&self, _i: usize) -> Option<Vec<Type>> {
        None
    }
}

/// Computes the type of a call's result, or says why the arguments do not fit.
pub type ResultRule = fn(&dyn Args) -> Result<Type, String>;

pub struct OpDef {
    /// The IR name: `tile.load`.
    pub name: &'static str,
    pub level: OpLevel,
    /// The source spellings that reach this op (the first is the canonical one).
    pub spellings: &'static [&'static str],
    /// The unified name (`add` for `pl.add`), dispatched on the first argument's type.
    pub unified: Option<&'static str>,
    pub params: &'static [ParamDef],
    pub result: ResultRule,
    /// Legal in an orchestration body outside a device scope.
    pub orchestration: bool,
    /// What the op computes: the column the interpreter and the emitters dispatch on.
    pub kind: OpKind,
    /// Older spellings that PyPTO no longer accepts, each with today's spelling: a call
    /// spelled so still lowers, with warning W0001 naming the replacement. `"*"` stands for
    /// every spelling of the row (the unified one too): the row itself is the older form.
    pub older: &'static [(&'static str, &'static str)],
}

/// Whether a tile or tensor type has more than one row (the product of its extents but the
/// last), as far as its constant extents tell.
fn several_rows(ty: &Type) -> bool {
    let Some(shape) = ty.shape() else { return false };
    let leading = &shape[..shape.len().saturating_sub(1)];
    leading.iter().filter_map(|d| if let Dim::Const(n) = d { Some(*n) } else { None }).product::<i64>() > 1
}

/// Why `mrgsort(..., executed=)` has no CPU form.
pub const MERGE_EXECUTED_COUNTS: &str = "the counts TMRGSORT took from each list (`executed=`, PTO-ISA's \
     MrgSortExecutedNumList) are not modelled; the merge itself runs without it";

/// Why `ci`/`arange` of several rows has no CPU form.
pub const CI_OF_SEVERAL_ROWS: &str = "PTO-ISA's TCI fills one row: its tile must have one row \
     (`static_assert(TileData::Rows == 1)` in its CPU simulator and its a2a3 form), and PyPTO emits one TCI for \
     the whole value; make a one-row sequence and reshape it";

impl OpDef {
    /// Why this call has no form on the CPU, when it has none: the reason of the op's kind
    /// (`OpKind::no_cpu_form`), or that of the call's form — a merge sort asked for the
    /// counts it took (`executed=`), a `ci` of several rows. `given` says whether the call
    /// gives a parameter, `result` is the call's type.
    pub fn no_cpu_form_of_call(&self, given: impl Fn(Param) -> bool, result: &Type) -> Option<&'static str> {
        if let Some(why) = self.kind.no_cpu_form() {
            return Some(why);
        }
        match self.kind {
            OpKind::Special(Special::Mrgsort) if given(Param::Executed) => Some(MERGE_EXECUTED_COUNTS),
            OpKind::Special(Special::Ci) if several_rows(result) => Some(CI_OF_SEVERAL_ROWS),
            _ => None,
        }
    }

    /// Why this call has no CPU form because of a tensor's layout, when it has none
    /// (`plc run` stops with E0803, `plc compile` with E0601): `given` says whether the call
    /// gives a parameter, `arg` is the type of the argument at a position, `result` the
    /// call's type.
    ///
    /// - An NZ or MX-layout tensor read or written by any op but a slice or `dim` (which
    ///   only cut or measure the view): plc's tensors have strided storage, where NZ keeps
    ///   fractal blocks and MX blocked scale groups (`Layout::has_cpu_form`).
    /// - `pl.tensor.view` with a shape of a DN tensor, or with a shape and a layout change:
    ///   PyPTO's orchestration refuses both too (the runtime's `Tensor::reshape` assumes
    ///   row-major contiguous storage and has no strided layout view).
    pub fn no_cpu_form_of_layouts<'t>(
        &self,
        given: impl Fn(Param) -> bool,
        arg: impl Fn(usize) -> Option<&'t Type>,
        result: &Type,
    ) -> Option<String> {
        let layout_at = |i: usize| arg(i).and_then(Type::layout);
        if !matches!(self.kind, OpKind::Special(Special::Slice | Special::Dim)) {
            let blocked = (0..self.params.len()).find_map(|i| layout_at(i).filter(|l| !l.has_cpu_form()));
            if let Some(l) = blocked {
                let what = if l.is_mx() { "blocked MX scale groups" } else { "fractal blocks of 16 rows" };
                return Some(format!(
                    "a tensor in the {l} layout keeps {what}, which plc's row-major CPU tensors do not model"
                ));
            }
        }
        if self.kind == OpKind::Special(Special::View) && given(Param::Shape) {
            // The view's layout is the one given, or its source's.
            let (source, target) = (layout_at(0).unwrap_or(Layout::Nd), result.layout().unwrap_or(Layout::Nd));
            if source != Layout::Nd || target != Layout::Nd {
                let what = if source == target {
                    format!("of a tensor in the {source} layout")
                } else {
                    format!("that also changes the layout ({source} to {target})")
                };
                return Some(format!(
                    "a view with a shape= {what}: a reshape needs row-major contiguous storage \
                     (PyPTO's orchestration refuses it too)"
                ));
            }
        }
        None
    }

    /// Where parameter `p` stands in the op's argument list, when the op has it.
    pub fn param_index(&self, p: Param) -> Option<usize> {
        self.params.iter().position(|q| q.name == p)
    }

    /// The parameter a keyword argument names (`transpose=` → [`Param::Transpose`]).
    pub fn keyword_index(&self, keyword: &str) -> Option<usize> {
        self.params.iter().position(|q| q.name.spelling() == keyword)
    }

    /// The keywords PyPTO's wrappers give the operand of a row whose first parameter is
    /// plc's placeholder `x` (the value an elementwise, reduction, shape or cast op works
    /// on), by the namespace of the spelling: `pl.tensor.*` takes `tensor` or `input`,
    /// `pl.tile.*` (and the older `pl.block.*`) `tile`, the unified `pl.*` name `input`
    /// (`value` for `pl.fillpad`); only the split ops (`pl.aiv_shard`) call it `x`.
    /// Empty when the first parameter has a name of its own.
    pub fn operand_keywords(&self, spelled: &str) -> &'static [&'static str] {
        if self.params.first().is_none_or(|p| p.name != Param::X) {
            return &[];
        }
        if self.kind == OpKind::SplitTransfer {
            &["x"]
        } else if spelled.starts_with("pl.tensor.") {
            &["tensor", "input"]
        } else if spelled.starts_with("pl.tile.") || spelled.starts_with("pl.block.") {
            &["tile"]
        } else {
            &["input", "value"]
        }
    }

    /// [`OpDef::keyword_index`] for a call spelled `spelled`: the operand's keyword is the
    /// one PyPTO's wrapper of that spelling uses ([`OpDef::operand_keywords`]).
    pub fn keyword_index_as(&self, keyword: &str, spelled: &str) -> Option<usize> {
        let operand = self.operand_keywords(spelled);
        if operand.contains(&keyword) {
            return Some(0);
        }
        if !operand.is_empty() && keyword == Param::X.spelling() {
            return None;
        }
        self.keyword_index(keyword)
    }

    /// How many parameters a call may pass positionally: those before the first
    /// keyword-only one.
    pub fn positional_count(&self) -> usize {
        self.params.iter().take_while(|p| !p.keyword_only).count()
    }

    /// A parameter's name as a call spelled `spelled` writes it (the operand's keyword for
    /// the placeholder `x`), for messages.
    pub fn param_spelling_as(&self, i: usize, spelled: &str) -> &'static str {
        match self.operand_keywords(spelled).first() {
            Some(k) if i == 0 => k,
            _ => self.params.get(i).map_or("?", |p| p.name.spelling()),
        }
    }

    /// The argument given for parameter `p` in a call's argument list (which follows
    /// [`OpDef::params`]); `None` when the op has no such parameter or it was not given.
    pub fn arg<T: Copy>(&self, args: &[Option<T>], p: Param) -> Option<T> {
        self.param_index(p).and_then(|i| args.get(i).copied().flatten())
    }

    /// The position of an argument slot in the op's parameter order.
    pub fn slot_index(&self, slot: Slot) -> Option<usize> {
        match slot {
            Slot::Named(p) => self.param_index(p),
            Slot::Nth(i) => Some(i),
        }
    }

    /// A slot's parameter name, for messages.
    pub fn slot_name(&self, slot: Slot) -> &'static str {
        match slot {
            Slot::Named(p) => p.spelling(),
            Slot::Nth(i) => self.params.get(i).map_or("?", |p| p.name.spelling()),
        }
    }

    /// The spelling the printer writes: the unified form when there is one.
    pub fn print_name(&self) -> String {
        match self.unified {
            Some(u) => format!("pl.{u}"),
            None => self.spellings[0].to_string(),
        }
    }

    /// The positional order an older release used, when it differs from the current one:
    /// positional argument `i` goes to parameter `order[i]`. Lowering uses it for a call
    /// whose positional arguments fit it and not the current order.
    pub fn older_order(&self) -> Option<&'static [usize]> {
        OLDER_ORDERS.iter().find(|(op, _)| std::ptr::eq(op.def(), self)).map(|(_, order)| *order)
    }

    /// A marker written as a bare constant (`pl.auto_chunk`), not as a call: an
    /// optimisation entry without parameters.
    pub fn is_bare_marker(&self) -> bool {
        self.kind == OpKind::Marker && self.level == OpLevel::Optimization && self.params.is_empty()
    }

    /// The cross-core buffer ops (`pl.reserve_buffer`, `pl.import_peer_buffer`): named by
    /// their first parameter, they give the buffer's base address, which PyPTO's parser
    /// also reads as `buf.base` (ops.md §1 *Keyword arguments*).
    pub fn names_a_buffer(&self) -> bool {
        self.kind == OpKind::CrossCore && self.params.first().is_some_and(|p| p.name == Param::Name)
    }

    /// The store ops write a tile into a tensor argument and return that tensor (`mscatter`
    /// too, at the flat positions of its index).
    pub fn is_store(&self) -> bool {
        matches!(self.kind, OpKind::Special(Special::Store | Special::BlockStore | Special::MScatter))
    }

    pub fn effect(&self, i: usize) -> Effect {
        self.params.get(i).map_or(Effect::Read, |p| p.effect)
    }

    /// Today's spelling when `spelled` (as written, `pl.sum` for a unified call) is an
    /// older one that PyPTO no longer accepts: the row's `older` entries, then the
    /// namespaces PyPTO dropped (`pl.op.block.X` and `pl.block.X` are `pl.tile.X` today,
    /// `pl.op.tensor.X` is `pl.tensor.X`).
    pub fn older_spelling(&self, spelled: &str) -> Option<String> {
        if let Some((_, today)) = self.older.iter().find(|(s, _)| *s == spelled || *s == "*") {
            return Some((*today).to_string());
        }
        DROPPED_NAMESPACES.iter().find_map(|(old, new)| spelled.strip_prefix(old).map(|rest| format!("{new}{rest}")))
    }
}

/// Namespaces of older releases and the ones that replaced them.
const DROPPED_NAMESPACES: &[(&str, &str)] =
    &[("pl.op.block.", "pl.tile."), ("pl.block.", "pl.tile."), ("pl.op.tensor.", "pl.tensor.")];

/// Older positional orders (see [`OpDef::older_order`]): PyPTO's `pl.store(tile, offsets,
/// shapes, output_tensor)` before `pl.store(tile, offsets, output_tensor, shapes=None)`.
///
/// PyPTO's `scatter_update` takes `(input, index, src, dim=-2)` and `(input, dim, index, src)`:
/// four positional arguments whose second is an integer literal bind as the second form.
const OLDER_ORDERS: &[(Op, &[usize])] =
    &[(Op::TileStore, &[0, 1, 3, 2]), (Op::TensorScatterUpdate, &[0, 3, 1, 2]), (Op::TileScatterUpdate, &[0, 4, 1, 2])];

/// Looks an op up by a spelling written in the source (`pl.tile.load`, `pl.load`).
pub fn by_spelling(spelling: &str) -> Option<Op> {
    let aliased = || ALIASES.iter().find(|(s, _)| *s == spelling).map(|&(_, op)| op);
    row_of(spelling).or_else(aliased).or_else(|| {
        // The older `pl.op.block.X` / `pl.op.tensor.X` API: where an op has no row of its own
        // for the older form (as `pl.op.block.load` has), it is `pl.tile.X` / `pl.tensor.X`.
        let current =
            DROPPED_NAMESPACES.iter().find_map(|(old, new)| spelling.strip_prefix(old).map(|r| format!("{new}{r}")))?;
        row_of(&current)
    })
}

/// The first row of the table with the spelling, through an index made on first use (the
/// table has hundreds of spellings and lowering looks one up for every op call).
fn row_of(spelling: &str) -> Option<Op> {
    static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Op>> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = rustc_hash::FxHashMap::default();
        for (i, op) in OPS.iter().enumerate() {
            for &s in op.spellings {
                index.entry(s).or_insert(Op::ALL[i]);
            }
        }
        index
    });
    index.get(spelling).copied()
}

/// Further spellings of rows of the table: the promoted `pl.<name>` forms PyPTO has for
/// ops plc already had under another spelling (ops.md §5.1). Kept apart from the rows so
/// that a row's own spellings stay as they are.
pub const ALIASES: &[(&str, Op)] = &[
    ("pl.maximums", Op::TileMaxs),
    ("pl.minimums", Op::TileMins),
    ("pl.dim", Op::TensorDim),
    ("pl.tensor.create_tensor", Op::TensorCreate),
    ("pl.tile.create_tile", Op::TileCreate),
];

/// The tile ops whose unified name takes a scalar second operand through another row
/// (ops.md §2.1: `pl.and_(tile, 3)` is `tile.ands`, `pl.cmp(tile, 0.5)` is `tile.cmps`);
/// the tile rows themselves take tiles only, as PyPTO's do.
const SCALAR_RHS_FORMS: &[(Op, Op)] = &[
    (Op::TileAnd, Op::TileAnds),
    (Op::TileOr, Op::TileOrs),
    (Op::TileXor, Op::TileXors),
    (Op::TileShl, Op::TileShls),
    (Op::TileShr, Op::TileShrs),
    (Op::TileCmp, Op::TileCmps),
];

/// The row a unified call of `op` goes to when its second operand is a scalar.
pub fn scalar_rhs_form(op: Op) -> Option<Op> {
    SCALAR_RHS_FORMS.iter().find(|(tiles, _)| *tiles == op).map(|(_, scalar)| *scalar)
}

/// The rows a call goes to when it names a keyword of another form: PyPTO's unified
/// `pl.gather(tile, mask_pattern=...)` / `pl.tile.gather(tile, mask_pattern=...)` is
/// `tile.gather_mask` (the index form `tile.gather(src, indices, tmp)` takes no pattern).
const KEYWORD_FORMS: &[(Op, &str, Op)] = &[(Op::TileGather, "mask_pattern", Op::TileGatherMask)];

/// The row a call of `op` goes to when it is given the keyword `key`.
pub fn keyword_form(op: Op, key: &str) -> Option<Op> {
    KEYWORD_FORMS.iter().find(|(o, k, _)| *o == op && *k == key).map(|(_, _, form)| *form)
}

/// The spellings that reach another row when their first operand is a tile (ops.md
/// §2.7.4: `pld.remote_store(src, ...)` is `pld.tensor.remote_store` of a tensor and
/// `pld.tile.remote_store` of a tile; `pld.tensor.remote_store` itself takes tensors).
const TILE_OPERAND_FORMS: &[(&str, Op)] = &[("pld.remote_store", Op::PldTileRemoteStore)];

/// The row a call spelled `spelling` goes to when its first operand is a tile.
pub fn tile_operand_form(spelling: &str) -> Option<Op> {
    TILE_OPERAND_FORMS.iter().find(|(s, _)| *s == spelling).map(|(_, tiles)| *tiles)
}

/// Spellings PyPTO has (ops.md §2) that plc refuses by name, each with the reason the
/// diagnostic gives (E0223). tests/spellings.rs checks that every PyPTO spelling has a
/// row or an entry here, and that no entry here has a row.
pub const REFUSED: &[(&str, &str)] = &[];

/// Why plc refuses a PyPTO spelling, when it is one of [`REFUSED`].
pub fn refusal(spelling: &str) -> Option<&'static str> {
    REFUSED.iter().find(|(s, _)| *s == spelling).map(|(_, reason)| *reason)
}

/// The ops reachable through a unified name (`add` → `tensor.add`, `tile.add`).
pub fn unified(name: &str) -> impl Iterator<Item = Op> + '_ {
    OPS.iter().enumerate().filter(move |(_, op)| op.unified == Some(name)).map(|(i, _)| Op::ALL[i])
}

/// Whether a unified name exists (`pl.add`).
pub fn is_unified(name: &str) -> bool {
    OPS.iter().any(|op| op.unified == Some(name))
}

/// The scalar operator a unified name means on scalars: `pl.add(a, b)` is `a + b`.
pub fn scalar_operator(unified: &str) -> Option<ScalarOp> {
    Some(match unified {
        "add" => ScalarOp::Add,
        "sub" => ScalarOp::Sub,
        "mul" => ScalarOp::Mul,
        "div" => ScalarOp::Div,
        _ => return None,
    })
}

// ---------------------------------------------------------------- parameter helpers

const fn req(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: true, effect: Effect::Read, keyword_only: false }
}

const fn opt(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::Read, keyword_only: false }
}

/// An optional keyword-only parameter (`pl.split(mode, *, slot_num=None)`).
const fn opt_kw(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::Read, keyword_only: true }
}

const fn write(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: true, effect: Effect::Write, keyword_only: false }
}

const fn read_write(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: true, effect: Effect::ReadWrite, keyword_only: false }
}

/// An optional output (`executed=` of `pl.tile.mrgsort`).
const fn opt_write(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::Write, keyword_only: false }
}

/// An optional argument the op reads and updates (the `signal` of `pld.tensor.allreduce`).
const fn opt_read_write(name: Param, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::ReadWrite, keyword_only: false }
}

// ---------------------------------------------------------------- result rules

fn none(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::None)
}

/// An integer or index scalar, or a value whose type is not known yet.
fn integer_or_unknown(t: &Type) -> bool {
    matches!(t, Type::Scalar(d) if d.is_int()) || matches!(t, Type::Unknown)
}

/// `system.cacheinvalid(tensor, shapes, offsets)`: a statement; the shapes and offsets
/// given have one integer per dimension of the tensor (ops.md §2.4).
fn cache_invalid(a: &dyn Args) -> Result<Type, String> {
    let rank = a.ty(0).and_then(Type::shape).map(<[Dim]>::len);
    for (i, what) in [(1, "shapes"), (2, "offsets")] {
        if let (Some(rank), Some(items)) = (rank, a.rank(i)) {
            if items != rank {
                return Err(format!("{what} gives {items} value(s) for a tensor of rank {rank}"));
            }
        }
        if let Some((k, t)) =
            a.item_types(i).unwrap_or_default().iter().enumerate().find(|(_, t)| !integer_or_unknown(t))
        {
            return Err(format!("{what} entry {k} must be an integer or index scalar, got {}", t.kind_name()));
        }
    }
    Ok(Type::None)
}

/// `pld.system.wait(signal, offsets, expected, cmp=...)`: a window-bound signal of any
/// dtype, compared with `Eq` or `Ge`.
fn signal_wait(a: &dyn Args) -> Result<Type, String> {
    signal_compare(a, &[WaitCmp::Eq, WaitCmp::Ge])
}

/// `pld.system.defer_wait(signal, offsets, expected, cmp=...)`: an INT32 signal, integer
/// offsets and threshold (a constant one in [0, INT32_MAX]), compared with `Ge` only.
fn signal_defer_wait(a: &dyn Args) -> Result<Type, String> {
    if let Some(d) = a.ty(0).and_then(Type::dtype).filter(|&d| d != DType::Int32) {
        return Err(format!("the signal must be an INT32 tensor, got {}", d.name()));
    }
    for (k, t) in a.item_types(1).unwrap_or_default().iter().enumerate() {
        if !integer_or_unknown(t) {
            return Err(format!("offset {k} must be an integer or index scalar, got {}", t.kind_name()));
        }
    }
    match a.ty(2) {
        Some(t) if !integer_or_unknown(t) => {
            return Err(format!("expected must be an integer or index scalar, got {}", t.kind_name()))
        }
        _ => {}
    }
    if let Some(n) = a.int(2).filter(|n| !(0..=i64::from(i32::MAX)).contains(n)) {
        return Err(format!("a constant expected must be in [0, {}], got {n}", i32::MAX));
    }
    signal_compare(a, &[WaitCmp::Ge])
}

/// The checks `wait` and `defer_wait` share: the signal is window-bound
/// (`pld.DistributedTensor`), one offset per dimension, and the comparison is allowed.
fn signal_compare(a: &dyn Args, allowed: &[WaitCmp]) -> Result<Type, String> {
    if let Some(Type::Tensor { distributed: false, .. }) = a.ty(0) {
        return Err("the signal must be a DistributedTensor (window-bound), got a plain Tensor".to_string());
    }
    if let (Some(shape), Some(offsets)) = (a.ty(0).and_then(Type::shape), a.dims(1)) {
        if shape.len() != offsets.len() {
            return Err(format!("{} offsets for a signal of rank {}", offsets.len(), shape.len()));
        }
    }
    match a.enum_value(3) {
        Some(EnumValue::WaitCmp(c)) if !allowed.contains(&c) => {
            let names: Vec<String> = allowed.iter().map(|c| format!("pld.WaitCmp.{c}")).collect();
            Err(format!("cmp must be {}, got pld.WaitCmp.{c}", names.join(" or ")))
        }
        _ => Ok(Type::None),
    }
}

/// The operations `pl.tile.comm_notify(signal, value, op=...)` takes.
const COMM_NOTIFY_OPS: &[&str] = &["atomic_add", "set"];
/// The comparisons `pl.tile.comm_wait` and `pl.tile.comm_test` take (`cmp=...`).
const COMM_CMPS: &[&str] = &["eq", "ne", "gt", "ge", "lt", "le"];

/// The signal and value of a cross-rank signal tile op: a tensor signal and an integer
/// scalar value (an integer literal is one); `what` names the value.
fn comm_signal(a: &dyn Args, what: &str) -> Result<(), String> {
    if let Some(t) = a.ty(1).filter(|t| !integer_or_unknown(t)) {
        return Err(format!("{what} must be an integer scalar, got {}", t.kind_name()));
    }
    Ok(())
}

/// The string argument `i` of a signal op is one of `allowed` (`what` names it).
fn comm_choice(a: &dyn Args, i: usize, what: &str, allowed: &[&str]) -> Result<(), String> {
    match a.text(i) {
        Some(t) if !allowed.contains(&t.as_str()) => {
            Err(format!("{what} must be one of \"{}\", got \"{t}\"", allowed.join("\", \"")))
        }
        _ => Ok(()),
    }
}

/// `pl.tile.comm_notify(signal, value, op="atomic_add"|"set")`: writes or adds `value` to a
/// peer rank's signal slot; a statement.
fn comm_notify(a: &dyn Args) -> Result<Type, String> {
    comm_signal(a, "value")?;
    comm_choice(a, 2, "op", COMM_NOTIFY_OPS)?;
    Ok(Type::None)
}

/// `pl.tile.comm_wait(signal, cmp_value, cmp=...)`: blocks until the local signal slot
/// compares true against `cmp_value`; a statement.
fn comm_wait(a: &dyn Args) -> Result<Type, String> {
    comm_signal(a, "cmp_value")?;
    comm_choice(a, 2, "cmp", COMM_CMPS)?;
    Ok(Type::None)
}

/// `pl.tile.comm_test(signal, cmp_value, cmp=...)`: the comparison `comm_wait` waits for,
/// polled once; a BOOL scalar.
fn comm_test(a: &dyn Args) -> Result<Type, String> {
    comm_wait(a)?;
    Ok(Type::Scalar(DType::Bool))
}

fn same_as_first(a: &dyn Args) -> Result<Type, String> {
    a.ty(0).cloned().ok_or_else(|| "missing first argument".to_string())
}

/// Argument `i`, when its type is known, is a window-bound tensor (`pld.DistributedTensor`)
/// of a dtype `ok` accepts (`expect` says which; `what` names the argument).
fn window_arg(a: &dyn Args, i: usize, what: &str, expect: &str, ok: fn(DType) -> bool) -> Result<(), String> {
    match a.ty(i) {
        Some(t @ Type::Tensor { distributed: false, .. }) => {
            Err(format!("the {what} must be a DistributedTensor (window-bound), got a {}", t.kind_name()))
        }
        Some(Type::Tensor { dtype: Some(d), .. }) if !ok(*d) => {
            Err(format!("the {what} must have {expect} elements, got {}", d.name()))
        }
        _ => Ok(()),
    }
}

/// `pld.tensor.allreduce(target, signal=..., op=, mode=, core_num=)`: in place on an FP16
/// or FP32 window; the signal, when given, an INT32 window; `mode` mesh or ring; a
/// positive `core_num` (ops.md §2, PyPTO's type deduction).
fn allreduce(a: &dyn Args) -> Result<Type, String> {
    window_arg(a, 0, "target", "FP16 or FP32", |d| matches!(d, DType::Fp16 | DType::Fp32))?;
    window_arg(a, 1, "signal", "INT32", |d| d == DType::Int32)?;
    collective_mode(a, 3)?;
    if let Some(n) = a.int(4).filter(|&n| n < 1) {
        return Err(format!("core_num must be a positive integer, got {n}"));
    }
    same_as_first(a)
}

/// `pld.tensor.reduce_scatter(target, signal, op=)`: in place on a window, an INT32
/// signal window, and only `op=pld.ReduceOp.Sum` (PyPTO lowers no other reduction).
fn reduce_scatter(a: &dyn Args) -> Result<Type, String> {
    window_arg(a, 0, "target", "any", |_| true)?;
    window_arg(a, 1, "signal", "INT32", |d| d == DType::Int32)?;
    sum_only(a, 2, "a reduce-scatter")?;
    same_as_first(a)
}

/// A collective's `mode=` argument `i`: `"mesh"` (the default) or `"ring"`.
fn collective_mode(a: &dyn Args, i: usize) -> Result<String, String> {
    match a.text(i) {
        None => Ok("mesh".to_string()),
        Some(m) if m == "mesh" || m == "ring" => Ok(m),
        Some(m) => Err(format!("mode must be \"mesh\" or \"ring\", got {m:?}")),
    }
}

/// A collective's `op=` argument `i` is `pld.ReduceOp.Sum` (or absent): the only
/// reduction PyPTO lowers for `what`.
fn sum_only(a: &dyn Args, i: usize, what: &str) -> Result<(), String> {
    match a.enum_value(i) {
        Some(EnumValue::ReduceOp(op)) if op != ReduceOp::Sum => {
            Err(format!("{what} supports only pld.ReduceOp.Sum, got pld.ReduceOp.{op}"))
        }
        _ => Ok(()),
    }
}

// ---- PyPTO's dtype checks of the tile ops (ops.md §2.3, column "checks")

/// Argument `i`'s dtype, when known, is one `ok` accepts (`expect` says which, `what`
/// names the argument).
fn dtype_of(a: &dyn Args, i: usize, what: &str, expect: &str, ok: fn(DType) -> bool) -> Result<(), String> {
    match a.ty(i).and_then(Type::dtype) {
        Some(d) if !ok(d) => Err(format!("{what} must be {expect}, got {}", d.name())),
        _ => Ok(()),
    }
}

/// The extents of a shape when all are constants.
fn const_dims(shape: &[Dim]) -> Option<Vec<i64>> {
    shape.iter().map(|d| if let Dim::Const(n) = d { Some(*n) } else { None }).collect()
}

/// The dtypes of PyPTO's vector division and `row_min`: INT16, INT32, FP16, FP32.
fn vector_arith_dtype(d: DType) -> bool {
    matches!(d, DType::Int16 | DType::Int32 | DType::Fp16 | DType::Fp32)
}

/// The dtypes of PyPTO's `not_`.
fn int16_or_uint16(d: DType) -> bool {
    matches!(d, DType::Int16 | DType::UInt16)
}

fn half_or_single(d: DType) -> bool {
    matches!(d, DType::Fp16 | DType::Fp32)
}

/// `tile.transpose_view(tile)`: at least 2 axes, the last two swapped.
fn tile_transpose_view(a: &dyn Args) -> Result<Type, String> {
    if let Some(s) = a.ty(0).and_then(Type::shape).filter(|s| s.len() < 2) {
        return Err(format!("needs a tile of at least 2 dimensions, got {}", s.len()));
    }
    transposed_last_two(a)
}

/// `tile.set_validshape(tile, valid_rows, valid_cols)`: a 2-D tile, constant extents
/// within its shape.
fn tile_set_validshape(a: &dyn Args) -> Result<Type, String> {
    check_set_validshape(a, "tile")?;
    same_as_first(a)
}

/// `set_validshape(x, valid_rows, valid_cols)` of a tile or a tensor (`kind`), one message
/// for each mistake: `x` is 2-D, and a constant extent lies in `0..=` its axis's extent.
fn check_set_validshape(a: &dyn Args, kind: &str) -> Result<(), String> {
    let Some(shape) = a.ty(0).and_then(Type::shape) else { return Ok(()) };
    if shape.len() != 2 {
        return Err(format!("needs a 2-D {kind}, got {} dimension(s)", shape.len()));
    }
    for (i, what) in [(1, "valid_rows"), (2, "valid_cols")] {
        if let Some(d) = a.ty(i).and_then(Type::dtype).filter(|d| d.is_float()) {
            return Err(format!("{what} must be an integer, got {}", d.name()));
        }
        let Some(n) = a.int(i) else { continue };
        match shape[i - 1] {
            Dim::Const(max) if n < 0 || n > max => {
                return Err(format!("{what} must be within 0..={max}, got {n}"));
            }
            _ if n < 0 => return Err(format!("{what} must not be negative, got {n}")),
            _ => {}
        }
    }
    Ok(())
}

/// `tile.mrgsort_format1(src, block_len)`: FP16 or FP32 runs of a positive multiple of 64.
fn tile_mrgsort_format1(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "src", "FP16 or FP32", half_or_single)?;
    check_block_len(a, 1)?;
    same_as_first(a)
}

/// The bitwise ops (`and_`, `or_`, `xor`, `shl`, `shr` and their scalar forms): integer
/// operands; the result typed as `elementwise` (two tiles) or as the tile (a scalar rhs).
fn tile_bitwise(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "lhs", "an integer dtype", DType::is_int)?;
    dtype_of(a, 1, "rhs", "an integer dtype", DType::is_int)?;
    if a.ty(1).is_some_and(Type::is_tile) {
        elementwise(a)
    } else {
        same_as_first(a)
    }
}

/// `tile.shl`/`tile.shr` of two tiles: as the other bit ops, but the result keeps the left
/// operand's dtype (PyPTO: "Tile[bcast], lhs dtype"; a UINT16 tile shifted by UINT32 counts
/// stays UINT16, where `and_`/`or_`/`xor` promote).
fn tile_shift(a: &dyn Args) -> Result<Type, String> {
    let ty = tile_bitwise(a)?;
    Ok(match a.ty(0).and_then(Type::dtype) {
        Some(d) => with_dtype(&ty, d),
        None => ty,
    })
}

/// `tile.not_`: INT16 or UINT16 only.
fn tile_not(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "the tile", "INT16 or UINT16", int16_or_uint16)?;
    same_as_first(a)
}

/// `tile.log(tile, high_precision=False)`: FP16 or FP32.
fn tile_log(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "the tile", "FP16 or FP32", half_or_single)?;
    same_as_first(a)
}

/// `tile.recip(tile, high_precision=False)`: the precise form only for FP16 or FP32.
fn tile_recip(a: &dyn Args) -> Result<Type, String> {
    if bool_arg(a, 1, false) {
        dtype_of(a, 0, "the tile of high_precision=True", "FP16 or FP32", half_or_single)?;
    }
    same_as_first(a)
}

/// `tile.subs(lhs, rhs)`: tile and scalar of INT8, INT16, INT32, FP16, FP32 or BF16.
fn tile_subs(a: &dyn Args) -> Result<Type, String> {
    let ok = |d| matches!(d, DType::Int8 | DType::Int16 | DType::Int32 | DType::Fp16 | DType::Fp32 | DType::Bf16);
    dtype_of(a, 0, "the tile", "INT8, INT16, INT32, FP16, FP32 or BF16", ok)?;
    same_as_first(a)
}

/// `tile.div(lhs, rhs)` of two tiles: one dtype of INT16, INT32, FP16 or FP32 and the same
/// physical shape (no broadcast); a scalar rhs is `divs`.
fn tile_div(a: &dyn Args) -> Result<Type, String> {
    let (Some(l), Some(r)) = (a.ty(0), a.ty(1).filter(|t| t.is_tile())) else { return elementwise(a) };
    dtype_of(a, 0, "lhs", "INT16, INT32, FP16 or FP32", vector_arith_dtype)?;
    if let (Some(p), Some(q)) = (l.dtype(), r.dtype()) {
        if p != q {
            return Err(format!("lhs and rhs must have the same dtype, got {} and {}", p.name(), q.name()));
        }
        if bool_arg(a, 2, false) && !p.is_float() {
            return Err(format!("high_precision=True needs a float dtype, got {}", p.name()));
        }
    }
    if let (Some(p), Some(q)) = (l.shape().and_then(const_dims), r.shape().and_then(const_dims)) {
        if p != q {
            return Err(format!("lhs and rhs must have the same shape (no broadcast), got {p:?} and {q:?}"));
        }
    }
    elementwise(a)
}

/// `tile.sort32(src, idx)`: FP16 or FP32 values.
fn tile_sort32(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "src", "FP16 or FP32", half_or_single)?;
    sort32(a)
}

/// `tile.prelu(tile, slope, tmp)`: FP16 or FP32, the slope of the tile's dtype and shape.
fn tile_prelu(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "the tile", "FP16 or FP32", half_or_single)?;
    if let (Some(x), Some(s)) = (a.ty(0), a.ty(1)) {
        if let (Some(p), Some(q)) = (x.dtype(), s.dtype()) {
            if p != q {
                return Err(format!("the slope must have the tile's dtype {}, got {}", p.name(), q.name()));
            }
        }
        if let (Some(p), Some(q)) = (x.shape().and_then(const_dims), s.shape().and_then(const_dims)) {
            if p != q {
                return Err(format!("the slope must have the tile's shape {p:?}, got {q:?}"));
            }
        }
    }
    same_as_first(a)
}

/// `tile.row_min(tile, tmp_tile)`: INT16, INT32, FP16 or FP32.
fn tile_row_min(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "the tile", "INT16, INT32, FP16 or FP32", vector_arith_dtype)?;
    tile_row_reduce(a)
}

/// `tile.col_sum(tile, tmp_tile=None)`: the scratch tile of the input's dtype.
fn tile_col_sum(a: &dyn Args) -> Result<Type, String> {
    if let (Some(p), Some(q)) = (a.ty(0).and_then(Type::dtype), a.ty(1).and_then(Type::dtype)) {
        if p != q {
            return Err(format!("tmp_tile must have the input's dtype {}, got {}", p.name(), q.name()));
        }
    }
    col_reduce(a)
}

/// `tile.assemble(target, source, offset)`: one dtype (an Acc source into a Mat target
/// may narrow to FP16 or BF16).
fn tile_assemble(a: &dyn Args) -> Result<Type, String> {
    use super::enums::AtomicType;
    if matches!(a.enum_value(3), Some(EnumValue::AtomicType(AtomicType::Add))) {
        return Err(
            "a tile assemble takes no atomic accumulation (atomic=pl.AtomicType.Add is for tensors)".to_string()
        );
    }
    let (Some(t), Some(s)) = (a.ty(0), a.ty(1)) else { return same_as_first(a) };
    if let (Some(p), Some(q)) = (t.dtype(), s.dtype()) {
        let narrowing = matches!(s, Type::Tile { memory: Some(MemorySpace::Acc), .. })
            && matches!(t, Type::Tile { memory: Some(MemorySpace::Mat), .. })
            && matches!(p, DType::Fp16 | DType::Bf16);
        if p != q && !narrowing {
            return Err(format!("the source must have the target's dtype {}, got {}", p.name(), q.name()));
        }
    }
    same_as_first(a)
}

/// `tile.rsqrt(tile, tmp=None)`: the input's type; PyPTO's precise form takes a scratch `tmp`
/// of the input's dtype and shape (it holds no result), and refuses `high_precision=True`
/// on a tile (the flag belongs to the tensor form).
fn tile_rsqrt(a: &dyn Args) -> Result<Type, String> {
    let x = same_as_first(a)?;
    if bool_arg(a, 2, false) {
        return Err("high_precision=True is not supported for Tile operands: use pl.tile.rsqrt(tile, tmp)".to_string());
    }
    if let Some(tmp) = a.ty(1) {
        if let (Some(p), Some(q)) = (x.dtype(), tmp.dtype()) {
            if p != q {
                return Err(format!("tmp must have the input's dtype {}, got {}", p.name(), q.name()));
            }
        }
        if let (Some(p), Some(q)) = (x.shape(), tmp.shape()) {
            if p != q {
                return Err("tmp must have the input's rank and shape".to_string());
            }
        }
    }
    Ok(x)
}

/// `tensor.adds/subs/muls/divs`: the lhs's type with dtype promote(lhs, scalar) when the
/// scalar is floating point (a float literal is FP32, so `pl.mul(fp16, 2.0)` is FP32, as in
/// PyPTO); an integer scalar keeps the lhs dtype.
fn scalar_promoted(a: &dyn Args) -> Result<Type, String> {
    let lhs = a.ty(0).ok_or("missing first argument")?;
    match (lhs, lhs.dtype(), a.ty(1)) {
        (Type::Tensor { .. }, Some(l), Some(Type::Scalar(r))) if r.is_float() && promote(l, *r) != l => {
            Ok(with_dtype(lhs, promote(l, *r)))
        }
        _ => Ok(lhs.clone()),
    }
}

fn same_as_third(a: &dyn Args) -> Result<Type, String> {
    a.ty(2).cloned().ok_or_else(|| "missing output argument".to_string())
}

fn index_scalar(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::Scalar(DType::Index))
}

fn element_of_first(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0).and_then(Type::dtype) {
        Some(d) => Ok(Type::Scalar(d)),
        // A bare `pl.Tensor`: the element type is known at run time only.
        None => Ok(Type::Scalar(DType::Fp32)),
    }
}

fn shape_arg(a: &dyn Args, i: usize) -> Result<Vec<Dim>, String> {
    a.dims(i).ok_or_else(|| "the shape must be a list of extents, like [64, 128]".to_string())
}

fn dtype_arg(a: &dyn Args, i: usize) -> Result<DType, String> {
    a.dtype(i).ok_or_else(|| "the dtype must be a pl data type, like pl.FP32".to_string())
}

fn memory_arg(a: &dyn Args, i: usize, default: MemorySpace) -> Result<MemorySpace, String> {
    match a.enum_value(i) {
        Some(EnumValue::MemorySpace(m)) => Ok(m),
        None if !a.present(i) => Ok(default),
        _ => Err("the memory space must be pl.MemorySpace.<name>".to_string()),
    }
}

fn tensor_from_shape_dtype(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::tensor(shape_arg(a, 0)?, dtype_arg(a, 1)?))
}

/// `tensor.create(shape, dtype, layout=ND, ...)`: a new tensor in the layout given.
fn tensor_created(a: &dyn Args) -> Result<Type, String> {
    let ty = tensor_from_shape_dtype(a)?;
    Ok(match a.enum_value(2) {
        Some(EnumValue::Layout(l)) => with_layout(ty, l),
        _ => ty,
    })
}

/// `create_l1(shape, dtype, transpose=False)`: a tensor of a static, positive, non-empty shape.
fn tensor_create_l1(a: &dyn Args) -> Result<Type, String> {
    let shape = shape_arg(a, 0)?;
    if shape.is_empty() || shape.iter().any(|d| !matches!(d, Dim::Const(n) if *n > 0)) {
        return Err("the shape of an L1 tensor must be non-empty, static and positive".to_string());
    }
    Ok(Type::tensor(shape, dtype_arg(a, 1)?))
}

fn tile_from_shape_dtype(a: &dyn Args) -> Result<Type, String> {
    let (shape, memory) = (static_tile_shape(a, 0)?, memory_arg(a, 2, MemorySpace::Vec)?);
    // `transpose=True` lays the tile out as L1's transposed (ZN) form: Mat only.
    if bool_arg(a, 3, false) && (memory != MemorySpace::Mat || shape.len() != 2) {
        return Err("transpose=true only for a 2D tile with target_memory=Mat".to_string());
    }
    Ok(Type::Tile { shape, dtype: dtype_arg(a, 1)?, memory: Some(memory) })
}

/// `pl.tile.full(shape, dtype, value)`: a tile in `Vec`.
fn tile_full(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tile { shape: static_tile_shape(a, 0)?, dtype: dtype_arg(a, 1)?, memory: Some(MemorySpace::Vec) })
}

/// The shape argument `i` of an op that makes a tile (`create`, `full`, `slice`): PyPTO
/// wants its extents positive, and at least one. (PyPTO also wants them constants; plc
/// keeps an extent held by a variable, since the parameter of a `pl.inline` function
/// stands for the caller's constant until InlineFunctions puts it in.)
fn static_tile_shape(a: &dyn Args, i: usize) -> Result<Vec<Dim>, String> {
    let shape = shape_arg(a, i)?;
    if shape.is_empty() {
        return Err("a tile's shape needs at least one extent".to_string());
    }
    if let Some(n) = shape.iter().find_map(|d| match d {
        Dim::Const(n) if *n <= 0 => Some(*n),
        _ => None,
    }) {
        return Err(format!("a tile's extents must be positive, got {n}"));
    }
    Ok(shape)
}

/// A `True`/`False` argument with its default. While the argument view cannot read the
/// constant ([`Args::flag`] answers `None`), a flag that is given at all is taken to be
/// the non-default value: people write `transpose=True`, rarely `transpose=False`.
fn bool_arg(a: &dyn Args, i: usize, default: bool) -> bool {
    match a.flag(i) {
        Some(b) => b,
        None if a.present(i) => !default,
        None => default,
    }
}

fn swap_last_two(shape: &mut [Dim]) {
    let n = shape.len();
    if n >= 2 {
        shape.swap(n - 2, n - 1);
    }
}

/// `pl.load(tensor, offsets, shapes, valid_shapes=None, target_memory=Vec, transpose=False)`:
/// a tile of the given shape (`shapes` is in the tensor's coordinates, so `transpose`
/// swaps the tile's last two extents).
fn load(a: &dyn Args) -> Result<Type, String> {
    let dtype = match a.ty(0) {
        Some(Type::Tensor { dtype, .. }) => dtype.unwrap_or(DType::Fp32),
        Some(Type::Unknown) => return Ok(Type::Unknown),
        _ => return Err("pl.load reads from a tensor".to_string()),
    };
    let memory = memory_arg(a, 4, MemorySpace::Vec)?;
    let mut shape = shape_arg(a, 2)?;
    if shape.is_empty() {
        return Err("the shapes list must have at least one extent".to_string());
    }
    same_rank(a, 1, 2, ("offsets", "shapes"))?;
    same_rank(a, 3, 2, ("valid_shapes", "shapes"))?;
    same_rank(a, 7, 2, ("valid_shape", "shapes"))?;
    mx_layout_arg(a, 10)?;
    mx_source_load(a, memory)?;
    if bool_arg(a, 5, false) {
        swap_last_two(&mut shape);
    }
    into_out(a, 11, Type::Tile { shape, dtype, memory: Some(memory) })
}

/// `tile.load` of a tensor in an MX layout (PyPTO's MX scale loads, `TLoadMxCube`): the
/// scales are FP8E8M0 or UINT8, the tensor and the window 2-D, and the target memory Mat,
/// written out (the ordinary Vec default is not silently changed).
fn mx_source_load(a: &dyn Args, memory: MemorySpace) -> Result<(), String> {
    let Some(l) = mx_layout_of(a, 0) else { return Ok(()) };
    let ty = a.ty(0).ok_or("missing argument")?;
    if let Some(d) = ty.dtype().filter(|d| !matches!(d, DType::Fp8E8M0 | DType::UInt8)) {
        return Err(format!("a load of an {l}-layout tensor needs dtype FP8E8M0 or UINT8, got {}", d.name()));
    }
    let ranks = [(ty.shape().map(<[Dim]>::len), "tensor"), (a.rank(2), "load window")];
    for (rank, what) in ranks {
        if let Some(r) = rank.filter(|&r| r != 2) {
            return Err(format!("a load of an {l}-layout tensor needs a 2-D {what}, got rank {r}"));
        }
    }
    if !a.present(4) || memory != MemorySpace::Mat {
        return Err(format!("a load of an {l}-layout tensor needs target_memory=pl.Mem.Mat"));
    }
    Ok(())
}

/// `out=` of a tile op (explicit tile buffers, newer than ops.md): the tile buffer (a slot
/// of `pl.create_tile_buffers`) the device writes the result into. It must be a tile of
/// the result's shape, dtype and memory space (PyPTO's destination forms check all three);
/// the result keeps its own type. On the CPU, where every tile has storage of its own, the
/// result is a value of its own and the buffer is not written.
fn into_out(a: &dyn Args, i: usize, result: Type) -> Result<Type, String> {
    let Some(out) = a.ty(i) else { return Ok(result) };
    let (
        Type::Tile { shape: given, dtype: given_dtype, memory: given_memory },
        Type::Tile { shape: want, dtype: want_dtype, memory: want_memory },
    ) = (out, &result)
    else {
        return match out {
            Type::Tile { .. } | Type::Unknown => Ok(result),
            other => Err(format!("out= must be a tile buffer, got {}", other.kind_name())),
        };
    };
    if given_dtype != want_dtype {
        return Err(format!("out= must have the result's dtype {}, got {}", want_dtype.name(), given_dtype.name()));
    }
    if let (Some(g), Some(w)) = (given_memory, want_memory) {
        if g != w {
            return Err(format!("out= must be in the result's memory space {}, got {}", w.name(), g.name()));
        }
    }
    let differ = given.len() != want.len()
        || given.iter().zip(want).any(|(g, w)| matches!((g, w), (Dim::Const(x), Dim::Const(y)) if x != y));
    if differ {
        let text = |s: &[Dim]| {
            let items: Vec<String> =
                s.iter().map(|d| if let Dim::Const(n) = d { n.to_string() } else { "?".into() }).collect();
            format!("[{}]", items.join(", "))
        };
        return Err(format!("out= must be a tile of the result's shape {}, got {}", text(want), text(given)));
    }
    Ok(result)
}

/// `create_tile_buffers(count, shape, dtype, memory_space=Vec)` (newer than ops.md; IR
/// `tile.create_buffer_set`): `count` tile buffers of one static shape, dtype and memory,
/// which a pipelined loop rotates through: a tuple of `count` tiles of one type.
/// `buffers[i]` is slot `i`: the element for a constant `i`, [`buffer_slot`] for an index
/// known at run time.
fn tile_buffer_set(a: &dyn Args) -> Result<Type, String> {
    let count = match a.int(0) {
        Some(n) if n > 0 => n,
        Some(n) => return Err(format!("count must be a positive number of buffers, got {n}")),
        None => return Err("count must be a positive integer constant".to_string()),
    };
    let shape = shape_arg(a, 1)?;
    if shape.is_empty() || shape.iter().any(|d| !matches!(d, Dim::Const(n) if *n > 0)) {
        return Err("the shape of a tile buffer must be non-empty, static and positive".to_string());
    }
    let slot = Type::Tile { shape, dtype: dtype_arg(a, 2)?, memory: Some(memory_arg(a, 3, MemorySpace::Vec)?) };
    a.tuple(vec![slot; count as usize]).ok_or_else(|| "a result of several values is not known here".to_string())
}

/// `buffer_slot(buffers, index)` (IR `tile.buffer_slot`, what `buffers[index]` lowers to
/// when the index is known only at run time): the slot of a set of tile buffers, a tile
/// of the set's one type.
fn buffer_slot(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Tuple(_)) => {}
        Some(Type::Unknown) | None => return Ok(Type::Unknown),
        Some(other) => {
            return Err(format!(
                "buffers must be a set of tile buffers (pl.create_tile_buffers), got {}",
                other.kind_name()
            ))
        }
    }
    let Some(items) = a.tuple_items(0) else { return Ok(Type::Unknown) };
    match items.first() {
        Some(first @ Type::Tile { .. }) if items.iter().all(|t| t == first) => Ok(first.clone()),
        _ => Err("buffers must be a set of tile buffers of one type (pl.create_tile_buffers)".to_string()),
    }
}

/// The GM layouts an MX scale load may name (`mx_layout=`, newer than ops.md): the
/// A-side scale `[M, K/32]` in `mx_a_zz` order, the B-side scale `[K/32, N]` in `mx_b_nn`.
const MX_LAYOUTS: [&str; 2] = ["mx_a_zz", "mx_b_nn"];

/// `mx_layout=` of `pl.load`, when given: one of [`MX_LAYOUTS`]. It only tells the
/// hardware's loader how the scale bytes lie in memory; the tile is the same.
fn mx_layout_arg(a: &dyn Args, i: usize) -> Result<(), String> {
    if !a.present(i) {
        return Ok(());
    }
    match a.text(i) {
        Some(t) if MX_LAYOUTS.contains(&t.as_str()) => Ok(()),
        Some(t) => Err(format!("mx_layout must be one of {}, got \"{t}\"", MX_LAYOUTS.join(", "))),
        None => Err(format!("mx_layout must be a string constant, one of {}", MX_LAYOUTS.join(", "))),
    }
}

/// The memory codes of the old `pl.op.block` API: 1 = UB, 2 = L1, 3 = L0A, 4 = L0B.
fn block_memory(code: Option<i64>) -> MemorySpace {
    match code {
        Some(2) => MemorySpace::Mat,
        Some(3) => MemorySpace::Left,
        Some(4) => MemorySpace::Right,
        _ => MemorySpace::Vec,
    }
}

/// `pl.op.block.load(tensor, row_offset, col_offset, height, width, target_memory=1)`.
fn block_load(a: &dyn Args) -> Result<Type, String> {
    let dtype = match a.ty(0) {
        Some(Type::Tensor { dtype, .. }) => dtype.unwrap_or(DType::Fp32),
        Some(Type::Unknown) => return Ok(Type::Unknown),
        _ => return Err("pl.op.block.load reads from a tensor".to_string()),
    };
    let extent = |i: usize| a.int(i).map_or(Dim::Unknown, Dim::Const);
    Ok(Type::Tile { shape: vec![extent(3), extent(4)], dtype, memory: Some(block_memory(a.int(5))) })
}

/// `pl.op.block.move(tile, target_memory, transpose=False)` with a numeric memory code.
fn block_move(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Tile { shape, dtype, .. }) => {
            let mut shape = shape.clone();
            if bool_arg(a, 2, false) {
                swap_last_two(&mut shape);
            }
            Ok(Type::Tile { shape, dtype: *dtype, memory: Some(block_memory(a.int(1))) })
        }
        Some(Type::Unknown) => Ok(Type::Unknown),
        _ => Err("pl.op.block.move moves a tile".to_string()),
    }
}

fn with_shape(ty: &Type, shape: Vec<Dim>) -> Type {
    match ty {
        Type::Tile { dtype, memory, .. } => Type::Tile { shape, dtype: *dtype, memory: *memory },
        Type::Tensor { dtype, layout, .. } => {
            Type::Tensor { shape: Some(shape), dtype: *dtype, distributed: false, layout: *layout }
        }
        other => other.clone(),
    }
}

/// `with_shape` for a view (`tensor.slice`, `tensor.view`): a DistributedTensor stays
/// distributed, a window of the same rank-shared buffer.
fn with_view_shape(ty: &Type, shape: Vec<Dim>) -> Type {
    match ty {
        Type::Tensor { dtype, distributed, layout, .. } => {
            Type::Tensor { shape: Some(shape), dtype: *dtype, distributed: *distributed, layout: *layout }
        }
        other => with_shape(other, shape),
    }
}

fn with_dtype(ty: &Type, dtype: DType) -> Type {
    match ty {
        Type::Tile { shape, memory, .. } => Type::Tile { shape: shape.clone(), dtype, memory: *memory },
        Type::Tensor { shape, .. } => {
            Type::Tensor { shape: shape.clone(), dtype: Some(dtype), distributed: false, layout: Layout::Nd }
        }
        Type::Scalar(_) => Type::Scalar(dtype),
        other => other.clone(),
    }
}

/// The number of elements of a shape whose extents are all literals.
pub(crate) fn element_count(dims: &[Dim]) -> Option<i64> {
    dims.iter().try_fold(1i64, |n, d| match d {
        Dim::Const(k) => n.checked_mul(*k),
        _ => None,
    })
}

/// `reshape(x, shape)`, `view(x, shape)`: the first argument with a new shape holding as
/// many elements (PyPTO compares the counts when both shapes are static).
fn reshaped(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let shape = shape_arg(a, 1)?;
    let old = ty.shape().and_then(element_count);
    if let (Some(old), Some(new)) = (old, element_count(&shape)) {
        if old > 0 && new > 0 && old != new {
            return Err(format!("cannot reshape {old} elements into a shape of {new} elements"));
        }
    }
    Ok(with_shape(ty, shape))
}

/// PyPTO refuses `tensor.reshape` and `tensor.transpose` of a packed FP4 tensor (two
/// elements a byte: the runtime's views cannot split a byte); `what` names the op.
fn not_packed_fp4(a: &dyn Args, what: &str) -> Result<(), String> {
    match a.ty(0).and_then(Type::dtype) {
        Some(DType::Fp4) => Err(format!("{what} is not supported for FP4 tensors (two elements share a byte)")),
        _ => Ok(()),
    }
}

/// The layout of argument `i` when it is a tensor in one of the MX scale layouts
/// (`pl.MX_A_ZZ`, `pl.MX_B_NN`): blocked storage that only `tile.load` into Mat reads.
fn mx_layout_of(a: &dyn Args, i: usize) -> Option<Layout> {
    a.ty(i).and_then(Type::layout).filter(|l| l.is_mx())
}

/// PyPTO refuses to reshape, slice, transpose or remotely read an MX-layout tensor (its
/// scale bytes are stored blocked, not row-major); `what` names the op.
fn not_mx(a: &dyn Args, i: usize) -> Result<(), String> {
    match mx_layout_of(a, i) {
        Some(l) => Err(format!("MX-layout tensors are not supported, got one in the {l} layout")),
        None => Ok(()),
    }
}

/// `tensor.reshape(x, shape)`: [`reshaped`], of a tensor that is not packed FP4 nor in an
/// MX layout.
fn tensor_reshaped(a: &dyn Args) -> Result<Type, String> {
    not_packed_fp4(a, "tensor.reshape")?;
    not_mx(a, 0)?;
    reshaped(a)
}

/// `tensor.transpose(x, axis1, axis2)`: [`transposed`], of a tensor that is not packed FP4
/// nor in an MX layout.
fn tensor_transposed(a: &dyn Args) -> Result<Type, String> {
    not_packed_fp4(a, "tensor.transpose")?;
    not_mx(a, 0)?;
    transposed(a)
}

/// `tensor.slice(x, shape, offset, ...)`: [`sliced`], of a tensor not in an MX layout. The
/// slice keeps the source's layout (a leading-axis slice of an NZ tensor stays NZ).
fn tensor_sliced(a: &dyn Args) -> Result<Type, String> {
    not_mx(a, 0)?;
    sliced(a)
}

/// `tensor.view(tensor, shape=None, valid_shape=None, *, layout=None)`: a shape or a layout
/// (PyPTO: "shape or layout required"; NZ and the MX layouts are refused, as the view's
/// layout and as the source's: a view reinterprets row-major storage, which a fractal or
/// blocked tensor does not have). With a shape it is a reshape of the same element count;
/// with only a layout the last two axes swap when it flips the source's (`Layout::flips_to`:
/// `layout=DN` of an ND [8, 4] tensor is [4, 8], `layout=ND` of that DN view [8, 4] again)
/// and the shape stays when the layouts agree. The view has the layout given, or the
/// source's.
fn tensor_view(a: &dyn Args) -> Result<Type, String> {
    let layout = match a.enum_value(3) {
        Some(EnumValue::Layout(l)) => Some(l),
        _ => None,
    };
    if let Some(l @ (Layout::Nz | Layout::MxAZz | Layout::MxBNn)) = layout {
        return Err(format!("a view cannot take the {l} layout (ND or DN)"));
    }
    let ty = a.ty(0).ok_or("missing argument")?;
    if let Some(l @ (Layout::Nz | Layout::MxAZz | Layout::MxBNn)) = ty.layout() {
        return Err(format!(
            "a source in the {l} layout has no row-major storage to view; \
             read it with pl.load(..., target_memory=pl.Mem.Mat) instead"
        ));
    }
    let viewed = if a.present(1) {
        let viewed = reshaped(a)?;
        if let (Some(Layout::Dn), Some(s)) = (layout, viewed.shape()) {
            if s.len() < 2 {
                return Err(format!("a DN view needs at least 2 dimensions, got {}", s.len()));
            }
        }
        match viewed.shape() {
            Some(shape) => with_view_shape(ty, shape.to_vec()),
            None => viewed,
        }
    } else {
        match (layout, ty.shape()) {
            (None, _) => return Err("needs a shape or a layout, like layout=pl.TensorLayout.DN".to_string()),
            (Some(Layout::Dn), Some(s)) if s.len() < 2 => {
                return Err(format!("a DN view needs at least 2 dimensions, got {}", s.len()))
            }
            (Some(l), Some(s)) if source_layout(ty).flips_to(l) => with_view_shape(ty, trailing_swapped(s)),
            _ => ty.clone(),
        }
    };
    Ok(match layout {
        Some(l) => with_layout(viewed, l),
        None => viewed,
    })
}

/// The layout of a tensor type (ND when it does not say).
fn source_layout(ty: &Type) -> Layout {
    ty.layout().unwrap_or(Layout::Nd)
}

/// Extents with the last two swapped (a flip between ND and DN).
fn trailing_swapped(s: &[Dim]) -> Vec<Dim> {
    let mut s = s.to_vec();
    let n = s.len();
    if n >= 2 {
        s.swap(n - 2, n - 1);
    }
    s
}

/// A tensor type with another layout; other types unchanged.
fn with_layout(ty: Type, layout: Layout) -> Type {
    match ty {
        Type::Tensor { shape, dtype, distributed, .. } => Type::Tensor { shape, dtype, distributed, layout },
        other => other,
    }
}

/// `tensor.as_layout(tensor, layout)`: the source's storage read under `layout`, as PyPTO
/// deduces it: a flip between ND and DN swaps the last two axes (an ND [N, K] tensor is a
/// DN [K, N] one, and back), the source's own layout keeps the type (`Layout::flips_to`);
/// NZ and the MX layouts are tile layouts (PyPTO: "NZ layout is not allowed" on a tensor).
fn tensor_as_layout(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let flipped = match a.enum_value(1) {
        Some(EnumValue::Layout(l @ (Layout::Nz | Layout::MxAZz | Layout::MxBNn))) => {
            Err(format!("the {l} layout is not allowed on a tensor (ND or DN)"))
        }
        Some(EnumValue::Layout(l)) => match ty.shape() {
            Some(s) if l == Layout::Dn && s.len() < 2 => {
                Err(format!("a DN layout needs at least 2 dimensions, got {}", s.len()))
            }
            Some(s) if source_layout(ty).flips_to(l) => Ok(with_view_shape(ty, trailing_swapped(s))),
            _ => Ok(ty.clone()),
        },
        _ => Ok(ty.clone()),
    };
    match a.enum_value(1) {
        Some(EnumValue::Layout(l)) => flipped.map(|t| with_layout(t, l)),
        _ => flipped,
    }
}

/// The extent lists `first` and `second` (both optional arguments) have as many items
/// (`what` names them in the message).
fn same_rank(a: &dyn Args, first: usize, second: usize, what: (&str, &str)) -> Result<(), String> {
    if let (Some(x), Some(y)) = (a.rank(first), a.rank(second)) {
        if x != y {
            let (p, q) = what;
            return Err(format!("{p} and {q} must have the same number of dimensions, got {x} and {y}"));
        }
    }
    Ok(())
}

/// An index list (argument `i`) with one position per dimension of argument 0.
fn one_index_per_dim(a: &dyn Args, i: usize) -> Result<(), String> {
    if let (Some(rank), Some(indices)) = (a.ty(0).and_then(Type::shape).map(<[Dim]>::len), a.rank(i)) {
        if indices != rank {
            return Err(format!("expects one index per dimension: {rank} for this operand, got {indices}"));
        }
    }
    Ok(())
}

/// `read(x, indices)`: one element.
fn read_element(a: &dyn Args) -> Result<Type, String> {
    one_index_per_dim(a, 1)?;
    element_of_first(a)
}

/// `write(x, indices, value)`: a statement.
/// `write(t, indices, value)`: the tensor or tile written, as PyPTO's `tensor.write` and
/// `tile.write` return it (the write happens in place).
fn write_element(a: &dyn Args) -> Result<Type, String> {
    one_index_per_dim(a, 1)?;
    // The value has the element dtype (PyPTO: "value Scalar of the tensor dtype"); a
    // literal takes the dtype it is written into, and so does index arithmetic (`3 - k` of
    // a loop index) written into integers, which plc's examples do.
    if let (Some(d), Some(Type::Scalar(v))) = (a.ty(0).and_then(Type::dtype), a.ty(2)) {
        let index_into_int = *v == DType::Index && d.is_int();
        if *v != d && !a.is_literal(2) && !index_into_int {
            return Err(format!("the value written must have the element dtype {}, got {}", d.name(), v.name()));
        }
    }
    same_as_first(a)
}

/// An axis argument normalized against `rank` (negative counts from the end).
pub(crate) fn axis_in_range(axis: i64, rank: usize) -> Result<usize, String> {
    let n = rank as i64;
    let k = if axis < 0 { axis + n } else { axis };
    if (0..n).contains(&k) {
        Ok(k as usize)
    } else {
        Err(format!("axis {axis} is out of range for an operand of {rank} dimension(s)"))
    }
}

/// `tensor.dim(t, axis)`: the axis is in range.
fn dim_of(a: &dyn Args) -> Result<Type, String> {
    if let (Some(shape), Some(axis)) = (a.ty(0).and_then(Type::shape), a.int(1)) {
        axis_in_range(axis, shape.len())?;
    }
    index_scalar(a)
}

/// `slice(x, shape, offset, ..., drop_dims=[...])`: a view of the given shape, without the
/// dimensions `drop_dims` lists (those an index, not a range, selected: `t[i, :]`).
fn sliced(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let mut shape = if ty.is_tile() { static_tile_shape(a, 1)? } else { shape_arg(a, 1)? };
    same_rank(a, 2, 1, ("the offset", "the shape"))?;
    if let Some(drop) = a.dims(4) {
        // A dropped axis keeps one element (PyPTO: "dropped dims must have valid extent
        // 1"): its valid extent when `valid_shape` is given, else its extent.
        let valid = a.dims(3);
        for d in &drop {
            let Dim::Const(k) = *d else { continue };
            let Ok(i) = usize::try_from(k) else { continue };
            let extent = valid.as_ref().and_then(|v| v.get(i)).or(shape.get(i));
            if let Some(&Dim::Const(n)) = extent {
                if n != 1 {
                    return Err(format!("a dropped dimension must have (valid) extent 1: dimension {k} has {n}"));
                }
            }
        }
        let mut k = 0;
        shape.retain(|_| {
            k += 1;
            !drop.contains(&Dim::Const(k as i64 - 1))
        });
    }
    Ok(with_view_shape(ty, shape))
}

/// `pl.AUTO`, the base address of a `pl.reserve_buffer` that the compiler places (PyPTO's
/// sentinel −1), and the default of its `base=`.
pub const AUTO_BASE: i64 = -1;

/// The rounding modes of `cast`, in PyPTO's order (codes 0 to 6).
pub const CAST_MODES: [&str; 7] = ["none", "rint", "round", "floor", "ceil", "trunc", "odd"];

/// The saturation modes of a tile or tensor `cast`: `on` clamps a value the target dtype
/// cannot hold to its range, `off` leaves it to the target (plc wraps integers).
pub const SATURATION_MODES: [&str; 2] = ["on", "off"];

/// `cast(x, target_type, mode='round', saturation_mode=None)`: `x` with the new dtype;
/// `mode` one of [`CAST_MODES`], `saturation_mode` one of [`SATURATION_MODES`].
fn cast(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    if let Some(mode) = a.text(2) {
        if !CAST_MODES.contains(&mode.as_str()) {
            let names = CAST_MODES.map(|m| format!("'{m}'")).join(", ");
            return Err(format!("unknown rounding mode '{mode}': the modes are {names}"));
        }
    }
    if let Some(sat) = a.text(3) {
        if !SATURATION_MODES.contains(&sat.as_str()) {
            return Err(format!("unknown saturation mode '{sat}': the modes are 'on' and 'off'"));
        }
    }
    Ok(with_dtype(ty, dtype_arg(a, 1)?))
}

/// `pl.cast(scalar, target_type, mode='round')`: a scalar cast takes the default mode only
/// (PyPTO: "Scalar inputs do not support non-default mode"), by name or by its code 2.
fn scalar_cast(a: &dyn Args) -> Result<Type, String> {
    let ty = cast(a)?;
    match a.text(2) {
        Some(mode) if mode != "round" => {
            Err(format!("a scalar cast takes the default mode 'round' only, got mode='{mode}' (PyPTO: Scalar inputs do not support non-default mode)"))
        }
        _ => Ok(ty),
    }
}

/// `pl.move(tile, target_memory, blayout=None, slayout=None, transpose=False)`.
fn moved(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Tile { shape, dtype, .. }) => {
            // Into a scale buffer: 2-D UINT8 or FP8E8M0 data. (Where the source lives is
            // checked by PyPTO's memory passes, not when the program is read.)
            let target = memory_arg(a, 1, MemorySpace::Vec)?;
            if matches!(target, MemorySpace::LeftScale | MemorySpace::RightScale) {
                if !matches!(dtype, DType::UInt8 | DType::Fp8E8M0) {
                    return Err(format!("a move into {target} takes UINT8 or FP8E8M0 data, got {}", dtype.name()));
                }
                if shape.len() != 2 {
                    return Err(format!("a move into {target} takes a 2-D tile, got {} dimension(s)", shape.len()));
                }
            }
            let mut shape = shape.clone();
            if bool_arg(a, 4, false) {
                swap_last_two(&mut shape);
            }
            Ok(Type::Tile { shape, dtype: *dtype, memory: Some(memory_arg(a, 1, MemorySpace::Vec)?) })
        }
        Some(Type::Unknown) => Ok(Type::Unknown),
        _ => Err("pl.move moves a tile".to_string()),
    }
}

/// PyPTO's matmul accumulator dtype (ACC): FP32 when the inputs are floating point, INT32
/// otherwise (INT8).
pub fn acc_dtype(input: DType) -> DType {
    if input.is_float() {
        DType::Fp32
    } else {
        DType::Int32
    }
}

/// PyPTO's `promote(a, b)`: equal dtypes give that dtype; a float beats an integer; else the
/// wider; at equal width the signed one; otherwise the first.
pub fn promote(a: DType, b: DType) -> DType {
    if a == b || (a.is_float() && !b.is_float()) {
        return a;
    }
    if b.is_float() && !a.is_float() {
        return b;
    }
    let signed = |d: DType| !matches!(d, DType::UInt4 | DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64);
    match a.bytes().cmp(&b.bytes()) {
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal if signed(b) && !signed(a) => b,
        _ => a,
    }
}

/// The bytes of a row of PyPTO's packed compare mask for `cols` columns: one bit per
/// column, padded to a multiple of 32 bytes.
pub fn packed_mask_cols(cols: i64) -> i64 {
    ((cols + 7) / 8 + 31) / 32 * 32
}

/// `tile.cmp`/`tile.cmps`: PyPTO's packed mask, a `UINT8` tile in `Vec` of the lhs shape
/// whose last extent is [`packed_mask_cols`] of the lhs's.
fn packed_mask(a: &dyn Args) -> Result<Type, String> {
    let lhs = a.ty(0).ok_or("missing lhs")?;
    let Some(shape) = lhs.shape() else { return Ok(Type::Unknown) };
    let mut shape = shape.to_vec();
    if let Some(last) = shape.last_mut() {
        *last = match *last {
            Dim::Const(n) => Dim::Const(packed_mask_cols(n)),
            _ => Dim::Unknown,
        };
    }
    Ok(Type::Tile { shape, dtype: DType::UInt8, memory: Some(MemorySpace::Vec) })
}

/// `tile.cmp`/`tile.cmps`: `cmp_type` is one of PyPTO's six comparisons (0..5: eq, ne, lt,
/// le, gt, ge) and two tile operands broadcast; the result is [`packed_mask`].
fn tile_compare(a: &dyn Args) -> Result<Type, String> {
    check_cmp_type(a, 2)?;
    if let (Some(l), Some(Type::Tile { shape: r, .. })) = (a.ty(0).and_then(Type::shape), a.ty(1)) {
        broadcast(l, r)?;
    }
    packed_mask(a)
}

/// A comparison's `cmp_type` (argument `i`) is one of PyPTO's six codes (0..5: eq, ne, lt,
/// le, gt, ge).
fn check_cmp_type(a: &dyn Args, i: usize) -> Result<(), String> {
    match a.int(i).filter(|c| !(0..=5).contains(c)) {
        Some(c) => Err(format!("cmp_type must be 0..5 (eq, ne, lt, le, gt, ge), got {c}")),
        None => Ok(()),
    }
}

/// `tensor.cmp(lhs, rhs)`: 0/1 values in promote(lhs, rhs) (a scalar rhs keeps lhs's dtype).
fn tensor_cmp(a: &dyn Args) -> Result<Type, String> {
    check_cmp_type(a, 2)?;
    let lhs = a.ty(0).ok_or("missing lhs")?;
    match (lhs.dtype(), a.ty(1)) {
        (Some(l), Some(Type::Tensor { dtype: Some(r), .. })) => Ok(with_dtype(lhs, promote(l, *r))),
        _ => Ok(lhs.clone()),
    }
}

/// PyPTO's `bcast(a, b)`: right-aligned, an axis pairs equal extents or a literal 1 with
/// anything; a missing leading axis takes the other's extent. Extents known only at run
/// time are taken as they are (from `a` when both are).
pub fn broadcast(a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, String> {
    let n = a.len().max(b.len());
    let at = |s: &[Dim], i: usize| (i + s.len()).checked_sub(n).map(|k| s[k]);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(match (at(a, i), at(b, i)) {
            (Some(x), None) | (None, Some(x)) => x,
            (Some(Dim::Const(1)), Some(y)) => y,
            (Some(x), Some(Dim::Const(1))) => x,
            (Some(Dim::Const(x)), Some(Dim::Const(y))) if x != y => {
                return Err(format!("requires compatible shapes: axis {i} has extents {x} and {y}"));
            }
            (Some(x), Some(_)) => x,
            (None, None) => Dim::Unknown,
        });
    }
    Ok(out)
}

/// An element-wise binary op (PyPTO's EW/TEW): the operands' shapes broadcast and their
/// dtypes promote; a scalar rhs keeps the lhs's type (`adds`).
fn elementwise(a: &dyn Args) -> Result<Type, String> {
    let lhs = a.ty(0).ok_or("missing lhs")?;
    let Some(rhs) = a.ty(1).filter(|t| matches!(t, Type::Tensor { .. } | Type::Tile { .. })) else {
        return scalar_promoted(a);
    };
    let mut ty = lhs.clone();
    if let (Some(l), Some(r)) = (lhs.shape(), rhs.shape()) {
        let shape = broadcast(l, r)?;
        if shape.as_slice() != l {
            ty = with_shape(&ty, shape);
        }
    }
    match (lhs.dtype(), rhs.dtype()) {
        (Some(l), Some(r)) if l != r => Ok(with_dtype(&ty, promote(l, r))),
        _ => Ok(ty),
    }
}

/// `tile.addc`/`tile.subc` of three tiles: PyPTO requires their shapes to broadcast
/// together; the result keeps the first operand's type.
fn three_tiles(a: &dyn Args) -> Result<Type, String> {
    let shapes: Vec<&[Dim]> = (0..3).filter_map(|i| a.ty(i).and_then(Type::shape)).collect();
    if let [x, y, z] = shapes.as_slice() {
        broadcast(&broadcast(x, y)?, z)?;
    }
    same_as_first(a)
}

/// A shape as a message shows it: `[16, 32]`, `?` for an extent known at run time.
fn shape_text(shape: &[Dim]) -> String {
    let dims: Vec<String> = shape
        .iter()
        .map(|d| match d {
            Dim::Const(n) => n.to_string(),
            _ => "?".to_string(),
        })
        .collect();
    format!("[{}]", dims.join(", "))
}

/// The extent `i` of a shaped type, `Unknown` when it is not known.
fn extent(ty: &Type, i: usize) -> Dim {
    ty.shape().and_then(|s| s.get(i).copied()).unwrap_or(Dim::Unknown)
}

/// The checks PyPTO makes on the operands of a tile matmul: 2-D tiles of one dtype whose
/// physical K agree. Returns the accumulator dtype.
fn tile_matmul_operands(lhs: &Type, rhs: &Type) -> Result<DType, String> {
    for (name, ty) in [("lhs", lhs), ("rhs", rhs)] {
        if let Some(s) = ty.shape().filter(|s| s.len() != 2) {
            return Err(format!("the tile operands must be 2-D, {name} has {} dimension(s)", s.len()));
        }
    }
    let (l, r) = (lhs.dtype().unwrap_or(DType::Fp32), rhs.dtype().unwrap_or(DType::Fp32));
    if l != r {
        return Err(format!("lhs and rhs must have the same dtype, got {} and {}", l.name(), r.name()));
    }
    if let (Dim::Const(k1), Dim::Const(k2)) = (extent(lhs, 1), extent(rhs, 0)) {
        if k1 != k2 {
            return Err(format!("the K extents differ: lhs is [M, {k1}], rhs is [{k2}, N]"));
        }
    }
    Ok(acc_dtype(l))
}

/// A dtype argument that must equal the deduced one (`out_dtype` of a tile matmul, the
/// dtype of an accumulator or a bias).
fn expect_acc(what: &str, got: Option<DType>, acc: DType, input: Option<DType>) -> Result<(), String> {
    match got {
        Some(d) if d != acc => {
            let of = input.map_or(String::new(), |i| format!(" (the accumulator dtype of {} inputs)", i.name()));
            Err(format!("{what} must have dtype {}{of}, got {}", acc.name(), d.name()))
        }
        _ => Ok(()),
    }
}

/// `init_cond` of `matmul_acc`: absent, `None`, or a BOOL scalar.
fn check_init_cond(a: &dyn Args, i: usize) -> Result<(), String> {
    match a.ty(i) {
        None | Some(Type::None | Type::Unknown | Type::Scalar(DType::Bool)) => Ok(()),
        Some(_) => Err("requires init_cond to have dtype BOOL; write a comparison such as `k == 0`".to_string()),
    }
}

/// The checks PyPTO makes on the operands of an MX matmul (`lhs`, `lhs_scale`, `rhs`,
/// `rhs_scale` at `first..first + 4`): 2-D FP8E4M3FN data with equal K and 2-D FP8E8M0
/// scales. Returns the product's `[M, N]`.
/// The FP8 element types of MX data: E4M3FN (ops.md) and E5M2 (PyPTO's newer tests,
/// after PTO-ISA's TMATMUL_MX samples).
const MX_DATA: [DType; 2] = [DType::Fp8E4M3Fn, DType::Fp8E5M2];

/// That `ty` (an MX operand named `name`) has one of the dtypes `wants`, when it has one.
/// The raw bytes an older release's `pl.mx_quant`/`pl.tquant` gives are accepted too (not
/// named in the message): INT8 for FP8 data and UINT8 for FP8E8M0 scales; lowering warns
/// of them (W0003, [`mx_raw_bytes`]).
fn mx_dtype(name: &str, ty: &Type, wants: &[DType]) -> Result<(), String> {
    match ty.dtype() {
        Some(d) if !wants.contains(&d) && mx_raw_bytes(d) != Some(wants[0]) => {
            let names: Vec<&str> = wants.iter().map(|w| w.name()).collect();
            Err(format!("{name} must have dtype {}, got {}", names.join(" or "), d.name()))
        }
        _ => Ok(()),
    }
}

/// The MX element type whose raw bytes the dtype `d` holds when an older release's MX
/// quantizer made it: INT8 the FP8E4M3FN data, UINT8 the FP8E8M0 scales.
pub(crate) fn mx_raw_bytes(d: DType) -> Option<DType> {
    match d {
        DType::Int8 => Some(DType::Fp8E4M3Fn),
        DType::UInt8 => Some(DType::Fp8E8M0),
        _ => None,
    }
}

fn mx_operands(a: &dyn Args, first: usize) -> Result<Vec<Dim>, String> {
    let names = ["lhs", "lhs_scale", "rhs", "rhs_scale"];
    let mut tys = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let ty = a.ty(first + k).ok_or_else(|| format!("missing {name}"))?;
        if let Some(s) = ty.shape().filter(|s| s.len() != 2) {
            return Err(format!("{name} must be a 2-D tile, it has {} dimension(s)", s.len()));
        }
        let wants: &[DType] = if k % 2 == 0 { &MX_DATA } else { &[DType::Fp8E8M0] };
        mx_dtype(name, ty, wants)?;
        tys.push(ty);
    }
    let (lhs, rhs) = (tys[0], tys[2]);
    if let (Dim::Const(k1), Dim::Const(k2)) = (extent(lhs, 1), extent(rhs, 0)) {
        if k1 != k2 {
            return Err(format!("the K extents differ: lhs is [M, {k1}], rhs is [{k2}, N]"));
        }
        if k1 % 64 != 0 {
            return Err(format!("K must be a multiple of 64, got {k1}"));
        }
    }
    Ok(vec![extent(lhs, 0), extent(rhs, 1)])
}

/// `matmul_mx(lhs, lhs_scale, rhs, rhs_scale)`: an FP32 `Acc` tile `[M, N]`.
fn matmul_mx(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tile { shape: mx_operands(a, 0)?, dtype: DType::Fp32, memory: Some(MemorySpace::Acc) })
}

/// `matmul_mx_acc(acc, lhs, lhs_scale, rhs, rhs_scale)`: the FP32 accumulator `[M, N]`.
fn matmul_mx_acc(a: &dyn Args) -> Result<Type, String> {
    let mn = mx_operands(a, 1)?;
    let acc = a.ty(0).ok_or("missing acc")?;
    expect_acc("the accumulator acc", acc.dtype(), DType::Fp32, Some(DType::Fp8E4M3Fn))?;
    if let Some(s) = acc.shape() {
        if s.len() != 2 || s.iter().zip(&mn).any(|(x, y)| matches!((x, y), (Dim::Const(p), Dim::Const(q)) if p != q)) {
            return Err(format!("the accumulator must be [M, N] = {mn:?}, got {s:?}"));
        }
    }
    Ok(Type::Tile { shape: mn, dtype: DType::Fp32, memory: Some(MemorySpace::Acc) })
}

/// `matmul_mx_bias(lhs, lhs_scale, rhs, rhs_scale, bias)`: as `matmul_mx`; the bias an FP32 `[1, N]`.
fn matmul_mx_bias(a: &dyn Args) -> Result<Type, String> {
    let mn = mx_operands(a, 0)?;
    let bias = a.ty(4).ok_or("missing bias")?;
    expect_acc("the bias", bias.dtype(), DType::Fp32, Some(DType::Fp8E4M3Fn))?;
    if let Some(s) = bias.shape() {
        if s.len() != 2 || matches!(s[0], Dim::Const(r) if r != 1) {
            return Err(format!("the bias must be [1, N], got {s:?}"));
        }
    }
    Ok(Type::Tile { shape: mn, dtype: DType::Fp32, memory: Some(MemorySpace::Acc) })
}

/// `tget_scale_addr(dst_scale, src)`: the scale tile (FP8E8M0) of an FP8E4M3FN tile, both 2-D.
fn tget_scale_addr(a: &dyn Args) -> Result<Type, String> {
    let (dst, src) = (a.ty(0).ok_or("missing dst_scale")?, a.ty(1).ok_or("missing src")?);
    for (name, ty, wants) in [("dst_scale", dst, &[DType::Fp8E8M0][..]), ("src", src, &MX_DATA[..])] {
        mx_dtype(name, ty, wants)?;
        if let Some(s) = ty.shape().filter(|s| s.len() != 2) {
            return Err(format!("{name} must be a 2-D tile, it has {} dimension(s)", s.len()));
        }
    }
    Ok(dst.clone())
}

/// The elements of one MX block: one FP8E8M0 scale per 32 data elements.
const MX_GROUP: i64 = 32;

/// `quant_mx(src, group_axis=1, dtype=FP8E4M3FN)` (newer than ops.md; IR `tile.tquant_mx`):
/// a 2-D FP16/BF16/FP32 `Vec` tile of static extents quantized in blocks of 32 along its
/// columns, as the pair (FP8E4M3FN data, FP8E8M0 block scales). With `group_axis=1` (the
/// A side of `matmul_mx`) the source is `[M, K]`, the data `[M, K]` and the scales
/// `[M, K/32]`, M a multiple of 16; with `group_axis=0` (the B side) the source is `[N, K]`
/// and comes out transposed, data `[K, N]` and scales `[K/32, N]`, N a multiple of 32.
/// K is a multiple of 64 either way.
fn quant_mx(a: &dyn Args) -> Result<Type, String> {
    let src = a.ty(0).ok_or("missing src")?;
    if matches!(src, Type::Unknown) {
        return Ok(Type::Unknown);
    }
    if let Some(d) = src.dtype().filter(|d| !matches!(d, DType::Fp16 | DType::Bf16 | DType::Fp32)) {
        return Err(format!("src must have dtype FP16, BF16 or FP32, got {}", d.name()));
    }
    let axis = a.int(1).unwrap_or(1);
    if axis != 0 && axis != 1 {
        return Err(format!("group_axis must be 0 or 1, got {axis}"));
    }
    if let Some(d) = a.dtype(2).filter(|&d| d != DType::Fp8E4M3Fn) {
        return Err(format!("dtype must be FP8E4M3FN (MXFP8), got {}", d.name()));
    }
    let (rows, cols) = match src.shape() {
        Some([Dim::Const(r), Dim::Const(c)]) if *r > 0 && *c > 0 => (*r, *c),
        Some([_, _]) => return Err("src must have static, positive extents".to_string()),
        Some(s) => return Err(format!("src must be a 2-D tile, it has {} dimension(s)", s.len())),
        None => return Ok(Type::Unknown),
    };
    if cols % 64 != 0 {
        return Err(format!("K (the source's columns) must be a multiple of 64, got {cols}"));
    }
    let (row_unit, row_name) = if axis == 1 { (16, "M") } else { (MX_GROUP, "N") };
    if rows % row_unit != 0 {
        return Err(format!(
            "{row_name} (the source's rows) must be a multiple of {row_unit} with group_axis={axis}, got {rows}"
        ));
    }
    let (data, scales) =
        if axis == 1 { ([rows, cols], [rows, cols / MX_GROUP]) } else { ([cols, rows], [cols / MX_GROUP, rows]) };
    let tile = |shape: [i64; 2], dtype| Type::Tile {
        shape: shape.map(Dim::Const).to_vec(),
        dtype,
        memory: Some(MemorySpace::Vec),
    };
    a.tuple(vec![tile(data, DType::Fp8E4M3Fn), tile(scales, DType::Fp8E8M0)])
        .ok_or_else(|| "a result of several values is not known here".to_string())
}

/// The modes of the older MX quantizer `tquant`: MXFP8 (E4M3 or E5M2) or packed MXFP4.
const TQUANT_MODES: [&str; 5] = ["mxfp8_e4m3", "mxfp8", "mxfp8_e5m2", "mxfp4", "mxfp4_e2m1"];

/// `tquant(src, mode)` and its other name `mx_quant` (an older PyPTO form of `quant_mx`,
/// IR `tile.tquant`): a 2-D FP16/BF16/FP32 tile quantized in blocks of 32 along its
/// columns, as the pair (the quantized bytes, the E8M0 block exponents as raw bytes): an
/// INT8 `[M, K]` for MXFP8 (a packed FP4 `[M, K/2]` for MXFP4) and a UINT8 `[1, M*K/32]`.
fn tquant(a: &dyn Args) -> Result<Type, String> {
    let src = a.ty(0).ok_or("missing src")?;
    if matches!(src, Type::Unknown) {
        return Ok(Type::Unknown);
    }
    if let Some(d) = src.dtype().filter(|d| !matches!(d, DType::Fp16 | DType::Bf16 | DType::Fp32)) {
        return Err(format!("src must have dtype FP16, BF16 or FP32, got {}", d.name()));
    }
    let mode = a.text(1).unwrap_or_default();
    if !TQUANT_MODES.contains(&mode.as_str()) {
        return Err(format!("mode must be one of {}, got \"{mode}\"", TQUANT_MODES.join(", ")));
    }
    let (m, k) = match src.shape() {
        Some([m, k]) => (*m, *k),
        Some(s) => return Err(format!("src must be a 2-D tile, it has {} dimension(s)", s.len())),
        None => return Ok(Type::Unknown),
    };
    if let Dim::Const(n) = k {
        if n <= 0 || n % MX_GROUP != 0 {
            return Err(format!("K (the source's columns) must be a positive multiple of 32, got {n}"));
        }
    }
    let fp4 = mode.starts_with("mxfp4");
    let data = match k {
        Dim::Const(n) if fp4 => vec![m, Dim::Const(n / 2)],
        _ if fp4 => vec![m, Dim::Unknown],
        _ => vec![m, k],
    };
    let groups = match (m, k) {
        (Dim::Const(m), Dim::Const(k)) => Dim::Const(m * (k / MX_GROUP)),
        _ => Dim::Unknown,
    };
    let vec = Some(MemorySpace::Vec);
    let data = Type::Tile { shape: data, dtype: if fp4 { DType::Fp4 } else { DType::Int8 }, memory: vec };
    let scales = Type::Tile { shape: vec![Dim::Const(1), groups], dtype: DType::UInt8, memory: vec };
    a.tuple(vec![data, scales]).ok_or_else(|| "a result of several values is not known here".to_string())
}

/// `block_len=` of a one-source merge: a positive multiple of 64 (PyPTO's check).
fn check_block_len(a: &dyn Args, i: usize) -> Result<(), String> {
    match a.int(i) {
        Some(n) if n <= 0 || n % 64 != 0 => Err(format!("block_len must be a positive multiple of 64, got {n}")),
        _ => Ok(()),
    }
}

/// `pl.tile.mrgsort(...)`: with `block_len=` (parameter 7) the one-source merge, the
/// source's type; otherwise the merge of 2-4 sources into the scratch `tmp`'s shape.
fn tile_mrgsort(a: &dyn Args) -> Result<Type, String> {
    if a.present(7) {
        check_block_len(a, 7)?;
        return same_as_first(a);
    }
    tile_mrgsort_format2(a)
}

/// `pl.tensor.mrgsort(...)`: with `block_len=` (parameter 5) the source's type; otherwise
/// the 2-4 sources joined along the last axis.
fn tensor_mrgsort(a: &dyn Args) -> Result<Type, String> {
    if a.present(5) {
        check_block_len(a, 5)?;
        return same_as_first(a);
    }
    tensor_mrgsort_format2(a)
}

/// `mrgsort_format1(src, block_len)`: the source's type.
fn mrgsort_format1(a: &dyn Args) -> Result<Type, String> {
    check_block_len(a, 1)?;
    same_as_first(a)
}

/// `mrgsort_format2(src0, src1, [src2, src3,] tmp, exhausted=False)` of tiles: the last
/// tile given is the scratch `tmp`, whose shape the result has, in the sources' dtype.
fn tile_mrgsort_format2(a: &dyn Args) -> Result<Type, String> {
    mrgsort_sources(a, 2)?;
    let src = a.ty(0).ok_or("missing src0")?;
    let tmp =
        (2..5).rev().find(|&i| a.present(i)).and_then(|i| a.ty(i)).ok_or("needs 2 to 4 sources and a tmp tile")?;
    Ok(match (tmp, src.dtype()) {
        (Type::Tile { shape, memory, .. }, Some(dtype)) => Type::Tile { shape: shape.clone(), dtype, memory: *memory },
        (other, _) => other.clone(),
    })
}

/// `mrgsort_format2(src0, src1, src2=None, src3=None, exhausted=False)` of tensors: the
/// sources joined along the last axis.
fn tensor_mrgsort_format2(a: &dyn Args) -> Result<Type, String> {
    mrgsort_sources(a, 4)?;
    let src = a.ty(0).ok_or("missing src0")?;
    let mut last = Dim::Const(0);
    for i in (0..4).filter(|&i| a.present(i)) {
        let ty = a.ty(i).ok_or("missing source")?;
        if let (Some(x), Some(y)) = (src.dtype(), ty.dtype()) {
            if x != y {
                return Err(format!("the sources must have one dtype, got {} and {}", x.name(), y.name()));
            }
        }
        last = match (last, ty.shape().and_then(|s| s.last().copied())) {
            (Dim::Const(n), Some(Dim::Const(m))) => Dim::Const(n + m),
            _ => Dim::Unknown,
        };
    }
    let mut shape = src.shape().map(<[Dim]>::to_vec).unwrap_or_default();
    if let Some(l) = shape.last_mut() {
        *l = last;
    }
    Ok(with_shape(src, shape))
}

/// `matmul(lhs, rhs, out_dtype=None, a_trans=False, b_trans=False)`: `[M, K] x [K, N]`; also
/// `gemv(lhs [1, K], rhs [K, N])`. A tile product is an `Acc` tile of the accumulator
/// dtype (`out_dtype`, an older keyword, must name that dtype); a tensor product has
/// `out_dtype`, or promote(lhs, rhs).
/// `pl.tile.matmul(lhs, rhs, out_dtype=None, out=None)`: [`matmul`], into the tile buffer
/// `out=` when given ([`into_out`]).
fn tile_matmul_out(a: &dyn Args) -> Result<Type, String> {
    into_out(a, 3, matmul(a)?)
}

fn matmul(a: &dyn Args) -> Result<Type, String> {
    let (lhs, rhs) = (a.ty(0).ok_or("missing lhs")?, a.ty(1).ok_or("missing rhs")?);
    let tile = lhs.is_tile();
    if tile {
        let acc = tile_matmul_operands(lhs, rhs)?;
        expect_acc("out_dtype", a.dtype(2), acc, lhs.dtype())?;
        return Ok(Type::Tile {
            shape: vec![extent(lhs, 0), extent(rhs, 1)],
            dtype: acc,
            memory: Some(MemorySpace::Acc),
        });
    }
    let (ta, tb) = (bool_arg(a, 3, false), bool_arg(a, 4, false));
    let shape = tensor_matmul_shape(lhs, rhs, ta, tb)?;
    let dtype = match (a.dtype(2), lhs.dtype(), rhs.dtype()) {
        (Some(d), _, _) => d,
        (None, Some(l), Some(r)) => promote(l, r),
        (None, l, r) => l.or(r).unwrap_or(DType::Fp32),
    };
    Ok(Type::Tensor { shape, dtype: Some(dtype), distributed: false, layout: Layout::Nd })
}

/// The shape of a tensor matmul (PyPTO's TMM): `[M, K] x [K, N]` is `[M, N]`; a 1-D lhs
/// `[K]` has no M axis and a 1-D rhs `[K]` no N axis; operands of rank 3 and more carry
/// leading batch axes, broadcast. `a_trans`/`b_trans` (which swap the last two axes) need
/// an operand of rank 2 or more; K must agree when both are literals. An operand of
/// unknown rank (a bare `pl.Tensor`) is taken as 2-D, as PyPTO's op does: `[M, N]` with
/// the extents that are known.
fn tensor_matmul_shape(lhs: &Type, rhs: &Type, ta: bool, tb: bool) -> Result<Option<Vec<Dim>>, String> {
    let (Some(l), Some(r)) = (lhs.shape(), rhs.shape()) else {
        let m = extent(lhs, if ta { 1 } else { 0 });
        let n = extent(rhs, if tb { 0 } else { 1 });
        return Ok(Some(vec![m, n]));
    };
    for (name, s, t) in [("lhs", l, ta), ("rhs", r, tb)] {
        if s.is_empty() {
            return Err(format!("{name} must have at least 1 dimension"));
        }
        if t && s.len() < 2 {
            return Err(format!(
                "{}_trans needs a {name} of 2 or more dimensions",
                if name == "lhs" { "a" } else { "b" }
            ));
        }
    }
    let (lr, rr) = (l.len(), r.len());
    let (m, k1) = match lr {
        1 => (None, l[0]),
        _ if ta => (Some(l[lr - 1]), l[lr - 2]),
        _ => (Some(l[lr - 2]), l[lr - 1]),
    };
    let (k2, n) = match rr {
        1 => (r[0], None),
        _ if tb => (r[rr - 1], Some(r[rr - 2])),
        _ => (r[rr - 2], Some(r[rr - 1])),
    };
    if let (Dim::Const(k1), Dim::Const(k2)) = (k1, k2) {
        if k1 != k2 {
            return Err(format!("the K extents differ: {k1} in lhs and {k2} in rhs"));
        }
    }
    let batch = |s: &[Dim]| s[..s.len().saturating_sub(2)].to_vec();
    let mut shape = broadcast(&batch(l), &batch(r))
        .map_err(|m| format!("the batch dimensions of lhs and rhs do not broadcast: {m}"))?;
    shape.extend(m.into_iter().chain(n));
    Ok(Some(shape))
}

/// `matmul_bias(lhs, rhs, bias, out_dtype=None, ...)`, `gemv_bias(...)`: as `matmul`; a tile
/// bias must have the accumulator dtype.
fn matmul_bias(a: &dyn Args) -> Result<Type, String> {
    let (lhs, rhs) = (a.ty(0).ok_or("missing lhs")?, a.ty(1).ok_or("missing rhs")?);
    if lhs.is_tile() {
        let acc = tile_matmul_operands(lhs, rhs)?;
        expect_acc("the bias", a.ty(2).and_then(Type::dtype), acc, lhs.dtype())?;
        if let Some(bias) = a.ty(2).and_then(Type::shape) {
            let n = extent(rhs, 1);
            let row = bias.len() == 2 && bias[0] == Dim::Const(1);
            let cols = !matches!((bias.get(1), n), (Some(Dim::Const(x)), Dim::Const(y)) if *x != y);
            if !row || !cols {
                return Err("the bias must be a [1, N] tile, N the product's columns".to_string());
            }
        }
        return Ok(Type::Tile {
            shape: vec![extent(lhs, 0), extent(rhs, 1)],
            dtype: acc,
            memory: Some(MemorySpace::Acc),
        });
    }
    let (ta, tb) = (bool_arg(a, 4, false), bool_arg(a, 5, false));
    let m = extent(lhs, if ta { 1 } else { 0 });
    let n = extent(rhs, if tb { 0 } else { 1 });
    let dtype = a.dtype(3).or(lhs.dtype()).unwrap_or(DType::Fp32);
    Ok(Type::tensor(vec![m, n], dtype))
}

/// `matmul_acc(acc, lhs, rhs, ...)`, `gemv_acc(...)`: the accumulator, which must already
/// have the accumulator dtype of the inputs (FP32 for float, INT32 for INT8); `init_cond`
/// (argument `init_cond`) a BOOL scalar.
fn matmul_acc(a: &dyn Args, init_cond: Option<usize>) -> Result<Type, String> {
    let acc = a.ty(0).ok_or("missing acc")?;
    let (lhs, rhs) = (a.ty(1).ok_or("missing lhs")?, a.ty(2).ok_or("missing rhs")?);
    let want = if lhs.is_tile() {
        tile_matmul_operands(lhs, rhs)?
    } else {
        match (lhs.dtype(), rhs.dtype()) {
            (Some(l), Some(r)) if l != r => {
                return Err(format!("lhs and rhs must have the same dtype, got {} and {}", l.name(), r.name()))
            }
            (l, _) => acc_dtype(l.unwrap_or(DType::Fp32)),
        }
    };
    expect_acc("the accumulator acc", acc.dtype(), want, lhs.dtype())?;
    // The accumulator has the product's shape: [M, N] of tiles, the batch axes and
    // [M, N] of tensors (PyPTO: "K, M, N and batch dims agree").
    let product = if lhs.is_tile() {
        Some(vec![extent(lhs, 0), extent(rhs, 1)])
    } else {
        tensor_matmul_shape(lhs, rhs, bool_arg(a, 3, false), bool_arg(a, 4, false))?
    };
    if let (Some(p), Some(s)) = (product, acc.shape()) {
        let differs = |(x, y): (&Dim, &Dim)| matches!((x, y), (Dim::Const(x), Dim::Const(y)) if x != y);
        if p.len() != s.len() || p.iter().zip(s).any(differs) {
            return Err(format!(
                "the accumulator acc must have the product's shape {}, got {}",
                shape_text(&p),
                shape_text(s)
            ));
        }
    }
    if let Some(i) = init_cond {
        check_init_cond(a, i)?;
    }
    Ok(acc.clone())
}

/// `matmul_acc(acc, lhs, rhs, init_cond=None)` of tiles; the tensor form has `a_trans`,
/// `b_trans` before `init_cond`.
fn tile_matmul_acc(a: &dyn Args) -> Result<Type, String> {
    matmul_acc(a, Some(3))
}

fn tensor_matmul_acc(a: &dyn Args) -> Result<Type, String> {
    matmul_acc(a, Some(5))
}

fn gemv_acc(a: &dyn Args) -> Result<Type, String> {
    matmul_acc(a, None)
}

/// `row_*(x)`: the last axis reduced and kept as 1, the leading axes kept (PyPTO's TRED
/// with `axis=-1` at tensor level, ROWRED `shape[:-1] + [1]` at tile level); an operand
/// without axes has no last axis to reduce.
fn row_reduce(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let Some(shape) = ty.shape() else { return Ok(ty.clone()) };
    let Some((_, leading)) = shape.split_last() else {
        return Err("needs an operand of at least 1 dimension: it reduces the last axis".to_string());
    };
    let mut shape = leading.to_vec();
    shape.push(Dim::Const(1));
    Ok(with_shape(ty, shape))
}

/// `col_*(x)`, every column reduction row (tensor, tile, and so `pl.col_*`): the axis of
/// [`Axis::col_axis`] reduced and kept as 1, the others kept; PyPTO needs 2 axes.
fn col_reduce(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let Some(shape) = ty.shape() else { return Ok(ty.clone()) };
    let tile = matches!(ty, Type::Tile { .. });
    let Some(k) = Axis::col_axis_of(tile, shape.len()) else {
        return Err(format!("a column reduction needs at least 2 axes, the operand has {}", shape.len()));
    };
    let mut shape = shape.to_vec();
    shape[k] = Dim::Const(1);
    Ok(with_shape(ty, shape))
}

/// `transpose(x, axis1, axis2)`: `x` with two distinct axes swapped (negative axes count
/// from the end); `x` has at least 2 dimensions.
fn transposed(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    if let (Some(tmp), true) = (a.ty(3), ty.is_tile()) {
        if let (Some(x), Some(t)) = (ty.dtype(), tmp.dtype()) {
            if x != t {
                return Err(format!("the tmp tile must have the input's dtype {}, got {}", x.name(), t.name()));
            }
        }
        if let (Some(x), Some(t)) = (ty.shape(), tmp.shape()) {
            if x.len() != t.len() {
                return Err(format!("the tmp tile must have the input's rank {}, got {}", x.len(), t.len()));
            }
        }
    }
    let Some(shape) = ty.shape() else { return Ok(ty.clone()) };
    let mut shape = shape.to_vec();
    if shape.len() < 2 {
        return Err(format!("needs an operand of at least 2 dimensions, got {}", shape.len()));
    }
    let (Some(i), Some(j)) = (a.int(1), a.int(2)) else { return Ok(with_shape(ty, shape)) };
    let (i, j) = (axis_in_range(i, shape.len())?, axis_in_range(j, shape.len())?);
    if i == j {
        return Err(format!("the two axes must differ, both are axis {i}"));
    }
    shape.swap(i, j);
    Ok(with_shape(ty, shape))
}

/// `store(tile, offsets, output_tensor, shapes=None)`: the output tensor's type; a
/// `shapes` list, when given, is non-empty and has as many items as `offsets`.
fn stored(a: &dyn Args) -> Result<Type, String> {
    st_phase(a, 7)?;
    // PyPTO: "tile.store does not support MX-layout" destinations (their scales are
    // written blocked, by the MX quantizer, not by a store).
    not_mx(a, 2)?;
    if a.rank(3) == Some(0) {
        return Err("the shapes list, when given, must have at least one extent".to_string());
    }
    same_rank(a, 3, 1, ("shapes", "offsets"))?;
    atomic_add_dtype(a, 4, 0)?;
    same_as_third(a)
}

/// With `atomic=pl.AtomicType.Add` (argument `i`), the data (argument `data`) is of a dtype
/// PyPTO's atomic accumulation takes: FP32, BF16, FP16, INT32, INT16 or INT8.
fn atomic_add_dtype(a: &dyn Args, i: usize, data: usize) -> Result<(), String> {
    use super::enums::AtomicType;
    if !matches!(a.enum_value(i), Some(EnumValue::AtomicType(AtomicType::Add))) {
        return Ok(());
    }
    let ok = |d| matches!(d, DType::Fp32 | DType::Bf16 | DType::Fp16 | DType::Int32 | DType::Int16 | DType::Int8);
    dtype_of(a, data, "the data of atomic=pl.AtomicType.Add", "FP32, BF16, FP16, INT32, INT16 or INT8", ok)
}

/// `st_phase=` of `pl.store` (argument `i`): `pl.STPhase.X`, or its name in lower case as
/// PyPTO's newer releases also spell it (`st_phase="final"`); a hint either way.
fn st_phase(a: &dyn Args, i: usize) -> Result<(), String> {
    const NAMES: [&str; 3] = ["unspecified", "partial", "final"];
    if !a.present(i) || matches!(a.enum_value(i), Some(EnumValue::StPhase(_))) {
        return Ok(());
    }
    match a.text(i) {
        Some(t) if NAMES.contains(&t.as_str()) => Ok(()),
        Some(t) => Err(format!("unknown st_phase '{t}': it is one of 'unspecified', 'partial', 'final'")),
        None => Err("st_phase must be pl.STPhase.<name> or one of 'unspecified', 'partial', 'final'".to_string()),
    }
}

/// `concat(src0, src1)`: two 2-D operands of one dtype and as many rows, joined along
/// the columns.
fn concat(a: &dyn Args) -> Result<Type, String> {
    let (x, y) = (a.ty(0).ok_or("missing argument")?, a.ty(1).ok_or("missing argument")?);
    for t in [x, y] {
        if let Some(s) = t.shape().filter(|s| s.len() != 2) {
            return Err(format!("the operands must be 2-D, got one of {} dimension(s)", s.len()));
        }
    }
    if let (Some(p), Some(q)) = (x.dtype(), y.dtype()) {
        if p != q {
            return Err(format!("the operands must have the same dtype, got {} and {}", p.name(), q.name()));
        }
    }
    if let (Dim::Const(r0), Dim::Const(r1)) = (extent(x, 0), extent(y, 0)) {
        if r0 != r1 {
            return Err(format!("the operands must have as many rows, got {r0} and {r1}"));
        }
    }
    let mut shape = x.shape().map(<[Dim]>::to_vec).unwrap_or_default();
    if let (Some(Dim::Const(p)), Some(Dim::Const(q))) =
        (shape.last().copied(), y.shape().and_then(|s| s.last().copied()))
    {
        *shape.last_mut().expect("checked") = Dim::Const(p + q);
    } else if let Some(last) = shape.last_mut() {
        *last = Dim::Unknown;
    }
    Ok(with_shape(x, shape))
}

/// A view with the last two extents swapped (`pl.tile.transpose_view`).
fn transposed_last_two(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let Some(shape) = ty.shape() else { return Ok(ty.clone()) };
    let mut shape = shape.to_vec();
    swap_last_two(&mut shape);
    Ok(with_shape(ty, shape))
}

/// `sum` / `max` / `min` along `axis` (argument 1), keeping the axis as 1 or dropping it
/// (argument 2). Tensors default to `axis=-1, keep_dim=True`, tiles to `keepdim=False`.
fn axis_reduced(a: &dyn Args, default_axis: i64, default_keep: bool) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let Some(shape) = ty.shape() else { return Ok(ty.clone()) };
    let mut shape = shape.to_vec();
    let axis = if a.present(1) { a.int(1) } else { Some(default_axis) };
    let keep = bool_arg(a, 2, default_keep);
    let rank = shape.len() as i64;
    if let Some(x) = axis {
        axis_in_range(x, shape.len())?;
    }
    match axis.map(|x| if x < 0 { x + rank } else { x }) {
        Some(x) if (0..rank).contains(&x) => {
            if keep {
                shape[x as usize] = Dim::Const(1);
            } else {
                shape.remove(x as usize);
            }
        }
        _ => shape = vec![Dim::Unknown; if keep { shape.len() } else { shape.len().saturating_sub(1) }],
    }
    Ok(with_shape(ty, shape))
}

fn tensor_axis_reduce(a: &dyn Args) -> Result<Type, String> {
    axis_reduced(a, -1, true)
}

fn tile_axis_reduce(a: &dyn Args) -> Result<Type, String> {
    axis_reduced(a, 0, false)
}

/// `sort32(src, idx)`: value-index pairs, the last extent doubled.
fn sort32(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    // PyPTO: an FP16/FP32 source, a UINT32 index of its shape.
    if let Some(d) = ty.dtype().filter(|d| !matches!(d, DType::Fp16 | DType::Fp32)) {
        return Err(format!("the source must be FP16 or FP32, got {}", d.name()));
    }
    if let Some(d) = a.ty(1).and_then(Type::dtype).filter(|&d| d != DType::UInt32) {
        return Err(format!("the index must be UINT32, got {}", d.name()));
    }
    let Some(shape) = ty.shape() else { return Ok(ty.clone()) };
    let mut shape = shape.to_vec();
    if let Some(last) = shape.last_mut() {
        *last = match *last {
            Dim::Const(n) => Dim::Const(2 * n),
            _ => Dim::Unknown,
        };
    }
    Ok(with_shape(ty, shape))
}

/// Gather by a hardware mask pattern: the last extent shrinks by the pattern's stride
/// (2 for `P0101`/`P1010`, 4 for `P0001`..`P1000`, 1 for `P1111`; PyPTO also takes the
/// codes 1-7), the dtype becomes `output_dtype` when given.
fn gathered_by_mask(a: &dyn Args, src: usize, mask: usize, output_dtype: usize) -> Result<Type, String> {
    let ty = a.ty(src).ok_or("missing argument")?;
    let stride = match a.enum_value(mask) {
        Some(EnumValue::MaskPattern(p)) => match p.name() {
            "P0101" | "P1010" => Some(2),
            "P1111" => Some(1),
            _ => Some(4),
        },
        _ => match a.int(mask) {
            Some(1 | 2) => Some(2),
            Some(3..=6) => Some(4),
            Some(7) => Some(1),
            _ => None,
        },
    };
    let mut out = ty.clone();
    if let Some(shape) = ty.shape() {
        let mut shape = shape.to_vec();
        if let Some(last) = shape.last_mut() {
            *last = match (*last, stride) {
                (d, Some(1)) => d,
                (Dim::Const(n), Some(s)) => Dim::Const(n / s),
                _ => Dim::Unknown,
            };
        }
        out = with_shape(ty, shape);
    }
    Ok(match a.dtype(output_dtype) {
        Some(d) => with_dtype(&out, d),
        None => out,
    })
}

/// Gather by an index operand: the shape of the index, the dtype of the source.
fn gathered_by_index(a: &dyn Args, src: usize, index: usize) -> Result<Type, String> {
    let dtype = a.ty(src).ok_or("missing argument")?.dtype();
    let index = a.ty(index).ok_or("missing index")?;
    Ok(match dtype {
        Some(d) => with_dtype(index, d),
        None => index.clone(),
    })
}

/// `pl.tensor.gather(input, dim=None, index=None, *, mask_pattern=None, output_dtype=None,
/// kvalue=None, cmp_mode=None, out_cols=None, offset=0, count_dtype=None)`.
fn tensor_gather(a: &dyn Args) -> Result<Type, String> {
    let index = a.present(1) || a.present(2);
    let mask = a.present(3);
    let compare = a.present(5) || a.present(6) || a.present(7);
    if [index, mask, compare].iter().filter(|&&f| f).count() > 1 {
        return Err("the index form (dim, index), mask_pattern= and the compare form (kvalue=, cmp_mode=, \
                    out_cols=) are mutually exclusive"
            .to_string());
    }
    if mask {
        return gathered_by_mask(a, 0, 3, 4);
    }
    if compare {
        return gathered_by_compare(a, "input", [5, 6, 8, 7, 9]);
    }
    if a.present(2) {
        return gathered_by_index(a, 0, 2);
    }
    Err("give (dim, index), mask_pattern=, or kvalue=, cmp_mode= and out_cols=".to_string())
}

/// `pl.tensor.gather_compare(input, kvalue, cmp_mode=, offset=0, out_cols=, count_dtype=None)`.
fn tensor_gather_compare(a: &dyn Args) -> Result<Type, String> {
    if !a.present(2) {
        return Err("cmp_mode= is required".to_string());
    }
    gathered_by_compare(a, "input", [1, 2, 3, 4, 5])
}

/// `pl.tile.gather_compare(src, kvalue, tmp, cmp_mode='eq', offset=0, out_cols=, count_dtype=None)`.
fn tile_gather_compare(a: &dyn Args) -> Result<Type, String> {
    gathered_by_compare(a, "src", [1, 3, 4, 5, 6])
}

/// The names `cmp_mode` takes, at their codes (`cmp_type`'s codes).
pub const CMP_MODES: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

/// The code of a `cmp_mode` given by name or code, `eq` (0) when absent.
pub fn cmp_mode_code(name: Option<&str>, code: Option<i64>) -> Option<i64> {
    match (name, code) {
        (Some(n), _) => CMP_MODES.iter().position(|m| m.eq_ignore_ascii_case(n)).map(|k| k as i64),
        (None, Some(k)) => (0..6).contains(&k).then_some(k),
        (None, None) => Some(0),
    }
}

/// The compare form of gather (see [`Special::GatherCompare`]): a pair of the positions
/// (INT32, `[rows, out_cols]`) and the counts (`count_dtype`, INT32 or UINT32, `[1, rows]`).
/// `out_cols` is keyword-only and required in PyPTO; an optional parameter here, so that it
/// prints as a keyword, and checked by this rule.
/// `slots` are the arguments kvalue, cmp_mode, offset, out_cols and count_dtype; `what` names
/// the source in messages (PyPTO's words: `src` for tiles, `input` for tensors).
fn gathered_by_compare(a: &dyn Args, what: &str, slots: [usize; 5]) -> Result<Type, String> {
    let [kvalue, cmp, _offset, out_cols, count] = slots;
    let ty = a.ty(0).ok_or("missing argument")?;
    let dtype = ty.dtype();
    if let Some(d) = dtype {
        if !matches!(d, DType::Fp16 | DType::Fp32 | DType::Int16 | DType::Int32) {
            return Err(format!("{what} dtype {} is not one of FP16, FP32, INT16, INT32", d.name()));
        }
    }
    let rows = match ty.shape() {
        Some([rows, _]) => *rows,
        Some(shape) => return Err(format!("the {what} must be 2-D, not of rank {}", shape.len())),
        None => Dim::Unknown,
    };
    if let (Some(Type::Scalar(k)), Some(d)) = (a.ty(kvalue), dtype) {
        if *k != d && !a.is_literal(kvalue) {
            return Err(format!("kvalue dtype {} differs from the {what} dtype {}", k.name(), d.name()));
        }
    }
    if a.present(cmp) && cmp_mode_code(a.text(cmp).as_deref(), a.int(cmp)).is_none() {
        return Err(format!("cmp_mode must be one of {} or a code 0..5", CMP_MODES.join(", ")));
    }
    let cols = match a.int(out_cols) {
        Some(n) if n > 0 => n,
        _ => return Err("out_cols= must be given, a positive integer constant".to_string()),
    };
    let counted = a.dtype(count).unwrap_or(DType::Int32);
    if !matches!(counted, DType::Int32 | DType::UInt32) {
        return Err(format!("count_dtype must be INT32 or UINT32, not {}", counted.name()));
    }
    let make = |shape: Vec<Dim>, dtype: DType| match ty {
        Type::Tile { .. } => Type::Tile { shape, dtype, memory: Some(MemorySpace::Vec) },
        _ => Type::tensor(shape, dtype),
    };
    let positions = make(vec![rows, Dim::Const(cols)], DType::Int32);
    let counts = make(vec![Dim::Const(1), rows], counted);
    a.tuple(vec![positions, counts]).ok_or_else(|| "a result of several values is not known here".to_string())
}

/// `pl.tile.gather(src, indices, tmp)`.
fn tile_gather(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "src", "FP16, FP32, INT16 or INT32", |d| {
        matches!(d, DType::Fp16 | DType::Fp32 | DType::Int16 | DType::Int32)
    })?;
    let src16 = a.ty(0).and_then(Type::dtype).is_some_and(|d| d.bytes() == 2);
    if let Some(d) = a.ty(1).and_then(Type::dtype) {
        if d != DType::Int32 && !(src16 && d == DType::Int16) {
            let expect = if src16 { "INT32 or INT16" } else { "INT32" };
            return Err(format!("the indices must be {expect}, got {}", d.name()));
        }
    }
    gathered_by_index(a, 0, 1)
}

/// `pl.tile.gather_mask(src, mask_pattern, output_dtype=None)`: a code of 1 to 7, an
/// output dtype of the source's width (the bits are reinterpreted).
fn tile_gather_mask(a: &dyn Args) -> Result<Type, String> {
    if let Some(code) = a.int(1).filter(|c| !(1..=7).contains(c)) {
        return Err(format!("mask_pattern must be 1 to 7 (pl.tile.MaskPattern), got {code}"));
    }
    if let (Some(src), Some(out)) = (a.ty(0).and_then(Type::dtype), a.dtype(2)) {
        if src.bytes() != out.bytes() {
            return Err(format!(
                "output_dtype must have the source's width ({}, {} bytes), got {} ({} bytes)",
                src.name(),
                src.bytes(),
                out.name(),
                out.bytes()
            ));
        }
    }
    gathered_by_mask(a, 0, 1, 2)
}

/// `ci(start, shape, dtype=INT32, descending=False)` (also spelled `arange`).
fn tensor_ci(a: &dyn Args) -> Result<Type, String> {
    let dtype = a.dtype(2).unwrap_or(DType::Int32);
    if !matches!(dtype, DType::Int16 | DType::Int32 | DType::UInt16 | DType::UInt32) {
        return Err(format!("dtype must be INT16, INT32, UINT16 or UINT32, got {}", dtype.name()));
    }
    if let Some(Dim::Const(1)) = a.dims(1).and_then(|s| s.last().copied()) {
        return Err("the last extent of the shape must not be 1".to_string());
    }
    Ok(Type::tensor(shape_arg(a, 1)?, dtype))
}

fn tile_ci(a: &dyn Args) -> Result<Type, String> {
    if let Some(d) = a.dtype(2).filter(|d| !matches!(d, DType::Int16 | DType::Int32 | DType::UInt16 | DType::UInt32)) {
        return Err(format!("dtype must be INT16, INT32, UINT16 or UINT32, got {}", d.name()));
    }
    if let Some(Dim::Const(1)) = a.dims(1).and_then(|s| s.last().copied()) {
        return Err("the last extent of the shape must not be 1".to_string());
    }
    Ok(Type::Tile {
        shape: shape_arg(a, 1)?,
        dtype: a.dtype(2).unwrap_or(DType::Int32),
        memory: Some(MemorySpace::Vec),
    })
}

/// `pld.all_reduce(target, *, op=Sum, mode="mesh", nranks=None)`: the mesh form takes no
/// `nranks`; the ring form needs a positive constant `nranks`, `ReduceOp.Sum` and an FP32
/// target (its signal's shape and its schedule are fixed at compile time).
fn all_reduce_wrapper(a: &dyn Args) -> Result<Type, String> {
    if collective_mode(a, 2)? == "mesh" {
        if a.present(3) {
            return Err("`nranks` is taken only with mode=\"ring\"; omit it for the mesh form".to_string());
        }
    } else {
        if !matches!(a.int(3), Some(n) if n > 0) {
            return Err(
                "mode=\"ring\" needs `nranks`, a positive constant int (its signal's shape is fixed at compile time)"
                    .to_string(),
            );
        }
        sum_only(a, 1, "mode=\"ring\"")?;
        dtype_of(a, 0, "the target of mode=\"ring\"", "FP32", |d| d == DType::Fp32)?;
    }
    same_as_first(a)
}

/// `pld.reduce_scatter(target, *, op=Sum)`: the host collective implements `Sum` only.
fn reduce_scatter_wrapper(a: &dyn Args) -> Result<Type, String> {
    sum_only(a, 1, "the host reduce-scatter")?;
    same_as_first(a)
}

/// `tile.sel(mask, lhs, rhs, tmp)`: the type of `lhs`, whose shape and `rhs`'s broadcast
/// (PyPTO: "lhs/rhs promotable and broadcastable").
fn tile_sel(a: &dyn Args) -> Result<Type, String> {
    if let (Some(l), Some(r)) = (a.ty(1).and_then(Type::shape), a.ty(2).and_then(Type::shape)) {
        broadcast(l, r).map_err(|m| format!("the shapes of lhs and rhs must broadcast: {m}"))?;
    }
    same_as_second(a)
}

/// `tile.sels(mask, src, tmp, scalar)`: the type of `src`. PyPTO's checks: a 2-D mask of
/// 8, 16 or 32-bit integers; a 2-D `src` of INT8..UINT32, FP16 or FP32; a 2-D `tmp`; a
/// scalar of `src`'s dtype (the signed twin of an unsigned one; a literal takes it). The
/// older `sels(lhs, rhs, select_mode)`, with no scalar, is not checked so.
fn tile_sels(a: &dyn Args) -> Result<Type, String> {
    if a.present(3) {
        let rank2 = |i: usize| a.ty(i).and_then(Type::shape).is_none_or(|s| s.len() == 2);
        for (i, name) in [(0, "mask"), (1, "src"), (2, "tmp")] {
            if !rank2(i) {
                return Err(format!("the {name} of sels must be 2-D"));
            }
        }
        if let Some(m) = a.ty(0).and_then(Type::dtype) {
            if !(m.is_int() && matches!(m.bytes(), 1 | 2 | 4)) {
                return Err(format!("the mask of sels must hold 8, 16 or 32-bit integers, got {}", m.name()));
            }
        }
        if let Some(d) = a.ty(1).and_then(Type::dtype) {
            use DType::*;
            if !matches!(d, Int8 | UInt8 | Int16 | UInt16 | Int32 | UInt32 | Fp16 | Fp32) {
                return Err(format!(
                    "the src of sels must be INT8, UINT8, INT16, UINT16, INT32, UINT32, FP16 or FP32, got {}",
                    d.name()
                ));
            }
            let want = match d {
                UInt8 => Int8,
                UInt16 => Int16,
                UInt32 => Int32,
                other => other,
            };
            if let Some(Type::Scalar(v)) = a.ty(3) {
                if *v != want && *v != d && !a.is_literal(3) {
                    return Err(format!("the scalar of sels must have dtype {}, got {}", want.name(), v.name()));
                }
            }
        }
    }
    same_as_second(a)
}

fn same_as_second(a: &dyn Args) -> Result<Type, String> {
    a.ty(1).cloned().ok_or_else(|| "missing second argument".to_string())
}

/// `l0c_store(tile, offsets, shapes, output_tensor)`: the output tensor.
fn same_as_fourth(a: &dyn Args) -> Result<Type, String> {
    a.ty(3).cloned().ok_or_else(|| "missing output argument".to_string())
}

/// `pl.op.block.store(tile, row, col, height, width, output_tensor)`: the output tensor.
fn same_as_sixth(a: &dyn Args) -> Result<Type, String> {
    a.ty(5).cloned().ok_or_else(|| "missing output argument".to_string())
}

/// Values plc has no type for (a window-buffer `Ptr`, a `CommCtx`, an optimisation entry).
fn unknown(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::Unknown)
}

fn int32_scalar(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::Scalar(DType::Int32))
}

fn int64_scalar(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::Scalar(DType::Int64))
}

/// `buf = pld.alloc_window_buffer(size)` or `(shape, dtype=...)`: a window buffer (a `Ptr`
/// plc has no type for). The byte form takes a scalar size and no dtype; the shape form a
/// non-empty list of positive extents and the dtype of its elements. Where the call may
/// stand (a simple assignment in host orchestration code) is checked where it is lowered.
fn window_buffer(a: &dyn Args) -> Result<Type, String> {
    match a.dims(0) {
        Some(_) if !a.present(1) => {
            Err("the shape form pld.alloc_window_buffer([d0, ...], dtype=...) requires dtype=".to_string())
        }
        Some(dims) if dims.is_empty() => Err("the shape must be non-empty".to_string()),
        Some(dims) => match dims.iter().find(|d| matches!(d, Dim::Const(n) if *n <= 0)) {
            Some(Dim::Const(n)) => Err(format!("all dimensions must be positive, got {n}")),
            _ => Ok(Type::Unknown),
        },
        None if a.present(1) => {
            Err("dtype= is only valid when the first argument is a shape (a list of extents), not a byte size"
                .to_string())
        }
        None => Ok(Type::Unknown),
    }
}

/// `pld.window(buf, shape, *, dtype)`: a distributed tensor viewing a window buffer; `buf`
/// is the `Ptr` handle `pld.alloc_window_buffer` bound (a value plc has no type for).
fn window(a: &dyn Args) -> Result<Type, String> {
    if let Some(t) = a.ty(0).filter(|t| !matches!(t, Type::Unknown)) {
        return Err(format!(
            "buf must be the Ptr handle of a window buffer (`buf = pld.alloc_window_buffer(...)`), got {}",
            t.kind_name()
        ));
    }
    Ok(Type::Tensor {
        shape: Some(shape_arg(a, 1)?),
        dtype: Some(dtype_arg(a, 2)?),
        distributed: true,
        layout: Layout::Nd,
    })
}

/// The target of a one-sided transfer (argument `i`): a window other ranks can reach.
fn window_target(a: &dyn Args, i: usize) -> Result<(), String> {
    match a.ty(i) {
        Some(t @ Type::Tensor { distributed: false, .. }) => Err(format!(
            "the target must be a pld.DistributedTensor (a window every rank can reach), got a plain {}",
            t.kind_name()
        )),
        _ => Ok(()),
    }
}

/// A list (argument `i`) with one entry per dimension of the target (argument `target`).
fn per_target_dim(a: &dyn Args, target: usize, i: usize, what: &str) -> Result<(), String> {
    if let (Some(rank), Some(items)) = (a.ty(target).and_then(Type::shape).map(<[Dim]>::len), a.rank(i)) {
        if items != rank {
            return Err(format!("{what} needs one entry per dimension of the target: {rank}, got {items}"));
        }
    }
    Ok(())
}

/// `pld.tile.remote_load(target, peer, offsets, shape, valid_shape=None)`: a local tile.
fn remote_load(a: &dyn Args) -> Result<Type, String> {
    window_target(a, 0)?;
    not_mx(a, 0)?;
    for (i, what) in [(2, "offsets"), (3, "shape"), (4, "valid_shape")] {
        per_target_dim(a, 0, i, what)?;
    }
    let dtype = a.ty(0).and_then(Type::dtype).unwrap_or(DType::Fp32);
    Ok(Type::Tile { shape: shape_arg(a, 3)?, dtype, memory: Some(MemorySpace::Vec) })
}

/// `pld.tile.remote_store(src_tile, target, peer, offsets)` (and the tensor form): writes
/// into a peer's window, one offset per dimension of the target, of the source's dtype.
fn remote_store(a: &dyn Args) -> Result<Type, String> {
    window_target(a, 1)?;
    per_target_dim(a, 1, 3, "offsets")?;
    if let (Some(p), Some(q)) = (a.ty(0).and_then(Type::dtype), a.ty(1).and_then(Type::dtype)) {
        if p != q {
            return Err(format!(
                "the source and the target must have the same dtype, got {} and {}",
                p.name(),
                q.name()
            ));
        }
    }
    Ok(Type::None)
}

fn array(a: &dyn Args) -> Result<Type, String> {
    let len = a.int(0).ok_or("the array length must be an integer constant")?;
    Ok(Type::Array { len: len.max(0) as u32, dtype: dtype_arg(a, 1)? })
}

fn array_element(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Array { dtype, .. }) => Ok(Type::Scalar(*dtype)),
        _ => Err("expected a pl.Array".to_string()),
    }
}

// ---------------------------------------------------------------- result rules of the rows added for ops.md §5.1

/// `sin`, `cos`: the operand's type; PyPTO computes them on FP32 only.
fn fp32_same(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    match ty.dtype() {
        Some(d) if d != DType::Fp32 => {
            Err(format!("the dtype must be FP32, got {}; convert first with pl.cast(x, pl.FP32)", d.name()))
        }
        _ => Ok(ty.clone()),
    }
}

/// The tile reductions that need a scratch tile (`row_prod`, `row_argmax`): it must have
/// the input's dtype and rank.
fn check_tmp_tile(a: &dyn Args) -> Result<(), String> {
    let (Some(x), Some(tmp)) = (a.ty(0), a.ty(1)) else { return Ok(()) };
    if x.dtype().is_some() && tmp.dtype().is_some() && x.dtype() != tmp.dtype() {
        return Err("tmp_tile must have the input's dtype".to_string());
    }
    match (x.shape(), tmp.shape()) {
        (Some(p), Some(q)) if p.len() != q.len() => Err("tmp_tile must have the input's rank".to_string()),
        (Some(p), Some(q)) => {
            for (axis, (x, t)) in p.iter().zip(q).enumerate() {
                if let (Dim::Const(x), Dim::Const(t)) = (x, t) {
                    if t < x {
                        return Err(format!(
                            "tmp_tile must be at least the input's shape: axis {axis} has {t}, the input {x}"
                        ));
                    }
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A tile row reduction (`row_sum`, `row_max`, `row_min`, `row_prod` with a `tmp_tile`):
/// `[rows, 1]` of an input of at least 2 dimensions.
fn tile_row_reduce(a: &dyn Args) -> Result<Type, String> {
    if let Some(s) = a.ty(0).and_then(Type::shape).filter(|s| s.len() < 2) {
        return Err(format!("needs a tile of at least 2 dimensions, got {}", s.len()));
    }
    check_tmp_tile(a)?;
    row_reduce(a)
}

/// The extents `axis` of two 2-D operands agree (`what` names them).
fn same_extent(a: &dyn Args, axis: usize, what: &str) -> Result<(), String> {
    let (Some(x), Some(v)) = (a.ty(0), a.ty(1)) else { return Ok(()) };
    let two_d = |t: &Type| t.shape().is_some_and(|s| s.len() == 2);
    if two_d(x) && two_d(v) {
        if let (Dim::Const(p), Dim::Const(q)) = (extent(x, axis), extent(v, axis)) {
            if p != q {
                return Err(format!("the {what} must match: {p} and {q}"));
            }
        }
    }
    Ok(())
}

/// `row_expand_*(x, row_vec)`: the row vector has `x`'s rows.
fn row_expanded(a: &dyn Args) -> Result<Type, String> {
    same_extent(a, 0, "row counts of the operand and the row vector")?;
    same_as_first(a)
}

/// `col_expand_*(x, col_vec)`: at tensor level the column vector has `x`'s columns (tile
/// forms check only the dtypes).
fn col_expanded(a: &dyn Args) -> Result<Type, String> {
    if matches!(a.ty(0), Some(Type::Tensor { .. })) {
        same_extent(a, 1, "column counts of the operand and the column vector")?;
    }
    same_as_first(a)
}

/// `row_argmax` / `row_argmin`: `[rows, 1]` of INT32 positions.
fn row_arg_reduce(a: &dyn Args) -> Result<Type, String> {
    check_tmp_tile(a)?;
    Ok(with_dtype(&row_reduce(a)?, DType::Int32))
}

/// `col_argmax` / `col_argmin`: the column reduction's shape, of INT32 positions.
fn col_arg_reduce(a: &dyn Args) -> Result<Type, String> {
    check_tmp_tile(a)?;
    Ok(with_dtype(&col_reduce(a)?, DType::Int32))
}

/// `tensor.shl`/`shr`/`shls`/`shrs`: as the other bit ops, and a constant shift count that
/// is not negative.
fn tensor_shift(a: &dyn Args) -> Result<Type, String> {
    let ty = tensor_bitwise(a)?;
    if let Some(n) = a.int(1).filter(|&n| n < 0) {
        return Err(format!("a shift count must not be negative, got {n}"));
    }
    Ok(ty)
}

/// The tensor bit ops (`and_`, `or_`, `xor`, `shl`, `shr` and their `*s` forms): integer
/// operands; a tensor right operand of the left one's shape (PyPTO does not broadcast them).
fn tensor_bitwise(a: &dyn Args) -> Result<Type, String> {
    let lhs = same_as_first(a)?;
    let rhs = a.ty(1).ok_or("missing second argument")?;
    for (ty, side) in [(&lhs, "left"), (rhs, "right")] {
        if let Some(d) = ty.dtype().filter(|d| !d.is_int()) {
            return Err(format!("the {side} operand must have an integer dtype, got {}", d.name()));
        }
    }
    if let (Some(l), Some(r)) = (lhs.shape(), rhs.shape()) {
        if l != r {
            return Err("the operands must have identical shapes (no broadcasting)".to_string());
        }
    }
    Ok(lhs)
}

/// `tensor.div` of two tensors: INT16, INT32, FP16 or FP32, `high_precision=True` only
/// for floats (a scalar right operand is PyPTO's `tensor.divs`, which has neither rule).
fn tensor_div(a: &dyn Args) -> Result<Type, String> {
    let ty = elementwise(a)?;
    if !a.ty(1).is_some_and(|t| matches!(t, Type::Tensor { .. })) {
        return Ok(ty);
    }
    for i in [0, 1] {
        dtype_of(a, i, "the dtype", "INT16, INT32, FP16 or FP32", vector_arith_dtype)?;
        if let Some(d) = a.ty(i).and_then(Type::dtype).filter(|d| bool_arg(a, 2, false) && !d.is_float()) {
            return Err(format!("high_precision=True needs a float dtype, got {}", d.name()));
        }
    }
    Ok(ty)
}

/// `tensor.row_min`: INT16, INT32, FP16 or FP32 (PyPTO's rule).
fn tensor_row_min(a: &dyn Args) -> Result<Type, String> {
    dtype_of(a, 0, "the dtype", "INT16, INT32, FP16 or FP32", vector_arith_dtype)?;
    row_reduce(a)
}

/// `tensor.set_validshape(t, rows, cols)`: a 2-D tensor, constant extents in `0..=shape`.
fn tensor_set_validshape(a: &dyn Args) -> Result<Type, String> {
    let ty = same_as_first(a)?;
    check_set_validshape(a, "tensor")?;
    Ok(ty)
}

/// `tensor.not_`: INT16 or UINT16 (PyPTO's rule).
fn tensor_not(a: &dyn Args) -> Result<Type, String> {
    let ty = same_as_first(a)?;
    dtype_of(a, 0, "the dtype", "INT16 or UINT16", int16_or_uint16)?;
    Ok(ty)
}

// ---- PyPTO's checks of the tensor ops (ops.md §2.2, column "checks")

/// `tensor.assemble(target, source, offset, atomic=)`: an atomic accumulation only of the
/// dtypes PyPTO's atomic add takes.
fn tensor_assemble(a: &dyn Args) -> Result<Type, String> {
    atomic_add_dtype(a, 3, 0)?;
    same_as_first(a)
}

/// `tensor.cmps(lhs, scalar, cmp_type)`: `cmp_type` 0..5, the tensor's type.
fn tensor_cmps(a: &dyn Args) -> Result<Type, String> {
    check_cmp_type(a, 2)?;
    same_as_first(a)
}

/// `tensor.recip(x, high_precision=False)`: the precise form only for FP16 or FP32.
fn tensor_recip(a: &dyn Args) -> Result<Type, String> {
    if bool_arg(a, 1, false) {
        dtype_of(a, 0, "the tensor of high_precision=True", "FP16 or FP32", half_or_single)?;
    }
    same_as_first(a)
}

/// `tensor.subs(lhs, rhs)`: a tensor of INT8, INT16, INT32, FP16, FP32 or BF16.
fn tensor_subs(a: &dyn Args) -> Result<Type, String> {
    let ok = |d| matches!(d, DType::Int8 | DType::Int16 | DType::Int32 | DType::Fp16 | DType::Fp32 | DType::Bf16);
    dtype_of(a, 0, "the tensor", "INT8, INT16, INT32, FP16, FP32 or BF16", ok)?;
    scalar_promoted(a)
}

/// `tensor.xor`/`tensor.xors`: as the other bit ops; the scratch `tmp` belongs to the tile
/// form only (PyPTO's unified `xor` refuses it on tensors).
fn tensor_xor(a: &dyn Args) -> Result<Type, String> {
    if a.present(2) {
        return Err("the tensor form takes no tmp (only pl.tile.xor needs a scratch tile)".to_string());
    }
    tensor_bitwise(a)
}

/// `tensor.sort32(src, idx)`: as the tile form, and a last extent that is a positive
/// multiple of 32.
fn tensor_sort32(a: &dyn Args) -> Result<Type, String> {
    if let Some(Dim::Const(n)) = a.ty(0).and_then(Type::shape).and_then(|s| s.last().copied()) {
        if n <= 0 || n % 32 != 0 {
            return Err(format!("the last extent of the source must be a positive multiple of 32, got {n}"));
        }
    }
    sort32(a)
}

/// `tensor.row_expand_add(x, row_vec)`: operands of one dtype, INT8, INT16, INT32, FP16 or
/// FP32, and the row vector has `x`'s rows.
fn tensor_row_expand_add(a: &dyn Args) -> Result<Type, String> {
    let ok = |d| matches!(d, DType::Int8 | DType::Int16 | DType::Int32 | DType::Fp16 | DType::Fp32);
    dtype_of(a, 0, "the tensor", "INT8, INT16, INT32, FP16 or FP32", ok)?;
    if let (Some(x), Some(v)) = (a.ty(0).and_then(Type::dtype), a.ty(1).and_then(Type::dtype)) {
        if x != v {
            return Err(format!("the row vector must have the tensor's dtype {}, got {}", x.name(), v.name()));
        }
    }
    row_expanded(a)
}

/// The sources of a two-to-four-way merge sort (arguments `0..n`) are FP16 or FP32.
fn mrgsort_sources(a: &dyn Args, n: usize) -> Result<(), String> {
    (0..n).filter(|&i| a.present(i)).try_for_each(|i| dtype_of(a, i, "a source", "FP16 or FP32", half_or_single))
}

/// `part_*(lhs, rhs)`: the operands' shapes broadcast (PyPTO's `bcast`, ops.md §2.2/§2.3),
/// the result has the broadcast shape and the lhs's dtype.
fn part(a: &dyn Args) -> Result<Type, String> {
    let (x, y) = (a.ty(0).ok_or("missing lhs")?, a.ty(1).ok_or("missing rhs")?);
    match (x.shape(), y.shape()) {
        (Some(p), Some(q)) => {
            let shape = broadcast(p, q).map_err(|e| {
                format!(
                    "the operands of a part op must broadcast: {}",
                    e.trim_start_matches("requires compatible shapes: ")
                )
            })?;
            Ok(if shape.as_slice() == p { x.clone() } else { with_shape(x, shape) })
        }
        _ => Ok(x.clone()),
    }
}

fn task_id_scalar(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::Scalar(DType::TaskId))
}

/// Argument `i` must be the handle `want` (an unknown type passes: a value whose type is
/// not known yet).
fn handle_arg(a: &dyn Args, i: usize, param: &str, want: Handle) -> Result<(), String> {
    match a.ty(i) {
        Some(Type::Handle(h)) if *h == want => Ok(()),
        None | Some(Type::Unknown) => Ok(()),
        Some(t) => Err(format!("expected {param} to be {}, got {}", want.name(), t.kind_name())),
    }
}

/// `pld.get_comm_ctx(dist_tensor)`: the communication context of a window-bound
/// tensor; a plain `pl.Tensor` has none (PyPTO: *expected a DistributedTensor*).
fn get_comm_ctx(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Tensor { distributed: false, .. }) => {
            Err("expected a DistributedTensor (pld.DistributedTensor[...]), got a plain Tensor".to_string())
        }
        _ => Ok(Type::Handle(Handle::CommCtx)),
    }
}

/// `pld.rank(ctx)` / `pld.nranks(ctx)`: an INT32 scalar read from a `CommCtx`.
fn comm_ctx_query(a: &dyn Args) -> Result<Type, String> {
    handle_arg(a, 0, "ctx", Handle::CommCtx)?;
    Ok(Type::Scalar(DType::Int32))
}

/// `pl.prefetch.make_context()`: a prefetch context.
fn prefetch_make_context(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::Handle(Handle::PrefetchContext))
}

/// `pl.prefetch.async_prefetch(src, ctx)`: an event; `src` a flat contiguous 1-D tensor.
fn prefetch_async(a: &dyn Args) -> Result<Type, String> {
    // Logically 1-D: at most one extent other than 1 (`[1, 1, 256]`).
    if let Some(shape) = a.ty(0).and_then(Type::shape) {
        if shape.iter().filter(|d| **d != Dim::Const(1)).count() > 1 {
            return Err(format!(
                "src must be a flat contiguous logical 1D tensor (at most one extent other than 1), got {} extents",
                shape.len()
            ));
        }
    }
    handle_arg(a, 1, "ctx", Handle::PrefetchContext)?;
    Ok(Type::Handle(Handle::AsyncEvent))
}

/// `pl.prefetch.session(ctx)`: a session of the context.
fn prefetch_session(a: &dyn Args) -> Result<Type, String> {
    handle_arg(a, 0, "ctx", Handle::PrefetchContext)?;
    Ok(Type::Handle(Handle::AsyncSession))
}

/// `pl.prefetch.wait(event, session_handle)`: whether the event completed.
fn prefetch_wait(a: &dyn Args) -> Result<Type, String> {
    handle_arg(a, 0, "event", Handle::AsyncEvent)?;
    handle_arg(a, 1, "session", Handle::AsyncSession)?;
    Ok(Type::Scalar(DType::Bool))
}

/// `aic_initialize_pipe` / `aiv_initialize_pipe`: `dir_mask=` and `slot_size=` are required
/// (keyword-only after two optional positional parameters); `slot_num=` and
/// `local_slot_num=`, when given, are positive (PyPTO's codegen checks). As PTOAS verifies
/// the frontend pipe set-up: `dir_mask=` is 1 (cube to vector), 2 (vector to cube) or 3
/// (both), and `local_slot_num=` is at most the pipe's slots ([`pipe_slots`]).
fn initialize_pipe(a: &dyn Args) -> Result<Type, String> {
    if !(a.present(2) && a.present(3)) {
        return Err("dir_mask= and slot_size= are required".to_string());
    }
    for (i, name) in [(4, "slot_num"), (5, "local_slot_num")] {
        if let Some(n) = a.int(i).filter(|&n| n <= 0) {
            return Err(format!("{name}= must be positive, got {n}"));
        }
    }
    pipe_id(a, 6)?;
    let dir_mask = a.int(2);
    if let Some(d) = dir_mask.filter(|d| !(1..=3).contains(d)) {
        return Err(format!("dir_mask= must be 1 (cube to vector), 2 (vector to cube) or 3 (both), got {d}"));
    }
    let slots = pipe_slots(dir_mask, a.int(4));
    if let Some(n) = a.int(5).filter(|&n| n > slots) {
        return Err(format!("local_slot_num= must be at most the pipe's {slots} slot(s), got {n}"));
    }
    Ok(Type::None)
}

/// `id=` (argument `i`) of a cross-core pipe op, when given, is non-negative (PyPTO's codegen
/// of the frontend pipe ops, PTOAS's verifier of `*_initialize_pipe`).
fn pipe_id(a: &dyn Args, i: usize) -> Result<(), String> {
    match a.int(i).filter(|&n| n < 0) {
        Some(n) => Err(format!("id= must be non-negative, got {n}")),
        None => Ok(()),
    }
}

/// `tpush_to_aiv(tile, *, split, lane_stride=None, id=None)`: a statement on pipe `id`.
fn tpush_to_aiv(a: &dyn Args) -> Result<Type, String> {
    pipe_id(a, 3)?;
    Ok(Type::None)
}

/// `tpush_to_aic(tile, *, split, id=None)` and `tfree_to_aic` / `tfree_to_aiv(tile, *,
/// split=None, id=None)`: a statement on pipe `id`.
fn tile_on_pipe(a: &dyn Args) -> Result<Type, String> {
    pipe_id(a, 2)?;
    Ok(Type::None)
}

/// The number of slots of a cross-core pipe set up by `*_initialize_pipe(dir_mask=,
/// slot_num=)`: `slot_num=` when given, else PTOAS's default, 8 for a pipe of one direction
/// and 4 for one of both (`dir_mask=3`). A push needs a free slot; a pop holds its slot
/// until the consumer's `tfree_*` hands it back (PTO-ISA's TPipe, whose ring both
/// directions of a pipe share). A pipe no `*_initialize_pipe` set up has the default of one
/// direction. The interpreter, the CPU kernels and the PTO-ISA kernels all read it here.
pub fn pipe_slots(dir_mask: Option<i64>, slot_num: Option<i64>) -> i64 {
    match (slot_num, dir_mask) {
        (Some(n), _) => n,
        (None, Some(3)) => 4,
        (None, _) => DEFAULT_PIPE_SLOTS,
    }
}

/// The slots of a cross-core pipe of one direction when `slot_num=` does not say (PTOAS).
pub const DEFAULT_PIPE_SLOTS: i64 = 8;

/// `tpop_from_aic(*, shape, dtype, ...)` (a Vec tile) and `tpop_from_aiv` (a Mat tile):
/// typed by `shape=` and `dtype=` together, or by the annotation of the target when both
/// are omitted.
fn tpop(a: &dyn Args, memory: MemorySpace) -> Result<Type, String> {
    match (a.present(0), a.present(1)) {
        (true, true) => Ok(Type::Tile { shape: shape_arg(a, 0)?, dtype: dtype_arg(a, 1)?, memory: Some(memory) }),
        (false, false) => Ok(Type::Unknown),
        _ => Err("give shape= and dtype= together, or neither".to_string()),
    }
}

/// `aiv_shard(x)`: the lane's share, the split axis halved (`split` 1 the rows, 2 the
/// columns, 0 none); a tile's share is in Vec.
fn aiv_shard(a: &dyn Args) -> Result<Type, String> {
    let ty = split_transfer(a, |d| {
        if d % 2 != 0 {
            return Err(format!("the split extent {d} is odd: the two lanes cannot share it"));
        }
        Ok(d / 2)
    })?;
    if let (Some(stride), Some(axis)) = (a.int(2), split_axis(a)?) {
        let half = match ty.shape().map(|s| s[axis]) {
            Some(Dim::Const(h)) => Some(h),
            _ => None,
        };
        if stride <= 0 || half.is_some_and(|h| stride > h) {
            return Err(format!("lane_stride must be positive and at most half the split axis, got {stride}"));
        }
    }
    Ok(with_memory(ty, MemorySpace::Vec))
}

/// `aic_gather(x)`: the cube's tile gathered from the two lanes, the split axis doubled; a
/// tile's in Mat.
fn aic_gather(a: &dyn Args) -> Result<Type, String> {
    Ok(with_memory(split_transfer(a, |d| Ok(d * 2))?, MemorySpace::Mat))
}

/// The axis `split` names: `None` for split 0 (no split).
fn split_axis(a: &dyn Args) -> Result<Option<usize>, String> {
    match a.int(1) {
        Some(0) => Ok(None),
        Some(1) => Ok(Some(0)),
        Some(2) => Ok(Some(1)),
        other => Err(format!("split must be 0 (none), 1 (up-down) or 2 (left-right), got {other:?}")),
    }
}

/// The operand's type with the split axis's extent mapped by `f`; the operand 2-D unless
/// `split` is 0, and a tensor operand not distributed.
fn split_transfer(a: &dyn Args, f: impl Fn(i64) -> Result<i64, String>) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing operand")?.clone();
    if matches!(ty, Type::Tensor { distributed: true, .. }) {
        return Err("a DistributedTensor has no lane share".to_string());
    }
    let Some(axis) = split_axis(a)? else { return Ok(ty) };
    let Some(shape) = ty.shape() else { return Ok(ty) };
    if shape.len() != 2 {
        return Err(format!("the operand must be 2-D to be split, got {} extents", shape.len()));
    }
    let mut shape = shape.to_vec();
    shape[axis] = match shape[axis] {
        Dim::Const(d) => Dim::Const(f(d)?),
        _ => Dim::Unknown,
    };
    Ok(match ty {
        Type::Tile { dtype, memory, .. } => Type::Tile { shape, dtype, memory },
        Type::Tensor { dtype, distributed, layout, .. } => {
            Type::Tensor { shape: Some(shape), dtype, distributed, layout }
        }
        other => other,
    })
}

/// A tile type placed in `memory`; another type unchanged.
fn with_memory(ty: Type, memory: MemorySpace) -> Type {
    match ty {
        Type::Tile { shape, dtype, .. } => Type::Tile { shape, dtype, memory: Some(memory) },
        other => other,
    }
}

fn tpop_from_aic(a: &dyn Args) -> Result<Type, String> {
    pipe_id(a, 4)?;
    tpop(a, MemorySpace::Vec)
}

fn tpop_from_aiv(a: &dyn Args) -> Result<Type, String> {
    pipe_id(a, 3)?;
    tpop(a, MemorySpace::Mat)
}

/// `pl.tile.tri(diagonal, shape, valid_shape=None, dtype=INT32, upper=False)`: a 2-D tile.
fn tile_tri(a: &dyn Args) -> Result<Type, String> {
    let shape = shape_arg(a, 1)?;
    if shape.len() != 2 {
        return Err(format!("the shape must have 2 extents, it has {}", shape.len()));
    }
    let dtype = a.dtype(3).unwrap_or(DType::Int32);
    let allowed = [
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::Int32,
        DType::UInt16,
        DType::UInt32,
        DType::Fp16,
        DType::Bf16,
        DType::Fp32,
    ];
    if !allowed.contains(&dtype) {
        return Err(format!(
            "the dtype {} is not one of INT8, UINT8, INT16, INT32, UINT16, UINT32, FP16, BF16, FP32",
            dtype.name()
        ));
    }
    Ok(Type::Tile { shape, dtype, memory: Some(MemorySpace::Vec) })
}

/// `fillpad_expand(x, shape, pad_value)`: the operand with the larger `shape` (same rank,
/// no extent smaller than the operand's).
fn fillpad_expand(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let shape = shape_arg(a, 1)?;
    if let Some(own) = ty.shape() {
        if own.len() != shape.len() {
            return Err(format!("the shape must have the operand's {} extents", own.len()));
        }
        for (o, n) in own.iter().zip(&shape) {
            if let (Dim::Const(o), Dim::Const(n)) = (o, n) {
                if n < o {
                    return Err(format!("an extent of {n} is smaller than the operand's {o}"));
                }
            }
        }
    }
    Ok(with_shape(ty, shape))
}

/// `pl.expand_clone(src, target)`: `target`'s type; `src` has its rank and broadcasts
/// only from extents of 1.
fn expand_clone(a: &dyn Args) -> Result<Type, String> {
    let (src, target) = (a.ty(0).ok_or("missing src")?, a.ty(1).ok_or("missing target")?);
    if let (Some(p), Some(q)) = (src.shape(), target.shape()) {
        let fits = |s: &Dim, t: &Dim| !matches!((s, t), (Dim::Const(s), Dim::Const(t)) if s != t && *s != 1);
        if p.len() != q.len() || !p.iter().zip(q).all(|(s, t)| fits(s, t)) {
            return Err("src must have target's rank and broadcast to it from extents of 1".to_string());
        }
    }
    Ok(target.clone())
}

/// `pl.tile.extract(src, index_row, index_col, shape, *, target_memory=Vec)`: a 2-D tile.
fn tile_extract(a: &dyn Args) -> Result<Type, String> {
    let dtype = a.ty(0).and_then(Type::dtype).unwrap_or(DType::Fp32);
    let shape = shape_arg(a, 3)?;
    if shape.len() != 2 {
        return Err(format!("the shape must have 2 extents, it has {}", shape.len()));
    }
    // PyPTO's deduction: the window [row, row + rows) x [col, col + cols) lies inside src
    // where the index and the extents are known.
    if let Some(Type::Tile { shape: src, .. }) = a.ty(0) {
        for (axis, index) in [(0, 1), (1, 2)] {
            if let (Some(at), Some(Dim::Const(size)), Dim::Const(extent)) = (a.int(index), src.get(axis), &shape[axis])
            {
                if at < 0 || at + extent > *size {
                    let what = ["rows", "columns"][axis];
                    return Err(format!("the window's {what} [{at}, {}) lie outside src's {size}", at + extent));
                }
            }
        }
    }
    into_out(a, 5, Type::Tile { shape, dtype, memory: Some(memory_arg(a, 4, MemorySpace::Vec)?) })
}

/// The geometry of an `img2col` call, read from its keyword arguments (PyPTO's
/// `image_shape=(H, W)`, `kernel_size=(KH, KW)`, `stride=(SH, SW)`, `padding=(top, bottom,
/// left, right)`, `dilation=(DH, DW)`), each a list of compile-time integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Img2colGeometry {
    pub image: [i64; 2],
    pub kernel: [i64; 2],
    pub stride: [i64; 2],
    pub padding: [i64; 4],
    pub dilation: [i64; 2],
}

impl Img2colGeometry {
    /// The output image's rows and columns: the positions the kernel takes.
    pub fn out_hw(&self) -> [i64; 2] {
        let span = |axis: usize, pads: i64| {
            (self.image[axis] + pads - self.dilation[axis] * (self.kernel[axis] - 1) - 1) / self.stride[axis] + 1
        };
        [span(0, self.padding[0] + self.padding[1]), span(1, self.padding[2] + self.padding[3])]
    }
}

/// The channels a block of 32 bytes holds (PTO's C0): 32 for INT8, 8 for FP32, 16 for
/// FP16 and BF16.
pub fn img2col_c0(dtype: DType) -> i64 {
    match dtype {
        DType::Int8 => 32,
        DType::Fp32 => 8,
        _ => 16,
    }
}

/// Reads and checks the geometry of an `img2col` call (arguments 4..=8 of its row).
pub fn img2col_geometry(dims: impl Fn(usize) -> Option<Vec<Dim>>) -> Result<Img2colGeometry, String> {
    fn read<const N: usize>(given: Option<Vec<Dim>>, name: &str, default: [i64; N]) -> Result<[i64; N], String> {
        let Some(given) = given else { return Ok(default) };
        if given.len() != N {
            return Err(format!("{name} must be {N} compile-time integers, it has {}", given.len()));
        }
        let mut out = default;
        for (o, d) in out.iter_mut().zip(&given) {
            let Dim::Const(n) = d else { return Err(format!("{name} requires compile-time integers")) };
            *o = *n;
        }
        Ok(out)
    }
    let Some(image) = dims(4) else { return Err("image_shape=(H, W) is required".to_string()) };
    let Some(kernel) = dims(5) else { return Err("kernel_size=(KH, KW) is required".to_string()) };
    let g = Img2colGeometry {
        image: read(Some(image), "image_shape", [0; 2])?,
        kernel: read(Some(kernel), "kernel_size", [0; 2])?,
        stride: read(dims(6), "stride", [1; 2])?,
        padding: read(dims(7), "padding", [0; 4])?,
        dilation: read(dims(8), "dilation", [1; 2])?,
    };
    let limits: [(&str, &[i64], i64, i64); 5] = [
        ("image_shape", &g.image, 1, 65535),
        ("kernel_size", &g.kernel, 1, 511),
        ("stride", &g.stride, 1, 255),
        ("padding", &g.padding, 0, 255),
        ("dilation", &g.dilation, 1, 255),
    ];
    for (name, values, lo, hi) in limits {
        if let Some(v) = values.iter().find(|v| !(lo..=hi).contains(*v)) {
            return Err(format!("{name} values must be in [{lo}, {hi}], got {v}"));
        }
    }
    let [oh, ow] = g.out_hw();
    if oh < 1 || ow < 1 {
        return Err("the kernel exceeds the padded image".to_string());
    }
    Ok(g)
}

/// `img2col(src, pos_m, pos_k, shape, *, image_shape, kernel_size, stride=(1, 1),
/// padding=(0, 0, 0, 0), dilation=(1, 1))` (newer than ops.md; PyPTO's
/// `GetImg2colShape`): `src` is a static `[H*W, C]` feature map of FP16, BF16, FP32 or
/// INT8, `H*W` a multiple of 16 and `C` of C0; the result has the `[M, K]` of `shape`
/// (M a multiple of 16, K of C0) and fits the unfolded `[OH*OW, C*KH*KW]` matrix at the
/// given positions. The tile form reads a Mat tile and gives a Left tile.
fn img2col(a: &dyn Args) -> Result<Type, String> {
    let src = a.ty(0).ok_or("missing src")?;
    let tile = matches!(src, Type::Tile { .. });
    let (Some(shape), Some(dtype)) = (src.shape(), src.dtype()) else {
        return Err("src must be a 2-D feature map".to_string());
    };
    if shape.len() != 2 {
        return Err(format!("src must be a 2-D feature map [H*W, C], it has {} axes", shape.len()));
    }
    if let Type::Tile { memory: Some(m), .. } = src {
        if *m != MemorySpace::Mat {
            return Err(format!("the tile form requires a Mat source, got {}", m.name()));
        }
    }
    if !matches!(dtype, DType::Fp16 | DType::Bf16 | DType::Fp32 | DType::Int8) {
        return Err(format!("supports FP16, BF16, FP32 and INT8, got {}", dtype.name()));
    }
    let c0 = img2col_c0(dtype);
    let (Dim::Const(rows), Dim::Const(channels)) = (shape[0], shape[1]) else {
        return Err("img2col requires a static source shape".to_string());
    };
    if rows <= 0 || rows % 16 != 0 || channels <= 0 || channels > 65535 || channels % c0 != 0 {
        return Err(format!(
            "img2col requires H*W divisible by 16 and channels divisible by C0={c0}, got [{rows}, {channels}]"
        ));
    }
    let g = img2col_geometry(|i| a.dims(i))?;
    if g.image[0] * g.image[1] != rows {
        return Err(format!("the source rows ({rows}) must equal H*W ({} * {})", g.image[0], g.image[1]));
    }
    let [oh, ow] = g.out_hw();
    let bounds = [oh * ow, channels * g.kernel[0] * g.kernel[1]];
    let window = shape_arg(a, 3)?;
    if window.len() != 2 {
        return Err(format!("the shape must be a static pair [M, K], it has {} extents", window.len()));
    }
    for axis in 0..2 {
        let align = if axis == 0 { 16 } else { c0 };
        let Dim::Const(n) = window[axis] else { return Err("the shape must be a static pair [M, K]".to_string()) };
        if n <= 0 || n > 65535 || n % align != 0 {
            return Err(format!("the shape must be positive and aligned to (16, C0={c0}), got {n} for axis {axis}"));
        }
        if n > bounds[axis] {
            return Err(format!("the shape exceeds the unfolded image ({} of {} for axis {axis})", n, bounds[axis]));
        }
        if let Some(Type::Scalar(d)) = a.ty(axis + 1) {
            if !a.is_literal(axis + 1) && !matches!(d, DType::Index | DType::Int64 | DType::UInt64) {
                return Err(format!("the positions must be index-like scalars, got {}", d.name()));
            }
        }
        if let Some(pos) = a.int(axis + 1) {
            if !(0..=65535).contains(&pos) || pos + n > bounds[axis] {
                return Err(format!("the position {pos} is outside the unfolded image (axis {axis})"));
            }
            if axis == 1 && pos % c0 != 0 {
                return Err(format!("pos_k must be C0-aligned (a multiple of {c0}), got {pos}"));
            }
        }
    }
    Ok(if tile {
        Type::Tile { shape: window, dtype, memory: Some(MemorySpace::Left) }
    } else {
        Type::tensor(window, dtype)
    })
}

// ---------------------------------------------------------------- result rules of the gather, scatter and batch matmul rows

/// The checks PyPTO makes on the operands of a batch matmul: tiles of at least 2 axes,
/// one dtype, equal K where both are literals, batch axes that broadcast. Returns the
/// broadcast batch axes followed by `[M, N]`, and the accumulator dtype.
fn batch_matmul_operands(lhs: &Type, rhs: &Type) -> Result<(Vec<Dim>, DType), String> {
    let mut shapes = Vec::new();
    for (name, ty) in [("lhs", lhs), ("rhs", rhs)] {
        let Some(s) = ty.shape() else { return Err(format!("{name} must be a tile")) };
        if s.len() < 2 {
            return Err(format!("{name} must have at least 2 dimensions, it has {}", s.len()));
        }
        shapes.push(s);
    }
    let (l, r) = (shapes[0], shapes[1]);
    let (m, k1) = (l[l.len() - 2], l[l.len() - 1]);
    let (k2, n) = (r[r.len() - 2], r[r.len() - 1]);
    if let (Dim::Const(k1), Dim::Const(k2)) = (k1, k2) {
        if k1 != k2 {
            return Err(format!("the K extents differ: lhs is [..., M, {k1}], rhs is [..., {k2}, N]"));
        }
    }
    let mut shape = broadcast(&l[..l.len() - 2], &r[..r.len() - 2])
        .map_err(|m| format!("the batch dimensions of lhs and rhs do not broadcast: {m}"))?;
    let (dl, dr) = (lhs.dtype().unwrap_or(DType::Fp32), rhs.dtype().unwrap_or(DType::Fp32));
    if dl != dr {
        return Err(format!("lhs and rhs must have the same dtype, got {} and {}", dl.name(), dr.name()));
    }
    shape.extend([m, n]);
    Ok((shape, acc_dtype(dl)))
}

/// `batch_matmul(lhs, rhs)`: an `Acc` tile `[...broadcast batch, M, N]` of the accumulator dtype.
fn batch_matmul(a: &dyn Args) -> Result<Type, String> {
    let (lhs, rhs) = (a.ty(0).ok_or("missing lhs")?, a.ty(1).ok_or("missing rhs")?);
    let (shape, dtype) = batch_matmul_operands(lhs, rhs)?;
    Ok(Type::Tile { shape, dtype, memory: Some(MemorySpace::Acc) })
}

/// `batch_matmul_acc(acc, lhs, rhs, init_cond=None)`: the accumulator, which has the
/// product's rank, batch axes, `M`, `N` and the accumulator dtype (it is updated in place,
/// not broadcast); `init_cond`, as for `matmul_acc`, a BOOL scalar (newer PyPTO takes it).
fn batch_matmul_acc(a: &dyn Args) -> Result<Type, String> {
    let acc = a.ty(0).ok_or("missing acc")?;
    let (lhs, rhs) = (a.ty(1).ok_or("missing lhs")?, a.ty(2).ok_or("missing rhs")?);
    let Some(s) = acc.shape() else { return Err("acc must be a tile".to_string()) };
    if s.len() < 2 {
        return Err(format!("acc must have at least 2 dimensions, it has {}", s.len()));
    }
    let (shape, dtype) = batch_matmul_operands(lhs, rhs)?;
    if shape.len() != s.len() {
        return Err(format!(
            "acc has {} batch dimension(s), the broadcast of lhs and rhs has {}",
            s.len() - 2,
            shape.len() - 2
        ));
    }
    let what = |i: usize| match s.len() - i {
        2 => "M".to_string(),
        1 => "N".to_string(),
        _ => format!("batch dimension {i}"),
    };
    for (i, (x, y)) in s.iter().zip(&shape).enumerate() {
        if let (Dim::Const(p), Dim::Const(q)) = (x, y) {
            if p != q {
                return Err(format!("acc has {p} for {}, the product {q}", what(i)));
            }
        }
    }
    expect_acc("the accumulator acc", acc.dtype(), dtype, lhs.dtype())?;
    check_init_cond(a, 3)?;
    Ok(acc.clone())
}

/// The dtypes whose bytes `gatherb` may read and write: 8, 16 and 32-bit integers and
/// floats.
const GATHERB_DTYPES: [DType; 9] = [
    DType::Int8,
    DType::UInt8,
    DType::Int16,
    DType::UInt16,
    DType::Int32,
    DType::UInt32,
    DType::Fp16,
    DType::Bf16,
    DType::Fp32,
];

/// Whether the CPU forms of `gatherb` read elements of `from` as `to`: the same dtype, or
/// two of one width among the integers and FP32 (a reading of the bits; FP16 and BF16
/// values are held as `f32`, so their bits, and readings across widths, are not modelled).
pub fn gatherb_reads_bits(from: DType, to: DType) -> bool {
    let plain = |d: DType| d.is_int() || d == DType::Fp32;
    from == to || (plain(from) && plain(to) && from.bytes() == to.bytes())
}

/// `gatherb(src, offset, *, output_dtype=None)`: one 32-byte block of `src` per UINT32 byte
/// offset, each offset column widened to `32 / sizeof(output_dtype)` columns: a `Vec` tile
/// `[offset rows, offset cols * (32 / size)]` of `output_dtype` (default `src`'s).
fn tile_gatherb(a: &dyn Args) -> Result<Type, String> {
    let src = a.ty(0).ok_or("missing src")?;
    let offset = a.ty(1).ok_or("missing offset")?;
    let src_dtype = src.dtype().unwrap_or(DType::Fp32);
    let names = || GATHERB_DTYPES.map(DType::name).join(", ");
    if !GATHERB_DTYPES.contains(&src_dtype) {
        return Err(format!("src must have one of the dtypes {}, got {}", names(), src_dtype.name()));
    }
    let out = a.dtype(2).unwrap_or(src_dtype);
    if !GATHERB_DTYPES.contains(&out) {
        return Err(format!("output_dtype must be one of {}, got {}", names(), out.name()));
    }
    match offset.dtype() {
        Some(DType::UInt32) | None => {}
        Some(d) => return Err(format!("offset must have dtype UINT32 (byte offsets), got {}", d.name())),
    }
    let Some(shape) = offset.shape() else { return Err("offset must be a tile".to_string()) };
    if shape.len() != 2 {
        return Err(format!("offset must be a 2-D tile, it has {} dimension(s)", shape.len()));
    }
    let cols = match shape[1] {
        Dim::Const(c) if c > 0 && c % 8 == 0 => Dim::Const(c * (32 / out.bytes())),
        Dim::Const(c) => return Err(format!("offset needs a positive multiple of 8 columns, it has {c}")),
        _ => return Err("offset needs a static number of columns (a multiple of 8)".to_string()),
    };
    Ok(Type::Tile { shape: vec![shape[0], cols], dtype: out, memory: Some(MemorySpace::Vec) })
}

/// A string-or-code attribute (`coalesce='row'`, `gather_oob=2`): its code in `names`,
/// `default` when absent.
fn named_code(a: &dyn Args, i: usize, what: &str, names: &[&str], default: i64) -> Result<i64, String> {
    if !a.present(i) {
        return Ok(default);
    }
    let listed = || names.iter().enumerate().map(|(k, n)| format!("'{n}' ({k})")).collect::<Vec<_>>().join(", ");
    if let Some(t) = a.text(i) {
        return names
            .iter()
            .position(|n| *n == t)
            .map(|k| k as i64)
            .ok_or_else(|| format!("unknown {what} '{t}': the modes are {}", listed()));
    }
    match a.int(i) {
        Some(k) if (0..names.len() as i64).contains(&k) => Ok(k),
        Some(k) => Err(format!("{what} {k} is out of range: the modes are {}", listed())),
        None => Err(format!("{what} must be a string or an integer constant: {}", listed())),
    }
}

/// `mgather`'s `coalesce=` modes: 0 rows, 1 elements.
pub const COALESCE_MODES: [&str; 2] = ["row", "elem"];
/// `mgather`'s `gather_oob=` modes.
pub const GATHER_OOB_MODES: [&str; 4] = ["undefined", "clamp", "wrap", "zero"];

/// `mgather(mem, idx, coalesce='row', *, gather_oob='undefined', target_memory=Vec,
/// scratch=None, valid_shape=None)`: rows `mem[idx[r], :]` (`[R, C]`, idx `[1, R]` or
/// `[R, 1]`) or elements `mem.flat[idx[r, c]]` (idx's shape), in `mem`'s dtype, in `Vec` or
/// `Mat`.
fn tile_mgather(a: &dyn Args) -> Result<Type, String> {
    let mem = a.ty(0).ok_or("missing mem")?;
    let idx = a.ty(1).ok_or("missing idx")?;
    let coalesce = named_code(a, 2, "coalesce", &COALESCE_MODES, 0)?;
    named_code(a, 3, "gather_oob", &GATHER_OOB_MODES, 0)?;
    let memory = memory_arg(a, 4, MemorySpace::Vec)?;
    if !matches!(memory, MemorySpace::Vec | MemorySpace::Mat) {
        return Err(format!("target_memory must be Vec or Mat, got {}", memory.name()));
    }
    let dtype = mem.dtype().unwrap_or(DType::Fp32);
    if dtype.bytes() < 1 || dtype == DType::Bool {
        return Err(format!("mem must have a byte-addressable dtype, got {}", dtype.name()));
    }
    match idx.dtype() {
        Some(DType::Int32) | None => {}
        Some(d) => return Err(format!("idx must have dtype INT32, got {}", d.name())),
    }
    let Some(ishape) = idx.shape() else { return Err("idx must be a tile".to_string()) };
    if ishape.len() != 2 {
        return Err(format!("idx must be a 2-D tile, it has {} dimension(s)", ishape.len()));
    }
    let shape = if coalesce == 0 {
        let rows = match (ishape[0], ishape[1]) {
            (Dim::Const(1), r) | (r, Dim::Const(1)) => r,
            (Dim::Const(p), Dim::Const(q)) => {
                return Err(format!("in row mode idx must be [1, R] or [R, 1], got [{p}, {q}]"))
            }
            (r, _) => r,
        };
        let Some(m) = mem.shape() else { return Ok(Type::Unknown) };
        if m.len() < 2 {
            return Err(format!("in row mode mem must have at least 2 dimensions, it has {}", m.len()));
        }
        vec![rows, m[m.len() - 1]]
    } else {
        ishape.to_vec()
    };
    if memory == MemorySpace::Mat {
        match (shape[0], shape[1]) {
            (Dim::Const(r), Dim::Const(_)) if r % 16 == 0 => {}
            (Dim::Const(r), Dim::Const(_)) => {
                return Err(format!("a Mat result needs a multiple of 16 rows, it has {r}"));
            }
            _ => return Err("a Mat result needs a static shape".to_string()),
        }
        if coalesce == 1 && !a.present(5) {
            return Err("an element gather into Mat needs a GM scratch tensor (scratch=)".to_string());
        }
    }
    if let Some(v) = a.dims(6) {
        if v.len() != 2 {
            return Err(format!("valid_shape must have 2 extents, it has {}", v.len()));
        }
    }
    Ok(Type::Tile { shape, dtype, memory: Some(memory) })
}

/// `mscatter(src, idx, output_tensor)`: the output tensor, written at the flat positions
/// `idx` gives; `src` FP16/FP32/INT16/INT32, `idx` INT32 of `src`'s shape.
fn tile_mscatter(a: &dyn Args) -> Result<Type, String> {
    let (src, idx) = (a.ty(0).ok_or("missing src")?, a.ty(1).ok_or("missing idx")?);
    let out = a.ty(2).ok_or("missing output_tensor")?;
    let dtype = src.dtype().unwrap_or(DType::Fp32);
    if !matches!(dtype, DType::Fp16 | DType::Fp32 | DType::Int16 | DType::Int32) {
        return Err(format!("src must have dtype FP16, FP32, INT16 or INT32, got {}", dtype.name()));
    }
    match idx.dtype() {
        Some(DType::Int32) | None => {}
        Some(d) => return Err(format!("idx must have dtype INT32, got {}", d.name())),
    }
    if let (Some(p), Some(q)) = (src.shape(), idx.shape()) {
        let differ = |x: &Dim, y: &Dim| matches!((x, y), (Dim::Const(m), Dim::Const(n)) if m != n);
        if p.len() != q.len() || p.iter().zip(q).any(|(x, y)| differ(x, y)) {
            return Err("idx must have src's shape".to_string());
        }
    }
    if let Some(s) = out.shape().filter(|s| s.is_empty()) {
        return Err(format!("output_tensor must have at least 1 dimension, it has {}", s.len()));
    }
    match out.dtype() {
        Some(d) if d != dtype => Err(format!("output_tensor must have src's dtype {}, got {}", dtype.name(), d.name())),
        _ => Ok(out.clone()),
    }
}

/// `gather_row(dst, src, dst_offset, src_offset, shapes, transpose=False, *, valid_shape=None)`
/// (tile and tensor forms): `dst`'s type; `src` a tensor of `dst`'s dtype, `shapes` a
/// literal `[r, c]`, the offsets `[row, col]`, `valid_shape` of `shapes`' rank and literal
/// when `transpose=True`.
fn gather_row(a: &dyn Args) -> Result<Type, String> {
    let (dst, src) = (a.ty(0).ok_or("missing dst")?, a.ty(1).ok_or("missing src")?);
    if let (Some(p), Some(q)) = (dst.dtype(), src.dtype()) {
        if p != q {
            return Err(format!("dst and src must have the same dtype, got {} and {}", p.name(), q.name()));
        }
    }
    let shapes = shape_arg(a, 4)?;
    if shapes.len() != 2 || shapes.iter().any(|d| !matches!(d, Dim::Const(n) if *n > 0)) {
        return Err("shapes must be two positive integer constants, like [1, 128]".to_string());
    }
    for (i, what) in [(2, "dst_offset"), (3, "src_offset")] {
        if let Some(o) = a.dims(i).filter(|o| o.len() != 2) {
            return Err(format!("{what} must be a [row, col] pair, it has {} item(s)", o.len()));
        }
    }
    if let Some(v) = a.dims(6) {
        if v.len() != shapes.len() {
            return Err(format!("valid_shape must have the {} extents of shapes, it has {}", shapes.len(), v.len()));
        }
        if bool_arg(a, 5, false) && v.iter().any(|d| !matches!(d, Dim::Const(_))) {
            return Err("a valid_shape known only at run time is not supported with transpose=True".to_string());
        }
        for (i, (valid, shape)) in v.iter().zip(&shapes).enumerate() {
            if let (Dim::Const(valid), Dim::Const(shape)) = (valid, shape) {
                if valid > shape {
                    return Err(format!(
                        "valid_shape[{i}] = {valid} provably exceeds physical shape extent shapes[{i}] = {shape}"
                    ));
                }
            }
        }
    }
    Ok(dst.clone())
}

/// The 1-D or `[1, n]` INT32 index operands of `paged_gather`.
fn index_vector(ty: &Type, what: &str) -> Result<(), String> {
    match ty.dtype() {
        Some(DType::Int32) | None => {}
        Some(d) => return Err(format!("{what} must have dtype INT32, got {}", d.name())),
    }
    match ty.shape() {
        Some(s) if s.len() == 1 => Ok(()),
        Some(s) if s.len() == 2 => match s[0] {
            Dim::Const(1) => Ok(()),
            _ => Err(format!("a 2-D {what} must have the shape [1, n]")),
        },
        Some(s) => Err(format!("{what} must be 1-D or [1, n], it has {} dimensions", s.len())),
        None => Ok(()),
    }
}

/// `paged_gather(src, indices, block_table, block_size, size, max_indices, *, space=Mat,
/// col_off=0, is_trans=False, is_b_matrix=False)`: a tensor `[max_indices, size]`
/// (`[size, max_indices]` with `is_trans`) of `src`'s dtype.
fn paged_gather(a: &dyn Args) -> Result<Type, String> {
    let src = a.ty(0).ok_or("missing src")?;
    let dtype = src.dtype().unwrap_or(DType::Fp32);
    if !matches!(dtype, DType::Fp16 | DType::Bf16 | DType::Fp32 | DType::Int8) {
        return Err(format!("src must have dtype FP16, BF16, FP32 or INT8, got {}", dtype.name()));
    }
    if let Some(s) = src.shape().filter(|s| s.len() != 2) {
        return Err(format!("src must be 2-D, it has {} dimension(s)", s.len()));
    }
    index_vector(a.ty(1).ok_or("missing indices")?, "indices")?;
    index_vector(a.ty(2).ok_or("missing block_table")?, "block_table")?;
    let positive = |i: usize, what: &str| match a.int(i) {
        Some(n) if n > 0 => Ok(n),
        Some(n) => Err(format!("{what} must be positive, got {n}")),
        None => Err(format!("{what} must be an integer constant")),
    };
    positive(3, "block_size")?;
    let size = positive(4, "size")?;
    let rows = positive(5, "max_indices")?;
    let col_off = if a.present(7) { a.int(7).ok_or("col_off must be an integer constant")? } else { 0 };
    if col_off < 0 {
        return Err(format!("col_off must not be negative, got {col_off}"));
    }
    if let Some(Dim::Const(cols)) = src.shape().and_then(|s| s.get(1).copied()) {
        if col_off + size > cols {
            return Err(format!("col_off + size ({}) exceeds the {cols} columns of src", col_off + size));
        }
    }
    let trans = bool_arg(a, 8, false);
    if trans && memory_arg(a, 6, MemorySpace::Mat)? != MemorySpace::Mat {
        return Err("is_trans=True needs space=pl.MemorySpace.Mat".to_string());
    }
    let shape = if trans { vec![Dim::Const(size), Dim::Const(rows)] } else { vec![Dim::Const(rows), Dim::Const(size)] };
    Ok(Type::tensor(shape, dtype))
}

// ---------------------------------------------------------------- the table

use ArgKind as K;
use Param as P;

const BINARY: &[ParamDef] = &[req(P::Lhs, K::Value), req(P::Rhs, K::Value)];
const DIV: &[ParamDef] = &[req(P::Lhs, K::Value), req(P::Rhs, K::Value), opt(P::HighPrecision, K::Bool)];
const UNARY: &[ParamDef] = &[req(P::X, K::Value)];
const UNARY_PRECISION: &[ParamDef] = &[req(P::X, K::Value), opt(P::HighPrecision, K::Bool)];
// `pl.tile.rsqrt(tile, tmp=None)`: the hardware's precise form takes a scratch tile instead of a
// flag; `high_precision=` reaches the row only through the unified `pl.rsqrt` (default only).
const TILE_RSQRT: &[ParamDef] = &[req(P::X, K::Value), opt(P::Tmp, K::Tile), opt(P::HighPrecision, K::Bool)];
const REDUCE: &[ParamDef] = &[req(P::X, K::Value), opt(P::TmpTile, K::Tile)];
// PyPTO's tensor reductions take no scratch tile; `col_max` of a tile takes none either.
const T_REDUCE: &[ParamDef] = &[req(P::X, K::Tensor)];
const S_REDUCE_NO_TMP: &[ParamDef] = &[req(P::X, K::Tile)];
const EXPAND: &[ParamDef] = &[req(P::X, K::Value), req(P::Vec, K::Value)];
// `pl.tile.row_expand_add(tile, row_vec, tmp=None)`: a scratch tile the hardware form may use
// (PyPTO's only expand with one); it holds no result, so the CPU forms leave it alone.
const EXPAND_TMP: &[ParamDef] = &[req(P::X, K::Value), req(P::Vec, K::Value), opt(P::Tmp, K::Tile)];

// Tensor forms of the scalar-operand and bitwise families (`pl.tensor.adds(lhs, rhs)`).
const T_SCALAR_RHS: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Scalar)];
const T_BINARY: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Value)];
const T_XOR: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Value), opt(P::Tmp, K::Tensor)];
const T_XORS: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Scalar), opt(P::Tmp, K::Tensor)];
const T_TERNARY: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Tensor), req(P::Rhs2, K::Tensor)];
const T_TERNARY_S: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Scalar), req(P::Rhs2, K::Tensor)];
const T_AXIS_REDUCE: &[ParamDef] = &[req(P::Input, K::Tensor), opt(P::Axis, K::Int), opt(P::KeepDim, K::Bool)];
const T_MATMUL: &[ParamDef] = &[
    req(P::Lhs, K::Tensor),
    req(P::Rhs, K::Tensor),
    opt(P::OutDtype, K::DType),
    opt(P::ATrans, K::Bool),
    opt(P::BTrans, K::Bool),
    opt(P::CMatrixNz, K::Bool),
];
const T_MATMUL_BIAS: &[ParamDef] = &[
    req(P::Lhs, K::Tensor),
    req(P::Rhs, K::Tensor),
    req(P::Bias, K::Tensor),
    opt(P::OutDtype, K::DType),
    opt(P::ATrans, K::Bool),
    opt(P::BTrans, K::Bool),
    opt(P::CMatrixNz, K::Bool),
];
const T_GEMV_ACC: &[ParamDef] = &[
    req(P::Acc, K::Tensor),
    req(P::Lhs, K::Tensor),
    req(P::Rhs, K::Tensor),
    opt(P::OutDtype, K::DType),
    opt(P::ATrans, K::Bool),
    opt(P::BTrans, K::Bool),
    opt(P::CMatrixNz, K::Bool),
];

// Tile forms (`pl.tile.adds(lhs, rhs)`); some take a scratch tile the hardware needs.
const S_SCALAR_RHS: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Scalar)];
const S_BINARY: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile)];
const S_XOR: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), req(P::Tmp, K::Tile)];
const S_XORS: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Scalar), req(P::Tmp, K::Tile)];
const S_TERNARY: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), req(P::Rhs2, K::Tile)];
const S_TERNARY_S: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Scalar), req(P::Rhs2, K::Tile)];
const S_AXIS_REDUCE: &[ParamDef] = &[req(P::Tile, K::Tile), opt(P::Axis, K::Int), opt(P::Keepdim, K::Bool)];
const S_VALIDSHAPE: &[ParamDef] = &[req(P::Tile, K::Tile), req(P::ValidRows, K::Scalar), req(P::ValidCols, K::Scalar)];
const S_MATMUL_BIAS: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), req(P::Bias, K::Tile)];

// The old `pl.op.block` API: scalar offsets and extents, numeric memory codes.
const BLOCK_STORE: &[ParamDef] = &[
    req(P::Tile, K::Tile),
    req(P::RowOffset, K::Scalar),
    req(P::ColOffset, K::Scalar),
    req(P::Height, K::Scalar),
    req(P::Width, K::Scalar),
    write(P::OutputTensor, K::Tensor),
];

// Parameter lists of the rows added for ops.md §5.1 (PyPTO's names per level).
const T_INPUT: &[ParamDef] = &[req(P::Input, K::Tensor)];
const S_TILE: &[ParamDef] = &[req(P::Tile, K::Tile)];
const S_TILE_TMP: &[ParamDef] = &[req(P::Tile, K::Tile), req(P::TmpTile, K::Tile)];
// ---------------------------------------------------------------- result rules of the scatter, random and reinterpret rows (issue 11)

/// The element types PTO's `TSCATTER` moves.
fn check_scatter_dtype(d: Option<DType>, what: &str) -> Result<(), String> {
    match d {
        None | Some(DType::Int8 | DType::Int16 | DType::Int32 | DType::Fp16 | DType::Fp32 | DType::Bf16) => Ok(()),
        Some(d) => {
            Err(format!("the {what} dtype must be one of INT8, INT16, INT32, FP16, FP32, BF16, got {}", d.name()))
        }
    }
}

/// The index of a scatter: INT16 or INT32, as wide as an element of the data (INT16 for
/// 1-byte data).
fn check_scatter_index(data: Option<DType>, index: Option<DType>) -> Result<(), String> {
    let Some(index) = index else { return Ok(()) };
    if !matches!(index, DType::Int16 | DType::Int32) {
        return Err(format!("the index dtype must be INT16 or INT32, got {}", index.name()));
    }
    if let Some(data) = data {
        let need = if data.bytes() <= 2 { DType::Int16 } else { DType::Int32 };
        if index != need {
            return Err(format!("data of {} needs an index of {}, got {}", data.name(), need.name(), index.name()));
        }
    }
    Ok(())
}

fn rank_of(ty: &Type) -> Option<usize> {
    ty.shape().map(<[Dim]>::len)
}

/// Extent `axis` of a value, when it is a literal.
fn const_extent(ty: &Type, axis: usize) -> Option<i64> {
    match ty.shape()?.get(axis)? {
        Dim::Const(n) => Some(*n),
        _ => None,
    }
}

fn check_rank(ty: &Type, rank: usize, what: &str) -> Result<(), String> {
    match rank_of(ty) {
        Some(r) if r != rank => Err(format!("{what} must have {rank} dimensions, got {r}")),
        _ => Ok(()),
    }
}

/// Axis `axis` of `x` and `y` equal (`cmp` `==`) or `x`'s at most `y`'s (`<=`), when both are literals.
fn check_extents(x: &Type, y: &Type, axis: usize, at_most: bool, what: &str) -> Result<(), String> {
    if let (Some(p), Some(q)) = (const_extent(x, axis), const_extent(y, axis)) {
        if (at_most && p > q) || (!at_most && p != q) {
            let rel = if at_most { "at most" } else { "equal to" };
            return Err(format!("{what}: {p} is not {rel} {q}"));
        }
    }
    Ok(())
}

/// The column stride of a mask pattern (a `pl.tile.MaskPattern` member or its code 1-7).
fn mask_stride(a: &dyn Args, i: usize) -> Result<Option<i64>, String> {
    match a.enum_value(i) {
        Some(EnumValue::MaskPattern(p)) => Ok(Some(p.stride())),
        Some(_) => Err("mask_pattern must be pl.tile.MaskPattern.<name> or a code 1-7".to_string()),
        None => match a.int(i) {
            Some(code) => match MaskPattern::from_code(code) {
                Some(p) => Ok(Some(p.stride())),
                None => Err(format!("mask_pattern must be in [1, 7], got {code}")),
            },
            None => Ok(None),
        },
    }
}

/// `scatter_mask(src, dst, mask_pattern)` (arguments `src`, `dst`, `mask`): the rows of
/// `src` spread over `dst`'s columns, whose count is `src`'s times the pattern's stride.
fn scattered_by_mask(a: &dyn Args, src: usize, dst: usize, mask: usize) -> Result<Type, String> {
    let (Some(s), Some(d)) = (a.ty(src), a.ty(dst)) else { return Err("missing argument".to_string()) };
    check_scatter_dtype(s.dtype(), "source")?;
    check_scatter_dtype(d.dtype(), "destination")?;
    if let (Some(p), Some(q)) = (s.dtype(), d.dtype()) {
        if p != q {
            return Err(format!(
                "the source and the destination must have the same dtype, got {} and {}",
                p.name(),
                q.name()
            ));
        }
    }
    check_rank(s, 2, "the source")?;
    check_rank(d, 2, "the destination")?;
    if !a.present(mask) {
        return Err("mask_pattern is required".to_string());
    }
    check_extents(s, d, 0, s.is_tensor(), "the source's rows and the destination's")?;
    if let (Some(stride), Some(p), Some(q)) = (mask_stride(a, mask)?, const_extent(s, 1), const_extent(d, 1)) {
        if q != p * stride {
            return Err(format!(
                "with this mask pattern the destination needs {} columns ({p} x {stride}), got {q}",
                p * stride
            ));
        }
    }
    Ok(d.clone())
}

/// `pl.tensor.scatter(input, dim=None, index=None, src=None, *, mask_pattern=None, dst=None)`:
/// `input` with `src[b, k]` written at column `index[b, k]` of row `b` (rank 2, `dim=-1`),
/// or, with `mask_pattern=`, `scatter_mask(input, dst)`.
fn tensor_scatter(a: &dyn Args) -> Result<Type, String> {
    if a.present(4) || a.present(5) {
        if !a.present(5) {
            return Err("the mask form needs dst=".to_string());
        }
        return scattered_by_mask(a, 0, 5, 4);
    }
    let input = a.ty(0).ok_or("missing input")?;
    let (Some(index), Some(src)) = (a.ty(2), a.ty(3)) else {
        return Err("give dim=, index= and src=, or mask_pattern= and dst=".to_string());
    };
    if !a.present(1) {
        return Err("dim= is required (the last axis, -1)".to_string());
    }
    check_scatter_dtype(input.dtype(), "input")?;
    check_scatter_index(input.dtype(), index.dtype())?;
    if let (Some(p), Some(q)) = (input.dtype(), src.dtype()) {
        if p != q {
            return Err(format!("src must have the input's dtype {}, got {}", p.name(), q.name()));
        }
    }
    check_rank(input, 2, "the input")?;
    check_rank(src, 2, "src")?;
    check_rank(index, 2, "the index")?;
    if let (Some(dim), Some(rank)) = (a.int(1), rank_of(input)) {
        let norm = if dim < 0 { dim + rank as i64 } else { dim };
        if norm != rank as i64 - 1 {
            return Err(format!("only dim=-1 (the last axis) is supported, got dim={dim}"));
        }
    }
    check_extents(index, src, 0, false, "the index's rows and src's")?;
    check_extents(index, src, 1, false, "the index's columns and src's")?;
    check_extents(src, input, 0, true, "src's rows and the input's")?;
    check_extents(src, input, 1, true, "src's columns and the input's")?;
    Ok(input.clone())
}

/// `pl.tensor.scatter_mask(input, dst, mask_pattern)`.
fn tensor_scatter_mask(a: &dyn Args) -> Result<Type, String> {
    scattered_by_mask(a, 0, 1, 2)
}

/// `pl.tile.scatter_mask(dst, src, mask_pattern)`: written into `dst`.
fn tile_scatter_mask(a: &dyn Args) -> Result<Type, String> {
    scattered_by_mask(a, 1, 0, 2)
}

/// `pl.tile.scatter(dst, src, indexes)`: `dst.flat[indexes[i, j]] = src[i, j]`, in place.
fn tile_scatter(a: &dyn Args) -> Result<Type, String> {
    let (Some(dst), Some(src), Some(idx)) = (a.ty(0), a.ty(1), a.ty(2)) else {
        return Err("needs dst, src and indexes".to_string());
    };
    check_scatter_dtype(dst.dtype(), "destination")?;
    check_scatter_dtype(src.dtype(), "source")?;
    if let (Some(p), Some(q)) = (dst.dtype(), src.dtype()) {
        if p != q {
            return Err(format!("dst and src must have the same dtype, got {} and {}", p.name(), q.name()));
        }
    }
    check_scatter_index(dst.dtype(), idx.dtype())?;
    check_rank(dst, 2, "dst")?;
    check_rank(src, 2, "src")?;
    check_rank(idx, 2, "indexes")?;
    check_extents(src, dst, 1, false, "src's columns and dst's")?;
    check_extents(idx, src, 0, false, "the rows of indexes and src's")?;
    Ok(dst.clone())
}

/// `scatter_update(input, index, src, dim=-2)`: rows of `src` written into `input` at the
/// rows `index` names; 2-D `[rows, d]` with 2-D `src`, or 4-D `[blocks, block_size, 1, d]`.
fn scatter_update(a: &dyn Args) -> Result<Type, String> {
    scatter_update_dim_at(a, 3)
}

/// `pl.tile.scatter_update(input, index, src, tmp=None, dim=-2)`: the tensor form's rule,
/// with an optional scratch tile before `dim` (PyPTO's newer tests pass one).
fn tile_scatter_update(a: &dyn Args) -> Result<Type, String> {
    scatter_update_dim_at(a, 4)
}

/// The rule of [`scatter_update`] with `dim` the argument `dim_at`.
fn scatter_update_dim_at(a: &dyn Args, dim_at: usize) -> Result<Type, String> {
    let input = a.ty(0).ok_or("missing input")?;
    let (Some(index), Some(src)) = (a.ty(1), a.ty(2)) else { return Err("needs index and src".to_string()) };
    if let Some(r) = rank_of(input) {
        if r != 2 && r != 4 {
            return Err(format!("the input must have 2 or 4 dimensions, got {r}"));
        }
        check_rank(src, r, "src (the input's rank)")?;
    }
    check_rank(index, 2, "the index")?;
    if let Some(d) = index.dtype() {
        if !d.is_int() {
            return Err(format!("the index dtype must be an integer type, got {}", d.name()));
        }
    }
    if let (Some(p), Some(q)) = (input.dtype(), src.dtype()) {
        if p != q {
            return Err(format!("src must have the input's dtype {}, got {}", p.name(), q.name()));
        }
    }
    if let Some(dim) = a.int(dim_at) {
        if dim != -2 {
            return Err(format!("only dim=-2 is supported, got dim={dim}"));
        }
    }
    Ok(input.clone())
}

/// `random(key0, key1, counter0..counter3, shape, [valid_shape,] dtype=UINT32, rounds=10)`;
/// `shape` is argument 6, `dtype` and `rounds` the two after `first_attr`.
fn random_numbers(a: &dyn Args, first_attr: usize, tile: bool) -> Result<Type, String> {
    for (i, name) in ["key0", "key1", "counter0", "counter1", "counter2", "counter3"].iter().enumerate() {
        match a.ty(i) {
            Some(Type::Scalar(d)) if !d.is_int() => {
                return Err(format!("{name} must be an integer scalar, got {}", d.name()));
            }
            Some(Type::Scalar(_) | Type::Unknown) | None => {}
            Some(_) => return Err(format!("{name} must be an integer scalar")),
        }
    }
    let dtype = match a.dtype(first_attr) {
        Some(d @ (DType::Int32 | DType::UInt32)) => d,
        Some(d) => return Err(format!("the dtype must be INT32 or UINT32, got {}", d.name())),
        None if a.present(first_attr) => return Err("the dtype must be pl.INT32 or pl.UINT32".to_string()),
        None => DType::UInt32,
    };
    if let Some(r) = a.int(first_attr + 1) {
        if r != 7 && r != 10 {
            return Err(format!("rounds must be 7 or 10, got {r}"));
        }
    }
    let shape = shape_arg(a, 6)?;
    if shape.len() != 2 {
        return Err(format!("the shape must have 2 extents, got {}", shape.len()));
    }
    if !tile {
        return Ok(Type::tensor(shape, dtype));
    }
    if shape.iter().any(|d| !matches!(d, Dim::Const(n) if *n > 0)) {
        return Err("the shape of a random tile must be static and positive".to_string());
    }
    if let Some(valid) = a.dims(7) {
        if valid.len() != 2 {
            return Err(format!("valid_shape must have 2 extents, got {}", valid.len()));
        }
        for (v, s) in valid.iter().zip(&shape) {
            if let (Dim::Const(v), Dim::Const(s)) = (v, s) {
                if *v <= 0 || v > s {
                    return Err(format!("a valid extent must be in 1..={s}, got {v}"));
                }
            }
        }
    }
    Ok(Type::Tile { shape, dtype, memory: Some(MemorySpace::Vec) })
}

/// `pl.system.task_dummy(*, deps, attrs=None)`: a task id; `deps=` is required.
fn task_dummy(a: &dyn Args) -> Result<Type, String> {
    if !a.present(0) {
        return Err("requires keyword argument 'deps' (the tasks it waits for)".to_string());
    }
    Ok(Type::Scalar(DType::TaskId))
}

fn tensor_random(a: &dyn Args) -> Result<Type, String> {
    random_numbers(a, 7, false)
}

fn tile_random(a: &dyn Args) -> Result<Type, String> {
    random_numbers(a, 8, true)
}

/// `tensor.reinterpret_view(data, dtype, *, shape=None)`: [`reinterpret_view`] of a tensor
/// in packed row-major (ND or DN) storage: PyPTO refuses a DistributedTensor, an MX-layout
/// and an NZ-layout source (ops.md §2.2).
fn tensor_reinterpret_view(a: &dyn Args) -> Result<Type, String> {
    not_mx(a, 0)?;
    match a.ty(0) {
        Some(Type::Tensor { distributed: true, .. }) => Err("a DistributedTensor cannot be reinterpreted".to_string()),
        Some(Type::Tensor { layout: Layout::Nz, .. }) => {
            Err("a tensor in the NZ layout has no row-major storage to reinterpret".to_string())
        }
        _ => reinterpret_view(a),
    }
}

/// `reinterpret_view(data, dtype, *, shape=None)`: the same bytes as `dtype`; without
/// `shape`, the last extent rescaled by the two widths (it must divide exactly).
fn reinterpret_view(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing data")?;
    let to = dtype_arg(a, 1)?;
    let from = ty.dtype();
    let sub_byte = |d: DType| matches!(d, DType::Fp4 | DType::Hf4 | DType::Int4 | DType::UInt4);
    if sub_byte(to) || from.is_some_and(sub_byte) {
        return Err("4-bit dtypes cannot be reinterpreted".to_string());
    }
    let Some(old) = ty.shape() else { return Ok(with_dtype(ty, to)) };
    if old.is_empty() {
        return Err("the data must have at least one dimension".to_string());
    }
    let shape = match a.dims(2) {
        Some(shape) => {
            if let (Some(f), Some(n), Some(m)) = (from, element_count(old), element_count(&shape)) {
                if n * f.bytes() != m * to.bytes() {
                    return Err(format!("the shape holds {} bytes, the data {}", m * to.bytes(), n * f.bytes()));
                }
            }
            shape
        }
        None => {
            let mut shape = old.to_vec();
            if let (Some(f), Some(Dim::Const(n))) = (from, shape.last().copied()) {
                let bytes = n * f.bytes();
                if bytes % to.bytes() != 0 {
                    return Err(format!(
                        "the last extent ({n} x {} bytes) is not a whole number of {} elements",
                        f.bytes(),
                        to.name()
                    ));
                }
                *shape.last_mut().unwrap_or(&mut Dim::Unknown) = Dim::Const(bytes / to.bytes());
            } else if from.is_some_and(|f| f.bytes() != to.bytes()) {
                *shape.last_mut().unwrap_or(&mut Dim::Unknown) = Dim::Unknown;
            }
            shape
        }
    };
    Ok(with_dtype(&with_shape(ty, shape), to))
}

const T_RANDOM: &[ParamDef] = &[
    req(P::Key0, K::Scalar),
    req(P::Key1, K::Scalar),
    req(P::Counter0, K::Scalar),
    req(P::Counter1, K::Scalar),
    req(P::Counter2, K::Scalar),
    req(P::Counter3, K::Scalar),
    req(P::Shape, K::Shape),
    opt(P::Dtype, K::DType),
    opt(P::Rounds, K::Int),
];
const S_RANDOM: &[ParamDef] = &[
    req(P::Key0, K::Scalar),
    req(P::Key1, K::Scalar),
    req(P::Counter0, K::Scalar),
    req(P::Counter1, K::Scalar),
    req(P::Counter2, K::Scalar),
    req(P::Counter3, K::Scalar),
    req(P::Shape, K::Shape),
    opt(P::ValidShape, K::Shape),
    opt(P::Dtype, K::DType),
    opt(P::Rounds, K::Int),
];
const T_COL_EXPAND: &[ParamDef] = &[req(P::Tensor, K::Tensor), req(P::ColVec, K::Tensor)];
const T_ROW_EXPAND: &[ParamDef] = &[req(P::Tensor, K::Tensor), req(P::RowVec, K::Tensor)];
const S_COL_EXPAND: &[ParamDef] = &[req(P::Tile, K::Tile), req(P::ColVec, K::Tile)];
const S_ROW_EXPAND: &[ParamDef] = &[req(P::Tile, K::Tile), req(P::RowVec, K::Tile)];
const T_PART: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Tensor)];
const S_PART: &[ParamDef] = &[req(P::Src0, K::Tile), req(P::Src1, K::Tile)];
const T_FMOD: &[ParamDef] = &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Value)];
// `high_precision=` on the tile forms is newer than the reference; PyPTO's system tests use it.
const S_FMOD: &[ParamDef] = &[req(P::Lhs, K::Tile), req(P::Rhs, K::Value), opt(P::HighPrecision, K::Bool)];

const PIPE_INIT: &[ParamDef] = &[
    opt(P::C2vConsumerBuf, K::Value),
    opt(P::V2cConsumerBuf, K::Value),
    opt(P::DirMask, K::Int),
    opt(P::SlotSize, K::Int),
    opt(P::SlotNum, K::Int),
    opt(P::LocalSlotNum, K::Int),
    opt(P::Id, K::Int),
];
const SYNC_PAIR: &[ParamDef] = &[req(P::SetPipe, K::Any), req(P::WaitPipe, K::Any), req(P::EventId, K::Any)];
const TFREE: &[ParamDef] = &[req(P::Tile, K::Tile), opt(P::Split, K::Int), opt(P::Id, K::Int)];
const PLD_TILE_GET: &[ParamDef] = &[
    write(P::Dst, K::Tensor),
    req(P::Peer, K::Scalar),
    req(P::Src, K::Tensor),
    req(P::Stage, K::Tile),
    opt(P::Stage2, K::Tile),
    opt(P::DstOffsets, K::Indices),
    opt(P::SrcOffsets, K::Indices),
    opt(P::Shape, K::Shape),
];

/// `img2col(src, pos_m, pos_k, shape, *, image_shape, kernel_size, stride, padding,
/// dilation)`, of a tile and of a tensor.
const IMG2COL_TILE: &[ParamDef] = &[
    req(P::Src, K::Tile),
    req(P::PosM, K::Scalar),
    req(P::PosK, K::Scalar),
    req(P::Shape, K::Shape),
    req(P::ImageShape, K::Shape),
    req(P::KernelSize, K::Shape),
    opt(P::Stride, K::Shape),
    opt(P::Padding, K::Shape),
    opt(P::Dilation, K::Shape),
];
const IMG2COL_TENSOR: &[ParamDef] = &[
    req(P::Src, K::Tensor),
    req(P::PosM, K::Scalar),
    req(P::PosK, K::Scalar),
    req(P::Shape, K::Shape),
    req(P::ImageShape, K::Shape),
    req(P::KernelSize, K::Shape),
    opt(P::Stride, K::Shape),
    opt(P::Padding, K::Shape),
    opt(P::Dilation, K::Shape),
];

macro_rules! ops {
    ($($(#[$doc:meta])* $id:ident = $name:literal, $level:ident, [$($spelling:literal),*], $unified:expr, $params:expr,
       $result:expr, $orch:expr, $kind:expr $(, older: [$(($old:literal, $today:literal)),*])?;)*) => {
        /// An op of the table; [`Op::def`] is its row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        pub enum Op {
            $($(#[$doc])* $id,)*
        }

        impl Op {
            /// Every op, in table order.
            pub const ALL: &'static [Op] = &[$(Op::$id),*];
        }

        /// Every op's row, in the order of [`Op`].
        pub static OPS: &[OpDef] = &[
            $(OpDef {
                name: $name,
                level: OpLevel::$level,
                spellings: &[$($spelling),*],
                unified: $unified,
                params: $params,
                result: $result,
                orchestration: $orch,
                kind: $kind,
                older: &[$($(($old, $today)),*)?],
            },)*
        ];
    };
}

ops! {
    // ---- tensors: creation, metadata, views, element access (orchestration-legal)
    TensorCreate = "tensor.create", Tensor, ["pl.create_tensor", "pl.tensor.create", "pl.create", "pl.op.tensor.create"], None,
        &[req(P::Shape, K::Shape), req(P::Dtype, K::DType), opt(P::Layout, K::Enum("TensorLayout")),
          opt(P::ManualDep, K::Bool), opt(P::InitValue, K::Value), opt(P::MemoryType, K::Enum("MemorySpace"))],
        tensor_created, true, OpKind::Special(Special::CreateTensor),
        older: [("pl.create", "pl.create_tensor"), ("pl.op.tensor.create", "pl.create_tensor")];
    TensorFull = "tensor.full", Tensor, ["pl.full", "pl.tensor.full"], None,
        &[req(P::Shape, K::Shape), req(P::Dtype, K::DType), req(P::Value, K::Scalar)],
        tensor_from_shape_dtype, false, OpKind::Special(Special::Full);
    // `t.shape` and `t.dtype` of a bare `pl.Tensor`, known only at run time.
    TensorShape = "tensor.shape", Tensor, ["pl.tensor.shape"], None, &[req(P::T, K::Tensor)], unknown, true, OpKind::Special(Special::ShapeOf),
        older: [("*", "the shape in the annotation, or pl.tensor.dim(t, axis) for one extent")];
    TensorDtype = "tensor.dtype", Tensor, ["pl.tensor.dtype"], None, &[req(P::T, K::Tensor)], unknown, true, OpKind::Special(Special::DTypeOf),
        older: [("*", "the dtype in the annotation")];
    TensorDim = "tensor.dim", Tensor, ["pl.tensor.dim"], None,
        &[req(P::Tensor, K::Tensor), req(P::Axis, K::Int)], dim_of, true, OpKind::Special(Special::Dim);
    TensorRead = "tensor.read", Tensor, ["pl.tensor.read"], Some("read"),
        &[req(P::Tensor, K::Tensor), req(P::Indices, K::Indices)], read_element, true, OpKind::Special(Special::Read);
    TensorWrite = "tensor.write", Tensor, ["pl.tensor.write"], Some("write"),
        &[write(P::Tensor, K::Tensor), req(P::Indices, K::Indices), req(P::Value, K::Scalar)], write_element, true, OpKind::Special(Special::Write);
    // `pl.view(x, shape, offset)`: older releases' name of the slice (a window at `offset`).
    TensorSlice = "tensor.slice", Tensor, ["pl.tensor.slice", "pl.view"], Some("slice"),
        &[req(P::X, K::Tensor), req(P::Shape, K::Shape), req(P::Offset, K::Indices), opt(P::ValidShape, K::Shape),
          opt(P::DropDims, K::Any), opt(P::PadValue, K::Enum("PadValue")), opt(P::Clamp, K::Bool)],
        tensor_sliced, true, OpKind::Special(Special::Slice),
        older: [("pl.view", "pl.slice")];
    TensorReshape = "tensor.reshape", Tensor, ["pl.tensor.reshape"], Some("reshape"),
        &[req(P::X, K::Tensor), req(P::Shape, K::Shape)], tensor_reshaped, true, OpKind::Special(Special::Reshape);
    TensorTranspose = "tensor.transpose", Tensor, ["pl.tensor.transpose"], Some("transpose"),
        &[req(P::X, K::Tensor), req(P::Axis1, K::Int), req(P::Axis2, K::Int)], tensor_transposed, true, OpKind::Special(Special::Transpose);
    TensorView = "tensor.view", Tensor, ["pl.tensor.view"], None,
        &[req(P::Tensor, K::Tensor), opt(P::Shape, K::Shape), opt(P::ValidShape, K::Shape), opt(P::Layout, K::Enum("TensorLayout"))],
        tensor_view, true, OpKind::Special(Special::View);
    // `pl.tensor.as_layout(t, layout=L)` (newer than ops.md): the same storage under layout
    // L, a view whose last two axes swap for DN (PyPTO's ND <-> DN flip).
    TensorAsLayout = "tensor.as_layout", Tensor, ["pl.tensor.as_layout"], None,
        &[req(P::Tensor, K::Tensor), req(P::Layout, K::Enum("TensorLayout"))],
        tensor_as_layout, true, OpKind::Special(Special::View);
    TensorAssemble = "tensor.assemble", Tensor, ["pl.tensor.assemble"], Some("assemble"),
        &[write(P::Target, K::Tensor), req(P::Source, K::Value), req(P::Offset, K::Indices), opt(P::Atomic, K::Enum("AtomicType"))],
        tensor_assemble, false, OpKind::Special(Special::Assemble);
    TensorGetBlockIdx = "tensor.get_block_idx", Tensor, ["pl.get_block_idx", "pl.tensor.get_block_idx"], None, &[], index_scalar, false, OpKind::Special(Special::BlockIdx);
    // `pl.copy(dst, src, ...)`: destination first; `dst` is written in place.
    TensorCopy = "tensor.copy", Tensor, ["pl.copy", "pl.tensor.copy"], None,
        &[write(P::Dst, K::Tensor), req(P::Src, K::Tensor), opt(P::DstOffsets, K::Indices), opt(P::SrcOffsets, K::Indices),
          opt(P::Shape, K::Shape), opt(P::SourceMemory, K::Enum("MemorySpace")), opt(P::TargetMemory, K::Enum("MemorySpace"))],
        same_as_first, false, OpKind::Special(Special::Copy),
        older: [("*", "pl.assemble(dst, src, offset), or pl.load and pl.store")];
    // An L1 staging tensor for `gather_row` (`transpose=` is its layout): on the CPU, a tensor.
    TensorCreateL1 = "tensor.create_l1", Tensor, ["pl.tensor.create_l1", "pl.create_l1"], None,
        &[req(P::Shape, K::Shape), req(P::Dtype, K::DType), opt(P::Transpose, K::Bool)],
        tensor_create_l1, false, OpKind::Special(Special::CreateTensor);
    TensorCi = "tensor.ci", Tensor, ["pl.tensor.ci", "pl.tensor.arange", "pl.arange"], None,
        &[req(P::Start, K::Scalar), req(P::Shape, K::Shape), opt(P::Dtype, K::DType), opt(P::Descending, K::Bool)],
        tensor_ci, false, OpKind::Special(Special::Ci);

    // ---- tensor compute (unified with tiles)
    TensorAdd = "tensor.add", Tensor, ["pl.tensor.add", "pl.op.tensor.add"], Some("add"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Add);
    TensorSub = "tensor.sub", Tensor, ["pl.tensor.sub"], Some("sub"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Sub);
    TensorMul = "tensor.mul", Tensor, ["pl.tensor.mul", "pl.op.tensor.mul"], Some("mul"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Mul);
    TensorDiv = "tensor.div", Tensor, ["pl.tensor.div"], Some("div"), DIV, tensor_div, false, OpKind::Binary(BinaryFn::Div);
    TensorMaximum = "tensor.maximum", Tensor, ["pl.tensor.maximum"], Some("maximum"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Max);
    TensorMinimum = "tensor.minimum", Tensor, ["pl.tensor.minimum"], Some("minimum"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Min);
    TensorExp = "tensor.exp", Tensor, ["pl.tensor.exp"], Some("exp"), UNARY_PRECISION, same_as_first, false, OpKind::Unary(UnaryFn::Exp);
    TensorLog = "tensor.log", Tensor, ["pl.tensor.log"], Some("log"), UNARY_PRECISION, same_as_first, false, OpKind::Unary(UnaryFn::Log);
    TensorSqrt = "tensor.sqrt", Tensor, ["pl.tensor.sqrt"], Some("sqrt"), UNARY_PRECISION, same_as_first, false, OpKind::Unary(UnaryFn::Sqrt);
    TensorRsqrt = "tensor.rsqrt", Tensor, ["pl.tensor.rsqrt"], Some("rsqrt"), UNARY_PRECISION, same_as_first, false, OpKind::Unary(UnaryFn::Rsqrt);
    TensorRecip = "tensor.recip", Tensor, ["pl.tensor.recip"], Some("recip"), UNARY_PRECISION, tensor_recip, false, OpKind::Unary(UnaryFn::Recip);
    TensorNeg = "tensor.neg", Tensor, ["pl.tensor.neg"], Some("neg"), UNARY, same_as_first, false, OpKind::Unary(UnaryFn::Neg);
    TensorAbs = "tensor.abs", Tensor, ["pl.tensor.abs"], Some("abs"), UNARY, same_as_first, false, OpKind::Unary(UnaryFn::Abs);
    TensorRelu = "tensor.relu", Tensor, ["pl.tensor.relu"], Some("relu"), UNARY, same_as_first, false, OpKind::Unary(UnaryFn::Relu),
        older: [("*", "pl.tile.relu on a loaded tile")];
    TensorCast = "tensor.cast", Tensor, ["pl.tensor.cast"], Some("cast"),
        &[req(P::X, K::Tensor), req(P::TargetType, K::DType), opt(P::Mode, K::Named(&CAST_MODES)), opt(P::SaturationMode, K::Any)], cast, false, OpKind::Special(Special::Cast);
    TensorMatmul = "tensor.matmul", Tensor, ["pl.tensor.matmul"], Some("matmul"), T_MATMUL, matmul, false, OpKind::Special(Special::Matmul);
    TensorMatmulAcc = "tensor.matmul_acc", Tensor, ["pl.tensor.matmul_acc"], Some("matmul_acc"),
        &[req(P::Acc, K::Tensor), req(P::Lhs, K::Tensor), req(P::Rhs, K::Tensor), opt(P::ATrans, K::Bool),
          opt(P::BTrans, K::Bool), opt(P::InitCond, K::Value)],
        tensor_matmul_acc, false, OpKind::Special(Special::MatmulAcc);
    TensorMatmulBias = "tensor.matmul_bias", Tensor, ["pl.tensor.matmul_bias"], Some("matmul_bias"), T_MATMUL_BIAS, matmul_bias, false, OpKind::Special(Special::MatmulBias),
        older: [("*", "pl.tile.matmul_bias on loaded tiles")];
    TensorGemv = "tensor.gemv", Tensor, ["pl.tensor.gemv"], Some("gemv"), T_MATMUL, matmul, false, OpKind::Special(Special::Matmul),
        older: [("*", "pl.tile.gemv on loaded tiles")];
    TensorGemvAcc = "tensor.gemv_acc", Tensor, ["pl.tensor.gemv_acc"], Some("gemv_acc"), T_GEMV_ACC, gemv_acc, false, OpKind::Special(Special::MatmulAcc),
        older: [("*", "pl.tile.gemv_acc on loaded tiles")];
    TensorGemvBias = "tensor.gemv_bias", Tensor, ["pl.tensor.gemv_bias"], Some("gemv_bias"), T_MATMUL_BIAS, matmul_bias, false, OpKind::Special(Special::MatmulBias),
        older: [("*", "pl.tile.gemv_bias on loaded tiles")];
    TensorRowSum = "tensor.row_sum", Tensor, ["pl.tensor.row_sum"], Some("row_sum"), T_REDUCE, row_reduce, false, OpKind::Reduce(Axis::Row, ReduceFn::Sum);
    TensorRowMax = "tensor.row_max", Tensor, ["pl.tensor.row_max"], Some("row_max"), T_REDUCE, row_reduce, false, OpKind::Reduce(Axis::Row, ReduceFn::Max);
    TensorRowMin = "tensor.row_min", Tensor, ["pl.tensor.row_min"], Some("row_min"), T_REDUCE, tensor_row_min, false, OpKind::Reduce(Axis::Row, ReduceFn::Min);
    TensorColSum = "tensor.col_sum", Tensor, ["pl.tensor.col_sum"], Some("col_sum"), T_REDUCE, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Sum);
    TensorColMax = "tensor.col_max", Tensor, ["pl.tensor.col_max"], Some("col_max"), T_REDUCE, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Max);
    TensorSum = "tensor.sum", Tensor, ["pl.tensor.sum"], Some("sum"), T_AXIS_REDUCE, tensor_axis_reduce, false, OpKind::AxisReduce { f: ReduceFn::Sum, default_axis: -1, default_keep: true },
        older: [("*", "pl.tensor.row_sum or pl.tensor.col_sum")];
    TensorMax = "tensor.max", Tensor, ["pl.tensor.max"], Some("max"), T_AXIS_REDUCE, tensor_axis_reduce, false, OpKind::AxisReduce { f: ReduceFn::Max, default_axis: -1, default_keep: true },
        older: [("*", "pl.tensor.row_max or pl.tensor.col_max")];
    TensorMin = "tensor.min", Tensor, ["pl.tensor.min"], Some("min"), T_AXIS_REDUCE, tensor_axis_reduce, false, OpKind::AxisReduce { f: ReduceFn::Min, default_axis: -1, default_keep: true },
        older: [("*", "pl.tensor.row_min")];
    TensorRowExpandMul = "tensor.row_expand_mul", Tensor, ["pl.tensor.row_expand_mul"], Some("row_expand_mul"), EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Mul));
    TensorRowExpandDiv = "tensor.row_expand_div", Tensor, ["pl.tensor.row_expand_div"], Some("row_expand_div"), EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Div));
    TensorRowExpandSub = "tensor.row_expand_sub", Tensor, ["pl.tensor.row_expand_sub"], Some("row_expand_sub"), EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Sub));
    TensorRowExpandAdd = "tensor.row_expand_add", Tensor, ["pl.tensor.row_expand_add"], Some("row_expand_add"), EXPAND, tensor_row_expand_add, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Add));
    TensorColExpandMul = "tensor.col_expand_mul", Tensor, ["pl.tensor.col_expand_mul"], Some("col_expand_mul"), EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Mul));
    TensorColExpand = "tensor.col_expand", Tensor, ["pl.tensor.col_expand"], Some("col_expand"),
        &[req(P::Tensor, K::Tensor), req(P::ColVec, K::Tensor)], col_expanded, false, OpKind::Expand(Axis::Col, None);
    TensorExpands = "tensor.expands", Tensor, ["pl.tensor.expands"], Some("expands"),
        &[req(P::Target, K::Tensor), req(P::Scalar, K::Scalar)], same_as_first, false, OpKind::Special(Special::Expands);
    TensorConcat = "tensor.concat", Tensor, ["pl.tensor.concat"], Some("concat"), BINARY, concat, false, OpKind::Special(Special::Concat);
    TensorRuntimePrint = "tensor.runtime_print", Tensor, ["pl.tensor.runtime_print"], Some("runtime_print"),
        &[req(P::Tensor, K::Tensor)], none, true, OpKind::Special(Special::RuntimePrint);
    TensorFillpad = "tensor.fillpad", Tensor, ["pl.tensor.fillpad"], Some("fillpad"),
        &[req(P::X, K::Tensor), opt(P::PadValue, K::Enum("PadValue"))], same_as_first, false, OpKind::Special(Special::Fillpad);
    TensorSetValidshape = "tensor.set_validshape", Tensor, ["pl.tensor.set_validshape"], Some("set_validshape"),
        &[req(P::Tensor, K::Tensor), req(P::ValidRows, K::Scalar), req(P::ValidCols, K::Scalar)], tensor_set_validshape, false, OpKind::Special(Special::SetValidShape);
    // scalar-operand, bitwise and select families
    TensorAdds = "tensor.adds", Tensor, ["pl.tensor.adds"], Some("adds"), T_SCALAR_RHS, scalar_promoted, false, OpKind::Binary(BinaryFn::Add);
    TensorSubs = "tensor.subs", Tensor, ["pl.tensor.subs"], Some("subs"), T_SCALAR_RHS, tensor_subs, false, OpKind::Binary(BinaryFn::Sub);
    TensorMuls = "tensor.muls", Tensor, ["pl.tensor.muls"], Some("muls"), T_SCALAR_RHS, scalar_promoted, false, OpKind::Binary(BinaryFn::Mul);
    TensorDivs = "tensor.divs", Tensor, ["pl.tensor.divs"], Some("divs"), T_SCALAR_RHS, scalar_promoted, false, OpKind::Binary(BinaryFn::Div);
    TensorRems = "tensor.rems", Tensor, ["pl.tensor.rems"], Some("rems"), T_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Rem),
        older: [("*", "pl.tile.rems on a loaded tile")];
    TensorMaxs = "tensor.maxs", Tensor, ["pl.tensor.maxs"], Some("maxs"), T_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Max),
        older: [("*", "pl.tile.maximums on a loaded tile")];
    TensorMins = "tensor.mins", Tensor, ["pl.tensor.mins"], Some("mins"), T_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Min),
        older: [("*", "pl.tile.minimums on a loaded tile")];
    TensorAnds = "tensor.ands", Tensor, ["pl.tensor.ands"], Some("ands"), T_SCALAR_RHS, tensor_bitwise, false, OpKind::Binary(BinaryFn::And);
    TensorOrs = "tensor.ors", Tensor, ["pl.tensor.ors"], Some("ors"), T_SCALAR_RHS, tensor_bitwise, false, OpKind::Binary(BinaryFn::Or);
    TensorXors = "tensor.xors", Tensor, ["pl.tensor.xors"], Some("xors"), T_XORS, tensor_xor, false, OpKind::Binary(BinaryFn::Xor);
    TensorShls = "tensor.shls", Tensor, ["pl.tensor.shls"], Some("shls"), T_SCALAR_RHS, tensor_shift, false, OpKind::Binary(BinaryFn::Shl);
    TensorShrs = "tensor.shrs", Tensor, ["pl.tensor.shrs"], Some("shrs"), T_SCALAR_RHS, tensor_shift, false, OpKind::Binary(BinaryFn::Shr);
    TensorLrelu = "tensor.lrelu", Tensor, ["pl.tensor.lrelu"], Some("lrelu"), T_SCALAR_RHS, same_as_first, false, OpKind::Special(Special::Lrelu),
        older: [("*", "pl.tile.lrelu on a loaded tile")];
    TensorRem = "tensor.rem", Tensor, ["pl.tensor.rem"], Some("rem"), T_BINARY, same_as_first, false, OpKind::Binary(BinaryFn::Rem),
        older: [("*", "pl.tile.rem on loaded tiles")];
    TensorAnd = "tensor.and_", Tensor, ["pl.tensor.and_"], Some("and_"), T_BINARY, tensor_bitwise, false, OpKind::Binary(BinaryFn::And);
    TensorOr = "tensor.or_", Tensor, ["pl.tensor.or_"], Some("or_"), T_BINARY, tensor_bitwise, false, OpKind::Binary(BinaryFn::Or);
    TensorXor = "tensor.xor", Tensor, ["pl.tensor.xor"], Some("xor"), T_XOR, tensor_xor, false, OpKind::Binary(BinaryFn::Xor);
    TensorShl = "tensor.shl", Tensor, ["pl.tensor.shl"], Some("shl"), T_BINARY, tensor_shift, false, OpKind::Binary(BinaryFn::Shl);
    TensorShr = "tensor.shr", Tensor, ["pl.tensor.shr"], Some("shr"), T_BINARY, tensor_shift, false, OpKind::Binary(BinaryFn::Shr);
    TensorNot = "tensor.not_", Tensor, ["pl.tensor.not_"], Some("not_"), &[req(P::Input, K::Tensor)], tensor_not, false, OpKind::Unary(UnaryFn::Not);
    TensorPrelu = "tensor.prelu", Tensor, ["pl.tensor.prelu"], Some("prelu"),
        &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Tensor), req(P::Tmp, K::Tensor)], same_as_first, false, OpKind::Special(Special::Prelu),
        older: [("*", "pl.tile.prelu on loaded tiles")];
    TensorAddc = "tensor.addc", Tensor, ["pl.tensor.addc"], Some("addc"), T_TERNARY, same_as_first, false, OpKind::Chain(BinaryFn::Add),
        older: [("*", "pl.tile.addc on loaded tiles")];
    TensorSubc = "tensor.subc", Tensor, ["pl.tensor.subc"], Some("subc"), T_TERNARY, same_as_first, false, OpKind::Chain(BinaryFn::Sub),
        older: [("*", "pl.tile.subc on loaded tiles")];
    TensorAddsc = "tensor.addsc", Tensor, ["pl.tensor.addsc"], Some("addsc"), T_TERNARY_S, same_as_first, false, OpKind::Chain(BinaryFn::Add),
        older: [("*", "pl.tile.addsc on loaded tiles")];
    TensorSubsc = "tensor.subsc", Tensor, ["pl.tensor.subsc"], Some("subsc"), T_TERNARY_S, same_as_first, false, OpKind::Chain(BinaryFn::Sub),
        older: [("*", "pl.tile.subsc on loaded tiles")];
    TensorCmp = "tensor.cmp", Tensor, ["pl.tensor.cmp"], Some("cmp"),
        &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Value), opt(P::CmpType, K::Int)], tensor_cmp, false, OpKind::Compare;
    TensorCmps = "tensor.cmps", Tensor, ["pl.tensor.cmps"], Some("cmps"),
        &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Scalar), opt(P::CmpType, K::Int)], tensor_cmps, false, OpKind::Compare,
        older: [("*", "pl.tensor.cmp(lhs, scalar, cmp_type)")];
    TensorSel = "tensor.sel", Tensor, ["pl.tensor.sel"], Some("sel"),
        &[req(P::Mask, K::Tensor), req(P::Lhs, K::Tensor), req(P::Rhs, K::Tensor)], same_as_second, false, OpKind::Special(Special::Sel),
        older: [("*", "pl.tile.sel(mask, lhs, rhs, tmp) on loaded tiles")];
    TensorSels = "tensor.sels", Tensor, ["pl.tensor.sels"], Some("sels"),
        &[req(P::Lhs, K::Tensor), req(P::Rhs, K::Tensor), req(P::SelectMode, K::Scalar)], same_as_first, false, OpKind::Special(Special::Sels),
        older: [("*", "pl.tile.sels(mask, src, tmp, scalar) on loaded tiles")];
    // sorting and gathering
    TensorSort32 = "tensor.sort32", Tensor, ["pl.tensor.sort32"], Some("sort32"),
        &[req(P::Src, K::Tensor), req(P::Idx, K::Tensor)], tensor_sort32, false, OpKind::Special(Special::Sort32);
    TensorMrgsort = "tensor.mrgsort", Tensor, ["pl.tensor.mrgsort"], Some("mrgsort"),
        &[req(P::Src0, K::Tensor), opt(P::Src1, K::Tensor), opt(P::Src2, K::Tensor), opt(P::Src3, K::Tensor),
          opt(P::Exhausted, K::Bool), opt(P::BlockLen, K::Scalar)],
        tensor_mrgsort, false, OpKind::Special(Special::Mrgsort);
    TensorGather = "tensor.gather", Tensor, ["pl.tensor.gather"], Some("gather"),
        &[req(P::Input, K::Tensor), opt(P::Dim, K::Int), opt(P::Index, K::Tensor), opt(P::MaskPattern, K::Any),
          opt(P::OutputDtype, K::DType), opt(P::Kvalue, K::Scalar), opt(P::CmpMode, K::Any), opt(P::OutCols, K::Int),
          opt(P::Offset, K::Int), opt(P::CountDtype, K::DType)],
        tensor_gather, false, OpKind::Special(Special::Gather);
    // PyPTO's IR-level spellings of the forms `pl.tensor.gather` and `pl.tensor.mrgsort`
    // dispatch to (reached through its IR-builder fallback).
    TensorGatherMask = "tensor.gather_mask", Tensor, ["pl.tensor.gather_mask"], None,
        &[req(P::Input, K::Tensor), req(P::MaskPattern, K::Any), opt(P::OutputDtype, K::DType)],
        tile_gather_mask, false, OpKind::Special(Special::GatherMask);
    TensorGatherCompare = "tensor.gather_compare", Tensor, ["pl.tensor.gather_compare"], None,
        &[req(P::Input, K::Tensor), req(P::Kvalue, K::Scalar), opt(P::CmpMode, K::Any), opt(P::Offset, K::Int),
          opt(P::OutCols, K::Int), opt(P::CountDtype, K::DType)],
        tensor_gather_compare, false, OpKind::Special(Special::GatherCompare);
    TensorMrgsortFormat1 = "tensor.mrgsort_format1", Tensor, ["pl.tensor.mrgsort_format1"], None,
        &[req(P::Src0, K::Tensor), req(P::BlockLen, K::Scalar)], mrgsort_format1, false, OpKind::Special(Special::Mrgsort);
    TensorMrgsortFormat2 = "tensor.mrgsort_format2", Tensor, ["pl.tensor.mrgsort_format2"], None,
        &[req(P::Src0, K::Tensor), req(P::Src1, K::Tensor), opt(P::Src2, K::Tensor), opt(P::Src3, K::Tensor), opt(P::Exhausted, K::Bool)],
        tensor_mrgsort_format2, false, OpKind::Special(Special::Mrgsort);

    // ---- tiles: memory movement and creation
    // Releases differ: `valid_shapes=` and `transpose=` (older), `valid_shape=` and
    // `clamp=` (newer); all are accepted. `valid_shape` is keyword-only here.
    TileLoad = "tile.load", Tile, ["pl.load", "pl.tile.load"], None,
        &[req(P::Tensor, K::Tensor), req(P::Offsets, K::Indices), req(P::Shapes, K::Shape), opt(P::ValidShapes, K::Shape),
          opt(P::TargetMemory, K::Enum("MemorySpace")), opt(P::Transpose, K::Bool), opt(P::Clamp, K::Bool),
          opt(P::ValidShape, K::Shape), opt(P::Cache, K::Enum("CachePolicy")), opt(P::L2Hint, K::Enum("LoadL2Hint")),
          opt(P::MxLayout, K::Str), opt(P::Out, K::Tile)],
        load, false, OpKind::Special(Special::Load);
    TileStore = "tile.store", Tile, ["pl.store", "pl.tile.store"], None,
        &[req(P::Tile, K::Tile), req(P::Offsets, K::Indices), write(P::OutputTensor, K::Tensor), opt(P::Shapes, K::Shape),
          opt(P::Atomic, K::Enum("AtomicType")), opt(P::PreQuant, K::Value), opt(P::PreRelu, K::Bool),
          opt(P::StPhase, K::Any), opt(P::L2Hint, K::Enum("StoreL2Hint"))],
        stored, false, OpKind::Special(Special::Store);
    // Stores an `Acc` tile (older releases; current ones use `pl.store`).
    TileL0cStore = "tile.l0c_store", Tile, ["pl.l0c_store", "pl.tile.l0c_store", "pl.block.l0c_store"], None,
        &[req(P::Tile, K::Tile), req(P::Offsets, K::Indices), req(P::Shapes, K::Shape), write(P::OutputTensor, K::Tensor)],
        same_as_fourth, false, OpKind::Special(Special::Store),
        older: [("*", "pl.store, which takes an Acc tile")];
    TileCreate = "tile.create", Tile, ["pl.create_tile", "pl.tile.create"], None,
        &[req(P::Shape, K::Shape), req(P::Dtype, K::DType), opt(P::TargetMemory, K::Enum("MemorySpace")), opt(P::Transpose, K::Bool),
          opt(P::FlatLayout, K::Bool)],
        tile_from_shape_dtype, false, OpKind::Special(Special::CreateTile);
    // Explicit tile buffers (newer than ops.md; PyPTO's codegen tests use them).
    TileCreateBufferSet = "tile.create_buffer_set", Tile, ["pl.create_tile_buffers"], None,
        &[req(P::Count, K::Int), req(P::Shape, K::Shape), req(P::Dtype, K::DType), opt(P::MemorySpace, K::Enum("MemorySpace"))],
        tile_buffer_set, false, OpKind::Special(Special::CreateBufferSet);
    TileBufferSlot = "tile.buffer_slot", Tile, ["pl.tile.buffer_slot"], None,
        &[req(P::Buffers, K::Any), req(P::Index, K::Scalar)], buffer_slot, false, OpKind::Special(Special::BufferSlot);
    TileRelease = "tile.release", Tile, ["pl.tile.release"], None, &[req(P::Tile, K::Tile)], none, false,
        OpKind::Special(Special::Hardware);
    // A tile pinned to a buffer of the user's (newer than ops.md; PyPTO's memory-reuse tests
    // use it): `addr` and `size` in bytes in the tile's memory, tiles of one `id` share it.
    TileAllocBuffer = "tile.alloc_buffer", Tile, ["pl.tile.alloc_buffer"], None,
        &[req(P::Tile, K::Tile), req(P::Addr, K::Int), req(P::Size, K::Int), req(P::Id, K::Int)], none, false,
        OpKind::Special(Special::PinBuffer);
    TileFull = "tile.full", Tile, ["pl.tile.full"], None,
        &[req(P::Shape, K::Shape), req(P::Dtype, K::DType), req(P::Value, K::Scalar)], tile_full, false, OpKind::Special(Special::Full);
    TileCi = "tile.ci", Tile, ["pl.tile.ci", "pl.tile.arange"], None,
        &[req(P::Start, K::Scalar), req(P::Shape, K::Shape), opt(P::Dtype, K::DType), opt(P::Descending, K::Bool)],
        tile_ci, false, OpKind::Special(Special::Ci);
    // `transpose=` is the older releases' flag (`pl.move(t, target_memory=..., transpose=True)`).
    TileMove = "tile.move", Tile, ["pl.move", "pl.tile.move"], None,
        &[req(P::Tile, K::Tile), req(P::TargetMemory, K::Enum("MemorySpace")), opt(P::Blayout, K::Enum("TileLayout")),
          opt(P::Slayout, K::Enum("TileLayout")),
          opt(P::Transpose, K::Bool)],
        moved, false, OpKind::Special(Special::Move);
    TileRead = "tile.read", Tile, ["pl.tile.read"], Some("read"),
        &[req(P::Tile, K::Tile), req(P::Indices, K::Indices)], read_element, false, OpKind::Special(Special::Read);
    TileWrite = "tile.write", Tile, ["pl.tile.write"], Some("write"),
        &[read_write(P::Tile, K::Tile), req(P::Indices, K::Indices), req(P::Value, K::Scalar)], write_element, false, OpKind::Special(Special::Write);
    TileSlice = "tile.slice", Tile, ["pl.tile.slice"], Some("slice"),
        &[req(P::X, K::Tile), req(P::Shape, K::Shape), req(P::Offset, K::Indices), opt(P::ValidShape, K::Shape),
          opt(P::DropDims, K::Any), opt(P::PadValue, K::Enum("PadValue")), opt(P::Clamp, K::Bool)],
        sliced, false, OpKind::Special(Special::Slice);
    TileReshape = "tile.reshape", Tile, ["pl.tile.reshape"], Some("reshape"), &[req(P::X, K::Tile), req(P::Shape, K::Shape)], reshaped, false, OpKind::Special(Special::Reshape);
    TileTranspose = "tile.transpose", Tile, ["pl.tile.transpose"], Some("transpose"),
        &[req(P::X, K::Tile), req(P::Axis1, K::Int), req(P::Axis2, K::Int), opt(P::TmpTile, K::Tile)], transposed, false, OpKind::Special(Special::Transpose);
    // A zero-copy NZ <-> ZN reinterpretation: the last two extents swap.
    TileTransposeView = "tile.transpose_view", Tile, ["pl.tile.transpose_view"], None, &[req(P::Tile, K::Tile)], tile_transpose_view, false, OpKind::Special(Special::TransposeView);
    TileSetValidshape = "tile.set_validshape", Tile, ["pl.tile.set_validshape"], Some("set_validshape"), S_VALIDSHAPE, tile_set_validshape, false, OpKind::Special(Special::SetValidShape);
    TileAssemble = "tile.assemble", Tile, ["pl.tile.assemble"], Some("assemble"),
        &[read_write(P::Target, K::Tile), req(P::Source, K::Tile), req(P::Offset, K::Indices), opt(P::Atomic, K::Enum("AtomicType")),
          opt(P::PreQuant, K::Value), opt(P::PreRelu, K::Bool)],
        tile_assemble, false, OpKind::Special(Special::Assemble);
    TileGetBlockIdx = "tile.get_block_idx", Tile, ["pl.tile.get_block_idx"], None, &[], index_scalar, false, OpKind::Special(Special::BlockIdx);
    TileGetBlockNum = "tile.get_block_num", Tile, ["pl.tile.get_block_num"], None, &[], index_scalar, false, OpKind::Special(Special::BlockNum);

    // ---- the old `pl.op.block` API (row/column offsets, numeric memory codes)
    BlockLoad = "block.load", Tile, ["pl.op.block.load"], None,
        &[req(P::Tensor, K::Tensor), req(P::RowOffset, K::Scalar), req(P::ColOffset, K::Scalar), req(P::Height, K::Scalar),
          req(P::Width, K::Scalar), opt(P::TargetMemory, K::Int)],
        block_load, false, OpKind::Special(Special::BlockLoad),
        older: [("*", "pl.load(tensor, [row, col], [height, width], target_memory=pl.Mem.Vec)")];
    BlockStore = "block.store", Tile, ["pl.op.block.store"], None, BLOCK_STORE, same_as_sixth, false, OpKind::Special(Special::BlockStore),
        older: [("*", "pl.store(tile, [row, col], output_tensor)")];
    BlockL0cStore = "block.l0c_store", Tile, ["pl.op.block.l0c_store"], None, BLOCK_STORE, same_as_sixth, false, OpKind::Special(Special::BlockStore),
        older: [("*", "pl.store(tile, [row, col], output_tensor)")];
    BlockMove = "block.move", Tile, ["pl.op.block.move"], None,
        &[req(P::Tile, K::Tile), req(P::TargetMemory, K::Int), opt(P::Transpose, K::Bool)], block_move, false, OpKind::Special(Special::Move),
        older: [("*", "pl.move(tile, target_memory=pl.Mem.<space>)")];

    // ---- tile compute (unified with tensors)
    TileAdd = "tile.add", Tile, ["pl.tile.add", "pl.op.block.add"], Some("add"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Add);
    TileSub = "tile.sub", Tile, ["pl.tile.sub", "pl.op.block.sub"], Some("sub"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Sub);
    TileMul = "tile.mul", Tile, ["pl.tile.mul", "pl.op.block.mul"], Some("mul"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Mul);
    TileDiv = "tile.div", Tile, ["pl.tile.div"], Some("div"), DIV, tile_div, false, OpKind::Binary(BinaryFn::Div);
    TileMaximum = "tile.maximum", Tile, ["pl.tile.maximum", "pl.op.block.maximum"], Some("maximum"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Max);
    TileMinimum = "tile.minimum", Tile, ["pl.tile.minimum"], Some("minimum"), BINARY, elementwise, false, OpKind::Binary(BinaryFn::Min);
    TileExp = "tile.exp", Tile, ["pl.tile.exp", "pl.op.block.exp"], Some("exp"), UNARY_PRECISION, same_as_first, false, OpKind::Unary(UnaryFn::Exp);
    TileLog = "tile.log", Tile, ["pl.tile.log"], Some("log"), UNARY_PRECISION, tile_log, false, OpKind::Unary(UnaryFn::Log);
    TileSqrt = "tile.sqrt", Tile, ["pl.tile.sqrt"], Some("sqrt"), UNARY_PRECISION, same_as_first, false, OpKind::Unary(UnaryFn::Sqrt);
    TileRsqrt = "tile.rsqrt", Tile, ["pl.tile.rsqrt"], Some("rsqrt"), TILE_RSQRT, tile_rsqrt, false, OpKind::Unary(UnaryFn::Rsqrt);
    TileRecip = "tile.recip", Tile, ["pl.tile.recip"], Some("recip"), UNARY_PRECISION, tile_recip, false, OpKind::Unary(UnaryFn::Recip);
    TileNeg = "tile.neg", Tile, ["pl.tile.neg"], Some("neg"), UNARY, same_as_first, false, OpKind::Unary(UnaryFn::Neg);
    TileAbs = "tile.abs", Tile, ["pl.tile.abs"], Some("abs"), UNARY, same_as_first, false, OpKind::Unary(UnaryFn::Abs);
    TileRelu = "tile.relu", Tile, ["pl.tile.relu"], Some("relu"), UNARY, same_as_first, false, OpKind::Unary(UnaryFn::Relu);
    TileCast = "tile.cast", Tile, ["pl.tile.cast"], Some("cast"),
        &[req(P::X, K::Tile), req(P::TargetType, K::DType), opt(P::Mode, K::Named(&CAST_MODES)), opt(P::SaturationMode, K::Any)], cast, false, OpKind::Special(Special::Cast);
    TileMatmul = "tile.matmul", Tile, ["pl.tile.matmul", "pl.op.block.matmul"], Some("matmul"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::OutDtype, K::DType), opt(P::Out, K::Tile)], tile_matmul_out,
        false, OpKind::Special(Special::Matmul);
    TileMatmulAcc = "tile.matmul_acc", Tile, ["pl.tile.matmul_acc"], Some("matmul_acc"),
        &[read_write(P::Acc, K::Tile), req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::InitCond, K::Value)],
        tile_matmul_acc, false, OpKind::Special(Special::MatmulAcc);
    TileMatmulBias = "tile.matmul_bias", Tile, ["pl.tile.matmul_bias"], Some("matmul_bias"), S_MATMUL_BIAS, matmul_bias, false, OpKind::Special(Special::MatmulBias);
    TileGemv = "tile.gemv", Tile, ["pl.tile.gemv"], Some("gemv"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::AccPhase, K::Any)], matmul, false, OpKind::Special(Special::Matmul);
    TileGemvAcc = "tile.gemv_acc", Tile, ["pl.tile.gemv_acc"], Some("gemv_acc"),
        &[read_write(P::Acc, K::Tile), req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::AccPhase, K::Any)], gemv_acc, false, OpKind::Special(Special::MatmulAcc);
    TileGemvBias = "tile.gemv_bias", Tile, ["pl.tile.gemv_bias"], Some("gemv_bias"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), req(P::Bias, K::Tile), opt(P::AccPhase, K::Any)], matmul_bias, false, OpKind::Special(Special::MatmulBias);
    TileRowSum = "tile.row_sum", Tile, ["pl.tile.row_sum", "pl.op.block.row_sum"], Some("row_sum"), REDUCE, tile_row_reduce, false, OpKind::Reduce(Axis::Row, ReduceFn::Sum);
    TileRowMax = "tile.row_max", Tile, ["pl.tile.row_max", "pl.op.block.row_max"], Some("row_max"), REDUCE, tile_row_reduce, false, OpKind::Reduce(Axis::Row, ReduceFn::Max);
    TileRowMin = "tile.row_min", Tile, ["pl.tile.row_min"], Some("row_min"), REDUCE, tile_row_min, false, OpKind::Reduce(Axis::Row, ReduceFn::Min);
    TileColSum = "tile.col_sum", Tile, ["pl.tile.col_sum"], Some("col_sum"), REDUCE, tile_col_sum, false, OpKind::Reduce(Axis::Col, ReduceFn::Sum);
    TileColMax = "tile.col_max", Tile, ["pl.tile.col_max"], Some("col_max"), S_REDUCE_NO_TMP, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Max);
    TileSum = "tile.sum", Tile, ["pl.tile.sum"], Some("sum"),
        &[req(P::Tile, K::Tile), req(P::Axis, K::Int), opt(P::Keepdim, K::Bool)], tile_axis_reduce, false, OpKind::AxisReduce { f: ReduceFn::Sum, default_axis: 0, default_keep: false },
        older: [("*", "pl.tile.row_sum or pl.tile.col_sum")];
    TileMax = "tile.max", Tile, ["pl.tile.max"], Some("max"), S_AXIS_REDUCE, tile_axis_reduce, false, OpKind::AxisReduce { f: ReduceFn::Max, default_axis: 0, default_keep: false },
        older: [("*", "pl.tile.row_max or pl.tile.col_max (pl.tile.max is the scalar maximum today)")];
    TileMin = "tile.min", Tile, ["pl.tile.min"], Some("min"), S_AXIS_REDUCE, tile_axis_reduce, false, OpKind::AxisReduce { f: ReduceFn::Min, default_axis: 0, default_keep: false },
        older: [("*", "pl.tile.row_min (pl.tile.min is the scalar minimum today)")];
    TileRowExpandMul = "tile.row_expand_mul", Tile, ["pl.tile.row_expand_mul", "pl.op.block.row_expand_mul"], Some("row_expand_mul"), EXPAND,
        row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Mul));
    TileRowExpandDiv = "tile.row_expand_div", Tile, ["pl.tile.row_expand_div", "pl.op.block.row_expand_div"], Some("row_expand_div"), EXPAND,
        row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Div));
    TileRowExpandSub = "tile.row_expand_sub", Tile, ["pl.tile.row_expand_sub", "pl.op.block.row_expand_sub"], Some("row_expand_sub"), EXPAND,
        row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Sub));
    TileRowExpandAdd = "tile.row_expand_add", Tile, ["pl.tile.row_expand_add"], Some("row_expand_add"), EXPAND_TMP, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Add));
    TileColExpandMul = "tile.col_expand_mul", Tile, ["pl.tile.col_expand_mul"], Some("col_expand_mul"), EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Mul));
    TileColExpand = "tile.col_expand", Tile, ["pl.tile.col_expand"], Some("col_expand"),
        &[req(P::Target, K::Tile), req(P::ColVec, K::Tile)], col_expanded, false, OpKind::Expand(Axis::Col, None);
    TileExpands = "tile.expands", Tile, ["pl.tile.expands"], Some("expands"),
        &[req(P::Target, K::Tile), req(P::Scalar, K::Scalar)], same_as_first, false, OpKind::Special(Special::Expands);
    TileConcat = "tile.concat", Tile, ["pl.tile.concat"], Some("concat"), BINARY, concat, false, OpKind::Special(Special::Concat);
    TileRuntimePrint = "tile.runtime_print", Tile, ["pl.tile.runtime_print"], Some("runtime_print"),
        &[req(P::Tile, K::Tile)], none, false, OpKind::Special(Special::RuntimePrint);
    TileFillpad = "tile.fillpad", Tile, ["pl.tile.fillpad"], Some("fillpad"),
        &[req(P::X, K::Tile), opt(P::PadValue, K::Enum("PadValue"))], same_as_first, false, OpKind::Special(Special::Fillpad);
    // scalar-operand, bitwise and select families
    TileAdds = "tile.adds", Tile, ["pl.tile.adds"], Some("adds"), S_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Add);
    TileSubs = "tile.subs", Tile, ["pl.tile.subs"], Some("subs"), S_SCALAR_RHS, tile_subs, false, OpKind::Binary(BinaryFn::Sub);
    TileMuls = "tile.muls", Tile, ["pl.tile.muls", "pl.op.block.muls"], Some("muls"), S_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Mul);
    TileDivs = "tile.divs", Tile, ["pl.tile.divs"], Some("divs"), S_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Div);
    TileRems = "tile.rems", Tile, ["pl.tile.rems"], Some("rems"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Scalar), opt(P::Tmp, K::Tile)], same_as_first, false, OpKind::Binary(BinaryFn::Rem);
    // `maxs`/`mins` in older releases, `maximums`/`minimums` in newer ones.
    TileMaxs = "tile.maxs", Tile, ["pl.tile.maxs", "pl.tile.maximums"], Some("maxs"), S_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Max),
        older: [("pl.tile.maxs", "pl.tile.maximums")];
    TileMins = "tile.mins", Tile, ["pl.tile.mins", "pl.tile.minimums"], Some("mins"), S_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Min),
        older: [("pl.tile.mins", "pl.tile.minimums")];
    TileAnds = "tile.ands", Tile, ["pl.tile.ands"], Some("ands"), S_SCALAR_RHS, tile_bitwise, false, OpKind::Binary(BinaryFn::And);
    TileOrs = "tile.ors", Tile, ["pl.tile.ors"], Some("ors"), S_SCALAR_RHS, tile_bitwise, false, OpKind::Binary(BinaryFn::Or);
    TileXors = "tile.xors", Tile, ["pl.tile.xors"], Some("xors"), S_XORS, tile_bitwise, false, OpKind::Binary(BinaryFn::Xor);
    TileShls = "tile.shls", Tile, ["pl.tile.shls"], Some("shls"), S_SCALAR_RHS, tile_bitwise, false, OpKind::Binary(BinaryFn::Shl);
    TileShrs = "tile.shrs", Tile, ["pl.tile.shrs"], Some("shrs"), S_SCALAR_RHS, tile_bitwise, false, OpKind::Binary(BinaryFn::Shr);
    TileLrelu = "tile.lrelu", Tile, ["pl.tile.lrelu"], Some("lrelu"),
        &[req(P::Tile, K::Tile), req(P::Slope, K::Scalar)], same_as_first, false, OpKind::Special(Special::Lrelu);
    TileRem = "tile.rem", Tile, ["pl.tile.rem"], Some("rem"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::Tmp, K::Tile), opt(P::HighPrecision, K::Bool)], same_as_first, false,
        OpKind::Binary(BinaryFn::Rem);
    TileAnd = "tile.and_", Tile, ["pl.tile.and_"], Some("and_"), S_BINARY, tile_bitwise, false, OpKind::Binary(BinaryFn::And);
    TileOr = "tile.or_", Tile, ["pl.tile.or_"], Some("or_"), S_BINARY, tile_bitwise, false, OpKind::Binary(BinaryFn::Or);
    TileXor = "tile.xor", Tile, ["pl.tile.xor"], Some("xor"), S_XOR, tile_bitwise, false, OpKind::Binary(BinaryFn::Xor);
    TileShl = "tile.shl", Tile, ["pl.tile.shl"], Some("shl"), S_BINARY, tile_shift, false, OpKind::Binary(BinaryFn::Shl);
    TileShr = "tile.shr", Tile, ["pl.tile.shr"], Some("shr"), S_BINARY, tile_shift, false, OpKind::Binary(BinaryFn::Shr);
    TileNot = "tile.not_", Tile, ["pl.tile.not_"], Some("not_"), &[req(P::Tile, K::Tile)], tile_not, false, OpKind::Unary(UnaryFn::Not);
    TilePrelu = "tile.prelu", Tile, ["pl.tile.prelu"], Some("prelu"),
        &[req(P::Tile, K::Tile), req(P::Slope, K::Tile), req(P::Tmp, K::Tile)], tile_prelu, false, OpKind::Special(Special::Prelu);
    TileAddc = "tile.addc", Tile, ["pl.tile.addc"], Some("addc"), S_TERNARY, three_tiles, false, OpKind::Chain(BinaryFn::Add);
    TileSubc = "tile.subc", Tile, ["pl.tile.subc"], Some("subc"), S_TERNARY, three_tiles, false, OpKind::Chain(BinaryFn::Sub);
    TileAddsc = "tile.addsc", Tile, ["pl.tile.addsc"], Some("addsc"), S_TERNARY_S, same_as_first, false, OpKind::Chain(BinaryFn::Add);
    TileSubsc = "tile.subsc", Tile, ["pl.tile.subsc"], Some("subsc"), S_TERNARY_S, same_as_first, false, OpKind::Chain(BinaryFn::Sub);
    TileCmp = "tile.cmp", Tile, ["pl.tile.cmp"], Some("cmp"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::CmpType, K::Int)], tile_compare, false, OpKind::Compare;
    TileCmps = "tile.cmps", Tile, ["pl.tile.cmps"], Some("cmps"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Scalar), opt(P::CmpType, K::Int)], tile_compare, false, OpKind::Compare;
    TileSel = "tile.sel", Tile, ["pl.tile.sel"], Some("sel"),
        &[req(P::Mask, K::Tile), req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), req(P::Tmp, K::Tile)], tile_sel, false, OpKind::Special(Special::Sel);
    TileSels = "tile.sels", Tile, ["pl.tile.sels"], Some("sels"),
        &[req(P::Mask, K::Tile), req(P::Src, K::Tile), req(P::Tmp, K::Value), opt(P::Scalar, K::Scalar)],
        tile_sels, false, OpKind::Special(Special::Sels);
    // sorting and gathering
    TileSort32 = "tile.sort32", Tile, ["pl.tile.sort32"], Some("sort32"), &[req(P::Src, K::Tile), req(P::Idx, K::Tile)], tile_sort32, false, OpKind::Special(Special::Sort32);
    TileMrgsort = "tile.mrgsort", Tile, ["pl.tile.mrgsort"], Some("mrgsort"),
        &[req(P::Src0, K::Tile), opt(P::Src1, K::Tile), opt(P::Src2, K::Tile), opt(P::Src3, K::Tile), opt(P::Tmp, K::Tile),
          opt_write(P::Executed, K::Tile), opt(P::Exhausted, K::Bool), opt(P::BlockLen, K::Scalar)],
        tile_mrgsort, false, OpKind::Special(Special::Mrgsort);
    TileGather = "tile.gather", Tile, ["pl.tile.gather"], Some("gather"),
        &[req(P::Src, K::Tile), req(P::Indices, K::Tile), req(P::Tmp, K::Tile)], tile_gather, false, OpKind::Special(Special::Gather);
    TileGatherMask = "tile.gather_mask", Tile, ["pl.tile.gather_mask"], None,
        &[req(P::Src, K::Tile), req(P::MaskPattern, K::Any), opt(P::OutputDtype, K::DType)], tile_gather_mask, false, OpKind::Special(Special::GatherMask);
    TileGatherCompare = "tile.gather_compare", Tile, ["pl.tile.gather_compare"], None,
        &[req(P::Src, K::Tile), req(P::Kvalue, K::Scalar), req(P::Tmp, K::Tile), opt(P::CmpMode, K::Any),
          opt(P::Offset, K::Int), opt(P::OutCols, K::Int), opt(P::CountDtype, K::DType)],
        tile_gather_compare, false, OpKind::Special(Special::GatherCompare);
    TileMrgsortFormat1 = "tile.mrgsort_format1", Tile, ["pl.tile.mrgsort_format1"], None,
        &[req(P::Src0, K::Tile), req(P::BlockLen, K::Scalar)], tile_mrgsort_format1, false, OpKind::Special(Special::Mrgsort);
    // The last tile given is the scratch: `(src0, src1, tmp)` up to `(src0, ..., src3, tmp)`.
    TileMrgsortFormat2 = "tile.mrgsort_format2", Tile, ["pl.tile.mrgsort_format2"], None,
        &[req(P::Src0, K::Tile), req(P::Src1, K::Tile), req(P::Src2, K::Tile), opt(P::Src3, K::Tile), opt(P::Tmp, K::Tile),
          opt(P::Exhausted, K::Bool)],
        tile_mrgsort_format2, false, OpKind::Special(Special::Mrgsort);
    // MX (microscaling) matmuls: FP8E4M3FN data, FP8E8M0 block scales, FP32 results.
    TileMatmulMx = "tile.matmul_mx", Tile, ["pl.tile.matmul_mx", "pl.matmul_mx"], None,
        &[req(P::Lhs, K::Tile), req(P::LhsScale, K::Tile), req(P::Rhs, K::Tile), req(P::RhsScale, K::Tile)],
        matmul_mx, false, OpKind::Microscaling;
    TileMatmulMxAcc = "tile.matmul_mx_acc", Tile, ["pl.tile.matmul_mx_acc", "pl.matmul_mx_acc"], None,
        &[read_write(P::Acc, K::Tile), req(P::Lhs, K::Tile), req(P::LhsScale, K::Tile), req(P::Rhs, K::Tile), req(P::RhsScale, K::Tile)],
        matmul_mx_acc, false, OpKind::Microscaling;
    TileMatmulMxBias = "tile.matmul_mx_bias", Tile, ["pl.tile.matmul_mx_bias", "pl.matmul_mx_bias"], None,
        &[req(P::Lhs, K::Tile), req(P::LhsScale, K::Tile), req(P::Rhs, K::Tile), req(P::RhsScale, K::Tile), req(P::Bias, K::Tile)],
        matmul_mx_bias, false, OpKind::Microscaling;
    TileTgetScaleAddr = "tile.tget_scale_addr", Tile, ["pl.tile.tget_scale_addr", "pl.tget_scale_addr"], None,
        &[read_write(P::DstScale, K::Tile), req(P::Src, K::Tile)], tget_scale_addr, false, OpKind::Microscaling;
    // MX quantization (newer than ops.md; PyPTO's codegen tests use it).
    TileTquant = "tile.tquant", Tile, ["pl.tquant", "pl.mx_quant"], None,
        &[req(P::Src, K::Tile), req(P::Mode, K::Str)], tquant, false, OpKind::Microscaling;
    TileTquantMx = "tile.tquant_mx", Tile, ["pl.quant_mx"], None,
        &[req(P::Src, K::Tile), opt(P::GroupAxis, K::Int), opt(P::Dtype, K::DType)], quant_mx, false, OpKind::Microscaling;

    // ---- scalars (operators are `BinOp`s, not ops)
    ScalarCast = "scalar.cast", Scalar, ["pl.scalar.cast"], Some("cast"),
        &[req(P::X, K::Scalar), req(P::TargetType, K::DType), opt(P::Mode, K::Named(&CAST_MODES))], scalar_cast, true, OpKind::Special(Special::ScalarCast),
        older: [("pl.scalar.cast", "pl.cast")];
    // `pl.max(a, b)` / `pl.min(a, b)` on scalars (the tile reductions share the name).
    ScalarMax = "scalar.max", Scalar, ["pl.scalar.max"], Some("max"), &[req(P::Lhs, K::Scalar), req(P::Rhs, K::Scalar)], same_as_first, true, OpKind::Special(Special::ScalarMax),
        older: [("pl.scalar.max", "pl.max")];
    ScalarMin = "scalar.min", Scalar, ["pl.scalar.min"], Some("min"), &[req(P::Lhs, K::Scalar), req(P::Rhs, K::Scalar)], same_as_first, true, OpKind::Special(Special::ScalarMin),
        older: [("pl.scalar.min", "pl.min")];

    // ---- arrays
    ArrayCreate = "array.create", Array, ["pl.array.create"], None, &[req(P::Length, K::Int), req(P::Dtype, K::DType)], array, true, OpKind::Special(Special::ArrayCreate);
    ArrayGetElement = "array.get_element", Array, ["pl.array.get_element"], None,
        &[req(P::Array, K::Any), req(P::Index, K::Scalar)], array_element, true, OpKind::Special(Special::ArrayGet);
    ArrayUpdateElement = "array.update_element", Array, ["pl.array.update_element"], None,
        &[read_write(P::Array, K::Any), req(P::Index, K::Scalar), req(P::Value, K::Scalar)], same_as_first, true, OpKind::Special(Special::ArrayUpdate);

    // ---- system
    // PyPTO's parameters are keyword-only; `core_type`/`mode` are strings ("aiv_only",
    // "soft") in the examples and `pl.KernelType`/`pl.SyncAllMode` in newer releases.
    SystemSyncall = "system.syncall", System, ["pl.system.syncall"], None,
        &[opt(P::CoreType, K::Any), opt(P::Mode, K::Any), opt_read_write(P::GmWorkspace, K::Tensor),
          opt(P::UsedCores, K::Scalar), opt(P::Scratch, K::Tile), opt(P::ScratchL1, K::Tile)],
        none, false, OpKind::Special(Special::SyncAll);

    // ---- optimisation entries of `pl.at(..., optimizations=[...])`, also spelled through
    // their module, `pl.optimizations.split(...)`
    OptimizationSplit = "optimization.split", Optimization, ["pl.split", "pl.optimizations.split"], None,
        &[req(P::Mode, K::Enum("SplitMode")), opt_kw(P::SlotNum, K::Int)], unknown, true, OpKind::Marker;
    OptimizationCrossCoreSlot = "optimization.cross_core_slot", Optimization, ["pl.cross_core_slot", "pl.optimizations.cross_core_slot"], None,
        &[req(P::SlotNum, K::Int)], unknown, true, OpKind::Marker;
    // A constant, not a call: `optimizations=[pl.auto_chunk]` asks PyPTO to chunk the
    // region's parallel loops for the cores (a scheduling hint; no CPU meaning).
    OptimizationAutoChunk = "optimization.auto_chunk", Optimization, ["pl.auto_chunk", "pl.optimizations.auto_chunk"], None, &[], unknown, true,
        OpKind::Marker;

    // ---- distributed (`pld.*`); window allocation and `world_size` are host-orchestration ops
    PldTensorAllocWindowBuffer = "pld.tensor.alloc_window_buffer", Distributed, ["pld.tensor.alloc_window_buffer", "pld.alloc_window_buffer"], None,
        &[req(P::Size, K::Any), opt(P::Dtype, K::DType), opt(P::Name, K::Str)], window_buffer, true, OpKind::Distributed;
    PldTensorWindow = "pld.tensor.window", Distributed, ["pld.tensor.window", "pld.window"], None,
        &[req(P::Buf, K::Any), req(P::Shape, K::Shape), req(P::Dtype, K::DType)], window, true, OpKind::Distributed;
    PldSystemWorldSize = "pld.system.world_size", Distributed, ["pld.system.world_size", "pld.world_size"], None, &[], int64_scalar, true, OpKind::Distributed;
    PldSystemGetCommCtx = "pld.system.get_comm_ctx", Distributed, ["pld.system.get_comm_ctx", "pld.get_comm_ctx"], None,
        &[req(P::DistTensor, K::Tensor)], get_comm_ctx, false, OpKind::Distributed;
    PldSystemRank = "pld.system.rank", Distributed, ["pld.system.rank", "pld.rank", "pld.comm_ctx.rank"], None, &[req(P::Ctx, K::Any)], comm_ctx_query, false, OpKind::Distributed;
    PldSystemNranks = "pld.system.nranks", Distributed, ["pld.system.nranks", "pld.nranks", "pld.comm_ctx.nranks"], None, &[req(P::Ctx, K::Any)], comm_ctx_query, false, OpKind::Distributed;
    PldSystemNotify = "pld.system.notify", Distributed, ["pld.system.notify"], None,
        &[read_write(P::Target, K::Tensor), req(P::Peer, K::Scalar), req(P::Offsets, K::Indices), req(P::Value, K::Scalar),
          req(P::Op, K::Enum("NotifyOp"))],
        none, false, OpKind::Distributed;
    PldSystemWait = "pld.system.wait", Distributed, ["pld.system.wait"], None,
        &[req(P::Signal, K::Tensor), req(P::Offsets, K::Indices), req(P::Expected, K::Scalar), req(P::Cmp, K::Enum("WaitCmp"))],
        signal_wait, false, OpKind::Distributed;
    PldTileRemoteLoad = "pld.tile.remote_load", Distributed, ["pld.tile.remote_load", "pld.remote_load"], None,
        &[req(P::Target, K::Tensor), req(P::Peer, K::Scalar), req(P::Offsets, K::Indices), req(P::Shape, K::Shape),
          opt(P::ValidShape, K::Shape)],
        remote_load, false, OpKind::Distributed;
    PldTensorPut = "pld.tensor.put", Distributed, ["pld.tensor.put"], None,
        &[read_write(P::Dst, K::Tensor), req(P::Peer, K::Scalar), req(P::Src, K::Tensor), opt(P::DstOffsets, K::Indices),
          opt(P::SrcOffsets, K::Indices), opt(P::Shape, K::Shape), opt(P::Atomic, K::Enum("AtomicType")),
          opt(P::ChunkRows, K::Int), opt(P::ChunkCols, K::Int), opt(P::Pipeline, K::Bool)],
        none, false, OpKind::Distributed;
    PldTensorGet = "pld.tensor.get", Distributed, ["pld.tensor.get"], None,
        &[write(P::Dst, K::Tensor), req(P::Peer, K::Scalar), req(P::Src, K::Tensor), opt(P::DstOffsets, K::Indices),
          opt(P::SrcOffsets, K::Indices), opt(P::Shape, K::Shape), opt(P::ChunkRows, K::Int), opt(P::ChunkCols, K::Int),
          opt(P::Pipeline, K::Bool)],
        none, false, OpKind::Distributed;
    // Collectives work in place on a window and return it; `signal` is the barrier window.
    // `pld.all_reduce(target, op=...)` is PyPTO's wrapper of the mesh form (no signal; its
    // ring form, `mode="ring", nranks=n`, allocates a signal plc has no row for).
    PldTensorAllreduce = "pld.tensor.allreduce", Distributed, ["pld.tensor.allreduce"], None,
        &[read_write(P::Target, K::Tensor), opt_read_write(P::Signal, K::Tensor), opt(P::Op, K::Enum("ReduceOp")),
          opt(P::Mode, K::Str), opt(P::CoreNum, K::Int)],
        allreduce, false, OpKind::Distributed;
    PldTensorBarrier = "pld.tensor.barrier", Distributed, ["pld.tensor.barrier"], None, &[read_write(P::Signal, K::Tensor)], same_as_first, false, OpKind::Distributed;
    PldTensorBroadcast = "pld.tensor.broadcast", Distributed, ["pld.tensor.broadcast"], None,
        &[read_write(P::Target, K::Tensor), read_write(P::Signal, K::Tensor), req(P::Root, K::Int)], same_as_first, false, OpKind::Distributed;
    // `defer=True` (newer than the reference; PyPTO's pass tests use it) completes the
    // gather in a later task: the data it writes is the same, so plc accepts and runs it
    // in place.
    PldTensorAllgather = "pld.tensor.allgather", Distributed, ["pld.tensor.allgather"], None,
        &[req(P::LocalData, K::Value), write(P::Target, K::Tensor), read_write(P::Signal, K::Tensor), opt(P::Defer, K::Bool)],
        same_as_second, false, OpKind::Distributed;
    /// `pld.all_gather(local, target)`: PyPTO's wrapper of `pld.tensor.allgather` that
    /// allocates the `[world_size, 1]` INT32 signal itself.
    PldAllGather = "pld.all_gather", Distributed, ["pld.all_gather"], None,
        &[req(P::LocalData, K::Value), write(P::Target, K::Tensor)], same_as_second, false, OpKind::Distributed;
    // PyPTO's collective wrappers (`pld.all_reduce`, `pld.reduce_scatter`, `pld.broadcast`,
    // `pld.barrier`, `pld.all_to_all`; `pld.all_gather` above) allocate the signal of the
    // `pld.tensor.*` op they call, with the checks `collective_api.py` makes.
    PldAllReduce = "pld.all_reduce", Distributed, ["pld.all_reduce"], None,
        &[read_write(P::Target, K::Tensor), opt(P::Op, K::Enum("ReduceOp")), opt(P::Mode, K::Str), opt(P::Nranks, K::Int)],
        all_reduce_wrapper, false, OpKind::Distributed;
    PldReduceScatter = "pld.reduce_scatter", Distributed, ["pld.reduce_scatter"], None,
        &[read_write(P::Target, K::Tensor), opt(P::Op, K::Enum("ReduceOp"))], reduce_scatter_wrapper, false, OpKind::Distributed;
    PldBroadcast = "pld.broadcast", Distributed, ["pld.broadcast"], None,
        &[read_write(P::Target, K::Tensor), req(P::Root, K::Int)], same_as_first, false, OpKind::Distributed;
    PldBarrier = "pld.barrier", Distributed, ["pld.barrier"], None, &[read_write(P::Signal, K::Tensor)], same_as_first, false, OpKind::Distributed;
    PldAllToAll = "pld.all_to_all", Distributed, ["pld.all_to_all"], None,
        &[req(P::Input, K::Tensor), write(P::Target, K::Tensor)], same_as_second, false, OpKind::Distributed;
    PldTensorReduceScatter = "pld.tensor.reduce_scatter", Distributed, ["pld.tensor.reduce_scatter"], None,
        &[read_write(P::Target, K::Tensor), read_write(P::Signal, K::Tensor), opt(P::Op, K::Enum("ReduceOp"))],
        reduce_scatter, false, OpKind::Distributed;
    PldTensorAllToAll = "pld.tensor.all_to_all", Distributed, ["pld.tensor.all_to_all"], None,
        &[req(P::Input, K::Tensor), write(P::Target, K::Tensor), read_write(P::Signal, K::Tensor)], same_as_second, false, OpKind::Distributed;
    // ---- rows added for ops.md §5.1 (PyPTO spellings plc lacked), kept in one block.
    // reductions: products, column minima, arg-max/min positions
    TensorRowProd = "tensor.row_prod", Tensor, ["pl.tensor.row_prod"], Some("row_prod"), T_INPUT, row_reduce, false, OpKind::Reduce(Axis::Row, ReduceFn::Prod);
    TensorColProd = "tensor.col_prod", Tensor, ["pl.tensor.col_prod"], Some("col_prod"), T_INPUT, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Prod);
    TensorColMin = "tensor.col_min", Tensor, ["pl.tensor.col_min"], Some("col_min"), T_INPUT, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Min);
    TensorRowArgmax = "tensor.row_argmax", Tensor, ["pl.tensor.row_argmax"], Some("row_argmax"), T_INPUT, row_arg_reduce, false, OpKind::ArgReduce(Axis::Row, ReduceFn::Max);
    TensorRowArgmin = "tensor.row_argmin", Tensor, ["pl.tensor.row_argmin"], Some("row_argmin"), T_INPUT, row_arg_reduce, false, OpKind::ArgReduce(Axis::Row, ReduceFn::Min);
    TensorColArgmax = "tensor.col_argmax", Tensor, ["pl.tensor.col_argmax"], Some("col_argmax"), T_INPUT, col_arg_reduce, false, OpKind::ArgReduce(Axis::Col, ReduceFn::Max);
    TensorColArgmin = "tensor.col_argmin", Tensor, ["pl.tensor.col_argmin"], Some("col_argmin"), T_INPUT, col_arg_reduce, false, OpKind::ArgReduce(Axis::Col, ReduceFn::Min);
    TileRowProd = "tile.row_prod", Tile, ["pl.tile.row_prod"], Some("row_prod"), S_TILE_TMP, tile_row_reduce, false, OpKind::Reduce(Axis::Row, ReduceFn::Prod);
    TileColProd = "tile.col_prod", Tile, ["pl.tile.col_prod"], Some("col_prod"), S_TILE, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Prod);
    TileColMin = "tile.col_min", Tile, ["pl.tile.col_min"], Some("col_min"), S_TILE, col_reduce, false, OpKind::Reduce(Axis::Col, ReduceFn::Min);
    TileRowArgmax = "tile.row_argmax", Tile, ["pl.tile.row_argmax"], Some("row_argmax"), S_TILE_TMP, row_arg_reduce, false, OpKind::ArgReduce(Axis::Row, ReduceFn::Max);
    TileRowArgmin = "tile.row_argmin", Tile, ["pl.tile.row_argmin"], Some("row_argmin"), S_TILE_TMP, row_arg_reduce, false, OpKind::ArgReduce(Axis::Row, ReduceFn::Min);
    TileColArgmax = "tile.col_argmax", Tile, ["pl.tile.col_argmax"], Some("col_argmax"), S_TILE_TMP, col_arg_reduce, false, OpKind::ArgReduce(Axis::Col, ReduceFn::Max);
    TileColArgmin = "tile.col_argmin", Tile, ["pl.tile.col_argmin"], Some("col_argmin"), S_TILE_TMP, col_arg_reduce, false, OpKind::ArgReduce(Axis::Col, ReduceFn::Min);
    // broadcasts along rows and columns
    TensorRowExpand = "tensor.row_expand", Tensor, ["pl.tensor.row_expand"], Some("row_expand"),
        &[req(P::Target, K::Tensor), req(P::RowVec, K::Tensor)], row_expanded, false, OpKind::Expand(Axis::Row, None);
    TensorRowExpandMax = "tensor.row_expand_max", Tensor, ["pl.tensor.row_expand_max"], Some("row_expand_max"), T_ROW_EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Max));
    TensorRowExpandMin = "tensor.row_expand_min", Tensor, ["pl.tensor.row_expand_min"], Some("row_expand_min"), T_ROW_EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Min));
    TensorRowExpandExpdif = "tensor.row_expand_expdif", Tensor, ["pl.tensor.row_expand_expdif"], Some("row_expand_expdif"), T_ROW_EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::ExpDif));
    TensorColExpandAdd = "tensor.col_expand_add", Tensor, ["pl.tensor.col_expand_add"], Some("col_expand_add"), T_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Add));
    TensorColExpandSub = "tensor.col_expand_sub", Tensor, ["pl.tensor.col_expand_sub"], Some("col_expand_sub"), T_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Sub));
    TensorColExpandDiv = "tensor.col_expand_div", Tensor, ["pl.tensor.col_expand_div"], Some("col_expand_div"), T_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Div));
    TensorColExpandMax = "tensor.col_expand_max", Tensor, ["pl.tensor.col_expand_max"], Some("col_expand_max"), T_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Max));
    TensorColExpandMin = "tensor.col_expand_min", Tensor, ["pl.tensor.col_expand_min"], Some("col_expand_min"), T_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Min));
    TensorColExpandExpdif = "tensor.col_expand_expdif", Tensor, ["pl.tensor.col_expand_expdif"], Some("col_expand_expdif"), T_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::ExpDif));
    TileRowExpand = "tile.row_expand", Tile, ["pl.tile.row_expand"], Some("row_expand"),
        &[req(P::Target, K::Tile), req(P::RowVec, K::Tile)], row_expanded, false, OpKind::Expand(Axis::Row, None);
    TileRowExpandMax = "tile.row_expand_max", Tile, ["pl.tile.row_expand_max"], Some("row_expand_max"), S_ROW_EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Max));
    TileRowExpandMin = "tile.row_expand_min", Tile, ["pl.tile.row_expand_min"], Some("row_expand_min"), S_ROW_EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::Min));
    TileRowExpandExpdif = "tile.row_expand_expdif", Tile, ["pl.tile.row_expand_expdif"], Some("row_expand_expdif"), S_ROW_EXPAND, row_expanded, false, OpKind::Expand(Axis::Row, Some(BinaryFn::ExpDif));
    TileColExpandAdd = "tile.col_expand_add", Tile, ["pl.tile.col_expand_add"], Some("col_expand_add"), S_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Add));
    TileColExpandSub = "tile.col_expand_sub", Tile, ["pl.tile.col_expand_sub"], Some("col_expand_sub"), S_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Sub));
    TileColExpandDiv = "tile.col_expand_div", Tile, ["pl.tile.col_expand_div"], Some("col_expand_div"), S_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Div));
    TileColExpandMax = "tile.col_expand_max", Tile, ["pl.tile.col_expand_max"], Some("col_expand_max"), S_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Max));
    TileColExpandMin = "tile.col_expand_min", Tile, ["pl.tile.col_expand_min"], Some("col_expand_min"), S_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::Min));
    TileColExpandExpdif = "tile.col_expand_expdif", Tile, ["pl.tile.col_expand_expdif"], Some("col_expand_expdif"), S_COL_EXPAND, col_expanded, false, OpKind::Expand(Axis::Col, Some(BinaryFn::ExpDif));
    // elementwise: sin, cos (FP32), fmod (the sign of the dividend), part ops
    TensorSin = "tensor.sin", Tensor, ["pl.tensor.sin"], Some("sin"), T_INPUT, fp32_same, false, OpKind::Unary(UnaryFn::Sin);
    TensorCos = "tensor.cos", Tensor, ["pl.tensor.cos"], Some("cos"), T_INPUT, fp32_same, false, OpKind::Unary(UnaryFn::Cos);
    TileSin = "tile.sin", Tile, ["pl.tile.sin"], Some("sin"), S_TILE, fp32_same, false, OpKind::Unary(UnaryFn::Sin);
    TileCos = "tile.cos", Tile, ["pl.tile.cos"], Some("cos"), S_TILE, fp32_same, false, OpKind::Unary(UnaryFn::Cos);
    TensorFmod = "tensor.fmod", Tensor, ["pl.tensor.fmod"], Some("fmod"), T_FMOD, same_as_first, false, OpKind::Binary(BinaryFn::Fmod);
    TensorFmods = "tensor.fmods", Tensor, ["pl.tensor.fmods"], Some("fmods"), T_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Fmod);
    TileFmod = "tile.fmod", Tile, ["pl.tile.fmod"], Some("fmod"), S_FMOD, same_as_first, false, OpKind::Binary(BinaryFn::Fmod);
    TileFmods = "tile.fmods", Tile, ["pl.tile.fmods"], Some("fmods"), S_SCALAR_RHS, same_as_first, false, OpKind::Binary(BinaryFn::Fmod);
    TensorPartAdd = "tensor.part_add", Tensor, ["pl.tensor.part_add"], Some("part_add"), T_PART, part, false, OpKind::Part(BinaryFn::Add);
    TensorPartMax = "tensor.part_max", Tensor, ["pl.tensor.part_max"], Some("part_max"), T_PART, part, false, OpKind::Part(BinaryFn::Max);
    TensorPartMin = "tensor.part_min", Tensor, ["pl.tensor.part_min"], Some("part_min"), T_PART, part, false, OpKind::Part(BinaryFn::Min);
    TensorPartMul = "tensor.part_mul", Tensor, ["pl.tensor.part_mul"], Some("part_mul"), T_PART, part, false, OpKind::Part(BinaryFn::Mul);
    TilePartAdd = "tile.part_add", Tile, ["pl.tile.part_add"], Some("part_add"), S_PART, part, false, OpKind::Part(BinaryFn::Add);
    TilePartMax = "tile.part_max", Tile, ["pl.tile.part_max"], Some("part_max"), S_PART, part, false, OpKind::Part(BinaryFn::Max);
    TilePartMin = "tile.part_min", Tile, ["pl.tile.part_min"], Some("part_min"), S_PART, part, false, OpKind::Part(BinaryFn::Min);
    TilePartMul = "tile.part_mul", Tile, ["pl.tile.part_mul"], Some("part_mul"), S_PART, part, false, OpKind::Part(BinaryFn::Mul);
    // what the runtime knows: the number of blocks, the vector core within its cluster
    TensorGetBlockNum = "tensor.get_block_num", Tensor, ["pl.get_block_num", "pl.tensor.get_block_num"], None, &[], index_scalar, false, OpKind::Special(Special::BlockNum);
    TensorGetSubblockIdx = "tensor.get_subblock_idx", Tensor, ["pl.get_subblock_idx", "pl.tensor.get_subblock_idx"], None, &[], index_scalar, false, OpKind::Special(Special::SubblockIdx);
    TileGetSubblockIdx = "tile.get_subblock_idx", Tile, ["pl.tile.get_subblock_idx"], None, &[], index_scalar, false, OpKind::Special(Special::SubblockIdx);
    // The lane transfers of a `pl.split_aiv` region (ops.md §1.4): lowering reads the
    // operand's type for the level and the enclosing loop's mode for `split`, which is
    // always given (optional only to print as the keyword of the outlined form).
    TensorAivShard = "tensor.aiv_shard", Tensor, ["pl.tensor.aiv_shard"], None,
        &[req(P::X, K::Tensor), opt(P::Split, K::Int)], aiv_shard, false, OpKind::SplitTransfer;
    TensorAicGather = "tensor.aic_gather", Tensor, ["pl.tensor.aic_gather"], None,
        &[req(P::X, K::Tensor), opt(P::Split, K::Int)], aic_gather, false, OpKind::SplitTransfer;
    TileAivShard = "tile.aiv_shard", Tile, ["pl.tile.aiv_shard", "pl.aiv_shard"], None,
        &[req(P::X, K::Tile), opt(P::Split, K::Int), opt(P::LaneStride, K::Int)], aiv_shard, false, OpKind::SplitTransfer;
    TileAicGather = "tile.aic_gather", Tile, ["pl.tile.aic_gather", "pl.aic_gather"], None,
        &[req(P::X, K::Tile), opt(P::Split, K::Int)], aic_gather, false, OpKind::SplitTransfer;
    // system: hardware synchronisation and cache control (no effect on the CPU), what the
    // runtime offers, the id of no task
    SystemBarAll = "system.bar_all", System, ["pl.system.bar_all"], None, &[], none, false, OpKind::Special(Special::Hardware);
    SystemBarM = "system.bar_m", System, ["pl.system.bar_m"], None, &[], none, false, OpKind::Special(Special::Hardware);
    SystemBarV = "system.bar_v", System, ["pl.system.bar_v"], None, &[], none, false, OpKind::Special(Special::Hardware);
    SystemFence = "system.fence", System, ["pl.system.fence"], None, &[], none, false, OpKind::Special(Special::Hardware);
    SystemSyncSrc = "system.sync_src", System, ["pl.system.sync_src"], None, SYNC_PAIR, none, false, OpKind::Special(Special::Hardware);
    SystemSyncDst = "system.sync_dst", System, ["pl.system.sync_dst"], None, SYNC_PAIR, none, false, OpKind::Special(Special::Hardware);
    SystemSyncSet = "system.sync_set", System, ["pl.system.sync_set"], None,
        &[req(P::EventId, K::Any), req(P::Pipe, K::Any), opt(P::FftsMode, K::Int), opt(P::CoreType, K::Any)], none, false, OpKind::Special(Special::Hardware);
    SystemSyncWait = "system.sync_wait", System, ["pl.system.sync_wait"], None,
        &[req(P::EventId, K::Any), req(P::Pipe, K::Any), opt(P::CoreType, K::Any)], none, false, OpKind::Special(Special::Hardware);
    SystemCacheinvalid = "system.cacheinvalid", System, ["pl.system.cacheinvalid"], None,
        &[opt(P::Tensor, K::Tensor), opt(P::Shapes, K::Shape), opt(P::Offsets, K::Indices)], cache_invalid, false, OpKind::Special(Special::Hardware);
    SystemSetFfts = "system.set_ffts", System, ["pl.system.set_ffts"], None, &[req(P::Workspace, K::Tensor)], none, false, OpKind::Special(Special::Hardware);
    SystemAvailableAivCount = "system.available_aiv_count", System, ["pl.system.available_aiv_count"], None, &[], int32_scalar, false, OpKind::Special(Special::AvailableAivCount);
    SystemAvailableClusterCount = "system.available_cluster_count", System, ["pl.system.available_cluster_count"], None, &[], int32_scalar, false, OpKind::Special(Special::AvailableClusterCount);
    SystemTaskInvalid = "system.task_invalid", System, ["pl.system.task_invalid"], None, &[], task_id_scalar, true, OpKind::Special(Special::TaskInvalid);
    // cross-core pipes between the cube and vector kernels of a cluster
    SystemReserveBuffer = "system.reserve_buffer", System, ["pl.system.reserve_buffer", "pl.reserve_buffer"], None,
        &[req(P::Name, K::Str), req(P::Size, K::Int), opt(P::Base, K::Int)], int32_scalar, false, OpKind::CrossCore;
    SystemImportPeerBuffer = "system.import_peer_buffer", System, ["pl.system.import_peer_buffer", "pl.import_peer_buffer"], None,
        &[req(P::Name, K::Str), req(P::PeerFunc, K::Str)], int32_scalar, false, OpKind::CrossCore;
    SystemAicInitializePipe = "system.aic_initialize_pipe", System, ["pl.system.aic_initialize_pipe", "pl.aic_initialize_pipe"], None,
        PIPE_INIT, initialize_pipe, false, OpKind::CrossCore;
    SystemAivInitializePipe = "system.aiv_initialize_pipe", System, ["pl.system.aiv_initialize_pipe", "pl.aiv_initialize_pipe"], None,
        PIPE_INIT, initialize_pipe, false, OpKind::CrossCore;
    TileTpushToAic = "tile.tpush_to_aic", Tile, ["pl.system.tpush_to_aic", "pl.tpush_to_aic", "pl.tile.tpush_to_aic"], None,
        &[req(P::Tile, K::Tile), req(P::Split, K::Int), opt(P::Id, K::Int)], tile_on_pipe, false, OpKind::CrossCore;
    TileTpushToAiv = "tile.tpush_to_aiv", Tile, ["pl.system.tpush_to_aiv", "pl.tpush_to_aiv", "pl.tile.tpush_to_aiv"], None,
        &[req(P::Tile, K::Tile), req(P::Split, K::Int), opt(P::LaneStride, K::Int), opt(P::Id, K::Int)], tpush_to_aiv, false, OpKind::CrossCore;
    TileTpopFromAic = "tile.tpop_from_aic", Tile, ["pl.system.tpop_from_aic", "pl.tpop_from_aic", "pl.tile.tpop_from_aic"], None,
        &[opt(P::Shape, K::Shape), opt(P::Dtype, K::DType), opt(P::Split, K::Int), opt(P::LaneStride, K::Int), opt(P::Id, K::Int)],
        tpop_from_aic, false, OpKind::CrossCore;
    TileTpopFromAiv = "tile.tpop_from_aiv", Tile, ["pl.system.tpop_from_aiv", "pl.tpop_from_aiv", "pl.tile.tpop_from_aiv"], None,
        &[opt(P::Shape, K::Shape), opt(P::Dtype, K::DType), opt(P::Split, K::Int), opt(P::Id, K::Int)], tpop_from_aiv, false, OpKind::CrossCore;
    SystemTfreeToAic = "system.tfree_to_aic", System, ["pl.system.tfree_to_aic", "pl.tfree_to_aic"], None, TFREE, tile_on_pipe, false, OpKind::CrossCore;
    SystemTfreeToAiv = "system.tfree_to_aiv", System, ["pl.system.tfree_to_aiv", "pl.tfree_to_aiv"], None, TFREE, tile_on_pipe, false, OpKind::CrossCore;
    // asynchronous prefetch (no CPU form)
    // ---- the printed form of PyPTO's memory planning: a buffer whose address `pl.MemRef` names
    TileAlloc = "tile.alloc", Tile, ["pl.tile.alloc"], None,
        &[req(P::MemorySpace, K::Enum("MemorySpace")), req(P::Size, K::Int), opt(P::Pinned, K::Bool)], unknown, false, OpKind::PlannedMemory;
    TensorAlloc = "tensor.alloc", Tensor, ["pl.tensor.alloc"], None,
        &[req(P::MemorySpace, K::Enum("MemorySpace")), req(P::Size, K::Int)], unknown, true, OpKind::PlannedMemory;
    PrefetchMakeContext = "prefetch.make_context", System, ["pl.prefetch.make_context"], None, &[], prefetch_make_context, true, OpKind::Prefetch;
    PrefetchAsyncPrefetch = "prefetch.async_prefetch", System, ["pl.prefetch.async_prefetch"], None,
        &[req(P::Src, K::Tensor), req(P::Ctx, K::Any)], prefetch_async, true, OpKind::Prefetch;
    PrefetchSession = "prefetch.session", System, ["pl.prefetch.session"], None, &[req(P::Ctx, K::Any)], prefetch_session, true, OpKind::Prefetch;
    PrefetchWait = "prefetch.wait", System, ["pl.prefetch.wait"], None,
        &[req(P::Event, K::Any), req(P::SessionHandle, K::Any)], prefetch_wait, true, OpKind::Prefetch;
    // creation, padding, broadcasting and windows with a meaning of their own
    TileTri = "tile.tri", Tile, ["pl.tile.tri", "pl.tri"], None,
        &[req(P::Diagonal, K::Scalar), req(P::Shape, K::Shape), opt(P::ValidShape, K::Shape), opt(P::Dtype, K::DType), opt(P::Upper, K::Bool)],
        tile_tri, false, OpKind::Special(Special::Tri);
    TensorFillpadExpand = "tensor.fillpad_expand", Tensor, ["pl.tensor.fillpad_expand"], Some("fillpad_expand"),
        &[req(P::Tensor, K::Tensor), req(P::Shape, K::Shape), opt(P::PadValue, K::Enum("PadValue"))], fillpad_expand, false, OpKind::Special(Special::FillpadExpand);
    TileFillpadExpand = "tile.fillpad_expand", Tile, ["pl.tile.fillpad_expand"], Some("fillpad_expand"),
        &[req(P::Tile, K::Tile), req(P::Shape, K::Shape), opt(P::PadValue, K::Enum("PadValue"))], fillpad_expand, false, OpKind::Special(Special::FillpadExpand);
    TileFillpadInplace = "tile.fillpad_inplace", Tile, ["pl.tile.fillpad_inplace"], None,
        &[read_write(P::Tile, K::Tile), opt(P::PadValue, K::Enum("PadValue"))], same_as_first, false, OpKind::Special(Special::FillpadInplace);
    TensorExpandClone = "tensor.expand_clone", Tensor, ["pl.tensor.expand_clone", "pl.expand_clone"], None,
        &[req(P::Src, K::Tensor), req(P::Target, K::Tensor)], expand_clone, false, OpKind::Special(Special::ExpandClone);
    TileExtract = "tile.extract", Tile, ["pl.tile.extract"], None,
        &[req(P::Src, K::Tile), req(P::IndexRow, K::Scalar), req(P::IndexCol, K::Scalar), req(P::Shape, K::Shape),
          opt(P::TargetMemory, K::Enum("MemorySpace")), opt(P::Out, K::Tile)],
        tile_extract, false, OpKind::Special(Special::Extract);
    TileImg2col = "tile.img2col", Tile, ["pl.tile.img2col"], Some("img2col"), IMG2COL_TILE, img2col, false, OpKind::Special(Special::Img2col);
    TensorImg2col = "tensor.img2col", Tensor, ["pl.tensor.img2col"], Some("img2col"), IMG2COL_TENSOR, img2col, false,
        OpKind::Special(Special::Img2col);
    // distributed ops plc lacked (no CPU form, as the other `pld.*` ops)
    PldSystemDeferWait = "pld.system.defer_wait", Distributed, ["pld.system.defer_wait"], None,
        &[req(P::Signal, K::Tensor), req(P::Offsets, K::Indices), req(P::Expected, K::Scalar), req(P::Cmp, K::Enum("WaitCmp"))],
        signal_defer_wait, false, OpKind::Distributed;
    PldTensorAllToAllV = "pld.tensor.all_to_all_v", Distributed, ["pld.tensor.all_to_all_v"], None,
        &[req(P::Input, K::Tensor), write(P::Target, K::Tensor), read_write(P::Signal, K::Tensor), req(P::SendCounts, K::Tensor),
          req(P::RecvCounts, K::Tensor)],
        same_as_second, false, OpKind::Distributed;
    // `pld.remote_store(src, ...)` of a tile goes to `pld.tile.remote_store` (TILE_OPERAND_FORMS).
    PldTensorRemoteStore = "pld.tensor.remote_store", Distributed, ["pld.tensor.remote_store", "pld.remote_store"], None,
        &[req(P::Src, K::Tensor), read_write(P::Target, K::Tensor), req(P::Peer, K::Scalar), req(P::Offsets, K::Indices),
          opt(P::Atomic, K::Enum("AtomicType"))],
        remote_store, false, OpKind::Distributed;
    PldTileRemoteStore = "pld.tile.remote_store", Distributed, ["pld.tile.remote_store"], None,
        &[req(P::SrcTile, K::Tile), read_write(P::Target, K::Tensor), req(P::Peer, K::Scalar), req(P::Offsets, K::Indices),
          opt(P::Atomic, K::Enum("AtomicType"))],
        remote_store, false, OpKind::Distributed;
    PldTileGet = "pld.tile.get", Distributed, ["pld.tile.get"], None, PLD_TILE_GET, none, false, OpKind::Distributed;
    PldTilePut = "pld.tile.put", Distributed, ["pld.tile.put"], None,
        &[read_write(P::Dst, K::Tensor), req(P::Peer, K::Scalar), req(P::Src, K::Tensor), req(P::Stage, K::Tile),
          opt(P::Stage2, K::Tile), opt(P::DstOffsets, K::Indices), opt(P::SrcOffsets, K::Indices), opt(P::Shape, K::Shape),
          opt(P::Atomic, K::Enum("AtomicType"))],
        none, false, OpKind::Distributed;
    // ---- rows added for issue 11: scatters, random numbers, reinterpretation, dummy tasks
    // (kept in one block). The tensor forms give a new tensor; the tile forms write into
    // their first argument (PyPTO's DPS form) and return it.
    TensorScatter = "tensor.scatter", Tensor, ["pl.tensor.scatter", "pl.scatter"], None,
        &[req(P::Input, K::Tensor), opt(P::Dim, K::Int), opt(P::Index, K::Tensor), opt(P::Src, K::Tensor),
          opt(P::MaskPattern, K::Any), opt(P::Dst, K::Tensor)],
        tensor_scatter, false, OpKind::Special(Special::Scatter);
    TensorScatterMask = "tensor.scatter_mask", Tensor, ["pl.tensor.scatter_mask"], None,
        &[req(P::Input, K::Tensor), req(P::Dst, K::Tensor), req(P::MaskPattern, K::Any)],
        tensor_scatter_mask, false, OpKind::Special(Special::ScatterMask);
    TileScatter = "tile.scatter", Tile, ["pl.tile.scatter"], None,
        &[read_write(P::Dst, K::Tile), req(P::Src, K::Tile), req(P::Indexes, K::Tile)],
        tile_scatter, false, OpKind::Special(Special::Scatter);
    TileScatterMask = "tile.scatter_mask", Tile, ["pl.tile.scatter_mask"], None,
        &[read_write(P::Dst, K::Tile), req(P::Src, K::Tile), req(P::MaskPattern, K::Any)],
        tile_scatter_mask, false, OpKind::Special(Special::ScatterMask);
    // `(input, index, src, dim=-2)`; PyPTO also takes `(input, dim, index, src)` (OLDER_ORDERS).
    TensorScatterUpdate = "tensor.scatter_update", Tensor, ["pl.tensor.scatter_update"], Some("scatter_update"),
        &[req(P::Input, K::Tensor), req(P::Index, K::Tensor), req(P::Src, K::Tensor), opt(P::Dim, K::Int)],
        scatter_update, false, OpKind::Special(Special::ScatterUpdate);
    TileScatterUpdate = "tile.scatter_update", Tile, ["pl.tile.scatter_update"], Some("scatter_update"),
        &[read_write(P::Input, K::Tile), req(P::Index, K::Tile), req(P::Src, K::Tile), opt(P::Tmp, K::Tile),
          opt(P::Dim, K::Int)],
        tile_scatter_update, false, OpKind::Special(Special::ScatterUpdate);
    // Cross-rank signal slots seen from a kernel (newer than ops.md; PyPTO's codegen tests
    // use them): no CPU form, like the `pld.*` ops.
    TileCommNotify = "tile.comm_notify", Tile, ["pl.tile.comm_notify"], None,
        &[read_write(P::Signal, K::Tensor), req(P::Value, K::Scalar), req(P::Op, K::Str)],
        comm_notify, false, OpKind::Distributed;
    TileCommWait = "tile.comm_wait", Tile, ["pl.tile.comm_wait"], None,
        &[req(P::Signal, K::Tensor), req(P::CmpValue, K::Scalar), req(P::Cmp, K::Str)],
        comm_wait, false, OpKind::Distributed;
    TileCommTest = "tile.comm_test", Tile, ["pl.tile.comm_test"], None,
        &[req(P::Signal, K::Tensor), req(P::CmpValue, K::Scalar), req(P::Cmp, K::Str)],
        comm_test, false, OpKind::Distributed;
    TensorRandom = "tensor.random", Tensor, ["pl.tensor.random", "pl.random"], None, T_RANDOM, tensor_random, false,
        OpKind::Special(Special::Random);
    TileRandom = "tile.random", Tile, ["pl.tile.random"], None, S_RANDOM, tile_random, false, OpKind::Special(Special::Random);
    TensorReinterpretView = "tensor.reinterpret_view", Tensor, ["pl.tensor.reinterpret_view"], Some("reinterpret_view"),
        &[req(P::Data, K::Tensor), req(P::Dtype, K::DType), opt(P::Shape, K::Shape)],
        tensor_reinterpret_view, false, OpKind::Special(Special::ReinterpretView);
    TileReinterpretView = "tile.reinterpret_view", Tile, ["pl.tile.reinterpret_view"], Some("reinterpret_view"),
        &[req(P::Data, K::Tile), req(P::Dtype, K::DType), opt(P::Shape, K::Shape)],
        reinterpret_view, false, OpKind::Special(Special::ReinterpretView);
    // `deps=` is required and keyword-only in PyPTO (an optional parameter here, so that it
    // prints as a keyword; the rule requires it); `attrs=` is kept for the printer.
    SystemTaskDummy = "system.task_dummy", System, ["pl.system.task_dummy"], None,
        &[opt_kw(P::Deps, K::Any), opt_kw(P::Attrs, K::Any)], task_dummy, true, OpKind::Special(Special::TaskDummy);
    // The id of the task that produced a tensor, for `deps=` in a manual scope.
    SystemTaskIdOf = "system.task_id_of", System, ["pl.task_id_of"], None, &[req(P::Producer, K::Tensor)],
        task_id_scalar, true, OpKind::Special(Special::TaskIdOf);
    // ---- gathers, scatters and batch matrix products (issue 11)
    TileBatchMatmul = "tile.batch_matmul", Tile, ["pl.tile.batch_matmul"], Some("batch_matmul"),
        &[req(P::Lhs, K::Tile), req(P::Rhs, K::Tile)], batch_matmul, false, OpKind::Special(Special::BatchMatmul);
    TileBatchMatmulAcc = "tile.batch_matmul_acc", Tile, ["pl.tile.batch_matmul_acc"], None,
        &[read_write(P::Acc, K::Tile), req(P::Lhs, K::Tile), req(P::Rhs, K::Tile), opt(P::InitCond, K::Value)],
        batch_matmul_acc, false, OpKind::Special(Special::BatchMatmulAcc);
    TileGatherb = "tile.gatherb", Tile, ["pl.tile.gatherb", "pl.gatherb"], None,
        &[req(P::Src, K::Tile), req(P::Offset, K::Tile), opt(P::OutputDtype, K::DType)], tile_gatherb, false,
        OpKind::Special(Special::GatherB);
    TileMgather = "tile.mgather", Tile, ["pl.tile.mgather", "pl.mgather"], None,
        &[req(P::Mem, K::Tensor), req(P::Idx, K::Tile), opt(P::Coalesce, K::Any), opt(P::GatherOob, K::Any),
          opt(P::TargetMemory, K::Enum("MemorySpace")), opt(P::Scratch, K::Tensor), opt(P::ValidShape, K::Shape)],
        tile_mgather, false, OpKind::Special(Special::MGather);
    TileMscatter = "tile.mscatter", Tile, ["pl.tile.mscatter", "pl.mscatter"], None,
        &[req(P::Src, K::Tile), req(P::Idx, K::Tile), write(P::OutputTensor, K::Tensor)], tile_mscatter, false,
        OpKind::Special(Special::MScatter);
    TileGatherRow = "tile.gather_row", Tile, ["pl.tile.gather_row"], Some("gather_row"),
        &[read_write(P::Dst, K::Tile), req(P::Src, K::Tensor), req(P::DstOffset, K::Indices), req(P::SrcOffset, K::Indices),
          req(P::Shapes, K::Shape), opt(P::Transpose, K::Bool), opt(P::ValidShape, K::Shape)],
        gather_row, false, OpKind::Special(Special::GatherRow);
    TensorGatherRow = "tensor.gather_row", Tensor, ["pl.tensor.gather_row"], Some("gather_row"),
        &[read_write(P::Acc, K::Tensor), req(P::Src, K::Tensor), req(P::DstOffset, K::Indices), req(P::SrcOffset, K::Indices),
          req(P::Shapes, K::Shape), opt(P::Transpose, K::Bool), opt(P::ValidShape, K::Shape)],
        gather_row, false, OpKind::Special(Special::GatherRow);
    TensorPagedGather = "tensor.paged_gather", Tensor, ["pl.tensor.paged_gather", "pl.paged_gather"], None,
        &[req(P::Src, K::Tensor), req(P::Indices, K::Tensor), req(P::BlockTable, K::Tensor), req(P::BlockSize, K::Int),
          req(P::Size, K::Int), req(P::MaxIndices, K::Int), opt(P::Space, K::Enum("MemorySpace")), opt(P::ColOff, K::Int),
          opt(P::IsTrans, K::Bool), opt(P::IsBMatrix, K::Bool)],
        paged_gather, false, OpKind::Special(Special::PagedGather);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_spellings_are_unique() {
        let mut names = std::collections::HashSet::new();
        let mut spellings = std::collections::HashSet::new();
        for op in OPS {
            assert!(names.insert(op.name), "op {} twice", op.name);
            for s in op.spellings {
                assert!(spellings.insert(*s), "spelling {s} twice");
                assert!(s.starts_with("pl.") || s.starts_with("pld."), "{s}");
                // `pld.` spellings belong to the distributed ops and only to them.
                assert_eq!(s.starts_with("pld."), op.level == OpLevel::Distributed, "{s}");
            }
            let mut params = std::collections::HashSet::new();
            for p in op.params {
                assert!(params.insert(p.name), "{}: parameter {} twice", op.name, p.name);
            }
            // Required parameters come first.
            let first_optional = op.params.iter().position(|p| !p.required).unwrap_or(op.params.len());
            assert!(op.params[first_optional..].iter().all(|p| !p.required), "{}", op.name);
        }
        // A unified name maps to at most one op per level.
        for op in OPS.iter().filter(|op| op.unified.is_some()) {
            let same = OPS.iter().filter(|o| o.unified == op.unified && o.level == op.level).count();
            assert_eq!(same, 1, "{}", op.name);
        }
    }

    /// The consumers read a family op's operands by position: they lead its parameters.
    #[test]
    fn family_rows_take_their_operands_first() {
        for &op in Op::ALL {
            let def = op.def();
            let operands = def.kind.family_operands().unwrap_or(0);
            assert!(def.params.len() >= operands, "{op}");
            for p in &def.params[..operands] {
                let operand = matches!(p.kind, ArgKind::Value | ArgKind::Tensor | ArgKind::Tile | ArgKind::Scalar);
                assert!(p.required && operand, "{op}: {} is not an operand", p.name);
            }
        }
    }

    #[test]
    fn lookup() {
        assert_eq!(by_spelling("pl.load").map(|id| id.def().name), Some("tile.load"));
        assert_eq!(unified("read").map(|id| id.def().name).collect::<Vec<_>>(), ["tensor.read", "tile.read"]);
        assert_eq!(unified("write").count(), 2);
        assert_eq!(unified("add").count(), 2);
        assert_eq!(scalar_operator("mul"), Some(ScalarOp::Mul));
        assert_eq!(Op::TileStore.def().effect(2), Effect::Write);
    }

    fn op(spelling: &str) -> &'static OpDef {
        by_spelling(spelling).unwrap_or_else(|| panic!("{spelling} is not in the table")).def()
    }

    #[test]
    fn lookup_of_added_spellings() {
        // Older spellings of existing ops.
        assert_eq!(op("pl.create").name, "tensor.create");
        assert_eq!(op("pl.op.tensor.mul").name, "tensor.mul");
        assert_eq!(op("pl.op.block.exp").name, "tile.exp");
        assert_eq!(op("pl.op.block.row_max").name, "tile.row_max");
        assert_eq!(op("pl.op.block.load").name, "block.load");
        assert_eq!(op("pl.l0c_store").effect(3), Effect::Write);
        assert_eq!(op("pl.op.block.store").effect(5), Effect::Write);
        assert_eq!(op("pl.copy").effect(0), Effect::Write);
        assert_eq!(op("pl.arange").name, "tensor.ci");
        assert_eq!(op("pl.tile.maximums").name, "tile.maxs");
        // Keyword arguments the examples pass.
        assert!(op("pl.load").keyword_index("valid_shapes").is_some());
        assert!(op("pl.load").keyword_index("transpose").is_some());
        assert!(op("pl.create_tensor").keyword_index("memory_type").is_some());
        assert!(op("pl.move").keyword_index("transpose").is_some());
        for k in ["mode", "core_type", "gm_workspace", "used_cores"] {
            assert!(op("pl.system.syncall").keyword_index(k).is_some(), "{k}");
        }
        // Markers of `pl.at(..., optimizations=[...])`.
        assert!(op("pl.split").orchestration && op("pl.cross_core_slot").orchestration);
        // Distributed ops.
        assert_eq!(op("pld.window").name, "pld.tensor.window");
        // The older `pl.op.block` / `pl.op.tensor` API reaches the current ops.
        assert_eq!(op("pl.op.block.adds").name, "tile.adds");
        assert_eq!(op("pl.op.tensor.mul").name, "tensor.mul");
        assert!(by_spelling("pl.op.block.no_such_op").is_none());
        assert_eq!(op("pld.alloc_window_buffer").name, "pld.tensor.alloc_window_buffer");
        assert_eq!(op("pld.tensor.put").effect(0), Effect::ReadWrite);
        assert_eq!(op("pld.tensor.get").effect(0), Effect::Write);
        assert_eq!(op("pld.tensor.get").effect(2), Effect::Read);
        assert_eq!(op("pld.tensor.allreduce").effect(1), Effect::ReadWrite);
        assert_eq!(op("pld.tensor.allgather").effect(1), Effect::Write);
        assert_eq!(op("pld.system.wait").effect(0), Effect::Read);
        assert!(op("pld.system.notify").params[4].required);
        // Unified families with a form per level.
        for name in ["adds", "xor", "sel", "cmps", "sum", "gather", "sort32", "mrgsort", "matmul_acc", "gemv"] {
            assert_eq!(unified(name).count(), 2, "{name}");
        }
        let levels: Vec<OpLevel> = unified("max").map(|id| id.def().level).collect();
        assert_eq!(levels, [OpLevel::Tensor, OpLevel::Tile, OpLevel::Scalar]);
        // PyPTO's per-level signatures: the tile forms take their scratch tile.
        assert!(unified("xor").any(|id| id.def().level == OpLevel::Tile && id.def().params[2].required));
        assert!(unified("xor").any(|id| id.def().level == OpLevel::Tensor && !id.def().params[2].required));
    }

    #[test]
    fn added_rows_and_aliases() {
        // Promoted spellings of rows plc had under another one.
        assert_eq!(op("pl.maximums").name, "tile.maxs");
        assert_eq!(op("pl.dim").name, "tensor.dim");
        for (alias, _) in ALIASES {
            assert!(OPS.iter().all(|o| !o.spellings.contains(alias)), "{alias} is also a row's spelling");
        }
        // Unified families with a form per level.
        for name in ["row_prod", "col_min", "row_argmax", "col_expand_expdif", "row_expand", "sin", "fmod", "part_add"]
        {
            assert_eq!(unified(name).count(), 2, "{name}");
        }
        // PyPTO's per-level parameters: tile reductions take a scratch tile, tensor ones none.
        assert_eq!(op("pl.tile.row_prod").keyword_index("tmp_tile"), Some(1));
        assert!(op("pl.tensor.row_argmax").keyword_index("tmp_tile").is_none());
        assert_eq!(op("pl.tile.row_expand").keyword_index("row_vec"), Some(1));
        let c = |v: &[i64]| v.iter().map(|&d| Dim::Const(d)).collect::<Vec<_>>();
        let tile = |s: &[i64], d: DType| Type::Tile { shape: c(s), dtype: d, memory: Some(MemorySpace::Vec) };
        let x = Fake(vec![Some(tile(&[8, 16], DType::Fp32)), Some(tile(&[8, 16], DType::Fp32))], vec![], vec![]);
        assert_eq!((op("pl.tile.row_argmax").result)(&x), Ok(tile(&[8, 1], DType::Int32)));
        assert_eq!((op("pl.tile.col_argmin").result)(&x), Ok(tile(&[1, 16], DType::Int32)));
        assert_eq!((op("pl.tile.col_prod").result)(&x), Ok(tile(&[1, 16], DType::Fp32)));
        // Column reductions of 3 axes: a tile reduces the first (COLRED), a tensor the one
        // before the last (TRED axis -2); one axis is refused at both levels.
        let cube = Fake(vec![Some(tile(&[2, 4, 8], DType::Fp32)), Some(tile(&[2, 4, 8], DType::Fp32))], vec![], vec![]);
        assert_eq!((op("pl.tile.col_sum").result)(&cube), Ok(tile(&[1, 4, 8], DType::Fp32)));
        assert_eq!((op("pl.tile.col_argmax").result)(&cube), Ok(tile(&[1, 4, 8], DType::Int32)));
        let tensor = |s: &[i64]| Type::tensor(c(s), DType::Fp32);
        let t3 = Fake(vec![Some(tensor(&[2, 4, 8]))], vec![], vec![]);
        assert_eq!((op("pl.tensor.col_max").result)(&t3), Ok(tensor(&[2, 1, 8])));
        let t1 = Fake(vec![Some(tensor(&[8]))], vec![], vec![]);
        assert!((op("pl.tensor.col_sum").result)(&t1).is_err());
        let half = Fake(vec![Some(tile(&[8, 16], DType::Fp16))], vec![], vec![]);
        assert!((op("pl.tile.cos").result)(&half).is_err());
        // System ops: every spelling level PyPTO has, and a reason where there is no CPU form.
        assert_eq!(op("pl.tpush_to_aiv").name, "tile.tpush_to_aiv");
        assert_eq!(op("pl.system.tpop_from_aic").name, "tile.tpop_from_aic");
        assert_eq!(op("pl.tile.tpop_from_aiv").name, "tile.tpop_from_aiv");
        assert!(op("pl.reserve_buffer").kind.no_cpu_form().is_none());
        // `buf.base` reads the base of exactly the two buffer ops.
        let buffers: Vec<&str> = Op::ALL.iter().filter(|o| o.def().names_a_buffer()).map(|o| o.def().name).collect();
        assert_eq!(buffers, ["system.reserve_buffer", "system.import_peer_buffer"]);
        assert!(op("pl.prefetch.wait").kind.no_cpu_form().is_some());
        assert!(op("pl.system.bar_all").kind.no_cpu_form().is_none());
        assert!(op("pl.system.task_invalid").orchestration);
        assert_eq!(op("pld.remote_store").name, "pld.tensor.remote_store");
        assert_eq!(op("pld.tile.put").effect(0), Effect::ReadWrite);
        let popped = Fake(vec![], vec![Some(c(&[16, 16]))], vec![None, Some(DType::Fp32)]);
        let mat = Type::Tile { shape: c(&[16, 16]), dtype: DType::Fp32, memory: Some(MemorySpace::Mat) };
        assert_eq!((op("pl.tpop_from_aiv").result)(&popped), Ok(mat));
    }

    #[test]
    fn scatter_random_and_hint_rows() {
        for spelling in [
            "pl.scatter",
            "pl.tile.scatter",
            "pl.tensor.scatter_mask",
            "pl.tile.scatter_mask",
            "pl.tensor.scatter_update",
            "pl.tile.scatter_update",
            "pl.random",
            "pl.tile.random",
            "pl.tensor.reinterpret_view",
            "pl.tile.reinterpret_view",
            "pl.system.task_dummy",
            "pl.task_id_of",
            "pl.auto_chunk",
        ] {
            assert!(by_spelling(spelling).is_some(), "{spelling}");
            assert!(refusal(spelling).is_none(), "{spelling} is still refused");
        }
        assert_eq!(unified("scatter_update").count(), 2);
        assert_eq!(unified("reinterpret_view").count(), 2);
        assert!(op("pl.auto_chunk").is_bare_marker());
        assert!(!op("pl.split").is_bare_marker());
        // PyPTO's `(input, dim, index, src)` order.
        assert_eq!(op("pl.tensor.scatter_update").older_order(), Some(&[0usize, 3, 1, 2][..]));
        assert_eq!(
            op("pl.load").keyword_index("l2_hint").map(|i| op("pl.load").params[i].kind),
            Some(ArgKind::Enum("LoadL2Hint"))
        );
        assert!(op("pl.store").keyword_index("st_phase").is_some());
        for code in 1..=7 {
            let p = MaskPattern::from_code(code).unwrap();
            assert_eq!(p.code(), code);
            assert!(p.lane() < p.stride() || p == MaskPattern::P1111);
        }
        assert!(MaskPattern::from_code(0).is_none() && MaskPattern::from_code(8).is_none());
        let c = |v: &[i64]| v.iter().map(|&d| Dim::Const(d)).collect::<Vec<_>>();
        let tile = |s: &[i64], d: DType| Type::Tile { shape: c(s), dtype: d, memory: Some(MemorySpace::Vec) };
        // reinterpret_view rescales the last extent by the widths.
        let x = Fake(vec![Some(tile(&[4, 16], DType::Fp16))], vec![], vec![None, Some(DType::Int32)]);
        assert_eq!((op("pl.tile.reinterpret_view").result)(&x), Ok(tile(&[4, 8], DType::Int32)));
    }

    /// An argument view over plain types, for the result rules.
    struct Fake(Vec<Option<Type>>, Vec<Option<Vec<Dim>>>, Vec<Option<DType>>);

    impl Args for Fake {
        fn ty(&self, i: usize) -> Option<&Type> {
            self.0.get(i)?.as_ref()
        }
        fn dims(&self, i: usize) -> Option<Vec<Dim>> {
            self.1.get(i)?.clone()
        }
        fn dtype(&self, i: usize) -> Option<DType> {
            *self.2.get(i)?
        }
        fn enum_value(&self, _: usize) -> Option<EnumValue> {
            None
        }
        fn int(&self, _: usize) -> Option<i64> {
            None
        }
        fn present(&self, i: usize) -> bool {
            self.0.get(i).is_some_and(Option::is_some)
                || self.1.get(i).is_some_and(Option::is_some)
                || self.2.get(i).is_some_and(Option::is_some)
        }
    }

    #[test]
    fn result_rules_of_added_ops() {
        let c = |v: &[i64]| v.iter().map(|&d| Dim::Const(d)).collect::<Vec<_>>();
        let tile = |s: &[i64]| Type::Tile { shape: c(s), dtype: DType::Fp32, memory: Some(MemorySpace::Vec) };
        // `pl.tile.full(shape, dtype=..., value=...)` lives in Vec.
        let full = Fake(
            vec![None, None, Some(Type::Scalar(DType::Fp32))],
            vec![Some(c(&[16, 128]))],
            vec![None, Some(DType::Fp32)],
        );
        assert_eq!((op("pl.tile.full").result)(&full), Ok(tile(&[16, 128])));
        // `sort32` doubles the last extent; `transpose_view` swaps the last two.
        let ids = Type::Tile { shape: c(&[1, 64]), dtype: DType::UInt32, memory: Some(MemorySpace::Vec) };
        let one = Fake(vec![Some(tile(&[1, 64])), Some(ids)], vec![], vec![]);
        assert_eq!((op("pl.tile.sort32").result)(&one), Ok(tile(&[1, 128])));
        assert_eq!((op("pl.tile.transpose_view").result)(&one), Ok(tile(&[64, 1])));
        // `pl.tensor.sum(x)` keeps the last axis as 1 by default.
        let t = Type::tensor(c(&[16, 128]), DType::Fp32);
        let sum = Fake(vec![Some(t)], vec![], vec![]);
        assert_eq!((op("pl.tensor.sum").result)(&sum), Ok(Type::tensor(c(&[16, 1]), DType::Fp32)));
        // `pld.window(buf, shape, dtype=...)` is a tensor view.
        let w = Fake(vec![Some(Type::Unknown)], vec![None, Some(c(&[1, 8]))], vec![None, None, Some(DType::Int32)]);
        assert_eq!(
            (op("pld.window").result)(&w),
            Ok(Type::Tensor {
                shape: Some(c(&[1, 8])),
                dtype: Some(DType::Int32),
                distributed: true,
                layout: Layout::Nd
            })
        );
    }

    #[test]
    fn promote_and_accumulator_dtypes() {
        use DType::*;
        assert_eq!(promote(Fp16, Fp16), Fp16);
        assert_eq!(promote(Int32, Fp16), Fp16);
        assert_eq!(promote(Int8, Int32), Int32);
        assert_eq!(promote(UInt16, Int16), Int16);
        assert_eq!(promote(Fp16, Bf16), Fp16);
        assert_eq!(acc_dtype(Bf16), Fp32);
        assert_eq!(acc_dtype(Int8), Int32);
    }

    #[test]
    fn tensor_matmul_follows_the_tmm_shape_rule() {
        let t = |s: &[i64]| Type::tensor(s.iter().map(|&d| Dim::Const(d)).collect(), DType::Int8);
        let c = |v: &[i64]| Ok(Some(v.iter().map(|&d| Dim::Const(d)).collect::<Vec<_>>()));
        assert_eq!(tensor_matmul_shape(&t(&[64, 32]), &t(&[32, 8]), false, false), c(&[64, 8]));
        // A batched rhs (a one-layer window of a stacked weight) broadcasts its batch axis.
        assert_eq!(tensor_matmul_shape(&t(&[64, 512]), &t(&[1, 256, 512]), false, true), c(&[1, 64, 256]));
        assert_eq!(tensor_matmul_shape(&t(&[2, 1, 4, 8]), &t(&[3, 8, 5]), false, false), c(&[2, 3, 4, 5]));
        assert_eq!(tensor_matmul_shape(&t(&[8, 4]), &t(&[8, 5]), true, false), c(&[4, 5]));
        // Rank-1 operands lose their M (lhs) or N (rhs) axis.
        assert_eq!(tensor_matmul_shape(&t(&[8]), &t(&[8]), false, false), c(&[]));
        assert_eq!(tensor_matmul_shape(&t(&[4, 8]), &t(&[8]), false, false), c(&[4]));
        assert!(tensor_matmul_shape(&t(&[4, 8]), &t(&[7, 5]), false, false).is_err());
        assert!(tensor_matmul_shape(&t(&[2, 4, 8]), &t(&[3, 8, 5]), false, false).is_err());
        assert!(tensor_matmul_shape(&t(&[8]), &t(&[8, 5]), true, false).is_err());
    }

    #[test]
    fn tile_matmul_gives_the_accumulator_dtype() {
        let tile = |d: DType, m: MemorySpace, s: [i64; 2]| Type::Tile {
            shape: s.iter().map(|&x| Dim::Const(x)).collect(),
            dtype: d,
            memory: Some(m),
        };
        let args = Fake(
            vec![
                Some(tile(DType::Bf16, MemorySpace::Left, [16, 32])),
                Some(tile(DType::Bf16, MemorySpace::Right, [32, 8])),
            ],
            vec![],
            vec![],
        );
        assert_eq!((op("pl.tile.matmul").result)(&args), Ok(tile(DType::Fp32, MemorySpace::Acc, [16, 8])));
        let mixed = Fake(
            vec![
                Some(tile(DType::Bf16, MemorySpace::Left, [16, 32])),
                Some(tile(DType::Fp16, MemorySpace::Right, [32, 8])),
            ],
            vec![],
            vec![],
        );
        assert!((op("pl.tile.matmul").result)(&mixed).is_err());
        let acc = Fake(
            vec![
                Some(tile(DType::Bf16, MemorySpace::Acc, [16, 8])),
                Some(tile(DType::Bf16, MemorySpace::Left, [16, 32])),
                Some(tile(DType::Bf16, MemorySpace::Right, [32, 8])),
            ],
            vec![],
            vec![],
        );
        assert!((op("pl.tile.matmul_acc").result)(&acc).is_err());
    }

    #[test]
    fn older_spellings_name_todays() {
        assert_eq!(op("pl.create").older_spelling("pl.create").as_deref(), Some("pl.create_tensor"));
        assert_eq!(op("pl.create_tensor").older_spelling("pl.create_tensor"), None);
        assert_eq!(op("pl.op.block.add").older_spelling("pl.op.block.add").as_deref(), Some("pl.tile.add"));
        assert_eq!(op("pl.block.l0c_store").name, "tile.l0c_store");
        assert!(op("pl.tensor.sum").older_spelling("pl.sum").is_some());
        assert_eq!(op("pl.scalar.max").older_spelling("pl.max"), None);
        // Every listed older spelling reaches its row.
        for (i, def) in OPS.iter().enumerate() {
            for (old, _) in def.older.iter().filter(|(s, _)| *s != "*") {
                assert_eq!(by_spelling(old), Some(Op::ALL[i]), "{old}");
            }
        }
    }
}
