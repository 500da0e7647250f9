//! What the C++ emitters (orchestration, kernels, harness) share: a writer of indented
//! lines, a namer that never hands out a reserved or taken name, and the C++ spellings of
//! element types and literals.

use crate::ir::DType;
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// C++ source being written: lines at an indentation of four spaces a level.
#[derive(Default)]
pub struct Writer {
    out: String,
    indent: usize,
}

impl Writer {
    /// A writer whose lines start at `indent` levels.
    pub fn new(indent: usize) -> Writer {
        // A function's body is a few hundred bytes to a few KB: begun at 1 KB, it is not
        // grown by doubling from empty (each doubling past 128 bytes copies it).
        Writer { out: String::with_capacity(1024), indent }
    }

    /// One line at the current indentation.
    pub fn line(&mut self, text: &str) {
        self.push_indent();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// [`Writer::line`] of formatted text, formatted in place (no `String` per line).
    pub fn line_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        use std::fmt::Write as _;
        self.push_indent();
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    /// [`Writer::line`] of pieces pushed one after another: for the lines written for every
    /// task, cheaper than formatting them (no formatting machinery per piece).
    pub fn line_of(&mut self, pieces: &[&str]) {
        self.push_indent();
        push_all(&mut self.out, pieces);
        self.out.push('\n');
    }

    /// The current indentation, pushed in one piece.
    fn push_indent(&mut self) {
        const SPACES: &str = "                                                                ";
        let n = 4 * self.indent;
        if n <= SPACES.len() {
            self.out.push_str(&SPACES[..n]);
        } else {
            for _ in 0..self.indent {
                self.out.push_str("    ");
            }
        }
    }

    /// Text written as it is (lines already indented).
    pub fn push_str(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// The lines after this are one level deeper.
    pub fn indent(&mut self) {
        self.indent += 1;
    }

    pub fn dedent(&mut self) {
        self.indent = self.indent.saturating_sub(1);
    }

    pub fn set_level(&mut self, indent: usize) {
        self.indent = indent;
    }

    /// What has been written so far, taken out (the writer is empty afterwards).
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.out)
    }

    pub fn as_str(&self) -> &str {
        &self.out
    }
}

/// The decimal digits of an unsigned integer, made without the formatting machinery (for
/// [`Writer::line_of`]).
pub struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    pub fn new(mut n: u64) -> Digits {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        loop {
            start -= 1;
            buf[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                return Digits { buf, start };
            }
        }
    }

    /// The digits of a signed integer, `-` first when it is negative.
    pub fn signed(n: i64) -> Digits {
        let mut d = Digits::new(n.unsigned_abs());
        if n < 0 {
            d.start -= 1;
            d.buf[d.start] = b'-';
        }
        d
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[self.start..]).expect("ASCII digits")
    }
}

/// Pushes the decimal digits of `n` onto `out` (what `Digits::new(n).as_str()` holds),
/// a byte at a time: no check of the bytes as UTF-8, and a single digit without the buffer.
pub fn push_uint(out: &mut String, n: u64) {
    let digit = |d: u64| char::from(b'0' + (d % 10) as u8);
    // The extents and offsets of most tiles: up to three digits, without the buffer.
    if n < 1000 {
        if n >= 100 {
            out.push(digit(n / 100));
        }
        if n >= 10 {
            out.push(digit(n / 10));
        }
        out.push(digit(n));
        return;
    }
    let d = Digits::new(n);
    for &b in &d.buf[d.start..] {
        out.push(char::from(b));
    }
}

/// The names a small emitted function defines (the room its maps are made with).
pub const FEW_NAMES: usize = 14;

/// The names of one C++ scope: every name it hands out is a valid identifier, none of the
/// language's keywords or the runtime's and tile library's names, no macro-like name, and
/// not handed out before.
#[derive(Default)]
pub struct Namer {
    taken: FxHashSet<String>,
}

impl Namer {
    pub fn new() -> Namer {
        // Room for the names of a small function from the start: not grown (and rehashed)
        // from empty in every emitted function.
        Namer { taken: FxHashSet::with_capacity_and_hasher(FEW_NAMES, Default::default()) }
    }

    /// Keeps `name` from being handed out (a name the scope already uses).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }

    /// `base` made a safe identifier, or with `_1`, `_2`, ... when that is taken.
    pub fn fresh(&mut self, base: &str) -> String {
        let base = identifier(base);
        if self.taken.insert(base.clone()) {
            return base;
        }
        (1..).map(|k| format!("{base}_{k}")).find(|n| self.taken.insert(n.clone())).expect("a free name")
    }

    /// The first candidate that is free (each made a safe identifier), taken; else the
    /// first with a counter.
    pub fn first_free(&mut self, candidates: &[&str]) -> String {
        for c in candidates {
            let name = identifier(c);
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
        self.fresh(candidates.first().copied().unwrap_or("v"))
    }
}

/// A safe C++ identifier made from a name: [`sanitize`]d, and with the suffix `_v` when a C
/// or C++ header may define it as a macro (every ALL-CAPS name: `EOF`, `INT32_MAX`,
/// `PTO2_SCOPE`, ... and a few lower-case ones).
pub fn identifier(name: &str) -> String {
    let mut name = sanitize(name);
    let (mut upper, mut lower) = (false, false);
    for b in name.bytes() {
        upper |= b.is_ascii_uppercase();
        lower |= b.is_ascii_lowercase();
    }
    if (upper && !lower)
        || matches!(name.as_str(), "errno" | "stdin" | "stdout" | "stderr" | "assert" | "always_assert")
    {
        name.push_str("_v");
    }
    name
}

/// The longest name (in bytes) a C++ symbol or a file name keeps as it is; a longer one is
/// cut and given a hash (a name of 244 characters made `kernels/<name>.cpp` and its
/// temporary name longer than a file system takes).
pub const MAX_NAME: usize = 96;

/// A C++ identifier and file stem for a name, one-to-one: the name itself when it is
/// already a safe identifier (see [`sanitize`]) of at most [`MAX_NAME`] bytes, not in
/// `reserved` (the names a generated file or symbol of its kind must not take) and not of
/// the hashed form; otherwise its first 48 sanitized characters, `_h` and 16 hex digits of
/// a stable hash of the whole name (`a__b` and `a_b`, or `größe` and `grüße`, no longer
/// share a symbol). The same name gives the same result on every run and machine.
pub fn stable_name(name: &str, reserved: &[&str]) -> String {
    let safe = sanitize(name);
    if safe == name && kept_whole(name, reserved) {
        // The sanitized copy is the name: handed back, not copied again.
        return safe;
    }
    hashed(name, &safe)
}

/// A file stem for a name, one-to-one as [`stable_name`]: the name itself when it is made
/// of ASCII letters, digits and underscores (a C++ keyword or runtime name is a fine file
/// name: `orchestration/main.cpp`), at most [`MAX_NAME`] bytes and not in `reserved`.
pub fn stable_file_stem(name: &str, reserved: &[&str]) -> String {
    let plain = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if plain && kept_whole(name, reserved) {
        // Sanitized only when it is cut (every kernel's and entry's file has a stem).
        return name.to_string();
    }
    hashed(name, &sanitize(name))
}

/// Whether a name that is safe as it is (see [`stable_name`] and [`stable_file_stem`]) is
/// kept whole: short enough, not reserved and not of the hashed form.
fn kept_whole(name: &str, reserved: &[&str]) -> bool {
    name.len() <= MAX_NAME && !reserved.contains(&name) && !looks_hashed(name)
}

/// The name cut to the first 48 characters of its sanitized form `safe`, with `_h` and
/// its hash.
fn hashed(name: &str, safe: &str) -> String {
    let mut cut: String = safe.chars().take(48).collect();
    while cut.ends_with('_') {
        cut.pop();
    }
    format!("{cut}_h{:016x}", stable_hash(name.as_bytes()))
}

/// Whether a name ends as [`stable_name`]'s hashed names do (`_h` and 16 hex digits).
fn looks_hashed(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 18
        && &b[b.len() - 18..b.len() - 16] == b"_h"
        && b[b.len() - 16..].iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
}

/// FNV-1a, 64 bits: stable across runs, versions of Rust and machines.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The concatenation of `parts`, allocated once at its final size: for the emitters' short
/// names and lines, where `format!` spent more on its machinery (`Formatter::pad` for each
/// argument, a buffer grown from empty) than on the copying.
pub fn cat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    push_all(&mut s, parts);
    s
}

/// Pushes `pieces` onto `out`, one after another (what `write!` of them would give, without
/// its machinery).
pub fn push_all(out: &mut String, pieces: &[&str]) {
    for piece in pieces {
        out.push_str(piece);
    }
}

/// Pushes `items` onto `out` with `sep` between them (`items.join(sep)` without the
/// intermediate `String`).
pub fn push_joined<S: AsRef<str>>(out: &mut String, items: &[S], sep: &str) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
}

/// A valid C++ identifier made from a name: letters, digits and single underscores, not
/// starting with a digit or an underscore, no double underscore (reserved in C++), and not
/// a keyword or a name the generated code defines or includes (those get a `_` suffix).
pub fn sanitize(name: &str) -> String {
    // Most names are identifiers already (a letter, then letters, digits and single
    // underscores): copied whole, not rebuilt a character at a time.
    let b = name.as_bytes();
    let mut plain = b.first().is_some_and(u8::is_ascii_alphabetic);
    let mut prev = 0u8;
    for &c in b {
        if !plain {
            break;
        }
        plain = c.is_ascii_alphanumeric() || (c == b'_' && prev != b'_');
        prev = c;
    }
    if plain {
        let mut out = name.to_string();
        if is_reserved(&out) {
            out.push('_');
        }
        return out;
    }
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '_' };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'v');
    }
    if out.starts_with('_') {
        out.insert(0, 'v');
    }
    if is_reserved(&out) {
        out.push('_');
    }
    out
}

/// C++ keywords, and the names the generated code defines or includes: standard types and
/// functions, the runtime's API, the tile library's namespaces, the kernel table.
/// (A set made on first use: every name the emitters write is checked.)
fn is_reserved(s: &str) -> bool {
    static RESERVED: std::sync::OnceLock<rustc_hash::FxHashSet<&'static str>> = std::sync::OnceLock::new();
    let reserved = RESERVED.get_or_init(|| {
        let lists = CPP_KEYWORDS.iter().chain(GENERATED).chain(RUNTIME).copied();
        lists.chain(super::py_arith::helper_names()).collect()
    });
    reserved.contains(s)
}

/// The keywords of C++20.
const CPP_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];
/// Names every generated file uses (`main`, `args`) or gets from the C library.
const GENERATED: &[&str] = &[
    "main",
    "std",
    "args",
    "orch_args",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "size_t",
    "NULL",
    "half",
    "min",
    "max",
];
/// The runtime's API (`pto_orchestration_api.h`, simpler's and plc's) and the tile library.
const RUNTIME: &[&str] = &[
    "ChipTensor",
    "ChipTaskArgs",
    "CoreTaskArgs",
    "GraphTaskArgs",
    "TensorCreateInfo",
    "TaskOutputTensors",
    "DataType",
    "PTO2TaskId",
    "PTO2LaunchSpec",
    "PTO2ScopeMode",
    "PTO2ScopeGuard",
    "PTO2OrchestrationConfig",
    "MixedKernels",
    "PredicateOp",
    "CorePredicateOperand",
    "CoreTaskPredicate",
    "TensorArgType",
    "TensorRef",
    "PlcTensorArg",
    "Arg",
    "GraphSubmitResult",
    "Tensor",
    "TaskTensor",
    "TaskId",
    "ScopeMode",
    "LaunchSpec",
    "ScopeGuard",
    "OrchestrationConfig",
    "PlcSchedule",
    "alloc_tensors",
    "get_tensor_data",
    "set_tensor_data",
    "make_tensor_external",
    "rt_available_aiv_count",
    "rt_available_cluster_count",
    "rt_orchestration_done",
    "rt_submit_aic_task",
    "rt_submit_aiv_task",
    "rt_submit_dummy_task",
    "rt_submit_graph",
    "rt_submit_task",
    "to_u64",
    "from_u64",
    "get_element_size",
    "half_to_float",
    "float_to_half",
    "bf16_to_float",
    "float_to_bf16",
    "round_to",
    "convert",
    "load_as",
    "store_raw",
    "store_as",
    "plc",
    "plc_kernels",
    "plc_kernel_table",
    "plc_kernel_count",
    "plc_kernel_fn",
];

/// The C type of a scalar in orchestration code.
pub fn ctype(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::Int8 | DType::Int4 => "int8_t",
        DType::Int16 => "int16_t",
        DType::Int32 => "int32_t",
        DType::Int64 | DType::Index => "int64_t",
        DType::UInt8 | DType::UInt4 => "uint8_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        DType::UInt64 => "uint64_t",
        DType::TaskId => "PTO2TaskId",
        // Narrow floats are carried as float on the host.
        _ => "float",
    }
}

/// The C type of a scalar in a kernel (none for a task id).
pub fn scalar_ctype(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::Bool => "bool",
        DType::TaskId => return None,
        other => elem_ctype(other)?,
    })
}

/// The element type of a tile of `d` in a kernel (narrow floats are held as float, BOOL as
/// uint8_t).
pub fn elem_ctype(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::Int8 | DType::Int4 => "int8_t",
        DType::Int16 => "int16_t",
        DType::Int32 => "int32_t",
        DType::Int64 | DType::Index => "int64_t",
        DType::UInt8 | DType::UInt4 | DType::Bool => "uint8_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        DType::UInt64 => "uint64_t",
        DType::TaskId => return None,
        _ => "float",
    })
}

/// The runtime's name of a tensor element type.
pub fn runtime_dtype(d: DType) -> &'static str {
    match d {
        DType::Fp16 => "DataType::FLOAT16",
        DType::Fp32 => "DataType::FLOAT32",
        DType::Bf16 => "DataType::BFLOAT16",
        DType::Int8 => "DataType::INT8",
        DType::Int16 => "DataType::INT16",
        DType::Int32 => "DataType::INT32",
        DType::Int64 | DType::Index => "DataType::INT64",
        DType::UInt8 => "DataType::UINT8",
        DType::UInt16 => "DataType::UINT16",
        DType::UInt32 => "DataType::UINT32",
        DType::UInt64 => "DataType::UINT64",
        DType::Bool => "DataType::BOOL",
        DType::Fp8E4M3Fn => "DataType::FP8E4M3FN",
        DType::Fp8E5M2 => "DataType::FP8E5M2",
        DType::Fp8E8M0 => "DataType::FP8E8M0",
        DType::Fp4 => "DataType::FP4E2M1",
        _ => "DataType::UNKNOWN",
    }
}

/// An integer literal (negative ones parenthesised; the smallest `int64_t` as an expression).
pub fn int_literal(n: i64) -> String {
    if n == i64::MIN {
        "(-9223372036854775807LL - 1)".to_string()
    } else if n < 0 {
        cat(&["(", Digits::signed(n).as_str(), ")"])
    } else {
        // Without the formatting machinery (most literals are small non-negative ones).
        Digits::new(n.unsigned_abs()).as_str().to_string()
    }
}

/// A C++ string literal of `text`'s UTF-8 bytes: ASCII letters, digits, spaces and
/// `_ - . , : ( )` as they are, every other byte as a three-digit octal escape (never a
/// trigraph, an escape that reads on into the next character, or a quote).
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b" _-.,:()".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:03o}");
        }
    }
    out.push('"');
    out
}

/// A double literal that reads back as the same value (`NAN` and `INFINITY` from `<cmath>`
/// for the values without one).
pub fn float_literal(x: f64) -> String {
    if x.is_nan() {
        "NAN".to_string()
    } else if x.is_infinite() {
        if x > 0.0 {
            "INFINITY".to_string()
        } else {
            "(-INFINITY)".to_string()
        }
    } else {
        let text = format!("{x:?}");
        let text = if text.contains(['.', 'e', 'E']) { text } else { format!("{text}.0") };
        if x < 0.0 || text.starts_with('-') {
            format!("({text})")
        } else {
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_the_decimal_form() {
        for n in [0u64, 7, 10, 99, 1234567890, u64::MAX] {
            assert_eq!(Digits::new(n).as_str(), n.to_string());
        }
    }

    #[test]
    fn literals_read_back() {
        for (x, text) in [(0.1, "0.1"), (2.0, "2.0"), (-0.5, "(-0.5)"), (1e-7, "1e-7")] {
            assert_eq!(float_literal(x), text);
        }
        assert_eq!(int_literal(-3), "(-3)");
        assert_eq!(string_literal("scale_2 (AIV)"), "\"scale_2 (AIV)\"");
        assert_eq!(string_literal("a\"b\\??=é"), "\"a\\042b\\134\\077\\077\\075\\303\\251\"");
        assert_eq!(int_literal(i64::MIN), "(-9223372036854775807LL - 1)");
    }

    #[test]
    fn sanitize_is_idempotent() {
        // The orchestration emitter names a variable by `identifier` of its source name,
        // not of its `sanitize`d form: the same when sanitizing twice changes nothing, which
        // holds when no reserved name ends in `_` and none is another with `_` appended.
        let reserved: Vec<&str> = CPP_KEYWORDS
            .iter()
            .chain(GENERATED)
            .chain(RUNTIME)
            .copied()
            .chain(super::super::py_arith::helper_names())
            .collect();
        for r in &reserved {
            assert!(!r.ends_with('_'), "{r}");
            assert!(!is_reserved(&format!("{r}_")), "{r}_");
        }
        let mut names: Vec<String> = reserved.iter().map(|r| r.to_string()).collect();
        names.extend(
            ["", "_", "__x", "9a", "a__b", "a_", "größe", "_for", "for_", "x.y", "ext_w", "EOF"].map(String::from),
        );
        for n in &names {
            let once = sanitize(n);
            assert_eq!(sanitize(&once), once, "{n}");
            assert_eq!(identifier(&once), identifier(n), "{n}");
        }
    }

    #[test]
    fn macro_like_names_get_a_suffix() {
        for (name, cpp) in
            [("ROWS", "ROWS_v"), ("EOF", "EOF_v"), ("rows", "rows"), ("Rows", "Rows"), ("errno", "errno_v")]
        {
            assert_eq!(identifier(name), cpp);
        }
    }

    #[test]
    fn stable_names_are_one_to_one_and_short() {
        assert_eq!(stable_name("scale", &[]), "scale");
        assert_eq!(stable_name("table", &["table", "count", "fn"]), format!("table_h{:016x}", stable_hash(b"table")));
        assert_ne!(stable_name("a__b", &[]), stable_name("a_b", &[]));
        assert_ne!(stable_name("größe", &[]), stable_name("grüße", &[]));
        assert_ne!(stable_name("for", &[]), stable_name("for_", &[]));
        let hashed = stable_name("a__b", &[]);
        assert_ne!(stable_name(&hashed, &[]), hashed);
        let long = "x".repeat(300);
        let short = stable_name(&long, &[]);
        assert!(short.len() <= MAX_NAME, "{short}");
        assert_eq!(short, stable_name(&long, &[]));
        assert_ne!(short, stable_name(&"x".repeat(301), &[]));
        assert_eq!(stable_name(&"y".repeat(MAX_NAME), &[]), "y".repeat(MAX_NAME));
        assert_eq!(stable_file_stem("main", &[]), "main");
        assert_ne!(stable_file_stem("kernel_table", &["kernel_table"]), "kernel_table");
        assert_ne!(stable_file_stem("größe", &[]), stable_file_stem("grüße", &[]));
        assert!(stable_file_stem(&"z".repeat(250), &[]).len() <= MAX_NAME);
    }

    #[test]
    fn reserved_names_are_never_handed_out() {
        let mut n = Namer::new();
        assert_eq!(n.fresh("ChipTensor"), "ChipTensor_");
        assert_eq!(n.fresh("rt_submit_task"), "rt_submit_task_");
        assert_eq!(n.fresh("for"), "for_");
        assert_eq!(n.fresh("a b"), "a_b");
        assert_eq!(n.fresh("a__b"), "a_b_1");
        assert_eq!(n.fresh("9lives"), "v9lives");
        assert_eq!(n.first_free(&["acc", "acc__ssa_v1"]), "acc");
        assert_eq!(n.first_free(&["acc", "acc__ssa_v1"]), "acc_ssa_v1");
        assert_eq!(n.first_free(&["acc", "acc__ssa_v1"]), "acc_1");
    }
}
