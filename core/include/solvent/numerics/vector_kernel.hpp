#pragma once
// SOLVENT_VECTOR_KERNEL, before a CPU loop function: GCC builds it twice, for x86-64's baseline
// (two doubles a register) and for AVX2 (four), and the loader picks one by the CPU it runs
// on (target_clones). The bits are the same in both: AVX2 alone enables no fused
// multiply-add, and the compiler keeps every sum's order, so a loop whose sums have fixed
// lanes (exact_sum.hpp's blocks, the Krylov dots) rounds alike on every x86-64 CPU. Worth it
// where the loop's data sit in cache and its issue rate decides (a vector update of a
// Krylov iteration, a diagonal scaling); a loop bound by memory gains nothing. Loops run
// inside an OpenMP team are outlined by the compiler and keep the baseline code. Elsewhere
// than GCC on x86-64 it is empty.
#if defined(__GNUC__) && defined(__x86_64__)
#define SOLVENT_VECTOR_KERNEL [[gnu::target_clones("avx2", "default")]]
#else
#define SOLVENT_VECTOR_KERNEL
#endif
