#include <solvent_krylov/host_kernels.hpp>

#include <solvent/numerics/vector_kernel.hpp>
#include <solvent/scalar.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace solvent::krylov::host {
namespace {

using Index = std::int64_t;

// The vector kernels below carry SOLVENT_VECTOR_KERNEL (an AVX2 build beside the baseline,
// the same bits): at 48^3 in CSR on one core of an AVX-512 guest, CG and BiCGSTAB took 5 %
// and 16 % less time an iteration (docs/benchmarks.md, "Peers").

Index length(std::size_t n) { return static_cast<Index>(n); }

// f(0), ..., f(count - 1), over the OpenMP threads when `parallel`. Entering and leaving an
// OpenMP region costs about 2 us even for a team of one thread or a false `if` clause
// (libgomp ends every region with a futex wake, a system call), more than a kernel on a
// small vector: a Krylov iteration on 81 unknowns took 5-7 times PETSc's
// (docs/benchmarks.md, "Peers"). Small vectors, and every vector where OpenMP offers one
// thread (a rank per core, OMP_NUM_THREADS=1), therefore stay on the calling thread; the
// results are the same bits either way.
template <class F>
void for_each_index(Index count, bool parallel, F&& f) {
#ifdef _OPENMP
  if (parallel && omp_get_max_threads() > 1) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < count; ++i) f(i);
    return;
  }
#else
  (void)parallel;
#endif
  for (Index i = 0; i < count; ++i) f(i);
}

// Below this many elements (rows) a kernel is not worth a region.
constexpr Index parallel_from = 8192;

// The blocks of dots() and csr_apply_dot(), one constant so that both add the same terms in
// the same order.
constexpr Index dot_block = 4096;

template <class F>
void for_each_element(Index n, F&& f) {
  for_each_index(n, n >= parallel_from, std::forward<F>(f));
}

}  // namespace

template <class T>
SOLVENT_VECTOR_KERNEL void assign(std::span<const T> x, std::span<T> y) {
  const Index n = length(x.size());
  for_each_element(n, [&](Index i) { y[i] = x[i]; });
}

template <class T>
SOLVENT_VECTOR_KERNEL void scale(T a, std::span<T> x) {
  const Index n = length(x.size());
  for_each_element(n, [&](Index i) { x[i] = mul(a, x[i]); });
}

template <class T>
SOLVENT_VECTOR_KERNEL void axpy(T a, std::span<const T> x, std::span<T> y) {
  const Index n = length(x.size());
  for_each_element(n, [&](Index i) { y[i] = mul_add(a, x[i], y[i]); });
}

template <class T>
SOLVENT_VECTOR_KERNEL void waxpy(T a, std::span<const T> x, std::span<const T> y, std::span<T> w) {
  const Index n = length(x.size());
  for_each_element(n, [&](Index i) { w[i] = mul_add(a, x[i], y[i]); });
}

template <class T>
SOLVENT_VECTOR_KERNEL void axpby(T a, std::span<const T> x, T b, std::span<T> y) {
  const Index n = length(x.size());
  for_each_element(n, [&](Index i) { y[i] = mul_add(a, x[i], mul(b, y[i])); });
}

template <class T>
SOLVENT_VECTOR_KERNEL void elementwise_product(std::span<const T> d, std::span<T> x) {
  const Index n = length(x.size());
  for_each_element(n, [&](Index i) { x[i] = mul(d[i], x[i]); });
}

// out[k] = the sum of conj(xs[k]) ys[k] over the `terms` terms from `first`: the terms dealt in
// turn to `lanes` accumulators (term i to lane i mod lanes), each adding its terms in index
// order, then the lanes added pairwise in a fixed tree. The bits depend on nothing but where
// the block starts and ends. One serial chain waited the adder's latency (4 cycles) for every
// term; eight independent chains are what the compiler turns into vector instructions (four
// two-wide SSE2 chains on the baseline x86-64 target), as the OpenBLAS dot under PETSc's
// VecDot keeps several (docs/benchmarks.md, "Peers").
template <class T>
SOLVENT_VECTOR_KERNEL void block_sums(std::span<const T* const> xs, std::span<const T* const> ys,
                                      Index first, Index terms, T* out) {
  constexpr Index lanes = 8;
  const Index whole = terms - terms % lanes;
  for (std::size_t k = 0; k < ys.size(); ++k) {
    const T* xb = xs[k] + first;
    const T* y = ys[k] + first;
    T lane[lanes] = {};
    for (Index i = 0; i < whole; i += lanes)
      for (Index l = 0; l < lanes; ++l) lane[l] = conj_mul_add(xb[i + l], y[i + l], lane[l]);
    for (Index i = whole; i < terms; ++i)
      lane[i - whole] = conj_mul_add(xb[i], y[i], lane[i - whole]);
    for (Index width = lanes / 2; width > 0; width /= 2)
      for (Index l = 0; l < width; ++l) lane[l] += lane[l + width];
    out[k] = lane[0];
  }
}

// Partial sums over fixed blocks of the index range (block_sums), then the blocks in block
// order: the same additions in the same order for any thread count (as the GPU's two-phase
// reduction), so iteration counts and results do not change with OMP_NUM_THREADS. The block
// is large enough that the partial sums stay a small fraction of the work and small enough
// that 16 threads still share a 10^5-element vector.
template <class T>
SOLVENT_VECTOR_KERNEL void dots(std::size_t size, std::span<const T* const> xs,
                                std::span<const T* const> ys, std::span<T> out) {
  constexpr Index block = dot_block;
  const Index n = length(size);
  const Index blocks = (n + block - 1) / block;
  const std::size_t k_count = ys.size();
  std::vector<T> partial(static_cast<std::size_t>(blocks) * k_count, T(0));
  for_each_index(blocks, n >= parallel_from, [&](Index b) {
    block_sums(xs, ys, b * block, std::min(n, (b + 1) * block) - b * block,
               partial.data() + b * k_count);
  });
  for (std::size_t k = 0; k < k_count; ++k) out[k] = T(0);
  for (std::size_t p = 0; p < partial.size(); p += k_count)
    for (std::size_t k = 0; k < k_count; ++k) out[k] += partial[p + k];
}

template <class T>
void line_dots(std::size_t size, std::span<const T* const> xs, std::span<const T* const> ys,
               std::size_t line, std::span<ExactSum> sums) {
  constexpr std::size_t parts = std::is_same_v<T, double> ? 1 : 2;
  const std::size_t k_count = ys.size();
  const Index lines = length(line == 0 ? 0 : size / line);
#pragma omp parallel
  {
    std::vector<ExactSum> mine(k_count * parts);
#pragma omp for schedule(static)
    for (Index l = 0; l < lines; ++l)
      for (std::size_t k = 0; k < k_count; ++k) {
        T s = T(0);
        for (std::size_t i = l * line; i < (l + 1) * line; ++i)
          s = conj_mul_add(xs[k][i], ys[k][i], s);
        if constexpr (parts == 1) {
          mine[k].add(s);
        } else {
          mine[2 * k].add(s.real());
          mine[2 * k + 1].add(s.imag());
        }
      }
      // Exact sums: the order in which the threads add theirs does not matter.
#pragma omp critical
    for (std::size_t p = 0; p < mine.size(); ++p) sums[p].add(mine[p]);
  }
}

template <class T>
T dot(std::span<const T> x, std::span<const T> y) {
  const T* xs[1] = {x.data()};
  const T* ys[1] = {y.data()};
  T out[1];
  dots<T>(x.size(), xs, ys, out);
  return out[0];
}

template <class T>
double norm2(std::span<const T> x) {
  return std::sqrt(real_part(dot<T>(x, x)));
}

template <class T>
SOLVENT_VECTOR_KERNEL void apply(const MatrixView<T>& a, std::span<const T> x, std::span<T> y) {
  if (const auto* csr = std::get_if<const CsrMatrix<T>*>(&a)) {
    const CsrMatrix<T>& m = **csr;
    const Index n = length(m.rows);
    const std::int32_t* rp = m.row_ptr.data();
    const std::int32_t* ci = m.col_idx.data();
    const T* v = m.values.data();
    const Columns<T> column{x.data()};
    for_each_element(n, [&](Index i) { y[i] = csr_row_partial(rp, ci, v, column, i, 0, 1); });
  } else if (const auto* stencil = std::get_if<const Stencil7<T>*>(&a)) {
    const Stencil7View<T> s = view_of(**stencil);
    const Index n = s.n1 * s.n2 * s.n3;
    for_each_element(n, [&](Index m) { y[m] = stencil7_row(s, x.data(), m); });
  } else {
    std::get<const MatrixFreeOperator<T>*>(a)->apply(x, y);
  }
}

// Block by block: the block's rows of y, then its partial sum of <x, y> while those rows are
// still in cache (dots() reads both vectors from memory again). The blocks and block_sums
// are dots'; the rows are apply's: the same bits as apply, then dot.
template <class T>
SOLVENT_VECTOR_KERNEL T csr_apply_dot(const CsrMatrix<T>& m, std::span<const T> x, std::span<T> y) {
  constexpr Index block = dot_block;
  const Index n = length(m.rows);
  const Index blocks = (n + block - 1) / block;
  const std::int32_t* rp = m.row_ptr.data();
  const std::int32_t* ci = m.col_idx.data();
  const T* v = m.values.data();
  const Columns<T> column{x.data()};
  const T* xs[1] = {x.data()};
  const T* ys[1] = {y.data()};
  std::vector<T> partial(static_cast<std::size_t>(blocks), T(0));
  for_each_index(blocks, n >= parallel_from, [&](Index b) {
    const Index first = b * block, last = std::min(n, first + block);
    for (Index i = first; i < last; ++i) y[i] = csr_row_partial(rp, ci, v, column, i, 0, 1);
    block_sums<T>(xs, ys, first, last - first, partial.data() + b);
  });
  T out = T(0);
  for (const T& p : partial) out += p;
  return out;
}

template <class T>
void face_rows(const Stencil7<T>& a, const FaceOffsets& faces, std::span<const T> x,
               std::span<const T> ghosts, std::span<T> y) {
  const Stencil7View<T> s = view_of(a);
  for (int f = 0; f < 6; ++f) {
    const Index nodes = faces.at[f + 1] - faces.at[f];
#pragma omp parallel for schedule(static)
    for (Index q = 0; q < nodes; ++q) {
      std::int64_t m = 0;
      const T row = stencil7_face_row(s, faces, x.data(), ghosts.data(), f, q, m);
      y[m] = row;
    }
  }
}

#define SOLVENT_KRYLOV_HOST_KERNELS(T)                                                          \
  template void assign<T>(std::span<const T>, std::span<T>);                                    \
  template void scale<T>(T, std::span<T>);                                                      \
  template void axpy<T>(T, std::span<const T>, std::span<T>);                                   \
  template void waxpy<T>(T, std::span<const T>, std::span<const T>, std::span<T>);              \
  template void axpby<T>(T, std::span<const T>, T, std::span<T>);                               \
  template void elementwise_product<T>(std::span<const T>, std::span<T>);                       \
  template T dot<T>(std::span<const T>, std::span<const T>);                                    \
  template double norm2<T>(std::span<const T>);                                                 \
  template void dots<T>(std::size_t, std::span<const T* const>, std::span<const T* const>,      \
                        std::span<T>);                                                          \
  template void line_dots<T>(std::size_t, std::span<const T* const>, std::span<const T* const>, \
                             std::size_t, std::span<ExactSum>);                                 \
  template void apply<T>(const MatrixView<T>&, std::span<const T>, std::span<T>);               \
  template T csr_apply_dot<T>(const CsrMatrix<T>&, std::span<const T>, std::span<T>);           \
  template void face_rows<T>(const Stencil7<T>&, const FaceOffsets&, std::span<const T>,        \
                             std::span<const T>, std::span<T>);
SOLVENT_KRYLOV_HOST_KERNELS(double)
SOLVENT_KRYLOV_HOST_KERNELS(complex)
#undef SOLVENT_KRYLOV_HOST_KERNELS

}  // namespace solvent::krylov::host
