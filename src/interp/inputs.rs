//! The inputs `plc run` gives a program and the lines it prints afterwards. The C++ harness
//! of `plc compile --harness` must reproduce both byte for byte, so the same generator and
//! printer exist in C++ as `plc_inputs.h` ([`PLC_INPUTS_H`]); a test compiles it and
//! compares the two.
//!
//! - Values come from one splitmix64 stream whose state starts at the seed. Tensors are
//!   filled in parameter order, elements in row-major order, one draw per element; only
//!   `In` and `InOut` tensors are filled (an `Out` tensor draws nothing; the interpreter
//!   poisons it, and elements the run never wrote print as zeros).
//! - A tensor given its elements (`--arg config=[1, 16]`, [`TensorArg::Values`]) takes
//!   them as they are and draws nothing; the harness writes them into its source.
//! - A floating element is `((x >> 54) - 512) / 256` (multiples of 1/256 in [-2, 2), so sums
//!   stay exact), an integer element `(x >> 60) - 8`, a `BOOL` element `x >> 63`.
//! - After the run, each `Out`/`InOut` tensor parameter prints one line:
//!   `{name}: shape=[{d0}, {d1}] dtype={DTYPE} sum={sum:.6} abs_sum={abs_sum:.6}`, the sums
//!   taken in `f64` over the elements in row-major order and written as C's `%.6f`.

use super::value::Data;
use crate::ir::DType;

/// The C++ twin of this module, for the harness of the emitted code.
pub const PLC_INPUTS_H: &str = include_str!("plc_inputs.h");

/// The splitmix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    pub state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A floating element: a multiple of 1/256 in [-2, 2).
    pub fn draw_float(&mut self) -> f32 {
        (((self.next_u64() >> 54) as i64 - 512) as f64 / 256.0) as f32
    }

    /// An integer element in [-8, 7].
    pub fn draw_int(&mut self) -> i64 {
        (self.next_u64() >> 60) as i64 - 8
    }

    /// A `BOOL` element: 0 or 1.
    pub fn draw_bool(&mut self) -> i64 {
        (self.next_u64() >> 63) as i64
    }
}

/// How elements of a dtype are drawn and stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementKind {
    Float,
    Int,
    Bool,
}

impl ElementKind {
    pub fn of(dtype: DType) -> ElementKind {
        if dtype.is_float() {
            ElementKind::Float
        } else if dtype == DType::Bool {
            ElementKind::Bool
        } else {
            ElementKind::Int
        }
    }
}

/// `n` elements of `dtype` drawn from `rng`.
pub fn draw(rng: &mut SplitMix64, dtype: DType, n: usize) -> Data {
    match ElementKind::of(dtype) {
        ElementKind::Float => Data::F32((0..n).map(|_| rng.draw_float()).collect()),
        ElementKind::Int => Data::I64((0..n).map(|_| rng.draw_int()).collect()),
        ElementKind::Bool => Data::I64((0..n).map(|_| rng.draw_bool()).collect()),
    }
}

/// What `--arg NAME=TEXT` gives a tensor parameter: its shape (and dtype), whose elements
/// are then drawn from the stream, or its elements themselves, which draw nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorArg {
    /// `64x32`, `64x32:FP16`, `128` (rank 1); an empty shape before `:` is rank 0.
    Shape(Vec<i64>, Option<DType>),
    /// `[1, 16, 0.5]`: the elements in row-major order.
    Values(Vec<ArgNumber>),
}

/// One element given in `--arg NAME=[...]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgNumber {
    Int(i64),
    Float(f64),
}

impl ArgNumber {
    /// The element as `dtype` stores it in the interpreter (floats as `f64` here, rounded
    /// to the dtype by the caller), or why it is not a value of `dtype`.
    pub fn element(self, dtype: DType) -> Result<ElementValue, String> {
        match (ElementKind::of(dtype), self) {
            (ElementKind::Float, ArgNumber::Int(i)) => Ok(ElementValue::Float(i as f64)),
            (ElementKind::Float, ArgNumber::Float(f)) => Ok(ElementValue::Float(f)),
            (ElementKind::Int, ArgNumber::Int(i)) => Ok(ElementValue::Int(i)),
            (ElementKind::Bool, ArgNumber::Int(i @ (0 | 1))) => Ok(ElementValue::Int(i)),
            (ElementKind::Bool, _) => Err(format!("a {dtype} element is 0 or 1")),
            (ElementKind::Int, ArgNumber::Float(f)) => Err(format!("`{f}` is not an integer, as {dtype} needs")),
        }
    }
}

/// An element of a given tensor, as its dtype's kind stores it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ElementValue {
    Int(i64),
    Float(f64),
}

/// Parses a tensor's `--arg` text; `Err` says what is wrong with it.
pub fn parse_tensor_arg(text: &str) -> Result<TensorArg, String> {
    let t = text.trim();
    if let Some(body) = t.strip_prefix('[') {
        let body = body.strip_suffix(']').ok_or("a list of elements ends with `]`")?;
        let mut values = Vec::new();
        for item in body.split(',').map(str::trim) {
            if item.is_empty() {
                // `[]` and a trailing comma, as Python allows.
                continue;
            }
            let number = if let Ok(i) = item.parse::<i64>() {
                ArgNumber::Int(i)
            } else {
                match item {
                    "true" | "True" => ArgNumber::Int(1),
                    "false" | "False" => ArgNumber::Int(0),
                    _ => match item.parse::<f64>() {
                        Ok(f) if f.is_finite() => ArgNumber::Float(f),
                        _ => return Err(format!("`{item}` is not a finite number")),
                    },
                }
            };
            values.push(number);
        }
        return Ok(TensorArg::Values(values));
    }
    let (dims, dtype) = match t.split_once(':') {
        Some((dims, dtype)) => {
            let d = DType::from_name(dtype.trim()).ok_or_else(|| format!("`{dtype}` is not a dtype"))?;
            (dims, Some(d))
        }
        None => (t, None),
    };
    let dims = dims.trim();
    let shape = if dims.is_empty() {
        Vec::new()
    } else {
        dims.split(['x', 'X'])
            .map(|d| d.trim().parse::<i64>().ok().filter(|&n| n >= 0).ok_or_else(|| format!("`{d}` is not an extent")))
            .collect::<Result<Vec<_>, _>>()?
    };
    Ok(TensorArg::Shape(shape, dtype))
}

/// A number as C's `printf("%.6f")` writes it (`nan`, `inf`, `-inf` for the others).
pub fn format_fixed6(v: f64) -> String {
    if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        // Rust writes the exact decimal expansion rounded half to even, as glibc does.
        format!("{v:.6}")
    }
}

/// The output line of one tensor, from its elements in row-major order.
pub fn checksum_line(name: &str, shape: &[i64], dtype: DType, data: &Data) -> String {
    let (mut sum, mut abs_sum) = (0.0f64, 0.0f64);
    match data {
        Data::F32(v) => {
            for &x in v {
                sum += x as f64;
                abs_sum += (x as f64).abs();
            }
        }
        Data::I64(v) => {
            for &x in v {
                sum += x as f64;
                abs_sum += (x as f64).abs();
            }
        }
    }
    let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
    format!(
        "{name}: shape=[{}] dtype={} sum={} abs_sum={}",
        dims.join(", "),
        dtype.name(),
        format_fixed6(sum),
        format_fixed6(abs_sum)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs of splitmix64 seeded with 0 (the published reference values).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..1000 {
            let f = rng.draw_float();
            assert!((-2.0..2.0).contains(&f) && (f * 256.0).fract() == 0.0);
            assert!((-8..=7).contains(&rng.draw_int()));
            assert!((0..=1).contains(&rng.draw_bool()));
        }
    }

    #[test]
    fn tensor_args() {
        assert_eq!(parse_tensor_arg("64x32:FP16"), Ok(TensorArg::Shape(vec![64, 32], Some(DType::Fp16))));
        assert_eq!(parse_tensor_arg(":INT32"), Ok(TensorArg::Shape(vec![], Some(DType::Int32))));
        assert_eq!(
            parse_tensor_arg(" [1, -2, 0.5, true,] "),
            Ok(TensorArg::Values(vec![
                ArgNumber::Int(1),
                ArgNumber::Int(-2),
                ArgNumber::Float(0.5),
                ArgNumber::Int(1)
            ]))
        );
        assert_eq!(parse_tensor_arg("[]"), Ok(TensorArg::Values(vec![])));
        assert!(parse_tensor_arg("[1, 2").is_err());
        assert!(parse_tensor_arg("[1, inf]").is_err());
        assert!(parse_tensor_arg("64xq").is_err());
        assert!(parse_tensor_arg("4:FP99").is_err());
        assert_eq!(ArgNumber::Float(0.5).element(DType::Int32).map_err(|_| ()), Err(()));
        assert_eq!(ArgNumber::Int(2).element(DType::Bool).map_err(|_| ()), Err(()));
        assert_eq!(ArgNumber::Int(3).element(DType::Fp32), Ok(ElementValue::Float(3.0)));
    }

    #[test]
    fn line_format() {
        let data = Data::F32(vec![0.5, -0.25, 1.0 / 256.0]);
        assert_eq!(
            checksum_line("acc", &[1, 3], DType::Fp32, &data),
            "acc: shape=[1, 3] dtype=FP32 sum=0.253906 abs_sum=0.753906"
        );
        assert_eq!(format_fixed6(0.0078125), "0.007812");
        assert_eq!(format_fixed6(-1e-9), "-0.000000");
        assert_eq!(format_fixed6(f64::NAN), "nan");
        assert_eq!(
            checksum_line("n", &[], DType::Int32, &Data::I64(vec![-3])),
            "n: shape=[] dtype=INT32 sum=-3.000000 abs_sum=3.000000"
        );
    }
}
