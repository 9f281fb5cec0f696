#pragma once
// What this machine can do at best, measured here, for the floors of the table: the
// DGEMM rate (the best a dense factorisation can hope for) and the read bandwidth at a
// given working-set size (in cache for the banded step, which is small).
#include <cstddef>

namespace imex_bench {

// Best flop/s of OpenBLAS dgemm on n x n matrices (OpenBLAS's own thread count).
double dgemm_flops_per_second(std::size_t n);
// Best bytes/s of one thread summing an array of `bytes` bytes again and again.
double read_bytes_per_second(std::size_t bytes);

}  // namespace imex_bench
