#pragma once
// SOLVENT_HD marks a function that both back ends run: it compiles for the host everywhere
// and, under nvcc, for the device too, so the CPU and CUDA variants of a method share one
// definition of their arithmetic and round identically. Such functions live in headers that
// include no CUDA header, so a CPU-only build compiles them unchanged.
#ifdef __CUDACC__
#define SOLVENT_HD __host__ __device__
#else
#define SOLVENT_HD
#endif

// SOLVENT_UNROLL before a loop of a constant count asks nvcc to unroll it whole, so that arrays
// the loop indexes stay in registers (nvcc's own limit left a 16-row read-ahead in a thread's
// local memory). Host compilers unroll as they see fit, and the host pass of nvcc, which hands
// the pragma to one that does not know it, gets nothing.
#ifdef __CUDA_ARCH__
#define SOLVENT_UNROLL _Pragma("unroll")
#else
#define SOLVENT_UNROLL
#endif
