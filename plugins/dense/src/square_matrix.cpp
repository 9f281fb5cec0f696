#include "src/square_matrix.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <variant>

namespace solvent::dense {

std::size_t square_order(const Operator& op, std::string_view solver) {
  const auto [rows, cols] =
      scalar_of(op) == ScalarKind::Real
          ? std::pair{std::get<DenseMatrix<double>>(op).rows, std::get<DenseMatrix<double>>(op).cols}
          : std::pair{std::get<DenseMatrix<complex>>(op).rows,
                      std::get<DenseMatrix<complex>>(op).cols};
  if (rows != cols)
    throw SolverError(fmt::format("{}: matrix is {} x {}, not square", solver, rows, cols));
  return rows;
}

}  // namespace solvent::dense
