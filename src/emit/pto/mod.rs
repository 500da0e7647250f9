//! The PTO-ISA kernel backend (`plc compile --target a2a3sim --kernels pto-isa`): each
//! device function as a kernel of PTO-ISA instructions over tiles placed in on-chip memory,
//! the form a device toolchain compiles and simpler's a2a3sim compiles for the CPU.
//!
//! ```text
//! a = pl.load(x, [r, 0], [64, 128])        using T_a = Tile<TileType::Vec, float, 64, 128, ...>;
//! b = pl.mul(a, 0.5)                ==>    T_a a; TASSIGN(a, 0x0); ...
//! pl.store(b, [r, 0], out)                 { GlobalTensor<...> gm(plc_gm<float>(args, 0) + ...); TLOAD(a, gm); }
//!                                          set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); wait_flag(...);
//!                                          TMULS(b, a, static_cast<float>(0.5)); ...
//! ```
//!
//! Three steps, each testable on its own: [`lower`] turns the function (and the device
//! functions it calls, inlined) into a list of instructions, each on one pipe with the
//! buffers it reads and writes; [`alloc`] places the tiles in on-chip memory by liveness;
//! [`sync`] inserts the flags between pipes. The mapping of each op is an exhaustive match
//! on its kind in [`ops`]; an op or construct not mapped yet is E0620 naming it, a tile
//! shape the instructions cannot take E0622, tiles that do not fit E0621. docs/kernels.md
//! has the mapping table and the rules.

pub mod alloc;
mod lower;
mod ops;
pub mod sync;

use crate::diag::{Code, Diagnostic, Label};
use crate::intern::{Interner, Symbol};
use crate::ir::Program;
use std::fmt::Write;

use crate::ir::FuncKind;
pub use lower::{mixed, uses_cube};

/// What the kernel needs besides PTO-ISA: simpler's kernel ABI (`args[i]` the address of
/// the i-th tensor's 128-byte ChipTensor, then the scalars' u64 bits; `args[48]` the block
/// index and count) and integer division as Python rounds it.
const PRELUDE: &str = r#"#include <cstdint>
#include <cstring>
#include <pto/pto-inst.hpp>

using namespace pto;

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__ [aicore]
#endif

// simpler's ChipTensor: the fields a kernel reads.
struct alignas(64) PlcTensorArg {
    uint64_t addr;
    uint64_t size;
    uint64_t owner;
    uint64_t start_offset;
    int32_t version;
    uint32_t ndims;
    uint8_t dtype;
    bool manual_dep;
    bool is_contiguous;
    uint8_t address_space;
    uint32_t shapes[5];
    uint64_t extent;
    uint32_t strides[5];
    uint8_t pad[36];
};
static_assert(sizeof(PlcTensorArg) == 128, "simpler's ChipTensor is 128 bytes");

static inline const PlcTensorArg* plc_arg(__gm__ int64_t* args, int i) {
    return reinterpret_cast<const PlcTensorArg*>(static_cast<uintptr_t>(args[i]));
}

// The element stride of dimension k (simpler fills `strides` only for a view that is not
// contiguous: a contiguous one has the row-major strides of its shape).
static inline int64_t plc_stride(const PlcTensorArg* t, uint32_t k) {
    if (!t->is_contiguous) return t->strides[k];
    int64_t s = 1;
    for (uint32_t j = k + 1; j < t->ndims; ++j) s *= t->shapes[j];
    return s;
}

// The address of element `offsets` of tensor argument i.
template <typename T, int N>
static inline __gm__ T* plc_gm(__gm__ int64_t* args, int i, const int64_t (&offsets)[N]) {
    const PlcTensorArg* t = plc_arg(args, i);
    int64_t at = static_cast<int64_t>(t->start_offset);
    for (int k = 0; k < N && k < static_cast<int>(t->ndims); ++k) at += offsets[k] * plc_stride(t, k);
    return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(t->addr)) + at;
}

// The distance between rows of tensor argument i (`cols` for a vector).
static inline int64_t plc_row_stride(__gm__ int64_t* args, int i, int64_t cols) {
    const PlcTensorArg* t = plc_arg(args, i);
    return t->ndims >= 2 ? plc_stride(t, t->ndims - 2) : cols;
}

// The part of a rows x cols window at `off` inside tensor argument i (`plc run` loads zeros
// outside, and stores only the inside).
template <int N>
static inline void plc_window(__gm__ int64_t* args, int i, const int64_t (&off)[N], int64_t rows, int64_t cols,
                              unsigned& vr, unsigned& vc) {
    const PlcTensorArg* t = plc_arg(args, i);
    int64_t n = t->ndims;
    auto inside = [](int64_t o, int64_t w, int64_t e) { return e - o < 0 ? 0 : (e - o < w ? e - o : w); };
    vc = static_cast<unsigned>(n >= 1 && n <= N ? inside(off[n - 1], cols, t->shapes[n - 1]) : cols);
    vr = static_cast<unsigned>(rows > 1 && n >= 2 && n <= N ? inside(off[n - 2], rows, t->shapes[n - 2]) : rows);
}

// Tensor argument i seen as a matrix: rows the product of the leading extents, columns the
// last (a band loop's view of a tensor whose shape is known only at run time).
static inline int64_t plc_rows(__gm__ int64_t* args, int i) {
    const PlcTensorArg* t = plc_arg(args, i);
    int64_t r = 1;
    for (uint32_t k = 0; k + 1 < t->ndims; ++k) r *= t->shapes[k];
    return r;
}
static inline int64_t plc_cols(__gm__ int64_t* args, int i) {
    const PlcTensorArg* t = plc_arg(args, i);
    return t->ndims >= 1 ? t->shapes[t->ndims - 1] : 1;
}

// The address of element (r, c) of that matrix.
template <typename T>
static inline __gm__ T* plc_gm_rc(__gm__ int64_t* args, int i, int64_t r, int64_t c) {
    const PlcTensorArg* t = plc_arg(args, i);
    int64_t at = static_cast<int64_t>(t->start_offset) + r * plc_row_stride(args, i, plc_cols(args, i));
    if (t->ndims >= 1) at += c * plc_stride(t, t->ndims - 1);
    return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(t->addr)) + at;
}

// The part of a rows x cols window at (r, c) inside that matrix.
static inline void plc_window_rc(__gm__ int64_t* args, int i, int64_t r, int64_t c, int64_t rows, int64_t cols,
                                 unsigned& vr, unsigned& vc) {
    auto inside = [](int64_t o, int64_t w, int64_t e) { return e - o < 0 ? 0 : (e - o < w ? e - o : w); };
    vr = static_cast<unsigned>(inside(r, rows, plc_rows(args, i)));
    vc = static_cast<unsigned>(inside(c, cols, plc_cols(args, i)));
}

template <typename T>
static inline T plc_scalar(__gm__ int64_t* args, int i) {
    uint64_t u = static_cast<uint64_t>(args[i]);
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
}

static inline int64_t plc_block_idx(__gm__ int64_t* args) {
    return reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(args[48]))[0];
}
static inline int64_t plc_block_num(__gm__ int64_t* args) {
    return reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(args[48]))[1];
}

static inline int64_t plc_floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t plc_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
"#;

/// `kernels/<name>.cpp` with PTO-ISA instructions: one self-contained file but for
/// `<pto/pto-inst.hpp>`, with simpler's `kernel_entry`. The kernel of a mixed Group
/// ([`mixed`]) is its AIV half; [`aic_half`] is the other.
#[allow(clippy::result_large_err)] // the one diagnostic is the interface the backend shares
pub fn kernel(program: &Program, names: &Interner, func: Symbol) -> Result<String, Diagnostic> {
    half(program, names, func, mixed(program, func).then_some(FuncKind::Aiv))
}

/// The AIC half of a mixed Group, `kernels/aic/<name>.cpp`: the Group's body with only its
/// calls of AIC functions, reading the same arguments as the AIV half.
#[allow(clippy::result_large_err)]
pub fn aic_half(program: &Program, names: &Interner, func: Symbol) -> Result<String, Diagnostic> {
    half(program, names, func, Some(FuncKind::Aic))
}

/// Where [`aic_half`] is written.
pub fn aic_half_file(names: &Interner, func: Symbol) -> String {
    format!("kernels/aic/{}.cpp", crate::emit::cpp::stable_file_stem(names.get(func), &[]))
}

#[allow(clippy::result_large_err)]
fn half(program: &Program, names: &Interner, func: Symbol, side: Option<FuncKind>) -> Result<String, Diagnostic> {
    let k = lower::lower(program, names, func, side).map_err(|d| *d)?;
    let requests: Vec<alloc::Request> = k.tiles.iter().map(|t| t.request.clone()).collect();
    let addrs = alloc::allocate(&requests).map_err(|o| {
        let f = &program.functions[&func];
        let loc = k.tiles.iter().find(|t| t.request.name == o.tile).map_or(f.loc, |t| t.loc);
        let loc = if loc.is_compiler_made() { f.loc } else { loc };
        Diagnostic::error(Code::E0621, o.message(), Label::primary(loc.file, loc.span, "this tile does not fit"))
            .with_help("use smaller tiles, or fewer tiles live at once (load, compute and store in bands)".to_string())
    })?;
    let steps: Vec<sync::Step> = k
        .items
        .iter()
        .map(|item| match item {
            lower::Item::Inst(inst) => sync::Step::Inst(sync::Access {
                pipe: inst.pipe,
                reads: inst.reads.iter().map(|&r| buffer(&k, &addrs, r)).collect(),
                writes: inst.writes.iter().map(|&r| buffer(&k, &addrs, r)).collect(),
            }),
            lower::Item::LoopStart(_) => sync::Step::LoopStart,
            lower::Item::LoopEnd => sync::Step::LoopEnd,
        })
        .collect();
    let drain = if k.cube { sync::Pipe::Fix } else { sync::Pipe::Mte3 };
    let (before, end) = sync::insert(&steps, drain);

    let kind = program.functions.get(&func).map(|f| f.decl.kind.name()).unwrap_or_default();
    let mut out = String::new();
    let half = match side {
        Some(FuncKind::Aic) => ", its AIC half",
        Some(_) => ", its AIV half",
        None => "",
    };
    let _ = writeln!(
        out,
        "// Kernel: {} ({kind}{half}), PTO-ISA for simpler's a2a3sim ({} core)\n// Generated by plc\n",
        names.get(func),
        if k.cube { "cube" } else { "vector" }
    );
    out.push_str(PRELUDE);
    out.push_str("\nextern \"C\" __aicore__ void kernel_entry(__gm__ int64_t* args) {\n");
    for line in &k.header {
        let _ = writeln!(out, "    {line}");
    }
    for (t, addr) in k.tiles.iter().zip(&addrs) {
        let _ = writeln!(out, "    // {} B of {} at {addr:#x}", t.request.bytes, t.request.space.name());
        let _ = writeln!(out, "    using {}_t = {};", t.request.name, t.cpp);
        let _ = writeln!(out, "    {0}_t {0}{1};", t.request.name, t.ctor);
        let _ = writeln!(out, "    TASSIGN({}, {addr:#x});", t.request.name);
    }
    let mut depth = 1;
    for (item, sync_lines) in k.items.iter().zip(&before) {
        let pad = |d: usize| "    ".repeat(d);
        match item {
            lower::Item::LoopStart(head) => {
                let _ = writeln!(out, "{}{head}", pad(depth));
                depth += 1;
                for l in sync_lines {
                    let _ = writeln!(out, "{}{l}", pad(depth));
                }
            }
            lower::Item::LoopEnd => {
                for l in sync_lines {
                    let _ = writeln!(out, "{}{l}", pad(depth));
                }
                depth -= 1;
                let _ = writeln!(out, "{}}}", pad(depth));
            }
            lower::Item::Inst(inst) => {
                for l in sync_lines.iter().chain(&inst.lines) {
                    let _ = writeln!(out, "{}{l}", pad(depth));
                }
            }
        }
    }
    for l in &end {
        let _ = writeln!(out, "    {l}");
    }
    out.push_str("}\n");
    Ok(out)
}

fn buffer(k: &lower::Kernel, addrs: &[u64], r: lower::Res) -> sync::Buffer {
    match r {
        lower::Res::Global(i) => sync::Buffer::Global(i),
        lower::Res::Tile(t) => {
            let req = &k.tiles[t].request;
            sync::Buffer::OnChip { space: req.space as u8, lo: addrs[t], hi: addrs[t] + req.bytes }
        }
    }
}
