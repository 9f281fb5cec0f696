#pragma once
// What both Jacobi plugins do on the host: take the inverse of the operator's diagonal (the
// CUDA plugin uploads it). The core has checked the operator's form against forms() before.
#include <solvent/operator.hpp>

namespace solvent::jacobi {

// 1 / a_ii for every row, in a's scalar type. An inactive seven-point node (c0 = 0) carries
// the equation u = 0, so its diagonal is 1. Throws SolverError
// "<plugin>: the diagonal of row N of the matrix is zero" for the first such row (a CSR row
// without a diagonal entry included), N counted from 1 as in a Matrix Market file.
Vector inverse_diagonal(const Operator& a, const char* plugin);

}  // namespace solvent::jacobi
