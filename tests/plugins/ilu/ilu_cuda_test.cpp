// ilu0-cuda: the preconditioner conformance checks (through bicgstab-cuda), and against
// ilu0: the same z, on device vectors, for real and complex CSR operators,
// in place, and after refreshes on the same and on another pattern; its refusals. Skipped
// (exit 77) without a GPU.
#define DOCTEST_CONFIG_IMPLEMENT
#include <solvent_test/device_vector.hpp>
#include "test_operators.hpp"

#include <solvent/errors.hpp>
#include <solvent/testkit.hpp>

#include <solvent_test/test_matrices.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

namespace tk = solvent::testkit;
using namespace ilu_test;
using solvent::test::DeviceVector;

namespace {

template <class T>
double max_relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return diff / scale;
}

template <class T>
std::vector<T> on_host(const solvent::Preconditioner& pc, const std::vector<T>& r) {
  std::vector<T> z(r.size());
  pc.apply(std::span<const T>(r), std::span<T>(z));
  return z;
}

template <class T>
std::vector<T> on_device(const solvent::Preconditioner& pc, const std::vector<T>& r) {
  DeviceVector<T> dr(r), dz(std::vector<T>(r.size()));
  pc.apply(std::span<const T>(dr.span()), dz.span());
  return dz.download();
}

template <class T>
std::vector<std::pair<const char*, solvent::CsrMatrix<T>>> matrices() {
  std::vector<std::pair<const char*, solvent::CsrMatrix<T>>> m{
      {"tridiagonal", tridiagonal<T>(1000)}, {"2D five-point", laplacian_2d<T>(60, 50)}};
  if constexpr (std::is_same_v<T, complex>)
    m.emplace_back("3D Helmholtz", solvent::krylov::testing::helmholtz_box(16, 16, 16, 5.0));
  else
    m.emplace_back("3D convection-diffusion",
                   solvent::krylov::testing::convection_diffusion(16, 20.0));
  return m;
}

}  // namespace

TEST_CASE("ilu0-cuda passes the preconditioner conformance checks") {
  tk::check_preconditioner("ilu0-cuda");
}

TEST_CASE_TEMPLATE("ilu0-cuda gives ilu0's z, also in place and after refreshes", T, double,
                   complex) {
  for (const auto& [name, a] : matrices<T>()) {
    CAPTURE(name);
    const auto r = random_vector<T>(a.rows, 1);
    auto cpu = tk::make_preconditioner("ilu0");
    auto gpu = tk::make_preconditioner("ilu0-cuda");
    cpu->setup(op(a));
    gpu->setup(op(a));
    const auto expected = on_host(*cpu, r);
    CHECK(max_relative_difference(on_device(*gpu, r), expected) <= 1e-12);

    DeviceVector<T> in_place(r);
    gpu->apply(std::span<const T>(in_place.span()), in_place.span());
    CHECK(max_relative_difference(in_place.download(), expected) <= 1e-12);

    // New values on the kept pattern: the device factors are updated, not re-analysed.
    const auto b = op(rescaled(a));
    cpu->refresh(b);
    gpu->refresh(b);
    CHECK(max_relative_difference(on_device(*gpu, r), on_host(*cpu, r)) <= 1e-12);

    // Another pattern: a new setup.
    const auto other = op(tridiagonal<T>(77));
    const auto r77 = random_vector<T>(77, 2);
    cpu->refresh(other);
    gpu->refresh(other);
    CHECK(max_relative_difference(on_device(*gpu, r77), on_host(*cpu, r77)) <= 1e-12);
  }
}

TEST_CASE("ilu0-cuda refuses what ilu0 refuses, in its own name") {
  auto gpu = tk::make_preconditioner("ilu0-cuda");
  CHECK_THROWS_WITH_AS(
      gpu->setup(std::make_shared<const solvent::Operator>(solvent::DenseMatrix<double>(2, 2))),
      "ilu0-cuda: cannot use a dense real operator (takes csr real, csr complex)",
      solvent::UnsupportedOperator);
  solvent::CsrMatrix<double> a;
  a.rows = a.cols = 2;
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {1.0, 1.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(gpu->setup(op(a)), "ilu0-cuda: zero pivot in row 1", solvent::SolverError);
}

int main(int argc, char** argv) {
  solvent::CsrMatrix<double> one;
  one.rows = one.cols = 1;
  one.row_ptr = {0, 1};
  one.col_idx = {0};
  one.values = {1.0};
  try {
    tk::make_preconditioner("ilu0-cuda")->setup(op(one));
  } catch (const solvent::DeviceUnavailable& e) {
    std::printf("skipped: %s\n", e.what());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
