//! Python's scalar arithmetic: the one definition that constant folding (lowering) and the
//! interpreter share. Integers stay integral and an overflow is an error (Python's are
//! unbounded; plc's are 64-bit), `/` is true division, `//` and `%` round toward negative
//! infinity, `**` with a negative exponent gives a float, and `&`, `|`, `^` of two bools
//! give a bool. The C++ twin of these rules is `emit::py_arith`.
//!
//! The short-circuit operators `and`/`or` are not arithmetic: their callers evaluate them.

use super::BinOp;

/// A scalar result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// Why an operation has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithError {
    DivisionByZero,
    Overflow,
    NegativeShift,
    ZeroToNegativePower,
    /// A bitwise operator on floats.
    NeedsIntegers,
    /// `and`/`or`, which the caller evaluates.
    ShortCircuit,
}

impl ArithError {
    /// The message, naming the operator.
    pub fn message(self, op: BinOp) -> String {
        let op = op.spelling();
        match self {
            ArithError::DivisionByZero => format!("division by zero in `{op}`"),
            ArithError::Overflow => format!("integer overflow in `{op}`"),
            ArithError::NegativeShift => "negative shift count".to_string(),
            ArithError::ZeroToNegativePower => "0 cannot be raised to a negative power".to_string(),
            ArithError::NeedsIntegers => format!("`{op}` needs integers, not floats"),
            ArithError::ShortCircuit => format!("`{op}` is evaluated by its caller"),
        }
    }
}

/// `x op y` on integers; `bools` when both operands are bools (`&`, `|`, `^` then give a
/// bool, as Python's do).
pub fn int(op: BinOp, x: i64, y: i64, bools: bool) -> Result<Scalar, ArithError> {
    use ArithError::*;
    use BinOp::*;
    let nonzero = |y: i64| if y == 0 { Err(DivisionByZero) } else { Ok(y) };
    let int = |v: Option<i64>| v.map(Scalar::Int).ok_or(Overflow);
    match op {
        Add => int(x.checked_add(y)),
        Sub => int(x.checked_sub(y)),
        Mul => int(x.checked_mul(y)),
        Div => Ok(Scalar::Float(x as f64 / nonzero(y)? as f64)),
        FloorDiv => int(floor_div(x, nonzero(y)?)),
        Mod => Ok(Scalar::Int(floor_mod(x, nonzero(y)?))),
        Pow if y >= 0 => int(u32::try_from(y).ok().and_then(|e| x.checked_pow(e))),
        Pow if x == 0 => Err(ZeroToNegativePower),
        Pow => Ok(Scalar::Float((x as f64).powf(y as f64))),
        BitAnd | BitOr | BitXor => {
            let v = match op {
                BitAnd => x & y,
                BitOr => x | y,
                _ => x ^ y,
            };
            Ok(if bools { Scalar::Bool(v != 0) } else { Scalar::Int(v) })
        }
        // A shift that loses bits overflows, except of 0; `>>` by 64 or more gives 0 or -1.
        Shl | Shr if y < 0 => Err(NegativeShift),
        Shl if x == 0 => Ok(Scalar::Int(0)),
        Shl => int(if y >= 64 { None } else { x.checked_shl(y as u32).filter(|s| s >> y == x) }),
        Shr => Ok(Scalar::Int(if y >= 64 { x >> 63 } else { x >> y })),
        And | Or => Err(ShortCircuit),
        Eq | Ne | Lt | Le | Gt | Ge => Ok(Scalar::Bool(compare(op, &x, &y) == Some(true))),
    }
}

/// `x op y` on floats (an integer operand converted).
pub fn float(op: BinOp, x: f64, y: f64) -> Result<Scalar, ArithError> {
    use ArithError::*;
    use BinOp::*;
    let nonzero = |y: f64| if y == 0.0 { Err(DivisionByZero) } else { Ok(y) };
    Ok(Scalar::Float(match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div => x / nonzero(y)?,
        FloorDiv => float_floor_div_mod(x, nonzero(y)?).0,
        Mod => float_floor_div_mod(x, nonzero(y)?).1,
        Pow => x.powf(y),
        BitAnd | BitOr | BitXor | Shl | Shr => return Err(NeedsIntegers),
        And | Or => return Err(ShortCircuit),
        Eq | Ne | Lt | Le | Gt | Ge => return Ok(Scalar::Bool(compare(op, &x, &y) == Some(true))),
    }))
}

/// A comparison operator applied; `None` for the other operators.
pub fn compare<T: PartialOrd>(op: BinOp, x: &T, y: &T) -> Option<bool> {
    Some(match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => return None,
    })
}

/// Python's `//` on integers; `None` when it overflows (`i64::MIN // -1`).
pub fn floor_div(x: i64, y: i64) -> Option<i64> {
    let q = x.checked_div(y)?;
    Some(if (x % y != 0) && ((x < 0) != (y < 0)) { q - 1 } else { q })
}

/// Python's `%` on integers: the sign of the divisor.
pub fn floor_mod(x: i64, y: i64) -> i64 {
    let r = x.wrapping_rem(y);
    if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    }
}

/// Python's `divmod` on floats.
pub fn float_floor_div_mod(x: f64, y: f64) -> (f64, f64) {
    let mut m = x % y;
    let mut div = (x - m) / y;
    if m != 0.0 {
        if (y < 0.0) != (m < 0.0) {
            m += y;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(y);
    }
    let q = if div != 0.0 {
        let mut q = div.floor();
        if div - q > 0.5 {
            q += 1.0;
        }
        q
    } else {
        0.0f64.copysign(x / y)
    };
    (q, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_division_rounds_toward_negative_infinity() {
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(floor_div(7, -2), Some(-4));
        assert_eq!(floor_div(i64::MIN, -1), None);
        assert_eq!(floor_mod(-7, 2), 1);
        assert_eq!(floor_mod(7, -2), -1);
        assert_eq!(floor_mod(i64::MIN, -1), 0);
        assert_eq!(float_floor_div_mod(-7.5, 2.0), (-4.0, 0.5));
        assert_eq!(float(BinOp::Mod, -0.0, 2.0), Ok(Scalar::Float(0.0)));
    }

    #[test]
    fn integers_stay_integral_and_overflow_is_an_error() {
        assert_eq!(int(BinOp::Div, 7, 2, false), Ok(Scalar::Float(3.5)));
        assert_eq!(int(BinOp::FloorDiv, 1, 0, false), Err(ArithError::DivisionByZero));
        assert_eq!(int(BinOp::Mul, i64::MAX, 2, false), Err(ArithError::Overflow));
        assert_eq!(int(BinOp::Pow, 2, -1, false), Ok(Scalar::Float(0.5)));
        assert_eq!(int(BinOp::Pow, 0, -1, false), Err(ArithError::ZeroToNegativePower));
        assert_eq!(int(BinOp::Shl, 1, 63, false), Err(ArithError::Overflow));
        assert_eq!(int(BinOp::Shr, -5, 70, false), Ok(Scalar::Int(-1)));
        assert_eq!(int(BinOp::BitAnd, 1, 1, true), Ok(Scalar::Bool(true)));
        assert_eq!(int(BinOp::Le, 3, 3, false), Ok(Scalar::Bool(true)));
        assert_eq!(float(BinOp::BitOr, 1.0, 2.0), Err(ArithError::NeedsIntegers));
    }
}
