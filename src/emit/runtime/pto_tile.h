// pto_tile.h: plc's CPU tile library, what generated kernels (kernels/<name>.cpp) run on.
//
// A tile is a small 2-D array (after flattening: rows = product of the leading extents,
// cols = the last one) with a logical shape of up to 5 extents and a valid region (the
// first valid_rows x valid_cols elements; the rest is padding). Element types: float for
// FP32, FP16 and BF16 (narrow formats are rounded when stored or cast), int8..int64 and
// their unsigned forms, int64 for INDEX, uint8_t for BOOL. Tensors are ChipTensor views
// (pto_orchestration_api.h); loads and stores honour start_offset, strides and dtype.
//
// Semantics follow PyPTO's PyTorch reference lowering (see docs/kernels.md): loads pad with
// zeros outside the tensor, stores write the valid region, elementwise ops compute every
// element (with broadcasting of extent-1 axes), reductions read the valid region, matmul
// accumulates in FP32.

#ifndef PLC_PTO_TILE_H
#define PLC_PTO_TILE_H

#include "pto_orchestration_api.h"

#include <algorithm>
#include <any>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace plc {

[[noreturn]] inline void tile_error(const char* op, const char* msg) {
    std::fprintf(stderr, "plc tile library: %s: %s\n", op, msg);
    std::abort();
}

// ------------------------------------------------------------------ shapes and tiles

/// Up to five integers: offsets or extents. `Dims()` (or `{}`) means "not given".
struct Dims {
    int64_t v[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    uint32_t n = 0;
    bool given = false;

    Dims() = default;
    Dims(std::initializer_list<int64_t> xs) : given(true) {
        for (int64_t x : xs) {
            if (n >= static_cast<uint32_t>(MAX_TENSOR_DIMS)) tile_error("Dims", "more than 5 extents");
            v[n++] = x;
        }
    }
    int64_t operator[](uint32_t i) const { return v[i]; }
    /// The last two entries as a tile's row and column (0 where there are fewer).
    int64_t row() const { return n >= 2 ? v[n - 2] : 0; }
    int64_t col() const { return n >= 1 ? v[n - 1] : 0; }
};

/// Elements of one tile (ir::limits::MAX_TILE_ELEMENTS).
constexpr int64_t PLC_MAX_TILE_ELEMENTS = int64_t(1) << 24;

template <class T>
struct Tile {
    uint32_t ndims = 2;
    int64_t shape[MAX_TENSOR_DIMS] = {1, 1, 1, 1, 1};
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t valid_rows = 0;
    int64_t valid_cols = 0;
    std::vector<T> data;

    T& at(int64_t r, int64_t c) { return data[static_cast<size_t>(r * cols + c)]; }
    const T& at(int64_t r, int64_t c) const { return data[static_cast<size_t>(r * cols + c)]; }
    int64_t numel() const { return rows * cols; }
};

/// A tile of the given logical shape, every element `fill`, all valid.
template <class T>
Tile<T> make_tile(const Dims& shape, T fill = T(0)) {
    Tile<T> t;
    t.ndims = shape.n;
    int64_t rows = 1;
    int64_t cols = 1;
    for (uint32_t k = 0; k < shape.n; ++k) {
        if (shape[k] < 0) tile_error("tile", "a negative extent");
        t.shape[k] = shape[k];
        if (k + 1 < shape.n) {
            if (__builtin_mul_overflow(rows, shape[k], &rows)) tile_error("tile", "too many elements");
        } else {
            cols = shape[k];
        }
    }
    // Checked: rows * cols of a window of run-time extents must not wrap (plc refuses
    // constant ones beyond the limit at compile time, E0229).
    int64_t elements = 0;
    if (__builtin_mul_overflow(rows, cols, &elements) || elements > PLC_MAX_TILE_ELEMENTS) {
        tile_error("tile", "more elements than the target's limit of 2**24");
    }
    t.rows = rows;
    t.cols = cols;
    t.valid_rows = rows;
    t.valid_cols = cols;
    t.data.assign(static_cast<size_t>(rows * cols), fill);
    return t;
}

/// A tile with the logical shape and valid region of `like` and element type T.
template <class T, class U>
Tile<T> shaped_like(const Tile<U>& like) {
    Tile<T> t;
    t.ndims = like.ndims;
    for (int k = 0; k < MAX_TENSOR_DIMS; ++k) t.shape[k] = like.shape[k];
    t.rows = like.rows;
    t.cols = like.cols;
    t.valid_rows = like.valid_rows;
    t.valid_cols = like.valid_cols;
    t.data.assign(static_cast<size_t>(like.rows * like.cols), T(0));
    return t;
}

inline Dims dims2(int64_t r, int64_t c) { return Dims{r, c}; }

template <class T>
Dims shape_of(const Tile<T>& t) {
    Dims d;
    d.given = true;
    d.n = t.ndims;
    for (uint32_t k = 0; k < t.ndims; ++k) d.v[k] = t.shape[k];
    return d;
}

// ------------------------------------------------------------------ scalars

/// Python's `//`: rounds toward negative infinity (0 for an integer division by zero).
template <class A, class B>
auto floordiv(A a, B b) {
    using C = std::common_type_t<A, B>;
    C x = static_cast<C>(a);
    C y = static_cast<C>(b);
    if constexpr (std::is_integral<C>::value) {
        if (y == C(0)) return C(0);
        C q = static_cast<C>(x / y);
        if constexpr (std::is_signed<C>::value) {
            if ((x % y != C(0)) && ((x < C(0)) != (y < C(0)))) q = static_cast<C>(q - 1);
        }
        return q;
    } else {
        return static_cast<C>(std::floor(x / y));
    }
}

/// Python's `%`: the sign of the divisor.
template <class A, class B>
auto floormod(A a, B b);

/// `a ** b`: an integer power for integers (0 for a negative exponent), else std::pow.
template <class A, class B>
auto pow(A a, B b) {
    using C = std::common_type_t<A, B>;
    if constexpr (std::is_integral<C>::value) {
        C base = static_cast<C>(a);
        C e = static_cast<C>(b);
        if constexpr (std::is_signed<C>::value) {
            if (e < C(0)) return base == C(1) ? C(1) : C(0);
        }
        C r = C(1);
        while (e != C(0)) {
            if ((e & C(1)) != C(0)) r = static_cast<C>(r * base);
            base = static_cast<C>(base * base);
            e = static_cast<C>(e >> 1);
        }
        return r;
    } else {
        return static_cast<C>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    }
}

/// `array.update_element(a, i, v)`: sets the element and returns the array.
template <class A, class I, class V>
A& array_set(A& a, I i, V v) {
    a[static_cast<size_t>(i)] = static_cast<typename A::value_type>(v);
    return a;
}

// ------------------------------------------------------------------ the kernel ABI

/// Tensor argument `i` of a task (`args[i]` holds the address of a ChipTensor).
inline const ChipTensor& arg_tensor(const int64_t* args, int i) {
    return *reinterpret_cast<const ChipTensor*>(static_cast<intptr_t>(args[i]));
}

/// Scalar argument slot `i` as a `T`.
template <class T>
T arg_scalar(const int64_t* args, int i) {
    return from_u64<T>(static_cast<uint64_t>(args[i]));
}

// ------------------------------------------------------------------ block identity

/// The block a kernel runs as, when the tile library sets it rather than the runtime: in a
/// `pl.spmd` region of a kernel (`plc::Blocks`), and on the threads of a Group's kernels
/// (`plc::run_together`), which run as the block that called them.
struct BlockIds {
    bool set = false;
    int64_t idx = 0;
    int64_t num = 1;
    int64_t subblock = 0;
};
inline BlockIds& block_ids() {
    static thread_local BlockIds ids;
    return ids;
}

inline int64_t get_block_idx() { return block_ids().set ? block_ids().idx : plc_rt_block_idx(); }
inline int64_t get_block_num() { return block_ids().set ? block_ids().num : plc_rt_block_num(); }
inline int64_t get_subblock_idx() { return block_ids().set ? block_ids().subblock : plc_rt_subblock_idx(); }
inline BlockIds current_block_ids() { return BlockIds{true, get_block_idx(), get_block_num(), get_subblock_idx()}; }

/// The block count of a `pl.spmd(n)` region, checked as `plc run` checks it.
inline int64_t spmd_blocks(int64_t n) {
    if (n < 0) tile_error("pl.spmd", "the block count is negative");
    return n;
}

/// One block of a `pl.spmd` region in a kernel: while it lives, `get_block_idx()` is
/// `idx` and `get_block_num()` is `num` (the subblock stays); the ids before it come back
/// when it goes.
class Blocks {
public:
    Blocks(int64_t idx, int64_t num) : saved_(block_ids()) {
        block_ids() = BlockIds{true, idx, num, get_subblock_idx()};
    }
    ~Blocks() { block_ids() = saved_; }
    Blocks(const Blocks&) = delete;
    Blocks& operator=(const Blocks&) = delete;

private:
    BlockIds saved_;
};

/// The device the CPU runtime stands for (a2a3: 24 clusters of one cube and two vector
/// cores), as the orchestration API's `rt_available_cluster_count`/`rt_available_aiv_count`
/// answer (the interpreter answers the same).
inline int32_t available_aiv_count() { return 48; }
inline int32_t available_cluster_count() { return 24; }
/// Barriers, flags, fences and cache control: the CPU runs a kernel's operations in
/// program order, and a task's kernels one after the other, so there is nothing to wait for.
inline void hardware_sync() {}

// ------------------------------------------------------------------ tensor access

/// The element of `t` at `idx` (one index per axis), or nullptr outside the tensor.
inline void* element_ptr(const ChipTensor& t, const int64_t idx[]) {
    uint64_t off = t.start_offset;
    for (uint32_t k = 0; k < t.ndims; ++k) {
        if (idx[k] < 0 || idx[k] >= static_cast<int64_t>(t.shapes[k])) return nullptr;
        off += static_cast<uint64_t>(idx[k]) * t.strides[k];
    }
    return reinterpret_cast<void*>(t.buffer.addr + off * get_element_size(t.dtype));
}

/// Offsets as one index per axis of `t` (missing leading offsets are 0).
inline void full_offsets(const char* op, const ChipTensor& t, const Dims& offsets, int64_t out[]) {
    if (offsets.n > t.ndims) tile_error(op, "more offsets than the tensor has axes");
    uint32_t lead = t.ndims - offsets.n;
    for (uint32_t k = 0; k < t.ndims; ++k) out[k] = k < lead ? 0 : offsets[k - lead];
}

/// A window of logical shape `shape` as one extent per axis of `t` (leading extents 1).
inline void full_window(const char* op, const ChipTensor& t, const Dims& shape, int64_t out[]) {
    uint32_t n = shape.n;
    uint32_t skip = 0;
    while (n - skip > t.ndims && shape[skip] == 1) ++skip;  // extra leading 1s
    if (n - skip > t.ndims) tile_error(op, "the window has more axes than the tensor");
    uint32_t lead = t.ndims - (n - skip);
    for (uint32_t k = 0; k < t.ndims; ++k) out[k] = k < lead ? 1 : shape[skip + k - lead];
}

/// Visits the window (row-major) as (flat tile row, col, element pointer or nullptr).
template <class F>
void for_window(const ChipTensor& t, const int64_t off[], const int64_t win[], F f) {
    uint32_t n = t.ndims;
    if (n == 0) {
        int64_t none[1] = {0};
        f(0, 0, element_ptr(t, none));
        return;
    }
    int64_t cols = win[n - 1];
    int64_t rows = 1;
    for (uint32_t k = 0; k + 1 < n; ++k) rows *= win[k];
    int64_t idx[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    for (int64_t r = 0; r < rows; ++r) {
        int64_t rem = r;
        for (uint32_t k = n - 1; k-- > 0;) {
            idx[k] = off[k] + rem % win[k];
            rem /= win[k];
        }
        for (int64_t c = 0; c < cols; ++c) {
            idx[n - 1] = off[n - 1] + c;
            f(r, c, element_ptr(t, idx));
        }
    }
}

/// How many of `want` elements from `off` along an axis of extent `extent` lie inside.
inline int64_t inside(int64_t off, int64_t want, int64_t extent) {
    int64_t lo = std::max<int64_t>(off, 0);
    int64_t hi = std::min<int64_t>(off + want, extent);
    return std::max<int64_t>(hi - lo, 0);
}

/// The tile transposed in its last two axes (defined with the layout operations).
template <class T>
Tile<T> transpose_last(const Tile<T>& a);

/// `pl.load(t, offsets, shapes, valid_shapes, transpose=)`: the window, zero outside the
/// tensor; valid region = min(valid_shapes or shapes, the part inside the tensor).
template <class T>
Tile<T> load(const ChipTensor& t, const Dims& offsets, const Dims& shapes, const Dims& valid = Dims(),
             bool transpose = false) {
    int64_t off[MAX_TENSOR_DIMS];
    int64_t win[MAX_TENSOR_DIMS];
    full_offsets("load", t, offsets, off);
    full_window("load", t, shapes, win);
    Tile<T> w = make_tile<T>(shapes);
    for_window(t, off, win, [&](int64_t r, int64_t c, const void* p) {
        w.at(r, c) = p != nullptr ? plc_rt::load_as<T>(t.dtype, p) : T(0);
    });
    uint32_t n = t.ndims;
    if (n >= 1) {
        w.valid_cols = inside(off[n - 1], win[n - 1], t.shapes[n - 1]);
        if (shapes.n >= 2) {
            // The valid flat rows are a prefix: the inner row axis's part inside, times
            // the leading axes' parts while every inner block lies inside whole.
            int64_t rows_in = inside(off[n - 2], win[n - 2], t.shapes[n - 2]);
            int64_t block = win[n - 2];
            for (uint32_t k = n - 2; k-- > 0 && rows_in == block;) {
                rows_in *= inside(off[k], win[k], t.shapes[k]);
                block *= win[k];
            }
            w.valid_rows = rows_in;
        }
        uint32_t lead_end = shapes.n >= 2 ? n - 2 : n - 1;
        for (uint32_t k = 0; k < lead_end; ++k) {
            if (inside(off[k], win[k], t.shapes[k]) == 0) w.valid_rows = 0;
        }
    }
    if (valid.given) {
        if (valid.n >= 1) w.valid_cols = std::min<int64_t>(w.valid_cols, valid[valid.n - 1]);
        if (valid.n >= 2) w.valid_rows = std::min<int64_t>(w.valid_rows, valid[valid.n - 2]);
    }
    w.valid_rows = std::max<int64_t>(std::min<int64_t>(w.valid_rows, w.rows), 0);
    w.valid_cols = std::max<int64_t>(std::min<int64_t>(w.valid_cols, w.cols), 0);
    if (!transpose) return w;
    if (w.ndims != 2) tile_error("load", "transpose=True on a window that is not 2-D");
    return transpose_last(w);
}

/// The whole tensor as a tile (a tensor value used where a tile computation needs it).
template <class T>
Tile<T> load_tensor(const ChipTensor& t) {
    Dims shape;
    shape.given = true;
    shape.n = t.ndims;
    for (uint32_t k = 0; k < t.ndims; ++k) shape.v[k] = t.shapes[k];
    Dims zero;
    zero.given = true;
    zero.n = t.ndims;
    return load<T>(t, zero, shape);
}

/// Tensor argument `i` of a task read whole, for a kernel parameter that is a tile.
template <class T>
Tile<T> arg_tile(const int64_t* args, int i) {
    return load_tensor<T>(arg_tensor(args, i));
}

/// `pl.store(tile, offsets, t, shapes=, atomic=)`: writes the tile's valid region into the
/// window of `t` at `offsets` (elements outside the tensor are dropped); with `atomic_add`
/// adds to what is there. Returns `t`.
template <class T>
ChipTensor store(const Tile<T>& tile, const Dims& offsets, const ChipTensor& t, const Dims& shapes = Dims(),
                 bool atomic_add = false) {
    Dims window = shapes.given ? shapes : shape_of(tile);
    int64_t off[MAX_TENSOR_DIMS];
    int64_t win[MAX_TENSOR_DIMS];
    full_offsets("store", t, offsets, off);
    full_window("store", t, window, win);
    int64_t wcols = t.ndims >= 1 ? win[t.ndims - 1] : 1;
    int64_t wrows = 1;
    for (uint32_t k = 0; k + 1 < t.ndims; ++k) wrows *= win[k];
    bool same = wrows == tile.rows && wcols == tile.cols;
    if (!same && wrows * wcols != tile.numel()) tile_error("store", "the window and the tile differ in size");
    for_window(t, off, win, [&](int64_t r, int64_t c, void* p) {
        if (p == nullptr) return;
        int64_t tr = r;
        int64_t tc = c;
        if (same) {
            if (r >= tile.valid_rows || c >= tile.valid_cols) return;
        } else {
            int64_t flat = r * wcols + c;
            tr = flat / tile.cols;
            tc = flat % tile.cols;
        }
        T v = tile.at(tr, tc);
        if (atomic_add) v = static_cast<T>(plc_rt::load_as<T>(t.dtype, p) + v);
        plc_rt::store_as<T>(t.dtype, p, v);
    });
    return t;
}

/// Copies `src` (a tile) into the whole of `dst` from its origin.
template <class T>
ChipTensor store_tensor(const Tile<T>& src, const ChipTensor& dst) {
    Dims zero;
    zero.given = true;
    zero.n = dst.ndims;
    return store(src, zero, dst);
}

/// Copies every element of `src` into `dst` from its origin (converting between dtypes).
inline void copy_tensor(const ChipTensor& src, const ChipTensor& dst) {
    int64_t off[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    int64_t win[MAX_TENSOR_DIMS] = {1, 1, 1, 1, 1};
    for (uint32_t k = 0; k < src.ndims; ++k) win[k] = src.shapes[k];
    int64_t idx[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    int64_t cols = src.ndims >= 1 ? win[src.ndims - 1] : 1;
    for_window(src, off, win, [&](int64_t r, int64_t c, const void* p) {
        if (p == nullptr) return;
        int64_t flat = r * cols + c;
        for (uint32_t k = dst.ndims; k-- > 0;) {
            idx[k] = flat % static_cast<int64_t>(std::max<uint32_t>(dst.shapes[k], 1));
            flat /= static_cast<int64_t>(std::max<uint32_t>(dst.shapes[k], 1));
        }
        void* q = element_ptr(dst, idx);
        if (q == nullptr) return;
        if (src.dtype == dst.dtype) {
            std::memcpy(q, p, get_element_size(src.dtype));
        } else {
            plc_rt::store_as<double>(dst.dtype, q, plc_rt::load_as<double>(src.dtype, p));
        }
    });
}

/// A kernel's result that is not one of its parameters, written into the tensor the
/// runtime allocated for it (the task's output after its tensor arguments).
template <class T>
void store_result(const Tile<T>& value, const ChipTensor& dst) {
    store_tensor(value, dst);
}
inline void store_result(const ChipTensor& value, const ChipTensor& dst) {
    copy_tensor(value, dst);
}

/// A window of a tensor as a view (`pl.slice` / `pl.tensor.slice` in a kernel): extents
/// clipped at the tensor's end, as the runtime's views are.
inline ChipTensor slice(const ChipTensor& t, const Dims& shape, const Dims& offsets) {
    int64_t off[MAX_TENSOR_DIMS];
    full_offsets("slice", t, offsets, off);
    if (shape.n != t.ndims) tile_error("slice", "the shape must have one extent per axis");
    uint32_t shapes[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    uint32_t offs[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    for (uint32_t k = 0; k < t.ndims; ++k) {
        if (off[k] < 0) tile_error("slice", "a negative offset");
        int64_t extent = static_cast<int64_t>(t.shapes[k]);
        offs[k] = static_cast<uint32_t>(std::min<int64_t>(off[k], extent));
        shapes[k] = static_cast<uint32_t>(inside(off[k], shape[k], extent));
    }
    return t.view(shapes, offs);
}

/// Removes the axes listed (each must have extent 1): `t[i, :]`.
inline ChipTensor drop_dims(const ChipTensor& t, const Dims& axes) {
    ChipTensor r = t;
    uint32_t n = 0;
    for (uint32_t k = 0; k < t.ndims; ++k) {
        bool drop = false;
        for (uint32_t a = 0; a < axes.n; ++a) drop = drop || axes[a] == static_cast<int64_t>(k);
        if (drop) continue;
        r.shapes[n] = t.shapes[k];
        r.strides[n] = t.strides[k];
        ++n;
    }
    for (uint32_t k = n; k < static_cast<uint32_t>(MAX_TENSOR_DIMS); ++k) {
        r.shapes[k] = 0;
        r.strides[k] = 0;
    }
    r.ndims = n;
    return r;
}

inline ChipTensor reshape(const ChipTensor& t, const Dims& shape) {
    uint32_t s[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    for (uint32_t k = 0; k < shape.n; ++k) s[k] = static_cast<uint32_t>(shape[k]);
    return t.reshape(s, shape.n);
}

inline ChipTensor transpose(const ChipTensor& t, int64_t a, int64_t b) {
    int64_t n = static_cast<int64_t>(t.ndims);
    if (a < 0) a += n;
    if (b < 0) b += n;
    return t.transpose(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
}

/// A kernel's DN tensor parameter as the device reads it: from the view's start, with the
/// packed DN strides of its shape (the last two axes column-major), whatever the strides
/// of the view handed over (PyPTO's kernels make their tensor views from the parameter's
/// declared shape and layout; the runtime passes only `buffer.addr + start_offset`).
inline ChipTensor as_dn_packed(const ChipTensor& t) {
    ChipTensor r = t;
    uint32_t n = t.ndims;
    if (n < 2) return r;
    uint32_t stride = 1;
    // Row-major strides of the shape with its last two axes swapped, then swapped back.
    uint32_t order[MAX_TENSOR_DIMS];
    for (uint32_t k = 0; k < n; ++k) order[k] = k;
    order[n - 2] = n - 1;
    order[n - 1] = n - 2;
    for (uint32_t k = n; k-- > 0;) {
        r.strides[order[k]] = stride;
        stride *= t.shapes[order[k]] == 0 ? 1 : t.shapes[order[k]];
    }
    r.is_contiguous = r.compute_contiguous();
    return r;
}

/// `pl.tensor.dim(t, axis)`.
inline int64_t dim(const ChipTensor& t, int64_t axis) {
    int64_t n = static_cast<int64_t>(t.ndims);
    if (axis < 0) axis += n;
    if (axis < 0 || axis >= n) tile_error("pl.tensor.dim", "axis out of range");
    return static_cast<int64_t>(t.shapes[axis]);
}

template <class T>
T read(const ChipTensor& t, const Dims& idx) {
    int64_t i[MAX_TENSOR_DIMS];
    full_offsets("pl.tensor.read", t, idx, i);
    const void* p = element_ptr(t, i);
    if (p == nullptr) tile_error("pl.tensor.read", "index outside the tensor");
    return plc_rt::load_as<T>(t.dtype, p);
}

/// `write(t, idx, v)`: one element written in place; the tensor returned (PyPTO's result).
template <class T>
ChipTensor write(const ChipTensor& t, const Dims& idx, T v) {
    int64_t i[MAX_TENSOR_DIMS];
    full_offsets("pl.tensor.write", t, idx, i);
    void* p = element_ptr(t, i);
    if (p == nullptr) tile_error("pl.tensor.write", "index outside the tensor");
    plc_rt::store_as<T>(t.dtype, p, v);
    return t;
}

/// Tensors a kernel allocates (`pl.create_tensor` in device code), freed when the kernel
/// wrapper that made the outermost Scratch returns.
class Scratch {
public:
    Scratch() : mark_(buffers().size()) {}
    ~Scratch() {
        auto& b = buffers();
        while (b.size() > mark_) {
            std::free(b.back());
            b.pop_back();
        }
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    static std::vector<void*>& buffers() {
        static thread_local std::vector<void*> b;
        return b;
    }

private:
    size_t mark_;
};

inline ChipTensor create_tensor(const Dims& shape, DataType dt) {
    uint32_t s[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    for (uint32_t k = 0; k < shape.n; ++k) s[k] = static_cast<uint32_t>(shape[k]);
    uint64_t n = 1;
    for (uint32_t k = 0; k < shape.n; ++k) n *= s[k];
    uint64_t bytes = n * get_element_size(dt);
    void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
    if (p == nullptr) tile_error("create_tensor", "out of memory");
    Scratch::buffers().push_back(p);
    return make_tensor_external(p, s, shape.n, dt);
}

// ------------------------------------------------------------------ a Group's kernels and their pipes

/// A cross-core pipe of a mixed kernel (one `id=`), as in `plc run` (`interp::group::Pipe`):
/// a ring of slots both directions share (PTO-ISA's TPipe). `pipe_init` sets the count up
/// (`*_initialize_pipe`; the default of a pipe of one direction until then), a push
/// (`tpush_*`) puts a copy of the tile in a free slot, a pop (`tpop_*`) takes the oldest tile
/// pushed that way and holds its slot until a free (`tfree_*`) hands it back.
struct Pipe {
    int64_t set_up = 0;
    /// The tiles pushed and not popped yet, oldest first: `[to the cube, to the vector core]`.
    std::deque<std::any> queued[2];
    /// The tiles popped and not freed yet.
    int64_t popped[2] = {0, 0};

    int64_t slots() const { return set_up > 0 ? set_up : DEFAULT_PIPE_SLOTS; }
    bool has_free_slot() const {
        int64_t taken = static_cast<int64_t>(queued[0].size() + queued[1].size()) + popped[0] + popped[1];
        return taken < slots();
    }
    static constexpr int64_t DEFAULT_PIPE_SLOTS = 8;
};
using Pipes = std::map<int64_t, Pipe>;

/// A direction of a pipe: its id and `to_vector` (from the cube to the vector core).
using PipeKey = std::pair<int64_t, bool>;

namespace together {

enum class State { Ready, Waiting, Done };

/// A batch of a Group's kernels run together (`run_together`): each on a thread of its
/// own, with a baton (the mutex and `running`) that lets exactly one of them run at a time.
/// A kernel runs until it finishes, pops an empty pipe or pushes on a full one; the baton
/// then goes to the next kernel, in call order and round robin, that can go on (not
/// started, or waiting on a pipe that now holds a tile or a free slot). The schedule is the
/// interpreter's (`interp/group.rs`), so the output is `plc run`'s and the same on every run.
struct Batch {
    std::mutex m;
    std::condition_variable wake;
    Pipes* pipes = nullptr;
    std::vector<std::string> names;
    std::vector<State> states;
    std::vector<PipeKey> waits_on;
    /// Whether a waiting kernel waits for a free slot (a push), not a tile (a pop).
    std::vector<bool> waits_for_slot;
    int64_t running = -1;

    bool can_go(size_t j) const {
        if (states[j] == State::Ready) return true;
        if (states[j] == State::Done) return false;
        auto p = pipes->find(waits_on[j].first);
        if (waits_for_slot[j]) return p == pipes->end() || p->second.has_free_slot();
        return p != pipes->end() && !p->second.queued[waits_on[j].second].empty();
    }
    /// The kernel after `from` (`from` itself last) that can go on, or -1.
    int64_t next(size_t from) const {
        size_t n = states.size();
        for (size_t k = 1; k <= n; ++k) {
            size_t j = (from + k) % n;
            if (can_go(j)) return static_cast<int64_t>(j);
        }
        return -1;
    }
};

/// The batch the kernel on this thread belongs to, and its place in it.
struct Member {
    Batch* batch = nullptr;
    size_t me = 0;
};
inline Member& member() {
    static thread_local Member m;
    return m;
}

/// What a waiting kernel waits for, in the words of `plc run` (`interp::group::waits_for`).
inline std::string waits_for(const Pipes& pipes, PipeKey key, bool slot) {
    std::string id = std::to_string(key.first);
    if (!slot) return "pipe " + id + " from " + (key.second ? "the cube (AIC) kernel" : "a vector (AIV) kernel");
    auto p = pipes.find(key.first);
    int64_t slots = p == pipes.end() ? Pipe::DEFAULT_PIPE_SLOTS : p->second.slots();
    return "a free slot of pipe " + id + " to " + (key.second ? "the vector (AIV) kernel" : "the cube (AIC) kernel") +
           " (its " + std::to_string(slots) + " slots are taken until a `" +
           (key.second ? "tfree_to_aic" : "tfree_to_aiv") + "` frees one)";
}

}  // namespace together

/// The pipes of the kernel on this thread: its batch's, which are those of the thread that
/// ran the batch.
inline Pipes& pipes() {
    together::Member& m = together::member();
    if (m.batch != nullptr) return *m.batch->pipes;
    static thread_local Pipes mine;
    return mine;
}

/// The pipes of a Group's body (`plc_group_pipes`): a Group is one mixed task, whose pipes
/// the runtime makes afresh, so the body runs with an empty set of its own and the caller's
/// come back after it, as in `plc run`.
struct GroupPipes {
    Pipes saved;
    GroupPipes() { saved.swap(pipes()); }
    ~GroupPipes() { pipes().swap(saved); }
    GroupPipes(const GroupPipes&) = delete;
    GroupPipes& operator=(const GroupPipes&) = delete;
};

/// A pop found `key` empty (`slot` false), or a push found its pipe full (`slot` true):
/// hands the baton on and returns when the kernel may try again. With no other kernel that
/// can push or free (none beside this one, or every kernel of the batch waiting on a pipe:
/// a deadlock) the run stops, naming what each kernel waits for.
inline void wait_on_pipe(PipeKey key, bool slot) {
    const char* op = slot ? "tpush" : "tpop";
    together::Member& m = together::member();
    if (m.batch == nullptr) {
        std::string what = together::waits_for(pipes(), key, slot);
        std::string msg = slot ? "no kernel runs beside this one to free " + what.substr(std::string("a free slot of ").size())
                               : "nothing was pushed on " + what + " and no other kernel runs beside this one to push it";
        tile_error(op, msg.c_str());
    }
    together::Batch& b = *m.batch;
    size_t me = m.me;
    std::unique_lock<std::mutex> lock(b.m);
    b.states[me] = together::State::Waiting;
    b.waits_on[me] = key;
    b.waits_for_slot[me] = slot;
    int64_t j = b.next(me);
    if (j < 0) {
        std::string msg = "a deadlock: every kernel of the Group still running waits on a pipe (";
        bool first = true;
        for (size_t k = 0; k < b.states.size(); ++k) {
            if (b.states[k] != together::State::Waiting) continue;
            msg += (first ? "`" : ", `") + b.names[k] + (b.waits_for_slot[k] ? "` waits for " : "` waits on ") +
                   together::waits_for(*b.pipes, b.waits_on[k], b.waits_for_slot[k]);
            first = false;
        }
        msg += ")";
        tile_error(op, msg.c_str());
    }
    b.running = j;
    b.wake.notify_all();
    b.wake.wait(lock, [&] { return b.running == static_cast<int64_t>(me); });
    b.states[me] = together::State::Ready;
}

/// `*_initialize_pipe`: pipe `id` has `slots` slots (both kernels set it up, alike).
inline void pipe_init(int64_t id, int64_t slots) {
    Pipe& p = pipes()[id];
    if (p.set_up > 0 && p.set_up != slots) {
        std::string msg = "pipe " + std::to_string(id) + " is set up with " + std::to_string(slots) +
                          " slots here and with " + std::to_string(p.set_up) +
                          " by the other kernel: the two ends must agree";
        tile_error("initialize_pipe", msg.c_str());
    }
    p.set_up = slots;
}
template <typename T>
inline void pipe_push(int64_t id, bool to_vector, const Tile<T>& t) {
    while (!pipes()[id].has_free_slot()) wait_on_pipe({id, to_vector}, true);
    pipes()[id].queued[to_vector].push_back(t);
}
template <typename T>
inline Tile<T> pipe_pop(int64_t id, bool to_vector) {
    while (pipes()[id].queued[to_vector].empty()) wait_on_pipe({id, to_vector}, false);
    Pipe& p = pipes()[id];
    auto& q = p.queued[to_vector];
    const Tile<T>* t = std::any_cast<Tile<T>>(&q.front());
    if (t == nullptr) tile_error("tpop", "the tile pushed has another element type");
    Tile<T> out = *t;
    q.pop_front();
    ++p.popped[to_vector];
    return out;
}
/// `tfree_*`: hands the slot of the oldest tile popped `to_vector` and not freed back.
inline void pipe_free(int64_t id, bool to_vector) {
    Pipe& p = pipes()[id];
    if (p.popped[to_vector] == 0) {
        std::string msg = std::string("without a tile to free: no tile that `") +
                          (to_vector ? "tpop_from_aic" : "tpop_from_aiv") + "` took from pipe " + std::to_string(id) +
                          " is still held (each pop is freed once)";
        tile_error("tfree", msg.c_str());
    }
    --p.popped[to_vector];
}

/// Runs the kernels `work` of a batch together (see `together::Batch`), each on a thread
/// that runs as the calling block; returns when all are done. The tensors a kernel makes
/// (`create_tensor`) are handed to the calling thread's `Scratch`.
inline void run_batch(const char* const* names, std::vector<std::function<void()>>& work) {
    size_t n = work.size();
    together::Batch b;
    b.pipes = &pipes();
    b.names.assign(names, names + n);
    b.states.assign(n, together::State::Ready);
    b.waits_on.assign(n, PipeKey{0, false});
    b.waits_for_slot.assign(n, false);
    BlockIds ids = current_block_ids();
    std::vector<void*>* scratch = &Scratch::buffers();
    std::vector<std::thread> threads;
    threads.reserve(n);
    for (size_t i = 0; i < n; ++i) {
#if defined(__cpp_exceptions)
        try {
#endif
        threads.emplace_back([&b, &work, i, ids, scratch] {
            std::unique_lock<std::mutex> lock(b.m);
            b.wake.wait(lock, [&] { return b.running == static_cast<int64_t>(i); });
            lock.unlock();
            together::member() = together::Member{&b, i};
            block_ids() = ids;
            work[i]();
            lock.lock();
            std::vector<void*>& mine = Scratch::buffers();
            scratch->insert(scratch->end(), mine.begin(), mine.end());
            mine.clear();
            b.states[i] = together::State::Done;
            b.running = b.next(i);
            b.wake.notify_all();
        });
#if defined(__cpp_exceptions)
        } catch (const std::system_error&) {
            tile_error("Group", "cannot start a thread for a kernel of the Group");
        }
#endif
    }
    {
        std::lock_guard<std::mutex> lock(b.m);
        b.running = b.next(n - 1);
        b.wake.notify_all();
    }
    for (std::thread& t : threads) t.join();
}

/// The kernels a Group calls one after another, run together as the runtime runs a mixed
/// task: `names` are theirs (for the deadlock message), `fs` the calls, in call order.
/// Returns what the last call returns (the others' results are their arguments).
template <class... F>
auto run_together(std::array<const char*, sizeof...(F)> names, F... fs) {
    constexpr size_t n = sizeof...(F);
    static_assert(n >= 1, "a batch of at least one kernel");
    auto calls = std::make_tuple(fs...);
    using Last = std::tuple_element_t<n - 1, std::tuple<F...>>;
    using R = std::invoke_result_t<Last&>;
    std::vector<std::function<void()>> work;
    work.reserve(n);
    std::apply([&](auto&... f) { (work.push_back([&f] { f(); }), ...); }, calls);
    if constexpr (std::is_void_v<R>) {
        run_batch(names.data(), work);
    } else {
        std::optional<R> result;
        Last& last = std::get<n - 1>(calls);
        work.back() = [&] { result.emplace(last()); };
        run_batch(names.data(), work);
        return std::move(*result);
    }
}

/// Copies `shape` elements from `src` at `src_off` to `dst` at `dst_off` (`pl.copy`).
template <class T>
ChipTensor copy(const ChipTensor& dst, const ChipTensor& src, const Dims& dst_off, const Dims& src_off,
                const Dims& shape) {
    Dims window = shape;
    if (!window.given) {
        window.given = true;
        window.n = src.ndims;
        for (uint32_t k = 0; k < src.ndims; ++k) window.v[k] = src.shapes[k];
    }
    Dims so = src_off;
    if (!so.given) so.given = true;
    Dims d = dst_off;
    if (!d.given) d.given = true;
    return store(load<T>(src, so, window), d, dst, window);
}

// ------------------------------------------------------------------ creation

template <class T>
Tile<T> create(const Dims& shape) {
    return make_tile<T>(shape);
}

template <class T, class S>
Tile<T> full(const Dims& shape, S value) {
    return make_tile<T>(shape, plc_rt::convert<T>(value));
}

/// `ci(start, shape, descending)`: start + k (or start - k) over the row-major index k.
template <class T, class S>
Tile<T> ci(S start, const Dims& shape, bool descending = false) {
    Tile<T> t = make_tile<T>(shape);
    for (int64_t k = 0; k < t.numel(); ++k) {
        int64_t v = static_cast<int64_t>(start) + (descending ? -k : k);
        t.data[static_cast<size_t>(k)] = static_cast<T>(v);
    }
    return t;
}

// ------------------------------------------------------------------ elementwise

template <class T>
using Compute = std::conditional_t<std::is_floating_point<T>::value, T, double>;

template <class T>
constexpr bool is_signed_or_float() {
    return std::is_signed<T>::value || std::is_floating_point<T>::value;
}

/// `a op b` over every element, extent-1 axes broadcast; the result has a's element type.
template <class T, class U, class F>
Tile<T> zip(const char* op, const Tile<T>& a, const Tile<U>& b, F f) {
    bool rows_ok = a.rows == b.rows || a.rows == 1 || b.rows == 1;
    bool cols_ok = a.cols == b.cols || a.cols == 1 || b.cols == 1;
    if (!rows_ok || !cols_ok) {
        // The same number of elements in another 2-D shape ([16, 1] with [1, 16]): flat.
        if (a.numel() != b.numel()) tile_error(op, "the tiles' shapes do not match");
        Tile<T> out = shaped_like<T>(a);
        for (int64_t k = 0; k < a.numel(); ++k) {
            out.data[static_cast<size_t>(k)] =
                static_cast<T>(f(a.data[static_cast<size_t>(k)], b.data[static_cast<size_t>(k)]));
        }
        return out;
    }
    int64_t rows = std::max(a.rows, b.rows);
    int64_t cols = std::max(a.cols, b.cols);
    Tile<T> out;
    if (a.rows == rows && a.cols == cols) {
        out = shaped_like<T>(a);
    } else if (b.rows == rows && b.cols == cols) {
        out = shaped_like<T>(b);
    } else {
        out = make_tile<T>(dims2(rows, cols));
    }
    auto vr = [&](int64_t ar, int64_t avr, int64_t br, int64_t bvr, int64_t n) {
        if (ar == br) return std::min(avr, bvr);
        return ar == n ? avr : bvr;
    };
    out.valid_rows = vr(a.rows, a.valid_rows, b.rows, b.valid_rows, rows);
    out.valid_cols = vr(a.cols, a.valid_cols, b.cols, b.valid_cols, cols);
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            const T& x = a.at(a.rows == 1 ? 0 : r, a.cols == 1 ? 0 : c);
            const U& y = b.at(b.rows == 1 ? 0 : r, b.cols == 1 ? 0 : c);
            out.at(r, c) = static_cast<T>(f(x, y));
        }
    }
    return out;
}

template <class T, class F>
Tile<T> map(const Tile<T>& a, F f) {
    Tile<T> out = a;
    for (auto& x : out.data) x = static_cast<T>(f(x));
    return out;
}

template <class T>
T div_value(T x, T y) {
    if constexpr (std::is_integral<T>::value) {
        return y == T(0) ? T(0) : static_cast<T>(x / y);
    } else {
        return x / y;
    }
}

/// Python's `%`: the sign of the divisor (0 for an integer division by zero).
template <class T>
T rem_value(T x, T y) {
    if constexpr (std::is_integral<T>::value) {
        if (y == T(0)) return T(0);
        T r = static_cast<T>(x % y);
        if constexpr (std::is_signed<T>::value) {
            if (r != T(0) && ((r < T(0)) != (y < T(0)))) r = static_cast<T>(r + y);
        }
        return r;
    } else {
        T r = std::fmod(x, y);
        if (r != T(0) && ((r < T(0)) != (y < T(0)))) r += y;
        return r;
    }
}

/// C's `fmod`: the sign of the dividend (0 for an integer division by zero).
template <class T>
T fmod_value(T x, T y) {
    if constexpr (std::is_integral<T>::value) {
        return y == T(0) ? T(0) : static_cast<T>(x % y);
    } else {
        return std::fmod(x, y);
    }
}

template <class A, class B>
auto floormod(A a, B b) {
    using C = std::common_type_t<A, B>;
    return rem_value<C>(static_cast<C>(a), static_cast<C>(b));
}

template <class T>
T bit_value(const char* op, T x, T y, int which) {
    if constexpr (std::is_integral<T>::value) {
        switch (which) {
            case 0:
                return static_cast<T>(x & y);
            case 1:
                return static_cast<T>(x | y);
            case 2:
                return static_cast<T>(x ^ y);
            case 3:
                return static_cast<T>(static_cast<uint64_t>(x) << (static_cast<uint64_t>(y) & 63u));
            default:
                return static_cast<T>(x >> (static_cast<uint64_t>(y) & 63u));
        }
    } else {
        (void)x;
        (void)y;
        (void)which;
        tile_error(op, "a bitwise operation on a floating-point tile");
    }
}

#define PLC_TILE_BINARY(NAME, EXPR)                                                              \
    template <class T, class U>                                                                  \
    Tile<T> NAME(const Tile<T>& a, const Tile<U>& b) {                                           \
        return zip(#NAME, a, b, [](T x, U yu) {                                                  \
            T y = plc_rt::convert<T>(yu);                                                        \
            (void)y;                                                                             \
            return EXPR;                                                                         \
        });                                                                                      \
    }                                                                                            \
    template <class T, class S, typename = std::enable_if_t<std::is_arithmetic<S>::value>>       \
    Tile<T> NAME(const Tile<T>& a, S s) {                                                        \
        T y = plc_rt::convert<T>(s);                                                             \
        return map(a, [y](T x) { return EXPR; });                                                \
    }

PLC_TILE_BINARY(add, static_cast<T>(x + y))
PLC_TILE_BINARY(sub, static_cast<T>(x - y))
PLC_TILE_BINARY(mul, static_cast<T>(x * y))
PLC_TILE_BINARY(div, div_value<T>(x, y))
PLC_TILE_BINARY(maximum, (x < y ? y : x))
PLC_TILE_BINARY(minimum, (y < x ? y : x))
PLC_TILE_BINARY(rem, rem_value<T>(x, y))
PLC_TILE_BINARY(bit_and, bit_value<T>("and", x, y, 0))
PLC_TILE_BINARY(bit_or, bit_value<T>("or", x, y, 1))
PLC_TILE_BINARY(bit_xor, bit_value<T>("xor", x, y, 2))
PLC_TILE_BINARY(shl, bit_value<T>("shl", x, y, 3))
PLC_TILE_BINARY(shr, bit_value<T>("shr", x, y, 4))
PLC_TILE_BINARY(fmod, fmod_value<T>(x, y))

#undef PLC_TILE_BINARY

/// `addc(a, b, c)` = a + b + c, `subc` = a - b + c as PTO-ISA's TSUBC (b may be a scalar:
/// addsc, subsc).
template <class T, class B, class U>
Tile<T> addc(const Tile<T>& a, const B& b, const Tile<U>& c) {
    return add(add(a, b), c);
}
template <class T, class B, class U>
Tile<T> subc(const Tile<T>& a, const B& b, const Tile<U>& c) {
    return add(sub(a, b), c);
}

/// `prelu(x, slope)`: x where x > 0, else x * slope (per element); `lrelu`: scalar slope.
template <class T, class U>
Tile<T> prelu(const Tile<T>& x, const Tile<U>& slope) {
    return zip("prelu", x, slope, [](T v, U s) { return v > T(0) ? v : static_cast<T>(v * plc_rt::convert<T>(s)); });
}
template <class T, class S>
Tile<T> lrelu(const Tile<T>& x, S slope) {
    T s = plc_rt::convert<T>(slope);
    return map(x, [s](T v) { return v > T(0) ? v : static_cast<T>(v * s); });
}

/// Comparison codes of `cmp_type`: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=. The result has the
/// left operand's element type, 1 where the comparison holds and 0 elsewhere.
template <class T>
bool compare(T x, T y, int64_t code) {
    switch (code) {
        case 0:
            return x == y;
        case 1:
            return x != y;
        case 2:
            return x < y;
        case 3:
            return x <= y;
        case 4:
            return x > y;
        case 5:
            return x >= y;
        default:
            tile_error("cmp", "cmp_type must be 0..5");
    }
}

template <class T, class U>
Tile<T> cmp(const Tile<T>& a, const Tile<U>& b, int64_t code = 0) {
    return zip("cmp", a, b, [code](T x, U y) { return compare<T>(x, plc_rt::convert<T>(y), code) ? T(1) : T(0); });
}
template <class T, class S, typename = std::enable_if_t<std::is_arithmetic<S>::value>>
Tile<T> cmp(const Tile<T>& a, S s, int64_t code = 0) {
    T y = plc_rt::convert<T>(s);
    return map(a, [y, code](T x) { return compare<T>(x, y, code) ? T(1) : T(0); });
}

/// PyPTO's tile compare mask from 0/1 values: uint8, bit c % 8 of byte c / 8 of a row holds
/// column c, the row padded to a multiple of 32 bytes; valid columns ceil(valid / 8).
template <class T>
Tile<uint8_t> pack_mask(const Tile<T>& bits) {
    int64_t packed = ((bits.cols + 7) / 8 + 31) / 32 * 32;
    Tile<uint8_t> m;
    m.ndims = bits.ndims;
    for (uint32_t k = 0; k < MAX_TENSOR_DIMS; ++k) m.shape[k] = bits.shape[k];
    m.shape[bits.ndims > 0 ? bits.ndims - 1 : 0] = packed;
    m.rows = bits.rows;
    m.cols = packed;
    m.valid_rows = bits.valid_rows;
    m.valid_cols = (bits.valid_cols + 7) / 8;
    m.data.assign(static_cast<size_t>(m.rows * packed), uint8_t(0));
    for (int64_t r = 0; r < bits.rows; ++r) {
        for (int64_t c = 0; c < bits.cols; ++c) {
            if (bits.at(r, c) != T(0)) m.at(r, c / 8) = static_cast<uint8_t>(m.at(r, c / 8) | (1u << (c % 8)));
        }
    }
    return m;
}

/// Bit (r, c) of a packed mask of w-bit elements: bit c % w of element c / w of row r.
template <class M>
bool mask_bit(const Tile<M>& mask, int64_t r, int64_t c, const char* op) {
    const int64_t w = static_cast<int64_t>(sizeof(M) * 8);
    if (r >= mask.rows || c / w >= mask.cols) tile_error(op, "the mask has no bit for an element");
    using U = std::make_unsigned_t<M>;
    return ((static_cast<U>(mask.at(r, c / w)) >> (c % w)) & 1u) != 0;
}

/// `sel(mask, a, b)`: a where the mask's bit is set, else b.
template <class M, class T, class U>
Tile<T> sel(const Tile<M>& mask, const Tile<T>& a, const Tile<U>& b) {
    if (a.numel() != b.numel()) tile_error("sel", "the tiles' shapes do not match");
    Tile<T> out = a;
    for (int64_t r = 0; r < a.rows; ++r) {
        for (int64_t c = 0; c < a.cols; ++c) {
            if (!mask_bit(mask, r, c, "sel")) out.at(r, c) = plc_rt::convert<T>(b.at(r, c));
        }
    }
    return out;
}

/// `sels(mask, src, s)`: src where the mask's bit is set, else s.
template <class M, class T, class S>
Tile<T> sels(const Tile<M>& mask, const Tile<T>& src, S s) {
    T fallback = plc_rt::convert<T>(s);
    Tile<T> out = src;
    for (int64_t r = 0; r < src.rows; ++r) {
        for (int64_t c = 0; c < src.cols; ++c) {
            if (!mask_bit(mask, r, c, "sels")) out.at(r, c) = fallback;
        }
    }
    return out;
}

/// The older tensor `sels(a, b, s)` as PyPTO's reference lowered it: b where a is non-zero,
/// else s.
template <class T, class U, class S>
Tile<T> sels_values(const Tile<T>& a, const Tile<U>& b, S s) {
    T fallback = plc_rt::convert<T>(s);
    return zip("sels", a, b, [fallback](T x, U y) { return x != T(0) ? plc_rt::convert<T>(y) : fallback; });
}

// Unary operations.

template <class T>
T abs_value(T x) {
    if constexpr (is_signed_or_float<T>()) {
        return x < T(0) ? static_cast<T>(T(0) - x) : x;
    } else {
        return x;
    }
}
template <class T>
T relu_value(T x) {
    if constexpr (is_signed_or_float<T>()) {
        return x < T(0) ? T(0) : x;
    } else {
        return x;
    }
}
template <class T>
T bit_not_value(T x) {
    if constexpr (std::is_integral<T>::value) {
        return static_cast<T>(~x);
    } else {
        (void)x;
        tile_error("not", "a bitwise operation on a floating-point tile");
        return T(0);
    }
}

#define PLC_TILE_UNARY(NAME, EXPR)                   \
    template <class T>                               \
    Tile<T> NAME(const Tile<T>& a) {                 \
        return map(a, [](T x) { return EXPR; });     \
    }

PLC_TILE_UNARY(exp, std::exp(static_cast<Compute<T>>(x)))
PLC_TILE_UNARY(log, std::log(static_cast<Compute<T>>(x)))
PLC_TILE_UNARY(sqrt, std::sqrt(static_cast<Compute<T>>(x)))
PLC_TILE_UNARY(rsqrt, Compute<T>(1) / std::sqrt(static_cast<Compute<T>>(x)))
PLC_TILE_UNARY(recip, Compute<T>(1) / static_cast<Compute<T>>(x))
PLC_TILE_UNARY(neg, static_cast<T>(T(0) - x))
PLC_TILE_UNARY(abs, abs_value<T>(x))
PLC_TILE_UNARY(relu, relu_value<T>(x))
PLC_TILE_UNARY(sin, std::sin(static_cast<Compute<T>>(x)))
PLC_TILE_UNARY(cos, std::cos(static_cast<Compute<T>>(x)))
PLC_TILE_UNARY(bit_not, bit_not_value<T>(x))

#undef PLC_TILE_UNARY

/// `expands(target, s)`: a tile shaped like target, every element s.
template <class T, class S>
Tile<T> expands(const Tile<T>& target, S s) {
    Tile<T> out = target;
    std::fill(out.data.begin(), out.data.end(), plc_rt::convert<T>(s));
    return out;
}

// ------------------------------------------------------------------ conversions

/// Rounding of a float → integer cast (`mode=`): the default truncates, as PyTorch's
/// `.to()` does in PyPTO's reference lowering.
enum class Round { Trunc, Rint, Round, Floor, Ceil };

/// `v` rounded to an integral value as `mode` says.
inline double round_integral(double v, Round mode) {
    switch (mode) {
        case Round::Rint: return std::nearbyint(v);
        case Round::Round: return std::round(v);
        case Round::Floor: return std::floor(v);
        case Round::Ceil: return std::ceil(v);
        case Round::Trunc: break;
    }
    return std::trunc(v);
}

template <class T, class U>
T convert_rounded(U x, Round mode) {
    if constexpr (std::is_integral<T>::value && std::is_floating_point<U>::value) {
        double v = round_integral(static_cast<double>(x), mode);
        if (std::isnan(v)) return T(0);
        if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
        if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(v);
    } else {
        (void)mode;
        return plc_rt::convert<T>(x);
    }
}

/// `cast(x, target)`: element type T, values rounded to the target format (FP16 and BF16
/// are held as float, rounded to their precision).
template <class T, class U>
Tile<T> cast(const Tile<U>& a, DataType target, Round mode = Round::Trunc) {
    Tile<T> out = shaped_like<T>(a);
    for (size_t k = 0; k < a.data.size(); ++k) {
        T v = convert_rounded<T>(a.data[k], mode);
        if constexpr (std::is_same<T, float>::value) v = plc_rt::round_to(target, v);
        out.data[k] = v;
    }
    return out;
}

/// A computed tile of FP16 or BF16 values (held as float), each rounded to the format, as
/// the vector unit rounds each instruction's result.
template <class T>
Tile<T> rounded(Tile<T> a, DataType format) {
    if constexpr (std::is_same<T, float>::value) {
        for (auto& v : a.data) v = plc_rt::round_to(format, v);
    }
    return a;
}

/// A scalar cast (`pl.cast(n, target_type=...)` on a scalar).
template <class T, class U>
T cast_scalar(U x, DataType target, Round mode = Round::Trunc) {
    T v = convert_rounded<T>(x, mode);
    if constexpr (std::is_same<T, float>::value) v = plc_rt::round_to(target, v);
    return v;
}

// ------------------------------------------------------------------ layout

/// `move(t, target_memory)`: a copy in another on-chip buffer (numerically the identity).
template <class T>
Tile<T> move(const Tile<T>& a, bool transpose_it = false);

template <class T>
Tile<T> transpose_last(const Tile<T>& a) {
    Tile<T> out = make_tile<T>(dims2(a.cols, a.rows));
    if (a.ndims >= 2) {
        out.ndims = a.ndims;
        for (uint32_t k = 0; k < a.ndims; ++k) out.shape[k] = a.shape[k];
        std::swap(out.shape[a.ndims - 1], out.shape[a.ndims - 2]);
        if (a.ndims > 2) tile_error("transpose", "a tile of more than 2 axes");
    }
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t c = 0; c < a.cols; ++c) out.at(c, r) = a.at(r, c);
    out.valid_rows = a.valid_cols;
    out.valid_cols = a.valid_rows;
    return out;
}

template <class T>
Tile<T> move(const Tile<T>& a, bool transpose_it) {
    return transpose_it ? transpose_last(a) : a;
}

/// `transpose(t, a, b)` on a tile: only the last two axes.
template <class T>
Tile<T> transpose(const Tile<T>& t, int64_t a, int64_t b) {
    int64_t n = static_cast<int64_t>(t.ndims);
    if (a < 0) a += n;
    if (b < 0) b += n;
    if (a == b) return t;
    if (std::min(a, b) != n - 2 || std::max(a, b) != n - 1) tile_error("transpose", "only the last two axes of a tile");
    return transpose_last(t);
}

/// The same elements (row-major) under another logical shape; all valid.
template <class T>
Tile<T> reshape(const Tile<T>& a, const Dims& shape) {
    Tile<T> out = make_tile<T>(shape);
    if (out.numel() != a.numel()) tile_error("reshape", "the new shape has another number of elements");
    out.data = a.data;
    if (a.valid_rows == a.rows && a.valid_cols == a.cols) return out;
    // A partly valid [n, 1] or [1, n] keeps its valid count along the other orientation.
    int64_t valid = a.cols == 1 ? a.valid_rows : (a.rows == 1 ? a.valid_cols : out.numel());
    if (out.cols == 1) out.valid_rows = std::min(valid, out.rows);
    if (out.rows == 1) out.valid_cols = std::min(valid, out.cols);
    return out;
}

/// Calls `f(r, c, br, bc)` for every (r, c) of a `rows` x `cols` window whose place
/// (br, bc) = offset + (r, c) lies inside a `big_rows` x `big_cols` tile, row by row.
template <class F>
void for_each_in_window(int64_t rows, int64_t cols, const Dims& offset, int64_t big_rows, int64_t big_cols, F f) {
    int64_t r0 = offset.row();
    int64_t c0 = offset.col();
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            int64_t br = r0 + r;
            int64_t bc = c0 + c;
            if (br >= 0 && br < big_rows && bc >= 0 && bc < big_cols) f(r, c, br, bc);
        }
    }
}

/// `tile.slice(t, shape, offset, valid_shape)`: a sub-tile, zero outside `t`.
template <class T>
Tile<T> slice(const Tile<T>& t, const Dims& shape, const Dims& offset, const Dims& valid = Dims()) {
    Tile<T> out = make_tile<T>(shape);
    for_each_in_window(out.rows, out.cols, offset, t.rows, t.cols,
                       [&](int64_t r, int64_t c, int64_t sr, int64_t sc) { out.at(r, c) = t.at(sr, sc); });
    out.valid_rows = std::max<int64_t>(std::min(out.rows, t.valid_rows - offset.row()), 0);
    out.valid_cols = std::max<int64_t>(std::min(out.cols, t.valid_cols - offset.col()), 0);
    if (valid.given) {
        if (valid.n >= 1) out.valid_cols = std::min(out.valid_cols, valid[valid.n - 1]);
        if (valid.n >= 2) out.valid_rows = std::min(out.valid_rows, valid[valid.n - 2]);
    }
    return out;
}

/// `assemble(target, source, offset)`: source's valid region written into target at
/// offset (added with `atomic_add`). Updates target and returns it.
template <class T, class U>
Tile<T> assemble(Tile<T>& target, const Tile<U>& source, const Dims& offset, bool atomic_add = false) {
    for_each_in_window(source.valid_rows, source.valid_cols, offset, target.rows, target.cols,
                       [&](int64_t r, int64_t c, int64_t tr, int64_t tc) {
                           T v = plc_rt::convert<T>(source.at(r, c));
                           target.at(tr, tc) = atomic_add ? static_cast<T>(target.at(tr, tc) + v) : v;
                       });
    return target;
}
template <class T, class U>
Tile<T> assemble(Tile<T>&& target, const Tile<U>& source, const Dims& offset, bool atomic_add = false) {
    Tile<T> t = static_cast<Tile<T>&&>(target);
    return assemble(t, source, offset, atomic_add);
}

/// A tensor value assembled: source (a tile) stored into the tensor at offset.
template <class U>
ChipTensor assemble(const ChipTensor& target, const Tile<U>& source, const Dims& offset, bool atomic_add = false) {
    return store(source, offset, target, Dims(), atomic_add);
}

template <class T>
Tile<T> set_validshape(const Tile<T>& t, int64_t valid_rows, int64_t valid_cols) {
    Tile<T> out = t;
    out.valid_rows = std::max<int64_t>(std::min(valid_rows, t.rows), 0);
    out.valid_cols = std::max<int64_t>(std::min(valid_cols, t.cols), 0);
    return out;
}

/// `concat(a, b)` along the last axis.
template <class T, class U>
Tile<T> concat(const Tile<T>& a, const Tile<U>& b) {
    if (a.rows != b.rows) tile_error("concat", "the tiles have different numbers of rows");
    Tile<T> out = make_tile<T>(dims2(a.rows, a.cols + b.cols));
    if (a.ndims >= 2) {
        out.ndims = a.ndims;
        for (uint32_t k = 0; k < a.ndims; ++k) out.shape[k] = a.shape[k];
        out.shape[a.ndims - 1] = a.cols + b.cols;
    }
    for (int64_t r = 0; r < a.rows; ++r) {
        for (int64_t c = 0; c < a.cols; ++c) out.at(r, c) = a.at(r, c);
        for (int64_t c = 0; c < b.cols; ++c) out.at(r, a.cols + c) = plc_rt::convert<T>(b.at(r, c));
    }
    return out;
}

/// Pad values of `fillpad` and of padded loads.
enum class Pad { Zero, Min, Max };

template <class T>
T pad_value(Pad p) {
    switch (p) {
        case Pad::Min: return std::numeric_limits<T>::lowest();
        case Pad::Max: return std::numeric_limits<T>::max();
        case Pad::Zero: break;
    }
    return T(0);
}

/// `fillpad(t, pad)`: the elements outside the valid region become the pad value; all valid.
template <class T>
Tile<T> fillpad(const Tile<T>& t, Pad p = Pad::Zero) {
    Tile<T> out = t;
    T v = pad_value<T>(p);
    for (int64_t r = 0; r < t.rows; ++r)
        for (int64_t c = 0; c < t.cols; ++c)
            if (r >= t.valid_rows || c >= t.valid_cols) out.at(r, c) = v;
    out.valid_rows = t.rows;
    out.valid_cols = t.cols;
    return out;
}

/// `fillpad_expand(t, shape, pad)`: t's valid region at the origin of a larger tile of
/// `shape`, the rest the pad value; all valid.
template <class T>
Tile<T> fillpad_expand(const Tile<T>& t, const Dims& shape, Pad p = Pad::Zero) {
    Tile<T> out = make_tile<T>(shape);
    if (out.rows < t.rows || out.cols < t.cols) tile_error("fillpad_expand", "the shape is smaller than the tile's");
    for (int64_t r = 0; r < t.valid_rows; ++r)
        for (int64_t c = 0; c < t.valid_cols; ++c) out.at(r, c) = t.at(r, c);
    out.valid_rows = t.valid_rows;
    out.valid_cols = t.valid_cols;
    return fillpad(out, p);
}

/// `fillpad_inplace(t, pad)`: `fillpad` written into t (also returned).
template <class T>
Tile<T> fillpad_inplace(Tile<T>& t, Pad p = Pad::Zero) {
    t = fillpad(t, p);
    return t;
}
template <class T>
Tile<T> fillpad_inplace(Tile<T>&& t, Pad p = Pad::Zero) {
    return fillpad(t, p);
}

/// `tri(diagonal, shape, valid, upper)`: 1 where `c - r <= diagonal` (`upper`: `>=`), else 0.
template <class T>
Tile<T> tri(int64_t diagonal, const Dims& shape, const Dims& valid = Dims(), bool upper = false) {
    Tile<T> out = make_tile<T>(shape);
    for (int64_t r = 0; r < out.rows; ++r)
        for (int64_t c = 0; c < out.cols; ++c) out.at(r, c) = (upper ? c - r >= diagonal : c - r <= diagonal) ? T(1) : T(0);
    if (valid.given && valid.n >= 2) {
        out.valid_rows = std::min(std::max<int64_t>(valid[valid.n - 2], 0), out.rows);
        out.valid_cols = std::min(std::max<int64_t>(valid[valid.n - 1], 0), out.cols);
    }
    return out;
}

/// `img2col(src, pos_m, pos_k, shape, image, kernel, stride, padding, dilation, c0)`: the
/// `shape` window at (pos_m, pos_k) of the unfolded matrix of a convolution over the
/// [H*W, C] feature map `src`: row m is output position pos_m + m, column k the input
/// element pos_k + k in (C1, KH, KW, C0) order; 0 where the kernel reads padding.
template <class T>
Tile<T> img2col(const Tile<T>& src, int64_t pos_m, int64_t pos_k, const Dims& shape, const Dims& image,
                const Dims& kernel, const Dims& stride, const Dims& padding, const Dims& dilation, int64_t c0) {
    auto at = [](const Dims& d, uint32_t k, int64_t fallback) { return d.given && k < d.n ? d[k] : fallback; };
    const int64_t h = at(image, 0, 1), w = at(image, 1, 1), kh = at(kernel, 0, 1), kw = at(kernel, 1, 1);
    const int64_t sh = at(stride, 0, 1), sw = at(stride, 1, 1), dh = at(dilation, 0, 1), dw = at(dilation, 1, 1);
    const int64_t pt = at(padding, 0, 0), pl = at(padding, 2, 0), pr = at(padding, 3, 0);
    const int64_t ow = std::max<int64_t>((w + pl + pr - dw * (kw - 1) - 1) / sw + 1, 1);
    Tile<T> out = make_tile<T>(shape);
    for (int64_t r = 0; r < out.rows; ++r) {
        for (int64_t c = 0; c < out.cols; ++c) {
            const int64_t m = pos_m + r, k = pos_k + c;
            const int64_t c1 = k / (kh * kw * c0), rest = k % (kh * kw * c0);
            const int64_t ky = rest / (kw * c0), kx = rest % (kw * c0) / c0, ch = c1 * c0 + rest % c0;
            const int64_t iy = m / ow * sh - pt + ky * dh, ix = m % ow * sw - pl + kx * dw;
            if (iy >= 0 && iy < h && ix >= 0 && ix < w && ch < src.cols && iy * w + ix < src.rows)
                out.at(r, c) = src.at(iy * w + ix, ch);
        }
    }
    return out;
}

/// `expand_clone(src, target)`: src broadcast from extents of 1 to target's shape.
template <class T, class U>
Tile<U> expand_clone(const Tile<T>& src, const Tile<U>& target) {
    return zip("expand_clone", target, src, [](U, T y) { return plc_rt::convert<U>(y); });
}

/// `pl.tensor.dim` of a tile value: an extent of its logical shape.
template <class T>
int64_t dim(const Tile<T>& t, int64_t axis) {
    int64_t n = static_cast<int64_t>(t.ndims);
    if (axis < 0) axis += n;
    if (axis < 0 || axis >= n) tile_error("pl.tensor.dim", "axis out of range");
    return t.shape[axis];
}

template <class T>
T read(const Tile<T>& t, const Dims& idx) {
    int64_t r = idx.row();
    int64_t c = idx.col();
    if (r < 0 || r >= t.rows || c < 0 || c >= t.cols) tile_error("pl.tile.read", "index outside the tile");
    return t.at(r, c);
}

/// `write(t, idx, v)`: one element written in place; the tile returned (PyPTO's result).
template <class T, class S>
Tile<T> write(Tile<T>& t, const Dims& idx, S v) {
    int64_t r = idx.row();
    int64_t c = idx.col();
    if (r < 0 || r >= t.rows || c < 0 || c >= t.cols) tile_error("pl.tile.write", "index outside the tile");
    t.at(r, c) = plc_rt::convert<T>(v);
    return t;
}

// ------------------------------------------------------------------ reductions

enum class Reduce { Sum, Max, Min, Prod };

template <class T>
T reduce_init(Reduce op) {
    switch (op) {
        case Reduce::Max: return std::numeric_limits<T>::lowest();
        case Reduce::Min: return std::numeric_limits<T>::max();
        case Reduce::Prod: return T(1);
        case Reduce::Sum: break;
    }
    return T(0);
}

template <class T>
T reduce_step(Reduce op, T acc, T x) {
    switch (op) {
        case Reduce::Max:
            return acc < x ? x : acc;
        case Reduce::Min:
            return x < acc ? x : acc;
        case Reduce::Prod:
            return static_cast<T>(acc * x);
        case Reduce::Sum:
            break;
    }
    return static_cast<T>(acc + x);
}

/// The column lanes of t along its axis `axis` (negative: from the end), which must come
/// before the last: `g(l, n, x)` for each, l the result's flat row, x(i, c) the lane's i-th
/// element in column c, of which the first n lie in t's valid rows. `rows` gets the
/// result's flat rows.
template <class T, class G>
void col_lanes(const Tile<T>& t, int64_t axis, int64_t& rows, G g) {
    Dims shape = shape_of(t);
    int64_t nd = static_cast<int64_t>(shape.n);
    if (axis < 0) axis += nd;
    if (nd < 2 || axis < 0 || axis > nd - 2) tile_error("col reduction", "needs an axis before the last of 2+ axes");
    int64_t len = shape[static_cast<uint32_t>(axis)];
    int64_t inner = 1;
    for (int64_t k = axis + 1; k < nd - 1; ++k) inner *= shape[static_cast<uint32_t>(k)];
    int64_t outer = len * inner == 0 ? 0 : t.rows / (len * inner);
    rows = outer * inner;
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t in = 0; in < inner; ++in) {
            int64_t base = o * len * inner + in;
            int64_t n = base < t.valid_rows ? std::min(len, (t.valid_rows - 1 - base) / inner + 1) : 0;
            g(o * inner + in, n, [&, base](int64_t i, int64_t c) { return t.at(base + i * inner, c); });
        }
    }
}

/// One value per row (`along_rows`: t's shape with the last extent 1, over the valid
/// columns) or per column lane along axis `col_axis` (t's shape with that extent 1, over
/// the valid rows; PyPTO's tensor rule reduces axis -2, its tile rule axis 0): `f(n, x)`,
/// x(i) the lane's i-th element of n.
template <class R, class T, class F>
Tile<R> per_lane(const Tile<T>& t, bool along_rows, int64_t col_axis, F f) {
    Dims kept = shape_of(t);
    if (along_rows) {
        if (kept.n > 0) kept.v[kept.n - 1] = 1;
        Tile<R> out = make_tile<R>(kept);
        for (int64_t l = 0; l < t.rows; ++l) {
            out.at(l, 0) = f(t.valid_cols, [&](int64_t i) { return t.at(l, i); });
        }
        out.valid_rows = t.valid_rows;
        return out;
    }
    int64_t axis = col_axis < 0 ? col_axis + static_cast<int64_t>(kept.n) : col_axis;
    if (axis >= 0 && axis < static_cast<int64_t>(kept.n)) kept.v[axis] = 1;
    Tile<R> out = make_tile<R>(kept);
    int64_t rows = 0;
    int64_t valid = 0;
    col_lanes(t, col_axis, rows, [&](int64_t l, int64_t n, auto x) {
        for (int64_t c = 0; c < t.cols; ++c) out.at(l, c) = f(n, [&](int64_t i) { return x(i, c); });
        if (n > 0) valid = l + 1;
    });
    // The reduced axis is one valid row; a lane with no valid element lies past the rest.
    out.valid_rows = std::max<int64_t>(valid, std::min<int64_t>(out.rows, 1));
    out.valid_cols = t.valid_cols;
    return out;
}

/// `op` along each row or column lane (see `per_lane`) over the valid region.
template <class T>
Tile<T> lane_reduce(const Tile<T>& t, Reduce op, bool along_rows, int64_t col_axis = 0) {
    return per_lane<T>(t, along_rows, col_axis, [op](int64_t n, auto x) {
        T acc = reduce_init<T>(op);
        for (int64_t i = 0; i < n; ++i) acc = reduce_step(op, acc, x(i));
        return acc;
    });
}

/// `NAME(t, col_axis)`: `FN(t, ARG, ALONG_ROWS, col_axis)`, a reduction along rows or
/// columns (`col_axis`: the axis a column reduction collapses, plc's `Axis::col_axis`).
#define PLC_TILE_REDUCE(NAME, RESULT, FN, ARG, ALONG_ROWS)   \
    template <class T>                                       \
    Tile<RESULT> NAME(const Tile<T>& t, int64_t col_axis = 0) { \
        return FN(t, ARG, ALONG_ROWS, col_axis);             \
    }

PLC_TILE_REDUCE(row_sum, T, lane_reduce, Reduce::Sum, true)
PLC_TILE_REDUCE(row_max, T, lane_reduce, Reduce::Max, true)
PLC_TILE_REDUCE(row_min, T, lane_reduce, Reduce::Min, true)
PLC_TILE_REDUCE(col_sum, T, lane_reduce, Reduce::Sum, false)
PLC_TILE_REDUCE(col_max, T, lane_reduce, Reduce::Max, false)
PLC_TILE_REDUCE(col_min, T, lane_reduce, Reduce::Min, false)
PLC_TILE_REDUCE(row_prod, T, lane_reduce, Reduce::Prod, true)
PLC_TILE_REDUCE(col_prod, T, lane_reduce, Reduce::Prod, false)

/// The position of the first maximum (`max`) or minimum of each row or column lane (see
/// `per_lane`) over the valid region, as INT32 (0 for an empty lane).
template <class T>
Tile<int32_t> lane_arg(const Tile<T>& t, bool max, bool along_rows, int64_t col_axis = 0) {
    return per_lane<int32_t>(t, along_rows, col_axis, [max](int64_t n, auto x) {
        int64_t best = 0;
        for (int64_t i = 1; i < n; ++i) {
            if (max ? x(best) < x(i) : x(i) < x(best)) best = i;
        }
        return static_cast<int32_t>(best);
    });
}

PLC_TILE_REDUCE(row_argmax, int32_t, lane_arg, true, true)
PLC_TILE_REDUCE(row_argmin, int32_t, lane_arg, false, true)
PLC_TILE_REDUCE(col_argmax, int32_t, lane_arg, true, false)
PLC_TILE_REDUCE(col_argmin, int32_t, lane_arg, false, false)

#undef PLC_TILE_REDUCE

/// `sum/max/min(t, axis, keepdim)` on a tile of one or two axes.
template <class T>
Tile<T> reduce_axis(const Tile<T>& t, Reduce op, int64_t axis, bool keepdim) {
    int64_t n = static_cast<int64_t>(t.ndims);
    if (axis < 0) axis += n;
    if (n > 2 || axis < 0 || axis >= std::max<int64_t>(n, 1)) tile_error("reduce", "axis out of range (tiles of 1 or 2 axes)");
    bool along_cols = axis == n - 1;  // the last axis
    Tile<T> out = lane_reduce(t, op, along_cols);
    if (keepdim) {
        if (n == 1) {
            out = reshape(out, Dims{1});
        }
        return out;
    }
    if (n == 1) return reshape(out, Dims{1});
    return reshape(out, Dims{along_cols ? t.rows : t.cols});
}

// ------------------------------------------------------------------ broadcasts

/// `row_expand_op(t, v)`: v [rows, 1] applied along each row of t.
template <class T, class U, class F>
Tile<T> row_expand(const char* op, const Tile<T>& t, const Tile<U>& v, F f) {
    if (v.numel() != t.rows) tile_error(op, "the vector needs one element per row");
    Tile<T> out = t;
    for (int64_t r = 0; r < t.rows; ++r) {
        T x = plc_rt::convert<T>(v.data[static_cast<size_t>(r)]);
        for (int64_t c = 0; c < t.cols; ++c) out.at(r, c) = static_cast<T>(f(t.at(r, c), x));
    }
    return out;
}

/// `col_expand_op(t, v)`: v [1, cols] applied down each column of t.
template <class T, class U, class F>
Tile<T> col_expand(const char* op, const Tile<T>& t, const Tile<U>& v, F f) {
    if (v.numel() != t.cols) tile_error(op, "the vector needs one element per column");
    Tile<T> out = t;
    for (int64_t r = 0; r < t.rows; ++r)
        for (int64_t c = 0; c < t.cols; ++c)
            out.at(r, c) = static_cast<T>(f(t.at(r, c), plc_rt::convert<T>(v.data[static_cast<size_t>(c)])));
    return out;
}

/// `NAME(t, v)`: `FN("NAME", t, v, f)` with `f(x, y)` = EXPR (a row or column expansion,
/// or a part op).
#define PLC_TILE_PAIRWISE(NAME, FN, EXPR)                                    \
    template <class T, class U>                                              \
    Tile<T> NAME(const Tile<T>& t, const Tile<U>& v) {                       \
        return FN(#NAME, t, v, [](T x, T y) { return EXPR; });              \
    }

/// `row_expand_OP` and `col_expand_OP`: f = EXPR along each row or column.
#define PLC_TILE_EXPANDS(OP, EXPR)                  \
    PLC_TILE_PAIRWISE(row_expand_##OP, row_expand, EXPR) \
    PLC_TILE_PAIRWISE(col_expand_##OP, col_expand, EXPR)

PLC_TILE_EXPANDS(add, x + y)
PLC_TILE_EXPANDS(sub, x - y)
PLC_TILE_EXPANDS(mul, x * y)
PLC_TILE_EXPANDS(div, div_value<T>(x, y))
PLC_TILE_EXPANDS(max, x < y ? y : x)
PLC_TILE_EXPANDS(min, y < x ? y : x)
// `exp(t - v)` (PTO's `TROWEXPANDEXPDIF`: a subtraction, then `exp`).
PLC_TILE_EXPANDS(expdif, std::exp(static_cast<Compute<T>>(static_cast<T>(x - y))))

#undef PLC_TILE_EXPANDS

/// `row_expand(target, v)`: v [rows, 1] repeated along every row, shaped like target.
template <class T, class U>
Tile<T> row_expand(const Tile<T>& target, const Tile<U>& v) {
    return row_expand("row_expand", target, v, [](T, T y) { return y; });
}

// ------------------------------------------------------------------ part ops

/// `part_op(a, b)` (PTO's `TPARTADD`, ...): op(a, b) where both are valid, the valid one
/// where only one is, 0 elsewhere; valid over the union of the two valid regions. The
/// shapes broadcast (PyPTO's `bcast`): an operand with one row or one column is read
/// along that axis at index 0 and counts as valid along all of it.
template <class T, class U, class F>
Tile<T> part(const char* op, const Tile<T>& a, const Tile<U>& b, F f) {
    auto fits = [](int64_t x, int64_t y) { return x == y || x == 1 || y == 1; };
    if (!fits(a.rows, b.rows) || !fits(a.cols, b.cols)) tile_error(op, "the tiles' shapes do not broadcast");
    bool a_covers = a.rows >= b.rows && a.cols >= b.cols;
    if (!a_covers && !(b.rows >= a.rows && b.cols >= a.cols))
        tile_error(op, "each operand broadcasts along a different axis");
    Tile<T> out = a_covers ? shaped_like<T>(a) : shaped_like<T>(b);
    auto valid_r = [&](int64_t rows, int64_t valid) { return rows == 1 ? out.rows : valid; };
    auto valid_c = [&](int64_t cols, int64_t valid) { return cols == 1 ? out.cols : valid; };
    int64_t ar = valid_r(a.rows, a.valid_rows), ac = valid_c(a.cols, a.valid_cols);
    int64_t br = valid_r(b.rows, b.valid_rows), bc = valid_c(b.cols, b.valid_cols);
    out.valid_rows = std::max(ar, br);
    out.valid_cols = std::max(ac, bc);
    for (int64_t r = 0; r < out.rows; ++r) {
        for (int64_t c = 0; c < out.cols; ++c) {
            bool in_a = r < ar && c < ac;
            bool in_b = r < br && c < bc;
            T x = a.at(a.rows == 1 ? 0 : r, a.cols == 1 ? 0 : c);
            T y = plc_rt::convert<T>(b.at(b.rows == 1 ? 0 : r, b.cols == 1 ? 0 : c));
            out.at(r, c) = in_a && in_b ? static_cast<T>(f(x, y)) : in_a ? x : in_b ? y : T(0);
        }
    }
    return out;
}

PLC_TILE_PAIRWISE(part_add, part, x + y)
PLC_TILE_PAIRWISE(part_mul, part, x * y)
PLC_TILE_PAIRWISE(part_max, part, x < y ? y : x)
PLC_TILE_PAIRWISE(part_min, part, y < x ? y : x)

#undef PLC_TILE_PAIRWISE

/// `col_expand(target, v)`: v [1, cols] repeated on every row, shaped like target.
template <class T, class U>
Tile<T> col_expand(const Tile<T>& target, const Tile<U>& v) {
    return col_expand("col_expand", target, v, [](T, T y) { return y; });
}

// ------------------------------------------------------------------ matrix products

/// `lhs @ rhs` accumulated in FP32 (int64 for integer tiles), result element type T.
template <class T, class A, class B>
Tile<T> matmul(const Tile<A>& a, const Tile<B>& b, bool a_trans = false, bool b_trans = false) {
    const Tile<A>& x = a;
    const Tile<B>& y = b;
    Tile<A> xt;
    Tile<B> yt;
    const Tile<A>* lhs = &x;
    const Tile<B>* rhs = &y;
    if (a_trans) {
        xt = transpose_last(a);
        lhs = &xt;
    }
    if (b_trans) {
        yt = transpose_last(b);
        rhs = &yt;
    }
    if (lhs->cols != rhs->rows) tile_error("matmul", "the inner extents differ");
    using Acc = std::conditional_t<std::is_floating_point<A>::value || std::is_floating_point<B>::value, float, int64_t>;
    Tile<T> out = make_tile<T>(dims2(lhs->rows, rhs->cols));
    for (int64_t i = 0; i < lhs->rows; ++i) {
        for (int64_t j = 0; j < rhs->cols; ++j) {
            Acc acc = Acc(0);
            for (int64_t k = 0; k < lhs->cols; ++k) {
                acc += static_cast<Acc>(lhs->at(i, k)) * static_cast<Acc>(rhs->at(k, j));
            }
            out.at(i, j) = plc_rt::convert<T>(acc);
        }
    }
    out.valid_rows = lhs->valid_rows;
    out.valid_cols = rhs->valid_cols;
    return out;
}

/// `matmul_acc(acc, lhs, rhs)` = acc + lhs @ rhs (just lhs @ rhs when `init` holds).
template <class T, class A, class B>
Tile<T> matmul_acc(const Tile<T>& acc, const Tile<A>& a, const Tile<B>& b, bool init = false, bool a_trans = false,
                   bool b_trans = false) {
    Tile<T> prod = matmul<T>(a, b, a_trans, b_trans);
    if (init) return prod;
    return add(acc, prod);
}

/// `matmul_bias(lhs, rhs, bias)` = lhs @ rhs + bias (bias [1, N] on every row).
template <class T, class A, class B, class C>
Tile<T> matmul_bias(const Tile<A>& a, const Tile<B>& b, const Tile<C>& bias, bool a_trans = false, bool b_trans = false) {
    return add(matmul<T>(a, b, a_trans, b_trans), bias);
}

// ------------------------------------------------------------------ sorting and gathering

template <class T>
T element_of(const uint8_t* b, DataType dt);

/// `sort32(src, idx)`: each 32-element run of each row as (value, index) pairs sorted by
/// value, largest first (equal values by index), written `[v0, i0, v1, i1, ...]` (the last
/// extent doubles), as TSORT32 does: the UINT32 index's bits in the element after the
/// value (the low 16 of them for a 2-byte `dt`).
template <class T, class U>
Tile<T> sort32(const Tile<T>& src, const Tile<U>& idx, DataType dt) {
    if (src.rows != idx.rows || src.cols != idx.cols) tile_error("sort32", "the values and indices differ in shape");
    Dims shape = shape_of(src);
    shape.v[shape.n - 1] *= 2;
    Tile<T> out = make_tile<T>(shape);
    std::vector<std::pair<T, uint32_t>> pairs;
    for (int64_t r = 0; r < src.rows; ++r) {
        for (int64_t start = 0; start < src.cols; start += 32) {
            int64_t end = std::min<int64_t>(start + 32, src.cols);
            pairs.clear();
            for (int64_t c = start; c < end; ++c)
                pairs.emplace_back(src.at(r, c), static_cast<uint32_t>(static_cast<int64_t>(idx.at(r, c))));
            std::stable_sort(pairs.begin(), pairs.end(),
                             [](const std::pair<T, uint32_t>& x, const std::pair<T, uint32_t>& y) {
                                 return y.first < x.first || (!(x.first < y.first) && x.second < y.second);
                             });
            for (size_t k = 0; k < pairs.size(); ++k) {
                int64_t at = 2 * (start + static_cast<int64_t>(k));
                out.at(r, at) = pairs[k].first;
                uint8_t bytes[4];
                for (int b = 0; b < 4; ++b) bytes[b] = static_cast<uint8_t>(pairs[k].second >> (8 * b));
                out.at(r, at + 1) = element_of<T>(bytes, dt);
            }
        }
    }
    return out;
}

/// `mrgsort(src, block_len=n)`: the sorted runs of n positions (n / 2 pairs) merged four at
/// a time, so that each chunk of 4n positions of a row is sorted by value, largest first.
template <class T>
Tile<T> mrgsort(const Tile<T>& src, int64_t block_len) {
    if (block_len <= 0 || block_len % 2 != 0) tile_error("mrgsort", "block_len must be a positive even number");
    Tile<T> out = src;
    int64_t chunk = 4 * block_len;
    std::vector<std::pair<T, T>> pairs;
    for (int64_t r = 0; r < src.rows; ++r) {
        for (int64_t start = 0; start < src.cols; start += chunk) {
            int64_t end = std::min<int64_t>(start + chunk, src.cols);
            pairs.clear();
            for (int64_t c = start; c + 1 < end; c += 2) pairs.emplace_back(src.at(r, c), src.at(r, c + 1));
            std::stable_sort(pairs.begin(), pairs.end(),
                             [](const std::pair<T, T>& x, const std::pair<T, T>& y) { return y.first < x.first; });
            for (size_t k = 0; k < pairs.size(); ++k) {
                int64_t at = start + 2 * static_cast<int64_t>(k);
                out.at(r, at) = pairs[k].first;
                out.at(r, at + 1) = pairs[k].second;
            }
        }
    }
    return out;
}

/// `mrgsort` of 2-4 one-row sources (`mrgsort_format2`), PTO-ISA's TMRGSORT as its CPU
/// simulator computes it: 8-byte structures (2 FP32 or 4 FP16 elements, the value first);
/// the head of the list whose value is largest (the earlier list on a tie) goes next, until
/// the result is full, the lists are empty or (`exhausted`) one list is. With `last_is_tmp`
/// (the tile form) the last tile is the scratch whose shape the result has; else (tensors)
/// the result joins the sources along the last axis. What the merge does not reach is 0.
template <class T, class... S>
Tile<T> merge_lists(bool last_is_tmp, bool exhausted, int64_t elem_bytes, const Tile<T>& s0, const S&... rest) {
    std::vector<const Tile<T>*> src{&s0, &rest...};
    Dims shape;
    if (last_is_tmp) {
        shape = shape_of(*src.back());
        src.pop_back();
    } else {
        shape = shape_of(s0);
        int64_t cols = 0;
        for (const Tile<T>* t : src) cols += t->cols;
        shape.v[shape.n - 1] = cols;
    }
    for (const Tile<T>* t : src)
        if (t->rows != 1) tile_error("mrgsort", "TMRGSORT merges lists of one row");
    Tile<T> out = make_tile<T>(shape);
    int64_t per = 8 / elem_bytes;
    std::vector<int64_t> next(src.size(), 0);
    std::vector<int64_t> len;
    for (const Tile<T>* t : src) len.push_back(t->valid_cols / per);
    for (int64_t k = 0; k < out.cols / per; ++k) {
        int64_t pick = -1;
        for (size_t l = 0; l < src.size(); ++l) {
            if (next[l] >= len[l]) continue;
            if (pick < 0 || src[l]->data[static_cast<size_t>(next[l] * per)] >
                                src[static_cast<size_t>(pick)]->data[static_cast<size_t>(next[pick] * per)])
                pick = static_cast<int64_t>(l);
        }
        if (pick < 0) break;
        const Tile<T>& from = *src[static_cast<size_t>(pick)];
        for (int64_t e = 0; e < per; ++e)
            out.data[static_cast<size_t>(k * per + e)] = from.data[static_cast<size_t>(next[pick] * per + e)];
        next[pick] += 1;
        bool any_empty = false;
        for (size_t l = 0; l < src.size(); ++l) any_empty = any_empty || next[l] == len[l];
        if (exhausted && any_empty) break;
    }
    return out;
}

/// `tile.gather(src, indices, tmp)`, TGATHER's index form: out[i][j] = src.flat[indices[i][j]],
/// an index counting the source's elements row after row.
template <class T, class I>
Tile<T> gather_flat(const Tile<T>& src, const Tile<I>& index) {
    Tile<T> out = make_tile<T>(shape_of(index));
    for (int64_t k = 0; k < index.numel(); ++k) {
        int64_t at = static_cast<int64_t>(index.data[static_cast<size_t>(k)]);
        if (at < 0 || at >= src.numel()) tile_error("gather", "an index outside the source");
        out.data[static_cast<size_t>(k)] = src.data[static_cast<size_t>(at)];
    }
    return out;
}

/// `gather(src, index)` along the last axis: out[r][c] = src[r][index[r][c]].
template <class T, class I>
Tile<T> gather_index(const Tile<T>& src, const Tile<I>& index) {
    if (index.rows != src.rows) tile_error("gather", "the index has another number of rows");
    Tile<T> out = make_tile<T>(shape_of(index));
    for (int64_t r = 0; r < index.rows; ++r) {
        for (int64_t c = 0; c < index.cols; ++c) {
            int64_t at = static_cast<int64_t>(index.at(r, c));
            if (at < 0 || at >= src.cols) tile_error("gather", "an index outside the source");
            out.at(r, c) = src.at(r, at);
        }
    }
    return out;
}

/// `gather_compare(src, k, ...)`: for each row of a 2-D source, the positions of the
/// elements x with `compare(x, k, code)` (position = offset + r * cols + c, the element's
/// place in the source's storage), the first out_cols of them in column order (the rest of
/// the row 0), and the number of all of them (a [1, rows] tile of C).
template <class C, class T, class K>
std::tuple<Tile<int32_t>, Tile<C>> gather_compare(const Tile<T>& src, K k, int64_t code, int64_t offset,
                                                  int64_t out_cols) {
    T y = plc_rt::convert<T>(k);
    Tile<int32_t> positions = make_tile<int32_t>(dims2(src.rows, out_cols));
    Tile<C> counts = make_tile<C>(dims2(1, src.rows));
    for (int64_t r = 0; r < src.valid_rows; ++r) {
        int64_t n = 0;
        for (int64_t c = 0; c < src.valid_cols; ++c) {
            if (!compare<T>(src.at(r, c), y, code)) continue;
            if (n < out_cols) positions.at(r, n) = static_cast<int32_t>(offset + r * src.cols + c);
            ++n;
        }
        counts.at(0, r) = static_cast<C>(n);
    }
    return {positions, counts};
}

// ------------------------------------------------------------------ scatters, random numbers, reinterpretation

/// `tile.scatter(dst, src, indexes)`: dst.flat[indexes[i][j]] = src[i][j], in order.
template <class T, class U, class I>
void scatter_flat_into(Tile<T>& dst, const Tile<U>& src, const Tile<I>& idx) {
    if (idx.rows != src.rows || idx.cols != src.cols) tile_error("scatter", "indexes of another shape than src");
    for (int64_t k = 0; k < src.numel(); ++k) {
        int64_t at = static_cast<int64_t>(idx.data[static_cast<size_t>(k)]);
        if (at < 0 || at >= dst.numel()) tile_error("scatter", "an index outside the destination");
        dst.data[static_cast<size_t>(at)] = plc_rt::convert<T>(src.data[static_cast<size_t>(k)]);
    }
}

/// `tensor.scatter(input, dim=-1, index, src)`: out[b][index[b][k]] = src[b][k] in a copy.
template <class T, class U, class I>
Tile<T> scatter_columns(const Tile<T>& input, const Tile<I>& index, const Tile<U>& src) {
    if (index.rows != src.rows || index.cols != src.cols || src.rows > input.rows) {
        tile_error("scatter", "the index, src and input shapes do not fit");
    }
    Tile<T> out = input;
    for (int64_t b = 0; b < src.rows; ++b) {
        for (int64_t k = 0; k < src.cols; ++k) {
            int64_t at = static_cast<int64_t>(index.at(b, k));
            if (at < 0 || at >= out.cols) tile_error("scatter", "a column index outside the input");
            out.at(b, at) = plc_rt::convert<T>(src.at(b, k));
        }
    }
    return out;
}

/// `scatter_mask`: src[r][c] to dst[r][c * stride + lane].
template <class T, class U>
void scatter_mask_into(Tile<T>& dst, const Tile<U>& src, int64_t stride, int64_t lane) {
    if (src.rows > dst.rows || src.cols * stride != dst.cols) tile_error("scatter_mask", "the shapes do not fit the pattern");
    for (int64_t r = 0; r < src.rows; ++r)
        for (int64_t c = 0; c < src.cols; ++c) dst.at(r, c * stride + lane) = plc_rt::convert<T>(src.at(r, c));
}

/// `scatter_update`: row k of src (rows of the last extent) to row idx.flat[k] of input.
template <class T, class U, class I>
void scatter_rows_into(Tile<T>& input, const Tile<I>& idx, const Tile<U>& src) {
    if (src.cols != input.cols || src.rows != idx.numel()) tile_error("scatter_update", "the index, src and input shapes do not fit");
    for (int64_t k = 0; k < idx.numel(); ++k) {
        int64_t at = static_cast<int64_t>(idx.data[static_cast<size_t>(k)]);
        if (at < 0 || at >= input.rows) tile_error("scatter_update", "a row index outside the input");
        for (int64_t c = 0; c < input.cols; ++c) input.at(at, c) = plc_rt::convert<T>(src.at(k, c));
    }
}

/// The tile forms write into their first argument (PyPTO's DPS form) and return it; the
/// tensor forms (`_copy`) leave it as it is. `NAME(dst, args...)` (an lvalue or a
/// temporary) and `NAME_copy(dst, args...)` over `INTO(dst, args...)`.
#define PLC_TILE_WRITE_FORMS(NAME, INTO)                                 \
    template <class T, class... A>                                       \
    Tile<T> NAME(Tile<T>& dst, const A&... args) {                       \
        INTO(dst, args...);                                              \
        return dst;                                                      \
    }                                                                    \
    template <class T, class... A>                                       \
    Tile<T> NAME(Tile<T>&& dst, const A&... args) {                      \
        INTO(dst, args...);                                              \
        return std::move(dst);                                           \
    }                                                                    \
    template <class T, class... A>                                       \
    Tile<T> NAME##_copy(const Tile<T>& dst, const A&... args) {          \
        Tile<T> out = dst;                                               \
        INTO(out, args...);                                              \
        return out;                                                      \
    }

PLC_TILE_WRITE_FORMS(scatter_flat, scatter_flat_into)
PLC_TILE_WRITE_FORMS(scatter_mask, scatter_mask_into)
PLC_TILE_WRITE_FORMS(scatter_rows, scatter_rows_into)

#undef PLC_TILE_WRITE_FORMS

/// Philox4x32 of a 128-bit counter under a 64-bit key (PTO-ISA's CPU TRANDOM).
inline std::array<uint32_t, 4> philox(std::array<uint32_t, 4> c, uint32_t k0, uint32_t k1, int64_t rounds) {
    for (int64_t i = 0; i < rounds; ++i) {
        uint64_t p0 = static_cast<uint64_t>(c[0]) * 0xD2511F53u;
        uint64_t p1 = static_cast<uint64_t>(c[2]) * 0xCD9E8D57u;
        c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
             static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return c;
}

inline std::array<uint32_t, 4> counter_add(std::array<uint32_t, 4> c, uint64_t n) {
    uint64_t carry = n;
    for (auto& w : c) {
        carry += w;
        w = static_cast<uint32_t>(carry);
        carry >>= 32;
    }
    return c;
}

/// `random(key0, key1, counter0..3, shape, valid, rounds)`: the valid region filled as
/// TRANDOM fills a row-major tile (chunks of 256 columns; lane l of a chunk runs Philox on
/// the row's counter plus l, its words going to columns l, 64+l, 128+l, 192+l; the counter
/// advances by cols/4 per chunk); 0 elsewhere.
template <class T>
Tile<T> random(int64_t key0, int64_t key1, int64_t c0, int64_t c1, int64_t c2, int64_t c3, const Dims& shape,
               const Dims& valid, int64_t rounds) {
    Tile<T> out = make_tile<T>(shape);
    int64_t vr = out.rows, vc = out.cols;
    if (valid.given && valid.n == 2) {
        vr = std::min(std::max<int64_t>(valid[0], 0), out.rows);
        vc = std::min(std::max<int64_t>(valid[1], 0), out.cols);
    }
    std::array<uint32_t, 4> row = {static_cast<uint32_t>(c0), static_cast<uint32_t>(c1), static_cast<uint32_t>(c2),
                                   static_cast<uint32_t>(c3)};
    int64_t chunks = (vc + 255) / 256;
    for (int64_t r = 0; r < vr; ++r) {
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
            for (int64_t lane = 0; lane < 64; ++lane) {
                auto words = philox(counter_add(row, static_cast<uint64_t>(lane)), static_cast<uint32_t>(key0),
                                    static_cast<uint32_t>(key1), rounds);
                for (int64_t k = 0; k < 4; ++k) {
                    int64_t c = chunk * 256 + k * 64 + lane;
                    if (c < vc) out.at(r, c) = static_cast<T>(words[static_cast<size_t>(k)]);
                }
            }
            row = counter_add(row, static_cast<uint64_t>(out.cols / 4));
        }
    }
    out.valid_rows = vr;
    out.valid_cols = vc;
    return out;
}

/// The little-endian bytes of an element of `dt` held as T (FP16 and BF16 as float).
template <class T>
void element_bytes(T v, DataType dt, std::vector<uint8_t>& out) {
    uint64_t bits = 0;
    uint32_t width = get_element_size(dt);
    if (dt == DataType::FLOAT32) {
        float f = static_cast<float>(v);
        uint32_t b = 0;
        std::memcpy(&b, &f, 4);
        bits = b;
    } else if (dt == DataType::FLOAT16) {
        bits = plc_rt::float_to_half(static_cast<float>(v));
    } else if (dt == DataType::BFLOAT16) {
        bits = plc_rt::float_to_bf16(static_cast<float>(v));
    } else {
        bits = static_cast<uint64_t>(static_cast<int64_t>(v));
    }
    for (uint32_t k = 0; k < width; ++k) out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
}

/// An element of `dt` from its little-endian bytes, as T (the host's order: the CPU
/// runtimes run on little-endian hosts).
template <class T>
T element_of(const uint8_t* b, DataType dt) {
    return plc_rt::load_as<T>(dt, b);
}

/// `reinterpret_view(x, dtype, shape)`: x's bytes in row-major order read as `to`; without
/// a shape, x's with the last extent rescaled by the widths.
template <class To, class From>
Tile<To> reinterpret(const Tile<From>& x, DataType from, DataType to, const Dims& shape) {
    std::vector<uint8_t> bytes;
    bytes.reserve(static_cast<size_t>(x.numel()) * get_element_size(from));
    for (const From& v : x.data) element_bytes(v, from, bytes);
    Dims s = shape;
    if (!s.given) {
        s = shape_of(x);
        int64_t b = s.v[s.n - 1] * static_cast<int64_t>(get_element_size(from));
        if (b % static_cast<int64_t>(get_element_size(to)) != 0) tile_error("reinterpret_view", "a partial element");
        s.v[s.n - 1] = b / static_cast<int64_t>(get_element_size(to));
    }
    Tile<To> out = make_tile<To>(s);
    size_t width = get_element_size(to);
    if (static_cast<size_t>(out.numel()) * width != bytes.size()) tile_error("reinterpret_view", "another number of bytes");
    for (size_t k = 0; k < out.data.size(); ++k) out.data[k] = element_of<To>(&bytes[k * width], to);
    return out;
}

/// `gather(src, mask_pattern=...)`: of each row, the columns `c` with `c % stride == lane`
/// (PTO-ISA's TGATHER mask form: stride 2 for P0101/P1010, 4 for P0001..P1000, 1 for
/// P1111). With an output dtype `to` other than the source's `from` (of the same width),
/// each element's bits are read as `to`, as TGATHER's `BitCastOrCast` does.
template <class O, class T>
Tile<O> gather_mask(const Tile<T>& src, DataType from, DataType to, int64_t stride, int64_t lane) {
    Dims shape = shape_of(src);
    shape.v[shape.n - 1] = src.cols / stride;
    Tile<O> out = make_tile<O>(shape);
    size_t width = get_element_size(to);
    if (from != to && get_element_size(from) != width) tile_error("gather_mask", "an output dtype of another width");
    std::vector<uint8_t> bytes;
    for (int64_t r = 0; r < src.rows; ++r) {
        for (int64_t c = 0; c < out.cols; ++c) {
            T v = src.at(r, stride * c + lane);
            if (from == to) {
                out.at(r, c) = plc_rt::convert<O>(v);
            } else {
                bytes.clear();
                element_bytes(v, from, bytes);
                out.at(r, c) = element_of<O>(bytes.data(), to);
            }
        }
    }
    return out;
}

// ------------------------------------------------------------------ gathers, scatters, batch products

/// `batch_matmul(lhs, rhs)`: lhs[..., M, K] @ rhs[..., K, N] for each index of the batch
/// axes (all but the last two, broadcast from extents of 1), accumulated as `matmul` does.
template <class T, class A, class B>
Tile<T> batch_matmul(const Tile<A>& a, const Tile<B>& b) {
    if (a.ndims < 2 || b.ndims < 2) tile_error("batch_matmul", "an operand of fewer than 2 axes");
    int64_t m = a.shape[a.ndims - 2];
    int64_t k = a.shape[a.ndims - 1];
    int64_t n = b.shape[b.ndims - 1];
    if (b.shape[b.ndims - 2] != k) tile_error("batch_matmul", "the inner extents differ");
    uint32_t la = a.ndims - 2;
    uint32_t lb = b.ndims - 2;
    uint32_t nb = std::max(la, lb);
    Dims shape;
    shape.given = true;
    shape.n = nb + 2;
    int64_t ea[MAX_TENSOR_DIMS] = {1, 1, 1, 1, 1};
    int64_t eb[MAX_TENSOR_DIMS] = {1, 1, 1, 1, 1};
    for (uint32_t i = 0; i < nb; ++i) {
        if (i + la >= nb) ea[i] = a.shape[i + la - nb];
        if (i + lb >= nb) eb[i] = b.shape[i + lb - nb];
        if (ea[i] != eb[i] && ea[i] != 1 && eb[i] != 1) tile_error("batch_matmul", "batch axes that do not broadcast");
        shape.v[i] = ea[i] == 1 ? eb[i] : ea[i];
    }
    shape.v[nb] = m;
    shape.v[nb + 1] = n;
    Tile<T> out = make_tile<T>(shape);
    int64_t batches = 1;
    for (uint32_t i = 0; i < nb; ++i) batches *= shape.v[i];
    using Acc = std::conditional_t<std::is_floating_point<A>::value || std::is_floating_point<B>::value, float, int64_t>;
    for (int64_t bi = 0; bi < batches; ++bi) {
        int64_t rest = bi;
        int64_t ia = 0;
        int64_t ib = 0;
        int64_t sa = 1;
        int64_t sb = 1;
        for (uint32_t i = nb; i-- > 0;) {
            int64_t x = rest % shape.v[i];
            rest /= shape.v[i];
            ia += (ea[i] == 1 ? 0 : x) * sa;
            ib += (eb[i] == 1 ? 0 : x) * sb;
            sa *= ea[i];
            sb *= eb[i];
        }
        for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < n; ++j) {
                Acc acc = Acc(0);
                for (int64_t p = 0; p < k; ++p) {
                    acc += static_cast<Acc>(a.data[static_cast<size_t>((ia * m + i) * k + p)]) *
                           static_cast<Acc>(b.data[static_cast<size_t>((ib * k + p) * n + j)]);
                }
                out.data[static_cast<size_t>((bi * m + i) * n + j)] = plc_rt::convert<T>(acc);
            }
        }
    }
    return out;
}

/// `batch_matmul_acc(acc, lhs, rhs, init_cond)`: acc + lhs @ rhs per batch (the product
/// alone when `init`), written into acc (also returned).
template <class T, class A, class B>
Tile<T> batch_matmul_acc(Tile<T>& acc, const Tile<A>& a, const Tile<B>& b, bool init = false) {
    Tile<T> prod = batch_matmul<T>(a, b);
    if (prod.rows != acc.rows || prod.cols != acc.cols) tile_error("batch_matmul_acc", "the accumulator's shape differs");
    for (size_t i = 0; i < acc.data.size(); ++i)
        acc.data[i] = init ? prod.data[i] : static_cast<T>(acc.data[i] + prod.data[i]);
    return acc;
}
template <class T, class A, class B>
Tile<T> batch_matmul_acc(Tile<T>&& acc, const Tile<A>& a, const Tile<B>& b, bool init = false) {
    Tile<T> t = static_cast<Tile<T>&&>(acc);
    return batch_matmul_acc(t, a, b, init);
}

/// The bits of `v` read as an O of the same size (`gatherb` with another output dtype).
template <class O, class T>
O reinterpret_bits(T v) {
    if constexpr (std::is_same<O, T>::value) {
        return v;
    } else {
        static_assert(sizeof(O) == sizeof(T), "a reinterpretation keeps the width");
        O o;
        std::memcpy(&o, &v, sizeof(O));
        return o;
    }
}

/// `gatherb(src, offset)`: for each byte offset of the offset tile's valid region, the
/// 32-byte block of src's storage starting there (`size` is the bytes of one element of
/// the dtype), as 32 / size elements of the row, read as O (src's type, or one of its
/// width); 0 elsewhere.
template <class O, class T, class F>
Tile<O> gatherb(const Tile<T>& src, const Tile<F>& offset, int64_t size) {
    int64_t per = 32 / size;
    Tile<O> out = make_tile<O>(dims2(offset.rows, offset.cols * per));
    int64_t total = src.numel();
    for (int64_t r = 0; r < offset.valid_rows; ++r) {
        for (int64_t j = 0; j < offset.valid_cols; ++j) {
            int64_t byte = static_cast<int64_t>(offset.at(r, j));
            if (byte < 0 || byte % size != 0 || byte / size + per > total) {
                tile_error("gatherb", "a byte offset not on an element or whose block leaves the source");
            }
            for (int64_t q = 0; q < per; ++q) {
                out.at(r, j * per + q) = reinterpret_bits<O>(src.data[static_cast<size_t>(byte / size + q)]);
            }
        }
    }
    out.valid_rows = offset.valid_rows;
    out.valid_cols = offset.valid_cols * per;
    return out;
}

/// An `mgather` index against a capacity by `gather_oob` (0 undefined: an error outside,
/// 1 clamp, 2 wrap, 3 zero: -1); indices are read as uint32_t, as PTO-ISA does.
inline int64_t gather_oob_index(int64_t i, int64_t cap, int64_t oob) {
    if (i >= 0 && i < cap) return i;
    int64_t u = static_cast<int64_t>(static_cast<uint32_t>(i));
    if (oob == 1) return std::min<int64_t>(u, cap - 1);
    if (oob == 2) return u % cap;
    if (oob == 3) return -1;
    tile_error("mgather", "an index outside the table (gather_oob='undefined')");
}

/// `mgather(mem, idx, coalesce)`: rows mem[idx[r], :] (coalesce 0; the table's rows are
/// all axes but the last) or elements of mem's storage (coalesce 1) over the result's
/// valid region (`valid`, default all), 0 elsewhere.
template <class T, class I>
Tile<T> mgather(const Tile<T>& mem, const Tile<I>& idx, int64_t coalesce, int64_t oob, const Dims& valid = Dims()) {
    bool rows_mode = coalesce == 0;
    if (rows_mode && (mem.ndims < 2 || (idx.rows != 1 && idx.cols != 1))) {
        tile_error("mgather", "a row gather needs a table of 2 axes and an index [1, R] or [R, 1]");
    }
    Tile<T> out = make_tile<T>(rows_mode ? dims2(idx.numel(), mem.cols) : shape_of(idx));
    if (valid.given && valid.n == 2) {
        out.valid_rows = std::max<int64_t>(std::min<int64_t>(valid[0], out.rows), 0);
        out.valid_cols = std::max<int64_t>(std::min<int64_t>(valid[1], out.cols), 0);
    }
    for (int64_t r = 0; r < out.valid_rows; ++r) {
        if (rows_mode) {
            int64_t row = gather_oob_index(static_cast<int64_t>(idx.data[static_cast<size_t>(r)]), mem.rows, oob);
            if (row < 0) continue;
            for (int64_t c = 0; c < out.valid_cols; ++c) out.at(r, c) = mem.at(row, c);
        } else {
            for (int64_t c = 0; c < out.valid_cols; ++c) {
                int64_t at = gather_oob_index(static_cast<int64_t>(idx.at(r, c)), mem.numel(), oob);
                if (at >= 0) out.at(r, c) = mem.data[static_cast<size_t>(at)];
            }
        }
    }
    return out;
}

/// `paged_gather(src, indices, table, block, size, rows, col_off, trans)`: for the k-th
/// logical index i, row table[i / block] * block + i % block of src, columns col_off..,
/// as row k of a [rows, size] tile (column k of [size, rows] with trans).
template <class T, class I, class J>
Tile<T> paged_gather(const Tile<T>& src, const Tile<I>& indices, const Tile<J>& table, int64_t block, int64_t size,
                     int64_t rows, int64_t col_off, bool trans) {
    if (src.ndims != 2) tile_error("paged_gather", "a source that is not 2-D");
    int64_t count = indices.numel();
    if (count > rows) tile_error("paged_gather", "more indices than max_indices");
    if (col_off < 0 || col_off + size > src.cols) tile_error("paged_gather", "columns outside the source");
    Tile<T> out = make_tile<T>(trans ? dims2(size, rows) : dims2(rows, size));
    for (int64_t k = 0; k < count; ++k) {
        int64_t i = static_cast<int64_t>(indices.data[static_cast<size_t>(k)]);
        if (i < 0 || i / block >= table.numel()) tile_error("paged_gather", "a logical index outside the block table");
        int64_t phys = static_cast<int64_t>(table.data[static_cast<size_t>(i / block)]) * block + i % block;
        if (phys < 0 || phys >= src.rows) tile_error("paged_gather", "a physical row outside the source");
        for (int64_t c = 0; c < size; ++c) {
            T v = src.at(phys, col_off + c);
            if (trans) {
                out.at(c, k) = v;
            } else {
                out.at(k, c) = v;
            }
        }
    }
    return out;
}

/// `mscatter(src, idx, t)`: each element of src's valid region written into the tensor at
/// the flat position idx gives (row-major: a later element wins a position). Returns t.
template <class T, class I>
ChipTensor mscatter(const Tile<T>& src, const Tile<I>& idx, const ChipTensor& t) {
    if (src.rows != idx.rows || src.cols != idx.cols) tile_error("mscatter", "the index and the source differ in shape");
    int64_t cap = 1;
    for (uint32_t k = 0; k < t.ndims; ++k) cap *= static_cast<int64_t>(t.shapes[k]);
    int64_t pos[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    for (int64_t r = 0; r < src.valid_rows; ++r) {
        for (int64_t c = 0; c < src.valid_cols; ++c) {
            int64_t at = static_cast<int64_t>(idx.at(r, c));
            if (at < 0 || at >= cap) tile_error("mscatter", "an index outside the tensor");
            for (uint32_t k = t.ndims; k-- > 0;) {
                pos[k] = at % static_cast<int64_t>(t.shapes[k]);
                at /= static_cast<int64_t>(t.shapes[k]);
            }
            plc_rt::store_as<T>(t.dtype, element_ptr(t, pos), src.at(r, c));
        }
    }
    return t;
}

/// `mscatter` into a tensor value held as a tile: the same positions of its storage.
template <class T, class I, class U>
Tile<U> mscatter(const Tile<T>& src, const Tile<I>& idx, Tile<U>& t) {
    if (src.rows != idx.rows || src.cols != idx.cols) tile_error("mscatter", "the index and the source differ in shape");
    for (int64_t r = 0; r < src.valid_rows; ++r) {
        for (int64_t c = 0; c < src.valid_cols; ++c) {
            int64_t at = static_cast<int64_t>(idx.at(r, c));
            if (at < 0 || at >= t.numel()) tile_error("mscatter", "an index outside the tensor");
            t.data[static_cast<size_t>(at)] = plc_rt::convert<U>(src.at(r, c));
        }
    }
    return t;
}

}  // namespace plc

#endif  // PLC_PTO_TILE_H
