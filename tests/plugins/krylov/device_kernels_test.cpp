// Each CUDA kernel against the sequential reference (and SpMV for every thread-group size).
#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>
#include <solvent_krylov/device_kernels.hpp>

#include <solvent_test/reference_kernels.hpp>

#include <doctest/doctest.h>

#include <array>

using namespace solvent;
using namespace solvent::krylov;
using namespace solvent::test;

namespace {

template <class T>
std::vector<T> fetch(const solvent::cuda::DeviceArray<T>& a) {
  std::vector<T> h(a.size());
  solvent::cuda::copy_to_host(h.data(), a.data(), a.size() * sizeof(T));
  return h;
}

}  // namespace

TEST_CASE_TEMPLATE("CUDA vector kernels agree with the sequential reference", T, double, complex) {
  for (std::size_t n : {1u, 255u, 257u, 100003u, 3000017u}) {
    CAPTURE(n);
    const auto x = random_vector<T>(n, 1), y0 = random_vector<T>(n, 2), d = random_vector<T>(n, 3);
    const T a = random_vector<T>(1, 4)[0], b = random_vector<T>(1, 5)[0];
    const auto N = static_cast<std::int64_t>(n);
    solvent::cuda::DeviceArray<T> dx(x.data(), n), dd(d.data(), n);
    std::vector<T> ref(n);
    // Poisoned output: every element must be written.
    const std::vector<T> poison(n, T(1e300));

    solvent::cuda::DeviceArray<T> dy(poison.data(), n);
    device::assign<T>(N, dx.data(), dy.data());
    CHECK(fetch(dy) == x);

    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    device::scale<T>(N, a, dy.data());
    for (std::size_t i = 0; i < n; ++i) ref[i] = a * y0[i];
    CHECK(max_relative_difference(fetch(dy), ref) <= 1e-15);

    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    device::axpy<T>(N, a, dx.data(), dy.data());
    for (std::size_t i = 0; i < n; ++i) ref[i] = y0[i] + a * x[i];
    CHECK(max_relative_difference(fetch(dy), ref) <= 1e-15);

    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    device::axpby<T>(N, a, dx.data(), b, dy.data());
    for (std::size_t i = 0; i < n; ++i) ref[i] = a * x[i] + b * y0[i];
    CHECK(max_relative_difference(fetch(dy), ref) <= 1e-15);

    // Into another vector, with the bits of axpy (CG's iterate update).
    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    solvent::cuda::DeviceArray<T> dw(n);
    device::waxpy<T>(N, a, dx.data(), dy.data(), dw.data());
    device::axpy<T>(N, a, dx.data(), dy.data());
    CHECK(fetch(dw) == fetch(dy));
    CHECK(fetch(dw) != y0);

    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    device::elementwise_product<T>(N, dd.data(), dy.data());
    for (std::size_t i = 0; i < n; ++i) ref[i] = d[i] * y0[i];
    CHECK(max_relative_difference(fetch(dy), ref) <= 1e-15);

    // Up to 17 products per call: more than one launch of eight.
    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    solvent::cuda::DeviceArray<T> workspace(device::dots_workspace(device::max_dots));
    std::vector<const T*> ys;
    std::vector<T> expected;
    for (int k = 0; k < device::max_dots; ++k) {
      ys.push_back(k % 3 == 0 ? dy.data() : k % 3 == 1 ? dd.data() : dx.data());
      expected.push_back(reference_dot(x, k % 3 == 0 ? y0 : k % 3 == 1 ? d : x));
    }
    for (int count : {1, 2, 8, 9, device::max_dots}) {
      std::vector<T> out(count);
      device::dots<T>(N, dx.data(), ys.data(), count, workspace.data(), out.data());
      for (int k = 0; k < count; ++k) CHECK(std::abs(out[k] - expected[k]) <= 1e-12 * double(n));
    }
  }
}

TEST_CASE_TEMPLATE("CUDA SpMV agrees with the reference for every group size", T, double, complex) {
  const auto a = random_csr<T>(20011, 40, 7);
  const auto x = random_vector<T>(a.cols, 8);
  const auto ref = reference_apply(a, x);
  solvent::cuda::DeviceArray<std::int32_t> rp(a.row_ptr.data(), a.row_ptr.size()),
      ci(a.col_idx.data(), a.col_idx.size());
  solvent::cuda::DeviceArray<T> v(a.values.data(), a.values.size()), dx(x.data(), x.size());
  for (int g : {1, 2, 4, 8, 16, 32}) {
    CAPTURE(g);
    const std::vector<T> poison(a.rows, T(1e300));
    solvent::cuda::DeviceArray<T> y(poison.data(), a.rows);
    device::csr_spmv<T>(static_cast<std::int64_t>(a.rows), rp.data(), ci.data(), v.data(),
                        dx.data(), y.data(), g);
    CHECK(max_relative_difference(fetch(y), ref) <= 1e-14);
  }
  CHECK_THROWS_WITH_AS(
      device::csr_spmv<T>(1, rp.data(), ci.data(), v.data(), dx.data(), dx.data(), 3),
      "csr_spmv: the thread group must be 1, 2, 4, 8, 16 or 32", SolverError);

  const auto s = random_stencil<T>(33, 17, 9, 9);
  const auto xs = random_vector<T>(s.size(), 10);
  std::array<solvent::cuda::DeviceArray<T>, 7> c;
  Stencil7View<T> view{};
  for (int k = 0; k < 7; ++k) {
    c[k] = solvent::cuda::DeviceArray<T>(s.c[k].data(), s.size());
    view.c[k] = c[k].data();
  }
  view.n1 = 33, view.n2 = 17, view.n3 = 9;
  solvent::cuda::DeviceArray<T> dxs(xs.data(), xs.size()), ys(s.size());
  device::stencil7_spmv<T>(view, dxs.data(), ys.data());
  CHECK(max_relative_difference(fetch(ys), reference_apply(s, xs)) <= 1e-14);
}

TEST_CASE("the group size follows the mean row length") {
  CHECK(device::csr_group_for(7.0) == 4);
  CHECK(device::csr_group_for(15.0) == 8);
  CHECK(device::csr_group_for(27.0) == 16);
  CHECK(device::csr_group_for(1000.0) == 32);
  CHECK(device::csr_group_for(1.0) == 1);
}
