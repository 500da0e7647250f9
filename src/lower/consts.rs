//! Compile-time values: module constants and the constant parts of pl code (shapes,
//! bounds, dtypes, enums). Module constants are folded when they are defined; a name that
//! refers to one in a pl function becomes a literal.

use crate::intern::{Interner, Symbol};
use crate::ir::print::format_float;
use crate::ir::{DType, EnumValue};

/// A value known at compile time.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(Symbol),
    None,
    List(Vec<Const>),
    Tuple(Vec<Const>),
    /// A dict literal, `{"fp32": pl.FP32}`, in source order; read by constant keys.
    Dict(Vec<(Const, Const)>),
    DType(DType),
    Enum(EnumValue),
    /// `pl.dynamic("N")`.
    Dyn(Symbol),
    /// A value of an outside library (`DataType.FP32` of a test harness), known only by its
    /// spelling: a dict's key or the key that reads one (`{DataType.FP32: pl.FP32}`,
    /// `TABLE[DataType.FP32]`); pl code cannot use it as a value.
    Host(Symbol),
}

impl Const {
    pub fn describe(&self, names: &Interner) -> String {
        match self {
            Const::Int(v) => v.to_string(),
            Const::Float(v) => format_float(*v),
            Const::Bool(true) => "True".to_string(),
            Const::Bool(false) => "False".to_string(),
            Const::Str(s) => format!("{:?}", names.get(*s)),
            Const::None => "None".to_string(),
            Const::List(items) => {
                format!("[{}]", items.iter().map(|c| c.describe(names)).collect::<Vec<_>>().join(", "))
            }
            Const::Tuple(items) => {
                format!("({})", items.iter().map(|c| c.describe(names)).collect::<Vec<_>>().join(", "))
            }
            Const::Dict(items) => format!(
                "{{{}}}",
                items
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.describe(names), v.describe(names)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Const::DType(d) => format!("pl.{d}"),
            Const::Enum(e) => e.spelling(),
            Const::Dyn(n) => format!("pl.dynamic({:?})", names.get(*n)),
            Const::Host(n) => names.get(*n).to_string(),
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            Const::Int(_) => "int",
            Const::Float(_) => "float",
            Const::Bool(_) => "bool",
            Const::Str(_) => "str",
            Const::None => "None",
            Const::List(_) => "list",
            Const::Tuple(_) => "tuple",
            Const::Dict(_) => "dict",
            Const::DType(_) => "dtype",
            Const::Enum(_) => "enum",
            Const::Dyn(_) => "dynamic dimension",
            Const::Host(_) => "outside-library value",
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Const::Int(v) => Some(*v),
            Const::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Const::Int(v) => Some(*v as f64),
            Const::Float(v) => Some(*v),
            Const::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    pub fn truthy(&self) -> Option<bool> {
        Some(match self {
            Const::Int(v) => *v != 0,
            Const::Float(v) => *v != 0.0,
            Const::Bool(b) => *b,
            Const::None => false,
            Const::List(items) | Const::Tuple(items) => !items.is_empty(),
            Const::Dict(items) => !items.is_empty(),
            _ => return None,
        })
    }
}

/// The arithmetic of constant folding, with Python's semantics (floor division and modulo
/// round towards negative infinity; `/` gives a float). `None` when the operation does not
/// apply or overflows; the caller reports it.
pub fn binary(op: crate::ir::BinOp, a: &Const, b: &Const) -> Option<Const> {
    use crate::ir::arith::{self, Scalar};
    use crate::ir::BinOp::*;
    if let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) {
        let result = match (int_of(a), int_of(b)) {
            _ if matches!(op, And | Or) => {
                return Some(Const::Bool(if op == And { x != 0.0 && y != 0.0 } else { x != 0.0 || y != 0.0 }))
            }
            (Some(x), Some(y)) => arith::int(op, x, y, matches!((a, b), (Const::Bool(_), Const::Bool(_)))),
            _ => arith::float(op, x, y),
        };
        return result.ok().map(|v| match v {
            Scalar::Int(v) => Const::Int(v),
            Scalar::Float(v) => Const::Float(v),
            Scalar::Bool(v) => Const::Bool(v),
        });
    }
    match (op, a, b) {
        (Add, Const::List(x), Const::List(y)) => Some(Const::List(x.iter().chain(y).cloned().collect())),
        (Add, Const::Tuple(x), Const::Tuple(y)) => Some(Const::Tuple(x.iter().chain(y).cloned().collect())),
        (Eq, x, y) => Some(Const::Bool(x == y)),
        (Ne, x, y) => Some(Const::Bool(x != y)),
        _ => None,
    }
}

/// Python's `item in container` for a constant list, tuple (an equal element) or dict (an
/// equal key); `None` for another container.
pub fn contains(container: &Const, item: &Const) -> Option<bool> {
    match container {
        Const::List(items) | Const::Tuple(items) => {
            Some(items.iter().any(|x| binary(crate::ir::BinOp::Eq, x, item) == Some(Const::Bool(true))))
        }
        Const::Dict(entries) => {
            Some(entries.iter().any(|(k, _)| binary(crate::ir::BinOp::Eq, k, item) == Some(Const::Bool(true))))
        }
        _ => None,
    }
}

/// `table[key]` for a constant list, tuple (an integer index, negative from the end) or
/// dict (an equal key); `None` when there is no such entry.
pub fn lookup(table: &Const, key: &Const) -> Option<Const> {
    match (table, key.as_int()) {
        (Const::List(items) | Const::Tuple(items), Some(i)) if !matches!(key, Const::Float(_)) => {
            let len = items.len() as i64;
            let idx = if i < 0 { i + len } else { i };
            items.get(usize::try_from(idx).ok()?).cloned()
        }
        (Const::Dict(entries), _) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
        _ => None,
    }
}

fn int_of(c: &Const) -> Option<i64> {
    match c {
        Const::Int(v) => Some(*v),
        Const::Bool(b) => Some(i64::from(*b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BinOp;

    #[test]
    fn python_arithmetic() {
        assert_eq!(binary(BinOp::FloorDiv, &Const::Int(-7), &Const::Int(2)), Some(Const::Int(-4)));
        assert_eq!(binary(BinOp::Mod, &Const::Int(-7), &Const::Int(2)), Some(Const::Int(1)));
        assert_eq!(binary(BinOp::Div, &Const::Int(7), &Const::Int(2)), Some(Const::Float(3.5)));
        assert_eq!(binary(BinOp::Pow, &Const::Int(2), &Const::Int(10)), Some(Const::Int(1024)));
        assert_eq!(binary(BinOp::FloorDiv, &Const::Int(1), &Const::Int(0)), None);
        assert_eq!(binary(BinOp::Mul, &Const::Int(i64::MAX), &Const::Int(2)), None);
        assert_eq!(format_float(1.0), "1.0");
        assert_eq!(format_float(0.5), "0.5");
        assert_eq!(format_float(1e-6), "0.000001");
        assert_eq!(format_float(f64::INFINITY), "float(\"inf\")");
        assert_eq!(format_float(f64::NEG_INFINITY), "float(\"-inf\")");
        assert_eq!(format_float(f64::NAN), "float(\"nan\")");
    }
}
