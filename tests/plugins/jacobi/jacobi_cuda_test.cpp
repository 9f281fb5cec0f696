// jacobi-cuda: the preconditioner conformance checks (through bicgstab-cuda), and against
// jacobi: the same z, on device vectors, for CSR and seven-point
// operators, real and complex, in place and after a refresh; its refusals. Skipped (exit 77)
// without a GPU.
#define DOCTEST_CONFIG_IMPLEMENT
#include <solvent_test/device_vector.hpp>
#include "test_operators.hpp"

#include <solvent/errors.hpp>
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <tuple>
#include <vector>

namespace tk = solvent::testkit;
using namespace jacobi_test;
using solvent::test::DeviceVector;
using solvent::complex;

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

}  // namespace

TEST_CASE("jacobi-cuda passes the preconditioner conformance checks") {
  tk::check_preconditioner("jacobi-cuda");
}

TEST_CASE_TEMPLATE("jacobi-cuda gives jacobi's z on CSR and seven-point operators", T, double,
                   complex) {
  const std::size_t n = 36;
  const auto r = random_vector<T>(n, 1);
  for (const auto& [name, a, refreshed] :
       {std::tuple{"csr", csr<T>(n), csr<T>(n, 2.5)},
        std::tuple{"stencil7", stencil<T>(), stencil<T>(0.25)}}) {
    CAPTURE(name);
    auto cpu = tk::make_preconditioner("jacobi");
    auto gpu = tk::make_preconditioner("jacobi-cuda");
    cpu->setup(a.op);
    gpu->setup(a.op);
    const auto expected = on_host(*cpu, r);
    CHECK(max_relative_difference(on_device(*gpu, r), expected) <= 1e-12);

    DeviceVector<T> in_place(r);
    gpu->apply(std::span<const T>(in_place.span()), in_place.span());
    CHECK(max_relative_difference(in_place.download(), expected) <= 1e-12);

    cpu->refresh(refreshed.op);
    gpu->refresh(refreshed.op);
    CHECK(max_relative_difference(on_device(*gpu, r), on_host(*cpu, r)) <= 1e-12);
  }
}

TEST_CASE("jacobi-cuda refuses dense and banded operators and a zero diagonal") {
  auto gpu = tk::make_preconditioner("jacobi-cuda");
  CHECK_THROWS_WITH_AS(gpu->setup(dense<double>(4).op),
                       "jacobi-cuda: cannot use a dense real operator (takes csr real, csr "
                       "complex, stencil7 real, stencil7 complex)",
                       solvent::UnsupportedOperator);
  CHECK_THROWS_AS(gpu->setup(banded<complex>(4).op), solvent::UnsupportedOperator);
  solvent::CsrMatrix<double> a;
  a.rows = a.cols = 3;
  a.row_ptr = {0, 1, 2, 3};
  a.col_idx = {0, 1, 1};
  a.values = {1.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(gpu->setup(std::make_shared<const solvent::Operator>(a)),
                       "jacobi-cuda: the diagonal of row 2 is zero", solvent::SolverError);
}

int main(int argc, char** argv) {
  solvent::CsrMatrix<double> one;
  one.rows = one.cols = 1;
  one.row_ptr = {0, 1};
  one.col_idx = {0};
  one.values = {1.0};
  try {
    tk::make_preconditioner("jacobi-cuda")->setup(std::make_shared<const solvent::Operator>(one));
  } catch (const solvent::DeviceUnavailable& e) {
    std::printf("skipped: %s\n", e.what());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
