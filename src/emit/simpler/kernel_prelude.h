// ------------------------------------------------------------------ simpler's kernel ABI
//
// What plc's tile library needs from a runtime, for simpler's a2a3sim: the kernel is
// `extern "C" void kernel_entry(int64_t* args)`, compiled on its own into a shared object.
// `args[i]` is the address of the i-th tensor argument's ChipTensor (simpler's 128-byte
// struct, below), then the scalars' u64 bits; `args[48]` points at the dispatch's
// LocalContext (block index, block count) and `args[49]` at the core's GlobalContext (the
// vector lane of a mixed task).

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

// @DATA_TYPES@

[[noreturn]] void plc_rt_assert_failed(const char* cond, const char* file, int line) {
    std::fprintf(stderr, "plc kernel: assertion failed: %s (%s:%d)\n", cond, file, line);
    std::abort();
}

struct PTO2TaskId {
    uint64_t raw = UINT64_MAX;

    static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
    constexpr bool is_valid() const { return raw != UINT64_MAX; }
};

/// simpler's ChipTensor (src/common/task_interface/tensor.h): two cache lines, the view's
/// shape in the first, its strides (in elements) in the second.
struct alignas(64) ChipTensor {
    // @CHIP_TENSOR_FIELDS@
    uint8_t address_space = 0;
    uint32_t shapes[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    uint64_t extent_elem_cache = 0;
    uint32_t strides[MAX_TENSOR_DIMS] = {0, 0, 0, 0, 0};
    uint8_t pad_[36] = {};

    // @CHIP_TENSOR_METHODS@
};

static_assert(sizeof(ChipTensor) == 128, "simpler's ChipTensor is 128 bytes");
static_assert(offsetof(ChipTensor, start_offset) == 24, "start_offset at byte 24");
static_assert(offsetof(ChipTensor, ndims) == 36, "ndims at byte 36");
static_assert(offsetof(ChipTensor, dtype) == 40, "dtype at byte 40");
static_assert(offsetof(ChipTensor, shapes) == 44, "shapes at byte 44");
static_assert(offsetof(ChipTensor, strides) == 72, "strides at byte 72");

// @MAKE_TENSOR_EXTERNAL@

/// The dispatch being run on this thread (a simulated core): its args array.
inline const int64_t*& plc_sim_args() {
    static thread_local const int64_t* args = nullptr;
    return args;
}

inline int32_t plc_rt_block_idx() {
    return reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(plc_sim_args()[48]))[0];
}
inline int32_t plc_rt_block_num() {
    return reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(plc_sim_args()[48]))[1];
}
inline int32_t plc_rt_subblock_idx() {
    return reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(plc_sim_args()[49]))[0];
}
