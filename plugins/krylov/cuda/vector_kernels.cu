// The level-1 kernels of Cheik Ahamed and Magoules (assign, scale, axpy, element-wise product) and
// the fused y = a x + b y and w = a x + y the solvers use, and the gather that packs a distributed CSR
// matrix's send lists: one thread per element.
#include <solvent_krylov/device_kernels.hpp>

#include "cuda/cuda_support.cuh"

namespace solvent::krylov::device {
namespace {

template <class Z>
__global__ void assign_kernel(std::int64_t n, const Z* __restrict__ x, Z* __restrict__ y) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i];
}

template <class Z>
__global__ void scale_kernel(std::int64_t n, Z a, Z* __restrict__ x) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) x[i] = mul(a, x[i]);
}

template <class Z>
__global__ void axpy_kernel(std::int64_t n, Z a, const Z* __restrict__ x, Z* __restrict__ y) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = mul_add(a, x[i], y[i]);
}

template <class Z>
__global__ void waxpy_kernel(std::int64_t n, Z a, const Z* __restrict__ x, const Z* __restrict__ y,
                             Z* __restrict__ w) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) w[i] = mul_add(a, x[i], y[i]);
}

template <class Z>
__global__ void axpby_kernel(std::int64_t n, Z a, const Z* __restrict__ x, Z b, Z* __restrict__ y) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = mul_add(a, x[i], mul(b, y[i]));
}

template <class Z>
__global__ void elementwise_product_kernel(std::int64_t n, const Z* __restrict__ d,
                                           Z* __restrict__ x) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) x[i] = mul(d[i], x[i]);
}

template <class Z>
__global__ void gather_kernel(std::int64_t n, const std::int32_t* __restrict__ index,
                              const Z* __restrict__ x, Z* __restrict__ out) {
  const std::int64_t q = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (q < n) out[q] = x[index[q]];
}

}  // namespace

template <class T>
void assign(std::int64_t n, const T* x, T* y) {
  if (n == 0) return;
  assign_kernel<<<blocks_for(n), block_size>>>(n, to_device(x), to_device(y));
  check_launch("assign");
}

template <class T>
void scale(std::int64_t n, T a, T* x) {
  if (n == 0) return;
  scale_kernel<<<blocks_for(n), block_size>>>(n, to_device(a), to_device(x));
  check_launch("scale");
}

template <class T>
void axpy(std::int64_t n, T a, const T* x, T* y) {
  if (n == 0) return;
  axpy_kernel<<<blocks_for(n), block_size>>>(n, to_device(a), to_device(x), to_device(y));
  check_launch("axpy");
}

template <class T>
void waxpy(std::int64_t n, T a, const T* x, const T* y, T* w) {
  if (n == 0) return;
  waxpy_kernel<<<blocks_for(n), block_size>>>(n, to_device(a), to_device(x), to_device(y),
                                              to_device(w));
  check_launch("waxpy");
}

template <class T>
void axpby(std::int64_t n, T a, const T* x, T b, T* y) {
  if (n == 0) return;
  axpby_kernel<<<blocks_for(n), block_size>>>(n, to_device(a), to_device(x), to_device(b),
                                              to_device(y));
  check_launch("axpby");
}

template <class T>
void elementwise_product(std::int64_t n, const T* d, T* x) {
  if (n == 0) return;
  elementwise_product_kernel<<<blocks_for(n), block_size>>>(n, to_device(d), to_device(x));
  check_launch("elementwise_product");
}

template <class T>
void gather(std::int64_t n, const std::int32_t* index, const T* x, T* out) {
  if (n == 0) return;
  gather_kernel<<<blocks_for(n), block_size>>>(n, index, to_device(x), to_device(out));
  check_launch("gather");
}

#define SOLVENT_KRYLOV_VECTOR_KERNELS(T)                            \
  template void assign<T>(std::int64_t, const T*, T*);              \
  template void scale<T>(std::int64_t, T, T*);                      \
  template void axpy<T>(std::int64_t, T, const T*, T*);             \
  template void waxpy<T>(std::int64_t, T, const T*, const T*, T*);  \
  template void axpby<T>(std::int64_t, T, const T*, T, T*);         \
  template void elementwise_product<T>(std::int64_t, const T*, T*); \
  template void gather<T>(std::int64_t, const std::int32_t*, const T*, T*);
SOLVENT_KRYLOV_VECTOR_KERNELS(double)
SOLVENT_KRYLOV_VECTOR_KERNELS(complex)
#undef SOLVENT_KRYLOV_VECTOR_KERNELS

}  // namespace solvent::krylov::device
