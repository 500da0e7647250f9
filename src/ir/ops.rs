//! The op table: one description per `pl.*` operation. Lowering reads it to resolve names,
//! match arguments and type results; the passes read each argument's effect; the printer
//! reads the spellings; the interpreter and the emitter dispatch on [`OpId`]. No other
//! module keeps a list of op names.
//!
//! An op has an IR name (`tile.add`), the spellings that reach it (`pl.tile.add`), and
//! optionally a *unified* name (`add`): `pl.add(x, y)` is dispatched on the first
//! argument's type to `tensor.add`, `tile.add` or, for scalars, the scalar operator.

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

    pub fn effect(&self, i: usize) -> Effect {
        self.params.get(i).map_or(Effect::Read, |p| p.effect)
    }
}

/// Looks an op up by a spelling written in the source (`pl.tile.load`, `pl.load`).
pub fn by_spelling(spelling: &str) -> Option<OpId> {
    OPS.iter().position(|op| op.spellings.contains(&spelling)).map(|i| OpId(i as u16))
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
    Ok(Type::Tensor { shape: Some(shape_arg(a, 0)?), dtype: Some(dtype_arg(a, 1)?) })
}

fn tile_from_shape_dtype(a: &dyn Args) -> Result<Type, String> {
    Ok(Type::Tile {
        shape: shape_arg(a, 0)?,
        dtype: dtype_arg(a, 1)?,
        memory: Some(memory_arg(a, 2, MemorySpace::Vec)?),
    })
}

/// `pl.load(tensor, offsets, shapes, ...)`: a tile of the given shape.
fn load(a: &dyn Args) -> Result<Type, String> {
    let dtype = match a.ty(0) {
        Some(Type::Tensor { dtype, .. }) => dtype.unwrap_or(DType::Fp32),
        _ => return Err("pl.load reads from a tensor".to_string()),
    };
    let memory = memory_arg(a, 4, MemorySpace::Vec)?;
    Ok(Type::Tile { shape: shape_arg(a, 2)?, dtype, memory: Some(memory) })
}

fn with_shape(ty: &Type, shape: Vec<Dim>) -> Type {
    match ty {
        Type::Tile { dtype, memory, .. } => Type::Tile { shape, dtype: *dtype, memory: *memory },
        Type::Tensor { dtype, .. } => Type::Tensor { shape: Some(shape), dtype: *dtype },
        other => other.clone(),
    }
}

fn with_dtype(ty: &Type, dtype: DType) -> Type {
    match ty {
        Type::Tile { shape, memory, .. } => Type::Tile { shape: shape.clone(), dtype, memory: *memory },
        Type::Tensor { shape, .. } => Type::Tensor { shape: shape.clone(), dtype: Some(dtype) },
        Type::Scalar(_) => Type::Scalar(dtype),
        other => other.clone(),
    }
}

/// `reshape(x, shape)`, `slice(x, shape, offset)`: the first argument with a new shape.
fn reshaped(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    Ok(with_shape(ty, shape_arg(a, 1)?))
}

fn cast(a: &dyn Args) -> Result<Type, String> {
    let ty = a.ty(0).ok_or("missing argument")?;
    Ok(with_dtype(ty, dtype_arg(a, 1)?))
}

fn moved(a: &dyn Args) -> Result<Type, String> {
    match a.ty(0) {
        Some(Type::Tile { shape, dtype, .. }) => {
            Ok(Type::Tile { shape: shape.clone(), dtype: *dtype, memory: Some(memory_arg(a, 1, MemorySpace::Vec)?) })
        }
        _ => Err("pl.move moves a tile".to_string()),
    }
}

/// `matmul(lhs, rhs, out_dtype=None, a_trans=False, b_trans=False)`: `[M, K] x [K, N]`.
fn matmul(a: &dyn Args) -> Result<Type, String> {
    let (lhs, rhs) = (a.ty(0).ok_or("missing lhs")?, a.ty(1).ok_or("missing rhs")?);
    let dim = |ty: &Type, i: usize| ty.shape().and_then(|s| s.get(i).copied()).unwrap_or(Dim::Unknown);
    let (m, n) = (dim(lhs, 0), dim(rhs, 1));
    let dtype = a.dtype(2).or(lhs.dtype()).unwrap_or(DType::Fp32);
    Ok(match lhs {
        Type::Tile { .. } => Type::Tile { shape: vec![m, n], dtype, memory: Some(MemorySpace::Acc) },
        _ => Type::Tensor { shape: Some(vec![m, n]), dtype: Some(dtype) },
    })
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
    "tensor.create", Tensor, ["pl.create_tensor", "pl.tensor.create"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), opt("layout", K::Enum("TensorLayout")),
          opt("manual_dep", K::Bool), opt("init_value", K::Value)],
        tensor_from_shape_dtype, true;
    "tensor.full", Tensor, ["pl.full", "pl.tensor.full"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), req("value", K::Scalar)],
        tensor_from_shape_dtype, false;
    "tensor.dim", Tensor, ["pl.tensor.dim"], None,
        &[req("t", K::Tensor), req("axis", K::Int)], index_scalar, true;
    "tensor.read", Tensor, ["pl.tensor.read", "pl.read"], None,
        &[req("t", K::Tensor), req("indices", K::Indices)], element_of_first, true;
    "tensor.write", Tensor, ["pl.tensor.write", "pl.write"], None,
        &[write("t", K::Tensor), req("indices", K::Indices), req("value", K::Scalar)], none, true;
    "tensor.slice", Tensor, ["pl.tensor.slice"], Some("slice"),
        &[req("x", K::Tensor), req("shape", K::Shape), req("offset", K::Indices), opt("valid_shape", K::Shape),
          opt("drop_dims", K::Any), opt("pad_value", K::Enum("PadValue")), opt("clamp", K::Bool)],
        reshaped, true;
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

    // ---- tensor compute (unified with tiles)
    "tensor.add", Tensor, ["pl.tensor.add"], Some("add"), BINARY, same_as_first, false;
    "tensor.sub", Tensor, ["pl.tensor.sub"], Some("sub"), BINARY, same_as_first, false;
    "tensor.mul", Tensor, ["pl.tensor.mul"], Some("mul"), BINARY, same_as_first, false;
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
    "tensor.matmul", Tensor, ["pl.tensor.matmul"], Some("matmul"),
        &[req("lhs", K::Tensor), req("rhs", K::Tensor), opt("out_dtype", K::DType), opt("a_trans", K::Bool),
          opt("b_trans", K::Bool), opt("c_matrix_nz", K::Bool)],
        matmul, false;
    "tensor.row_sum", Tensor, ["pl.tensor.row_sum"], Some("row_sum"), REDUCE, row_reduce, false;
    "tensor.row_max", Tensor, ["pl.tensor.row_max"], Some("row_max"), REDUCE, row_reduce, false;
    "tensor.row_min", Tensor, ["pl.tensor.row_min"], Some("row_min"), REDUCE, row_reduce, false;
    "tensor.col_sum", Tensor, ["pl.tensor.col_sum"], Some("col_sum"), REDUCE, col_reduce, false;
    "tensor.col_max", Tensor, ["pl.tensor.col_max"], Some("col_max"), REDUCE, col_reduce, false;
    "tensor.row_expand_mul", Tensor, ["pl.tensor.row_expand_mul"], Some("row_expand_mul"), EXPAND, same_as_first, false;
    "tensor.row_expand_div", Tensor, ["pl.tensor.row_expand_div"], Some("row_expand_div"), EXPAND, same_as_first, false;
    "tensor.row_expand_sub", Tensor, ["pl.tensor.row_expand_sub"], Some("row_expand_sub"), EXPAND, same_as_first, false;
    "tensor.row_expand_add", Tensor, ["pl.tensor.row_expand_add"], Some("row_expand_add"), EXPAND, same_as_first, false;
    "tensor.col_expand_mul", Tensor, ["pl.tensor.col_expand_mul"], Some("col_expand_mul"), EXPAND, same_as_first, false;
    "tensor.concat", Tensor, ["pl.tensor.concat"], Some("concat"), BINARY, concat, false;
    "tensor.fillpad", Tensor, ["pl.tensor.fillpad"], Some("fillpad"),
        &[req("x", K::Tensor), opt("pad_value", K::Enum("PadValue"))], same_as_first, false;

    // ---- tiles: memory movement and creation
    "tile.load", Tile, ["pl.load", "pl.tile.load"], None,
        &[req("tensor", K::Tensor), req("offsets", K::Indices), req("shapes", K::Shape), opt("valid_shape", K::Shape),
          opt("target_memory", K::Enum("MemorySpace")), opt("clamp", K::Bool)],
        load, false;
    "tile.store", Tile, ["pl.store", "pl.tile.store"], None,
        &[req("tile", K::Tile), req("offsets", K::Indices), write("output_tensor", K::Tensor), opt("shapes", K::Shape),
          opt("atomic", K::Enum("AtomicType"))],
        same_as_third, false;
    "tile.create", Tile, ["pl.create_tile", "pl.tile.create"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), opt("target_memory", K::Enum("MemorySpace")), opt("transpose", K::Bool)],
        tile_from_shape_dtype, false;
    "tile.full", Tile, ["pl.tile.full"], None,
        &[req("shape", K::Shape), req("dtype", K::DType), req("value", K::Scalar)], tile_from_shape_dtype, false;
    "tile.move", Tile, ["pl.move", "pl.tile.move"], None,
        &[req("tile", K::Tile), req("target_memory", K::Enum("MemorySpace")), opt("blayout", K::Any), opt("slayout", K::Any)],
        moved, false;
    "tile.read", Tile, ["pl.tile.read"], None,
        &[req("t", K::Tile), req("indices", K::Indices)], element_of_first, false;
    "tile.write", Tile, ["pl.tile.write"], None,
        &[read_write("t", K::Tile), req("indices", K::Indices), req("value", K::Scalar)], none, false;
    "tile.slice", Tile, ["pl.tile.slice"], Some("slice"),
        &[req("x", K::Tile), req("shape", K::Shape), req("offset", K::Indices), opt("valid_shape", K::Shape),
          opt("drop_dims", K::Any), opt("pad_value", K::Enum("PadValue")), opt("clamp", K::Bool)],
        reshaped, false;
    "tile.reshape", Tile, ["pl.tile.reshape"], Some("reshape"), &[req("x", K::Tile), req("shape", K::Shape)], reshaped, false;
    "tile.transpose", Tile, ["pl.tile.transpose"], Some("transpose"),
        &[req("x", K::Tile), req("axis1", K::Int), req("axis2", K::Int), opt("tmp_tile", K::Tile)], transposed, false;
    "tile.assemble", Tile, ["pl.tile.assemble"], Some("assemble"),
        &[read_write("target", K::Tile), req("source", K::Tile), req("offset", K::Indices), opt("atomic", K::Enum("AtomicType"))],
        same_as_first, false;
    "tile.get_block_idx", Tile, ["pl.tile.get_block_idx"], None, &[], index_scalar, false;
    "tile.get_block_num", Tile, ["pl.tile.get_block_num"], None, &[], index_scalar, false;

    // ---- tile compute (unified with tensors)
    "tile.add", Tile, ["pl.tile.add"], Some("add"), BINARY, same_as_first, false;
    "tile.sub", Tile, ["pl.tile.sub"], Some("sub"), BINARY, same_as_first, false;
    "tile.mul", Tile, ["pl.tile.mul"], Some("mul"), BINARY, same_as_first, false;
    "tile.div", Tile, ["pl.tile.div"], Some("div"), DIV, same_as_first, false;
    "tile.maximum", Tile, ["pl.tile.maximum"], Some("maximum"), BINARY, same_as_first, false;
    "tile.minimum", Tile, ["pl.tile.minimum"], Some("minimum"), BINARY, same_as_first, false;
    "tile.exp", Tile, ["pl.tile.exp"], Some("exp"), UNARY_PRECISION, same_as_first, false;
    "tile.log", Tile, ["pl.tile.log"], Some("log"), UNARY_PRECISION, same_as_first, false;
    "tile.sqrt", Tile, ["pl.tile.sqrt"], Some("sqrt"), UNARY_PRECISION, same_as_first, false;
    "tile.rsqrt", Tile, ["pl.tile.rsqrt"], Some("rsqrt"), UNARY_PRECISION, same_as_first, false;
    "tile.recip", Tile, ["pl.tile.recip"], Some("recip"), UNARY_PRECISION, same_as_first, false;
    "tile.neg", Tile, ["pl.tile.neg"], Some("neg"), UNARY, same_as_first, false;
    "tile.abs", Tile, ["pl.tile.abs"], Some("abs"), UNARY, same_as_first, false;
    "tile.relu", Tile, ["pl.tile.relu"], Some("relu"), UNARY, same_as_first, false;
    "tile.cast", Tile, ["pl.tile.cast"], Some("cast"),
        &[req("x", K::Tile), req("target_type", K::DType), opt("mode", K::Str)], cast, false;
    "tile.matmul", Tile, ["pl.tile.matmul"], Some("matmul"),
        &[req("lhs", K::Tile), req("rhs", K::Tile), opt("out_dtype", K::DType)], matmul, false;
    "tile.matmul_acc", Tile, ["pl.tile.matmul_acc", "pl.matmul_acc"], None,
        &[read_write("acc", K::Tile), req("lhs", K::Tile), req("rhs", K::Tile), opt("init_cond", K::Value)],
        same_as_first, false;
    "tile.row_sum", Tile, ["pl.tile.row_sum"], Some("row_sum"), REDUCE, row_reduce, false;
    "tile.row_max", Tile, ["pl.tile.row_max"], Some("row_max"), REDUCE, row_reduce, false;
    "tile.row_min", Tile, ["pl.tile.row_min"], Some("row_min"), REDUCE, row_reduce, false;
    "tile.col_sum", Tile, ["pl.tile.col_sum"], Some("col_sum"), REDUCE, col_reduce, false;
    "tile.col_max", Tile, ["pl.tile.col_max"], Some("col_max"), REDUCE, col_reduce, false;
    "tile.row_expand_mul", Tile, ["pl.tile.row_expand_mul"], Some("row_expand_mul"), EXPAND, same_as_first, false;
    "tile.row_expand_div", Tile, ["pl.tile.row_expand_div"], Some("row_expand_div"), EXPAND, same_as_first, false;
    "tile.row_expand_sub", Tile, ["pl.tile.row_expand_sub"], Some("row_expand_sub"), EXPAND, same_as_first, false;
    "tile.row_expand_add", Tile, ["pl.tile.row_expand_add"], Some("row_expand_add"), EXPAND, same_as_first, false;
    "tile.col_expand_mul", Tile, ["pl.tile.col_expand_mul"], Some("col_expand_mul"), EXPAND, same_as_first, false;
    "tile.concat", Tile, ["pl.tile.concat"], Some("concat"), BINARY, concat, false;
    "tile.fillpad", Tile, ["pl.tile.fillpad"], Some("fillpad"),
        &[req("x", K::Tile), opt("pad_value", K::Enum("PadValue"))], same_as_first, false;

    // ---- scalars (operators are `BinOp`s, not ops)
    "scalar.cast", Scalar, ["pl.scalar.cast"], Some("cast"),
        &[req("x", K::Scalar), req("target_type", K::DType), opt("mode", K::Str)], cast, true;

    // ---- arrays
    "array.create", Array, ["pl.array.create"], None, &[req("length", K::Int), req("dtype", K::DType)], array, true;
    "array.get_element", Array, ["pl.array.get_element"], None,
        &[req("array", K::Any), req("index", K::Scalar)], array_element, true;
    "array.update_element", Array, ["pl.array.update_element"], None,
        &[read_write("array", K::Any), req("index", K::Scalar), req("value", K::Scalar)], same_as_first, true;

    // ---- system
    "system.syncall", System, ["pl.system.syncall"], None, &[], none, false;
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
                assert!(s.starts_with("pl."), "{s}");
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
}
