// A hand-written AIV kernel (an external source of tests/cases/warnings/external_kernel.pl
// and tests/cases/errors/e0212_external_kernel.pl): plc passes it through as it is.
#include <pto/pto-inst.hpp>

extern "C" __aicore__ void ext_add(__gm__ int64_t* args) { (void)args; }
