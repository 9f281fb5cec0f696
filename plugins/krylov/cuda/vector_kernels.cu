// The level-1 kernels of Cheik Ahamed and Magoules (assign, scale, axpy, element-wise product) and
// the fused y = a x + b y and w = a x + y the solvers use, and the gather that packs a distributed
// CSR matrix's send lists: one thread per element. The same updates of several vectors go in one
// launch (BiCGSTAB(l)'s steps update up to l pairs, its minimal-residual step sums up to l
// terms): a launch per vector left a GPU with a rank's share of the rows waiting on launches.
#include <solvent_krylov/device_kernels.hpp>

#include "cuda/cuda_support.cuh"

#include <algorithm>

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

constexpr int per_launch_vectors = 16;

// Up to per_launch_vectors vectors x_k, y_k and scalars c_k of one launch.
template <class Z>
struct VectorList {
  const Z* x[per_launch_vectors];
  Z* y[per_launch_vectors];
  Z c[per_launch_vectors];
  int count;
};

// y_k += a x_k, each as axpy_kernel.
template <class Z>
__global__ void axpy_each_kernel(std::int64_t n, Z a, VectorList<Z> v) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < v.count; ++k) v.y[k][i] = mul_add(a, v.x[k][i], v.y[k][i]);
}

// y_k = a x_k + b y_k, each as axpby_kernel.
template <class Z>
__global__ void axpby_each_kernel(std::int64_t n, Z a, Z b, VectorList<Z> v) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < v.count; ++k) v.y[k][i] = mul_add(a, v.x[k][i], mul(b, v.y[k][i]));
}

// y += c_0 x_0 + c_1 x_1 + ..., the terms added in turn as axpy_kernel adds one: one pass
// over y instead of one a term.
template <class Z>
__global__ void combination_kernel(std::int64_t n, VectorList<Z> v, Z* __restrict__ y) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Z acc = y[i];
  for (int k = 0; k < v.count; ++k) acc = mul_add(v.c[k], v.x[k][i], acc);
  y[i] = acc;
}

// launch(list) for each run of up to per_launch_vectors of the count vectors (ys and c may be
// null where the kernel takes none).
template <class T, class Launch>
void for_each_list(const T* const* xs, T* const* ys, const T* c, int count, const char* name,
                   Launch launch) {
  using Z = device_t<T>;
  for (int first = 0; first < count; first += per_launch_vectors) {
    VectorList<Z> list{};
    list.count = std::min(per_launch_vectors, count - first);
    for (int k = 0; k < list.count; ++k) {
      list.x[k] = to_device(xs[first + k]);
      if (ys) list.y[k] = to_device(ys[first + k]);
      if (c) list.c[k] = to_device(c[first + k]);
    }
    launch(list);
    check_launch(name);
  }
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
void axpy_each(std::int64_t n, T a, const T* const* xs, T* const* ys, int count) {
  if (n == 0) return;
  for_each_list<T>(xs, ys, nullptr, count, "axpy_each", [&](const auto& list) {
    axpy_each_kernel<<<blocks_for(n), block_size>>>(n, to_device(a), list);
  });
}

template <class T>
void axpby_each(std::int64_t n, T a, const T* const* xs, T b, T* const* ys, int count) {
  if (n == 0) return;
  for_each_list<T>(xs, ys, nullptr, count, "axpby_each", [&](const auto& list) {
    axpby_each_kernel<<<blocks_for(n), block_size>>>(n, to_device(a), to_device(b), list);
  });
}

template <class T>
void add_combination(std::int64_t n, const T* c, const T* const* xs, int count, T* y) {
  if (n == 0) return;
  for_each_list<T>(xs, nullptr, c, count, "add_combination", [&](const auto& list) {
    combination_kernel<<<blocks_for(n), block_size>>>(n, list, to_device(y));
  });
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

#define SOLVENT_KRYLOV_VECTOR_KERNELS(T)                                              \
  template void assign<T>(std::int64_t, const T*, T*);                                \
  template void scale<T>(std::int64_t, T, T*);                                        \
  template void axpy<T>(std::int64_t, T, const T*, T*);                               \
  template void waxpy<T>(std::int64_t, T, const T*, const T*, T*);                    \
  template void axpby<T>(std::int64_t, T, const T*, T, T*);                           \
  template void axpy_each<T>(std::int64_t, T, const T* const*, T* const*, int);       \
  template void axpby_each<T>(std::int64_t, T, const T* const*, T, T* const*, int);   \
  template void add_combination<T>(std::int64_t, const T*, const T* const*, int, T*); \
  template void elementwise_product<T>(std::int64_t, const T*, T*);                   \
  template void gather<T>(std::int64_t, const std::int32_t*, const T*, T*);
SOLVENT_KRYLOV_VECTOR_KERNELS(double)
SOLVENT_KRYLOV_VECTOR_KERNELS(complex)
#undef SOLVENT_KRYLOV_VECTOR_KERNELS

}  // namespace solvent::krylov::device
