// The vector half of a hand-written mixed kernel (tests/cases/warnings/jit_extern_mixed.pl):
// plc passes it through as it is.
#include <pto/pto-inst.hpp>
#include "ext_mix.h"

extern "C" __aicore__ void ext_mix_aiv(__gm__ int64_t* args) { (void)args; }
