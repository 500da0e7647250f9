//! The semantics of the op table's ops (`ir/ops.rs`), dispatched on the op's IR name.
//!
//! Tile ops follow PyPTO's own PyTorch reference lowering (`reference/codegen.md` §5.2):
//! `pl.load` copies a window and zero-pads what lies outside the tensor, its valid region
//! is the part inside (and inside `valid_shapes`); `pl.store` writes the tile's valid
//! region; elementwise ops broadcast like PyTorch; reductions keep the reduced axis as 1;
//! float arithmetic is `f32` arithmetic (scalar operands converted first, sums and matmul
//! accumulated in `f32` in index order), as on the device. Tensor ops are the same
//! computations on whole tensors; `pl.slice`, `pl.tensor.view`, `pl.reshape` and
//! `pl.transpose` of a tensor are views sharing its buffer; `pl.assemble` and `pl.store`
//! write into the target and return it. An op without semantics is an error naming it.

use super::exec::{as_int, Interp, MAX_ELEMENTS};
use super::group::Wait;
use super::value::{contiguous_strides, element_count, for_each_index, Data, Dense, Num, Tensor, Value};
use crate::intern::Interner;
use crate::ir::arith::floor_mod;
use crate::ir::ops::{self, Axis, BinaryFn, Op, OpDef, OpKind, OpLevel, Param as P, ReduceFn, Slot, Special, UnaryFn};
use crate::ir::{AtomicType, DType, EnumValue, Layout, MaskPattern, PadValue};
use std::cell::RefCell;
use std::cell::RefMut;
use std::rc::Rc;

type Res<T> = Result<T, String>;

/// Runs one op on evaluated arguments (in the op's parameter order, `None` when absent).
/// `result` is the dtype of the call's IR type, when it has one.
pub(super) fn call(
    it: &mut Interp<'_>,
    op: Op,
    args: Vec<Option<Value>>,
    result: Option<DType>,
    source_layout: Layout,
) -> Res<Value> {
    let def = op.def();
    let a = Args { def, vals: args, names: it.names(), source_layout };
    let value = match def.kind {
        OpKind::Binary(f) => {
            let (x, y) = (a.nth_operand(0)?, a.nth_operand(1)?);
            let mut dtype = result_dtype(&[&x, &y]);
            // A tensor op computes in its promoted dtype (`pl.mul(fp16, 2.0)` is FP32, as
            // the C++ computes it); a tile op keeps its lhs's.
            if let Some(d) = result.filter(|d| !a.first_is_tile() && d.is_float() && dtype.is_float()) {
                dtype = d;
            }
            wrap_like(a.first_is_tile(), binary_in(&x, &y, f.into(), dtype)?)
        }
        OpKind::Unary(f) => wrap_like(a.first_is_tile(), unary(&a.nth_dense(0)?, f)?),
        OpKind::Chain(f) => {
            let first = binary(&a.nth_operand(0)?, &a.nth_operand(1)?, f.into())?;
            let plus = Bin::Fn(BinaryFn::Add);
            wrap_like(a.first_is_tile(), binary(&Operand::Array(first), &a.nth_operand(2)?, plus)?)
        }
        OpKind::Expand(_, f) => {
            let kind = f.map_or(Bin::Second, Bin::from);
            wrap_like(a.first_is_tile(), binary(&a.nth_operand(0)?, &a.nth_operand(1)?, kind)?)
        }
        OpKind::Reduce(axis, f) => {
            let d = a.nth_dense(0)?;
            if d.rank() == 0 {
                return Err(format!("`{}` of a value without axes", def.spellings[0]));
            }
            let k = match axis {
                Axis::Row => d.rank() - 1,
                Axis::Col => Axis::col_axis_of(a.first_is_tile(), d.rank())
                    .ok_or_else(|| format!("`{}` needs a value of at least 2 axes", def.spellings[0]))?,
            };
            wrap_like(a.first_is_tile(), reduce(&d, k, true, f))
        }
        OpKind::ArgReduce(axis, f) => {
            let d = a.nth_dense(0)?;
            if d.rank() < 2 {
                return Err(format!("`{}` needs a value of at least 2 axes", def.spellings[0]));
            }
            let k = match axis {
                Axis::Row => d.rank() - 1,
                Axis::Col => Axis::col_axis_of(a.first_is_tile(), d.rank()).unwrap_or(0),
            };
            wrap_like(a.first_is_tile(), arg_reduce(&d, k, f))
        }
        OpKind::Part(f) => wrap_like(a.first_is_tile(), part(&a.nth_dense(0)?, &a.nth_dense(1)?, f.into())?),
        OpKind::AxisReduce { f, default_axis, default_keep } => {
            let d = a.nth_dense(0)?;
            let axis = match a.at(P::Axis) {
                Some(v) => as_int(v).ok_or("the axis must be an integer")?,
                None => default_axis,
            };
            let keep = match a.def.param_index(P::KeepDim) {
                Some(_) => a.flag(P::KeepDim, default_keep)?,
                None => a.flag(P::Keepdim, default_keep)?,
            };
            wrap_like(a.first_is_tile(), reduce(&d, normalize_axis(axis, d.rank())?, keep, f))
        }
        OpKind::Compare => {
            let code = match a.at(P::CmpType) {
                Some(v) => as_int(v).ok_or("cmp_type must be an integer (0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE)")?,
                None => 0,
            };
            if !(0..=5).contains(&code) {
                return Err(format!("cmp_type {code}: the codes are 0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE"));
            }
            let bits = binary(&a.nth_operand(0)?, &a.nth_operand(1)?, Bin::Cmp(code as u8))?;
            match a.first_is_tile() {
                true => Value::tile(pack_mask(&bits)),
                false => wrap_like(false, bits),
            }
        }
        OpKind::Special(special) => self::special(it, special, &a)?,
        // Markers of `pl.at(..., optimizations=[...])`: nothing to compute.
        OpKind::Marker => Value::None,
        OpKind::CrossCore => cross_core(it, op, &a)?,
        OpKind::Distributed
        | OpKind::Prefetch
        | OpKind::PlannedMemory
        | OpKind::Microscaling
        | OpKind::SplitTransfer => {
            let why = def.kind.no_cpu_form().unwrap_or_default();
            return Err(format!("`{}` has no semantics in the interpreter: {why}", def.spellings[0]));
        }
    };
    let shape = match &value {
        Value::Tensor(t) => Some(t.shape.clone()),
        Value::Tile(t) => Some(t.borrow().shape.clone()),
        _ => None,
    };
    if let Some(shape) = shape {
        check_size(shape)?;
    }
    Ok(value)
}

/// The cross-core pipes of a mixed kernel. The kernels a Group calls run together
/// (`group`). A pipe (one per `id=`) has the slots its `*_initialize_pipe` sets up
/// (`ir::ops::pipe_slots`, 8 when none does), which both directions share: a push puts a
/// copy of the tile in a free slot, a pop takes the oldest tile pushed the other way and
/// holds its slot until a `tfree_*` of the popping kernel frees the oldest slot it holds.
/// A push on a full pipe, or a pop of an empty one, lets the other kernels of the Group run
/// until a slot is freed or a tile pushed (a deadlock when none can); a free with no slot
/// held fails. Buffer addresses have no CPU meaning: `reserve_buffer` gives its `base=`
/// (-1, AUTO, when not given), `import_peer_buffer` -1. Split pushes and pops (`split=`
/// other than 0, a tile shared by the two vector cores) are refused.
fn cross_core(it: &mut Interp<'_>, op: Op, a: &Args<'_>) -> Res<Value> {
    let int_or = |slot: P, default: i64| -> Res<i64> {
        match a.at(slot) {
            Some(_) => a.int(slot),
            None => Ok(default),
        }
    };
    let opt_int = |slot: P| a.at(slot).map(|_| a.int(slot)).transpose();
    let id = int_or(P::Id, 0)?;
    if int_or(P::Split, 0)? != 0 && op != Op::SystemReserveBuffer && op != Op::SystemImportPeerBuffer {
        return Err(format!(
            "`{}` with `split=` other than 0 (a tile split between the two vector cores) is not modelled by plc",
            a.op()
        ));
    }
    match op {
        Op::SystemReserveBuffer => Ok(Value::Int(int_or(P::Base, crate::ir::ops::AUTO_BASE)?)),
        Op::SystemImportPeerBuffer => Ok(Value::Int(-1)),
        Op::SystemAicInitializePipe | Op::SystemAivInitializePipe => {
            let slots = crate::ir::ops::pipe_slots(opt_int(P::DirMask)?, opt_int(P::SlotNum)?);
            it.pipes.entry(id).or_default().set_up(id, slots).map_err(|why| format!("`{}`: {why}", a.op()))?;
            Ok(Value::None)
        }
        Op::TileTpushToAiv | Op::TileTpushToAic => {
            let tile = a.dense(P::Tile)?;
            let key = (id, op == Op::TileTpushToAiv);
            // A full pipe: the other kernels of the Group run until the consumer frees a slot.
            while !it.pipes.entry(id).or_default().has_free_slot() {
                it.wait_on_pipe(Wait::Slot(key)).map_err(|why| format!("`{}`: {why}", a.op()))?;
            }
            it.pipes.entry(id).or_default().push(key.1, tile);
            Ok(Value::None)
        }
        Op::TileTpopFromAic | Op::TileTpopFromAiv => {
            let key = (id, op == Op::TileTpopFromAic);
            // An empty pipe: the other kernels of the Group run until one pushes on it.
            let tile = loop {
                if let Some(tile) = it.pipes.get_mut(&id).and_then(|p| p.pop(key.1)) {
                    break tile;
                }
                it.wait_on_pipe(Wait::Tile(key)).map_err(|why| format!("`{}`: {why}", a.op()))?;
            };
            if let Some(shape) = a.opt_ints(P::Shape)? {
                if shape != tile.shape {
                    return Err(format!("`{}` of shape {shape:?} pops a tile of shape {:?}", a.op(), tile.shape));
                }
            }
            if a.at(P::Dtype).is_some() && a.dtype(P::Dtype)? != tile.dtype {
                return Err(format!("`{}` of dtype {} pops a tile of {}", a.op(), a.dtype(P::Dtype)?, tile.dtype));
            }
            Ok(Value::tile(tile))
        }
        Op::SystemTfreeToAic | Op::SystemTfreeToAiv => {
            // `tfree_to_aic` is the vector core's: it frees a slot of the cube's tiles to it.
            let to_vector = op == Op::SystemTfreeToAic;
            if !it.pipes.get_mut(&id).is_some_and(|p| p.free(to_vector)) {
                let pop = if to_vector { "tpop_from_aic" } else { "tpop_from_aiv" };
                return Err(format!(
                    "`{}` without a tile to free: no tile that `{pop}` took from pipe {id} is still held (each pop is freed once)",
                    a.op()
                ));
            }
            Ok(Value::None)
        }
        _ => Err(format!("`{}` has no semantics in the interpreter", a.op())),
    }
}

/// The ops with a semantics of their own.
fn special(it: &mut Interp<'_>, special: Special, a: &Args<'_>) -> Res<Value> {
    match special {
        Special::CreateTensor
        | Special::Full
        | Special::CreateTile
        | Special::CreateBufferSet
        | Special::Ci
        | Special::ArrayCreate
        | Special::ShapeOf
        | Special::DTypeOf
        | Special::Dim
        | Special::BlockIdx
        | Special::BlockNum
        | Special::SubblockIdx
        | Special::AvailableAivCount
        | Special::AvailableClusterCount
        | Special::TaskInvalid
        | Special::Hardware
        | Special::PinBuffer
        | Special::RuntimePrint
        | Special::SyncAll => create(it, special, a),
        Special::Read | Special::Write | Special::ArrayGet | Special::ArrayUpdate => element(special, a),
        Special::Slice
        | Special::Reshape
        | Special::Transpose
        | Special::View
        | Special::TransposeView
        | Special::SetValidShape
        | Special::Move => layout(special, a),
        Special::Load
        | Special::BlockLoad
        | Special::Store
        | Special::BlockStore
        | Special::Assemble
        | Special::Copy => memory(special, a),
        Special::Cast | Special::ScalarCast | Special::ScalarMax | Special::ScalarMin => convert_op(special, a),
        crate::ir::ops::specials!(matmul) => matmul_op(special, a),
        crate::ir::ops::specials!(compute) => other_compute(special, a),
        crate::ir::ops::specials!(shaping) => shaping(special, a),
        crate::ir::ops::specials!(scatter) => scatter_family(special, a),
        Special::TaskDummy => Ok(it.dummy_task(a.at(P::Deps))),
        Special::TaskIdOf => Ok(it.task_id_of(&a.tensor(P::Producer)?)),
        crate::ir::ops::specials!(placing) => placing(special, a),
        crate::ir::ops::specials!(tuple) => gather_compare(a),
        Special::BufferSlot => {
            let Value::Tuple(slots) = a.req(P::Buffers)? else {
                return Err(format!("`{}` needs a set of tile buffers", a.op()));
            };
            let i = a.int(P::Index)?;
            let slot = usize::try_from(i).ok().and_then(|k| slots.get(k));
            slot.cloned().ok_or_else(|| format!("slot {i} of a set of {} tile buffers (`{}`)", slots.len(), a.op()))
        }
    }
}

/// New values: tensors, tiles and arrays, and what the runtime knows (extents, block index).
fn create(it: &Interp<'_>, special: Special, a: &Args<'_>) -> Res<Value> {
    let tile = a.def.level == OpLevel::Tile;
    Ok(match special {
        Special::CreateTensor | Special::CreateTile | Special::Full => {
            let mut d = Dense::zeros(a.dtype(P::Dtype)?, check_size(a.shape(P::Shape)?)?);
            let fill = match special {
                Special::Full => Some(a.req(P::Value)?),
                _ => a.at(P::InitValue),
            };
            if let Some(v) = fill {
                let v = scalar_num(v).ok_or("the fill value must be a number")?;
                for i in 0..d.len() {
                    d.data.set(i, v);
                }
            }
            wrap_like(tile || special == Special::CreateTile, d)
        }
        Special::CreateBufferSet => {
            let slot = Dense::zeros(a.dtype(P::Dtype)?, check_size(a.shape(P::Shape)?)?);
            let count = usize::try_from(a.int(P::Count)?).map_err(|_| "a negative count of buffers")?;
            Value::tuple((0..count).map(|_| wrap_like(true, slot.clone())).collect())
        }
        Special::Ci => {
            let start = a.num(P::Start)?;
            let shape = check_size(a.shape(P::Shape)?)?;
            let dtype = a.dtype_or(P::Dtype, DType::Int32)?;
            let descending = a.flag(P::Descending, false)?;
            let mut d = Dense::zeros(dtype, shape);
            for i in 0..d.len() {
                let k = i as i64;
                let v = match start {
                    Num::I(s) => Num::I(if descending { s.wrapping_sub(k) } else { s.wrapping_add(k) }),
                    Num::F(s) => Num::F(if descending { s - k as f64 } else { s + k as f64 }),
                };
                d.data.set(i, convert(v, dtype));
            }
            wrap_like(tile, d)
        }
        Special::ArrayCreate => {
            let n = a.int(P::Length)?;
            let dtype = a.dtype(P::Dtype)?;
            if !(0..=1 << 20).contains(&n) {
                return Err(format!("pl.array.create: a length of {n}"));
            }
            let init = match dtype {
                DType::TaskId => Value::TaskId(-1),
                d if d.is_float() => Value::Float(0.0),
                DType::Bool => Value::Bool(false),
                _ => Value::Int(0),
            };
            Value::Array(Rc::new(RefCell::new(vec![init; n as usize])))
        }
        Special::ShapeOf => Value::tuple(a.tensor(P::T)?.shape.iter().map(|&d| Value::Int(d)).collect()),
        Special::DTypeOf => Value::DType(a.tensor(P::T)?.dtype),
        Special::Dim => {
            let t = a.tensor(P::Tensor)?;
            let axis = normalize_axis(a.int(P::Axis)?, t.rank())?;
            Value::Int(t.shape[axis])
        }
        Special::BlockIdx => Value::Int(it.block_idx),
        Special::BlockNum => Value::Int(it.block_num),
        // The interpreter runs each kernel on one vector core: subblock 0.
        Special::SubblockIdx => Value::Int(0),
        // The device the CPU runtime stands for (a2a3: 24 clusters of one cube and two
        // vector cores), as its `rt_available_*` functions answer.
        Special::AvailableAivCount => Value::Int(48),
        Special::AvailableClusterCount => Value::Int(24),
        Special::TaskInvalid => Value::TaskId(-1),
        // Barriers, flags, fences and cache control (and `syncall`): the interpreter runs
        // everything in program order, so they do nothing. A device debug print changes no
        // value, and `plc run` prints only its checksum lines.
        _ => Value::None,
    })
}

/// One element of a tensor, a tile or an array, read or written.
fn element(special: Special, a: &Args<'_>) -> Res<Value> {
    if let Special::ArrayGet | Special::ArrayUpdate = special {
        let Value::Array(arr) = a.req(P::Array)? else {
            return Err(format!("`{}` needs a pl.array", a.def.spellings[0]));
        };
        let i = a.int(P::Index)?;
        let len = arr.borrow().len();
        if i < 0 || i as usize >= len {
            return Err(format!("index {i} of an array of {len}"));
        }
        return Ok(if special == Special::ArrayGet {
            arr.borrow()[i as usize].clone()
        } else {
            arr.borrow_mut()[i as usize] = a.req(P::Value)?.clone();
            Value::Array(arr.clone())
        });
    }
    let index = a.ints(P::Indices)?;
    // The tensor or tile read or written, the first argument.
    match (a.req(Slot::Nth(0))?, special) {
        (Value::Tensor(t), Special::Read) => {
            let pos = t.position(&checked_index(&index, &t.shape)?);
            let n = t.buf.borrow().get(pos);
            Ok(scalar_of(n, t.dtype))
        }
        (Value::Tensor(t), _) => {
            let pos = t.position(&checked_index(&index, &t.shape)?);
            let v = scalar_num(a.req(P::Value)?).ok_or("the value written must be a number")?;
            t.buf.borrow_mut().set(pos, convert(v, t.dtype));
            Ok(Value::Tensor(t.clone()))
        }
        (Value::Tile(t), Special::Read) => {
            let t = t.borrow();
            let pos = t.position(&checked_index(&index, &t.shape)?);
            Ok(scalar_of(t.data.get(pos), t.dtype))
        }
        (Value::Tile(tile), _) => {
            let mut t = tile.borrow_mut();
            let pos = t.position(&checked_index(&index, &t.shape)?);
            let v = scalar_num(a.req(P::Value)?).ok_or("the value written must be a number")?;
            let dtype = t.dtype;
            t.data.set(pos, convert(v, dtype));
            Ok(Value::Tile(tile.clone()))
        }
        (other, _) => Err(format!("`{}` needs a tensor or a tile, not {}", a.def.spellings[0], other.kind())),
    }
}

/// Views of tensors (sharing the buffer) and reshaped, transposed or re-windowed tiles.
fn layout(special: Special, a: &Args<'_>) -> Res<Value> {
    let tile = a.first_is_tile();
    Ok(match special {
        Special::Slice if !tile => {
            let drop = a.opt_ints(P::DropDims)?.unwrap_or_default();
            let mut view = slice_view(&a.tensor(P::X)?, &a.shape(P::Shape)?, &a.ints(P::Offset)?, &drop)?;
            // PyPTO's `valid_shape=` of a tensor slice (the rest of the view padding).
            if let Some(valid) = a.opt_ints(P::ValidShape)? {
                if valid.len() == view.rank() {
                    view.valid = Some(valid);
                }
            }
            Value::Tensor(view)
        }
        Special::Slice => {
            let d = a.nth_dense(0)?;
            let drop = a.opt_ints(P::DropDims)?.unwrap_or_default();
            let valid = a.opt_ints(P::ValidShape)?;
            Value::tile(slice_copy(&d, &a.shape(P::Shape)?, &a.ints(P::Offset)?, valid, &drop, a.pad(P::PadValue)?)?)
        }
        Special::Reshape if !tile => Value::Tensor(reshape_tensor(&a.tensor(P::X)?, a.shape(P::Shape)?)?),
        Special::Reshape => {
            let d = a.nth_dense(0)?;
            let shape = resolve_shape(&a.shape(P::Shape)?, d.len())?;
            Value::tile(Dense { valid: shape.clone(), shape, ..d })
        }
        Special::Transpose if !tile => {
            let mut t = a.tensor(P::X)?;
            let (i, j) = (normalize_axis(a.int(P::Axis1)?, t.rank())?, normalize_axis(a.int(P::Axis2)?, t.rank())?);
            t.shape.swap(i, j);
            t.strides.swap(i, j);
            if let Some(v) = t.valid.as_mut() {
                v.swap(i, j);
            }
            Value::Tensor(t)
        }
        Special::Transpose => {
            let d = a.nth_dense(0)?;
            let (i, j) = (normalize_axis(a.int(P::Axis1)?, d.rank())?, normalize_axis(a.int(P::Axis2)?, d.rank())?);
            Value::tile(transpose(&d, i, j)?)
        }
        Special::View => {
            let t = a.tensor(P::Tensor)?;
            let flips = match a.at(P::Layout) {
                Some(Value::Enum(EnumValue::Layout(l))) => a.source_layout.flips_to(*l),
                _ => false,
            };
            match a.opt_ints(P::Shape)? {
                // A layout alone that flips the source's (ND to DN or back) reads the same
                // storage in the other order: the last two axes swap.
                None if flips => {
                    let mut t = t;
                    let n = t.rank();
                    if n < 2 {
                        return Err(format!("{}: a DN view needs 2 dimensions, got {n}", a.op()));
                    }
                    t.shape.swap(n - 2, n - 1);
                    t.strides.swap(n - 2, n - 1);
                    if let Some(v) = t.valid.as_mut() {
                        v.swap(n - 2, n - 1);
                    }
                    Value::Tensor(t)
                }
                None => Value::Tensor(t),
                Some(shape) if resolve_shape(&shape, t.len()).is_ok() => Value::Tensor(reshape_tensor(&t, shape)?),
                Some(shape) if shape.len() == t.rank() && shape.iter().zip(&t.shape).all(|(s, d)| s <= d) => {
                    Value::Tensor(slice_view(&t, &shape, &[], &[])?)
                }
                Some(shape) => {
                    return Err(format!("pl.tensor.view: the shape {shape:?} does not fit a tensor of {:?}", t.shape))
                }
            }
        }
        Special::Move | Special::TransposeView => {
            let d = a.nth_dense(0)?;
            if special == Special::TransposeView || a.flag(P::Transpose, false)? {
                Value::tile(transpose(&d, d.rank().saturating_sub(2), d.rank().saturating_sub(1))?)
            } else {
                Value::tile(d)
            }
        }
        _ => {
            // `set_validshape`: the valid region of the last two axes.
            let mut d = a.nth_dense(0)?;
            let (rows, cols) = (a.int(P::ValidRows)?, a.int(P::ValidCols)?);
            let r = d.rank();
            if r >= 2 {
                d.valid[r - 2] = rows.clamp(0, d.shape[r - 2]);
                d.valid[r - 1] = cols.clamp(0, d.shape[r - 1]);
            }
            wrap_like(tile, d)
        }
    })
}

/// Loads into tiles, stores and copies into tensors, assembling into either.
fn memory(special: Special, a: &Args<'_>) -> Res<Value> {
    Ok(match special {
        Special::Load => {
            let t = a.tensor(P::Tensor)?;
            let valid = match a.opt_ints(P::ValidShapes)? {
                Some(v) => Some(v),
                None => a.opt_ints(P::ValidShape)?,
            };
            let mut d = load(&t, &a.ints(P::Offsets)?, &a.shape(P::Shapes)?, valid)?;
            if a.flag(P::Transpose, false)? {
                d = transpose(&d, d.rank().saturating_sub(2), d.rank().saturating_sub(1))?;
            }
            Value::tile(d)
        }
        Special::BlockLoad => {
            let t = a.tensor(P::Tensor)?;
            let offsets = vec![a.int(P::RowOffset)?, a.int(P::ColOffset)?];
            let shape = vec![a.int(P::Height)?, a.int(P::Width)?];
            Value::tile(load(&t, &offsets, &shape, None)?)
        }
        Special::Store | Special::BlockStore => {
            // `l2_hint=` and `st_phase=` are hints; the fixpipe's quantization and ReLU are not.
            if a.at(P::PreQuant).is_some() || a.flag(P::PreRelu, false)? {
                return Err(format!(
                    "`{}` with pre_quant= or pre_relu= has no semantics in the interpreter yet",
                    a.op()
                ));
            }
            let (offsets, limit) = match special {
                Special::Store => (a.ints(P::Offsets)?, a.opt_ints(P::Shapes)?),
                _ => {
                    (vec![a.int(P::RowOffset)?, a.int(P::ColOffset)?], Some(vec![a.int(P::Height)?, a.int(P::Width)?]))
                }
            };
            let (mut tile, out, atomic) = (a.dense(P::Tile)?, a.tensor(P::OutputTensor)?, a.atomic(P::Atomic)?);
            // A whole 2-D tile stored into an N-D window of as many elements (the form
            // FlattenTileNdTo2D leaves, `shapes=` giving the original region) fills the
            // window in row-major order, as the C++ store does.
            if let Some(l) = limit.as_ref().filter(|l| l.len() > tile.rank() && tile.valid == tile.shape) {
                if l.iter().product::<i64>() == tile.shape.iter().product::<i64>() {
                    tile = Dense { shape: l.clone(), valid: l.clone(), ..tile };
                }
            }
            let mut extent = tile.valid.clone();
            if let Some(limit) = limit {
                let limit = align_extent(&limit, extent.len());
                for (e, l) in extent.iter_mut().zip(limit) {
                    *e = (*e).min(l);
                }
            }
            write_tensor(&out, &tile, &offsets, &extent, atomic)?;
            Value::Tensor(out)
        }
        Special::Assemble => {
            if a.at(P::PreQuant).is_some() || a.flag(P::PreRelu, false)? {
                return Err(format!(
                    "`{}` with pre_quant= or pre_relu= has no semantics in the interpreter yet",
                    a.op()
                ));
            }
            let source = a.dense(P::Source)?;
            let offsets = a.ints(P::Offset)?;
            let atomic = a.atomic(P::Atomic)?;
            match a.req(P::Target)? {
                Value::Tensor(t) => {
                    let extent = source.valid.clone();
                    write_tensor(t, &source, &offsets, &extent, atomic)?;
                    Value::Tensor(t.clone())
                }
                Value::Tile(t) => {
                    write_tile(&mut t.borrow_mut(), &source, &offsets, atomic)?;
                    Value::Tile(t.clone())
                }
                other => return Err(format!("pl.assemble writes into a tensor or a tile, not {}", other.kind())),
            }
        }
        _ => {
            // `pl.copy(dst, src, dst_offsets, src_offsets, shape)`.
            let dst = a.tensor(P::Dst)?;
            let src = a.tensor(P::Src)?;
            let dst_off = a.opt_ints(P::DstOffsets)?.unwrap_or_default();
            let src_off = a.opt_ints(P::SrcOffsets)?.unwrap_or_default();
            let shape = match a.opt_ints(P::Shape)? {
                Some(s) => s,
                None => src.shape.clone(),
            };
            let window = load(&src, &src_off, &shape, None)?;
            let extent = window.valid.clone();
            write_tensor(&dst, &window, &dst_off, &extent, false)?;
            Value::Tensor(dst)
        }
    })
}

/// Casts of tensors, tiles and scalars, and the scalar `max`/`min`.
fn convert_op(special: Special, a: &Args<'_>) -> Res<Value> {
    match special {
        Special::ScalarCast => {
            let v = scalar_num(a.req(P::X)?).ok_or("pl.cast of a scalar needs a number")?;
            let dtype = a.dtype(P::TargetType)?;
            let mode = a.mode(P::Mode)?;
            let n = convert_with_mode(v, dtype, mode.as_deref())?;
            Ok(match (dtype, n) {
                (DType::Fp32 | DType::Fp16 | DType::Bf16, Num::F(f)) => Value::Float(f as f32 as f64),
                _ => scalar_of(n, dtype),
            })
        }
        Special::ScalarMax | Special::ScalarMin => {
            let (x, y) = (a.req(P::Lhs)?, a.req(P::Rhs)?);
            let (nx, ny) = (scalar_num(x).ok_or("pl.max needs numbers")?, scalar_num(y).ok_or("pl.min needs numbers")?);
            let max = special == Special::ScalarMax;
            let take_y = match (nx, ny) {
                (Num::I(p), Num::I(q)) => (q > p) == max,
                _ => (ny.as_f64() > nx.as_f64()) == max,
            };
            Ok(if take_y { y.clone() } else { x.clone() })
        }
        _ => {
            let d = a.dense(P::X)?;
            let dtype = a.dtype(P::TargetType)?;
            let mode = a.mode(P::Mode)?;
            let saturate = a.mode(P::SaturationMode)?.as_deref() == Some("on");
            let mut out =
                Dense { dtype, shape: d.shape.clone(), valid: d.valid.clone(), data: Data::zeros(dtype, d.len()) };
            for i in 0..d.len() {
                let v = d.data.get(i);
                let v = if saturate { saturated(v, dtype, mode.as_deref())? } else { v };
                out.data.set(i, convert_with_mode(v, dtype, mode.as_deref())?);
            }
            Ok(wrap_like(a.first_is_tile(), out))
        }
    }
}

/// `matmul`, `matmul_bias` (and the `gemv` forms): a new value; `matmul_acc`: the
/// accumulator tile updated in place, or a new tensor.
fn matmul_op(special: Special, a: &Args<'_>) -> Res<Value> {
    if let Special::BatchMatmul | Special::BatchMatmulAcc = special {
        return batch_matmul_op(special, a);
    }
    let tile = a.first_is_tile();
    let (ta, tb) = (a.flag(P::ATrans, false)?, a.flag(P::BTrans, false)?);
    let (lhs, rhs) = (a.dense(P::Lhs)?, a.dense(P::Rhs)?);
    if special != Special::MatmulAcc {
        let dtype = match a.at(P::OutDtype) {
            Some(Value::DType(d)) => *d,
            _ if tile => crate::ir::ops::acc_dtype(lhs.dtype),
            _ => crate::ir::ops::promote(lhs.dtype, rhs.dtype),
        };
        let mut product = matmul(&lhs, &rhs, ta, tb, dtype)?;
        if special == Special::MatmulBias {
            product = binary(&Operand::Array(product), &a.operand(P::Bias)?, Bin::Fn(BinaryFn::Add))?;
        }
        return Ok(wrap_like(tile, product));
    }
    // `init_cond` true: the product alone (the first step of an accumulation).
    let init = match a.at(P::InitCond) {
        Some(v) => super::exec::truthy(v)?,
        None => false,
    };
    let accumulate = |acc: &Dense| -> Res<Dense> {
        let product = matmul(&lhs, &rhs, ta, tb, acc.dtype)?;
        if init {
            Ok(product)
        } else {
            binary(&Operand::Array(acc.clone()), &Operand::Array(product), Bin::Fn(BinaryFn::Add))
        }
    };
    match a.req(P::Acc)? {
        // The accumulator tile is updated in place (the op reads and writes it).
        Value::Tile(acc) => {
            let sum = accumulate(&acc.borrow())?;
            let mut acc_mut = acc.borrow_mut();
            let valid = acc_mut.valid.clone();
            *acc_mut = Dense { valid, ..sum };
            Ok(Value::Tile(acc.clone()))
        }
        _ => Ok(wrap_like(tile, accumulate(&a.dense(P::Acc)?)?)),
    }
}

/// The other computations, the same on tensors (a new tensor) and on tiles (a new tile).
fn other_compute(special: Special, a: &Args<'_>) -> Res<Value> {
    if special == Special::Gather && a.at(P::Kvalue).is_some() {
        return gather_compare(a);
    }
    let d = match special {
        Special::Lrelu | Special::Prelu => {
            let x = a.nth_operand(0)?;
            let slope = a.nth_operand(1)?;
            let scaled = binary(&x, &slope, Bin::Fn(BinaryFn::Mul))?;
            select(&binary(&x, &Operand::Scalar(Num::I(0)), Bin::Cmp(4))?, &x, &Operand::Array(scaled))?
        }
        Special::Sel => {
            let Operand::Array(mask) = a.operand(P::Mask)? else { return Err("pl.sel needs a mask tile".into()) };
            let lhs = a.operand(P::Lhs)?;
            let mask = match (&lhs, a.first_is_tile()) {
                (Operand::Array(l), true) => unpack_mask(&mask, &l.shape)?,
                _ => mask,
            };
            select(&mask, &lhs, &a.operand(P::Rhs)?)?
        }
        // Tiles: `mask ? src : scalar`, the scalar last or (older form) third.
        Special::Sels if a.first_is_tile() => {
            let src = a.dense(P::Src)?;
            let scalar = match a.at(P::Scalar) {
                Some(_) => a.operand(P::Scalar)?,
                None => a.operand(P::Tmp)?,
            };
            let mask = unpack_mask(&a.dense(P::Mask)?, &src.shape)?;
            select(&mask, &Operand::Array(src), &scalar)?
        }
        // The older tensor row, as PyPTO's reference lowered it: `torch.where(lhs, rhs, select_mode)`.
        Special::Sels => {
            let Operand::Array(mask) = a.operand(P::Lhs)? else { return Err("pl.sels needs a tensor".into()) };
            select(&mask, &a.operand(P::Rhs)?, &a.operand(P::SelectMode)?)?
        }
        Special::Expands => {
            let target = a.dense(P::Target)?;
            let v = a.num(P::Scalar)?;
            let mut out = Dense { data: Data::zeros(target.dtype, target.len()), ..target };
            for i in 0..out.len() {
                out.data.set(i, v);
            }
            out
        }
        Special::Concat => concat(&a.nth_dense(0)?, &a.nth_dense(1)?)?,
        Special::Fillpad => fillpad(&a.nth_dense(0)?, a.pad(P::PadValue)?),
        Special::Sort32 => sort32(&a.dense(P::Src)?, &a.dense(P::Idx)?)?,
        Special::Mrgsort if [P::Src1, P::Src2, P::Src3].into_iter().any(|p| a.at(p).is_some()) => merge_lists(a)?,
        Special::Mrgsort => {
            let block_len = match a.at(P::BlockLen) {
                Some(v) => as_int(v).ok_or("block_len must be an integer")?,
                None => return Err("pl.mrgsort needs block_len= in the interpreter".into()),
            };
            mrgsort(&a.dense(P::Src0)?, block_len)?
        }
        Special::GatherB => gatherb(&a.dense(P::Src)?, &a.dense(P::Offset)?, a.opt_dtype(P::OutputDtype)?)?,
        // A tile, though its first operand is a tensor.
        Special::MGather => return Ok(Value::tile(mgather(a)?)),
        Special::PagedGather => paged_gather(a)?,
        _ => gather(special, a)?,
    };
    Ok(wrap_like(a.first_is_tile(), d))
}

/// `tri`, `fillpad_expand`, `fillpad_inplace` (the tile updated in place), `expand_clone`
/// and `tile.extract`.
fn shaping(special: Special, a: &Args<'_>) -> Res<Value> {
    let d = match special {
        Special::Tri => {
            let diagonal = a.int(P::Diagonal)?;
            let shape = check_size(a.shape(P::Shape)?)?;
            let dtype = a.dtype_or(P::Dtype, DType::Int32)?;
            let upper = a.flag(P::Upper, false)?;
            let mut d = Dense::zeros(dtype, shape.clone());
            let cols = *shape.last().unwrap_or(&1);
            for k in 0..d.len() {
                let (i, j) = ((k as i64) / cols.max(1), (k as i64) % cols.max(1));
                let on = if upper { j - i >= diagonal } else { j - i <= diagonal };
                d.data.set(k, convert(Num::I(on as i64), dtype));
            }
            if let Some(valid) = a.opt_ints(P::ValidShape)? {
                d.valid = align_extent(&valid, shape.len()).iter().zip(&shape).map(|(&v, &s)| v.clamp(0, s)).collect();
            }
            d
        }
        Special::FillpadExpand => {
            let x = a.nth_dense(0)?;
            let shape = check_size(a.shape(P::Shape)?)?;
            if shape.len() != x.rank() || shape.iter().zip(&x.shape).any(|(n, o)| n < o) {
                return Err(format!("fillpad_expand of a value of shape {:?} to {shape:?}", x.shape));
            }
            let mut big = Dense::zeros(x.dtype, shape.clone());
            let strides = contiguous_strides(&shape);
            let mut pos = 0usize;
            for_each_index(&x.shape, |ix| {
                let at: i64 = ix.iter().zip(&strides).map(|(i, s)| i * s).sum();
                big.data.set(at as usize, x.data.get(pos));
                pos += 1;
            });
            big.valid = x.valid.clone();
            fillpad(&big, a.pad(P::PadValue)?)
        }
        Special::FillpadInplace => {
            let Value::Tile(t) = a.req(P::Tile)? else { return Err("pl.tile.fillpad_inplace needs a tile".into()) };
            let filled = fillpad(&t.borrow(), a.pad(P::PadValue)?);
            *t.borrow_mut() = filled;
            return Ok(Value::Tile(t.clone()));
        }
        Special::ExpandClone => {
            let (src, target) = (a.dense(P::Src)?, a.dense(P::Target)?);
            if src.rank() != target.rank() {
                return Err(format!("expand_clone of rank {} to rank {}", src.rank(), target.rank()));
            }
            binary(&Operand::Array(target), &Operand::Array(src), Bin::Second)?
        }
        Special::Img2col => img2col(a)?,
        _ => {
            let src = a.dense(P::Src)?;
            let offsets = [a.int(P::IndexRow)?, a.int(P::IndexCol)?];
            slice_copy(&src, &a.shape(P::Shape)?, &offsets, None, &[], PadValue::Zero)?
        }
    };
    Ok(wrap_like(a.first_is_tile(), d))
}

/// `img2col`: the `[M, K]` window at `(pos_m, pos_k)` of the unfolded matrix of a
/// convolution over the `[H*W, C]` feature map `src` (see [`Special::Img2col`]).
fn img2col(a: &Args<'_>) -> Res<Dense> {
    let src = a.dense(P::Src)?;
    let geometry = [P::ImageShape, P::KernelSize, P::Stride, P::Padding, P::Dilation];
    let g = crate::ir::ops::img2col_geometry(|i| {
        let p = geometry.get(i.checked_sub(4)?)?;
        a.opt_ints(*p).ok().flatten().map(|v| v.into_iter().map(crate::ir::types::Dim::Const).collect())
    })?;
    let (pos_m, pos_k) = (a.int(P::PosM)?, a.int(P::PosK)?);
    let shape = check_size(a.shape(P::Shape)?)?;
    let (&[rows, cols], &[_, channels]) = (&shape[..], &src.shape[..]) else {
        return Err("img2col needs a 2-D source and a 2-D window".into());
    };
    let c0 = crate::ir::ops::img2col_c0(src.dtype);
    let ([h, w], [kh, kw], [_, ow]) = (g.image, g.kernel, g.out_hw());
    let mut d = Dense::zeros(src.dtype, shape.clone());
    for i in 0..rows {
        for j in 0..cols {
            let (m, k) = (pos_m + i, pos_k + j);
            let (oy, ox) = (m / ow.max(1), m % ow.max(1));
            let (c1, rest) = (k / (kh * kw * c0), k % (kh * kw * c0));
            let (ky, kx, c) = (rest / (kw * c0), rest % (kw * c0) / c0, c1 * c0 + rest % c0);
            let iy = oy * g.stride[0] - g.padding[0] + ky * g.dilation[0];
            let ix = ox * g.stride[1] - g.padding[2] + kx * g.dilation[1];
            if (0..h).contains(&iy) && (0..w).contains(&ix) && c < channels && (iy * w + ix) < src.shape[0] {
                d.data.set((i * cols + j) as usize, src.data.get(((iy * w + ix) * channels + c) as usize));
            }
        }
    }
    Ok(d)
}

/// `gather` by an index along an axis, or by a hardware mask pattern (`gather_mask`, and
/// `tensor.gather(..., mask_pattern=...)`).
fn gather(special: Special, a: &Args<'_>) -> Res<Dense> {
    let src = a.nth_dense(0)?;
    let out_dtype = match a.at(P::OutputDtype) {
        Some(Value::DType(d)) => Some(*d),
        _ => None,
    };
    if let Some(mask) = a.at(P::MaskPattern) {
        return gather_mask(&src, mask, out_dtype);
    }
    if special == Special::GatherMask {
        return Err(format!("`{}` needs its argument `mask_pattern`", a.def.spellings[0]));
    }
    if a.def.level == OpLevel::Tile {
        return gather_flat(&src, &a.dense(P::Indices)?);
    }
    let (Some(dim), Some(_)) = (a.at(P::Dim), a.at(P::Index)) else {
        return Err(format!("this form of `{}` has no semantics in the interpreter yet", a.def.spellings[0]));
    };
    let dim = normalize_axis(as_int(dim).ok_or("dim must be an integer")?, src.rank())?;
    gather_index(&src, &a.dense(P::Index)?, dim)
}

/// `gather_compare`, and `tensor.gather`'s compare form: the positions of the matches of
/// each row and their counts (see [`Special::GatherCompare`]).
fn gather_compare(a: &Args<'_>) -> Res<Value> {
    let src = a.nth_dense(0)?;
    let (&[rows, cols], &[valid_rows, valid_cols]) = (&src.shape[..], &src.valid[..]) else {
        return Err(format!("`{}` needs a 2-D source", a.op()));
    };
    let k = a.num(P::Kvalue)?;
    let name = match a.at(P::CmpMode) {
        Some(Value::Str(s)) => Some(a.names.get(*s).to_string()),
        _ => None,
    };
    let code = ops::cmp_mode_code(name.as_deref(), a.at(P::CmpMode).and_then(as_int))
        .ok_or_else(|| format!("cmp_mode must be one of {} or a code 0..5", ops::CMP_MODES.join(", ")))?;
    let offset = match a.at(P::Offset) {
        Some(v) => as_int(v).ok_or("offset must be an integer")?,
        None => 0,
    };
    let out_cols = a.int(P::OutCols)?;
    let hits = binary(&Operand::Array(src), &Operand::Scalar(k), Bin::Cmp(code as u8))?;
    let mut positions = Dense::zeros(DType::Int32, vec![rows, out_cols]);
    let mut counts = Dense::zeros(a.dtype_or(P::CountDtype, DType::Int32)?, vec![1, rows]);
    for r in 0..valid_rows {
        let mut n = 0;
        for c in 0..valid_cols {
            if hits.data.get((r * cols + c) as usize).as_f64() != 0.0 {
                if n < out_cols {
                    positions.data.set((r * out_cols + n) as usize, Num::I(offset + r * cols + c));
                }
                n += 1;
            }
        }
        counts.data.set(r as usize, Num::I(n));
    }
    let tile = a.first_is_tile();
    Ok(Value::tuple(vec![wrap_like(tile, positions), wrap_like(tile, counts)]))
}

fn wrap_like(tile: bool, d: Dense) -> Value {
    if tile {
        Value::tile(d)
    } else {
        Value::Tensor(Tensor::from_dense(d))
    }
}

// ---------------------------------------------------------------- arguments

struct Args<'n> {
    def: &'static OpDef,
    vals: Vec<Option<Value>>,
    names: &'n Interner,
    /// The layout of the first argument's type (ND when it is not a tensor): a value does
    /// not carry it, and a view flips only a layout its source does not have.
    source_layout: Layout,
}

/// An elementwise operand: an array (a tile, or a tensor's elements) or a scalar.
enum Operand {
    Array(Dense),
    Scalar(Num),
}

impl Args<'_> {
    fn index(&self, slot: Slot) -> Option<usize> {
        self.def.slot_index(slot)
    }

    /// The parameter's name, for messages.
    fn param(&self, slot: Slot) -> &'static str {
        self.def.slot_name(slot)
    }

    fn op(&self) -> &'static str {
        self.def.spellings[0]
    }

    /// The argument, when given (a `None` value counts as absent).
    fn at(&self, slot: impl Into<Slot>) -> Option<&Value> {
        match self.index(slot.into()).and_then(|i| self.vals.get(i)) {
            Some(Some(Value::None)) | Some(None) | None => None,
            Some(Some(v)) => Some(v),
        }
    }

    /// The message of an argument of the wrong kind: "`x` of `pl.add` must be a number, not a tile".
    fn wrong(&self, slot: Slot, want: &str, got: &Value) -> String {
        format!("`{}` of `{}` must be {want}, not {}", self.param(slot), self.op(), got.kind())
    }

    fn req(&self, slot: impl Into<Slot>) -> Res<&Value> {
        let slot = slot.into();
        self.at(slot).ok_or_else(|| format!("`{}` needs its argument `{}`", self.op(), self.param(slot)))
    }

    fn int(&self, slot: impl Into<Slot>) -> Res<i64> {
        let slot = slot.into();
        let v = self.req(slot)?;
        as_int(v).ok_or_else(|| self.wrong(slot, "an integer", v))
    }

    fn num(&self, slot: impl Into<Slot>) -> Res<Num> {
        let slot = slot.into();
        let v = self.req(slot)?;
        scalar_num(v).ok_or_else(|| self.wrong(slot, "a number", v))
    }

    fn ints(&self, slot: impl Into<Slot>) -> Res<Vec<i64>> {
        let slot = slot.into();
        ints_of(self.req(slot)?).map_err(|m| format!("`{}` of `{}`: {m}", self.param(slot), self.op()))
    }

    fn opt_ints(&self, slot: impl Into<Slot>) -> Res<Option<Vec<i64>>> {
        let slot = slot.into();
        match self.at(slot) {
            Some(_) => self.ints(slot).map(Some),
            None => Ok(None),
        }
    }

    fn shape(&self, slot: impl Into<Slot>) -> Res<Vec<i64>> {
        let slot = slot.into();
        let s = self.ints(slot)?;
        if s.iter().any(|&d| d < -1) {
            return Err(format!("`{}` of `{}` has a negative extent: {s:?}", self.param(slot), self.op()));
        }
        Ok(s)
    }

    fn dtype(&self, slot: impl Into<Slot>) -> Res<DType> {
        let slot = slot.into();
        match self.req(slot)? {
            Value::DType(d) => Ok(*d),
            other => Err(self.wrong(slot, "a dtype", other)),
        }
    }

    /// The dtype given in `slot`, else `default`.
    fn dtype_or(&self, slot: impl Into<Slot>, default: DType) -> Res<DType> {
        let slot = slot.into();
        match self.at(slot) {
            Some(_) => self.dtype(slot),
            None => Ok(default),
        }
    }

    fn flag(&self, slot: impl Into<Slot>, default: bool) -> Res<bool> {
        let slot = slot.into();
        match self.at(slot) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::Int(n)) => Ok(*n != 0),
            Some(other) => Err(self.wrong(slot, "True or False", other)),
        }
    }

    fn atomic(&self, slot: impl Into<Slot>) -> Res<bool> {
        Ok(matches!(self.at(slot), Some(Value::Enum(EnumValue::AtomicType(AtomicType::Add)))))
    }

    fn pad(&self, slot: impl Into<Slot>) -> Res<PadValue> {
        Ok(match self.at(slot) {
            Some(Value::Enum(EnumValue::PadValue(p))) => *p,
            _ => PadValue::Zero,
        })
    }

    fn mode(&self, slot: impl Into<Slot>) -> Res<Option<String>> {
        match self.at(slot) {
            Some(Value::Str(s)) => Ok(Some(self.names.get(*s).to_string())),
            None | Some(Value::None) => Ok(None),
            Some(other) => Err(format!("the cast mode must be a string, not {}", other.kind())),
        }
    }

    /// A dtype argument, when given.
    fn opt_dtype(&self, slot: impl Into<Slot>) -> Res<Option<DType>> {
        let slot = slot.into();
        match self.at(slot) {
            None => Ok(None),
            Some(_) => self.dtype(slot).map(Some),
        }
    }

    /// A mode given by name or by code (`coalesce='row'`, `gather_oob=2`): its code in
    /// `names`, `default` when absent.
    fn named_code(&self, slot: impl Into<Slot>, names: &[&str], default: i64) -> Res<i64> {
        let slot = slot.into();
        let code = match self.at(slot) {
            None => return Ok(default),
            Some(Value::Str(s)) => names.iter().position(|n| *n == self.names.get(*s)).map(|k| k as i64),
            Some(v) => as_int(v).filter(|k| (0..names.len() as i64).contains(k)),
        };
        code.ok_or_else(|| format!("`{}` of `{}` must be one of {}", self.param(slot), self.op(), names.join(", ")))
    }

    fn tensor(&self, slot: impl Into<Slot>) -> Res<Tensor> {
        let slot = slot.into();
        match self.req(slot)? {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(self.wrong(slot, "a tensor", other)),
        }
    }

    /// A tile's or a tensor's elements.
    fn dense(&self, slot: impl Into<Slot>) -> Res<Dense> {
        let slot = slot.into();
        match self.req(slot)? {
            Value::Tile(t) => Ok(t.borrow().clone()),
            Value::Tensor(t) => Ok(t.to_dense()),
            other => Err(self.wrong(slot, "a tile or a tensor", other)),
        }
    }

    fn nth_dense(&self, i: usize) -> Res<Dense> {
        self.dense(Slot::Nth(i))
    }

    fn operand(&self, slot: impl Into<Slot>) -> Res<Operand> {
        let slot = slot.into();
        match self.req(slot)? {
            Value::Tile(_) | Value::Tensor(_) => Ok(Operand::Array(self.dense(slot)?)),
            v => scalar_num(v).map(Operand::Scalar).ok_or_else(|| self.wrong(slot, "a tile, a tensor or a number", v)),
        }
    }

    fn nth_operand(&self, i: usize) -> Res<Operand> {
        self.operand(Slot::Nth(i))
    }

    /// Whether the result is a tile: the first tile or tensor argument decides.
    fn first_is_tile(&self) -> bool {
        for v in self.vals.iter().flatten() {
            match v {
                Value::Tile(_) => return true,
                Value::Tensor(_) => return false,
                _ => {}
            }
        }
        self.def.level == OpLevel::Tile
    }
}

fn scalar_num(v: &Value) -> Option<Num> {
    v.num()
}

fn ints_of(v: &Value) -> Res<Vec<i64>> {
    match v {
        Value::Tuple(items) => {
            items.iter().map(|x| as_int(x).ok_or_else(|| format!("{} in a list of integers", x.kind()))).collect()
        }
        other => {
            as_int(other).map(|i| vec![i]).ok_or_else(|| format!("expected a list of integers, not {}", other.kind()))
        }
    }
}

/// A scalar read from an element of `dtype`.
fn scalar_of(n: Num, dtype: DType) -> Value {
    if dtype.is_float() {
        Value::Float(n.as_f64())
    } else if dtype == DType::Bool {
        Value::Bool(n.as_i64() != 0)
    } else {
        Value::Int(n.as_i64())
    }
}

fn normalize_axis(axis: i64, rank: usize) -> Res<usize> {
    crate::ir::ops::axis_in_range(axis, rank).map_err(|_| format!("axis {axis} of a value of rank {rank}"))
}

fn checked_index(index: &[i64], shape: &[i64]) -> Res<Vec<i64>> {
    let mut ix = index.to_vec();
    if ix.len() < shape.len() {
        ix.resize(shape.len(), 0);
    }
    if ix.len() != shape.len() || ix.iter().zip(shape).any(|(&i, &d)| i < 0 || i >= d) {
        return Err(format!("index {index:?} is outside a value of shape {shape:?}"));
    }
    Ok(ix)
}

fn check_size(shape: Vec<i64>) -> Res<Vec<i64>> {
    if shape.iter().any(|&d| d < 0) {
        return Err(format!("the shape {shape:?} has a negative extent"));
    }
    let n = shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d as usize));
    match n {
        Some(n) if n <= MAX_ELEMENTS => Ok(shape),
        _ => Err(format!("a value of shape {shape:?} is larger than the interpreter allows ({MAX_ELEMENTS} elements)")),
    }
}

/// A shape with one `-1` resolved so that it has `count` elements.
fn resolve_shape(shape: &[i64], count: usize) -> Res<Vec<i64>> {
    let known: i64 = shape.iter().filter(|&&d| d != -1).try_fold(1i64, |acc, &d| acc.checked_mul(d)).unwrap_or(-1);
    let holes = shape.iter().filter(|&&d| d == -1).count();
    let mut out = shape.to_vec();
    match holes {
        0 if known as usize == count => Ok(out),
        1 if known > 0 && count as i64 % known == 0 => {
            for d in out.iter_mut().filter(|d| **d == -1) {
                *d = count as i64 / known;
            }
            Ok(out)
        }
        _ => Err(format!("cannot reshape {count} elements to {shape:?}")),
    }
}

/// Offsets with trailing zeros up to `rank` (`x[:] = v` gives one offset for any rank).
fn pad_offsets(offsets: &[i64], rank: usize) -> Res<Vec<i64>> {
    if offsets.len() > rank {
        return Err(format!("{} offsets for a tensor of rank {rank}", offsets.len()));
    }
    if offsets.iter().any(|&o| o < 0) {
        return Err(format!("negative offset in {offsets:?}"));
    }
    let mut o = offsets.to_vec();
    o.resize(rank, 0);
    Ok(o)
}

/// Extents for a window of `rank` axes: leading 1s added, or leading axes dropped.
fn align_extent(extent: &[i64], rank: usize) -> Vec<i64> {
    if extent.len() >= rank {
        extent[extent.len() - rank..].to_vec()
    } else {
        let mut e = vec![1; rank - extent.len()];
        e.extend_from_slice(extent);
        e
    }
}

/// A dense array seen with `rank` axes: leading axes of extent 1 added or dropped.
fn align_dense(d: &Dense, rank: usize) -> Res<Dense> {
    if d.rank() == rank {
        return Ok(d.clone());
    }
    if d.rank() > rank && d.shape[..d.rank() - rank].iter().any(|&x| x != 1) {
        return Err(format!("a value of shape {:?} does not fit {rank} axes", d.shape));
    }
    Ok(Dense { shape: align_extent(&d.shape, rank), valid: align_extent(&d.valid, rank), ..d.clone() })
}

/// Converts a number to the kind of `dtype`: integers wrap to the dtype's width, FP16 and
/// BF16 values are rounded to their precision (nearest, ties to even, from the `f32` value
/// the C++ side computes).
fn convert(v: Num, dtype: DType) -> Num {
    if dtype.is_float() {
        let x = v.as_f64();
        Num::F(match dtype {
            DType::Fp16 | DType::Bf16 => round_to(dtype, x as f32) as f64,
            _ => x,
        })
    } else if dtype == DType::Bool {
        Num::I((v.as_f64() != 0.0) as i64)
    } else {
        Num::I(wrap_int(v.as_i64(), dtype))
    }
}

/// `v` clamped to the range of `dtype` (`saturation_mode="on"`): an integer target's
/// bounds after the rounding `mode`, FP16's and BF16's largest finite values.
fn saturated(v: Num, dtype: DType, mode: Option<&str>) -> Res<Num> {
    let bounds = match dtype {
        DType::Int4 => Some((-8, 7)),
        DType::UInt4 => Some((0, 15)),
        DType::Int8 => Some((i8::MIN as i64, i8::MAX as i64)),
        DType::UInt8 => Some((0, u8::MAX as i64)),
        DType::Int16 => Some((i16::MIN as i64, i16::MAX as i64)),
        DType::UInt16 => Some((0, u16::MAX as i64)),
        DType::Int32 => Some((i32::MIN as i64, i32::MAX as i64)),
        DType::UInt32 => Some((0, u32::MAX as i64)),
        _ => None,
    };
    if let Some((lo, hi)) = bounds {
        return Ok(match convert_with_mode(v, DType::Int64, mode)? {
            Num::I(i) => Num::I(i.clamp(lo, hi)),
            Num::F(f) => Num::F(f.clamp(lo as f64, hi as f64)),
        });
    }
    let max = match dtype {
        DType::Fp16 => 65504.0,
        DType::Bf16 => f32::from_bits(0x7F7F_0000) as f64,
        _ => return Ok(v),
    };
    Ok(match v {
        Num::F(f) if f.is_finite() => Num::F(f.clamp(-max, max)),
        other => other,
    })
}

fn convert_with_mode(v: Num, dtype: DType, mode: Option<&str>) -> Res<Num> {
    if let (Num::F(f), true) = (v, dtype.is_int()) {
        let r = match mode {
            None | Some("trunc") | Some("none") => f.trunc(),
            Some("round") => f.round(),
            Some("rint") => f.round_ties_even(),
            Some("floor") => f.floor(),
            Some("ceil") => f.ceil(),
            Some(other) => return Err(format!("cast mode `{other}`")),
        };
        return Ok(Num::I(wrap_int(r as i64, dtype)));
    }
    Ok(convert(v, dtype))
}

/// A float rounded to the precision of `dtype` (FP16, BF16; others unchanged).
pub(super) fn round_to(dtype: DType, x: f32) -> f32 {
    match dtype {
        DType::Fp16 => round_fp16(x),
        DType::Bf16 => round_bf16(x),
        _ => x,
    }
}

/// The nearest BF16 value (ties to even).
fn round_bf16(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    let bits = x.to_bits();
    let rounded = bits.wrapping_add(0x7FFF + ((bits >> 16) & 1)) & 0xFFFF_0000;
    f32::from_bits(rounded)
}

/// The nearest FP16 value (ties to even; infinity past the largest).
fn round_fp16(x: f32) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let a = x.abs() as f64;
    if a >= 65520.0 {
        return f32::INFINITY.copysign(x);
    }
    // The spacing of FP16 values around `a`: 2^(e - 10), subnormals below 2^-14.
    let e = (((x.to_bits() >> 23) & 0xFF) as i32 - 127).max(-14);
    let ulp = 2f64.powi(e - 10);
    ((a / ulp).round_ties_even() * ulp).copysign(x as f64) as f32
}

/// `v` as an integer of `dtype` holds it; the poison of an undefined element
/// ([`super::value::POISON_I64`]) stays the poison, as a NaN stays a NaN, so that an
/// undefined element copied through a tile is still undefined (the C++ harness, which
/// writes the poison's low bytes, keeps it too).
fn wrap_int(v: i64, dtype: DType) -> i64 {
    if v == super::value::POISON_I64 {
        return v;
    }
    match dtype {
        DType::Int4 => (v << 60) >> 60,
        DType::UInt4 => v & 0xF,
        DType::Int8 => v as i8 as i64,
        DType::UInt8 => v as u8 as i64,
        DType::Int16 => v as i16 as i64,
        DType::UInt16 => v as u16 as i64,
        DType::Int32 => v as i32 as i64,
        DType::UInt32 => v as u32 as i64,
        _ => v,
    }
}

// ---------------------------------------------------------------- elementwise

/// PTO-ISA's TREM/TREMS on floats, as its CPU simulator computes them (`ElementOp.h`,
/// `OP_REM`/`OP_REMS`): C's `fmod`, then the divisor added when the operands' signs differ
/// and the remainder is not zero, in `f32`. That is Python's `%` (the divisor's sign)
/// except for the sign of a zero result, which stays the dividend's (`-3 % 3` is `-0.0`),
/// and a zero divisor, which gives NaN.
pub(crate) fn pto_rem(x: f32, y: f32) -> f32 {
    let r = x % y;
    if (x >= 0.0) != (y >= 0.0) && r != 0.0 {
        r + y
    } else {
        r
    }
}

/// An elementwise binary function: the op table's, and the two only the interpreter needs.
#[derive(Clone, Copy, PartialEq)]
enum Bin {
    Fn(BinaryFn),
    /// 0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE: 1 where true, 0 elsewhere.
    Cmp(u8),
    /// The second operand, broadcast to the first's shape.
    Second,
}

impl From<BinaryFn> for Bin {
    fn from(f: BinaryFn) -> Bin {
        Bin::Fn(f)
    }
}

fn apply_bin(kind: Bin, x: Num, y: Num, float: bool) -> Res<Num> {
    use BinaryFn as F;
    if float {
        let (p, q) = (x.as_f64(), y.as_f64());
        return Ok(Num::F(match kind {
            Bin::Fn(F::Add) => p + q,
            Bin::Fn(F::Sub) => p - q,
            Bin::Fn(F::Mul) => p * q,
            Bin::Fn(F::Div) => p / q,
            Bin::Fn(F::Max) => p.max(q),
            Bin::Fn(F::Min) => p.min(q),
            Bin::Fn(F::Rem) => pto_rem(p as f32, q as f32) as f64,
            // In `f32`, as the C++ side computes (`std::fmod` is exact).
            Bin::Fn(F::Fmod) => (p as f32 % q as f32) as f64,
            Bin::Fn(F::ExpDif) => ((p as f32 - q as f32).exp()) as f64,
            Bin::Cmp(c) => compare(c, p.partial_cmp(&q)) as i64 as f64,
            Bin::Second => q,
            Bin::Fn(F::And | F::Or | F::Xor | F::Shl | F::Shr) => {
                return Err("bitwise ops need integer elements".into())
            }
        }));
    }
    let (p, q) = (x.as_i64(), y.as_i64());
    Ok(Num::I(match kind {
        Bin::Fn(F::Add) => p.wrapping_add(q),
        Bin::Fn(F::Sub) => p.wrapping_sub(q),
        Bin::Fn(F::Mul) => p.wrapping_mul(q),
        Bin::Fn(F::Div) => {
            if q == 0 {
                return Err("integer division by zero".into());
            }
            p.wrapping_div(q)
        }
        Bin::Fn(F::Max) => p.max(q),
        Bin::Fn(F::Min) => p.min(q),
        Bin::Fn(F::Rem) => {
            if q == 0 {
                return Err("integer division by zero".into());
            }
            floor_mod(p, q)
        }
        Bin::Fn(F::Fmod) => {
            if q == 0 {
                return Err("integer division by zero".into());
            }
            p.wrapping_rem(q)
        }
        Bin::Fn(F::ExpDif) => return Ok(Num::F(((p - q) as f64).exp())),
        Bin::Fn(F::And) => p & q,
        Bin::Fn(F::Or) => p | q,
        Bin::Fn(F::Xor) => p ^ q,
        Bin::Fn(F::Shl) => {
            if (0..64).contains(&q) {
                p.wrapping_shl(q as u32)
            } else {
                0
            }
        }
        Bin::Fn(F::Shr) => {
            if (0..64).contains(&q) {
                p >> q
            } else if p < 0 {
                -1
            } else {
                0
            }
        }
        Bin::Cmp(c) => compare(c, Some(p.cmp(&q))) as i64,
        Bin::Second => q,
    }))
}

fn compare(code: u8, ord: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (code, ord) {
        (1, None) => true,
        (_, None) => false,
        (0, Some(o)) => o == Equal,
        (1, Some(o)) => o != Equal,
        (2, Some(o)) => o == Less,
        (3, Some(o)) => o != Greater,
        (4, Some(o)) => o == Greater,
        (_, Some(o)) => o != Less,
    }
}

fn broadcast_shape(a: &[i64], b: &[i64]) -> Res<Vec<i64>> {
    let rank = a.len().max(b.len());
    let (a, b) = (align_extent(a, rank), align_extent(b, rank));
    a.iter()
        .zip(&b)
        .map(|(&x, &y)| match (x, y) {
            _ if x == y => Ok(x),
            (1, _) => Ok(y),
            (_, 1) => Ok(x),
            _ => Err(format!("shapes {a:?} and {b:?} do not match")),
        })
        .collect()
}

/// Per-axis strides of an operand read with `shape` (0 along broadcast axes).
fn broadcast_strides(own: &[i64], shape: &[i64]) -> Vec<i64> {
    let own = align_extent(own, shape.len());
    let strides = contiguous_strides(&own);
    own.iter().zip(strides).map(|(&d, s)| if d == 1 { 0 } else { s }).collect()
}

/// Applies `f` to the elements of up to three operands, broadcast to one shape. The result
/// has `dtype`; its valid region is the first full-shaped array's (the smallest when there
/// are several).
fn elementwise(ops: &[&Operand], dtype: DType, f: &dyn Fn(&[Num]) -> Res<Num>) -> Res<Dense> {
    let mut shape: Option<Vec<i64>> = None;
    for op in ops {
        if let Operand::Array(d) = op {
            shape = Some(match shape {
                None => d.shape.clone(),
                Some(s) => broadcast_shape(&s, &d.shape)?,
            });
        }
    }
    let shape = check_size(shape.unwrap_or_default())?;
    let n = element_count(&shape);
    let mut valid: Option<Vec<i64>> = None;
    for op in ops {
        if let Operand::Array(d) = op {
            if d.shape == shape {
                valid = Some(match valid {
                    None => d.valid.clone(),
                    Some(v) => v.iter().zip(&d.valid).map(|(&p, &q)| p.min(q)).collect(),
                });
            }
        }
    }
    let mut data = Data::zeros(dtype, n);
    let mut args = [Num::I(0); 3];
    let m = ops.len().min(3);
    let all_full = ops.iter().all(|op| match op {
        Operand::Array(d) => d.shape == shape,
        Operand::Scalar(_) => true,
    });
    if all_full {
        for i in 0..n {
            for (k, op) in ops.iter().take(m).enumerate() {
                args[k] = match op {
                    Operand::Array(d) => d.data.get(i),
                    Operand::Scalar(s) => *s,
                };
            }
            data.set(i, convert(f(&args[..m])?, dtype));
        }
    } else {
        let strides: Vec<Vec<i64>> = ops
            .iter()
            .map(|op| match op {
                Operand::Array(d) => broadcast_strides(&d.shape, &shape),
                Operand::Scalar(_) => Vec::new(),
            })
            .collect();
        let mut i = 0usize;
        let mut failure = None;
        for_each_index(&shape, |ix| {
            if failure.is_some() {
                return;
            }
            for (k, op) in ops.iter().take(m).enumerate() {
                args[k] = match op {
                    Operand::Array(d) => {
                        let pos: i64 = ix.iter().zip(&strides[k]).map(|(a, b)| a * b).sum();
                        d.data.get(pos as usize)
                    }
                    Operand::Scalar(s) => *s,
                };
            }
            match f(&args[..m]) {
                Ok(v) => data.set(i, convert(v, dtype)),
                Err(e) => failure = Some(e),
            }
            i += 1;
        });
        if let Some(e) = failure {
            return Err(e);
        }
    }
    Ok(Dense { dtype, valid: valid.unwrap_or_else(|| shape.clone()), shape, data })
}

/// The dtype of an elementwise result: the first array's.
fn result_dtype(ops: &[&Operand]) -> DType {
    ops.iter()
        .find_map(|op| match op {
            Operand::Array(d) => Some(d.dtype),
            Operand::Scalar(_) => None,
        })
        .unwrap_or(DType::Fp32)
}

fn binary(x: &Operand, y: &Operand, kind: Bin) -> Res<Dense> {
    binary_in(x, y, kind, result_dtype(&[x, y]))
}

/// `binary` computed and stored in `dtype`.
fn binary_in(x: &Operand, y: &Operand, kind: Bin, dtype: DType) -> Res<Dense> {
    let float = dtype.is_float();
    let (x, y) = (as_element(x, dtype), as_element(y, dtype));
    elementwise(&[&x, &y], dtype, &|v| apply_bin(kind, v[0], v[1], float))
}

/// A scalar operand as an element of `dtype` (a float becomes an `f32`, as the C++ tile
/// library converts it before computing); arrays as they are.
fn as_element(op: &Operand, dtype: DType) -> Operand {
    match op {
        Operand::Scalar(Num::F(f)) if dtype.is_float() => Operand::Scalar(Num::F(*f as f32 as f64)),
        Operand::Scalar(n) => Operand::Scalar(*n),
        Operand::Array(d) => Operand::Array(d.clone()),
    }
}

/// `mask != 0 ? on_true : on_false`.
/// PyPTO's tile compare mask from 0/1 values: `UINT8`, bit `c % 8` of byte `c / 8` of a row
/// holds column `c`, the row padded to [`crate::ir::ops::packed_mask_cols`] bytes; the valid
/// columns are `ceil(valid / 8)`.
fn pack_mask(bits: &Dense) -> Dense {
    let Some(&cols) = bits.shape.last() else { return bits.clone() };
    let packed = crate::ir::ops::packed_mask_cols(cols);
    let mut shape = bits.shape.clone();
    *shape.last_mut().expect("rank >= 1") = packed;
    let mut out = Dense::zeros(DType::UInt8, shape);
    out.valid = bits.valid.clone();
    if let Some(v) = out.valid.last_mut() {
        *v = (*v + 7) / 8;
    }
    let cols = cols.max(1) as usize;
    for i in 0..bits.len() {
        if bits.data.get_f(i) != 0.0 {
            let (r, c) = (i / cols, i % cols);
            let j = r * packed as usize + c / 8;
            let byte = out.data.get_i(j) | (1 << (c % 8));
            out.data.set(j, Num::I(byte));
        }
    }
    out
}

/// A packed tile mask read back as one 0/1 value per element of `shape`: bit `c % w` of
/// element `c / w` of a row, for a mask of `w`-bit elements.
fn unpack_mask(mask: &Dense, shape: &[i64]) -> Res<Dense> {
    let bits_per = (mask.dtype.bytes() * 8) as usize;
    let (Some(&cols), Some(&mask_cols)) = (shape.last(), mask.shape.last()) else {
        return Err("the mask and the selected tile need at least one axis".into());
    };
    let (cols, mask_cols) = (cols.max(0) as usize, mask_cols.max(0) as usize);
    let rows = element_count(shape).checked_div(cols).unwrap_or(0);
    let mask_rows = mask.len().checked_div(mask_cols).unwrap_or(0);
    if mask_rows < rows || mask_cols * bits_per < cols {
        return Err(format!(
            "the mask of shape {:?} does not hold a bit for each element of shape {shape:?}",
            mask.shape
        ));
    }
    let mut out = Dense::zeros(DType::UInt8, shape.to_vec());
    for r in 0..rows {
        for c in 0..cols {
            let word = mask.data.get_i(r * mask_cols + c / bits_per);
            out.data.set(r * cols + c, Num::I((word >> (c % bits_per)) & 1));
        }
    }
    Ok(out)
}

fn select(mask: &Dense, on_true: &Operand, on_false: &Operand) -> Res<Dense> {
    let mask = Operand::Array(mask.clone());
    let dtype = result_dtype(&[on_true, on_false]);
    let (on_true, on_false) = (as_element(on_true, dtype), as_element(on_false, dtype));
    elementwise(&[&mask, &on_true, &on_false], dtype, &|v| {
        Ok(convert(if v[0].as_f64() != 0.0 { v[1] } else { v[2] }, dtype))
    })
}

fn unary(d: &Dense, kind: UnaryFn) -> Res<Dense> {
    let float = d.dtype.is_float();
    let dtype = d.dtype;
    let x = Operand::Array(d.clone());
    elementwise(&[&x], dtype, &|v| {
        let v = v[0];
        if float {
            let p = v.as_f64();
            return Ok(Num::F(match kind {
                // In `f32`, with the C library's `expf`/`logf`, as the C++ side computes.
                UnaryFn::Exp => (p as f32).exp() as f64,
                UnaryFn::Log => (p as f32).ln() as f64,
                UnaryFn::Sqrt => (p as f32).sqrt() as f64,
                UnaryFn::Rsqrt => (1.0f32 / (p as f32).sqrt()) as f64,
                UnaryFn::Recip => (1.0f32 / p as f32) as f64,
                UnaryFn::Neg => -p,
                UnaryFn::Abs => p.abs(),
                UnaryFn::Relu => p.max(0.0),
                UnaryFn::Sin => (p as f32).sin() as f64,
                UnaryFn::Cos => (p as f32).cos() as f64,
                UnaryFn::Not => return Err("pl.not_ needs integer elements".into()),
            }));
        }
        let p = v.as_i64();
        Ok(match kind {
            UnaryFn::Neg => Num::I(p.wrapping_neg()),
            UnaryFn::Abs => Num::I(p.wrapping_abs()),
            UnaryFn::Relu => Num::I(p.max(0)),
            UnaryFn::Not if dtype == DType::Bool => Num::I((p == 0) as i64),
            UnaryFn::Not => Num::I(!p),
            // Transcendental functions of integer elements give floats, stored back as
            // integers (toward zero).
            UnaryFn::Exp => Num::F((p as f64).exp()),
            UnaryFn::Log => Num::F((p as f64).ln()),
            UnaryFn::Sqrt => Num::F((p as f64).sqrt()),
            UnaryFn::Rsqrt => Num::F(1.0 / (p as f64).sqrt()),
            UnaryFn::Recip => Num::F(1.0 / p as f64),
            UnaryFn::Sin => Num::F((p as f64).sin()),
            UnaryFn::Cos => Num::F((p as f64).cos()),
        })
    })
}

// ---------------------------------------------------------------- reductions, matmul

/// Reduces `axis` over its valid extent; the axis stays as 1 (`keep`) or goes.
fn reduce(d: &Dense, axis: usize, keep: bool, kind: ReduceFn) -> Dense {
    let outer: usize = d.shape[..axis].iter().map(|&x| x as usize).product();
    let len = d.shape[axis] as usize;
    let inner: usize = d.shape[axis + 1..].iter().map(|&x| x as usize).product();
    let live = (d.valid[axis].max(0) as usize).min(len);
    let float = d.dtype.is_float();
    let mut out = Data::zeros(d.dtype, outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| d.data.get((o * len + k) * inner + i);
            let v = if float {
                let mut acc = match kind {
                    ReduceFn::Sum => 0.0,
                    ReduceFn::Max => f64::NEG_INFINITY,
                    ReduceFn::Min => f64::INFINITY,
                    ReduceFn::Prod => 1.0,
                };
                for k in 0..live {
                    let x = at(k).as_f64();
                    acc = match kind {
                        // Summed in `f32`, in index order.
                        ReduceFn::Sum => (acc + x) as f32 as f64,
                        ReduceFn::Max => acc.max(x),
                        ReduceFn::Min => acc.min(x),
                        // Multiplied in `f32`, in index order.
                        ReduceFn::Prod => (acc * x) as f32 as f64,
                    };
                }
                Num::F(if live == 0 { 0.0 } else { acc })
            } else {
                let mut acc = match kind {
                    ReduceFn::Sum => 0i64,
                    ReduceFn::Max => i64::MIN,
                    ReduceFn::Min => i64::MAX,
                    ReduceFn::Prod => 1i64,
                };
                for k in 0..live {
                    let x = at(k).as_i64();
                    acc = match kind {
                        ReduceFn::Sum => acc.wrapping_add(x),
                        ReduceFn::Max => acc.max(x),
                        ReduceFn::Min => acc.min(x),
                        ReduceFn::Prod => acc.wrapping_mul(x),
                    };
                }
                Num::I(if live == 0 { 0 } else { acc })
            };
            out.set(o * inner + i, convert(v, d.dtype));
        }
    }
    let (mut shape, mut valid) = (d.shape.clone(), d.valid.clone());
    if keep {
        shape[axis] = 1;
        valid[axis] = 1;
    } else {
        shape.remove(axis);
        valid.remove(axis);
    }
    Dense { dtype: d.dtype, shape, valid, data: out }
}

/// The INT32 position of the first maximum (`ReduceFn::Max`) or minimum along `axis`, over
/// its valid extent (0 when it has none); the axis stays as 1.
fn arg_reduce(d: &Dense, axis: usize, kind: ReduceFn) -> Dense {
    let outer: usize = d.shape[..axis].iter().map(|&x| x as usize).product();
    let len = d.shape[axis] as usize;
    let inner: usize = d.shape[axis + 1..].iter().map(|&x| x as usize).product();
    let live = (d.valid[axis].max(0) as usize).min(len);
    let mut out = Data::zeros(DType::Int32, outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| d.data.get((o * len + k) * inner + i).as_f64();
            let mut best = 0usize;
            for k in 1..live {
                let better = match kind {
                    ReduceFn::Min => at(k) < at(best),
                    _ => at(k) > at(best),
                };
                if better {
                    best = k;
                }
            }
            out.set(o * inner + i, Num::I(best as i64));
        }
    }
    let (mut shape, mut valid) = (d.shape.clone(), d.valid.clone());
    shape[axis] = 1;
    valid[axis] = 1;
    Dense { dtype: DType::Int32, shape, valid, data: out }
}

/// `part_*(x, y)`: `f(x, y)` where both are valid, the valid one where one is, 0 elsewhere;
/// the result is valid over the union of the two valid regions.
fn part(x: &Dense, y: &Dense, kind: Bin) -> Res<Dense> {
    let shape = broadcast_shape(&x.shape, &y.shape).map_err(|e| format!("the operands of a part op: {e}"))?;
    let rank = shape.len();
    // Along an axis an operand broadcasts (extent 1), it is valid over the whole axis.
    let valid_of = |d: &Dense| -> Vec<i64> {
        let (own, valid) = (align_extent(&d.shape, rank), align_extent(&d.valid, rank));
        own.iter().zip(valid).zip(&shape).map(|((&e, v), &n)| if e == 1 { n } else { v }).collect()
    };
    let (xv, yv) = (valid_of(x), valid_of(y));
    let (xs, ys) = (broadcast_strides(&x.shape, &shape), broadcast_strides(&y.shape, &shape));
    let dtype = x.dtype;
    let float = dtype.is_float();
    let valid: Vec<i64> = xv.iter().zip(&yv).map(|(&p, &q)| p.max(q)).collect();
    let mut data = Data::zeros(dtype, shape.iter().product::<i64>() as usize);
    let mut pos = 0usize;
    let mut failure = None;
    for_each_index(&shape, |ix| {
        let inside = |v: &[i64]| ix.iter().zip(v).all(|(i, n)| i < n);
        let at = |s: &[i64]| ix.iter().zip(s).map(|(i, s)| i * s).sum::<i64>() as usize;
        let (p, q) = (x.data.get(at(&xs)), convert(y.data.get(at(&ys)), dtype));
        let v = match (inside(&xv), inside(&yv)) {
            (true, true) => apply_bin(kind, p, q, float),
            (true, false) => Ok(p),
            (false, true) => Ok(q),
            (false, false) => Ok(Num::I(0)),
        };
        match v {
            Ok(v) => data.set(pos, convert(v, dtype)),
            Err(e) => failure = Some(e),
        }
        pos += 1;
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(Dense { dtype, shape, valid, data }),
    }
}

/// `lhs @ rhs` of two matrices (a vector is a row), accumulated in `f64`.
fn matmul(lhs: &Dense, rhs: &Dense, a_trans: bool, b_trans: bool, dtype: DType) -> Res<Dense> {
    let dims = |d: &Dense, trans: bool| -> Res<(usize, usize, usize, usize)> {
        // (rows, cols, row stride, col stride) of the matrix as used.
        let (r, c) = match d.shape.as_slice() {
            [c] => (1, *c as usize),
            [.., r, c] if d.shape[..d.rank() - 2].iter().all(|&x| x == 1) => (*r as usize, *c as usize),
            _ => return Err(format!("pl.matmul of a value of shape {:?}", d.shape)),
        };
        Ok(if trans { (c, r, 1, c) } else { (r, c, c, 1) })
    };
    let (m, k, ars, acs) = dims(lhs, a_trans)?;
    let (k2, n, brs, bcs) = dims(rhs, b_trans)?;
    if k != k2 {
        return Err(format!("pl.matmul of shapes {:?} and {:?}: the inner extents differ", lhs.shape, rhs.shape));
    }
    // A batched product (an operand of more than 2 axes, every batch extent 1 here) keeps
    // the batch axes, as its type does.
    let batch = if lhs.rank() >= 2 && rhs.rank() >= 2 { lhs.rank().max(rhs.rank()) - 2 } else { 0 };
    let mut dims = vec![1i64; batch];
    dims.extend([m as i64, n as i64]);
    let shape = check_size(dims)?;
    let mut out = Data::zeros(dtype, m * n);
    let float = dtype.is_float() || lhs.data.is_float() || rhs.data.is_float();
    for i in 0..m {
        for j in 0..n {
            if float {
                // Accumulated in `f32` in index order, each product rounded, as the cube
                // unit and the C++ tile library do.
                let mut acc = 0.0f32;
                for p in 0..k {
                    let product = lhs.data.get_f(i * ars + p * acs) as f32 * rhs.data.get_f(p * brs + j * bcs) as f32;
                    acc += product;
                }
                let acc = acc as f64;
                out.set(i * n + j, convert(Num::F(acc), dtype));
            } else {
                let mut acc = 0i64;
                for p in 0..k {
                    acc = acc.wrapping_add(
                        lhs.data.get_i(i * ars + p * acs).wrapping_mul(rhs.data.get_i(p * brs + j * bcs)),
                    );
                }
                out.set(i * n + j, convert(Num::I(acc), dtype));
            }
        }
    }
    Ok(Dense { dtype, valid: shape.clone(), shape, data: out })
}

// ---------------------------------------------------------------- layout

fn transpose(d: &Dense, i: usize, j: usize) -> Res<Dense> {
    if d.rank() < 2 {
        return Ok(d.clone());
    }
    let mut shape = d.shape.clone();
    shape.swap(i, j);
    let mut valid = d.valid.clone();
    valid.swap(i, j);
    let mut strides = contiguous_strides(&d.shape);
    strides.swap(i, j);
    let mut out = Data::zeros(d.dtype, d.len());
    let mut pos = 0usize;
    for_each_index(&shape, |ix| {
        let src: i64 = ix.iter().zip(&strides).map(|(a, b)| a * b).sum();
        out.set(pos, d.data.get(src as usize));
        pos += 1;
    });
    Ok(Dense { dtype: d.dtype, shape, valid, data: out })
}

fn concat(x: &Dense, y: &Dense) -> Res<Dense> {
    if x.rank() == 0 || x.rank() != y.rank() || x.shape[..x.rank() - 1] != y.shape[..y.rank() - 1] {
        return Err(format!("pl.concat of shapes {:?} and {:?}", x.shape, y.shape));
    }
    let r = x.rank();
    let (cx, cy) = (x.shape[r - 1] as usize, y.shape[r - 1] as usize);
    let rows = x.len() / cx.max(1);
    let mut shape = x.shape.clone();
    shape[r - 1] = (cx + cy) as i64;
    let shape = check_size(shape)?;
    let mut out = Data::zeros(x.dtype, element_count(&shape));
    for row in 0..rows {
        for c in 0..cx {
            out.set(row * (cx + cy) + c, x.data.get(row * cx + c));
        }
        for c in 0..cy {
            out.set(row * (cx + cy) + cx + c, y.data.get(row * cy + c));
        }
    }
    let mut valid = x.valid.clone();
    valid[r - 1] = x.valid[r - 1] + y.valid[r - 1];
    Ok(Dense { dtype: x.dtype, shape, valid, data: out })
}

fn pad_number(dtype: DType, pad: PadValue) -> Num {
    match pad {
        PadValue::Zero => Num::I(0),
        PadValue::Min | PadValue::Max => {
            let max = pad == PadValue::Max;
            if dtype.is_float() {
                Num::F(if max { f32::MAX as f64 } else { f32::MIN as f64 })
            } else {
                let bits = match dtype {
                    DType::Int4 | DType::UInt4 => 4,
                    DType::Int8 | DType::UInt8 | DType::Bool => 8,
                    DType::Int16 | DType::UInt16 => 16,
                    DType::Int32 | DType::UInt32 => 32,
                    _ => 64,
                };
                let unsigned = matches!(
                    dtype,
                    DType::UInt4 | DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 | DType::Bool
                );
                Num::I(match (unsigned, max) {
                    (true, false) => 0,
                    (true, true) if bits == 64 => i64::MAX,
                    (true, true) => (1i64 << bits) - 1,
                    (false, true) => ((1u64 << (bits - 1)) - 1) as i64,
                    (false, false) => -(((1u64 << (bits - 1)) - 1) as i64) - 1,
                })
            }
        }
    }
}

/// The padding (outside the valid region) set to `pad`; the whole tile becomes valid.
fn fillpad(d: &Dense, pad: PadValue) -> Dense {
    let fill = convert(pad_number(d.dtype, pad), d.dtype);
    let mut out = d.clone();
    let mut pos = 0usize;
    for_each_index(&d.shape, |ix| {
        if ix.iter().zip(&d.valid).any(|(&i, &v)| i >= v) {
            out.data.set(pos, fill);
        }
        pos += 1;
    });
    out.valid = out.shape.clone();
    out
}

// ---------------------------------------------------------------- tensors and windows

/// A view of `shape` at `offsets`: extents cut at the tensor's end (as the C++ runtime
/// does), `drop_dims` axes removed.
fn slice_view(t: &Tensor, shape: &[i64], offsets: &[i64], drop_dims: &[i64]) -> Res<Tensor> {
    let rank = t.rank();
    let offsets = pad_offsets(offsets, rank)?;
    if shape.len() > rank {
        return Err(format!("a slice of shape {shape:?} of a tensor of rank {rank}"));
    }
    let mut extents = shape.to_vec();
    extents.extend((shape.len()..rank).map(|k| t.shape[k] - offsets[k]));
    let mut view = t.clone();
    let source_valid = t.valid_region();
    for k in 0..rank {
        let e = extents[k].min(t.shape[k] - offsets[k]).max(0);
        view.shape[k] = e;
        if e > 0 {
            view.offset += offsets[k] * t.strides[k];
        }
    }
    // The source's valid region, seen from the window.
    view.valid =
        t.valid.as_ref().map(|_| (0..rank).map(|k| (source_valid[k] - offsets[k]).clamp(0, view.shape[k])).collect());
    if !drop_dims.is_empty() {
        let mut k = 0i64;
        let keep: Vec<bool> = (0..rank)
            .map(|_| {
                k += 1;
                !drop_dims.contains(&(k - 1))
            })
            .collect();
        view.shape = view.shape.iter().zip(&keep).filter(|(_, &k)| k).map(|(&d, _)| d).collect();
        view.strides = view.strides.iter().zip(&keep).filter(|(_, &k)| k).map(|(&d, _)| d).collect();
        if let Some(v) = view.valid.take() {
            view.valid = Some(v.iter().zip(&keep).filter(|(_, &k)| k).map(|(&d, _)| d).collect());
        }
    }
    Ok(view)
}

/// A view with a new shape when the tensor is contiguous; a copy otherwise.
fn reshape_tensor(t: &Tensor, shape: Vec<i64>) -> Res<Tensor> {
    let shape = resolve_shape(&shape, t.len())?;
    if t.is_contiguous() {
        let strides = contiguous_strides(&shape);
        Ok(Tensor { buf: t.buf.clone(), dtype: t.dtype, shape, strides, offset: t.offset, valid: None })
    } else {
        let d = t.to_dense();
        Ok(Tensor::from_dense(Dense { valid: shape.clone(), shape, ..d }))
    }
}

/// A tile of `shape` read from `t` at `offsets`: zeros outside the tensor, and outside
/// `valid` when given; the valid region is the part inside both.
fn load(t: &Tensor, offsets: &[i64], shape: &[i64], valid: Option<Vec<i64>>) -> Res<Dense> {
    let rank = t.rank();
    let offsets = pad_offsets(offsets, rank)?;
    if shape.len() > rank {
        return Err(format!("a tile of shape {shape:?} loaded from a tensor of rank {rank}"));
    }
    let tile_shape = check_size(shape.to_vec())?;
    let window = align_extent(&tile_shape, rank);
    let mut live: Vec<i64> = (0..rank).map(|k| window[k].min(t.shape[k] - offsets[k]).max(0)).collect();
    if let Some(v) = &valid {
        let v = align_extent(v, rank);
        for (l, v) in live.iter_mut().zip(v) {
            *l = (*l).min(v.max(0));
        }
    }
    let mut d = Dense::zeros(t.dtype, tile_shape.clone());
    let wstrides = contiguous_strides(&window);
    {
        let buf = t.buf.borrow();
        let mut src = offsets.clone();
        for_each_index(&live, |ix| {
            for k in 0..rank {
                src[k] = offsets[k] + ix[k];
            }
            let pos: i64 = ix.iter().zip(&wstrides).map(|(a, b)| a * b).sum();
            d.data.set(pos as usize, buf.get(t.position(&src)));
        });
    }
    d.valid = live[rank - tile_shape.len()..].to_vec();
    Ok(d)
}

/// Writes the leading `extent` of `src` into `t` at `offsets` (adding when `atomic`),
/// cut at the tensor's end.
fn write_tensor(t: &Tensor, src: &Dense, offsets: &[i64], extent: &[i64], atomic: bool) -> Res<()> {
    let rank = t.rank();
    let offsets = pad_offsets(offsets, rank)?;
    let src = align_dense(src, rank)?;
    let extent = align_extent(extent, rank);
    let live: Vec<i64> = (0..rank).map(|k| extent[k].min(src.shape[k]).min(t.shape[k] - offsets[k]).max(0)).collect();
    let sstrides = contiguous_strides(&src.shape);
    let mut buf = t.buf.borrow_mut();
    let mut dst = offsets.clone();
    for_each_index(&live, |ix| {
        for k in 0..rank {
            dst[k] = offsets[k] + ix[k];
        }
        let spos: i64 = ix.iter().zip(&sstrides).map(|(a, b)| a * b).sum();
        let pos = t.position(&dst);
        let v = src.data.get(spos as usize);
        let v = if atomic { add(buf.get(pos), v, t.dtype) } else { convert(v, t.dtype) };
        buf.set(pos, v);
    });
    Ok(())
}

fn add(x: Num, y: Num, dtype: DType) -> Num {
    if dtype.is_float() {
        Num::F(x.as_f64() + y.as_f64())
    } else {
        convert(Num::I(x.as_i64().wrapping_add(y.as_i64())), dtype)
    }
}

/// Writes the valid region of `src` into the tile `dst` at `offsets`.
fn write_tile(dst: &mut Dense, src: &Dense, offsets: &[i64], atomic: bool) -> Res<()> {
    let rank = dst.rank();
    let offsets = pad_offsets(offsets, rank)?;
    let src = align_dense(src, rank)?;
    let live: Vec<i64> = (0..rank).map(|k| src.valid[k].min(dst.shape[k] - offsets[k]).max(0)).collect();
    let sstrides = contiguous_strides(&src.shape);
    let dstrides = contiguous_strides(&dst.shape);
    let dtype = dst.dtype;
    for_each_index(&live, |ix| {
        let spos: i64 = ix.iter().zip(&sstrides).map(|(a, b)| a * b).sum();
        let dpos: i64 = ix.iter().zip(&offsets).zip(&dstrides).map(|((a, o), s)| (a + o) * s).sum();
        let v = src.data.get(spos as usize);
        let v = if atomic { add(dst.data.get(dpos as usize), v, dtype) } else { convert(v, dtype) };
        dst.data.set(dpos as usize, v);
    });
    Ok(())
}

/// A copy of the window of `shape` at `offsets` of a tile, padded with `pad`.
fn slice_copy(
    d: &Dense,
    shape: &[i64],
    offsets: &[i64],
    valid: Option<Vec<i64>>,
    drop: &[i64],
    pad: PadValue,
) -> Res<Dense> {
    let rank = d.rank();
    let offsets = pad_offsets(offsets, rank)?;
    let shape = check_size(align_extent(shape, rank))?;
    let mut out = Dense::zeros(d.dtype, shape.clone());
    let fill = convert(pad_number(d.dtype, pad), d.dtype);
    let inside: Vec<i64> = (0..rank).map(|k| shape[k].min(d.shape[k] - offsets[k]).max(0)).collect();
    let sstrides = contiguous_strides(&d.shape);
    let mut pos = 0usize;
    for_each_index(&shape, |ix| {
        let v = if ix.iter().zip(&inside).all(|(&i, &n)| i < n) {
            let s: i64 = ix.iter().zip(&offsets).zip(&sstrides).map(|((a, o), st)| (a + o) * st).sum();
            d.data.get(s as usize)
        } else {
            fill
        };
        out.data.set(pos, v);
        pos += 1;
    });
    let given = valid.map(|v| align_extent(&v, rank)).unwrap_or_else(|| shape.clone());
    out.valid = (0..rank).map(|k| given[k].min(d.valid[k] - offsets[k]).min(shape[k]).max(0)).collect();
    if !drop.is_empty() {
        let keep = |k: usize| !drop.contains(&(k as i64));
        out.shape = (0..rank).filter(|&k| keep(k)).map(|k| out.shape[k]).collect();
        out.valid = (0..rank).filter(|&k| keep(k)).map(|k| out.valid[k]).collect();
    }
    Ok(out)
}

// ---------------------------------------------------------------- sorting and gathering

/// `(value, index)` pairs of each 32-element run of each row, sorted by value, largest
/// first (equal values by index), written as `[v0, i0, v1, i1, ...]`, as PTO-ISA's TSORT32
/// does: the UINT32 index's bits are stored in the element after the value (all 32 of them
/// in an FP32 slot, so `gather_mask(P1010, output_dtype=pl.INT32)` reads them back; the
/// low 16 in an FP16/BF16 one, where TSORT32 itself writes 4 halves per element and PyPTO's
/// type has room for 2).
fn sort32(src: &Dense, idx: &Dense) -> Res<Dense> {
    if src.rank() == 0 || src.shape != idx.shape {
        return Err(format!("pl.sort32 of shapes {:?} and {:?}", src.shape, idx.shape));
    }
    let cols = *src.shape.last().unwrap_or(&0) as usize;
    let rows = src.len() / cols.max(1);
    let mut shape = src.shape.clone();
    *shape.last_mut().unwrap_or(&mut 0) = 2 * cols as i64;
    let shape = check_size(shape)?;
    let mut out = Data::zeros(src.dtype, element_count(&shape));
    for r in 0..rows {
        for start in (0..cols).step_by(32) {
            let end = (start + 32).min(cols);
            let mut pairs: Vec<(f64, u32)> =
                (start..end).map(|c| (src.data.get_f(r * cols + c), idx.data.get_i(r * cols + c) as u32)).collect();
            pairs.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
            for (k, (v, i)) in pairs.into_iter().enumerate() {
                out.set(r * 2 * cols + 2 * (start + k), Num::F(v));
                let width = src.dtype.bytes().clamp(1, 4) as usize;
                out.set(
                    r * 2 * cols + 2 * (start + k) + 1,
                    element_of("pl.sort32", &i.to_le_bytes()[..width], src.dtype)?,
                );
            }
        }
    }
    Ok(Dense { dtype: src.dtype, valid: shape.clone(), shape, data: out })
}

/// `mrgsort` of 2-4 sources (`mrgsort_format2`), PTO-ISA's TMRGSORT as its CPU simulator
/// computes it (`TMrgSort.hpp`): each source is one row of 8-byte structures (a value and
/// its index: 2 FP32 or 4 FP16 elements, the value first); the result takes, one structure
/// at a time, the head of the list whose value is largest (the earlier list on a tie),
/// until it is full or the lists are empty, or — `exhausted=True` — until one list is
/// empty. Of tiles, the last tile given is the scratch `tmp`, whose shape the result has;
/// of tensors, the result joins the sources along the last axis. What the merge does not
/// reach is 0 here (on the device it keeps what the buffer held).
fn merge_lists(a: &Args<'_>) -> Res<Dense> {
    let mut given = Vec::new();
    for p in [P::Src0, P::Src1, P::Src2, P::Src3, P::Tmp] {
        if a.at(p).is_some() {
            given.push(a.dense(p)?);
        }
    }
    let (mut shape, sources) = if a.first_is_tile() {
        let tmp = given.pop().ok_or("no sources")?;
        (tmp.shape, given)
    } else {
        let cols = given.iter().map(|d| d.shape.last().copied().unwrap_or(1)).sum();
        let mut shape = given[0].shape.clone();
        if let Some(last) = shape.last_mut() {
            *last = cols;
        }
        (shape, given)
    };
    let dtype = sources[0].dtype;
    let per = (8 / dtype.bytes().max(1)) as usize;
    for s in &sources {
        if s.len() != *s.shape.last().unwrap_or(&1) as usize {
            return Err(format!(
                "`{}`: PTO-ISA's TMRGSORT merges lists of one row (its tiles must have one row), not one of shape {:?}",
                a.def.spellings[0], s.shape
            ));
        }
    }
    let exhausted = a.flag(P::Exhausted, false)?;
    if shape.is_empty() {
        shape.push(1);
    }
    let cols = *shape.last().unwrap_or(&0) as usize;
    let mut out = Dense::zeros(dtype, check_size(shape)?);
    let lens: Vec<usize> = sources.iter().map(|s| *s.valid.last().unwrap_or(&0) as usize / per).collect();
    let mut next = vec![0usize; sources.len()];
    for k in 0..cols / per {
        let mut pick: Option<usize> = None;
        for (l, s) in sources.iter().enumerate() {
            if next[l] < lens[l] {
                let v = s.data.get_f(next[l] * per);
                if pick.is_none_or(|p| v > sources[p].data.get_f(next[p] * per)) {
                    pick = Some(l);
                }
            }
        }
        let Some(l) = pick else { break };
        for e in 0..per {
            out.data.set(k * per + e, sources[l].data.get(next[l] * per + e));
        }
        next[l] += 1;
        if exhausted && (0..sources.len()).any(|l| next[l] == lens[l]) {
            break;
        }
    }
    Ok(out)
}

/// Merges sorted runs of `block_len` positions four at a time: each chunk of
/// `4 * block_len` positions of a row comes out sorted by value, largest first.
fn mrgsort(src: &Dense, block_len: i64) -> Res<Dense> {
    if block_len <= 0 || block_len % 2 != 0 {
        return Err(format!("pl.mrgsort: block_len {block_len} must be a positive even number of positions"));
    }
    let cols = *src.shape.last().unwrap_or(&0) as usize;
    let rows = src.len() / cols.max(1);
    let chunk = (block_len as usize).saturating_mul(4);
    let mut out = src.clone();
    for r in 0..rows {
        for start in (0..cols).step_by(chunk) {
            let end = (start + chunk).min(cols);
            let mut pairs: Vec<(f64, Num)> = (start..end)
                .step_by(2)
                .filter(|&c| c + 1 < end)
                .map(|c| (src.data.get_f(r * cols + c), src.data.get(r * cols + c + 1)))
                .collect();
            pairs.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
            for (k, (v, i)) in pairs.into_iter().enumerate() {
                out.data.set(r * cols + start + 2 * k, Num::F(v));
                out.data.set(r * cols + start + 2 * k + 1, i);
            }
        }
    }
    Ok(out)
}

/// The lanes of the last axis a mask pattern selects: `P0101` the even positions,
/// `P1010` the odd ones. An `output_dtype` (of the source's width: the type check sees to
/// it) reads each element's bits as that type, as PTO-ISA's TGATHER does (its CPU
/// simulator's `BitCastOrCast` copies the bytes of a same-width element): FP32 as INT32,
/// FP16 as INT16 or BF16, ...
fn gather_mask(src: &Dense, mask: &Value, out_dtype: Option<DType>) -> Res<Dense> {
    // PTO-ISA's TGATHER mask form: of each row, the columns `c` with `c % stride == lane`.
    let pattern = mask_pattern(mask)?;
    let (stride, lane) = (pattern.stride() as usize, pattern.lane() as usize);
    let cols = *src.shape.last().unwrap_or(&0) as usize;
    let rows = src.len() / cols.max(1);
    let kept = cols / stride;
    let dtype = out_dtype.unwrap_or(src.dtype);
    let mut shape = src.shape.clone();
    if let Some(last) = shape.last_mut() {
        *last = kept as i64;
    }
    let mut out = Data::zeros(dtype, rows * kept);
    for r in 0..rows {
        for c in 0..kept {
            let v = src.data.get(r * cols + stride * c + lane);
            out.set(r * kept + c, same_width_bits("pl.tile.gather_mask", v, src.dtype, dtype)?);
        }
    }
    Ok(Dense { dtype, valid: shape.clone(), shape, data: out })
}

/// `tile.gather(src, indices, tmp)`, PTO-ISA's TGATHER index form: `dst[i, j] =
/// src.flat[indices[i, j]]`, an index counting the source's elements row after row.
fn gather_flat(src: &Dense, index: &Dense) -> Res<Dense> {
    let mut out = Data::zeros(src.dtype, index.len());
    for k in 0..index.len() {
        let at = index.data.get_i(k);
        if at < 0 || at as usize >= src.len() {
            return Err(format!("pl.tile.gather: index {at} outside a source of {} elements", src.len()));
        }
        out.set(k, src.data.get(at as usize));
    }
    Ok(Dense { dtype: src.dtype, shape: index.shape.clone(), valid: index.shape.clone(), data: out })
}

/// `torch.gather`: the element whose coordinate along `dim` is the index's value.
fn gather_index(src: &Dense, index: &Dense, dim: usize) -> Res<Dense> {
    if index.rank() != src.rank() {
        return Err(format!("pl.gather: an index of shape {:?} for a source of shape {:?}", index.shape, src.shape));
    }
    let mut out = Data::zeros(src.dtype, index.len());
    let mut pos = 0usize;
    let mut failure = None;
    for_each_index(&index.shape, |ix| {
        let mut at = ix.to_vec();
        at[dim] = index.data.get_i(pos);
        if at.iter().zip(&src.shape).any(|(&i, &d)| i < 0 || i >= d) {
            failure.get_or_insert_with(|| format!("pl.gather: index {at:?} outside a source of shape {:?}", src.shape));
        } else {
            out.set(pos, src.data.get(src.position(&at)));
        }
        pos += 1;
    });
    if let Some(f) = failure {
        return Err(f);
    }
    Ok(Dense { dtype: src.dtype, shape: index.shape.clone(), valid: index.shape.clone(), data: out })
}

// ---------------------------------------------------------------- scatters, random numbers, reinterpretation

/// The scatters, `random` and `reinterpret_view`. A tensor form gives a new tensor; a tile
/// scatter writes into its first argument (PyPTO's DPS form) and returns that tile. Scatters
/// write whole values, valid regions aside, in index order (the last write wins).
fn scatter_family(special: Special, a: &Args<'_>) -> Res<Value> {
    let tile = a.def.level == OpLevel::Tile;
    let op = a.op();
    let d = match special {
        Special::Scatter if tile => {
            let (src, idx) = (a.dense(P::Src)?, a.dense(P::Indexes)?);
            return in_place(a, P::Dst, |dst| scatter_flat(op, dst, &src, &idx));
        }
        Special::Scatter if a.at(P::MaskPattern).is_some() || a.at(P::Dst).is_some() => {
            let mut dst = a.dense(P::Dst)?;
            scatter_mask(op, &mut dst, &a.dense(P::Input)?, mask_pattern(a.req(P::MaskPattern)?)?)?;
            dst
        }
        Special::Scatter => {
            let mut out = a.dense(P::Input)?;
            scatter_columns(op, &mut out, &a.dense(P::Index)?, &a.dense(P::Src)?)?;
            out
        }
        Special::ScatterMask if tile => {
            let (src, mask) = (a.dense(P::Src)?, mask_pattern(a.req(P::MaskPattern)?)?);
            return in_place(a, P::Dst, |dst| scatter_mask(op, dst, &src, mask));
        }
        Special::ScatterMask => {
            let mut dst = a.dense(P::Dst)?;
            scatter_mask(op, &mut dst, &a.dense(P::Input)?, mask_pattern(a.req(P::MaskPattern)?)?)?;
            dst
        }
        Special::ScatterUpdate => {
            if let Some(dim) = a.at(P::Dim) {
                if as_int(dim) != Some(-2) {
                    return Err(format!("`{op}` supports dim=-2 only"));
                }
            }
            let (idx, src) = (a.dense(P::Index)?, a.dense(P::Src)?);
            if tile {
                return in_place(a, P::Input, |input| scatter_rows(op, input, &idx, &src));
            }
            let mut out = a.dense(P::Input)?;
            scatter_rows(op, &mut out, &idx, &src)?;
            out
        }
        Special::Random => {
            let word = |p: P| -> Res<u32> { Ok(a.int(p)? as u32) };
            let key = [word(P::Key0)?, word(P::Key1)?];
            let counter = [word(P::Counter0)?, word(P::Counter1)?, word(P::Counter2)?, word(P::Counter3)?];
            let shape = check_size(a.shape(P::Shape)?)?;
            if shape.len() != 2 {
                return Err(format!("`{op}` makes 2-D values, not a shape of {} extents", shape.len()));
            }
            let valid = match a.opt_ints(P::ValidShape)? {
                Some(v) if v.len() == 2 => vec![v[0].clamp(0, shape[0]), v[1].clamp(0, shape[1])],
                Some(v) => return Err(format!("`{op}`: valid_shape {v:?} must have 2 extents")),
                None => shape.clone(),
            };
            let dtype = a.dtype_or(P::Dtype, DType::UInt32)?;
            let rounds = match a.at(P::Rounds) {
                Some(_) => a.int(P::Rounds)?,
                None => 10,
            };
            if !matches!(dtype, DType::Int32 | DType::UInt32) || !matches!(rounds, 7 | 10) {
                return Err(format!("`{op}` draws INT32 or UINT32 values in 7 or 10 rounds"));
            }
            random_numbers(key, counter, shape, valid, dtype, rounds as u32)
        }
        _ => {
            let data = a.dense(P::Data)?;
            let to = a.dtype(P::Dtype)?;
            let shape = match a.opt_ints(P::Shape)? {
                Some(shape) => shape,
                None => {
                    let mut shape = data.shape.clone();
                    let (from, width) = (data.dtype.bytes(), to.bytes());
                    match shape.last_mut() {
                        Some(last) if (*last * from) % width == 0 => *last = *last * from / width,
                        _ => return Err(format!("`{op}`: the last extent is not a whole number of {to} elements")),
                    }
                    shape
                }
            };
            reinterpret(op, &data, to, check_size(shape)?)?
        }
    };
    Ok(wrap_like(tile, d))
}

/// Runs `f` on the tile argument `slot` in place; the result is that tile.
fn in_place(a: &Args<'_>, slot: P, f: impl FnOnce(&mut Dense) -> Res<()>) -> Res<Value> {
    let Value::Tile(t) = a.req(slot)? else {
        return Err(format!("`{}` of `{}` must be a tile", a.param(slot.into()), a.op()));
    };
    let mut d: RefMut<'_, Dense> = t.borrow_mut();
    f(&mut d)?;
    drop(d);
    Ok(Value::Tile(t.clone()))
}

fn mask_pattern(v: &Value) -> Res<MaskPattern> {
    match v {
        Value::Enum(EnumValue::MaskPattern(p)) => Ok(*p),
        Value::Int(code) => MaskPattern::from_code(*code).ok_or_else(|| format!("mask_pattern {code} is not in 1..7")),
        other => Err(format!("mask_pattern must be pl.tile.MaskPattern.<name> or a code 1-7, not {}", other.kind())),
    }
}

/// The rows and columns of a 2-D value.
fn rows_cols(op: &str, what: &str, d: &Dense) -> Res<(usize, usize)> {
    match d.shape[..] {
        [r, c] => Ok((r.max(0) as usize, c.max(0) as usize)),
        _ => Err(format!("`{op}`: {what} must be 2-D, not of shape {:?}", d.shape)),
    }
}

/// `Ok` when the two shapes are equal, else "`op`: an index of shape [..] for a source of
/// shape [..]" with `got` and `want`'s descriptions.
fn same_shape(op: &str, got: (&str, &[i64]), want: (&str, &[i64])) -> Res<()> {
    if got.1 == want.1 {
        return Ok(());
    }
    Err(format!("`{op}`: {} of shape {:?} for {} of shape {:?}", got.0, got.1, want.0, want.1))
}

/// `tile.scatter`: `dst.flat[idx[i, j]] = src[i, j]` over `src`'s shape.
fn scatter_flat(op: &str, dst: &mut Dense, src: &Dense, idx: &Dense) -> Res<()> {
    same_shape(op, ("indexes", &idx.shape), ("a source", &src.shape))?;
    for k in 0..src.len() {
        let at = idx.data.get_i(k);
        if at < 0 || at as usize >= dst.len() {
            return Err(format!("`{op}`: index {at} outside a destination of {} elements", dst.len()));
        }
        dst.data.set(at as usize, convert(src.data.get(k), dst.dtype));
    }
    Ok(())
}

/// `tensor.scatter`: `out[b, index[b, k]] = src[b, k]`.
fn scatter_columns(op: &str, out: &mut Dense, index: &Dense, src: &Dense) -> Res<()> {
    let (rows, cols) = rows_cols(op, "the input", out)?;
    let (src_rows, src_cols) = rows_cols(op, "src", src)?;
    if index.shape != src.shape || src_rows > rows {
        return Err(format!(
            "`{op}`: an index of shape {:?} and src of shape {:?} for an input of shape {:?}",
            index.shape, src.shape, out.shape
        ));
    }
    for b in 0..src_rows {
        for k in 0..src_cols {
            let at = index.data.get_i(b * src_cols + k);
            if at < 0 || at as usize >= cols {
                return Err(format!("`{op}`: column index {at} outside an input of {cols} columns"));
            }
            out.data.set(b * cols + at as usize, convert(src.data.get(b * src_cols + k), out.dtype));
        }
    }
    Ok(())
}

/// `scatter_mask`: element `c` of each row of `src` to column `c * stride + lane` of the
/// same row of `dst`.
fn scatter_mask(op: &str, dst: &mut Dense, src: &Dense, mask: MaskPattern) -> Res<()> {
    let (rows, cols) = rows_cols(op, "the destination", dst)?;
    let (src_rows, src_cols) = rows_cols(op, "the source", src)?;
    let (stride, lane) = (mask.stride() as usize, mask.lane() as usize);
    if src_rows > rows || src_cols * stride != cols {
        return Err(format!(
            "`{op}`: a source of shape {:?} does not spread over a destination of shape {:?} with {mask}",
            src.shape, dst.shape
        ));
    }
    for r in 0..src_rows {
        for c in 0..src_cols {
            dst.data.set(r * cols + c * stride + lane, convert(src.data.get(r * src_cols + c), dst.dtype));
        }
    }
    Ok(())
}

/// `scatter_update`: row `k` of `src` (rows of the last extent) to row `idx.flat[k]` of `input`.
fn scatter_rows(op: &str, input: &mut Dense, idx: &Dense, src: &Dense) -> Res<()> {
    let d = *input.shape.last().unwrap_or(&0) as usize;
    if d == 0 || src.shape.last() != input.shape.last() || src.len() / d != idx.len() {
        return Err(format!(
            "`{op}`: an index of shape {:?} and src of shape {:?} for an input of shape {:?}",
            idx.shape, src.shape, input.shape
        ));
    }
    let rows = input.len() / d;
    for k in 0..idx.len() {
        let at = idx.data.get_i(k);
        if at < 0 || at as usize >= rows {
            return Err(format!("`{op}`: row index {at} outside an input of {rows} rows"));
        }
        for c in 0..d {
            input.data.set(at as usize * d + c, convert(src.data.get(k * d + c), input.dtype));
        }
    }
    Ok(())
}

/// Philox4x32 (`rounds` rounds) of a 128-bit counter under a 64-bit key, as PTO-ISA's CPU
/// `TRANDOM` computes it.
pub(crate) fn philox(mut c: [u32; 4], mut key: [u32; 2], rounds: u32) -> [u32; 4] {
    for _ in 0..rounds {
        let p0 = u64::from(c[0]) * 0xD251_1F53;
        let p1 = u64::from(c[2]) * 0xCD9E_8D57;
        c = [(p1 >> 32) as u32 ^ c[1] ^ key[0], p1 as u32, (p0 >> 32) as u32 ^ c[3] ^ key[1], p0 as u32];
        key = [key[0].wrapping_add(0x9E37_79B9), key[1].wrapping_add(0xBB67_AE85)];
    }
    c
}

/// A 128-bit counter (four little-endian words) plus `n`.
fn counter_add(c: [u32; 4], n: u64) -> [u32; 4] {
    let mut out = c;
    let mut carry = n;
    for w in out.iter_mut() {
        carry += u64::from(*w);
        *w = carry as u32;
        carry >>= 32;
    }
    out
}

/// `random`: the valid region of a `[rows, cols]` value filled as PTO-ISA's `TRANDOM` fills
/// a row-major tile. Along a row, chunks of 256 columns; in a chunk, lane `l` (0..64) runs
/// Philox on the row's counter plus `l` and its four words go to columns `l`, `64 + l`,
/// `128 + l`, `192 + l`; after each chunk the row's counter advances by `cols / 4`. The
/// rest of the value is 0.
fn random_numbers(
    key: [u32; 2],
    counter: [u32; 4],
    shape: Vec<i64>,
    valid: Vec<i64>,
    dtype: DType,
    rounds: u32,
) -> Dense {
    let mut d = Dense::zeros(dtype, shape.clone());
    let cols = shape[1] as usize;
    let (valid_rows, valid_cols) = (valid[0] as usize, valid[1] as usize);
    let chunks = valid_cols.div_ceil(256);
    let mut row_counter = counter;
    for r in 0..valid_rows {
        for chunk in 0..chunks {
            for lane in 0..64 {
                let words = philox(counter_add(row_counter, lane as u64), key, rounds);
                for (k, w) in words.iter().enumerate() {
                    let c = chunk * 256 + k * 64 + lane;
                    if c < valid_cols {
                        let v = if dtype == DType::Int32 { i64::from(*w as i32) } else { i64::from(*w) };
                        d.data.set(r * cols + c, Num::I(v));
                    }
                }
            }
            row_counter = counter_add(row_counter, (cols / 4) as u64);
        }
    }
    d.valid = valid;
    d
}

/// The little-endian bytes of one element.
fn element_bytes(op: &str, n: Num, dtype: DType, out: &mut Vec<u8>) -> Res<()> {
    let width = dtype.bytes() as usize;
    match dtype {
        DType::Fp32 => out.extend((n.as_f64() as f32).to_bits().to_le_bytes()),
        DType::Bf16 => out.extend(((round_bf16(n.as_f64() as f32).to_bits() >> 16) as u16).to_le_bytes()),
        DType::Fp16 => out.extend(fp16_bits(round_fp16(n.as_f64() as f32)).to_le_bytes()),
        d if d.is_int() || d == DType::Bool => out.extend(&n.as_i64().to_le_bytes()[..width]),
        d => return Err(format!("`{op}` has no semantics for {d} elements in the interpreter")),
    }
    Ok(())
}

/// One element of `dtype` from its little-endian bytes.
fn element_of(op: &str, b: &[u8], dtype: DType) -> Res<Num> {
    let word = |n: usize| b[..n].iter().rev().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
    Ok(match dtype {
        DType::Fp32 => Num::F(f64::from(f32::from_bits(word(4) as u32))),
        DType::Bf16 => Num::F(f64::from(f32::from_bits((word(2) as u32) << 16))),
        DType::Fp16 => Num::F(f64::from(fp16_value(word(2) as u16))),
        DType::Int8 => Num::I(i64::from(word(1) as u8 as i8)),
        DType::Int16 => Num::I(i64::from(word(2) as u16 as i16)),
        DType::Int32 => Num::I(i64::from(word(4) as u32 as i32)),
        DType::Int64 | DType::Index | DType::UInt64 => Num::I(word(8) as i64),
        DType::UInt8 | DType::Bool => Num::I(word(1) as i64),
        DType::UInt16 => Num::I(word(2) as i64),
        DType::UInt32 => Num::I(word(4) as i64),
        d => return Err(format!("`{op}` has no semantics for {d} elements in the interpreter")),
    })
}

/// The IEEE half-precision bits of a value FP16 holds exactly.
fn fp16_bits(x: f32) -> u16 {
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    let a = x.abs();
    if a.is_nan() {
        sign | 0x7e00
    } else if a.is_infinite() {
        sign | 0x7c00
    } else if a < 6.103_515_6e-5 {
        // Subnormal (or zero): a multiple of 2^-24.
        sign | (a * 16_777_216.0) as u16
    } else {
        let bits = a.to_bits();
        let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
        sign | ((exp as u16) << 10) | ((bits >> 13) & 0x3ff) as u16
    }
}

fn fp16_value(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (exp, mant) = (i32::from((h >> 10) & 0x1f), u32::from(h & 0x3ff));
    sign * match exp {
        0 => mant as f32 / 16_777_216.0,
        31 if mant == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => f32::from_bits((((exp - 15 + 127) as u32) << 23) | (mant << 13)),
    }
}

/// The bits of `v`, an element of `from`, read as an element of `to`, of the same width
/// (itself when the dtypes are one).
fn same_width_bits(op: &str, v: Num, from: DType, to: DType) -> Res<Num> {
    if from == to {
        return Ok(v);
    }
    if from.bytes() != to.bytes() {
        return Err(format!("`{op}` reads {from} bits as {to}, of another width"));
    }
    let mut bytes = Vec::with_capacity(8);
    element_bytes(op, v, from, &mut bytes)?;
    element_of(op, &bytes, to)
}

/// `reinterpret_view`: the elements' bytes, in row-major order, read as `to` in `shape`.
fn reinterpret(op: &str, d: &Dense, to: DType, shape: Vec<i64>) -> Res<Dense> {
    let mut bytes = Vec::with_capacity(d.len() * d.dtype.bytes() as usize);
    for k in 0..d.len() {
        element_bytes(op, d.data.get(k), d.dtype, &mut bytes)?;
    }
    let width = to.bytes() as usize;
    if bytes.len() != element_count(&shape) * width {
        return Err(format!("`{op}`: {} bytes do not make a {to} value of shape {shape:?}", bytes.len()));
    }
    let mut out = Dense::zeros(to, shape);
    for (k, chunk) in bytes.chunks(width).enumerate() {
        out.data.set(k, element_of(op, chunk, to)?);
    }
    Ok(out)
}

// ---------------------------------------------------------------- gathers, scatters, batch products

/// `batch_matmul(lhs, rhs)`: a new tile; `batch_matmul_acc(acc, lhs, rhs)`: the accumulator
/// tile updated in place with `acc + lhs @ rhs`.
fn batch_matmul_op(special: Special, a: &Args<'_>) -> Res<Value> {
    let (lhs, rhs) = (a.dense(P::Lhs)?, a.dense(P::Rhs)?);
    let product = batch_product(&lhs, &rhs, crate::ir::ops::acc_dtype(lhs.dtype))?;
    if special == Special::BatchMatmul {
        return Ok(Value::tile(product));
    }
    let Value::Tile(acc) = a.req(P::Acc)? else { return Err(format!("`{}` accumulates into a tile", a.op())) };
    let current = acc.borrow().clone();
    same_shape(a.op(), ("an accumulator", &current.shape), ("a product", &product.shape))?;
    // `init_cond` true: the product alone (the first step of an accumulation).
    let init = match a.at(P::InitCond) {
        Some(v) => super::exec::truthy(v)?,
        None => false,
    };
    let sum = if init {
        product
    } else {
        binary(&Operand::Array(current), &Operand::Array(product), Bin::Fn(BinaryFn::Add))?
    };
    let mut acc_mut = acc.borrow_mut();
    let valid = acc_mut.valid.clone();
    *acc_mut = Dense { valid, ..sum };
    drop(acc_mut);
    Ok(Value::Tile(acc.clone()))
}

/// `lhs[..., M, K] @ rhs[..., K, N]` for each index of the broadcast batch axes, each
/// product accumulated as `matmul` does (in `f32` in index order for floats).
fn batch_product(lhs: &Dense, rhs: &Dense, dtype: DType) -> Res<Dense> {
    let (lr, rr) = (lhs.rank(), rhs.rank());
    if lr < 2 || rr < 2 {
        return Err(format!("pl.batch_matmul of shapes {:?} and {:?}: both need 2 axes", lhs.shape, rhs.shape));
    }
    let (m, k) = (lhs.shape[lr - 2] as usize, lhs.shape[lr - 1] as usize);
    let (k2, n) = (rhs.shape[rr - 2] as usize, rhs.shape[rr - 1] as usize);
    if k != k2 {
        return Err(format!("pl.batch_matmul of shapes {:?} and {:?}: the inner extents differ", lhs.shape, rhs.shape));
    }
    let batch = broadcast_shape(&lhs.shape[..lr - 2], &rhs.shape[..rr - 2])?;
    let (ls, rs) = (broadcast_strides(&lhs.shape[..lr - 2], &batch), broadcast_strides(&rhs.shape[..rr - 2], &batch));
    let mut shape = batch.clone();
    shape.extend([m as i64, n as i64]);
    let shape = check_size(shape)?;
    let mut out = Data::zeros(dtype, element_count(&shape));
    let float = dtype.is_float() || lhs.data.is_float() || rhs.data.is_float();
    let mut b = 0usize;
    for_each_index(&batch, |ix| {
        let at = |s: &[i64]| ix.iter().zip(s).map(|(i, s)| i * s).sum::<i64>() as usize;
        let (lo, ro) = (at(&ls) * m * k, at(&rs) * k * n);
        for i in 0..m {
            for j in 0..n {
                let v = if float {
                    let mut acc = 0.0f32;
                    for p in 0..k {
                        acc += lhs.data.get_f(lo + i * k + p) as f32 * rhs.data.get_f(ro + p * n + j) as f32;
                    }
                    Num::F(acc as f64)
                } else {
                    let mut acc = 0i64;
                    for p in 0..k {
                        acc = acc
                            .wrapping_add(lhs.data.get_i(lo + i * k + p).wrapping_mul(rhs.data.get_i(ro + p * n + j)));
                    }
                    Num::I(acc)
                };
                out.set((b * m + i) * n + j, convert(v, dtype));
            }
        }
        b += 1;
    });
    Ok(Dense { dtype, valid: shape.clone(), shape, data: out })
}

/// `gatherb(src, offset)`: for each byte offset `offset[r, j]` of the offset tile's valid
/// region, the 32-byte block of `src`'s storage (row-major, its full shape) starting
/// there, as `32 / size` elements at columns `j * (32 / size)...` of row `r`; the rest of
/// the result is 0. An offset that is not a multiple of the element size or whose block
/// leaves the source is an error (on the device the result is undefined). An
/// `output_dtype` of the source's width reads each element's bits as that type (FP32 as
/// INT32 or UINT32, INT16 as UINT16, ...); another width, or FP16/BF16 bits, plc does not
/// model.
fn gatherb(src: &Dense, offset: &Dense, out_dtype: Option<DType>) -> Res<Dense> {
    let dtype = out_dtype.unwrap_or(src.dtype);
    if !crate::ir::ops::gatherb_reads_bits(src.dtype, dtype) {
        return Err(format!(
            "pl.tile.gatherb with output_dtype={dtype} of a {} source reads its bytes as a type of another width (or FP16/BF16 bits), which plc's CPU forms do not model",
            src.dtype
        ));
    }
    if offset.rank() != 2 {
        return Err(format!("pl.tile.gatherb: an offset tile of shape {:?} (2-D needed)", offset.shape));
    }
    let size = dtype.bytes().max(1);
    let per = 32 / size;
    let (rows, cols) = (offset.shape[0], offset.shape[1]);
    let shape = check_size(vec![rows, cols * per])?;
    let (vr, vc) = (offset.valid[0].clamp(0, rows), offset.valid[1].clamp(0, cols));
    let mut out = Dense::zeros(dtype, shape.clone());
    let total = src.len() as i64;
    for r in 0..vr {
        for j in 0..vc {
            let byte = offset.data.get_i((r * cols + j) as usize);
            if byte % size != 0 || byte < 0 || byte / size + per > total {
                return Err(format!(
                    "pl.tile.gatherb: byte offset {byte} does not start a block of {per} elements of {dtype} inside a source of {total} elements"
                ));
            }
            for k in 0..per {
                let v = reinterpret_bits(src.data.get((byte / size + k) as usize), src.dtype, dtype);
                out.data.set(((r * cols + j) * per + k) as usize, v);
            }
        }
    }
    out.valid = vec![vr, vc * per];
    Ok(out)
}

/// The bits of `v` (an element of `from`) read as an element of `to`, of the same width.
fn reinterpret_bits(v: Num, from: DType, to: DType) -> Num {
    if from == to {
        return v;
    }
    let bits = match from {
        DType::Fp32 => (v.as_f64() as f32).to_bits() as i64,
        _ => v.as_i64(),
    };
    match to {
        DType::Fp32 => Num::F(f32::from_bits(bits as u32) as f64),
        _ => Num::I(wrap_int(bits, to)),
    }
}

/// An index of `mgather` against a capacity, by `gather_oob` (0 undefined: an error
/// outside, 1 clamp, 2 wrap, 3 zero: `None`); indices are read as UINT32, as PTO-ISA does.
fn oob_index(i: i64, cap: i64, oob: i64) -> Res<Option<usize>> {
    if (0..cap).contains(&i) {
        return Ok(Some(i as usize));
    }
    let u = i as u32 as i64;
    match oob {
        1 => Ok(Some((u.min(cap - 1)) as usize)),
        2 => Ok(Some((u % cap) as usize)),
        3 => Ok(None),
        _ => Err(format!("pl.tile.mgather: index {i} outside a table of {cap} (gather_oob='undefined')")),
    }
}

/// `mgather(mem, idx, coalesce='row')`: rows `mem[idx[r], :]` of the table whose rows are
/// `mem`'s last axis (idx `[1, R]` or `[R, 1]`), or with `coalesce='elem'` the elements
/// `mem.flat[idx[r, c]]`; over the result's valid region (`valid_shape=`, default all),
/// 0 elsewhere.
fn mgather(a: &Args<'_>) -> Res<Dense> {
    use crate::ir::ops::{COALESCE_MODES, GATHER_OOB_MODES};
    let (mem, idx) = (a.dense(P::Mem)?, a.dense(P::Idx)?);
    let coalesce = a.named_code(P::Coalesce, &COALESCE_MODES, 0)?;
    let oob = a.named_code(P::GatherOob, &GATHER_OOB_MODES, 0)?;
    let total = mem.len() as i64;
    let (shape, cols) = if coalesce == 0 {
        let (Some(&cols), true) = (mem.shape.last(), mem.rank() >= 2) else {
            return Err(format!("pl.tile.mgather by rows of a table of shape {:?} (2 axes needed)", mem.shape));
        };
        if idx.rank() != 2 || (idx.shape[0] != 1 && idx.shape[1] != 1) {
            return Err(format!(
                "pl.tile.mgather by rows with an index of shape {:?} ([1, R] or [R, 1] needed)",
                idx.shape
            ));
        }
        (vec![idx.len() as i64, cols], cols)
    } else {
        (idx.shape.clone(), 1)
    };
    let shape = check_size(shape)?;
    let mut out = Dense::zeros(mem.dtype, shape.clone());
    if let Some(v) = a.opt_ints(P::ValidShape)? {
        out.valid = align_extent(&v, shape.len()).iter().zip(&shape).map(|(&v, &s)| v.clamp(0, s)).collect();
    }
    let valid = out.valid.clone();
    if coalesce == 0 {
        let cap = total / cols.max(1);
        for r in 0..valid[0] {
            let Some(row) = oob_index(idx.data.get_i(r as usize), cap, oob)? else { continue };
            for c in 0..valid[1] {
                out.data.set((r * cols + c) as usize, mem.data.get(row * cols as usize + c as usize));
            }
        }
    } else {
        let mut failure = None;
        let data = &mut out.data;
        for_each_index(&valid, |ix| {
            let pos = ix.iter().zip(&shape).fold(0i64, |p, (i, d)| p * d + i) as usize;
            match oob_index(idx.data.get_i(pos), total, oob) {
                Ok(Some(at)) => data.set(pos, mem.data.get(at)),
                Ok(None) => {}
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
    }
    Ok(out)
}

/// `paged_gather(src, indices, block_table, block_size, size, max_indices)`: for each
/// logical index `i = indices[k]` (k below the number of indices), the row `block_table[i
/// / block_size] * block_size + i % block_size` of `src`, columns `col_off..col_off+size`,
/// as row k of a `[max_indices, size]` tensor (column k of `[size, max_indices]` with
/// `is_trans`); rows past the indices stay 0.
fn paged_gather(a: &Args<'_>) -> Res<Dense> {
    let (src, indices, table) = (a.dense(P::Src)?, a.dense(P::Indices)?, a.dense(P::BlockTable)?);
    let (block, size, rows) = (a.int(P::BlockSize)?, a.int(P::Size)?, a.int(P::MaxIndices)?);
    let col_off = if a.at(P::ColOff).is_some() { a.int(P::ColOff)? } else { 0 };
    let trans = a.flag(P::IsTrans, false)?;
    let op = a.op();
    if src.rank() != 2 {
        return Err(format!("`{op}` of a source of shape {:?} (2-D needed)", src.shape));
    }
    let (src_rows, src_cols) = (src.shape[0], src.shape[1]);
    if block <= 0 || size <= 0 || rows <= 0 || col_off < 0 || col_off + size > src_cols {
        return Err(format!(
            "`{op}`: block_size {block}, size {size}, max_indices {rows}, col_off {col_off} for a source of {src_cols} columns"
        ));
    }
    let count = indices.len() as i64;
    if count > rows {
        return Err(format!("`{op}`: {count} indices for max_indices={rows}"));
    }
    let shape = check_size(if trans { vec![size, rows] } else { vec![rows, size] })?;
    let mut out = Dense::zeros(src.dtype, shape);
    for k in 0..count {
        let i = indices.data.get_i(k as usize);
        let blk = i.div_euclid(block);
        if i < 0 || blk >= table.len() as i64 {
            return Err(format!("`{op}`: logical index {i} is outside the block table of {} blocks", table.len()));
        }
        let phys = table.data.get_i(blk as usize) * block + i % block;
        if !(0..src_rows).contains(&phys) {
            return Err(format!("`{op}`: logical index {i} maps to row {phys} of a source of {src_rows} rows"));
        }
        for c in 0..size {
            let pos = if trans { c * rows + k } else { k * size + c };
            out.data.set(pos as usize, src.data.get((phys * src_cols + col_off + c) as usize));
        }
    }
    Ok(out)
}

/// `mscatter(src, idx, out)`: each element of `src`'s valid region written into the
/// tensor at the flat position `idx` gives (row-major order: a later element wins a
/// position); `gather_row(dst, src, dst_offset, src_offset, shapes)`: the window of the
/// tensor `src` at `src_offset` (its part inside the tensor and inside `valid_shape`),
/// transposed with `transpose=True`, written into the tile or tensor `dst` at `dst_offset`.
/// Both write in place and return the destination.
fn placing(special: Special, a: &Args<'_>) -> Res<Value> {
    if special == Special::MScatter {
        let (src, idx, out) = (a.dense(P::Src)?, a.dense(P::Idx)?, a.tensor(P::OutputTensor)?);
        same_shape(a.op(), ("an index", &idx.shape), ("a source", &src.shape))?;
        let cap = out.len() as i64;
        let mut failure = None;
        {
            let mut buf = out.buf.borrow_mut();
            for_each_index(&src.valid, |ix| {
                let pos = src.position(ix);
                let at = idx.data.get_i(pos);
                if !(0..cap).contains(&at) {
                    failure.get_or_insert_with(|| {
                        format!("pl.tile.mscatter: index {at} outside a tensor of {cap} elements")
                    });
                    return;
                }
                let mut rest = at;
                let mut multi = vec![0i64; out.rank()];
                for k in (0..out.rank()).rev() {
                    multi[k] = rest % out.shape[k];
                    rest /= out.shape[k];
                }
                buf.set(out.position(&multi), convert(src.data.get(pos), out.dtype));
            });
        }
        if let Some(e) = failure {
            return Err(e);
        }
        return Ok(Value::Tensor(out));
    }
    let src = a.tensor(P::Src)?;
    let mut window = load(&src, &a.ints(P::SrcOffset)?, &a.shape(P::Shapes)?, a.opt_ints(P::ValidShape)?)?;
    if a.flag(P::Transpose, false)? {
        window = transpose(&window, 0, 1)?;
    }
    let dst_offset = a.ints(P::DstOffset)?;
    match a.req(Slot::Nth(0))? {
        Value::Tile(t) => {
            write_tile(&mut t.borrow_mut(), &window, &dst_offset, false)?;
            Ok(Value::Tile(t.clone()))
        }
        Value::Tensor(t) => {
            write_tensor(t, &window, &dst_offset, &window.valid.clone(), false)?;
            Ok(Value::Tensor(t.clone()))
        }
        other => Err(format!("`{}` writes into a tile or a tensor, not {}", a.op(), other.kind())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Program;

    /// `saturation_mode="on"` clamps to the target's range after rounding; without it an
    /// integer wraps.
    #[test]
    fn saturating_cast_clamps() {
        let sat = |v: f64, d: DType, m: &str| {
            let v = saturated(Num::F(v), d, Some(m)).unwrap();
            convert_with_mode(v, d, Some(m)).unwrap()
        };
        assert!(matches!(sat(300.7, DType::Int8, "trunc"), Num::I(127)));
        assert!(matches!(sat(-1000.0, DType::Int8, "rint"), Num::I(-128)));
        assert!(matches!(sat(-3.0, DType::UInt8, "trunc"), Num::I(0)));
        assert!(matches!(sat(12.4, DType::Int8, "rint"), Num::I(12)));
        assert!(matches!(sat(1e6, DType::Fp16, "rint"), Num::F(f) if f == 65504.0));
        assert!(matches!(convert_with_mode(Num::F(300.0), DType::Int8, Some("trunc")).unwrap(), Num::I(44)));
    }

    /// Every op of the table runs here, except those without a CPU form (distributed,
    /// cross-core pipes, prefetch; `OpKind::no_cpu_form` says why): called without
    /// arguments, an op complains about a missing argument, not about itself.
    #[test]
    fn every_op_of_the_table_has_semantics() {
        let programs = [Program::default()];
        let names = Interner::new();
        let mut it = Interp::new(&programs, &names, 0, 1000, Default::default());
        let mut missing = Vec::new();
        for &op in Op::ALL {
            let args = vec![None; op.def().params.len()];
            if let Err(message) = call(&mut it, op, args, None, Layout::Nd) {
                if message.contains("has no semantics") && op.def().kind.no_cpu_form().is_none() {
                    missing.push(op.def().name);
                }
            }
        }
        assert!(missing.is_empty(), "ops without semantics: {missing:?}");
    }

    /// Random123's known answers for Philox4x32-10.
    #[test]
    fn philox_matches_the_known_answers() {
        assert_eq!(philox([0; 4], [0; 2], 10), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]);
        assert_eq!(philox([u32::MAX; 4], [u32::MAX; 2], 10), [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]);
        assert_eq!(
            philox([0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344], [0xa409_3822, 0x299f_31d0], 10),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
        assert_eq!(counter_add([u32::MAX, u32::MAX, 0, 0], 1), [0, 0, 1, 0]);
    }

    #[test]
    fn fp16_bits_round_trip() {
        for x in [0.0f32, -0.0, 1.0, -2.5, 65504.0, 6.103_515_6e-5, 5.960_464_5e-8, 0.333_251_95] {
            assert_eq!(fp16_value(fp16_bits(x)).to_bits(), x.to_bits(), "{x}");
        }
        assert_eq!(fp16_bits(1.0), 0x3c00);
        assert_eq!(fp16_bits(-2.0), 0xc000);
    }

    #[test]
    fn narrow_floats_round_to_nearest_even() {
        assert_eq!(round_bf16(1.0 + 1.0 / 256.0), 1.0);
        assert_eq!(round_bf16(1.0 + 3.0 / 256.0), 1.0 + 4.0 / 256.0);
        assert_eq!(round_bf16(-511.0 / 256.0), -2.0);
        assert_eq!(round_fp16(511.0 / 256.0), 511.0 / 256.0);
        assert_eq!(round_fp16(1.0 + 1.0 / 2048.0), 1.0);
        assert_eq!(round_fp16(1.0 + 3.0 / 2048.0), 1.0 + 2.0 / 1024.0);
        assert_eq!(round_fp16(70000.0), f32::INFINITY);
        assert_eq!(round_fp16(65504.0), 65504.0);
        assert_eq!(round_fp16(1e-8), 0.0);
        assert_eq!(round_fp16(3e-8), 2f32.powi(-24));
    }
}
