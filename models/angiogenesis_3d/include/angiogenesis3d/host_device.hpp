#pragma once
// The model's maths is shared by the CPU and the CUDA paths of the stencil integrator:
// one definition, compiled by g++ and by nvcc.
#ifdef __CUDACC__
#define ANGIO3D_HD __host__ __device__
#else
#define ANGIO3D_HD
#endif
