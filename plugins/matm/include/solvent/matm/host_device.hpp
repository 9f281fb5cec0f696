#pragma once
// Functions marked SOLVENT_HD compile for the host everywhere and for the device under
// nvcc, so the CPU and CUDA solvers run the same arithmetic from one definition.
#ifndef SOLVENT_HD
#ifdef __CUDACC__
#define SOLVENT_HD __host__ __device__
#else
#define SOLVENT_HD
#endif
#endif
