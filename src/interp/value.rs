//! The values the interpreter computes with: scalars, tuples, tensors (shared buffers seen
//! through strided views), tiles (small dense arrays with a valid region), task-id arrays.
//!
//! Floating elements are stored as `f32` whatever their dtype (FP16 and BF16 are not
//! rounded to their precision), integer and boolean elements as `i64`.

use crate::intern::Symbol;
use crate::ir::{DType, EnumValue};
use std::cell::RefCell;
use std::rc::Rc;

/// The elements of a buffer or a tile, row-major.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F32(Vec<f32>),
    I64(Vec<i64>),
}

/// The bits an element of an entry's `Out` tensor holds until something writes it: on
/// simpler such an element is undefined (it neither copies in nor zeroes an `Out` tensor).
/// A float is a quiet NaN with a payload arithmetic passes on, so a value computed from an
/// undefined element stays marked.
pub const POISON_F32_BITS: u32 = 0x7fc0_dead;
/// The integer counterpart of [`POISON_F32_BITS`].
pub const POISON_I64: i64 = i64::MIN + 0x0dea_d000;

impl Data {
    /// `n` poisoned elements of the storage `dtype` uses (see [`POISON_F32_BITS`]).
    pub fn poisoned(dtype: DType, n: usize) -> Data {
        if dtype.is_float() {
            Data::F32(vec![f32::from_bits(POISON_F32_BITS); n])
        } else {
            Data::I64(vec![POISON_I64; n])
        }
    }

    /// Replaces every poisoned element by zero; returns how many there were.
    pub fn unpoison(&mut self) -> usize {
        let mut n = 0;
        match self {
            Data::F32(v) => {
                for x in v.iter_mut().filter(|x| x.to_bits() == POISON_F32_BITS) {
                    *x = 0.0;
                    n += 1;
                }
            }
            Data::I64(v) => {
                for x in v.iter_mut().filter(|x| **x == POISON_I64) {
                    *x = 0;
                    n += 1;
                }
            }
        }
        n
    }

    /// `n` zeros of the storage `dtype` uses.
    pub fn zeros(dtype: DType, n: usize) -> Data {
        if dtype.is_float() {
            Data::F32(vec![0.0; n])
        } else {
            Data::I64(vec![0; n])
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Data::F32(v) => v.len(),
            Data::I64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Data::F32(_))
    }

    pub fn get_f(&self, i: usize) -> f64 {
        match self {
            Data::F32(v) => v[i] as f64,
            Data::I64(v) => v[i] as f64,
        }
    }

    pub fn get_i(&self, i: usize) -> i64 {
        match self {
            Data::F32(v) => float_to_int(v[i] as f64),
            Data::I64(v) => v[i],
        }
    }

    /// The element as a scalar value of its storage kind.
    pub fn get(&self, i: usize) -> Num {
        match self {
            Data::F32(v) => Num::F(v[i] as f64),
            Data::I64(v) => Num::I(v[i]),
        }
    }

    pub fn set(&mut self, i: usize, value: Num) {
        match self {
            Data::F32(v) => v[i] = value.as_f64() as f32,
            Data::I64(v) => v[i] = value.as_i64(),
        }
    }
}

/// An element, computed with: a float (as `f64`) or an integer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    F(f64),
    I(i64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::F(f) => f,
            Num::I(i) => i as f64,
        }
    }

    pub fn as_i64(self) -> i64 {
        match self {
            Num::F(f) => float_to_int(f),
            Num::I(i) => i,
        }
    }
}

/// C's conversion of a float to an integer: toward zero, saturating, NaN to 0.
pub fn float_to_int(f: f64) -> i64 {
    f as i64
}

/// A dense row-major array: a tile, or a tensor's elements gathered for a computation.
/// `valid` is the live region (a prefix of every axis); elements outside it are padding.
/// No `==`: a derived one would compare the padding too (nothing compares two anyway).
#[derive(Clone, Debug)]
pub struct Dense {
    /// The element type the program declares (`data` holds floats as `f32`, integers as `i64`).
    pub dtype: DType,
    /// The extent of each axis, padding included.
    pub shape: Vec<i64>,
    /// The live extent of each axis (at most `shape`'s).
    pub valid: Vec<i64>,
    /// Every element in row-major order: as many as `shape` holds.
    pub data: Data,
}

impl Dense {
    pub fn zeros(dtype: DType, shape: Vec<i64>) -> Dense {
        let n = element_count(&shape);
        Dense { dtype, valid: shape.clone(), shape, data: Data::zeros(dtype, n) }
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The row-major position of a multi-index.
    pub fn position(&self, index: &[i64]) -> usize {
        let mut pos = 0i64;
        for (k, &i) in index.iter().enumerate() {
            pos = pos * self.shape[k] + i;
        }
        pos as usize
    }
}

/// The number of elements of a shape (0 for a shape with a negative extent; `usize::MAX`
/// when the count does not fit).
pub fn element_count(shape: &[i64]) -> usize {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d.max(0) as usize)).unwrap_or(usize::MAX)
}

/// The row-major strides of a contiguous array of `shape`.
pub fn contiguous_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![0; shape.len()];
    let mut s = 1i64;
    for k in (0..shape.len()).rev() {
        strides[k] = s;
        s = s.saturating_mul(shape[k].max(1));
    }
    strides
}

/// Calls `f` with every multi-index of `shape` in row-major order.
pub fn for_each_index(shape: &[i64], mut f: impl FnMut(&[i64])) {
    if shape.iter().any(|&d| d <= 0) {
        return;
    }
    let mut index = vec![0i64; shape.len()];
    loop {
        f(&index);
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
}

/// A tensor: a window of a shared buffer. Views (`pl.slice`, `pl.tensor.view`,
/// `pl.transpose`) share the buffer, so a write through a view is seen by every tensor
/// over the same buffer.
#[derive(Clone, Debug)]
pub struct Tensor {
    pub buf: Rc<RefCell<Data>>,
    pub dtype: DType,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
    pub offset: i64,
    /// The valid region (PyPTO's tensor `valid_shape`) when it is smaller than the shape:
    /// set by `pl.tensor.slice(..., valid_shape=)` and `pl.tensor.set_validshape`, kept by
    /// a value computed from such a tensor; `to_dense` gives it to the ops, as a tile's.
    pub valid: Option<Vec<i64>>,
}

impl Tensor {
    /// A fresh contiguous tensor holding `data`.
    pub fn new(dtype: DType, shape: Vec<i64>, data: Data) -> Tensor {
        let strides = contiguous_strides(&shape);
        Tensor { buf: Rc::new(RefCell::new(data)), dtype, shape, strides, offset: 0, valid: None }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn len(&self) -> usize {
        element_count(&self.shape)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The buffer position of a multi-index.
    pub fn position(&self, index: &[i64]) -> usize {
        let mut pos = self.offset;
        for (k, &i) in index.iter().enumerate() {
            pos += i * self.strides[k];
        }
        pos as usize
    }

    /// The view as a kernel's DN tensor parameter reads it: from the same start, with the
    /// packed DN strides of its shape (the last two axes column-major), as the device makes
    /// its tensor view from the parameter's declared layout (the C++ `plc::as_dn_packed`).
    pub fn as_dn_packed(&self) -> Tensor {
        let n = self.rank();
        let mut t = self.clone();
        if n < 2 {
            return t;
        }
        let mut swapped = self.shape.clone();
        swapped.swap(n - 2, n - 1);
        let mut strides = contiguous_strides(&swapped);
        strides.swap(n - 2, n - 1);
        t.strides = strides;
        t
    }

    /// Whether the view covers a contiguous row-major run of its buffer.
    pub fn is_contiguous(&self) -> bool {
        let expected = contiguous_strides(&self.shape);
        self.shape.iter().zip(self.strides.iter().zip(&expected)).all(|(&d, (&s, &e))| d <= 1 || s == e)
    }

    /// The elements, gathered in row-major order.
    pub fn to_dense(&self) -> Dense {
        let buf = self.buf.borrow();
        let n = self.len();
        let data = match &*buf {
            Data::F32(v) => {
                let mut out = Vec::with_capacity(n);
                for_each_index(&self.shape, |ix| out.push(v[self.position(ix)]));
                Data::F32(out)
            }
            Data::I64(v) => {
                let mut out = Vec::with_capacity(n);
                for_each_index(&self.shape, |ix| out.push(v[self.position(ix)]));
                Data::I64(out)
            }
        };
        Dense { dtype: self.dtype, shape: self.shape.clone(), valid: self.valid_region(), data }
    }

    /// The valid extent of each axis (the shape when no region is set).
    pub fn valid_region(&self) -> Vec<i64> {
        match &self.valid {
            Some(v) if v.len() == self.shape.len() => v.iter().zip(&self.shape).map(|(&v, &d)| v.clamp(0, d)).collect(),
            _ => self.shape.clone(),
        }
    }

    /// A tensor over a fresh buffer holding a dense array (and its valid region).
    pub fn from_dense(d: Dense) -> Tensor {
        let valid = (d.valid != d.shape).then(|| d.valid.clone());
        Tensor { valid, ..Tensor::new(d.dtype, d.shape, d.data) }
    }
}

/// A value of the interpreter.
#[derive(Clone, Debug)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Symbol),
    DType(DType),
    Enum(EnumValue),
    /// Lists and tuples: shapes, offsets, several results.
    Tuple(Rc<Vec<Value>>),
    Tensor(Tensor),
    /// Tiles are shared too: ops that update a tile in place (`pl.tile.write`,
    /// `pl.tile.assemble`, `pl.matmul_acc`) change it for every holder.
    Tile(Rc<RefCell<Dense>>),
    /// `pl.array.create(n, dtype)`: updated in place.
    Array(Rc<RefCell<Vec<Value>>>),
    /// A task id (`pl.submit`, `as tid`); `-1` is the invalid id.
    TaskId(i64),
}

impl Value {
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(items))
    }

    pub fn tile(d: Dense) -> Value {
        Value::Tile(Rc::new(RefCell::new(d)))
    }

    /// What the value is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::None => "None",
            Value::Bool(_) => "a bool",
            Value::Int(_) => "an int",
            Value::Float(_) => "a float",
            Value::Str(_) => "a string",
            Value::DType(_) => "a dtype",
            Value::Enum(_) => "an enumeration value",
            Value::Tuple(_) => "a list",
            Value::Tensor(_) => "a tensor",
            Value::Tile(_) => "a tile",
            Value::Array(_) => "an array",
            Value::TaskId(_) => "a task id",
        }
    }

    /// The value as a number, when it is a scalar.
    pub fn num(&self) -> Option<Num> {
        match self {
            Value::Bool(b) => Some(Num::I(*b as i64)),
            Value::Int(i) => Some(Num::I(*i)),
            Value::Float(f) => Some(Num::F(*f)),
            Value::TaskId(t) => Some(Num::I(*t)),
            _ => None,
        }
    }
}
