//! Types, interned: each distinct type is stored once and named by a [`TypeId`], so that
//! types compare and copy as integers.

use super::enums::{DType, Layout, MemorySpace};
use super::VarId;
use crate::intern::Symbol;
use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

/// One extent of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Const(i64),
    /// A `pl.dynamic("N")` dimension, known at run time.
    Dyn(Symbol),
    /// An extent held by a scalar variable of the function.
    Var(VarId),
    /// An extent computed from others, known only at run time.
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(DType),
    /// A tensor in global memory. `shape` and `dtype` are `None` for a bare `pl.Tensor`
    /// parameter: rank, extents and element type come from the argument at run time.
    Tensor {
        shape: Option<Vec<Dim>>,
        dtype: Option<DType>,
        /// A `pld.DistributedTensor`: a window that every rank of a distributed program can
        /// reach. It may stand where a plain tensor is expected, not the other way round.
        distributed: bool,
        /// How the elements are laid out in memory (`pl.ND`, the default, or the layout an
        /// annotation, `tensor.create(layout=)`, `tensor.view(layout=)` or
        /// `tensor.as_layout` gives). PyPTO keeps it in the type's TensorView; some ops
        /// refuse some layouts (a reshape of an MX tensor, a view of an NZ one).
        layout: Layout,
    },
    /// A tile in on-chip memory.
    Tile {
        shape: Vec<Dim>,
        dtype: DType,
        memory: Option<MemorySpace>,
    },
    Tuple(Vec<TypeId>),
    /// `pl.Array[N, dtype]`: a small array of scalars.
    Array {
        len: u32,
        dtype: DType,
    },
    /// An opaque handle of asynchronous prefetch (`pl.prefetch.*`).
    Handle(Handle),
    /// The result of something that produces no value.
    None,
    /// Not known yet (for example before a callee's body has been lowered).
    Unknown,
}

impl Type {
    /// A plain row-major (ND) tensor of a known shape and dtype.
    pub fn tensor(shape: Vec<Dim>, dtype: DType) -> Type {
        Type::Tensor { shape: Some(shape), dtype: Some(dtype), distributed: false, layout: Layout::Nd }
    }

    /// The layout of a tensor; `None` for other types.
    pub fn layout(&self) -> Option<Layout> {
        match self {
            Type::Tensor { layout, .. } => Some(*layout),
            _ => None,
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }

    pub fn is_tensor(&self) -> bool {
        matches!(self, Type::Tensor { .. })
    }

    pub fn is_tile(&self) -> bool {
        matches!(self, Type::Tile { .. })
    }

    /// Tensors and tiles.
    pub fn is_shaped(&self) -> bool {
        self.is_tensor() || self.is_tile()
    }

    pub fn dtype(&self) -> Option<DType> {
        match self {
            Type::Scalar(d) | Type::Tile { dtype: d, .. } | Type::Array { dtype: d, .. } => Some(*d),
            Type::Tensor { dtype, .. } => *dtype,
            _ => None,
        }
    }

    pub fn shape(&self) -> Option<&[Dim]> {
        match self {
            Type::Tensor { shape: Some(s), .. } | Type::Tile { shape: s, .. } => Some(s),
            _ => None,
        }
    }

    /// How the type is named in messages: `Tensor`, `Tile`, `Scalar[INDEX]`, ...
    pub fn kind_name(&self) -> String {
        match self {
            Type::Scalar(d) => format!("Scalar[{d}]"),
            Type::Tensor { distributed: true, .. } => "DistributedTensor".to_string(),
            Type::Tensor { .. } => "Tensor".to_string(),
            Type::Tile { .. } => "Tile".to_string(),
            Type::Tuple(items) => format!("a tuple of {}", items.len()),
            Type::Array { .. } => "Array".to_string(),
            Type::Handle(h) => h.name().to_string(),
            Type::None => "no value".to_string(),
            Type::Unknown => "an unknown type".to_string(),
        }
    }
}

/// The opaque handles: those of asynchronous prefetch, what `pl.prefetch.make_context()`,
/// `async_prefetch(src, ctx)` and `session(ctx)` return (PyPTO's singleton types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Handle {
    PrefetchContext,
    AsyncEvent,
    AsyncSession,
    /// A communication context: what `pld.get_comm_ctx(dist_tensor)` returns and
    /// `pld.rank(ctx)` / `pld.nranks(ctx)` read.
    CommCtx,
}

impl Handle {
    /// PyPTO's name of the type (`pl.PrefetchAsyncContext`, without the prefix).
    pub fn name(self) -> &'static str {
        match self {
            Handle::PrefetchContext => "PrefetchAsyncContext",
            Handle::AsyncEvent => "AsyncEvent",
            Handle::AsyncSession => "AsyncSession",
            Handle::CommCtx => "CommCtx",
        }
    }

    /// The module PyPTO spells the type in (`pl.AsyncEvent`, `pld.CommCtx`).
    pub fn module(self) -> &'static str {
        match self {
            Handle::CommCtx => "pld",
            _ => "pl",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId(pub u32);

/// The type interner of a program.
#[derive(Clone, Debug)]
pub struct Types {
    /// The frozen table a fork of the program's arenas reads (`super::fork`): its types
    /// keep their ids, and the types interned since are numbered after them.
    base: Option<std::sync::Arc<Types>>,
    /// The number of types in `base`.
    base_len: u32,
    set: IndexSet<Type, FxBuildHasher>,
    /// The id of each scalar type interned so far, by dtype (lowering asks for one per
    /// literal and per scalar value: an array look-up instead of hashing the type).
    scalars: [Option<TypeId>; DType::ALL.len()],
}

impl Default for Types {
    fn default() -> Self {
        let mut types = Types { base: None, base_len: 0, set: IndexSet::default(), scalars: [None; DType::ALL.len()] };
        // Fixed ids for the two most common answers.
        types.intern(Type::Unknown);
        types.intern(Type::None);
        types
    }
}

impl Types {
    pub const UNKNOWN: TypeId = TypeId(0);
    pub const NONE: TypeId = TypeId(1);

    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(base) = &self.base {
            if let Some(i) = base.set.get_index_of(&ty) {
                return TypeId(i as u32);
            }
        }
        if let Some(i) = self.set.get_index_of(&ty) {
            return TypeId(self.base_len + i as u32);
        }
        TypeId(self.base_len + self.set.insert_full(ty).0 as u32)
    }

    #[inline]
    pub fn get(&self, id: TypeId) -> &Type {
        match self.set.get_index(id.0.wrapping_sub(self.base_len) as usize) {
            Some(ty) => ty,
            None => self.base_type(id),
        }
    }

    /// A type of the base of a fork (or an id past the end, which panics as an index does).
    #[cold]
    #[inline(never)]
    fn base_type(&self, id: TypeId) -> &Type {
        match &self.base {
            Some(b) if id.0 < self.base_len => b.get(id),
            _ => &self.set[id.0.wrapping_sub(self.base_len) as usize],
        }
    }

    /// The number of types.
    pub(crate) fn len(&self) -> usize {
        self.base_len as usize + self.set.len()
    }

    /// A table that reads `base` and numbers the types it interns after `base`'s.
    pub(crate) fn forked(base: &std::sync::Arc<Types>) -> Types {
        let base_len = base.len() as u32;
        Types { base: Some(base.clone()), base_len, set: IndexSet::default(), scalars: base.scalars }
    }

    /// The types interned since the fork, in order (ids from the base's length on); the
    /// base is released.
    pub(crate) fn into_own(self) -> Vec<Type> {
        self.set.into_iter().collect()
    }

    pub fn scalar(&mut self, dtype: DType) -> TypeId {
        if let Some(id) = self.scalars[dtype as usize] {
            return id;
        }
        let id = self.intern(Type::Scalar(dtype));
        self.scalars[dtype as usize] = Some(id);
        id
    }
}
