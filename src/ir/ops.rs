//! The op table: one description per `pl.*` operation. Lowering reads it to resolve names,
//! match arguments and type results; the passes read each argument's effect; the printer
//! reads the spellings; the interpreter and the emitter dispatch on [`OpId`]. No other
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

use super::enums::{DType, EnumValue, MemorySpace};
use super::types::{Dim, Type};
use super::BinOp as ScalarOp;

/// An index into [`OPS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpId(pub u16);

impl OpId {
    pub fn def(self) -> &'static OpDef {
        &OPS[self.0 as usize]
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
    /// Anything (a list of tensors, an optimisation, ...).
    Any,
}

#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    pub name: &'static str,
    pub kind: ArgKind,
    pub required: bool,
    pub effect: Effect,
}

/// What a result-type rule can ask about the arguments of a call.
pub trait Args {
    /// The type of argument `i`; `None` when it is absent.
    fn ty(&self, i: usize) -> Option<&Type>;
    /// Argument `i` as a list of extents.
    fn dims(&self, i: usize) -> Option<Vec<Dim>>;
    fn dtype(&self, i: usize) -> Option<DType>;
    fn enum_value(&self, i: usize) -> Option<EnumValue>;
    fn int(&self, i: usize) -> Option<i64>;
    fn present(&self, i: usize) -> bool;
    /// Argument `i` as a `True`/`False` constant. The default knows none; rules then
    /// take a flag that is given at all to mean the non-default value (see `bool_arg`).
    fn flag(&self, _i: usize) -> Option<bool> {
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
}

impl OpDef {
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
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
        OLDER_ORDERS.iter().find(|(name, _)| *name == self.name).map(|(_, order)| *order)
    }

    pub fn effect(&self, i: usize) -> Effect {
        self.params.get(i).map_or(Effect::Read, |p| p.effect)
    }
}

/// Older positional orders (see [`OpDef::older_order`]): PyPTO's `pl.store(tile, offsets,
/// shapes, output_tensor)` before `pl.store(tile, offsets, output_tensor, shapes=None)`.
const OLDER_ORDERS: &[(&str, &[usize])] = &[("tile.store", &[0, 1, 3, 2])];

/// Looks an op up by a spelling written in the source (`pl.tile.load`, `pl.load`).
pub fn by_spelling(spelling: &str) -> Option<OpId> {
    OPS.iter().position(|op| op.spellings.contains(&spelling)).map(|i| OpId(i as u16)).or_else(|| {
        // The older `pl.op.block.X` / `pl.op.tensor.X` API: where an op has no row of its own
        // for the older form (as `pl.op.block.load` has), it is `pl.tile.X` / `pl.tensor.X`.
        let (prefix, rest) = if let Some(rest) = spelling.strip_prefix("pl.op.block.") {
            ("pl.tile.", rest)
        } else {
            ("pl.tensor.", spelling.strip_prefix("pl.op.tensor.")?)
        };
        let current = format!("{prefix}{rest}");
        OPS.iter().position(|op| op.spellings.contains(&current.as_str())).map(|i| OpId(i as u16))
    })
}

/// The ops reachable through a unified name (`add` → `tensor.add`, `tile.add`).
pub fn unified(name: &str) -> impl Iterator<Item = OpId> + '_ {
    OPS.iter().enumerate().filter(move |(_, op)| op.unified == Some(name)).map(|(i, _)| OpId(i as u16))
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

/// Looks an op up by its IR name (`tile.load`).
pub fn by_name(name: &str) -> Option<OpId> {
    OPS.iter().position(|op| op.name == name).map(|i| OpId(i as u16))
}

// ---------------------------------------------------------------- parameter helpers

const fn req(name: &'static str, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: true, effect: Effect::Read }
}

const fn opt(name: &'static str, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::Read }
}

const fn write(name: &'static str, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: true, effect: Effect::Write }
}

const fn read_write(name: &'static str, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: true, effect: Effect::ReadWrite }
}

/// An optional output (`executed=` of `pl.tile.mrgsort`).
const fn opt_write(name: &'static str, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::Write }
}

/// An optional argument the op reads and updates (the `signal` of `pld.tensor.allreduce`).
const fn opt_read_write(name: &'static str, kind: ArgKind) -> ParamDef {
    ParamDef { name, kind, required: false, effect: Effect::ReadWrite }
}

// ---------------------------------------------------------------- result rules

fn none(_: &dyn Args) -> Result<Type, String> {
    Ok(Type::None)
}

fn same_as_first(a: &dyn Args) -> Result<Type, String> {
    a.ty(0).cloned().ok_or_else(|| "missing first argument".to_string())
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
    Ok(Type::Tensor { shape: Some(shape_arg(a, 0)?), dtype: Some(dtype_arg(a, 1)?), distributed: false })
}

fn tile_from_shape_dtype(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tile {
        shape: shape_arg(a, 0)?,
        dtype: dtype_arg(a, 1)?,
        memory: Some(memory_arg(a, 2, MemorySpace::Vec)?),
    })
}

/// `pl.tile.full(shape, dtype, value)`: a tile in `Vec`.
fn tile_full(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tile { shape: shape_arg(a, 0)?, dtype: dtype_arg(a, 1)?, memory: Some(MemorySpace::Vec) })
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
    if bool_arg(a, 5, false) {
        swap_last_two(&mut shape);
    }
    Ok(Type::Tile { shape, dtype, memory: Some(memory) })
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
        Type::Tensor { dtype, .. } => Type::Tensor { shape: Some(shape), dtype: *dtype, distributed: false },
        other => other.clone(),
    }
}

fn with_dtype(ty: &Type, dtype: DType) -> Type {
    match ty {
        Type::Tile { shape, memory, .. } => Type::Tile { shape: shape.clone(), dtype, memory: *memory },
        Type::Tensor { shape, .. } => Type::Tensor { shape: shape.clone(), dtype: Some(dtype), distributed: false },
        Type::Scalar(_) => Type::Scalar(dtype),
        other => other.clone(),
    }
}

/// `reshape(x, shape)`, `slice(x, shape, offset)`: the first argument with a new shape.
fn reshaped(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    Ok(with_shape(ty, shape_arg(a, 1)?))
}

/// `slice(x, shape, offset, ..., drop_dims=[...])`: a view of the given shape, without the
/// dimensions `drop_dims` lists (those an index, not a range, selected: `t[i, :]`).
fn sliced(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let mut shape = shape_arg(a, 1)?;
    if let Some(drop) = a.dims(4) {
        let mut k = 0;
        shape.retain(|_| {
            k += 1;
            !drop.contains(&Dim::Const(k as i64 - 1))
        });
    }
    Ok(with_shape(ty, shape))
}

fn cast(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    Ok(with_dtype(ty, dtype_arg(a, 1)?))
}

/// `pl.move(tile, target_memory, blayout=None, slayout=None, transpose=False)`.
fn moved(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Tile { shape, dtype, .. }) => {
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

/// `[M, K] x [K, N]`, the output dtype given by argument `dtype_index` when present.
fn matmul_with(a: &dyn Args, dtype_index: usize) -> Result<Type, String> {
    let (lhs, rhs) = (a.ty(0).ok_or("missing lhs")?, a.ty(1).ok_or("missing rhs")?);
    let dim = |ty: &Type, i: usize| ty.shape().and_then(|s| s.get(i).copied()).unwrap_or(Dim::Unknown);
    let (m, n) = (dim(lhs, 0), dim(rhs, 1));
    let dtype = a.dtype(dtype_index).or(lhs.dtype()).unwrap_or(DType::Fp32);
    Ok(match lhs {
        Type::Tile { .. } => Type::Tile { shape: vec![m, n], dtype, memory: Some(MemorySpace::Acc) },
        _ => Type::Tensor { shape: Some(vec![m, n]), dtype: Some(dtype), distributed: false },
    })
}

/// `matmul(lhs, rhs, out_dtype=None, a_trans=False, b_trans=False)`: `[M, K] x [K, N]`;
/// also `gemv(lhs [1, K], rhs [K, N])`.
fn matmul(a: &dyn Args) -> Result<Type, String> {
    matmul_with(a, 2)
}

/// `matmul_bias(lhs, rhs, bias, out_dtype=None, ...)`, `gemv_bias(...)`.
fn matmul_bias(a: &dyn Args) -> Result<Type, String> {
    matmul_with(a, 3)
}

fn row_reduce(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let rows = ty.shape().and_then(|s| s.first().copied()).unwrap_or(Dim::Unknown);
    Ok(with_shape(ty, vec![rows, Dim::Const(1)]))
}

fn col_reduce(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let cols = ty.shape().and_then(|s| s.last().copied()).unwrap_or(Dim::Unknown);
    Ok(with_shape(ty, vec![Dim::Const(1), cols]))
}

fn transposed(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    let mut shape = ty.shape().map(<[Dim]>::to_vec).unwrap_or_default();
    let (i, j) = (a.int(1).unwrap_or(0) as usize, a.int(2).unwrap_or(1) as usize);
    if i < shape.len() && j < shape.len() {
        shape.swap(i, j);
    }
    Ok(with_shape(ty, shape))
}

fn concat(a: &dyn Args) -> Result<Type, String> {
    let (x, y) = (a.ty(0).ok_or("missing argument")?, a.ty(1).ok_or("missing argument")?);
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
    if a.present(3) {
        return gathered_by_mask(a, 0, 3, 4);
    }
    if a.present(5) || a.present(6) || a.present(7) {
        // The compare form returns a pair (indices, counts).
        return Ok(Type::Unknown);
    }
    if a.present(2) {
        return gathered_by_index(a, 0, 2);
    }
    Err("give (dim, index), mask_pattern=, or kvalue=, cmp_mode= and out_cols=".to_string())
}

/// `pl.tile.gather(src, indices, tmp)`.
fn tile_gather(a: &dyn Args) -> Result<Type, String> {
    gathered_by_index(a, 0, 1)
}

/// `pl.tile.gather_mask(src, mask_pattern, output_dtype=None)`.
fn tile_gather_mask(a: &dyn Args) -> Result<Type, String> {
    gathered_by_mask(a, 0, 1, 2)
}

/// `ci(start, shape, dtype=INT32, descending=False)` (also spelled `arange`).
fn tensor_ci(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tensor {
        shape: Some(shape_arg(a, 1)?),
        dtype: Some(a.dtype(2).unwrap_or(DType::Int32)),
        distributed: false,
    })
}

fn tile_ci(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tile {
        shape: shape_arg(a, 1)?,
        dtype: a.dtype(2).unwrap_or(DType::Int32),
        memory: Some(MemorySpace::Vec),
    })
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

/// `pld.window(buf, shape, *, dtype)`: a distributed tensor viewing a window buffer.
fn window(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tensor { shape: Some(shape_arg(a, 1)?), dtype: Some(dtype_arg(a, 2)?), distributed: true })
}

/// `pld.tile.remote_load(target, peer, offsets, shape, valid_shape=None)`: a local tile.
fn remote_load(a: &dyn Args) -> Result<Type, String> {
    let dtype = a.ty(0).and_then(Type::dtype).unwrap_or(DType::Fp32);
    Ok(Type::Tile { shape: shape_arg(a, 3)?, dtype, memory: Some(MemorySpace::Vec) })
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

// ---------------------------------------------------------------- the table

use ArgKind as K;

const BINARY: &[ParamDef] = &[req("lhs", K::Value), req("rhs", K::Value)];
const DIV: &[ParamDef] = &[req("lhs", K::Value), req("rhs", K::Value), opt("high_precision", K::Bool)];
const UNARY: &[ParamDef] = &[req("x", K::Value)];
const UNARY_PRECISION: &[ParamDef] = &[req("x", K::Value), opt("high_precision", K::Bool)];
const REDUCE: &[ParamDef] = &[req("x", K::Value), opt("tmp_tile", K::Tile)];
const EXPAND: &[ParamDef] = &[req("x", K::Value), req("vec", K::Value)];

// Tensor forms of the scalar-operand and bitwise families (`pl.tensor.adds(lhs, rhs)`).
const T_SCALAR_RHS: &[ParamDef] = &[req("lhs", K::Tensor), req("rhs", K::Scalar)];
const T_BINARY: &[ParamDef] = &[req("lhs", K::Tensor), req("rhs", K::Value)];
const T_XOR: &[ParamDef] = &[req("lhs", K::Tensor), req("rhs", K::Value), opt("tmp", K::Tensor)];
const T_XORS: &[ParamDef] = &[req("lhs", K::Tensor), req("rhs", K::Scalar), opt("tmp", K::Tensor)];
const T_TERNARY: &[ParamDef] = &[req("lhs", K::Tensor), req("rhs", K::Tensor), req("rhs2", K::Tensor)];
const T_TERNARY_S: &[ParamDef] = &[req("lhs", K::Tensor), req("rhs", K::Scalar), req("rhs2", K::Tensor)];
const T_AXIS_REDUCE: &[ParamDef] = &[req("input", K::Tensor), opt("axis", K::Int), opt("keep_dim", K::Bool)];
const T_MATMUL: &[ParamDef] = &[
    req("lhs", K::Tensor),
    req("rhs", K::Tensor),
    opt("out_dtype", K::DType),
    opt("a_trans", K::Bool),
    opt("b_trans", K::Bool),
    opt("c_matrix_nz", K::Bool),
];
const T_MATMUL_BIAS: &[ParamDef] = &[
    req("lhs", K::Tensor),
    req("rhs", K::Tensor),
    req("bias", K::Tensor),
    opt("out_dtype", K::DType),
    opt("a_trans", K::Bool),
    opt("b_trans", K::Bool),
    opt("c_matrix_nz", K::Bool),
];
const T_GEMV_ACC: &[ParamDef] = &[
    req("acc", K::Tensor),
    req("lhs", K::Tensor),
    req("rhs", K::Tensor),
    opt("out_dtype", K::DType),
    opt("a_trans", K::Bool),
    opt("b_trans", K::Bool),
    opt("c_matrix_nz", K::Bool),
];

// Tile forms (`pl.tile.adds(lhs, rhs)`); some take a scratch tile the hardware needs.
const S_SCALAR_RHS: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Scalar)];
const S_BINARY: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Tile)];
const S_XOR: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Tile), req("tmp", K::Tile)];
const S_XORS: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Scalar), req("tmp", K::Tile)];
const S_TERNARY: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Tile), req("rhs2", K::Tile)];
const S_TERNARY_S: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Scalar), req("rhs2", K::Tile)];
const S_AXIS_REDUCE: &[ParamDef] = &[req("tile", K::Tile), opt("axis", K::Int), opt("keepdim", K::Bool)];
const S_VALIDSHAPE: &[ParamDef] = &[req("tile", K::Tile), req("valid_rows", K::Scalar), req("valid_cols", K::Scalar)];
const S_MATMUL_BIAS: &[ParamDef] = &[req("lhs", K::Tile), req("rhs", K::Tile), req("bias", K::Tile)];

// The old `pl.op.block` API: scalar offsets and extents, numeric memory codes.
const BLOCK_STORE: &[ParamDef] = &[
    req("tile", K::Tile),
    req("row_offset", K::Scalar),
    req("col_offset", K::Scalar),
    req("height", K::Scalar),
    req("width", K::Scalar),
    write("output_tensor", K::Tensor),
];

macro_rules! ops {
    ($($name:literal, $level:ident, [$($spelling:literal),*], $unified:expr, $params:expr, $result:expr, $orch:expr;)*) => {
        /// Every op, in a fixed order (an [`OpId`] is an index into it).
        pub static OPS: &[OpDef] = &[
            $(OpDef {
                name: $name,
                level: OpLevel::$level,
                spellings: &[$($spelling),*],
                unified: $unified,
                params: $params,
                result: $result,
                orchestration: $orch,
            },)*
        ];
    };
}

ops! {
    // ---- tensors: creation, metadata, views, element access (orchestration-legal)
    "tensor.create", Tensor, ["pl.create_tensor", "pl.tensor.create", "pl.create", "pl.op.tensor.create"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), opt("layout", K::Enum("TensorLayout")),
          opt("manual_dep", K::Bool), opt("init_value", K::Value), opt("memory_type", K::Enum("MemorySpace"))],
        tensor_from_shape_dtype, true;
    "tensor.full", Tensor, ["pl.full", "pl.tensor.full"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), req("value", K::Scalar)],
        tensor_from_shape_dtype, false;
    // `t.shape` and `t.dtype` of a bare `pl.Tensor`, known only at run time.
    "tensor.shape", Tensor, ["pl.tensor.shape"], None, &[req("t", K::Tensor)], unknown, true;
    "tensor.dtype", Tensor, ["pl.tensor.dtype"], None, &[req("t", K::Tensor)], unknown, true;
    "tensor.dim", Tensor, ["pl.tensor.dim"], None,
        &[req("t", K::Tensor), req("axis", K::Int)], index_scalar, true;
    "tensor.read", Tensor, ["pl.tensor.read", "pl.read"], None,
        &[req("t", K::Tensor), req("indices", K::Indices)], element_of_first, true;
    "tensor.write", Tensor, ["pl.tensor.write", "pl.write"], None,
        &[write("t", K::Tensor), req("indices", K::Indices), req("value", K::Scalar)], none, true;
    "tensor.slice", Tensor, ["pl.tensor.slice"], Some("slice"),
        &[req("x", K::Tensor), req("shape", K::Shape), req("offset", K::Indices), opt("valid_shape", K::Shape),
          opt("drop_dims", K::Any), opt("pad_value", K::Enum("PadValue")), opt("clamp", K::Bool)],
        sliced, true;
    "tensor.reshape", Tensor, ["pl.tensor.reshape"], Some("reshape"),
        &[req("x", K::Tensor), req("shape", K::Shape)], reshaped, true;
    "tensor.transpose", Tensor, ["pl.tensor.transpose"], Some("transpose"),
        &[req("x", K::Tensor), req("axis1", K::Int), req("axis2", K::Int)], transposed, true;
    "tensor.view", Tensor, ["pl.tensor.view", "pl.view"], None,
        &[req("t", K::Tensor), opt("shape", K::Shape), opt("valid_shape", K::Shape), opt("layout", K::Enum("TensorLayout"))],
        reshaped, true;
    "tensor.assemble", Tensor, ["pl.tensor.assemble"], Some("assemble"),
        &[write("target", K::Tensor), req("source", K::Value), req("offset", K::Indices), opt("atomic", K::Enum("AtomicType"))],
        same_as_first, false;
    "tensor.get_block_idx", Tensor, ["pl.get_block_idx", "pl.tensor.get_block_idx"], None, &[], index_scalar, false;
    // `pl.copy(dst, src, ...)`: destination first; `dst` is written in place.
    "tensor.copy", Tensor, ["pl.copy", "pl.tensor.copy"], None,
        &[write("dst", K::Tensor), req("src", K::Tensor), opt("dst_offsets", K::Indices), opt("src_offsets", K::Indices),
          opt("shape", K::Shape), opt("source_memory", K::Enum("MemorySpace")), opt("target_memory", K::Enum("MemorySpace"))],
        same_as_first, false;
    "tensor.ci", Tensor, ["pl.tensor.ci", "pl.tensor.arange", "pl.arange"], None,
        &[req("start", K::Scalar), req("shape", K::Shape), opt("dtype", K::DType), opt("descending", K::Bool)],
        tensor_ci, false;

    // ---- tensor compute (unified with tiles)
    "tensor.add", Tensor, ["pl.tensor.add", "pl.op.tensor.add"], Some("add"), BINARY, same_as_first, false;
    "tensor.sub", Tensor, ["pl.tensor.sub"], Some("sub"), BINARY, same_as_first, false;
    "tensor.mul", Tensor, ["pl.tensor.mul", "pl.op.tensor.mul"], Some("mul"), BINARY, same_as_first, false;
    "tensor.div", Tensor, ["pl.tensor.div"], Some("div"), DIV, same_as_first, false;
    "tensor.maximum", Tensor, ["pl.tensor.maximum"], Some("maximum"), BINARY, same_as_first, false;
    "tensor.minimum", Tensor, ["pl.tensor.minimum"], Some("minimum"), BINARY, same_as_first, false;
    "tensor.exp", Tensor, ["pl.tensor.exp"], Some("exp"), UNARY_PRECISION, same_as_first, false;
    "tensor.log", Tensor, ["pl.tensor.log"], Some("log"), UNARY_PRECISION, same_as_first, false;
    "tensor.sqrt", Tensor, ["pl.tensor.sqrt"], Some("sqrt"), UNARY_PRECISION, same_as_first, false;
    "tensor.rsqrt", Tensor, ["pl.tensor.rsqrt"], Some("rsqrt"), UNARY_PRECISION, same_as_first, false;
    "tensor.recip", Tensor, ["pl.tensor.recip"], Some("recip"), UNARY_PRECISION, same_as_first, false;
    "tensor.neg", Tensor, ["pl.tensor.neg"], Some("neg"), UNARY, same_as_first, false;
    "tensor.abs", Tensor, ["pl.tensor.abs"], Some("abs"), UNARY, same_as_first, false;
    "tensor.relu", Tensor, ["pl.tensor.relu"], Some("relu"), UNARY, same_as_first, false;
    "tensor.cast", Tensor, ["pl.tensor.cast"], Some("cast"),
        &[req("x", K::Tensor), req("target_type", K::DType), opt("mode", K::Str)], cast, false;
    "tensor.matmul", Tensor, ["pl.tensor.matmul"], Some("matmul"), T_MATMUL, matmul, false;
    "tensor.matmul_acc", Tensor, ["pl.tensor.matmul_acc"], Some("matmul_acc"),
        &[req("acc", K::Tensor), req("lhs", K::Tensor), req("rhs", K::Tensor), opt("a_trans", K::Bool),
          opt("b_trans", K::Bool), opt("init_cond", K::Value)],
        same_as_first, false;
    "tensor.matmul_bias", Tensor, ["pl.tensor.matmul_bias"], Some("matmul_bias"), T_MATMUL_BIAS, matmul_bias, false;
    "tensor.gemv", Tensor, ["pl.tensor.gemv"], Some("gemv"), T_MATMUL, matmul, false;
    "tensor.gemv_acc", Tensor, ["pl.tensor.gemv_acc"], Some("gemv_acc"), T_GEMV_ACC, same_as_first, false;
    "tensor.gemv_bias", Tensor, ["pl.tensor.gemv_bias"], Some("gemv_bias"), T_MATMUL_BIAS, matmul_bias, false;
    "tensor.row_sum", Tensor, ["pl.tensor.row_sum"], Some("row_sum"), REDUCE, row_reduce, false;
    "tensor.row_max", Tensor, ["pl.tensor.row_max"], Some("row_max"), REDUCE, row_reduce, false;
    "tensor.row_min", Tensor, ["pl.tensor.row_min"], Some("row_min"), REDUCE, row_reduce, false;
    "tensor.col_sum", Tensor, ["pl.tensor.col_sum"], Some("col_sum"), REDUCE, col_reduce, false;
    "tensor.col_max", Tensor, ["pl.tensor.col_max"], Some("col_max"), REDUCE, col_reduce, false;
    "tensor.sum", Tensor, ["pl.tensor.sum"], Some("sum"), T_AXIS_REDUCE, tensor_axis_reduce, false;
    "tensor.max", Tensor, ["pl.tensor.max"], Some("max"), T_AXIS_REDUCE, tensor_axis_reduce, false;
    "tensor.min", Tensor, ["pl.tensor.min"], Some("min"), T_AXIS_REDUCE, tensor_axis_reduce, false;
    "tensor.row_expand_mul", Tensor, ["pl.tensor.row_expand_mul"], Some("row_expand_mul"), EXPAND, same_as_first, false;
    "tensor.row_expand_div", Tensor, ["pl.tensor.row_expand_div"], Some("row_expand_div"), EXPAND, same_as_first, false;
    "tensor.row_expand_sub", Tensor, ["pl.tensor.row_expand_sub"], Some("row_expand_sub"), EXPAND, same_as_first, false;
    "tensor.row_expand_add", Tensor, ["pl.tensor.row_expand_add"], Some("row_expand_add"), EXPAND, same_as_first, false;
    "tensor.col_expand_mul", Tensor, ["pl.tensor.col_expand_mul"], Some("col_expand_mul"), EXPAND, same_as_first, false;
    "tensor.col_expand", Tensor, ["pl.tensor.col_expand"], Some("col_expand"),
        &[req("tensor", K::Tensor), req("col_vec", K::Tensor)], same_as_first, false;
    "tensor.expands", Tensor, ["pl.tensor.expands"], Some("expands"),
        &[req("target", K::Tensor), req("scalar", K::Scalar)], same_as_first, false;
    "tensor.concat", Tensor, ["pl.tensor.concat"], Some("concat"), BINARY, concat, false;
    "tensor.fillpad", Tensor, ["pl.tensor.fillpad"], Some("fillpad"),
        &[req("x", K::Tensor), opt("pad_value", K::Enum("PadValue"))], same_as_first, false;
    "tensor.set_validshape", Tensor, ["pl.tensor.set_validshape"], Some("set_validshape"),
        &[req("tensor", K::Tensor), req("valid_rows", K::Scalar), req("valid_cols", K::Scalar)], same_as_first, false;
    // scalar-operand, bitwise and select families
    "tensor.adds", Tensor, ["pl.tensor.adds"], Some("adds"), T_SCALAR_RHS, same_as_first, false;
    "tensor.subs", Tensor, ["pl.tensor.subs"], Some("subs"), T_SCALAR_RHS, same_as_first, false;
    "tensor.muls", Tensor, ["pl.tensor.muls"], Some("muls"), T_SCALAR_RHS, same_as_first, false;
    "tensor.divs", Tensor, ["pl.tensor.divs"], Some("divs"), T_SCALAR_RHS, same_as_first, false;
    "tensor.rems", Tensor, ["pl.tensor.rems"], Some("rems"), T_SCALAR_RHS, same_as_first, false;
    "tensor.maxs", Tensor, ["pl.tensor.maxs"], Some("maxs"), T_SCALAR_RHS, same_as_first, false;
    "tensor.mins", Tensor, ["pl.tensor.mins"], Some("mins"), T_SCALAR_RHS, same_as_first, false;
    "tensor.ands", Tensor, ["pl.tensor.ands"], Some("ands"), T_SCALAR_RHS, same_as_first, false;
    "tensor.ors", Tensor, ["pl.tensor.ors"], Some("ors"), T_SCALAR_RHS, same_as_first, false;
    "tensor.xors", Tensor, ["pl.tensor.xors"], Some("xors"), T_XORS, same_as_first, false;
    "tensor.shls", Tensor, ["pl.tensor.shls"], Some("shls"), T_SCALAR_RHS, same_as_first, false;
    "tensor.shrs", Tensor, ["pl.tensor.shrs"], Some("shrs"), T_SCALAR_RHS, same_as_first, false;
    "tensor.lrelu", Tensor, ["pl.tensor.lrelu"], Some("lrelu"), T_SCALAR_RHS, same_as_first, false;
    "tensor.rem", Tensor, ["pl.tensor.rem"], Some("rem"), T_BINARY, same_as_first, false;
    "tensor.and_", Tensor, ["pl.tensor.and_"], Some("and_"), T_BINARY, same_as_first, false;
    "tensor.or_", Tensor, ["pl.tensor.or_"], Some("or_"), T_BINARY, same_as_first, false;
    "tensor.xor", Tensor, ["pl.tensor.xor"], Some("xor"), T_XOR, same_as_first, false;
    "tensor.shl", Tensor, ["pl.tensor.shl"], Some("shl"), T_BINARY, same_as_first, false;
    "tensor.shr", Tensor, ["pl.tensor.shr"], Some("shr"), T_BINARY, same_as_first, false;
    "tensor.not_", Tensor, ["pl.tensor.not_"], Some("not_"), &[req("input", K::Tensor)], same_as_first, false;
    "tensor.prelu", Tensor, ["pl.tensor.prelu"], Some("prelu"),
        &[req("lhs", K::Tensor), req("rhs", K::Tensor), req("tmp", K::Tensor)], same_as_first, false;
    "tensor.addc", Tensor, ["pl.tensor.addc"], Some("addc"), T_TERNARY, same_as_first, false;
    "tensor.subc", Tensor, ["pl.tensor.subc"], Some("subc"), T_TERNARY, same_as_first, false;
    "tensor.addsc", Tensor, ["pl.tensor.addsc"], Some("addsc"), T_TERNARY_S, same_as_first, false;
    "tensor.subsc", Tensor, ["pl.tensor.subsc"], Some("subsc"), T_TERNARY_S, same_as_first, false;
    "tensor.cmp", Tensor, ["pl.tensor.cmp"], Some("cmp"),
        &[req("lhs", K::Tensor), req("rhs", K::Value), opt("cmp_type", K::Int)], same_as_first, false;
    "tensor.cmps", Tensor, ["pl.tensor.cmps"], Some("cmps"),
        &[req("lhs", K::Tensor), req("rhs", K::Scalar), opt("cmp_type", K::Int)], same_as_first, false;
    "tensor.sel", Tensor, ["pl.tensor.sel"], Some("sel"),
        &[req("mask", K::Tensor), req("lhs", K::Tensor), req("rhs", K::Tensor)], same_as_second, false;
    "tensor.sels", Tensor, ["pl.tensor.sels"], Some("sels"),
        &[req("lhs", K::Tensor), req("rhs", K::Tensor), req("select_mode", K::Scalar)], same_as_first, false;
    // sorting and gathering
    "tensor.sort32", Tensor, ["pl.tensor.sort32"], Some("sort32"),
        &[req("src", K::Tensor), req("idx", K::Tensor)], sort32, false;
    "tensor.mrgsort", Tensor, ["pl.tensor.mrgsort"], Some("mrgsort"),
        &[req("src0", K::Tensor), opt("src1", K::Tensor), opt("src2", K::Tensor), opt("src3", K::Tensor),
          opt("exhausted", K::Bool), opt("block_len", K::Scalar)],
        same_as_first, false;
    "tensor.gather", Tensor, ["pl.tensor.gather"], Some("gather"),
        &[req("input", K::Tensor), opt("dim", K::Int), opt("index", K::Tensor), opt("mask_pattern", K::Any),
          opt("output_dtype", K::DType), opt("kvalue", K::Scalar), opt("cmp_mode", K::Any), opt("out_cols", K::Int),
          opt("offset", K::Int), opt("count_dtype", K::DType)],
        tensor_gather, false;

    // ---- tiles: memory movement and creation
    // Releases differ: `valid_shapes=` and `transpose=` (older), `valid_shape=` and
    // `clamp=` (newer); all are accepted. `valid_shape` is keyword-only here.
    "tile.load", Tile, ["pl.load", "pl.tile.load"], None,
        &[req("tensor", K::Tensor), req("offsets", K::Indices), req("shapes", K::Shape), opt("valid_shapes", K::Shape),
          opt("target_memory", K::Enum("MemorySpace")), opt("transpose", K::Bool), opt("clamp", K::Bool),
          opt("valid_shape", K::Shape)],
        load, false;
    "tile.store", Tile, ["pl.store", "pl.tile.store"], None,
        &[req("tile", K::Tile), req("offsets", K::Indices), write("output_tensor", K::Tensor), opt("shapes", K::Shape),
          opt("atomic", K::Enum("AtomicType"))],
        same_as_third, false;
    // Stores an `Acc` tile (older releases; current ones use `pl.store`).
    "tile.l0c_store", Tile, ["pl.l0c_store", "pl.tile.l0c_store", "pl.block.l0c_store"], None,
        &[req("tile", K::Tile), req("offsets", K::Indices), req("shapes", K::Shape), write("output_tensor", K::Tensor)],
        same_as_fourth, false;
    "tile.create", Tile, ["pl.create_tile", "pl.tile.create"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), opt("target_memory", K::Enum("MemorySpace")), opt("transpose", K::Bool)],
        tile_from_shape_dtype, false;
    "tile.full", Tile, ["pl.tile.full"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), req("value", K::Scalar)], tile_full, false;
    "tile.ci", Tile, ["pl.tile.ci", "pl.tile.arange"], None,
        &[req("start", K::Scalar), req("shape", K::Shape), opt("dtype", K::DType), opt("descending", K::Bool)],
        tile_ci, false;
    // `transpose=` is the older releases' flag (`pl.move(t, target_memory=..., transpose=True)`).
    "tile.move", Tile, ["pl.move", "pl.tile.move"], None,
        &[req("tile", K::Tile), req("target_memory", K::Enum("MemorySpace")), opt("blayout", K::Any), opt("slayout", K::Any),
          opt("transpose", K::Bool)],
        moved, false;
    "tile.read", Tile, ["pl.tile.read"], None,
        &[req("t", K::Tile), req("indices", K::Indices)], element_of_first, false;
    "tile.write", Tile, ["pl.tile.write"], None,
        &[read_write("t", K::Tile), req("indices", K::Indices), req("value", K::Scalar)], none, false;
    "tile.slice", Tile, ["pl.tile.slice"], Some("slice"),
        &[req("x", K::Tile), req("shape", K::Shape), req("offset", K::Indices), opt("valid_shape", K::Shape),
          opt("drop_dims", K::Any), opt("pad_value", K::Enum("PadValue")), opt("clamp", K::Bool)],
        sliced, false;
    "tile.reshape", Tile, ["pl.tile.reshape"], Some("reshape"), &[req("x", K::Tile), req("shape", K::Shape)], reshaped, false;
    "tile.transpose", Tile, ["pl.tile.transpose"], Some("transpose"),
        &[req("x", K::Tile), req("axis1", K::Int), req("axis2", K::Int), opt("tmp_tile", K::Tile)], transposed, false;
    // A zero-copy NZ <-> ZN reinterpretation: the last two extents swap.
    "tile.transpose_view", Tile, ["pl.tile.transpose_view"], None, &[req("tile", K::Tile)], transposed_last_two, false;
    "tile.set_validshape", Tile, ["pl.tile.set_validshape"], Some("set_validshape"), S_VALIDSHAPE, same_as_first, false;
    "tile.assemble", Tile, ["pl.tile.assemble"], Some("assemble"),
        &[read_write("target", K::Tile), req("source", K::Tile), req("offset", K::Indices), opt("atomic", K::Enum("AtomicType"))],
        same_as_first, false;
    "tile.get_block_idx", Tile, ["pl.tile.get_block_idx"], None, &[], index_scalar, false;
    "tile.get_block_num", Tile, ["pl.tile.get_block_num"], None, &[], index_scalar, false;

    // ---- the old `pl.op.block` API (row/column offsets, numeric memory codes)
    "block.load", Tile, ["pl.op.block.load"], None,
        &[req("tensor", K::Tensor), req("row_offset", K::Scalar), req("col_offset", K::Scalar), req("height", K::Scalar),
          req("width", K::Scalar), opt("target_memory", K::Int)],
        block_load, false;
    "block.store", Tile, ["pl.op.block.store"], None, BLOCK_STORE, same_as_sixth, false;
    "block.l0c_store", Tile, ["pl.op.block.l0c_store"], None, BLOCK_STORE, same_as_sixth, false;
    "block.move", Tile, ["pl.op.block.move"], None,
        &[req("tile", K::Tile), req("target_memory", K::Int), opt("transpose", K::Bool)], block_move, false;

    // ---- tile compute (unified with tensors)
    "tile.add", Tile, ["pl.tile.add", "pl.op.block.add"], Some("add"), BINARY, same_as_first, false;
    "tile.sub", Tile, ["pl.tile.sub", "pl.op.block.sub"], Some("sub"), BINARY, same_as_first, false;
    "tile.mul", Tile, ["pl.tile.mul", "pl.op.block.mul"], Some("mul"), BINARY, same_as_first, false;
    "tile.div", Tile, ["pl.tile.div"], Some("div"), DIV, same_as_first, false;
    "tile.maximum", Tile, ["pl.tile.maximum", "pl.op.block.maximum"], Some("maximum"), BINARY, same_as_first, false;
    "tile.minimum", Tile, ["pl.tile.minimum"], Some("minimum"), BINARY, same_as_first, false;
    "tile.exp", Tile, ["pl.tile.exp", "pl.op.block.exp"], Some("exp"), UNARY_PRECISION, same_as_first, false;
    "tile.log", Tile, ["pl.tile.log"], Some("log"), UNARY_PRECISION, same_as_first, false;
    "tile.sqrt", Tile, ["pl.tile.sqrt"], Some("sqrt"), UNARY_PRECISION, same_as_first, false;
    "tile.rsqrt", Tile, ["pl.tile.rsqrt"], Some("rsqrt"), UNARY_PRECISION, same_as_first, false;
    "tile.recip", Tile, ["pl.tile.recip"], Some("recip"), UNARY_PRECISION, same_as_first, false;
    "tile.neg", Tile, ["pl.tile.neg"], Some("neg"), UNARY, same_as_first, false;
    "tile.abs", Tile, ["pl.tile.abs"], Some("abs"), UNARY, same_as_first, false;
    "tile.relu", Tile, ["pl.tile.relu"], Some("relu"), UNARY, same_as_first, false;
    "tile.cast", Tile, ["pl.tile.cast"], Some("cast"),
        &[req("x", K::Tile), req("target_type", K::DType), opt("mode", K::Str)], cast, false;
    "tile.matmul", Tile, ["pl.tile.matmul", "pl.op.block.matmul"], Some("matmul"),
        &[req("lhs", K::Tile), req("rhs", K::Tile), opt("out_dtype", K::DType)], matmul, false;
    "tile.matmul_acc", Tile, ["pl.tile.matmul_acc"], Some("matmul_acc"),
        &[read_write("acc", K::Tile), req("lhs", K::Tile), req("rhs", K::Tile), opt("init_cond", K::Value)],
        same_as_first, false;
    "tile.matmul_bias", Tile, ["pl.tile.matmul_bias"], Some("matmul_bias"), S_MATMUL_BIAS, matmul_bias, false;
    "tile.gemv", Tile, ["pl.tile.gemv"], Some("gemv"), &[req("lhs", K::Tile), req("rhs", K::Tile)], matmul, false;
    "tile.gemv_acc", Tile, ["pl.tile.gemv_acc"], Some("gemv_acc"),
        &[read_write("acc", K::Tile), req("lhs", K::Tile), req("rhs", K::Tile)], same_as_first, false;
    "tile.gemv_bias", Tile, ["pl.tile.gemv_bias"], Some("gemv_bias"), S_MATMUL_BIAS, matmul_bias, false;
    "tile.row_sum", Tile, ["pl.tile.row_sum", "pl.op.block.row_sum"], Some("row_sum"), REDUCE, row_reduce, false;
    "tile.row_max", Tile, ["pl.tile.row_max", "pl.op.block.row_max"], Some("row_max"), REDUCE, row_reduce, false;
    "tile.row_min", Tile, ["pl.tile.row_min"], Some("row_min"), REDUCE, row_reduce, false;
    "tile.col_sum", Tile, ["pl.tile.col_sum"], Some("col_sum"), REDUCE, col_reduce, false;
    "tile.col_max", Tile, ["pl.tile.col_max"], Some("col_max"), REDUCE, col_reduce, false;
    "tile.sum", Tile, ["pl.tile.sum"], Some("sum"),
        &[req("tile", K::Tile), req("axis", K::Int), opt("keepdim", K::Bool)], tile_axis_reduce, false;
    "tile.max", Tile, ["pl.tile.max"], Some("max"), S_AXIS_REDUCE, tile_axis_reduce, false;
    "tile.min", Tile, ["pl.tile.min"], Some("min"), S_AXIS_REDUCE, tile_axis_reduce, false;
    "tile.row_expand_mul", Tile, ["pl.tile.row_expand_mul", "pl.op.block.row_expand_mul"], Some("row_expand_mul"), EXPAND,
        same_as_first, false;
    "tile.row_expand_div", Tile, ["pl.tile.row_expand_div", "pl.op.block.row_expand_div"], Some("row_expand_div"), EXPAND,
        same_as_first, false;
    "tile.row_expand_sub", Tile, ["pl.tile.row_expand_sub", "pl.op.block.row_expand_sub"], Some("row_expand_sub"), EXPAND,
        same_as_first, false;
    "tile.row_expand_add", Tile, ["pl.tile.row_expand_add"], Some("row_expand_add"), EXPAND, same_as_first, false;
    "tile.col_expand_mul", Tile, ["pl.tile.col_expand_mul"], Some("col_expand_mul"), EXPAND, same_as_first, false;
    "tile.col_expand", Tile, ["pl.tile.col_expand"], Some("col_expand"),
        &[req("target", K::Tile), req("col_vec", K::Tile)], same_as_first, false;
    "tile.expands", Tile, ["pl.tile.expands"], Some("expands"),
        &[req("target", K::Tile), req("scalar", K::Scalar)], same_as_first, false;
    "tile.concat", Tile, ["pl.tile.concat"], Some("concat"), BINARY, concat, false;
    "tile.fillpad", Tile, ["pl.tile.fillpad"], Some("fillpad"),
        &[req("x", K::Tile), opt("pad_value", K::Enum("PadValue"))], same_as_first, false;
    // scalar-operand, bitwise and select families
    "tile.adds", Tile, ["pl.tile.adds"], Some("adds"), S_SCALAR_RHS, same_as_first, false;
    "tile.subs", Tile, ["pl.tile.subs"], Some("subs"), S_SCALAR_RHS, same_as_first, false;
    "tile.muls", Tile, ["pl.tile.muls", "pl.op.block.muls"], Some("muls"), S_SCALAR_RHS, same_as_first, false;
    "tile.divs", Tile, ["pl.tile.divs"], Some("divs"), S_SCALAR_RHS, same_as_first, false;
    "tile.rems", Tile, ["pl.tile.rems"], Some("rems"), S_SCALAR_RHS, same_as_first, false;
    // `maxs`/`mins` in older releases, `maximums`/`minimums` in newer ones.
    "tile.maxs", Tile, ["pl.tile.maxs", "pl.tile.maximums"], Some("maxs"), S_SCALAR_RHS, same_as_first, false;
    "tile.mins", Tile, ["pl.tile.mins", "pl.tile.minimums"], Some("mins"), S_SCALAR_RHS, same_as_first, false;
    "tile.ands", Tile, ["pl.tile.ands"], Some("ands"), S_SCALAR_RHS, same_as_first, false;
    "tile.ors", Tile, ["pl.tile.ors"], Some("ors"), S_SCALAR_RHS, same_as_first, false;
    "tile.xors", Tile, ["pl.tile.xors"], Some("xors"), S_XORS, same_as_first, false;
    "tile.shls", Tile, ["pl.tile.shls"], Some("shls"), S_SCALAR_RHS, same_as_first, false;
    "tile.shrs", Tile, ["pl.tile.shrs"], Some("shrs"), S_SCALAR_RHS, same_as_first, false;
    "tile.lrelu", Tile, ["pl.tile.lrelu"], Some("lrelu"),
        &[req("tile", K::Tile), req("slope", K::Scalar)], same_as_first, false;
    "tile.rem", Tile, ["pl.tile.rem"], Some("rem"), S_BINARY, same_as_first, false;
    "tile.and_", Tile, ["pl.tile.and_"], Some("and_"), S_BINARY, same_as_first, false;
    "tile.or_", Tile, ["pl.tile.or_"], Some("or_"), S_BINARY, same_as_first, false;
    "tile.xor", Tile, ["pl.tile.xor"], Some("xor"), S_XOR, same_as_first, false;
    "tile.shl", Tile, ["pl.tile.shl"], Some("shl"), S_BINARY, same_as_first, false;
    "tile.shr", Tile, ["pl.tile.shr"], Some("shr"), S_BINARY, same_as_first, false;
    "tile.not_", Tile, ["pl.tile.not_"], Some("not_"), &[req("tile", K::Tile)], same_as_first, false;
    "tile.prelu", Tile, ["pl.tile.prelu"], Some("prelu"),
        &[req("tile", K::Tile), req("slope", K::Tile), req("tmp", K::Tile)], same_as_first, false;
    "tile.addc", Tile, ["pl.tile.addc"], Some("addc"), S_TERNARY, same_as_first, false;
    "tile.subc", Tile, ["pl.tile.subc"], Some("subc"), S_TERNARY, same_as_first, false;
    "tile.addsc", Tile, ["pl.tile.addsc"], Some("addsc"), S_TERNARY_S, same_as_first, false;
    "tile.subsc", Tile, ["pl.tile.subsc"], Some("subsc"), S_TERNARY_S, same_as_first, false;
    "tile.cmp", Tile, ["pl.tile.cmp"], Some("cmp"),
        &[req("lhs", K::Tile), req("rhs", K::Tile), opt("cmp_type", K::Int)], same_as_first, false;
    "tile.cmps", Tile, ["pl.tile.cmps"], Some("cmps"),
        &[req("lhs", K::Tile), req("rhs", K::Scalar), opt("cmp_type", K::Int)], same_as_first, false;
    "tile.sel", Tile, ["pl.tile.sel"], Some("sel"),
        &[req("mask", K::Tile), req("lhs", K::Tile), req("rhs", K::Tile), req("tmp", K::Tile)], same_as_second, false;
    "tile.sels", Tile, ["pl.tile.sels"], Some("sels"),
        &[req("lhs", K::Tile), req("rhs", K::Tile), req("select_mode", K::Scalar)], same_as_first, false;
    // sorting and gathering
    "tile.sort32", Tile, ["pl.tile.sort32"], Some("sort32"), &[req("src", K::Tile), req("idx", K::Tile)], sort32, false;
    "tile.mrgsort", Tile, ["pl.tile.mrgsort"], Some("mrgsort"),
        &[req("src0", K::Tile), opt("src1", K::Tile), opt("src2", K::Tile), opt("src3", K::Tile), opt("tmp", K::Tile),
          opt_write("executed", K::Tile), opt("exhausted", K::Bool), opt("block_len", K::Scalar)],
        same_as_first, false;
    "tile.gather", Tile, ["pl.tile.gather"], Some("gather"),
        &[req("src", K::Tile), req("indices", K::Tile), req("tmp", K::Tile)], tile_gather, false;
    "tile.gather_mask", Tile, ["pl.tile.gather_mask"], None,
        &[req("src", K::Tile), req("mask_pattern", K::Any), opt("output_dtype", K::DType)], tile_gather_mask, false;

    // ---- scalars (operators are `BinOp`s, not ops)
    "scalar.cast", Scalar, ["pl.scalar.cast"], Some("cast"),
        &[req("x", K::Scalar), req("target_type", K::DType), opt("mode", K::Str)], cast, true;
    // `pl.max(a, b)` / `pl.min(a, b)` on scalars (the tile reductions share the name).
    "scalar.max", Scalar, ["pl.scalar.max"], Some("max"), &[req("lhs", K::Scalar), req("rhs", K::Scalar)], same_as_first, true;
    "scalar.min", Scalar, ["pl.scalar.min"], Some("min"), &[req("lhs", K::Scalar), req("rhs", K::Scalar)], same_as_first, true;

    // ---- arrays
    "array.create", Array, ["pl.array.create"], None, &[req("length", K::Int), req("dtype", K::DType)], array, true;
    "array.get_element", Array, ["pl.array.get_element"], None,
        &[req("array", K::Any), req("index", K::Scalar)], array_element, true;
    "array.update_element", Array, ["pl.array.update_element"], None,
        &[read_write("array", K::Any), req("index", K::Scalar), req("value", K::Scalar)], same_as_first, true;

    // ---- system
    // PyPTO's parameters are keyword-only; `core_type`/`mode` are strings ("aiv_only",
    // "soft") in the examples and `pl.KernelType`/`pl.SyncAllMode` in newer releases.
    "system.syncall", System, ["pl.system.syncall"], None,
        &[opt("core_type", K::Any), opt("mode", K::Any), opt_read_write("gm_workspace", K::Tensor),
          opt("used_cores", K::Scalar), opt("scratch", K::Tile), opt("scratch_l1", K::Tile)],
        none, false;

    // ---- optimisation entries of `pl.at(..., optimizations=[...])`
    "optimization.split", Optimization, ["pl.split"], None,
        &[req("mode", K::Enum("SplitMode")), opt("slot_num", K::Int)], unknown, true;
    "optimization.cross_core_slot", Optimization, ["pl.cross_core_slot"], None,
        &[req("slot_num", K::Int)], unknown, true;

    // ---- distributed (`pld.*`); window allocation and `world_size` are host-orchestration ops
    "pld.tensor.alloc_window_buffer", Distributed, ["pld.tensor.alloc_window_buffer", "pld.alloc_window_buffer"], None,
        &[req("size", K::Any), opt("dtype", K::DType), opt("name", K::Str)], unknown, true;
    "pld.tensor.window", Distributed, ["pld.tensor.window", "pld.window"], None,
        &[req("buf", K::Any), req("shape", K::Shape), req("dtype", K::DType)], window, true;
    "pld.system.world_size", Distributed, ["pld.system.world_size", "pld.world_size"], None, &[], int64_scalar, true;
    "pld.system.get_comm_ctx", Distributed, ["pld.system.get_comm_ctx", "pld.get_comm_ctx"], None,
        &[req("dist_tensor", K::Tensor)], unknown, false;
    "pld.system.rank", Distributed, ["pld.system.rank", "pld.rank"], None, &[req("ctx", K::Any)], int32_scalar, false;
    "pld.system.nranks", Distributed, ["pld.system.nranks", "pld.nranks"], None, &[req("ctx", K::Any)], int32_scalar, false;
    "pld.system.notify", Distributed, ["pld.system.notify"], None,
        &[read_write("target", K::Tensor), req("peer", K::Scalar), req("offsets", K::Indices), req("value", K::Scalar),
          req("op", K::Enum("NotifyOp"))],
        none, false;
    "pld.system.wait", Distributed, ["pld.system.wait"], None,
        &[req("signal", K::Tensor), req("offsets", K::Indices), req("expected", K::Scalar), req("cmp", K::Enum("WaitCmp"))],
        none, false;
    "pld.tile.remote_load", Distributed, ["pld.tile.remote_load", "pld.remote_load"], None,
        &[req("target", K::Tensor), req("peer", K::Scalar), req("offsets", K::Indices), req("shape", K::Shape),
          opt("valid_shape", K::Shape)],
        remote_load, false;
    "pld.tensor.put", Distributed, ["pld.tensor.put"], None,
        &[read_write("dst", K::Tensor), req("peer", K::Scalar), req("src", K::Tensor), opt("dst_offsets", K::Indices),
          opt("src_offsets", K::Indices), opt("shape", K::Shape), opt("atomic", K::Enum("AtomicType")),
          opt("chunk_rows", K::Int), opt("chunk_cols", K::Int), opt("pipeline", K::Bool)],
        none, false;
    "pld.tensor.get", Distributed, ["pld.tensor.get"], None,
        &[write("dst", K::Tensor), req("peer", K::Scalar), req("src", K::Tensor), opt("dst_offsets", K::Indices),
          opt("src_offsets", K::Indices), opt("shape", K::Shape), opt("chunk_rows", K::Int), opt("chunk_cols", K::Int),
          opt("pipeline", K::Bool)],
        none, false;
    // Collectives work in place on a window and return it; `signal` is the barrier window.
    "pld.tensor.allreduce", Distributed, ["pld.tensor.allreduce"], None,
        &[read_write("target", K::Tensor), opt_read_write("signal", K::Tensor), opt("op", K::Enum("ReduceOp")),
          opt("mode", K::Str), opt("core_num", K::Int)],
        same_as_first, false;
    "pld.tensor.barrier", Distributed, ["pld.tensor.barrier"], None, &[read_write("signal", K::Tensor)], same_as_first, false;
    "pld.tensor.broadcast", Distributed, ["pld.tensor.broadcast"], None,
        &[read_write("target", K::Tensor), read_write("signal", K::Tensor), req("root", K::Int)], same_as_first, false;
    "pld.tensor.allgather", Distributed, ["pld.tensor.allgather"], None,
        &[req("local_data", K::Value), write("target", K::Tensor), read_write("signal", K::Tensor)], same_as_second, false;
    "pld.tensor.reduce_scatter", Distributed, ["pld.tensor.reduce_scatter"], None,
        &[read_write("target", K::Tensor), read_write("signal", K::Tensor), opt("op", K::Enum("ReduceOp"))],
        same_as_first, false;
    "pld.tensor.all_to_all", Distributed, ["pld.tensor.all_to_all"], None,
        &[req("input", K::Tensor), write("target", K::Tensor), read_write("signal", K::Tensor)], same_as_second, false;
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

    #[test]
    fn lookup() {
        assert_eq!(by_spelling("pl.load").map(|id| id.def().name), Some("tile.load"));
        assert_eq!(by_spelling("pl.read").map(|id| id.def().name), Some("tensor.read"));
        assert_eq!(unified("add").count(), 2);
        assert_eq!(scalar_operator("mul"), Some(ScalarOp::Mul));
        assert_eq!(by_name("tile.store").unwrap().def().effect(2), Effect::Write);
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
        assert!(op("pl.load").param_index("valid_shapes").is_some());
        assert!(op("pl.load").param_index("transpose").is_some());
        assert!(op("pl.create_tensor").param_index("memory_type").is_some());
        assert!(op("pl.move").param_index("transpose").is_some());
        for k in ["mode", "core_type", "gm_workspace", "used_cores"] {
            assert!(op("pl.system.syncall").param_index(k).is_some(), "{k}");
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
        let one = Fake(vec![Some(tile(&[1, 64])), Some(tile(&[1, 64]))], vec![], vec![]);
        assert_eq!((op("pl.tile.sort32").result)(&one), Ok(tile(&[1, 128])));
        assert_eq!((op("pl.tile.transpose_view").result)(&one), Ok(tile(&[64, 1])));
        // `pl.tensor.sum(x)` keeps the last axis as 1 by default.
        let t = Type::Tensor { shape: Some(c(&[16, 128])), dtype: Some(DType::Fp32), distributed: false };
        let sum = Fake(vec![Some(t)], vec![], vec![]);
        assert_eq!(
            (op("pl.tensor.sum").result)(&sum),
            Ok(Type::Tensor { shape: Some(c(&[16, 1])), dtype: Some(DType::Fp32), distributed: false })
        );
        // `pld.window(buf, shape, dtype=...)` is a tensor view.
        let w = Fake(vec![Some(Type::Unknown)], vec![None, Some(c(&[1, 8]))], vec![None, None, Some(DType::Int32)]);
        assert_eq!(
            (op("pld.window").result)(&w),
            Ok(Type::Tensor { shape: Some(c(&[1, 8])), dtype: Some(DType::Int32), distributed: true })
        );
    }
}
