#pragma once
// What both Jacobi plugins do on the host: refuse a storage they did not declare, take the
// inverse of the operator's diagonal (the CUDA plugin uploads it), and check an apply()
// against what was set up.
#include <solvent/operator.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace solvent::jacobi {

// Throws UnsupportedOperator, naming the plugin, the storage given and the ones it takes,
// when form_of(a) is not among `forms`.
void require_form(const Operator& a, const std::vector<OperatorForm>& forms, const char* plugin);

// 1 / a_ii for every row, in a's scalar type. An inactive seven-point node (c0 = 0) carries
// the equation u = 0, so its diagonal is 1. Throws SolverError
// "<plugin>: the diagonal of row N is zero" for the first such row (a CSR row without a
// diagonal entry included).
Vector inverse_diagonal(const Operator& a, const char* plugin);

// Before z = D^{-1} r: setup() succeeded (set_up_for holds the operator's scalar type) for
// an operator of r's scalar type and of n rows.
void check_apply(std::optional<ScalarKind> set_up_for, ScalarKind given, std::size_t n,
                 std::size_t r_size, std::size_t z_size, const char* plugin);

}  // namespace solvent::jacobi
