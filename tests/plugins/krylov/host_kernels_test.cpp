// Each CPU kernel against the sequential reference, in both scalar types, on sizes that
// leave uneven pieces for the threads.
#include <solvent_krylov/host_kernels.hpp>

#include <solvent_test/reference_kernels.hpp>

#include <doctest/doctest.h>

using namespace solvent;
using namespace solvent::krylov;
using namespace solvent::test;

TEST_CASE_TEMPLATE("CPU vector kernels agree with the sequential reference", T, double, complex) {
  for (std::size_t n : {1u, 7u, 1000u, 100003u}) {
    CAPTURE(n);
    const auto x = random_vector<T>(n, 1), y0 = random_vector<T>(n, 2), d = random_vector<T>(n, 3);
    const T a = random_vector<T>(1, 4)[0], b = random_vector<T>(1, 5)[0];
    std::vector<T> y = y0, ref(n);

    host::assign<T>(x, y);
    CHECK(y == x);

    y = y0;
    host::scale<T>(a, y);
    for (std::size_t i = 0; i < n; ++i) ref[i] = a * y0[i];
    CHECK(max_relative_difference(y, ref) <= 1e-15);

    y = y0;
    host::axpy<T>(a, x, y);
    for (std::size_t i = 0; i < n; ++i) ref[i] = y0[i] + a * x[i];
    CHECK(max_relative_difference(y, ref) <= 1e-15);

    // Into another vector, with the bits of axpy (CG's iterate update).
    std::vector<T> w(n);
    host::waxpy<T>(a, x, y0, w);
    CHECK(w == y);
    CHECK(w != y0);

    y = y0;
    host::axpby<T>(a, x, b, y);
    for (std::size_t i = 0; i < n; ++i) ref[i] = a * x[i] + b * y0[i];
    CHECK(max_relative_difference(y, ref) <= 1e-15);

    y = y0;
    host::elementwise_product<T>(d, y);
    for (std::size_t i = 0; i < n; ++i) ref[i] = d[i] * y0[i];
    CHECK(max_relative_difference(y, ref) <= 1e-15);

    const double scale = static_cast<double>(n);
    CHECK(std::abs(host::dot<T>(x, y0) - reference_dot(x, y0)) <= 1e-13 * scale);
    CHECK(host::norm2<T>(x) ==
          doctest::Approx(std::sqrt(std::abs(reference_dot(x, x)))).epsilon(1e-13));

    const T* xs[3] = {x.data(), x.data(), d.data()};
    const T* ys[3] = {y0.data(), d.data(), x.data()};
    std::vector<T> out(3);
    host::dots<T>(n, xs, ys, out);
    CHECK(std::abs(out[0] - reference_dot(x, y0)) <= 1e-13 * scale);
    CHECK(std::abs(out[1] - reference_dot(x, d)) <= 1e-13 * scale);
    CHECK(std::abs(out[2] - reference_dot(d, x)) <= 1e-13 * scale);
    // Each pair summed as dot sums it: the same bits.
    CHECK(out[0] == host::dot<T>(x, y0));
    CHECK(out[2] == host::dot<T>(d, x));
  }
}

TEST_CASE_TEMPLATE("the conjugated dot product conjugates its first argument", T, complex) {
  const std::vector<T> x{T(0, 1)}, y{T(0, 1)};
  CHECK(host::dot<T>(x, y) == T(1, 0));  // conj(i) i = 1, not i i = -1
}

TEST_CASE_TEMPLATE("CPU SpMV agrees with the reference for CSR and Stencil7", T, double, complex) {
  const auto a = random_csr<T>(5003, 30, 7);
  const auto x = random_vector<T>(a.cols, 8);
  std::vector<T> y(a.rows);
  host::apply<T>(MatrixView<T>(&a), x, y);
  CHECK(max_relative_difference(y, reference_apply(a, x)) <= 1e-14);

  const auto s = random_stencil<T>(13, 7, 5, 9);
  const auto xs = random_vector<T>(s.size(), 10);
  std::vector<T> ys(s.size());
  host::apply<T>(MatrixView<T>(&s), xs, ys);
  CHECK(max_relative_difference(ys, reference_apply(s, xs)) <= 1e-14);
}

// CG's product fused with <p, Ap>: the bits of the product and the dot taken apart, on sizes
// below, at and past a block of the dot and the parallel threshold.
TEST_CASE_TEMPLATE("the fused CSR product and dot give the bits of apply, then dot", T, double,
                   complex) {
  for (std::size_t n : {1u, 4096u, 5003u, 20011u}) {
    CAPTURE(n);
    const auto a = random_csr<T>(n, 30, 11);
    const auto x = random_vector<T>(a.cols, 12);
    std::vector<T> apart(a.rows), fused(a.rows);
    host::apply<T>(MatrixView<T>(&a), x, apart);
    const T expected = host::dot<T>(x, apart);
    const T got = host::csr_apply_dot<T>(a, x, fused);
    CHECK(fused == apart);
    CHECK(got == expected);
    CHECK(std::abs(got - reference_dot(x, reference_apply(a, x))) <=
          1e-12 * static_cast<double>(n));
  }
}
