#pragma once
// What every dense solver checks first: that its operator is square.
#include <solvent/operator.hpp>

#include <cstddef>
#include <string_view>

namespace solvent::dense {

// The order n of the square dense operator (real or complex) a solver was given; throws
// SolverError "<solver>: matrix is R x C, not square" otherwise.
std::size_t square_order(const Operator& op, std::string_view solver);

}  // namespace solvent::dense
