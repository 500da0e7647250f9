// A header of the mixed external kernel of tests/cases/warnings/jit_extern_mixed.pl, found
// through its `include_dirs=`.
#pragma once
constexpr int kExtMixTile = 16;
