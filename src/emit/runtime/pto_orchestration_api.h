// pto_orchestration_api.h: plc's CPU reference runtime.
//
// The API the generated orchestration code calls, with the names and signatures of the
// task runtime PyPTO targets (the "older release" spelling: ChipTensor, PTO2TaskId,
// PTO2_SCOPE, ...), plus the current-release aliases (Tensor, TaskId, SIMPLER_SCOPE, ...).
// Tasks run on the host: a kernel is a C++ function found through `plc_kernel_table`.
// Everything plc adds beyond that API is spelled `plc_...` so it never collides with it.
//
// Shipped inside plc and written to OUT/runtime/ by `plc compile`; see docs/runtime.md.

#ifndef PLC_PTO_ORCHESTRATION_API_H
#define PLC_PTO_ORCHESTRATION_API_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

// ------------------------------------------------------------------ data types

enum class DataType : uint8_t {
    FLOAT32,
    FLOAT16,
    INT32,
    INT16,
    INT8,
    UINT8,
    BFLOAT16,
    INT64,
    UINT64,
    UINT16,
    UINT32,
    BOOL,
    FP8E4M3FN,
    FP8E8M0,
    FP4E2M1,
    FP8E5M2,
    UNKNOWN,
};

constexpr int MAX_TENSOR_DIMS = 5;
constexpr int32_t INVALID_KERNEL_ID = -1;

/// Bytes per element (the 8- and 4-bit float formats take one byte each on the host).
inline uint32_t get_element_size(DataType dt) {
    switch (dt) {
        case DataType::FLOAT32:
        case DataType::INT32:
        case DataType::UINT32:
            return 4;
        case DataType::FLOAT16:
        case DataType::BFLOAT16:
        case DataType::INT16:
        case DataType::UINT16:
            return 2;
        case DataType::INT64:
        case DataType::UINT64:
            return 8;
        default:
            return 1;
    }
}

// ------------------------------------------------------------------ utilities

/// The bits of a scalar as a task argument slot (zero-extended). A `double` is packed as
/// the FP32 it stands for: pl has no 64-bit float scalar, and kernels read FP32 slots.
template <class T>
inline uint64_t to_u64(T v) {
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "to_u64: a scalar of at most 8 bytes");
    uint64_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    return u;
}

template <>
inline uint64_t to_u64<double>(double v) {
    return to_u64(static_cast<float>(v));
}

template <>
inline uint64_t to_u64<bool>(bool v) {
    return v ? 1u : 0u;
}

/// A scalar read back from a task argument slot.
template <class T>
inline T from_u64(uint64_t u) {
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "from_u64: a scalar of at most 8 bytes");
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
}

template <>
inline bool from_u64<bool>(uint64_t u) {
    return (u & 0xffu) != 0;
}

[[noreturn]] void plc_rt_assert_failed(const char* cond, const char* file, int line);

#define always_assert(cond)                                     \
    do {                                                        \
        if (!(cond)) plc_rt_assert_failed(#cond, __FILE__, __LINE__); \
    } while (0)

// Element conversions between the storage formats and host arithmetic types.
namespace plc_rt {

/// The bits of a float, and the float of 32 bits.
inline uint32_t float_bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    return x;
}
inline float bits_float(uint32_t x) {
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

inline float half_to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {
            // Subnormal: normalise the mantissa.
            int e = -1;
            do {
                e++;
                mant <<= 1;
            } while ((mant & 0x400u) == 0);
            bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    return bits_float(bits);
}

/// Round to nearest, ties to even (as the hardware converts).
inline uint16_t float_to_half(float f) {
    uint32_t x = float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t mant = x & 0x7fffffu;
    if (exp == 0xff) {
        return static_cast<uint16_t>(sign | 0x7c00u | (mant != 0 ? 0x200u : 0u));
    }
    int32_t e = static_cast<int32_t>(exp) - 127 + 15;
    if (e >= 0x1f) {
        return static_cast<uint16_t>(sign | 0x7c00u);
    }
    if (e <= 0) {
        if (e < -10) {
            return static_cast<uint16_t>(sign);
        }
        mant |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - e);
        uint32_t half_mant = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (half_mant & 1u))) {
            half_mant++;
        }
        return static_cast<uint16_t>(sign | half_mant);
    }
    uint32_t h = sign | (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) {
        h++;
    }
    return static_cast<uint16_t>(h);
}

inline float bf16_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

inline uint16_t float_to_bf16(float f) {
    uint32_t x = float_bits(f);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) != 0) {
        return static_cast<uint16_t>((x >> 16) | 0x40u);
    }
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;
    return static_cast<uint16_t>(x >> 16);
}

/// A float rounded to the precision of a narrower float format (identity for others).
inline float round_to(DataType dt, float v) {
    switch (dt) {
        case DataType::FLOAT16:
            return half_to_float(float_to_half(v));
        case DataType::BFLOAT16:
            return bf16_to_float(float_to_bf16(v));
        default:
            return v;
    }
}

template <class T, class S>
inline T convert(S v) {
    if constexpr (std::is_same<T, bool>::value) {
        return v != S(0);
    } else {
        return static_cast<T>(v);
    }
}

/// The data types stored as a plain C type, with that type (the others: FP16 and BF16 as
/// their bits in a uint16_t, BOOL as a 0/1 byte, the 8- and 4-bit floats as raw bytes).
#define PLC_RT_PLAIN_TYPES(X) \
    X(FLOAT32, float)         \
    X(INT8, int8_t)           \
    X(INT16, int16_t)         \
    X(UINT16, uint16_t)       \
    X(INT32, int32_t)         \
    X(UINT32, uint32_t)       \
    X(INT64, int64_t)         \
    X(UINT64, uint64_t)

/// The `S` stored at `p` (any alignment).
template <class S>
inline S load_raw(const void* p) {
    S v;
    std::memcpy(&v, p, sizeof(S));
    return v;
}

/// Reads the element at `p`, stored as `dt`, as a `T`.
template <class T>
inline T load_as(DataType dt, const void* p) {
    switch (dt) {
#define PLC_RT_LOAD(DT, S) \
    case DataType::DT:     \
        return convert<T>(load_raw<S>(p));
        PLC_RT_PLAIN_TYPES(PLC_RT_LOAD)
#undef PLC_RT_LOAD
        case DataType::FLOAT16:
            return convert<T>(half_to_float(load_raw<uint16_t>(p)));
        case DataType::BFLOAT16:
            return convert<T>(bf16_to_float(load_raw<uint16_t>(p)));
        case DataType::UINT8:
        case DataType::BOOL:
        case DataType::FP8E4M3FN:
        case DataType::FP8E8M0:
        case DataType::FP4E2M1:
        case DataType::FP8E5M2:
        case DataType::UNKNOWN:
            return convert<T>(load_raw<uint8_t>(p));
    }
    return T();
}

template <class D, class T>
inline void store_raw(void* p, T v) {
    D d = convert<D>(v);
    std::memcpy(p, &d, sizeof(D));
}

/// Writes `v` at `p` in the storage format `dt` (narrow floats rounded to nearest even).
template <class T>
inline void store_as(DataType dt, void* p, T v) {
    switch (dt) {
#define PLC_RT_STORE(DT, S)    \
    case DataType::DT:         \
        store_raw<S>(p, v);    \
        return;
        PLC_RT_PLAIN_TYPES(PLC_RT_STORE)
#undef PLC_RT_STORE
        case DataType::FLOAT16:
            store_raw<uint16_t>(p, float_to_half(convert<float>(v)));
            return;
        case DataType::BFLOAT16:
            store_raw<uint16_t>(p, float_to_bf16(convert<float>(v)));
            return;
        case DataType::BOOL:
            store_raw<uint8_t>(p, static_cast<uint8_t>(convert<bool>(v)));
            return;
        case DataType::UINT8:
        case DataType::FP8E4M3FN:
        case DataType::FP8E8M0:
        case DataType::FP4E2M1:
        case DataType::FP8E5M2:
        case DataType::UNKNOWN:
            store_raw<uint8_t>(p, v);
            return;
    }
}

#undef PLC_RT_PLAIN_TYPES

}  // namespace plc_rt

// ------------------------------------------------------------------ tensors

struct PTO2TaskId {
    uint64_t raw = UINT64_MAX;  // (ring << 32) | local; the CPU runtime has one ring

    static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
    constexpr bool is_valid() const { return raw != UINT64_MAX; }
};

/// A view of a buffer: `buffer.addr` is a host pointer, `start_offset` and `strides` count
/// elements. Trivially copyable; copying a ChipTensor copies the view, not the data.
struct ChipTensor {
    struct Buffer {
        uint64_t addr = 0;
        uint64_t size = 0;  // bytes
    } buffer;
    PTO2TaskId owner_task_id;
    uint64_t start_offset = 0;
    int32_t version = 0;
    uint32_t ndims = 0;
    DataType dtype = DataType::FLOAT32;
    bool manual_dep = false;
    bool is_contiguous = true;
    uint32_t shapes[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    uint32_t strides[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};

    uint64_t numel() const {
        uint64_t n = 1;
        for (uint32_t k = 0; k < ndims; ++k) n *= shapes[k];
        return n;
    }

    /// Whether the view is row-major and gap-free.
    bool compute_contiguous() const {
        uint64_t expected = 1;
        for (uint32_t k = ndims; k-- > 0;) {
            if (shapes[k] != 1 && strides[k] != expected) return false;
            expected *= shapes[k];
        }
        return true;
    }

    /// A window of `shapes` starting at `offsets` (per axis, in elements).
    ChipTensor view(const uint32_t new_shapes[], const uint32_t offsets[], bool manual = false) const {
        ChipTensor t = *this;
        for (uint32_t k = 0; k < ndims; ++k) {
            t.start_offset += static_cast<uint64_t>(offsets[k]) * strides[k];
            t.shapes[k] = new_shapes[k];
        }
        t.manual_dep = manual_dep || manual;
        t.is_contiguous = t.compute_contiguous();
        return t;
    }

    /// The same elements under another shape (the view must be contiguous).
    ChipTensor reshape(const uint32_t new_shapes[], uint32_t new_ndims, bool manual = false) const {
        always_assert(is_contiguous && new_ndims <= static_cast<uint32_t>(MAX_TENSOR_DIMS));
        ChipTensor t = *this;
        t.ndims = new_ndims;
        uint32_t stride = 1;
        for (uint32_t k = MAX_TENSOR_DIMS; k-- > 0;) {
            if (k < new_ndims) {
                t.shapes[k] = new_shapes[k];
                t.strides[k] = stride;
                stride *= new_shapes[k];
            } else {
                t.shapes[k] = 0;
                t.strides[k] = 0;
            }
        }
        t.manual_dep = manual_dep || manual;
        t.is_contiguous = true;
        return t;
    }

    /// Axes `a` and `b` swapped (shape and stride).
    ChipTensor transpose(uint32_t a, uint32_t b, bool manual = false) const {
        always_assert(a < ndims && b < ndims);
        ChipTensor t = *this;
        uint32_t s = t.shapes[a];
        t.shapes[a] = t.shapes[b];
        t.shapes[b] = s;
        s = t.strides[a];
        t.strides[a] = t.strides[b];
        t.strides[b] = s;
        t.manual_dep = manual_dep || manual;
        t.is_contiguous = t.compute_contiguous();
        return t;
    }
};

/// Wraps host memory the caller owns as a contiguous row-major tensor.
inline ChipTensor make_tensor_external(void* addr, const uint32_t shapes[], uint32_t ndims,
                                       DataType dt = DataType::FLOAT32, bool manual_dep = false,
                                       int32_t version = 0) {
    always_assert(ndims <= static_cast<uint32_t>(MAX_TENSOR_DIMS));
    ChipTensor t;
    t.buffer.addr = reinterpret_cast<uint64_t>(addr);
    t.ndims = ndims;
    t.dtype = dt;
    t.manual_dep = manual_dep;
    t.version = version;
    uint32_t stride = 1;
    for (uint32_t k = ndims; k-- > 0;) {
        t.shapes[k] = shapes[k];
        t.strides[k] = stride;
        stride *= shapes[k];
    }
    t.buffer.size = t.numel() * get_element_size(dt);
    return t;
}

/// Describes a tensor for the runtime to allocate (`alloc_tensors`, or an output of a task).
class TensorCreateInfo {
public:
    TensorCreateInfo(const uint32_t shapes[], uint32_t ndims, DataType dt = DataType::FLOAT32,
                     bool manual_dep = false)
        : ndims_(ndims), dtype_(dt), manual_dep_(manual_dep) {
        always_assert(ndims <= static_cast<uint32_t>(MAX_TENSOR_DIMS));
        for (uint32_t k = 0; k < ndims; ++k) shapes_[k] = shapes[k];
    }

    /// Every element starts as `v` (default: zero).
    template <class T = uint64_t>
    void set_initial_value(T v) {
        has_initial_ = true;
        initial_is_float_ = std::is_floating_point<T>::value;
        initial_float_ = static_cast<double>(v);
        initial_int_ = static_cast<int64_t>(v);
    }

    // What the runtime reads (plc).
    uint32_t shapes_[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    uint32_t ndims_ = 0;
    DataType dtype_ = DataType::FLOAT32;
    bool manual_dep_ = false;
    bool has_initial_ = false;
    bool initial_is_float_ = false;
    double initial_float_ = 0.0;
    int64_t initial_int_ = 0;
};

// ------------------------------------------------------------------ task arguments

/// Which kernels one task runs: a cube core and up to two vector lanes.
struct MixedKernels {
    int32_t aic_kernel_id = INVALID_KERNEL_ID;
    int32_t aiv0_kernel_id = INVALID_KERNEL_ID;
    int32_t aiv1_kernel_id = INVALID_KERNEL_ID;
};

struct PTO2LaunchSpec {
    void set_block_num(int16_t n) { block_num_ = n; }
    void set_require_sync_start(bool v) { require_sync_start_ = v; }
    int16_t block_num() const { return block_num_; }
    bool require_sync_start() const { return require_sync_start_; }

    int16_t block_num_ = 1;
    bool require_sync_start_ = false;
};

enum class PTO2ScopeMode : uint8_t { AUTO, MANUAL };

enum class PredicateOp { NONE, EQ, NE, GT, LT, GE, LE };

struct CorePredicateOperand {
    const ChipTensor* tensor = nullptr;
    uint32_t ndims = 0;
    uint32_t indices[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
};

/// Run the task only when `operand op target` holds when it is ready.
struct CoreTaskPredicate {
    CorePredicateOperand operand;
    PredicateOp op = PredicateOp::NONE;
    int64_t target = 0;
};

/// How a task uses a tensor argument.
enum class TensorArgType : uint8_t { INPUT, OUTPUT, OUTPUT_EXISTING, INOUT, NO_DEP };

class TensorRef {
public:
    explicit TensorRef(const ChipTensor* t) : t_(t) {}
    const ChipTensor& ref() const {
        always_assert(t_ != nullptr);
        return *t_;
    }

private:
    const ChipTensor* t_;
};

/// One tensor argument (plc): a tensor the caller holds, or a tensor to allocate.
struct PlcTensorArg {
    const ChipTensor* tensor = nullptr;
    const TensorCreateInfo* create = nullptr;
    TensorArgType type = TensorArgType::INPUT;
};

/// Where a scalar argument's value lives, if it is a slot of the Graph arguments being
/// recorded (-1: a value fixed when the task was built). Defined by the runtime (plc).
int16_t plc_rt_scalar_origin(const void* addr);

/// The arguments of a task: tensors first, then scalars. Keeps pointers to the tensors
/// given (they must outlive the submit), so it cannot be copied.
template <size_t MaxT, size_t MaxS>
struct Arg {
    PTO2LaunchSpec launch_spec;
    bool has_error = false;
    const char* error_msg = nullptr;

    Arg() = default;
    Arg(const Arg&) = delete;
    Arg& operator=(const Arg&) = delete;

    /// `NAME(tensors...)`: each tensor an argument of type `TYPE`.
#define PLC_RT_ADD_TENSORS(NAME, TYPE)                   \
    template <class... T>                                \
    void NAME(const T&... ts) {                          \
        (add_tensor_(ts, TensorArgType::TYPE), ...);     \
    }
    PLC_RT_ADD_TENSORS(add_input, INPUT)
    /// A ChipTensor is written in place (OUTPUT_EXISTING); a TensorCreateInfo is allocated
    /// by the runtime (OUTPUT) and found in the submit's TaskOutputTensors.
    PLC_RT_ADD_TENSORS(add_output, OUTPUT_EXISTING)
    PLC_RT_ADD_TENSORS(add_inout, INOUT)
    PLC_RT_ADD_TENSORS(add_no_dep, NO_DEP)
#undef PLC_RT_ADD_TENSORS
    /// Scalars, after every tensor: arithmetic values (packed by to_u64) or slots.
    template <class... T>
    void add_scalar(const T&... vs) {
        (add_scalar_(vs), ...);
    }
    void copy_scalars_from(const Arg& src, int off, int n) {
        for (int k = 0; k < n; ++k) {
            if (off + k >= src.scalar_count_) {
                fail_("copy_scalars_from reads past the source's scalars");
                return;
            }
            push_scalar_(src.scalars_[off + k], src.scalar_origin_[off + k]);
        }
    }
    /// Explicit predecessors (the array is read when the task is submitted).
    void set_dependencies(const PTO2TaskId* deps, uint32_t n) {
        deps_ = deps;
        dep_count_ = n;
    }
    void set_allow_early_resolve(bool v = true) { allow_early_resolve_ = v; }
    void set_predicate(const CoreTaskPredicate& p) {
        predicate_ = p;
        has_predicate_ = true;
    }
    /// Marks tensors for dumping (nothing to do on the host).
    template <class... T>
    void dump(const T&... ts) {
        ((void)ts, ...);
    }

    int32_t tensor_count() const { return tensor_count_; }
    int32_t scalar_count() const { return scalar_count_; }
    TensorRef tensor(int32_t i) const {
        always_assert(i >= 0 && i < tensor_count_);
        return TensorRef(tensors_[i].tensor);
    }
    /// The slot itself: bind it by reference (`const uint64_t& x = args.scalar(i);`) so a
    /// Graph replay can refresh it.
    const uint64_t& scalar(int32_t i) const {
        always_assert(i >= 0 && i < scalar_count_);
        return scalars_[i];
    }
    /// Current-release spelling: `args.scalar<int64_t>(i)`.
    template <class T>
    T scalar(int32_t i) const {
        return from_u64<T>(scalar(i));
    }

    // ---- what the runtime reads (plc)
    PlcTensorArg tensors_[MaxT];
    int32_t tensor_count_ = 0;
    uint64_t scalars_[MaxS] = {};
    int16_t scalar_origin_[MaxS] = {};
    int32_t scalar_count_ = 0;
    const PTO2TaskId* deps_ = nullptr;
    uint32_t dep_count_ = 0;
    bool allow_early_resolve_ = false;
    bool has_predicate_ = false;
    CoreTaskPredicate predicate_;

private:
    void fail_(const char* msg) {
        if (!has_error) {
            has_error = true;
            error_msg = msg;
        }
    }
    void add_tensor_(const ChipTensor& t, TensorArgType type) {
        if (scalar_count_ > 0) return fail_("a tensor argument added after a scalar");
        if (tensor_count_ >= static_cast<int32_t>(MaxT)) return fail_("too many tensor arguments");
        tensors_[tensor_count_++] = PlcTensorArg{&t, nullptr, type};
    }
    void add_tensor_(const TensorCreateInfo& ci, TensorArgType type) {
        if (type != TensorArgType::OUTPUT_EXISTING) return fail_("a TensorCreateInfo is only an output");
        if (scalar_count_ > 0) return fail_("a tensor argument added after a scalar");
        if (tensor_count_ >= static_cast<int32_t>(MaxT)) return fail_("too many tensor arguments");
        tensors_[tensor_count_++] = PlcTensorArg{nullptr, &ci, TensorArgType::OUTPUT};
    }
    void push_scalar_(uint64_t bits, int16_t origin) {
        if (scalar_count_ >= static_cast<int32_t>(MaxS)) return fail_("too many scalar arguments");
        scalars_[scalar_count_] = bits;
        scalar_origin_[scalar_count_] = origin;
        ++scalar_count_;
    }
    template <class T>
    void add_scalar_(const T& v) {
        static_assert(std::is_arithmetic<T>::value || std::is_enum<T>::value, "add_scalar takes arithmetic values");
        push_scalar_(to_u64(v), plc_rt_scalar_origin(static_cast<const void*>(&v)));
    }
};

using CoreTaskArgs = Arg<32, 16>;
struct ChipTaskArgs : Arg<256, 128> {};
using GraphTaskArgs = Arg<128, 64>;

/// What a submit or an allocation returns: the task id and the tensors the runtime
/// allocated for it, in the order they were added.
class TaskOutputTensors {
public:
    TaskOutputTensors() = default;
    TaskOutputTensors(PTO2TaskId id, std::vector<ChipTensor> outs) : id_(id), outs_(static_cast<std::vector<ChipTensor>&&>(outs)) {}

    const ChipTensor& get_ref(uint32_t i) const& {
        always_assert(i < outs_.size());
        return outs_[i];
    }
    const ChipTensor& get_ref(uint32_t i) const&& = delete;
    PTO2TaskId task_id() const { return id_; }
    uint32_t size() const { return static_cast<uint32_t>(outs_.size()); }

private:
    PTO2TaskId id_;
    std::vector<ChipTensor> outs_;
};

struct PTO2OrchestrationConfig {
    int expected_arg_count;
};

/// What a Graph launch returns.
struct GraphSubmitResult {
    PTO2TaskId task_id;
    bool replayed = false;
};

// ------------------------------------------------------------------ the calls

TaskOutputTensors alloc_tensors(const TensorCreateInfo infos[], uint32_t n);
TaskOutputTensors alloc_tensors(const CoreTaskArgs& args);

template <class... T>
TaskOutputTensors alloc_tensors(const TensorCreateInfo& first, const T&... rest) {
    const TensorCreateInfo infos[] = {first, rest...};
    return alloc_tensors(infos, static_cast<uint32_t>(sizeof...(T) + 1));
}

TaskOutputTensors rt_submit_task(const MixedKernels& kernels, const CoreTaskArgs& args);
TaskOutputTensors rt_submit_aic_task(int32_t func_id, const CoreTaskArgs& args);
TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs& args);
TaskOutputTensors rt_submit_dummy_task(const CoreTaskArgs& args);
/// `pl.task_id_of(t)`: the last task submitted that writes part of t (plc).
PTO2TaskId rt_task_id_of(const ChipTensor& t);

/// Records the Graph function on its first launch, replays the recording after.
GraphSubmitResult rt_submit_graph(void (*fn)(const GraphTaskArgs&), const GraphTaskArgs& args);

int32_t rt_available_cluster_count();
int32_t rt_available_aiv_count();

/// Called once the entry has returned: runs what is left, reports errors (plc_rt_failed).
void rt_orchestration_done();

class PTO2ScopeGuard {
public:
    explicit PTO2ScopeGuard(PTO2ScopeMode mode = PTO2ScopeMode::AUTO);
    ~PTO2ScopeGuard();
    PTO2ScopeGuard(const PTO2ScopeGuard&) = delete;
    PTO2ScopeGuard& operator=(const PTO2ScopeGuard&) = delete;
};

#define PTO2_SCOPE(...) if (PTO2ScopeGuard pto2_scope_guard_{__VA_ARGS__}; true)

/// Waits for every task submitted so far (plc; host reads and writes of tensors do).
void plc_rt_sync();

/// The address of element `idx` of `t`.
inline void* plc_rt_element_address(const ChipTensor& t, uint32_t ndims, const uint32_t idx[]) {
    uint64_t off = t.start_offset;
    for (uint32_t k = 0; k < ndims && k < t.ndims; ++k) {
        always_assert(idx[k] < t.shapes[k]);
        off += static_cast<uint64_t>(idx[k]) * t.strides[k];
    }
    return reinterpret_cast<void*>(t.buffer.addr + off * get_element_size(t.dtype));
}

template <class T>
T get_tensor_data(const ChipTensor& t, uint32_t ndims, const uint32_t idx[]) {
    plc_rt_sync();
    return plc_rt::load_as<T>(t.dtype, plc_rt_element_address(t, ndims, idx));
}

template <class T>
void set_tensor_data(const ChipTensor& t, uint32_t ndims, const uint32_t idx[], T v) {
    plc_rt_sync();
    plc_rt::store_as<T>(t.dtype, plc_rt_element_address(t, ndims, idx), v);
}

// ------------------------------------------------------------------ current-release names

using Tensor = ChipTensor;
using TaskTensor = ChipTensor;
using TaskId = PTO2TaskId;
using ScopeMode = PTO2ScopeMode;
using LaunchSpec = PTO2LaunchSpec;
using ScopeGuard = PTO2ScopeGuard;
using OrchestrationConfig = PTO2OrchestrationConfig;
#define SIMPLER_SCOPE PTO2_SCOPE

// ------------------------------------------------------------------ plc: kernels and checks

extern "C" {
/// A kernel: `args[0..T-1]` are `(int64_t)&ChipTensor` for each tensor argument in the order
/// they were added, `args[T..]` the scalars' u64 bits.
typedef void (*plc_kernel_fn)(int64_t*);
/// Indexed by func_id; generated by plc (kernels/kernel_table.cpp).
extern const plc_kernel_fn plc_kernel_table[];
extern const int plc_kernel_count;
}

/// The block a kernel runs as (0 .. block_num-1), the launch's block count, and the vector
/// lane (0 or 1) of a mixed task: what the tile library's get_block_idx() and friends read.
int32_t plc_rt_block_idx();
int32_t plc_rt_block_num();
int32_t plc_rt_subblock_idx();

/// Counters for tests: Graph recordings made, replays done, kernel tasks run.
uint64_t plc_rt_graph_recordings();
uint64_t plc_rt_graph_replays();
uint64_t plc_rt_tasks_run();

/// Whether the runtime found an error (a nested graph recording, a bad kernel id, malformed
/// arguments, ...). Each error is printed on stderr when found and summed up by
/// rt_orchestration_done(); a harness exits non-zero when this is true.
bool plc_rt_failed();

/// The order tasks run in. IN_ORDER (the default) runs each task when it is submitted.
/// REVERSE queues tasks and, at each synchronisation point, runs the ready task submitted
/// last first (and the blocks of a launch last to first), so that only the declared
/// directions and explicit deps order the work: a missing dependency shows as a wrong
/// result. The environment variable PLC_RT_SCHEDULE=reverse selects it too.
enum class PlcSchedule : uint8_t { IN_ORDER, REVERSE };
void plc_rt_set_schedule(PlcSchedule s);

#endif  // PLC_PTO_ORCHESTRATION_API_H
