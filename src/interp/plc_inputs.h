// plc_inputs.h: the inputs `plc run` gives a program and the checksum lines it prints,
// for a C++ harness that must reproduce them byte for byte (the twin of
// src/interp/inputs.rs in plc; a test of plc compares the two).
//
// - One splitmix64 stream whose state starts at the seed. Tensors are filled in parameter
//   order, elements in row-major order, one draw per element; only In and InOut tensors
//   are filled. An Out tensor draws nothing and starts poisoned (plc_poison): on the real
//   runtime it is undefined; elements still poisoned after the run print as zeros
//   (plc_unpoison counts them).
// - Floating dtypes: ((x >> 54) - 512) / 256.0, a multiple of 1/256 in [-2, 2).
//   Integer dtypes: (x >> 60) - 8. BOOL: x >> 63.
// - One line per Out/InOut tensor parameter after the run:
//   "{name}: shape=[{d0}, {d1}] dtype={DTYPE} sum={%.6f} abs_sum={%.6f}\n", sums in double
//   over the elements in row-major order.
#ifndef PLC_INPUTS_H
#define PLC_INPUTS_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

// How the elements of a dtype are drawn and stored.
enum PlcElementKind { PLC_ELEMENT_FLOAT = 0, PLC_ELEMENT_INT = 1, PLC_ELEMENT_BOOL = 2 };

// The kind of a dtype given by its pl spelling ("FP32", "INT32", "BOOL", ...).
inline PlcElementKind plc_element_kind(const char* dtype) {
    static const char* const floats[] = {"FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16",
                                         "FP32", "BF16", "HF4", "HF8"};
    for (const char* f : floats) {
        if (std::strcmp(dtype, f) == 0) return PLC_ELEMENT_FLOAT;
    }
    if (std::strcmp(dtype, "BOOL") == 0) return PLC_ELEMENT_BOOL;
    return PLC_ELEMENT_INT;
}

// The next output of splitmix64; advances *state.
inline uint64_t plc_splitmix64_next(uint64_t* state) {
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

inline float plc_draw_float(uint64_t* state) {
    return (float)((double)((int64_t)(plc_splitmix64_next(state) >> 54) - 512) / 256.0);
}

inline int64_t plc_draw_int(uint64_t* state) {
    return (int64_t)(plc_splitmix64_next(state) >> 60) - 8;
}

inline int64_t plc_draw_bool(uint64_t* state) {
    return (int64_t)(plc_splitmix64_next(state) >> 63);
}

// Fills n elements of a floating tensor.
inline void plc_fill_float(uint64_t* state, float* data, size_t n) {
    for (size_t i = 0; i < n; ++i) data[i] = plc_draw_float(state);
}

// Fills n elements of an integer or BOOL tensor (kind PLC_ELEMENT_INT or PLC_ELEMENT_BOOL).
inline void plc_fill_int(uint64_t* state, int64_t* data, size_t n, PlcElementKind kind) {
    for (size_t i = 0; i < n; ++i) {
        data[i] = kind == PLC_ELEMENT_BOOL ? plc_draw_bool(state) : plc_draw_int(state);
    }
}

// Writes v as printf's "%.6f", with "nan", "inf", "-inf" for the values that are not finite.
inline void plc_print_fixed6(FILE* out, double v) {
    if (std::isnan(v)) {
        std::fputs("nan", out);
    } else if (std::isinf(v)) {
        std::fputs(v > 0 ? "inf" : "-inf", out);
    } else {
        std::fprintf(out, "%.6f", v);
    }
}

inline void plc_print_line(FILE* out, const char* name, const int64_t* shape, size_t rank, const char* dtype,
                           double sum, double abs_sum) {
    std::fprintf(out, "%s: shape=[", name);
    for (size_t k = 0; k < rank; ++k) {
        std::fprintf(out, k == 0 ? "%lld" : ", %lld", (long long)shape[k]);
    }
    std::fprintf(out, "] dtype=%s sum=", dtype);
    plc_print_fixed6(out, sum);
    std::fputs(" abs_sum=", out);
    plc_print_fixed6(out, abs_sum);
    std::fputc('\n', out);
}

// The checksum line of a tensor whose n elements (float, or int64 for integer and BOOL
// tensors) are given in row-major order.
template <typename T>
inline void plc_print_checksum(FILE* out, const char* name, const int64_t* shape, size_t rank, const char* dtype,
                               const T* data, size_t n) {
    double sum = 0.0, abs_sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        sum += (double)data[i];
        abs_sum += std::fabs((double)data[i]);
    }
    plc_print_line(out, name, shape, rank, dtype, sum, abs_sum);
}

// The value an element of an entry's Out tensor holds until the program writes it, in the
// storage type T, as the interpreter poisons it (src/interp/value.rs): for floats a quiet
// NaN with its own payload (0x7fc0dead), which arithmetic passes on; for integers the low
// bytes of -2**63 + 0x0dead000 (0xad for one byte). A 16-bit float tensor holds the
// runtime's conversion of the float poison.
#define PLC_POISON_F32_BITS 0x7fc0deadu
#define PLC_POISON_I64 ((int64_t)(INT64_MIN + 0x0dead000))

template <typename T>
inline T plc_poison(void) {
    if (sizeof(T) == 1) return (T)0xad;
    return (T)PLC_POISON_I64;
}

template <>
inline float plc_poison<float>(void) {
    uint32_t bits = PLC_POISON_F32_BITS;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Replaces every element equal (bit for bit) to `poison` by zero; returns how many there were.
template <typename T>
inline size_t plc_unpoison(T* data, size_t n, T poison) {
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(&data[i], &poison, sizeof(T)) == 0) {
            data[i] = (T)0;
            ++count;
        }
    }
    return count;
}

#endif  // PLC_INPUTS_H
