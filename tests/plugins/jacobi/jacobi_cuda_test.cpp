// jacobi-cuda: the preconditioner conformance checks (through bicgstab-cuda), and against
// jacobi: the same z, on device vectors, for CSR and seven-point
// operators, real and complex, in place and after a refresh; its refusals. Skipped (exit 77)
// without a GPU.
#include "test_operators.hpp"

#include <solvent/errors.hpp>
#include <solvent/testkit.hpp>

#include <solvent_test/device_preconditioner_checks.hpp>

#include <doctest/doctest.h>

#include <tuple>

namespace tk = solvent::testkit;
using namespace jacobi_test;
using solvent::complex;

TEST_CASE("jacobi-cuda passes the preconditioner conformance checks") {
  tk::check_preconditioner("jacobi-cuda");
}

TEST_CASE_TEMPLATE("jacobi-cuda gives jacobi's z on CSR and seven-point operators", T, double,
                   complex) {
  const std::size_t n = 36;
  for (const auto& [name, a, refreshed] :
       {std::tuple{"csr", csr<T>(n), csr<T>(n, 2.5)},
        std::tuple{"stencil7", stencil<T>(), stencil<T>(0.25)}}) {
    CAPTURE(name);
    solvent::test::check_device_matches_host<T>("jacobi-cuda", "jacobi", a.op, {refreshed.op});
  }
}

TEST_CASE("jacobi-cuda refuses dense and banded operators and a zero diagonal") {
  auto gpu = tk::make_preconditioner("jacobi-cuda");
  CHECK_THROWS_WITH_AS(gpu->setup(dense<double>(4).op),
                       "the preconditioner cannot be built from a real dense operator (it takes: "
                       "real csr, complex csr, real stencil7, complex stencil7)",
                       solvent::UnsupportedOperator);
  CHECK_THROWS_AS(gpu->setup(banded<complex>(4).op), solvent::UnsupportedOperator);
  solvent::CsrMatrix<double> a;
  a.rows = a.cols = 3;
  a.row_ptr = {0, 1, 2, 3};
  a.col_idx = {0, 1, 1};
  a.values = {1.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(gpu->setup(std::make_shared<const solvent::Operator>(a)),
                       "jacobi-cuda: the diagonal of row 3 of the matrix is zero", solvent::SolverError);
  solvent::test::check_apply_refusals("jacobi-cuda", csr<double>(3).op);
}
