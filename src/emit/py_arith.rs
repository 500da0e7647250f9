//! Python's integer arithmetic in orchestration C++, as `plc run` computes it: an
//! overflow of 64 bits, a division by zero or a negative shift count is an error (the C++
//! prints it and aborts: the run fails, as `plc run` fails), `//` and `%` round toward
//! negative infinity, `**` is exact, `<<` by 64 or more overflows unless the value is 0,
//! `>>` by 64 or more gives 0 or -1. Each helper is a `static inline` function written
//! into the orchestration file that calls it, before its first use, so that the file
//! needs nothing from the runtime.

/// The helpers, each with the names of the helpers it calls (written before it).
const HELPERS: &[(&str, &[&str], &str)] = &[
    (
        // The right operand of a comparison of a value with itself (`m != m`, after an
        // alias): Python computes it, and C++ compilers flag it (-Wtautological-compare).
        "plc_py_same",
        &[],
        "template <typename T>\nstatic inline T plc_py_same(T x) {\n    return x;\n}\n",
    ),
    (
        "plc_py_fail",
        &[],
        "[[noreturn]] static inline void plc_py_fail(const char* what) {\n    fprintf(stderr, \"plc: %s\\n\", what);\n    fflush(stderr);\n    abort();\n}\n",
    ),
    (
        "plc_py_add",
        &["plc_py_fail"],
        "static inline int64_t plc_py_add(int64_t a, int64_t b) {\n    int64_t r;\n    if (__builtin_add_overflow(a, b, &r)) plc_py_fail(\"integer overflow in `+`\");\n    return r;\n}\n",
    ),
    (
        "plc_py_sub",
        &["plc_py_fail"],
        "static inline int64_t plc_py_sub(int64_t a, int64_t b) {\n    int64_t r;\n    if (__builtin_sub_overflow(a, b, &r)) plc_py_fail(\"integer overflow in `-`\");\n    return r;\n}\n",
    ),
    (
        "plc_py_mul",
        &["plc_py_fail"],
        "static inline int64_t plc_py_mul(int64_t a, int64_t b) {\n    int64_t r;\n    if (__builtin_mul_overflow(a, b, &r)) plc_py_fail(\"integer overflow in `*`\");\n    return r;\n}\n",
    ),
    (
        "plc_py_neg",
        &["plc_py_fail"],
        "static inline int64_t plc_py_neg(int64_t a) {\n    if (a == INT64_MIN) plc_py_fail(\"integer overflow in `-`\");\n    return -a;\n}\n",
    ),
    (
        "plc_py_truediv",
        &["plc_py_fail"],
        "static inline double plc_py_truediv(double a, double b) {\n    if (b == 0.0) plc_py_fail(\"division by zero in `/`\");\n    return a / b;\n}\n",
    ),
    (
        "plc_py_floordiv",
        &["plc_py_fail"],
        "static inline int64_t plc_py_floordiv(int64_t a, int64_t b) {\n    if (b == 0) plc_py_fail(\"division by zero in `//`\");\n    if (a == INT64_MIN && b == -1) plc_py_fail(\"integer overflow in `//`\");\n    int64_t q = a / b;\n    if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;\n    return q;\n}\n",
    ),
    (
        "plc_py_mod",
        &["plc_py_fail"],
        "static inline int64_t plc_py_mod(int64_t a, int64_t b) {\n    if (b == 0) plc_py_fail(\"division by zero in `%`\");\n    if (b == -1) return 0;\n    int64_t r = a % b;\n    if (r != 0 && ((r < 0) != (b < 0))) r += b;\n    return r;\n}\n",
    ),
    (
        "plc_py_ffloordiv",
        &["plc_py_fail"],
        "static inline double plc_py_ffloordiv(double a, double b) {\n    if (b == 0.0) plc_py_fail(\"division by zero in `//`\");\n    double m = std::fmod(a, b);\n    double div = (a - m) / b;\n    if (m != 0.0 && ((b < 0.0) != (m < 0.0))) div -= 1.0;\n    if (div == 0.0) return std::copysign(0.0, a / b);\n    double q = std::floor(div);\n    return div - q > 0.5 ? q + 1.0 : q;\n}\n",
    ),
    (
        "plc_py_fmod",
        &["plc_py_fail"],
        "static inline double plc_py_fmod(double a, double b) {\n    if (b == 0.0) plc_py_fail(\"division by zero in `%`\");\n    double m = std::fmod(a, b);\n    if (m == 0.0) return std::copysign(0.0, b);\n    return (b < 0.0) != (m < 0.0) ? m + b : m;\n}\n",
    ),
    (
        "plc_py_extent",
        &["plc_py_fail"],
        "static inline uint32_t plc_py_extent(int64_t v) {\n    if (v < 0) plc_py_fail(\"negative offset or extent\");\n    if (v > (int64_t)UINT32_MAX) plc_py_fail(\"offset or extent beyond 2**32 - 1\");\n    return (uint32_t)v;\n}\n",
    ),
    (
        "plc_py_pow",
        &["plc_py_fail"],
        "static inline int64_t plc_py_pow(int64_t base, int64_t e) {\n    if (e < 0) plc_py_fail(\"an integer raised to a negative power in `**`\");\n    int64_t r = 1;\n    while (e > 0) {\n        if ((e & 1) != 0 && __builtin_mul_overflow(r, base, &r)) plc_py_fail(\"integer overflow in `**`\");\n        e >>= 1;\n        if (e > 0 && __builtin_mul_overflow(base, base, &base)) plc_py_fail(\"integer overflow in `**`\");\n    }\n    return r;\n}\n",
    ),
    (
        "plc_py_shl",
        &["plc_py_fail"],
        "static inline int64_t plc_py_shl(int64_t a, int64_t b) {\n    if (b < 0) plc_py_fail(\"negative shift count in `<<`\");\n    if (a == 0) return 0;\n    if (b >= 64) plc_py_fail(\"integer overflow in `<<`\");\n    int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);\n    if ((r >> b) != a) plc_py_fail(\"integer overflow in `<<`\");\n    return r;\n}\n",
    ),
    (
        "plc_py_shr",
        &["plc_py_fail"],
        "static inline int64_t plc_py_shr(int64_t a, int64_t b) {\n    if (b < 0) plc_py_fail(\"negative shift count in `>>`\");\n    if (b >= 64) return a < 0 ? -1 : 0;\n    return a >> b;\n}\n",
    ),
];

/// Every helper name, for the namer's reserved names.
pub fn helper_names() -> impl Iterator<Item = &'static str> {
    HELPERS.iter().map(|(n, _, _)| *n)
}

/// The definitions of the helpers the text made of `parts` calls (and those they call), in
/// a fixed order; empty when it calls none. Each part is whole lines (a call is on one
/// line), so the text need not be joined first.
pub fn definitions_for(parts: &[&str]) -> String {
    let mut called = [false; HELPERS.len()];
    for part in parts {
        mark_called(part, &mut called);
    }
    let mut wanted: Vec<&'static str> =
        HELPERS.iter().zip(called).filter(|(_, c)| *c).map(|((name, _, _), _)| *name).collect();
    if wanted.is_empty() {
        return String::new();
    }
    for (name, deps, _) in HELPERS {
        if wanted.contains(name) {
            for d in *deps {
                if !wanted.contains(d) {
                    wanted.push(d);
                }
            }
        }
    }
    let size: usize = HELPERS.iter().filter(|(name, _, _)| wanted.contains(name)).map(|(_, _, code)| code.len()).sum();
    let mut out = String::with_capacity(size + 128);
    out.push_str("// Python's integer arithmetic, as `plc run` computes it (see docs/emitter.md).\n");
    out.push_str("#include <stdlib.h>\n\n");
    for (name, _, code) in HELPERS {
        if wanted.contains(name) {
            out.push_str(code);
        }
    }
    out.push('\n');
    out
}

/// The helpers `text` calls (`plc_py_add(`), in [`HELPERS`] order: one scan for the
/// helpers' common prefix, instead of one search of the whole text per helper (a file of
/// orchestration code was searched sixteen times).
#[cfg(test)]
fn called_helpers(text: &str) -> Vec<&'static str> {
    let mut called = [false; HELPERS.len()];
    mark_called(text, &mut called);
    HELPERS.iter().zip(called).filter(|(_, c)| *c).map(|((name, _, _), _)| *name).collect()
}

/// Marks in `called` the helpers `text` calls.
fn mark_called(text: &str, called: &mut [bool; HELPERS.len()]) {
    const PREFIX: &str = "plc_py_";
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(PREFIX));
    // `memmem` (a vectorized search), not `str::match_indices`, whose two-way searcher
    // was set up and run byte by byte for each file.
    for at in FINDER.find_iter(text.as_bytes()) {
        let rest = &text[at..];
        let end = rest.bytes().position(|b| !(b.is_ascii_alphanumeric() || b == b'_')).unwrap_or(rest.len());
        if rest[end..].starts_with('(') {
            if let Some(i) = HELPERS.iter().position(|(name, _, _)| *name == &rest[..end]) {
                called[i] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn called_helpers_are_those_whose_call_the_text_contains() {
        for text in [
            "",
            "plc_py_add(a, b)",
            "x = plc_py_plc_py_mul(1); plc_py_add2(3); plc_py_addé(4); plc_py_shr (5)",
            "plc_py_fmod(plc_py_floordiv(a, b), plc_py_mod(c, d)) plc_py_extent(",
            "plc_py_",
        ] {
            let naive: Vec<&str> =
                HELPERS.iter().map(|(n, _, _)| *n).filter(|n| text.contains(&format!("{n}("))).collect();
            assert_eq!(called_helpers(text), naive, "{text}");
        }
    }
}
