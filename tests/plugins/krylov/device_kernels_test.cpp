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

    // Several vectors in one launch (more than one run of sixteen), each with the bits of
    // its own axpy or axpby; a combination with those of axpy term by term.
    {
      constexpr int count = 18;
      std::vector<solvent::cuda::DeviceArray<T>> ins, outs, alone;
      std::vector<const T*> in_ptrs;
      std::vector<T*> out_ptrs;
      std::vector<T> c;
      for (int k = 0; k < count; ++k) {
        const auto v = random_vector<T>(n, 10 + k);
        ins.emplace_back(v.data(), n);
        outs.emplace_back(y0.data(), n);
        alone.emplace_back(y0.data(), n);
        in_ptrs.push_back(ins.back().data());
        out_ptrs.push_back(outs.back().data());
        c.push_back(random_vector<T>(1, 40 + k)[0]);
      }
      device::axpy_each<T>(N, a, in_ptrs.data(), out_ptrs.data(), count);
      for (int k = 0; k < count; ++k) {
        device::axpy<T>(N, a, ins[k].data(), alone[k].data());
        CHECK(fetch(outs[k]) == fetch(alone[k]));
      }
      device::axpby_each<T>(N, a, in_ptrs.data(), b, out_ptrs.data(), count);
      for (int k = 0; k < count; ++k) {
        device::axpby<T>(N, a, ins[k].data(), b, alone[k].data());
        CHECK(fetch(outs[k]) == fetch(alone[k]));
      }
      dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
      solvent::cuda::DeviceArray<T> term_by_term(y0.data(), n);
      device::add_combination<T>(N, c.data(), in_ptrs.data(), count, dy.data());
      for (int k = 0; k < count; ++k) device::axpy<T>(N, c[k], ins[k].data(), term_by_term.data());
      CHECK(fetch(dy) == fetch(term_by_term));
      CHECK(fetch(dy) != y0);
    }

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

    // Up to max_dots pairs per call: many launches of eight, each pair with the bits it has
    // alone.
    dy = solvent::cuda::DeviceArray<T>(y0.data(), n);
    solvent::cuda::DeviceArray<T> workspace(device::dots_workspace(device::max_dots));
    const T* device_vectors[3] = {dy.data(), dd.data(), dx.data()};
    const std::vector<T>* host_vectors[3] = {&y0, &d, &x};
    std::vector<const T*> xs, ys;
    std::vector<T> expected;
    for (int k = 0; k < device::max_dots; ++k) {
      xs.push_back(device_vectors[(k / 3) % 3]);
      ys.push_back(device_vectors[k % 3]);
      expected.push_back(reference_dot(*host_vectors[(k / 3) % 3], *host_vectors[k % 3]));
    }
    std::vector<T> alone(device::max_dots);
    for (int k = 0; k < device::max_dots; ++k)
      device::dots<T>(N, &xs[k], &ys[k], 1, workspace.data(), &alone[k]);
    for (int count : {1, 2, 8, 9, device::max_dots}) {
      std::vector<T> out(count);
      device::dots<T>(N, xs.data(), ys.data(), count, workspace.data(), out.data());
      for (int k = 0; k < count; ++k) {
        CHECK(std::abs(out[k] - expected[k]) <= 1e-12 * double(n));
        CHECK(out[k] == alone[k]);
      }
    }
    std::vector<T> out(device::max_dots + 1);
    CHECK_THROWS_WITH_AS(device::dots<T>(N, xs.data(), ys.data(), device::max_dots + 1,
                                         workspace.data(), out.data()),
                         "dots: between 1 and 152 products per call", SolverError);
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
    // A rank's product in two lists of rows (even, odd), its columns from `local` on read from
    // a ghost buffer: each row the bits of the product over x whole.
    const std::int32_t local = static_cast<std::int32_t>(a.cols / 3);
    solvent::cuda::DeviceArray<T> ghosts(x.data() + local, a.cols - local);
    std::vector<std::int32_t> even, odd;
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(a.rows); ++i)
      (i % 2 ? odd : even).push_back(i);
    solvent::cuda::DeviceArray<std::int32_t> even_rows(even.data(), even.size()),
        odd_rows(odd.data(), odd.size());
    solvent::cuda::DeviceArray<T> split(poison.data(), a.rows);
    for (const auto* rows : {&even_rows, &odd_rows})
      device::csr_spmv_rows<T>(static_cast<std::int64_t>(rows->size()), rows->data(), rp.data(),
                               ci.data(), v.data(), dx.data(), local, ghosts.data(), split.data(),
                               g);
    CHECK(fetch(split) == fetch(y));
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
