// ilu0-cuda: the preconditioner conformance checks (through bicgstab-cuda), and against
// ilu0: the same z, on device vectors, for real and complex CSR operators,
// in place, and after refreshes on the same and on another pattern; its refusals. Skipped
// (exit 77) without a GPU.
#include "test_operators.hpp"

#include <solvent/errors.hpp>
#include <solvent/testkit.hpp>

#include <solvent_test/device_preconditioner_checks.hpp>
#include <solvent_test/test_matrices.hpp>

#include <doctest/doctest.h>

#include <type_traits>
#include <utility>
#include <vector>

namespace tk = solvent::testkit;
using namespace ilu_test;

namespace {

template <class T>
std::vector<std::pair<const char*, solvent::CsrMatrix<T>>> matrices() {
  std::vector<std::pair<const char*, solvent::CsrMatrix<T>>> m{
      {"tridiagonal", tridiagonal<T>(1000)}, {"2D five-point", laplacian_2d<T>(60, 50)}};
  if constexpr (std::is_same_v<T, complex>)
    m.emplace_back("3D Helmholtz", solvent::test::helmholtz_box(16, 16, 16, 5.0));
  else
    m.emplace_back("3D convection-diffusion", solvent::test::convection_diffusion(16, 20.0));
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
    // New values on the kept pattern (the device factors are updated, not re-analysed), then
    // another pattern (a new setup).
    solvent::test::check_device_matches_host<T>("ilu0-cuda", "ilu0", op(a),
                                                {op(rescaled(a)), op(tridiagonal<T>(77))});
  }
}

TEST_CASE("ilu0-cuda refuses what ilu0 refuses, in its own name") {
  auto gpu = tk::make_preconditioner("ilu0-cuda");
  CHECK_THROWS_WITH_AS(
      gpu->setup(std::make_shared<const solvent::Operator>(solvent::DenseMatrix<double>(2, 2))),
      "the preconditioner cannot be built from a real dense operator (it takes: real csr, "
      "complex csr)",
      solvent::UnsupportedOperator);
  solvent::CsrMatrix<double> a;
  a.rows = a.cols = 2;
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {1.0, 1.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(gpu->setup(op(a)), "ilu0-cuda: zero pivot in row 1", solvent::SolverError);
  a.values = {2.0, 1.0, 1.0, 2.0};
  solvent::test::check_apply_refusals("ilu0-cuda", op(a));
}
