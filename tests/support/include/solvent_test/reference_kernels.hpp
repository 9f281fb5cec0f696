#pragma once
// Plain sequential references the CPU and CUDA kernels are checked against, and random
// test data.
#include <solvent/csr_matrix.hpp>
#include <solvent/scalar.hpp>
#include <solvent/stencil7.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

namespace solvent::test {

template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& e : v) {
    if constexpr (std::is_same_v<T, complex>)
      e = complex(u(rng), u(rng));
    else
      e = u(rng);
  }
  return v;
}

template <class T>
T reference_dot(const std::vector<T>& x, const std::vector<T>& y) {
  T s = T(0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_same_v<T, complex>)
      s += std::conj(x[i]) * y[i];
    else
      s += x[i] * y[i];
  }
  return s;
}

template <class T>
std::vector<T> reference_apply(const CsrMatrix<T>& a, const std::vector<T>& x) {
  std::vector<T> y(a.rows, T(0));
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::int32_t j = a.row_ptr[i]; j < a.row_ptr[i + 1]; ++j)
      y[i] += a.values[j] * x[a.col_idx[j]];
  return y;
}

// The seven-point operator spelt out by grid coordinates (the kernels use linear offsets).
template <class T>
std::vector<T> reference_apply(const Stencil7<T>& s, const std::vector<T>& x) {
  std::vector<T> y(s.size());
  for (std::size_t k = 0; k < s.n3; ++k)
    for (std::size_t j = 0; j < s.n2; ++j)
      for (std::size_t i = 0; i < s.n1; ++i) {
        const std::size_t m = s.index(i, j, k);
        if (s.c[0][m] == T(0)) {
          y[m] = x[m];
          continue;
        }
        T v = s.c[0][m] * x[m];
        if (i > 0) v -= s.c[1][m] * x[s.index(i - 1, j, k)];
        if (i + 1 < s.n1) v -= s.c[2][m] * x[s.index(i + 1, j, k)];
        if (j > 0) v -= s.c[3][m] * x[s.index(i, j - 1, k)];
        if (j + 1 < s.n2) v -= s.c[4][m] * x[s.index(i, j + 1, k)];
        if (k > 0) v -= s.c[5][m] * x[s.index(i, j, k - 1)];
        if (k + 1 < s.n3) v -= s.c[6][m] * x[s.index(i, j, k + 1)];
        y[m] = v;
      }
  return y;
}

// A random sparse matrix with rows of 0 to max_row entries (empty rows included).
template <class T>
CsrMatrix<T> random_csr(std::size_t n, int max_row, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> len(0, max_row);
  std::uniform_int_distribution<std::size_t> col(0, n - 1);
  CsrMatrix<T> a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  const auto vals = random_vector<T>(n * static_cast<std::size_t>(max_row), seed + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const int l = len(rng);
    std::vector<std::int32_t> cols;
    for (int e = 0; e < l; ++e) cols.push_back(static_cast<std::int32_t>(col(rng)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (auto c : cols) {
      a.col_idx.push_back(c);
      a.values.push_back(vals[a.values.size() % vals.size()]);
    }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
  }
  return a;
}

// A random stencil with some inactive nodes (c0 = 0).
template <class T>
Stencil7<T> random_stencil(std::size_t n1, std::size_t n2, std::size_t n3, std::uint64_t seed) {
  Stencil7<T> s(n1, n2, n3);
  for (int d = 0; d < 7; ++d) s.c[d] = HostArray<T>(random_vector<T>(s.size(), seed + d));
  for (std::size_t m = 0; m < s.size(); m += 11) s.c[0][m] = T(0);
  return s;
}

template <class T>
double max_relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return d / (scale > 0 ? scale : 1.0);
}

}  // namespace solvent::test
